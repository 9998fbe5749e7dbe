"""Numbers read from committed result files, and the figures that prose quotes from them.

A number quoted in README.md, docs/ or an eval README is followed by ``<!-- from FILE: FIELD -->``;
``quotes`` finds each quoted number with its file and field, and ``Quote.problem`` reads the field
and says whether the number agrees at its precision (``tests/test_figures.py``; docs/evaluation.md
section 8). The readers (``committed``, ``table_rows``, ``read_json``) serve the table renderers of
``research/figure_tables.py`` too.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def read_json(rel: str) -> dict:
    return json.loads((REPO / rel).read_text("utf-8"))


def log_numbers(text: str, pattern: str) -> list[str]:
    """The numbers of the first line of ``text`` that matches ``pattern``, as written."""
    line = next(line for line in text.splitlines() if re.search(pattern, line))
    return [m.group(0) for m in NUMBER.finditer(line)]


def half_up(value: str, digits: int) -> str:
    """``value`` (as a file writes it) rounded half up to ``digits`` decimals: 0.2885 -> 0.289."""
    from decimal import ROUND_HALF_UP, Decimal

    return str(Decimal(value).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP))


# --- figures quoted in prose -------------------------------------------------------------------------
#
# A number quoted in a sentence is followed by a comment naming its file and field:
#
#     the quickstart took 391 s<!-- from eval/first-run/README.md: [step=total].seconds -->
#
# ``FIELD; FIELD; ...`` name the last numbers before the comment, in order (back to the previous
# comment). A field is
# - a JSON key path: ``a.b[0].c``, ``rows[mode=learned].recall``;
# - a row and column of a CSV, TSV or Markdown table: ``[level=Satz,mode=vector].toer``
#   (``#=2`` picks a page's second table; ``.col+1`` the second number of a cell such as
#   ``0.291 [0.274, 0.308]``); ``count[ok=yes]`` counts the rows (``count[]`` all);
# - ``/regex/``: the first number after the regex's first match in a text file (a log, a result
#   page's prose); ``/regex/+2`` the third;
# - ``_``: a number that is not the file's (a § number between two figures), passed over.
# ``FILE@COMMIT`` reads the file as that commit holds it (an earlier run that a later one replaced).
# `` *100`` or `` /60`` after a field scales the file's value; ``A over B`` divides two fields.
# Comments with nothing but space between them name the numbers before the first, in their order.
# The quoted number must equal the file's value at the quoted precision.

QUOTE = re.compile(r"<!--\s+from\s+(?P<file>[\w./@-]+):\s+(?P<fields>.+?)\s*-->", re.S)
#: a number as prose writes it: 1,228 / 0.163 / -0.030 / +1.52 (not R@10, usem3, § 5a, 2.2.1)
NUMBER = re.compile(r"(?<![\w.@/§$])(?:[-+−](?=\d))?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?!\.?\d|,\d{3}\b)")
#: what is not prose: fenced code, code spans, a link's address, HTML comments
NOT_PROSE = re.compile(r"^```.*?^```[^\n]*$|`[^`\n]*`|\]\([^)\s]*\)|<!--.*?-->", re.S | re.M)
CODE = re.compile(r"^```.*?^```[^\n]*$|`[^`\n]*`", re.S | re.M)
FIELD = re.compile(r"^(?P<path>.+?)(?:\s+(?P<op>[*/])(?P<by>[\d.]+))?$")


def masked(text: str) -> str:
    """``text`` with what is not prose blanked out (same length, so positions stay)."""
    return NOT_PROSE.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def as_number(token: str) -> float:
    return float(token.replace(",", "").replace("−", "-"))


def decimals(token: str) -> int:
    return len(token.split(".")[1]) if "." in token else 0


def cell(text: str) -> str:
    """A table cell's text without emphasis, code marks and surrounding space."""
    return text.strip().strip("*`_ ").strip()


def markdown_rows(text: str) -> list[dict[str, str]]:
    """Every row of every pipe table of a Markdown page, as {header: cell}; an empty cell holds the
    cell above it (a group's first column is written once), and ``#`` is the table's number (1, 2, ...)."""
    rows: list[dict[str, str]] = []
    header: list[str] | None = None
    tables = 0
    for line in text.splitlines():
        if not line.lstrip().startswith("|"):
            header = None
            continue
        cells = [cell(c) for c in line.strip().strip("|").split("|")]
        if header is None:
            header, above, tables = cells, {}, tables + 1
        elif not all(re.fullmatch(r":?-+:?", c) for c in cells):
            row = {name: value or above.get(name, "") for name, value in zip(header, cells)}
            rows.append({**row, "#": str(tables)})
            above = row
    return rows


def committed(rel: str) -> str:
    """The text of ``rel`` in the checkout, or of ``path@commit`` as that commit holds it (a result that a
    later run replaced)."""
    if "@" in rel:
        path, commit = rel.rsplit("@", 1)
        return subprocess.run(["git", "show", f"{commit}:{path}"], cwd=REPO, capture_output=True, text=True,
                              check=True).stdout
    return (REPO / rel).read_text("utf-8")


def table_rows(rel: str) -> list[dict[str, str]]:
    """The rows of a CSV, TSV (``.csv.gz`` too) or of every table of a Markdown page."""
    import csv
    import gzip
    import io

    name = rel.split("@")[0]
    if name.endswith(".csv.gz"):
        with gzip.open(REPO / rel, "rt", encoding="utf-8") as f:
            return list(csv.DictReader(f))
    if name.endswith((".csv", ".tsv")):
        return list(csv.DictReader(io.StringIO(committed(rel)), delimiter="\t" if name.endswith(".tsv") else ","))
    return markdown_rows(committed(rel))


