"""The house rules of docs/architecture.md, read from the code's own imports (pure, no server).

- no import circles between legalkg modules (module-level imports; ``TYPE_CHECKING`` blocks left out);
- no library module imports click or ``legalkg.cli``: the CLI is a shell over the library;
- no private name (``_x``) imported from another module;
- imports inside functions only for heavy optional dependencies.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "legalkg"

#: Imported inside functions on purpose: the optional extras (torch, sentence-transformers), dev-only
#: packages (ranx), and imports that cost about a second for one rarely used path (scikit-learn for
#: training and clustering, scipy's tests, pandas' frames of `legalkg parse --stats`, matplotlib's
#: figures, whose Agg backend must be chosen before pyplot is imported; LightGBM, which a search needs only
#: for `--explain`: it walks the trees with numpy, legalkg/predict/trees.py).
LAZY_ALLOWED = {"torch", "sentence_transformers", "ranx", "sklearn", "scipy", "pandas", "matplotlib", "lightgbm"}


def module_name(path: Path) -> str:
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def resolve(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The absolute module an ``ImportFrom`` names (relative imports resolved)."""
    if not node.level:
        return node.module or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


class Module:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.name = module_name(path)
        self.is_package = path.name == "__init__.py"
        self.tree = ast.parse(path.read_text("utf-8"))

    def top_level_imports(self):
        """(absolute module, imported names) of the imports that run when the module is imported."""
        todo = list(self.tree.body)
        while todo:
            node = todo.pop()
            if isinstance(node, ast.If) and is_type_checking(node):
                continue
            if isinstance(node, ast.If | ast.Try):
                todo.extend(node.body + node.orelse + getattr(node, "finalbody", []))
                for h in getattr(node, "handlers", []):
                    todo.extend(h.body)
            elif isinstance(node, ast.Import):
                for a in node.names:
                    yield a.name, []
            elif isinstance(node, ast.ImportFrom):
                yield resolve(self.name, self.is_package, node), [a.name for a in node.names]

    def function_imports(self):
        for fn in ast.walk(self.tree):
            if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
                for node in ast.walk(fn):
                    if isinstance(node, ast.Import):
                        yield node.lineno, [a.name for a in node.names]
                    elif isinstance(node, ast.ImportFrom):
                        yield node.lineno, [resolve(self.name, self.is_package, node)]


MODULES = {m.name: m for m in (Module(p) for p in sorted(PACKAGE.rglob("*.py")))}


def edges(module: Module) -> set[str]:
    """The legalkg modules ``module`` needs at import time."""
    out = set()
    for target, names in module.top_level_imports():
        if not target.startswith("legalkg"):
            continue
        for name in names:  # ``from . import jvm`` imports the submodule legalkg.x.jvm
            if f"{target}.{name}" in MODULES:
                out.add(f"{target}.{name}")
        if target in MODULES:
            out.add(target)
    out.discard(module.name)
    return out


