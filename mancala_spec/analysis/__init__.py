"""Ba-awa by experiment: endless sowing, recurring positions, long moves, and
the opening player's advantage (numpy is not needed; matplotlib draws the figures).

Everything here is a plain function with its sizes and seeds as parameters, so
that every figure on the analysis page can be recomputed. One module a study:

* :mod:`~mancala_spec.analysis.endless`: :func:`sow_laps` sows one move with the
  kernel's sowing (:func:`mancala_spec.fast.ba_awa.sow`) and says how many laps
  it takes and whether it never ends; :func:`exhaustive` sows from every
  distribution of *n* seeds on the twelve pits, every non-empty pit in turn:
  how many sowings never end, and the longest that does;
* :mod:`~mancala_spec.analysis.games`: :func:`play_games` plays games between two
  random or two greedy players with the kernel (:mod:`mancala_spec.fast`): who
  wins, how often a position offers an endless sowing, the longest move, how
  games end; :mod:`~mancala_spec.analysis.opener` makes their tables and figures;
* :mod:`~mancala_spec.analysis.recurrence`: :func:`find_recurrence` and
  :func:`recurrence_search` look for moves that bring a whole position back,
  and :func:`describe_repetition` replays a game that ended that way with the
  traced engine;
* :mod:`~mancala_spec.analysis.common`: the option sets, each game's random
  numbers, tables, and :func:`wilson`, the 95 % Wilson score interval.

Command line (:mod:`~mancala_spec.analysis.cli`; prints the tables in Markdown
and how long each took)::

    python -m mancala_spec.analysis --quick      # the sizes the rules site builds with
    python -m mancala_spec.analysis              # the larger run the analysis page quotes

The analysis page's directives, which run these functions when the page is
read, are in :mod:`mancala_spec.sphinx.analysis`.

>>> sow_laps((4,) * 12, 0)            # the opening move from a: five laps
(5, False)
>>> low, high = wilson(50, 100)
>>> round(low, 4), round(high, 4)
(0.4038, 0.5962)
"""
from __future__ import annotations

from .cli import FULL, QUICK, main
from .common import (
                     CONFIGS,
                     POLICIES,
                     ROWS,
                     SIZE,
                     Z95,
                     Table,
                     game_rng,
                     in_processes,
                     label,
                     markdown,
                     runs,
                     share_text,
                     version,
                     wilson,
)
from .endless import (
                     EndlessCount,
                     board_text,
                     cached_exhaustive,
                     compositions,
                     exhaustive,
                     exhaustive_seed_counts,
                     exhaustive_table,
                     sow_laps,
)
from .games import (
                     ENDING_BATCH,
                     Endings,
                     PlayResult,
                     cached_play,
                     capture_margin,
                     choose,
                     count_endings,
                     end_reason,
                     ending_batch,
                     greedy_moves,
                     play_games,
)
from .opener import (
                     FIGURES,
                     OUTCOMES,
                     endings_table,
                     in_play_table,
                     laps_figure,
                     longest_table,
                     opener_figure,
                     opener_table,
)
from .recurrence import (
                     RecurrenceResult,
                     Repetition,
                     capture_free_moves,
                     describe_repetition,
                     find_recurrence,
                     recurrence_search,
                     recurrence_table,
                     repetition_table,
)

__all__ = [
    "CONFIGS", "FIGURES", "FULL", "OUTCOMES", "POLICIES", "QUICK", "ROWS", "SIZE", "Z95",
    "EndlessCount", "Endings", "PlayResult", "RecurrenceResult", "Repetition", "Table",
    "board_text", "cached_exhaustive", "cached_play", "capture_free_moves", "capture_margin",
    "ENDING_BATCH", "choose", "compositions", "count_endings", "ending_batch",
    "describe_repetition", "end_reason",
    "endings_table", "exhaustive", "exhaustive_seed_counts", "exhaustive_table",
    "find_recurrence", "game_rng", "greedy_moves", "in_play_table", "in_processes", "label",
    "laps_figure", "longest_table", "main", "markdown", "opener_figure", "opener_table",
    "play_games", "recurrence_search", "recurrence_table", "repetition_table", "runs",
    "share_text", "sow_laps", "version", "wilson",
]
