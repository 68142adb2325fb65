"""The mancala-spec command: every subcommand, and bad input reported as a message."""
from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

import mancala_spec as ms
from mancala_spec import cli


def run(capsys, *argv, stdin: str | None = None, monkeypatch=None):
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("name", ["rules", "cite", "show", "play", "replay", "diagram",
                                  "conformance", "solve"])
def test_every_command_has_help(capsys, name):
    with pytest.raises(SystemExit) as info:
        cli.main([name, "--help"])
    assert info.value.code == 0
    assert "usage: mancala-spec " + name in capsys.readouterr().out


def test_rules_lists_every_rule(capsys):
    code, out, _ = run(capsys, "rules")
    assert code == 0
    ids = [line.split()[0] for line in out.splitlines()]
    assert ids == [rule.id for rule in ms.load_catalogue()]
    code, out, _ = run(capsys, "rules", "--game", "bakuk")
    assert all(line.startswith("bakuk-") for line in out.splitlines())


def test_rules_prints_citation_translation_and_code(capsys):
    rule = ms.get_rule("ba-awa-mover-four")
    code, out, _ = run(capsys, "rules", rule.id)
    assert code == 0
    for citation in rule.citations:
        assert f"“{citation.quote}”" in out
        assert f"line {citation.line} ({citation.source})" in out
    assert "mancala_spec.engine.games.ba_awa.BaAwa.mover_four" in out
    code, out, _ = run(capsys, "rules", "ba-awa-endless")
    assert "Gap:" in out and "alternative: endless='stop'" in out


def test_cite_gives_text_and_bibtex_with_the_permalink(capsys, monkeypatch):
    monkeypatch.delenv("READTHEDOCS_CANONICAL_URL", raising=False)
    monkeypatch.setenv("MANCALA_SPEC_BASE_URL", "https://rules.example")
    code, out, _ = run(capsys, "cite", "bakuk-chain")
    assert code == 0
    assert f"(version {ms.__version__}). https://" in out
    assert f"/{ms.__version__}/bakuk.html#rule-bakuk-chain" in out
    _, out, _ = run(capsys, "cite", "bakuk-chain", "--format", "bibtex")
    assert "@misc{mancala_spec:bakuk-chain," in out
    _, out, _ = run(capsys, "cite", "bakuk-chain", "--format", "csl-json")
    assert '"URL": "https://' in out
    _, out, _ = run(capsys, "cite", "ba-awa-endless")
    assert "editorial.html#rule-ba-awa-endless" in out


def test_show_draws_the_position_and_legal_moves(capsys):
    text = "3,3,1/1,3,3 S 10-12 opener=S"
    code, out, _ = run(capsys, "show", "bakuk", text)
    assert code == 0
    assert str(ms.get_game("bakuk").parse(text)) in out
    assert "South to move; legal moves: a b c" in out
    _, out, _ = run(capsys, "show", "anenam", "-O", "players=3")
    assert "East" in out


