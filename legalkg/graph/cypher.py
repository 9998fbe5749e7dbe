"""Load the parameterised Cypher that lives in ``cypher/*.cypher`` (one place per query).

A file holds one query, or several statements separated by a ``;`` at the end of a line
(schema files). ``//`` comment lines are documentation for people reading the file in Browser.
"""

from __future__ import annotations

from functools import cache

from .. import paths
from ..model import Level
from ..vocab import RetrievalLevel


def _read(name: str) -> str:
    """The file's text; a missing file names itself (an OSError here would otherwise pass for a
    connection failure where a query is read inside a driver call)."""
    try:
        return (paths.cypher_dir() / f"{name}.cypher").read_text("utf-8")
    except FileNotFoundError:
        raise paths.missing_resource(f"query file {name}.cypher") from None


@cache
def query(name: str) -> str:
    """The text of ``cypher/<name>.cypher`` (comments kept: Neo4j ignores them)."""
    return _read(name).strip().rstrip(";").strip()


@cache
def statements(name: str) -> tuple[str, ...]:
    """Split a multi-statement file on ``;`` line ends, dropping comment-only chunks."""
    text = _read(name)
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


_SLOTS = ("__LABEL__", "__PARENT__", "__CHILD__", "__TARGET__")
#: Node labels a query template may take besides the hierarchy levels.
EXTRA_LABELS = (RetrievalLevel.CHUNK.value,)


def labelled(name: str, **slots) -> str:
    """A query whose label slots are filled from a closed vocabulary, never from user text.

    Labels and relationship types cannot be query parameters in Cypher; taking them from
    :class:`legalkg.model.Level` (or :data:`EXTRA_LABELS`) keeps every query safe. In a file,
    ``__LABEL__`` becomes the label (``Absatz``) and ``__LABEL_TYPE__`` its relationship-type form
    (``ABSATZ``), so ``CONTAINS___LABEL_TYPE__`` reads ``CONTAINS_ABSATZ``.
    """
    allowed = {lvl.value for lvl in Level} | set(EXTRA_LABELS)
    text = query(name)
    for slot, value in slots.items():
        label = value.value if isinstance(value, Level) else value
        if label not in allowed:
            raise ValueError(f"label slot {slot} takes a known label, not {value!r}")
        marker = slot.upper()
        text = text.replace(f"__{marker}_TYPE__", label.upper()).replace(f"__{marker}__", label)
    leftover = [s for s in _SLOTS if s in text]
    if leftover:
        raise ValueError(f"{name}.cypher: unfilled label slots {leftover}")
    return text
