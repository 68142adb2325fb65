"""Sphinx configuration for the mancala_spec rules site (build from the repository root):

    sphinx-build -c . docs build/html -d build/doctrees -n -W --keep-going
    sphinx-build -b doctest docs build/doctest -d build/doctrees -c . -W --keep-going

The site's own directives ({rule}, {rule-summary}, {source-document}, {rule-index},
{options-table}), the {rule-ref} role and the traceability check come from
mancala_spec.sphinx.rules.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))

import mancala_spec  # noqa: E402

project = "mancala_spec"
author = "The mancala_spec authors"
from mancala_spec.catalogue.provenance import footer, footer_note  # noqa: E402

copyright = footer()      # what is ours; what we assume of the sources is the note below it
html_context = {"provenance_note": footer_note()}   # docs/_templates/page.html
version = release = mancala_spec.__version__

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.doctest",
    "sphinx.ext.viewcode",
    "sphinx.ext.intersphinx",
    "sphinx_gallery.gen_gallery",
    "mancala_spec.sphinx.cache",          # keeps the gallery's output between builds
    "mancala_spec.sphinx.gallery",        # dark twins of the gallery's thumbnails
    "sphinxcontrib.bibtex",
    "mancala_spec.sphinx.rules",
    "mancala_spec.sphinx.diagrams",
    "mancala_spec.sphinx.reference",
    "mancala_spec.sphinx.architecture",
    "mancala_spec.sphinx.analysis",
    "mancala_spec.sphinx.ba_awa_readings",   # Ba-awa's value under each option set, quoted
    "mancala_spec.sphinx.readings_page",
    "mancala_spec.sphinx.a11y",
    "mancala_spec.sphinx.search_page",
    "mancala_spec.sphinx.downloads",      # the wheel and the example engine, to download
    "mancala_spec.sphinx.navigation",     # furo's sidebar from titles-only tables of contents
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build", "sg_execution_times.rst"]
myst_enable_extensions = ["colon_fence", "deflist", "substitution"]
myst_heading_anchors = 3
myst_substitutions = {"version": release}
# between releases the version names its commit (mancala_spec/version.py): the home page says so
from mancala_spec.version import RELEASED  # noqa: E402

myst_substitutions["version_kind"] = (
    "a release" if RELEASED else "a development version between releases: it names the "
    "commit this site was built from, and so does every citation on it")
smartquotes = False                  # quotations are shown byte for byte: no curly quotes

# -- HTML: furo, readable on a phone ------------------------------------------------
html_theme = "furo"
html_title = f"mancala_spec {release}"
html_static_path = ["docs/_static"]       # relative to this file's folder
templates_path = ["docs/_templates"]      # furo overrides: sidebar captions, search page
html_favicon = "docs/_static/favicon.svg"
html_css_files = ["mancala_spec.css", "diagrams.css", "play/play.css"]
html_theme_options = {"navigation_with_keys": True}
html_copy_source = False
html_show_sourcelink = False

# -- code and API ---------------------------------------------------------------------
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_typehints_format = "short"
autodoc_default_options = {"members": True, "show-inheritance": True}
viewcode_line_numbers = True
# Python's own types link to docs.python.org. Their inventory (objects.inv) is read
# offline from Debian's python3.X-doc package (.ci/run installs it); on Read the Docs it
# is fetched. With neither (no inventory, no network) they are left unlinked, named in
# nitpick_ignore_regex, so that such a build still has no warning.
PYTHON_DOCS = "https://docs.python.org/3/"
PYTHON_INVENTORY = next(
    (path for path in (Path(f"/usr/share/doc/python3.{sys.version_info.minor}/html/objects.inv"),
                       *sorted(Path("/usr/share/doc").glob("python3.*/html/objects.inv")))
     if path.is_file()), None)
if PYTHON_INVENTORY is not None:
    intersphinx_mapping = {"python": (PYTHON_DOCS, str(PYTHON_INVENTORY))}
elif os.environ.get("READTHEDOCS") == "True":
    intersphinx_mapping = {"python": (PYTHON_DOCS, None)}
else:
    intersphinx_mapping = {}
# A TypeVar cannot be linked, nor matplotlib (no inventory); everything else must
# resolve (-n).
nitpick_ignore_regex = [
    ("py:class", r"matplotlib\..*"),
    ("py:class", r"mancala_spec\.catalogue\.F"),
    ("py:class", r"mancala_spec\..*\._\w+"),        # private bases shown in "Bases:"
    # the frameworks' base classes of mancala_spec.interop (no inventory, as matplotlib)
    ("py:class", r"(pyspiel|pettingzoo)\..*"),
    # the solved tables' classes, in the evaluator's signatures: their modules are the Play
    # page's, not on the API pages
    ("py:class", r"(mancala_spec\.solved\.|mancala_spec\.solved_ba_awa\.)?"
                 r"(ValueTable|BaAwaValueTable)"),
]
if not intersphinx_mapping:
    nitpick_ignore_regex += [
        ("py:class", r"(ast|collections\.abc|enum|pathlib|subprocess|typing|types|random)\..*"),
        ("py:mod", r"(ast|collections\.abc|pathlib|typing|types|random)"),
    ]
# every token at least 4.5:1 on its background, light and dark (WCAG AA; test_a11y)
pygments_style = "mancala_spec.sphinx.a11y.LightCode"
pygments_dark_style = "mancala_spec.sphinx.a11y.DarkCode"



def _bound_names():
    """A post-transform: a bare name that names more than one documented object
    (Sphinx would warn, and link none) links to the class the name is bound to in
    the module it is written in: ``Outcome`` in engine/position.py is
    mancala_spec.engine.outcome.Outcome, not the conformance runner's."""
    import importlib

    from sphinx import addnodes
    from sphinx.transforms.post_transforms import SphinxPostTransform

    class BoundNames(SphinxPostTransform):
        default_priority = 5              # before Sphinx resolves references (10)

        def run(self, **kwargs) -> None:
            named: dict[str, set[str]] = {}      # bare name -> documented full names
            for full, entry in self.env.domains.python_domain.objects.items():
                if not entry.aliased:
                    named.setdefault(full.rpartition(".")[2], set()).add(full)
            for node in self.document.findall(addnodes.pending_xref):
                target, module = node.get("reftarget", ""), node.get("py:module")
                if (node.get("refdomain") != "py" or not module
                        or len(named.get(target, ())) < 2 or f"{module}.{target}" in named[target]):
                    continue
                try:
                    bound = getattr(importlib.import_module(module), target, None)
                except ImportError:
                    continue
                name = f"{getattr(bound, '__module__', '')}.{getattr(bound, '__qualname__', '')}"
                if isinstance(bound, type) and name in named[target]:
                    node["reftarget"] = name

    return BoundNames


