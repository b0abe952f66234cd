"""``./run``, the entry point README.md starts with: its help and its usage errors (neither sets
anything up, so they are safe to run here)."""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_script(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(ROOT / "run"), *args], cwd=cwd, capture_output=True, text=True, timeout=60, check=False
    )


def test_help_is_on_stdout_with_status_0_from_any_folder(tmp_path: Path) -> None:
    """``./run --help`` was a usage error (status 2) like any unknown command."""
    for flag in ("--help", "-h", "help"):
        result = run_script(flag, cwd=tmp_path)
        assert (result.returncode, result.stderr) == (0, ""), result.stderr
        assert (
            result.stdout.startswith("usage: ./run ")
            and "./run demo" in result.stdout
            and "./run test" in result.stdout
        )
    assert list(tmp_path.iterdir()) == []


def test_an_unknown_command_is_one_line_naming_it_with_status_2(tmp_path: Path) -> None:
    result = run_script("demoo", cwd=tmp_path)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("run: unknown command 'demoo' (usage: ./run ")


def test_help_names_every_folder_mypy_checks(tmp_path: Path) -> None:
    """``./run --help`` listed the folders ``mypy --strict`` checks without ``pathui/``, which
    pyproject.toml's ``[tool.mypy] files`` (what ``./run test`` really checks) includes."""
    import tomllib

    checked = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]["files"]
    help_text = " ".join(run_script("--help", cwd=tmp_path).stdout.split())
    listed = help_text.split("mypy --strict on ", 1)[1].split(",", 1)[0].split()
    assert sorted(name.rstrip("/") for name in listed) == sorted(checked)
