"""Contests that survive hostile AIs, kill -9 and a cluster: every game once, the same results, no process left.

The hostile AIs are the organisers' test kit in ``examples/hostile/``; ``mixed`` is good in most
rounds and, chosen by the cards dealt, kills its parent, leaves children behind (in its group
or a session of its own) or keeps writing into its folder.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.contest import main
from engine.contest.report import parse_csv

from .conftest import CHOP, ROOT, ScriptMaker, started_by_this_run

HOSTILE = ROOT / "examples" / "hostile"
MIXED = HOSTILE / "mixed"
#: Every process the hostile kit leaves behind has one of these in its command line.
STRAY_MARKS = ("2345.", "junk-a", "junk-b")


def strays() -> list[str]:
    """Command lines of live processes started by the hostile kit (zombies do not count)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if (
            state not in ("Z", "X")
            and any(mark in command for mark in STRAY_MARKS)
            and "pytest" not in command
            and started_by_this_run(entry.name)
        ):
            found.append(f"{entry.name}: {command}")
    return found


def contest(capsys: pytest.CaptureFixture[str], out: Path, *extra: str) -> tuple[int, str]:
    code = main([str(CHOP), "--seeds", "16", "--ai", str(MIXED), "--out", str(out), *extra])
    return code, capsys.readouterr().err


