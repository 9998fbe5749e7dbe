"""A law outside the graph that an ordinance's Eingangsformel names is kept as an unresolved
``AUTHORIZED_BY`` edge with its status, to a ``CitedLaw`` node naming the law (issue 45): the rows both
loaders write, and the bulk import's CSV. Pure; the live graph (Cypher loader) is in test_related.py.
Hand-checked against the Eingangsformeln quoted (gii XML of the all-laws archive)."""

from __future__ import annotations

import csv

from legalkg.cite import KnownUnits, LawRegistry
from legalkg.graph import import_files
from legalkg.graph.enabling import enabling_counts, enabling_rows
from legalkg.graph.extraction import parsed_unit_ids
from legalkg.model import Law
from legalkg.parse import parse_bytes
from legalkg.vocab import EnablingStatus
from tests.archive import archive_members
from tests.facts.test_former_law import BAUMASCH


def test_only_a_law_outside_the_graph_is_an_edge():
    assert {s for s in EnablingStatus if s.law_outside} == {"law_not_in_graph", "unknown_law"}


def test_a_former_law_is_an_unresolved_edge_to_the_law_as_named():
    # BauMaschMeistPrV: "Auf Grund des § 46 Abs. 2 Satz 1 des Berufsbildungsgesetzes vom 14. August 1969 ...
    # und auf Grund des § 42 Abs. 2 Satz 1 der Handwerksordnung ...": the BBiG of 1969 is not the BBiG 2005
    law = Law.model_construct(key="BauMaschMeistPrV", jurabk="BauMaschMeistPrV", preamble=BAUMASCH, units=[])
    known = {"BBiG 2005/§46/Abs2/S1", "HwO/§42/Abs2/S1"}
    rows, unresolved, _ = enabling_rows(law, LawRegistry.default(), known, set())
    assert [(r["target"], r.get("cited")) for r in rows] == [
        ("HwO/§42/Abs2/S1", None),
        ("BauMaschMeistPrV@Berufsbildungsgesetzes (former law)", "Berufsbildungsgesetzes (former law)")]
    cited = rows[1]
    assert cited["props"]["status"] == "unknown_law" and cited["props"]["role"] == "basis"
    assert cited["props"]["text"] == "§ 46 Abs. 2 Satz 1 des Berufsbildungsgesetzes"
    assert len(unresolved) == 1 and unresolved[0].startswith("unknown_law|")
    counts = enabling_counts([law], [(rows, unresolved, "")])
    assert (counts["edges"], counts["unresolved"], counts["unresolved_edges"]) == (1, 1, 1)


def test_the_bulk_import_writes_the_cited_law_and_the_edge_with_its_status():
    # GenTPflEV: "Auf Grund des § 16b Abs. 6 des Gentechnikgesetzes in der Fassung der Bekanntmachung vom
    # 16. Dezember 1993 ..., verordnet die Bundesregierung:" -- imported without the GenTG
    [(slug, data)] = archive_members("gentpflev").items()
    law = parse_bytes(data, f"{slug}.xml", slug=slug)
    ids, repealed = parsed_unit_ids([law])
    lines, _, _, (_, counts) = import_files.law_csv(law, LawRegistry.default(), KnownUnits(ids), repealed)
    [node] = list(csv.reader(lines.lines["nodes-CitedLaw"]))
    columns = dict(zip(import_files.NODE_COLUMNS, node, strict=True))
    assert (columns["id"], columns["name"], columns["law"]) == ("GenTPflEV@GenTG", "GenTG", "GenTPflEV")
    rels = [dict(zip([":START_ID", ":END_ID", ":TYPE", *import_files.REL_COLUMNS], r, strict=True))
            for r in csv.reader(lines.lines["rels"])]
    [edge] = [r for r in rels if r[":TYPE"] == "AUTHORIZED_BY"]
    assert (edge[":START_ID"], edge[":END_ID"], edge["status"], edge["citation"], edge["role"]) == (
        "GenTPflEV", "GenTPflEV@GenTG", "law_not_in_graph", "§ 16b Abs. 6 GenTG", "basis")
    assert counts["unresolved_edges"] == 1 and counts["edges"] == 0
