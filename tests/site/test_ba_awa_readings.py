"""The ``{ba-awa-readings}`` directive (mancala_spec.sphinx.ba_awa_readings): the
table of Ba-awa's value under each option set and ruleset is the quoted runs'
and the solver's reasons, row for row, and the page shows it. (The runs
themselves are re-derived in tests/kernel/test_solve_ba_awa.py.)"""
from __future__ import annotations

from pathlib import Path

from docutils import nodes

from mancala_spec.solve.ba_awa_readings import readings
from mancala_spec.sphinx.ba_awa_readings import HEADER, LETTERS, rows, signed

DOCS = Path(__file__).resolve().parents[2] / "docs"


def text(cell: list[nodes.Node]) -> str:
    return "".join(node.astext() for node in cell)


def test_each_row_is_its_reading():
    table, found = rows(), readings()
    assert len(table) == len(found) and all(len(row) == len(HEADER) for row in table)
    for row, reading in zip(table, found):
        options, meaning, value, positions, run = row
        for name, chosen in reading.options.items():
            assert f"{name}={str(chosen).lower() if isinstance(chosen, bool) else chosen}" \
                in text(options)
        assert meaning and text(meaning)[0].isupper()
        if reading.run is None:
            assert text(value) == f"Not solved: {reading.why}."
            assert text(positions) == "none enumerated" and text(run) == "none"
            continue
        moves = {int(p): v for p, v in reading.run["moves"].items()}
        best = max(moves.values())
        assert text(value).startswith(f"{signed(reading.run['value'])}: " + ", ".join(
            f"{LETTERS[p]} {signed(moves[p])}" for p in sorted(moves)))
        bold = [node.astext() for node in value if isinstance(node, nodes.strong)]
        assert bold == [signed(reading.run["value"])] + [
            f"{LETTERS[p]} {signed(moves[p])}" for p in sorted(moves) if moves[p] == best]
        steps = reading.run.get("pass_steps")
        assert text(positions) == (
            f"{reading.run['positions']:,} (with the pass steps: this run did not count "
            "them apart)" if steps is None else
            f"{reading.run['positions'] - steps:,}, and {steps:,} pass steps")
        assert reading.run["date"] in text(run) and reading.run["version"] in text(run)
        assert f"{reading.run['peak_bytes'] / 2**30:.1f} GiB" in text(run)


def test_margins_are_written_as_on_the_page():
    assert [signed(m) for m in (8, 0, -8)] == ["+8", "0", "-8"]


def test_the_page_shows_the_table():
    page = (DOCS / "ba-awa.md").read_text(encoding="utf-8")
    assert "```{ba-awa-readings}\n```" in page