def test_mixed_hostile_contest_records_every_game_and_leaves_no_process(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, err = contest(capsys, tmp_path / "two", "--jobs", "2")
    assert code == 0, err
    rows = parse_csv((tmp_path / "two" / "results.csv").read_text())
    assert [r.deck for r in rows] == [f"seed:{n}" for n in range(1, 17)]
    died = [r for r in rows if r.outcome == "E"]
    assert died and all(r.error == "the process playing it died (SIGKILL)" for r in died), died
    assert any(r.outcome != "E" for r in rows)
    assert strays() == [], "the hostile AIs left processes running"
    # One worker or two, the same games and the same rows, byte for byte.
    code, err = contest(capsys, tmp_path / "one", "--jobs", "1")
    assert code == 0, err
    assert (tmp_path / "one" / "results.csv").read_bytes() == (tmp_path / "two" / "results.csv").read_bytes()
    assert strays() == []


@pytest.mark.parametrize("name", ["kill-parent", "fork-and-stay", "setsid-child", "scratch-writer", "symlink-planter"])
def test_each_hostile_ai_alone(capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str) -> None:
    code = main([str(CHOP), "--seeds", "2", "--ai", str(HOSTILE / name), "--jobs", "2", "--out", str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 0, err
    rows = parse_csv((tmp_path / "results.csv").read_text())
    assert len(rows) == 2
    if name == "kill-parent":
        assert all(r.outcome == "E" and "died (SIGKILL)" in r.error for r in rows)
    else:
        assert all(r.outcome in "XYZ" for r in rows), rows  # their answers are good: only side effects
    assert strays() == []


def _journal_rows(path: Path) -> int:
    try:
        return max(0, len([line for line in path.read_bytes().split(b"\n")[1:] if line]))
    except FileNotFoundError:
        return 0


def test_kill_9_half_way_then_resume_plays_every_game_once(make_script: ScriptMaker, tmp_path: Path) -> None:
    """Games on the second board wait for a gate; the contest is killed while they wait, then resumed."""
    gate = tmp_path / "gate"
    second = tmp_path / "second.dat"
    second.write_text("7 1\nT     Z\n")
    ai = make_script(
        "gated",
        f'if [ "$(head -n 1 board.txt)" = "7 1" ]; then\n'
        f"  while [ ! -e {gate} ]; do sleep 0.01; done\nfi\nhead -n 5 cards.txt > ccards.txt\n",
    )
    argv = [sys.executable, "-m", "engine.contest", str(CHOP), str(second), "--seeds", "6", "--ai", str(ai)]
    argv += ["--jobs", "2", "--level", "hard", "--timeout", "600"]
    out = tmp_path / "out"
    journal = out / "journal.jsonl"
    process = subprocess.Popen([*argv, "--out", str(out)], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 300  # against a hang only: the loop ends when the 6 rows are there
    while _journal_rows(journal) < 6 and time.monotonic() < deadline:
        assert process.poll() is None, process.communicate()
        time.sleep(0.02)
    assert _journal_rows(journal) == 6, "the first board's games should be journaled, the second's waiting"
    process.send_signal(signal.SIGKILL)
    process.communicate(timeout=60)
    gate.touch()
    resumed = subprocess.run([*argv, "--out", str(out), "--resume"], cwd=ROOT, capture_output=True, text=True)
    assert resumed.returncode == 0, resumed.stderr
    clean = subprocess.run([*argv, "--out", str(tmp_path / "clean")], cwd=ROOT, capture_output=True, text=True)
    assert clean.returncode == 0, clean.stderr
    assert (out / "results.csv").read_bytes() == (tmp_path / "clean" / "results.csv").read_bytes()
    keys = [json.loads(line)["key"] for line in journal.read_text().splitlines()[1:]]
    assert len(keys) == 12 and len(set(keys)) == 12, "every game exactly once"
    deadline = time.monotonic() + 60
    while any(str(ai) in c for c in _commands()) and time.monotonic() < deadline:
        time.sleep(0.02)  # the killed contest's workers stop their AIs as they notice
    assert not any(str(ai) in c for c in _commands()), "an AI of the killed contest is still running"


def _commands() -> list[str]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
                if state not in ("Z", "X"):
                    found.append((entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace"))
            except OSError:
                continue
    return found


def test_resume_refuses_other_settings_and_new_run_refuses_old_journal(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main([str(CHOP), "--seeds", "2", "--out", str(tmp_path)]) == 0
    capsys.readouterr()
    assert main([str(CHOP), "--seeds", "2", "--out", str(tmp_path)]) == 2
    assert "add --resume" in capsys.readouterr().err
    assert main([str(CHOP), "--seeds", "3", "--out", str(tmp_path), "--resume"]) == 2
    err = capsys.readouterr().err
    assert "other settings" in err and err.count("\n") == 1
    before = (tmp_path / "results.csv").read_bytes()
    assert main([str(CHOP), "--seeds", "2", "--out", str(tmp_path), "--resume"]) == 0
    assert (tmp_path / "results.csv").read_bytes() == before


def test_a_folder_holding_a_contest_with_another_number_of_ais_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A one-AI contest wrote over a comparison's results.csv (its journals are journal-N.jsonl), and back."""
    compared = tmp_path / "compared"
    assert main([str(CHOP), "--seeds", "2", "--ai", "reference", "--ai", "reference", "--out", str(compared)]) == 0
    single = tmp_path / "single"
    assert main([str(CHOP), "--seeds", "2", "--out", str(single)]) == 0

    def files() -> dict[str, bytes]:
        return {str(p.relative_to(tmp_path)): p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}

    before = files()
    capsys.readouterr()
    for folder, extra in ((compared, []), (compared, ["--resume"]), (single, ["--ai", "reference", "--ai", "planner"])):
        assert main([str(CHOP), "--seeds", "2", "--out", str(folder), *extra]) == 2
        err = capsys.readouterr().err
        assert "journal of another contest" in err and err.count("\n") == 1
    assert files() == before, "a refused contest changed a file"


def test_torn_last_journal_line_is_dropped(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main([str(CHOP), "--seeds", "3", "--out", str(tmp_path)]) == 0
    journal = tmp_path / "journal.jsonl"
    lines = journal.read_bytes().split(b"\n")
    journal.write_bytes(b"\n".join(lines[:3]) + b"\n" + lines[3][:10])  # header, 2 rows, a cut third
    full = (tmp_path / "results.csv").read_bytes()
    (tmp_path / "results.csv").unlink()
    capsys.readouterr()
    assert main([str(CHOP), "--seeds", "3", "--out", str(tmp_path), "--resume"]) == 0
    assert (tmp_path / "results.csv").read_bytes() == full
    assert len(journal.read_text().splitlines()) == 4


@pytest.mark.parametrize(
    "content",
    [b"my notes, no newline at the end", b"\xef\xbb\xbf", b"1 2\r3 4\r", b"[" * 10_000, b'{"journal":2}'],
    ids=["text", "bom", "lone-cr", "deep", "other-format"],
)
def test_resume_never_empties_a_file_that_is_not_a_journal(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: bytes
) -> None:
    """A one-line file without a newline at its end was taken for a journal whose header was cut
    short: ``--resume`` truncated it to nothing and wrote a new journal over it."""
    journal = tmp_path / "journal.jsonl"
    journal.write_bytes(content)
    capsys.readouterr()
    assert main([str(CHOP), "--seeds", "1", "--out", str(tmp_path), "--resume"]) == 2
    err = capsys.readouterr().err
    assert err == f"robots-contest: {journal}:1:1: not a journal of format 1\n"
    assert journal.read_bytes() == content


def test_resume_after_a_torn_header_starts_the_journal_again(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """What a crash while the header was written leaves is still dropped, as a torn row is."""
    journal = tmp_path / "journal.jsonl"
    journal.write_bytes(b'{"journal":1,"fingerpr')
    assert main([str(CHOP), "--seeds", "1", "--out", str(tmp_path), "--resume"]) == 0
    assert journal.read_text().startswith('{"journal":1,"fingerprint":')


def test_journal_that_is_a_fifo_or_a_link_is_handled(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """--resume waited for ever on a FIFO journal.jsonl; a dangling link to where the journal
    should go said '[Errno 17] File exists' instead of writing it there, a link loop the same."""
    import os

    from tests.fifo_guard import never_stuck_on

    fifo = tmp_path / "fifo"
    fifo.mkdir()
    os.mkfifo(fifo / "journal.jsonl")
    with never_stuck_on(fifo / "journal.jsonl"):
        assert main([str(CHOP), "--seeds", "2", "--out", str(fifo), "--resume"]) == 2
    assert capsys.readouterr().err == (
        f"robots-contest: {fifo / 'journal.jsonl'}: cannot write the journal:"
        " is a FIFO (named pipe), not a file: refusing to replace it\n"
    )
    linked = tmp_path / "linked"
    linked.mkdir()
    (linked / "journal.jsonl").symlink_to(tmp_path / "elsewhere.jsonl")
    assert main([str(CHOP), "--seeds", "2", "--out", str(linked)]) == 0
    assert (linked / "journal.jsonl").is_symlink() and len((tmp_path / "elsewhere.jsonl").read_text().splitlines()) == 3
    capsys.readouterr()
    loop = tmp_path / "loop"
    loop.mkdir()
    (loop / "journal.jsonl").symlink_to("other")
    (loop / "other").symlink_to("journal.jsonl")
    assert main([str(CHOP), "--seeds", "2", "--out", str(loop)]) == 2
    assert capsys.readouterr().err.endswith(
        "journal.jsonl: cannot write the journal: too many levels of symbolic links\n"
    )


def test_full_disk_while_journaling_is_one_line_and_leaves_no_half_line(tmp_path: Path) -> None:
    """A full disk while a game was appended to the journal was a traceback (exit 1) and left half a line."""
    assert main([str(CHOP), "--seeds", "2", "--out", str(tmp_path)]) == 0
    journal = tmp_path / "journal.jsonl"
    lines = journal.read_bytes().splitlines(keepends=True)
    journal.write_bytes(b"".join(lines[:2]))  # one game of three to go
    (tmp_path / "results.csv").unlink()
    script = (
        "import resource, sys\n"
        f"resource.setrlimit(resource.RLIMIT_FSIZE, ({len(lines[0]) + len(lines[1]) + 20},) * 2)\n"
        "from engine.contest import main\n"
        "sys.exit(main(sys.argv[1:]))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script, str(CHOP), "--seeds", "2", "--out", str(tmp_path), "--resume"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    assert result.stderr.splitlines()[-1] == (
        f"robots-contest: {journal}: File too large; the games saved so far are kept:"
        " play the rest with the same command and --resume"
    )
    assert journal.read_bytes() == b"".join(lines[:2])
    assert main([str(CHOP), "--seeds", "2", "--out", str(tmp_path), "--resume"]) == 0


def test_the_leftover_check_sees_a_leftover(tmp_path: Path) -> None:
    """``strays()`` is not blind: a process left running by this run is found (then killed here)."""
    leftover = subprocess.Popen(["sleep", "2345.61"], start_new_session=True)
    try:
        # Popen returns once the exec has begun, before the kernel has set up the new command line
        # (/proc/PID/cmdline is empty for a moment): wait for it, or the check failed about half the time.
        cmdline = Path(f"/proc/{leftover.pid}/cmdline")
        deadline = time.monotonic() + 60  # against a hang only
        while not cmdline.read_bytes().startswith(b"sleep\0") and time.monotonic() < deadline:
            time.sleep(0.001)
        assert any(command.startswith(f"{leftover.pid}: sleep 2345.61") for command in strays())
    finally:
        leftover.kill()
        leftover.wait()
    assert strays() == []


def _no_job(job: object) -> dict[str, object]:
    raise AssertionError("a worker of a dead contest played a job")


def test_a_worker_whose_contest_died_before_it_could_watch_leaves_at_once() -> None:
    """``kill -9`` of the contest just after a worker's fork: its parent is not the contest any more.

    The worker took its parent's pid after the fork, so it read the new parent's, never noticed,
    and waited on its pipe for ever (it holds the contest's end of that pipe too).
    """
    import multiprocessing

    from engine.batch.pool import _worker_main

    contest_end, worker_end = multiprocessing.Pipe()
    not_its_parent = 1  # the contest's pid, taken before the fork, is gone: the worker has another parent
    worker = multiprocessing.get_context("fork").Process(
        target=_worker_main, args=(worker_end, _no_job, not_its_parent)
    )
    worker.start()
    worker.join(300)  # against a hang only
    alive = worker.is_alive()
    if alive:
        worker.kill()
        worker.join()
    contest_end.close()
    assert not alive, "the worker waited for a contest that is gone"
    assert worker.exitcode == 128 + signal.SIGTERM


def test_an_ai_that_stops_its_worker_does_not_hang_the_contest(make_script: ScriptMaker, tmp_path: Path) -> None:
    """``kill -STOP $PPID``: the worker, stopped, never timed its AI out and the contest waited for ever."""
    ai = make_script("stopper", "head -n 5 cards.txt > ccards.txt\nkill -STOP $PPID\n")
    tiny = ROOT / "gameboards" / "tiny-2x1.dat"
    argv = [sys.executable, "-m", "engine.contest", str(tiny), "--seeds", "2", "--ai", str(ai), "--jobs", "2"]
    # The timeout only guards against the hang this test is about; the contest ends long before.
    done = subprocess.run(
        [*argv, "--out", str(tmp_path / "out")], cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr
    rows = parse_csv((tmp_path / "out" / "results.csv").read_text())
    assert [row.outcome for row in rows] == ["Z", "Z"], [row.error for row in rows]


def killer_leaving_its_folder(make_script: ScriptMaker, tmp_path: Path) -> tuple[Path, Path]:
    """An AI that notes its scratch folder in ``folders`` and kills the process playing its game."""
    folders = tmp_path / "folders"
    ai = make_script("folder-killer", f"pwd >> {folders}\nhead -n 5 cards.txt > ccards.txt\nkill -9 $PPID\n")
    return ai, folders


def test_an_ai_that_kills_its_worker_leaves_no_scratch_folder(
    make_script: ScriptMaker, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The dead worker's AI folder (board.txt, cards.txt...) stayed in the temp folder, one per game."""
    ai, folders = killer_leaving_its_folder(make_script, tmp_path)
    tiny = str(ROOT / "gameboards" / "tiny-2x1.dat")
    assert main([tiny, "--seeds", "3", "--ai", str(ai), "--jobs", "2", "--out", str(tmp_path / "out")]) == 0
    seen = folders.read_text().split()
    assert len(seen) == 3 and "died (SIGKILL)" in capsys.readouterr().err
    assert [folder for folder in seen if Path(folder).exists()] == []
