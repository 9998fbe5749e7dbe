"""The levels a predictor's labels have and the § a unit id lies in: pure id helpers, apart from
``units.py`` (which parses the statutes), so that a search, which needs only these, does not import
the parser and the citation grammar (eval/cli-startup/lazy/)."""

from __future__ import annotations

from ..model import Level, level_of_id

#: Levels a label can have: the § and the units below it that courts cite.
LABEL_LEVELS: tuple[Level, ...] = (Level.PARAGRAPH, Level.ABSATZ, Level.SATZ, Level.NUMMER)


def paragraph_of(uid: str) -> str | None:
    """The id of the § a unit id lies in (the unit's own for a §), None above the § level:
    ``BGB/§551/Abs1`` -> ``BGB/§551``."""
    parts = uid.split("/")
    for end in range(2, len(parts) + 1):
        try:
            if level_of_id("/".join(parts[:end])) is Level.PARAGRAPH:
                return "/".join(parts[:end])
        except ValueError:
            return None
    return None
