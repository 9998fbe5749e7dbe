"""The tools' one-line errors as a page says them: in German (first) or English, in plain words (pure).

Why a table of the tools' messages and not messages of the pages' own: the search, verify and
context tools raise the same ``UserError`` lines for the CLI, the JSON API and the MCP server, in
English and in their words ("-k must be between 1 and 1000"); a page shows them to a reader of the
form, who set "Treffer (k)", not ``-k``. Each line the pages can meet is matched here and said
again in the page's language; a line not in the table is shown as the tool wrote it
(tests/web/test_messages.py raises each one from its source and checks it is matched).
"""

from __future__ import annotations

import re

#: (the tool's line as a pattern, German, English); ``{name}`` is the pattern's group.
TABLE: list[tuple[str, str, str]] = [
    (r"the query is empty: .*",
     "Die Frage ist leer: Geben Sie eine Frage oder einen Gesetzestext ein.",
     "The question is empty: type a question or some statute text."),
    (r"-k must be a whole number, not (?P<v>.+)",
     "Die Zahl der Treffer (k) muss eine ganze Zahl sein, nicht {v}.",
     "Results (k) must be a whole number, not {v}."),
    (r"-k must be between (?P<a>\d+) and (?P<b>\d+), not (?P<v>\S+)",
     "Die Zahl der Treffer (k) muss zwischen {a} und {b} liegen, nicht {v}.",
     "Results (k) must be between {a} and {b}, not {v}."),
    (r"unknown level (?P<v>.+?): choose one of (?P<names>.+?)(?: \(or .*\))?",
     "Unbekannte Ebene {v}: Wählen Sie eine von {names}.",
     "Unknown level {v}: choose one of {names}."),
    (r"law (?P<v>.+?) is not in the graph: use a law id .*",
     "Das Gesetz {v} ist nicht im Graphen: Geben Sie eine Abkürzung wie BGB oder SGB V an (die Startseite "
     "listet die Gesetze).",
     "Law {v} is not in the graph: give an abbreviation such as BGB or SGB V (the home page lists the laws)."),
    (r"the budget must be a whole number of words, not (?P<v>.+)",
     "Das Wortbudget muss eine ganze Zahl von Wörtern sein, nicht {v}.",
     "The word budget must be a whole number of words, not {v}."),
    (r"the budget must be between 1 and (?P<max>[\d,]+) words, not (?P<v>-?[\d,]+): .*",
     "Das Wortbudget muss zwischen 1 und {max} Wörtern liegen, nicht {v}: Geben Sie an, wie viele Wörter "
     "Gesetzestext der Prompt fassen soll (z. B. 1000).",
     "The word budget must be between 1 and {max} words, not {v}: give the words of statute text the prompt "
     "can hold (e.g. 1000)."),
    (r"the text has (?P<n>[\d,]+) characters, more than the (?P<max>[\d,]+) this page checks: .*",
     "Der Text hat {n} Zeichen, mehr als die {max}, die diese Seite prüft: Teilen Sie ihn, oder prüfen Sie ihn "
     "mit POST /verify oder `legalkg verify` (bis 1.000.000 Zeichen).",
     "The text has {n} characters, more than the {max} this page checks: split it, or check it with "
     "POST /verify or `legalkg verify` (up to 1,000,000 characters)."),
    (r"the pasted text is over (?P<n>[\d,]+) bytes, more than verify reads \((?P<max>[\d,]+) characters\).*",
     "Der eingefügte Text hat mehr als {n} Bytes, mehr als die Prüfung liest ({max} Zeichen): Teilen Sie ihn.",
     "The pasted text is over {n} bytes, more than the check reads ({max} characters): split it."),
    (r"the text was not UTF-8 .*",
     "Der Text war kein UTF-8 (das Formular enthielt ungültige Bytes): Senden Sie ihn als UTF-8.",
     "The text was not UTF-8 (the form held invalid bytes): send it as UTF-8."),
    (r"the text is empty: .*",
     "Der Text ist leer: Fügen Sie den Text ein, dessen Zitate geprüft werden sollen.",
     "The text is empty: paste the text whose citations are to be checked."),
    (r"the input holds NUL bytes: .*",
     "Der Text enthält NUL-Zeichen und sieht nach einer Binärdatei aus: Fügen Sie reinen Text ein.",
     "The text holds NUL characters and looks binary: paste plain text."),
    (r"the citation is empty: .*",
     "Das Zitat ist leer: Schreiben Sie eines wie „§ 573 Abs. 2 BGB“ oder „Art. 20 Abs. 3 GG“.",
     "The citation is empty: write one like '§ 573 Abs. 2 BGB' or 'Art. 20 Abs. 3 GG'."),
    (r"no statute citation in (?P<v>.+?): write it like .*",
     "In {v} steht kein Gesetzeszitat: Schreiben Sie es wie „§ 433 Abs. 1 BGB“, „433 BGB“ oder "
     "„Art. 20 Abs. 3 GG“.",
     "There is no statute citation in {v}: write it like '§ 433 Abs. 1 BGB', '433 BGB' or 'Art. 20 Abs. 3 GG'."),
    (r"law (?P<v>\S+) is not completely loaded .*",
     "Das Gesetz {v} ist nicht vollständig geladen (ein Ladevorgang brach ab): `legalkg ingest` setzt ihn fort.",
     "Law {v} is not completely loaded (a load stopped midway): `legalkg ingest` resumes it."),
    (r"(?P<v>.+?): its law is not completely loaded .*",
     "{v}: Das Gesetz ist nicht vollständig geladen (ein Ladevorgang brach ab): `legalkg ingest` setzt ihn fort.",
     "{v}: its law is not completely loaded (a load stopped midway): `legalkg ingest` resumes it."),
    (r"the graph in database (?P<db>.+?) holds no finished law .*",
     "Der Graph in der Datenbank {db} hält noch kein fertig geladenes Gesetz: `legalkg ingest` lädt die Gesetze "
     "(und setzt einen abgebrochenen Ladevorgang fort).",
     "The graph in database {db} holds no completely loaded law yet: `legalkg ingest` loads the laws (and "
     "resumes a load that stopped)."),
    (r"the graph in database (?P<db>.+?) holds no (?P<label>\S+) units: .*",
     "Der Graph in der Datenbank {db} hält keine Fundstellen der Ebene {label}: `legalkg ingest` lädt sie.",
     "The graph in database {db} holds no units of level {label}: `legalkg ingest` loads them."),
    (r"law (?P<v>.+?) has no broken references in the graph: .*",
     "Das Gesetz {v} hat keine defekten Verweise im Graphen: Wählen Sie eines der aufgeführten Gesetze oder "
     "lassen Sie das Gesetz weg.",
     "Law {v} has no broken references in the graph: choose one of the laws listed, or leave the law out."),
    (r"the page must be a whole number from 1, not (?P<v>.+)",
     "Die Seite muss eine ganze Zahl ab 1 sein, nicht {v}.",
     "The page must be a whole number from 1, not {v}."),
    (r"(?P<tool>\w+) has (?P<n>\d+) requests in flight, as many as it takes: retry in (?P<s>\d+) s",
     "Der Server ist gerade voll ausgelastet: Versuchen Sie es in {s} Sekunden noch einmal.",
     "The server is fully busy right now: try again in {s} seconds."),
    (r"argument '(?P<name>\w+)' of \w+ is longer than (?P<max>[\d,]+) characters: .*",
     "Die Eingabe ist länger als {max} Zeichen: Kürzen Sie sie.",
     "The input is longer than {max} characters: shorten it."),
]
COMPILED = [(re.compile(pattern, re.DOTALL), de, en) for pattern, de, en in TABLE]


def german_number(value: str) -> str:
    """'100,000' -> '100.000' (German groups thousands with a dot); other text as it is."""
    return value.replace(",", ".") if re.fullmatch(r"-?\d{1,3}(?:,\d{3})+", value) else value


def match(message: str) -> tuple[str, str, dict[str, str]] | None:
    """(German, English, groups) of the table row whose pattern is the whole ``message``, or None."""
    for pattern, de, en in COMPILED:
        m = pattern.fullmatch(message.strip())
        if m:
            return de, en, {k: v or "" for k, v in m.groupdict().items()}
    return None


def say(message: str, lang: str) -> str:
    """``message`` in ``lang``'s words for a page; a line the table lacks is shown as written."""
    found = match(message)
    if found is None:
        return message
    de, en, groups = found
    if lang == "de":
        return de.format(**{k: german_number(v) for k, v in groups.items()})
    return en.format(**groups)
