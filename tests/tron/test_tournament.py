"""The tournament: the contest's pairings and scoring, repeated games for random bots, journal and resume."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.errors import InputError
from engine.tron.arena import parse_arena
from engine.tron.cli import bot_spec, main
from engine.tron.tournament import JOURNAL, GameResult, Job, Task, lost_job, plan, run_tournament, standings

ARENAS = [
    ("a", parse_arena("GAMEBOARDSTART 6,3\n......\n......\n......\nGAMEBOARDEND\n")),
    (
        "b",
        parse_arena("GAMEBOARDSTART 5,5\n.....\n.....\n.....\n.....\n.....\nGAMEBOARDEND\nPOS 1 1,1 E\nPOS 2 5,5 W\n"),
    ),
]


def test_plan_every_pair_both_starts_every_arena_and_repeats_for_random_bots() -> None:
    tasks = plan(3, 2, [False, False, True], 4)
    assert len(tasks) == 2 * 2 * 1 + 2 * 2 * 2 * 4  # pair (0,1) once; pairs with bot 2 four times
    assert Task(1, 0, 1, 0) in tasks and Task(0, 1, 1, 0) in tasks
    assert not any(t.first == t.second for t in tasks)  # no bot plays itself
    assert len({t.key for t in tasks}) == len(tasks)


def _result(key: str, bots: tuple[str, str], survived: tuple[int, int], points: tuple[int, int]) -> GameResult:
    return GameResult(key, "a", *bots, *survived, *points, max(survived) + 1, "", "")


def test_standings_sum_points_fold_repeats_half_up_and_break_ties_by_rounds() -> None:
    results = [
        # x vs y, repeated twice: points 3 and 0 -> mean 1.5 -> 2 (half up); y: 0 and 3 -> 2 as well
        _result("0-1@0#0", ("x", "y"), (10, 5), (3, 0)),
        _result("0-1@0#1", ("x", "y"), (5, 10), (0, 3)),
        # y vs x once: y wins
        _result("1-0@0#0", ("y", "x"), (9, 4), (3, 0)),
        # z draws with x, loses to y
        _result("0-2@0#0", ("x", "z"), (7, 7), (1, 1)),
        _result("1-2@0#0", ("y", "z"), (8, 2), (3, 0)),
    ]
    table = standings(["x", "y", "z"], results)
    assert [(s.bot, s.points) for s in table] == [("y", 2 + 3 + 3), ("x", 2 + 0 + 1), ("z", 1)]
    assert table[0].rounds == 8 + 9 + 8  # rounded mean of 5 and 10 is 8 (7.5 half up)
    tie = standings(
        ["p", "q"], [_result("0-1@0#0", ("p", "q"), (4, 4), (1, 1)), _result("1-0@0#0", ("q", "p"), (6, 3), (1, 1))]
    )
    assert [s.bot for s in tie] == ["q", "p"]  # same points: more rounds survived first


def test_run_journal_resume_and_refusal(tmp_path: Path) -> None:
    bots = [bot_spec("simple"), bot_spec("strong")]
    calls: list[int] = []
    results = run_tournament(bots, ARENAS, tmp_path, on_game=lambda done, total: calls.append(total))
    assert len(results) == 4 and calls[-1] == 4
    assert len(list((tmp_path / "games").glob("*.json"))) == 4
    with pytest.raises(InputError, match="--resume"):  # a second run must not lose the first one's results
        run_tournament(bots, ARENAS, tmp_path)
    # a run stopped in the middle: two results journaled, the third cut short; --resume plays two games
    lines = (tmp_path / JOURNAL).read_text().splitlines(keepends=True)
    (tmp_path / JOURNAL).write_text("".join(lines[:3]) + lines[3][:20])
    again: list[int] = []
    results = run_tournament(bots, ARENAS, tmp_path, resume=True, on_game=lambda done, total: again.append(done))
    assert again == [1, 2, 3, 4] and len(results) == 4  # two from the journal, then two played
    assert all(json.loads(line) for line in (tmp_path / JOURNAL).read_text().splitlines())
    assert len((tmp_path / JOURNAL).read_text().splitlines()) == 5
    with pytest.raises(InputError, match=r"other settings \(bots differ\)") as refused:
        run_tournament([bot_spec("simple"), bot_spec("random")], ARENAS, tmp_path, resume=True)
    assert "decks" not in str(refused.value)  # a robots contest's settings, which a Tron tournament has not


def test_jobs_run_in_worker_processes(tmp_path: Path) -> None:
    results = run_tournament([bot_spec("simple"), bot_spec("random")], ARENAS[:1], tmp_path, jobs=2, repeat=2,
                             random_bots=[False, True])  # fmt: skip
    assert len(results) == 4 and {r.key for r in results} == {"0-1@0#0", "0-1@0#1", "1-0@0#0", "1-0@0#1"}
    lost = lost_job(Job("0-1@0#0", "a", "", ("x", "y"), ((), ()), 1.0, 2.0, str(tmp_path)), "worker died (signal 9)")
    assert GameResult(**lost).points1 == 0 and "worker died" in lost["reason1"]


def test_cli_tournament_table_csv_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    boards = []
    for name, arena in ARENAS:
        path = tmp_path / f"{name}.txt"
        from engine.tron.arena import write_arena

        path.write_text(write_arena(arena))
        boards.append(str(path))
    out = tmp_path / "out"
    code = main(
        [
            "tournament",
            "strong",
            "simple",
            "random",
            "--boards",
            *boards,
            "--repeat",
            "2",
            "--out",
            str(out),
            "--jobs",
            "2",
        ]
    )
    assert code == 0
    printed = capsys.readouterr().out
    assert printed.splitlines()[1].split()[:2] == ["1", "strong"]
    summary = json.loads((out / "summary.json").read_text())
    assert summary["games"] == 2 * 2 * 1 + 2 * 2 * 2 * 2
    assert (out / "results.csv").read_text().startswith("key,arena,bot1,bot2,")
    assert main(["tournament", "simple", "--out", str(out)]) == 2
    assert main(["tournament", "simple", "strong", "--random", "nobody", "--out", str(out)]) == 2


def test_cluster_runs_the_same_games(tmp_path: Path) -> None:
    import distributed  # the dev extra installs it: a missing one fails here, never skips  # noqa: F401

    results = run_tournament([bot_spec("simple"), bot_spec("strong")], ARENAS[:1], tmp_path, cluster="local:1")
    assert sorted(r.key for r in results) == ["0-1@0#0", "1-0@0#0"]
    assert all((r.points1, r.points2) in ((0, 3), (3, 0), (1, 1)) for r in results)


def test_repeat_below_one_is_refused_not_an_empty_tournament(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="--repeat must be 1 or more"):
        run_tournament([bot_spec("simple"), bot_spec("random")], ARENAS[:1], tmp_path, repeat=0,
                       random_bots=[False, True])  # fmt: skip


@pytest.mark.parametrize(("signum", "said"), [(signal.SIGTERM, "stopped by SIGTERM"), (signal.SIGINT, "interrupted")])
def test_a_stopped_tournament_says_why_with_the_signals_exit_status(
    tmp_path: Path, signum: signal.Signals, said: str
) -> None:
    """As robots-contest: 128 + the signal's number (SIGTERM was reported as Ctrl-C, status 130)."""
    started = tmp_path / "started"
    bot = tmp_path / "waiting-bot"
    bot.write_text(f"#!/bin/sh\ntouch {started}\nexec sleep 600\n")
    bot.chmod(0o755)
    arena = tmp_path / "a.txt"
    arena.write_text("GAMEBOARDSTART 6,3\n......\n......\n......\nGAMEBOARDEND\n")
    command = [sys.executable, "-m", "engine.tron.cli", "tournament", str(bot), "simple", "--boards", str(arena)]
    command += ["--startup", "600", "--out", str(tmp_path / "out")]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 300  # against a hang only: the loop ends once the bot has started
    while not started.exists() and time.monotonic() < deadline:
        assert process.poll() is None, process.communicate()
        time.sleep(0.02)
    process.send_signal(signum)
    _out, err = process.communicate(timeout=120)
    assert process.returncode == 128 + signum, err
    line = err.strip().splitlines()[-1]
    assert line.startswith(f"robots-tron: {said}: 0 of 2 games saved in ") and "--resume" in line
    assert "Traceback" not in err


