"""Hand-made training data for the predictor tests (tiny, so every test trains in milliseconds)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from legalkg.predict import TrainingSet, load_examples

#: Lay questions: the words of each label's questions are disjoint from the others'.
LAY = [
    {"id": "q1", "question": "Vermieter gibt die Kaution nach dem Auszug nicht zurück", "gold": ["BGB § 551"]},
    {"id": "q2", "question": "Kaution Mietwohnung Rückzahlung verweigert Vermieter",
     "gold": ["BGB § 551", "BGB § 548"]},
    {"id": "q3", "question": "Wie lange darf der Vermieter die Kaution behalten?", "gold": ["BGB § 551"]},
    {"id": "q4", "question": "Verkäufer liefert mangelhafte Ware, Nacherfüllung verweigert", "gold": ["BGB § 437"]},
    {"id": "q5", "question": "Gekaufte Ware defekt, Händler lehnt Nacherfüllung ab",
     "gold": ["BGB § 437", "BGB § 439"]},
    {"id": "q6", "question": "Mangel an der Ware, kann ich zurücktreten vom Kaufvertrag?", "gold": ["BGB § 437"]},
    {"id": "q7", "question": "Testament des Vaters, Erbe ausgeschlagen, Pflichtteil verlangen", "gold": ["BGB § 2303"]},
    {"id": "q8", "question": "Pflichtteil nach Enterbung durch Testament", "gold": ["BGB § 2303"]},
]

#: Statute texts for the bridge: the lay word "Kaution" never occurs in § 551's text.
UNITS = {
    "BGB/§551": "Begrenzung und Anlage von Mietsicherheiten\nHat der Mieter dem Vermieter Sicherheit "
                "für die Erfüllung seiner Pflichten zu leisten, so darf die Sicherheitsleistung höchstens "
                "das Dreifache der Monatsmiete betragen.",
    "BGB/§548": "Verjährung der Ersatzansprüche\nDie Ersatzansprüche des Vermieters wegen Veränderungen "
                "der Mietsache verjähren in sechs Monaten.",
    "BGB/§437": "Rechte des Käufers bei Mängeln\nIst die Sache mangelhaft, kann der Käufer Nacherfüllung "
                "verlangen, zurücktreten oder mindern.",
    "BGB/§439": "Nacherfüllung\nDer Käufer kann als Nacherfüllung die Beseitigung des Mangels oder die "
                "Lieferung einer mangelfreien Sache verlangen.",
    "BGB/§2303": "Pflichtteilsberechtigte; Höhe des Pflichtteils\nIst ein Abkömmling des Erblassers durch "
                 "Verfügung von Todes wegen von der Erbfolge ausgeschlossen, so kann er den Pflichtteil verlangen.",
    "BGB/§2303/Abs1": "Ist ein Abkömmling ausgeschlossen, so kann er den Pflichtteil verlangen.",
    "BGB/§1": "Beginn der Rechtsfähigkeit\nDie Rechtsfähigkeit des Menschen beginnt mit der Vollendung der Geburt.",
    "BGB/§573": "Ordentliche Kündigung des Vermieters\nDer Vermieter kann nur kündigen, wenn er ein "
                "berechtigtes Interesse an der Beendigung des Mietverhältnisses hat.",
}


def write_jsonl(path: Path, records: list) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return path


@pytest.fixture
def lay_file(tmp_path) -> Path:
    return write_jsonl(tmp_path / "lay.jsonl", LAY)


@pytest.fixture
def lay_set(lay_file) -> TrainingSet:
    return load_examples([lay_file])
