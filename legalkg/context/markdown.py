"""A context pack as Markdown for a prompt: one section per unit, headed by its citation and id."""

from __future__ import annotations

from ..plural import counted
from .pack import ContextPack

#: Characters of the query shown in the title (a decision-length query would swamp the pack).
TITLE_CHARS = 120


def render_markdown(pack: ContextPack, why: bool = False) -> str:
    """Each unit as ``## <citation> (`<id>`)`` and its text (with ``why``: the reason, in italics);
    a closing line gives the units and words used."""
    q = pack.query if len(pack.query) <= TITLE_CHARS else pack.query[:TITLE_CHARS - 1] + "…"
    lines = [f"# Context: {q}", ""]
    for u in pack.units:
        lines += [f"## {u.citation} (`{u.id}`)", ""]
        if why:
            lines += [f"_{u.why}_", ""]
        lines += [u.text, ""]
    if not pack.units:
        lines += ["(no unit found within the budget)", ""]
    lines.append(f"_{counted(len(pack.units), 'unit')}, {pack.words} of {counted(pack.budget, 'word')}_")
    return "\n".join(lines)
