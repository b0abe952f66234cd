"""The Tron arena editor: edits with undo, transforms, validation, saving; an arena drawn here plays."""

from __future__ import annotations

from pathlib import Path

import pytest

from editor.cli import main as edit_main
from editor.games.tron.controller import TronController
from editor.games.tron.document import TronDocument
from editor.games.tron.validate import validate
from engine.tron.arena import Heading, load_arena
from engine.tron.cli import main as tron_main
from engine.tron.record import load_game


def test_paint_place_turn_remove_undo_redo() -> None:
    doc = TronDocument.new(6, 4)
    assert len(doc.starts) == 1 and not doc.modified
    assert doc.paint([(3, 1), (3, 2), (99, 99)], True)
    assert doc.is_blocked(3, 2) and doc.modified
    assert doc.place_start(2, 6, 4)  # a new bot 2 on the right half faces west
    assert doc.starts[1].heading is Heading.WEST
    assert doc.place_start(2, 6, 4)  # again: turned right
    assert doc.starts[1].heading is Heading.NORTH
    assert not doc.place_start(2, doc.starts[0].x, doc.starts[0].y)  # bot 1 starts there
    assert doc.place_start(7, 1, 1) and len(doc.starts) == 3  # numbers stay 1..n without gaps
    assert doc.place_start(1, 3, 1) and not doc.is_blocked(3, 1)  # a start frees its field
    assert doc.remove_start(2) and len(doc.starts) == 2
    before = doc.state
    assert doc.undo() and doc.undo()
    assert doc.redo() and doc.redo() and doc.state == before
    assert not doc.redo()


def test_transforms_and_symmetry() -> None:
    doc = TronDocument.new(5, 3)
    doc.paint([(1, 1)], True)
    doc.place_start(1, 2, 3)  # moves bot 1's start (facing east) to 2,3
    doc.transform("mirror-x")
    assert doc.is_blocked(5, 1) and (doc.starts[0].x, doc.starts[0].heading) == (4, Heading.WEST)
    doc.transform("mirror-y")
    assert doc.is_blocked(5, 3)
    doc.transform("rotate")
    assert doc.is_blocked(1, 1) and doc.starts[0].heading is Heading.EAST
    doc.transform("symmetric")
    assert doc.is_blocked(1, 1) and doc.is_blocked(5, 3)
    assert doc.resize(3, 2) and doc.width == 3 and doc.is_blocked(1, 1)


def test_validation_reports_errors_warnings_and_space() -> None:
    doc = TronDocument.new(7, 3)
    doc.place_start(2, 7, 2)
    messages = [(p.level, p.message) for p in validate(doc.arena())]
    assert ("info", "bot 1 at 2,2 EAST: 19 fields reachable") in messages
    doc.paint([(4, 1), (4, 2), (4, 3)], True)
    assert any("can never meet" in m for _, m in [(p.level, p.message) for p in validate(doc.arena())])
    doc.paint([(2, 2)], True)  # paint over bot 1's start
    problems = validate(doc.arena())
    assert problems[0].level == "error" and "starts on the blocked field 2,2" in problems[0].message
    walled = TronDocument.new(3, 3)
    walled.place_start(1, 2, 2)
    walled.place_start(2, 3, 3)
    walled.paint([(1, 2), (3, 2), (2, 1), (2, 3)], True)
    assert any(p.message.startswith("bot 1 is walled in") for p in validate(walled.arena()))


def test_controller_keys_and_mouse(tmp_path: Path) -> None:
    doc = TronDocument.new(8, 6, tmp_path / "new.txt")
    played: list[int] = []

    def fake_play(document: TronDocument) -> object:
        played.append(document.width)
        from engine.tron.cli import bot_spec
        from engine.tron.server import play_game

        return play_game(document.arena(), [bot_spec("simple"), bot_spec("simple")])[0]

    controller = TronController(doc, fake_play)  # type: ignore[arg-type]
    controller.press(1, 1)
    controller.drag(2, 1)
    controller.release()
    assert doc.is_blocked(1, 1) and doc.is_blocked(2, 1)
    controller.press(2, 1, right=True)
    assert not doc.is_blocked(2, 1)
    assert controller.key("_2")
    controller.press(8, 6)
    assert (doc.starts[1].x, doc.starts[1].y) == (8, 6)
    controller.key("W")
    controller.key("Z", ctrl=True)
    assert len(doc.starts) == 1
    controller.key("Y", ctrl=True)
    controller.key("P")
    assert played == [8] and controller.status.startswith("test game:")
    controller.key("S", ctrl=True)
    assert controller.status.startswith("saved") and not doc.modified
    assert load_arena(tmp_path / "new.txt") == doc.arena()
    assert not controller.key("F7")


def test_an_arena_made_in_the_editor_plays(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = TronDocument.new(12, 8, tmp_path / "made.txt")
    doc.paint([(6, y) for y in range(2, 8)], True)
    doc.place_start(2, 11, 7)
    doc.place_start(3, 6, 1)
    doc.transform("symmetric")
    doc.save()
    assert (
        tron_main(["play", str(tmp_path / "made.txt"), "strong", "simple", "random", "--out", str(tmp_path / "g")]) == 0
    )
    record = load_game(tmp_path / "g" / "tron-game.json")
    assert len(record.bots) == 3 and record.final.over
    capsys.readouterr()


def test_robots_edit_opens_tron_arenas_headless(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = Path(__file__).resolve().parents[2]
    shot = tmp_path / "ed.png"
    assert edit_main([str(root / "gameboards/tron/rooms-40x40.txt"), "--headless", "--screenshot", str(shot)]) == 0
    assert shot.stat().st_size > 1000
    assert (
        edit_main(["--tron", str(tmp_path / "new.txt"), "--arena", "30x20", "--headless", "--screenshot", str(shot)])
        == 0
    )
    assert edit_main(["--tron", "--arena", "0x5", "--headless", "--screenshot", str(shot)]) == 2
    bad = tmp_path / "bad.txt"
    bad.write_text("GAMEBOARDSTART 2,1\n.x\nGAMEBOARDEND\n")
    assert edit_main([str(bad), "--headless", "--screenshot", str(shot)]) == 2
    assert f"{bad}:2:2: unknown field 'x'" in capsys.readouterr().err
