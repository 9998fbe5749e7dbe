"""The Content-Security-Policy of the pages (pure): scripts and styles from the app's own files only.

Why so strict: a unit page shows statute text and a check page shows pasted text; Jinja2 escapes
both, and the policy is the second wall should an escape ever be missed: no inline script runs, no
script or style comes from elsewhere, no page frames them, and forms post only to the app. The pages
need nothing more: ``app.js`` starts everything (no inline script), the JSON of the drawing is a
data block (``type="application/json"``, never run), and the one inline style, the element that
cytoscape.js adds for its container, is allowed by its hash.
"""

from __future__ import annotations

import base64
import hashlib

#: The ``<style>`` text cytoscape.js inserts once (``static/cytoscape.min.js``; tests/web check it is there).
CYTOSCAPE_STYLE = ".__________cytoscape_container { position: relative; }"


def style_hash(text: str) -> str:
    """A CSP source for an inline style or script: 'sha256-<base64 of its UTF-8 bytes' digest>'."""
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


POLICY = "; ".join([
    "default-src 'none'",
    "script-src 'self'",
    f"style-src 'self' {style_hash(CYTOSCAPE_STYLE)}",
    "img-src 'self'",
    "connect-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
])

#: Headers of every HTML page (``serve.origin.LocalOnly`` adds X-Frame-Options and nosniff to every answer).
HEADERS = {"Content-Security-Policy": POLICY, "Referrer-Policy": "same-origin"}
