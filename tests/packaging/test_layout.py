"""The package's layout, checked from its source (with ``ast``; nothing is run):

* no import cycles, between modules or between the package's parts (``engine``,
  ``catalogue``, ``cli`` …), counting imports made inside functions too (those
  under ``if TYPE_CHECKING:`` are left out: they never run);
* the catalogue imports nothing of the engine (the engine registers with it);
* no private name (``_name``) that one module defines is used by another;

The checks live in :mod:`mancala_spec.sphinx.architecture`, which also draws
the import graph on the architecture page; the first tests here show that each
check can fail.
"""
from __future__ import annotations

from pathlib import Path

import pytest

import mancala_spec
from mancala_spec.sphinx.architecture import (
    cycles,
    import_graph,
    layers,
    modules,
    part,
    parts_graph,
    private_uses,
    reduction,
    sizes,
)

#: The longest a module may be: one that needs more is split by concern.
MAX_LINES = 500


def make_package(root: Path, files: dict[str, str]) -> Path:
    """A throwaway package called mancala_spec under *root*, from {path: source}."""
    package = root / "mancala_spec"
    for name, source in files.items():
        path = package / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source)
    return package


def test_the_checker_finds_a_cycle_made_by_a_function_level_import(tmp_path):
    package = make_package(tmp_path, {
        "__init__.py": "",
        "engine/__init__.py": "",
        "engine/a.py": "from . import b\n",
        "engine/b.py": "def f():\n    from .c import g\n",
        "engine/c.py": ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                        "    from .b import f\nfrom ..engine import a\n"),
        "cli.py": "from .engine import a\n",
    })
    graph = import_graph(package)
    assert graph["mancala_spec.engine.c"] == {"mancala_spec.engine.a"}   # not the TYPE_CHECKING one
    assert cycles(graph) == [["mancala_spec.engine.a", "mancala_spec.engine.b",
                              "mancala_spec.engine.c"]]
    assert parts_graph(graph) == {"engine": set(), "cli": {"engine"}}
    (package / "engine" / "c.py").unlink()
    assert cycles(import_graph(package)) == []


def test_the_checker_finds_a_cycle_between_parts(tmp_path):
    package = make_package(tmp_path, {
        "__init__.py": "", "engine.py": "def f():\n    from .notation import g\n",
        "notation.py": "from .engine import f\n"})
    assert cycles(parts_graph(import_graph(package))) == [["engine", "notation"]]
    with pytest.raises(ValueError, match="import cycle"):
        layers(parts_graph(import_graph(package)))


def test_the_private_name_checker_sees_a_foreign_private_name(tmp_path):
    package = make_package(tmp_path, {
        "__init__.py": "",
        "position.py": "class P:\n    def _pit_index(self): ...\n_helper = 1\n",
        "notation.py": ("from .position import _helper\n"
                        "def f(pos):\n    return pos._pit_index(3), pos._own, pos._replace()\n"
                        "_own = 1\n")})
    assert private_uses(package) == [
        "mancala_spec.notation: _helper (defined in mancala_spec.position)",
        "mancala_spec.notation: _pit_index (defined in mancala_spec.position)"]


def test_the_package_has_no_import_cycles():
    graph = import_graph()
    assert "mancala_spec.engine.position" in graph["mancala_spec.engine.games.base"]  # it looked
    assert cycles(graph) == []
    assert cycles(parts_graph(graph)) == []


def test_the_parts_stack_in_layers():
    rows = layers(parts_graph(import_graph()))
    assert "errors" in rows[0]
    assert parts_graph(import_graph())["sources"] == {"errors"}     # the sources are data
    assert rows[-1] == ["sphinx"]
    depth = {name: number for number, row in enumerate(rows) for name in row}
    assert depth["catalogue"] < depth["engine"] < depth["notation"] < depth["cli"]


def closure(graph):
    reach = {node: set(targets) for node, targets in graph.items()}
    changed = True
    while changed:
        changed = False
        for targets in reach.values():
            more = set().union(*(reach.get(t, set()) for t in targets)) - targets
            if more:
                targets |= more
                changed = True
    return reach


def test_the_drawn_arrows_leave_out_only_what_longer_paths_imply():
    parts = parts_graph(import_graph())
    drawn = reduction(parts)
    assert closure(drawn) == closure(parts)
    assert sum(map(len, drawn.values())) < sum(map(len, parts.values()))
    assert reduction({"a": {"b", "c"}, "b": {"c"}, "c": set()}) == {
        "a": {"b"}, "b": {"c"}, "c": set()}


def test_the_catalogue_does_not_import_the_engine():
    parts = parts_graph(import_graph())
    # errors and version import nothing of ours (the citations read the version there,
    # not from the package facade: issue 43)
    assert parts["catalogue"] == {"sources", "errors", "version"}
    assert not parts.get("version")
    assert parts["options"] == {"errors"}


def test_importing_the_package_registers_the_engine_with_the_catalogue():
    rule = mancala_spec.get_rule("ba-awa-owner-four")
    assert [f.__qualname__ for f in rule.implementations] == ["BaAwa.sow_lap"]


def test_no_private_name_of_another_module_is_used():
    assert private_uses() == []


def test_no_module_is_too_long_to_read_in_one_sitting():
    lines = sizes()
    assert len(lines) > 60 and lines["mancala_spec.engine.games.ba_awa"] > 100   # it counted
    assert {name: n for name, n in lines.items() if n > MAX_LINES} == {}


def test_every_module_belongs_to_a_part():
    assert {part(name) for name in modules()} >= {"engine", "catalogue", "notation", "options",
                                                   "errors", "sources", "fast", "cli", "sphinx"}
