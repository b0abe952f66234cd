"""Where games come from: game directories, sequence files, and live games computed in a thread."""

from __future__ import annotations

import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from engine.boardfile import load_board
from engine.cards import Card
from engine.conformance import reference_chooser
from engine.deck import generate_deck
from engine.errors import InputError
from engine.game import Chooser, Outcome, play_game
from engine.gamedir import write_game_dir
from engine.model import Board, Level, Pose
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


def _gated_chooser(seen: list[float], gate: threading.Event, calls: threading.Event) -> Chooser:
    """The reference AI, which notes the switch interval at each call and waits for ``gate`` first."""

    def choose(board: Board, level: Level, pose: Pose, hand: tuple[Card, ...]) -> list[Card]:
        seen.append(sys.getswitchinterval())
        calls.set()
        assert gate.wait(30)
        return reference_chooser(board, level, pose, hand)

    return choose


def test_a_live_game_lowers_the_switch_interval_while_it_computes() -> None:
    """The window's GL calls let go of the interpreter; a worker computing in Python gives it back
    only when the switch interval runs out, so while one runs the interval is short (a key showed
    up to 0.8 s late with Python's 5 ms), and afterwards it is what it was. Two games at once:
    the interval comes back only when the last one ends."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(0.005)
    try:
        board, deck = load_board(CHOP), generate_deck(16)
        seen: list[float] = []
        gates = [threading.Event(), threading.Event()]
        calls = [threading.Event(), threading.Event()]
        first = sources.play_live(board, Level.NORMAL, deck, _gated_chooser(seen, gates[0], calls[0]), "a")
        second = sources.play_live(board, Level.NORMAL, deck, _gated_chooser(seen, gates[1], calls[1]), "b")
        assert calls[0].wait(30) and calls[1].wait(30)
        assert sys.getswitchinterval() == pytest.approx(sources.WORKER_SWITCH_INTERVAL)
        gates[0].set()
        sources.wait_complete(first, timeout=60)
        assert first.timeline.complete and not second.timeline.complete
        assert sys.getswitchinterval() == pytest.approx(sources.WORKER_SWITCH_INTERVAL)  # the second still runs
        gates[1].set()
        sources.wait_complete(second, timeout=60)
        assert second.timeline.complete
        assert seen and all(value == pytest.approx(sources.WORKER_SWITCH_INTERVAL) for value in seen)
        assert sys.getswitchinterval() == pytest.approx(0.005)
    finally:
        sys.setswitchinterval(before)


def test_a_background_replay_lowers_the_switch_interval_while_it_runs(tmp_path: Path, monkeypatch) -> None:
    game = play_game(load_board(CHOP), Level.NORMAL, generate_deck(16), reference_chooser)
    write_game_dir(tmp_path / "g", game, ai="reference", deck=None, seed=16)
    seen: list[float] = []
    replay = sources.replay_sequence

    def noting(*args: Any, **kwargs: Any) -> Any:
        seen.append(sys.getswitchinterval())
        return replay(*args, **kwargs)

    monkeypatch.setattr(sources, "replay_sequence", noting)
    before = sys.getswitchinterval()
    sys.setswitchinterval(0.005)
    try:
        source = sources.from_game_dir(tmp_path / "g", background=True)
        sources.wait_complete(source, timeout=60)
        assert source.timeline.complete and source.timeline.error is None
        assert seen == [pytest.approx(sources.WORKER_SWITCH_INTERVAL)]
        assert sys.getswitchinterval() == pytest.approx(0.005)
    finally:
        sys.setswitchinterval(before)


def test_the_switch_interval_is_never_raised() -> None:
    before = sys.getswitchinterval()
    sys.setswitchinterval(0.0001)
    try:
        with sources.responsive_switching():
            assert sys.getswitchinterval() == pytest.approx(0.0001, abs=1e-6)
        assert sys.getswitchinterval() == pytest.approx(0.0001, abs=1e-6)
    finally:
        sys.setswitchinterval(before)
