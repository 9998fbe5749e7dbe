"""The pages of ``legalkg serve --http``: ask (``/``), a law's contents and its Gliederungen
(``/unit/<law>``, ``/unit/<law>/Gl…``), a unit (``/unit/<id>``, ``/?cite=``), check a text
(``/check``), a context pack (``/context``) and the broken references (``/references/broken``), over
the same ``Tools`` as the JSON API.

Why server-side templates: every page works without JavaScript and offline; the only scripts are
``app.js`` (copy buttons, Enter to ask, the drawing) and the vendored ``cytoscape.min.js``, both
served from the package; every page is sent with a strict Content-Security-Policy (``csp``).
Jinja2 autoescapes every value, so statute text and pasted text never become markup. A bad input is
the tools' one ``UserError`` line, said in the page's language (``messages``) and shown in the page
with status 400; an unknown unit or path is an HTML 404 with "did you mean" links (``suggest``).
"""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from jinja2 import Environment, FileSystemLoader, select_autoescape

from ...context import ContextPack, render_markdown
from ...errors import NotReady, UserError
from ...verify import MAX_CHARS, SUPPORT_THRESHOLD, Status, with_records
from ...vocab import RetrievalLevel, parse_level
from ..tools import LINK_LIMIT, Tools
from . import checkview, csp, i18n, lawtext, messages, structure, suggest, views

HERE = Path(__file__).parent
#: The ask page's level choices: the statute levels, the chunks and auto (``legalkg.vocab``).
LEVELS = [level.value for level in RetrievalLevel]
#: A pasted text's bytes as a form field: verify's characters at up to 4 UTF-8 bytes each (as its stdin).
MAX_FORM_BYTES = 4 * MAX_CHARS
TOO_LONG = (f"the pasted text is over {MAX_FORM_BYTES:,} bytes, more than verify reads ({MAX_CHARS:,} "
            "characters): split it into parts")
_SEARCH = inspect.signature(Tools.search).parameters
#: The forms' defaults are the tools' own (as the API and the MCP server default them).
DEFAULTS = {"level": parse_level(_SEARCH["level"].default).value, "k": str(_SEARCH["k"].default),
            "budget": str(inspect.signature(Tools.context).parameters["budget"].default)}
#: Backlinks listed with their citing Satz on a unit page (the counts per law count all).
BACKLINKS = 100
#: Rows of one page of ``/references/broken``.
BROKEN_PAGE = 100


def environment() -> Environment:
    env = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=select_autoescape(default=True))
    env.filters["unit_url"] = views.unit_url
    env.filters["excerpt"] = views.excerpt
    env.filters["court_counts"] = views.court_counts
    env.globals["t"] = i18n.translator(i18n.DEFAULT)
    env.globals["verdict_words"] = checkview.words
    env.globals["lang"] = i18n.DEFAULT
    env.globals["support_threshold"] = SUPPORT_THRESHOLD
    return env


def language(request: Request | None) -> str:
    if request is None:
        return i18n.DEFAULT
    return i18n.choose(request.query_params.get("lang"), request.cookies.get(i18n.COOKIE),
                       request.headers.get("accept-language"))


