"""The shipped example AIs speak the protocol and beat blind play where it is easy to see."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from engine.ai.external import ExternalAI, run_ai_once
from engine.ai.reference import reference_chooser
from engine.boardfile import load_board, parse_board
from engine.cards import Card
from engine.deck import generate_deck
from engine.game import Outcome, check_choice, play_game
from engine.model import Direction, Level, Pose
from engine.protocol import write_ai_inputs

from .conftest import CHOP, ROOT

EXAMPLES = {
    "python": ROOT / "examples" / "python" / "bot.py",
    "shell": ROOT / "examples" / "shell" / "bot.sh",
}
HAND = (Card.MF1, Card.MF2, Card.RL, Card.RR, Card.MB, Card.MF3, Card.RU, Card.MF1)


@pytest.fixture(params=sorted(EXAMPLES))
def example(request: pytest.FixtureRequest) -> Path:
    return EXAMPLES[request.param]


def test_example_answers_from_hand(example: Path, tmp_path: Path) -> None:
    board = load_board(CHOP)
    for level in Level:
        write_ai_inputs(tmp_path, board, HAND, board.start)
        chosen = run_ai_once(example, tmp_path, level, log_path=tmp_path / "log")
        check_choice(HAND, chosen)
        assert f"level {level.value}" in (tmp_path / "log").read_text()


def test_example_avoids_the_edge_on_hard(example: Path, tmp_path: Path) -> None:
    # Facing up in the top-left corner: every forward card drives off the board on hard.
    board = load_board(CHOP)
    write_ai_inputs(tmp_path, board, HAND, Pose(0, 0, Direction.UP))
    chosen = run_ai_once(example, tmp_path, Level.HARD)
    check_choice(HAND, chosen)
    assert chosen[0] not in (Card.MF1, Card.MF2, Card.MF3)
    # The reference AI would play MF 1 first and fall off.
    assert reference_chooser(board, Level.HARD, Pose(0, 0, Direction.UP), HAND)[0] is Card.MF1


def test_example_avoids_a_hole(example: Path, tmp_path: Path) -> None:
    board = parse_board("3 3\n V \n H \n Z \n")
    hand = (Card.MF1, Card.MF2, Card.RL, Card.MF1, Card.MF1, Card.RR, Card.MF1, Card.MB)
    write_ai_inputs(tmp_path, board, hand, board.start)
    chosen = run_ai_once(example, tmp_path, Level.NORMAL)
    check_choice(hand, chosen)
    assert chosen[0] not in (Card.MF1, Card.MF2)
    # On easy the hole is floor, so driving straight down is fine.
    write_ai_inputs(tmp_path, board, hand, board.start)
    assert run_ai_once(example, tmp_path, Level.EASY)[0] in (Card.MF1, Card.MF2)


def test_example_plays_whole_game(example: Path) -> None:
    board = load_board(CHOP)
    with ExternalAI(example) as ai:
        game = play_game(board, Level.NORMAL, generate_deck(3), ai)
    assert game.outcome in (Outcome.FINISHED, Outcome.DESTROYED, Outcome.CARDS_OUT), game.error
    assert game.rounds


def test_example_runs_with_spaces_in_paths(example: Path, tmp_path: Path) -> None:
    copy = tmp_path / "my ai" / example.name
    copy.parent.mkdir()
    shutil.copy2(example, copy)
    work = tmp_path / "work dir"
    work.mkdir()
    board = load_board(CHOP)
    with ExternalAI(copy, workdir=work) as ai:
        check_choice(HAND, ai(board, Level.HARD, board.start, HAND))
    assert (work / "ccards.txt").is_file()
