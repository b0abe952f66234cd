"""``robots-contest --cluster``: a real Dask scheduler and two workers on 127.0.0.1 give the ``--jobs 1`` CSV.

The AI is the hostile kit's ``mixed``, so some games kill their parent: on the cluster too that
costs only the game, with the same row as on this machine.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

# The dev extra installs 'distributed' (--cluster needs it): without it the install is broken, and
# these tests fail (an importorskip here made CI skip them silently).
import distributed
import pytest

from engine.contest import main

from .conftest import CHOP, ROOT, ScriptMaker
from .test_contest_survival import MIXED, killer_leaving_its_folder, strays

DASK = Path(sys.executable).parent / "dask"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture
def scheduler(tmp_path: Path) -> Iterator[str]:
    """A scheduler and two single-thread workers on the loopback interface; its address."""
    address = f"tcp://127.0.0.1:{free_port()}"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    logs = tmp_path / "dask-logs"
    logs.mkdir()
    started: list[subprocess.Popen[bytes]] = []

    def start(name: str, *argv: str) -> None:
        with open(logs / f"{name}.log", "wb") as log:
            started.append(subprocess.Popen([str(DASK), *argv], cwd=tmp_path, env=env, stdout=log, stderr=log))

    port = address.rsplit(":", 1)[1]
    start("scheduler", "scheduler", "--host", "127.0.0.1", "--port", port, "--no-dashboard")
    for n in (1, 2):
        start(f"worker{n}", "worker", address, "--host", "127.0.0.1", "--nthreads", "1", "--no-dashboard")
    try:
        with distributed.Client(address, timeout=120) as client:
            client.wait_for_workers(2, timeout=300)  # returns as soon as both have joined
            assert len(client.scheduler_info()["workers"]) == 2
        yield address
    finally:
        for process in reversed(started):
            process.terminate()
        for process in reversed(started):
            try:
                process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def test_scheduler_and_two_workers_give_the_jobs_1_csv(
    scheduler: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    argv = [str(CHOP), "--seeds", "8", "--ai", str(MIXED), "--level", "normal"]
    assert main([*argv, "--cluster", scheduler, "--out", str(tmp_path / "cluster")]) == 0, capsys.readouterr().err
    assert f"cluster {scheduler}" in capsys.readouterr().out
    assert main([*argv, "--jobs", "1", "--out", str(tmp_path / "local")]) == 0
    cluster_csv = (tmp_path / "cluster" / "results.csv").read_bytes()
    assert cluster_csv == (tmp_path / "local" / "results.csv").read_bytes()
    assert b"the process playing it died (SIGKILL)" in cluster_csv  # some games killed their parent
    assert strays() == []
    # Resuming a finished cluster contest plays nothing and writes the same results.
    assert main([*argv, "--cluster", scheduler, "--out", str(tmp_path / "cluster"), "--resume"]) == 0
    assert (tmp_path / "cluster" / "results.csv").read_bytes() == cluster_csv


def test_local_cluster_and_bad_addresses(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main([str(CHOP), "--seeds", "2", "--cluster", "local:2", "--out", str(tmp_path / "a")]) == 0
    assert main([str(CHOP), "--seeds", "2", "--jobs", "1", "--out", str(tmp_path / "b")]) == 0
    assert (tmp_path / "a" / "results.csv").read_bytes() == (tmp_path / "b" / "results.csv").read_bytes()
    # summary.json says where the games ran: the cluster, not the --jobs default (it said "jobs": 1)
    summary = json.loads((tmp_path / "a" / "summary.json").read_text())
    assert summary["cluster"] == "local:2" and summary["jobs"] is None
    assert "cluster" not in json.loads((tmp_path / "b" / "summary.json").read_text())
    capsys.readouterr()
    for bad, words in (("local:0", "local:N needs N from 1"), ("nowhere", "scheduler address like")):
        assert main([str(CHOP), "--cluster", bad, "--out", str(tmp_path / "c")]) == 2
        err = capsys.readouterr().err
        assert words in err and err.count("\n") == 1
    with contextlib.suppress(FileNotFoundError):
        assert not (tmp_path / "c" / "journal.jsonl").exists()


def test_an_ai_that_kills_its_game_process_leaves_no_scratch_folder_on_a_cluster(
    make_script: ScriptMaker, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ai, folders = killer_leaving_its_folder(make_script, tmp_path)
    tiny = str(ROOT / "gameboards" / "tiny-2x1.dat")
    assert main([tiny, "--seeds", "2", "--ai", str(ai), "--cluster", "local:1", "--out", str(tmp_path / "out")]) == 0
    seen = folders.read_text().split()
    assert len(seen) == 2 and "died (SIGKILL)" in capsys.readouterr().err
    assert [folder for folder in seen if Path(folder).exists()] == []


@pytest.mark.parametrize("ais", [["reference"], ["reference", "reference"]])
def test_an_unreachable_scheduler_leaves_nothing_behind(
    ais: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """docs/contest-cluster.md: a one-line error, exit status 2, and nothing is written (no folder either)."""
    import engine.batch.cluster

    def unreachable(address: str, *args: object, **kwargs: object) -> None:
        raise engine.batch.cluster.InputError(f"--cluster {address}: cannot reach the scheduler: timed out")

    monkeypatch.setattr(engine.batch.cluster, "run_cluster", unreachable)
    out = tmp_path / "new" / "results"
    argv = [str(CHOP), "--seeds", "2", "--cluster", "tcp://127.0.0.1:1", "--out", str(out)]
    for ai in ais:
        argv += ["--ai", ai]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "cannot reach the scheduler" in err and err.count("\n") == 1
    assert list(tmp_path.iterdir()) == []
    # An --out that was there already stays, empty as it was.
    out.mkdir(parents=True)
    assert main(argv) == 2
    assert list(out.iterdir()) == []
