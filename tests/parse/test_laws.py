"""Hand-checked statute units from the real gii files (texts compared with the XML by hand)."""

from legalkg.model import Citation, Level, decode_id

from .conftest import ids_under


def test_bgb_433_two_absaetze(law, unit):
    assert ids_under(law("bgb"), "BGB/§433") == [
        "BGB/§433", "BGB/§433/Abs1", "BGB/§433/Abs1/S1", "BGB/§433/Abs1/S2",
        "BGB/§433/Abs2", "BGB/§433/Abs2/S1"]
    p = unit("bgb", "BGB/§433")
    assert p.level == Level.PARAGRAPH and p.title == "Vertragstypische Pflichten beim Kaufvertrag"
    assert unit("bgb", "BGB/§433/Abs1/S2").text == (
        "Der Verkäufer hat dem Käufer die Sache frei von Sach- und Rechtsmängeln zu verschaffen.")
    assert unit("bgb", "BGB/§433/Abs2").text == (
        "Der Käufer ist verpflichtet, dem Verkäufer den vereinbarten Kaufpreis zu zahlen und die "
        "gekaufte Sache abzunehmen.")
    assert p.text.startswith("(1) Durch den Kaufvertrag wird der Verkäufer")
    assert "\n(2) Der Käufer ist verpflichtet" in p.text
    s = unit("bgb", "BGB/§433/Abs1/S2")
    assert s.parent_id == "BGB/§433/Abs1" and s.words == 14
    assert decode_id(s.id) == Citation("BGB", "§433", "1", "2")


def test_bgb_535_three_saetze_then_one(law, unit):
    ids = ids_under(law("bgb"), "BGB/§535")
    assert [i for i in ids if "/S" in i] == [
        "BGB/§535/Abs1/S1", "BGB/§535/Abs1/S2", "BGB/§535/Abs1/S3", "BGB/§535/Abs2/S1"]
    assert unit("bgb", "BGB/§535/Abs1/S3").text == "Er hat die auf der Mietsache ruhenden Lasten zu tragen."


def test_bgb_437_nummern_inside_one_satz(law, unit):
    assert ids_under(law("bgb"), "BGB/§437") == [
        "BGB/§437", "BGB/§437/S1", "BGB/§437/S1/Nr1", "BGB/§437/S1/Nr2", "BGB/§437/S1/Nr3"]
    s1 = unit("bgb", "BGB/§437/S1")
    assert s1.text.startswith("Ist die Sache mangelhaft, kann der Käufer, wenn die Voraussetzungen")
    assert "1. nach § 439 Nacherfüllung verlangen, 2. nach den §§ 440, 323 und 326 Abs. 5" in s1.text
    assert unit("bgb", "BGB/§437/S1/Nr1").text == "nach § 439 Nacherfüllung verlangen,"
    assert unit("bgb", "BGB/§437/S1/Nr3").text == (
        "nach den §§ 440, 280, 281, 283 und 311a Schadensersatz oder nach § 284 Ersatz vergeblicher "
        "Aufwendungen verlangen.")
    assert unit("bgb", "BGB/§437").text == s1.text
    assert decode_id("BGB/§437/S1/Nr1") == Citation("BGB", "§437", None, "1", "1")


def test_zpo_574_list_and_text_after_list(law, unit):
    assert unit("zpo", "ZPO/§574/Abs2/S1/Nr1").text == "die Rechtssache grundsätzliche Bedeutung hat oder"
    assert unit("zpo", "ZPO/§574/Abs2/S1/Nr2").text == (
        "die Fortbildung des Rechts oder die Sicherung einer einheitlichen Rechtsprechung eine "
        "Entscheidung des Rechtsbeschwerdegerichts erfordert.")
    assert [i for i in ids_under(law("zpo"), "ZPO/§574/Abs2")] == [
        "ZPO/§574/Abs2", "ZPO/§574/Abs2/S1", "ZPO/§574/Abs2/S1/Nr1", "ZPO/§574/Abs2/S1/Nr2"]
    # Abs. 1: the last item ends the sentence, so "§ 542 Abs. 2 gilt entsprechend." is Satz 2
    assert unit("zpo", "ZPO/§574/Abs1/S2").text == "§ 542 Abs. 2 gilt entsprechend."
    assert unit("zpo", "ZPO/§574/Abs1/S1").text.endswith("in dem Beschluss zugelassen hat.")


