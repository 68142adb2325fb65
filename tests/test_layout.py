"""The package's layout, checked from its source with ``ast``:

* no import cycles among its modules, counting imports made inside functions
  too (those under ``if TYPE_CHECKING:`` are left out: they never run);
* no private name (``_name``) of one module used in another.

For now both checks cover the engine, the notation, the errors, the catalogue,
the options and the package's ``__init__`` (:data:`SCOPE`); the rest of the
package is to follow.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

import mancala_spec

ROOT = Path(mancala_spec.__file__).resolve().parent
PACKAGE = "mancala_spec"
#: Modules checked: these names and every module below them.
SCOPE = ("mancala_spec", "mancala_spec.engine", "mancala_spec.notation", "mancala_spec.errors",
         "mancala_spec.catalogue", "mancala_spec.options")
#: Private attributes of the standard library that may be used anywhere.
STANDARD_PRIVATE = {"_replace", "_asdict", "_fields", "_getframe"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def all_modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(ROOT.rglob("*.py"))}


def in_scope(name: str) -> bool:
    return name == PACKAGE or any(name == s or name.startswith(s + ".") for s in SCOPE[1:])


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    """The ids of the nodes inside ``if TYPE_CHECKING:`` blocks."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If):
            test = node.test
            name = test.id if isinstance(test, ast.Name) else getattr(test, "attr", None)
            if name == "TYPE_CHECKING":
                for child in node.body:
                    skipped.update(id(n) for n in ast.walk(child))
    return skipped


def imports_of(name: str, source: str, is_package: bool, known: set[str]) -> set[str]:
    """The package's modules that module *name* imports (at any depth of its code)."""
    tree = ast.parse(source)
    skipped = _type_checking_nodes(tree)
    here = name if is_package else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here.split(".")
                base = base[:len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:
                child = f"{target}.{alias.name}"
                found.add(child if child in known else target)
    return {module for module in found if module == PACKAGE or module.startswith(PACKAGE + ".")}


def import_graph(sources: dict[str, tuple[str, bool]]) -> dict[str, set[str]]:
    """``{module: modules it imports}`` for *sources* ``{module: (source, is_package)}``."""
    known = set(sources)
    return {name: imports_of(name, source, is_package, known) & known
            for name, (source, is_package) in sources.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of *graph* as a list of modules (the first repeated
    at the end), or ``None``."""
    state: dict[str, int] = {}          # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state:
                cycle = visit(nxt)
                if cycle:
                    return cycle
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            cycle = visit(node)
            if cycle:
                return cycle
    return None


def scoped_sources() -> dict[str, tuple[str, bool]]:
    return {name: (path.read_text(encoding="utf-8"), path.name == "__init__.py")
            for name, path in all_modules().items() if in_scope(name)}


def test_the_checker_finds_a_cycle_made_by_a_function_level_import():
    sources = {
        "mancala_spec.engine": ("", True),
        "mancala_spec.engine.a": ("from . import b\n", False),
        "mancala_spec.engine.b": ("def f():\n    from .c import g\n", False),
        "mancala_spec.engine.c": ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                  "    from .b import f\nfrom ..engine import a\n", False),
    }
    graph = import_graph(sources)
    assert graph["mancala_spec.engine.c"] == {"mancala_spec.engine.a"}   # not the TYPE_CHECKING one
    assert find_cycle(graph) == ["mancala_spec.engine.a", "mancala_spec.engine.b",
                                 "mancala_spec.engine.c", "mancala_spec.engine.a"]
    del sources["mancala_spec.engine.c"]
    assert find_cycle(import_graph(sources)) is None


def test_no_import_cycles():
    graph = import_graph(scoped_sources())
    assert "mancala_spec.engine.games.base" in graph and graph["mancala_spec"]   # it did look
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " → ".join(cycle or ())


def test_the_catalogue_does_not_import_the_engine():
    graph = import_graph(scoped_sources())
    for name, imported in graph.items():
        if name.startswith("mancala_spec.catalogue"):
            assert not {m for m in imported if m.startswith("mancala_spec.engine")}, name


def test_importing_the_package_registers_the_engine_with_the_catalogue():
    rule = mancala_spec.get_rule("ba-awa-owner-four")
    assert [f.__qualname__ for f in rule.implementations] == ["BaAwa.sow_lap"]


# -- private names ---------------------------------------------------------------------------


def defined_names(tree: ast.AST) -> set[str]:
    """Every name a module defines: functions, classes, assigned names and
    attributes, arguments, and ``__slots__`` entries."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            names.add(node.value)     # __slots__ entries, object.__setattr__(self, "_x", …)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


def private_uses(name: str, source: str, is_package: bool, known: set[str]) -> list[str]:
    """Private names of other modules that module *name* uses."""
    tree = ast.parse(source)
    own = defined_names(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.startswith("__"):
                    found.append(f"line {node.lineno}: imports {alias.name}")
        elif isinstance(node, ast.Attribute):
            attr = node.attr
            if (attr.startswith("_") and not attr.startswith("__") and attr not in own
                    and attr not in STANDARD_PRIVATE):
                found.append(f"line {node.lineno}: uses .{attr}")
    return found


def test_the_private_name_checker_sees_a_foreign_private_attribute():
    source = "def f(pos):\n    return pos._pit_index(3), pos._own\n_own = 1\n"
    assert private_uses("mancala_spec.x", source, False, set()) == ["line 2: uses ._pit_index"]
    assert private_uses("mancala_spec.x", "from .y import _helper\n", False, set()) == [
        "line 1: imports _helper"]


@pytest.mark.parametrize("name", sorted(n for n in all_modules() if in_scope(n)))
def test_no_private_name_of_another_module_is_used(name):
    path = all_modules()[name]
    uses = private_uses(name, path.read_text(encoding="utf-8"), path.name == "__init__.py",
                        set(all_modules()))
    assert not uses, f"{name}: " + "; ".join(uses)
