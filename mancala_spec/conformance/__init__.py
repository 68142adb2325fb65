"""A conformance suite any engine can run, built from the rules site's examples.

Every worked example on the rules pages is data: an ``{example} <example-id>``
block inside the ``{rule} <rule-id>`` block it illustrates, stating the game, its
options, the position (in our notation), the move and what the engine must
answer (:mod:`mancala_spec.conformance.worked_examples`). The one extractor,
:func:`~mancala_spec.conformance.worked_examples.extract_examples`, reads them from the
Markdown pages; nothing interprets code. From the same data come
the doctest each page shows (run by ``sphinx -b doctest`` and by pytest), its
diagrams, and here, with :func:`build_suite`, the exported cases, whose expected
answers the reference engine computes (the examples' stated answers check the
engine first: :func:`~mancala_spec.conformance.example_check.check`).

The export (:func:`build_suite`) is a versioned JSON document described by
``schema.json`` beside this module; :mod:`.runner` runs it against any engine
speaking :mod:`.protocol`.
"""
from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

from ..engine.games import get_game
from ..errors import SuiteError, shown
from ..version import BASE
from .example_check import case_pit, case_position, check
from .protocol import PROTOCOL, answer, position_fields
from .worked_examples import Case, Example, ExampleError, extract_examples

__all__ = ["Case", "Example", "ExampleError", "RULESET_PAGE", "Supplement", "SUPPLEMENTS",
           "build_suite", "derived", "extract_examples", "packaged_suite", "ruleset_cases",
           "schema", "suite_text", "supplementary_cases"]

SUITE_FORMAT = "mancala-spec-conformance-suite"
SUITE_VERSION = 1


def _case(case_id: str, rule: str, where: str, pos, pit: int | None,
          match=None, ruleset: str = "mancala_spec") -> dict[str, Any]:
    """One exported case: *pos* and move *pit* (``None``: the position only),
    played under *ruleset* (the options of *pos*'s game hold its values),
    with the reference engine's answer as what is expected."""
    game = pos.game
    request = {"id": case_id, "game": game.name, "ruleset": ruleset,
               "options": dict(game.options), "position": position_fields(pos), "move": pit}
    if match is not None:
        request["match"] = match
    expected = answer(request)
    expected.pop("id")
    if "result" in expected:
        expected["result"]["text"] = pos.play(pit).to_text()
    return {
        "id": case_id, "rule": rule, "game": game.name, "ruleset": ruleset,
        "options": dict(game.options),
        "where": where,
        "position": {"text": pos.to_text(), "fields": position_fields(pos)},
        "move": None if pit is None else {"pit": pit, "name": game.board.name(pit)},
        **({"match": match} if match is not None else {}),
        "expected": expected,
    }


def derived(pos, pit: int | None) -> list[tuple[str, Any, int | None]]:
    """The two cases derived from an example's case, as (suffix, position, move):

    - ``~position``: the example's position asked about without a move (its legal
      moves, whether it is over and who won), or, when the example only shows
      a position, its first and last legal moves played (``~first``, ``~last``;
      for a finished position, the same board with the next player to move,
      ``~turned`` and ``~turned-position``);
    - ``~after``: what follows the example's move: the next player's first
      legal move from the resulting position, or, when the game is over there,
      that final position asked about (no legal moves, the winner).

    An example of an illegal move gives ``~position`` and ``~first`` (its
    first legal move). All are computed by the reference engine, like every
    expected answer."""
    out: list[tuple[str, Any, int | None]] = []
    moves = [] if pos.is_over else pos.legal_moves()
    if pit is not None and pit not in moves:      # an example of an illegal move
        out.append(("~position", pos, None))
        if moves:
            out.append(("~first", pos, moves[0]))
        return out
    if pit is None:
        if not moves:
            return _turned(pos)
        out.append(("~first", pos, moves[0]))
        if len(moves) > 1:
            out.append(("~last", pos, moves[-1]))
        return out
    out.append(("~position", pos, None))
    after = pos.play(pit)
    moves = [] if after.is_over else after.legal_moves()
    out.append(("~after", after, moves[0]) if moves else ("~after", after, None))
    return out