def test_stgb_5_nummern_with_buchstaben_despite_type_arabic(unit):
    nr3 = unit("stgb", "StGB/§5/S1/Nr3")
    assert nr3.text.startswith("Gefährdung des demokratischen Rechtsstaates a) in den Fällen des § 86")
    a = unit("stgb", "StGB/§5/S1/Nr3/Bsta")
    assert a.level == Level.BUCHSTABE and a.parent_id == "StGB/§5/S1/Nr3"
    assert a.text.startswith("in den Fällen des § 86 Absatz 1 und 2, wenn Propagandamittel")
    assert a.text in nr3.text
    assert unit("stgb", "StGB/§5/S1/Nr3/Bstd").text == "in den Fällen der §§ 90 und 90a Abs. 2;"
    nr1 = unit("stgb", "StGB/§5/S1/Nr1")
    assert nr1.repealed and nr1.text == "(weggefallen)"
    assert unit("stgb", "StGB/§5/S1/Nr2").text == "Hochverrat (§§ 81 bis 83);"
    assert decode_id("StGB/§5/S1/Nr3/Bsta") == Citation("StGB", "§5", None, "1", "3", "a")


def test_doppelbuchstabe_bgb_309(unit):
    aa = unit("bgb", "BGB/§309/S1/Nr8/Bstb/DBstaa")
    assert aa.level == Level.DOPPELBUCHSTABE and aa.parent_id == "BGB/§309/S1/Nr8/Bstb"
    assert aa.text.startswith("(Ausschluss und Verweisung auf Dritte) die Ansprüche gegen den Verwender")
    assert "aa) (Ausschluss und Verweisung auf Dritte)" in unit("bgb", "BGB/§309/S1/Nr8/Bstb").text
    assert decode_id(aa.id).doppelbuchstabe == "aa"


def test_table_flattened_to_rows_gkg_34(unit):
    s2 = unit("gkg_2004", "GKG/§34/Abs1/S2")
    assert s2.text.split("\n")[:3] == [
        "Die Gebühr erhöht sich bei einem",
        "Streitwert bis … Euro | für jeden angefangenen Betrag von weiteren … Euro | um … Euro",
        "2 000 | 500 | 20"]
    assert s2.text.endswith("über 500 000 | 50 000 | 198")
    assert unit("gkg_2004", "GKG/§34/Abs1/S3").text == (
        "Eine Gebührentabelle für Streitwerte bis 500 000 Euro ist diesem Gesetz als Anlage 2 beigefügt.")


def test_repealed_range_and_missing_text(law, unit):
    for n in (3, 4, 5, 6):  # <enbez>(XXXX) §§ 3 bis 6</enbez>: one node per §
        u = unit("bgb", f"BGB/§{n}")
        assert u.repealed and u.text == "(weggefallen)"
    assert ids_under(law("bgb"), "BGB/§4") == ["BGB/§4"]  # no Absatz/Satz below repealed §§
    assert unit("bgb", "BGB/§611b").repealed  # no <text> at all
    assert not unit("bgb", "BGB/§433").repealed


def test_gg_art_20(law, unit):
    assert unit("gg", "GG/Art20/Abs3/S1").text == (
        "Die Gesetzgebung ist an die verfassungsmäßige Ordnung, die vollziehende Gewalt und die "
        "Rechtsprechung sind an Gesetz und Recht gebunden.")
    assert unit("gg", "GG/Art20/Abs2/S2").text.startswith("Sie wird vom Volke in Wahlen")
    assert decode_id("GG/Art20/Abs3") == Citation("GG", "Art20", "3")
    assert unit("gg", "GG/Art20").kind == "Art"
    assert not any(u.id.endswith("Präambel") for u in law("gg").units)


def test_anlagen_sgb_v(unit):
    a = unit("sgb_5", "SGB V/Anl1")
    assert a.level == Level.PARAGRAPH and a.kind == "Anlage"
    assert a.title == "(zu § 135e) Leistungsgruppen und Qualitätskriterien"
    assert a.text.startswith("Leistungs- gruppen-Nummer | Leistungs- gruppe (LG) |")
    assert "Fundstelle" not in a.text.split("\n")[0]  # the noindex/kommentar note stays out


