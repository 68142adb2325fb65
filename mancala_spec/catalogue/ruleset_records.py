"""Named rulesets as data: other programs' rules, Koumma, and the defaults.

The data is ``rulesets.toml`` beside this module. A ruleset is a set of
*differences* from this reference's defaults; each names the catalogue rule it
departs from, the option value that plays it (or, ``unplayed``, why none does),
and its basis: ``program`` (what another program does: the program, its files
and lines at a recorded commit), ``source`` (a quote says it) or ``reading``
(our inference from quoted words). A program is a secondary source of what that
program does, never of what the game is. Like the rest of the catalogue this
module never imports the engine; :mod:`mancala_spec.rulesets` plays them.

>>> from mancala_spec.catalogue.ruleset_records import load_rulesets
>>> koumma = load_rulesets()["koumma"]
>>> koumma.games, [(d.option, d.value) for d in koumma.differences if d.option]
(('bakuk',), [('first_counter', 'origin'), ('sixes', True)])
>>> mg = load_rulesets()["mancalagames"]
>>> mg.program.name, mg.program.commit[:7], mg.program.licence
('MancalaGames', '2b1c596', 'GPL-3.0')
"""
from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from ..errors import CatalogueError
from . import Citation, load_catalogue, read_citation

#: The bases a difference may have.
BASES = ("program", "source", "reading")

_WHERE = re.compile(r"^[\w./-]+:\d+(-\d+)?$")


@dataclass(frozen=True)
class Follows:
    """What a program says its rules of *game* come from: ``cites`` exactly as its
    file gives it, at ``where`` (``path:line``); ``short`` the same, abbreviated."""

    game: str
    cites: str
    short: str
    where: str


@dataclass(frozen=True)
class Program:
    """Another program, at the commit read (and, if ``run``, run): a secondary source
    of what it does. ``follows`` what it says its rules come from; ``compared`` what
    was compared with this reference."""

    key: str
    name: str
    repository: str
    commit: str
    licence: str
    about: str
    run: bool = False
    compared: str = ""
    follows: tuple[Follows, ...] = ()

    def implements(self, game: str, title: str) -> str:
        """The sentence that says what the program's rules of *game* (named *title*)
        come from, by its own account: never "reads our text".

        >>> print(load_rulesets()["mancalagames"].program.implements("ba-awa", "Ba-awa"))
        ... # doctest: +NORMALIZE_WHITESPACE
        MancalaGames implements Ba-awa after Valdez (2023), p. 150, as its file
        GameProps/Ba-awa.txt (line 36) cites it.
        >>> load_rulesets()["everyboard"].program.implements("ba-awa", "Ba-awa")
        'EveryBoard implements Ba-awa and names no source for its rules.'
        """
        for f in self.follows:
            if f.game == game:
                path, _, line = f.where.partition(":")
                return (f"{self.name} implements {title} after {f.short}, as its file {path} "
                        f"(line {line}) cites it.")
        return f"{self.name} implements {title} and names no source for its rules."

    @property
    def evidence(self) -> str:
        """What was compared, said as proven on the program's own play only if it was run."""
        how = "proven on the program's own play" if self.run else "not run here; compared"
        return f"{self.name}: {how}: {self.compared}."

    @property
    def url(self) -> str:
        """The program's repository on GitHub."""
        return f"https://github.com/{self.repository}"

    def link(self, where: str) -> str:
        """The address of *where* (``path:line`` or ``path:first-last``) at the commit."""
        path, _, lines = where.partition(":")
        first, _, last = lines.partition("-")
        anchor = f"#L{first}" + (f"-L{last}" if last else "")
        return f"{self.url}/blob/{self.commit}/{path}{anchor}"


@dataclass(frozen=True)
class Difference:
    """One way a ruleset departs from this reference's defaults, and its basis."""

    game: str
    rule: str
    basis: str
    text: str
    option: str = ""
    value: Any = None
    where: tuple[str, ...] = ()
    citations: tuple[Citation, ...] = ()
    why: str = ""
    other: str = ""
    unplayed: str = ""
    events: tuple[str, ...] = ()

    @property
    def played(self) -> bool:
        """Whether an option value plays the difference."""
        return bool(self.option)


@dataclass(frozen=True)
class Ruleset:
    """A named ruleset: its games, title, basis and differences."""

    name: str
    title: str
    games: tuple[str, ...]
    basis: str
    program: Program | None = None
    differences: tuple[Difference, ...] = ()

    def values(self, game: str) -> dict[str, Any]:
        """The option values (options and match settings) that play the ruleset
        in *game*, by name."""
        return {d.option: d.value for d in self.differences if d.game == game and d.option}


def _clean(text: str) -> str:
    return " ".join(text.split())


