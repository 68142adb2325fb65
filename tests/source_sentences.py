"""Finding the sentences that name what only the sources can attest (issue 30, item 3).

Used by tests/catalogue/test_source_sentences.py, and runnable on another checkout and its build
(``python tests/source_sentences.py ROOT``: it prints the sentences it flags there).

**What is looked for.** The names the three source documents use — people, places,
dates, books, other games, the wiki — are *derived from the files*, not typed here:

- a run of capitalised Latin-script words that does not start a sentence, in the
  Catalan document (Catalan, like English, capitalises only names) or in the Greek one
  (where Latin script marks a name); the passages the catalogue's document records list
  as English left inside a document are skipped, but for the "Source:" line. German
  capitalises every noun, so the German document adds nothing the others lack;
- each such run, and each of its words when none of them is a common English word
  (one that occurs in lower case in the catalogue's English translations): "Robert
  Charles Bell" gives "Bell", but "Mancala World" and a book's title only themselves;
- every four-digit year in the files;
- capitalised Greek-script words that do not start a sentence, each with the English
  form a page would use (``GREEK_IN_ENGLISH``, reviewed: the test fails if the
  derivation finds a Greek name the table lacks);
- less the two games themselves, the subject of every page (``SUBJECT``);

and the words "source", "original", "published", "translation" (and their forms).

**What passes.** A sentence that names one of them passes if it carries a claim
reference — in a built page a link to a rule, a claim, a source line, a bibliography
entry or the Sources page's record, or the prose roles that render a catalogue claim,
context line or program record; in plain text a rule ID, a source file's name, or the
record it comes from — or if the name occurs only inside a quotation shown as one
(a blockquote, text marked with another language, or words in quotation marks that
are an exact substring of a source document). Inside a rule's box, the catalogue's own
fields (claims with their roles, citations, the editorial gap, default and reason,
alternatives) carry the rule's reference; a rule's free note does not.
"""
from __future__ import annotations

import re
import sys
import unicodedata
from collections.abc import Iterable
from functools import cache
from pathlib import Path

from helpers import strings

#: The games themselves: every page names them; what is said of them is a rule,
#: which the catalogue checks.
SUBJECT = {"Ba-awa", "Bakuk"}
#: Lower-case words that join the parts of one name ("Jerin i Obridjie", "Board and
#: Table Games from Many Civilizations").
CONNECTORS = {"and", "from", "i"}
#: Capitalised Greek-script words of the Greek document that do not start a sentence,
#: with the English a page writes for them (reviewed; the test checks the keys against
#: the derivation).
GREEK_IN_ENGLISH = {"Καταλανός": "Catalan researcher", "Καταλονία": "Catalonia",
                    "Μαρόκο": "Morocco"}
WORDS = re.compile(r"\b(sources?|original(?:ly|s)?|publish(?:ed|es|ing)?|translations?)\b",
                   re.IGNORECASE)
#: "published", "original" and "translation" speak of the documents only in a sentence
#: that names them ("this build is not published" speaks of the site).
DOCUMENTS = re.compile(r"\b(sources?|documents?|articles?|Mancala World|Catalan|German"
                       r"|Greek)\b", re.IGNORECASE)


def fold(text: str) -> str:
    """*text* without diacritics (Víktor and Viktor are one name)."""
    return "".join(c for c in unicodedata.normalize("NFD", text)
                   if unicodedata.category(c) != "Mn")


_TOKEN = re.compile(r"[^\W\d_](?:[\w'’-]*[^\W_])?\.?")


