"""docs/python.md's code runs: its Python blocks, in order, as one script in a fresh process (the
way a user pastes them), with a temporary folder of its own; and the script is ``mypy --strict`` clean,
so the names it shows are typed as a user's checker sees them."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "python.md"


def _script(tmp_path: Path) -> Path:
    blocks = re.findall(r"^```python\n(.*?)^```", DOC.read_text(encoding="utf-8"), re.S | re.M)
    assert len(blocks) >= 5
    script = tmp_path / "python_doc.py"
    script.write_text("\n".join(blocks), encoding="utf-8")
    return script


def test_the_python_guide_runs(tmp_path: Path) -> None:
    script = _script(tmp_path)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TMPDIR": str(tmp_path)}
    env.pop("DISPLAY", None)
    done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "mine.dat:2:2: unknown board character '?'" in done.stdout
    assert [p.name for p in tmp_path.glob("*/game/end.png")] == ["end.png"]


def test_the_python_guide_is_strictly_typed(tmp_path: Path) -> None:
    script = _script(tmp_path)
    env = {**os.environ, "MYPYPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--follow-imports=silent", str(script)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
