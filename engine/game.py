"""Rounds and whole games, built on ``play_card``.

A game deals 8 cards a round from the deck, asks a chooser (an AI) for 5 of
them in order, plays them, and ends when the robot is destroyed (X), the deck
cannot deal a full hand (Y), or the robot reaches a goal (Z).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import Enum

from engine.cards import CHOSEN_PER_ROUND, HAND_SIZE, Card
from engine.events import RobotStatus
from engine.model import Board, Level, Pose
from engine.rules import CardResult, play_card
from engine.status import game_start


class Outcome(Enum):
    """How a game ended; the value is the letter written in sequence files (AI_ERROR writes none)."""

    DESTROYED = "X"
    CARDS_OUT = "Y"
    FINISHED = "Z"
    AI_ERROR = "E"


class AIError(Exception):
    """An AI's answer could not be used; the game ends with Outcome.AI_ERROR and this message."""


#: A chooser gets the board, level, robot pose and the 8-card hand and returns 5 cards in order.
Chooser = Callable[[Board, Level, Pose, tuple[Card, ...]], Sequence[Card]]


@dataclass(frozen=True)
class RoundRecord:
    """One round: the hand dealt, the cards chosen and what each card played did."""

    number: int
    hand: tuple[Card, ...]
    chosen: tuple[Card, ...]
    results: tuple[CardResult, ...]
    start: Pose

    @property
    def sequence_lines(self) -> list[str]:
        """The lines of this round's ``sequence.txt``, cards separated by ``----``."""
        lines: list[str] = []
        for i, result in enumerate(self.results):
            if i:
                lines.append("----")
            lines.extend(result.sequence_lines)
        return lines


@dataclass
class GameRecord:
    """Everything a finished (or running) game did, enough to write every output file."""

    board: Board
    level: Level
    start: Pose
    rounds: list[RoundRecord] = field(default_factory=list)
    outcome: Outcome | None = None
    final_pose: Pose | None = None
    error: str | None = None

    @property
    def cards_played(self) -> int:
        return sum(len(r.results) for r in self.rounds)

    @property
    def pose(self) -> Pose:
        return self.final_pose if self.final_pose is not None else self.start

    def add_round(self, record: RoundRecord) -> Outcome | None:
        """Record a played round: the robot's pose follows it, and the outcome if the game ended in it."""
        self.rounds.append(record)
        if record.results:
            self.final_pose = record.results[-1].pose
        outcome = round_outcome(record)
        if outcome is not None:
            self.outcome = outcome
        return outcome


def check_choice(hand: Sequence[Card], chosen: Sequence[Card]) -> None:
    """Raise AIError unless ``chosen`` is 5 cards drawn (as a multiset) from ``hand``."""
    if len(chosen) != CHOSEN_PER_ROUND:
        raise AIError(f"chose {len(chosen)} cards, must choose exactly {CHOSEN_PER_ROUND}")
    held, wanted = Counter(hand), Counter(chosen)
    if wanted - held:
        # Each card once, with its counts: "'MF 1' 5 times" beside a hand holding 'MF 1' says the fault.
        names = ", ".join(_overdrawn(card, wanted[card], held[card]) for card in wanted if wanted[card] > held[card])
        raise AIError(f"chose cards not in the hand: {names} (hand: {', '.join(c.value for c in hand)})")


def _overdrawn(card: Card, wanted: int, held: int) -> str:
    """One card chosen more often than dealt, in words: ``'MF 1' 5 times (dealt once)``."""
    dealt = "not dealt" if held == 0 else f"dealt{_times(held)}"
    return f"{card.value!r}{_times(wanted) if wanted > 1 else ''} ({dealt})"


def _times(count: int) -> str:
    return " once" if count == 1 else " twice" if count == 2 else f" {count} times"


def play_round(
    board: Board, level: Level, pose: Pose, number: int, hand: tuple[Card, ...], chosen: Sequence[Card]
) -> RoundRecord:
    """Play the chosen cards in order until they run out or the game ends."""
    check_choice(hand, chosen)
    return RoundRecord(number, hand, tuple(chosen), play_cards(board, level, pose, chosen), pose)


def play_cards(board: Board, level: Level, pose: Pose, cards: Sequence[Card]) -> tuple[CardResult, ...]:
    """What ``cards`` do from ``pose``, one after another, up to the one that ends the game (the
    robot destroyed or at the goal): the one card loop of a round, which the analysis' best choice
    (the viewer's ghost robot) and the conformance cases play too."""
    results: list[CardResult] = []
    current = pose
    for card in cards:
        result = play_card(board, level, current, card)
        results.append(result)
        current = result.pose
        if result.status is not RobotStatus.ALIVE:
            break
    return tuple(results)


def round_outcome(record: RoundRecord) -> Outcome | None:
    """The game's outcome if it ended in this round."""
    if not record.results:
        return None
    status = record.results[-1].status
    if status is RobotStatus.DESTROYED:
        return Outcome.DESTROYED
    if status is RobotStatus.FINISHED:
        return Outcome.FINISHED
    return None


def deal(deck: Sequence[Card], round_number: int) -> tuple[Card, ...] | None:
    """The hand of round ``round_number`` (from 1), or None when fewer than 8 cards are left."""
    begin = HAND_SIZE * (round_number - 1)
    if begin + HAND_SIZE > len(deck):
        return None
    return tuple(deck[begin : begin + HAND_SIZE])


def play_rounds(game: GameRecord, deck: Sequence[Card], chooser: Chooser) -> Iterator[RoundRecord]:
    """THE game loop: deal, ask ``chooser``, play, record in ``game``; yields each round once
    it is recorded. Every game is played through here: ``play_game``, the contest-style
    session (one round per ``robots-engine start``) and the viewer's live games.

    The loop ends with ``game.outcome`` set: the robot destroyed or on a goal, the deck unable
    to deal a hand (CARDS_OUT), or the chooser failing with AIError (AI_ERROR, ``game.error``
    says ``round N: why``). Leaving the ``for`` loop early stops the game where it is (the
    outcome stays None); other exceptions from the chooser propagate.
    """
    while game.outcome is None:
        number = len(game.rounds) + 1
        hand = deal(deck, number)
        if hand is None:
            game.outcome = Outcome.CARDS_OUT
            return
        try:
            chosen = tuple(chooser(game.board, game.level, game.pose, hand))
            record = play_round(game.board, game.level, game.pose, number, hand, chosen)
        except AIError as exc:
            game.outcome = Outcome.AI_ERROR
            game.error = f"round {number}: {exc}"
            return
        game.add_round(record)
        yield record


def new_game(board: Board, level: Level, start: Pose | None = None) -> GameRecord:
    """A game not played yet, from the board's start tile (BoardError if it has none or several) or
    ``start`` (BoardError if it lies off the board: checked before any chooser is asked)."""
    game = GameRecord(board, level, board.start if start is None else game_start(board, start, what="start"))
    game.final_pose = game.start
    return game


def play_game(
    board: Board, level: Level, deck: Sequence[Card], chooser: Chooser, start: Pose | None = None
) -> GameRecord:
    """Play a whole game from the board's start tile (or ``start``) with ``chooser`` as the AI.

    The game ends as ``play_rounds`` says (``outcome`` FINISHED, DESTROYED, CARDS_OUT, or AI_ERROR
    with ``error`` when the chooser picked cards not in the hand or raised AIError); a board or start
    no game can begin on is a BoardError before the chooser is asked."""
    game = new_game(board, level, start)
    for _ in play_rounds(game, deck, chooser):
        pass
    return game
