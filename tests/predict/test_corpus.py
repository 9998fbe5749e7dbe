"""The corpus over every § (BM25, static cosine, the law router) and the statutes' own training pairs,
on real statute text (pure, no server).

Expectations were checked by reading the texts of the shared gii XML:

- BUrlG § 3 "Dauer des Urlaubs": "(1) Der Urlaub beträgt jährlich mindestens 24 Werktage."
- StGB § 242 "Diebstahl": "Wer eine fremde bewegliche Sache einem anderen in der Absicht wegnimmt ..."
- StVG § 4 "Fahreignungs-Bewertungssystem": points for traffic offences, the Fahrerlaubnis withdrawn at 8.
- TzBfG § 22 Abs. 1 cites §§ 9a, 12, 13 and 14 of its own law.
"""

from __future__ import annotations

import numpy as np
import pytest

from legalkg.predict import graphpairs
from legalkg.predict.corpus import Corpus, cached, digest
from legalkg.predict.units import unit_texts


@pytest.fixture(scope="module")
def units() -> dict[str, str]:
    return unit_texts(["burlg", "stgb", "stvg", "tzbfg"])


@pytest.fixture(scope="module")
def corpus(units) -> Corpus:
    return Corpus.build(units)


def best(corpus: Corpus, scores: np.ndarray, n: int) -> list[str]:
    return [corpus.ids[j] for j in np.argsort(-scores, kind="stable")[:n]]


def test_the_corpus_holds_every_paragraph_and_only_paragraphs(corpus, units):
    assert corpus.ids == sorted(u for u in units if u.count("/") == 1)
    assert set(corpus.laws) == {"BUrlG", "StGB", "StVG", "TzBfG"}
    assert corpus.vectors.shape == (len(corpus.ids), corpus.vectors.shape[1])
    assert np.allclose(np.linalg.norm(corpus.vectors, axis=1), 1, atol=1e-4)


def test_bm25_finds_theft_and_embezzlement_from_their_own_words(corpus):
    # § 242 (Diebstahl) and § 246 (Unterschlagung) both speak of "eine fremde bewegliche Sache"
    # that someone "rechtswidrig zueignet"
    scores = corpus.bm25(["fremde bewegliche Sache rechtswidrig zueignen"])[0]
    assert {"StGB/§242", "StGB/§246"} <= set(best(corpus, scores, 4))


def test_bm25_and_vectors_find_the_minimum_holiday(corpus):
    q = "Wie viele Werktage Urlaub stehen mir mindestens zu?"
    assert "BUrlG/§3" in best(corpus, corpus.bm25([q])[0], 3)
    assert "BUrlG/§3" in best(corpus, corpus.cosines([q])[0], 10)


def test_the_router_sends_lay_questions_to_their_law(corpus):
    assert corpus.top_laws("Wie viele Tage Urlaub stehen mir als Arbeitnehmer zu?", 1)[0][0] == "BUrlG"
    assert corpus.top_laws("Wie viele Punkte in Flensburg darf man haben, bevor der Führerschein weg ist?",
                           1)[0][0] == "StVG"
    assert corpus.top_laws("Welche Strafe droht für einen Diebstahl im Laden?", 1)[0][0] == "StGB"


def test_an_empty_query_scores_nothing(corpus):
    assert not corpus.bm25([""]).any() and not corpus.cosines([""]).any()
    assert corpus.top_laws("") == []


def test_the_cache_returns_the_same_corpus_and_a_changed_text_builds_anew(units, tmp_path):
    small = {u: t for u, t in units.items() if u.startswith("BUrlG/")}
    first = cached(small, tmp_path)
    again = cached(small, tmp_path)
    assert again.ids == first.ids and np.array_equal(again.vectors, first.vectors)
    assert (again.weights != first.weights).nnz == 0
    changed = {**small, "BUrlG/§3": small["BUrlG/§3"] + " Ergänzt."}
    assert digest(changed) != digest(small)
    cached(changed, tmp_path)
    assert len(list(tmp_path.glob("*.npz"))) == 2


def test_a_damaged_cache_is_rebuilt(units, tmp_path):
    small = {u: t for u, t in units.items() if u.startswith("BUrlG/")}
    (tmp_path / f"{digest(small)}.npz").write_bytes(b"not a zip file")
    assert cached(small, tmp_path).ids == sorted(u for u in small if u.count("/") == 1)


def test_heading_pairs_ask_for_their_own_section(units):
    import random

    got = {e.labels[0]: e.text for e in graphpairs.headings(units, random.Random(0))}
    assert got.get("BUrlG/§3") == "Dauer des Urlaubs"
    assert all(len(pairs) <= graphpairs.PER_LAW for pairs in [
        [u for u in got if u.startswith(law + "/")] for law in ("StGB", "StVG")])
    assert all(not text.startswith("(") for text in got.values())


def test_citation_pairs_mask_the_citation_and_name_the_cited_sections(units):
    import random

    from legalkg.cite import LawRegistry

    pairs = graphpairs.citations(units, LawRegistry.default(), random.Random(0))
    by_id = {e.id: e for e in pairs}
    assert pairs and all("§" not in e.text for e in pairs)
    assert all(lab.split("/", 1)[0] in {"BUrlG", "StGB", "StVG", "TzBfG"} for e in pairs for lab in e.labels)
    tz = [e for e in pairs if e.id.startswith("citation:TzBfG/§22/Abs1")]
    if tz:  # drawn: its gold is the four §§ it cites
        assert set(tz[0].labels) == {"TzBfG/§9a", "TzBfG/§12", "TzBfG/§13", "TzBfG/§14"}
    assert all(e.group == e.labels[0] for e in by_id.values())
