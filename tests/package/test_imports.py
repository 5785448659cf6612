"""No import circle: the package's modules, read as source, import one another one way
only (module-level imports; an import inside a function runs when it is called, after
every module has loaded). And the layers hold: the core and the rules import nothing of
the game, the players, the run pipeline, the analysis or the command line."""
from __future__ import annotations

import ast

from helpers import ROOT

PACKAGES = ("menorca_sim", "policies")


def _modules() -> dict[str, ast.Module]:
    out = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            out[name] = ast.parse(path.read_text(encoding="utf-8"))
    return out


def _module_level(tree: ast.AST):
    """Import statements run at import time: at module level, in its ifs and trys."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        elif isinstance(node, (ast.If, ast.Try)):
            yield from _module_level(node)


def _anywhere(tree: ast.AST):
    """Every import statement, also those inside functions (run when they are called)."""
    return (node for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom)))


def import_graph(imports=_module_level) -> dict[str, set[str]]:
    """module -> the package modules it imports at load time (a package imports its
    __init__ first, so a submodule's parents count too); `imports=_anywhere`: also those
    imported inside its functions."""
    modules = _modules()
    graph: dict[str, set[str]] = {}
    for name, tree in modules.items():
        package = name if (ROOT / name.replace(".", "/")).is_dir() else name.rpartition(".")[0]
        targets = set()
        for node in imports(tree):
            if isinstance(node, ast.Import):
                targets.update(a.name for a in node.names)
                continue
            base = node.module or ""
            if node.level:  # relative: from . import x
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else []))
            targets.add(base)
            targets.update(f"{base}.{a.name}" for a in node.names)  # `from pkg import module`
        edges = set()
        for target in targets:
            parts = target.split(".")
            edges.update(".".join(parts[:i]) for i in range(1, len(parts) + 1) if ".".join(parts[:i]) in modules)
        graph[name] = edges - {name} - {p for p in edges if name.startswith(p + ".")}  # a package's own parents load first
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every import circle found by a depth-first walk (each reported once, from where it closes)."""
    found, state = [], {}

    def visit(node: str, path: list[str]) -> None:
        state[node] = "open"
        for nxt in sorted(graph[node]):
            if state.get(nxt) == "open":
                found.append(path[path.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt, path + [nxt])
        state[node] = "done"

    for start in sorted(graph):
        if start not in state:
            visit(start, [start])
    return found


def test_the_walk_finds_a_circle_when_there_is_one():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == [["a", "b", "c", "a"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_walk_sees_the_package():
    graph = import_graph()
    assert "menorca_sim.core.engine" in graph["menorca_sim.game"]
    assert "menorca_sim.run.experiment" in graph["menorca_sim.run.runner"]
    assert "policies.base" in graph["policies"]


def test_no_import_circle():
    assert cycles(import_graph()) == []


def room(module: str) -> str:
    """The room a module is in: `policies`, a sub-package of menorca_sim
    (`menorca_sim.core`, `menorca_sim.run`, ...), or a module of menorca_sim's own
    (`menorca_sim.game`, `menorca_sim.play`; `menorca_sim` is its __init__)."""
    parts = module.split(".")
    return parts[0] if parts[0] == "policies" else ".".join(parts[:2])


def room_graph() -> dict[str, set[str]]:
    """room -> the rooms its modules import, at load time or inside a function (a
    submodule's own parent packages left out: they hold no code that imports)."""
    graph: dict[str, set[str]] = {}
    for module, edges in import_graph(_anywhere).items():
        here = room(module)
        graph.setdefault(here, set()).update(room(e) for e in edges if room(e) != here and e != "menorca_sim")
    return graph


def test_no_package_level_import_circle():
    """The players sit between the game and the play loop: they import the game's rooms
    (and the learned value, which reads the game's public API only), which never import
    them back, even inside a function; the rooms above them (play, run, analysis, tuning,
    cli) import them."""
    graph = room_graph()
    assert cycles(graph) == []
    below = {"menorca_sim.core", "menorca_sim.rules", "menorca_sim.errors", "menorca_sim.game", "menorca_sim.whatif",
             "menorca_sim.moves", "menorca_sim.seeding", "menorca_sim.value"}
    assert "menorca_sim.core" in graph["policies"] and graph["policies"] <= below
    assert {"menorca_sim.play", "menorca_sim.run", "menorca_sim.cli"} <= {r for r, e in graph.items() if "policies" in e}


def test_the_room_walk_sees_a_circle_through_a_function_level_import():
    graph = room_graph()
    graph["menorca_sim.core"] = graph["menorca_sim.core"] | {"policies"}  # as if the core asked a player
    assert cycles(graph)


def test_core_and_rules_import_nothing_above_them():
    above = ("menorca_sim.game", "menorca_sim.whatif", "menorca_sim.play", "menorca_sim.run", "menorca_sim.analysis",
             "menorca_sim.cli", "menorca_sim.viewer", "policies")
    graph = import_graph()
    for name, edges in graph.items():
        if name.startswith(("menorca_sim.core", "menorca_sim.rules")):
            assert not [e for e in edges if e.startswith(above)], name


def test_every_compiled_module_imports_first():
    """The compiled modules also import one another through their .pxd (a cimported type
    loads its module): each must load in a fresh process as the first import of all."""
    import subprocess
    import sys

    from menorca_sim.compiled import module_name, sources

    failed = {}
    for source in sources():
        done = subprocess.run([sys.executable, "-c", f"import {module_name(source)}"], cwd=ROOT,
                              capture_output=True, text=True)
        if done.returncode:
            failed[module_name(source)] = done.stderr.strip().splitlines()[-1]
    assert failed == {}
