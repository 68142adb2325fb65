"""The cache that outlives a build (mancala_spec.sphinx.cache): a file or value
made once is taken from it the next time, and without MANCALA_SPEC_CACHE
nothing is kept."""
from __future__ import annotations

import os
import shutil

import pytest

from mancala_spec.sphinx import cache


def test_files_and_values_are_kept_and_restored(tmp_path, monkeypatch):
    monkeypatch.setenv("MANCALA_SPEC_CACHE", str(tmp_path / "cache"))
    drawn = tmp_path / "build1" / "figure-0123abcd.png"
    assert not cache.restore(drawn)
    drawn.parent.mkdir()
    drawn.write_bytes(b"picture")
    cache.keep(drawn)
    again = tmp_path / "build2" / "figure-0123abcd.png"
    assert cache.restore(again) and again.read_bytes() == b"picture"
    calls = []
    make = lambda: calls.append(1) or [["a", "b"], [["1", "2"]]]   # noqa: E731
    assert cache.value("table-x", make) == [["a", "b"], [["1", "2"]]]
    assert cache.value("table-x", make) == [["a", "b"], [["1", "2"]]]
    assert calls == [1]
    assert not list((tmp_path / "cache" / "site").glob("*.part"))


def test_without_a_cache_folder_nothing_is_kept(tmp_path, monkeypatch):
    monkeypatch.delenv("MANCALA_SPEC_CACHE", raising=False)
    assert cache.folder() is None
    calls = []
    for _ in range(2):
        cache.value("v", lambda: calls.append(1) or 5)
    assert calls == [1, 1]
    assert not cache.restore(tmp_path / "x.png")


def _app(tmp_path, gallery_dirs="auto_examples"):
    """What restore_gallery and keep_gallery read of a Sphinx application."""
    from types import SimpleNamespace

    (tmp_path / "gallery").mkdir(parents=True, exist_ok=True)
    (tmp_path / "gallery" / "plot_x.py").write_text("print('x')\n")
    (tmp_path / "conf.py").write_text("sphinx_gallery_conf = {}\n")
    (tmp_path / "docs").mkdir(exist_ok=True)
    conf = {"examples_dirs": [str(tmp_path / "gallery")], "gallery_dirs": [gallery_dirs]}
    return SimpleNamespace(config=SimpleNamespace(sphinx_gallery_conf=conf),
                           srcdir=str(tmp_path / "docs"), confdir=str(tmp_path))


def test_the_gallery_folder_is_kept_and_put_back_only_for_the_same_scripts(tmp_path, monkeypatch):
    monkeypatch.setenv("MANCALA_SPEC_CACHE", str(tmp_path / "cache"))
    one = _app(tmp_path / "one")
    written = tmp_path / "one" / "docs" / "auto_examples"
    (written / "images").mkdir(parents=True)
    (written / "plot_x.rst").write_text("page")
    (written / "images" / "a.png").write_bytes(b"png")
    cache.keep_gallery(one, RuntimeError("the build failed"))   # a failed build keeps nothing
    assert not list((tmp_path / "cache").rglob("gallery-*"))
    cache.keep_gallery(one, None)
    assert len(list((tmp_path / "cache" / "site").glob("gallery-*.tar"))) == 1
    # a fresh clone of the same scripts and settings gets the folder back, whole
    two = _app(tmp_path / "two")
    assert cache.gallery_digest(two) == cache.gallery_digest(one)
    cache.restore_gallery(two)
    back = tmp_path / "two" / "docs" / "auto_examples"
    assert (back / "plot_x.rst").read_text() == "page"
    assert (back / "images" / "a.png").read_bytes() == b"png"
    # a changed script, or changed settings, is another key: nothing is put back
    three = _app(tmp_path / "three")
    (tmp_path / "three" / "gallery" / "plot_x.py").write_text("print('y')\n")
    assert cache.gallery_digest(three) != cache.gallery_digest(one)
    cache.restore_gallery(three)
    assert not (tmp_path / "three" / "docs" / "auto_examples").exists()
    four = _app(tmp_path / "four")
    (tmp_path / "four" / "conf.py").write_text("sphinx_gallery_conf = {'x': 1}\n")
    assert cache.gallery_digest(four) != cache.gallery_digest(one)
    # a checkout's own gallery folder, written by a build of the same digest, stays
    assert (written / cache.STAMP).read_text() == cache.gallery_digest(one)
    (written / "plot_x.rst").write_text("own page")
    cache.restore_gallery(one)
    assert (written / "plot_x.rst").read_text() == "own page"
    # one written for other package code (another digest), or by a build before
    # folders were stamped, is stale: sphinx-gallery would keep its pictures, since it
    # re-runs only changed scripts; it is replaced by the kept one, or removed
    for stale in ("gallery-0123456789abcdef0123.tar", None):
        five = _app(tmp_path / "five")
        own = tmp_path / "five" / "docs" / "auto_examples"
        own.mkdir()
        (own / "plot_x.rst").write_text("stale page")
        if stale:
            (own / cache.STAMP).write_text(stale)
        cache.restore_gallery(five)
        assert (own / "plot_x.rst").read_text() == "page"
        shutil.rmtree(tmp_path / "five")
    (tmp_path / "three" / "docs" / "auto_examples").mkdir()
    (tmp_path / "three" / "docs" / "auto_examples" / "old.rst").write_text("stale")
    cache.restore_gallery(three)           # nothing kept for three's digest
    assert not (tmp_path / "three" / "docs" / "auto_examples").exists()


