"""
Statistics of random play
=========================

A few thousand games of each game between two players who pick uniformly at
random among their legal moves (a fixed seed makes the figure reproducible).
Random play is not good play, so these numbers describe the rules rather than
strategy: how often the player who opens wins, how long games last, and how
many relay laps a Ba-awa move takes (a Bakuk move is always a single lap).

The outcome shares carry 95 % Wilson score intervals. In Ba-awa the opener
takes the last eight seeds (rule ``ba-awa-eight``), which shows as a large
first-player advantage; Bakuk's outcomes are much closer to even.

Set the environment variable ``MANCALA_GALLERY_GAMES`` to change the number
of games per game (the tests use a small number).
"""
import os
import random
from collections import Counter

import matplotlib.pyplot as plt
from matplotlib.figure import Figure
from matplotlib.ticker import PercentFormatter

import mancala_spec as ms
from mancala_spec.analysis import wilson
from mancala_spec.diagrams.style import theme_named

GAMES = int(os.environ.get("MANCALA_GALLERY_GAMES", "2000"))
def simulate(name, games, seed):
    """Random games of *name*: outcome counts, game lengths and laps per move."""
    game = ms.get_game(name)
    rng = random.Random(seed)
    outcomes, lengths, laps = Counter(), [], Counter()
    for _ in range(games):
        pos = game.start()
        moves = 0
        while not pos.is_over:
            trace = pos.trace(rng.choice(pos.legal_moves()))
            laps[trace.laps] += 1
            pos = trace.position
            moves += 1
        winner = pos.winner
        outcomes["draw" if winner is None else "opener" if winner == pos.opener else "second"] += 1
        lengths.append(moves)
    return outcomes, lengths, laps


results = {name: simulate(name, GAMES, seed=2026) for name in ("ba-awa", "bakuk")}

labels = {"opener": "opener wins", "draw": "draw", "second": "second player wins"}
for name, (outcomes, lengths, _) in results.items():
    print(f"{name}: {GAMES} games, mean length {sum(lengths) / len(lengths):.1f} moves")
    for key, label in labels.items():
        low, high = wilson(outcomes[key], GAMES)
        print(f"    {label:>19}: {outcomes[key] / GAMES:6.1%}  (95% CI {low:.1%}–{high:.1%})")

