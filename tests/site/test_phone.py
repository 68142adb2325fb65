"""On a phone (390×844): no diagram text under 10 CSS px; the rules index fits its column.

Every diagram the site shows (a rule's sowing diagrams, the key "How to read a
diagram", the gallery's pictures) is a PNG that :func:`mancala_spec.diagrams.save`
writes with a text chunk giving the size in points of the smallest text drawn on
it; the page gives the picture its size at 96 CSS px to the inch (its width
attribute), where a point is 4/3 CSS px. In Chromium at 390×844, in both colour
schemes, the test takes every such picture the page shows and measures how wide
it is drawn: the smallest text is shown at ``points × 4/3 × shown width / width``
CSS px, and must be 10 px or more.

The rules index (rules.html) is read on a phone too: each of its tables must fit
the text column (no sideways scrolling), and no rule ID may break across lines.

The site is the session's build (conftest's ``site``), served on localhost, in the
session's one Chromium (conftest's ``chromium``).
"""
from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

import pytest
from helpers import profile_page

from mancala_spec.diagrams.canvas import TEXT_KEY

SMALLEST = 10.0          # CSS px
PHONE = {"width": 390, "height": 844}

SHOWN = """() => [...document.querySelectorAll(
    "figure.sowing-diagram img, .diagram-key img, img.sphx-glr-single-img, img.sphx-glr-multi-img")]
  .filter(img => img.getClientRects().length && getComputedStyle(img).display !== "none")
  .map(img => ({src: img.src, width: img.getAttribute("width") || img.naturalWidth,
                natural: img.naturalWidth, complete: img.complete,
                shown: img.getBoundingClientRect().width}))"""


def smallest_points(path: Path) -> float:
    """The size in points of the smallest text drawn on the PNG *path* (its text chunk)."""
    from PIL import Image

    with Image.open(path) as image:
        text = getattr(image, "text", {}).get(TEXT_KEY)
    assert text is not None, f"{path.name} does not say its smallest text ({TEXT_KEY!r})"
    return float(text)


def diagram_pages(site) -> list[str]:
    return sorted(name for name, text in site.pages.items()
                  if re.search(r'<figure class="[^"]*\bsowing-diagram\b', text)
                  or (name.startswith("auto_examples/plot_") and "sphx-glr-" in text
                      and "-img" in text))


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_diagram_text_under_10_px_on_a_phone(site, site_server, chromium, scheme):
    pages = diagram_pages(site)
    assert {"ba-awa.html", "bakuk.html", "editorial.html"} <= set(pages), pages
    assert sum(name.startswith("auto_examples/plot_") for name in pages) >= 5, pages
    context = chromium.new_context(viewport=PHONE, color_scheme=scheme)
    context.add_init_script(f"try {{ localStorage.setItem('theme', '{scheme}'); }} catch (e) {{}}")
    page = context.new_page()
    small, measured = [], 0
    for name in pages:
        page.goto(site_server + name, wait_until="load")
        shown = page.evaluate(SHOWN)
        assert shown, f"{name} shows no diagram at 390 px ({scheme})"
        for image in shown:
            path = site.html / unquote(urlsplit(urljoin(site_server + name, image["src"])).path
                                       .removeprefix(urlsplit(site_server).path))
            # gallery pictures are shown at their pixel size (no width attribute)
            width = float(image["width"]) if image["width"] else 0
            assert width > 0, f"{name}: {path.name} has no width"
            px = smallest_points(path) * 4 / 3 * image["shown"] / width
            measured += 1
            if px < SMALLEST:
                small.append(f"{name}: {path.name} text {px:.1f} px "
                             f"(shown {image['shown']:.0f} of {width:.0f} px)")
    context.close()
    assert measured >= 40, measured
    assert not small, f"{len(small)} of {measured} diagrams show text under {SMALLEST:g} px " \
        f"at 390 px ({scheme}):\n" + "\n".join(small)


def test_the_rules_index_fits_a_phone(site_server, chromium):
    context = chromium.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(site_server + "rules.html", wait_until="load")
    tables = page.evaluate("""() => [...document.querySelectorAll("table.rule-index")].map(t => ({
      width: t.getBoundingClientRect().width,
      column: t.closest("article").getBoundingClientRect().width,
      rows: t.tBodies[0].rows.length,
      broken: [...t.querySelectorAll("code.rule-id, td:first-child code")]
        .filter(c => c.getClientRects().length > 1).map(c => c.textContent)}))""")
    context.close()
    assert len(tables) == 2 and all(t["rows"] >= 10 for t in tables), tables
    for table in tables:
        assert table["width"] <= table["column"], table
        assert not table["broken"], table


def test_each_play_option_shows_its_whole_choice_on_a_phone(site_server, profile):
    """A closed dropdown 390 px wide cuts a long meaning off ("A move whose relay sowing
    never ends is not a legal move" shows as "…is not a legal move"): the chosen
    meaning is written out in full below each one, wraps inside the column, follows
    the choice, and is not shown at 1280 px, where the dropdown holds it."""
    shown = """() => [...document.querySelectorAll(".play-option")].map(box => {
      const select = box.querySelector("select"), chosen = box.querySelector(".play-option-chosen");
      return {name: select.name, text: select.options[select.selectedIndex].textContent,
              chosen: chosen.textContent, visible: chosen.getClientRects().length > 0,
              hidden: chosen.getAttribute("aria-hidden"),
              right: chosen.getBoundingClientRect().right};
    })"""
    # one load of the page, 1280 px wide and then 390 px (what shows where is CSS only:
    # play.css's max-width media query, which a resize applies as a load at that width)
    page = profile_page(profile, site_server)       # the worker's profile: Pyodide's code cached
    page.goto(site_server + "play.html", wait_until="load")
    page.wait_for_selector("#mancala-play[data-ready=true]", timeout=60_000)
    for viewport, on_phone in (({"width": 1280, "height": 900}, False), (PHONE, True)):
        page.set_viewport_size(viewport)
        options = page.evaluate(shown)
        assert len(options) >= 6, options
        for option in options:
            assert option["chosen"] == option["text"] and option["hidden"] == "true", option
            assert option["visible"] is on_phone, option
            if on_phone:
                assert option["right"] <= viewport["width"], option
        if on_phone:
            assert any(len(o["text"]) > 45 for o in options), "no long meaning to cut"
            select = page.locator("#play-option-endless")
            other = select.evaluate(
                "s => s.options[(s.selectedIndex + 1) % s.options.length].value")
            select.select_option(other)
            changed = {o["name"]: o for o in page.evaluate(shown)}["endless"]
            assert changed["chosen"] == changed["text"] and "(default)" not in changed["chosen"]
    page.close()