def _runs(line: str) -> list[list[str]]:
    """Runs of capitalised words in *line* that do not start a sentence."""
    line = re.sub(r"(?<=[a-z])\.(?=[A-ZÀ-Ý])", ". ", line)     # "Ghana.Tot": two sentences
    tokens = list(_TOKEN.finditer(line))
    runs: list[list[str]] = []
    current: list[str] = []
    for i, match in enumerate(tokens):
        word = match.group(0)
        before = line[:match.start()].rstrip()
        initial = re.search(r"(^|\s)\w\.$", before) is not None      # "S. Afoakwa"
        starts = (not before or before == "-" or before.endswith("–")
                  or (before[-1] in ".!?" and not initial))
        follows_capital = i + 1 < len(tokens) and tokens[i + 1].group(0)[0].isupper()
        if word[0].isupper() and not starts:
            current.append(word)
        elif current and word in CONNECTORS and follows_capital:
            current.append(word)
        else:
            if current:
                runs.append(current)
            current = [word] if word[0].isupper() and before.endswith("–") else []
    if current:
        runs.append(current)
    out = []
    for run in runs:
        while run and run[-1] in CONNECTORS:
            run.pop()
        if run:
            out.append([w.rstrip(".") if len(w) > 2 else w for w in run])
    return out


@cache
def _common_words() -> frozenset[str]:
    """Words in lower case in the catalogue's English translations of the sources."""
    from mancala_spec.catalogue import load_catalogue

    text = " ".join(c.translation for rule in load_catalogue() for c in rule.citations)
    return frozenset(re.findall(r"\b[a-z][a-z'-]+\b", text))


@cache
def derived() -> dict[str, set[str]]:
    """What the derivation finds: ``runs`` and ``words`` (Latin script), ``years``, and
    ``greek`` (capitalised Greek-script words), from the files and the catalogue."""
    from mancala_spec.catalogue import load_catalogue
    from mancala_spec.sources import SOURCES, source_lines

    catalogue = load_catalogue()
    runs: set[str] = set()
    words: set[str] = set()
    greek: set[str] = set()
    years: set[str] = set()
    for file in sorted(SOURCES):
        document = catalogue.document(file)
        for line in source_lines(file):
            years |= set(re.findall(r"\b(?:1[5-9]|20)\d\d\b", line))
            if document.language == "German":
                continue
            for passage in document.english:
                if not passage.startswith("Source:"):
                    line = line.replace(passage, "x")
            for run in _runs(line.removeprefix("- ")):
                latin = [w for w in run if re.match(r"[A-Za-zÀ-ÿ]", w)]
                greek |= {w for w in run if re.match(r"[\u0370-\u03ff]", w)}
                if not latin:
                    continue
                name = " ".join(latin)
                if name in SUBJECT:
                    continue
                runs.add(name)
                parts = [w for w in latin if w not in CONNECTORS]
                if not any(w.lower() in _common_words() for w in parts):
                    words |= {w for w in parts if len(w) > 2 and w not in SUBJECT}
    return {"runs": runs, "words": words, "years": years, "greek": greek}


@cache
def names() -> tuple[str, ...]:
    """Every name a sentence is checked for, longest first (diacritics folded)."""
    found = derived()
    every = (found["runs"] | found["words"] | found["years"]
             | {GREEK_IN_ENGLISH.get(g, g) for g in found["greek"]})
    return tuple(sorted({fold(n) for n in every}, key=len, reverse=True))


@cache
def _names_pattern() -> re.Pattern[str]:
    alternatives = "|".join(re.escape(n) for n in names())
    return re.compile(rf"(?<![\w-])({alternatives})(?![\w-])")


#: Code, not prose: a path ("mancala_spec/sources/") or the phrase "source code".
CODE = re.compile(r"\S*/\S*|\bsource code\b|\[source\]")


def named(text: str, words: bool = True) -> list[str]:
    """The names (and, if *words*, the words) of the sources that *text* holds (paths
    and "source code" aside)."""
    flat = CODE.sub(" ", fold(text))
    found = [m.group(1).lower() for m in WORDS.finditer(flat)] if words else []
    if not DOCUMENTS.search(flat):
        found = [w for w in found if w.startswith("source")]
    return [m.group(1) for m in _names_pattern().finditer(flat)] + found


