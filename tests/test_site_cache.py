"""The cache that outlives a build (mancala_spec.sphinx.cache): a file or value
made once is taken from it the next time, and without MANCALA_SPEC_CACHE
nothing is kept."""
from __future__ import annotations

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