# -- citing rules ---------------------------------------------------------------------
# The address releases are published under, each in a folder of its own
# (<base>/<version>/...): every permalink and citation is built from it. One setting,
# read by mancala_spec.catalogue.cite.base_url (as `mancala-spec cite` does): Read the
# Docs' canonical URL when built there, else $MANCALA_SPEC_BASE_URL; with neither, ""
# and the citations say that this build is not published.
from mancala_spec.catalogue.cite import UNPUBLISHED, base_url  # noqa: E402

mancala_base_url = base_url()
# every page's <link rel="canonical">: its address in this release's folder, the one its
# permalinks use (none when nothing says where the build is published)
html_baseurl = f"{mancala_base_url}/{release}/" if mancala_base_url else ""
myst_substitutions["base_url"] = mancala_base_url or f"none ({UNPUBLISHED})"
myst_substitutions["published"] = "yes" if mancala_base_url else "no"
# the most positions the Play page searches for a Ba-awa position its table lacks
from mancala_spec.solved_ba_awa import SEARCH_NODES  # noqa: E402

myst_substitutions["ba_awa_search_nodes"] = f"{SEARCH_NODES:,}"
# which licence covers which part (docs/sources.md, docs/cite.md; LICENSES.md says the same)
from mancala_spec.catalogue.provenance import licence_parts  # noqa: E402
from mancala_spec.solve.ba_awa_quoted import quoted_run  # noqa: E402

myst_substitutions["licence_parts"] = licence_parts()
# the most positions `mancala-spec solve bakuk` sets out to solve (docs/cli.md)
from mancala_spec.cli.solve import MAX_SOLVE_POSITIONS  # noqa: E402

myst_substitutions["solve_max_positions"] = f"{MAX_SOLVE_POSITIONS:,}"
# the quoted full solve's peak memory, for the Play page's note on Ba-awa's values
# (the figure the Ba-awa page quotes with its command, one value on both pages)
myst_substitutions["ba_awa_solve_gib"] = f"{quoted_run()['peak_bytes'] / 2**30:.1f}"

# -- examples -------------------------------------------------------------------------
doctest_test_doctest_blocks = ""      # docstrings are tested by pytest --doctest-modules
mancala_traceability = True           # fail the build (with -W) on any traceability gap

# -- bibliography -------------------------------------------------------------------
bibtex_bibfiles = ["docs/refs.bib"]   # relative to this file's folder, not docs/
bibtex_default_style = "plain"
bibtex_reference_style = "author_year"

# -- gallery -------------------------------------------------------------------------
sphinx_gallery_conf = {
    "examples_dirs": "../gallery",
    "gallery_dirs": "auto_examples",
    "filename_pattern": r"/plot_",
    "download_all_examples": False,
    "remove_config_comments": True,
    "within_subsection_order": "FileNameSortKey",
    # each figure light and dark, for a desktop and a phone (mancala_spec.sphinx.gallery)
    "image_scrapers": ("mancala_spec.sphinx.gallery.scraper",),
    # no sg_execution_times page: it loads jQuery and DataTables from CDNs
    "write_computation_times": False,
}


