"""Damaged and partial themes: every problem is one short line, the theme still loads with the
base theme's pictures in place of missing or broken ones; only an unreadable folder is refused."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from PIL import Image

from engine.model import Direction
from themes import ThemeError, check_theme, load_theme
from themes.loader import BUILTIN_DIR, read_theme
from themes.manifest import read_manifest


def _save(path: Path, image: Image.Image, fmt: str = "PNG") -> None:
    image.save(path, format=fmt)


def _same(a: Image.Image, b: Image.Image) -> bool:
    return bool(np.array_equal(np.asarray(a), np.asarray(b)))


def _only(folder: Path, needle: str) -> str:
    """The one warning of ``folder``'s theme, which must contain ``needle``."""
    theme = load_theme(folder)
    assert len(theme.warnings) == 1, theme.warnings
    assert needle in theme.warnings[0] and len(theme.warnings[0]) <= 80
    assert check_theme(folder) == list(theme.faults)
    return theme.warnings[0]


def test_missing_file_comes_from_default(theme_copy: Path) -> None:
    (theme_copy / "oil.png").unlink()
    line = _only(theme_copy, "1 picture not here, taken from default: oil")
    theme = load_theme(theme_copy)
    assert _same(theme.tile("oil"), load_theme("default").tile("oil")) and theme.faults == (line,)


def test_wrong_size(theme_copy: Path) -> None:
    _save(theme_copy / "goal.png", Image.new("RGBA", (32, 32), (0, 200, 0, 255)))
    assert _only(theme_copy, "goal.png: is 32x32 pixels; must be 64x64").endswith("1024x1024")


@pytest.mark.parametrize("key", ["conveyor-right", "rotator-left", "start"])
def test_wrong_size_says_every_size_in_80_characters(theme_copy: Path, key: str) -> None:
    """The sizes that would do are the line's end: it was clipped to '... 1024x…' for long names."""
    _save(theme_copy / f"{key}.png", Image.new("RGBA", (1000, 1000), (0, 200, 0, 128)))
    line = _only(theme_copy, f"{key}.png: is 1000x1000 pixels; must be 64x64, 128x128")
    assert line.endswith(" ... 1024x1024")


def test_robot_without_alpha(theme_copy: Path) -> None:
    _save(theme_copy / "robot.png", Image.new("RGB", (64, 64), (0, 0, 255)))
    _only(theme_copy, "robot.png: has no alpha channel; the robot needs a transparent")
    assert _same(load_theme(theme_copy).robot, load_theme("default").robot)


def test_cursor_with_opaque_alpha(theme_copy: Path) -> None:
    _save(theme_copy / "cursor.png", Image.new("RGBA", (64, 64), (0, 0, 255, 255)))
    _only(theme_copy, "cursor.png: every pixel is opaque")


def test_invisible_cursor(theme_copy: Path) -> None:
    _save(theme_copy / "cursor.png", Image.new("RGBA", (64, 64)))
    _only(theme_copy, "cursor.png: every pixel is fully transparent")


def test_palette_png_with_transparency_is_accepted(theme_copy: Path) -> None:
    robot = Image.open(theme_copy / "robot.png").convert("RGBA").quantize(colors=64)
    palette_robot = Image.new("P", (64, 64), 0)
    palette_robot.putpalette(robot.getpalette() or [])
    palette_robot.paste(robot.crop((0, 0, 64, 32)), (0, 32))
    palette_robot.save(theme_copy / "robot.png", transparency=0)
    assert check_theme(theme_copy) == []


@pytest.mark.parametrize(
    ("data", "needle"),
    [
        (b"\x89PNG\r\n\x1a\n broken", "hole.png: not a readable PNG image"),
        (b"hello", "hole.png: not a readable PNG image"),
    ],
)
def test_corrupt_png(theme_copy: Path, data: bytes, needle: str) -> None:
    (theme_copy / "hole.png").write_bytes(data)
    _only(theme_copy, needle)
    assert _same(load_theme(theme_copy).tile("hole"), load_theme("default").tile("hole"))


def test_jpeg_named_png(theme_copy: Path) -> None:
    _save(theme_copy / "oil.png", Image.new("RGB", (64, 64)), "JPEG")
    _only(theme_copy, "oil.png: is a JPEG image, must be a PNG")


