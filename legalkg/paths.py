"""Where things live: the package's own resources, the shared data folder and the user cache.

legalkg runs either from a source checkout (an editable install, the tests, the benchmarks) or as an
installed wheel. The queries (``cypher/``) and the Neo4j pom (``neo4j/pom.xml``) stay at the top of
the checkout, where the design card puts them; the wheel ships them inside the package
(``legalkg/cypher``, ``legalkg/neo4j``: pyproject.toml maps them). The shared data is never packaged.
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
from importlib import resources
from pathlib import Path

from .errors import UserError

#: The folder above the ``legalkg`` package: the checkout, or site-packages for an installed wheel.
REPO_ROOT = Path(__file__).resolve().parents[1]


def checkout() -> Path | None:
    """The source checkout legalkg runs from, or None when it runs as an installed package."""
    return REPO_ROOT if (REPO_ROOT / "pyproject.toml").is_file() and (REPO_ROOT / "cypher").is_dir() else None


def package_resource(name: str) -> Path:
    """``legalkg/<name>`` of an installed package, else ``<checkout>/<name>``.

    Why both: a wheel carries the folder inside the package, while an editable install and a bare
    checkout keep it at the top of the repository (setuptools' editable finder cannot map a data
    folder into a package, pypa/setuptools#4248).
    """
    installed = resources.files("legalkg") / name
    if installed.is_dir() or installed.is_file():
        return Path(str(installed))
    return REPO_ROOT / name


def missing_resource(what: str) -> UserError:
    """One line for a file the package should carry: which one, and how to get it back."""
    if checkout() is None:
        return UserError(f"{what} is missing from the installed legalkg package ({Path(__file__).parent}): "
                         f"{restore_hint()}")
    return UserError(f"{what} is missing from the checkout {REPO_ROOT}: {restore_hint()}")


def restore_hint() -> str:
    """How to get back a file the package carries: reinstall the wheel, or restore the checkout's file."""
    if checkout() is None:
        return "reinstall it (pip install --force-reinstall legalkg)"
    return "restore it from git (git checkout -- legalkg/data)"


def cypher_dir() -> Path:
    """The folder of the parameterised queries (``cypher/`` of the checkout, ``legalkg/cypher`` installed)."""
    path = package_resource("cypher")
    if not path.is_dir():
        raise missing_resource("the query folder cypher/")
    return path


def neo4j_pom() -> Path:
    """The Maven pom that names the Neo4j server and Browser jars (``legalkg.server.jars``)."""
    path = package_resource("neo4j") / "pom.xml"
    if not path.is_file():
        raise missing_resource("the Neo4j pom neo4j/pom.xml")
    return path


def shared_dir() -> Path:
    """``$LEGALKG_SHARED``, else ``shared/`` beside the checkout (the layout CI uses).

    An installed package has no checkout beside it, so there it takes the variable; without it,
    one line says so when data is needed (``--source`` names the statutes directly).
    """
    env = os.environ.get("LEGALKG_SHARED")
    if env:
        return Path(env).expanduser()
    root = checkout()
    if root is None:
        raise UserError("no shared data folder: set LEGALKG_SHARED to the folder that holds data/gii and "
                        "data/eval (an installed legalkg has no checkout beside it), or pass --source")
    return root.parent / "shared"


def data_dir() -> Path:
    return shared_dir() / "data"


def gii_dir() -> Path:
    """Default ``--source``: the raw XML of the 58 default codes."""
    return data_dir() / "gii"


def gii_manifest() -> Path | None:
    """The shared gii folder's MANIFEST.tsv (titles of all 6,821 laws), None where there is none:
    citations resolve without it, so its absence is no error."""
    try:
        path = gii_dir() / "MANIFEST.tsv"
    except UserError:
        return None
    return path if path.is_file() else None


def gii_all_archive() -> Path:
    return data_dir() / "gii-all.tar.xz"


def eval_dir() -> Path:
    return data_dir() / "eval"


def cache_dir() -> Path:
    """``$LEGALKG_CACHE`` or ``~/.cache/legalkg``: jars, downloads, embedding cache. Never the repo."""
    env = os.environ.get("LEGALKG_CACHE")
    path = Path(env) if env else Path.home() / ".cache" / "legalkg"
    path.mkdir(parents=True, exist_ok=True)
    return path


def check_writable_dir(path: Path, option: str) -> None:
    """Prove a file can be written in ``path``, so a long run fails at its start, not after its
    work; the error names the ``option`` to change. Folders made for the proof are removed again:
    a run that fails later leaves no empty output folder behind (the writer makes them)."""
    made = [p for p in (path, *path.parents) if not p.exists()]
    try:
        path.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".legalkg-check-", dir=path)
        os.close(fd)
        os.unlink(tmp)
    except OSError as err:
        raise UserError(f"cannot write to {path} ({err.strerror}): choose another {option}") from None
    finally:
        for folder in made:  # deepest first
            with contextlib.suppress(OSError):
                folder.rmdir()


def check_writable_file(path: Path, option: str) -> None:
    """The same for a file that a run will write: its folder must take files, and it is no folder."""
    if path.is_dir():
        raise UserError(f"{path} is a folder: {option} takes a file name")
    check_writable_dir(path.parent, option)


def portable(text: str) -> str:
    """``text`` with this machine's folders named as any machine can read them: the shared data folder
    as ``$LEGALKG_SHARED``, the checkout as a relative path, the temp folder as ``$TMPDIR``, the home
    folder as ``~``.

    Why: run.json files, model file headers and the shipped JSON files record the command and the
    data that made them, and they are committed or shipped; a recorded command keeps its options,
    not the folders of the machine it ran on.
    """
    for prefix, name in machine_prefixes():
        text = re.sub(r"(?<![\w.~$/-])" + re.escape(prefix) + r"(?=/|$|[^\w.-])", lambda _m, n=name: n, text)
    return text


def portable_tree(value: object) -> object:
    """``portable`` applied to every string in nested lists, tuples and dicts (a run's metadata)."""
    if isinstance(value, str | os.PathLike):
        return portable(os.fspath(value))
    if isinstance(value, dict):
        return {k: portable_tree(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [portable_tree(v) for v in value]
    return value


def machine_prefixes() -> list[tuple[str, str]]:
    """(absolute folder, its portable name), longest folder first, so the shared folder beside the
    checkout wins over a home or temp folder that holds both."""
    named: dict[str, str] = {}
    with contextlib.suppress(UserError):
        for form in {str(shared_dir()), str(shared_dir().resolve())}:
            named[form] = "$LEGALKG_SHARED"
    root = checkout()
    for form in {str(root), os.path.realpath(root)} if root is not None else ():
        named.setdefault(form, ".")
    for form in {tempfile.gettempdir(), os.path.realpath(tempfile.gettempdir())}:
        named.setdefault(form, "$TMPDIR")
    named.setdefault(str(Path.home()), "~")
    return sorted(((p, n) for p, n in named.items() if len(p) > 1), key=lambda pn: -len(pn[0]))
