"""Traceability: does every rule reach the site, with its sources, code and examples?

The chain this project promises is::

    source sentence  →  rule (stable ID)  →  engine code  →  examples on the site

This module checks it. It is pure: :func:`check` takes the catalogue and what a
site renders (:class:`Rendered`) and returns a :class:`Report`. The same check
runs in two places:

* the Sphinx build (:mod:`mancala_spec.sphinx.rules`), which collects
  :class:`Rendered` from the ``{rule}``, ``{example}``, ``{doctest}`` and ``{source-document}``
  directives it runs, logs every problem as a warning (so ``-W`` fails the
  build) and prints the one-line :meth:`Report.summary`;
* the tests, which collect :class:`Rendered` from the Markdown text of the
  pages with :func:`scan_markdown` / :func:`scan_docs`.

A tiny site, checked:

>>> page = '''
... ````{rule} bakuk-winner
... ```{doctest} bakuk-winner-1
... >>> 1 + 1
... 2
...
... ```
... ````
... '''
>>> rendered = scan_markdown(page, "bakuk")
>>> rendered.rules, rendered.examples
({'bakuk-winner': ['bakuk']}, {'bakuk-winner': ['bakuk-winner-1']})
>>> report = check(rendered=rendered)
>>> report.ok
False
>>> print(report.problems[0])
rule ba-awa-board is not rendered on any page
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import not_a
from ..sources import SOURCES, source_lines
from . import Catalogue, ContextLine, load_catalogue

#: Directives whose content is Markdown that may hold example blocks.
CONTAINER_DIRECTIVES = frozenset({"rule"})
#: Directives that are examples: ``{example}`` (a worked example, as data: see
#: :mod:`mancala_spec.conformance.worked_examples`) and ``{doctest}`` (any other).
EXAMPLE_DIRECTIVES = frozenset({"example", "doctest"})

_FENCE_OPEN = re.compile(r"^(?P<indent> {0,3})(?P<fence>`{3,}|~{3,}|:{3,})(?P<info>.*)$")
_DIRECTIVE_INFO = re.compile(r"^\{(?P<name>[A-Za-z][\w:.+-]*)\}\s*(?P<arg>.*?)\s*$")


# -- what a site renders --------------------------------------------------------


@dataclass
class Rendered:
    """What the pages of a site show, as the traceability check needs it.

    ``rules`` maps a rule ID to the pages (docnames) that render it with
    ``{rule}``; ``examples`` maps a rule ID to the IDs of the examples inside its
    ``{rule}`` block; ``all_examples`` lists every example ID on the site (inside
    rule blocks or not) with its page, ``None`` standing for an example without
    an ID; ``sources`` maps a source file to the pages that show it whole with
    ``{source-document}``.
    """

    rules: dict[str, list[str]] = field(default_factory=dict)
    examples: dict[str, list[str]] = field(default_factory=dict)
    all_examples: list[tuple[str | None, str]] = field(default_factory=list)
    sources: dict[str, list[str]] = field(default_factory=dict)

    def add_rule(self, rule_id: str, docname: str, example_ids: Iterable[str | None]) -> None:
        """Record one ``{rule}`` block and the examples inside it."""
        self.rules.setdefault(rule_id, []).append(docname)
        self.examples.setdefault(rule_id, []).extend(e for e in example_ids if e)

    def add_example(self, example_id: str | None, docname: str) -> None:
        """Record one example block (``None`` for a block without an ID)."""
        self.all_examples.append((example_id, docname))

    def add_source(self, file: str, docname: str) -> None:
        """Record one ``{source-document}`` block."""
        self.sources.setdefault(file, []).append(docname)

    def merge(self, other: Rendered) -> Rendered:
        """Add everything *other* records to this one; return self."""
        for rule_id, docs in other.rules.items():
            self.rules.setdefault(rule_id, []).extend(docs)
        for rule_id, ids in other.examples.items():
            self.examples.setdefault(rule_id, []).extend(ids)
        self.all_examples.extend(other.all_examples)
        for file, docs in other.sources.items():
            self.sources.setdefault(file, []).extend(docs)
        return self

    def as_dict(self) -> dict[str, object]:
        """Plain data (for JSON)."""
        return {"rules": self.rules, "examples": self.examples,
                "all_examples": [list(e) for e in self.all_examples], "sources": self.sources}


# -- reading Markdown pages -----------------------------------------------------


def _closes(line: str, fence: str) -> bool:
    stripped = line.strip()
    char = fence[0]
    return (len(stripped) >= len(fence) and set(stripped) == {char}
            and len(line) - len(line.lstrip(" ")) <= 3)


def scan_markdown(text: str, docname: str) -> Rendered:
    """What one MyST Markdown page renders: its ``{rule}`` blocks (with the
    ``{example}`` and ``{doctest}`` blocks inside them), every such block, and its
    ``{source-document}`` blocks. Fences may use backticks, tildes or colons;
    code fences that are not directives are skipped whole, so a page can show
    the syntax of a rule block in a ``markdown`` code fence without rendering
    it.

    >>> text = '''
    ... ````{rule} ba-awa-relay
    ... ```{doctest} ba-awa-relay-1
    ... >>> 2 * 2
    ... 4
    ...
    ... ```
    ... ````
    ... ```markdown
    ... ```{rule} not-rendered
    ... ```
    ... ```{doctest}
    ... >>> 1
    ... 1
    ...
    ... ```
    ... '''
    >>> r = scan_markdown(text, "page")
    >>> r.rules, r.all_examples
    ({'ba-awa-relay': ['page']}, [('ba-awa-relay-1', 'page'), (None, 'page')])
    """
    rendered = Rendered()
    lines = text.splitlines()
    # stack of open container fences: (fence, rule_id, example ids)
    stack: list[tuple[str, str, list[str | None]]] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if stack and _closes(line, stack[-1][0]):
            fence, rule_id, examples = stack.pop()
            rendered.add_rule(rule_id, docname, examples)
            i += 1
            continue
        match = _FENCE_OPEN.match(line)
        if not match:
            i += 1
            continue
        fence, info = match["fence"], match["info"].strip()
        if fence[0] == "`" and "`" in info:
            i += 1  # not a fence: an inline code span at the start of a line
            continue
        directive = _DIRECTIVE_INFO.match(info)
        name = directive["name"] if directive else None
        argument = directive["arg"] if directive else ""
        if name in CONTAINER_DIRECTIVES:
            stack.append((fence, argument, []))
            i += 1
            continue
        if name in EXAMPLE_DIRECTIVES:
            example = argument.split(",")[0].strip() or None
            rendered.add_example(example, docname)
            if stack:
                stack[-1][2].append(example)
        elif name == "source-document":
            rendered.add_source(argument, docname)
        # a leaf block (code, doctest, any other directive): skip to its closing fence
        i += 1
        while i < len(lines) and not _closes(lines[i], fence):
            i += 1
        i += 1
    for _fence, rule_id, examples in stack:  # unclosed fences run to the end of the page
        rendered.add_rule(rule_id, docname, examples)
    return rendered


def scan_docs(docs: Path | str) -> Rendered:
    """:func:`scan_markdown` over every ``*.md`` page under *docs* (docnames
    are paths relative to *docs*, without the suffix, with ``/``)."""
    if not isinstance(docs, (str, Path)):
        raise not_a("docs", docs, "a folder of Markdown pages")
    root = Path(docs)
    rendered = Rendered()
    for path in sorted(root.rglob("*.md")):
        relative = path.relative_to(root)
        if relative.parts[0] in {"auto_examples", "_build", "build"}:
            continue
        docname = relative.with_suffix("").as_posix()
        rendered.merge(scan_markdown(path.read_text(encoding="utf-8"), docname))
    return rendered


# -- source lines -----------------------------------------------------------------


@dataclass(frozen=True)
class SourceLine:
    """One line of a source document and how the catalogue accounts for it."""

    source: str
    number: int
    text: str
    rules: tuple[str, ...]                 # IDs of the rules citing this line
    quotes: tuple[tuple[int, int], ...]    # (start, end) of the quoted spans, merged
    context: ContextLine | None

    @property
    def anchor(self) -> str:
        """The HTML anchor of this line on the sources page."""
        return source_line_anchor(self.source, self.number)

    @property
    def accounted(self) -> bool:
        """Cited by a rule, or marked as context with a reason."""
        return bool(self.rules) or bool(self.context and self.context.reason.strip())


def source_line_anchor(source: str, line: int) -> str:
    """``src-<file stem>-L<line>``, the anchor of a source line on the site.

    >>> source_line_anchor("000_772c55c4feba1a9c.txt", 15)
    'src-000_772c55c4feba1a9c-L15'
    """
    return f"src-{Path(source).stem}-L{line}"


def _merge_spans(spans: Iterable[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    merged: list[list[int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return tuple((a, b) for a, b in merged)


def source_map(source: str, catalogue: Catalogue | None = None) -> list[SourceLine]:
    """Every line of *source*, with the rules citing it, the quoted spans and its
    context entry (if any).

    >>> lines = source_map("001_1132cff477fa5791.txt")
    >>> lines[0].context.reason
    "Title: the game's name, Bakuk."
    >>> lines[19].rules
    ('bakuk-end', 'bakuk-exhausted', 'bakuk-repetition')
    """
    catalogue = catalogue or load_catalogue()
    texts = source_lines(source)
    rules: dict[int, list[str]] = {}
    spans: dict[int, list[tuple[int, int]]] = {}
    for rule in catalogue:
        for citation in rule.citations:
            if citation.source != source:
                continue
            number = citation.line
            if rule.id not in rules.setdefault(number, []):
                rules[number].append(rule.id)
            start = texts[number - 1].index(citation.quote)
            spans.setdefault(number, []).append((start, start + len(citation.quote)))
    context = {entry.line: entry for entry in catalogue.context if entry.source == source}
    return [SourceLine(source, number, text, tuple(rules.get(number, ())),
                       _merge_spans(spans.get(number, ())), context.get(number))
            for number, text in enumerate(texts, start=1)]


# -- the check ---------------------------------------------------------------------


@dataclass
class Report:
    """The result of :func:`check`: the problems found and the coverage counts."""

    problems: list[str]
    rules: int
    rendered_once: int
    sourced: int
    editorial: int
    citations: int
    with_code: int
    with_examples: int
    examples: int
    source_lines: int
    lines_cited: int
    lines_context: int

    @property
    def ok(self) -> bool:
        """True when nothing is missing."""
        return not self.problems

    @property
    def lines_accounted(self) -> int:
        return self.lines_cited + self.lines_context

    @property
    def percent(self) -> float:
        """Source lines accounted for, as a percentage."""
        return 100.0 * self.lines_accounted / self.source_lines if self.source_lines else 100.0

    def summary(self) -> str:
        """The one-line coverage summary the build prints."""
        problems = f"{len(self.problems)} problem{'s' * (len(self.problems) != 1)}"
        return (f"traceability: {self.rendered_once}/{self.rules} rules rendered once "
                f"({self.sourced} sourced, {self.editorial} editorial), "
                f"{self.citations} citations, code {self.with_code}/{self.rules}, "
                f"examples {self.with_examples}/{self.rules} ({self.examples} in rules), "
                f"source lines {self.lines_accounted}/{self.source_lines} accounted for "
                f"({self.lines_cited} cited, {self.lines_context} context) = "
                f"{self.percent:.0f}%; {problems}")


def check(catalogue: Catalogue | None = None, rendered: Rendered | None = None, *,
          implementations: Mapping[str, Sequence[object]] | None = None,
          unknown_claims: Mapping[str, Sequence[str]] | None = None,
          sources: Iterable[str] | None = None) -> Report:
    """Check the whole chain; return a :class:`Report` listing every gap.

    *catalogue* defaults to the package's catalogue and *rendered* to an empty
    site; *implementations* (rule ID → implementing functions) and
    *unknown_claims* (see :func:`mancala_spec.catalogue.unknown_rule_claims`)
    default to what the engine declares; *sources* defaults to every source
    document.

    The checks: every catalogue rule is rendered exactly once and no page
    renders an unknown rule; a sourced rule has a citation, an editorial rule a
    gap, default and rationale; every rule has implementing code and at least
    one example; examples have unique IDs, and an example in a rule block is
    named after its rule (``<rule-id>-<n>``); no code claims a rule the
    catalogue lacks; every source document is shown exactly once; every line of
    every source is cited by a rule or marked as context with a reason (not
    both).
    """
    from . import unknown_rule_claims

    catalogue = catalogue or load_catalogue()
    rendered = rendered or Rendered()
    if implementations is None:
        implementations = {rule.id: rule.implementations for rule in catalogue}
    if unknown_claims is None:
        unknown_claims = unknown_rule_claims()
    sources = list(SOURCES if sources is None else sources)
    problems: list[str] = []

    # rules: rendered once, sourced/editorial fields, code, examples
    rendered_once = with_code = with_examples = examples = 0
    for rule in catalogue:
        pages = rendered.rules.get(rule.id, [])
        if not pages:
            problems.append(f"rule {rule.id} is not rendered on any page")
        elif len(pages) > 1:
            problems.append(f"rule {rule.id} is rendered {len(pages)} times "
                            f"(on {', '.join(pages)}); render it once, link to it elsewhere")
        else:
            rendered_once += 1
        if rule.sourced and not rule.citations:
            problems.append(f"sourced rule {rule.id} has no citation")
        if not rule.sourced:
            for name in ("gap", "default", "rationale"):
                if not getattr(rule, name).strip():
                    problems.append(f"editorial rule {rule.id} has no {name}")
        if implementations.get(rule.id):
            with_code += 1
        else:
            problems.append(f"rule {rule.id} has no implementing code "
                            f"(no function declares @implements({rule.id!r}))")
        ids = rendered.examples.get(rule.id, [])
        examples += len(ids)
        if ids:
            with_examples += 1
        elif pages:
            problems.append(f"rule {rule.id} has no example (an {{example}} block "
                            "inside its {rule} block)")
        for example in ids:
            if not re.fullmatch(re.escape(rule.id) + r"-[\w-]+", example):
                problems.append(f"example {example} in rule {rule.id} must be named "
                                f"{rule.id}-<n>")
    for rule_id, pages in sorted(rendered.rules.items()):
        if rule_id not in catalogue:
            problems.append(f"page {', '.join(pages)} renders unknown rule {rule_id!r}")
    for rule_id, functions in sorted(unknown_claims.items()):
        problems.append(f"code claims unknown rule {rule_id!r}: {', '.join(map(str, functions))}")

    # example IDs
    seen: dict[str, str] = {}
    for example_id, page in rendered.all_examples:
        if example_id is None:
            problems.append(f"page {page} has an example without an ID "
                            "(write ```{doctest} <example-id>)")
        elif example_id in seen:
            problems.append(f"example ID {example_id} is used twice "
                            f"(on {seen[example_id]} and {page})")
        else:
            seen[example_id] = page

    # source documents and their lines
    total = cited = context = 0
    for source in sources:
        shown = rendered.sources.get(source, [])
        if len(shown) != 1:
            problems.append(f"source {source} is shown {len(shown)} times (on "
                            f"{', '.join(shown) or 'no page'}); show it once with "
                            "{source-document}")
        for line in source_map(source, catalogue):
            total += 1
            if line.rules and line.context:
                problems.append(f"{source} line {line.number} is both cited "
                                f"({', '.join(line.rules)}) and marked as context")
            if line.rules:
                cited += 1
            elif line.context and line.context.reason.strip():
                context += 1
            else:
                problems.append(f"{source} line {line.number} is neither cited by a rule nor "
                                f"marked as context: {line.text[:60]!r}")
    for entry in catalogue.context:
        if entry.source not in sources:
            problems.append(f"context entry for unknown source {entry.source}")

    rules = list(catalogue)
    return Report(
        problems=problems,
        rules=len(rules),
        rendered_once=rendered_once,
        sourced=sum(rule.sourced for rule in rules),
        editorial=sum(not rule.sourced for rule in rules),
        citations=sum(len(rule.citations) for rule in rules),
        with_code=with_code,
        with_examples=with_examples,
        examples=examples,
        source_lines=total,
        lines_cited=cited,
        lines_context=context,
    )


__all__ = ["Rendered", "Report", "SourceLine", "check", "scan_docs", "scan_markdown",
           "source_line_anchor", "source_map"]
