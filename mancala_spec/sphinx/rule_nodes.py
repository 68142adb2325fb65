"""Building blocks of the rules site: docutils nodes (``<details>`` boxes), links
to rules and source lines, text with linked rule IDs, badges, citations, tables.
Used by the directives of :mod:`mancala_spec.sphinx.rules`."""
from __future__ import annotations

import inspect
import re
import textwrap
from collections.abc import Sequence
from importlib import resources
from typing import Any

from docutils import nodes
from sphinx import addnodes
from sphinx.ext.viewcode import viewcode_anchor

from ..catalogue import Rule, load_catalogue
from ..sources import SOURCES, source_lines

RULE_REF = "rule-ref"
SOURCE_LINE_REF = "source-line"


def catalogue_file() -> str:
    """The path of ``catalogue.toml`` (a dependency of every page that shows rules)."""
    return str(resources.files("mancala_spec.catalogue").joinpath("catalogue.toml"))


def rule_anchor(rule_id: str) -> str:
    """The HTML anchor of a rendered rule: ``rule-<id>``."""
    return f"rule-{rule_id}"


# -- nodes --------------------------------------------------------------------------


class details(nodes.General, nodes.Element):
    """A ``<details>`` box in HTML (its first child is a :class:`summary`)."""


class summary(nodes.General, nodes.TextElement):
    """The ``<summary>`` line of a :class:`details` box."""


def visit_details(self, node: details) -> None:
    self.body.append(self.starttag(node, "details", CLASS=" ".join(node["classes"])))


def depart_details(self, node: details) -> None:
    self.body.append("</details>\n")


def visit_summary(self, node: summary) -> None:
    self.body.append(self.starttag(node, "summary"))


def depart_summary(self, node: summary) -> None:
    self.body.append("</summary>\n")


def visit_pass(self, node: nodes.Node) -> None:
    pass


def depart_pass(self, node: nodes.Node) -> None:
    pass


# -- building blocks ----------------------------------------------------------------


def rule_ref(rule_id: str, text: str | None = None) -> addnodes.pending_xref:
    """A link to a rendered rule, resolved when the pages are written."""
    ref = addnodes.pending_xref("", refdomain="", reftype=RULE_REF, reftarget=rule_id,
                                refexplicit=text is not None, refwarn=True)
    ref += nodes.literal(text=text or rule_id, classes=["xref", "rule-ref"])
    return ref


def source_line_ref(source: str, line: int, text: str) -> addnodes.pending_xref:
    """A link to one line of a source document on the sources page."""
    ref = addnodes.pending_xref("", refdomain="", reftype=SOURCE_LINE_REF,
                                reftarget=f"{source}:{line}", refexplicit=True, refwarn=True)
    ref += nodes.inline(text=text)
    return ref


def _rule_id_pattern() -> re.Pattern[str]:
    ids = sorted((rule.id for rule in load_catalogue()), key=len, reverse=True)
    return re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, ids)) + r")(?![\w-])")


def glossary_terms(glossary: str) -> tuple[str, ...]:
    """The terms the glossary page (MyST source *glossary*) defines: the lines
    of its ``{glossary}`` block that start in the first column."""
    block = re.search(r"^```\{glossary\}\n(.*?)^```", glossary, re.S | re.M)
    if block is None:
        return ()
    return tuple(line.strip() for line in block.group(1).splitlines()
                 if re.fullmatch(r"[a-z][a-z -]*", line))


#: Pit and hole names in a statement, set as code: a range (a–f), a name after
#: "pit"/"hole" (pit a, holes A–C), pit numbers (pits 0–5), a board in notation.
_PITS = re.compile(r"(?<![\w-])[a-fA-F]–[a-fA-F](?![\w-])"
                   r"|(?:(?<=\bpit )|(?<=\bhole ))[a-fA-F](?![\w-])"
                   r"|(?:(?<=\bpits )|(?<=\bholes ))[0-9]+(?:–[0-9]+)?(?![\w-])"
                   r"|\b\d+(?:,\d+)+/\d+(?:,\d+)+\b")