def test_memory_option_reaches_every_game_and_belongs_to_the_journal(tmp_path: Path) -> None:
    """--memory caps each bot's address space in the workers too; resuming with another is refused."""
    from engine.tron.arena import write_arena

    board = tmp_path / "a.txt"
    board.write_text(write_arena(ARENAS[0][1]))
    hungry = tmp_path / "hungry.py"  # answers only when it could reserve 3 GiB of address space
    hungry.write_text(
        f"#!{sys.executable}\nimport mmap, sys\nfor line in sys.stdin:\n"
        "    if line.startswith('ROUND'):\n        mmap.mmap(-1, 3 << 30); print('AHEAD', flush=True)\n"
    )
    hungry.chmod(0o755)
    capped, free = tmp_path / "capped", tmp_path / "free"
    common = ["tournament", str(hungry), "simple", "--boards", str(board), "--time-limit", "5"]
    assert main([*common, "--out", str(capped), "--jobs", "2"]) == 0
    assert main([*common, "--out", str(free), "--memory", "0"]) == 0
    csv_capped, csv_free = (capped / "results.csv").read_text(), (free / "results.csv").read_text()
    assert csv_capped.count("Cannot allocate memory") == 2 and "Cannot allocate memory" not in csv_free
    assert main([*common, "--out", str(capped), "--resume", "--memory", "4096"]) == 2
    # No limit is how bots ran before --memory existed: such a journal names no memory, so a
    # tournament journaled then is resumed with --memory 0 (it was refused: "memory differ").
    header = json.loads((free / "journal.jsonl").read_text().splitlines()[0])
    assert "memory" not in header["fingerprint"] and header["fingerprint"]["startup"] == 2.0
    assert main([*common, "--out", str(free), "--resume", "--memory", "0"]) == 0


