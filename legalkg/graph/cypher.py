"""Load the parameterised Cypher that lives in ``cypher/*.cypher`` (one place per query).

A file holds one query, or several statements separated by a ``;`` at the end of a line
(schema files). ``//`` comment lines are documentation for people reading the file in Browser.
"""

from __future__ import annotations

from functools import lru_cache

from ..paths import cypher_dir


@lru_cache(maxsize=None)
def query(name: str) -> str:
    """The text of ``cypher/<name>.cypher`` (comments kept: Neo4j ignores them)."""
    path = cypher_dir() / f"{name}.cypher"
    return path.read_text("utf-8").strip().rstrip(";").strip()


@lru_cache(maxsize=None)
def statements(name: str) -> tuple[str, ...]:
    """Split a multi-statement file on ``;`` line ends, dropping comment-only chunks."""
    text = (cypher_dir() / f"{name}.cypher").read_text("utf-8")
    out: list[str] = []
    buf: list[str] = []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("//") or not stripped:
            continue
        buf.append(line)
        if stripped.endswith(";"):
            out.append("\n".join(buf).strip().rstrip(";"))
            buf = []
    if buf:
        out.append("\n".join(buf).strip())
    return tuple(out)