def _turned(pos) -> list[tuple[str, Any, int | None]]:
    """For a finished position shown without a move: the same board with the
    next player to move: its first legal move (``~turned``) and the position
    itself (``~turned-position``)."""
    game = pos.game
    try:
        turned = game.position(pos.pits, to_move=(pos.to_move + 1) % len(pos.captured),
                               captured=pos.captured, opener=pos.opener, owners=pos.owners)
    except ValueError:
        return []
    moves = [] if turned.is_over else turned.legal_moves()
    out = [("~turned", turned, moves[0] if moves else None)]
    if moves:
        out.append(("~turned-position", turned, None))
    return out


@dataclass(frozen=True)
class Supplement:
    """A case added where the rules pages' examples catch a plausible mistake
    only once: its rule, game, options, position and move, and why it is here.
    Its expected answer is the reference engine's, like every case's."""

    id: str
    rule: str
    game: str
    options: tuple[tuple[str, Any], ...]
    position: str
    move: str | None
    why: str


#: The supplementary cases (see :class:`Supplement`), each with the mistake it catches.
SUPPLEMENTS = (
    Supplement("bakuk-capture-six-1", "bakuk-capture", "bakuk", (), "1,5,6/6,6,6 S 2-4 opener=S",
               "a", "the last counter makes six in b: six is not two or four, nothing is "
               "taken (an engine that also takes sixes, as Koumma does, fails)"),
    Supplement("bakuk-capture-six-2", "bakuk-capture", "bakuk", (), "6,6,6/1,5,6 N 2-4 opener=S",
               "A", "the last counter makes six in B; again nothing is taken"),
    Supplement("bakuk-origin-3", "bakuk-origin", "bakuk", (("skip_origin", True),),
               "0,0,9/6,6,7 S 2-6 opener=S", "c",
               "nine counters from c pass over c itself on their second lap"),
)


def supplementary_cases() -> list[dict[str, Any]]:
    """The exported cases of :data:`SUPPLEMENTS`."""
    cases = []
    for extra in SUPPLEMENTS:
        game = get_game(extra.game, **dict(extra.options))
        pos = game.parse(extra.position)
        pit = None if extra.move is None else game.board.pit(extra.move)
        case = _case(extra.id, extra.rule, "mancala_spec/conformance/__init__.py:SUPPLEMENTS",
                     pos, pit)
        cases.append(case)
    return cases


#: where the ruleset cases' positions are drawn, with the differences they show
RULESET_PAGE = "readings-compared.html"


def ruleset_cases() -> list[dict[str, Any]]:
    """A case for each difference of each named ruleset that an option plays:
    the smallest position where it changes a move's result
    (``mancala_spec.analysis.readings.smallest_change``; for a match setting,
    where it changes the match, ``smallest_match_change``, played as a match
    case; the position the readings page draws), played under the whole ruleset; the
    same position under this reference (``~mancala_spec``), so the two
    answers stand side by side; and the cases :func:`derived` from it. Each
    case names its ruleset; its ID is ``<ruleset>-<rule>-<n>``."""
    from ..analysis.readings import Change, MatchChange, smallest_change, smallest_match_change
    from ..options import match_settings
    from ..rulesets import match_settings as ruleset_settings
    from ..rulesets import rulesets

    cases = []
    for game_name in ("ba-awa", "bakuk"):
        settings = {o.name for o in match_settings(game_name)}
        for ruleset in rulesets(game_name):
            counts: dict[str, int] = {}
            for diff in ruleset.differences:
                if diff.game != game_name or not diff.option:
                    continue
                match = reference_match = None
                change: Change | MatchChange | None
                if diff.option in settings:
                    change = smallest_match_change(diff.option, diff.value)
                    reference_match = {o.name: o.default
                                       for o in sorted(match_settings(game_name),
                                                       key=lambda o: o.name)}
                    match = {**reference_match, **ruleset_settings(game_name, ruleset.name)}
                else:
                    change = smallest_change(game_name, diff.option, diff.value)
                if change is None:
                    continue
                counts[diff.rule] = counts.get(diff.rule, 0) + 1
                case_id = f"{ruleset.name}-{diff.rule}-{counts[diff.rule]}"
                text = change.position.to_text()
                pos = get_game(game_name, ruleset=ruleset.name).parse(text)
                cases.append(_case(case_id, diff.rule, RULESET_PAGE, pos, change.move,
                                   match, ruleset=ruleset.name))
                cases.append(_case(case_id + "~mancala_spec", diff.rule, RULESET_PAGE,
                                   get_game(game_name).parse(text), change.move,
                                   reference_match))
                for suffix, other, move in derived(pos, change.move):
                    cases.append(_case(case_id + suffix, diff.rule, RULESET_PAGE, other, move,
                                       ruleset=ruleset.name))
    return cases


