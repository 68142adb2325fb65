"""The reference engine's modules stack in layers, read from their source with
``ast`` (nothing is run): no import cycle, counting every import — at the top of
a module, inside a function, and under ``if TYPE_CHECKING:`` too (an import a
type checker needs is a dependency all the same) — and each module imports only
modules of the layers below its own, as the architecture page writes them.

tests/test_layout.py checks the whole package without the TYPE_CHECKING imports;
this is the stricter check of the engine alone (issue 33).
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = next(folder for folder in Path(__file__).resolve().parents
            if (folder / "pyproject.toml").exists())
ENGINE = ROOT / "mancala_spec" / "engine"
ARCHITECTURE = ROOT / "docs" / "architecture.md"


def engine_graph(root: Path = ENGINE) -> dict[str, set[str]]:
    """``graph[module]``: the engine modules *module* imports, by their names
    relative to the engine (``games.base``, ``position``), every import counted."""
    names = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        names[".".join(parts)] = path
    graph: dict[str, set[str]] = {}
    for name, path in names.items():
        package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        package = [p for p in package if p]
        targets = set()
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Import):
                found = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level:
                up = node.level - 1
                if up > len(package):
                    continue                                  # above the engine
                base = package[:len(package) - up]
                module = ".".join(base + ([node.module] if node.module else []))
                found = [f"{module}.{alias.name}".lstrip(".") for alias in node.names]
                found = [f if f in names else module for f in found]
            elif isinstance(node, ast.ImportFrom):
                module = node.module or ""
                found = [f"{module}.{alias.name}" for alias in node.names] + [module]
            else:
                continue
            for target in found:
                target = target.removeprefix("mancala_spec.engine.")
                if target in names and target != name:
                    targets.add(target)
        graph[name] = targets
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Each set of two or more modules that import one another round a circle, sorted."""
    def reach(start: str) -> set[str]:
        seen, todo = set(), [start]
        while todo:
            for target in graph.get(todo.pop(), ()):
                if target not in seen:
                    seen.add(target)
                    todo.append(target)
        return seen

    reachable = {node: reach(node) for node in graph}
    found = {tuple(sorted({node} | {other for other in reachable[node]
                                    if node in reachable[other]}))
             for node in graph if node in reachable[node]}
    return sorted(list(circle) for circle in found)


def written_layers(text: str) -> list[list[str]]:
    """The engine's layers as the architecture page lists them, bottom first:
    the numbered list under "The engine's layers", each item naming its
    modules in backquotes."""
    section = text.split("## The engine's layers", 1)[1].split("\n## ", 1)[0]
    return [re.findall(r"`([\w.]+)`", line.split(":", 1)[0])
            for line in section.splitlines() if re.match(r"\d+\. ", line)]


def make_engine(root: Path, files: dict[str, str]) -> Path:
    for name, source in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(source)
    return root


def test_the_graph_counts_imports_under_type_checking_and_in_functions(tmp_path):
    engine = make_engine(tmp_path, {
        "__init__.py": "",
        "position.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                       "    from .games.base import Game\n",
        "games/__init__.py": "from .base import Game\n",
        "games/base.py": "def f():\n    from ..position import Position\n"
                         "from ...errors import shown\n",
    })
    graph = engine_graph(engine)
    assert graph == {"": set(), "position": {"games.base"}, "games": {"games.base"},
                     "games.base": {"position"}}
    assert cycles(graph) == [["games.base", "position"]]
    (engine / "position.py").write_text("")
    assert cycles(engine_graph(engine)) == []


def test_the_engine_has_no_import_cycle():
    graph = engine_graph()
    assert "position" in graph["games.base"] and "board" in graph["trace"]   # it looked
    assert cycles(graph) == []


def test_the_architecture_page_lists_every_engine_module_once():
    layers = written_layers(ARCHITECTURE.read_text("utf-8"))
    listed = [module for layer in layers for module in layer]
    assert len(layers) >= 5 and len(listed) == len(set(listed))
    assert set(listed) == set(engine_graph()) - {""}


def test_each_engine_module_imports_only_the_layers_below_it():
    layers = written_layers(ARCHITECTURE.read_text("utf-8"))
    depth = {module: number for number, layer in enumerate(layers) for module in layer}
    depth[""] = -1                                      # the engine's own __init__
    upward = sorted(f"{module} imports {target}"
                    for module, targets in engine_graph().items() if module
                    for target in targets if depth[target] >= depth[module])
    assert upward == []


def game_names_in(source: str) -> list[str]:
    """The game names *source*'s code uses (docstrings, whose examples name a
    game, left out), and its comparisons of a game's name."""
    tree = ast.parse(source)
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef))
                  and node.body and isinstance(node.body[0], ast.Expr)}
    found = [node.value for node in ast.walk(tree)
             if isinstance(node, ast.Constant) and node.value in ("ba-awa", "bakuk")
             and id(node) not in docstrings]
    found += [ast.unparse(node) for node in ast.walk(tree) if isinstance(node, ast.Compare)
              and any(isinstance(side, ast.Attribute) and side.attr == "name"
                      for side in (node.left, *node.comparators))]
    return found


def test_the_name_finder_finds_a_game_named_in_code():
    assert game_names_in('"""Play "bakuk"."""\nif game.name == "ba-awa": x = "bakuk"\n') == [
        "ba-awa", "bakuk", "game.name == 'ba-awa'"]


@pytest.mark.parametrize("path", sorted(ENGINE.glob("*.py")), ids=lambda path: path.stem)
def test_the_engine_outside_games_names_no_game(path):
    """What stays in engine/ outside games/ knows no particular game (match play,
    a Ba-awa rule, is in games/)."""
    assert game_names_in(path.read_text("utf-8")) == []
