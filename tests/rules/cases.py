"""The table format shared by the rule tests.

A row is a tiny board (its rows, no header), a level, a start pose, the cards played one after
the other (play stops when the robot is destroyed or finishes, like in a round) and what must
come out: the final pose, the status and the sequence lines, cards separated by ``----`` exactly
as in ``sequence.txt``. Expected values are worked out by hand from RULES.md, never copied from
the engine.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import Card
from engine.events import RobotStatus
from engine.model import Board, Direction, Level, Pose
from engine.rules import CardResult, play_card

STATUS = {"A": RobotStatus.ALIVE, "X": RobotStatus.DESTROYED, "Z": RobotStatus.FINISHED}


@dataclass(frozen=True)
class Case:
    """One table row; ``rows`` are the board rows separated by ``/``, poses are ``"x y F"``."""

    name: str
    rows: str
    level: str
    start: str
    cards: str  # comma separated, e.g. "MF 2, RL"
    final: str
    status: str  # A (alive), X (destroyed), Z (on a goal)
    lines: str  # sequence lines separated by spaces; cards separated by ----

    def __str__(self) -> str:
        return self.name


def board_of(rows: str) -> Board:
    return Board.from_strings(rows.split("/"))


def pose_of(text: str) -> Pose:
    x, y, facing = text.split()
    return Pose(int(x), int(y), Direction(facing))


def cards_of(text: str) -> list[Card]:
    return [Card.parse(part) for part in text.split(",")]


def play_cards(board: Board, level: Level, pose: Pose, cards: list[Card]) -> list[CardResult]:
    """Play cards in order, stopping after the card that ends the game (as a round does)."""
    results: list[CardResult] = []
    for card in cards:
        result = play_card(board, level, pose, card)
        results.append(result)
        pose = result.pose
        if result.status is not RobotStatus.ALIVE:
            break
    return results


def sequence_of(results: list[CardResult]) -> list[str]:
    lines: list[str] = []
    for i, result in enumerate(results):
        if i:
            lines.append("----")
        lines.extend(result.sequence_lines)
    return lines


def check(case: Case) -> None:
    """Play the row and compare everything it states."""
    results = play_cards(board_of(case.rows), Level(case.level), pose_of(case.start), cards_of(case.cards))
    last = results[-1]
    assert last.pose == pose_of(case.final), f"{case.name}: final pose"
    assert last.status is STATUS[case.status], f"{case.name}: status"
    assert sequence_of(results) == case.lines.split(), f"{case.name}: sequence lines"
