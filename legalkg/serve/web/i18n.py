"""The pages' words in German (first) and English, and which of the two a request gets.

Why German first: the statutes, their users and the official site are German; English is there for
a reader who asks for it (``?lang=en``, remembered in a cookie, or a browser whose first language is
English). Every string a page shows is here, so the two stay in step (tests/web/test_views.py).
"""

from __future__ import annotations

LANGS = ("de", "en")
DEFAULT = "de"
COOKIE = "lang"

STRINGS: dict[str, tuple[str, str]] = {
    # key: (German, English)
    "skip": ("Zum Inhalt", "Skip to content"),
    "nav": ("Seiten", "Pages"),
    "ask": ("Fragen", "Ask"),
    "check": ("Text prüfen", "Check a text"),
    "context": ("Kontext-Paket", "Context pack"),
    "open_cite": ("Zitat öffnen", "Open a citation"),
    "open": ("Öffnen", "Open"),
    "error": ("Fehler:", "Error:"),
    "other_lang": ("English", "Deutsch"),
    "other_lang_code": ("en", "de"),
    "footer": ("Deutsche Bundesgesetze als Graph, nur lesend. Die Werkzeuge der JSON-API:",
               "German federal statutes as a graph, read-only. The JSON API's tools:"),
    # ask
    "ask_h": ("Die Gesetze fragen", "Ask the statutes"),
    "question": ("Frage oder Sachverhalt", "Question or case text"),
    "enter_hint": ("Enter sucht, Umschalt+Enter beginnt eine neue Zeile.",
                   "Enter searches, Shift+Enter starts a new line."),
    "level": ("Ebene", "Level"),
    "results_k": ("Treffer (k)", "Results (k)"),
    "law_opt": ("Gesetz (optional)", "Law (optional)"),
    "search": ("Suchen", "Search"),
    "units_found": ("Fundstellen", "units"),
    "units_found_one": ("Fundstelle", "unit"),
    "meta_search": ("Ebene {level}, Verfahren {mode}", "level {level}, mode {mode}"),
    "why": ("Warum (Wert {score})", "Why (score {score})"),
    "why_caption": ("Anteil jedes Suchlaufs am Wert", "Each run's share of the score"),
    "run": ("Suchlauf", "run"),
    "share": ("Anteil", "share"),
    "of_total": ("am Ganzen", "of the total"),
    "cite_list_h": ("Zitatliste", "Citation list"),
    "cite_list": ("Die Treffer als Zitatliste", "The results as a citation list"),
    "copy_cites": ("Zitate kopieren", "Copy citations"),
    "copied": ("Kopiert.", "Copied."),
    "select_copy": ("Markiert: Strg+C kopiert.", "Selected: press Ctrl+C to copy."),
    "laws_h": ("Gesetze im Graphen", "Laws in the graph"),
    # unit / contents
    "crumbs": ("Gliederung", "Breadcrumbs"),
    "contents": ("Inhaltsübersicht", "Table of contents"),
    "contents_of": ("Inhalt", "Contents"),
    "paras": ("{n} §§, davon {r} weggefallen", "{n} §§, {r} of them repealed"),
    "paras_one": ("{n} §, davon {r} weggefallen", "{n} §, {r} repealed"),
    "repealed": ("weggefallen", "repealed"),
    "walk": ("Blättern", "Browse"),
    "previous": ("Vorheriger", "Previous"),
    "next": ("Nächster", "Next"),
    "whole_para": ("Ganzer {para}", "Whole {para}"),
    "official": ("Amtlicher Text auf gesetze-im-internet.de", "Official text on gesetze-im-internet.de"),
    "copy_cite": ("Zitat kopieren", "Copy citation"),
    "citation": ("Zitat", "Citation"),
    "this_unit": ("diese Fundstelle", "this unit"),
    "words": ("Wörter", "words"),
    "pack_ranked": ("Platz {rank} für Ihre Frage", "ranked {rank} for your question"),
    "pack_part": ("Teil des § auf Platz {rank} für Ihre Frage", "part of the § ranked {rank} for your question"),
    "pack_more": ("weiterer Teil des § auf Platz {rank} für Ihre Frage",
                  "more of the § ranked {rank} for your question"),
    "pack_cited": ("zitiert von {cited_by} (Platz {rank} für Ihre Frage)",
                   "cited by {cited_by} (ranked {rank} for your question)"),
    "also_cites": ("auch", "also"),
    "children_h": ("Untergliederung ({n})", "Parts ({n})"),
    "none": ("Keine.", "None."),
    "cites_h": ("Zitiert ({n})", "Cites ({n})"),
    "cites_none": ("Zitiert keine Fundstelle im Graphen.", "It cites no unit in the graph."),
    "cited_by_h": ("Zitiert von", "Cited by"),
    "cited_by_units": ("Fundstellen", "units"),
    "cited_by_units_one": ("Fundstelle", "unit"),
    "per_law": ("Zitierende Fundstellen je Gesetz", "Citing units per law"),
    "law": ("Gesetz", "law"),
    "citing": ("zitierende Fundstellen", "citing units"),
    "first_n": ("Die ersten {shown} von {total} sind aufgeführt.", "The first {shown} of {total} are listed."),
    "first_n_one": ("Die erste von {total} ist aufgeführt.", "The first of {total} is listed."),
    "cited_by_none": ("Keine Fundstelle im Graphen zitiert sie.", "No unit in the graph cites it."),
    "graph_h": ("Umfeld", "Neighbourhood"),
    "key_parent": ("übergeordnet", "parent"),
    "key_child": ("untergeordnet", "children"),
    "key_cites": ("zitiert", "cited"),
    "key_cited_by": ("zitierend", "citing"),
    "graph_click": ("(Klick öffnet die Fundstelle; auf kleinen Bildschirmen ausgeblendet, die Listen oben "
                    "zeigen dasselbe)",
                    "(click a unit to open it; hidden on small screens, the lists above show the same)"),
    "graph_label": ("Zeichnung von {c} mit übergeordneter Einheit, Untergliederung, zitierten und zitierenden "
                    "Fundstellen",
                    "Drawing of {c} with its parent, children, cited and citing units"),
    "not_in_graph": ("nicht im Graphen", "not in the graph"),
    # decisions citing the unit (unit_decisions.html)
    "decisions_h": ("Zitiert von", "Cited by"),
    "facts_h": ("Was die Gesetze dazu sagen", "What the statutes say about it"),
    "defined_here": ("Hier definiert", "Defined here"),
    "applying": ("Begriffe mit gesetzlicher Definition", "Terms defined by statute"),
    "rested_on_by": ("Rechtsgrundlage für {n} Verordnungen", "Enabling provision of {n} ordinances"),
    "rested_on_by_one": ("Rechtsgrundlage für {n} Verordnung", "Enabling provision of {n} ordinance"),
    "law_rests_on": ("Dieses Gesetz beruht auf", "This law rests on"),
    "decisions_word": ("Entscheidungen", "decisions"),
    "decisions_word_one": ("Entscheidung", "decision"),
    "court_unknown": ("Gericht unbekannt", "court unknown"),
    "decision_of": ("vom {date}", "of {date}"),
    "times": ("({n}-mal)", "({n} times)"),
    "times_one": ("(einmal)", "(once)"),
    "recent_n": ("Die {shown} neuesten von {total} sind aufgeführt.", "The {shown} most recent of {total} are listed."),
    "recent_n_one": ("Die neueste von {total} ist aufgeführt.", "The most recent of {total} is listed."),
    "decisions_none": ("Keine Entscheidung im Graphen zitiert sie.", "No decision in the graph cites it."),
    "decisions_load": ("Entscheidungen lädt", "Decisions are loaded by"),
    # check
    "check_h": ("Die Zitate eines Textes prüfen", "Check the citations of a text"),
    "text_label": ("Zu prüfender Text (z. B. eine Antwort eines Sprachmodells)",
                   "Text to check (e.g. an answer from an LLM)"),
    "check_button": ("Prüfen", "Check"),
    "citations_n": ("{n} Zitate", "{n} citations"),
    "citations_n_one": ("{n} Zitat", "{n} citation"),
    "legend": ("Legende", "Legend"),
    "each_cite": ("Jedes Zitat", "Each citation"),
    "as_written": ("wie geschrieben", "as written"),
    "status": ("Ergebnis", "status"),
    "unit": ("Fundstelle", "unit"),
    "support": ("Stütze", "support"),
    "quote": ("Zitat im Wortlaut", "quote"),
    "nearest": ("nächste vorhandene Fundstelle", "nearest existing unit"),
    "readings": ("mögliche Lesarten", "possible readings"),
    "threshold": ("Stütze ab {t} gilt als gestützt", "support from {t} counts as supported"),
    "closest": ("nächste Stelle im Gesetz", "closest passage of the unit"),
    "found_in": ("steht in", "found in"),
    # context
    "context_h": ("Kontext-Paket für einen Prompt", "Context pack for a prompt"),
    "question_short": ("Frage", "Question"),
    "budget": ("Wortbudget", "Word budget"),
    "build_pack": ("Paket bauen", "Build the pack"),
    "pack_n": ("{n} Fundstellen als Markdown", "{n} units as Markdown"),
    "pack_n_one": ("{n} Fundstelle als Markdown", "{n} unit as Markdown"),
    "pack_label": ("Das Paket, bereit zum Einfügen in einen Prompt", "The pack, ready to paste into a prompt"),
    "copy_md": ("Markdown kopieren", "Copy Markdown"),
    # broken references (broken.html)
    "broken": ("Defekte Verweise", "Broken references"),
    "broken_h": ("Verweise auf fehlende oder weggefallene Vorschriften",
                 "References to missing or repealed provisions"),
    "broken_intro": ("Jede Zeile ist ein Gesetzeszitat, dessen Ziel im Gesetz fehlt oder weggefallen ist; "
                     "Lücken des Parsers sind herausgefiltert. Dieselben Zeilen gibt",
                     "Each row is a statute citation whose target is missing from the law or repealed; the "
                     "parser's own gaps are left out. The same rows come from"),
    "broken_total": ("{n} defekte Verweise", "{n} broken references"),
    "broken_total_one": ("{n} defekter Verweis", "{n} broken reference"),
    "broken_all_laws": ("alle Gesetze", "all laws"),
    "broken_filter": ("Filtern", "Filter"),
    "broken_rows": ("Zeilen {first} bis {last} von {total}", "Rows {first} to {last} of {total}"),
    "broken_rows_one": ("Zeile {first} von {total}", "Row {first} of {total}"),
    "broken_none": ("Keine defekten Verweise im Graphen.", "No broken references in the graph."),
    "broken_laws": ("Gesetze mit defekten Verweisen", "Laws with broken references"),
    "citing_unit": ("Zitierende Fundstelle", "Citing unit"),
    "satz": ("Satz", "Sentence"),
    "reference": ("Verweis wie geschrieben", "Reference as written"),
    "target": ("Ziel", "Target"),
    "reason": ("Grund", "Reason"),
    "broken_status": ("Status", "Status"),
    "st_missing_unit": ("fehlt", "missing"),
    "st_repealed": ("weggefallen", "repealed"),
    "why_missing_unit": ("Der zitierte § oder Artikel steht nicht im Gesetz.",
                         "The cited § or Artikel is not in the law."),
    "why_missing_relative": ("Der zitierte Absatz, Satz oder die Nummer steht nicht im zitierenden §.",
                             "The cited Absatz, Satz or Nummer is not in the citing §."),
    "why_repealed": ("Die zitierte Vorschrift ist weggefallen oder aufgehoben.",
                     "The cited unit is repealed (weggefallen or aufgehoben)."),
    "pages_nav": ("Seiten", "Pages"),
    "page_of": ("Seite {n} von {m}", "Page {n} of {m}"),
    # errors
    "not_found_h": ("Nicht gefunden", "Not found"),
    "no_page": ("Diese Seite gibt es nicht: {path}", "There is no such page: {path}"),
    "no_unit": ("{id} ist nicht im Graphen.", "{id} is not in the graph."),
    "did_you_mean": ("Meinten Sie:", "Did you mean:"),
    "home": ("Zur Startseite", "To the home page"),
}


