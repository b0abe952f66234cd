"""The command line: bad board -> one file:line:col line and exit 2; a headless screenshot renders."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "editor", *args], capture_output=True, text=True, timeout=120)


def test_bad_board_is_one_line_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.dat"
    bad.write_text("3 2\nabc\na#c\n")
    result = _run(str(bad))
    assert result.returncode == 2
    assert result.stderr == f"robots-edit: {bad}:3:2: unknown board character '#'\n"
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("export", [False, True])
def test_a_board_that_is_a_link_loop_is_one_line_exit_2(
    tmp_path: Path, export: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    """A link loop was taken for a file not made yet: ``--export`` said "needs an existing BOARD
    file", and editing opened a blank board that could never be saved there."""
    from editor.cli import main

    loop = tmp_path / "b.dat"
    loop.symlink_to("b.dat")
    out = ["--export", str(tmp_path / "b.png")] if export else ["--headless", "--screenshot", str(tmp_path / "b.png")]
    assert main([str(loop), *out]) == 2
    assert capsys.readouterr().err == f"robots-edit: {loop}: cannot read: Too many levels of symbolic links\n"
    assert not (tmp_path / "b.png").exists()


def test_unknown_theme_exit_2(tmp_path: Path) -> None:
    result = _run("gameboards/chop.dat", "--theme", "no-such-theme")
    assert result.returncode == 2 and "--theme no-such-theme: no theme called" in result.stderr
    assert "Traceback" not in result.stderr and result.stderr.count("\n") == 1


def test_headless_screenshot(tmp_path: Path) -> None:
    shot = tmp_path / "shot.png"
    result = _run("gameboards/chop.dat", "--screenshot", str(shot), "--size", "900x640")
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"wrote {shot}\n"  # as --export says (it said nothing)
    image = Image.open(shot)
    assert image.size == (900, 640)
    assert len(image.convert("RGB").getcolors(maxcolors=1 << 20) or []) > 100  # a real picture, not a blank frame


def test_usage_error_is_one_line_exit_2() -> None:
    result = _run("gameboards/chop.dat", "--bogus")
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("robots-edit: "), result.stderr


def test_unwritable_screenshot_is_one_line_exit_2(tmp_path: Path) -> None:
    (tmp_path / "a-file").write_text("in the way")
    for target in (tmp_path / "missing" / "shot.png", tmp_path / "a-file" / "shot.png", Path("/proc/shot.png")):
        result = _run("gameboards/chop.dat", "--screenshot", str(target), "--size", "640x480")
        assert result.returncode == 2, result.stderr
        assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr, result.stderr
        assert result.stderr.startswith(f"robots-edit: {target}: cannot write"), result.stderr


def test_window_size_out_of_range_is_one_line_exit_2(tmp_path: Path) -> None:
    for size in ("0x0", "200x100", "100000x800"):
        result = _run("gameboards/chop.dat", "--screenshot", str(tmp_path / "s.png"), "--size", size)
        assert result.returncode == 2, result.stderr
        assert result.stderr == f"robots-edit: --size {size} out of range (640..8192 wide, 480..8192 high)\n"
    assert not (tmp_path / "s.png").exists()


def test_unreachable_display_is_one_line_exit_1() -> None:
    """DISPLAY set but no X server there: say so in one line, as with no DISPLAY at all."""
    import os

    from tests.displays import unreachable_display

    display = unreachable_display()
    env = {**os.environ, "DISPLAY": display}
    env.pop("WAYLAND_DISPLAY", None)
    result = subprocess.run(
        [sys.executable, "-m", "editor", "gameboards/chop.dat"], capture_output=True, text=True, timeout=120, env=env
    )
    assert result.returncode == 1, result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr, result.stderr
    assert result.stderr.startswith(f"robots-edit: cannot open a window on display '{display}'")


def test_screenshot_over_a_fifo_or_on_a_full_disk_loses_nothing(tmp_path: Path) -> None:
    """--screenshot FIFO waited for a reader for ever; on a full disk it left half a PNG where the
    old file was. Now: one line, exit 2, the old file as it was, no temporary file."""
    import os

    from tests.fifo_guard import never_stuck_on

    fifo = tmp_path / "pipe.png"
    os.mkfifo(fifo)
    with never_stuck_on(fifo, writers=True):
        result = _run("gameboards/chop.dat", "--screenshot", str(fifo), "--size", "640x480")
    assert result.returncode == 2 and result.stderr.startswith(f"robots-edit: {fifo}: cannot write: is a FIFO")
    shot = tmp_path / "shot.png"
    shot.write_text("the old picture")
    command = [sys.executable, "-m", "editor", "gameboards/chop.dat", "--screenshot", str(shot), "--size", "640x480"]
    limited = subprocess.run(
        ["bash", "-c", 'ulimit -f 8 && exec "$@"', "-", *command],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert limited.returncode == 2 and limited.stderr == f"robots-edit: {shot}: cannot write: File too large\n"
    assert shot.read_text() == "the old picture"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe.png", "shot.png"]


def test_ctrl_c_during_an_export_is_one_line_and_status_130(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ctrl-C (or SIGTERM) in robots-edit was a KeyboardInterrupt traceback; nothing is written."""
    import editor.export
    from editor.cli import main

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(editor.export, "export_board", interrupted)
    assert main(["gameboards/chop.dat", "--export", str(tmp_path / "chop.pdf")]) == 130
    assert capsys.readouterr().err == "robots-edit: interrupted\n"
    assert list(tmp_path.iterdir()) == []
