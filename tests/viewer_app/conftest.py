"""Shared fixtures: a real game on chop.dat replayed through the engine's sequence reader."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.boardfile import load_board
from engine.conformance import reference_chooser
from engine.deck import generate_deck
from engine.game import play_game
from engine.model import Level
from engine.outputs import format_globalseq
from engine.replay import Replay, load_replay

ROOT = Path(__file__).resolve().parents[2]
CHOP = ROOT / "gameboards" / "chop.dat"


def chop_replay(seed: int = 1, level: Level = Level.HARD) -> tuple[Replay, str]:
    board = load_board(CHOP)
    game = play_game(board, level, generate_deck(seed), reference_chooser)
    text = format_globalseq(game)
    return load_replay(board, level, game.start, text), text


#: Normal level, seed 16: 40 cards with card moves, slides, belts, pushes, rotators, bumps and a death.
RICH = (16, Level.NORMAL)
#: Easy level, seed 22: a long game that reaches the goal.
GOAL = (22, Level.EASY)


@pytest.fixture(scope="session")
def replay() -> Replay:
    return chop_replay(*RICH)[0]


@pytest.fixture(scope="session")
def goal_replay() -> Replay:
    return chop_replay(*GOAL)[0]


@pytest.fixture(autouse=True)
def private_state(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Recent games (viewer3d.recent) go to a fresh state folder, never the user's."""
    folder = tmp_path_factory.mktemp("state")
    monkeypatch.setenv("XDG_STATE_HOME", str(folder))
    return folder
