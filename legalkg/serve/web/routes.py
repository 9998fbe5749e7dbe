"""The pages' routes on the FastAPI app, the static files (compressed once, cached by the browser)
and the HTML 404 for a browser.

Why the static files are served by this module and not Starlette's ``StaticFiles``: the drawing's
script is 436 KB, sent uncompressed and without caching headers on every unit page; here every
file is read and gzipped once at start, answered with ``Cache-Control`` and an ``ETag`` (a 304 for
a browser that has it), and only to a client that accepts gzip in compressed form.
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, Response
from starlette.exceptions import HTTPException

from ...errors import UserError
from ..gates import RETRY_AFTER_S, Busy, page_call
from ..tools import Tools
from .pages import DEFAULTS, MAX_FORM_BYTES, TOO_LONG, Pages

STATIC = Path(__file__).parent / "static"
#: Seconds a browser keeps a static file before it asks again (with its ETag).
STATIC_MAX_AGE = 86400
#: Smallest body worth compressing (pages and files).
GZIP_MIN_BYTES = 1000


def accepts_gzip(request: Request) -> bool:
    return "gzip" in request.headers.get("accept-encoding", "").lower()


class StaticFile:
    """One file of ``static/``: its bytes, their gzip form and an ETag, read once."""

    def __init__(self, path: Path) -> None:
        self.body = path.read_bytes()
        self.gz = gzip.compress(self.body, 9, mtime=0) if len(self.body) >= GZIP_MIN_BYTES else None
        self.etag = '"' + hashlib.sha256(self.body).hexdigest()[:16] + '"'
        kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        self.media = kind + ("; charset=utf-8" if kind.startswith("text/") or kind.endswith("javascript") else "")

    def response(self, request: Request) -> Response:
        headers = {"Cache-Control": f"public, max-age={STATIC_MAX_AGE}", "ETag": self.etag, "Vary": "Accept-Encoding"}
        if request.headers.get("if-none-match") == self.etag:
            return Response(status_code=304, headers=headers)
        if self.gz is not None and accepts_gzip(request):
            return Response(self.gz, media_type=self.media, headers={**headers, "Content-Encoding": "gzip"})
        return Response(self.body, media_type=self.media, headers=headers)


def compressed(request: Request, response: Response) -> Response:
    """A page's HTML gzipped for a client that accepts it (in the worker thread that built it)."""
    if accepts_gzip(request) and len(response.body) >= GZIP_MIN_BYTES and "content-encoding" not in response.headers:
        response.body = gzip.compress(response.body, 6)
        response.headers["Content-Encoding"] = "gzip"
        response.headers["Content-Length"] = str(len(response.body))
        response.headers["Vary"] = "Accept-Encoding"
    return response


async def checked(request: Request, pages: Pages, text: str) -> Response:
    """The check page for a pasted text, under verify's limits; a text refused (too long, not UTF-8)
    or a full server is the page with its line, not the JSON API's error."""
    try:
        return await page_call(request, "verify", lambda: compressed(request, pages.check(request, text)), text)
    except Busy as err:  # as the JSON API answers: 503 and Retry-After
        response = pages.render(request, "check.html", status=503, form={"text": text}, error=str(err))
        response.headers["Retry-After"] = str(RETRY_AFTER_S)
        return response
    except UserError as err:
        return pages.render(request, "check.html", status=400, form={"text": ""}, error=str(err))


def mount(app: FastAPI, tools: Tools) -> None:
    """Add the pages, ``/static`` and ``/favicon.ico`` to ``app`` (the JSON API's paths are left as
    they are); ``app.state.html_not_found`` answers a browser's unknown path with the HTML 404."""
    pages = Pages(tools)
    files = {p.name: StaticFile(p) for p in STATIC.iterdir() if p.is_file()}
    app.state.html_not_found = lambda request: compressed(request, pages.not_found(request))
    # a page whose call failed outside the tools' own errors (Neo4j away): the bare page with the line
    app.state.html_error = lambda request, status, message: compressed(
        request, pages.render(request, "base.html", status=status, form={}, error=message))

    @app.get("/static/{name}", include_in_schema=False)
    def static(request: Request, name: str) -> Response:
        if name not in files:
            raise HTTPException(404, f"no static file {name[:80]!r}")
        return files[name].response(request)

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon(request: Request) -> Response:
        return files["favicon.svg"].response(request)

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    def ask(request: Request, q: str | None = None, level: str = DEFAULTS["level"], k: str = DEFAULTS["k"],
            law: str = "", cite: str | None = None) -> Response:
        return compressed(request, pages.ask(request, q, level, k, law, cite))

    @app.get("/unit/{uid:path}", response_class=HTMLResponse, include_in_schema=False)
    def unit(request: Request, uid: str) -> Response:
        return compressed(request, pages.unit(request, uid))

    @app.get("/check", response_class=HTMLResponse, include_in_schema=False)
    def check_get(request: Request, text: str | None = None) -> Response:
        return compressed(request, pages.check(request, text))

    @app.post("/check", response_class=HTMLResponse, include_in_schema=False)
    async def check_post(request: Request) -> Response:
        try:  # Starlette's default cap on a form field (1 MiB) is below verify's; verify's own applies
            form = await request.form(max_part_size=MAX_FORM_BYTES)
        except HTTPException:
            return pages.render(request, "check.html", status=400, form={"text": ""}, error=TOO_LONG)
        text = form.get("text", "") if isinstance(form.get("text", ""), str) else ""
        return await checked(request, pages, text)

    @app.get("/context", response_class=HTMLResponse, include_in_schema=False)
    def context(request: Request, q: str | None = None, budget: str = DEFAULTS["budget"]) -> Response:
        return compressed(request, pages.context(request, q, budget))

    mount_reports(app, pages)


def mount_reports(app: FastAPI, pages: Pages) -> None:
    """The pages that list facts of the whole graph: ``/references/broken`` (``?law=``, ``?page=``)."""

    @app.get("/references/broken", response_class=HTMLResponse, include_in_schema=False)
    def broken(request: Request, law: str = "", page: str = "1") -> Response:
        return compressed(request, pages.broken(request, law, page))