@cache
def _source_texts() -> tuple[str, ...]:
    from mancala_spec.sources import SOURCES, source_text

    return tuple(source_text(f) for f in sorted(SOURCES))


def unquoted(sentence: str) -> str:
    """*sentence* less the quotations in it that are exact substrings of a source."""
    def keep(match: re.Match[str]) -> str:
        inner = match.group(2)
        exact = any(inner.strip(" .,;:") in text for text in _source_texts())
        return " " if exact and inner.strip() else match.group(0)

    return re.sub(r"([\"“'‘])(.+?)([\"”'’])", keep, sentence)


def split_sentences(text: str) -> list[str]:
    """*text* (one block) cut into sentences."""
    flat = " ".join(text.split())
    return [s for s in re.split(r"(?<=[.!?])\s+(?=[A-Z\"“(\[*])", flat) if s]


# -- HTML ----------------------------------------------------------------------------

#: A link that carries a claim reference: a rule, a claim's citation, a source line, a
#: bibliography entry, the Sources page (which shows the document records).
REF_HREF = re.compile(r"#rule-|#src-|^(\.\./)?(sources|rules)\.html|references\.html#"
                      r"|^#id\d+$|^#[\w-]*(bell1969|bautista2009|mw-)"
                      r"|^https://github\.com/[\w.-]+/[\w.-]+")     # a program's record
#: Elements that render a catalogue record: the prose roles, a rule reference, a
#: citation mark, a bibliography entry.
REF_CLASS = {"prose-claim", "prose-context", "prose-program", "rule-ref", "claim-cite",
             "bibtex-citation", "citation", "provenance-ref"}
#: Elements whose whole text carries its rule's or line's reference: a claim with its
#: role, a rule's catalogue fields, a source line's row, the facts of a document record.
REF_BLOCK_CLASS = {"rule-claim", "rule-editorial", "rule-gap", "rule-default",
                   "rule-rationale", "source-line",
                   "source-facts", "rule-header", "citation", "rule-citation",
                   "rule-sources"}
BLOCKS = {"p", "li", "dt", "dd", "td", "th", "h1", "h2", "h3", "h4", "h5", "h6",
          "caption", "figcaption"}
#: Headings (and rubrics) name a section and state nothing.
HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}
SKIP = {"script", "style", "pre", "nav", "svg", "button", "form", "input", "label"}
#: Interface labels, not sentences: the "[source]" link to a function's code, the
#: "Sources" rubric over a rule's citations, a heading's permalink mark.
SKIP_CLASS = {"viewcode-link", "rule-rubric", "headerlink"}


def _classes(element) -> set[str]:
    return set((element.get("class") or "").split())


def _in_ref(element, stop) -> bool:
    while element is not None and element is not stop:
        if _classes(element) & REF_CLASS:
            return True
        if element.tag == "a" and REF_HREF.search(element.get("href") or ""):
            return True
        element = element.getparent()
    return False


def _quoted(element) -> bool:
    if element.tag in ("em", "i") and (element.text or "").strip() and \
            any(element.text.strip() in t for t in _source_texts()):
        return True                      # a source's words, in italics as on the glossary
    while element is not None:
        if element.tag in ("blockquote", "q", "code", "kbd", "samp"):
            return True
        lang = element.get("lang")
        if lang and not lang.startswith("en"):
            return True
        element = element.getparent()
    return False


def _block_ref(element) -> bool:
    """Whether all of *element* carries a reference: it is inside a catalogue record's
    rendering, or a cell of a table row that links one (a row is one record)."""
    row = next((a for a in element.iterancestors("tr")), None)
    if row is not None and any(REF_HREF.search(a.get("href") or "") or _classes(a) & REF_CLASS
                               for a in row.iter("a", "code", "span")):
        return True
    while element is not None:
        if _classes(element) & REF_BLOCK_CLASS:
            return True
        if "rule-note" in _classes(element):
            return False
        element = element.getparent()
    return False