def test_egbgb_articles_and_their_paragraphs(law, unit):
    art47 = unit("bgbeg", "EGBGB/Art47")  # an article carrying its text itself
    assert art47.level == Level.PARAGRAPH and art47.title == "Vor- und Familiennamen"
    assert unit("bgbeg", "EGBGB/Art47/Abs1/S1/Nr1").text == "aus dem Namen Vor- und Familiennamen bestimmen,"
    art229 = unit("bgbeg", "EGBGB/Gl050002290")  # an article holding §§
    assert art229.level == Level.GLIEDERUNG and art229.kind == "Art" and art229.label == "229"
    p5 = unit("bgbeg", "EGBGB/Art229§5")
    assert p5.parent_id == art229.id and p5.level == Level.PARAGRAPH
    assert p5.title.startswith("Allgemeine Überleitungsvorschrift zum Gesetz zur Modernisierung")
    assert p5.text.startswith("Auf Schuldverhältnisse, die vor dem 1. Januar 2002 entstanden sind")
    assert decode_id("EGBGB/Art229§5/S1") == Citation("EGBGB", "Art229§5", None, "1")
    # § 1 exists under several articles: each is told apart by its article
    assert unit("bgbeg", "EGBGB/Art231§1").repealed and unit("bgbeg", "EGBGB/Art232§1")


def test_estg_sup_sentence_numbers_are_labels(unit):
    s1 = unit("estg", "EStG/§4/Abs1/S1")
    assert s1.text.startswith("Gewinn ist der Unterschiedsbetrag zwischen dem Betriebsvermögen")
    assert s1.text.endswith("vermindert um den Wert der Einlagen.")
    assert unit("estg", "EStG/§4/Abs1/S2").text.startswith("Entnahmen sind alle Wirtschaftsgüter")
    s5 = unit("estg", "EStG/§4/Abs1/S5")
    assert s5.text.startswith("Satz 3 gilt nicht für Anteile")  # no leading "5"
    assert unit("estg", "EStG/§4/Abs1/S5/Nr1").text.startswith("einer Sitzverlegung der Europäischen Gesellschaft")


def test_stpo_266_abs2_sentence_end_after_abs_1(law, unit):
    assert [i for i in ids_under(law("stpo"), "StPO/§266/Abs2")][1:] == [
        "StPO/§266/Abs2/S1", "StPO/§266/Abs2/S2", "StPO/§266/Abs2/S3", "StPO/§266/Abs2/S4"]
    assert unit("stpo", "StPO/§266/Abs2/S2").text == "Ihr Inhalt entspricht dem § 200 Abs. 1."


def test_footnote_stays_out_of_text_bgb_14(unit):
    p = unit("bgb", "BGB/§14")
    assert p.text.startswith("(1) Unternehmer ist eine natürliche oder juristische Person")
    assert "Amtlicher Hinweis" not in p.text
    assert p.footnotes[0] == ("Amtlicher Hinweis: Diese Vorschrift dient der Umsetzung der eingangs "
                              "zu den Nummern 3, 4, 6, 7, 9 und 11 genannten Richtlinien.")
    assert unit("bgb", "BGB/§14/Abs1/S1").footnotes == []


def test_single_sentence_paragraph_still_has_s1(law, unit):
    assert ids_under(law("bgb"), "BGB/§1") == ["BGB/§1", "BGB/§1/S1"]
    assert unit("bgb", "BGB/§1/S1").text == (
        "Die Rechtsfähigkeit des Menschen beginnt mit der Vollendung der Geburt.")


def test_law_metadata_and_gliederung(law, unit):
    bgb = law("bgb")
    assert (bgb.key, bgb.jurabk, bgb.amtabk, bgb.slug) == ("BGB", "BGB", "BGB", "bgb")
    assert bgb.title == "Bürgerliches Gesetzbuch" and bgb.doknr == "BJNR001950896"
    assert bgb.builddate and bgb.stand
    buch1 = unit("bgb", "BGB/Gl010")
    assert (buch1.kind, buch1.label, buch1.title, buch1.parent_id) == ("Buch", "1", "Allgemeiner Teil", "BGB")
    assert unit("bgb", "BGB/Gl010010").parent_id == "BGB/Gl010"
    assert law("sgb_5").key == "SGB V" and law("bgbeg").key == "EGBGB"
