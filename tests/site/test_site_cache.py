"""The cache that outlives a build (mancala_spec.sphinx.cache): a file or value
made once is taken from it the next time, and without MANCALA_SPEC_CACHE
nothing is kept."""
from __future__ import annotations

import shutil

import pytest

from mancala_spec.sphinx import cache


def test_files_and_values_are_kept_and_restored(tmp_path, monkeypatch):
    monkeypatch.setenv("MANCALA_SPEC_CACHE", str(tmp_path / "cache"))
    drawn = tmp_path / "build1" / "figure-0123abcd.png"
    cache.file(drawn, lambda path: path.write_bytes(b"picture"))
    assert drawn.read_bytes() == b"picture"
    again = tmp_path / "build2" / "figure-0123abcd.png"
    cache.file(again, lambda path: pytest.fail("drawn again"))
    assert again.read_bytes() == b"picture"
    named = tmp_path / "build3" / "values.bin"         # kept under a name of its own
    cache.file(named, lambda path: path.write_bytes(b"v1"), "values-1.bin")
    cache.file(tmp_path / "build4" / "values.bin", lambda path: pytest.fail("made again"),
               "values-1.bin")
    assert (tmp_path / "build4" / "values.bin").read_bytes() == b"v1"
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
    for _ in range(2):
        cache.file(tmp_path / "x.png", lambda path: calls.append(2) or path.write_bytes(b"x"))
    assert calls == [1, 1, 2, 2]


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


def test_the_build_keeps_what_is_loaded_out_of_the_collector(monkeypatch):
    """conf.py's settings of the cyclic collector: made before the gallery's scripts
    run (builder-inited), and the whole heap frozen once
    everything else at the end has run (build-finished), so that the interpreter's
    last collection has nothing to scan."""
    import gc
    from types import SimpleNamespace

    import conf

    connected = []
    app = SimpleNamespace(connect=lambda event, handler, priority=500:
                          connected.append((event, handler, priority)),
                          add_post_transform=lambda transform: None)
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
