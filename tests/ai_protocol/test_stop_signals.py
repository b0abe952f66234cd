"""SIGINT, SIGTERM or SIGHUP to ``robots-engine play`` or ``robots-view --ai`` end the AI and remove its folder."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from .conftest import CHOP, ROOT, ScriptMaker, wait_gone


def wait_for_file(path: Path, process: subprocess.Popen[str], timeout: float = 300) -> str:
    """The content of ``path`` once the AI wrote it (the deadline only guards against a hang)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert process.poll() is None, process.communicate()
        if path.exists() and path.read_text().endswith("\n"):
            return path.read_text()
        time.sleep(0.02)
    raise AssertionError(f"{path} was never written")


COMMANDS = {
    "play": lambda ai, out: [sys.executable, "-m", "engine.cli", "play", str(CHOP), "--ai", str(ai), "--out", str(out)],
    "view": lambda ai, out: [
        sys.executable,
        "-m",
        "viewer3d",
        "--board",
        str(CHOP),
        "--ai",
        str(ai),
        "--headless",
        "--out",
        str(out / "x.gif"),
    ],
}


@pytest.mark.parametrize(
    ("command", "signum"),
    [
        ("play", signal.SIGINT),
        ("play", signal.SIGTERM),
        ("play", signal.SIGHUP),
        ("view", signal.SIGTERM),
        ("view", signal.SIGHUP),
    ],
)
def test_signal_ends_the_ai_and_removes_its_folder(
    make_script: ScriptMaker, tmp_path: Path, command: str, signum: signal.Signals
) -> None:
    marker = tmp_path / "inside"
    # The AI says who and where it is, then leaves a setsid child behind and thinks far too long
    # (39 minutes: were the command to wait for them instead of ending them, it would time out).
    ai = make_script(
        "slow",
        f'setsid sleep 2345.67 </dev/null >/dev/null 2>&1 &\necho $$ $! "$(pwd)" > {marker}.tmp\n'
        f"mv {marker}.tmp {marker}\nexec sleep 2345.67\n",
    )
    (tmp_path / "out").mkdir()
    process = subprocess.Popen(
        COMMANDS[command](ai, tmp_path / "out"),
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "DISPLAY": ""},
    )
    ai_pid, child_pid, folder = wait_for_file(marker, process).strip().split(" ", 2)
    assert Path(folder).is_dir()
    process.send_signal(signum)
    try:
        _out, err = process.communicate(timeout=30)
    finally:  # a failed run leaves nothing behind for the next test
        if process.poll() is None:
            for pid in (ai_pid, child_pid):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(int(pid), signal.SIGKILL)
            process.kill()
            process.communicate()
    assert process.returncode == 128 + signum, err
    assert "Traceback" not in err and err.count("\n") == 1
    assert ("interrupted" if signum == signal.SIGINT else signum.name) in err
    assert wait_gone(int(ai_pid)) and wait_gone(int(child_pid)), "the AI outlived the command"
    assert not Path(folder).exists(), "the AI's scratch folder was left behind"


@pytest.mark.parametrize("other_thread", [False, True], ids=["one-thread", "other-thread"])
@pytest.mark.parametrize("handler_raises", [False, True], ids=["handler-kills", "handler-raises"])
def test_a_stop_while_the_ai_starts_is_handled_once_the_ai_can_be_ended(
    monkeypatch: pytest.MonkeyPatch, handler_raises: bool, other_thread: bool
) -> None:
    """The signal comes while ``Popen`` waits for the exec (sent by the child itself, so always then).

    Handled there, the handler (a contest worker's SIGTERM handler kills the registered AIs and
    leaves; Ctrl-C raises) found no AI to end, and the AI ran on after the contest was gone.
    With another thread alive (a Dask offload thread in the suite) the kernel may hand the signal
    to that thread, where blocking it in ours does not hold it back.
    """
    import threading

    from engine.ai import external

    idle = threading.Event()
    waiter = threading.Thread(target=idle.wait, daemon=True)
    if other_thread:
        waiter.start()

    parent = os.getpid()
    real_setup = external.child_setup

    def signalling_setup(*args: Any) -> Callable[[], None]:
        setup = real_setup(*args)

        def run() -> None:
            os.kill(parent, signal.SIGTERM)
            setup()

        return run

    seen: list[int] = []

    def handler(signum: int, frame: object) -> None:
        seen.extend(external._RUNNING)
        if handler_raises:
            raise KeyboardInterrupt
        external.kill_running_ais()

    monkeypatch.setattr(external, "child_setup", signalling_setup)
    previous = signal.signal(signal.SIGTERM, handler)
    try:
        if handler_raises:
            with pytest.raises(KeyboardInterrupt):
                external.start_program(["sleep", "23.4568"], stdout=subprocess.DEVNULL)
        else:
            process = external.start_program(["sleep", "23.4568"], stdout=subprocess.DEVNULL)
            assert process.returncode == -signal.SIGKILL
    finally:
        signal.signal(signal.SIGTERM, previous)
        idle.set()
        if other_thread:
            waiter.join()
    assert len(seen) == 1, "the handler ran before the AI was registered"
    assert wait_gone(seen[0]), "the AI outlived the stop"
    assert not external._RUNNING
    assert signal.SIGTERM not in signal.pthread_sigmask(signal.SIG_BLOCK, []), "the stop signals stay blocked"


def test_the_ai_gets_the_stop_signals_unblocked(tmp_path: Path) -> None:
    from engine.ai import external

    process = external.start_program(["grep", "^SigBlk", "/proc/self/status"])
    try:
        assert process.stdout is not None
        blocked = int(process.stdout.read().split()[1], 16)
    finally:
        external.end_program(process)
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        assert not blocked & (1 << (signum - 1)), signal.Signals(signum).name
