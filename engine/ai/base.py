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

A chooser may also keep a ``last_trace`` (:class:`~engine.ai.trace.Trace`): what it said and
the debug marks it drew in its last round; the game folder's round record keeps them.
:class:`BaseAI` fills it from :meth:`BaseAI.say`, :meth:`BaseAI.mark`, :meth:`BaseAI.arrow`
and :meth:`BaseAI.note`.  docs/ai-authors.md is the guide for writing one.
"""

from __future__ import annotations

import traceback
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Protocol, runtime_checkable

from engine.ai.progress import Abandoned
from engine.ai.trace import Trace
from engine.bounds import cut
from engine.cards import Card
from engine.debugmarks import parse_debug
from engine.game import AIError, Chooser
from engine.model import Board, Level, Pose


@runtime_checkable
class AI(Protocol):
    """A chooser with a name (built-in AIs, :class:`engine.ai.external.ExternalAI`)."""

    name: str

    def __call__(self, board: Board, level: Level, pose: Pose, hand: tuple[Card, ...]) -> Sequence[Card]: ...


class BaseAI(ABC):
    """Base class for Python AIs: implement :meth:`choose`; the instance is then a Chooser.

    While :meth:`choose` runs it may call :meth:`say` (a line of output, kept in the round
    record like an external program's output) and :meth:`mark`, :meth:`arrow`, :meth:`note`
    (debug marks drawn by the viewer for this round, the same as an external AI's ``debug.txt``).
    """

    name: str = "unnamed"
    last_trace: Trace | None = None

    @abstractmethod
    def choose(self, board: Board, level: Level, pose: Pose, hand: tuple[Card, ...]) -> Sequence[Card]:
        """The 5 cards to play this round, in order, taken from ``hand``."""

    def say(self, text: str) -> None:
        """A line of output for this round's record (like a program's print)."""
        self.__dict__.setdefault("_said", []).append(text)

    def mark(self, x: int, y: int, colour: str = "yellow", label: str = "") -> None:
        """Tint tile (x, y) with a colour name or ``#rrggbb``, with an optional short label."""
        self.__dict__.setdefault("_marks", []).append(f"mark {x} {y} {colour} {label}")

    def arrow(self, x1: int, y1: int, x2: int, y2: int, colour: str = "orange") -> None:
        """An arrow from tile (x1, y1) to tile (x2, y2)."""
        self.__dict__.setdefault("_marks", []).append(f"arrow {x1} {y1} {x2} {y2} {colour}")

    def note(self, text: str) -> None:
        """A line of text shown with this round's marks."""
        self.__dict__.setdefault("_marks", []).append(f"text {text}")

    def __call__(self, board: Board, level: Level, pose: Pose, hand: tuple[Card, ...]) -> list[Card]:
        self._said: list[str] = []
        self._marks: list[str] = []
        self.last_trace = None
        try:
            return _cards(self.choose(board, level, pose, hand), self.name)
        except (AIError, Abandoned):  # an AI error as it is; a listener abandoning the game untouched
            raise
        except Exception as exc:
            # An author's bug must end this game with a message and the traceback in the round
            # record, as an external program's crash does, not end robots-engine with a traceback.
            self._said.append(traceback.format_exc().rstrip("\n"))
            raise AIError(f"{self.name} raised {_where(exc)}") from None
        finally:
            output = "".join(line + "\n" for line in self._said)
            debug = parse_debug("\n".join(self._marks), board.width, board.height, name=f"{self.name} marks")
            self.last_trace = Trace(output=output[-65536:], output_bytes=len(output.encode()), debug=debug)


def _cards(chosen: object, name: str) -> list[Card]:
    """What ``choose`` returned, as a list of cards; AIError naming the first thing that is not a Card."""
    if not isinstance(chosen, Iterable):
        raise AIError(f"{name}.choose returned {cut(repr(chosen), 40)}, not a list of cards")
    items: list[object] = list(chosen)
    for item in items:
        if not isinstance(item, Card):
            hint = f": use Card.parse({item!r})" if isinstance(item, str) and len(item) < 10 else ""
            raise AIError(f"{name}.choose returned {cut(repr(item), 40)} ({type(item).__name__}), not a Card{hint}")
    return [item for item in items if isinstance(item, Card)]


def _where(exc: BaseException) -> str:
    """``KeyError: 'x' (bot.py:12)``: the exception and the innermost line of the author's code it came from."""
    frames = traceback.extract_tb(exc.__traceback__)
    ours = Path(__file__).resolve().parents[1]
    theirs = [f for f in frames if not Path(f.filename).resolve().is_relative_to(ours)] or frames
    place = f" ({Path(theirs[-1].filename).name}:{theirs[-1].lineno})" if theirs else ""
    return f"{type(exc).__name__}: {cut(str(exc), 80)}{place}"


def ai_name(chooser: Chooser) -> str:
    """A readable name for any chooser: its ``name``, else its function name."""
    name = getattr(chooser, "name", None)
    if isinstance(name, str) and name:
        return name
    return str(getattr(chooser, "__name__", type(chooser).__name__))
