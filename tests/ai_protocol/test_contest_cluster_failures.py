"""``robots-contest --cluster`` when things go wrong, on a real scheduler and workers on 127.0.0.1.

What an organiser meets: an AI named by a relative path (the workers run elsewhere), a worker
killed mid-way, the scheduler killed mid-way (then ``--resume`` on a restarted cluster), Ctrl-C,
a worker whose Python lacks numba, and addresses where no scheduler answers.  The AIs here cause
each event themselves (kill the scheduler, their worker, or the contest), so nothing waits on time.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import distributed
import pytest

import engine.batch.cluster
from engine.contest import main

from .conftest import ROOT, ScriptMaker, wait_gone

DASK = Path(sys.executable).parent / "dask"
TINY = str(ROOT / "gameboards" / "tiny-2x1.dat")
#: Plays MF 1 five times: the robot on tiny-2x1 reaches the goal.
CARDS = "printf 'MF 1\\nMF 1\\nMF 1\\nMF 1\\nMF 1\\n' > ccards.txt\n"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Cluster:
    """A scheduler and two single-thread workers on 127.0.0.1, started from ``folder``."""

    def __init__(self, folder: Path, *, worker_path: str = str(ROOT)) -> None:
        self.address = f"tcp://127.0.0.1:{free_port()}"
        self.folder = folder
        folder.mkdir(parents=True)
        self.processes: list[subprocess.Popen[bytes]] = []
        self.start("scheduler", str(ROOT), "scheduler", "--host", "127.0.0.1", "--port", self.address.rsplit(":", 1)[1])
        for n in (1, 2):
            self.start(f"worker{n}", worker_path, "worker", self.address, "--host", "127.0.0.1", "--nthreads", "1")
        with distributed.Client(self.address, timeout=120) as client:
            client.wait_for_workers(2, timeout=300)  # returns as soon as both have joined

    def start(self, name: str, path: str, *argv: str) -> None:
        env = {**os.environ, "PYTHONPATH": path}
        with open(self.folder / f"{name}.log", "wb") as log:
            self.processes.append(
                subprocess.Popen([str(DASK), *argv, "--no-dashboard"], cwd=self.folder, env=env, stdout=log, stderr=log)
            )

    @property
    def scheduler_pid(self) -> int:
        return self.processes[0].pid

    def stop(self) -> None:
        for process in reversed(self.processes):
            process.terminate()
        for process in reversed(self.processes):
            try:
                process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


@pytest.fixture
def clusters(tmp_path: Path) -> Iterator[list[Cluster]]:
    """Where a test puts the clusters it starts; each is stopped at the end."""
    started: list[Cluster] = []
    yield started
    for cluster in started:
        cluster.stop()


def journal_keys(path: Path) -> list[str]:
    return [json.loads(line)["key"] for line in path.read_text().splitlines()[1:]]


def test_a_relative_ai_path_is_found_on_the_workers(
    clusters: list[Cluster], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The workers run in another folder: ``--ai examples/python/bot.py`` named nothing there."""
    clusters.append(Cluster(tmp_path / "cluster"))
    monkeypatch.chdir(ROOT)
    argv = [str(ROOT / "gameboards" / "chop.dat"), "--seeds", "3", "--ai", "examples/python/bot.py"]
    assert main([*argv, "--cluster", clusters[0].address, "--out", str(tmp_path / "c")]) == 0
    assert main([*argv, "--jobs", "1", "--out", str(tmp_path / "l")]) == 0
    csv = (tmp_path / "c" / "results.csv").read_text()
    assert "no such AI program" not in csv and "examples/python/bot.py" in csv  # the rows name the AI as given
    assert csv == (tmp_path / "l" / "results.csv").read_text()


