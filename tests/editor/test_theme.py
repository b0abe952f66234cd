"""Themes in the editor: a partial theme is drawn with its base's pictures and said in one line,
a refused one is reported like the viewer does, and pictures changed on disk show at once."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pyglet

pyglet.options["headless"] = True

import pytest  # noqa: E402
from PIL import Image  # noqa: E402

from editor.art import tile_images  # noqa: E402
from editor.controller import EditorController  # noqa: E402
from editor.document import Document  # noqa: E402
from editor.window import EditorWindow  # noqa: E402
from themes import clear_cache, load_theme  # noqa: E402
from themes.loader import BUILTIN_DIR  # noqa: E402

PINK = (255, 105, 180)
REPO = Path(__file__).resolve().parents[2]


def _run(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "XDG_DATA_HOME": str(home), "PYTHONPATH": str(REPO)}
    return subprocess.run(
        [sys.executable, "-m", "editor", *args], capture_output=True, text=True, timeout=120, env=env, cwd=REPO
    )


@pytest.fixture
def pink(tmp_path: Path) -> Path:
    clear_cache()
    folder = tmp_path / "pink"
    folder.mkdir()
    Image.new("RGB", (64, 64), PINK).save(folder / "floor.png")
    return folder


def _pink_pixels(image: Image.Image) -> int:
    pixels = np.asarray(image.convert("RGB"), dtype=int)
    return int((np.abs(pixels - PINK).sum(axis=2) < 12).sum())


def test_pink_floor_recolours_every_wall_tile(pink: Path) -> None:
    images, default = tile_images(str(pink)), tile_images("default")
    for char in " bcdefghijklmnopSTUV":
        assert _pink_pixels(images[char]) > 200, char
        assert not np.array_equal(np.asarray(images[char]), np.asarray(default[char])), char
    assert np.array_equal(np.asarray(images["H"]), np.asarray(default["H"]))  # the hole: default's


def test_command_line_partial_theme_draws_and_warns_in_one_line(pink: Path, tmp_path: Path) -> None:
    shot = tmp_path / "shot.png"
    result = _run("gameboards/chop.dat", "--theme", str(pink), "--screenshot", str(shot), home=tmp_path)
    assert result.returncode == 0, result.stderr
    [line] = result.stderr.splitlines()
    assert line.startswith("robots-edit: theme pink: 22 pictures not here, taken from default: ")
    with Image.open(shot) as image:
        assert _pink_pixels(image) > 5000


@pytest.mark.parametrize("given", ["no-such-theme", "/no/such/folder"])
def test_command_line_refused_theme_is_one_line_exit_2(given: str, tmp_path: Path) -> None:
    result = _run("gameboards/chop.dat", "--theme", given, "--screenshot", str(tmp_path / "s.png"), home=tmp_path)
    assert result.returncode == 2 and result.stderr.startswith(f"robots-edit: --theme {given}: ")
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    if given.startswith("/"):  # '--theme /x: /x: does not exist' said it twice
        assert result.stderr == f"robots-edit: --theme {given}: does not exist\n"
    assert not (tmp_path / "s.png").exists()


@pytest.fixture
def window(tmp_path: Path) -> Iterator[EditorWindow]:
    clear_cache()
    theme = tmp_path / "live"
    shutil.copytree(BUILTIN_DIR / "default", theme)
    board = tmp_path / "board.dat"
    board.write_bytes(b"5 3\nT    \n b   \n    Z\n")
    controller = EditorController(
        Document.open(board), size=(1100, 760), theme=str(theme), autosave_folder=tmp_path / "state"
    )
    win = EditorWindow(controller, visible=False)
    yield win
    win.close()


def _wait_for_reload(win: EditorWindow, before: int) -> None:
    give_up = time.monotonic() + 30.0
    while win.editor_view.theme_reloads == before:
        assert time.monotonic() < give_up, "the change was never picked up"
        win._tick(0.05)


def test_a_changed_picture_shows_without_restart(window: EditorWindow, tmp_path: Path) -> None:
    folder = tmp_path / "live"
    window.save_png(tmp_path / "before.png")
    with Image.open(tmp_path / "before.png") as before:
        assert _pink_pixels(before) == 0
    Image.new("RGB", (64, 64), PINK).save(folder / "floor.png")
    _wait_for_reload(window, 0)
    window.save_png(tmp_path / "after.png")
    with Image.open(tmp_path / "after.png") as after:
        assert _pink_pixels(after) > 3000  # the board's floor and wall tiles, the palette
    assert window.ctl.status == "theme reloaded"
    (folder / "floor.png").write_bytes(b"\x89PNG\r\n\x1a\n half written")
    _wait_for_reload(window, 1)
    assert window.ctl.status.startswith("theme ") and "floor.png: keeping the last good picture" in window.ctl.status
    window.save_png(tmp_path / "broken.png")
    with Image.open(tmp_path / "broken.png") as still:
        assert _pink_pixels(still) > 3000
    assert load_theme(folder).sources["floor"] == "default"  # loaded afresh: the default's floor


def test_a_long_status_wraps_instead_of_being_cut(window: EditorWindow, tmp_path: Path) -> None:
    window.ctl.say("theme x: " + "a very long message about a theme problem " * 4 + "THE END")
    window.save_png(tmp_path / "long.png")
    part = window.editor_view._parts["status"]
    labels = [label for label in part.keep if isinstance(label, pyglet.text.Label) and "THE END" in label.text]
    assert labels and labels[0].multiline and labels[0].width <= window.ctl.layout.width


def test_an_unreadable_theme_by_f2_keeps_the_pictures_and_is_tried_once(
    window: EditorWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    view = window.editor_view
    before = dict(view.images)
    calls: list[str] = []
    real = view.set_theme

    def counting(name: str) -> None:
        calls.append(name)
        real(name)

    monkeypatch.setattr(view, "set_theme", counting)
    window.ctl.theme = str(tmp_path / "gone")
    for _ in range(3):
        window.save_png(tmp_path / "frame.png")
    assert calls == [str(tmp_path / "gone")]
    assert "cannot be used" in window.ctl.status and "does not exist" in window.ctl.status
    assert view.images.keys() == before.keys() and view.theme_loaded.endswith("live")
