"""Where games come from: game directories, sequence files, and live games computed in a thread."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.boardfile import load_board
from engine.cards import Card
from engine.conformance import reference_chooser
from engine.deck import generate_deck
from engine.errors import InputError
from engine.game import Outcome, play_game
from engine.gamedir import write_game_dir
from engine.model import Level
from engine.outputs import format_globalseq
from viewer3d import sources
from viewer3d.playback import Player

CHOP = Path(__file__).resolve().parents[2] / "gameboards" / "chop.dat"


def test_live_game_matches_the_engines_game() -> None:
    board = load_board(CHOP)
    deck = generate_deck(16)
    expected = play_game(board, Level.NORMAL, deck, reference_chooser)
    source = sources.play_live(board, Level.NORMAL, deck, reference_chooser, "live")
    sources.wait_complete(source, timeout=60)
    timeline = source.timeline
    assert timeline.complete and timeline.outcome is expected.outcome
    played = [(s.round_number, s.index, s.candidates[0], s.result) for s in timeline.steps]
    assert played == [
        (r.number, i, card, result)
        for r in expected.rounds
        for i, (card, result) in enumerate(zip(r.chosen, r.results, strict=False))
    ]


def test_live_game_reports_an_ai_error() -> None:
    def bad_ai(board: object, level: object, pose: object, hand: tuple[Card, ...]) -> list[Card]:
        return list(hand[:4])

    source = sources.play_live(load_board(CHOP), Level.HARD, generate_deck(1), bad_ai, "bad")
    sources.wait_complete(source, timeout=60)
    assert source.timeline.outcome is Outcome.AI_ERROR
    assert source.timeline.error is not None and "round 1" in source.timeline.error
    player = Player(source.timeline)
    player.update(1.0)
    assert player.at_end and not player.playing


def test_sequence_level_is_detected(tmp_path: Path) -> None:
    board = load_board(CHOP)
    game = play_game(board, Level.NORMAL, generate_deck(16), reference_chooser)
    (tmp_path / "seq.txt").write_text(format_globalseq(game))
    source = sources.from_sequence(CHOP, tmp_path / "seq.txt")
    assert source.level is Level.NORMAL
    assert len(source.timeline.steps) == game.cards_played
    write_game_dir(tmp_path / "dir", game, ai="reference", deck=None, seed=16)
    from_dir = sources.from_game_dir(tmp_path / "dir")
    assert from_dir.level is Level.NORMAL and from_dir.timeline.duration == source.timeline.duration


def test_contradicting_sequence_names_round_and_card(tmp_path: Path) -> None:
    board = load_board(CHOP)
    game = play_game(board, Level.NORMAL, generate_deck(16), reference_chooser)
    lines = format_globalseq(game).splitlines()
    second_round = lines.index("--------") + 1
    lines[second_round] = "RU" if lines[second_round] != "RU" else "RL"
    (tmp_path / "seq.txt").write_text("\n".join(lines) + "\n")
    with pytest.raises(InputError, match=r"seq.txt:\d+:1: round 2, card \d: no card can write"):
        sources.from_sequence(CHOP, tmp_path / "seq.txt", level=Level.NORMAL)


def test_demo_uses_the_best_builtin_ai() -> None:
    assert sources.DEMO_AI == "planner"


def test_a_game_folder_replayed_in_the_background_gives_the_same_timeline(tmp_path) -> None:
    """The window replays a folder's sequence in a thread (first frame at once on huge games);
    the result is the same timeline, and a contradicting sequence ends it with the error."""
    from engine.boardfile import load_board
    from engine.conformance import reference_chooser
    from engine.deck import generate_deck
    from engine.game import play_game
    from engine.gamedir import write_game_dir
    from engine.model import Level
    from tests.viewer_app.conftest import CHOP
    from viewer3d.sources import from_game_dir, wait_complete

    game = play_game(load_board(CHOP), Level.NORMAL, generate_deck(16), reference_chooser)
    write_game_dir(tmp_path / "g", game, ai="reference", deck=None, seed=16)
    now = from_game_dir(tmp_path / "g")
    later = from_game_dir(tmp_path / "g", background=True)
    wait_complete(later)
    assert later.timeline.complete and later.timeline.outcome is now.timeline.outcome
    assert [s.result.pose for s in later.timeline.steps] == [s.result.pose for s in now.timeline.steps]
    assert later.timeline.card_ends == now.timeline.card_ends and later.timeline.deck == now.timeline.deck
    (tmp_path / "g" / "globalseq.txt").write_text("MU\nMU\nMU\nMU\n")
    broken = from_game_dir(tmp_path / "g", background=True)
    wait_complete(broken)
    assert broken.timeline.complete and broken.timeline.error is not None
    assert "globalseq.txt:1:1: round 1, card 1" in broken.timeline.error
