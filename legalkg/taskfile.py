"""Shipped per-task JSON files in ``legalkg/data`` (fusion weights, context-pack gain calibration).

Why one reader and writer: each file maps a task (``lay``, ``case``) to an entry written by a
documented command, and a user may point a flag at their own copy. Both files must read the same
way: a missing file is "nothing shipped" ({}), a broken one is one line naming the command that
rewrites it, and writing one task's entry keeps the other tasks'.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path

from .errors import UserError
from .paths import missing_resource, portable_tree


def shipped_path(name: str) -> Path:
    """``legalkg/data/<name>`` in a checkout or an installed wheel."""
    return Path(str(resources.files("legalkg.data").joinpath(name)))


def shipped_file(name: str) -> Path:
    """``legalkg/data/<name>``, which the package carries: where it is missing, one line names it and
    says how to get it back. Why no fallback: the engine without a shipped model runs, but ranks
    otherwise than every quoted figure says, and nothing would tell the user."""
    path = shipped_path(name)
    if not path.is_file():
        raise missing_resource(f"the shipped file legalkg/data/{name}")
    return path


def read_entries(path: str | Path | None, name: str, what: str, fix: str) -> dict:
    """The file's entries (task -> entry); {} where a file the user names is not there yet (the
    writer's first entry). ``path`` None reads the shipped ``name``, which must be there
    (``shipped_file``); ``what`` and ``fix`` name the file's kind and the command that rewrites it."""
    p = Path(path) if path is not None else shipped_file(name)
    if not p.exists():
        return {}
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise UserError(f"{p}: not a {what} JSON file ({err}); rewrite it with `{fix}`") from None
    return data if isinstance(data, dict) else {}


def write_entry(path: str | Path, task: str, entry: Mapping[str, object], name: str, what: str, fix: str,
                indent: int = 2) -> Path:
    """Write (or replace) ``task``'s entry, dated today, keeping the other tasks' entries."""
    p = Path(path)
    data = read_entries(p, name, what, fix)
    data[task] = {**portable_tree(dict(entry)), "date": datetime.now(UTC).strftime("%Y-%m-%d")}
    p.parent.mkdir(parents=True, exist_ok=True)  # paths.check_writable_file proved it, made nothing
    p.write_text(json.dumps(data, indent=indent, ensure_ascii=False) + "\n", encoding="utf-8")
    return p
