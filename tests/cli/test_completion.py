"""Issue 34, item 5: shell completion for bash, zsh and fish, generated from the
command's real parser by tools/completion.py (shtab, of the test extra) and
shipped as committed files under completion/ (in the sdist): the files are what
the generator makes now, and bash's completion, driven as bash drives it
(``complete -p``, COMP_WORDS, COMPREPLY), completes subcommands and game names."""
from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SPEC = importlib.util.spec_from_file_location("completion_tool", ROOT / "tools" / "completion.py")
assert SPEC is not None and SPEC.loader is not None
completion = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(completion)


def test_the_shipped_files_are_what_the_parser_makes_now():
    """In a process of its own, as a packager runs the generator: the parser a test
    worker holds can differ by what other tests imported and registered."""
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "completion.py"), "--check"],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert set(completion.FILES) == {"bash", "zsh", "fish"}


def test_the_sdist_takes_the_completion_folder():
    assert "graft completion" in (ROOT / "MANIFEST.in").read_text(encoding="utf-8").split("\n")


DRIVER = r"""
source "$1"
spec=$(complete -p mancala-spec) || exit 3
function=${spec##*-F }; function=${function%% *}
shift
COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
COMPREPLY=()
"$function" mancala-spec "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
printf '%s\n' "${COMPREPLY[@]}"
"""


def completions(*words: str, cwd: Path | None = None) -> list[str]:
    """What bash completes for the command line *words* (the last the word
    being completed), with the shipped script loaded as bash-completion loads it."""
    bash = shutil.which("bash")
    assert bash, "bash is needed to test its completion"
    result = subprocess.run([bash, "--norc", "--noprofile", "-c", DRIVER, "driver",
                             str(ROOT / "completion" / completion.FILES["bash"]),
                             "mancala-spec", *words],
                            capture_output=True, text=True, timeout=30, check=True, cwd=cwd)
    return result.stdout.split()


def test_bash_completes_the_subcommands():
    assert completions("") == ["rules", "cite", "options", "show", "play", "replay", "diagram",
                               "conformance", "solve", "rulesets"]
    assert completions("pl") == ["play"]
    assert completions("conformance", "") == ["export", "run"]


def test_bash_completes_a_game_name():
    assert completions("play", "") == ["ba-awa", "bakuk"]
    assert completions("play", "bak") == ["bakuk"]
    assert completions("rules", "--game", "ba-") == ["ba-awa"]


def test_bash_completes_flags_and_their_values():
    assert "--opponent" in completions("play", "--")
    assert completions("play", "--opponent", "") == ["human", "greedy", "random"]
    assert "koumma" in completions("show", "--ruleset", "")


def test_bash_completes_the_values_of_the_choice_flags():
    """R4-16 of issue 42: solve's option flags completed to nothing."""
    assert sorted(completions("solve", "ba-awa", "--no-move", "")) == ["empty-row", "end",
                                                                       "owners", "pass"]
    assert completions("solve", "ba-awa", "--endless", "") == ["illegal", "stop", "cap-75"]
    assert completions("solve", "ba-awa", "--repetition", "p") == ["play-on"]
    assert completions("solve", "bakuk", "--chain", "") == ["forward", "backward"]
    assert completions("solve", "ba-awa", "--choose", "") == ["owned", "row"]


def test_bash_completes_folders_for_write_table(tmp_path):
    """R4-16: --write-table DIR completed to nothing; now to folders, not files."""
    (tmp_path / "tables").mkdir()
    (tmp_path / "notes.txt").write_text("mine")
    offered = completions("solve", "ba-awa", "--write-table", "", cwd=tmp_path)
    assert [name.rstrip("/") for name in offered] == ["tables"]