def test_bad_json_gives_line_and_column(theme_copy: Path) -> None:
    (theme_copy / "theme.json").write_text('{\n  "name": "Mine",\n  "author": oops\n}\n', encoding="utf-8")
    assert _only(theme_copy, "theme.json:3:13: invalid JSON: ").startswith("theme.json:3:13")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[1, 2]", "theme.json:1:1: must hold a JSON object"),
        ('{"name": 3}', "theme.json:1:10: field 'name' must be a text string, not 3"),
        ('{"name": "  "}', "theme.json:1:10: field 'name' must not be empty"),
        ('{"start_marker": "yes"}', "theme.json:1:18: field 'start_marker' must be true or false"),
        ('{"license": "MIT"}', "theme.json:1:2: unknown field 'license'; did you mean 'licence'?"),
        ('{"colour": "#000000"}', "theme.json:1:2: unknown field 'colour'; known: name, author, licence, base,"),
        ('{"backdrop": "red"}', "theme.json:1:14: field 'backdrop' must be a colour"),
        ('{"3d": {"wall_height": 9}}', 'theme.json:1:24: "3d".wall_height must be a number from 0.05 to 1.5'),
        ('{"3d": {"wall_color": "#000000"}}', "theme.json:1:9: 'wall_color' is unknown; did you mean 'wall_colour'?"),
        (b"\xff\xfe{}", "is not UTF-8 text"),
        ("[" * 100000, "nested more than 8 levels deep"),
        # Located: the byte's line and column (it said "byte 14"), the number's (it quoted Python's advice).
        (b'{\n "name": "x",\n "author": "a\xffb"\n}', "theme.json:3:14: is not UTF-8 text (byte 0xff)"),
        ('{\n "name": ' + "7" * 5000 + "\n}", "theme.json:2:10: invalid JSON: a number of more than 4,300 digits"),
    ],
)
def test_manifest_problems(theme_copy: Path, text: str | bytes, expected: str) -> None:
    path = theme_copy / "theme.json"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    theme = load_theme(theme_copy)
    assert len(theme.faults) == 1 and theme.faults[0].startswith("theme.json") and expected in theme.faults[0]


def test_unknown_fields_name_the_near_miss_within_80_characters(theme_copy: Path) -> None:
    """The near miss is what to write instead: a list of every known field ran past 80 characters
    and the clipped line lost ``licence`` (and ``wall_colour``, ``robot_colour``) at its end."""
    (theme_copy / "theme.json").write_text('{"license": "MIT", "3d": {"robot_color": "#000000"}}')
    lines = [f"mytheme/{fault}" for fault in load_theme(theme_copy).faults]
    assert lines == [
        "mytheme/theme.json:1:2: unknown field 'license'; did you mean 'licence'?",
        "mytheme/theme.json:1:27: 'robot_color' is unknown; did you mean 'robot_colour'?",
    ]
    assert all(len(line) <= 80 for line in lines)


def test_a_byte_order_mark_is_read_past(theme_copy: Path) -> None:
    """Notepad saves UTF-8 with a byte order mark; the theme maker was told to 'decode using
    utf-8-sig', advice for a Python programmer, and the whole manifest was ignored."""
    (theme_copy / "theme.json").write_bytes(b'\xef\xbb\xbf{"name": "Mine", "start_marker": false}')
    theme = load_theme(theme_copy)
    assert theme.faults == () or list(theme.faults) == []
    assert theme.name == "Mine" and theme.start_marker(Direction.UP) is None


def test_start_marker_requested_but_missing_is_said_once(theme_copy: Path) -> None:
    (theme_copy / "start.png").unlink()
    line = _only(theme_copy, "taken from default: start")
    assert line.count("start") == 1  # not "missing (start marker (theme.json sets start_marker))"


def test_no_manifest_means_folder_name_and_marker_from_the_base(theme_copy: Path) -> None:
    (theme_copy / "theme.json").unlink()
    theme = load_theme(theme_copy)
    assert theme.name == "mytheme" and theme.start_marker(Direction.UP) is not None
    (theme_copy / "theme.json").write_text('{"start_marker": false}')
    theme = load_theme(theme_copy)
    assert theme.start_marker(Direction.UP) is None and len(theme.texture_array()[1]) == 33


