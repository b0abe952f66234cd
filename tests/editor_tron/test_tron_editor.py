"""Tron arenas in the shared editor: the robot editor's document, undo stack, tools, keys and file
handling edit them; the engine's parser, writer, checks and server decide what they mean."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from editor.cli import main as edit_main
from editor.commands import SetTiles
from editor.controller import EditorController
from editor.document import Document
from editor.games import TRON, game_named
from editor.games.base import PlayCancelled, PlayWatch
from editor.games.tron.grid import TronGrid, arena_of
from engine.errors import InputError
from engine.tron.arena import Heading, load_arena, parse_arena, write_arena
from engine.tron.cli import main as tron_main
from engine.tron.record import load_game

ROOT = Path(__file__).resolve().parents[2]
TRON_GAME = game_named(TRON)


def _ctl(tmp_path: Path, width: int = 8, height: int = 6, name: str = "new.txt") -> EditorController:
    document = Document(TRON_GAME.blank(width, height), tmp_path / name)
    return EditorController(document, autosave_folder=tmp_path / "state", background_validation=False)


def _click(ctl: EditorController, x: int, y: int, button: str = "left") -> None:
    left, top, size, _ = ctl.mapping.tile_rect(x, y)
    ctl.mouse_motion(left + size / 2, top + size / 2)
    ctl.mouse_press(left + size / 2, top + size / 2, button)
    ctl.mouse_release(left + size / 2, top + size / 2, button)


def _drag(ctl: EditorController, a: tuple[int, int], b: tuple[int, int], button: str = "left") -> None:
    (ax, ay, size, _), (bx, by, _, _) = ctl.mapping.tile_rect(*a), ctl.mapping.tile_rect(*b)
    ctl.mouse_press(ax + size / 2, ay + size / 2, button)
    ctl.mouse_drag(bx + size / 2, by + size / 2, bx - ax, by - ay, button)
    ctl.mouse_release(bx + size / 2, by + size / 2, button)


def _arena(ctl: EditorController) -> tuple[bytes, list[tuple[int, int, Heading]]]:
    grid = ctl.document.board
    assert isinstance(grid, TronGrid)
    arena = arena_of(grid)
    return arena.blocked, [(s.x, s.y, s.heading) for s in arena.starts]


def test_paint_starts_turn_move_undo_through_the_shared_controller(tmp_path: Path) -> None:
    ctl = _ctl(tmp_path)
    assert [t.name for t in ctl.tools] == ["paint", "starts", "rectangle", "fill", "eyedropper"]
    assert ctl.ctx.brush.char == "#" and ctl.level is None
    _drag(ctl, (0, 0), (3, 0))  # one drag: four blocked fields, one undo step
    assert _arena(ctl)[0][:5] == b"\x01\x01\x01\x01\x00" and len(ctl.document.history) == 1
    _click(ctl, 1, 0, "right")  # the right button frees
    assert _arena(ctl)[0][1] == 0
    ctl.key_press("1")
    assert ctl.ctx.brush.char == "1E" and "bot 1 start facing east" in ctl.status
    _click(ctl, 2, 2)
    ctl.key_press("2")
    _click(ctl, 7, 5)
    assert _arena(ctl)[1] == [(3, 3, Heading.EAST), (8, 6, Heading.WEST)]
    _click(ctl, 1, 0)  # bot 2's brush again: its start moves (one start per bot), the old field is free
    assert _arena(ctl)[1] == [(3, 3, Heading.EAST), (2, 1, Heading.WEST)]
    assert ctl.document.board.tile(7, 5).char == "."
    ctl.mouse_motion(*ctl.mapping.tile_rect(1, 0)[:2])
    ctl.key_press("R")  # turn the start under the pointer
    assert _arena(ctl)[1][1][2] is Heading.NORTH
    ctl.key_press("8")  # bot 8 on an arena with two starts becomes bot 3 (numbers stay 1..n)
    _click(ctl, 5, 5)
    assert [s[:2] for s in _arena(ctl)[1]] == [(3, 3), (2, 1), (6, 6)]
    ctl.key_press("E")  # a brush key with no other meaning... E is not one: nothing happens
    ctl.key_press("B")
    _click(ctl, 2, 2, "right")  # erase bot 1: the others are renumbered
    assert [s[:2] for s in _arena(ctl)[1]] == [(2, 1), (6, 6)]
    assert ctl.document.board.tile(1, 0).char == "1N"
    for _ in range(3):
        ctl.key_press("Z", ctrl=True)
    assert [s[:2] for s in _arena(ctl)[1]] == [(3, 3), (2, 1)] and _arena(ctl)[1][1][2] is Heading.WEST
    ctl.key_press("Y", ctrl=True)
    assert _arena(ctl)[1][1][2] is Heading.NORTH
    ctl.key_press("W")  # the robot game's wall tool: not for arenas, said so instead of a crash
    assert "has no walls" in ctl.status and ctl.tool.name == "paint"
    ctl.key_press("F6")
    assert "no level" in ctl.status
    ctl.close()


def test_transforms_resize_and_the_command_palette(tmp_path: Path) -> None:
    ctl = _ctl(tmp_path, 5, 3)
    ctl.document.push(SetTiles({(0, 0): TRON_GAME.cell("#"), (1, 2): TRON_GAME.cell("1E")}))
    ctl.key_press("M", ctrl=True)  # mirror left-right
    assert ctl.document.board.tile(4, 0).char == "#" and _arena(ctl)[1] == [(4, 3, Heading.WEST)]
    ctl.key_press("M", ctrl=True, shift=True)  # top-bottom
    assert ctl.document.board.tile(4, 2).char == "#" and _arena(ctl)[1] == [(4, 1, Heading.WEST)]
    ctl.key_press("R", ctrl=True)  # a quarter turn: 3x5, facings turned
    assert (ctl.document.board.width, ctl.document.board.height) == (3, 5)
    assert _arena(ctl)[1] == [(3, 4, Heading.NORTH)]
    ctl.key_press("E", ctrl=True)
    ctl.prompts.current.text = "2x2 anchor=nw"  # type: ignore[union-attr]
    ctl.key_press("ENTER")
    assert (ctl.document.board.width, ctl.document.board.height) == (2, 2) and _arena(ctl)[1] == []
    ctl.key_press("Z", ctrl=True)
    assert _arena(ctl)[1] == [(3, 4, Heading.NORTH)]
    ctl.key_press("P", ctrl=True, shift=True)
    menu = [action for _, action in ctl.prompt.menu]  # type: ignore[union-attr]
    assert "tool_walls" not in menu and "level" not in menu and "tool_paint" in menu and "export" in menu
    ctl.close()


def test_validation_messages_come_from_the_engine(tmp_path: Path) -> None:
    ctl = _ctl(tmp_path, 7, 3)
    assert ctl.problems == [] and "bot 1 at 2,2 EAST: 19 fields reachable" in ctl.summary
    ctl.document.push(SetTiles({(1, 1): TRON_GAME.cell("1E"), (6, 1): TRON_GAME.cell("2W")}))
    ctl.document.push(SetTiles({(3, y): TRON_GAME.cell("#") for y in range(3)}))
    problems = ctl.problems
    assert [p.message for p in problems] == ["bots 1 and 2 can never meet (separate regions)"]
    assert set(problems[0].tiles) == {(1, 1), (6, 1)}  # the two starts are marked
    assert "bot 1 at 2,2 EAST: 8 fields reachable" in ctl.summary  # the space each bot has, beside the warning
    ctl.document.push(SetTiles({(0, 1): TRON_GAME.cell("#"), (2, 1): TRON_GAME.cell("#")}))
    ctl.document.push(SetTiles({(1, 0): TRON_GAME.cell("#"), (1, 2): TRON_GAME.cell("#")}))
    assert ctl.problems[0].message == "bot 1 is walled in: it is out in round 1"
    one = _ctl(tmp_path, 1, 1, "one.txt")
    assert one.problems and one.problems[0].message.startswith("cannot start a game of two")
    one.key_press("F5")
    assert one.status.startswith("test-play: cannot start") and not one.playtest.running
    one.close()
    ctl.close()


def test_save_round_trips_exactly_with_the_engine_writer(tmp_path: Path) -> None:
    for shipped in sorted((ROOT / "gameboards/tron").glob("*.txt"))[:6]:
        target = tmp_path / shipped.name
        target.write_bytes(shipped.read_bytes())
        document = Document.open(target)
        assert document.game is TRON_GAME and not document.modified
        document.save()
        assert target.read_bytes() == shipped.read_bytes()
    short = tmp_path / "short.txt"
    short.write_text("GAMEBOARDSTART 3,2\n...\n.#.\nGAMEBOARDEND\nPOS 1 1,1 E\nPOS 2 3,2 NORTH\n")
    ctl = EditorController(Document.open(short), autosave_folder=tmp_path / "state", background_validation=False)
    ctl.mouse_motion(*ctl.mapping.tile_rect(0, 0)[:2])
    ctl.key_press("R")
    ctl.key_press("S", ctrl=True)
    assert short.read_text().splitlines()[-2:] == ["POS 1 1,1 S", "POS 2 3,2 NORTH"]  # the spelling is kept
    assert write_arena(load_arena(short)) == short.read_text() == ctl.document.text
    assert not ctl.document.modified and ctl.title == "short.txt — robots-edit"
    ctl.close()


def test_an_arena_made_in_the_editor_plays(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ctl = _ctl(tmp_path, 12, 8, "made.txt")
    ctl.document.push(SetTiles({(5, y): TRON_GAME.cell("#") for y in range(1, 7)}))
    for key, (x, y) in (("1", (1, 3)), ("2", (10, 6)), ("3", (5, 0))):
        ctl.key_press(key)
        _click(ctl, x, y)
    ctl.key_press("S", ctrl=True)
    assert ctl.status.startswith("saved")
    arena = parse_arena((tmp_path / "made.txt").read_text())
    assert len(arena.starts) == 3
    out = tmp_path / "g"
    assert tron_main(["play", str(tmp_path / "made.txt"), "strong", "simple", "random", "--out", str(out)]) == 0
    record = load_game(out / "tron-game.json")
    assert len(record.bots) == 3 and record.final.over
    capsys.readouterr()
    ctl.close()


def test_test_play_runs_the_engine_server_and_opens_the_viewer_on_the_game(tmp_path: Path) -> None:
    ctl = _ctl(tmp_path, 10, 6, "play.txt")
    opened: list[Path] = []
    ctl.playtest.open_viewer = lambda path: opened.append(path)  # type: ignore[assignment,func-returns-value]
    ctl.key_press("F5")
    assert "the AI is playing" in ctl.status
    ctl.wait_playtest(timeout=120)
    assert ctl.status.startswith("test game: ") and "strong" in ctl.status and "simple" in ctl.status
    record = load_game(opened[0])
    assert [b.name for b in record.bots] == ["strong", "simple"] and record.final.over
    ctl.close()
    assert not opened[0].exists()


def test_robots_edit_opens_and_creates_arenas(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shot = tmp_path / "ed.png"
    assert edit_main([str(ROOT / "gameboards/tron/rooms-40x40.txt"), "--headless", "--screenshot", str(shot)]) == 0
    assert shot.stat().st_size > 1000
    assert (
        edit_main(["--tron", str(tmp_path / "new.txt"), "--arena", "30x20", "--headless", "--screenshot", str(shot)])
        == 0
    )
    assert edit_main(["--tron", "--arena", "0x5", "--headless", "--screenshot", str(shot)]) == 2
    assert "--arena" in capsys.readouterr().err
    big = tmp_path / "big.txt"
    assert edit_main(["--tron", str(big), "--arena", "1000x1000", "--headless", "--screenshot", str(shot)]) == 2
    assert "--arena 1000x1000: more than 262144 fields (512x512)" in capsys.readouterr().err
    assert not big.exists()
    # The example a malformed size is shown is one --arena takes (1024x768 was refused too).
    assert edit_main(["--tron", str(big), "--arena", "big", "--headless", "--screenshot", str(shot)]) == 2
    assert "--arena must look like WIDTHxHEIGHT (e.g. 60x40), not 'big'" in capsys.readouterr().err
    assert edit_main(["--tron", str(big), "--arena", "60x40", "--headless", "--screenshot", str(shot)]) == 0
    assert edit_main([str(tmp_path / "x.dat"), "--arena", "30x20", "--headless", "--screenshot", str(shot)]) == 2
    assert "add --tron" in capsys.readouterr().err
    arena = str(ROOT / "gameboards/tron/open-10x10.txt")
    assert edit_main([arena, "--arena", "30x20", "--headless", "--screenshot", str(shot)]) == 2
    assert "exists already" in capsys.readouterr().err
    bad = tmp_path / "bad.txt"
    bad.write_text("GAMEBOARDSTART 2,1\n.x\nGAMEBOARDEND\n")
    assert edit_main([str(bad), "--headless", "--screenshot", str(shot)]) == 2
    assert f"{bad}:2:2: unknown field 'x'" in capsys.readouterr().err
    for suffix in ("png", "svg", "pdf"):
        out = tmp_path / f"arena.{suffix}"
        assert edit_main([str(ROOT / "gameboards/tron/open-10x10.txt"), "--export", str(out)]) == 0
        assert out.stat().st_size > 500
    capsys.readouterr()


def test_a_file_of_the_other_game_opened_in_the_window_switches_the_tools(tmp_path: Path) -> None:
    ctl = EditorController(Document(), autosave_folder=tmp_path / "state", background_validation=False)
    assert "walls" in [t.name for t in ctl.tools]
    ctl.open_path(str(ROOT / "gameboards/tron/open-10x10.txt"))
    assert ctl.document.game is TRON_GAME and "walls" not in [t.name for t in ctl.tools]
    assert ctl.layout.palette_chars == TRON_GAME.palette and ctl.ctx.brush.char == "#"
    ctl.open_path(str(ROOT / "gameboards/chop.dat"))
    assert ctl.document.game.name == "robots" and ctl.tools[-1].name == "walls" and ctl.level is not None
    ctl.close()


def test_y_makes_the_arena_point_symmetric_in_one_undo_step(tmp_path: Path) -> None:
    ctl = _ctl(tmp_path, 5, 3)
    ctl.document.push(
        SetTiles({(0, 0): TRON_GAME.cell("#"), (1, 1): TRON_GAME.cell("#"), (4, 2): TRON_GAME.cell("1W")})
    )
    ctl.key_press("Y")
    blocked = {(x, y) for y in range(3) for x in range(5) if ctl.document.board.tile(x, y).char == "#"}
    assert blocked == {(0, 0), (1, 1), (3, 1)} and ctl.document.board.tile(4, 2).char == "1W"  # the start stays
    assert ctl.status == "make point-symmetric"
    ctl.key_press("Y")
    assert "nothing to change" in ctl.status
    ctl.key_press("Z", ctrl=True)
    assert ctl.document.board.tile(3, 1).char == "."
    ctl.key_press("P", ctrl=True, shift=True)
    assert "game_make point-symmetric" in [action for _, action in ctl.prompt.menu]  # type: ignore[union-attr]
    ctl.close()


def test_fields_come_from_the_themes_tron_pictures_and_starts_are_drawn_over_them() -> None:
    import numpy as np

    from editor.art import FALLBACK_THEME

    default, pen, plain = (TRON_GAME.cell_images(t) for t in ("default", "pen", FALLBACK_THEME))
    for pictures in (default, pen, plain):
        assert all(image.size == (64, 64) for image in pictures.values())
    assert not np.array_equal(np.asarray(default["#"]), np.asarray(pen["#"]))  # the theme's own pictures
    assert not np.array_equal(np.asarray(default["#"]), np.asarray(plain["#"]))  # drawn without a theme
    corner = (1, 1)  # a start is the free field with an arrow on it
    assert default["1E"].getpixel(corner) == default["."].getpixel(corner)
    assert default["1E"].getpixel((32, 32)) != default["."].getpixel((32, 32))


def test_an_arena_with_more_starts_than_the_editor_draws_is_refused_on_that_line(tmp_path: Path) -> None:
    starts = "".join(f"POS {b} {b},1 E\n" for b in range(1, 34))
    text = "GAMEBOARDSTART 40,2\n" + "." * 40 + "\n" + "." * 40 + "\nGAMEBOARDEND\n\n" + starts
    with pytest.raises(InputError) as caught:
        TRON_GAME.parse(text, "many.txt")
    assert str(caught.value).startswith("many.txt:38:1: the editor draws at most 32 starts; this arena has 33")


def test_the_starts_tool_gives_any_number_of_bots_a_start(tmp_path: Path) -> None:
    ctl = _ctl(tmp_path, 16, 6, "many.txt")
    ctl.key_press("T")
    assert ctl.tool.name == "starts"
    for x in range(12):  # twelve bots: more than the number keys reach
        _click(ctl, x, 1 + x % 2)
    assert [s[:2] for s in _arena(ctl)[1]] == [(x + 1, 2 + x % 2) for x in range(12)]
    assert _arena(ctl)[1][0][2] is Heading.EAST and _arena(ctl)[1][11][2] is Heading.WEST  # facing the middle
    assert ctl.status == "bot 12 starts at 12,3 facing west"
    _click(ctl, 11, 2)  # on a start: turned right
    assert _arena(ctl)[1][11][2] is Heading.NORTH
    _click(ctl, 2, 1, "right")  # removed: bots 4.. become 3..
    assert len(_arena(ctl)[1]) == 11 and ctl.document.board.tile(3, 2).char == "3E"
    assert len(ctl.document.history) == 14  # every click one step
    assert len([line for line in ctl.summary if "fields reachable" in line]) == 11
    ctl.key_press("S", ctrl=True)
    assert len(load_arena(tmp_path / "many.txt").starts) == 11
    ctl.key_press("P", ctrl=True, shift=True)
    assert "tool_starts" in [action for _, action in ctl.prompt.menu]  # type: ignore[union-attr]
    ctl.close()


class _Told(PlayWatch):
    """A watch that says when the game first reported progress (tests wait on that, not on time)."""

    def __init__(self) -> None:
        super().__init__()
        self.seen = threading.Event()

    def __setattr__(self, name: str, value: object) -> None:
        super().__setattr__(name, value)
        if name == "progress" and value:
            self.seen.set()


def test_a_long_test_play_shows_its_round_and_f5_stops_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """On a big arena a test game takes minutes (an open 512x512 one ran over 6 minutes with only
    "the AI is playing" on show and no way to stop it): the status bar counts the rounds, and F5
    again stops the game (its bots are killed) with nothing opened."""
    from editor import playtest

    watches: list[_Told] = []
    monkeypatch.setattr(playtest, "PlayWatch", lambda: watches.append(_Told()) or watches[-1])
    ctl = _ctl(tmp_path, 100, 100, "big.txt")
    opened: list[Path] = []
    ctl.playtest.open_viewer = lambda path: opened.append(path)  # type: ignore[assignment,func-returns-value]
    ctl.key_press("F5")
    assert watches and watches[0].seen.wait(timeout=120)  # two bots far apart: hundreds of rounds to go
    ctl.work()
    assert ctl.status.startswith("test-play: the AI is playing … round ") and ctl.status.endswith("(F5 stops it)")
    ctl.key_press("F5")
    assert ctl.status == "test-play: stopping …"
    ctl.wait_playtest(timeout=120)
    assert ctl.status.startswith("test-play stopped in round ") and ctl.status.endswith("; nothing to show")
    assert opened == [] and not ctl.playtest.running
    ctl.close()


def test_a_cancelled_game_raises_where_it_stopped() -> None:
    watch = _Told()
    box: list[object] = []

    def run() -> None:
        try:
            box.append(TRON_GAME.play(TRON_GAME.blank(60, 60), None, "x", watch))
        except PlayCancelled as exc:
            box.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    assert watch.seen.wait(timeout=120)
    watch.cancel.set()
    thread.join(timeout=120)
    assert len(box) == 1 and isinstance(box[0], PlayCancelled) and str(box[0]).startswith("stopped in round ")
    assert watch.progress.startswith("round ")