def test_the_package_digest_covers_every_file_of_the_package(tmp_path):
    package = tmp_path / "pkg"
    (package / "data").mkdir(parents=True)
    (package / "__init__.py").write_text("x = 1\n")
    (package / "data" / "rules.yaml").write_text("a: 1\n")
    before = cache.package_digest(package)
    assert len(before) == 64 and cache.package_digest() != before
    (package / "__pycache__").mkdir()                  # compiled files are not the package
    (package / "__pycache__" / "x.pyc").write_bytes(b"\0")
    cache.package_digest.cache_clear()
    assert cache.package_digest(package) == before
    (package / "data" / "rules.yaml").write_text("a: 2\n")   # a data file is
    cache.package_digest.cache_clear()
    changed = cache.package_digest(package)
    assert changed != before
    (package / "data" / "rules.yaml").rename(package / "data" / "other.yaml")  # and its name
    cache.package_digest.cache_clear()
    assert cache.package_digest(package) not in {before, changed}
    cache.package_digest.cache_clear()


# -- made ahead: the maker beside the build, and the claims it shares with the pages ---------


class _App:
    """What cache.ahead reads of a Sphinx application: it connects build-finished."""

    def __init__(self):
        self.finished = []

    def connect(self, event, callback):
        assert event == "build-finished"
        self.finished.append(callback)

    def finish(self):
        for callback in self.finished:
            callback(self, None)


def _writer(log, where, name):
    """A shared job: write the file *name* in the cache folder unless it is there, and
    log which process wrote it (a line each, appended whole)."""
    def make():
        if (where / name).is_file():
            return
        with open(log, "a", encoding="utf-8") as out:
            out.write(f"{name} {os.getpid()}\n")
        partial = where / f".{name}.{os.getpid()}.part"
        partial.write_text(name)
        partial.replace(where / name)
    return make


