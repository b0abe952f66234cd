"""``robots-contest --out OUT --replay ROW``: any row of results.csv played again into a game folder
that is exactly that row's game, and the summary's games to watch with the command that opens them."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from engine.contest import main
from engine.contest.report import parse_csv
from engine.contest.runner import GameResult
from engine.deck import generate_deck, save_deck
from engine.gamedir import read_game_dir
from engine.outputs import parse_stats

from .conftest import CHOP, ROOT, ScriptMaker

BOT = ROOT / "examples" / "python" / "bot.py"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as stop:  # a usage error, found by the argument parser
        code = stop.code if isinstance(stop.code, int) else 1
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def rows(out: Path) -> list[GameResult]:
    return parse_csv((out / "results.csv").read_text())


def assert_is_the_rows_game(folder: Path, row: GameResult) -> None:
    """The folder opens as the viewer opens it, and its game is the row's, figure by figure."""
    game = read_game_dir(folder)
    stats = parse_stats((folder / "stats.txt").read_text())
    assert (game.info["outcome"], game.info["rounds"], game.info["cards"], game.level.value) == (
        row.outcome,
        row.rounds,
        row.cards,
        row.level,
    )
    assert (stats.card_moves, stats.board_moves) == (row.card_moves, row.board_moves)
    assert len((folder / "rounds.jsonl").read_text().splitlines()) == row.rounds


def replay_every_row(capsys: pytest.CaptureFixture[str], out: Path) -> None:
    for number, row in enumerate(rows(out), start=1):
        code, said, err = run(capsys, "--out", str(out), "--replay", str(number))
        assert code == 0, err
        folder = out / "games" / f"row-{number}"
        assert f"files in {folder}" in said
        assert_is_the_rows_game(folder, row)


