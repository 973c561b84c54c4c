"""Layers point one way, and games are plugins (issues 14 and 24).

Generic modules form layers: base (errors, jsonio, limits...) -> shapes -> games (the game API
and the plugin registry) -> solver (exact cover, tiling, parallel search) -> generators (IDs,
executors, booklets) -> play (bots, match, starts, play sessions) -> cli / web / benchmarks. Each game family (a
package ``games/<family>/`` with a ``plugin.py``, and its modules not yet moved there:
``solver/<family>_*.py``, ``generators/<family>.py``, ``cli_<family>.py``,
``benchmarks/<family>.py``) sits beside them: it may import any generic module and its own
family's, never another family's, and no generic module imports a family's module (they reach
games through the registry only).

Every import of every module is read with ``ast`` (imports inside functions included, imports
for type checkers only left out) and mapped to a layer; a violation fails with file and line.
"""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Rank of each layer; the package root's plain modules (errors, jsonio, limits) sit below all.
# The web app and the benchmarks sit beside the CLI at the top (`tanglekit bench` runs the
# benchmark scripts, `tanglekit serve` the web app).
RANK = {"base": 0, "shapes": 1, "games": 2, "solver": 3, "generators": 4, "play": 5, "web": 6, "cli": 6,
        "benchmarks": 6}


@functools.lru_cache(maxsize=None)
def families() -> tuple[str, ...]:
    """The game families: packages under games/ with a plugin module."""
    return tuple(sorted((p.parent.name for p in (ROOT / "games").glob("*/plugin.py")), key=len, reverse=True))


def family_of(module: str) -> str | None:
    """The game family a ``tanglekit.*`` module belongs to (None for generic modules)."""
    parts = module.split(".")
    if parts[0] != "tanglekit" or len(parts) == 1:
        return None
    if parts[1] == "games" and len(parts) > 2 and parts[2] in families():
        return parts[2]
    last = parts[-1]
    for fam in families():
        if re.fullmatch(rf"_?(cli_)?{fam}(_\w+)?", last):
            return fam
    return None


def layer_of(module: str) -> str | None:
    """The layer of a ``tanglekit.*`` module name (None for outside modules): a game family's
    name, or a generic layer."""
    parts = module.split(".")
    if parts[0] != "tanglekit":
        return None
    fam = family_of(module)
    if fam is not None:
        return fam
    if len(parts) == 1:
        return "base"
    top = parts[1]
    if top in RANK:
        return top
    if top.startswith("cli"):
        return "cli"
    return "base"  # errors, jsonio, limits, __init__


def module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(["tanglekit", *parts])


@functools.lru_cache(maxsize=None)
def imports_of(path: Path) -> list[tuple[str, int]]:
    """Absolute names of every tanglekit module ``path`` imports, with line numbers (each file
    parsed once for the tests below)."""
    return imports_in(path.read_text(encoding="utf-8"), module_name(path), path.name == "__init__.py")


