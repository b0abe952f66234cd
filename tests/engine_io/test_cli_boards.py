"""``robots-engine boards``: the shipped boards, found as package data (not through the checkout)."""

from __future__ import annotations

from pathlib import Path

import pytest

import gameboards
from engine.boardfile import load_board
from engine.resources import ResourceMissing, read_resource_text, resource_path

ROOT = Path(__file__).resolve().parents[2]


def test_boards_lists_every_shipped_board_with_its_size_and_path(engine) -> None:
    result = engine("boards")
    assert result.code == 0 and result.err == ""
    rows = [line.split("\t") for line in result.out.splitlines()]
    names = [head.split()[0] for head, _ in rows]
    assert names == sorted(p.name for p in (ROOT / "gameboards").glob("*.dat"))
    for head, path in rows:
        name, size = head.split()
        board = load_board(path)
        assert Path(path).name == name and size == f"{board.width}x{board.height}"
    assert "chop.dat                 12x12\t" in result.out


def test_board_path_and_names() -> None:
    assert gameboards.board_path("chop.dat").read_bytes() == (ROOT / "gameboards" / "chop.dat").read_bytes()
    assert gameboards.DEMO_BOARD in gameboards.board_names()
    with pytest.raises(ResourceMissing, match=r"^gameboards/nope\.dat: missing from the installed package"):
        gameboards.board_path("nope.dat")


def test_resources_name_the_package_and_file() -> None:
    assert read_resource_text("viewer3d.render", "floor.vert").startswith("#version")
    with pytest.raises(ResourceMissing, match=r"^viewer3d/render/none\.frag: missing"):
        resource_path("viewer3d.render", "none.frag")
    with pytest.raises(ResourceMissing, match=r"^no_such_package/x: missing"):
        resource_path("no_such_package", "x")


def test_a_missing_shipped_board_is_named_with_exit_4(engine, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gameboards, "board_names", lambda: ["gone.dat"])
    result = engine("boards")
    assert result.code == 4 and result.out == ""
    assert result.err == (
        "robots-engine: gameboards/gone.dat: missing from the installed package (a broken install: reinstall robots)\n"
    )


@pytest.mark.parametrize(
    ("argument", "local_file", "expected"),
    [
        ("chop.dat", False, "shipped"),  # nothing here of that name: the shipped board
        ("chop.dat", True, "local"),  # a file of that name here always wins
        ("./chop.dat", False, "missing"),  # a path with a folder in it is a path
        ("nope.dat", False, "missing"),  # not a shipped name: the reader says so
        ("chop", False, "shipped"),  # the name without .dat, as a Tron arena's without .txt
        ("./chop", False, "missing"),
    ],
)
def test_a_board_argument_may_name_a_shipped_board(engine, tmp_path: Path, argument, local_file, expected) -> None:
    if local_file:
        (tmp_path / "chop.dat").write_text("3 1\nV Z\n")
    result = engine("check", argument)
    if expected == "missing":
        assert result.code == 2 and result.err == f"robots-engine: {argument}: no such file\n"
    elif expected == "local":
        assert result.code == 0 and result.out.startswith("chop.dat: ok, 3x1,")
    else:
        assert result.code == 0 and result.out.startswith(f"{gameboards.board_path('chop.dat')}: ok, 12x12,")


def test_play_takes_a_shipped_board_by_name(engine, tmp_path: Path) -> None:
    result = engine("play", "crossing-5x3.dat", "--seed", "2", "--out", "g")
    assert result.code == 0, result.err
    assert (tmp_path / "g" / "globalseq.txt").exists()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("chop.dat", "board"),
        ("open-10x10.txt", "arena"),
        ("game-out", "same"),  # a game folder's name is left alone
        ("", "same"),
    ],
)
def test_board_or_arena_argument(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str, expected: str) -> None:
    from engine.shipped import board_or_arena_argument

    monkeypatch.chdir(tmp_path)
    wanted = {
        "board": lambda: str(gameboards.board_path(text)),
        "arena": lambda: str(gameboards.tron_arena_path(text)),
        "same": lambda: text,
    }[expected]()
    assert board_or_arena_argument(text) == wanted
