"""
OpenSpiel's MCTS against the perfect player (Bakuk)
===================================================

Bakuk is strongly solved (``mancala_spec.solved``), so every move of any player
can be measured exactly: the value it lost is the margin the player to move could
force with their best move, minus what they can force after this one
(:class:`~mancala_spec.interop.values.Evaluator`, ``loss``). Here OpenSpiel's Monte
Carlo tree search (``open_spiel.python.algorithms.mcts.MCTSBot``, 50 simulations a
move, random rollouts, exploration constant 8 since the returns are margins of up to
36 counters) plays Bakuk, registered with OpenSpiel by
:mod:`mancala_spec.interop.openspiel`, against the perfect player
(:class:`~mancala_spec.interop.openspiel.PerfectBot`), half the games as South and
half as North. The perfect player never loses value, so each game ends with MCTS
short of its seat's value at the start by exactly what its moves lost; the script
checks that this holds.

Set the environment variable ``MANCALA_GALLERY_MCTS_GAMES`` to change the number of
games (six by default).
"""
import os

import matplotlib.pyplot as plt
import numpy as np
import pyspiel
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator
from open_spiel.python.algorithms.mcts import MCTSBot, RandomRolloutEvaluator

from mancala_spec.diagrams.style import theme_named
from mancala_spec.interop.openspiel import PerfectBot
from mancala_spec.interop.values import Evaluator

GAMES = int(os.environ.get("MANCALA_GALLERY_MCTS_GAMES", "6"))
SIMULATIONS = 50
SEATS = ("South", "North")

evaluator = Evaluator.for_game("bakuk")       # Bakuk solved: seconds
game = pyspiel.load_game("mancala_spec_bakuk")
start = evaluator.value(game.new_initial_state())   # South's margin with perfect play


def play(number):
    """Game *number*: MCTS as South in even games, North in odd ones. Its seat, the
    value each of its moves lost, and its return (its margin at the end)."""
    seat = number % 2
    mcts = MCTSBot(game, uct_c=8, max_simulations=SIMULATIONS,
                   evaluator=RandomRolloutEvaluator(1, np.random.RandomState(number)),
                   random_state=np.random.RandomState(number))
    perfect = PerfectBot(evaluator, seed=number)
    state = game.new_initial_state()
    lost = []
    while not state.is_terminal():
        if state.current_player() == seat:
            action = mcts.step(state)
            lost.append(evaluator.loss(state, action))
        else:
            action = perfect.step(state)
        state.apply_action(action)
    return seat, lost, state.returns()[seat]


games = [play(number) for number in range(GAMES)]
for number, (seat, lost, result) in enumerate(games, 1):
    owed = start if seat == 0 else -start
    assert result == owed - sum(lost), (number, result, owed, lost)
    imperfect = sum(1 for x in lost if x)
    print(f"game {number}: MCTS as {SEATS[seat]}, {len(lost)} moves, lost "
          f"{sum(lost)} in all ({imperfect} imperfect move{'' if imperfect == 1 else 's'}); "
          f"result {result:+.0f}, perfect play {owed:+d}")


def draw(fig, theme="light", phone=False):
    """The value lost at each MCTS move, and in each game, on *fig* in the diagrams'
    *theme*; for a *phone*, one chart above the other."""
    colours = theme_named(theme)
    fig.set_size_inches((4.4, 8) if phone else (8, 4.2))
    fig.set_layout_engine("constrained")
    fig.set_facecolor(colours.background)
    ink = {"text.color": colours.ink, "axes.labelcolor": colours.ink,
           "axes.edgecolor": colours.ink, "xtick.color": colours.ink,
           "ytick.color": colours.ink, "axes.facecolor": colours.background,
           "legend.facecolor": colours.background, "legend.edgecolor": colours.grey}
    with plt.rc_context(ink):
        moves_ax, games_ax = fig.subplots(2, 1) if phone else fig.subplots(
            1, 2, width_ratios=[1.6, 1])
        shown = set()
        for seat, lost, _ in games:
            label = f"MCTS as {SEATS[seat]}" if seat not in shown else None
            shown.add(seat)
            moves_ax.plot(range(1, len(lost) + 1), lost, color=colours.players[seat],
                          marker="os"[seat], linestyle=("solid", "dashed")[seat], lw=1.2,
                          alpha=0.8, label=label)
        moves_ax.set_xlabel("MCTS's move in the game", fontsize=10)
        moves_ax.set_ylabel("value lost (counters)", fontsize=10)
        moves_ax.set_title("Value lost by each move", fontsize=12, loc="left")
        moves_ax.legend(fontsize=10)
        numbers = range(1, len(games) + 1)
        totals = [sum(lost) for _, lost, _ in games]
        games_ax.bar(numbers, totals, color=[colours.players[seat] for seat, _, _ in games],
                     alpha=0.85)
        for number, (_, lost, result) in zip(numbers, games):
            games_ax.text(number, sum(lost) + 0.3, f"{result:+.0f}", ha="center", fontsize=9)
        games_ax.set_xticks(list(numbers))
        games_ax.set_xlabel("game (MCTS's result above)", fontsize=10)
        games_ax.set_ylabel("value lost in the game", fontsize=10)
        games_ax.set_title("Value lost by game", fontsize=12, loc="left")
        for ax in (moves_ax, games_ax):
            ax.yaxis.set_major_locator(MaxNLocator(integer=True))
            ax.tick_params(labelsize=10)
            ax.spines[["top", "right"]].set_visible(False)
    fig.suptitle(describe(), visible=False, in_layout=False)
    return fig


def describe():
    """The charts in words: each game's seat, losses and result."""
    parts = []
    for number, (seat, lost, result) in enumerate(games, 1):
        imperfect = ", ".join(f"move {k} lost {x}" for k, x in enumerate(lost, 1) if x)
        parts.append(f"game {number}, MCTS as {SEATS[seat]}: {len(lost)} moves, "
                     f"{imperfect or 'none lost value'}; {sum(lost)} lost in all, "
                     f"result {result:+.0f}")
    return (f"OpenSpiel's MCTS ({SIMULATIONS} simulations a move) against the perfect "
            f"player in {len(games)} games of Bakuk, whose value at the start is "
            f"{start:+d} for South. " + "; ".join(parts) + ".")


fig = draw(plt.figure())
# how the rules site's gallery draws it again, for its dark theme and for a phone
fig.mancala_redraw = lambda metrics, theme: draw(Figure(), theme, phone=metrics == "phone")
plt.show()
