"""Where each figure the reader meets comes from (issue 43, item 1).

A *figure* is a number with a unit of time, memory, count of positions, ratio or
share (``274 s``, ``7.0 GiB``, ``25,000,000 positions``, ``10x``, ``61 %``). Each
one found in the built site's text, the README, the changelogs, the docs' Markdown,
the Play page's scripts and ``mancala-spec``'s help must trace to one of:

- a **record**: a field of a quoted run saved with its command and date
  (``ba_awa_run.json``, ``ba_awa_variants.json``, written by
  ``python benchmarks/bench_solve_ba_awa.py --json``), read now, so a figure typed
  beside it that the record no longer gives fails;
- a **constant** of the code (a limit, a default, a size), read from the code;
- a **quoted table** (``% quoted: NAME`` on a page) that a named test holds to the
  engine, or a share rounded from such a table on the same page;
- **history**: a measurement whose sentence gives its date;
- **computed** at build: a figure in the built text that no file of the
  repository types (directive output, substitutions from records and constants).

Whatever traces to none of them is *untraced*. :func:`trace` says which, and why.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

UNITS = {   # unit: (kind, its size in the kind's base unit)
    "CPU-s": ("time", 1), "seconds": ("time", 1), "s": ("time", 1), "ms": ("time", 1e-3),
    "GiB": ("bytes", 2**30), "MiB": ("bytes", 2**20), "KiB": ("bytes", 2**10),
    "GB": ("bytes", 1e9), "MB": ("bytes", 1e6), "kB": ("bytes", 1e3),
    "positions": ("positions", 1), "×": ("times", 1), "x": ("times", 1), "%": ("percent", 1),
}
NUMBER = r"\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?"
FIGURE = re.compile(
    rf"(?<![\w.,/+#-])(?P<number>{NUMBER})(?: (?P<scale>million|thousand))?"
    r"(?:(?P<spaced> )(?P<word>CPU-s|GiB|MiB|KiB|GB|MB|kB|ms|seconds|s|positions|×|%)"
    r"|(?P<tight>CPU-s|GiB|MiB|KiB|GB|MB|kB|×|x|%))(?![\w-])(?! ?\d)")
MONTHS = ("January|February|March|April|May|June|July|August|September|October|"
          "November|December")
DATE = re.compile(rf"\b\d{{1,2}} (?:{MONTHS}) \d{{4}}\b|\b\d{{4}}-\d\d-\d\d\b")
SENTENCE_END = re.compile(r"(?<=[.;!?])\s+(?=[A-Z(`*])|\n\s*\n|\n(?=\s*(?:[-*] |\|))")


@dataclass(frozen=True)
class Figure:
    text: str          # as written: "7.0 GiB"
    kind: str          # time, bytes, positions, times, percent
    value: float       # in the kind's base unit
    decimals: int      # as written, in its own unit
    unit_size: float
    sentence: str
    context: str       # the figure with the two words before it, without markup


def figures(text: str) -> Iterator[Figure]:
    """Every figure in *text*, with the sentence it is in."""
    starts = [0] + [m.end() for m in SENTENCE_END.finditer(text)] + [len(text)]
    for match in FIGURE.finditer(text):
        unit = match.group("word") or match.group("tight")
        kind, size = UNITS[unit]
        number = match.group("number")
        scale = {"million": 1e6, "thousand": 1e3}.get(match.group("scale") or "", 1)
        decimals = len(number.partition(".")[2])
        value = float(number.replace(",", "")) * scale * size
        begin = max(s for s in starts if s <= match.start())
        end = min(s for s in starts if s > match.start())
        written = " ".join(match.group(0).split())
        before = _plain(text[max(0, match.start() - 60):match.start()]).split(" ")[-2:]
        yield Figure(written, kind, value, decimals, size * scale,
                     " ".join(text[begin:end].split()), " ".join([*before, written]).strip())


def _agrees(figure: Figure, value: float) -> bool:
    """Whether *value* (in the base unit), written in the figure's unit and to its
    decimals, is the figure."""
    return round(value / figure.unit_size, figure.decimals) == round(
        figure.value / figure.unit_size, figure.decimals)


# -- what figures trace to --------------------------------------------------------------

#: (kind, value, where, what the sentence must speak of for the figure to be this value)
Known = tuple[str, float, str, str]


def record_values(variants: bool = False) -> list[Known]:
    """The fields of the quoted run of the opening a page may state in prose (its
    tables are quoted tables), or with *variants* those of the other option sets
    (which only the Ba-awa page's readings table, computed from them, shows)."""
    from mancala_spec.solve.ba_awa_quoted import (
        QUOTED_RUN,
        QUOTED_VARIANTS,
        quoted_run,
        quoted_variants,
    )

    runs = [(f"{QUOTED_VARIANTS} [{' '.join(run.get('options') or []) or i}]", run)
            for i, run in enumerate(quoted_variants())] if variants else [
        (QUOTED_RUN, quoted_run())]
    out = []
    for name, run in runs:
        out += [
            ("time", run["wall_seconds"], f"{name} wall_seconds", r"wall-clock"),
            ("time", run["cpu_seconds"], f"{name} cpu_seconds", r"\bCPU\b"),
            ("bytes", run["peak_bytes"], f"{name} peak_bytes", r"memory|peak"),
            ("positions", run["positions"], f"{name} positions", r"positions"),
        ]
    return out


def constant_values() -> list[Known]:
    """The limits, defaults and sizes of the code a page states, read from the code."""
    import inspect

    from mancala_spec.analysis.cli import FULL
    from mancala_spec.analysis.common import Z95
    from mancala_spec.cli import arguments, conformance
    from mancala_spec.cli.solve import MAX_SOLVE_POSITIONS
    from mancala_spec.conformance import process, runner, supervisor
    from mancala_spec.fast import search
    from mancala_spec.solve import MAX_SOLVE_BYTES
    from mancala_spec.solve.ba_awa_levels import WORKER_LEAST
    from mancala_spec.solved_ba_awa import SEARCH_NODES, SHARD_POSITIONS

    timeout = inspect.signature(runner.run).parameters["timeout"].default
    confidence = round(100 * (1 - 2 * (1 - _normal_cdf(Z95))))
    out = [
        ("positions", MAX_SOLVE_POSITIONS, "cli.solve.MAX_SOLVE_POSITIONS", r"solve|refuses"),
        ("positions", SHARD_POSITIONS, "solved_ba_awa.SHARD_POSITIONS", r"shard"),
        ("positions", SEARCH_NODES, "solved_ba_awa.SEARCH_NODES", r"search"),
        ("positions", search.PAGE_NODES, "fast.search.PAGE_NODES", r"strong player"),
        ("positions", 2 * WORKER_LEAST, "2 x solve.ba_awa_levels.WORKER_LEAST", r"round"),
        ("positions", FULL["budget"], "analysis.cli.FULL['budget']", r"search|undecided"),
        ("bytes", MAX_SOLVE_BYTES, "solve.MAX_SOLVE_BYTES", r"MAX_SOLVE_BYTES"),
        ("bytes", arguments.MAX_RECORD_BYTES, "cli.arguments.MAX_RECORD_BYTES",
         r"replay|game record"),
        ("bytes", arguments.MAX_SUITE_BYTES, "cli.arguments.MAX_SUITE_BYTES", r"suite file"),
        ("bytes", arguments.MAX_LINE_BYTES, "cli.arguments.MAX_LINE_BYTES", r"line typed"),
        ("bytes", conformance.MAX_PAGE_BYTES, "cli.conformance.MAX_PAGE_BYTES", r"--docs"),
        ("bytes", process.MAX_ANSWER_BYTES, "conformance.process.MAX_ANSWER_BYTES",
         r"answer"),
        ("time", timeout, "conformance.runner.run(timeout=)", r"time limit|timeout"),
        ("time", search.PAGE_SECONDS, "fast.search.PAGE_SECONDS", r"strong player"),
        ("time", supervisor.CLEANUP_SECONDS, "conformance.supervisor.CLEANUP_SECONDS",
         r"reaps"),
        ("percent", confidence, "analysis.common.Z95 (a two-sided interval)",
         r"Wilson|interval"),
    ]
    targets = (ROOT / "benchmarks" / "bench_mancalagames.py").read_text("utf-8")
    out += [("times", float(t), "benchmarks/bench_mancalagames.py's targets", r"target")
            for t in sorted(set(re.findall(r"at least (\d+)x", targets)))]
    return out


def _normal_cdf(z: float) -> float:
    import math
    return 0.5 * (1 + math.erf(z / math.sqrt(2)))


QUOTED = re.compile(r"^% quoted: (?P<name>[\w-]+)\s*$", re.M)


def quoted_tables(markdown: str) -> dict[str, str]:
    """The ``% quoted: NAME`` tables of a page: name -> the table's text."""
    out = {}
    for match in QUOTED.finditer(markdown):
        rows = []
        for line in markdown[match.end():].lstrip("\n").splitlines():
            if not line.startswith("|"):
                break
            rows.append(line)
        out[match.group("name")] = "\n".join(rows)
    return out


def _numbers(text: str) -> list[float]:
    return [float(n.replace(",", "")) for n in re.findall(NUMBER, text)]


def quoted_guards() -> dict[str, str]:
    """Each quoted table's name -> the test module that holds it to the engine."""
    guards: dict[str, str] = {}
    for path in sorted((ROOT / "tests").rglob("test_*.py")):
        text = path.read_text("utf-8")
        for name in re.findall(r"quoted(?:_table)?\(\s*(?:\"[\w.-]+\",\s*)?\"([\w-]+)\"",
                               text):
            guards.setdefault(name, path.relative_to(ROOT).as_posix())
        for name in re.findall(r"% quoted: ([\w-]+)", text):
            guards.setdefault(name, path.relative_to(ROOT).as_posix())
    return guards


@dataclass
class Tracer:
    records: list[Known]
    constants: list[Known]
    guards: dict[str, str]
    variants: list[Known]

    @classmethod
    def now(cls) -> Tracer:
        return cls(record_values(), constant_values(), quoted_guards(), record_values(True))

    def trace(self, figure: Figure, markdown: str = "", typed: bool = True) -> str | None:
        """Where *figure* comes from, or ``None`` (untraced). *markdown* is the
        page it is on (for its quoted tables); *typed* says whether some file of the
        repository types it (else the build computed it)."""
        for known, what in ((self.records, "record"), (self.constants, "constant")):
            for kind, value, where, about in known:
                if kind == figure.kind and _agrees(figure, value) and re.search(
                        about, figure.sentence):
                    return f"{what}: {where}"
        if not typed:
            for kind, value, where, about in self.variants:
                if kind == figure.kind and _agrees(figure, value) and re.search(
                        about, figure.sentence):
                    return f"computed at build from the record: {where}"
            return "computed at build (no file types it)"
        tables = quoted_tables(markdown)
        for name, table in tables.items():
            if name in self.guards and figure.sentence and figure.sentence in " ".join(
                    table.split()):
                return f"quoted table {name!r}, held by {self.guards[name]}"
        plain = _plain(markdown)
        at = plain.find(figure.context)
        before = {name: plain.rfind(_plain(table.splitlines()[-1]), 0, at if at >= 0 else None)
                  for name, table in tables.items() if table}
        rounded = sorted(                        # a share or a count, rounded in prose:
            (-before.get(name, -1), abs(number - figure.value), name)   # the nearest table
            for name, table in tables.items()
            if name in self.guards and figure.kind in ("percent", "positions")
            for number in _numbers(table) if _agrees(figure, number))
        if rounded:
            name = rounded[0][2]
            return f"rounded from quoted table {name!r} ({self.guards[name]})"
        if figure.kind == "percent":
            counts = _numbers(figure.sentence)
            if any(_agrees(figure, 100 * a / b) for a in counts for b in counts if b > a > 0):
                return "the share of two counts in its own sentence"
        if DATE.search(figure.sentence):
            return f"history, dated {DATE.search(figure.sentence).group(0)}"
        return None


def _plain(text: str) -> str:
    """*text* without Markdown's marks (links' targets, backticks, emphasis) and with
    its spaces collapsed, so typed and built text compare."""
    text = re.sub(r"\]\([^)]*\)", "", text)
    return " ".join(re.sub(r"[`*\[\]{}]", "", text).split())


def untraced(texts: dict[str, tuple[str, str]], tracer: Tracer,
             typed: Iterable[str] = ()) -> tuple[list[str], list[str]]:
    """(untraced figures, traced ones with their trace) in *texts*: where -> (text,
    the Markdown page it is on). A figure that no file of *typed* (the repository's
    text) holds with the two words before it is computed by the build."""
    corpus = "\n".join(_plain(t) for t in typed)
    bad, good = [], []
    for where, (text, markdown) in texts.items():
        for figure in figures(text):
            is_typed = not typed or figure.context in corpus
            why = tracer.trace(figure, markdown, is_typed)
            line = f"{where}: {figure.text!r} in {figure.sentence[:160]!r}"
            (good if why else bad).append(f"{line} -> {why}" if why else line)
    return bad, good
