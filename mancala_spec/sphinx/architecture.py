"""The package's architecture, read from its code: which part imports which.

:func:`import_graph` reads every module of the package with ``ast`` (nothing is
imported or run) and lists, for each module, the package's modules it imports,
at the top of the module or inside a function alike; imports under
``if TYPE_CHECKING:`` are left out, as they never run. :func:`parts_graph` folds
that into the package's parts (``engine``, ``catalogue``, ``cli`` …), and
:func:`cycles` finds the circles. The ``{import-graph}`` directive draws the
parts and their arrows on the architecture page, with each part's modules and
sizes, so the picture cannot drift from the code; a test fails on any cycle.

>>> graph = import_graph()
>>> "mancala_spec.engine.position" in graph["mancala_spec.engine.games.base"]
True
>>> cycles(parts_graph(graph))
[]
"""
from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

PACKAGE = "mancala_spec"
ROOT = Path(__file__).resolve().parents[1]

Graph = dict[str, set[str]]


def modules(root: Path | None = None) -> dict[str, Path]:
    """Every module of the package under *root* (default: this package's
    folder, ``ROOT``), by dotted name."""
    root = ROOT if root is None else root
    found = {}
    for path in sorted(root.rglob("*.py")):
        parts = [PACKAGE, *path.relative_to(root).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(tree: ast.AST) -> Iterable[ast.Import | ast.ImportFrom]:
    """The import statements of *tree*, wherever they stand, except under
    ``if TYPE_CHECKING:``."""
    stack = [tree]
    while stack:
        node = stack.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child):
                stack.extend(child.orelse)
                continue
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                yield child
            stack.append(child)


def import_graph(root: Path | None = None) -> Graph:
    """``graph[module]``: the package's modules that *module* imports.

    ``from . import name`` counts as importing the module ``name`` when there
    is one, and the package itself otherwise; importing ``a.b.c`` counts as
    importing ``a.b.c`` only (Python also runs the packages above it, whose
    ``__init__`` modules are then counted by their own imports)."""
    known = modules(root)
    graph: Graph = {}
    for name, path in known.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        targets: set[str] = set()
        for node in _imports(ast.parse(path.read_text("utf-8"), str(path))):
            if isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
                continue
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:
                submodule = f"{target}.{alias.name}"
                targets.add(submodule if submodule in known else target)
        graph[name] = {t for t in targets if t in known and t != name}
    return graph


def part(module: str) -> str:
    """The part of the package a module belongs to: ``mancala_spec.engine.games.base``
    → ``engine``; the package's own ``__init__`` is ``mancala_spec``."""
    pieces = module.split(".")
    return pieces[1] if len(pieces) > 1 else pieces[0]


def parts_graph(graph: Mapping[str, set[str]]) -> Graph:
    """The graph folded into parts: an arrow from part A to part B when any
    module of A imports one of B. The package's own ``__init__`` (the public
    facade, which only gathers names) and ``__main__`` are left out."""
    folded: Graph = {}
    for module, targets in graph.items():
        source = part(module)
        if source in (PACKAGE, "__main__"):
            continue
        folded.setdefault(source, set()).update(
            part(t) for t in targets if part(t) not in (source, PACKAGE))
    return folded


