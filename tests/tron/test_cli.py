"""``robots-tron`` as a user calls it: play, check, replay; bad input is one line and exit status 2."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from engine.tron.cli import main
from engine.tron.record import load_game

ROOT = Path(__file__).resolve().parents[2]
SMALL = ROOT / "gameboards" / "tron" / "open-10x10.txt"


def test_play_writes_game_file_log_and_stderr(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, log = tmp_path / "out", tmp_path / "talk.log"
    assert main(["play", str(SMALL), "strong", "simple", "--out", str(out), "--log", str(log)]) == 0
    printed = capsys.readouterr().out
    assert "bot 1  strong" in printed and "bot 2  simple" in printed
    record = load_game(out / "tron-game.json")
    assert [b.name for b in record.bots] == ["strong", "simple"]
    assert (out / "bot1.stderr.txt").exists()
    talk = log.read_text().splitlines()
    assert talk[0] == ">1 GAMEBOARDSTART 10,10"
    assert "<1 " in "\n".join(talk) and talk[-1].endswith("END")


def test_play_refuses_a_fifo_log_or_stderr_file_instead_of_hanging(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--log FIFO waited for a reader for ever before the game; a FIFO bot1.stderr.txt in --out
    did the same after it. Both are refused in one line, exit status 2."""
    import os

    from tests.fifo_guard import never_stuck_on

    fifo = tmp_path / "talk.log"
    os.mkfifo(fifo)
    with never_stuck_on(fifo, writers=True):
        assert main(["play", str(SMALL), "simple", "simple", "--log", str(fifo)]) == 2
    assert (
        capsys.readouterr().err.strip()
        == f"robots-tron: {fifo}: is a FIFO (named pipe), not a file: refusing to replace it"
    )
    out = tmp_path / "out"
    out.mkdir()
    os.mkfifo(out / "bot1.stderr.txt")
    with never_stuck_on(out / "bot1.stderr.txt", writers=True):
        assert main(["play", str(SMALL), "simple", "simple", "--out", str(out)]) == 2
    assert "bot1.stderr.txt: is a FIFO" in capsys.readouterr().err
    assert not (out / "tron-game.json").exists()


def test_play_log_on_a_full_disk_keeps_the_old_log(tmp_path: Path) -> None:
    """The transcript was written straight into --log: a full disk left half of it, the old log gone."""
    log = tmp_path / "talk.log"
    log.write_text("the last game's talk\n")
    script = (
        "import resource, sys\n"
        "resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))\n"
        "from engine.tron.cli import main\n"
        "sys.exit(main(sys.argv[1:]))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script, "play", str(SMALL), "strong", "simple", "--log", str(log)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert result.returncode == 2 and result.stderr.strip() == f"robots-tron: {log}: File too large"
    assert log.read_text() == "the last game's talk\n"
    assert [p.name for p in tmp_path.iterdir()] == ["talk.log"]


def test_play_three_bots_on_an_arena_with_three_starts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    board = tmp_path / "three.txt"
    board.write_text("GAMEBOARDSTART 6,6\n" + "......\n" * 6 + "GAMEBOARDEND\nPOS 1 1,1 E\nPOS 2 6,6 W\nPOS 3 1,6 N\n")
    assert main(["play", str(board), "simple", "simple", "random"]) == 0
    assert "bot 3  random" in capsys.readouterr().out


def test_the_result_keeps_its_columns_with_ten_bots(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    board = tmp_path / "ten.txt"
    starts = "".join(f"POS {p} {2 * p},1 S\n" for p in range(1, 11))
    board.write_text("GAMEBOARDSTART 20,3\n" + "....................\n" * 3 + "GAMEBOARDEND\n" + starts)
    assert main(["play", str(board), *["simple"] * 10]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("  bot ")]
    assert len(rows) == 10 and rows[0].startswith("  bot 1   simple") and rows[9].startswith("  bot 10  simple")
    assert len({row.index("points") for row in rows}) == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "nope.txt", "simple", "simple"], "nope.txt: no such file"),
        (["play", "BAD", "simple", "simple"], "BAD:2:3: unknown field 'x'"),
        (["play", "GOOD", "simple", "simple", "simple"], "3 bots need start lines"),
        (["check", "BAD"], "BAD:2:3: unknown field 'x'"),
        (["replay", "GOOD"], "not valid JSON"),
        (["play", "GOOD", "simple", "simple", "--out", "GOOD"], "GOOD: is a file, not a folder (for --out)"),
        (["tournament", "simple", "random", "--boards", "GOOD", "--out", "GOOD"], "GOOD: is a file, not a folder"),
        (["play"], "the following arguments are required: BOARD, BOT"),  # argparse's usage block was 4 lines
        (["tournament", "simple", "random", "--time-limit", "x"], "argument --time-limit: not a number: 'x'"),
        # a deadline that far off overflowed the clock: a traceback (limits.md: at most 86,400 s)
        (["play", "GOOD", "simple", "simple", "--time-limit", "1e300"], "at most 86400, not '1e300'"),
        (["play", "GOOD", "simple", "simple", "--startup", "1e20"], "argument --startup: must be a positive"),
        (["tournament", "simple", "random", "--repeat", "0"], "argument --repeat: must be 1 to 1000, not 0"),
        (["tournament", "simple", "random", "--jobs", "-1"], "argument --jobs: must be 0 (one per core) to 1024"),
        # A typo lost every game of the tournament, the whole run long; refused before any game now.
        (["tournament", "simple", "nosuchbot"], "bot 'nosuchbot': no program of that name"),
        (["tournament", "simple", "GOOD"], "GOOD: bot program is not executable"),
    ],
)
def test_bad_input_is_one_line_and_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    (tmp_path / "BAD").write_text("GAMEBOARDSTART 3,1\n..x\nGAMEBOARDEND\n")
    (tmp_path / "GOOD").write_text("GAMEBOARDSTART 3,1\n...\nGAMEBOARDEND\n")
    args = [str(tmp_path / a) if a in ("BAD", "GOOD") else a for a in args]
    try:
        code = main(args)
    except SystemExit as stop:  # argparse's own errors leave through SystemExit
        code = stop.code
    assert code == 2
    assert (tmp_path / "GOOD").read_text() == "GAMEBOARDSTART 3,1\n...\nGAMEBOARDEND\n"
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err and "Traceback" not in err