# -- the Play page: Pyodide and the project's wheel, copied into the built site ------
# (dev.py takes Pyodide from node_modules/, which `npm ci` fills from package-lock.json,
# and builds the wheel with pip)
html_js_files = [("play/tryit.js", {"type": "module"}), "mancala_spec.js"]

# Without Node.js (no node_modules/ and no npm to fill it) the site is built all the
# same, without the engine files: the Play page says so and how to get them (docs/play.md,
# the tag play_engine), and the build gives one warning (mancala_spec.play), which -W
# makes an error, as the published site must have them.
import dev  # noqa: E402

play_engine = dev.play_engine_available()
if play_engine and "tags" in globals():   # Sphinx gives conf.py its tags; a test
    tags.add("play_engine")  # noqa: F821   # that reads conf.py alone does not
# Ba-awa's exact values on the Play page: only when the build is given a table
# (MANCALA_SPEC_BA_AWA_VALUES, which `python3 dev.py site --ba-awa-values DIR` sets): its
# full solve takes minutes (the quoted run's time and memory: docs/ba-awa.md), more than
# a first build should
ba_awa_values = dev.ba_awa_values() if play_engine else None
if ba_awa_values is not None and "tags" in globals():
    tags.add("ba_awa_values")  # noqa: F821

PLAY_MISSING = ("the Play page's engine files (Pyodide, the project's wheel) were not built: "
                "node_modules/ lacks Pyodide and npm is not installed. Install Node.js and npm "
                "(apt-get install nodejs npm) and build again: the build runs npm ci "
                "(dev.copy_play_assets). The Play page says so.")


def _copy_play_assets(app, exception) -> None:
    if exception is None and app.builder.format == "html" and not play_engine:
        from sphinx.util import logging
        logging.getLogger(__name__).warning(PLAY_MISSING, type="mancala_spec",
                                            subtype="play")
    elif exception is None and app.builder.format == "html":
        problem = dev.copy_play_assets(Path(app.outdir))
        if problem:        # the page starts its engine cold: slower, the same engine
            from sphinx.util import logging
            logging.getLogger(__name__).warning(
                f"the Play page's engine snapshot was not made ({problem}): the page "
                "starts its engine without it, seconds slower", type="mancala_spec",
                subtype="play_snapshot")
        # the Play page's exact Bakuk values: solved (or kept from a build of the same
        # package: mancala_spec.sphinx.cache), read in the page without numpy
        from mancala_spec.solved import write_table
        from mancala_spec.sphinx import cache
        cache.file(Path(app.outdir) / "_static" / "play" / "bakuk-values.bin", write_table,
                   f"bakuk-values-{cache.package_digest()[:20]}.bin")
        if ba_awa_values is None:             # none from an earlier build given one
            dev.remove_ba_awa_values(Path(app.outdir))
        else:
            from mancala_spec.errors import MancalaError
            try:          # a table refused: the site holds none (not an earlier build's)
                dev.copy_ba_awa_values(Path(app.outdir), ba_awa_values)
            except (MancalaError, OSError) as error:
                from sphinx.util import logging

                from mancala_spec.terminal.escape import shown
                logging.getLogger(__name__).warning(
                    f"Ba-awa's values ({dev.BA_AWA_VALUES}): {shown(str(error))}",
                    type="mancala_spec", subtype="play")


#: The cyclic collector's thresholds during the build (Python's are 700, 10, 10).
GC_THRESHOLDS = (10_000, 50, 100)


def _collect_less(app) -> None:
    """Before the gallery starts (builder-inited): what is loaded so far (Sphinx,
    docutils, matplotlib, the engine) is kept out of the cyclic collector's scans
    (:func:`gc.freeze`), and the collector runs less often. With Python's thresholds
    a cold build spent 5.4 s in the collector's 31 full scans of a heap that holds
    every page's doctree. Nothing else changes: the collector only decides when
    unreachable cycles are freed."""
    import gc
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def _exit_without_collecting(app, exception) -> None:
    """Last of all (build-finished): the whole heap is kept out of the collector too,
    so the interpreter's own full collection as the process exits, 0.7 s of a heap
    that holds the whole site, has nothing to scan. (A program that builds the site
    in its own process and goes on keeps the build's objects, whose references form
    cycles, and the thresholds above, until it calls :func:`gc.unfreeze` and
    :func:`gc.set_threshold`.)"""
    import gc
    gc.freeze()


def setup(app):
    # before sphinx-gallery (500)
    app.connect("builder-inited", _collect_less, priority=300)
    app.connect("build-finished", _copy_play_assets)
    app.connect("build-finished", _exit_without_collecting, priority=1000)
    app.add_post_transform(_bound_names())
