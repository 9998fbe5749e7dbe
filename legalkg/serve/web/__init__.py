"""The web pages of ``legalkg serve --http`` (ask, read a unit, check a text, context pack).

Public API::

    from legalkg.serve.web import mount
    mount(app, tools)     # adds /, /unit/<id>, /check, /context (GET) and /static to a FastAPI app
"""

from .routes import mount

__all__ = ["mount"]
