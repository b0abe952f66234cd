"""``robots-contest``: the numbers it reports are the numbers ``play_game`` gives, and bad input stops it cleanly."""

from __future__ import annotations

import io
import json
import re
import signal
import statistics
from collections.abc import Callable
from pathlib import Path

import pytest

from engine.ai.reference import reference_chooser
from engine.boardfile import load_board
from engine.cliutil import ProgressBar
from engine.contest import main
from engine.contest.report import format_csv, parse_csv
from engine.deck import generate_deck, load_deck, save_deck
from engine.game import play_game
from engine.model import Level
from engine.outputs import Stats

from .conftest import CHOP, ScriptMaker, started_by_this_run, wait_gone


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as stop:  # a usage error, found by the argument parser
        code = stop.code if isinstance(stop.code, int) else 1
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_three_seeds_two_jobs_agree_with_play_game(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, err = run(capsys, str(CHOP), "--seeds", "3", "--jobs", "2", "--level", "normal", "--out", str(tmp_path))
    assert code == 0, err
    rows = parse_csv((tmp_path / "results.csv").read_text())
    board = load_board(CHOP)
    assert [r.deck for r in rows] == ["seed:1", "seed:2", "seed:3"]
    games = [play_game(board, Level.NORMAL, generate_deck(seed), reference_chooser) for seed in (1, 2, 3)]
    for row, game in zip(rows, games, strict=True):
        stats = Stats.of(game)
        assert game.outcome is not None
        assert (row.board, row.level, row.ai, row.error) == (str(CHOP), "normal", "reference", "")
        assert (row.outcome, row.rounds, row.cards, row.card_moves, row.board_moves) == (
            game.outcome.value,
            stats.rounds,
            stats.cards,
            stats.card_moves,
            stats.board_moves,
        )
    summary = json.loads((tmp_path / "summary.json").read_text())
    total = summary["total"]
    assert summary["games"] == 3 and summary["level"] == "normal" and summary["jobs"] == 2
    assert total["finished"] == sum(g.outcome is not None and g.outcome.value == "Z" for g in games)
    assert total["destroyed"] == sum(g.outcome is not None and g.outcome.value == "X" for g in games)
    assert total["mean_rounds"] == pytest.approx(statistics.fmean(len(g.rounds) for g in games))
    assert total["median_rounds"] == pytest.approx(statistics.median(len(g.rounds) for g in games))
    assert total["mean_cards"] == pytest.approx(statistics.fmean(g.cards_played for g in games))
    assert summary["per_board"][0]["games"] == 3
    # The table on screen shows the same figures.
    assert f"{total['mean_cards']:.1f}" in out and "results.csv" in out
    assert "3/3 games" in err


def test_deck_folder_plays_every_deck_in_name_order(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    folder = tmp_path / "decks"
    folder.mkdir()
    for name, seed in (("b.txt", 7), ("a.txt", 8), ("c.deck", 9)):
        save_deck(generate_deck(seed), folder / name)
    (folder / ".hidden").write_text("not a deck\n")
    decks = sorted(folder.glob("[!.]*"))
    code, _, err = run(capsys, str(CHOP), "--decks", str(folder), "--level", "hard", "--out", str(tmp_path / "out"))
    assert code == 0, err
    rows = parse_csv((tmp_path / "out" / "results.csv").read_text())
    assert [Path(r.deck).name for r in rows] == ["a.txt", "b.txt", "c.deck"]
    board = load_board(CHOP)
    for row, deck in zip(rows, decks, strict=True):
        game = play_game(board, Level.HARD, load_deck(deck), reference_chooser)
        assert row.cards == game.cards_played and row.level == "hard"


def test_ai_error_in_some_games_does_not_stop_others(
    capsys: pytest.CaptureFixture[str], make_script: ScriptMaker, tmp_path: Path
) -> None:
    small = tmp_path / "small.dat"
    small.write_text("3 1\nT Z\n")
    # Crashes on the 3-wide board only; plays the first five cards elsewhere.
    program = make_script(
        "picky", 'if head -n 1 board.txt | grep -q "^3 "; then exit 3; fi\nhead -n 5 cards.txt > ccards.txt\n'
    )
    out_dir = tmp_path / "out"
    code, _out, err = run(
        capsys,
        str(CHOP),
        str(small),
        "--seeds",
        "2",
        "--ai",
        str(program),
        "--jobs",
        "2",
        "--level",
        "hard",
        "--out",
        str(out_dir),
    )
    assert code == 0, err
    rows = parse_csv((out_dir / "results.csv").read_text())
    assert [r.outcome for r in rows if r.board == str(small)] == ["E", "E"]
    assert all("exited with status 3" in r.error for r in rows if r.board == str(small))
    chop_rows = [r for r in rows if r.board == str(CHOP)]
    board = load_board(CHOP)
    expected = [play_game(board, Level.HARD, generate_deck(s), reference_chooser).cards_played for s in (1, 2)]
    assert [r.cards for r in chop_rows] == expected and all(r.outcome != "E" for r in chop_rows)
    summary = json.loads((out_dir / "summary.json").read_text())
    assert [b["ai_errors"] for b in summary["per_board"]] == [0, 2]
    assert len(list((out_dir / "ai-logs").iterdir())) == 4
    assert "first AI error" in err and "AI errors: 2" in err


def test_all_cores(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _out, _ = run(capsys, str(CHOP), "--seeds", "2", "--jobs", "0", "--out", str(tmp_path))
    rows = parse_csv((tmp_path / "results.csv").read_text())
    assert code == 0 and len(rows) == 2
    assert {row.level for row in rows} == {"normal"}  # the contest's default level


def _bad_board(tmp_path: Path) -> Path:
    path = tmp_path / "bad.dat"
    path.write_text("3 2\nV Z\nQ  \n")
    return path


def _no_start(tmp_path: Path) -> Path:
    path = tmp_path / "nostart.dat"
    path.write_text("2 1\n Z\n")
    return path


def _bad_deck(tmp_path: Path) -> Path:
    path = tmp_path / "deck.txt"
    path.write_text("MF 1\nMF 9\n")
    return path


def _empty_folder(tmp_path: Path) -> Path:
    path = tmp_path / "empty"
    path.mkdir()
    return path


BAD_INPUTS: list[tuple[str, Callable[[Path], list[str]], str]] = [
    ("missing board", lambda t: [str(t / "nope.dat")], r"nope\.dat: no such file"),
    ("bad board char", lambda t: [str(_bad_board(t))], r"bad\.dat:3:1: "),
    (
        "no start",
        lambda t: [str(_no_start(t))],
        r"nostart\.dat: no start tile \(S, T, U or V\): a board needs exactly one",
    ),
    ("bad deck", lambda t: [str(CHOP), "--decks", str(_bad_deck(t))], r"deck\.txt:2:1: "),
    ("missing deck", lambda t: [str(CHOP), "--decks", str(t / "none")], "no such deck file or folder"),
    ("empty deck folder", lambda t: [str(CHOP), "--decks", str(_empty_folder(t))], "holds no deck files"),
    ("unknown ai", lambda t: [str(CHOP), "--ai", "nobody"], "unknown AI 'nobody'"),
    ("zero seeds", lambda t: [str(CHOP), "--seeds", "0"], "--seeds must be 1 to 100000"),
    ("negative jobs", lambda t: [str(CHOP), "--jobs", "-1"], "--jobs must be 0"),
    ("zero timeout", lambda t: [str(CHOP), "--timeout", "0"], "--timeout: timeout must be a positive number"),
    ("nan timeout", lambda t: [str(CHOP), "--timeout", "nan"], "--timeout: timeout must be a positive number"),
    ("huge timeout", lambda t: [str(CHOP), "--timeout", "1e300"], "at most 86400"),
]


@pytest.mark.parametrize(("name", "make_argv", "pattern"), BAD_INPUTS, ids=[b[0] for b in BAD_INPUTS])
def test_bad_input_exits_2_with_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str, make_argv: Callable[[Path], list[str]], pattern: str
) -> None:
    argv = make_argv(tmp_path)
    code, out, err = run(capsys, *argv, "--out", str(tmp_path / "out"))
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("robots-contest: ")
    assert re.search(pattern, err), err
    assert "Traceback" not in err and out == ""
    assert not (tmp_path / "out" / "results.csv").exists()


def test_progress_bar_redraws_on_terminal_and_prints_lines_otherwise() -> None:
    terminal = io.StringIO()
    bar = ProgressBar(4, terminal, interactive=True)
    for done in range(1, 5):
        bar.update(done, error=done == 2)
    bar.finish()
    text = terminal.getvalue()
    assert text.startswith("\r[") and text.endswith("\n") and "4/4 games 100%" in text and "AI errors: 1" in text
    plain = io.StringIO()
    bar = ProgressBar(4, plain, interactive=False)
    for done in range(1, 5):
        bar.update(done)
    bar.finish()
    lines = plain.getvalue().splitlines()
    assert "\r" not in plain.getvalue()
    # Not on a terminal: a line per tenth of the way (here each game is a quarter), then the total.
    assert [line.split(" games")[0] for line in lines] == ["1/4", "2/4", "3/4", "4/4"]
    assert lines[0].startswith("1/4 games (25%), ") and "left" in lines[0]
    assert lines[-1].startswith("4/4 games in ")
    many = io.StringIO()
    bar = ProgressBar(1000, many, interactive=False)
    for done in range(1, 1001):
        bar.update(done)
    assert len(many.getvalue().splitlines()) == 9  # 10%, 20%, ... 90%: not one line per game


def test_csv_round_trip(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert run(capsys, str(CHOP), "--seeds", "2", "--out", str(tmp_path))[0] == 0
    text = (tmp_path / "results.csv").read_text()
    assert format_csv(parse_csv(text)) == text


def test_real_command_line_process(tmp_path: Path) -> None:
    """``python -m engine.contest`` as a process: exit codes, one-line errors, the non-TTY progress line."""
    import subprocess
    import sys

    root = CHOP.parents[1]
    ok = subprocess.run(
        [sys.executable, "-m", "engine.contest", str(CHOP), "--seeds", "2", "--out", str(tmp_path / "ok")],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert ok.returncode == 0, ok.stderr
    assert ok.stderr.splitlines()[0].startswith("1/2 games (50%), ")  # progress lines in a log
    assert ok.stderr.splitlines()[-1].startswith("2/2 games in ") and ok.stderr.count("\n") == 2
    assert "all" in ok.stdout and (tmp_path / "ok" / "summary.json").is_file()
    bad = subprocess.run(
        [sys.executable, "-m", "engine.contest", str(tmp_path / "missing.dat")],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr == f"robots-contest: {tmp_path / 'missing.dat'}: no such file\n"


@pytest.mark.parametrize(
    ("signum", "words"), [(2, "interrupted"), (15, "stopped by SIGTERM"), (1, "stopped by SIGHUP")]
)
def test_ctrl_c_stops_at_once_with_one_line(make_script: ScriptMaker, tmp_path: Path, signum: int, words: str) -> None:
    """Waits on events (the AIs announcing themselves, the contest exiting), never on a fixed sleep."""
    import subprocess
    import sys
    import time

    started = tmp_path / "started"
    started.mkdir()
    # Each AI run announces its pid (written whole, then renamed), then takes far longer than the test.
    slow = make_script("slow", f"echo $$ > '{started}'/.$$\nmv '{started}'/.$$ '{started}'/$$\nexec sleep 2345.67\n")
    out_dir = tmp_path / "out"
    argv = [sys.executable, "-m", "engine.contest", str(CHOP), "--seeds", "4", "--ai", str(slow), "--jobs", "2"]
    process = subprocess.Popen(
        [*argv, "--out", str(out_dir)], cwd=CHOP.parents[1], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    deadline = time.monotonic() + 300  # only against a hang: each check below returns as soon as it holds
    while len([p for p in started.iterdir() if not p.name.startswith(".")]) < 2 and time.monotonic() < deadline:
        assert process.poll() is None, process.communicate()
        time.sleep(0.02)
    ai_pids = [int(p.name) for p in started.iterdir() if not p.name.startswith(".")]
    assert len(ai_pids) == 2, "both workers should be running an AI by now"
    process.send_signal(signum)
    try:  # it does not wait for the AIs: each would take 39 minutes (no wall-clock bound: a loaded machine is slow)
        out, err = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 128 + signum and out == "", err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"robots-contest: {words}: 0 of 4 games saved in ") and "--resume" in err
    assert not (out_dir / "results.csv").exists()
    for pid in ai_pids:
        assert wait_gone(pid), "an AI program outlived the contest"
    assert not live_processes_running("sleep\x002345.67"), "the AI programs outlived the contest"


def test_a_stopped_comparison_counts_every_ais_saved_games(make_script: ScriptMaker, tmp_path: Path) -> None:
    """With several --ai the line counted only the AI being played: "0 of 2 games saved in journal-2.jsonl"."""
    import subprocess
    import sys
    import time

    started = tmp_path / "started"
    slow = make_script("slow", f"touch '{started}'\nexec sleep 2345.67\n")
    out_dir = tmp_path / "out"
    argv = [sys.executable, "-m", "engine.contest", str(CHOP), "--seeds", "2", "--ai", "reference", "--ai", str(slow)]
    process = subprocess.Popen(
        [*argv, "--out", str(out_dir)], cwd=CHOP.parents[1], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    deadline = time.monotonic() + 300  # only against a hang: the AIs run one after the other, the slow one last
    while not started.exists() and time.monotonic() < deadline:
        assert process.poll() is None, process.communicate()
        time.sleep(0.02)
    process.send_signal(signal.SIGINT)
    _out, err = process.communicate(timeout=120)
    assert process.returncode == 130, err
    assert err.splitlines()[-1] == (
        f"robots-contest: interrupted: 2 of 4 games saved in {out_dir / 'journal-*.jsonl'};"
        " play the rest with the same command and --resume"
    )


@pytest.mark.parametrize("ais", [["reference"], ["reference", "reference"]], ids=["one AI", "two AIs"])
def test_a_reader_that_leaves_at_once_costs_no_results(tmp_path: Path, ais: list[str]) -> None:
    """``robots-contest ... | head -1``: a traceback, and results.csv and summary.json never written."""
    import os
    import subprocess
    import sys

    out_dir = tmp_path / "out"
    argv = [sys.executable, "-m", "engine.contest", str(CHOP), "--seeds", "2", "--out", str(out_dir)]
    argv += [word for ai in ais for word in ("--ai", ai)]
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before the first line is printed
    try:
        done = subprocess.run(argv, cwd=CHOP.parents[1], stdout=write_end, stderr=subprocess.PIPE, text=True)
    finally:
        os.close(write_end)
    assert done.returncode == 141 and "Traceback" not in done.stderr, done.stderr
    assert len(parse_csv((out_dir / "results.csv").read_text())) == 2 * len(ais)
    assert json.loads((out_dir / "summary.json").read_text())


def live_processes_running(cmdline: str) -> list[int]:
    """Pids of live (not zombie) processes whose NUL-separated command line contains ``cmdline``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes().decode(errors="replace")
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if cmdline in command and state not in ("Z", "X") and started_by_this_run(entry.name):
            found.append(int(entry.name))
    return found


def test_contest_call_form_board_deck_level(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """``start_contest`` calls ``robots-contest $GAME $DECK $LEVEL``; that plays the one game."""
    deck = tmp_path / "carddeck0.dat"
    save_deck(generate_deck(5), deck)
    code, _, err = run(capsys, str(CHOP), str(deck), "easy", "--out", str(tmp_path / "out"))
    assert code == 0, err
    (row,) = parse_csv((tmp_path / "out" / "results.csv").read_text())
    game = play_game(load_board(CHOP), Level.EASY, load_deck(deck), reference_chooser)
    assert (row.board, row.deck, row.level, row.cards) == (str(CHOP), str(deck), "easy", game.cards_played)


def test_a_shipped_board_by_name_with_a_deck_and_level(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """From a folder without it, ``chop.dat`` is the shipped board (the deck and level still sort out)."""
    monkeypatch.chdir(tmp_path)
    save_deck(generate_deck(5), tmp_path / "carddeck0.dat")
    code, _, err = run(capsys, "chop.dat", "carddeck0.dat", "easy", "--out", "out")
    assert code == 0, err
    (row,) = parse_csv((tmp_path / "out" / "results.csv").read_text())
    assert Path(row.board).read_bytes() == CHOP.read_bytes() and row.deck == "carddeck0.dat"


def test_the_contest_call_once_per_game_keeps_every_game(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """start_contest's loop in one folder: every call after the first was refused (the shared default
    folder held the first game's journal); each game now gets its own default folder."""
    monkeypatch.chdir(tmp_path)
    for seed in (1, 2):
        save_deck(generate_deck(seed), tmp_path / f"carddeck{seed}.dat")
    for board in ("chop.dat", "tiny-2x1.dat"):
        for seed in (1, 2):
            code, _, err = run(capsys, board, f"carddeck{seed}.dat", "easy")
            assert code == 0, err
    for board in ("chop", "tiny-2x1"):
        for seed in (1, 2):
            (row,) = parse_csv(
                (tmp_path / "contest-results" / f"{board}__carddeck{seed}__easy" / "results.csv").read_text()
            )
            assert (row.deck, row.level) == (f"carddeck{seed}.dat", "easy")
    code, _, err = run(capsys, "chop.dat", "carddeck1.dat", "easy")  # the same game again: its results stay
    assert code == 2 and "add --resume" in err


@pytest.mark.parametrize(
    ("extra", "pattern"),
    [
        (["normal", "--level", "easy"], "two levels given"),
        (["--seeds", "3"], "deck files and --seeds given"),
    ],
)
def test_contest_call_form_conflicts(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, extra: list[str], pattern: str
) -> None:
    deck = tmp_path / "carddeck0.dat"
    save_deck(generate_deck(5), deck)
    code, _, err = run(capsys, str(CHOP), str(deck), *extra)
    assert code == 2 and pattern in err and err.count("\n") == 1


def test_a_fifo_among_the_boards_is_refused_not_waited_on(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Every board is sniffed for a deck first (the contest's own call form): that look must not
    open a FIFO, whose open waits for a writer for ever; the board reader then says what it is."""
    import os

    from tests.fifo_guard import never_stuck_on

    fifo = tmp_path / "board.dat"
    os.mkfifo(fifo)
    with never_stuck_on(fifo) as knocked:
        code, out, err = run(capsys, str(CHOP), str(fifo), "--seeds", "1", "--out", str(tmp_path / "r"))
    assert not knocked, "the FIFO was opened for reading"
    assert code == 2 and out == ""
    assert err == f"robots-contest: {fifo}: is a FIFO (named pipe), not a regular file\n"


def test_only_decks_is_an_error(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    deck = tmp_path / "carddeck0.dat"
    save_deck(generate_deck(5), deck)
    code, _, err = run(capsys, str(deck), "hard")
    assert code == 2 and "no board given" in err


def test_unusable_out_folder_fails_before_any_game_is_played(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """An --out that cannot be created is reported at once, not after the whole contest has run."""
    (tmp_path / "afile").write_text("in the way")
    code, out, err = run(capsys, str(CHOP), "--seeds", "2", "--out", str(tmp_path / "afile" / "results"))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith(f"robots-contest: {tmp_path / 'afile' / 'results'}: cannot create")


@pytest.mark.parametrize(
    ("name", "ais"),
    [
        ("results.csv", ["reference"]),
        ("summary.json", ["reference"]),
        ("comparison.json", ["reference", "reference"]),
        ("comparison.png", ["reference", "reference"]),
    ],
)
def test_a_report_that_cannot_be_written_is_named_before_any_game(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str, ais: list[str]
) -> None:
    """A folder (or FIFO) where a report goes was refused only after every game had been played;
    it is named before the first game now, and no journal is started."""
    out = tmp_path / "r"
    (out / name).mkdir(parents=True)
    argv = [str(CHOP), "--seeds", "2", "--out", str(out)]
    for ai in ais:
        argv += ["--ai", ai]
    code, stdout, err = run(capsys, *argv)
    assert code == 2 and stdout == "", err
    assert err == f"robots-contest: {out / name}: is a folder, not a file: refusing to replace it\n"
    assert sorted(path.name for path in out.iterdir()) == [name]


def test_summary_ranks_every_ai_and_names_why_one_failed(
    capsys: pytest.CaptureFixture[str], make_script: ScriptMaker, tmp_path: Path
) -> None:
    """With several AIs, summary.json held only every game lumped together: no ranking, no goal
    rate, rounds or errors per AI, and the table gave an error count without its reason."""
    broken = make_script("broken", "echo 'cannot open my weights' >&2\nexit 3\n")
    out = tmp_path / "r"
    code, stdout, _ = run(capsys, str(CHOP), "--seeds", "3", "--level", "hard", "--ai", "planner", "--ai", "reference",
                          "--ai", str(broken), "--out", str(out))  # fmt: skip
    assert code == 0
    rows = parse_csv((out / "results.csv").read_text())
    ranking = json.loads((out / "summary.json").read_text())["ranking"]
    assert [entry["rank"] for entry in ranking] == [1, 2, 3]
    for entry in ranking:
        mine = [r for r in rows if r.ai == entry["label"]]
        won = [r.rounds for r in mine if r.outcome == "Z"]
        assert entry["games"] == len(mine) == 3
        assert entry["goals"] == len(won) and entry["goal_rate"] == len(won) / 3
        assert entry["mean_rounds_won"]["mean"] == (statistics.mean(won) if won else None)
        assert entry["ai_errors"] == sum(r.outcome == "E" for r in mine)
    rates = [(-e["goal_rate"], e["mean_rounds_won"]["mean"] or 1e9) for e in ranking]
    assert rates == sorted(rates)
    failed = next(e for e in ranking if e["label"] == "broken")
    assert failed["ai_errors"] == 3 and failed["first_error"].endswith(
        "exited with status 3; last output: cannot open my weights"
    )
    assert f"broken: 3 AI errors, the first: {failed['first_error']}\n" in stdout
