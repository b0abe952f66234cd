"""The Tron renderer draws the theme's Tron pictures (``tron/floor.png`` on every free field,
``tron/blocked.png`` on blocked fields), the shipped default when no theme is given, and its plain
colours when a theme has no Tron pictures at all."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from engine.tron.arena import parse_arena
from themes import load_theme
from themes.loader import BUILTIN_DIR
from viewer3d.cli import main as view_main
from viewer3d.games.tron.render import TronRenderer
from viewer3d.games.tron.show import TronShow
from viewer3d.games.tron.textures import tron_pictures
from viewer3d.render.offscreen import OffscreenTarget, create_headless_context
from viewer3d.show_export import camera_for_view

RED, GREEN = (220, 30, 30), (30, 200, 60)
SIZE = (240, 240)


@pytest.fixture
def arena(tmp_path: Path) -> Path:
    """5x5, the centre field blocked (starts in the corners, away from it)."""
    path = tmp_path / "arena.txt"
    path.write_text("GAMEBOARDSTART 5,5\n.....\n.....\n..#..\n.....\n.....\nGAMEBOARDEND\nPOS 1 1,1 E\nPOS 2 5,5 W\n")
    return path


@pytest.fixture
def loud(tmp_path: Path) -> Path:
    """A theme whose Tron floor is plain red and whose blocked fields are plain green."""
    folder = tmp_path / "loud"
    shutil.copytree(BUILTIN_DIR / "pen", folder)
    Image.new("RGB", (64, 64), RED).save(folder / "tron" / "floor.png")
    Image.new("RGB", (64, 64), GREEN).save(folder / "tron" / "blocked.png")
    return folder


def top_picture(arena: Path, out: Path, *theme: str) -> np.ndarray:
    assert (
        view_main(
            [str(arena), "--headless", "--out", str(out), "--view", "top", "--no-hud", "--size", "240x240", *theme]
        )
        == 0
    )
    with Image.open(out) as image:
        return np.asarray(image.convert("RGB")).astype(int)


def field(pixels: np.ndarray, x: int, y: int) -> np.ndarray:
    """The colour in the middle of field (x, y) (0-based) of the 5x5 arena seen from the top."""
    ys, xs = np.nonzero(np.abs(pixels - pixels[0, 0]).sum(axis=2) > 30)  # the arena against the background
    left, top, right, bottom = xs.min(), ys.min(), xs.max(), ys.max()
    cx, cy = left + (x + 0.5) * (right - left) / 5, top + (y + 0.5) * (bottom - top) / 5
    return pixels[int(cy) - 2 : int(cy) + 3, int(cx) - 2 : int(cx) + 3].reshape(-1, 3).mean(axis=0)


def close(colour: np.ndarray, expected: tuple[int, int, int], tolerance: float) -> bool:
    return bool(np.abs(colour - np.array(expected)).max() < tolerance)


def test_the_themes_tron_pictures_are_drawn(arena: Path, loud: Path, tmp_path: Path) -> None:
    pixels = top_picture(arena, tmp_path / "loud.png", "--theme", str(loud))
    assert close(field(pixels, 1, 3), RED, 12)  # a free field: the floor picture, unlit
    blocked = field(pixels, 2, 2)
    assert blocked[1] > 150 and blocked[0] < 60 and blocked[2] < 90  # the blocked field's top: green, lit


def test_no_theme_draws_the_shipped_default(arena: Path, tmp_path: Path) -> None:
    pixels = top_picture(arena, tmp_path / "default.png")
    default = load_theme("default").game("tron")
    floor = np.asarray(default["floor"].convert("RGB")).astype(int)
    assert close(field(pixels, 1, 3), tuple(floor[24:40, 24:40].reshape(-1, 3).mean(axis=0)), 25)
    assert field(pixels, 2, 2).mean() > field(pixels, 1, 3).mean() + 30  # the steel block stands out


def test_a_theme_without_tron_pictures_falls_back_to_plain_colours(arena: Path, tmp_path: Path) -> None:
    class Bare:
        """A theme object with no Tron pictures (as the viewer's built-in fallback theme)."""

        def game(self, name: str) -> dict[str, Image.Image]:
            return {}

    assert tron_pictures(Bare()) == {} and tron_pictures(object()) == {}
    show = TronShow.open(arena)
    ctx = create_headless_context()
    target = OffscreenTarget(ctx, SIZE)
    renderer = TronRenderer(ctx, parse_arena(arena.read_text()), Bare())
    try:
        matrices = camera_for_view(show.size, SIZE, "top", hud_top=0.0).matrices()
        plain = np.asarray(target.render(lambda: renderer.render(matrices, show.frame(0.0), SIZE)).convert("RGB"))
        renderer.set_theme(load_theme("default"))  # F2 / live reload: the pictures arrive
        themed = np.asarray(target.render(lambda: renderer.render(matrices, show.frame(0.0), SIZE)).convert("RGB"))
    finally:
        renderer.release()
        target.release()
        ctx.release()
    assert renderer.textures.textures == {}  # released with the renderer
    assert not np.array_equal(plain, themed)
    assert plain.std() > 5 and themed.std() > 5


def test_a_trail_picture_patterns_the_light_walls(tmp_path: Path) -> None:
    """Walls drawn with a black-and-white striped trail picture are darker than plain walls."""
    from engine.tron.record import BotInfo, GameRecord, RoundRecord, save_game

    arena = parse_arena("GAMEBOARDSTART 8,3\n........\n........\n........\nGAMEBOARDEND\nPOS 1 1,2 E\n")
    rounds = [RoundRecord({1: "AHEAD"}, {}, [], {}) for _ in range(7)] + [RoundRecord({1: "AHEAD"}, {}, [1], {})]
    game = tmp_path / "game.json"
    save_game(GameRecord(arena, (BotInfo("one"),), tuple(rounds)), game)
    striped = tmp_path / "striped"
    shutil.copytree(BUILTIN_DIR / "default", striped)
    stripes = np.full((64, 64, 3), 255, dtype=np.uint8)
    stripes[:, ::8] = stripes[:, 1::8] = stripes[:, 2::8] = stripes[:, 3::8] = 0  # half of every 8 columns black
    Image.fromarray(stripes, "RGB").save(striped / "tron" / "trail.png")
    size = ["--size", "320x160", "--no-hud", "--view", "iso1"]
    assert view_main([str(game), "--headless", "--out", str(tmp_path / "plain.png"), *size]) == 0
    assert (
        view_main([str(game), "--headless", "--out", str(tmp_path / "trail.png"), *size, "--theme", str(striped)]) == 0
    )
    with Image.open(tmp_path / "plain.png") as plain, Image.open(tmp_path / "trail.png") as trail:
        a, b = np.asarray(plain.convert("RGB")).astype(int), np.asarray(trail.convert("RGB")).astype(int)
    cyan = (a[..., 2] > 200) & (a[..., 0] < 120)  # the plain light wall's pixels
    assert cyan.sum() > 200
    assert b[cyan].mean() < a[cyan].mean() - 15  # the stripes dim the wall
