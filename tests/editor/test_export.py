"""Export of the board alone: PNG, SVG and PDF from the command line without a display, PDF paging."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PIL import Image

from editor.export import ExportOptions, board_png, plan_pages
from engine.boardfile import load_board
from engine.model import Board

CHOP = Path("gameboards/chop.dat")


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    return subprocess.run([sys.executable, "-m", "editor", *args], capture_output=True, text=True, timeout=120, env=env)


def test_png_svg_pdf_without_a_display(tmp_path: Path) -> None:
    png, svg, pdf = tmp_path / "x.png", tmp_path / "x.svg", tmp_path / "x.pdf"
    for out in (png, svg, pdf):
        result = _run(str(CHOP), "--export", str(out), "--tile", "32", "--grid", "--coords")
        assert result.returncode == 0, result.stderr
        assert result.stdout == f"wrote {out}\n"  # worded as robots-view's exports (no tool name on a result)
    image = Image.open(png)
    margin = 16  # coordinates need a margin of half a tile
    assert image.size == (12 * 32 + margin, 12 * 32 + margin)  # the board only: no palette, no panels
    root = ET.parse(svg).getroot()
    uses = [e for e in root.iter() if e.tag.endswith("use")]
    assert len(uses) == 144 and root.get("width") == str(12 * 32 + margin)
    assert pdf.read_bytes().startswith(b"%PDF")
    assert shutil.which("pdftoppm"), "pdftoppm is missing: run ./run setup"
    subprocess.run(["pdftoppm", "-r", "30", "-png", str(pdf), str(tmp_path / "page")], check=True, timeout=60)
    pages = sorted(tmp_path.glob("page*.png"))
    assert len(pages) == 1 and Image.open(pages[0]).size[0] > 100


def test_png_shows_the_theme_tiles() -> None:
    board = load_board(CHOP)
    plain = board_png(board, ExportOptions(theme="(plain)", tile_px=16))
    themed = board_png(board, ExportOptions(tile_px=16))
    assert plain.size == themed.size == (12 * 16, 12 * 16)
    assert plain.tobytes() != themed.tobytes()
    # The goal (bottom right in chop.dat) and a floor tile look different.
    assert plain.crop((11 * 16, 11 * 16, 12 * 16, 12 * 16)).tobytes() != plain.crop((16, 0, 32, 16)).tobytes()


def test_big_board_pdf_splits_over_pages_at_the_minimum_tile_size(tmp_path: Path) -> None:
    board = Board.from_strings([" " * 60] * 45)
    plan = plan_pages(board, ExportOptions())
    assert plan.tile_mm == 8.0 and plan.split
    assert {(x, y) for xs, ys in plan.pages for x in xs for y in ys} == {(x, y) for x in range(60) for y in range(45)}
    small = plan_pages(Board.from_strings([" " * 20] * 20), ExportOptions(paper="letter"))
    assert not small.split and small.tile_mm >= 8.0
    src = tmp_path / "big.dat"
    src.write_text("60 45\n" + (" " * 60 + "\n") * 45)
    out = tmp_path / "big.pdf"
    assert _run(str(src), "--export", str(out), "--paper", "letter").returncode == 0
    subprocess.run(["pdftoppm", "-r", "10", "-png", str(out), str(tmp_path / "p")], check=True, timeout=60)
    assert len(list(tmp_path.glob("p*.png"))) == len(plan_pages(board, ExportOptions(paper="letter")).pages)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--export", "{tmp}/x.jpg"], "export as .png, .svg or .pdf"),
        (["--export", "{tmp}/missing/x.png"], "does not exist"),
        (["--export", "{tmp}/x.png", "--tile", "0"], "--tile must be"),
        (["--screenshot", "{tmp}/x.svg"], "--screenshot writes PNG"),
    ],
)
def test_bad_export_is_one_line_exit_2_and_leaves_no_file(tmp_path: Path, args: list[str], message: str) -> None:
    result = _run(str(CHOP), *(a.format(tmp=tmp_path) for a in args))
    assert result.returncode == 2 and message in result.stderr and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert not [p for p in tmp_path.rglob("*") if p.is_file()]


def test_export_from_the_editor_asks_before_replacing(tmp_path: Path) -> None:
    from editor.controller import EditorController
    from editor.document import Document

    board = tmp_path / "b.dat"
    shutil.copy(CHOP, board)
    ctl = EditorController(Document.open(board), autosave_folder=tmp_path / "state", background_validation=False)
    ctl.key_press("E", ctrl=True, shift=True)
    assert ctl.prompt is not None and ctl.prompt.text == f"{tmp_path / 'b'}.png"
    ctl.key_press("ENTER")
    assert ctl.prompt is not None and ctl.prompt.text == "--tile 48 --grid"  # the options, prefilled
    ctl.prompt.set_text("--tile 20 --coords")
    ctl.key_press("ENTER")
    ctl.finish_export()  # it runs in a thread of its own (test_export_job.py)
    assert (tmp_path / "b.png").is_file() and ctl.status == f"exported {tmp_path / 'b.png'}"
    assert Image.open(tmp_path / "b.png").size == (12 * 20 + 14, 12 * 20 + 14)
    first = (tmp_path / "b.png").stat().st_mtime_ns
    ctl.key_press("E", ctrl=True, shift=True)
    ctl.key_press("ENTER")
    ctl.key_press("ENTER")
    assert ctl.prompt is not None and "replace it?" in ctl.prompt.label
    ctl.text("n")
    assert (tmp_path / "b.png").stat().st_mtime_ns == first and ctl.status == "not exported"
    ctl.key_press("E", ctrl=True, shift=True)
    ctl.key_press("ENTER")
    ctl.prompt.set_text("--tile huge")  # type: ignore[union-attr]
    ctl.key_press("ENTER")
    assert ctl.status.startswith("not exported: --tile must be")


@pytest.mark.parametrize(
    ("name", "message"),
    [("b.gif", "export as .png, .svg or .pdf (not '.gif')"), ("missing/b.png", "the folder")],
)
def test_export_to_a_wrong_file_is_refused_before_the_options(tmp_path: Path, name: str, message: str) -> None:
    """A .gif or a missing folder was only refused after the options had been typed."""
    from editor.controller import EditorController
    from editor.document import Document

    board = tmp_path / "b.dat"
    shutil.copy(CHOP, board)
    ctl = EditorController(Document.open(board), autosave_folder=tmp_path / "state", background_validation=False)
    ctl.key_press("E", ctrl=True, shift=True)
    assert ctl.prompt is not None
    ctl.prompt.set_text(str(tmp_path / name))
    ctl.key_press("ENTER")
    assert ctl.prompt is None and ctl.status.startswith(f"could not export {tmp_path / name}: ")
    assert message in ctl.status and not (tmp_path / name).exists()


@pytest.mark.parametrize(("name", "size"), [("chop.dat", (12 * 8, 12 * 8)), ("open-10x10.txt", (10 * 8, 10 * 8))])
def test_export_takes_a_shipped_board_or_arena_by_name(tmp_path: Path, name: str, size: tuple[int, int]) -> None:
    """Exporting only reads, so from a folder without it a shipped name works (editing never does)."""
    root = Path(__file__).resolve().parents[2]
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env["PYTHONPATH"] = str(root)
    out = tmp_path / "shipped.png"
    result = subprocess.run(
        [sys.executable, "-m", "editor", name, "--export", str(out), "--tile", "8"],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    with Image.open(out) as image:
        assert image.size == size
    assert not (tmp_path / name).exists()  # nothing made here


def test_a_png_too_big_to_draw_is_refused_naming_the_tile_that_fits(tmp_path: Path) -> None:
    """A 512x512 arena at the default 48 px a tile was a 24576x24576 picture drawn whole in memory
    (4.7 GB, 30 s); now it is one line naming the largest tile that fits, and the editor's export
    prompt offers that tile."""
    from editor.controller import EditorController
    from editor.document import Document
    from editor.export import MAX_PNG_PIXELS, check_png_size, png_size, png_tile_limit
    from editor.games import TRON, game_named

    arena = tmp_path / "big.txt"
    arena.write_text(game_named(TRON).write(game_named(TRON).blank(512, 512)))
    result = _run(str(arena), "--export", str(tmp_path / "big.png"))
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1
    assert "24576x24576 pixels" in result.stderr and "use --tile 16 or less" in result.stderr
    assert not (tmp_path / "big.png").exists()
    board = Document.open(arena).board
    for coords in (False, True):
        fit = png_tile_limit(board, coords)
        assert png_size(board, fit, coords)[0] * png_size(board, fit, coords)[1] <= MAX_PNG_PIXELS
        assert png_size(board, fit + 1, coords)[0] * png_size(board, fit + 1, coords)[1] > MAX_PNG_PIXELS
        check_png_size(board, ExportOptions(tile_px=fit, coords=coords))
        with pytest.raises(ValueError, match=f"use --tile {fit} or less"):
            check_png_size(board, ExportOptions(tile_px=fit + 1, coords=coords))
    ctl = EditorController(Document.open(arena), autosave_folder=tmp_path / "state", background_validation=False)
    ctl.key_press("E", ctrl=True, shift=True)
    ctl.key_press("ENTER")
    assert ctl.prompt is not None and ctl.prompt.text.split()[:2] == ["--tile", "16"]
    ctl.prompt.set_text("--tile 17")
    ctl.key_press("ENTER")
    assert ctl.status.startswith(f"could not export {tmp_path / 'big.png'}: at 17 px a tile the picture is 8704x8704")
    assert not (tmp_path / "big.png").exists()
    ctl.close()
