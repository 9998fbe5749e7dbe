"""What the check page says about each citation: one verdict from verify's status, its quote check
and its support score, each with a colour, a sign beside the colour and words (pure).

Why one verdict: a citation to an existing unit is ``ok`` for verify, yet its quote may be wrong or
its sentence may not be about the unit; the page showed all three green. The verdict takes the
worst: a broken status first, then a quote not found, a quote that differs, low support, else ok.
"""

from __future__ import annotations

from typing import Any

from ...verify import Status

#: verdict -> (sign, German words, English words, German legend, English legend)
VERDICTS: dict[str, tuple[str, str, str, str, str]] = {
    "ok": ("✓", "in Ordnung", "ok", "Die Fundstelle gibt es, und der Satz passt zu ihrem Text.",
           "The unit exists and the citing sentence matches its text."),
    "low_support": ("?", "schwach gestützt", "low support",
                    "Die Fundstelle gibt es, aber der zitierende Satz passt kaum zu ihrem Text.",
                    "The unit exists, but the citing sentence hardly matches its text."),
    "quote_differs": ("≈", "Wortlaut weicht ab", "quote differs",
                      "Ein Teil des Zitats im Wortlaut steht so nicht im Gesetz; die nächste Stelle wird gezeigt.",
                      "Part of the quotation is not in the unit as quoted; the closest passage is shown."),
    "quote_not_found": ("✗", "Wortlaut nicht gefunden", "quote not found",
                        "Das Zitat im Wortlaut steht nicht in der zitierten Fundstelle.",
                        "The quotation is not in the cited unit."),
    Status.REPEALED.value: ("†", "weggefallen", "repealed", "Die Fundstelle ist weggefallen (aufgehoben).",
                            "The unit is repealed."),
    Status.NO_SUCH_UNIT.value: ("∅", "gibt es nicht", "no such unit",
                                "Das Gesetz ist geladen, aber diese Fundstelle hat es nicht.",
                                "The law is loaded, but it has no such unit."),
    Status.LAW_NOT_IN_GRAPH.value: ("○", "Gesetz nicht geladen", "law not in the graph",
                                    "Ein Bundesgesetz, das dieser Graph nicht enthält.",
                                    "A federal law that this graph does not hold."),
    Status.LAW_NOT_LOADED.value: ("◐", "Gesetz unvollständig", "law not completely loaded",
                                  "Das Laden des Gesetzes wurde unterbrochen: `legalkg ingest` setzt es fort.",
                                  "The law's loading was interrupted: `legalkg ingest` resumes it."),
    Status.LAW_REPEALED.value: ("‡", "Gesetz aufgehoben", "law repealed", "Das ganze Gesetz ist aufgehoben.",
                                "The whole law is repealed."),
    Status.EU_LAW.value: ("€", "EU-Recht", "EU law", "Eine Norm des EU-Rechts, keine deutsche Fundstelle.",
                          "A norm of EU law, not a German unit."),
    Status.STATE_LAW.value: ("L", "Landesrecht", "state law", "Ein Landesgesetz; der Graph hält Bundesrecht.",
                             "A Land (state) law; the graph holds federal law."),
    Status.UNKNOWN_LAW.value: ("!", "unbekanntes Gesetz", "unknown law", "Keine bekannte Abkürzung eines Gesetzes.",
                               "No known abbreviation of a law."),
    Status.AMBIGUOUS.value: ("⁇", "mehrdeutig", "ambiguous", "Ohne Gesetz oder mit mehreren Lesarten.",
                             "No law named, or several readings."),
    Status.UNPARSED.value: ("¿", "nicht lesbar", "not read", "Ein §-Zeichen, das die Grammatik nicht liest.",
                            "A § sign the grammar does not read."),
}


def words(verdict: str, lang: str) -> str:
    return VERDICTS[verdict][1 if lang == "de" else 2]


def legend(lang: str) -> list[dict[str, str]]:
    """Every verdict with its sign, words and meaning (the page's legend)."""
    i = 0 if lang == "de" else 1
    return [{"verdict": v, "sign": row[0], "words": row[1 + i], "meaning": row[3 + i]} for v, row in VERDICTS.items()]


def quote_of(records: list[dict[str, Any]], quotes: list[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    """Record index -> its quote check: the record of the quote's unit whose chain ends nearest
    before the quotation (or nearest after it)."""
    out: dict[int, dict[str, Any]] = {}
    for q in quotes:
        same = [i for i, r in enumerate(records) if q.get("unit_id") and r.get("id") == q["unit_id"]]
        if same:
            best = min(same, key=lambda i: abs(q["start"] - records[i]["chain_end"]))
            out.setdefault(best, q)
    return out


def verdict(record: dict[str, Any], quote: dict[str, Any] | None) -> str:
    """The worst of the record's status, its quote check and its support."""
    if record["status"] != Status.OK.value:
        return record["status"]
    if quote and quote["status"] in ("quote_not_found", "quote_differs"):
        return quote["status"]
    if record.get("supported") is False:
        return "low_support"
    return "ok"


def judged(report: dict[str, Any]) -> list[dict[str, Any]]:
    """The report's records, each with its ``verdict`` and ``quote`` (or None)."""
    quotes = quote_of(report["records"], report.get("quotes") or [])
    return [{**r, "quote": quotes.get(i), "verdict": verdict(r, quotes.get(i))}
            for i, r in enumerate(report["records"])]


def as_written(record: dict[str, Any], text: str) -> str:
    """The whole citation as written: the chain ("§ 573 Abs. 3 BGB"), not the unit's part of it."""
    return text[record["chain_start"]:record["chain_end"]] or record.get("written") or ""