def _term_pattern(terms: Sequence[str]) -> re.Pattern[str] | None:
    if not terms:
        return None
    words = sorted(terms, key=len, reverse=True)
    return re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, words)) + r")s?(?![\w-])")


def linked_text(text: str, classes: list[str] | None = None,
                terms: Sequence[str] = ()) -> nodes.paragraph:
    """A paragraph of *text* in which every rule ID links to its rule and
    text in double backticks (as the catalogue writes code) is shown as code.

    With *terms* (the glossary's, see :func:`glossary_terms`), the first use of
    each term links to its glossary entry, and pit names, pit numbers and boards
    in notation are set as code (as a rule statement shows them)."""
    para = nodes.paragraph(classes=classes or [])
    term_pattern = _term_pattern(terms)
    linked: set[str] = set()
    patterns = [("rule", _rule_id_pattern())]
    if terms:
        patterns += [("pit", _PITS)]
        if term_pattern is not None:
            patterns += [("term", term_pattern)]
    for index, piece in enumerate(re.split(r"``(.+?)``", text)):
        if index % 2:
            para += nodes.literal(text=piece)
            continue
        position = 0
        while position < len(piece):
            found = [(m.start(), -len(m.group()), kind, m) for kind, pattern in patterns
                     if (m := pattern.search(piece, position))]
            if not found:
                break
            start, _, kind, match = min(found, key=lambda f: (f[0], f[1]))
            para += nodes.Text(piece[position:start])
            word = match.group()
            if kind == "rule":
                para += rule_ref(word)
            elif kind == "pit":
                para += nodes.literal(text=word, classes=["pit-name"])
            elif match.group(1).lower() in linked:
                para += nodes.Text(word)
            else:
                term = match.group(1).lower()
                linked.add(term)
                para += addnodes.pending_xref("", nodes.inline(text=word, classes=["xref",
                                                                                    "std-term"]),
                                             refdomain="std", reftype="term", reftarget=term,
                                             refexplicit=True, refwarn=True)
            position = match.end()
        para += nodes.Text(piece[position:])
    return para


_LITERAL = re.compile(r"``(.+?)``")


def inline_text(text: str) -> list[nodes.Node]:
    """*text* (catalogue or docstring prose) as nodes: ````code```` becomes a
    literal, so no raw reStructuredText reaches the page."""
    out: list[nodes.Node] = []
    pos = 0
    for match in _LITERAL.finditer(text):
        if match.start() > pos:
            out.append(nodes.Text(text[pos:match.start()]))
        out.append(nodes.literal(text=match.group(1)))
        pos = match.end()
    if pos < len(text):
        out.append(nodes.Text(text[pos:]))
    return out


def paragraphs(text: str, classes: list[str] | None = None) -> list[nodes.paragraph]:
    """One :func:`linked_text` paragraph per blank-line-separated block of *text*."""
    blocks = [" ".join(block.split()) for block in re.split(r"\n\s*\n", text.strip())]
    return [linked_text(block, classes) for block in blocks if block]




BASIS_LABELS = {"source": "source", "reading": "reading", "editorial": "editorial"}


def basis_mark(basis: str) -> nodes.inline:
    """The marker of one claim's basis (``source``, ``reading`` or ``editorial``)."""
    return nodes.inline(text=BASIS_LABELS[basis], classes=["claim-basis", f"claim-basis-{basis}"])


def rule_badge(rule: Rule) -> nodes.inline:
    """The badge of *rule*: its text is :attr:`Rule.badge
    <mancala_spec.catalogue.Rule.badge>` (the one wording of what backs a rule, which
    the command line, the PDF and the JSON export show too: "sourced" only when every
    claim is a source claim, e.g. "sourced, with a reading"); its kind sets its colour."""
    classes = ["rule-badge", f"rule-badge-{rule.kind}"]
    if rule.badge != rule.kind:
        classes.append("rule-badge-mixed")
    return nodes.inline(text=rule.badge, classes=classes)