def _segments(block) -> list[tuple[str, bool, bool]]:
    """(text, carries a reference, quoted or code) pieces of *block*, less nested
    blocks."""
    out: list[tuple[str, bool, bool]] = []

    def walk(element) -> None:
        if (element.tag in SKIP or _classes(element) & SKIP_CLASS
                or (element is not block and element.tag in BLOCKS)):
            return
        if element.text:
            out.append((element.text, _in_ref(element, block.getparent()), _quoted(element)))
        for child in element:
            if not isinstance(child.tag, str):
                if child.tail:
                    out.append((child.tail, _in_ref(element, block.getparent()),
                                _quoted(element)))
                continue
            walk(child)
            if child.tail:
                out.append((child.tail, _in_ref(element, block.getparent()),
                            _quoted(element)))

    walk(block)
    return out


def html_sentences(page: str) -> Iterable[tuple[str, bool]]:
    """(sentence with its quotations blanked, carries a reference) of a built page."""
    from lxml import html

    tree = html.fromstring(page)
    roots = tree.xpath("//article[@role='main'] | //footer")
    for root in roots:
        for block in root.iter():
            if (not isinstance(block.tag, str) or block.tag not in BLOCKS - HEADINGS
                    or "rubric" in _classes(block)):
                continue
            if any(a.tag in SKIP for a in block.iterancestors()):
                continue
            whole_ref = _block_ref(block)
            parts = _segments(block)
            text, shown, spans, pos = "", "", [], 0
            for piece, ref, quoted in parts:
                shown += piece
                text += " " * len(piece) if quoted else piece
                if ref:
                    spans.append((pos, pos + len(piece)))
                pos += len(piece)
            for match in re.finditer(r"\S.*?(?:[.!?](?=\s+[A-Z\"“(\[*])|$)", shown, re.S):
                start, end = match.span()
                sentence = " ".join(text[start:end].split())
                ref = (whole_ref or any(a < end and b > start for a, b in spans)
                       or plain_ref(shown[start:end]))
                if sentence:
                    yield sentence, ref


# -- plain text ----------------------------------------------------------------------

def _rule_ids() -> str:
    from mancala_spec.catalogue import load_catalogue

    return "|".join(sorted((re.escape(r.id) for r in load_catalogue()), key=len,
                           reverse=True))


def plain_ref(sentence: str) -> bool:
    """Whether a plain-text sentence carries a reference: a rule ID, a source file, the
    record it comes from."""
    return bool(re.search(r"\b\d{3}_[0-9a-f]{16}\.txt\b|\bsources\.md\b|\bSources page\b"
                          r"|\b[\w/-]+\.\w+:\d+\b"           # a program's file and line
                          r"|\bcatalogue\.toml\b|\[provenance\]"
                          r"|LicenseRef-MancalaWorld-CC-BY-SA\.txt", sentence)
                or re.search(rf"(?<![\w-])({_rule_ids()})(?![\w-])", sentence))


def markdown_blocks(text: str) -> list[str]:
    """The prose blocks of a Markdown file: no code, no headings."""
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    blocks = re.split(r"\n\s*\n|\n(?=\s*[-*] )|\n(?=\|)", text)
    return [b for b in blocks if b.strip() and not b.startswith(("    ", "#"))]


def plain_texts(root: Path) -> dict[str, list[str]]:
    """Blocks of README.md, LICENSES.md, the licence note we write for the sources
    (LICENSES/LicenseRef-*; the SPDX legal codes are not ours), CITATION.cff's strings."""
    import yaml

    out = {"README.md": markdown_blocks((root / "README.md").read_text("utf-8")),
           "LICENSES.md": markdown_blocks((root / "LICENSES.md").read_text("utf-8"))}
    for note in sorted((root / "LICENSES").glob("LicenseRef-*.txt")):
        out[f"LICENSES/{note.name}"] = re.split(r"\n\s*\n", note.read_text("utf-8"))
    cff = yaml.safe_load((root / "CITATION.cff").read_text("utf-8"))
    references = cff.pop("references", [])
    out["CITATION.cff"] = [s for s in strings(cff) if " " in s]
    for ref in references:
        # a reference is one record: its fields are carried by the reference its notes give
        texts = [s for s in strings(ref) if " " in s or s == ref.get("title")]
        if any(plain_ref(s) for s in texts):
            texts = [f"{s} ({ref.get('notes', '')})" if plain_ref(ref.get("notes", ""))
                     else s for s in texts]
        out["CITATION.cff"] += texts
    return out