def imports_in(source: str, me: str, is_package: bool) -> list[tuple[str, int]]:
    """The tanglekit imports of ``source``, the text of module ``me``."""
    package = me if is_package else me.rsplit(".", 1)[0]
    out = []
    tree = ast.parse(source)
    typing_only = set()  # imports under ``if TYPE_CHECKING:`` (never run)
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            typing_only |= {id(n) for b in node.body for n in ast.walk(b)}
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            out += [(a.name, node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if node.module is None or node.level and not node.module:
                out += [(f"{target}.{a.name}", node.lineno) for a in node.names]
            else:
                out.append((target, node.lineno))
    return [(m, ln) for m, ln in out if m.startswith("tanglekit")]


def source_files() -> list[Path]:
    skip = {"tests", ".git", "build", "dist", "examples", "docs"}
    return [p for p in ROOT.rglob("*.py")
            if not (set(p.relative_to(ROOT).parts) & skip) and "egg-info" not in str(p)]


def test_layer_ranks_cover_every_file():
    for p in source_files():
        assert layer_of(module_name(p)) is not None, p


def test_no_import_points_up():
    bad = []
    for p in source_files():
        mine = layer_of(module_name(p))
        for target, line in imports_of(p):
            theirs = layer_of(target)
            if theirs is None or theirs == mine:
                continue
            if mine == "benchmarks" and theirs in families():
                continue  # a benchmark measures named games (it is no generic part)
            if theirs in families() or (mine not in families() and RANK[theirs] > RANK[mine]):
                bad.append(f"{p.relative_to(ROOT)}:{line} ({mine}) imports {target} ({theirs})")
    assert not bad, "imports that point up a layer or into another game:\n" + "\n".join(bad)


def test_every_game_is_a_family():
    # the families found by the layer map are the registered plugins
    from tanglekit.games.plugin import plugins

    assert sorted(families()) == sorted(p.family for p in plugins() if p.family in families())
    assert {"zangle", "tanglung", "qango", "zinga", "tangle"} <= set(families())
    assert family_of("tanglekit.games.qango.solve") == "qango"
    assert family_of("tanglekit.games.tanglung.kernels") == "tanglung"
    assert family_of("tanglekit.games.tangle.cli") == "tangle" and family_of("tanglekit.solver.tiling") is None


def test_no_cycles_between_top_level_modules():
    import networkx as nx

    graph = nx.DiGraph()
    for p in source_files():
        me = module_name(p)
        for target, _ in imports_of(p):
            # a package import resolves to its __init__ or the module itself
            if target != me and not me.startswith(target + ".") and not target.startswith(me + "."):
                graph.add_edge(me, target)
    cycles = [c for c in nx.simple_cycles(graph) if len({layer_of(m) for m in c}) > 1]
    assert not cycles, f"import cycles across layers: {cycles[:5]}"


def test_the_walker_sees_imports_inside_functions():
    # The checker must not be blind to lazy or relative imports.
    src = "import os\ndef f():\n    from ..generators import ids\n    from . import rules\n"
    found = imports_in(src, "tanglekit.games.probe", False)
    assert found == [("tanglekit.generators", 3), ("tanglekit.games.rules", 4)]
    assert layer_of("tanglekit.generators.ids") == "generators" and layer_of("tanglekit.cli_play") == "cli"
    assert layer_of("tanglekit.games.qango.cli") == "qango"
    typed = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..generators import play\n"
    assert imports_in(typed, "tanglekit.games.probe", False) == []


def _generic_files() -> list[Path]:
    """Source files of the generic parts (no game family, no benchmark script)."""
    return [p for p in source_files()
            if layer_of(module_name(p)) not in families() and layer_of(module_name(p)) != "benchmarks"]


def _docstrings(tree: ast.AST) -> set[int]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                out.add(id(first.value))
    return out


def game_words_in(source: str) -> list[tuple[int, str]]:
    """String constants (docstrings aside) that name a game family or an API game, or start an
    ID or an instance kind of one (``qango:``, ``zangle-solo-deal``): a generic module that holds
    one is branching on, or building, a particular game."""
    from tanglekit.games import game_names

    names = set(families()) | set(game_names())
    tree = ast.parse(source)
    skip = _docstrings(tree)
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            v = node.value.strip().lower()
            if v in names or any(v.startswith((f + ":", f + "-")) for f in families()):
                out.append((node.lineno, node.value))
    return out


def engine_reads_in(source: str) -> list[tuple[int, str]]:
    """Reads of another object's ``.engine`` or of a game state's private parts (``x._places()``,
    ``x._table()``, ``x._pass``): generic code asks the game API or the plugin instead."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
            if node.attr == "engine" or node.attr in ("_places", "_table", "_pass"):
                out.append((node.lineno, node.attr))
    return out


def test_generic_code_names_no_game_and_reads_no_engine():
    bad = []
    for p in _generic_files():
        src = p.read_text(encoding="utf-8")
        bad += [f"{p.relative_to(ROOT)}:{ln} names {v!r}" for ln, v in game_words_in(src)]
        if p.relative_to(ROOT).as_posix() != "games/api.py":  # EngineState owns .engine (its copies too)
            bad += [f"{p.relative_to(ROOT)}:{ln} reads .{a}" for ln, a in engine_reads_in(src)]
    assert not bad, "generic code that knows a game:\n" + "\n".join(bad)


def test_the_game_checks_can_fail():
    src = ('"""qango is fine in a docstring."""\n'
           'def f(st, name):\n    """tangle too."""\n    if name == "qango" or name.startswith("zangle-"):\n'
           '        return st.engine.position, st._places()\n    return "qango:6#1", self.engine\n')
    assert sorted(v for _, v in game_words_in(src)) == ["qango", "qango:6#1", "zangle-"]
    assert sorted(a for _, a in engine_reads_in(src)) == ["_places", "engine"]


def import_graph(imports: dict[str, list[str]] | None = None):
    """The directed graph module -> each tanglekit module it imports (lazy imports included),
    from ``imports`` (module -> imported names) or else from every source file."""
    import networkx as nx

    if imports is None:
        imports = {module_name(p): [t for t, _ in imports_of(p)] for p in source_files()}
    graph = nx.DiGraph()
    for me, targets in imports.items():
        for target in targets:
            # a package import resolves to its __init__ or the module itself
            if target != me and not me.startswith(target + ".") and not target.startswith(me + "."):
                graph.add_edge(me, target)
    return graph


def cycles_through(graph, package: str) -> list[list[str]]:
    """The import cycles of ``graph`` that pass through a module of ``package``."""
    import networkx as nx

    return sorted(c for c in nx.simple_cycles(graph)
                  if any(m == package or m.startswith(package + ".") for m in c))


def test_no_import_cycles():
    cycles = cycles_through(import_graph(), "tanglekit")
    assert not cycles, "import cycles (imports inside functions count):\n" + \
        "\n".join(" -> ".join(c + c[:1]) for c in cycles)


def test_the_cycle_check_sees_lazy_imports():
    a = imports_in("from .b import f\n", "tanglekit.shapes.a", False)
    b = imports_in("def g():\n    from .a import h\n", "tanglekit.shapes.b", False)
    typed = imports_in("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import h\n",
                       "tanglekit.shapes.b", False)
    graph = import_graph({"tanglekit.shapes.a": [t for t, _ in a], "tanglekit.shapes.b": [t for t, _ in b]})
    assert [sorted(c) for c in cycles_through(graph, "tanglekit.shapes")] == [["tanglekit.shapes.a", "tanglekit.shapes.b"]]
    assert cycles_through(graph, "tanglekit.solver") == []
    graph = import_graph({"tanglekit.shapes.a": [t for t, _ in a], "tanglekit.shapes.b": [t for t, _ in typed]})
    assert cycles_through(graph, "tanglekit.shapes") == []


def unexplained_lazy_imports(source: str, me: str, is_package: bool) -> list[tuple[int, str]]:
    """Imports of tanglekit modules inside functions without a one-line reason (a comment on the
    import's first line or on the line above it): a lazy import is kept only where start-up
    needs it (a heavy library, a command's own modules, a cheap plugin), and says so."""
    tree = ast.parse(source)
    lines = source.split("\n")
    typing_only = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            typing_only |= {id(n) for b in node.body for n in ast.walk(b)}
    inside = {id(n) for f in ast.walk(tree) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
              for n in ast.walk(f) if n is not f}
    out = []
    for node in ast.walk(tree):
        if not isinstance(node, (ast.Import, ast.ImportFrom)) or id(node) not in inside or id(node) in typing_only:
            continue
        internal = (isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith("tanglekit"))
                    or isinstance(node, ast.Import) and any(a.name.startswith("tanglekit") for a in node.names))
        above = lines[node.lineno - 2].strip() if node.lineno > 1 else ""
        if internal and "#" not in lines[node.lineno - 1] and not above.startswith("#"):
            out.append((node.lineno, ast.unparse(node)))
    return out


def test_imports_inside_functions_say_why():
    bad = []
    for p in source_files():
        for line, stmt in unexplained_lazy_imports(p.read_text(encoding="utf-8"), module_name(p), p.name == "__init__.py"):
            bad.append(f"{p.relative_to(ROOT)}:{line} {stmt}")
    assert not bad, "imports inside functions without a reason (move them to the top, or say why):\n" + "\n".join(bad)


def test_the_lazy_import_check_can_fail():
    src = ("from .a import x\n"
           "def f():\n    from .b import y  # loads numba (only when this runs)\n"
           "    # start-up: the command's own modules\n    from .c import z\n"
           "    from .d import w\n    import json\n")
    assert [s for _, s in unexplained_lazy_imports(src, "tanglekit.games.probe", False)] == ["from .d import w"]
