"""The library's tools for LLM agents: an MCP server over stdio and a small HTTP JSON API.

Public API::

    from legalkg.serve import Tools, build_server, build_app
    tools = Tools(driver, "neo4j")          # read-only: every query in a READ transaction
    tools.search("Kaution zurück", level="§", k=5)
    tools.get_unit(citation="§ 433 Abs. 1 BGB")   # or id="BGB/§433/Abs1"
    tools.verify("Nach § 574 Abs. 5 ZPO ...")
    tools.context("Kaution zurück", budget=1000)
    tools.related(citation="§ 573 BGB", limit=20)   # parent, children, cites, cited_by with counts
    build_server(tools).run("stdio")        # what `legalkg serve --mcp` runs
    build_app(tools)                        # the FastAPI app of `legalkg serve --http` (API + web pages)
"""

from .http import DEFAULT_HOST, DEFAULT_PORT, build_app, run_http
from .mcp_server import INSTALL_HINT, build_server, require_mcp, run_stdio
from .readonly import ReadOnlyDriver
from .tools import DESCRIPTIONS, LINK_LIMIT, Tools

__all__ = ["DEFAULT_HOST", "DEFAULT_PORT", "DESCRIPTIONS", "INSTALL_HINT", "LINK_LIMIT", "ReadOnlyDriver", "Tools",
           "build_app", "build_server", "require_mcp", "run_http", "run_stdio"]
