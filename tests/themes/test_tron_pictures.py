"""Tron's pictures in a theme (``tron/floor.png``, ``tron/blocked.png``): the shipped themes draw
them, the loader checks them like tiles and falls back to the base theme's, and a theme without a
``tron/`` folder is complete (it shows Tron with its base theme's pictures)."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from themes import ThemeWatcher, check_theme, load_theme
from themes.cli import main as theme_cli
from themes.folder import PICTURE_KEYS
from themes.game_pictures import read_game_pictures
from themes.keys import (
    GAME_FOLDERS,
    GAME_KEYS,
    OPTIONAL_KEYS,
    OVERLAY_KEYS,
    SPRITE_KEYS,
    START_MARKER_KEY,
    TILE_KEYS,
    TRON_KEYS,
)
from themes.loader import BUILTIN_DIR


def _same(a: Image.Image, b: Image.Image) -> bool:
    return bool(np.array_equal(np.asarray(a), np.asarray(b)))


def test_each_game_has_its_key_set_and_the_robot_set_is_unchanged() -> None:
    assert GAME_KEYS["robots"] == PICTURE_KEYS == (*TILE_KEYS, *OVERLAY_KEYS, *SPRITE_KEYS, START_MARKER_KEY)
    assert len(TILE_KEYS) == 31 and GAME_FOLDERS == {"robots": "", "tron": "tron"}
    assert TRON_KEYS == ("floor", "blocked") and GAME_KEYS["tron"] == (*TRON_KEYS, "trail")
    assert OPTIONAL_KEYS == {"robots": (), "tron": ("trail",)}


@pytest.mark.parametrize("name", ["default", "pen"])
def test_the_shipped_themes_draw_tron(name: str) -> None:
    theme = load_theme(name)
    tron = theme.game("tron")
    assert set(tron) == {"floor", "blocked", *(("trail",) if name == "pen" else ())}  # pen hatches its walls
    assert not theme.warnings and not check_theme(name)
    assert all(theme.sources[f"tron/{key}"] == "own" for key in tron)
    floor, blocked = (np.asarray(tron[key].convert("RGB")).astype(float) for key in ("floor", "blocked"))
    assert floor.shape == blocked.shape == (64, 64, 3) and (np.asarray(tron["floor"])[..., 3] == 255).all()
    assert floor.mean() < 90  # dark, so the light walls glow on it
    assert blocked.mean() > floor.mean() + 20  # a blocked field stands out from the floor


def test_a_theme_without_tron_pictures_uses_its_bases(tmp_path: Path) -> None:
    folder = tmp_path / "plain"
    shutil.copytree(BUILTIN_DIR / "pen", folder, ignore=shutil.ignore_patterns("tron"))
    theme = load_theme(folder)
    assert not theme.warnings and not check_theme(folder)  # absent: complete, nothing to fix
    default = load_theme("default").game("tron")
    assert _same(theme.game("tron")["floor"], default["floor"]) and theme.sources["tron/floor"] == "default"


def test_a_missing_tron_picture_comes_from_the_base(theme_copy: Path) -> None:
    (theme_copy / "tron" / "blocked.png").unlink()
    theme = load_theme(theme_copy)
    assert theme.warnings == ("1 tron picture not in tron/, taken from default: blocked",)
    assert check_theme(theme_copy) == list(theme.warnings)  # no declared base: a fault to fix
    assert theme.sources["tron/blocked"] == "default" and theme.sources["tron/floor"] == "own"
    (theme_copy / "theme.json").write_text('{"name": "Mine", "base": "pen"}')
    based = load_theme(theme_copy)
    assert based.warnings == ("1 tron picture not in tron/, taken from pen: blocked",) and not based.faults
    assert _same(based.game("tron")["blocked"], load_theme("pen").game("tron")["blocked"])


def test_a_wrong_size_tron_picture_is_named_and_replaced(theme_copy: Path) -> None:
    Image.new("RGBA", (32, 32), (255, 0, 0, 255)).save(theme_copy / "tron" / "floor.png")
    theme = load_theme(theme_copy)
    (line,) = theme.warnings
    assert line.startswith("tron/floor.png: is 32x32 pixels; must be 64x64") and len(line) <= 80
    assert theme.faults == theme.warnings
    assert _same(theme.game("tron")["floor"], load_theme("default").game("tron")["floor"])


def test_larger_multiples_and_case_are_read(theme_copy: Path) -> None:
    (theme_copy / "tron" / "floor.png").unlink()
    Image.new("RGB", (128, 128), (10, 200, 30)).save(theme_copy / "tron" / "Floor.png")
    floor = load_theme(theme_copy).game("tron")["floor"]
    assert floor.size == (64, 64) and floor.getpixel((5, 5)) == (10, 200, 30, 255)


def test_stray_files_and_a_tron_file_are_faults(theme_copy: Path, tmp_path: Path) -> None:
    Image.new("RGB", (64, 64)).save(theme_copy / "tron" / "flor.png")
    (theme_copy / "tron" / "notes.txt").write_text("ideas")  # not an image: the artist's business
    assert load_theme(theme_copy).warnings == ("tron/flor.png: not a tron picture; did you mean floor.png?",)
    other = tmp_path / "other"
    shutil.copytree(BUILTIN_DIR / "default", other, ignore=shutil.ignore_patterns("tron"))
    (other / "tron").write_text("not a folder")
    theme = load_theme(other)
    assert theme.faults == ("tron: is not a folder; the tron pictures come from default",)
    assert set(theme.game("tron")) == {"floor", "blocked"}


def test_no_base_and_no_pictures_means_plain_colours(tmp_path: Path) -> None:
    (tmp_path / "tron").mkdir()
    got = read_game_pictures(tmp_path, "tron", None, "placeholders")
    assert got.pictures == {} and got.faults == [
        "2 tron pictures not in tron/, taken from placeholders: floor, blocked"
    ]
    assert read_game_pictures(tmp_path / "absent", "tron", None, "placeholders").pictures == {}


def test_robots_theme_check_names_the_tron_file(theme_copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    Image.new("RGBA", (64, 48)).save(theme_copy / "tron" / "blocked.png")
    assert theme_cli(["check", str(theme_copy)]) == 1
    (line,) = capsys.readouterr().out.splitlines()
    assert line.startswith("mytheme/tron/blocked.png: is 64x48 pixels; must be 64x64")


def test_an_edited_tron_picture_reloads_live(theme_copy: Path) -> None:
    watcher = ThemeWatcher(load_theme(theme_copy))
    assert watcher.poll() is None
    Image.new("RGB", (64, 64), (200, 20, 20)).save(theme_copy / "tron" / "floor.png")
    fresh = watcher.poll()
    assert fresh is not None and fresh.game("tron")["floor"].getpixel((1, 1)) == (200, 20, 20, 255)
    (theme_copy / "tron" / "floor.png").write_bytes(b"half-written")  # broken: keeps the last good one
    kept = watcher.poll()
    assert kept is not None and kept.game("tron")["floor"].getpixel((1, 1)) == (200, 20, 20, 255)
    assert "keeping the last good picture" in kept.warnings[0]


def test_a_new_theme_copies_the_tron_pictures(tmp_path: Path) -> None:
    assert theme_cli(["new", "copied", "--from", "pen", "--dir", str(tmp_path)]) == 0
    assert (tmp_path / "copied" / "tron" / "floor.png").is_file()
    assert load_theme(tmp_path / "copied").sources["tron/floor"] == "own"


def test_the_contact_sheet_shows_the_tron_pictures(tmp_path: Path) -> None:
    from themes.sheet import _entries, contact_sheet

    labels = [label for label, _ in _entries(load_theme("pen"), None)]
    assert labels[-3:] == ["tron/floor", "tron/blocked", "tron/trail"]
    plain = tmp_path / "plain"
    shutil.copytree(BUILTIN_DIR / "pen", plain, ignore=shutil.ignore_patterns("tron"))
    assert [label for label, _ in _entries(load_theme(plain), None)][-1] == "tron/blocked  (default)"
    sheet = np.asarray(contact_sheet(load_theme("pen"), columns=8, scale=1))
    blueprint = np.asarray(load_theme("pen").game("tron")["floor"].convert("RGB"))
    assert (np.abs(sheet.reshape(-1, 3)[:, None, :] - blueprint[30, 30]).sum(axis=2) < 6).any()


def test_the_paint_template_carries_the_tron_pictures(tmp_path: Path) -> None:
    from themes.template import TEMPLATE_KEYS, layout, read_template, template_sheet

    assert TEMPLATE_KEYS[-3:] == ("start", "tron/floor", "tron/blocked")  # the optional trail: a file of its own
    assert layout(1)[0] == layout_without_tron(1)  # the last row had room: old templates still read
    sheet = template_sheet(load_theme("pen"), 2)
    left, top = layout(2)[1]["tron/floor"]
    sheet.paste((250, 0, 200, 255), (left, top, left + 128, top + 128))  # paint the Tron floor magenta
    sheet.save(tmp_path / "s.png")
    pictures = read_template(tmp_path / "s.png")
    assert pictures["tron/floor"].getpixel((3, 3)) == (250, 0, 200, 255)
    assert _same(pictures["tron/blocked"], load_theme("pen").game("tron")["blocked"])
    assert theme_cli(["import", str(tmp_path / "s.png"), "painted", "--dir", str(tmp_path)]) == 0
    painted = load_theme(tmp_path / "painted")
    assert painted.game("tron")["floor"].getpixel((3, 3)) == (250, 0, 200, 255) and not painted.faults


def layout_without_tron(scale: int) -> tuple[int, int]:
    """The template's size as it was before it held other games' pictures."""
    import math

    from themes import template

    step_x, step_y = 64 * scale + 2 * template._GUTTER, 64 * scale + template._LABEL + 2 * template._GUTTER
    rows = math.ceil(len(PICTURE_KEYS) / template.COLUMNS)
    return (template.COLUMNS * step_x + template._GUTTER, template._HEADER + rows * step_y + template._GUTTER)


def test_the_trail_is_optional_and_inherited(theme_copy: Path, tmp_path: Path) -> None:
    assert "trail" not in load_theme(theme_copy).game("tron")  # default draws plain walls: no line about it
    Image.new("RGB", (64, 64), (128, 128, 128)).save(theme_copy / "tron" / "trail.png")
    theme = load_theme(theme_copy)
    assert theme.game("tron")["trail"].getpixel((0, 0)) == (128, 128, 128, 255) and not theme.warnings
    Image.new("RGB", (60, 60)).save(theme_copy / "tron" / "trail.png")
    (line,) = load_theme(theme_copy).warnings  # a broken one is named like any picture
    assert line.startswith("tron/trail.png: is 60x60 pixels")
    based = tmp_path / "based"
    shutil.copytree(BUILTIN_DIR / "default", based, ignore=shutil.ignore_patterns("tron"))
    (based / "theme.json").write_text('{"name": "Based", "base": "pen"}')
    inherited = load_theme(based)
    assert inherited.sources["tron/trail"] == "pen" and not inherited.warnings
