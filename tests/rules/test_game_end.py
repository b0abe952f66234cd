"""Game end: X (destroyed), Y (deck cannot deal 8 cards), Z (goal); AI errors (RULES.md: Rounds and the deck)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from engine.cards import Card
from engine.deck import generate_deck
from engine.game import Outcome, play_game
from engine.model import Board, Level, Pose
from engine.outputs import format_globalseq, format_stats, last_sequence

from .game_helpers import first_five, game_of

FILLER = "RL, RL, RL, RL, RL, RL, RL"


@pytest.mark.parametrize(
    ("rows", "level", "deck", "outcome", "cards", "rounds", "globalseq"),
    [
        ("TH", "normal", "MF 1, " + FILLER, Outcome.DESTROYED, 1, 1, "MR\nX\n"),
        ("TZ", "normal", "MF 1, " + FILLER, Outcome.FINISHED, 1, 1, "MR\nZ\n"),
        (
            "T",
            "normal",
            "RL, RR, RU, RL, RR, MF 1, MF 2, MF 3",
            Outcome.CARDS_OUT,
            5,
            1,
            "RL\n----\nRR\n----\nRU\n----\nRL\n----\nRR\n--------\nY\n",
        ),
        ("T/H", "normal", "RR, MF 1, RL, RL, RL, RL, RL, RL", Outcome.DESTROYED, 2, 1, "RR\n----\nMD\nX\n"),
        ("T", "hard", "MF 1, " + FILLER, Outcome.DESTROYED, 1, 1, "MR\nX\n"),
        (
            "T",
            "easy",
            "MF 1, " + FILLER + ", RL",
            Outcome.CARDS_OUT,
            5,
            1,
            "----\nRL\n----\nRL\n----\nRL\n----\nRL\n--------\nY\n",
        ),
        (
            "T Z",
            "normal",
            "RL, RL, RL, RL, RL, RL, RL, RL, RR, MF 1, MF 1, RL, RL, RL, RL, RL",
            Outcome.FINISHED,
            8,
            2,
            "RL\n----\nRL\n----\nRL\n----\nRL\n----\nRL\n--------\nRR\n----\nMR\n----\nMR\nZ\n",
        ),
    ],
)
def test_game_end(rows: str, level: str, deck: str, outcome: Outcome, cards: int, rounds: int, globalseq: str) -> None:
    game = game_of(rows, level, deck)
    assert game.outcome is outcome
    assert game.cards_played == cards
    assert len(game.rounds) == rounds
    assert format_globalseq(game) == globalseq
    stats = format_stats(game).splitlines()
    assert stats[0] == f"Cards: {cards}"
    assert stats[1] == f"Rounds: {rounds}"
    assert stats[4:] == [
        f"Destroyed (X): {int(outcome is Outcome.DESTROYED)}",
        f"Cards Out (Y): {int(outcome is Outcome.CARDS_OUT)}",
        f"Finished (Z): {int(outcome is Outcome.FINISHED)}",
    ]


def test_deck_runs_out_after_700_rounds() -> None:
    board = Board.from_strings(["T"])  # a 1x1 board at normal: every step is blocked, the robot only turns
    deck = generate_deck(7)
    game = play_game(board, Level.NORMAL, deck, first_five)
    assert game.outcome is Outcome.CARDS_OUT
    assert len(game.rounds) == 700
    assert game.cards_played == 3500
    text = format_globalseq(game)
    assert text.endswith("--------\nY\n")
    assert text.splitlines().count("--------") == 700
    assert last_sequence(game) == "Y\n"
    played = [card for r in range(700) for card in deck[8 * r : 8 * r + 5]]
    turns = sum(1 for card in played if card.rotation is not None)
    assert format_stats(game) == (
        f"Cards: 3500\nRounds: 700\nCard Moves: {turns}\nBoard Moves: 0\n"
        "Destroyed (X): 0\nCards Out (Y): 1\nFinished (Z): 0\n"
    )


def test_ai_choosing_four_cards_is_an_ai_error() -> None:
    def four(board: Board, level: Level, pose: Pose, hand: tuple[Card, ...]) -> Sequence[Card]:
        return hand[:4]

    game = play_game(Board.from_strings(["T Z"]), Level.NORMAL, generate_deck(1), four)
    assert game.outcome is Outcome.AI_ERROR
    assert game.error is not None and "round 1" in game.error and "exactly 5" in game.error
    assert game.rounds == []


def test_ai_choosing_a_card_not_in_the_hand_is_an_ai_error() -> None:
    deck = [Card.RL] * 16

    def cheat(board: Board, level: Level, pose: Pose, hand: tuple[Card, ...]) -> Sequence[Card]:
        return [Card.MF3] * 5

    game = play_game(Board.from_strings(["T Z"]), Level.NORMAL, deck, cheat)
    assert game.outcome is Outcome.AI_ERROR
    assert game.error is not None and "'MF 3'" in game.error


def test_ai_may_choose_repeated_cards_it_was_dealt() -> None:
    deck = [Card.RL] * 8
    game = play_game(Board.from_strings(["T"]), Level.NORMAL, deck, lambda b, lv, p, hand: [Card.RL] * 5)
    assert game.outcome is Outcome.CARDS_OUT
    assert game.cards_played == 5
