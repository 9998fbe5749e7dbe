"""cases.spans: which parts of a decision's line the grammar may read alone, and what it remembers.

The spans are cut by hand-checked rules (docstring of legalkg/cases/spans.py); whether a span's reading
equals the whole line's on real decisions is tests/cases/test_decisions.py's job.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from legalkg.cases.spans import SpanReader, context_ok, spans, vocabularies
from legalkg.cite import KnownUnits
from legalkg.model import TEXT_LEVELS
from legalkg.parse import iter_laws

CITE = Path(__file__).resolve().parents[2] / "legalkg" / "cite"
#: the grammar's modules whose string literals name words it reads
GRAMMAR_MODULES = ("court", "chain", "levels", "reader", "lawname", "relative", "grammar", "refs", "caselaw",
                   "resolve", "normalize", "tokens", "registry")
#: literals of those modules that are labels (token kinds, lexicon kinds and flags), not words of a text
LABELS = {"named", "num", "own", "word", "sect", "range", "article", "abcdefghijklmnopqrstuvwxyz", "noordinal",
          "dotted", "dot", "comma", "slash", "unknown", "norel", "candidates", "scan", "commentary", "reglement",
          "alias", "starts", "ends"}


def words_of(line: str) -> list[str]:
    return [line[s:e] for s, e in spans(line, vocabularies())]


def test_a_span_runs_from_its_head_to_the_first_plain_word():
    line = "Die Kündigung ist nach § 573 Abs. 2 Nr. 2 BGB wirksam; Art. 14 Abs. 1 GG verlangt nichts anderes."
    assert words_of(line) == ["§ 573 Abs. 2 Nr. 2 BGB", "Art. 14 Abs. 1 GG"]


@pytest.mark.parametrize("line", [
    "Absatz 2 des § 5 BGB verlangt das.",  # a level keyword before the head: a relative reference may start there
    "Es gilt BGB § 433 entsprechend.",  # a law name right before the head
    "BGHR StGB § 46 Abs. 1 Strafhöhe 3 betrifft das.",  # a reporter entry
    "Die Klage ist nach §§ 1 bis 3 UWG begründet.",  # a range: the grammar's budget is shared by the line
    "So BGH, Urteil vom 22. Mai 2019 – VIII ZR 180/18, zu § 573 BGB.",  # a case citation within reach
])
def test_a_line_whose_head_another_chain_may_reach_is_read_whole(line):
    found = spans(line, vocabularies())
    assert found is None or any(not ok for ok in _context(line, found))


def _context(line, found):
    return [context_ok(line, s, e) for s, e in found]


def test_every_word_the_grammar_code_names_is_no_plain_word():
    """A word the grammar's code compares tokens with (besides its lexicon) must end no span."""
    after = vocabularies().after
    missing = set()
    for name in GRAMMAR_MODULES:
        tree = ast.parse((CITE / f"{name}.py").read_text("utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Tuple | ast.Set | ast.List | ast.Compare):
                missing |= {c.value for c in ast.walk(node) if isinstance(c, ast.Constant) and isinstance(c.value, str)
                            and re.fullmatch(r"[a-zäöüß]{2,}", c.value) and c.value not in after}
    assert missing <= LABELS, sorted(missing - LABELS)


@pytest.fixture(scope="module")
def known():
    ids = {u.id for _, law in iter_laws(None, ["bgb", "zpo"]) for u in law.units if u.level in TEXT_LEVELS}
    return KnownUnits(ids)


def test_a_span_is_read_once_and_remembered(known):
    reader = SpanReader(known)
    first = "Die Kündigung ist nach § 573 Abs. 2 Nr. 2 BGB wirksam."
    second = "Der Vermieter kann nach § 573 Abs. 2 Nr. 2 BGB kündigen."
    assert tuple(reader.read(first)) == (("BGB/§573/Abs2/S1/Nr2", "§ 573 Abs. 2 Nr. 2 BGB"),)
    assert (reader.hits, reader.misses) == (0, 1)
    assert tuple(reader.read(second)) == tuple(reader.read(first))
    assert (reader.hits, reader.misses, reader.whole_lines) == (2, 1, 0)
    whole = "Absatz 2 des § 91 ZPO gilt."
    assert tuple(reader.read(whole)) == reader.read_text(whole) and reader.whole_lines == 1