@pytest.mark.parametrize("argv, message", [
    (["show", "chess"], "unknown game 'chess'"),
    (["show", "bakuk", "6,6,6/6,6 S 0-0"], "column 7: North's row must have 3 pits"),
    (["show", "bakuk", "-O", "chain=sideways"],
     "chain='sideways' is not a value of bakuk's option chain"),
    (["show", "bakuk", "-O", "chain"], "an option is written NAME=VALUE, not 'chain'"),
    (["rules", "ba-awa-nothing"], "no rule with ID 'ba-awa-nothing'"),
    (["cite", "nothing"], "no rule with ID 'nothing'"),
    (["replay", "/no/such/file"], "cannot read /no/such/file"),
    (["diagram", "6,6,6/6,6,6 S 0-0 opener=S", "A", "-o", "x.png"],
     "pit A belongs to North, but South is to move"),
    (["diagram", "6,6/6,6 S 0-0", "a", "-o", "x.png"], "cannot tell the game"),
    (["diagram", "6,6,6/6,6,6 S 0-0 opener=S", "a", "-o", "x.gif"], "must end in .png or .svg"),
])
def test_bad_input_is_a_message_not_a_traceback(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert message in err and "Traceback" not in err
    assert err.startswith(f"mancala-spec {argv[0]}: error: ")


def test_a_position_play_cannot_reach_is_taken_only_when_asked(capsys, tmp_path):
    """Captured counts play cannot reach (Bakuk's are even while seeds are on the
    board) are refused, with the flag that takes them named in the error; with it,
    the position is shown and its move drawn, as Game.parse(allow_unreachable=True)."""
    study = "0,0,1/2,0,0 S 16-17 opener=S"
    code, out, err = run(capsys, "show", "bakuk", study)
    assert code == 2 and out == ""
    assert "which play cannot reach" in err and "--allow-unreachable" in err
    assert err.count("\n") == 1
    code, out, _ = run(capsys, "show", "bakuk", study, "--allow-unreachable")
    pos = ms.get_game("bakuk").parse(study, allow_unreachable=True)
    assert code == 0 and str(pos) in out
    target = tmp_path / "d.svg"
    code, _, err = run(capsys, "diagram", study, "c", "-o", str(target))
    assert code == 2 and "--allow-unreachable" in err and not target.exists()
    code, out, _ = run(capsys, "diagram", study, "c", "-o", str(target), "--allow-unreachable")
    assert code == 0 and pos.play("c").to_text() in out and target.exists()
    # a count that no flag makes right is refused with or without it, the flag unnamed
    for flag in ([], ["--allow-unreachable"]):
        code, _, err = run(capsys, "show", "bakuk", "0,0,1/2,0,0 S 16-18", *flag)
        assert code == 2 and "not conserved" in err and "--allow-unreachable" not in err


def test_play_against_a_computer_player(capsys, monkeypatch):
    moves = "\n".join("abcABC" * 20) + "\n"
    code, out, _ = run(capsys, "play", "bakuk", "--opponent", "greedy", "--seed", "3",
                       stdin=moves, monkeypatch=monkeypatch)
    assert code == 0
    record = out[out.index("game: bakuk"):]
    parsed = ms.parse_game(record)
    assert parsed.positions[-1].is_over
    assert "North (greedy) plays" in out and "illegal: pit" in out


def test_play_stops_cleanly_when_input_ends(capsys, monkeypatch):
    code, out, err = run(capsys, "play", "ba-awa", "--opponent", "human", stdin="a\n",
                         monkeypatch=monkeypatch)
    assert code == 2
    assert err == ("mancala-spec play: error: standard input ended before the game did: game "
                   "abandoned (its record so far is on standard output)\n")
    assert ms.parse_game(out[out.index("game: ba-awa"):]).moves == (0,)


def test_replay_steps_through_a_record(capsys, tmp_path):
    game = ms.get_game("bakuk")
    record = ms.format_game(game.start(), ["a", "A", "b"])
    path = tmp_path / "game.txt"
    path.write_text(record)
    code, out, _ = run(capsys, "replay", str(path))
    assert code == 0
    final = game.start().play("a").play("A").play("b")
    assert out.rstrip().endswith(str(final))
    assert "3. South plays b" in out
    path.write_text(record.replace("moves: a A b", "moves: a a"))
    code, _, err = run(capsys, "replay", str(path))
    assert code == 2 and "move 2 (a) is illegal" in err


def test_diagram_writes_png_and_svg(capsys, tmp_path):
    for suffix in ("png", "svg"):
        target = tmp_path / f"d.{suffix}"
        code, out, _ = run(capsys, "diagram", "2,2,2,2,3,1/3,0,2,2,2,3 S 12-12 opener=S", "e",
                           "-o", str(target))
        assert code == 0
        after = ms.get_game("ba-awa").parse("2,2,2,2,3,1/3,0,2,2,2,3 S 12-12 opener=S").play("e")
        assert after.to_text() in out
    assert (tmp_path / "d.png").read_bytes().startswith(b"\x89PNG")
    assert b"<svg" in (tmp_path / "d.svg").read_bytes()[:500]


def test_conformance_export_and_run(capsys, tmp_path):
    target = tmp_path / "suite.json"
    code, _, _ = run(capsys, "conformance", "export", "-o", str(target))
    assert code == 0
    suite = json.loads(target.read_text())
    assert suite["cases"]
    engine = f'"{sys.executable}" -m mancala_spec.conformance.engine'
    code, out, _ = run(capsys, "conformance", "run", "--engine", engine, "--suite", str(target))
    assert code == 0 and out.strip().endswith("s)")
    assert f"{len(suite['cases'])} cases: {len(suite['cases'])} pass" in out
    code, out, _ = run(capsys, "conformance", "run", "--engine", engine + " --mutant no-relay",
                       "--suite", str(target))
    assert code == 1 and "FAIL" in out and "expected" in out


def test_the_installed_entry_point_runs():
    result = subprocess.run([sys.executable, "-m", "mancala_spec", "rules", "bakuk-draw"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and "bakuk-draw — Draw (editorial)" in result.stdout