def test_every_row_of_a_two_ai_contest_with_two_jobs_replays_to_its_game(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "out"
    code, _, err = run(
        capsys, str(CHOP), "--seeds", "3", "--level", "hard", "--ai", "reference", "--ai", str(BOT), "--jobs", "2",
        "--out", str(out),
    )  # fmt: skip
    assert code == 0, err
    assert len(rows(out)) == 6
    replay_every_row(capsys, out)


def test_on_a_local_cluster_too(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "out"
    code, _, err = run(capsys, str(CHOP), "--seeds", "2", "--ai", str(BOT), "--cluster", "local:2", "--out", str(out))
    assert code == 0, err
    replay_every_row(capsys, out)


def test_the_contests_own_call_with_a_deck_file_from_its_folder(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``robots-contest BOARD DECK LEVEL`` in its folder; the replay runs from elsewhere (the deck's
    path in results.csv is relative to the contest's folder)."""
    contest = tmp_path / "contest"
    contest.mkdir()
    monkeypatch.chdir(contest)
    save_deck(generate_deck(4), contest / "carddeck0.dat")
    code, _, err = run(capsys, "chop.dat", "carddeck0.dat", "hard", "--ai", str(BOT))
    assert code == 0, err
    out = contest / "contest-results" / "chop__carddeck0__hard"
    monkeypatch.chdir(tmp_path)
    replay_every_row(capsys, out)
    assert json.loads((out / "games" / "row-1" / "game.json").read_text())["deck"] == str(contest / "carddeck0.dat")


def test_a_resumed_contest_replays_too(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert run(capsys, str(CHOP), "--seeds", "2", "--out", str(out))[0] == 0
    code, _, err = run(capsys, str(CHOP), "--seeds", "2", "--out", str(out), "--resume")
    assert code == 0, err
    replay_every_row(capsys, out)


def test_the_summary_names_games_to_watch_with_commands_that_open_them(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "out"
    code, said, err = run(
        capsys, str(CHOP), "--seeds", "6", "--level", "hard", "--ai", "reference", "--ai", str(BOT), "--out", str(out)
    )
    assert code == 0, err
    results = rows(out)
    watch = json.loads((out / "summary.json").read_text())["watch"]
    assert watch, "no game to watch"
    for entry in watch:
        assert f"{entry['command']}" in said
        number = entry["row"]
        row = results[number - 1]
        assert (entry["ai"], entry["outcome"], entry["rounds"], entry["deck"]) == (
            row.ai,
            row.outcome,
            row.rounds,
            row.deck,
        )
        earlier = results[: number - 1]
        if entry["what"] == "first robot destroyed":
            assert row.outcome == "X" and not any(r.ai == row.ai and r.outcome == "X" for r in earlier)
        elif entry["what"] == "longest won game":
            assert row.outcome == "Z"
            assert row.rounds == max(r.rounds for r in results if r.ai == row.ai and r.outcome == "Z")
    # Each AI's first lost robot is named (both lose some on hard chop with 6 decks).
    for ai in ("reference", "bot.py"):
        if any(r.ai == ai and r.outcome == "X" for r in results):
            assert any(e["ai"] == ai and e["what"] == "first robot destroyed" for e in watch)
    # The pair's most different deck: both rows, the same deck, and no deck differs more.
    pair = [e for e in watch if e["what"].endswith("differ most")]
    assert len(pair) == 2 and pair[0]["deck"] == pair[1]["deck"]
    half = len(results) // 2

    def gap(a: GameResult, b: GameResult) -> tuple[int, int]:
        return (int((a.outcome == "Z") != (b.outcome == "Z")), abs(a.rounds - b.rounds))

    best = max(gap(a, b) for a, b in zip(results[:half], results[half:], strict=True))
    assert gap(results[pair[0]["row"] - 1], results[pair[1]["row"] - 1]) == best
    # The command itself (without --view: no display here) plays exactly that game.
    words = shlex.split(pair[1]["command"])
    assert words[0] == "robots-contest" and words[-1] == "--view"
    code, _, err = run(capsys, *words[1:-1])
    assert code == 0, err
    assert_is_the_rows_game(out / "games" / f"row-{pair[1]['row']}", results[pair[1]["row"] - 1])


def test_refusals_are_one_line_and_write_nothing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, make_script: ScriptMaker
) -> None:
    marker = tmp_path / "changed"
    # An AI that plays as the example bot until the marker appears, then fails: another game.
    fickle = make_script("fickle", f'[ -e {shlex.quote(str(marker))} ] && exit 3\nexec {shlex.quote(str(BOT))} "$@"\n')
    bot = make_script("bot.py", BOT.read_text())
    deck = tmp_path / "deck.dat"
    save_deck(generate_deck(2), deck)
    out = tmp_path / "out"
    code, _, err = run(
        capsys, str(CHOP), "--decks", str(deck), "--ai", str(fickle), "--ai", str(bot), "--out", str(out)
    )
    assert code == 0, err

    def refused(*argv: str, played: bool = False) -> str:
        code, said, err = run(capsys, *argv)
        announced = "row 1: playing it again (" if played else ""
        assert code == 2 and said.startswith(announced) and len(err.splitlines()) == 1, (code, said, err)
        assert said.count("\n") == played
        assert not (out / "games").exists()
        return err

    marker.touch()
    assert "differs (outcome E" in refused("--out", str(out), "--replay", "1", played=True)
    assert "nothing written" in refused("--out", str(out), "--replay", "1", played=True)
    bot.write_text(bot.read_text() + "# edited\n")
    assert f"{bot}: the AI program changed since the contest" in refused("--out", str(out), "--replay", "2")
    save_deck(generate_deck(3), deck)
    assert f"{deck}: the deck file changed since the contest" in refused("--out", str(out), "--replay", "1")
    assert "no row 3: results.csv holds rows 1 to 2" in refused("--out", str(out), "--replay", "3")
    assert "no row 0" in refused("--out", str(out), "--replay", "0")
    assert "no contest.json" in refused("--out", str(tmp_path), "--replay", "1")
    assert "--replay needs --out" in refused("--replay", "1")
    assert "--replay takes only --out" in refused(str(CHOP), "--out", str(out), "--replay", "1")
    assert "--view goes with --replay" in refused(str(CHOP), "--view", "--out", str(tmp_path / "other"))
    record = out / "contest.json"
    for damage in ({"format": 1}, {**json.loads(record.read_text()), "ais": ["x", "y"]}):
        record.write_text(json.dumps(damage))
        assert f"{record}: damaged contest record" in refused("--out", str(out), "--replay", "2")
