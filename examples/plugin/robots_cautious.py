"""An example built-in AI in its own package: robots finds it through the ``robots.ai`` entry point.

Install it next to robots (``pip install -e examples/plugin``) and play it by name:
``robots-engine play gameboards/chop.dat --ai cautious``.  It uses the engine's own rules
(``engine.rules.play_card``) to look one card ahead: each of its 5 cards is the one that
keeps the robot alive and ends closest to a goal.  It marks the tiles it considered safe and
draws an arrow to where it expects to end, so the viewer and the round record show its thinking.
"""

from __future__ import annotations

from engine.ai.base import BaseAI
from engine.cards import CHOSEN_PER_ROUND, Card
from engine.events import RobotStatus
from engine.model import Board, Level, Pose
from engine.rules import play_card


def distance_to_goal(board: Board, pose: Pose) -> int:
    return min(abs(pose.x - x) + abs(pose.y - y) for x, y in board.goals)


class CautiousAI(BaseAI):
    """Greedy one card at a time: never a card that destroys the robot when another will do."""

    name = "cautious"

    def choose(self, board: Board, level: Level, pose: Pose, hand: tuple[Card, ...]) -> list[Card]:
        left = list(hand)
        chosen: list[Card] = []
        current = pose
        alive = True
        while len(chosen) < CHOSEN_PER_ROUND:
            best = None
            for card in dict.fromkeys(left):  # each kind of card once
                if not alive:
                    best = (0, 0, card, current)
                    break
                result = play_card(board, level, current, card)
                if result.status is RobotStatus.FINISHED:
                    score = (-1, 0)
                elif result.status is RobotStatus.DESTROYED:
                    score = (1, 0)
                else:
                    score = (0, distance_to_goal(board, result.pose))
                    self.mark(result.pose.x, result.pose.y, "green")
                if best is None or score < best[:2]:
                    best = (*score, card, result.pose)
            assert best is not None
            _, _, card, after = best
            alive = alive and best[0] == 0
            chosen.append(card)
            left.remove(card)
            if alive:
                self.arrow(current.x, current.y, after.x, after.y, "orange")
            current = after
        self.say(f"cautious chose {', '.join(card.value for card in chosen)}")
        return chosen
