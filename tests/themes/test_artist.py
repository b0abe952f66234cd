"""What an artist does with robots-theme: names that cannot clash, a sheet to paint on and back,
contact sheets whose labels fit, and output that behaves in a pipe."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageFont

from themes import list_themes, load_theme, user_themes_dir
from themes.cli import main
from themes.loader import BUILTIN_DIR
from themes.sheet import _entries
from themes.template import layout, read_template, template_sheet

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", ["pen", "default", "PEN"])
def test_new_refuses_a_shipped_name(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["new", name]) == 2
    assert capsys.readouterr().err == f"robots-theme: {name!r} is a shipped theme's name; choose another\n"
    assert not (user_themes_dir() / name).exists()


def test_a_shadowing_folder_is_listed_as_shadowed_and_loads_by_path(capsys: pytest.CaptureFixture[str]) -> None:
    shadow = user_themes_dir() / "pen"
    shutil.copytree(BUILTIN_DIR / "default", shadow)
    infos = [info for info in list_themes() if info.path == shadow.resolve()]
    assert len(infos) == 1 and infos[0].shadowed and infos[0].key == str(shadow.resolve())
    assert load_theme(infos[0].key).path == shadow.resolve()  # reachable by path
    assert load_theme("pen").path == (BUILTIN_DIR / "pen").resolve()  # the name means the shipped one
    keys = [info.key for info in list_themes()]
    assert len(keys) == len(set(keys))  # no two rows the same: F2 cycles through all of them
    assert main(["list"]) == 0
    [row] = [line for line in capsys.readouterr().out.splitlines() if str(shadow.resolve()) in line]
    assert row.split()[:4] == ["pen", "Default", "user", "shadowed"]


def test_list_columns_line_up_past_16_characters(capsys: pytest.CaptureFixture[str]) -> None:
    long_name = "a-rather-long-theme-name-indeed"
    shutil.copytree(BUILTIN_DIR / "pen", user_themes_dir() / long_name)
    assert main(["list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert all(not line.startswith(" ") for line in lines)
    positions = [[i for i in range(1, len(line)) if line[i] != " " and line[i - 1] == " "][:4] for line in lines]
    assert all(p == positions[0] for p in positions), lines


def test_list_into_a_closed_pipe_exits_141_silently() -> None:
    """`robots-theme list | head -1`: the reader is gone before the rows are written; 141 as the
    other tools (and Unix tools killed by SIGPIPE) report it."""
    read_end, write_end = os.pipe()
    os.close(read_end)  # every write now fails with EPIPE, as after `head` has exited
    try:
        result = subprocess.run(
            [sys.executable, "-m", "themes.cli", "list"],
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": str(REPO)},
            cwd=REPO,
            check=False,
        )
    finally:
        os.close(write_end)
    assert (result.returncode, result.stderr) == (141, "")


@pytest.mark.parametrize("scale", [1, 2, 3])
def test_template_import_round_trip_is_exact(scale: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sheet = tmp_path / "sheet.png"
    assert main(["template", "pen", "--out", str(sheet), "--scale", str(scale)]) == 0
    with Image.open(sheet) as image:
        assert image.size == layout(scale)[0]
    assert main(["import", str(sheet), "mine", "--dir", str(tmp_path)]) == 0
    original, imported = load_theme("pen"), load_theme(tmp_path / "mine")
    assert set(imported.pictures) == set(original.pictures)
    for key, picture in original.pictures.items():
        assert np.array_equal(np.asarray(imported.pictures[key]), np.asarray(picture)), key
    assert imported.faults == ()


def test_import_never_writes_through_a_link_and_leaves_no_half_theme(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A link at the staging name '.NAME.tmp' led import's pictures into another folder (and became
    the theme); a full disk left the half-written staging folder and said 'robots-theme: : File too large'."""
    sheet = tmp_path / "sheet.png"
    assert main(["template", "default", "--out", str(sheet)]) == 0
    themes, elsewhere = tmp_path / "themes", tmp_path / "elsewhere"
    themes.mkdir()
    elsewhere.mkdir()
    (elsewhere / "keep.txt").write_text("mine")
    (themes / ".linked.tmp").symlink_to(elsewhere)
    assert main(["import", str(sheet), "linked", "--dir", str(themes)]) == 0
    assert [p.name for p in elsewhere.iterdir()] == ["keep.txt"]
    assert (themes / "linked").is_dir() and not (themes / "linked").is_symlink()
    script = (
        "import resource, sys\n"
        "resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))\n"
        "from themes.cli import main\n"
        "sys.exit(main(sys.argv[1:]))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script, "import", str(sheet), "full", "--dir", str(themes)],
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
        timeout=120,
    )
    assert result.returncode == 2 and result.stderr == f"robots-theme: {themes / 'full'}: File too large\n"
    assert sorted(p.name for p in themes.iterdir()) == ["linked"]