def _ahead(tmp_path, monkeypatch, shared, planned=()):
    """Start a maker for the *shared* and *planned* jobs; the app to finish it with."""
    monkeypatch.setenv("MANCALA_SPEC_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(cache, "PLANNERS", [lambda app: list(planned)] if planned else [])
    monkeypatch.setattr(cache, "SHARED", [lambda app: shared])
    monkeypatch.setattr(cache, "_MAKING", {})
    monkeypatch.setattr(cache, "_CLAIMS", [])
    app = _App()
    cache.ahead(app)
    assert cache._CLAIMS, "no maker was started"
    return app


def test_a_shared_job_is_made_once_by_the_maker_or_the_page(tmp_path, monkeypatch):
    where, log = tmp_path / "cache" / "site", tmp_path / "log"
    names = [f"diagram-{n}" for n in range(12)]
    shared = [(name, _writer(log, where, name)) for name in names]
    app = _ahead(tmp_path, monkeypatch, shared)
    for name, make in shared:                  # the pages, from the first
        assert cache.claimed(name, make)
        assert (where / name).read_text() == name  # whoever made it, it is whole when read
    app.finish()                               # waits for the maker
    lines = log.read_text().split()
    assert sorted(lines[::2]) == sorted(names)     # each made exactly once
    assert not cache._CLAIMS and not list(where.glob(".claims-*"))


def test_a_claim_the_other_process_holds_is_waited_for_and_not_made_again(tmp_path,
                                                                         monkeypatch):
    where, log = tmp_path / "cache" / "site", tmp_path / "log"
    claims = tmp_path / "claims"
    claims.mkdir()
    monkeypatch.setenv("MANCALA_SPEC_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(cache, "_CLAIMS", [claims])
    where.mkdir(parents=True)
    taken_r, taken_w = os.pipe()
    go_r, go_w = os.pipe()
    pid = os.fork()
    if pid == 0:                        # the maker: takes the claim, draws when told
        try:
            def draw():
                os.write(taken_w, b"x")
                os.read(go_r, 1)
                _writer(log, where, "d")()
            cache.claimed("d", draw, wait=False)
        finally:
            os._exit(0)
    os.read(taken_r, 1)                 # the maker holds the claim now
    assert not cache.claimed("d", lambda: None, wait=False)   # not taken, not made
    os.write(go_w, b"x")
    ran = []
    assert cache.claimed("d", lambda: ran.append(1) or _writer(log, where, "d")())
    os.waitpid(pid, 0)
    assert ran == [1] and log.read_text().split() == ["d", str(pid)]   # drawn once, by it


@pytest.mark.parametrize("where_it_dies", ["planned", "shared"])
def test_a_maker_that_dies_costs_time_only(tmp_path, monkeypatch, where_it_dies):
    """The maker dies in a planned value or in its first shared job (the last
    listed): the pages make what it did not, and the build does not hang."""
    where, log = tmp_path / "cache" / "site", tmp_path / "log"
    page = os.getpid()

    def dies(make):
        def job():
            if os.getpid() != page:
                os._exit(3)              # the maker, killed in the middle of its work
            make()
        return job

    shared = [(f"d{n}", _writer(log, where, f"d{n}")) for n in range(3)]
    table = lambda: cache.value("table", lambda: [1, 2])    # noqa: E731
    if where_it_dies == "shared":
        shared[-1] = (shared[-1][0], dies(shared[-1][1]))
    planned = [("table.json", dies(table) if where_it_dies == "planned" else table)]
    app = _ahead(tmp_path, monkeypatch, shared, planned)
    for name, make in shared:
        assert cache.claimed(name, make)
    assert cache.value("table", lambda: [1, 2]) == [1, 2]   # its lock went with the maker
    app.finish()
    assert sorted(log.read_text().split()[::2]) == ["d0", "d1", "d2"]
    assert set(log.read_text().split()[1::2]) == {str(page)}


def _docs_app(tmp_path):
    """What the planners read of a Sphinx application building the project's docs."""
    from pathlib import Path
    from types import SimpleNamespace

    root = Path(__file__).resolve().parent.parent
    return SimpleNamespace(srcdir=str(root / "docs"), confdir=str(root),
                           builder=SimpleNamespace(format="html"),
                           config=SimpleNamespace(sowing_diagram_dpi=144))


def test_the_analysis_figures_are_planned_under_the_names_the_page_reads(tmp_path):
    """The analysis page's figures are drawn ahead (their runs are the tables'), under
    the names the directive looks for."""
    from mancala_spec.sphinx import analysis

    names = [name for name, _ in analysis._plan(_docs_app(tmp_path))]
    for kind in analysis.FIGURES:
        assert analysis._figure_name(kind, 4000, 800, 2026) in names
    assert names.index(analysis._figure_name("laps", 4000, 800, 2026)) > max(
        names.index(name) for name in names if name.startswith("analysis-"))


def test_the_wheel_is_built_ahead_only_when_none_is_kept(tmp_path, monkeypatch):
    import importlib.util
    from pathlib import Path

    monkeypatch.setenv("MANCALA_SPEC_CACHE", str(tmp_path))
    spec = importlib.util.spec_from_file_location(
        "site_conf", Path(__file__).resolve().parent.parent / "conf.py")
    conf = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conf)
    import dev

    app = _docs_app(tmp_path)
    assert conf._wheel_name() in [name for name, _ in conf._plan(app)]
    (tmp_path / "wheels" / dev._package_digest()).mkdir(parents=True)
    assert [name for name, _ in conf._plan(app)] == [conf._values_name()]


def test_while_the_maker_draws_the_pages_with_diagrams_are_read_last(tmp_path, monkeypatch):
    from mancala_spec.sphinx import examples

    app = _docs_app(tmp_path)
    order = ["analysis", "ba-awa", "bakuk", "changelog", "editorial", "index", "sources"]
    docnames = list(order)
    monkeypatch.setattr(cache, "_CLAIMS", [])
    examples.diagrams_last(app, None, docnames)
    assert docnames == order                    # no maker: Sphinx's order
    monkeypatch.setattr(cache, "_CLAIMS", [tmp_path])
    examples.diagrams_last(app, None, docnames)
    assert docnames == ["analysis", "changelog", "index", "sources",
                        "ba-awa", "bakuk", "editorial"]


def test_the_build_keeps_what_is_loaded_out_of_the_collector(monkeypatch):
    """conf.py's settings of the cyclic collector: made before the gallery's scripts
    run and the maker forks (builder-inited), and the whole heap frozen once
    everything else at the end has run (build-finished), so that the interpreter's
    last collection has nothing to scan."""
    import gc
    from types import SimpleNamespace

    import conf

    connected = []
    app = SimpleNamespace(connect=lambda event, handler, priority=500:
                          connected.append((event, handler, priority)))
    monkeypatch.setattr(cache, "plan", lambda *args, **kwargs: None)
    conf.setup(app)
    cache.setup(app)
    first = min(((priority, handler) for event, handler, priority in connected
                 if event == "builder-inited"), key=lambda each: each[0])
    assert first[1] is conf._collect_less and first[0] < 500   # sphinx-gallery's: 500
    last = max(((priority, handler) for event, handler, priority in connected
                if event == "build-finished"), key=lambda each: each[0])
    assert last[1] is conf._exit_without_collecting and last[0] > 500
    before = gc.get_threshold()
    try:
        conf._collect_less(None)
        assert gc.get_threshold() == conf.GC_THRESHOLDS != before
        frozen = gc.get_freeze_count()
        assert frozen > 1000
        made_since = [[] for _ in range(100)]         # tracked, and still alive
        conf._exit_without_collecting(None, None)
        assert gc.get_freeze_count() >= frozen + len(made_since)
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
