"""Shell completion for ``mancala-spec``, generated from its real parser.

    python tools/completion.py            # write completion/ (bash, zsh, fish)
    python tools/completion.py --check    # exit 1 if completion/ is not what it makes now

The scripts are made with shtab (the ``test`` extra) from the parser the command
itself uses (:func:`mancala_spec.cli.command_registry.build_parser`), so they follow every
subcommand and flag; the command's run time stays standard-library only, as the
scripts are committed files under ``completion/`` (in the sdist), not made when
it runs. Only what completes is added here, to a parser of this script's own
(the command's parser is not changed): a game's name (``game``, ``--game``), a
ruleset's name (``--ruleset``), a file or folder for the arguments that name
one (``--write-table``: a folder), and the values of each option flag
(``solve --no-move``, ``--endless``, ...). Where a packager puts them:

* bash: ``completion/mancala-spec.bash`` as
  ``/usr/share/bash-completion/completions/mancala-spec``;
* zsh: ``completion/_mancala-spec`` in a folder of ``$fpath``
  (``/usr/share/zsh/vendor-completions/``, ``site-functions``);
* fish: ``completion/mancala-spec.fish`` in
  ``/usr/share/fish/vendor_completions.d/``.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / "completion"
#: the file of each shell, in completion/
FILES = {"bash": "mancala-spec.bash", "zsh": "_mancala-spec", "fish": "mancala-spec.fish"}
#: arguments (by dest) that name a file to read or write, or a folder
FILE_ARGUMENTS = {"output", "file", "suite", "table"}
FOLDER_ARGUMENTS = {"docs", "write_table"}


def parser() -> argparse.ArgumentParser:
    """The command's parser, with what each argument completes to."""
    import shtab

    from mancala_spec.cli.command_registry import build_parser
    from mancala_spec.engine.games import GAMES
    from mancala_spec.options import game_options
    from mancala_spec.rulesets import rulesets

    games = sorted(GAMES)
    names = sorted({ruleset.name for game in games for ruleset in rulesets(game)})
    # the values of each option flag (solve's: --no-move takes both games' values)
    values: dict[str, list[str]] = {}
    for game in games:
        for option in game_options(game):
            if option.type is not bool and option.name != "target":
                known = values.setdefault(option.name, [])
                known += [str(c) for c in option.choices if str(c) not in known]
    main = build_parser()

    def annotate(each: argparse.ArgumentParser) -> None:
        for action in each._actions:
            if isinstance(action, argparse._SubParsersAction):
                for sub in action.choices.values():
                    annotate(sub)
            elif action.dest == "game" and action.choices is None:
                # (this script's parser only; solve also takes verify PATH)
                action.choices = games + (["verify"] if each.prog.endswith(" solve") else [])
            elif action.dest == "ruleset" and action.choices is None:
                action.choices = names
            elif action.dest in values and action.choices is None and action.option_strings:
                action.choices = values[action.dest]
            elif action.dest in FILE_ARGUMENTS:
                action.complete = shtab.FILE      # type: ignore[attr-defined]
            elif action.dest in FOLDER_ARGUMENTS:
                action.complete = shtab.DIRECTORY  # type: ignore[attr-defined]

    annotate(main)
    return main


def generate(shell: str) -> str:
    """The completion script for *shell* (``bash``, ``zsh`` or ``fish``)."""
    import shtab

    from mancala_spec.cli.command_registry import PROG
    text = shtab.complete(parser(), shell=shell)
    return (f"# Shell completion for {PROG} ({shell}), made by tools/completion.py from "
            f"the command's parser: do not edit.\n{text.rstrip()}\n")


def main(argv: list[str] | None = None) -> int:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--check", action="store_true",
                         help="exit 1 if completion/ differs from what this makes now")
    args = options.parse_args(argv)
    stale = []
    for shell, name in FILES.items():
        text, path = generate(shell), FOLDER / name
        if args.check:
            if not path.is_file() or path.read_text(encoding="utf-8") != text:
                stale.append(name)
        else:
            from mancala_spec.terminal.output import write_atomic

            FOLDER.mkdir(exist_ok=True)
            write_atomic(path, text.encode("utf-8"))
    if stale:
        print(f"completion/ is stale ({', '.join(stale)}): run python tools/completion.py",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
