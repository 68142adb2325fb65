"""Every rule's permalink, and every worked example's anchor, lands on its target.

A citation, a search hit, a Try-it or a Play link goes through ``page.html#rule-<id>``
(or ``#example-<id>``). Opened fresh in Chromium at 1280×900 and 390×844, the page
must show the target at the top of the window once it has settled: the browser
jumps to the anchor while the page is still loading, so anything that grows
above the anchor afterwards (a lazily loaded image without its size, a script
that inserts content) moves the target away, and the test sees it.

"Settled" means: every image near the window has loaded and the target has not
moved for 0.2 s. "At the top" means its top edge is where the browser
puts an anchor (below furo's sticky header on a phone), or, for a target too
near the end of the page to be scrolled up that far, the page is scrolled to its
end with the target fully in view.

The site is the session's build (conftest's ``site``), served on localhost, in
the session's one Chromium (conftest's ``chromium``). A third of a load's time is
waiting (the 0.2 s settle, with nothing to do), so :data:`IN_FLIGHT` pages of one
browser context take the targets in turn: each page is loaded, starts its own wait
(a promise kept on its window) and is read back only when its turn comes round
again, while the others load and settle.
Every page is visible and draws its frames (Playwright's flags keep background
pages and their timers running; a headless page is never hidden), and each
target still has a fresh load of its own.
"""
from __future__ import annotations

import re

import pytest

from mancala_spec.catalogue import load_catalogue
from mancala_spec.catalogue.cite import anchor, permalink, rule_page

SIZES = [(1280, 900), (390, 844)]
#: how far from the window's top (below any sticky header) a landed target may be. A
#: rule once settled 4.06 px high on a phone: diagrams' width and height attributes were
#: rounded from their PNG's size at 150 dpi, so each picture shrank a fraction of a pixel
#: when it loaded, and the fractions added up above the anchor. Diagrams are now drawn a
#: whole number of CSS px each way (mancala_spec.diagrams.canvas.save, whole_css_pixels).
#: Left, measured over all 94 targets: up to 0.5 px at 1280 px wide and 1.5 px at 390 px
#: (positions in fractions of a pixel, scrolled to whole ones, and one pixel the page
#: still settles after the browser has chosen where to scroll).
SLACK = 2


#: pages loading and settling at once (each with its own load of its own target):
#: 94 targets took 0.54 s each one at a time (0.36 s of it CPU), 0.28 s six at once
IN_FLIGHT = 6

SETTLE = """async (id) => {
  const frame = () => new Promise(done => requestAnimationFrame(() => done()));
  const target = document.getElementById(id);
  if (!target) return null;
  const near = img => {
    if (!img.getClientRects().length) return false;     // not shown (other theme or width)
    const box = img.getBoundingClientRect();
    return box.bottom > -innerHeight && box.top < 2 * innerHeight;
  };
  let last = null, since = performance.now();
  const start = performance.now();
  while (performance.now() - start < 10000) {
    await frame();
    const top = target.getBoundingClientRect().top;
    const loading = [...document.images].some(img => near(img) && !img.complete);
    if (loading || top !== last) { last = top; since = performance.now(); continue; }
    if (performance.now() - since > 200) break;
  }
  const header = [...document.querySelectorAll("header")].find(h => {
    const style = getComputedStyle(h);
    return (style.position === "sticky" || style.position === "fixed") &&
      h.getBoundingClientRect().height > 0 && h.getBoundingClientRect().top <= 0;
  });
  const box = target.getBoundingClientRect();
  const margin = parseFloat(getComputedStyle(target).scrollMarginTop) || 0;
  return {top: box.top, bottom: box.bottom, height: innerHeight, margin,
          header: header ? header.getBoundingClientRect().bottom : 0,
          scrolled: scrollY,
          end: document.documentElement.scrollHeight - innerHeight};
}"""


def targets(site) -> list[tuple[str, str]]:
    """(page, element id): every rule's permalink target, and every example's anchor."""
    found = []
    for rule in load_catalogue():
        link = permalink(rule, version="v", base="https://example.org")
        page, _, ident = link.removeprefix("https://example.org/v/").partition("#")
        assert (page, ident) == (f"{rule_page(rule)}.html", anchor(rule.id)), link
        found.append((page, ident))
    for page, text in sorted(site.pages.items()):
        found += [(page, ident) for ident in re.findall(r'\sid="(example-[^"]+)"', text)]
    return found


