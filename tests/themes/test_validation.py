"""Broken themes: every kind of problem is reported, all of them in one ThemeError."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from engine.model import Direction
from themes import ThemeError, check_theme, load_theme
from themes.loader import validate_folder


def _problems(folder: Path) -> list[str]:
    with pytest.raises(ThemeError) as info:
        load_theme(folder)
    assert check_theme(folder) == info.value.problems
    return info.value.problems


def _save(path: Path, image: Image.Image, fmt: str = "PNG") -> None:
    image.save(path, format=fmt)


def test_missing_file(theme_copy: Path) -> None:
    (theme_copy / "oil.png").unlink()
    problems = _problems(theme_copy)
    assert problems == [f"{theme_copy / 'oil.png'}: missing (the oil tile, board character 'O')"]


def test_wrong_size(theme_copy: Path) -> None:
    _save(theme_copy / "goal.png", Image.new("RGBA", (32, 32), (0, 200, 0, 255)))
    assert _problems(theme_copy) == [f"{theme_copy / 'goal.png'}: is 32x32 pixels, must be 64x64"]


def test_robot_without_alpha(theme_copy: Path) -> None:
    _save(theme_copy / "robot.png", Image.new("RGB", (64, 64), (0, 0, 255)))
    assert _problems(theme_copy) == [
        f"{theme_copy / 'robot.png'}: has no alpha channel; the robot needs a transparent background"
    ]


def test_cursor_with_opaque_alpha(theme_copy: Path) -> None:
    _save(theme_copy / "cursor.png", Image.new("RGBA", (64, 64), (0, 0, 255, 255)))
    [problem] = _problems(theme_copy)
    assert "cursor.png: has an alpha channel but every pixel is opaque" in problem


def test_palette_png_with_transparency_is_accepted(theme_copy: Path) -> None:
    robot = Image.open(theme_copy / "robot.png").convert("RGBA").quantize(colors=64)
    robot.info["transparency"] = 0
    palette_robot = Image.new("P", (64, 64), 0)
    palette_robot.putpalette(robot.getpalette() or [])
    palette_robot.paste(robot.crop((0, 0, 64, 32)), (0, 32))
    palette_robot.save(theme_copy / "robot.png", transparency=0)
    assert check_theme(theme_copy) == []
    assert load_theme(theme_copy).robot.getchannel("A").getextrema()[0] == 0


def test_corrupt_png(theme_copy: Path) -> None:
    data = (theme_copy / "hole.png").read_bytes()
    (theme_copy / "hole.png").write_bytes(data[: len(data) // 2])
    [problem] = _problems(theme_copy)
    assert problem.startswith(f"{theme_copy / 'hole.png'}: not a readable PNG image (")


def test_not_an_image_at_all(theme_copy: Path) -> None:
    (theme_copy / "floor.png").write_text("hello", encoding="utf-8")
    [problem] = _problems(theme_copy)
    assert problem.startswith(f"{theme_copy / 'floor.png'}: not a readable PNG image")


def test_jpeg_named_png(theme_copy: Path) -> None:
    _save(theme_copy / "floor.png", Image.new("RGB", (64, 64), (200, 200, 200)), "JPEG")
    assert _problems(theme_copy) == [f"{theme_copy / 'floor.png'}: is a JPEG image, must be a PNG"]


def test_bad_json_gives_line_and_column(theme_copy: Path) -> None:
    (theme_copy / "theme.json").write_text('{\n  "name": "Mine",\n  "author": oops\n}\n', encoding="utf-8")
    [problem] = _problems(theme_copy)
    assert problem.startswith(f"{theme_copy / 'theme.json'}:3:13: invalid JSON: ")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[1, 2]", "must hold a JSON object"),
        ('{"name": 3}', "field 'name' must be a text string, not 3"),
        ('{"name": "  "}', "field 'name' must not be empty"),
        ('{"start_marker": "yes"}', "field 'start_marker' must be true or false, not \"yes\""),
        ('{"license": "MIT"}', "unknown field 'license' (known fields: name, author, licence, start_marker)"),
        (b"\xff\xfe{}", "is not UTF-8 text"),
    ],
)
def test_manifest_problems(theme_copy: Path, text: str | bytes, expected: str) -> None:
    path = theme_copy / "theme.json"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    [problem] = _problems(theme_copy)
    assert problem.startswith(f"{path}: ") and expected in problem


def test_start_marker_requested_but_missing(theme_copy: Path) -> None:
    (theme_copy / "start.png").unlink()
    [problem] = _problems(theme_copy)
    assert "start.png: missing (start marker" in problem


def test_no_manifest_means_folder_name_and_no_marker(theme_copy: Path) -> None:
    (theme_copy / "theme.json").unlink()
    (theme_copy / "start.png").unlink()
    theme = load_theme(theme_copy)
    assert theme.name == "mytheme" and theme.manifest.start_marker is False
    assert theme.start_marker(Direction.UP) is None
    assert len(theme.texture_array()[1]) == 33


def test_every_problem_reported_at_once(theme_copy: Path) -> None:
    (theme_copy / "oil.png").unlink()
    (theme_copy / "conveyor-up.png").unlink()
    _save(theme_copy / "goal.png", Image.new("RGBA", (32, 32)))
    _save(theme_copy / "robot.png", Image.new("RGB", (64, 48)))
    (theme_copy / "hole.png").write_bytes(b"\x89PNG\r\n\x1a\n broken")
    (theme_copy / "theme.json").write_text("{", encoding="utf-8")
    problems = _problems(theme_copy)
    joined = "\n".join(problems)
    assert len(problems) == 7, joined
    for needle in (
        "oil.png: missing",
        "conveyor-up.png: missing",
        "goal.png: is 32x32",
        "robot.png: is 64x48",
        "robot.png: has no alpha",
        "hole.png: not a readable PNG",
        "theme.json:1:2: invalid JSON",
    ):
        assert needle in joined
    # The bad manifest cannot say start_marker, so start.png is not demanded; the message lists everything.
    with pytest.raises(ThemeError) as info:
        load_theme(theme_copy)
    assert str(info.value).startswith(f"theme {theme_copy} has 7 problems:")


def test_missing_and_non_folder(tmp_path: Path) -> None:
    assert check_theme(tmp_path / "nope") == [f"{tmp_path / 'nope'}: does not exist"]
    (tmp_path / "file").write_text("x")
    assert check_theme(tmp_path / "file") == [f"{tmp_path / 'file'}: is not a folder"]


def test_empty_folder_lists_all_33_missing_images(tmp_path: Path) -> None:
    problems, theme = validate_folder(tmp_path)
    assert theme is None and len(problems) == 33 and all(": missing (" in p for p in problems)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=400))
def test_fuzz_random_png_bytes_only_give_theme_errors(theme_copy: Path, data: bytes) -> None:
    (theme_copy / "robot.png").write_bytes(data)
    problems = check_theme(theme_copy)
    assert problems and all(p.startswith(str(theme_copy / "robot.png")) for p in problems)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.one_of(st.binary(max_size=200), st.text(max_size=200).map(str.encode)))
def test_fuzz_manifest_bytes_only_give_theme_errors(theme_copy: Path, data: bytes) -> None:
    (theme_copy / "theme.json").write_bytes(data)
    problems = check_theme(theme_copy)
    assert all(p.startswith(str(theme_copy)) for p in problems)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(width=st.integers(1, 80), height=st.integers(1, 80), mode=st.sampled_from(["RGB", "RGBA", "L", "LA", "P", "1"]))
def test_fuzz_image_shapes(theme_copy: Path, width: int, height: int, mode: str) -> None:
    buffer = io.BytesIO()
    Image.new(mode, (width, height)).save(buffer, format="PNG")
    (theme_copy / "cursor.png").write_bytes(buffer.getvalue())
    problems = check_theme(theme_copy)
    assert problems  # a blank image is never a valid cursor: wrong size, no alpha, or invisible


def test_invisible_cursor(theme_copy: Path) -> None:
    _save(theme_copy / "cursor.png", Image.new("RGBA", (64, 64)))
    assert _problems(theme_copy) == [
        f"{theme_copy / 'cursor.png'}: every pixel is fully transparent; the cursor would be invisible"
    ]


def test_wrong_size_is_judged_from_the_header_without_decoding(theme_copy: Path) -> None:
    buffer = io.BytesIO()
    Image.new("RGB", (640, 480)).save(buffer, format="PNG")
    (theme_copy / "floor.png").write_bytes(buffer.getvalue()[:60])  # header only, pixel data cut off
    assert _problems(theme_copy) == [f"{theme_copy / 'floor.png'}: is 640x480 pixels, must be 64x64"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edits=st.lists(st.tuples(st.integers(0, 199), st.integers(0, 255)), min_size=1, max_size=4))
def test_fuzz_damaged_png_headers_only_give_problems(theme_copy: Path, edits: list[tuple[int, int]]) -> None:
    """Byte edits in the first 200 bytes (signature, IHDR, early chunks) of a real robot.png."""
    data = bytearray((theme_copy / "robot.png").read_bytes())
    for position, value in edits:
        data[position] = value
    (theme_copy / "robot.png").write_bytes(bytes(data))
    problems, theme = validate_folder(theme_copy)
    assert (theme is None) == bool(problems)
    assert all(p.startswith(str(theme_copy / "robot.png")) for p in problems)