def test_tournament_refuses_a_bot_whose_interpreter_line_is_broken(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Such a bot went out in round 1 of every game, the whole tournament long."""
    missing = tmp_path / "missing.sh"
    missing.write_text("#!/no/such/interpreter\n")
    windows = tmp_path / "windows.sh"
    windows.write_text("#!/bin/sh\r\necho AHEAD\r\n")
    for bot, words in ((missing, "names /no/such/interpreter, which does not exist"), (windows, "carriage return")):
        bot.chmod(0o755)
        assert main(["tournament", "simple", str(bot), "--out", str(tmp_path / "t")]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and f"{bot}: bot program cannot run: its " in err and words in err
        assert "--ai" not in err
    assert not (tmp_path / "t").exists()


def test_check_shipped_arenas(capsys: pytest.CaptureFixture[str]) -> None:
    boards = sorted(str(p) for p in (ROOT / "gameboards" / "tron").glob("*.txt"))
    assert main(["check", *boards]) == 0
    assert capsys.readouterr().out.count(": ok,") == len(boards)


def test_installed_commands_run_from_another_folder(tmp_path: Path) -> None:
    bin_dir = Path(sys.executable).parent
    tron = bin_dir / "robots-tron"
    assert tron.exists(), "robots-tron is not installed next to this Python: run ./run setup"
    strong = bin_dir / "robots-tron-strong"
    done = subprocess.run(
        [str(tron), "play", str(SMALL), str(strong), str(bin_dir / "robots-tron-simple"), "--out", "g"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    replay = subprocess.run([str(tron), "replay", "g/tron-game.json"], cwd=tmp_path, capture_output=True, text=True)
    assert replay.returncode == 0 and replay.stdout.splitlines()[0] == done.stdout.splitlines()[0]


def test_a_compiled_cpp_contest_style_bot_and_a_shell_bot_play(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A C++ entry in the contest's style, compiled as its author would, and a sh script, run unchanged."""
    import shutil

    compiler = shutil.which("c++") or shutil.which("g++")
    # Not a skip: a test skipped in CI has failed (./run setup installs g++).
    assert compiler is not None, "no C++ compiler (c++ or g++) on PATH: ./run setup installs g++"
    program = tmp_path / "dummybot"
    subprocess.run(
        [compiler, "-O2", "-o", str(program), str(ROOT / "examples/tron/dummybot.cpp")], check=True, timeout=120
    )
    out = tmp_path / "g"
    shell = ROOT / "examples/tron/bot.sh"
    assert main(["play", str(SMALL), str(program), str(shell), "--out", str(out)]) == 0
    record = load_game(out / "tron-game.json")
    assert all(not r.failures for r in record.rounds)  # both spoke the protocol without a fault
    assert record.survived()[0] > record.survived()[1]  # the dummy bot turns, the sh bot drives into the wall
    capsys.readouterr()


def test_arenas_lists_every_shipped_arena_with_its_size_and_path(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arenas"]) == 0
    rows = [line.split("\t") for line in capsys.readouterr().out.splitlines()]
    assert [head.split()[0] for head, _ in rows] == sorted(p.name for p in (ROOT / "gameboards" / "tron").glob("*.txt"))
    assert any(head.split() == ["open-10x10.txt", "10x10"] for head, _ in rows)
    assert all(Path(path).name == head.split()[0] and Path(path).is_file() for head, path in rows)


def test_an_arena_argument_may_name_a_shipped_arena(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["check", "open-10x10.txt"]) == 0
    assert capsys.readouterr().out.startswith(f"{SMALL}: ok, 10x10,")
    assert main(["play", "open-10x10.txt", "simple", "simple"]) == 0
    assert "on a 10x10 arena" in capsys.readouterr().out
    assert main(["check", "open-10x10", "rings-41x41"]) == 0  # as docs/tron.md's table names them
    assert capsys.readouterr().out.count(": ok,") == 2
    assert main(["check", "open-10x1"]) == 2
    assert "open-10x1: no such file" in capsys.readouterr().err
    (tmp_path / "open-10x10.txt").write_text("GAMEBOARDSTART 4,3\n....\n....\n....\nGAMEBOARDEND\n")
    assert main(["check", "open-10x10.txt"]) == 0  # a file of that name here wins
    assert capsys.readouterr().out.startswith("open-10x10.txt: ok, 4x3,")


def test_play_stopped_by_ctrl_c_leaves_no_empty_out_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """An interrupted 'robots-tron play ... --out g' left an empty g behind."""
    import engine.tron.cli

    def interrupted(*args: object, **kwargs: object) -> object:
        assert (tmp_path / "g").is_dir()
        raise KeyboardInterrupt

    monkeypatch.setattr(engine.tron.cli, "play_game", interrupted)
    assert main(["play", str(SMALL), "strong", "simple", "--out", str(tmp_path / "g")]) == 130
    assert not (tmp_path / "g").exists()


def test_play_says_when_a_bot_had_to_be_killed_after_end(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bot ignoring END (or leaving a child holding its output) was killed a second later, silently.
    The grace is 5 s here, so a loaded machine still lets the bots that do exit at END exit in it."""
    import engine.tron.process

    monkeypatch.setattr(engine.tron.process, "END_GRACE", 5.0)
    deaf = tmp_path / "deaf.sh"  # answers AHEAD, and at END waits for input that never comes
    deaf.write_text("#!/bin/sh\nwhile read l; do case $l in ROUND*) echo AHEAD;; esac; done\nread never\nsleep 600\n")
    holder = tmp_path / "holder.sh"  # exits at END, but its child keeps the output pipe open
    holder.write_text(
        "#!/bin/sh\nsleep 600 &\nwhile read l; do case $l in ROUND*) echo AHEAD;; END) exit 0;; esac; done\n"
    )
    for bot in (deaf, holder):
        bot.chmod(0o755)
    assert main(["play", str(SMALL), str(deaf), str(holder)]) == 0
    notes = [line for line in capsys.readouterr().out.splitlines() if "note:" in line]
    assert notes == [
        "  note: bot 1 did not exit within 5 s of END: killed",
        "  note: bot 2 exited at END, but a program it started still held its output 5 s later: killed",
    ]
    assert main(["play", str(SMALL), "simple", "strong"]) == 0
    assert "note:" not in capsys.readouterr().out


def test_a_bot_runs_under_the_robots_ais_process_limit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A Tron bot had only a memory limit: a bot forking children that each allocate could still
    take the machine. It now has the robots AIs' limit on the user's processes too."""
    from engine.ai.supervise import AILimits

    bot = tmp_path / "limits.sh"  # says its limits on stderr, then drives ahead
    bot.write_text(
        "#!/bin/sh\ngrep 'Max processes' /proc/$$/limits >&2\nwhile read l; do case $l in ROUND*) echo AHEAD;; esac; done\n"
    )
    bot.chmod(0o755)
    assert main(["play", str(SMALL), str(bot), "simple", "--out", str(tmp_path / "g")]) == 0
    import resource

    # Lowered to the robots AIs' limit, never above one the caller already had.
    expected = min([AILimits().processes, *(n for n in resource.getrlimit(resource.RLIMIT_NPROC) if n >= 0)])
    said = (tmp_path / "g" / "bot1.stderr.txt").read_text().split()
    assert said[:4] == ["Max", "processes", str(expected), str(expected)]
