"""Every page of the built site passes axe-core, in furo's light and dark schemes.

axe-core comes from npm (``npm ci`` installs the version package-lock.json pins
into node_modules/). Each page of the session's build (conftest's ``site``), the
viewcode pages and the Play page included, is opened in the session's Chromium
(conftest's ``chromium``) at 1280×900 in furo's light scheme, and axe runs over it
once its scripts have run; then the page is switched to the dark scheme as furo's
own theme toggle switches it (``body[data-theme]`` and the stored choice, with the
system's scheme emulated dark as well) and axe runs again with the rules whose
outcome a scheme can change (:data:`SCHEME_RULES`). Nothing on the site reads the
scheme when a page loads (the pictures pick it in CSS, furo's only-light /
only-dark), so this is the page as a reader in the dark scheme has it, with one
load instead of two. Any critical or serious violation fails the test, listed by
scheme and rule with the first elements it names; so does a page that, as it loads
and runs its scripts, logs an error to the console, throws, fails a request, gets an
HTTP error or asks for anything outside the site (helpers' ``Watch``).

Two checks need no browser: the code highlighting styles keep every token at
4.5:1 or more on the code's background and on an emphasised line's (WCAG AA),
and every image of the site says its size (width and height attributes, or a
CSS aspect ratio), so that nothing moves under an anchor once it loads
(test_permalinks.py checks that in the browser).
"""
from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from helpers import Watch

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
FAILING = ("critical", "serious")
READY = "#mancala-play[data-ready=true]"
#: Violations that are listed in the test's output but not failed: none (the Play
#: page's pit buttons, once named "pit F (North): 4" while they showed "4", are now
#: named by their visible text first).
PENDING: set[tuple[str, str]] = set()

#: What changes with the colour scheme: colours, and which pictures are shown (furo's
#: only-light / only-dark). In the dark scheme axe runs these rules; the others see
#: the same document in both schemes and run in the light one.
SCHEME_RULES = ["color-contrast", "link-in-text-block", "image-alt", "link-name",
                "scrollable-region-focusable", "label-content-name-mismatch"]

RUN_AXE = """async (only) => {
  const options = {resultTypes: ["violations"]};
  if (only) options.runOnly = {type: "rule", values: only};
  const result = await axe.run(document, options);
  return result.violations.map(v => ({
    id: v.id, impact: v.impact, count: v.nodes.length,
    nodes: v.nodes.slice(0, 3).map(n => n.target.join(" ") + ": " + n.html.slice(0, 160))}));
}"""


# -- the code highlighting ------------------------------------------------------------


def _rgb(colour: str, under: tuple[float, ...] = (255, 255, 255)) -> tuple[float, ...]:
    """(r, g, b) of ``#rgb``, ``#rrggbb`` or ``#rrggbbaa`` (composited on *under*)."""
    digits = colour.lstrip("#")
    if len(digits) == 3:
        digits = "".join(c * 2 for c in digits)
    rgb = tuple(int(digits[i:i + 2], 16) for i in (0, 2, 4))
    if len(digits) == 8:
        alpha = int(digits[6:8], 16) / 255
        rgb = tuple(alpha * c + (1 - alpha) * u for c, u in zip(rgb, under))
    return rgb


