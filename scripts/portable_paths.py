"""Rewrite the machine paths that earlier runs recorded in tracked files, and in the JSON metadata of
the tracked model files (``.npz``), as the writers record them now (``legalkg.paths.portable``).

Why a script: run.json files, eval READMEs, benchmark pages and model headers were written before the
writers named folders portably, on machines whose shared folder was ``/work/shared``, whose checkouts
were ``/work/main`` and ``/work|/tmp/wt-*`` and whose scratch output went under ``/tmp`` (or a
``/work`` folder that was no checkout). A recorded command keeps its options, not its machine:

- ``/work/shared``                       -> ``$LEGALKG_SHARED``
- ``/work/main/x``, ``/tmp/wt-b/x``      -> ``x`` (a path in the checkout; the folder alone -> ``.``)
- ``/tmp/x``, other ``/work/x``          -> ``$TMPDIR/x`` (scratch output)

A model file is rewritten only where its metadata array (``header``, or ``meta`` of the static
encoder) names such a path; every other array is copied byte for byte, and the script reads the new
file back and checks that each array equals the old one before it replaces the file.
tests/test_machine_paths.py is the guard that finds what is left.

Usage: python scripts/portable_paths.py [--check]   (--check: list what would change, write nothing)
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
EDGE = r"(?<![\w.~$/-])"
RULES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(EDGE + r"/work/shared(?![\w.-])"), "$LEGALKG_SHARED"),
    (re.compile(EDGE + r"(?:/work|/tmp)/(?:main|wt-[\w.-]+)/"), ""),
    (re.compile(EDGE + r"(?:/work|/tmp)/(?:main|wt-[\w.-]+)(?![\w/.-])"), "."),
    (re.compile(EDGE + r"(?:/tmp|/work)/(?=[\w.-])"), "$TMPDIR/"),
)
META_ARRAYS = ("header", "meta")
#: This script and the guard name the old forms as examples (tests/test_machine_paths.py: ``EXEMPT``).
EXEMPT = {"scripts/portable_paths.py", "tests/test_machine_paths.py"}


def portable(text: str) -> str:
    for pattern, name in RULES:
        text = pattern.sub(lambda _m, n=name: n, text)
    return text


def tracked() -> list[Path]:
    out = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True, check=True).stdout
    return [ROOT / n for n in out.decode("utf-8").split("\0") if n and (ROOT / n).is_file()]


def rewrite_text(path: Path, write: bool) -> int:
    """The number of lines changed in a text file (binary files: 0)."""
    raw = path.read_bytes()
    if b"\0" in raw[:8192]:
        return 0
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return 0
    new = portable(text)
    if new == text:
        return 0
    changed = sum(a != b for a, b in zip(text.splitlines(), new.splitlines()))
    if write:
        path.write_text(new, encoding="utf-8")
    return changed


def rewrite_npz(path: Path, write: bool) -> list[str]:
    """The metadata arrays rewritten in a model file; the other arrays stay as they are (checked)."""
    with np.load(path, allow_pickle=False) as z:
        arrays = {name: z[name] for name in z.files}
    changed = []
    for name in META_ARRAYS:
        if name in arrays:
            text = arrays[name].tobytes().decode("utf-8")
            new = portable(text)
            if new != text:
                json.loads(new)  # still the JSON it was
                arrays[name] = np.frombuffer(new.encode("utf-8"), dtype=arrays[name].dtype)
                changed.append(name)
    if changed and write:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "wb") as fh:
            np.savez_compressed(fh, **arrays)
        with np.load(path, allow_pickle=False) as old, np.load(tmp, allow_pickle=False) as new_z:
            assert sorted(old.files) == sorted(new_z.files)
            for name in old.files:
                if name not in changed:
                    a, b = old[name], new_z[name]
                    assert a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes(), name
        os.replace(tmp, path)
    return changed


def main(argv: list[str]) -> int:
    write = "--check" not in argv
    lines = files = 0
    for path in tracked():
        rel = path.relative_to(ROOT)
        if rel.as_posix() in EXEMPT:
            continue
        if path.suffix == ".npz":
            names = rewrite_npz(path, write)
            if names:
                print(f"{rel}: metadata {', '.join(names)} rewritten, arrays unchanged")
            continue
        n = rewrite_text(path, write)
        if n:
            lines, files = lines + n, files + 1
    print(f"{'rewrote' if write else 'would rewrite'} {lines} lines in {files} text files")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
