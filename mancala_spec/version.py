"""The version of mancala_spec: the one place it is written, in a module that
imports nothing of the package and nothing at its top (the catalogue, the citations,
pyproject.toml and the benchmarks read it without the engine; only an installed
package's metadata is read, with the standard library, when no checkout is there).

Between releases the version is a development version, :data:`BASE` (PEP 440
``.devN``), and what a build cites names the commit it was built from as a
local label: ``0.3.0.dev0+g1a2b3c4d5e6f``. A citation of a development build
therefore points at one tree, not at the release before it or the one after.
When a release is made, :data:`BASE` becomes its number and :data:`RELEASED`
its date; the version is then :data:`BASE` alone.

Where the commit comes from: a git checkout's ``HEAD`` (read as files, no git
program needed); in an unpacked sdist, its ``PKG-INFO`` (written when the sdist
was made from a checkout); in an installed package, the version its metadata
records (pip wrote it when it built the wheel from a checkout or an sdist). A
development build from none of these says ``+unknown``.

>>> BASE.endswith(".dev0") or RELEASED is not None
True
"""

#: The version being worked on: a development version (``X.Y.Z.devN``) between
#: releases, the release's number at a release.
BASE = "0.3.0.dev0"
#: The date of the release :data:`BASE` names (YYYY-MM-DD); ``None`` between releases.
RELEASED: str | None = None
#: The last release and its date: what CITATION.cff describes and the changelog's
#: newest dated section names (tests/catalogue/test_version.py holds them together).
LAST_RELEASE = ("0.2.0", "2026-12-01")

_HERE = __file__.rpartition("/")[0]          # mancala_spec/
_ROOT = _HERE.rpartition("/")[0]             # the checkout, the sdist or site-packages


def _read(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8") as file:
            return file.read()
    except (OSError, UnicodeDecodeError):
        return None


def git_commit(root: str = _ROOT) -> str | None:
    """The full hash of the commit checked out at *root* (a ``.git`` folder, or a
    worktree's ``.git`` file), read from git's files; ``None`` if *root* is no
    checkout or its HEAD cannot be read."""
    dot_git = root + "/.git"
    pointer = _read(dot_git)                 # a worktree or submodule: "gitdir: PATH"
    if pointer is not None and pointer.startswith("gitdir:"):
        git_dir = pointer[len("gitdir:"):].strip()
        if not git_dir.startswith("/"):
            git_dir = root + "/" + git_dir
    elif _read(dot_git + "/HEAD") is not None:
        git_dir = dot_git
    else:
        return None
    head = (_read(git_dir + "/HEAD") or "").strip()
    if not head.startswith("ref:"):
        return head if _is_hash(head) else None
    ref = head[len("ref:"):].strip()
    common = (_read(git_dir + "/commondir") or "").strip()
    dirs = [git_dir]
    if common:
        dirs.append(common if common.startswith("/") else git_dir + "/" + common)
    for folder in dirs:
        loose = (_read(folder + "/" + ref) or "").strip()
        if _is_hash(loose):
            return loose
        for line in (_read(folder + "/packed-refs") or "").splitlines():
            sha, _, name = line.partition(" ")
            if name.strip() == ref and _is_hash(sha):
                return sha
    return None


def _is_hash(text: str) -> bool:
    return len(text) in (40, 64) and all(ch in "0123456789abcdef" for ch in text)


def _sdist_version(root: str = _ROOT) -> str | None:
    """The version an unpacked sdist's ``PKG-INFO`` records (``None`` elsewhere)."""
    for line in (_read(root + "/PKG-INFO") or "").splitlines():
        if line.startswith("Version:"):
            return line[len("Version:"):].strip()
        if not line.strip():
            break
    return None


def _installed_version() -> str | None:
    """The version the installed package's metadata records."""
    try:
        from importlib.metadata import PackageNotFoundError, version
    except ImportError:              # pragma: no cover - the standard library has it
        return None
    try:
        return version("mancala-spec")
    except PackageNotFoundError:
        return None


def described(base: str = BASE, released: str | None = RELEASED, root: str = _ROOT) -> str:
    """The version as a build cites it: *base* at a release; between releases
    *base* with the commit as a local label (``+g`` and its first 12 hex digits)
    or ``+unknown`` when nothing says which commit it is.

    >>> described("1.0", "2027-01-01")
    '1.0'
    >>> described("1.1.dev0", None, root="/nonexistent")
    '1.1.dev0+unknown'
    """
    if released is not None:
        return base
    commit = git_commit(root)
    if commit:
        return f"{base}+g{commit[:12]}"
    for found in (_sdist_version(root), _installed_version()):
        if found and found.startswith(base + "+"):
            return found
    return f"{base}+unknown"


#: The version this build is, as every citation, page and quoted run names it.
__version__ = described()

__all__ = ["BASE", "LAST_RELEASE", "RELEASED", "__version__", "described", "git_commit"]