def contrast(one: tuple[float, ...], two: tuple[float, ...]) -> float:
    """The WCAG 2 contrast ratio of two sRGB colours."""
    def luminance(rgb):
        def channel(value):
            value /= 255
            return value / 12.92 if value <= 0.03928 else ((value + 0.055) / 1.055) ** 2.4
        red, green, blue = (channel(v) for v in rgb)
        return 0.2126 * red + 0.7152 * green + 0.0722 * blue

    high, low = sorted((luminance(one), luminance(two)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_contrast_is_computed_as_wcag_says():
    assert round(contrast((0, 0, 0), (255, 255, 255)), 1) == 21.0
    assert round(contrast(_rgb("#888888"), _rgb("#f0f0f0")), 1) == 3.1   # the old example output
    # a11y-high-contrast-dark as published: an emphasised line leaves #ffa07a under 4.5:1
    line = _rgb("#ffd9002e", _rgb("#2b2b2b"))
    assert round(contrast(_rgb("#ffa07a"), line), 2) == 4.46


@pytest.mark.parametrize("setting", ["pygments_style", "pygments_dark_style"])
def test_code_highlighting_meets_wcag_aa(setting):
    from pygments.token import Text, Whitespace
    from sphinx.highlighting import PygmentsBridge

    import conf

    style = PygmentsBridge("html", getattr(conf, setting)).formatter_args["style"]
    background = _rgb(style.background_color)
    emphasised = _rgb(style.highlight_color, background)
    # what a token without a colour of its own shows: the style's text colour
    plain = style.style_for_token(Text)["color"] or "000000"
    weak = []
    for token, rules in style:
        if token in Whitespace:
            continue
        colour = rules["color"] or plain
        under = _rgb(rules["bgcolor"], background) if rules["bgcolor"] else background
        for name, ground in (("background", under), ("emphasised line", emphasised)):
            ratio = contrast(_rgb(colour), ground)
            if ratio < 4.5:
                weak.append(f"{token} #{colour} on the {name}: {ratio:.2f}:1")
    assert not weak, f"{getattr(conf, setting)}: " + "; ".join(weak)


# -- every image says its size ---------------------------------------------------------

#: images whose box the stylesheet fixes (mancala_spec.css): gallery thumbnails,
#: the module index's toggles
SIZED_BY_CSS = (re.compile(r"sphx_glr_\w+_thumb\.png$"), re.compile(r"_static/(minus|plus)\.png$"))


def test_every_image_says_its_size(site):
    unsized = []
    for page, text in site.pages.items():
        for tag in re.findall(r"<img\s[^>]*>", text):
            has = {name for name in ("width", "height") if re.search(rf"\s{name}=\"\d+", tag)}
            src = re.search(r'src="([^"]*)"', tag)
            name = src.group(1) if src else tag
            if has == {"width", "height"} or any(rx.search(name) for rx in SIZED_BY_CSS):
                continue
            unsized.append(f"{page}: {name}")
    assert not unsized, f"{len(unsized)} images without their size: {unsized[:10]}"


# -- axe ---------------------------------------------------------------------------------


def all_pages(site) -> list[str]:
    return sorted(path.relative_to(site.html).as_posix() for path in site.html.rglob("*.html")
                  if path.relative_to(site.html).parts[0] != "_sources")


#: The pages are checked in this many shares (every page in exactly one), so that the
#: workers of a parallel run share the axe runs, each some seconds long.
SHARES = 8

#: furo's theme toggle: the body's data-theme and the choice it keeps
SWITCH = """(scheme) => { localStorage.setItem("theme", scheme);
  document.body.dataset.theme = scheme;
  return getComputedStyle(document.body).backgroundColor; }"""


def test_the_watch_sees_errors_and_requests_outside_the_site(site_server, chromium):
    """What test_every_page_passes_axe asserts of every page can fail: a console error,
    an uncaught error, and a request for another site are each seen."""
    context = chromium.new_context()
    page = context.new_page()
    page.route("http://192.0.2.1/**", lambda route: route.abort())
    watch = Watch(page, site_server)
    page.goto(site_server + "index.html", wait_until="load")
    assert watch.problems == []
    page.evaluate("""() => { console.error("seen");
                             setTimeout(() => { throw new Error("thrown"); });
                             return fetch("http://192.0.2.1/x").catch(() => null); }""")
    for _ in range(100):              # the thrown error is reported a moment later
        if any(problem.startswith("page error") for problem in watch.problems):
            break
        page.wait_for_timeout(50)
    context.close()
    text = "\n".join(watch.problems)
    assert "console: seen" in text and "page error: thrown" in text, text
    assert "outside the site: http://192.0.2.1/x" in text, text


@pytest.mark.parametrize("share", range(SHARES), ids=lambda n: f"share{n + 1}of{SHARES}")
def test_every_page_passes_axe(site, site_server, chromium, share):
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: run npm ci (package-lock.json pins axe-core)")
    every = all_pages(site)
    assert "play.html" in every and "search.html" in every and len(every) > 40
    pages = every[share::SHARES]
    context = chromium.new_context(viewport={"width": 1280, "height": 900},
                                   color_scheme="light")
    # furo follows the reader's choice (localStorage) first, then the system's
    context.add_init_script("try { localStorage.setItem('theme', 'light'); } catch (e) {}")
    context.add_init_script(path=str(AXE))
    page = context.new_page()
    watch = Watch(page, site_server)
    counts: dict[str, Counter[tuple[str, str]]] = {"light": Counter(), "dark": Counter()}
    failing, problems = [], []
    for name in pages:
        page.emulate_media(color_scheme="light")
        page.goto(site_server + name, wait_until="load")
        if name == "play.html":
            page.wait_for_selector(READY, timeout=60_000)
        assert page.evaluate("document.body.dataset.theme") == "light", name
        light = page.evaluate(SWITCH, "light")
        for scheme in ("light", "dark"):
            if scheme == "dark":
                page.emulate_media(color_scheme="dark")
                assert page.evaluate(SWITCH, "dark") != light, f"{name}: no dark scheme"
            for violation in page.evaluate(RUN_AXE, SCHEME_RULES if scheme == "dark" else None):
                counts[scheme][(violation["id"], violation["impact"])] += violation["count"]
                if violation["impact"] in FAILING and (name, violation["id"]) in PENDING:
                    print(f"\npending: {name}: {violation['id']} ({violation['count']})")
                elif violation["impact"] in FAILING:
                    failing.append(f"{name} ({scheme}): {violation['id']} ({violation['impact']}, "
                                   f"{violation['count']}): {violation['nodes']}")
        problems += [f"{name}: {problem}" for problem in watch.problems]
        watch.problems.clear()
    context.close()
    for scheme, found in counts.items():
        print(f"\naxe, {scheme}, {len(pages)} of {len(every)} pages:",
              ", ".join(f"{rule} ({impact}) {n}" for (rule, impact), n in found.most_common())
              or "no violations")
    assert not failing, f"{len(failing)} critical or serious violations:\n" + "\n".join(failing)
    assert not problems, f"{len(problems)} pages logged errors or left the site:\n" \
        + "\n".join(problems)
