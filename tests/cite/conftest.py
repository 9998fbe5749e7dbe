"""Hand-built statute fragments for the citation tests.

Texts are copied from $LEGALKG_SHARED/data/gii (bgb.xml § 326, § 437, § 549, § 574-574b;
zpo.xml § 29a, § 93b) and were checked by reading the XML.
"""

from __future__ import annotations

import pytest

from legalkg.cite import LawRegistry
from legalkg.model import Law, Level, Unit, level_of_id


def make_law(key: str, rows: list[tuple[str, str]], repealed: set[str] = frozenset()) -> Law:
    units = []
    for order, (uid, text) in enumerate(rows):
        parent = uid.rsplit("/", 1)[0]
        units.append(Unit(id=uid, level=level_of_id(uid), parent_id=parent, order=order,
                          text=text, repealed=uid in repealed))
    return Law(key=key, jurabk=key, units=units)


BGB_437_S1 = ("Ist die Sache mangelhaft, kann der Käufer, wenn die Voraussetzungen der folgenden "
              "Vorschriften vorliegen und soweit nicht ein anderes bestimmt ist, 1. nach § 439 "
              "Nacherfüllung verlangen, 2. nach den §§ 440, 323 und 326 Abs. 5 von dem Vertrag "
              "zurücktreten oder nach § 441 den Kaufpreis mindern und 3. nach den §§ 440, 280, 281, "
              "283 und 311a Schadensersatz oder nach § 284 Ersatz vergeblicher Aufwendungen verlangen.")
BGB_326_1_1 = ("Braucht der Schuldner nach § 275 Abs. 1 bis 3 nicht zu leisten, entfällt der Anspruch "
               "auf die Gegenleistung; bei einer Teilleistung findet § 441 Abs. 3 entsprechende Anwendung.")
BGB_326_1_2 = ("Satz 1 gilt nicht, wenn der Schuldner im Falle der nicht vertragsgemäßen Leistung die "
               "Nacherfüllung nach § 275 Abs. 1 bis 3 nicht zu erbringen braucht.")
BGB_326_5_1 = ("Braucht der Schuldner nach § 275 Abs. 1 bis 3 nicht zu leisten, kann der Gläubiger "
               "zurücktreten; auf den Rücktritt findet § 323 mit der Maßgabe entsprechende Anwendung, "
               "dass die Fristsetzung entbehrlich ist.")


@pytest.fixture(scope="session")
def registry() -> LawRegistry:
    return LawRegistry.default(manifest=False)


@pytest.fixture(scope="session")
def full_registry() -> LawRegistry:
    return LawRegistry.default()


@pytest.fixture()
def bgb() -> Law:
    nr1 = "nach § 439 Nacherfüllung verlangen,"
    nr2 = ("nach den §§ 440, 323 und 326 Abs. 5 von dem Vertrag zurücktreten oder nach § 441 den "
           "Kaufpreis mindern und")
    nr3 = ("nach den §§ 440, 280, 281, 283 und 311a Schadensersatz oder nach § 284 Ersatz "
           "vergeblicher Aufwendungen verlangen.")
    rows = [
        ("BGB/§275", "(1) ..."), ("BGB/§275/Abs1", "x"), ("BGB/§275/Abs2", "x"),
        ("BGB/§275/Abs3", "x"), ("BGB/§275/Abs4", "x"),
        ("BGB/§280", "x"), ("BGB/§281", "x"), ("BGB/§283", "x"), ("BGB/§284", "x"),
        ("BGB/§311a", "x"), ("BGB/§323", "x"),
        ("BGB/§326", ""), ("BGB/§326/Abs1", BGB_326_1_1 + " " + BGB_326_1_2),
        ("BGB/§326/Abs1/S1", BGB_326_1_1), ("BGB/§326/Abs1/S2", BGB_326_1_2),
        ("BGB/§326/Abs5", BGB_326_5_1), ("BGB/§326/Abs5/S1", BGB_326_5_1),
        ("BGB/§437", BGB_437_S1), ("BGB/§437/S1", BGB_437_S1),
        ("BGB/§437/S1/Nr1", nr1), ("BGB/§437/S1/Nr2", nr2), ("BGB/§437/S1/Nr3", nr3),
        ("BGB/§439", "x"), ("BGB/§440", "x"), ("BGB/§441", "x"), ("BGB/§441/Abs3", "x"),
        ("BGB/§549", ""), ("BGB/§549/Abs2", ""), ("BGB/§549/Abs2/S1", ""),
        ("BGB/§549/Abs2/S1/Nr1", "x"), ("BGB/§549/Abs2/S1/Nr2", "x"), ("BGB/§549/Abs2/S1/Nr3", "x"),
        ("BGB/§574", "x"), ("BGB/§574/Abs3", "x"), ("BGB/§574a", "x"), ("BGB/§574b", "x"),
        ("BGB/§13", "Verbraucher ist jede natürliche Person, ..."),
    ]
    return make_law("BGB", rows)


ZPO_29A_2 = ("Absatz 1 ist nicht anzuwenden, wenn es sich um Wohnraum der in § 549 Abs. 2 Nr. 1 bis 3 "
             "des Bürgerlichen Gesetzbuchs genannten Art handelt.")
ZPO_93B_1 = ("Wird einer Klage auf Räumung von Wohnraum mit Rücksicht darauf stattgegeben, dass ein "
             "Verlangen des Beklagten auf Fortsetzung des Mietverhältnisses auf Grund der §§ 574 bis "
             "574b des Bürgerlichen Gesetzbuchs wegen der berechtigten Interessen des Klägers nicht "
             "gerechtfertigt ist, so kann das Gericht die Kosten ganz oder teilweise dem Kläger "
             "auferlegen, wenn der Beklagte die Fortsetzung des Mietverhältnisses unter Angabe von "
             "Gründen verlangt hatte und der Kläger aus Gründen obsiegt, die erst nachträglich "
             "entstanden sind (§ 574 Abs. 3 des Bürgerlichen Gesetzbuchs).")


@pytest.fixture()
def zpo() -> Law:
    rows = [
        ("ZPO/§29a", ""), ("ZPO/§29a/Abs1", "Für Streitigkeiten ..."),
        ("ZPO/§29a/Abs1/S1", "Für Streitigkeiten ..."),
        ("ZPO/§29a/Abs2", ZPO_29A_2), ("ZPO/§29a/Abs2/S1", ZPO_29A_2),
        ("ZPO/§93b", ""), ("ZPO/§93b/Abs1", ZPO_93B_1), ("ZPO/§93b/Abs1/S1", ZPO_93B_1),
    ]
    return make_law("ZPO", rows)


def ids_of(*laws: Law) -> set[str]:
    return {u.id for law in laws for u in law.units}


__all__ = ["make_law", "ids_of", "Level"]