def conditions_of(where: str) -> list[str]:
    """``col=value,col=value`` split at each comma before a ``col=`` (a value may hold commas)."""
    return [part for part in re.split(r",\s*(?=[^,=\]]+=)", where) if part]


def select(rows: list[dict], where: str, what: str) -> str:
    """The ``what`` column of the one row whose columns equal ``where`` (``col=value,col=value``)."""
    conditions = [part.split("=", 1) for part in conditions_of(where)]
    found = [row for row in rows if all(cell(str(row.get(k.strip(), ""))) == v.strip() for k, v in conditions)
             and what in row]
    if len(found) != 1:
        raise LookupError(f"{len(found)} rows with [{where}] and a column {what!r}")
    return str(found[0][what])


def json_value(data, path: str):
    """``data`` at a key path: ``a.b[0].c``, ``rows[mode=learned].recall``."""
    for key, index in re.findall(r"([^.\[\]]+)|\[([^\]]*)\]", path):
        if key:
            data = data[key]
        elif "=" in index:
            data = select_json(data, index)
        else:
            data = data[int(index)]
    return data


def select_json(items: list[dict], where: str) -> dict:
    conditions = [part.split("=", 1) for part in conditions_of(where)]
    found = [item for item in items if all(str(item.get(k.strip())) == v.strip() for k, v in conditions)]
    if len(found) != 1:
        raise LookupError(f"{len(found)} items with [{where}]")
    return found[0]


def file_value(rel: str, field: str) -> float:
    """The number at ``field`` of the committed file ``rel`` (see the comment above ``QUOTE``);
    ``FIELD over FIELD`` is the ratio of two of its numbers."""
    if re.search(r"\sover\s", field):
        top, bottom = re.split(r"\sover\s", field, maxsplit=1)
        return file_value(rel, top) / file_value(rel, bottom)
    match = FIELD.match(field.strip())
    path, op, by = match.group("path"), match.group("op"), match.group("by")
    if regex := re.fullmatch(r"/(.+)/(?:\+(\d+))?", path):
        text = committed(rel)
        found = re.search(regex.group(1), text)
        numbers = list(NUMBER.finditer(text, found.end()))[:int(regex.group(2) or 0) + 1] if found else []
        if len(numbers) <= int(regex.group(2) or 0):
            raise LookupError(f"no number after {path}")
        value = as_number(numbers[-1].group(0))
    elif count := re.fullmatch(r"count\[(.*)\]", path):
        conditions = [part.split("=", 1) for part in conditions_of(count.group(1))]
        value = sum(all(cell(str(row.get(k.strip(), ""))) == v.strip() for k, v in conditions)
                    for row in table_rows(rel))
    elif rel.split("@")[0].endswith(".json"):
        value = float(json_value(json.loads(committed(rel)), path))
    else:
        where, what, nth = re.fullmatch(r"\[(.*)\]\.(.+?)(?:\+(\d+))?", path).groups()
        value = as_number(list(NUMBER.finditer(cell(select(table_rows(rel), where, what))))[int(nth or 0)].group(0))
    if op:
        value = value * float(by) if op == "*" else value / float(by)
    return value


def agrees(token: str, value: float) -> bool:
    """The quoted ``token`` is ``value`` at the token's precision (rounded half either way)."""
    return abs(as_number(token) - value) <= 0.5 * 10 ** -decimals(token) + 1e-9


class Quote:
    """One number quoted in prose: where it is, what it says, and the file and field it names."""

    def __init__(self, page: Path, line: int, start: int, end: int, token: str, file: str, field: str):
        self.page, self.line, self.start, self.end = page, line, start, end
        self.token, self.file, self.field = token, file, field

    def where(self) -> str:
        return f"{self.page.relative_to(REPO)}:{self.line}: {self.token} <- {self.file}: {self.field}"

    def problem(self) -> str | None:
        """None when the file's value agrees, else what is wrong in one line."""
        try:
            value = file_value(self.file, self.field)
        except (OSError, KeyError, IndexError, LookupError, ValueError, TypeError, AttributeError,
                subprocess.SubprocessError) as e:
            return f"{self.where()}: cannot read it ({type(e).__name__}: {e})"
        if not agrees(self.token, value):
            return f"{self.where()}: the file says {value:g}"
        return None


def quotes(page: Path, text: str | None = None) -> list[Quote]:
    """Every number that a ``<!-- from FILE: FIELD; ... -->`` comment of ``page`` names."""
    text = page.read_text("utf-8") if text is None else text
    prose = masked(text)
    out, previous = [], 0
    for run in runs(text):
        fields = [(m.group("file"), f.strip()) for m in run for f in m.group("fields").split(";")]
        numbers = list(NUMBER.finditer(prose, previous, run[0].start()))[-len(fields):]
        if len(numbers) < len(fields):
            raise ValueError(f"{page.name}: {run[0].group(0)} names {len(fields)} numbers, the text before it "
                             f"has {len(numbers)}")
        for number, (file, field) in zip(numbers, fields):
            if field != "_":
                out.append(Quote(page, text.count("\n", 0, number.start()) + 1, number.start(), number.end(),
                                 number.group(0), file, field))
        previous = run[-1].end()
    return out


def runs(text: str) -> list[list[re.Match]]:
    """The ``<!-- from ... -->`` comments of ``text``, those with only space between them in one run:
    a run names the numbers before it in the order of its comments (figures from several files)."""
    out: list[list[re.Match]] = []
    code = [m.span() for m in CODE.finditer(text)]
    for match in QUOTE.finditer(text):
        if any(start <= match.start() < end for start, end in code):
            continue  # an example of the form, in a code span
        if out and not text[out[-1][-1].end():match.start()].strip():
            out[-1].append(match)
        else:
            out.append([match])
    return out