def test_painting_a_template_changes_the_theme(tmp_path: Path) -> None:
    sheet = template_sheet(load_theme("default"), 2)
    left, top = layout(2)[1]["wall-left"]
    sheet.paste((0, 255, 0, 255), (left, top, left + 16, top + 128))  # a wider green left wall
    sheet.save(tmp_path / "s.png")
    pictures = read_template(tmp_path / "s.png")
    assert "wall-b" not in pictures  # an empty cell: walls stay composed from the overlays
    assert (np.asarray(pictures["wall-left"])[:, :8] == (0, 255, 0, 255)).all()


@pytest.mark.parametrize("shift", [6, -3])
def test_paint_off_the_grid_is_said_at_import(shift: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Paint shifted off the frames was cut at them without a word: the floor came in with a
    band of the template's old picture along two edges."""
    sheet = template_sheet(load_theme("default"), 2)
    for key in ("floor", "hole", "oil", "goal"):
        left, top = layout(2)[1][key]
        sheet.paste((200, 40, 40, 255), (left + shift, top + shift, left + shift + 128, top + shift + 128))
    sheet.save(tmp_path / "s.png")
    assert main(["import", str(tmp_path / "s.png"), "mine", "--dir", str(tmp_path)]) == 0
    [line] = capsys.readouterr().err.splitlines()
    assert line == f"{tmp_path / 's.png'}: paint over the frames of floor, hole and 2 more: keep it inside"
    assert (tmp_path / "mine" / "floor.png").exists()  # imported all the same: the sheet is still there to fix


def test_paint_inside_the_frames_imports_without_a_word(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sheet = template_sheet(load_theme("pen"), 3)
    for left, top in layout(3)[1].values():
        sheet.paste((10, 200, 40, 255), (left, top, left + 192, top + 192))  # every cell, edge to edge
    sheet.convert("RGB").save(tmp_path / "s.png")  # an editor that dropped the alpha channel
    notes: list[str] = []
    assert len(read_template(tmp_path / "s.png", notes)) == len(layout(3)[1]) and notes == []
    template_sheet(load_theme("default"), 1).save(tmp_path / "t.png")
    assert main(["import", str(tmp_path / "t.png"), "mine", "--dir", str(tmp_path)]) == 0
    assert capsys.readouterr().err == ""


def test_import_replace_paints_a_theme_again_and_the_watcher_sees_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Painting a sheet, importing, looking and painting again: a second import was refused
    ('already exists') with no way on but deleting the theme, its theme.json edits with it."""
    from themes.watch import ThemeWatcher

    sheet = template_sheet(load_theme("default"), 1)
    sheet.save(tmp_path / "s.png")
    assert main(["import", str(tmp_path / "s.png"), "mine", "--dir", str(tmp_path)]) == 0
    theme_dir = tmp_path / "mine"
    (theme_dir / "theme.json").write_text('{"name": "Mine", "author": "me"}')
    (theme_dir / "notes.txt").write_text("ideas")
    shown = load_theme(theme_dir)
    watcher = ThemeWatcher(shown)
    left, top = layout(1)[1]["floor"]
    sheet.paste((200, 40, 40, 255), (left, top, left + 64, top + 64))
    sheet.save(tmp_path / "s.png")
    capsys.readouterr()
    assert main(["import", str(tmp_path / "s.png"), "mine", "--dir", str(tmp_path)]) == 2
    assert capsys.readouterr().err.endswith(
        "already exists, not overwriting it; import --replace updates its pictures\n"
    )
    assert main(["import", str(tmp_path / "s.png"), "mine", "--dir", str(tmp_path), "--replace"]) == 0
    fresh = watcher.poll()
    assert fresh is not None and fresh.pictures["floor"].getpixel((5, 5)) == (200, 40, 40, 255)
    assert fresh.name == "Mine" and (theme_dir / "notes.txt").read_text() == "ideas"
    assert fresh.tile("goal").tobytes() == shown.tile("goal").tobytes()
    assert not [p.name for p in theme_dir.iterdir() if p.name.startswith(".")]  # no temporary files left


def _png_header_only(width: int, height: int) -> bytes:
    """A PNG file whose header claims ``width`` x ``height`` pixels, its data one row long."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    row = zlib.compress(b"\x00" * (width * 4 + 1))
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", row) + chunk(b"IEND", b"")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"not a png", "not a readable PNG"),
        (None, "not the size of a template"),
        (b"bomb", "not a readable PNG (Image size (1600000000 pixels) exceeds"),  # was a traceback
    ],
)
def test_import_of_something_else_is_one_line(
    data: bytes | None, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "x.png"
    if data is None:
        Image.new("RGB", (300, 200)).save(path)
    elif data == b"bomb":  # a PNG header saying 40000 x 40000 over one row of pixels: a file of 100 bytes
        path.write_bytes(_png_header_only(40_000, 40_000))
    else:
        path.write_bytes(data)
    assert main(["import", str(path), "mine", "--dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err and not (tmp_path / "mine").exists()


def test_sheet_marks_every_picture_taken_from_the_base(theme_copy: Path) -> None:
    """A broken goal.png showed the base's goal unmarked on the contact sheet, as if it were the
    artist's own; only the Tron pictures said '(default)'."""
    (theme_copy / "goal.png").write_bytes(b"not a png")
    (theme_copy / "wall-left.png").unlink()
    (theme_copy / "start.png").unlink()
    labels = [label for label, _ in _entries(load_theme(theme_copy), None)]
    borrowed = {label.split()[0] for label in labels if label.endswith("  (default)")}
    assert borrowed == {
        "goal",
        *(f"wall-{c}" for c in "bdfhjlnp"),  # every wall with a left edge: the overlay is the base's
        "start-left",
        "start-right",
        "start-up",
        "start-down",
    }
    assert "floor  [' ' a S T U V]" in labels and "robot  (alpha)" in labels


@pytest.mark.parametrize("scale", [1, 2])
def test_sheet_labels_never_overlap(scale: int) -> None:
    font = ImageFont.load_default(size=12)
    from themes.sheet import contact_sheet

    theme = load_theme("default")
    entries = _entries(theme, None)
    widest = max(font.getlength(label) for label, _ in entries)
    sheet = contact_sheet(theme, columns=8, scale=scale)
    column = (sheet.width - 10) / 8
    assert column - 10 >= widest  # every label fits its column, gap included


def test_transparent_floor_is_the_same_in_the_sheet(tmp_path: Path) -> None:
    folder = tmp_path / "clear"
    folder.mkdir()
    Image.new("RGBA", (64, 64), (255, 0, 0, 0)).save(folder / "floor.png")
    (folder / "theme.json").write_text('{"backdrop": "#102030"}')
    from themes.sheet import contact_sheet

    sheet = np.asarray(contact_sheet(load_theme(folder), columns=8, scale=1))
    floor_cell = sheet[44 + 20, 10 + 20]
    assert tuple(floor_cell) == (16, 32, 48)  # the backdrop, not the hidden red
