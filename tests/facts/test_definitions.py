"""Legal definitions read from the statute text (issue 45), hand-checked against the gii files."""

from __future__ import annotations

from legalkg.cite.definitions import definitions


def _by_term(law):
    out = {}
    for d in definitions(law):
        out.setdefault(d.key, []).append(d)
    return out


def test_bgb_consumer_and_entrepreneur_at_their_deepest_unit(law):
    got = _by_term(law("bgb"))
    # § 13 BGB: "Verbraucher ist jede natürliche Person, die ..." (a § without Absätze: its Satz 1)
    [v] = got["verbraucher"]
    assert (v.unit, v.scope, v.scope_kind, v.pattern) == ("BGB/§13/S1", "BGB", "law", "wer")
    # § 14 Abs. 1 BGB: "Unternehmer ist eine natürliche oder juristische Person ..., die ..."
    [u] = got["unternehmer"]
    assert (u.unit, u.pattern) == ("BGB/§14/Abs1/S1", "wer")


def test_bgb_parenthetical_definitions(law):
    got = _by_term(law("bgb"))
    # § 183 S. 1 "Die vorherige Zustimmung (Einwilligung)", § 184 Abs. 1 "(Genehmigung)",
    # § 121 Abs. 1 S. 1 "ohne schuldhaftes Zögern (unverzüglich)"
    assert [d.unit for d in got["einwilligung"]] == ["BGB/§183/S1"]
    assert [d.unit for d in got["genehmigung"]] == ["BGB/§184/Abs1/S1"]
    assert [d.unit for d in got["unverzüglich"]] == ["BGB/§121/Abs1/S1"]
    assert all(d.pattern == "paren" for d in got["einwilligung"])


def test_numbered_begriffsbestimmungen_of_the_uwg(law):
    got = _by_term(law("uwg_2004"))
    # § 2 Abs. 1 UWG: "Im Sinne dieses Gesetzes ist 1. „geschäftliche Entscheidung“ jede Entscheidung ..."
    assert [(d.unit, d.pattern) for d in got["geschäftliche entscheidung"]] == [("UWG/§2/Abs1/S1/Nr1", "numbered")]
    assert [d.unit for d in got["mitbewerber"]] == ["UWG/§2/Abs1/S1/Nr4"]
    assert {d.unit for d in definitions(law("uwg_2004")) if d.pattern == "numbered"} >= {
        f"UWG/§2/Abs1/S1/Nr{i}" for i in range(1, 11)}


def test_a_definition_for_one_paragraph_has_that_scope(law):
    got = _by_term(law("estg"))
    # § 16 Abs. 2 S. 1 EStG: "Veräußerungsgewinn im Sinne des Absatzes 1 ist der Betrag, ..."
    assert ("EStG/§16/Abs2/S1", "EStG/§16", "§") in {(d.unit, d.scope, d.scope_kind) for d in got["veräußerungsgewinn"]}


def test_no_term_from_an_opening_preposition_or_a_list_heading(law):
    keys = set(_by_term(law("estg"))) | set(_by_term(law("bgb")))
    assert not any(k.startswith(("bei ", "zur ")) for k in keys)
    assert "vertragsstrafe" not in _by_term(law("bgb"))  # "(Vertragsstrafe) eine Bestimmung, ..." heads § 309 Nr. 6


def test_a_scope_phrase_is_no_part_of_the_term_and_a_quoted_bracket_no_definition(law):
    from legalkg.cite.definitions import definitions
    from legalkg.model import Law, Level, Unit
    # the forms of WpIG § 2 Abs. 11 ("Zweigniederlassung im Sinne dieses Gesetzes ist eine Betriebsstelle, die
    # ...") and SLV 2021 § 43 Abs. 3 ('mit dem Zusatz „(Offizieranwärterin)“, „(Offizieranwärter)“ oder „(OA)“')
    texts = ["Zweigniederlassung im Sinne dieses Gesetzes ist eine Betriebsstelle, die rechtlich unselbständig ist.",
             "Die Anwärter führen ihre Dienstgradbezeichnung mit dem Zusatz „(Offizieranwärterin)“ oder "
             "„(Offizieranwärter)“.",
             "Finanzhilfen für Investitionen der Länder und Gemeinden (Gemeindeverbände) werden gewährt."]
    units = [Unit(id=f"X/§{i}", level=Level.PARAGRAPH, parent_id="X", text=t, order=i) for i, t in enumerate(texts, 1)]
    got = [(d.term, d.unit) for d in definitions(Law(key="X", jurabk="X", units=units))]
    assert got == [("Zweigniederlassung", "X/§1")]


def test_no_term_from_a_note_on_a_number_a_place_or_an_opening_adverb():
    from legalkg.cite.definitions import definitions
    from legalkg.model import Law, Level, Unit
    # the forms of MainDonWasStrG 2 § 4 ("zwischen MDK-km 130,00 (Bau-km)"), AuslWBG § 7 ("nach § 3 Abs. 1 Nr. 1
    # (Auslandsstücke)"), MoselSchPV 1997 § 9.03 ("am Halteschild (Nordufer)"), ÖLG-DV § 11 ("Zusätzlich ist
    # ein Verfahren ... zu beschreiben, das ...") and GenG § 24 ("keinen Vorstand (Führungslosigkeit)", a definition)
    texts = ["Das Recht an der Strecke zwischen MDK-km 130,00 (Bau-km) und der Einmündung steht dem Land zu.",
             "Bonds, deren Anerkennung nach § 3 Abs. 1 Nr. 1 (Auslandsstücke) beansprucht wird, sind anzumelden.",
             "Fahrzeuge müssen am Halteschild (Nordufer) anhalten.",
             "Zusätzlich ist ein Verfahren zu beschreiben, das aktuellen Erkenntnissen entspricht.",
             "Hat eine Genossenschaft keinen Vorstand (Führungslosigkeit), wird sie durch den Aufsichtsrat vertreten."]
    units = [Unit(id=f"X/§{i}", level=Level.PARAGRAPH, parent_id="X", text=t, order=i) for i, t in enumerate(texts, 1)]
    got = [(d.term, d.unit) for d in definitions(Law(key="X", jurabk="X", units=units))]
    assert got == [("Führungslosigkeit", "X/§5")]


def test_a_definition_for_a_part_of_the_law_has_that_part_as_scope(law):
    # § 341r HGB (Begriffsbestimmungen), inside a Titel of the Dritter Unterabschnitt "Ergänzende Vorschriften
    # für bestimmte Unternehmen des Rohstoffsektors": "Im Sinne dieses Unterabschnitts sind 1. Tätigkeiten in
    # der mineralgewinnenden Industrie: Tätigkeiten auf dem Gebiet der Exploration, ..." -- the scope is the
    # Unterabschnitt, not the Titel the § sits in, nor the HGB
    hgb = law("hgb")
    [d] = [d for d in definitions(hgb) if d.term == "Tätigkeiten in der mineralgewinnenden Industrie"]
    assert (d.unit, d.scope, d.scope_kind, d.pattern) == ("HGB/§341r/S1/Nr1", "HGB/Gl030040030", "Unterabschnitt",
                                                          "numbered")
    [part] = [u for u in hgb.units if u.id == d.scope]
    assert part.title == "Ergänzende Vorschriften für bestimmte Unternehmen des Rohstoffsektors"
