"""The import rules of docs/architecture.md, read from every module's source.

Layers, bottom first; a module imports its own package and the layers below it only:

    errors, cards, options -> lang -> codegen -> engine -> observe -> examples
        -> {bots, solve, fuzz} -> analysis -> {cli, repl}

Imports inside functions count too: a lazy import is still a dependency.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PKG = "cardgame.interpreter"

LAYER = {
    "errors": 0, "cards": 0, "options": 0, "intervals": 0, "terminal": 0, "__init__": 0,
    "lang": 1, "codegen": 2, "engine": 3, "observe": 4, "examples": 5,
    "bots": 6, "solve": 6, "fuzz": 6,
    "analysis": 7, "cli": 8, "repl": 8,
}
SIBLINGS = {"bots", "solve", "fuzz"}  # never import each other

# Third-party packages, each owned by one place.
OWNERS = {
    "lark": ("interpreter/lang/parser.py", "interpreter/lang/builder.py"),
    "hypothesis": ("interpreter/fuzz/",),
    "prompt_toolkit": ("repl/",),
    "matplotlib": ("interpreter/analysis/plots.py",),
    "dask": ("interpreter/analysis/parallel.py",),
    "distributed": ("interpreter/analysis/parallel.py",),
    "tqdm": ("interpreter/cli.py", "repl/"),  # progress is passed down as a callback
    "rich": ("interpreter/cli.py", "repl/"),
}


def modules() -> list[tuple[str, Path]]:
    """(dotted name under cardgame, path) for every module we ship."""
    out = []
    for top in ("interpreter", "repl"):
        for f in sorted((ROOT / top).rglob("*.py")):
            parts = f.relative_to(ROOT).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]  # a package is named by its folder
            out.append((".".join(("cardgame", *parts)), f))
    return out


def imported_module(node: ast.ImportFrom, package: str) -> str:
    """The absolute name of the module a `from ... import` reads, relative ones resolved."""
    if not node.level:
        return node.module or ""
    base = package.split(".")
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def imports_of(name: str, path: Path) -> list[tuple[str, int]]:
    """Absolute dotted names imported by a module, with their line numbers."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(a.name, node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            mod = imported_module(node, package)
            found.append((mod, node.lineno))
            # `from pkg import x` may import the submodule pkg.x
            found += [(f"{mod}.{a.name}", node.lineno) for a in node.names]
    return found


def part(dotted: str) -> str | None:
    """The layer key of a cardgame module: 'lang', 'cli', 'repl', ... or None if not ours."""
    if dotted.startswith("cardgame.repl"):
        return "repl"
    if dotted == PKG:
        return "__init__"
    if dotted.startswith(PKG + "."):
        first = dotted[len(PKG) + 1:].split(".")[0]
        here = ROOT / "interpreter"
        if not (here / f"{first}.py").exists() and not (here / first).is_dir():
            return "__init__"  # an attribute of the package root, such as __version__
        return first
    return None


def test_every_module_has_a_layer() -> None:
    unknown = {part(n) for n, _ in modules()} - set(LAYER)
    assert not unknown, f"modules outside every layer: {unknown}; add them to LAYER and the docs"


def test_imports_only_go_down() -> None:
    bad = []
    for name, path in modules():
        me = part(name)
        assert me is not None
        for target, line in imports_of(name, path):
            them = part(target)
            if them is None or them == me:
                continue
            where = f"{path.relative_to(ROOT)}:{line}: {me} imports {target}"
            if them == "cli":
                bad.append(f"{where} (nothing imports cli)")
            elif me in SIBLINGS and them in SIBLINGS:
                bad.append(f"{where} (bots, solve and fuzz never import each other)")
            elif them == "__init__" and me != "__init__":
                continue  # the package root holds only __version__
            elif LAYER[them] > LAYER[me] and not (me == "cli" and them == "repl"):
                bad.append(f"{where} (a layer above)")
    assert not bad, "\n".join(bad)


def test_third_party_packages_stay_in_their_place() -> None:
    bad = []
    for name, path in modules():
        rel = str(path.relative_to(ROOT))
        for target, line in imports_of(name, path):
            top = target.split(".")[0]
            if top in OWNERS and not rel.startswith(OWNERS[top]):
                bad.append(f"{rel}:{line}: imports {top}, which belongs to {OWNERS[top]}")
    assert not bad, "\n".join(bad)


def test_no_import_cycles_between_modules() -> None:
    names = {n for n, _ in modules()}
    graph: dict[str, set[str]] = {}
    for name, path in modules():
        deps = set()
        for target, _ in imports_of(name, path):
            # `from pkg import name` may name a module or an attribute: keep what exists
            if target not in names and target.rpartition(".")[0] in names:
                continue  # an attribute of a module that is listed on its own
            while target and target not in names:
                target = target.rpartition(".")[0]
            if target and target != name and not name.startswith(target + "."):
                deps.add(target)
        graph[name] = deps
    # packages' __init__ re-export their modules; an edge into a package means its modules
    state: dict[str, int] = {}
    cycle: list[str] = []

    def visit(n: str, stack: list[str]) -> bool:
        state[n] = 1
        for d in sorted(graph.get(n, ())):
            if state.get(d) == 1:
                cycle.extend(stack[stack.index(d):] + [n, d] if d in stack else [n, d])
                return True
            if state.get(d) is None and visit(d, stack + [d]):
                return True
        state[n] = 2
        return False

    for n in sorted(graph):
        if state.get(n) is None and visit(n, [n]):
            break
    assert not cycle, " -> ".join(cycle)


def faces() -> dict[str, set[str]]:
    """Each subpackage's face: the names its `__init__.py` lists in `__all__`."""
    out = {}
    for init in sorted((ROOT / "interpreter").glob("*/__init__.py")):
        names: set[str] = set()
        for node in ast.parse(init.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.Assign) and any(
                    isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
                names = set(ast.literal_eval(node.value))
        out[init.parent.name] = names
    return out


def test_other_packages_are_reached_through_their_face() -> None:
    """A module imports another package by the names its `__init__` exports, never by its
    modules: the package can then rearrange its modules without touching its users."""
    face = faces()
    bad = []
    for name, path in modules():
        me = part(name)
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.ImportFrom):
                continue
            mod = imported_module(node, package)
            them = part(mod)
            if them not in face or them == me:
                continue
            where = f"{path.relative_to(ROOT)}:{node.lineno}"
            if mod != f"{PKG}.{them}":
                bad.append(f"{where}: imports the module {mod}, not the face of {them}")
                continue
            missing = [a.name for a in node.names if a.name not in face[them]]
            if missing:
                bad.append(f"{where}: {', '.join(missing)} not in {them}'s __all__")
    assert not bad, "\n".join(bad)
