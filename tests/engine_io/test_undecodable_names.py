"""File names that are not UTF-8 (folders from old Latin-1 file systems) on every tool's output.

Under a real UTF-8 locale (``LANG=de_DE.UTF-8``) Python's stdout is strict: ``robots-engine check
'Brett <E4>.dat'`` checked the board and then ended in a UnicodeEncodeError traceback, as did
play, replay, ``robots-tron check`` and ``robots-theme check``; stderr wrote ``\\udce4``. The tests
run the tools as their console scripts do, with ``PYTHONIOENCODING=utf-8:strict`` standing for
such a locale (the C locale, where Python is lenient, hid it).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from engine.textout import ERRORS, escape_bytes, escape_quoted_bytes

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS: dict[str, str] = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]
#: The built-in Tron bots' stdout is the game's protocol, never a file name.
TOOLS = sorted(name for name in SCRIPTS if not name.startswith("robots-tron-"))
LATIN1 = os.fsdecode(b"Brett \xe4")


def tool(name: str, *argv: str, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    """``name argv...`` as its console script runs it, its stdout and stderr strict UTF-8."""
    module, _, function = SCRIPTS[name].partition(":")
    code = f"import sys; from {module} import {function}; sys.exit({function}())"
    env = {**os.environ, "PYTHONIOENCODING": "utf-8:strict", "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-c", code, *argv], cwd=cwd, env=env, capture_output=True, timeout=120, check=False
    )


def test_escape_bytes_writes_each_undecodable_byte_as_xnn() -> None:
    assert escape_bytes(os.fsdecode(b"a\xe4\xff/\xf6.dat")) == "a\\xe4\\xff/\\xf6.dat"
    assert escape_bytes('Brett ä, "neu".dat') == 'Brett ä, "neu".dat'  # valid UTF-8 is left alone


def test_a_quoted_undecodable_byte_is_shown_as_xnn_and_a_quoted_backslash_is_left_alone() -> None:
    """argparse quotes a bad value with ``repr`` (``'--Brett \\udce4'``)."""
    assert escape_quoted_bytes(repr(os.fsdecode(b"a\xe4"))) == "'a\\xe4'"
    assert escape_quoted_bytes(repr("a\\udce4")) == repr("a\\udce4")  # typed by the user: kept


@pytest.mark.parametrize(
    ("name", "argv", "shown"),
    [
        ("robots-engine", ["check", f"{LATIN1}.dat"], "Brett \\xe4.dat: ok, 12x12"),
        ("robots-tron", ["check", f"{LATIN1}.txt"], "Brett \\xe4.txt: ok, 15x11"),
        ("robots-theme", ["check", LATIN1], "Brett \\xe4: ok"),
    ],
)
def test_a_success_line_names_the_file_with_its_bytes_escaped(
    name: str, argv: list[str], shown: str, tmp_path: Path
) -> None:
    shutil.copy(ROOT / "gameboards" / "chop.dat", tmp_path / f"{LATIN1}.dat")
    shutil.copy(ROOT / "gameboards" / "tron" / "default-starts-15x11.txt", tmp_path / f"{LATIN1}.txt")
    shutil.copytree(ROOT / "themes" / "default", tmp_path / LATIN1)
    done = tool(name, *argv, cwd=tmp_path)
    assert b"Traceback" not in done.stderr, done.stderr.decode(errors="replace")
    assert done.returncode == 0
    assert shown in done.stdout.decode("utf-8")


@pytest.mark.parametrize("name", TOOLS)
def test_every_tool_writes_undecodable_bytes_escaped_on_stdout_and_stderr(name: str, tmp_path: Path) -> None:
    """Set before the arguments are parsed, so that usage errors are written the same way."""
    module, _, function = SCRIPTS[name].partition(":")
    code = (
        f"import sys\nfrom {module} import {function}\n"
        f"try:\n    {function}(['--version'])\nexcept SystemExit:\n    pass\n"
        "print(sys.stdout.errors, sys.stderr.errors)"
    )
    env = {**os.environ, "PYTHONIOENCODING": "utf-8:strict", "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, timeout=120)
    assert done.stdout.decode().splitlines()[-1] == f"{ERRORS} {ERRORS}"


def test_a_usage_error_quotes_an_undecodable_value_with_its_bytes_escaped(tmp_path: Path) -> None:
    """argparse quotes a bad value with ``repr``: ``invalid choice: 'pl\\udce4y'``."""
    done = tool("robots-tron", os.fsdecode(b"pl\xe4y"), cwd=tmp_path)
    err = done.stderr.decode("utf-8")
    assert done.returncode == 2 and len(err.splitlines()) == 1, err
    assert "invalid choice: 'pl\\xe4y'" in err
