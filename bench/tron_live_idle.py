"""CPU a live Tron window uses while it waits for a slow bot: ``robots-view --demo tron`` with a
test bot (``tests/viewer_tron/gatebot.py``) that answers two rounds and then waits for a gate this
script never opens, so the window has shown the game so far and waits for round 3. Reads the
viewer process's CPU time over ``--seconds`` after a 3 s settling time. Run from the repo root:

    python3 bench/tron_live_idle.py [--seconds 10]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.viewer_idle import start_xvfb  # noqa: E402


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    xvfb = start_xvfb()
    with tempfile.TemporaryDirectory() as folder:
        here = Path(folder)
        gate, seen, pid = here / "gate", here / "seen", here / "pid"
        gate.write_text("go\n" * 2)
        bot = f"{sys.executable} {ROOT / 'tests' / 'viewer_tron' / 'gatebot.py'} {pid} {gate} {seen}"
        env = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_STATE_HOME": str(here / "state")}
        viewer = subprocess.Popen(
            [sys.executable, "-m", "viewer3d", "--demo", "tron", "--ai", bot, "--time-limit", "600"],
            cwd=here, env=env, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        try:
            while "3" not in (seen.read_text().split() if seen.exists() else []):
                time.sleep(0.05)
            time.sleep(3.0)  # the window opens and plays the two rounds it has
            before = cpu_seconds(viewer.pid)
            time.sleep(args.seconds)
            used = cpu_seconds(viewer.pid) - before
            if viewer.poll() is not None:
                raise SystemExit(f"robots-view ended early (exit status {viewer.returncode})")
            shown = cpu_seconds(viewer.pid)
        finally:
            viewer.kill()
            viewer.wait(10)
            if xvfb is not None:
                xvfb.terminate()
    print(
        f"waiting for round 3: {used:.2f} s CPU in {args.seconds:.0f} s = {100 * used / args.seconds:.1f} % of a core"
        f" (the window had used {shown:.1f} s CPU to open and show rounds 1-2)"
    )


if __name__ == "__main__":
    main()