def test_a_bot_that_ignores_end_is_named_once_with_its_games_and_the_grace(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each game of a bot ignoring END waited the grace time before it was killed, and nothing said so."""
    import engine.tron.process

    monkeypatch.setattr(engine.tron.process, "END_GRACE", 0.1)  # the workers are forked: they see it too
    stubborn = tmp_path / "stubborn"
    stubborn.write_text("#!/bin/sh\nwhile read l; do case $l in ROUND*) echo AHEAD;; esac; done\nexec sleep 3600\n")
    stubborn.chmod(0o755)
    board = tmp_path / "a.txt"
    from engine.tron.arena import write_arena

    board.write_text(write_arena(ARENAS[0][1]))
    out = tmp_path / "out"
    assert main(["tournament", str(stubborn), "simple", "--boards", str(board), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    notes = [line for line in printed.splitlines() if "END" in line]
    assert notes == [f"note: {stubborn} did not exit at END in 2 games: each waited 0.1 s before it was killed"]
    summary = json.loads((out / "summary.json").read_text())
    assert summary["ignored_end"] == {"grace_s": 0.1, "games": {str(stubborn): 2}}
    assert (out / "results.csv").read_text().startswith("key,arena,bot1,bot2,")
    assert "lingered" not in (out / "results.csv").read_text()


@pytest.mark.parametrize("name", ["results.csv", "summary.json"])
def test_a_fifo_where_a_report_goes_is_refused_before_any_game(tmp_path: Path, name: str) -> None:
    """A FIFO (or a folder) where results.csv or summary.json go was refused only after the last
    game, hours later; robots-contest names it first, and so does the tournament now."""
    import os

    os.mkfifo(tmp_path / name)
    played: list[int] = []
    with pytest.raises(InputError) as info:
        run_tournament([bot_spec("simple"), bot_spec("random")], ARENAS[:1], tmp_path,
                       on_game=lambda done, total: played.append(done))  # fmt: skip
    assert str(info.value) == f"{tmp_path / name}: is a FIFO (named pipe), not a file: refusing to replace it"
    assert played == [] and not (tmp_path / JOURNAL).exists()
