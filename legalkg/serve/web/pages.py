"""The pages of ``legalkg serve --http``: ask (``/``), a unit (``/unit/<id>``, ``/?cite=``), check a text
(``/check``) and a context pack (``/context``), over the same ``Tools`` as the JSON API.

Why server-side templates: every page works without JavaScript and offline; the only scripts are
``app.js`` (copy buttons, the drawing) and the vendored ``cytoscape.min.js``, both served from the
package. Jinja2 autoescapes every value, so statute text and pasted text never become markup. A
bad input (an empty question, a budget out of range, a text over verify's limit) is the tools' one
``UserError`` line, shown in the page with status 400; nothing else reaches the page.
"""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException

from ...context import ContextPack, render_markdown
from ...errors import NotReady, UserError
from ...verify import MAX_CHARS
from ...vocab import RetrievalLevel, parse_level
from ..tools import LINK_LIMIT, Tools
from . import views

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


def environment() -> Environment:
    env = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=select_autoescape(default=True))
    env.filters["unit_url"] = views.unit_url
    env.filters["excerpt"] = views.excerpt
    return env


class Pages:
    """The page handlers over one ``Tools``; ``render`` turns a ``UserError`` into the page's message."""

    def __init__(self, tools: Tools) -> None:
        self.tools = tools
        self.env = environment()

    def render(self, name: str, status: int = 200, **values: Any) -> HTMLResponse:
        html = self.env.get_template(name).render(**values)
        return HTMLResponse(html, status_code=status)

    def page(self, name: str, build, form: dict[str, Any], **extra: Any) -> HTMLResponse:
        """``build()``'s values in template ``name``, or the same page with the error line (400; 503
        while the graph is not ready, as the JSON API answers)."""
        try:
            return self.render(name, form=form, **extra, **build())
        except UserError as err:
            status = 503 if isinstance(err, NotReady) else 400
            return self.render(name, status=status, form=form, error=str(err), **extra)

    def ask(self, q: str | None, level: str, k: str, law: str, cite: str | None) -> Response:
        form = {"q": q or "", "level": level, "k": k, "law": law, "cite": cite or ""}
        if cite is not None:
            try:
                if not cite.strip():
                    raise UserError("the citation is empty: write one like '§ 573 Abs. 2 BGB' or 'Art. 20 Abs. 3 GG'")
                uid, _ = self.tools.resolve("get_unit", cite, None)
            except UserError as err:
                return self.render("ask.html", status=400, form=form, error=str(err), levels=LEVELS)
            return RedirectResponse(views.unit_url(uid), status_code=303)
        if q is None:
            return self.render("ask.html", form=form, levels=LEVELS)

        def build() -> dict[str, Any]:
            res = self.tools.search(q, level=level, k=k, law=law or None)
            hits = [{**h, "why": views.shares(h.get("components") or {})} for h in res["seeds"]]
            return {"result": res, "hits": hits, "citations": views.citation_list(res["seeds"])}

        return self.page("ask.html", build, form, levels=LEVELS)

    def unit(self, uid: str) -> HTMLResponse:
        def build() -> dict[str, Any]:
            unit = self.tools.get_unit(id=uid)
            related = self.tools.related(id=uid, limit=LINK_LIMIT)
            return {"unit": unit, "related": related, "graph": views.graph_elements(related)}

        return self.page("unit.html", build, {})

    def check(self, text: str | None) -> HTMLResponse:
        if text is None:
            return self.render("check.html", form={"text": ""})

        def build() -> dict[str, Any]:
            report = self.tools.verify(text)
            return {"report": report, "segments": views.highlight(text, report["records"])}

        return self.page("check.html", build, {"text": text})

    def context(self, q: str | None, budget: str) -> HTMLResponse:
        if q is None:
            return self.render("context.html", form={"q": "", "budget": budget})

        def build() -> dict[str, Any]:
            pack = self.tools.context(q, budget=budget)
            return {"pack": pack, "markdown": render_markdown(ContextPack.model_validate(pack))}

        return self.page("context.html", build, {"q": q, "budget": budget})


def mount(app: FastAPI, tools: Tools) -> None:
    """Add the pages and ``/static`` to ``app`` (the JSON API's paths are left as they are)."""
    pages = Pages(tools)
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    def ask(q: str | None = None, level: str = DEFAULTS["level"], k: str = DEFAULTS["k"], law: str = "",
            cite: str | None = None) -> Response:
        return pages.ask(q, level, k, law, cite)

    @app.get("/unit/{uid:path}", response_class=HTMLResponse, include_in_schema=False)
    def unit(uid: str) -> HTMLResponse:
        return pages.unit(uid)

    @app.get("/check", response_class=HTMLResponse, include_in_schema=False)
    def check_get(text: str | None = None) -> HTMLResponse:
        return pages.check(text)

    @app.post("/check", response_class=HTMLResponse, include_in_schema=False)
    async def check_post(request: Request) -> HTMLResponse:
        try:  # Starlette's default cap on a form field (1 MiB) is below verify's; verify's own applies
            form = await request.form(max_part_size=MAX_FORM_BYTES)
        except HTTPException:
            return pages.render("check.html", status=400, form={"text": ""}, error=TOO_LONG)
        text = form.get("text", "")
        return await run_in_threadpool(pages.check, text if isinstance(text, str) else "")

    @app.get("/context", response_class=HTMLResponse, include_in_schema=False)
    def context(q: str | None = None, budget: str = DEFAULTS["budget"]) -> HTMLResponse:
        return pages.context(q, budget)
