"""``kill -9`` of the command a user started leaves no process behind: not its workers, not its AIs.

``robots-engine play`` killed so left its AI program (and the program's children) running in
their own session until their end; contest and tournament workers must notice their parent died
as well.  Each command is started with an AI (or Tron bot) that notes its pid and its child's
and then waits; once both are noted, the command is killed, and every process that descended
from it must be gone soon after (the bound only guards against a hang: the loop ends as soon as
they are).
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.contest.report import parse_csv

from .conftest import CHOP, ROOT, ScriptMaker, is_alive

#: Against a hang only: every wait below ends on the event it waits for.
PATIENCE = 120.0


def _stat(pid: int) -> tuple[int, str] | None:
    """``(parent, start time)`` of a process, None when it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return int(fields[1]), fields[19]


def descendants(top: int) -> dict[int, str]:
    """Every live process below ``top``, with its start time (a pid used again is not the same process)."""
    parents: dict[int, tuple[int, str]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            stat = _stat(int(entry.name))
            if stat is not None:
                parents[int(entry.name)] = stat
    found: dict[int, str] = {}
    grew = True
    while grew:
        grew = False
        for pid, (parent, started) in parents.items():
            if pid not in found and (parent == top or parent in found):
                found[pid] = started
                grew = True
    return found


def survivors(processes: dict[int, str]) -> list[str]:
    alive = []
    for pid, started in processes.items():
        stat = _stat(pid)
        if stat is not None and stat[1] == started and is_alive(pid):
            try:
                command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue
            alive.append(f"{pid}: {command}")
    return alive


def kill_when_waiting(argv: list[str], noted: Path, count: int) -> dict[int, str]:
    """Start ``argv``; once ``count`` pids are noted in ``noted``, ``kill -9`` it; its descendants then."""
    process = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + PATIENCE
        while (not noted.exists() or len(noted.read_text().split()) < count) and time.monotonic() < deadline:
            assert process.poll() is None, process.communicate()[1]
            time.sleep(0.01)
        below = descendants(process.pid)
        pids = [int(p) for p in noted.read_text().split()]
        assert set(pids) <= set(below), (pids, below)
    finally:
        process.send_signal(signal.SIGKILL)
        process.communicate(timeout=PATIENCE)
    return below


def wait_all_gone(below: dict[int, str]) -> list[str]:
    deadline = time.monotonic() + PATIENCE
    while survivors(below) and time.monotonic() < deadline:
        time.sleep(0.01)
    return survivors(below)


def slow_program(make_script: ScriptMaker, tmp_path: Path, name: str, answer: str) -> tuple[Path, Path, Path]:
    """A program that, until ``gate`` exists, notes its folder in ``noted.cwd``, its pid and its
    child's in ``noted``, and waits."""
    noted, gate = tmp_path / "noted", tmp_path / "gate"
    body = (
        f'if [ ! -e "{gate}" ]; then\n'
        f'  pwd >> "{noted}.cwd"\n'
        f'  echo $$ >> "{noted}"\n'
        f'  sleep 2345.9 &\n  echo $! >> "{noted}"\n  wait\nfi\n{answer}'
    )
    return make_script(name, body), noted, gate


@pytest.mark.parametrize("command", ["robots-engine play", "robots-tron play"])
def test_a_killed_game_leaves_no_ai_running(make_script: ScriptMaker, tmp_path: Path, command: str) -> None:
    """The AI of ``robots-engine play`` (a bot of ``robots-tron play``) outlived the command's kill -9."""
    program, noted, _ = slow_program(make_script, tmp_path, "slow", "")
    if command == "robots-engine play":
        argv = [sys.executable, "-m", "engine.cli", "play", str(CHOP), "--seed", "1", "--ai", str(program)]
        argv += ["--timeout", "600", "--out", str(tmp_path / "out")]
    else:
        argv = [sys.executable, "-m", "engine.tron.cli", "play", "open-10x10", str(program), "simple"]
        argv += ["--startup", "600", "--out", str(tmp_path / "out")]
    below = kill_when_waiting(argv, noted, 2)
    assert wait_all_gone(below) == []
    if command == "robots-engine play":  # its AI ran in a scratch folder of the engine's: removed too
        (scratch,) = Path(f"{noted}.cwd").read_text().split()
        assert Path(scratch).name.startswith("robots-ai-")
        assert not Path(scratch).exists()


@pytest.mark.parametrize("command", ["robots-contest", "robots-tron tournament"])
def test_a_killed_contest_leaves_no_process_and_resumes(make_script: ScriptMaker, tmp_path: Path, command: str) -> None:
    """Its workers notice their parent died, kill their AIs and exit; ``--resume`` then plays the rest."""
    if command == "robots-contest":
        program, noted, gate = slow_program(make_script, tmp_path, "slow", "head -n 5 cards.txt > ccards.txt\n")
        argv = [sys.executable, "-m", "engine.contest", str(CHOP), "--seeds", "3", "--ai", str(program)]
        argv += ["--jobs", "2", "--timeout", "600", "--out", str(tmp_path / "out")]
    else:
        program, noted, gate = slow_program(
            make_script,
            tmp_path,
            "slow",
            "exec sh -c 'while read l; do case $l in ROUND*) echo AHEAD;; END) exit;; esac; done'\n",
        )
        argv = [sys.executable, "-m", "engine.tron.cli", "tournament", str(program), "simple"]
        argv += ["--boards", "open-10x10", "--jobs", "2", "--startup", "600", "--out", str(tmp_path / "out")]
    below = kill_when_waiting(argv, noted, 4)  # two workers, each with its AI and the AI's child
    assert wait_all_gone(below) == []
    gate.touch()
    resumed = subprocess.run([*argv, "--resume"], cwd=ROOT, capture_output=True, text=True, timeout=PATIENCE * 5)
    assert resumed.returncode == 0, resumed.stderr
    if command == "robots-contest":
        rows = parse_csv((tmp_path / "out" / "results.csv").read_text())
        assert [r.deck for r in rows] == ["seed:1", "seed:2", "seed:3"]
        assert all(r.outcome != "E" for r in rows), rows
    else:
        assert len((tmp_path / "out" / "results.csv").read_text().splitlines()) == 3