class Pages:
    """The page handlers over one ``Tools``; ``render`` turns a ``UserError`` into the page's message."""

    def __init__(self, tools: Tools) -> None:
        self.tools = tools
        self.env = environment()
        for name in self.env.list_templates(extensions=["html"]):  # compiled now, not on a first request
            self.env.get_template(name)

    def render(self, request: Request | None, name: str, status: int = 200, **values: Any) -> HTMLResponse:
        lang = language(request)
        other = "en" if lang == "de" else "de"
        switch = str(request.url.include_query_params(lang=other)) if request is not None else f"?lang={other}"
        if isinstance(values.get("error"), str):  # the tools' English line in the page's words
            values["error"] = messages.say(values["error"], lang)
        html = self.env.get_template(name).render(t=i18n.translator(lang), lang=lang, lang_switch=switch, **values)
        response = HTMLResponse(html, status_code=status, headers=csp.HEADERS)
        if request is not None and request.query_params.get("lang") in i18n.LANGS:
            response.set_cookie(i18n.COOKIE, lang, max_age=365 * 86400, samesite="lax")
        return response

    def page(self, request: Request, name: str, build, form: dict[str, Any], **extra: Any) -> HTMLResponse:
        """``build()``'s values in template ``name``, or the same page with the error line (400; 503
        while the graph is not ready, as the JSON API answers)."""
        try:
            return self.render(request, name, form=form, **extra, **build())
        except UserError as err:
            status = 503 if isinstance(err, NotReady) else 400
            return self.render(request, name, status=status, form=form, error=str(err), **extra)

    def ask(self, request: Request, q: str | None, level: str, k: str, law: str, cite: str | None) -> Response:
        form = {"q": q or "", "level": level, "k": k, "law": law, "cite": cite or ""}
        laws = self.tools.read("web/laws", {}) if self.tools.ready and not q else []  # ready: warm() answered
        if cite is not None:
            return self.open_cite(request, cite, form, laws)
        if q is None:
            return self.render(request, "ask.html", form=form, levels=LEVELS, laws=laws)

        def build() -> dict[str, Any]:
            res = self.tools.search(q, level=level, k=k, law=law or None)
            hits = [{**h, "why": views.shares(h.get("components") or {})} for h in res["seeds"]]
            return {"result": res, "hits": hits, "citations": views.citation_list(res["seeds"])}

        return self.page(request, "ask.html", build, form, levels=LEVELS, laws=laws)

    def open_cite(self, request: Request, cite: str, form: dict[str, Any], laws: list) -> Response:
        """Redirect to the cited unit; a bare '573 BGB' or 'BGB 573' is read as '§ 573 BGB'. A
        citation the graph lacks is one line in words, with a link to the nearest unit."""
        lang = language(request)
        try:
            record = self.resolve(cite)
        except UserError as err:
            return self.render(request, "ask.html", status=400, form=form, error=str(err), levels=LEVELS, laws=laws)
        if record.id is not None:
            return RedirectResponse(views.unit_url(record.id), status_code=303)
        message = suggest.unresolved_message(record.cited, record.status.value, lang)
        links = [{"url": views.unit_url(record.nearest), "name": record.nearest}] if record.nearest else []
        return self.render(request, "ask.html", status=400, form=form, error=message, error_links=links,
                           levels=LEVELS, laws=laws)

    def resolve(self, cite: str):
        """verify's record of the citation (or of the first reading of a bare '573 BGB' that resolves)."""
        if not cite.strip():
            raise UserError("the citation is empty: write one like '§ 573 Abs. 2 BGB' or 'Art. 20 Abs. 3 GG'")
        candidates = [cite] + structure.citation_guesses(cite)
        first = None
        for text in candidates:
            records = self.tools.verifier.verify(text, support=False).records
            if not records or records[0].status is Status.UNPARSED:
                continue
            first = first or records[0]
            if records[0].id is not None:
                return records[0]
        if first is None:
            raise UserError(f"no statute citation in {cite[:80]!r}: write it like '§ 433 Abs. 1 BGB', '433 BGB' "
                            "or 'Art. 20 Abs. 3 GG'")
        if first.status is Status.LAW_NOT_LOADED:
            raise NotReady(f"{first.cited}: its law is not completely loaded (law_not_loaded: an ingest stopped "
                           "midway): run `legalkg ingest`, which resumes it")
        return first

    def unit(self, request: Request, uid: str) -> Response:
        """A law's contents, a Gliederung's §§, or a unit's page; a 404 page for an id not in the graph."""
        last = uid.rstrip("/").split("/")[-1]
        if "/" not in uid.strip("/") or last.startswith("Gl"):
            return self.contents(request, uid.strip("/"))
        try:
            related = self.tools.related(id=uid, limit=LINK_LIMIT)
        except NotReady as err:
            return self.render(request, "unit.html", status=503, form={}, error=str(err))
        except UserError:
            return self.not_found(request, uid)
        return self.page(request, "unit.html", lambda: self.unit_values(related, language(request)), {})

    def unit_values(self, related: dict[str, Any], lang: str) -> dict[str, Any]:
        uid = related["id"]
        para = structure.para_id(uid)
        walk = self.tools.read("web/walk", {"id": uid, "para": para})[0]
        root = lawtext.context_root(walk["path"])
        rows = self.tools.read("web/unit_text", {"root": root})
        tree = lawtext.build_tree(rows, root, uid if uid != root else None)
        if tree is not None:
            text, _ = lawtext.joined(lawtext.text_pieces(tree))
            records = self.tools.verifier.verify(text, related["law"], support=False).rows() if text.strip() else []
            lawtext.link_pieces(tree, records)
        own = next((r for r in rows if r["id"] == uid), {"text": ""})
        backlinks = self.tools.read("web/backlinks", {"id": uid, "limit": BACKLINKS})
        unit = {**related, "text": own.get("text") or "", "words": len((own.get("text") or "").split())}
        crumbs = structure.breadcrumbs(walk["path"])
        above = [c for c in crumbs if c["id"] == para] if para != uid else crumbs[-2:-1]
        up = {"url": above[0]["url"], "name": above[0]["name"]} if above else None
        return {"unit": unit, "related": related, "graph": views.graph_elements(related), "tree": tree,
                "crumbs": crumbs, "up": up, "previous": (walk["previous"] or [None])[0],
                "next": (walk["next"] or [None])[0], "para": para, "root": root,
                "official": structure.official_url(walk["slug"], walk["jurabk"], uid),
                "backlinks": views.backlinks(backlinks)}

    def contents(self, request: Request, uid: str) -> Response:
        """The table of contents of a law or of one Gliederung: every Gliederung and § below it."""
        try:
            self.tools.retriever.graph.check_ready()
            rows = self.tools.read("web/toc", {"id": uid})
        except UserError as err:
            return self.render(request, "contents.html", status=503, form={}, error=str(err))
        if not rows:
            return self.not_found(request, uid)
        top = rows[0]
        if not top["law_loaded"]:
            return self.render(request, "contents.html", status=503, form={},
                               error=f"law {top['law']} is not completely loaded (law_not_loaded: an ingest stopped "
                                     "midway): run `legalkg ingest`, which resumes it")
        tree = structure.toc_tree(top["id"], top["entries"])
        name = top["id"] if top["is_law"] else structure.crumb({**top, "level": "Gliederung"})["name"]
        return self.render(request, "contents.html", form={}, top=top, tree=tree, heading=name,
                           crumbs=structure.breadcrumbs(top["path"]), counts=structure.para_count(tree))

    def broken(self, request: Request, law: str, page: str) -> HTMLResponse:
        """``/references/broken``: the citations that point to a missing or repealed unit (the ingest's
        ``BrokenReference`` nodes), of all laws or of ``law``, ``BROKEN_PAGE`` rows a page, with counts."""
        form = {"law": law}

        def build() -> dict[str, Any]:
            self.tools.retriever.graph.check_ready()
            counts = self.tools.read("web/broken_counts", {})
            return views.broken_view(counts, law, page, BROKEN_PAGE,
                                     lambda key, skip: self.tools.read("web/broken", {"law": key, "skip": skip,
                                                                                      "limit": BROKEN_PAGE}))

        return self.page(request, "broken.html", build, form)

    def not_found(self, request: Request, uid: str | None = None) -> HTMLResponse:
        """The HTML 404: for an id, the parts of it that exist and the §§ or laws it may mean."""
        links = []
        if uid:
            law = uid.split("/")[0]
            found = self.tools.read("web/suggest", {"ids": suggest.ancestors(uid), "law": law})[0]
            links = suggest.did_you_mean(uid, found)
        return self.render(request, "not_found.html", status=404, form={}, uid=uid, path=request.url.path,
                           links=links)

    def check(self, request: Request, text: str | None) -> HTMLResponse:
        if text is None:
            return self.render(request, "check.html", form={"text": ""}, legend=checkview.legend(language(request)))

        def build() -> dict[str, Any]:
            report = with_records(self.tools.verify(text))
            records = checkview.judged(report)
            for r in records:
                r["whole"] = checkview.as_written(r, text)
            return {"report": report, "records": records, "segments": views.highlight(text, records),
                    "legend": checkview.legend(language(request))}

        return self.page(request, "check.html", build, {"text": text})

    def context(self, request: Request, q: str | None, budget: str) -> HTMLResponse:
        if q is None:
            return self.render(request, "context.html", form={"q": "", "budget": budget})

        def build() -> dict[str, Any]:
            pack = self.tools.context(q, budget=budget)
            return {"pack": pack, "markdown": render_markdown(ContextPack.model_validate(pack))}

        return self.page(request, "context.html", build, {"q": q, "budget": budget})
