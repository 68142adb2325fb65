"""The "Cite this rule" box under every rule: its versioned permalink and a
copy-ready citation as plain text, BibTeX and CSL-JSON, each with a copy button
(a few lines of inline JavaScript; without JavaScript the text is still there
to select). The texts come from :mod:`mancala_spec.catalogue.cite`, the same
functions ``mancala-spec cite`` prints."""
from __future__ import annotations

import json

from docutils import nodes

from ..catalogue import Rule
from ..catalogue.cite import UNPUBLISHED, citation, page_address, permalink
from .rule_nodes import details, summary

_COPY = ('<button type="button" class="rule-copy" title="Copy to the clipboard" '
         'onclick="var t=this.parentNode.querySelector(\'pre\');'
         'if(t&amp;&amp;navigator.clipboard){navigator.clipboard.writeText(t.innerText);'
         'this.textContent=\'Copied\';}">Copy</button>')


def _copyable(label: str, text: str, language: str) -> nodes.container:
    box = nodes.container(classes=["rule-cite-form"])
    head = nodes.paragraph(classes=["rule-cite-label"])
    head += nodes.strong(text=label)
    box += head
    box += nodes.raw("", _COPY, format="html")
    block = nodes.literal_block(text, text, language=language, classes=["rule-cite-text"])
    box += block
    return box


def citation_box(rule: Rule, version: str, base: str) -> details:
    """A ``<details>`` box: the permalink, and the citation in three forms."""
    url = permalink(rule, version, base)
    forms = citation(rule, version, base)
    box = details(classes=["rule-cite"])
    head = summary()
    head += nodes.Text("Cite this rule")
    box += head
    link = nodes.paragraph(classes=["rule-cite-permalink"])
    if url:
        link += nodes.Text("Permalink (version " + version + "): ")
        link += nodes.reference(url, url, refuri=url)
    else:        # a build that knows no published address invents none
        link += nodes.Text(f"Rule {rule.id}, version {version}, page {page_address(rule)}: "
                           f"{UNPUBLISHED}.")
    box += link
    box += _copyable("Text", forms["text"], "text")
    box += _copyable("BibTeX", forms["bibtex"], "bibtex")
    box += _copyable("CSL-JSON", json.dumps(forms["csl"], indent=2, ensure_ascii=False), "json")
    return box