def offer_list(rule: Rule, offers) -> nodes.bullet_list:
    """A bullet per option value: the ``get_game(...)`` call that selects it and
    what it does."""
    items = nodes.bullet_list()
    for offer in offers:
        entry = nodes.paragraph()
        entry += game_call(rule.game, offer.option, offer.value)
        entry += nodes.Text(": ")
        entry += linked_text(" ".join(offer.description.split())).children
        items += nodes.list_item("", entry)
    return items


def game_call(game: str, option: str, value: Any) -> nodes.literal:
    """The call that selects *option* = *value*: a game option, or a match setting."""
    from ..engine.games.match import SETTINGS

    setting = f"{option}={value!r}"
    call = (f'ms.Match(ms.get_game("{game}"), {setting})' if option in SETTINGS
            else f'ms.get_game("{game}", {setting})')
    return nodes.literal(text=call, classes=["rule-option"])


def english_spans(source: str, text: str) -> list[tuple[int, int]]:
    """Where *text*, a line of source document *source*, holds English left
    inside it (the catalogue's ``[[document]]`` record of the document says
    which words: :meth:`~mancala_spec.catalogue.records.Document.english_spans`)."""
    return load_catalogue().document(source).english_spans(text)


def language_runs(text: str, runs: Sequence[tuple[int, int]]) -> list[nodes.Node]:
    """*text* as nodes, the English *runs* in it (``(start, end)``, in order; cut
    to the text) each a span marked ``lang="en"`` inside the paragraph's language."""
    out: list[nodes.Node] = []
    position = 0
    for start, end in runs:
        start, end = max(start, 0), min(end, len(text))
        if start >= end:
            continue
        if start > position:
            out.append(nodes.Text(text[position:start]))
        out.append(nodes.inline(text=text[start:end], classes=["language-en"]))
        position = end
    if position < len(text):
        out.append(nodes.Text(text[position:]))
    return out


def citation_quote(citation, label: str | None = None, ids: list[str] | None = None
                   ) -> nodes.block_quote:
    """A citation as a block quote: original (with *label*, e.g. ``[1]``, and a
    [sic] note for a misspelt word, outside the exact quote), translation,
    attribution with line link."""
    document = SOURCES[citation.source]
    quote = nodes.block_quote(classes=["rule-citation"], ids=ids or [])
    line = source_lines(citation.source)[citation.line - 1]
    at = line.find(citation.quote)
    runs = [(a - at, b - at) for a, b in english_spans(citation.source, line)
            if at >= 0 and b > at and a < at + len(citation.quote)]
    # a quote wholly inside English left in the document is English, not the document's
    whole = len(runs) == 1 and runs[0][0] <= 0 and runs[0][1] >= len(citation.quote)
    original = nodes.paragraph(classes=["citation-original",
                                        f"language-{'en' if whole else document.language_code}"])
    if label:
        original += nodes.inline(text=f"{label} ", classes=["citation-label"])
    if whole:
        original += nodes.Text(citation.quote)
    else:
        original += language_runs(citation.quote, runs)
    if citation.sic:
        original += nodes.inline(text=f" [sic: {citation.sic}]", classes=["citation-sic"])
    quote += original
    if citation.translation.strip() != citation.quote.strip():
        quote += nodes.paragraph(text=citation.translation,
                                 classes=["citation-translation", "language-en"])
    else:
        quote += nodes.paragraph(text="(in English in the source)",
                                 classes=["citation-translation", "citation-english"])
    attribution = nodes.attribution()
    attribution += nodes.Text(f"{document.title}, ")
    attribution += source_line_ref(citation.source, citation.line, f"line {citation.line}")
    quote += attribution
    return quote