def draw(fig, theme="light", phone=False):
    """The three charts on *fig*, in the diagrams' *theme* ("light" or "dark"); for a
    *phone*, stacked in one narrow column."""
    colours = theme_named(theme)
    fig.set_size_inches((4.4, 11) if phone else (8, 7.2))
    fig.set_layout_engine("constrained")
    fig.set_facecolor(colours.background)
    ink = {"text.color": colours.ink, "axes.labelcolor": colours.ink,
           "axes.edgecolor": colours.ink, "xtick.color": colours.ink,
           "ytick.color": colours.ink, "axes.facecolor": colours.background,
           "legend.facecolor": colours.background, "legend.edgecolor": colours.grey}
    with plt.rc_context(ink):
        if phone:
            ax, ax_len, ax_laps = fig.subplots(3, 1, height_ratios=[1.1, 1, 1])
        else:
            top, bottom = fig.subfigures(2, 1, height_ratios=[1, 1.1])
            ax = top.subplots()
            ax_len, ax_laps = bottom.subplots(1, 2)
        names = list(results)
        hatches = ("", "///")
        for row, name in enumerate(names):
            outcomes = results[name][0]
            for column, key in enumerate(labels):
                share = outcomes[key] / GAMES
                low, high = wilson(outcomes[key], GAMES)
                y = column + (row - 0.5) * 0.38
                ax.barh(y, share, height=0.36, color=colours.players[row], alpha=0.85,
                        hatch=hatches[row], edgecolor=colours.background,
                        label=ms.get_game(name).title if column == 0 else None)
                ax.errorbar(share, y, xerr=[[share - low], [high - share]], fmt="none",
                            ecolor=colours.ink, capsize=3, lw=1.2)
                ax.text(high + 0.01, y, f"{share:.0%}", va="center", fontsize=10)
        ax.set_yticks(range(len(labels)), list(labels.values()), fontsize=10)
        ax.invert_yaxis()
        ax.set_xlim(0, 1)
        ax.set_xlabel("share of games, with 95 % Wilson intervals", fontsize=10)
        ax.set_title(f"Outcomes of {GAMES}{chr(10) if phone else ' '}random games each",
                     fontsize=12, loc="left")
        if phone:       # below the chart, where it hides no bar
            ax.legend(loc="upper left", bbox_to_anchor=(0, -0.2), ncols=2, fontsize=10)
        else:
            ax.legend(loc="lower right", fontsize=10)

        for row, name in enumerate(names):
            lengths = results[name][1]
            ax_len.hist(lengths, bins=range(0, max(lengths) + 3, 2), histtype="step", lw=2,
                        color=colours.players[row], linestyle=("solid", "dashed")[row],
                        label=ms.get_game(name).title,
                        weights=[1 / len(lengths)] * len(lengths))
        ax_len.set_xlabel("moves per game", fontsize=10)
        ax_len.set_ylabel("share of games (bins of 2 moves)", fontsize=10)
        ax_len.set_title("Game length", fontsize=12, loc="left")
        ax_len.legend(fontsize=10)

        laps = results["ba-awa"][2]
        total = sum(laps.values())
        counts = sorted(laps)
        ax_laps.bar(counts, [laps[k] / total for k in counts], color=colours.players[0],
                    alpha=0.85)
        ax_laps.set_xlabel("laps in a Ba-awa move", fontsize=10)
        ax_laps.set_ylabel("share of moves", fontsize=10)
        ax_laps.set_title("Relay laps per move (Ba-awa)", fontsize=12, loc="left")
        ax_laps.set_xticks(counts[::2] if len(counts) > 8 else counts)
        ax.xaxis.set_major_formatter(PercentFormatter(1.0))
        ax_len.yaxis.set_major_formatter(PercentFormatter(1.0))
        ax_laps.yaxis.set_major_formatter(PercentFormatter(1.0))
        for ax_ in (ax, ax_len, ax_laps):
            ax_.tick_params(labelsize=10)
            ax_.spines[["top", "right"]].set_visible(False)
    # the text alternative says what the charts show (the page's heading and the
    # charts' own titles say only what they are of); undrawn, as the diagrams' is
    fig.suptitle(describe(), visible=False, in_layout=False)
    return fig


def percent(share):
    """*share* as a whole percentage, or "under 1%" (not "0%") when some were seen."""
    return f"{share:.0%}" if share >= 0.005 or share == 0 else "under 1%"


def describe():
    """The charts in words: each game's outcome shares, lengths, and Ba-awa's laps."""
    sentences = []
    for name, (outcomes, lengths, _) in results.items():
        shares = ", ".join(f"{labels[key]} {percent(outcomes[key] / GAMES)} (95% CI "
                           f"{wilson(outcomes[key], GAMES)[0]:.0%}–"
                           f"{wilson(outcomes[key], GAMES)[1]:.0%})" for key in labels)
        sentences.append(f"{ms.get_game(name).title}, {GAMES} random games: {shares}; games "
                         f"last {sum(lengths) / len(lengths):.1f} moves on average "
                         f"({min(lengths)} to {max(lengths)}).")
    laps = results["ba-awa"][2]
    total = sum(laps.values())
    # each count of laps up to the last that 1% of moves take, then the rest together
    last = max(k for k in laps if laps[k] / total >= 0.01)
    common = [k for k in sorted(laps) if k <= last]
    rest = sum(laps[k] for k in laps if k > last)
    sentences.append("Laps per Ba-awa move: " + ", ".join(
        f"{k} in {percent(laps[k] / total)}" for k in common)
        + (f", more in {percent(rest / total)}" if rest else "") + ".")
    return " ".join(sentences)


fig = draw(plt.figure())
# how the rules site's gallery draws it again, for its dark theme and for a phone
fig.mancala_redraw = lambda metrics, theme: draw(Figure(), theme, phone=metrics == "phone")
plt.show()