def test_no_import_circles():
    graph = {name: edges(m) for name, m in MODULES.items()}
    # a package imports its submodules to form its face; only circles through other modules count
    for name, targets in graph.items():
        graph[name] = {t for t in targets if not (MODULES[name].is_package and t.startswith(name + "."))}
    state: dict[str, int] = {}
    stack: list[str] = []
    circles = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                circles.append(stack[stack.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node)
    assert circles == [], "import circles: " + "; ".join(" -> ".join(c) for c in circles)


@pytest.mark.parametrize("name", sorted(n for n in MODULES if not n.startswith("legalkg.cli")))
def test_library_modules_do_not_import_the_cli(name):
    module = MODULES[name]
    imported = {t for t, _ in module.top_level_imports()} | {
        t for _, targets in module.function_imports() for t in targets}
    bad = sorted(t for t in imported if t == "click" or t.startswith(("click.", "legalkg.cli")))
    assert bad == [], f"{module.path}: a library module imports {bad}"


def test_no_private_names_cross_modules():
    bad = []
    for module in MODULES.values():
        for node in ast.walk(module.tree):
            if isinstance(node, ast.ImportFrom):
                target = resolve(module.name, module.is_package, node)
                if target.startswith("legalkg") and target != module.name:
                    bad += [f"{module.path.name}: {target}.{a.name}" for a in node.names
                            if a.name.startswith("_") and not a.name.startswith("__")]
    assert bad == []


def test_imports_inside_functions_only_for_heavy_optional_dependencies():
    bad = []
    for module in MODULES.values():
        for line, targets in module.function_imports():
            for target in targets:
                if target.split(".")[0] not in LAZY_ALLOWED:
                    bad.append(f"{module.path.relative_to(PACKAGE.parent)}:{line} imports {target}")
    assert bad == [], "\n".join(bad)


#: The floors of the house, ground first: a room imports only rooms of lower floors (and itself).
#: A new room gets its floor here, where its imports put it.
FLOORS: tuple[tuple[str, ...], ...] = (
    ("errors", "data", "cancel", "lazy", "lawnames", "npzmap", "marshalcache", "fastmodel", "plural"),
    ("model", "paths", "procs", "gcpolicy", "jsonl", "codes", "fusion", "machine", "textin"),
    ("vocab", "cite", "parse", "embed", "server", "taskfile"),
    ("cases",),
    ("predict", "graph"),
    ("retrieve", "verify", "encoder", "facts"),
    ("eval",),
    ("context",),
    ("serve",),
    ("cli",),
)
FLOOR_OF = {room: i for i, rooms in enumerate(FLOORS) for room in rooms}


def room_of(module: str) -> str:
    """``legalkg.retrieve.engine`` -> ``retrieve``; the package face ``legalkg`` is no room."""
    return module.split(".")[1] if "." in module else ""


def test_every_room_has_a_floor():
    rooms = {room_of(name) for name in MODULES} - {""}
    assert sorted(rooms - set(FLOOR_OF)) == [], "give each new room its floor in FLOORS"


def test_no_room_imports_one_of_its_own_floor_or_higher():
    bad = []
    for name, module in MODULES.items():
        here = room_of(name)
        for target in edges(module):
            there = room_of(target)
            if there and there != here and here in FLOOR_OF and FLOOR_OF.get(there, -1) >= FLOOR_OF[here]:
                bad.append(f"{name} (floor {FLOOR_OF[here] + 1}) imports {target} (floor {FLOOR_OF[there] + 1})")
    assert bad == [], "\n".join(bad)


#: A string is inline Cypher when it reads a clause and then what the clause yields or does.
INLINE_CYPHER = re.compile(r"\b(MATCH|UNWIND|CALL|SHOW|CREATE|MERGE)\b.*\b(RETURN|SET|YIELD|DELETE|INDEX|CONSTRAINT)\b",
                           re.S)
#: Modules allowed inline Cypher, and why.
INLINE_CYPHER_ALLOWED = {
    # the JVM training workload of a scratch server: fixed statements over a throwaway label, run
    # once to warm the JIT before the real server starts (no user input, no graph of the product)
    "legalkg.server.training",
}


def docstring_nodes(tree: ast.AST) -> set[int]:
    out = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (isinstance(body, list) and body and isinstance(body[0], ast.Expr)
                and isinstance(body[0].value, ast.Constant)):
            out.add(id(body[0].value))
    return out


def test_cypher_lives_in_cypher_files():
    bad = []
    for name, module in MODULES.items():
        if name in INLINE_CYPHER_ALLOWED:
            continue
        docs = docstring_nodes(module.tree)
        for node in ast.walk(module.tree):
            if (isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs
                    and INLINE_CYPHER.search(node.value)):
                bad.append(f"{module.path.relative_to(PACKAGE.parent)}:{node.lineno}: {node.value[:60]!r}")
    assert bad == [], "Cypher belongs in cypher/*.cypher (graph.cypher.query):\n" + "\n".join(bad)


#: The screen: at most this many lines and parameters per function (self and cls not counted).
MAX_LINES, MAX_PARAMS = 60, 8
#: Functions over the screen that remain, outside the rooms already brought under it.
OVER_THE_SCREEN: set[str] = set()


def test_functions_fit_on_a_screen():
    bad = []
    for module in MODULES.values():
        where = module.path.relative_to(PACKAGE.parent).as_posix()
        for node in ast.walk(module.tree):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            a = node.args
            params = [p for p in a.posonlyargs + a.args + a.kwonlyargs if p.arg not in ("self", "cls")]
            params += [p for p in (a.vararg, a.kwarg) if p is not None]
            lines = node.end_lineno - node.lineno + 1
            if (lines > MAX_LINES or len(params) > MAX_PARAMS) and f"{where}:{node.name}" not in OVER_THE_SCREEN:
                bad.append(f"{where}:{node.name}: {lines} lines, {len(params)} parameters")
    assert bad == [], "\n".join(bad)


def test_the_allow_list_names_only_functions_still_over_the_screen():
    names = {f"{m.path.relative_to(PACKAGE.parent).as_posix()}:{n.name}" for m in MODULES.values()
             for n in ast.walk(m.tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}
    assert sorted(OVER_THE_SCREEN - names) == [], "drop these from OVER_THE_SCREEN"
