"""The learned law router (``legalkg.predict.lawrouter``): the statute words it reads, how lay
questions and statute words make its law scores, the graph's laws as a mask, and its file."""

from __future__ import annotations

import numpy as np
import pytest

from legalkg.errors import UserError
from legalkg.parse.sources import iter_laws
from legalkg.predict.lawrouter import LawRouter, shipped, statute_words


@pytest.fixture(scope="module")
def kschg():
    return next(law for _, law in iter_laws(None, ["kschg"]))


def test_statute_words_are_title_abbreviation_headings_and_gliederung_titles(kschg):
    words = statute_words(kschg, "Kurztitel").split("\n")
    # checked in kschg.xml: the long title, the Erster Abschnitt's title, the headings of §§ 1 and 1a
    assert words[:3] == ["Kündigungsschutzgesetz", "Kurztitel", "KSchG"]
    assert "Allgemeiner Kündigungsschutz" in words
    assert "Sozial ungerechtfertigte Kündigungen" in words
    assert "Abfindungsanspruch bei betriebsbedingter Kündigung" in words
    # no § text: the first Satz of § 1 Abs. 1 is not among them
    assert not any(w.startswith("Die Kündigung des Arbeitsverhältnisses gegenüber") for w in words)


STATUTES = {
    "BUrlG": "Mindesturlaubsgesetz für Arbeitnehmer\nBUrlG\nUrlaubsanspruch\nDauer des Urlaubs",
    "StGB": "Strafgesetzbuch\nStGB\nDiebstahl\nBetrug",
    "MuSchG": "Mutterschutzgesetz\nMuSchG\nSchutzfristen vor und nach der Entbindung",
}
QUESTIONS = [
    ("Mein Chef will mir im Sommer keine freien Tage geben.", ["BUrlG"]),
    ("Der Chef streicht mir die freien Tage, darf er das?", ["BUrlG"]),
    ("Ich wurde im Supermarkt beim Klauen erwischt.", ["StGB"]),
]


def test_lay_words_reach_the_law_they_were_asked_about():
    router = LawRouter.fit(STATUTES, QUESTIONS)
    # "Chef" and "freie Tage" are in no statute's words, only in BUrlG's questions
    assert router.top_laws("Gibt mir mein Chef genug freie Tage?", 1)[0][0] == "BUrlG"
    assert router.top_laws("Klauen im Laden", 1)[0][0] == "StGB"


def test_a_law_without_questions_is_reached_by_its_statute_words():
    router = LawRouter.fit(STATUTES, QUESTIONS)
    assert router.top_laws("Wie lange gilt die Schutzfrist nach der Entbindung?", 1)[0][0] == "MuSchG"
    assert router.top_laws("Entbindung", 3) == router.top_laws("Entbindung", 1)  # no shared word, no law


def test_only_the_given_laws_are_ranked():
    router = LawRouter.fit(STATUTES, QUESTIONS)
    assert [law for law, _ in router.top_laws("Urlaub Diebstahl Entbindung", 5, ["StGB", "GG"])] == ["StGB"]
    assert router.top_laws("Urlaub", 5, []) == []


def test_lay_weight_zero_scores_by_statute_words_alone():
    router = LawRouter.fit(STATUTES, QUESTIONS, lay_weight=0.0)
    statute, lay = router.cosines(["Chef freie Tage"])
    assert lay.max() > 0 and statute.max() == 0
    assert router.top_laws("Chef freie Tage", 3) == []


def test_the_file_keeps_the_scores(tmp_path):
    router = LawRouter.fit(STATUTES, QUESTIONS, lay_weight=2.0)
    again = LawRouter.load(router.save(tmp_path / "r.npz"))
    assert again.laws == router.laws and again.lay_weight == 2.0
    q = ["Chef Urlaub Diebstahl", "Entbindung"]
    np.testing.assert_allclose(again.scores(q), router.scores(q), atol=1e-3)  # stored as float16


def test_a_foreign_file_is_one_line(tmp_path):
    path = tmp_path / "x.npz"
    np.savez(path, a=np.zeros(2))
    with pytest.raises(UserError, match=r"is not a legalkg law router") as err:
        LawRouter.load(path)
    assert "\n" not in str(err.value)


def test_the_shipped_router_knows_every_law_and_reads_lay_words():
    router = shipped()
    assert len(router.laws) >= 6800
    assert {"BGB", "BUrlG", "MuSchG 2018", "BEEG", "MiLoG"} <= set(router.laws)
    # checked against the statutes: § 3 BUrlG (Dauer des Urlaubs), § 242 StGB (Diebstahl)
    assert router.top_laws("Wie viele Tage Urlaub stehen mir als Arbeitnehmer gesetzlich mindestens zu?", 3,
                           ["BGB", "BUrlG", "StGB", "ZPO"])[0][0] == "BUrlG"
    assert router.top_laws("Was für eine Strafe droht für einen Ladendiebstahl?", 3,
                           ["BGB", "BUrlG", "StGB", "ZPO"])[0][0] == "StGB"


def test_cosines_are_the_products_with_the_rows_themselves():
    # the transposed rows are made once per router; the cosines must be those of the plain products,
    # to the bit, for the shipped router and lay questions of three laws
    from legalkg.predict.lawrouter import counts, tfidf

    router = shipped()
    texts = ["Wie viele Tage Urlaub stehen mir als Arbeitnehmer gesetzlich mindestens zu?",
             "Was für eine Strafe droht für einen Ladendiebstahl?",
             "Mein Vermieter gibt die Kaution nach dem Auszug nicht zurück"]
    q = tfidf(counts(texts, router.vocab), router.idf)
    statute, lay = router.cosines(texts)
    assert np.array_equal(statute, np.asarray((q @ router.statute.T).toarray(), dtype=np.float32))
    assert np.array_equal(lay, np.asarray((q @ router.lay.T).toarray(), dtype=np.float32))
    assert statute.shape == lay.shape == (3, len(router.laws)) and (statute > 0).any(axis=1).all()