def test_every_problem_reported_at_once(theme_copy: Path) -> None:
    (theme_copy / "oil.png").unlink()
    (theme_copy / "conveyor-up.png").unlink()
    _save(theme_copy / "goal.png", Image.new("RGBA", (32, 32)))
    _save(theme_copy / "robot.png", Image.new("RGB", (64, 48)))
    (theme_copy / "hole.png").write_bytes(b"\x89PNG\r\n\x1a\n broken")
    (theme_copy / "theme.json").write_text("{", encoding="utf-8")
    warnings = load_theme(theme_copy).warnings
    joined = "\n".join(warnings)
    assert len(warnings) == 5, joined
    for needle in (
        "taken from default: oil, conveyor-up",
        "goal.png: is 32x32",
        "robot.png: is 64x48",
        "hole.png: not a readable PNG",
        "theme.json:1:2: invalid JSON",
    ):
        assert needle in joined
    assert all(len(line) <= 80 for line in warnings)


def test_only_an_unreadable_folder_is_refused(tmp_path: Path) -> None:
    assert check_theme(tmp_path / "nope") == [f"{tmp_path / 'nope'}: does not exist"]
    (tmp_path / "file").write_text("x")
    with pytest.raises(ThemeError) as info:
        load_theme(tmp_path / "file")
    assert info.value.problems == [f"{tmp_path / 'file'}: is not a folder"]


