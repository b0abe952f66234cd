"""``./run demo tron`` (``robots-view --demo tron``): the Tron server plays the strong bot against
the simple one; without a display the game is rendered offscreen to out/demo-tron.gif, said in
one line, and the game file is kept beside it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image

from engine.tron.record import load_game
from tests.viewer_app.test_cli import run
from tests.viewer_app.test_window_xvfb import run_viewer, xvfb_display  # noqa: F401 (fixture)
from viewer3d.games.tron.timeline import COLOURS


def test_the_tron_demo_without_a_display_renders_a_gif(tmp_path: Path) -> None:
    result = run(["--demo", "tron", "--size", "192x144", "--fps", "4"], tmp_path, timeout=600)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert "no display" in result.stderr and "out/demo-tron.gif" in result.stderr
    assert f"wrote {Path('out') / 'demo-tron.gif'}" in result.stdout
    record = load_game(tmp_path / "out" / "demo-tron.json")  # re-simulated against the rules
    assert [b.name for b in record.bots] == ["strong", "simple"] and len(record.rounds) > 10
    with Image.open(tmp_path / "out" / "demo-tron.gif") as image:
        assert image.size == (192, 144) and image.n_frames >= 10
        image.seek(image.n_frames - 1)
        last = np.asarray(image.convert("RGB")).astype(int)
    assert last.std() > 20  # not blank
    cyan = np.array([int(255 * c) for c in COLOURS[0]])
    assert (np.abs(last - cyan).sum(axis=2) < 90).mean() > 0.02  # the strong bot's light walls


def test_the_tron_demo_exports_where_asked(tmp_path: Path) -> None:
    result = run(["--demo", "tron", "--headless", "--out", "shot.png", "--size", "160x120"], tmp_path, timeout=600)
    assert result.returncode == 0, result.stderr
    with Image.open(tmp_path / "shot.png") as image:
        assert image.size == (160, 120) and np.asarray(image.convert("RGB")).std() > 20


def test_an_unknown_demo_is_a_one_line_error(tmp_path: Path) -> None:
    result = run(["--demo", "chess"], tmp_path)
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1
    assert "robots" in result.stderr and "tron" in result.stderr


def test_the_tron_demo_opens_a_window(xvfb_display: str, tmp_path: Path) -> None:  # noqa: F811
    """With a display the demo plays the game, then shows it in the viewer's window (photographed)."""
    shot = tmp_path / "demo.png"
    result = run_viewer(["--demo", "tron", "--size", "640x480", "--screenshot", str(shot)], xvfb_display, tmp_path)
    assert result.returncode == 0, result.stderr
    assert "no display" not in result.stderr and (tmp_path / "out" / "demo-tron.json").is_file()
    with Image.open(shot) as image:
        assert image.size == (640, 480)
        pixels = np.asarray(image.convert("RGB")).astype(int)
    assert (np.abs(pixels - pixels[2, 2]).sum(axis=2) > 60).mean() > 0.2  # the arena fills much of the window
