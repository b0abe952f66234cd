"""The viewer shows the AI's side of a round: hand, choice, output and debug marks, in the window's
HUD and in headless exports of one round or card (rendered for real, offscreen over EGL)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from engine.roundlog import read_rounds
from viewer3d import coords
from viewer3d.app import ViewerApp
from viewer3d.cli import export_hud_top
from viewer3d.cli import main as view_main
from viewer3d.movie import camera_for_view, round_span
from viewer3d.roundview import round_lines
from viewer3d.sources import from_ai, from_game_dir, wait_complete

from .conftest import CHOP, Runner, python_bot

#: Marks the robot's tile red and tile (5, 5) blue every round, says where it is, plays the first five cards.
MARKER = (
    'x, y, f = open("bot.txt").read().split()\n'
    'open("debug.txt", "w").write(f"mark {x} {y} red here\\nmark 5 5 #0000ff\\narrow {x} {y} 5 5 yellow\\ntext at {x},{y}\\n")\n'
    'print("round at", x, y)\n'
    'open("ccards.txt", "w").write("".join(open("cards.txt").readlines()[:5]))\n'
)


@pytest.fixture
def game(engine: Runner, tmp_path: Path) -> Path:
    python_bot(tmp_path / "marker.py", MARKER)
    result = engine("play", str(CHOP), "--seed", "25", "--level", "hard", "--ai", "./marker.py", "--out", "g")
    assert result.code == 0, result.err
    return tmp_path / "g"


def pixel_at_tile(
    path: Path, x: int, y: int, size: tuple[int, int] = (640, 480), hud_top: float = 0.0
) -> tuple[int, int, int]:
    """The pixel at tile (x, y) of an iso1 export framed below a ``hud_top`` strip (0: no HUD)."""
    matrices = camera_for_view((12, 12), size, "iso1", hud_top=hud_top).matrices()
    px, py, _ = coords.project(coords.tile_center(x, y), matrices.view_proj_columns(), size)
    image = Image.open(path).convert("RGB")
    return image.getpixel((round(px), round(py)))  # type: ignore[return-value]


def test_debug_marks_appear_in_a_headless_render_of_that_round(game: Path, tmp_path: Path) -> None:
    args = [str(game), "--headless", "--size", "640x480", "--round", "2"]
    assert view_main([*args, "--out", str(tmp_path / "marked.png")]) == 0
    assert view_main([*args, "--out", str(tmp_path / "plain.png"), "--no-marks", "--no-hud"]) == 0
    hud_top = export_hud_top(from_game_dir(game), (640, 480))
    assert hud_top > 0  # the HUD's strip is kept off the board, so the marked picture is framed lower
    marked = pixel_at_tile(tmp_path / "marked.png", 5, 5, hud_top=hud_top)
    plain = pixel_at_tile(tmp_path / "plain.png", 5, 5)
    assert marked != plain
    assert marked[2] > marked[0] + 40 and marked[2] > marked[1] + 40  # tinted blue
    assert marked[2] - plain[2] > 20 or plain[0] - marked[0] > 40
    # The HUD panel (top left) is drawn only in the marked picture.
    hud = Image.open(tmp_path / "marked.png").convert("RGB").crop((4, 4, 200, 60))
    bare = Image.open(tmp_path / "plain.png").convert("RGB").crop((4, 4, 200, 60))
    assert hud.tobytes() != bare.tobytes()


def test_round_and_card_exports_and_their_errors(
    game: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        view_main(
            [
                str(game),
                "--headless",
                "--size",
                "320x240",
                "--fps",
                "5",
                "--round",
                "2",
                "--out",
                str(tmp_path / "r.gif"),
            ]
        )
        == 0
    )
    source = from_game_dir(game)
    begin, end = round_span(source.timeline, 2)
    frames = Image.open(tmp_path / "r.gif").n_frames
    assert frames < source.timeline.duration * 5  # only the round, not the whole game
    assert frames >= 1 and end > begin
    card_begin, card_end = round_span(source.timeline, 2, 3)
    assert begin <= card_begin < card_end <= end
    assert view_main([str(game), "--headless", "--round", "2", "--card", "9", "--out", str(tmp_path / "c.png")]) == 2
    assert "round 2 played 5 cards, not card 9" in capsys.readouterr().err
    # --card 0 was left out of the line's head (a falsy card): the line names both options
    assert view_main([str(game), "--headless", "--round", "2", "--card", "0", "--out", str(tmp_path / "c.png")]) == 2
    assert "robots-view: --round 2 --card 0: round 2 played 5 cards, not card 0" in capsys.readouterr().err
    assert view_main([str(game), "--headless", "--round", "99", "--out", str(tmp_path / "c.png")]) == 2
    assert "there is no round 99" in capsys.readouterr().err
    assert view_main([str(game), "--headless", "--card", "2", "--out", str(tmp_path / "c.png")]) == 2
    assert "--card K needs --round N" in capsys.readouterr().err


def test_hud_lines_name_hand_choice_output_and_marks(game: Path) -> None:
    entries = read_rounds(game, 12, 12)
    assert entries is not None
    lines = round_lines(entries[1], card=2)
    assert lines[0].startswith("hand:   ") and "[" in lines[1] and lines[1].startswith("chosen: ")
    assert any(line.startswith("> round at ") for line in lines)
    assert any(line.startswith("# at ") for line in lines)


def test_window_app_shows_the_rounds_and_d_toggles_the_marks(game: Path) -> None:
    source = from_game_dir(game)
    app = ViewerApp(source.board, source.timeline, source.title)
    app.rounds = source.rounds
    assert app.round_entry_now() is source.rounds[1]
    app.key("PAGEDOWN")
    app.key("PAGEDOWN")
    assert app.round_entry_now() is source.rounds[app.player.current_round()]
    # At the round's start (where PgDn lands) the choice is shown with no card marked as playing.
    chosen = [line for line in app.round_lines() if line.startswith("chosen: ")]
    assert len(chosen) == 1 and "[" not in chosen[0]
    app.key("RIGHT")  # its first card played
    assert any(line.startswith("chosen: [") for line in app.round_lines())
    assert app.show_marks
    app.key("D")
    assert not app.show_marks and "off" in app.message


def test_a_live_game_keeps_the_ais_output_per_round(tmp_path: Path) -> None:
    bot = python_bot(tmp_path / "marker.py", MARKER)
    source = from_ai(CHOP, str(bot), seed=25)
    wait_complete(source, 60)
    assert source.timeline.complete
    assert sorted(source.rounds) == list(range(1, len(source.rounds) + 1)) and len(source.rounds) >= 2
    assert source.rounds[1].output.startswith("round at 0 0")
    assert len(source.rounds[1].debug.marks) == 4


def test_a_damaged_round_record_does_not_stop_the_viewer(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (game / "rounds.jsonl").write_text('{"round": 1, "before": "0 0 Q"}\nnot json\n')
    source = from_game_dir(game)
    assert source.rounds == {} and source.timeline.steps
    assert "round record is ignored" in capsys.readouterr().err


def test_a_damaged_deck_is_said_and_the_game_still_shown(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A broken deck.txt was dropped without a word: the HUD just lost the 8 dealt cards."""
    (game / "deck.txt").write_bytes(b"\x00\xff junk\n" * 50)
    source = from_game_dir(game)
    assert source.timeline.deck is None and source.timeline.steps
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("robots-view: the deck is ignored (the hands dealt are not shown): ")
    assert "deck.txt:1:1: unknown card" in err[0], err