def _difference(data: dict[str, Any], where_from: str, citations: tuple[Citation, ...],
                program: Program | None) -> Difference:
    catalogue = load_catalogue()
    cites = data.get("cites", [])
    if any(not 1 <= n <= len(citations) for n in cites):
        raise CatalogueError(f"{where_from}: cites a citation the ruleset does not have")
    diff = Difference(
        game=data["game"], rule=data["rule"], basis=data["basis"], text=_clean(data["text"]),
        option=data.get("option", ""), value=data.get("value"),
        where=tuple(data.get("where", ())),
        citations=tuple(citations[n - 1] for n in cites),
        why=_clean(data.get("why", "")), other=_clean(data.get("other", "")),
        unplayed=_clean(data.get("unplayed", "")), events=tuple(data.get("events", ())))
    if diff.basis not in BASES:
        raise CatalogueError(f"{where_from}: basis must be one of {BASES}, not {diff.basis!r}")
    if diff.rule not in catalogue or catalogue[diff.rule].game != diff.game:
        raise CatalogueError(f"{where_from}: no {diff.game} rule {diff.rule!r}")
    if diff.basis == "program":
        if program is None or not diff.where:
            raise CatalogueError(f"{where_from}: a program's difference names the program "
                                 "and the files and lines it was read in (where)")
        bad = [w for w in diff.where if not _WHERE.match(w)]
        if bad:
            raise CatalogueError(f"{where_from}: write where as path:line or "
                                 f"path:first-last, not {bad}")
    elif not diff.citations:
        raise CatalogueError(f"{where_from}: a {diff.basis} difference cites its quotes")
    if diff.basis == "reading" and not (diff.why and diff.other):
        raise CatalogueError(f"{where_from}: a reading says why and the other reading")
    if bool(diff.option) == bool(diff.unplayed):
        raise CatalogueError(f"{where_from}: a difference has an option value that plays "
                             "it, or says why none does (unplayed), not both")
    if diff.option:
        rule = catalogue[diff.rule]
        offered = {(a.option, repr(a.value))
                   for a in rule.alternatives + rule.forms + rule.variants}
        if (diff.option, repr(diff.value)) not in offered:
            raise CatalogueError(f"{where_from}: {diff.rule} offers no "
                                 f"{diff.option}={diff.value!r}")
    return diff


@cache
def load_rulesets() -> dict[str, Ruleset]:
    """Read and check ``rulesets.toml``, by ruleset name (cached)."""
    raw = tomllib.loads(resources.files(__package__).joinpath("rulesets.toml")
                        .read_text(encoding="utf-8"))
    programs = {p["key"]: _program(p) for p in raw.get("program", ())}
    out: dict[str, Ruleset] = {}
    for data in raw.get("ruleset", ()):
        name = data["name"]
        if name in out:
            raise CatalogueError(f"ruleset {name!r} is defined twice")
        key = data.get("program", "")
        if key and key not in programs:
            raise CatalogueError(f"ruleset {name}: unknown program {key!r}")
        program = programs.get(key)
        citations = tuple(read_citation(c, f"ruleset {name}") for c in data.get("citation", ()))
        diffs = tuple(_difference(d, f"ruleset {name}, difference {n}", citations, program)
                      for n, d in enumerate(data.get("difference", ()), start=1))
        games = tuple(data["games"])
        strays = [d.rule for d in diffs if d.game not in games]
        if strays:
            raise CatalogueError(f"ruleset {name}: differences for games it has not: {strays}")
        used = {id(c) for d in diffs for c in d.citations}
        if any(id(c) not in used for c in citations):
            raise CatalogueError(f"ruleset {name}: a quote no difference rests on")
        for game in games:
            options = [d.option for d in diffs if d.game == game and d.option]
            if len(options) != len(set(options)):
                raise CatalogueError(f"ruleset {name}: an option is set twice for {game}")
        out[name] = Ruleset(name, data["title"], games, _clean(data["basis"]), program, diffs)
    return out


def _program(p: dict[str, Any]) -> Program:
    follows = tuple(Follows(f["game"], f["cites"], f["short"], f["where"])
                    for f in p.get("follows", ()))
    for f in follows:
        if not _WHERE.match(f.where):
            raise CatalogueError(f"program {p['key']}: follows names no file and line: {f.where!r}")
        year = re.search(r"\b(1[89]|20)\d\d\b", f.short)
        if not year or year.group(0) not in f.cites:
            raise CatalogueError(f"program {p['key']}: {f.short!r} gives a year its citation "
                                 "does not")
    if not p.get("compared"):
        raise CatalogueError(f"program {p['key']}: say what was compared")
    return Program(p["key"], p["name"], p["repository"], p["commit"], p["licence"],
                   _clean(p["about"]), bool(p["run"]), _clean(p["compared"]), follows)


def programs() -> dict[str, Program]:
    """The other programs the rulesets cite, by key."""
    return {r.program.key: r.program for r in load_rulesets().values() if r.program}


__all__ = ["BASES", "Difference", "Follows", "Program", "Ruleset", "load_rulesets", "programs"]