#: PDF and command-line lines that are a rule's catalogue fields: a claim with its role,
#: a quotation and its translation with its line, the editorial fields. An alternative,
#: form or variant is not: its description must carry its own reference, as on the site.
FIELD_LINE = re.compile(r"^\s*(\[(source|reading|editorial)\]|\[\d+\] “|“|= “|— |Open question:"
                        r"|Default:|Why:|Gap:|Cite:|Other reading:"
                        r"|Alternatives:|Why we read it so:"
                        r"|implemented by:)")


def field_blocks(blocks: Iterable[str]) -> Iterable[tuple[str, bool]]:
    """(sentence, carries a reference) of the PDF's or the command's text blocks. A block
    that is a rule's catalogue field, or that opens by naming its record (a document's
    paragraph starting with its file), carries the reference whole; a short label with
    no full stop (a heading) states nothing."""
    for block in blocks:
        sentences = split_sentences(block)
        if not sentences or (len(block.split()) <= 5 and not block.rstrip().endswith(".")):
            continue
        ref = bool(FIELD_LINE.match(block)) or plain_ref(sentences[0])
        for sentence in sentences:
            yield sentence, ref or plain_ref(sentence)


def defines_the_bases(sentence: str) -> bool:
    """A sentence that says what the three bases mean (source, reading, editorial) names
    the roles themselves, not something the sources attest."""
    return all(re.search(rf"\b{word}\b", sentence) for word in ("source", "reading",
                                                                 "editorial"))


def _not_prose(sentence: str) -> bool:
    """A label that introduces a quotation ("English in the sources:" before the
    words), or a list of module names (the architecture page's graph)."""
    text = unquoted(sentence).strip()
    return bool(re.fullmatch(r"[\w ]+:", text)
                or re.fullmatch(r"[a-z_]+( \(\d+\))?(, [a-z_]+( \(\d+\))?)*", text))


def flagged(items: Iterable[tuple[str, bool]], words: bool = True) -> list[str]:
    """The sentences of *items* that name what only the sources attest, uncited. On the
    API pages (*words* false) "source" and the other words name the code's own fields
    and modules (``Citation.source``, ``mancala_spec.sources``), so only the names
    are looked for there."""
    return [s for s, ref in items
            if not ref and not defines_the_bases(s) and not _not_prose(s)
            and named(unquoted(s), words)]


# -- the licence and the addresses: only as the record knows them ----------------------

@cache
def _licence_patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """(what states the documents' licence or address, what marks it as the record
    knows it), made from the catalogue's ``[provenance]`` record. The licence is named
    without a version (our own adaptations' licence always has one, "CC BY-SA 4.0");
    a name inside another (``LicenseRef-MancalaWorld-CC-BY-SA``, the licence note's
    file) is a file's name, not a statement."""
    from mancala_spec.catalogue import load_catalogue

    p = load_catalogue().provenance
    assert p is not None
    licence = re.escape(p.licence).replace(r"\ ", "[ -]")
    hosts = {re.escape(url.split("/")[2]) for _, url in p.addresses}
    stated = re.compile(rf"(?<![\w-]){licence}(?![ -]?\d)"
                        r"|Creative Commons Attribution-ShareAlike(?![ -]?\d)"
                        r"|published under|\bas (?:Mancala World )?publish(?:ed|es)\b"
                        rf"|{'|'.join(sorted(hosts))}")
    # the record's basis for each is "assumed" (read_provenance requires it): a text
    # that states one says that it is our assumption
    marks = {"assumed": r"\bassum"}
    marked = re.compile("|".join({marks[p.licence_basis], marks[p.address_basis]}),
                        re.IGNORECASE)
    return stated, marked


