"""The heads-up display: what it says (pure functions, tested without GL) and how pyglet draws it.

The text is built from the player and timeline: round, card, the card's name (``MF 1/2/3``
when several cards write the same lines), what happened, the outcome, speed and mode flags.
``HudOverlay`` draws it with pyglet labels and shapes over the 3D scene, plus the
timeline bar (``TimelineBar`` holds its geometry so the app can hit-test clicks on it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.events import EventKind
from engine.game import Outcome
from viewer3d.playback import Player, card_label

if TYPE_CHECKING:
    from viewer3d.app import ViewerApp

HELP_LINES = (
    ("Space", "play / pause"),
    ("+ / -", "faster / slower (also numpad)"),
    ("Right / Left", "one card forward / back"),
    ("PgDn / PgUp", "next / previous round"),
    ("J, number, Enter", "jump to round"),
    ("R", "restart      L  loop      End  go to the end"),
    ("drag on the bar", "seek"),
    ("1 2 3 4", "isometric views"),
    ("5 or T", "top-down view"),
    ("F", "follow the robot"),
    ("P", "perspective / orthographic"),
    ("Home", "fit the whole board"),
    ("left drag", "orbit      right/middle or Shift drag  pan"),
    ("wheel", "zoom towards the cursor      Up/Down  zoom"),
    ("G", "trail on / off"),
    ("S or F12", "screenshot (PNG)"),
    ("H or F1", "this help      Esc  quit"),
)

OUTCOME_TEXT = {
    Outcome.DESTROYED: "X - robot destroyed",
    Outcome.CARDS_OUT: "Y - out of cards",
    Outcome.FINISHED: "Z - goal reached",
    Outcome.AI_ERROR: "E - AI error",
}

EVENT_TEXT = {
    EventKind.MOVE: "moves",
    EventKind.SLIDE: "slides on oil",
    EventKind.TURN: "turns",
    EventKind.BLOCKED: "blocked by a wall",
    EventKind.DESTROYED: "destroyed",
    EventKind.GOAL: "reaches the goal",
}


def status_lines(player: Player, title: str = "") -> list[str]:
    """The HUD's status block, top to bottom."""
    timeline = player.timeline
    step = player.current_step()
    lines = [title] if title else []
    if step is None:
        lines.append("start - press Space to play" if not player.playing else "start")
    else:
        lines.append(f"round {step.round_number}   card {step.index + 1}/5   {card_label(step.candidates)}")
        segment = timeline.segment_at(player.time)
        if segment is not None and segment.event is not None:
            event = segment.event
            cause = "" if event.cause.value == "card" else f" ({event.cause.value})"
            reason = f" ({event.reason.value})" if event.reason is not None else ""
            lines.append(f"{EVENT_TEXT[event.kind]}{cause}{reason}")
        else:
            lines.append(f"at {step.result.pose.to_bot_line()}")
    state = "playing" if player.playing else "paused"
    flags = [f"speed x{player.speed:g}", state]
    if player.loop:
        flags.append("loop")
    lines.append("   ".join(flags))
    if timeline.complete:
        outcome = OUTCOME_TEXT.get(timeline.outcome, "sequence ends") if timeline.outcome else "sequence ends"
        if timeline.error:
            outcome += f": {timeline.error}"
        if player.at_end or timeline.outcome is Outcome.AI_ERROR:
            lines.append(f"outcome: {outcome}")
        else:
            lines.append(f"{len(timeline.steps)} cards, {timeline.round_starts and max(timeline.round_starts)} rounds")
    else:
        lines.append(f"computing... {len(timeline.steps)} cards so far")
    return lines


def help_lines() -> list[str]:
    return [f"{keys:<18} {what}" for keys, what in HELP_LINES]


@dataclass(frozen=True)
class TimelineBar:
    """Geometry of the seek bar at the bottom of the window, in screen pixels (top-left origin)."""

    left: float
    top: float
    width: float
    height: float

    @classmethod
    def for_viewport(cls, viewport: tuple[int, int]) -> TimelineBar:
        width, height = viewport
        return cls(16.0, height - 26.0, max(1.0, width - 32.0), 12.0)

    def contains(self, px: float, py: float, slack: float = 6.0) -> bool:
        return (self.left - slack <= px <= self.left + self.width + slack
                and self.top - slack <= py <= self.top + self.height + slack)

    def fraction(self, px: float) -> float:
        return min(1.0, max(0.0, (px - self.left) / self.width))


class HudOverlay:
    """pyglet labels and shapes for the HUD; rebuilt text only when it changes."""

    def __init__(self) -> None:
        import pyglet

        self._pyglet = pyglet
        self.batch = pyglet.graphics.Batch()
        self._status = pyglet.text.Label("", x=12, y=0, anchor_y="top", multiline=True, width=900,
                                         font_size=13, color=(255, 255, 255, 255), batch=self.batch)
        self._help = pyglet.text.Label("", x=12, y=0, anchor_y="top", multiline=True, width=900,
                                       font_name=("DejaVu Sans Mono", "Courier New", "monospace"),
                                       font_size=11, color=(230, 240, 255, 255), batch=self.batch)
        self._message = pyglet.text.Label("", x=12, y=40, font_size=12, color=(255, 235, 140, 255), batch=self.batch)
        self._panel = pyglet.shapes.Rectangle(0, 0, 1, 1, color=(10, 14, 22, 150), batch=self.batch)
        self._bar_back = pyglet.shapes.Rectangle(0, 0, 1, 1, color=(40, 48, 60, 220), batch=self.batch)
        self._bar_fill = pyglet.shapes.Rectangle(0, 0, 1, 1, color=(90, 200, 120, 255), batch=self.batch)
        self._marks: list[Any] = []
        self._last: tuple[object, ...] = ()

    def draw(self, app: ViewerApp) -> None:
        width, height = app.camera.viewport
        status = "\n".join(status_lines(app.player, app.title))
        if app.round_entry is not None:
            status += f"\njump to round: {app.round_entry}_"
        helptext = "\n".join(help_lines()) if app.show_help else ""
        key = (status, helptext, app.message, width, height)
        if key != self._last:
            self._last = key
            self._status.text = status
            self._status.y = height - 10
            self._help.text = helptext
            self._help.y = height - 110
            self._message.text = app.message
            self._panel.x, self._panel.y = 4, height - 104
            self._panel.width, self._panel.height = min(width - 8, 460), 100
        bar = TimelineBar.for_viewport((width, height))
        duration = app.player.timeline.duration
        done = app.player.time / duration if duration > 0 else 0.0
        bottom = height - bar.top - bar.height  # pyglet y grows upwards
        self._bar_back.x, self._bar_back.y, self._bar_back.width, self._bar_back.height = bar.left, bottom, bar.width, bar.height
        self._bar_fill.x, self._bar_fill.y = bar.left, bottom
        self._bar_fill.width, self._bar_fill.height = max(1.0, bar.width * done), bar.height
        self.batch.draw()