def test_a_killed_scheduler_stops_the_contest_and_resume_finishes_it(
    clusters: list[Cluster], make_script: ScriptMaker, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Its games were journaled as 'the worker playing it was lost' and the contest ended 0."""
    clusters.append(Cluster(tmp_path / "first"))
    flag = tmp_path / "kill-the-scheduler"
    flag.write_text(str(clusters[0].scheduler_pid))
    ai = make_script(
        "ai.sh", f"#!/bin/sh\nif pid=$(cat {flag} 2>/dev/null); then rm -f {flag}; kill -9 $pid; fi\n{CARDS}"
    )
    argv = [TINY, "--seeds", "4", "--ai", str(ai), "--out", str(tmp_path / "out")]
    assert main([*argv, "--cluster", clusters[0].address]) == 2
    err = capsys.readouterr().err.splitlines()[-1]
    assert f"lost the scheduler {clusters[0].address}" in err and "restart the cluster" in err and "--resume" in err
    journal = tmp_path / "out" / "journal.jsonl"
    saved = journal_keys(journal)
    assert len(saved) < 4 and not (tmp_path / "out" / "results.csv").exists()
    assert "lost" not in journal.read_text()

    clusters.append(Cluster(tmp_path / "second"))
    assert main([*argv, "--cluster", clusters[1].address, "--resume"]) == 0
    keys = journal_keys(journal)
    assert keys[: len(saved)] == saved and sorted(keys) == sorted(set(keys)) and len(keys) == 4
    assert main([TINY, "--seeds", "4", "--ai", str(ai), "--jobs", "1", "--out", str(tmp_path / "local")]) == 0
    assert (tmp_path / "out" / "results.csv").read_text() == (tmp_path / "local" / "results.csv").read_text()


def test_a_killed_worker_costs_no_game_and_its_game_process_ends(
    clusters: list[Cluster], make_script: ScriptMaker, tmp_path: Path
) -> None:
    """kill -9 of a worker: its game is played again on another worker (once in the journal), and
    the game process it had stops instead of playing on for nobody."""
    clusters.append(Cluster(tmp_path / "cluster"))
    flag, pids = tmp_path / "kill-my-worker", tmp_path / "pids"
    flag.write_text("")
    # The AI's parent is the game process, whose parent is the Dask worker.
    ai = make_script(
        "ai.sh",
        f"#!/bin/sh\nif rm {flag} 2>/dev/null; then echo $PPID $$ > {pids}; kill -9 $(ps -o ppid= -p $PPID);"
        f" exec sleep 600; fi\n{CARDS}",
    )
    argv = [TINY, "--seeds", "4", "--ai", str(ai), "--timeout", "900"]
    assert main([*argv, "--cluster", clusters[0].address, "--out", str(tmp_path / "c")]) == 0
    game, sleeper = (int(pid) for pid in pids.read_text().split())
    assert wait_gone(game) and wait_gone(sleeper)
    keys = journal_keys(tmp_path / "c" / "journal.jsonl")
    assert len(keys) == 4 == len(set(keys))
    assert main([*argv, "--jobs", "1", "--out", str(tmp_path / "l")]) == 0
    assert (tmp_path / "c" / "results.csv").read_text() == (tmp_path / "l" / "results.csv").read_text()


def test_ctrl_c_stops_the_games_running_on_the_workers(
    clusters: list[Cluster], make_script: ScriptMaker, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Dask cancels the tasks but cannot stop a running one: its game played on for nobody."""
    clusters.append(Cluster(tmp_path / "cluster"))
    pids, flag = tmp_path / "pids", tmp_path / "press-ctrl-c"
    flag.write_text("")
    ai = make_script(
        "ai.sh",
        f"#!/bin/sh\necho $$ >> {pids}\nif rm {flag} 2>/dev/null; then kill -INT {os.getpid()}; fi\nexec sleep 600\n",
    )
    argv = [TINY, "--seeds", "4", "--ai", str(ai), "--timeout", "900", "--out", str(tmp_path / "out")]
    assert main([*argv, "--cluster", clusters[0].address]) == 130
    assert "interrupted: 0 of 4 games saved" in capsys.readouterr().err
    for pid in pids.read_text().split():
        assert wait_gone(int(pid))
    with distributed.Client(clusters[0].address, timeout=60) as client:  # the cluster still serves
        assert len(client.scheduler_info()["workers"]) == 2
    assert journal_keys(tmp_path / "out" / "journal.jsonl") == []


def test_a_worker_without_numba_is_named(
    clusters: list[Cluster], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every planner game it took ended E with an ImportError, and no word of which machine."""
    fake = tmp_path / "no-numba" / "numba"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("raise ImportError('No module named numba')\n")
    clusters.append(Cluster(tmp_path / "cluster", worker_path=f"{fake.parent}{os.pathsep}{ROOT}"))
    out = tmp_path / "out"
    assert main([TINY, "--seeds", "2", "--ai", "planner", "--cluster", clusters[0].address, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "worker tcp://127.0.0.1:" in err and "lacks a module: No module named numba" in err
    assert not out.exists()


def test_a_worker_without_numba_that_joins_late_is_named_in_the_rows(
    clusters: list[Cluster], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A worker that joins after the first check (as if: the check is skipped) names itself in each
    game's reason; the rows said 'crashed: ImportError' with no word of which machine."""
    fake = tmp_path / "no-numba" / "numba"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("raise ImportError('No module named numba')\n")
    clusters.append(Cluster(tmp_path / "cluster", worker_path=f"{fake.parent}{os.pathsep}{ROOT}"))
    monkeypatch.setattr(engine.batch.cluster, "_check_workers", lambda *args: None)
    out = tmp_path / "out"
    assert main([TINY, "--seeds", "2", "--ai", "planner", "--cluster", clusters[0].address, "--out", str(out)]) == 0
    rows = (out / "results.csv").read_text().splitlines()[1:]
    assert len(rows) == 2
    assert all("worker tcp://127.0.0.1:" in row and "lacks a module: No module named numba" in row for row in rows)


def serve(listener: socket.socket, reply: bytes) -> None:
    """Accept connections on ``listener`` and send each ``reply`` (nothing: a port that never answers)."""
    kept = []
    while True:
        try:
            conn, _ = listener.accept()
        except OSError:
            return
        kept.append(conn)
        if reply:
            conn.sendall(reply)


@pytest.mark.parametrize(
    ("reply", "words"), [(b"", "cannot reach the scheduler: no answer in 1 s"), (b"\xff" * 64, "no Dask scheduler")]
)
def test_a_port_without_a_scheduler_is_one_line(
    reply: bytes, words: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A port that accepts and stays silent hung the contest for ever; one that answers garbage
    was a MemoryError traceback."""
    monkeypatch.setattr(engine.batch.cluster, "CONNECT_TIMEOUT", 1.0)
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        threading.Thread(target=serve, args=(listener, reply), daemon=True).start()
        port = listener.getsockname()[1]
        argv = [TINY, "--seeds", "2", "--cluster", f"tcp://127.0.0.1:{port}", "--out", str(tmp_path / "out")]
        assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err and "Traceback" not in err
    assert not (tmp_path / "out").exists()
