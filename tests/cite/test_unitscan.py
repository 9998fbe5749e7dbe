"""Scanning every unit of a law over slices of its top unit's tokens (legalkg.cite.unitscan)."""

from __future__ import annotations

import pytest

from legalkg import paths
from legalkg.cite import grammar, lexicon
from legalkg.cite.chain import parse_chain
from legalkg.cite.grammar import candidates, scan, scan_tokens
from legalkg.cite.reader import Reader
from legalkg.cite.relative import parse_relative
from legalkg.cite.tokens import tokenize
from legalkg.cite.unitscan import scan_each, unit_chains
from legalkg.model import TEXT_LEVELS

from .conftest import make_law


def _as_tuples(chains):
    return [(c.start, c.end, [(r.start, r.end, r.unit, r.para, r.para_to, r.ff, r.levels, r.law_cited,
                               r.law_key, r.law_kind, r.version) for r in c.refs]) for c in chains]


def _check_law(law, registry) -> int:
    units = [u for u in law.units if u.level in TEXT_LEVELS]
    got = unit_chains(units, registry)
    assert set(got) == {u.id for u in units}
    each = scan_each(units, registry)
    cited = 0
    for u in units:
        want = scan(u.text, registry, relative=True) if u.text else []
        assert _as_tuples(got[u.id]) == _as_tuples(want) == _as_tuples(each[u.id]), u.id
        cited += bool(want)
    return cited


@pytest.mark.parametrize("slug", ["bgb", "stpo", "sgb_5", "zpo"])
def test_every_unit_scans_as_its_own_text(slug, registry):
    """Whole laws from the statute snapshot: the slice scan equals scanning each text on its own."""
    path = paths.gii_dir() / f"{slug}.xml"
    if not path.exists():
        pytest.skip(f"shared gii data not available: {path}")
    from legalkg.parse import parse_file

    assert _check_law(parse_file(path), registry) > 1_000


def test_chains_carry_the_units_own_offsets(registry):
    """BGB § 42 Abs. 1 Satz 3 (bgb.xml) cites "Satzes 2": at its offset in each text that holds it."""
    s1 = ("Der Verein wird durch die Eröffnung des Insolvenzverfahrens und mit Rechtskraft des Beschlusses, "
          "durch den die Eröffnung des Insolvenzverfahrens mangels Masse abgewiesen worden ist, aufgelöst.")
    s2 = ("Wird das Verfahren auf Antrag des Schuldners eingestellt oder nach der Bestätigung eines "
          "Insolvenzplans, der den Fortbestand des Vereins vorsieht, aufgehoben, so kann die "
          "Mitgliederversammlung die Fortsetzung des Vereins beschließen.")
    s3 = ("Durch die Satzung kann bestimmt werden, dass der Verein im Falle der Eröffnung des "
          "Insolvenzverfahrens als nicht rechtsfähiger Verein fortbesteht; auch in diesem Falle kann unter "
          "den Voraussetzungen des Satzes 2 die Fortsetzung als rechtsfähiger Verein beschlossen werden.")
    absatz = " ".join([s1, s2, s3])
    law = make_law("BGB", [("BGB/§42", "(1) " + absatz), ("BGB/§42/Abs1", absatz), ("BGB/§42/Abs1/S1", s1),
                           ("BGB/§42/Abs1/S2", s2), ("BGB/§42/Abs1/S3", s3)])
    got = unit_chains(law.units, registry)
    at = s3.index("Satzes 2")
    in_absatz = len(s1) + 1 + len(s2) + 1 + at  # the Sätze are joined by one blank
    in_para = len("(1) ") + in_absatz
    assert [(c.start, c.end) for c in got["BGB/§42/Abs1/S3"]] == [(at, at + 8)]
    assert [(c.start, c.end) for c in got["BGB/§42/Abs1"]] == [(in_absatz, in_absatz + 8)]
    assert [(r.start, r.end) for c in got["BGB/§42"] for r in c.refs] == [(in_para, in_para + 8)]
    assert got["BGB/§42/Abs1/S1"] == [] and got["BGB/§42/Abs1/S2"] == []


def test_a_child_not_found_between_blanks_is_scanned_on_its_own(registry):
    """Texts the parser would not write (a child glued to a word, a child missing from its parent)."""
    law = make_law("BGB", [
        ("BGB/§1", "Vorschrift nach Absatz 2 gilt.x"),
        ("BGB/§1/S1", "nach Absatz 2 gilt."),       # found, but followed by "x": not between blanks
        ("BGB/§1/S2", "Absatz 3 Satz 1 gilt."),     # not in the parent's text at all
        ("BGB/§2", "Keine Verweisung hier."),       # no trigger word: its children are not searched
        ("BGB/§2/S1", "Keine Verweisung hier."),
    ])
    got = unit_chains(law.units, registry)
    for u in law.units:
        assert _as_tuples(got[u.id]) == _as_tuples(scan(u.text, registry, relative=True)), u.id
    assert len(got["BGB/§1/S1"]) == 1 and len(got["BGB/§1/S2"]) == 1


def _walk_every_token(tokens, registry, relative):
    """The scan loop as it was before candidates: every token visited, a parse tried at § and
    starter words (the lexicon's starters), the walk resumed after a chain."""
    lex = lexicon.default()
    p = Reader(tokens, registry, relative, lex)
    out, i = [], 0
    while i < len(tokens):
        tok = tokens[i]
        parsed = None
        if tok.kind == "sect" or (tok.kind == "word" and tok.low in lex.starters()):
            if p.head(i) is not None:
                parsed = parse_chain(p, i)
            elif tok.kind == "word" and (tok.low in lex.keywords or tok.low in lex.directions):
                parsed = parse_relative(p, i)
                if parsed is not None and not relative and all(r.unit is None for r in parsed[0].refs):
                    parsed = (None, parsed[1])
        if parsed is None:
            i += 1
            continue
        chain, j = parsed
        if chain is not None and not grammar.is_secondary(p, i, j, chain):
            out.append(chain)
        i = max(j, i + 1)
    return out


@pytest.mark.parametrize("text", [
    "nach § 5 Abs. 2 und den §§ 7 bis 9 sowie Satz 1 des vorstehenden Absatzes",
    "§ 177 Rn. 129 und BGHR StGB § 63 Gefährlichkeit 35, § 5 III BGB",
    "Absatz 1 Satz 2 Nr. 3 Buchstabe a gilt; Art. 20 Abs. 3 GG; Abs. Abs. § §",
    "SGB V § 13 Abs. 2, Artikel 6 Abs. 2 und 3, §§ 1572 und 1573 f.",
])
@pytest.mark.parametrize("relative", [True, False])
def test_scanning_only_candidates_equals_the_token_walk(text, relative, registry):
    """scan_tokens skips straight to the candidates and finds what a walk over every token finds."""
    tokens = tokenize(text)
    every = _walk_every_token(tokens, registry, relative)
    assert every
    assert _as_tuples(scan_tokens(tokens, candidates(tokens), registry, relative)) == _as_tuples(every)
