"""The heads-up display: what it says (pure functions, tested without GL) and how pyglet draws it.

The text is built from the player and timeline: round, card, the card's name (``MF 1/2/3``
when several cards write the same lines), what happened, the outcome, speed and mode flags.
``HudOverlay`` draws it with pyglet labels and shapes over the 3D scene, plus the
timeline bar (``TimelineBar`` holds its geometry so the app can hit-test clicks on it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.events import Event, EventKind
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
    ("R", "restart"),
    ("L", "loop on / off"),
    ("End", "go to the end"),
    ("click / drag the bar", "seek"),
    ("1 2 3 4", "isometric views"),
    ("5 or T", "top-down view"),
    ("F", "follow the robot"),
    ("P", "perspective / orthographic"),
    ("Home", "fit the whole board"),
    ("left drag", "orbit (free rotation)"),
    ("right drag, Shift+drag", "pan"),
    ("wheel, Up / Down", "zoom (towards the cursor)"),
    ("G", "trail on / off"),
    ("D", "the AI's debug marks on / off"),
    ("B", "best choice as a ghost robot on / off (after robots-engine analyse)"),
    ("F2", "next theme"),
    ("S or F12", "screenshot (PNG)"),
    ("H or F1", "this help"),
    ("Esc", "quit"),
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


def event_text(event: Event) -> str:
    """What happens, with its cause and reason in brackets, each named once: a crusher that
    destroys the robot is 'destroyed (crusher)', not 'destroyed (crusher) (crusher)'."""
    details = [] if event.cause.value == "card" else [event.cause.value]
    if event.reason is not None and event.reason.value not in details:
        details.append(event.reason.value)
    return EVENT_TEXT[event.kind] + "".join(f" ({detail})" for detail in details)


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
            lines.append(event_text(segment.event))
        else:
            lines.append(f"at {step.result.pose.to_bot_line()}")
    state = "playing" if player.playing else "paused"
    flags = [f"speed x{player.speed:g}", state]
    if player.loop:
        flags.append("loop")
    lines.append("   ".join(flags))
    if timeline.complete and not timeline.steps and timeline.outcome is None:
        lines.append("board only: no game (robots-view BOARD --ai NAME plays one)")
    elif timeline.complete:
        outcome = OUTCOME_TEXT.get(timeline.outcome, "sequence ends") if timeline.outcome else "sequence ends"
        if timeline.error:
            outcome += f": {timeline.error}"
        if player.at_end or timeline.outcome is Outcome.AI_ERROR:
            lines.append(f"outcome: {outcome}")
        else:
            rounds = max(timeline.round_starts) if timeline.round_starts else 0
            lines.append(
                f"{len(timeline.steps)} card{'s' if len(timeline.steps) != 1 else ''}, "
                f"{rounds} round{'s' if rounds != 1 else ''}"
            )
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
        return (
            self.left - slack <= px <= self.left + self.width + slack
            and self.top - slack <= py <= self.top + self.height + slack
        )

    def fraction(self, px: float) -> float:
        return min(1.0, max(0.0, (px - self.left) / self.width))


class HudOverlay:
    """pyglet labels and shapes for the HUD; text is re-laid out only when it changes."""

    def __init__(self) -> None:
        import pyglet

        self.batch = pyglet.graphics.Batch()
        back, front = pyglet.graphics.Group(order=0), pyglet.graphics.Group(order=1)
        white = (255, 255, 255, 255)

        def label(size: int, color: tuple[int, int, int, int] = white, bold: bool = False) -> Any:
            return pyglet.text.Label(
                "",
                x=0,
                y=0,
                anchor_y="top",
                multiline=True,
                width=2000,
                font_size=size,
                weight="bold" if bold else "normal",
                color=color,
                batch=self.batch,
                group=front,
            )

        self._status = label(12)
        self._help_keys = label(11, (255, 225, 140, 255), bold=True)
        self._help_text = label(11, (230, 238, 250, 255))
        self._message = pyglet.text.Label(
            "", x=16, y=40, font_size=12, color=(255, 235, 140, 255), batch=self.batch, group=front
        )
        panel = (12, 16, 24, 170)
        self._status_panel = pyglet.shapes.Rectangle(0, 0, 1, 1, color=panel, batch=self.batch, group=back)
        self._help_panel = pyglet.shapes.Rectangle(0, 0, 1, 1, color=panel, batch=self.batch, group=back)
        self._bar_back = pyglet.shapes.Rectangle(0, 0, 1, 1, color=(40, 48, 60, 220), batch=self.batch, group=back)
        self._bar_fill = pyglet.shapes.Rectangle(0, 0, 1, 1, color=(90, 200, 120, 255), batch=self.batch, group=front)
        self._last: tuple[object, ...] = ()

    def _layout(self, status: str, show_help: bool, message: str, width: int, height: int) -> None:
        pad = 8
        self._status.text = status
        self._status.x, self._status.y = 4 + pad, height - 4 - pad
        status_w = self._status.content_width + 2 * pad
        status_h = self._status.content_height + 2 * pad
        self._status_panel.x, self._status_panel.y = 4, height - 4 - status_h
        self._status_panel.width, self._status_panel.height = status_w, status_h
        keys = "\n".join(k for k, _ in HELP_LINES) if show_help else ""
        texts = "\n".join(t for _, t in HELP_LINES) if show_help else ""
        self._help_keys.text, self._help_text.text = keys, texts
        top = height - 4 - status_h - 6
        self._help_keys.x, self._help_keys.y = 4 + pad, top - pad
        self._help_text.x, self._help_text.y = 4 + pad + self._help_keys.content_width + 14, top - pad
        help_w = self._help_keys.content_width + 14 + self._help_text.content_width + 2 * pad
        help_h = self._help_keys.content_height + 2 * pad
        self._help_panel.visible = show_help
        self._help_panel.x, self._help_panel.y = 4, top - help_h
        self._help_panel.width, self._help_panel.height = help_w, help_h
        self._message.text = message

    def draw(self, app: ViewerApp) -> None:
        width, height = app.camera.viewport
        status = "\n".join([*status_lines(app.player, app.title), *app.round_lines()])
        if app.round_entry is not None:
            status += f"\njump to round: {app.round_entry}_"
        key = (status, app.show_help, app.message, width, height)
        if key != self._last:
            self._last = key
            self._layout(status, app.show_help, app.message, width, height)
        bar = TimelineBar.for_viewport((width, height))
        duration = app.player.timeline.duration
        done = app.player.time / duration if duration > 0 else 0.0
        bottom = height - bar.top - bar.height  # pyglet y grows upwards
        self._bar_back.x, self._bar_back.y, self._bar_back.width, self._bar_back.height = (
            bar.left,
            bottom,
            bar.width,
            bar.height,
        )
        self._bar_fill.x, self._bar_fill.y = bar.left, bottom
        self._bar_fill.width, self._bar_fill.height = max(1.0, bar.width * done), bar.height
        self._draw_lossy(app, bar, bottom, duration)
        self._draw_marks(app, height)
        self.batch.draw()

    def _draw_lossy(self, app: ViewerApp, bar: TimelineBar, bottom: float, duration: float) -> None:
        """Red ticks on the timeline bar at the rounds ``robots-engine analyse`` found lossy."""
        import pyglet

        lossy = sorted(n for n, found in app.analysis.items() if found.lossy)
        key = (tuple(lossy), bar.left, bar.width, bottom, duration)
        if key == getattr(self, "_lossy_key", None):
            return
        self._lossy_key = key
        self._lossy_ticks: list[Any] = []
        starts = app.timeline.round_starts
        for number in lossy:
            if number in starts and duration > 0:
                x = bar.left + bar.width * starts[number] / duration
                tick = pyglet.shapes.Rectangle(
                    x - 1, bottom - 3, 3, bar.height + 6, color=(235, 60, 60, 255), batch=self.batch
                )
                self._lossy_ticks.append(tick)

    def _draw_marks(self, app: ViewerApp, height: int) -> None:
        """The round's debug marks as pyglet shapes (rebuilt when the round or the camera changes)."""
        import pyglet

        from viewer3d.roundview import MARK_ALPHA, arrow_head, project_marks

        entry = app.round_entry_now() if app.show_marks else None
        key = (id(entry), app.camera.pose, app.camera.viewport)
        if key == getattr(self, "_marks_key", None):
            return
        self._marks_key = key
        self._mark_shapes: list[Any] = []
        if entry is None or not entry.debug.marks:
            return
        shapes = project_marks(entry, app.camera.matrices(), app.camera.viewport)
        group = pyglet.graphics.Group(order=0)

        def flip(point: tuple[float, float]) -> tuple[float, float]:
            return (point[0], height - point[1])

        for corners, colour in shapes.tiles:
            self._mark_shapes.append(
                pyglet.shapes.Polygon(
                    *[flip(c) for c in corners], color=(*colour, MARK_ALPHA), batch=self.batch, group=group
                )
            )
        for start, end, colour in shapes.arrows:
            a, b = flip(start), flip(end)
            self._mark_shapes.append(pyglet.shapes.Line(*a, *b, 3, color=(*colour, 240), batch=self.batch, group=group))
            head = [flip(p) for p in arrow_head(start, end)]
            self._mark_shapes.append(
                pyglet.shapes.Triangle(
                    *head[0], *head[1], *head[2], color=(*colour, 240), batch=self.batch, group=group
                )
            )
        for point, text in shapes.labels:
            x, y = flip(point)
            self._mark_shapes.append(
                pyglet.text.Label(text, x=x, y=y, anchor_x="center", anchor_y="center", font_size=10, batch=self.batch)
            )
