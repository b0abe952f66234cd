"""The seam between the viewer and a game: what a game gives the shared viewer machinery.

The viewer's clock (``viewer3d.clock.GamePlayer``), camera, timeline bar, buttons, help overlay,
HUD panel, screenshots and headless export are the same for every game; they were first written
for the robot game and are now typed on this interface instead, so a second game (Tron) plays
with exactly the same controls, and a third needs only an implementation of ``GameShow``.

Why these pieces:

* ``Steps`` is what time control needs and nothing more: where each step (a robot's card, a Tron
  round) starts and ends, where rounds start (the bar's ticks, PgUp/PgDn, J), the whole duration
  in seconds at speed 1, and whether the game is still being computed (a live robot game).
* ``GameShow`` is one game ready to be shown: its board size (the camera fits it, the pointer
  picks its cells), its static cells (``cell_kinds``), its actors' poses at any time, its dynamic
  cells (a robot's trail, Tron's light walls), its event segments with their animation kinds,
  the HUD lines and the renderer hook.  The plain-data views (``actors_at``, ``dynamic_cells_at``,
  ``segments``) let tests and tools (thumbnails, a start screen) look at any game the same way;
  the renderer draws from the game's own ``frame(t)``, which may carry more (a robot's tilt).
* ``GameRenderer`` draws one frame given the camera matrices: the only GL a game brings.

World coordinates are shared: cell (x, y) of a board ``size = (w, h)`` (0-based, y down the
screen in the top view) covers world x in [x, x + 1] and z in [y, y + 1] on the ground plane.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, TypeVar

import numpy as np
from numpy.typing import NDArray

from viewer3d.render.state import CameraMatrices

if TYPE_CHECKING:  # no GL and no clock at import: the clock itself imports this module
    import moderngl

    from viewer3d.clock import GamePlayer

Colour = tuple[int, int, int]
F = TypeVar("F")
F_contra = TypeVar("F_contra", contravariant=True)


class HudLine(NamedTuple):
    """One line of the HUD's status panel, in a colour of its own (None: the panel's white)."""

    text: str
    colour: Colour | None = None


@dataclass(frozen=True)
class ActorPose:
    """An actor (a robot, a light cycle) at one moment, in cell coordinates (fractional while it moves).

    ``heading`` is the direction it faces in radians, in cell coordinates: 0 = east (+x), pi/2 =
    south (+y), i.e. ``atan2(dy, dx)`` of a step forward, whatever angle the game's renderer uses;
    ``fade`` is 1 for fully drawn, 0 for gone (falling, crashed)."""

    x: float
    y: float
    heading: float
    colour: Colour
    alive: bool = True
    fade: float = 1.0


@dataclass(frozen=True)
class SegmentInfo:
    """One animated event: when it plays (seconds at speed 1), its kind and the round it belongs to."""

    start: float
    duration: float
    kind: str
    round: int


class DynamicCells(NamedTuple):
    """Cells that change during a game: ``owner`` (h, w) is the actor whose mark a cell carries
    (-1: none; a robot's trail is actor 0's, a light wall its cycle's), ``strength`` (h, w) how
    strongly (0..1: a trail's visit share, a wall's height as it rises)."""

    owner: NDArray[np.int16]
    strength: NDArray[np.float32]


class Steps(Protocol):
    """What the shared clock walks: steps and rounds on a time axis in seconds (at speed 1)."""

    @property
    def duration(self) -> float: ...

    @property
    def complete(self) -> bool:
        """False while steps are still being appended (a game computed live)."""
        ...

    @property
    def step_starts(self) -> list[float]: ...

    @property
    def step_ends(self) -> list[float]: ...

    @property
    def round_starts(self) -> Mapping[int, float]: ...

    def step_round(self, index: int) -> int:
        """The round (from 1) step ``index`` belongs to."""
        ...


class GameRenderer(Protocol[F_contra]):
    """Draws a game's frames into the bound framebuffer; one per board (and GL context)."""

    def render(self, camera: CameraMatrices, frame: F_contra, viewport: tuple[int, int]) -> None: ...

    def set_theme(self, theme: Any) -> None:
        """Show another theme's pictures (a game without themed pictures ignores it)."""
        ...

    def release(self) -> None: ...


class GameShow(Protocol[F]):
    """One game ready to be shown: everything the shared viewer needs from it."""

    #: The registry name of the game (``engine.games``): "robots", "tron".
    game: str
    title: str
    #: What one step is called on buttons and in the help ("card", "round").
    step_noun: str
    #: What the F key follows ("the robot", "each cycle in turn"), or "" when there is nothing to follow.
    follow_noun: str

    @property
    def size(self) -> tuple[int, int]:
        """The board's (width, height) in cells."""
        ...

    @property
    def timeline(self) -> Steps: ...

    def start_speed(self) -> float:
        """The speed playback starts at (a long Tron game starts fast enough to last about a minute)."""
        ...

    def cell_kinds(self) -> NDArray[np.uint8]:
        """(height, width) codes of the static cells, named by ``kind_names``."""
        ...

    def kind_names(self) -> tuple[str, ...]: ...

    def actors_at(self, t: float) -> list[ActorPose]: ...

    def dynamic_cells_at(self, t: float) -> DynamicCells: ...

    def segments(self) -> Sequence[SegmentInfo]: ...

    def frame(self, t: float) -> F:
        """What the renderer draws at time ``t``."""
        ...

    def focus_names(self) -> list[str]:
        """The actors F follows, in turn (``["the robot"]``; Tron: ``["bot 1 (strong)", ...]``): F
        steps through them and then back to the free camera. Empty: nothing to follow."""
        ...

    def focus(self, t: float, actor: int = 0) -> tuple[float, float] | None:
        """The cell position of actor ``actor`` (an index into ``focus_names``) that the camera
        follows, None when there is none."""
        ...

    def status_lines(self, player: GamePlayer[Any]) -> list[HudLine]:
        """The game's lines of the HUD's status panel at the player's time (the app puts the title
        above them and the player's speed and mode flags below; an export paints them as they are)."""
        ...

    def outcome_mark(self) -> tuple[str, tuple[int, int, int, int]] | None:
        """A letter and its colour at the end of the timeline bar once the game is decided."""
        ...

    def renderer(self, ctx: moderngl.Context, theme: Any) -> GameRenderer[F]: ...
