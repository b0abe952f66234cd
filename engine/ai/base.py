"""The interface every AI implements, built-in (Python) or external (any program).

The engine only needs a *chooser*: a callable ``(board, level, pose, hand) -> cards``
(``engine.game.Chooser``).  It gets

* ``board`` -- the immutable :class:`~engine.model.Board`,
* ``level`` -- the :class:`~engine.model.Level` being played,
* ``pose``  -- the robot's :class:`~engine.model.Pose` at the start of the round,
* ``hand``  -- the 8 dealt :class:`~engine.cards.Card` values, in dealt order,

and returns the 5 cards to play, in playing order, drawn from the hand (as a multiset:
a card dealt twice may be played twice).  Anything else -- wrong count, a card not in the
hand -- is an AI error that ends the game (``engine.game.check_choice``); a chooser may
also raise :class:`~engine.game.AIError` itself to give up with a message.

Choosers should be deterministic given their inputs (and their seed, if any) so that a
game can be replayed, and must not keep state that leaks from one game into the next
unless they are created afresh per game.  Give them a ``name`` (used in results files);
:class:`AI` is that protocol, :class:`BaseAI` a convenient base class.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from engine.cards import Card
from engine.game import Chooser
from engine.model import Board, Level, Pose


@runtime_checkable
class AI(Protocol):
    """A chooser with a name (built-in AIs, :class:`engine.ai.external.ExternalAI`)."""

    name: str

    def __call__(self, board: Board, level: Level, pose: Pose, hand: tuple[Card, ...]) -> Sequence[Card]: ...


class BaseAI(ABC):
    """Base class for Python AIs: implement :meth:`choose`; the instance is then a Chooser."""

    name: str = "unnamed"

    @abstractmethod
    def choose(self, board: Board, level: Level, pose: Pose, hand: tuple[Card, ...]) -> Sequence[Card]:
        """The 5 cards to play this round, in order, taken from ``hand``."""

    def __call__(self, board: Board, level: Level, pose: Pose, hand: tuple[Card, ...]) -> list[Card]:
        return list(self.choose(board, level, pose, hand))


def ai_name(chooser: Chooser) -> str:
    """A readable name for any chooser: its ``name``, else its function name."""
    name = getattr(chooser, "name", None)
    if isinstance(name, str) and name:
        return name
    return str(getattr(chooser, "__name__", type(chooser).__name__))
