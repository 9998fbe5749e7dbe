"""The CSV files of a bulk import: the rows a Cypher load would write, as ``neo4j-admin database
import`` reads them (pure: no server).

Why the same rows: the imported graph must be the Cypher load's graph property for property (same
labels, properties, relationship types and the ``hash`` / ``cites_hash`` markers), so every later
``legalkg ingest`` updates it in place through Cypher (``tests/graph/test_bulk.py`` compares both).
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from ..model import TEXT_LEVELS, Law, Level
from ..vocab import RetrievalLevel
from .broken import BROKEN_REFERENCE, HAS_BROKEN_REFERENCE, law_citations
from .enabling import CITED_LAW, enabling_counts, enabling_rows
from .rows import LawRows, edge_rows, law_rows
from .terms import term_nodes, term_rows

ARRAY_DELIMITER = "\x1f"  # ASCII unit separator: never part of a statute text or an id

#: Every node property the load writes, with its import type. A property outside this list stops
#: the import before anything is touched (``UnknownProperty``), so the two loaders cannot drift.
NODE_COLUMNS: dict[str, str] = {
    "id": "ID", "law": "string", "level": "string", "order": "long", "label": "string",
    "kind": "string", "title": "string", "text": "string", "words": "long", "citation": "string",
    "para": "string", "absatz": "string", "satz": "string", "nummer": "string",
    "buchstabe": "string", "doppelbuchstabe": "string", "repealed": "boolean",
    "footnotes": "string[]", "builddate": "string", "covers": "string[]", "hash": "string",
    "gen": "string", "cites_hash": "string", "jurabk": "string", "amtabk": "string",
    "stand": "string", "doknr": "string", "slug": "string", "name": "string", "source": "string",
    "preamble": "string", "issuer": "string", "enabling_hash": "string", "enabling_unresolved": "string[]",
    "terms_hash": "string", "term": "string", "key": "string", "scope": "string", "scope_kind": "string",
    "broken_hash": "string", "reference": "string", "target": "string", "status": "string", "reason": "string",
}
REL_COLUMNS: dict[str, str] = {"gen": "string", "kind": "string", "text": "string", "role": "string",
                               "citation": "string", "start": "long", "end": "long", "issuer": "string",
                               "exact": "boolean", "pattern": "string", "starts": "long[]", "ends": "long[]",
                               "status": "string"}
_COLUMN_NAMES = NODE_COLUMNS.keys()
_REL_NAMES = tuple(REL_COLUMNS)


class UnknownProperty(ValueError):
    pass


def _header(columns: dict[str, str], rel: bool = False) -> str:
    if rel:
        return ",".join([":START_ID", ":END_ID", ":TYPE"] + [f"{k}:{t}" for k, t in columns.items()])
    return ",".join("id:ID" if t == "ID" else f"{k}:{t}" for k, t in columns.items())


def csv_field(value: object) -> str:
    """One CSV field: strings always quoted (so "" stays an empty string), absent values empty."""
    if value is None:
        return ""
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, (list, tuple)):
        value = ARRAY_DELIMITER.join(map(str, value))
    return '"' + str(value).replace('"', '""') + '"'


def _fields(values) -> list[str]:
    """:func:`csv_field` of each value; absent values and strings (nearly all of the 30 columns of ~185k
    nodes) are formatted inline instead of by one call each."""
    return ["" if v is None else ('"' + v.replace('"', '""') + '"' if v.__class__ is str else csv_field(v))
            for v in values]


class CsvLines:
    """The CSV lines of one law per file, built in a worker process (pickles as plain strings).

    Node files are per label set, relationships share one file; every file of a kind has the same
    columns (an absent value is an empty field), so lines of many laws concatenate.
    """

    def __init__(self) -> None:
        self.lines: dict[str, list[str]] = defaultdict(list)
        self.nodes = 0
        self.rels = 0
        self.multiline = False

    def _add(self, name: str, fields: list[str]) -> None:
        line = ",".join(fields)
        if not self.multiline and ("\n" in line or "\r" in line):
            self.multiline = True
        self.lines[name].append(line)

    def node(self, labels: tuple[str, ...], props: dict) -> None:
        unknown = props.keys() - _COLUMN_NAMES
        if unknown:
            raise UnknownProperty(f"node property {sorted(unknown)} has no import column")
        self._add("nodes-" + "-".join(labels), _fields(map(props.get, _COLUMN_NAMES)))
        self.nodes += 1

    def rel(self, source: str, target: str, rtype: str, props: dict) -> None:
        self._add("rels", [csv_field(source), csv_field(target), rtype, *_fields(map(props.get, _REL_NAMES))])
        self.rels += 1


class CsvFolder:
    """The import files: the lines of every law appended to one file per name.

    Some statute texts hold line breaks, so the import runs with ``--multiline-fields`` when any
    field has one. Leaving those values out of the CSV (to set
    them through Cypher afterwards) was tried ad hoc: the node import gained too little for a
    second write path.
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.files: dict[str, object] = {}
        self.nodes = 0
        self.rels = 0
        self.multiline = False

    def add(self, part: CsvLines) -> None:
        for name, lines in part.lines.items():
            fh = self.files.get(name)
            if fh is None:
                fh = (self.folder / f"{name}.csv").open("w", encoding="utf-8", newline="")
                fh.write(_header(REL_COLUMNS, rel=True) if name == "rels" else _header(NODE_COLUMNS))
                fh.write("\n")
                self.files[name] = fh
            fh.write("\n".join(lines))
            fh.write("\n")
        self.nodes += part.nodes
        self.rels += part.rels
        self.multiline = self.multiline or part.multiline

    def close(self) -> None:
        for fh in self.files.values():
            fh.close()

    def import_args(self) -> list[str]:
        """The importer's options for these files (array delimiter, report file, files, multiline)."""
        args = [f"--array-delimiter=U+{ord(ARRAY_DELIMITER):04X}", f"--report-file={self.folder / 'import.report'}"]
        for name in self.files:
            path = self.folder / f"{name}.csv"
            args.append(f"--relationships={path}" if name == "rels"
                        else f"--nodes={':'.join(name.split('-')[1:])}={path}")
        return args + (["--multiline-fields=true"] if self.multiline else [])


