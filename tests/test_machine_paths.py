"""No tracked file and no header of a tracked model file names a folder of the machine it was made on.

Such a path means nothing on another machine: a recorded command keeps its options, not its machine
(``$LEGALKG_SHARED`` for the shared data, ``$TMPDIR`` for scratch output, a path relative to the
checkout for its files; ``paths.portable`` writes them so). What counts as a machine path
(``MACHINE``): an absolute path under the folders where checkouts, scratch output and home folders
live on Linux, macOS and Windows, and the absolute forms of this machine's shared folder, checkout,
temp and home folders, wherever they are. Not counted, and so allowed without a list: relative paths,
``$VARIABLE/...``, ``~/...``, URLs, and system paths that the code needs (``/usr/lib/jvm``,
``/dev/null``, ``/proc``, ``/etc``), which name no person's or run's folder.
"""

from __future__ import annotations

import json
import re
import subprocess
import tempfile
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from legalkg import paths
from legalkg.errors import UserError

ROOT = paths.REPO_ROOT
#: Folders under which only a machine's own work lives: checkouts (/work), scratch (/tmp, /var/tmp,
#: /scratch, macOS /private/var and /var/folders), mounts (/mnt) and home folders (/root, /home,
#: /Users); a drive letter before a name (C:\x, C:/x, or C:\\x as JSON escapes it). Preceded by no
#: path or word character, so the path part of a URL (https://example.org/home/...) or of a relative
#: path (data/tmp/x) does not count; a shell default (``${VAR:-/tmp/x}``) counts.
FOLDERS = (r"/(?:work|tmp|var/tmp|scratch|private/var|var/folders|mnt|root|home|Users)/"
           r"|[A-Za-z]:(?:\\\\|\\|/)(?=[\w.$%~])")
MACHINE = re.compile(r"(?:(?<=:-)|(?<![\w.~$/\\-]))(?:" + FOLDERS + ")")
#: The arrays of a model file that hold its metadata as UTF-8 JSON (``modelfile``, ``rankfile``, the
#: static encoder's ``meta``); the other arrays are numbers or token tables.
META_ARRAYS = ("header", "meta")
#: The files that must name such paths, as examples: this test (the forms it counts) and the script
#: that rewrote the old records (the forms it rewrites).
EXEMPT = {"tests/test_machine_paths.py", "scripts/portable_paths.py"}


@cache
def tracked() -> list[Path]:
    out = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True, check=True).stdout
    return [ROOT / name for name in out.decode("utf-8").split("\0") if name and (ROOT / name).is_file()]


def this_machine() -> list[str]:
    """The absolute forms of this machine's own folders, wherever they are (e.g. a home under /data)."""
    found = {str(ROOT), str(Path(tempfile.gettempdir()).resolve()), str(Path.home())}
    try:
        found |= {str(paths.shared_dir()), str(paths.shared_dir().resolve())}
    except UserError:
        pass
    return sorted(f for f in found if f.count("/") >= 2 or len(f) > 5)


def machine_paths(text: str, own: list[str]) -> list[str]:
    """The machine paths in ``text``: each hit with a little of what follows it."""
    hits = [text[m.start():m.start() + 60].split()[0] for m in MACHINE.finditer(text)]
    hits += [f for f in own if re.search(r"(?<![\w.~$/-])" + re.escape(f) + r"(?![\w.-])", text)]
    return hits


def text_of(path: Path) -> str | None:
    """The file as text, None for a binary file (a NUL byte or no UTF-8)."""
    raw = path.read_bytes()
    if b"\0" in raw[:8192]:
        return None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return None


def npz_metadata(path: Path) -> list[str]:
    with np.load(path, allow_pickle=False) as z:
        return [z[name].tobytes().decode("utf-8") for name in META_ARRAYS if name in z.files]


def test_the_forms_it_counts():
    assert machine_paths('"out": "/tmp/lk/ship-lay"', []) == ['/tmp/lk/ship-lay"']
    assert machine_paths("see /home/ann/x and /Users/b/y and C:\\data\\x and D:/runs", []) == \
        ["/home/ann/x", "/Users/b/y", "C:\\data\\x", "D:/runs"]
    assert machine_paths('{"out": "C:\\\\Users\\\\ann"}', []) == ['C:\\\\Users\\\\ann"}']
    assert machine_paths("--train-extra " + "/" + "work/shared/data/eval/x.jsonl", []) != []
    assert machine_paths("--out /srv/x", ["/srv"]) == ["/srv"]
    assert machine_paths("home=${CHUNK_NEO4J_HOME:-/tmp/chunk-neo4j}", []) == ["/tmp/chunk-neo4j}"]
    for fine in ("$LEGALKG_SHARED/data/gii", "$TMPDIR/lk/run", "~/.cache/legalkg", "../shared/data",
                 "https://example.org/home/x", "data/tmp/x", "/usr/lib/jvm/java-21", "/dev/null", "/proc/self",
                 "file C: drive", "s3://bucket/x", "C://x", "/srvx", '"| k:\\", meta', "a-/tmp-b",
                 "${DATA:-${LEGALKG_SHARED:-../shared}/data/eval}"):
        assert machine_paths(fine, ["/srv"]) == [], fine


def test_no_tracked_text_file_names_a_machine_path():
    own = this_machine()
    found = []
    for path in tracked():
        if path.relative_to(ROOT).as_posix() in EXEMPT:
            continue
        text = text_of(path)
        for n, line in enumerate((text or "").splitlines(), 1):
            for hit in machine_paths(line, own):
                found.append(f"{path.relative_to(ROOT)}:{n}: {hit}")
    assert not found, f"{len(found)} machine paths (use $LEGALKG_SHARED, $TMPDIR or a relative path):\n" + \
        "\n".join(found[:60])


@pytest.mark.parametrize("path", [p for p in tracked() if p.suffix == ".npz"], ids=lambda p: p.name)
def test_no_model_header_names_a_machine_path(path):
    own = this_machine()
    metadata = npz_metadata(path)
    assert metadata, f"{path.name} has no {' or '.join(META_ARRAYS)} array"
    for text in metadata:
        json.loads(text)  # it is the JSON metadata, not a table that merely decodes
        assert machine_paths(text, own) == [], path.name