def definition(term: str, body: Sequence[nodes.Node]) -> nodes.definition_list_item:
    item = nodes.definition_list_item()
    item += nodes.term(text=term)
    item += nodes.definition("", *body)
    return item


def rule_lines(lines: list[str], rule_id: str) -> list[int]:
    """The lines (counted from 1) of a function's source that pass *rule_id*
    to a primitive: those holding the ID as a string, its ``@implements`` line
    aside."""
    quoted = (f'"{rule_id}"', f"'{rule_id}'")
    return [number for number, line in enumerate(lines, start=1)
            if any(q in line for q in quoted) and not line.lstrip().startswith("@")]


def implementation_block(func, docname: str, env, rule_id: str | None = None) -> details:
    """The source of one implementing function, with links to its API entry
    and to the full module (viewcode), in a ``<details>`` box; the lines that
    pass *rule_id* (if given) are highlighted."""
    source_file = inspect.getsourcefile(func)
    env.note_dependency(source_file)
    lines, start = inspect.getsourcelines(func)
    marked = rule_lines(lines, rule_id) if rule_id else []
    code = textwrap.dedent("".join(lines)).rstrip("\n")
    module, qualname = func.__module__, func.__qualname__
    relative = func.__module__.replace(".", "/") + ".py"
    box = details(classes=["rule-code"])
    # the summary is the box's button: no links in it (a link inside a button is
    # two controls in one); they come first inside the box
    head = summary()
    head += nodes.Text("Code: ")
    head += nodes.literal(text=f"{qualname}()")
    head += nodes.Text(f" in {relative}, lines {start}–{start + len(lines) - 1}")
    box += head
    xref = addnodes.pending_xref("", refdomain="py",
                                 reftype="meth" if "." in qualname else "func",
                                 reftarget=f"{module}.{qualname}", refexplicit=False,
                                 refwarn=True)
    xref += nodes.literal(text=f"{qualname}()", classes=["xref", "py"])
    links = nodes.paragraph(classes=["rule-code-links"])
    links += nodes.Text("API entry: ")
    links += xref
    links += nodes.Text("; the whole module: ")
    links += viewcode_anchor(reftarget=f"_modules/{module.replace('.', '/')}", refid=qualname,
                             refdoc=docname)
    box += links
    if marked:                  # said in the summary too, for those who cannot see colour
        shown = ", ".join(str(start + number - 1) for number in marked)
        head += nodes.Text(f" (highlighted: line{'s' if len(marked) > 1 else ''} {shown}, "
                           f"which pass{'' if len(marked) > 1 else 'es'} {rule_id})")
    block = nodes.literal_block(code, code, language="python", linenos=True,
                                classes=["rule-source"])
    block["highlight_args"] = {"linenostart": start}
    if marked:
        block["highlight_args"]["hl_lines"] = marked
    box += block
    return box


def join(items: list[nodes.Node], sep: str = ", ") -> nodes.inline | None:
    if not items:
        return None
    out = nodes.inline()
    for index, item in enumerate(items):
        if index:
            out += nodes.Text(sep)
        out += item
    return out


def table(header: list[str], rows: list[list[list[nodes.Node]]],
          classes: list[str] | None = None) -> nodes.table:
    """A simple docutils table; each cell is a list of inline nodes."""
    tbl = nodes.table(classes=classes or [])
    group = nodes.tgroup(cols=len(header))
    tbl += group
    for _ in header:
        group += nodes.colspec(colwidth=1)
    thead = nodes.thead()
    group += thead
    head_row = nodes.row()
    for title in header:
        head_row += nodes.entry("", nodes.paragraph(text=title))
    thead += head_row
    body = nodes.tbody()
    group += body
    for cells in rows:
        row = nodes.row()
        for cell in cells:
            para = nodes.paragraph()
            para += [c for c in cell if c is not None]
            row += nodes.entry("", para)
        body += row
    return tbl