def cycles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """The circles of *graph*: each strongly connected set of two or more
    nodes (or a node importing itself), as a sorted list; sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1 or node in graph.get(node, ()):
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def layers(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """The nodes of an acyclic *graph* in layers: layer 0 imports nothing of the
    others, and each node sits one layer above the highest it imports."""
    depth: dict[str, int] = {}

    def level(node: str, trail: tuple[str, ...] = ()) -> int:
        if node in trail:
            raise ValueError(f"import cycle: {' → '.join(trail + (node,))}")
        if node not in depth:
            targets = graph.get(node, set())
            depth[node] = 1 + max((level(t, trail + (node,)) for t in targets), default=-1)
        return depth[node]

    nodes = sorted(set(graph) | {t for targets in graph.values() for t in targets})
    for node in nodes:
        level(node)
    rows: list[list[str]] = [[] for _ in range(max(depth.values(), default=-1) + 1)]
    for node in nodes:
        rows[depth[node]].append(node)
    return rows


def reduction(graph: Mapping[str, set[str]]) -> Graph:
    """The arrows of an acyclic *graph* that no longer path implies: A → C is
    left out when A → B → … → C exists (what A imports through B is then
    plain from the picture)."""
    def reach(node: str, seen: set[str]) -> set[str]:
        for target in graph.get(node, ()):
            if target not in seen:
                seen.add(target)
                reach(target, seen)
        return seen

    return {node: {t for t in targets
                   if not any(t in reach(other, set()) for other in targets if other != t)}
            for node, targets in graph.items()}


def svg(graph: Mapping[str, set[str]]) -> str:
    """The parts graph drawn as SVG: layers from the bottom (imports nothing)
    up, an arrow for each import that no longer path implies (:func:`reduction`)."""
    rows = layers(graph)
    graph = reduction(graph)
    box_w, box_h, gap_x, gap_y = 118, 30, 24, 40
    width = max(len(row) for row in rows) * (box_w + gap_x) + gap_x
    height = len(rows) * (box_h + gap_y) + gap_y
    place: dict[str, tuple[float, float]] = {}
    for depth, row in enumerate(rows):
        top = height - gap_y - box_h - depth * (box_h + gap_y)
        start = (width - len(row) * (box_w + gap_x) + gap_x) / 2
        for column, node in enumerate(row):
            place[node] = (start + column * (box_w + gap_x), top)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
           'class="import-graph" role="img" aria-label="The package\'s parts and their imports">',
           '<defs><marker id="ig-arrow" viewBox="0 0 10 10" refX="10" refY="5" '
           'markerWidth="7" markerHeight="7" orient="auto-start-reverse">'
           '<path d="M 0 0 L 10 5 L 0 10 z" fill="currentColor"/></marker></defs>']
    for source in sorted(graph):
        for target in sorted(graph[source]):
            (x1, y1), (x2, y2) = place[source], place[target]
            out.append(f'<line x1="{x1 + box_w / 2:.0f}" y1="{y1 + box_h:.0f}" '
                       f'x2="{x2 + box_w / 2:.0f}" y2="{y2:.0f}" stroke="currentColor" '
                       'stroke-opacity="0.45" marker-end="url(#ig-arrow)"/>')
    for node, (x, y) in sorted(place.items()):
        out.append(f'<rect x="{x:.0f}" y="{y:.0f}" width="{box_w}" height="{box_h}" rx="5" '
                   'fill="none" stroke="currentColor"/>'
                   f'<text x="{x + box_w / 2:.0f}" y="{y + box_h / 2 + 5:.0f}" '
                   f'text-anchor="middle" font-family="monospace" font-size="14" '
                   f'fill="currentColor">{node}</text>')
    out.append("</svg>")
    return "\n".join(out)


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def private_names(tree: ast.AST) -> set[str]:
    """The private names (one leading underscore) a module defines: functions,
    classes, methods, arguments, module variables, attributes it assigns
    (``self._cache = …``) and names it spells as strings (``__slots__``,
    ``object.__setattr__(self, "_moves", …)``)."""
    defined = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            defined.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            defined.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            defined.add(node.attr)
        elif isinstance(node, ast.arg):
            defined.add(node.arg)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            defined.add(node.value)
        elif isinstance(node, ast.alias) and node.asname:
            defined.add(node.asname)
    return {name for name in defined if _private(name)}


def private_uses(root: Path | None = None) -> list[str]:
    """Uses of another module's private names: ``module: name`` for each
    attribute or import of a private name that the using module does not
    define itself but another module of the package does."""
    trees = {name: ast.parse(path.read_text("utf-8"), str(path))
             for name, path in modules(root).items()}
    owners: dict[str, set[str]] = {}
    for name, tree in trees.items():
        for private in private_names(tree):
            owners.setdefault(private, set()).add(name)
    found = []
    for name, tree in trees.items():
        own = private_names(tree)
        for node in ast.walk(tree):
            used = (node.attr if isinstance(node, ast.Attribute) else
                    node.name if isinstance(node, ast.alias) else None)
            if used and _private(used) and used not in own and owners.get(used):
                found.append(f"{name}: {used} (defined in {', '.join(sorted(owners[used]))})")
    return sorted(set(found))


def sizes(root: Path | None = None) -> dict[str, int]:
    """The number of lines of each module of the package."""
    return {name: len(path.read_text("utf-8").splitlines())
            for name, path in modules(root).items()}


def setup(app: Any) -> dict[str, Any]:
    from docutils import nodes
    from sphinx.util.docutils import SphinxDirective

    from .. import __version__
    from .rule_nodes import table

    class ImportGraph(SphinxDirective):
        """``{import-graph}``: the parts graph as SVG, then each part's modules
        with their sizes and the parts it imports."""

        def run(self) -> list[nodes.Node]:
            for path in modules().values():
                self.env.note_dependency(str(path))
            graph = import_graph()
            parts = parts_graph(graph)
            found = cycles(parts)
            if found:
                raise self.error(f"import-graph: the package has import cycles: {found}")
            result: list[nodes.Node] = [
                nodes.raw("", f'<div class="import-graph">{svg(parts)}</div>', format="html")]
            lines = sizes()
            rows: list[list[list[nodes.Node]]] = []
            for name in sorted(parts):
                listed: list[nodes.Node] = []
                for module in (m for m in sorted(graph) if part(m) == name):
                    listed += [nodes.Text(", ")] if listed else []
                    listed += [nodes.literal(text=module.removeprefix(f"{PACKAGE}.")),
                               nodes.Text(f" ({lines[module]})")]
                rows.append([[nodes.literal(text=name)], listed,
                             [nodes.Text(", ".join(sorted(parts[name])) or "—")]])
            result.append(table(["Part", "Modules (lines)", "Imports"], rows,
                                classes=["import-graph-table"]))
            return result

    app.add_directive("import-graph", ImportGraph)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
