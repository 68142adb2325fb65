"""The printable edition (issue 12, section 5): every rule in the PDF, each a
bookmark named by its ID, with a link to its versioned permalink."""
from __future__ import annotations

import re

from mancala_spec.catalogue import load_catalogue
from mancala_spec.catalogue.cite import permalink
from mancala_spec.catalogue.pdf import build_pdf


def _titles(data: bytes) -> list[str]:
    titles = []
    for match in re.finditer(rb"/Title (\((?:\\.|[^\\)])*\)|<[0-9A-Fa-f]+>)", data):
        raw = match.group(1)
        if raw.startswith(b"<"):
            titles.append(bytes.fromhex(raw[1:-1].decode()).decode("utf-16"))
        else:
            titles.append(re.sub(rb"\\(.)", rb"\1", raw[1:-1]).decode("latin-1"))
    return titles


def test_pdf_has_every_rule_as_a_bookmark_with_its_permalink(tmp_path):
    base = "https://rules.example/ms"
    target = build_pdf(tmp_path / "rules.pdf", version="0.1.0", compress=False, base=base)
    data = target.read_bytes()
    assert data.startswith(b"%PDF-") and not list(tmp_path.glob("*.part"))
    titles = _titles(data)
    for rule in load_catalogue():
        assert f"{rule.id}: {rule.title}" in titles, rule.id
        link = f"(URI ({permalink(rule, '0.1.0', base)})".encode()
        assert link in data.replace(b"/URI (", b"(URI (")
    assert {"Ba-awa", "Bakuk"} <= set(titles)


def test_an_unpublished_edition_invents_no_address(tmp_path):
    """With no published address no rule links anywhere (the citations, drawn as
    glyphs, say that the build is not published: cite.citation_text, tested in
    test_cite), and the provenance of the sources has its bookmark."""
    data = build_pdf(tmp_path / "rules.pdf", version="0.1.0", compress=False,
                     base="").read_bytes()
    assert b"/URI (" not in data and b"readthedocs" not in data
    assert "Sources" in _titles(data)


def test_pdf_is_reproducible_and_states_its_language_and_licence(tmp_path, monkeypatch):
    """SOURCE_DATE_EPOCH fixes its dates: two builds a second apart are the same
    bytes; it says its language and carries its licence's URI (issue 21)."""
    import time

    from mancala_spec.catalogue.pdf import LICENCE_URI

    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1764547200")       # 2025-12-01 00:00 UTC
    first = build_pdf(tmp_path / "a.pdf", compress=False).read_bytes()
    time.sleep(1.1)
    second = build_pdf(tmp_path / "b.pdf", compress=False).read_bytes()
    assert first == second
    assert b"/CreationDate (D:20251201000000Z)" in first
    assert b"/Lang (en)" in first
    assert f"<xmpRights:WebStatement>{LICENCE_URI}</xmpRights:WebStatement>".encode() in first
    assert LICENCE_URI == "https://creativecommons.org/licenses/by-sa/4.0/"
