"""Propositions and breadcrumbs, hand-checked against $LEGALKG_SHARED/data/gii/bgb.xml."""

from research.chunking.context import breadcrumb, context_prefix
from research.chunking.propositions import Item, propositionize

# BGB § 437 (from the XML): one <P> with a lead-in and a <DL> of three Nummern.
LEAD = ("Ist die Sache mangelhaft, kann der Käufer, wenn die Voraussetzungen der folgenden "
        "Vorschriften vorliegen und soweit nicht ein anderes bestimmt ist,")


def test_437_gives_lead_in_plus_each_nummer(corpus):
    props = [p for p in corpus.propositions if p.section == "BGB/§437"]
    assert [p.id for p in props] == ["BGB/§437/S1/P1", "BGB/§437/S1/P2", "BGB/§437/S1/P3"]
    assert props[0].text == f"{LEAD} nach § 439 Nacherfüllung verlangen."
    assert props[1].text == (f"{LEAD} nach den §§ 440, 323 und 326 Abs. 5 von dem Vertrag zurücktreten "
                             "oder nach § 441 den Kaufpreis mindern.")
    assert props[2].text == (f"{LEAD} nach den §§ 440, 280, 281, 283 und 311a Schadensersatz oder nach "
                             "§ 284 Ersatz vergeblicher Aufwendungen verlangen.")


def test_sentence_without_list_stays_whole(corpus):
    # § 433 Abs. 1 Satz 1 BGB: two duties in one sentence, but no enumeration to split on
    text = ("Durch den Kaufvertrag wird der Verkäufer einer Sache verpflichtet, dem Käufer die Sache zu "
            "übergeben und das Eigentum an der Sache zu verschaffen.")
    assert propositionize(text) == [text]
    props = [p for p in corpus.propositions if p.id.startswith("BGB/§433/Abs1/S1/")]
    assert [p.text for p in props] == [text]


def test_nested_list_and_schlusssatz_are_kept():
    text = "Es gilt: 1. für A, und 2. für B a) wenn x, b) wenn y, soweit nichts anderes gilt."
    items = (Item("1", "für A, und"), Item("2", "für B a) wenn x, b) wenn y,",
                                          (Item("a", "wenn x,"), Item("b", "wenn y,"))))
    assert propositionize(text, items) == [
        "Es gilt: für A soweit nichts anderes gilt.",
        "Es gilt: für B wenn x soweit nichts anderes gilt.",
        "Es gilt: für B wenn y soweit nichts anderes gilt.",
    ]


def test_breadcrumb_433(bgb):
    by_id = bgb.by_id()
    assert breadcrumb(by_id, "BGB/§433") == [
        "Buch 2: Recht der Schuldverhältnisse",
        "Abschnitt 8: Einzelne Schuldverhältnisse",
        "Titel 1: Kauf, Tausch",
        "Untertitel 1: Allgemeine Vorschriften",
    ]
    assert context_prefix(by_id, "BGB/§433").endswith(
        "Untertitel 1: Allgemeine Vorschriften > § 433 Vertragstypische Pflichten beim Kaufvertrag")


def test_corpus_units(corpus):
    # § 551 has four numbered Absätze; § 437 has none, so it is its own single subsection
    assert [u.id for u in corpus.subsections if u.section == "BGB/§551"] == [
        f"BGB/§551/Abs{i}" for i in range(1, 5)]
    assert [u.id for u in corpus.subsections if u.section == "BGB/§437"] == ["BGB/§437"]
    assert corpus.sections[0].text.startswith("§ 1 Beginn der Rechtsfähigkeit")
    # repealed §§ are not targets (§ 611b BGB is repealed and has no text)
    assert "BGB/§611b" not in {s.section for s in corpus.sections}