def licence_flagged(sentences: Iterable[str]) -> list[str]:
    """The sentences that state the documents' licence or an article's address as fact,
    where the provenance record calls it our assumption: a claim reference does not
    excuse one (the sources name no licence and no address, so no line backs it)."""
    stated, marked = _licence_patterns()
    return [s for s in sentences if stated.search(s) and not marked.search(s)]


@cache
def _program_reading() -> re.Pattern[str]:
    """A program's rules called its "reading" (of our text, or of the game): the
    programs are those ``rulesets.toml`` records."""
    from mancala_spec.catalogue.ruleset_records import programs

    names = "|".join(sorted(re.escape(p.name) for p in programs().values()))
    return re.compile(rf"\b({names})(['’]s?)? readings?\b|\bprograms?['’]s? readings?\b"
                      rf"|\breadings? of ({names})\b|\bas ({names}) reads\b", re.IGNORECASE)


def program_flagged(sentences: Iterable[str]) -> list[str]:
    """The sentences that call another program's rules its reading: a program is a
    secondary source of what it does, and implements the game after its own sources
    (issue 30), it does not read ours; a claim reference does not excuse one."""
    return [s for s in sentences if _program_reading().search(s)]


#: Bakuk's captures said to include sixes with no word of Koumma, the only game the
#: source says captures them ("twos, fours and sixes" on two pages, once).
SIXES = re.compile(r"\btwos\b.*\bsixes\b|\bsixes\b.*\btwos\b")


def sixes_flagged(sentences: Iterable[str]) -> list[str]:
    """The sentences that give Bakuk's captures as twos, fours and sixes without
    saying that sixes are Koumma's."""
    return [s for s in sentences if SIXES.search(s) and "Koumma" not in s]


#: A catalogue table's name shown as words ("[[document]] records" on the home page):
#: outside code, a reader gets the record's name in words, or the record itself.
TABLE_NAME = re.compile(r"\[\[(document|work|context|rule|program|ruleset)\]\]")


def check_tree(root: Path, html_dir: Path | None) -> dict[str, list[str]]:
    """Every flagged sentence of *root*'s plain texts and its built pages: those that
    name the sources without a reference, those that state the licence or an
    address as fact (:func:`licence_flagged`), and those that call a program's rules
    its reading (:func:`program_flagged`)."""
    out: dict[str, list[str]] = {}
    for name, blocks in plain_texts(root).items():
        items = [(s, plain_ref(s)) for block in blocks for s in split_sentences(block)]
        texts = [s for s, _ in items]
        out[name] = (flagged(items) + licence_flagged(texts) + program_flagged(texts)
                     + sixes_flagged(texts) + [s for s in texts if TABLE_NAME.search(s)])
    if html_dir is not None:
        for page in sorted(html_dir.rglob("*.html")):
            rel = page.relative_to(html_dir).as_posix()
            if rel.startswith(("_", "genindex", "search", "py-modindex")):
                continue
            items = list(html_sentences(page.read_text("utf-8")))
            texts = [s for s, _ in items]
            out[rel] = (flagged(items, words=not rel.startswith("api/"))
                        + licence_flagged(texts) + program_flagged(texts)
                        + sixes_flagged(texts) + [s for s in texts if TABLE_NAME.search(s)])
    return {k: v for k, v in out.items() if v}


if __name__ == "__main__":
    tree = Path(sys.argv[1]).resolve()
    found = check_tree(tree, tree / "build" / "html")
    for name, bad in found.items():
        for sentence in bad:
            print(f"{name}: {sentence}")
    print(sum(len(v) for v in found.values()), "sentences flagged")