def landed(where: dict) -> bool:
    """Whether the settled target *where* is at the top of the window."""
    expected = max(where["margin"], where["header"])
    if abs(where["top"] - expected) <= SLACK:
        return True
    # too near the end of the page to reach the top: the page is at its end and
    # the target in full view below the header
    return (where["scrolled"] >= where["end"] - 1 and where["top"] >= where["header"] - 1
            and where["top"] < where["height"])


#: The targets are checked in this many shares a size (every target in exactly one), so
#: that the workers of a parallel run share the loads.
SHARES = 2


@pytest.mark.parametrize("share", range(SHARES), ids=lambda n: f"share{n + 1}of{SHARES}")
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_permalink_lands_on_its_target(site, site_server, chromium, size, share):
    every = targets(site)
    rules = sum(ident.startswith("rule-") for _, ident in every)
    assert rules == len(load_catalogue()) and len(every) - rules >= 40, every
    found = every[share::SHARES]
    width, height = size
    context = chromium.new_context(viewport={"width": width, "height": height})
    pages = [context.new_page() for _ in range(IN_FLIGHT)]
    waiting: dict[object, tuple[str, str]] = {}      # page -> the target it settles on
    missed = []

    def read(page) -> None:
        """The settled position of the target *page* was loaded for, checked."""
        name, ident = waiting.pop(page)
        where = page.evaluate("() => window.__settled")
        assert where is not None, f"{name} has no element #{ident}"
        if not landed(where):
            shown = page.evaluate("""() => {
              const hit = document.elementFromPoint(innerWidth / 2, 80);
              const block = hit && hit.closest("[id^=rule-], [id^=example-], section[id]");
              return block ? block.id : "";
            }""")
            missed.append(f"{name}#{ident}: top {where['top']:.0f} px"
                          f" (shows {shown or 'something else'})")

    for number, (name, ident) in enumerate(found):
        page = pages[number % IN_FLIGHT]
        if page in waiting:
            read(page)
        # a query of its own: a new load of the page each time, as a reader
        # following the link gets it (a bare #anchor would only scroll)
        page.goto(f"{site_server}{name}?visit={number}#{ident}", wait_until="load")
        page.evaluate(f"id => {{ window.__settled = ({SETTLE})(id); }}", ident)
        waiting[page] = (name, ident)
    for page in list(waiting):
        read(page)
    context.close()
    assert not missed, f"{len(missed)} of {len(found)} targets (share {share + 1} of {SHARES}) " \
        f"moved at {width}x{height}:\n" \
        + "\n".join(missed)


def test_search_knows_the_rules_and_the_games_names(site_server, chromium):
    """An exact rule ID (any case, with or without "rule-"), or an old ID from the
    registry, goes straight to the rule; a game's other name puts its page first;
    the search page without a query has its heading and its form."""
    from mancala_spec.catalogue.registry import load_registry

    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    for query, landing in [("ba-awa-relay", "ba-awa.html#rule-ba-awa-relay"),
                           ("Rule-Bakuk-Chain", "bakuk.html#rule-bakuk-chain"),
                           (" ba-awa-endless ", "editorial.html#rule-ba-awa-endless")]:
        page.goto(f"{site_server}search.html?q={query}")
        page.wait_for_url(f"**/{landing}")
        assert page.url == site_server + landing
    for moved in load_registry().moved:       # old IDs land on their successor's block
        page.goto(f"{site_server}search.html?q={moved.id}")
        page.wait_for_url(f"**/*#rule-{moved.id}")
    for name, title in [("Nam-Nam", "Ba-awa"), ("anenam", "Ba-awa"), ("Bakuk", "Bakuk")]:
        page.goto(f"{site_server}search.html?q={name}")
        first = page.locator("#rule-search-best a").first
        first.wait_for()
        assert first.get_attribute("href") == title.lower() + ".html"
        assert first.inner_text().startswith(title)
    # a query that is no rule and no game is left to Sphinx's search
    page.goto(f"{site_server}search.html?q=relay")
    page.wait_for_selector("#search-results li", timeout=30_000)
    assert page.url.endswith("search.html?q=relay")
    assert page.is_hidden("#rule-search-best")
    page.goto(f"{site_server}search.html")
    assert page.inner_text("h1") == "Search"
    assert page.evaluate("document.activeElement.id") == "search-page-query"
    context.close()