def root_lines() -> CsvLines:
    """The graph's one ``Root`` node, which every Gesetz hangs from (written once per import)."""
    root = CsvLines()
    root.node((Level.ROOT.value,), {"id": "ROOT", "name": "Bundesrecht", "source": "gesetze-im-internet.de"})
    return root


def write_structure(out: CsvLines, rows: LawRows) -> None:
    """Nodes and CONTAINS edges of one law, as ``create_nodes``/``create_chunks`` write them."""
    out.rel("ROOT", rows.law, "CONTAINS_GESETZ", {"gen": rows.hash})
    for (_, _, _parent, level), group in rows.groups.items():
        labels = (level.value, "Unit") if level in TEXT_LEVELS else (level.value,)
        rtype = f"CONTAINS_{level.value.upper()}"
        for row in group:
            out.node(labels, {**row["props"], "id": row["id"], "gen": rows.hash})
            out.rel(row["parent"], row["id"], rtype, {"gen": rows.hash})
    for row in rows.chunks:
        out.node((RetrievalLevel.CHUNK.value,), {**row["props"], "id": row["id"], "gen": rows.hash})


def write_cites(out: CsvLines, edges: list) -> str:
    """CITES_<level> edges of one law; returns their digest (the law's ``cites_hash``)."""
    grouped, digest = edge_rows(edges)
    for level, group in grouped.items():
        rtype = f"CITES_{level.value.upper()}"
        for r in group:
            out.rel(r["source"], r["target"], rtype, {"gen": digest, "kind": r["kind"], "text": r["text"],
                                                      "starts": r["starts"], "ends": r["ends"]})
    return digest


def write_gesetz(out: CsvLines, rows: LawRows, cites_hash: str, enabling: tuple | None = None,
                 terms_hash: str | None = None, broken_hash: str | None = None) -> None:
    props = {**rows.gesetz, "id": rows.law, "gen": rows.hash, "hash": rows.hash, "cites_hash": cites_hash}
    if enabling is not None:
        props.update(enabling_hash=enabling[2], enabling_unresolved=enabling[1])
    if terms_hash is not None:
        props["terms_hash"] = terms_hash
    if broken_hash is not None:
        props["broken_hash"] = broken_hash
    out.node((Level.GESETZ.value,), props)


def write_terms(out: CsvLines, terms: tuple[list[dict], str]) -> None:
    """Term nodes and DEFINES edges of one law, as ``load/upsert_terms`` writes them."""
    rows, digest = terms
    for tid, props in term_nodes(rows).items():
        out.node(("Term",), {**props, "id": tid, "gen": digest})
    for r in rows:
        out.rel(r["unit"], r["id"], "DEFINES", {**r["edge"], "gen": digest})


def write_enabling(out: CsvLines, enabling: tuple) -> int:
    """AUTHORIZED_BY edges of one law, as ``load/upsert_enabling`` and ``load/upsert_cited_law`` write
    them (with the CitedLaw nodes of the unresolved ones); returns their count."""
    edges, _, digest = enabling
    cited: set[str] = set()
    for r in edges:
        if "cited" in r and r["target"] not in cited:
            cited.add(r["target"])
            out.node((CITED_LAW,), {"id": r["target"], "name": r["cited"], "law": r["source"], "gen": digest})
        out.rel(r["source"], r["target"], "AUTHORIZED_BY", {**r["props"], "gen": digest})
    return len(edges)


def write_broken(out: CsvLines, broken: tuple[list[dict], str]) -> None:
    """BrokenReference nodes of one law and the edges from their citing units, as ``load/upsert_broken``
    writes them."""
    rows, digest = broken
    for r in rows:
        out.node((BROKEN_REFERENCE,), {**r["props"], "id": r["id"], "gen": digest})
        out.rel(r["unit"], r["id"], HAS_BROKEN_REFERENCE, {"gen": digest})


def law_csv(law: Law, registry, known, repealed: set[str]) -> tuple[CsvLines, int, int, object]:
    """Everything one law puts into the import: its CSV lines, node count, citation edge count and
    extraction statistics (the Gesetz node carries the citation digest, so it is written last)."""
    rows = law_rows(law)
    out = CsvLines()
    write_structure(out, rows)
    edges, stats, broken = law_citations(law, registry, known, repealed)
    before = out.rels
    digest = write_cites(out, edges)
    cites = out.rels - before
    write_broken(out, broken)
    enabling = enabling_rows(law, registry, known, repealed)
    write_enabling(out, enabling)
    terms = term_rows(law)
    write_terms(out, terms)
    write_gesetz(out, rows, digest, enabling, terms[1], broken[1])
    return out, rows.node_count, cites, (stats, enabling_counts([law], [enabling]))
