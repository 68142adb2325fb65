"""The ``{source-document}`` directive: a source document in full, every line
anchored and accounted for, with what the file itself tells of its origin and
the SHA-256 of our byte copy, computed when the site is built."""
from __future__ import annotations

from importlib import resources

from docutils import nodes
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

from ..catalogue.cite import source_metadata
from ..catalogue.traceability import source_map
from ..sources import SOURCES
from .rule_nodes import (
    catalogue_file,
    definition,
    english_spans,
    language_runs,
    linked_text,
    rule_ref,
)

logger = logging.getLogger(__name__)
ENV_SOURCES = "mancala_sources"      # docname -> [source file]


def source_facts(source: str) -> nodes.definition_list:
    """What is known of a source document's provenance, and what is not, from the
    catalogue's ``[[document]]`` entry and the file itself, and the SHA-256 of our
    byte copy (computed now, at build time)."""
    facts = source_metadata(source)
    items = nodes.definition_list(classes=["source-facts"])

    def quoted(passages: list[str]) -> nodes.paragraph:
        para = nodes.paragraph()
        for index, passage in enumerate(passages):
            if index:
                para += nodes.Text("; ")
            para += nodes.Text("“")
            para += nodes.inline(text=passage, classes=["source-quoted"])
            para += nodes.Text("”")
        return para

    items += definition("A version of", [nodes.paragraph(text=facts["version_of"])])
    items += definition("Language", [nodes.paragraph(
        text=f"{facts['language']}, with English left inside it, in these passages:"),
        quoted(facts["english"])])
    items += definition("Made by", [nodes.paragraph(
        text=f"{facts['made_by']}: the file does not say who made this version, or how")])
    items += definition("Attribution line in the file", [nodes.paragraph(
        text=facts["attribution"])])
    items += definition("URL", [nodes.paragraph(text=facts["url"])])
    items += definition("Licence", [nodes.paragraph(text=facts["licence"])])
    items += definition("Credit it as", [nodes.paragraph(text=facts["credit"])])
    unknown = nodes.bullet_list()
    for fact in facts["unknown"]:
        unknown += nodes.list_item("", nodes.paragraph(text=fact))
    items += definition("Not known", [unknown])
    digest = nodes.paragraph()
    digest += nodes.literal(text=facts["sha256"], classes=["source-sha256"])
    digest += nodes.Text(f" ({facts['bytes']} bytes)")
    items += definition("SHA-256 of our copy", [digest])
    return items


def shifted(runs: list[tuple[int, int]], offset: int) -> list[tuple[int, int]]:
    """*runs* counted from *offset* (a piece of the line that starts there)."""
    return [(start - offset, end - offset) for start, end in runs]


class SourceDocumentDirective(SphinxDirective):
    """``{source-document} <file>``: a source document, every line anchored and accounted for."""

    required_arguments = 1
    has_content = False

    def run(self) -> list[nodes.Node]:
        source = self.arguments[0]
        if source not in SOURCES:
            logger.warning("unknown source document %r; known: %s", source,
                           ", ".join(sorted(SOURCES)), location=self.get_location(),
                           type="mancala", subtype="source")
            return []
        document = SOURCES[source]
        self.env.note_dependency(catalogue_file())
        self.env.note_dependency(str(resources.files("mancala_spec.sources").joinpath(source)))
        data = getattr(self.env, ENV_SOURCES, None)
        if data is None:
            data = {}
            setattr(self.env, ENV_SOURCES, data)
        data.setdefault(self.env.docname, []).append(source)

        out = nodes.container(classes=["source-document"])
        about = nodes.paragraph(classes=["source-about"])
        about += nodes.literal(text=source)
        about += nodes.Text(f" — {document.title}: a {document.language} version of the "
                            "Mancala World article it names, maker unknown. Quoted material; "
                            "shown byte for byte, one line per row. Quoted spans are marked.")
        out += about
        out += source_facts(source)
        lines = nodes.container(classes=["source-lines"])
        for line in source_map(source):
            row = nodes.container(classes=["source-line",
                                           "source-line-cited" if line.rules else
                                           "source-line-context"])
            row["ids"].append(line.anchor)
            number = nodes.paragraph(classes=["source-lineno"])
            link = nodes.reference("", "", internal=True, refid=line.anchor,
                                   reftitle=f"Permalink to {source} line {line.number}")
            link += nodes.Text(str(line.number))
            number += link
            row += number
            runs = english_spans(source, line.text)
            whole = runs == [(0, len(line.text))]
            text = nodes.paragraph(classes=[
                "source-text", f"language-{'en' if whole else document.language_code}"])
            position = 0
            for start, end in line.quotes:
                if start > position:
                    text += language_runs(line.text[position:start],
                                          [] if whole else shifted(runs, position))
                quoted = nodes.inline(classes=["source-quoted"])
                quoted += language_runs(line.text[start:end],
                                        [] if whole else shifted(runs, start))
                text += quoted
                position = end
            if position < len(line.text):
                text += language_runs(line.text[position:],
                                      [] if whole else shifted(runs, position))
            row += text
            note = nodes.paragraph(classes=["source-note"])
            if line.rules:
                note += nodes.Text("cited by ")
                for index, rule_id in enumerate(line.rules):
                    if index:
                        note += nodes.Text(", ")
                    note += rule_ref(rule_id)
            elif line.context:
                note += nodes.inline(text="deferred" if line.context.deferred else "context",
                                     classes=["rule-badge", "rule-badge-context"])
                note += nodes.Text(" ")
                note += linked_text(" ".join(line.context.reason.split())).children
            else:
                note += nodes.inline(text="not accounted for",
                                     classes=["rule-badge", "rule-badge-missing"])
            row += note
            lines += row
        out += lines
        return [out]


