"""Sphinx configuration for the mancala_spec rules site (build from the repository root):

    sphinx-build -c . docs build/html -n -W --keep-going
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))

import mancala_spec  # noqa: E402

project = "mancala_spec"
author = "The mancala_spec authors"
copyright = "2026, the mancala_spec authors; source documents: Mancala World, CC BY-SA"
version = release = mancala_spec.__version__

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.doctest",
    "sphinx.ext.viewcode",
    "sphinx.ext.intersphinx",
    "sphinx_gallery.gen_gallery",
    "sphinxcontrib.bibtex",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build", "sg_execution_times.rst"]
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

html_theme = "furo"
html_title = f"mancala_spec {release}"

intersphinx_mapping = {}
autodoc_member_order = "bysource"
doctest_test_doctest_blocks = ""

bibtex_bibfiles = ["docs/refs.bib"]

sphinx_gallery_conf = {
    "examples_dirs": "../gallery",
    "gallery_dirs": "auto_examples",
    "filename_pattern": r"/plot_",
    "download_all_examples": False,
    "remove_config_comments": True,
}
