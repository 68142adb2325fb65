"""The games' tables and figures: the opener's results, what was met in play,
the longest moves, how games end."""
from __future__ import annotations

from ..errors import not_a
from .common import CONFIGS, Table, label, runs, share_text, wilson
from .games import Endings, cached_play


def opener_table(games: int, greedy_games: int, seed: int, processes: int = 1) -> Table:
    """The opener's wins, draws and losses under each option set and policy."""
    header = ["game and options", "policy", "games", "opener wins", "draws",
              "second player wins", "moves per game"]
    rows = []
    for config in CONFIGS:
        for policy, n in runs(games, greedy_games):
            r = cached_play(config, policy, n, seed, processes)
            rows.append([label(config), policy, f"{n:,}",
                         share_text(r.outcomes["opener"], n), share_text(r.outcomes["draw"], n),
                         share_text(r.outcomes["second"], n), f"{r.moves / n:.2f}"])
    return header, rows



def in_play_table(games: int, greedy_games: int, seed: int, processes: int = 1) -> Table:
    """Endless sowings, long moves and repetitions in the positions reached."""
    header = ["game and options", "policy", "positions", "with an endless pit",
              "games meeting one", "endless moves played", "longest finite move (laps)",
              "longest move played", "games ended by repetition"]
    rows = []
    for config in CONFIGS:
        for policy, n in runs(games, greedy_games):
            r = cached_play(config, policy, n, seed, processes)
            rows.append([label(config), policy, f"{r.positions:,}",
                         f"{r.endless_positions:,}: "
                         + share_text(r.endless_positions, r.positions),
                         f"{r.games_with_endless:,}", f"{r.endless_played:,}", str(r.longest),
                         str(r.longest_played),
                         f"{r.end_reasons['repetition']:,}"])
    return header, rows



def longest_table(games: int, greedy_games: int, seed: int, processes: int = 1) -> Table:
    """Where each run met its longest finite move first."""
    header = ["game and options", "policy", "laps", "game number", "position", "pit"]
    rows = []
    for config in CONFIGS:
        for policy, n in runs(games, greedy_games):
            r = cached_play(config, policy, n, seed, processes)
            if r.longest_example is None:     # no game played: no move met
                continue
            number, text, pit = r.longest_example
            rows.append([label(config), policy, str(r.longest), str(number), f"`{text}`", pit])
    return header, rows



def endings_table(endings: Endings) -> Table:
    """How a :func:`count_endings` run's games ended."""
    if not isinstance(endings, Endings):
        raise not_a("endings", endings, "what count_endings returns (Endings)")
    header = ["game and options", "policy", "games", "end of game", "games ending so"]
    rows = [[label(endings.config), endings.policy, f"{endings.games:,}", f"`{reason}`",
             f"{count:,}: " + share_text(count, endings.games)]
            for reason, count in sorted(endings.reasons.items(), key=lambda item: -item[1])]
    if "repetition" not in endings.reasons:
        rows.append([label(endings.config), endings.policy, f"{endings.games:,}",
                     "`repetition`", "0: " + share_text(0, endings.games)])
    return header, rows



OUTCOMES = (("opener", "opener wins"), ("draw", "draw"), ("second", "second player wins"))

_SHORT = {"default": "defaults", "skip_origin": "skip_origin\n=True",
          "endless-stop": 'endless\n="stop"', "no-move-owners": 'no_move\n="owners"'}



def opener_figure(games: int, greedy_games: int, seed: int, processes: int = 1):
    """Bars of the opener's outcomes, with 95 % Wilson intervals, for each option
    set and policy (a :class:`matplotlib.figure.Figure`)."""
    from matplotlib.figure import Figure

    from ..diagrams import OKABE_ITO

    colours = (OKABE_ITO["blue"], OKABE_ITO["yellow"], OKABE_ITO["vermillion"])
    hatches = ("", "..", "///")
    figure = Figure(figsize=(8, 4.4), layout="constrained")
    axes = figure.subplots(1, 2, sharey=True)
    for ax, (policy, n) in zip(axes, runs(games, greedy_games)):
        for index, config in enumerate(CONFIGS):
            r = cached_play(config, policy, n, seed, processes)
            for k, (key, text) in enumerate(OUTCOMES):
                share = r.outcomes[key] / n
                low, high = wilson(r.outcomes[key], n)
                x = index + (k - 1) * 0.27
                ax.bar(x, share, width=0.25, color=colours[k], hatch=hatches[k],
                       edgecolor="black", linewidth=0.6, label=text if index == 0 else None)
                ax.errorbar(x, share, yerr=[[share - low], [high - share]], color="black",
                            capsize=2.5, linewidth=0.9)
        ax.set_xticks(range(len(CONFIGS)), [_SHORT[c] for c in CONFIGS], fontsize=8)
        ax.set_title(f"{policy} play, {n:,} games each", fontsize=10)
        ax.set_ylim(0, 1)
        ax.yaxis.set_major_formatter(lambda value, _: f"{value:.0%}")
        ax.grid(axis="y", linewidth=0.4, alpha=0.6)
    axes[0].set_ylabel("share of games (95 % Wilson interval)")
    axes[0].legend(loc="upper right", fontsize=8)
    figure.suptitle(f"Ba-awa: the opener's results (seed {seed})", fontsize=11)
    return figure



def laps_figure(games: int, greedy_games: int, seed: int, processes: int = 1):
    """How many laps the moves played took (default options), log scale."""
    from matplotlib.figure import Figure

    from ..diagrams import OKABE_ITO

    figure = Figure(figsize=(8, 3.4), layout="constrained")
    ax = figure.subplots()
    for k, (policy, n) in enumerate(runs(games, greedy_games)):
        r = cached_play("default", policy, n, seed, processes)
        total = sum(r.laps_played.values())
        laps = sorted(r.laps_played)
        ax.bar([lap + (k - 0.5) * 0.4 for lap in laps],
               [r.laps_played[lap] / total for lap in laps], width=0.4,
               color=(OKABE_ITO["blue"], OKABE_ITO["orange"])[k], hatch=("", "///")[k],
               edgecolor="black", linewidth=0.5, label=f"{policy} play ({total:,} moves)")
    from matplotlib.ticker import FuncFormatter, MaxNLocator

    ax.set_yscale("log")
    ax.yaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{100 * value:g}%"))
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("laps of the move played")
    ax.set_ylabel("share of moves")
    ax.legend(fontsize=8)
    ax.grid(axis="y", linewidth=0.4, alpha=0.6)
    ax.set_title(f"Ba-awa, default options: laps per move (seed {seed})", fontsize=10)
    return figure



FIGURES = {"opener": opener_figure, "laps": laps_figure}