def test_an_empty_folder_is_the_default_theme_with_one_warning(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    theme = load_theme(tmp_path / "empty")
    [line] = theme.warnings
    assert line.startswith("23 pictures not here, taken from default: floor, hole") and line.endswith("more")
    assert _same(theme.tile("wall-f"), load_theme("default").tile("wall-f"))


def test_pink_floor_only_recolours_every_wall_tile(tmp_path: Path) -> None:
    folder = tmp_path / "pink"
    folder.mkdir()
    _save(folder / "floor.png", Image.new("RGB", (64, 64), (255, 105, 180)))
    theme = load_theme(folder)
    assert len(theme.warnings) == 1
    default = load_theme("default")
    for key in [f"wall-{c}" for c in "bcdefghijklmnop"] + ["pusher-left", "floor"]:
        pink, plain = np.asarray(theme.tile(key)), np.asarray(default.tile(key))
        assert not np.array_equal(pink, plain), key
        assert (np.abs(pink.astype(int) - (255, 105, 180, 255)).sum(axis=2) == 0).sum() > 200, key
    assert _same(theme.tile("hole"), default.tile("hole"))  # opaque pictures: the default's exactly


def test_base_names_the_theme_that_fills_in(theme_copy: Path) -> None:
    for path in theme_copy.glob("*.png"):
        if path.name != "floor.png":
            path.unlink()
    (theme_copy / "theme.json").write_text('{"base": "pen"}')
    theme = load_theme(theme_copy)
    [line] = theme.warnings
    assert "taken from pen" in line and theme.faults == ()  # a declared base: partial on purpose
    assert _same(theme.tile("oil"), load_theme("pen").tile("oil"))
    assert _same(theme.tile("wall-p"), load_theme("pen").tile("wall-p"))  # pen draws whole walls


@pytest.mark.parametrize("base", ["nosuchtheme", "mytheme", "no/such/folder", "/no/such/folder"])
def test_a_bad_base_falls_back_to_default(theme_copy: Path, base: str) -> None:
    (theme_copy / "oil.png").unlink()
    (theme_copy / "theme.json").write_text(f'{{"base": "{base}"}}')
    theme = load_theme(theme_copy)
    assert any("base theme" in line for line in theme.warnings)
    assert _same(theme.tile("oil"), load_theme("default").tile("oil"))


def test_a_base_path_is_read_from_the_themes_folder(theme_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``"base": "../other"`` meant the current folder's ../other, not the one beside the theme;
    and a base path to nothing gave no warning at all (pictures from grey placeholders)."""
    other = theme_copy.parent / "other"
    shutil.copytree(BUILTIN_DIR / "pen", other)
    (theme_copy / "oil.png").unlink()
    (theme_copy / "theme.json").write_text('{"base": "../other"}')
    monkeypatch.chdir(theme_copy.parent.parent)  # anywhere but the theme's folder
    theme = load_theme(theme_copy)
    assert not any("base theme" in line for line in theme.warnings), theme.warnings
    assert _same(theme.tile("oil"), load_theme("pen").tile("oil"))


def test_transparent_tile_pixels_show_the_floor(theme_copy: Path) -> None:
    overlay = Image.new("RGBA", (64, 64), (0, 0, 0, 0))
    overlay.paste((255, 0, 0, 255), (0, 0, 10, 10))
    _save(theme_copy / "oil.png", overlay)
    theme = load_theme(theme_copy)
    oil, floor = np.asarray(theme.tile("oil")), np.asarray(theme.tile("floor"))
    assert (oil[:10, :10] == (255, 0, 0, 255)).all()
    assert np.array_equal(oil[20:], floor[20:])


def test_transparent_floor_shows_the_backdrop(theme_copy: Path) -> None:
    _save(theme_copy / "floor.png", Image.new("RGBA", (64, 64), (255, 0, 0, 0)))
    (theme_copy / "theme.json").write_text('{"backdrop": "#102030"}')
    theme = load_theme(theme_copy)
    assert (np.asarray(theme.tile("floor")) == (16, 32, 48, 255)).all()
    (theme_copy / "theme.json").unlink()
    assert (np.asarray(load_theme(theme_copy).tile("floor")) == (38, 42, 50, 255)).all()


def test_case_differing_names_are_found_with_one_warning(theme_copy: Path) -> None:
    for path in sorted(theme_copy.glob("*.png")):
        path.rename(path.with_name(path.name.upper()))
    theme = load_theme(theme_copy)
    [line] = theme.warnings
    assert line.startswith("names not in lower case, read anyway: CONVEYOR-DOWN.PNG") and "more" in line
    assert _same(theme.tile("oil"), load_theme("default").tile("oil"))


@pytest.mark.parametrize(
    ("name", "hint"),
    [
        ("wall.png", "wall.png: not a theme picture; walls: wall-b..wall-p or wall-left/right/up/down"),
        ("flor.png", "flor.png: not a theme picture; did you mean floor.png?"),
        ("goal.jpg", "goal.jpg: not a theme picture; theme pictures are PNG files; save it as goal.png"),
    ],
)
def test_unknown_files_are_named_with_a_hint(theme_copy: Path, name: str, hint: str) -> None:
    _save(theme_copy / name, Image.new("RGB", (64, 64)), "JPEG" if name.endswith("jpg") else "PNG")
    (theme_copy / "notes.txt").write_text("mine")  # not a picture: nothing said
    assert _only(theme_copy, hint) == hint


def test_a_picture_that_breaks_keeps_the_last_good_one(theme_copy: Path) -> None:
    _save(theme_copy / "goal.png", Image.new("RGB", (64, 64), (1, 2, 3)))
    good = load_theme(theme_copy)
    (theme_copy / "goal.png").write_bytes(b"\x89PNG\r\n\x1a\n half written")
    again = load_theme(theme_copy, previous=good)
    assert (np.asarray(again.tile("goal"))[..., :3] == (1, 2, 3)).all()
    assert any("goal.png" in w and "keeping the last good picture" in w for w in again.warnings)


def _png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    mode=st.sampled_from(["RGB", "RGBA", "L", "LA", "P", "1", "I;16"]),
    size=st.sampled_from([(64, 64), (128, 128), (192, 192), (63, 64), (64, 128), (1, 1), (100, 100)]),
    cut=st.one_of(st.none(), st.integers(0, 400)),
    key=st.sampled_from(["floor", "robot", "wall-left", "cursor", "oil"]),
)
def test_fuzz_reader_modes_sizes_truncation(
    theme_copy: Path, mode: str, size: tuple[int, int], cut: int | None, key: str
) -> None:
    data = _png(Image.new(mode, size))
    (theme_copy / f"{key}.png").write_bytes(data if cut is None else data[:cut])
    theme = read_theme(theme_copy)
    assert all(len(w) <= 80 for w in theme.warnings)
    assert all(img.size == (64, 64) and img.mode == "RGBA" for img in theme.pictures.values())
    assert theme.texture_array()[0].shape[1:] == (64, 64, 4)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    data=st.one_of(
        st.binary(max_size=200),
        st.text(max_size=200).map(str.encode),
        st.recursive(
            st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=10),
            lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=12), inner, max_size=4),
            max_leaves=12,
        ).map(lambda value: __import__("json").dumps(value).encode()),
        st.dictionaries(
            st.sampled_from(["name", "base", "backdrop", "3d", "start_marker", "licence"]),
            st.none() | st.text(max_size=8) | st.booleans() | st.dictionaries(st.text(max_size=12), st.floats()),
        ).map(lambda value: __import__("json").dumps(value).encode()),
    )
)
@example(data=b'{"base":"/\\u0000"}')  # a NUL in the base's path: a ValueError traceback once
def test_fuzz_manifest_shapes(theme_copy: Path, data: bytes) -> None:
    (theme_copy / "theme.json").write_bytes(data)
    theme = read_theme(theme_copy)
    assert all(w.startswith(("theme.json", "1 picture ", "names")) or "start" in w for w in theme.warnings)
    assert all(len(w) <= 80 for w in theme.warnings)


@pytest.mark.parametrize("base", ["/\u0000", "x\u0000y", "\u0000"])
def test_a_base_no_folder_can_be_is_a_warning(theme_copy: Path, base: str) -> None:
    """A NUL in theme.json's base raised ValueError out of the loader (found by the fuzz test)."""
    (theme_copy / "theme.json").write_text(json.dumps({"base": base}), encoding="utf-8")
    theme = read_theme(theme_copy)
    assert any("base theme" in w and "using default" in w for w in theme.warnings), theme.warnings
    assert all(len(w) <= 80 and "\0" not in w for w in theme.warnings)


def test_wrong_size_is_judged_from_the_header_without_decoding(theme_copy: Path) -> None:
    buffer = io.BytesIO()
    Image.new("RGB", (640, 480)).save(buffer, format="PNG")
    (theme_copy / "floor.png").write_bytes(buffer.getvalue()[:60])  # header only, pixel data cut off
    _only(theme_copy, "floor.png: is 640x480 pixels; must be 64x64")


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edits=st.lists(st.tuples(st.integers(0, 199), st.integers(0, 255)), min_size=1, max_size=4))
def test_fuzz_damaged_png_headers_only_give_warnings(theme_copy: Path, edits: list[tuple[int, int]]) -> None:
    """Byte edits in the first 200 bytes (signature, IHDR, early chunks) of a real robot.png."""
    data = bytearray((theme_copy / "robot.png").read_bytes())
    for position, value in edits:
        data[position] = value
    (theme_copy / "robot.png").write_bytes(bytes(data))
    theme = read_theme(theme_copy)
    assert all(w.startswith("robot.png: ") for w in theme.warnings)
    assert theme.robot.size == (64, 64)


@pytest.mark.parametrize(("target", "message"), [("theme.json", "Too many levels"), ("/nowhere", "No such file")])
def test_a_manifest_that_is_a_broken_link_is_a_problem_not_no_manifest(
    theme_copy: Path, target: str, message: str
) -> None:
    """A theme.json linking to itself (or to nothing) was taken for no manifest: ``robots-theme
    check`` said ``ok`` and the theme lost its name and settings without a word."""
    (theme_copy / "theme.json").unlink(missing_ok=True)
    (theme_copy / "theme.json").symlink_to(target)
    problems: list[str] = []
    read_manifest(theme_copy, problems)
    assert len(problems) == 1 and problems[0].startswith(f"theme.json: cannot be read ({message}"), problems


def test_a_fifo_or_folder_in_a_theme_is_named_not_waited_on(theme_copy: Path, tmp_path: Path) -> None:
    """A picture saved as a named pipe (or a link to one) blocked open() for ever: ``robots-theme
    check`` hung and the viewer's live reload froze its window (a link to /dev/zero as the manifest
    never ended either). Each is now one warning, read in a subprocess so a hang fails the test."""
    import os
    import subprocess
    import sys

    os.mkfifo(tmp_path / "pipe")
    (theme_copy / "floor.png").unlink()
    (theme_copy / "floor.png").symlink_to(tmp_path / "pipe")
    (theme_copy / "hole.png").unlink()
    os.mkfifo(theme_copy / "hole.png")
    (theme_copy / "oil.png").unlink()
    (theme_copy / "oil.png").mkdir()
    (theme_copy / "theme.json").unlink(missing_ok=True)
    os.mkfifo(theme_copy / "theme.json")
    (theme_copy / "tron" / "blocked.png").unlink()
    os.mkfifo(theme_copy / "tron" / "blocked.png")
    code = "import sys; from themes import check_theme; print('\\n'.join(check_theme(sys.argv[1])))"
    root = Path(__file__).resolve().parents[2]
    result = subprocess.run(
        [sys.executable, "-c", code, str(theme_copy)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, "PYTHONPATH": str(root)},
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "theme.json: cannot be read (is a FIFO (named pipe), not a regular file)" in lines
    assert "floor.png: is a FIFO (named pipe), not a regular file" in lines
    assert "hole.png: is a FIFO (named pipe), not a regular file" in lines
    assert "oil.png: is a folder, not a file" in lines
    assert "tron/blocked.png: is a FIFO (named pipe), not a regular file" in lines