def choose(query: str | None, cookie: str | None, accept: str | None) -> str:
    """The request's language: ``?lang=`` first, then the cookie, then the browser's first
    ``Accept-Language`` entry that is German or English (by its q weight), else German."""
    for value in (query, cookie):
        if value in LANGS:
            return value
    best, weight = DEFAULT, -1.0
    for i, part in enumerate((accept or "").split(",")):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        code = tag.strip().lower()[:2]
        if code in LANGS and q - i * 1e-6 > weight:
            best, weight = code, q - i * 1e-6
    return best


def count_of(values: dict[str, object]) -> object:
    """The number a string counts: ``n``, else the ``shown`` of a list cut short, else the rows from
    ``first`` to ``last``."""
    if "n" in values:
        return values["n"]
    if "shown" in values:
        return values["shown"]
    if "first" in values and "last" in values:
        return 1 if values["first"] == values["last"] else 2
    return None


def translator(lang: str):
    """``t(key, **values)``: the string in ``lang`` with ``{name}`` filled in. A string that counts
    (``count_of``) has its singular under ``KEY_one``, taken for a count of 1: "1 Zitat", not
    "1 Zitate" (issue 44). Only the number 1 takes it, in German as in English (0 Zitate, 2 Zitate)."""
    index = LANGS.index(lang) if lang in LANGS else 0

    def t(key: str, **values: object) -> str:
        if values and count_of(values) == 1 and f"{key}_one" in STRINGS:
            key = f"{key}_one"
        text = STRINGS[key][index]
        return text.format(**values) if values else text

    return t