def build_suite(examples: list[Example]) -> dict[str, Any]:
    """The exportable suite: one case per thing an example plays, each followed
    by the cases :func:`derived` from it, with the reference engine's answers
    as the expected values. An example whose stated answers the engine does not
    give is an :class:`ExampleError`: nothing is exported from a wrong example."""
    if isinstance(examples, (str, bytes)) or not isinstance(examples, Sequence) \
            or not all(isinstance(example, Example) for example in examples):
        raise ExampleError(f"build_suite takes the examples extract_examples reads, not "
                           f"{shown(examples)}")
    cases = []
    for example in examples:
        problems = check(example)
        if problems:
            more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
            raise ExampleError(problems[0] + more, where=f"{example.page}:{example.line}")
        # the example's anchor on the built site: stable while the pages are edited
        where = f"{example.page.removesuffix('.md')}.html#example-{example.id}"
        for case_id, case in zip(example.case_ids(), example.cases):
            pos = case_position(case)
            game = pos.game
            pit = case_pit(case, game)
            match = None
            if case.match is not None:
                from ..engine.games.ba_awa import BaAwa
                from ..engine.games.match import Match

                if not isinstance(game, BaAwa):
                    raise ExampleError(f"a match is Ba-awa's, not {case.game}'s",
                                       example.id, where)
                settings = Match(game, **dict(case.match))
                match = {"target": settings.target, "opener": settings.opener,
                         "allocation": settings.allocation, "final_take": settings.final_take}
            cases.append(_case(case_id, example.rule, where, pos, pit, match))
            for suffix, other, move in derived(pos, pit):
                cases.append(_case(case_id + suffix, example.rule, where, other, move))
    cases.extend(supplementary_cases())
    cases.extend(ruleset_cases())
    return {"format": SUITE_FORMAT, "version": SUITE_VERSION, "mancala_spec": BASE,
            "protocol": PROTOCOL, "cases": cases}


def schema() -> dict[str, Any]:
    """The JSON Schema of the exported suite."""
    return json.loads(resources.files(__package__).joinpath("schema.json").read_text("utf-8"))


#: The suite shipped in the package (``suite.json`` beside this module), so that
#: ``mancala-spec conformance run`` needs no ``docs/``. ``python -m
#: mancala_spec.conformance.prebuilt`` regenerates it from the rules pages; a
#: test checks it equals a fresh extraction.
SUITE_FILE = "suite.json"


def packaged_suite() -> dict[str, Any]:
    """The prebuilt suite shipped with the package."""
    return json.loads(resources.files(__package__).joinpath(SUITE_FILE).read_text("utf-8"))


def suite_text(suite: dict[str, Any]) -> str:
    """A suite as the JSON text that is exported and shipped
    (:class:`~mancala_spec.errors.SuiteError` for what JSON cannot hold)."""
    try:
        return json.dumps(suite, indent=1, ensure_ascii=False, allow_nan=False) + "\n"
    except (TypeError, ValueError, RecursionError) as error:
        raise SuiteError(f"not a suite JSON can hold: {error}", path="$") from None
