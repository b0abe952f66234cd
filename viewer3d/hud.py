"""The heads-up display: what it says (pure functions, tested without GL) and how pyglet draws it.

The text is built from the player and timeline: round, card, the card's name (``MF 1/2/3``
when several cards write the same lines), what happened, the outcome, speed and mode flags.
``HudOverlay`` draws it with pyglet labels and shapes over the 3D scene, plus the
timeline bar (``TimelineBar`` holds its geometry so the app can hit-test clicks on it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.cards import Card
from engine.events import Event, EventKind
from engine.game import Outcome
from engine.wording import counted
from viewer3d import cards, controls, tooltips
from viewer3d.clock import GamePlayer
from viewer3d.games.base import HudLine, Steps
from viewer3d.playback import Player, step_label

if TYPE_CHECKING:
    from viewer3d.app import ViewerApp
    from viewer3d.gameapp import GameApp

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
    ("B", "the best choice (ghost robot) on / off"),
    ("F2", "next theme"),
    ("S or F12", "screenshot (PNG)"),
    ("H or F1", "this help"),
    ("Tab", "the HUD on / off"),
    ("O", "start screen (another board or game)"),
    ("Esc", "quit (a game still computed: cancel it)"),
)

#: The help overlay's type sizes, the first that lets it fit beside the rest of the HUD.
HELP_SIZES = (11, 9, 8, 7)

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


def status_lines(
    player: Player,
    title: str = "",
    thinking: int | None = None,
    ai: bool = False,
    stage: str = "",
    chosen_in: Callable[[int], Sequence[Card] | None] | None = None,
) -> list[str]:
    """The HUD's status block, top to bottom (``chosen_in(round)``: the AI's recorded choice, which
    names a blocked move's card where the lines alone fit MF 1, 2 and 3)."""
    timeline = player.timeline
    step = player.current_step()
    lines = [title] if title else []
    starting = player.round_start()
    if step is None:
        lines.append("start - press Space to play" if not player.playing else "start")
    elif starting is not None:  # a jump to a round: before its first card (not that card's event)
        lines.append(f"round {starting}   start" + ("" if player.playing else " - press Space to play"))
        lines.append(f"at {step.start.to_bot_line()}")
    else:
        chosen = chosen_in(step.round_number) if chosen_in is not None else None
        lines.append(f"round {step.round_number}   card {step.index + 1}/5   {step_label(step, chosen)}")
        segment = timeline.segment_at(player.time)
        if segment is not None and segment.step_index != timeline.steps.index(step):
            segment = None  # paused on the card's end: the next card's first move has not begun
        if segment is not None and segment.event is not None:
            lines.append(event_text(segment.event))
        else:
            lines.append(f"at {step.result.pose.to_bot_line()}")
    lines.append(flags_line(player))
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
        rounds = max(timeline.round_starts) if timeline.round_starts else 0
        lines.append(f"computing... {counted(rounds, 'round')}, {counted(len(timeline.steps), 'card')} so far")
        if thinking is not None:
            who = "the AI is thinking" if ai else "reading"
            lines.append(
                f"round {rounds + 1}: {who}, {thinking} s{', ' + stage if stage else ''}   (Esc or Cancel stops it)"
            )
    return lines


def flags_line(player: GamePlayer[Any]) -> str:
    """Speed, playing or paused, and loop: the same line in every game's HUD."""
    flags = [f"speed x{player.speed:g}", "playing" if player.playing else "paused"]
    if player.loop:
        flags.append("loop")
    return "   ".join(flags)


def help_with_hud_state(pairs: Sequence[tuple[str, str]], shown: bool) -> list[tuple[str, str]]:
    """The help with the Tab line saying that the HUD is hidden now: the help overlay is the one
    text a hidden HUD still shows (F1), so it is where a watcher finds how to get the HUD back."""
    if shown:
        return list(pairs)
    return [(k, "the HUD on / off: hidden now, Tab shows it" if k == "Tab" else what) for k, what in pairs]


def help_lines() -> list[str]:
    return [f"{keys:<18} {what}" for keys, what in HELP_LINES]


#: The robot game's own keys: its trail, the AI's debug marks and the analysis' ghost robot.
ROBOT_ONLY_KEYS = ("G", "D", "B")


def game_help_lines(step_noun: str, follow_noun: str) -> list[tuple[str, str]]:
    """The help in another game's words: the same keys, without the robot game's own ones."""
    lines = []
    for keys, what in HELP_LINES:
        if keys in ROBOT_ONLY_KEYS:
            continue
        if keys == "F":
            if not follow_noun:
                continue
            what = f"follow {follow_noun}"
        lines.append((keys, what.replace("one card", f"one {step_noun}")))
    return lines


def hidden_hud_note(message: str, round_entry: str | None) -> str:
    """What stays on screen while the HUD is hidden: a message would be lost (the user pressed S and
    saw nothing), and J's round number typed blind."""
    lines = [message] if message else []
    if round_entry is not None:
        lines.append(f"jump to round: {round_entry}_")
    return "\n".join(lines)


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

    def round_marks(self, timeline: Steps, min_gap: float = 4.0) -> list[tuple[int, float]]:
        """(round, x pixel) of round starts on the bar, thinned so marks stay ``min_gap`` apart
        (a 700-round game on a small window): every k-th round, k a 1-2-5 step."""
        duration = timeline.duration
        if duration <= 0 or not timeline.round_starts:
            return []
        rounds = sorted(timeline.round_starts.items())
        if len(rounds) <= 1:
            return []
        spacing = self.width / max(1, len(rounds))
        every = 1
        for step in (1, 2, 5, 10, 20, 50, 100, 200, 500):
            every = step
            if spacing * step >= min_gap:
                break
        return [
            (number, self.left + self.width * start / duration)
            for number, start in rounds
            if number > 1 and (number - 1) % every == 0
        ]


OUTCOME_MARK = {
    Outcome.DESTROYED: ("X", (230, 70, 60, 255)),
    Outcome.CARDS_OUT: ("Y", (170, 170, 180, 255)),
    Outcome.FINISHED: ("Z", (90, 220, 120, 255)),
    Outcome.AI_ERROR: ("E", (240, 160, 40, 255)),
}


class HudOverlay:
    """pyglet labels and shapes for the HUD; text is re-laid out only when it changes."""

    def __init__(self) -> None:
        import pyglet

        self.batch = pyglet.graphics.Batch()
        back, front = pyglet.graphics.Group(order=0), pyglet.graphics.Group(order=1)
        white = (255, 255, 255, 255)

        # The help overlay has a batch of its own: it is drawn also while the rest of the HUD is hidden.
        self.help_batch = pyglet.graphics.Batch()
        # And so have the AI's debug marks: they are the board's (D), not the HUD's (Tab).
        self.marks_batch = pyglet.graphics.Batch()

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
                batch=self.help_batch,
                group=front,
            )

        self._status = pyglet.text.DocumentLabel(  # lines may have colours of their own (Tron's bots)
            pyglet.text.document.FormattedDocument(""),
            x=0,
            y=0,
            anchor_y="top",
            multiline=True,
            width=2000,
            batch=self.batch,
            group=front,
        )
        self._help_keys = label(11, (255, 225, 140, 255), bold=True)
        self._help_text = label(11, (230, 238, 250, 255))
        #: The help's columns (keys, what they do): a second one where one is too tall for the window.
        self._help_columns = (
            (self._help_keys, self._help_text),
            (label(11, (255, 225, 140, 255), bold=True), label(11, (230, 238, 250, 255))),
        )

        def message_label(x: int, y: int, batch: Any) -> Any:
            """A message's yellow text, wrapped to the width the layout gives it."""
            return pyglet.text.Label(
                "", x=x, y=y, anchor_y="bottom", multiline=True, width=2000, font_size=12,
                color=(255, 235, 140, 255), batch=batch, group=front,
            )  # fmt: skip

        self._message = message_label(16, 40, self.batch)  # wraps above the timeline bar, not off the edge
        panel = (12, 16, 24, 170)
        backdrop = pyglet.graphics.Group(order=-1)
        # Behind the cards, buttons, seek bar and message: readable over a busy board (follow mode).
        self._bottom_panel = pyglet.shapes.Rectangle(
            0, 0, 1, 1, color=(12, 16, 24, 150), batch=self.batch, group=backdrop
        )
        self._status_panel = pyglet.shapes.Rectangle(0, 0, 1, 1, color=panel, batch=self.batch, group=back)
        self._help_panel = pyglet.shapes.Rectangle(0, 0, 1, 1, color=panel, batch=self.help_batch, group=back)
        self._bar_back = pyglet.shapes.Rectangle(0, 0, 1, 1, color=(40, 48, 60, 220), batch=self.batch, group=back)
        self._bar_fill = pyglet.shapes.Rectangle(0, 0, 1, 1, color=(90, 200, 120, 255), batch=self.batch, group=front)
        self._last: tuple[object, ...] = ()
        # With the HUD hidden (Tab), what the user must still read: a message ("screenshot saved", a
        # theme's warning) and the round being typed after J, in one small panel at the bottom left.
        self.note_batch = pyglet.graphics.Batch()
        self._note_back = pyglet.shapes.Rectangle(0, 0, 1, 1, color=panel, batch=self.note_batch, group=back)
        self._note = message_label(12, 12, self.note_batch)
        self._ticks_batch = pyglet.graphics.Batch()
        self._ticks: list[Any] = []
        self._ticks_key: tuple[object, ...] = ()
        self._ticks_group = pyglet.graphics.Group(order=2)
        self._outcome = pyglet.text.Label(
            "", x=0, y=0, font_size=10, weight="bold", anchor_x="left", anchor_y="center", batch=self.batch, group=front
        )
        from viewer3d.hud_cards import CardPanelOverlay

        self.cards = CardPanelOverlay(self.batch, back, front)
        self._buttons = []
        for control in controls.BUTTONS:
            face = pyglet.shapes.Rectangle(
                0, 0, control.width, controls.BUTTON_H, color=(38, 46, 60, 230), batch=self.batch, group=back
            )
            text = pyglet.text.Label(
                control.text,
                x=0,
                y=0,
                font_size=10,
                anchor_x="center",
                anchor_y="center",
                color=(235, 240, 250, 255),
                batch=self.batch,
                group=front,
            )
            self._buttons.append((control, face, text))
        self._buttons_key: tuple[object, ...] = ()
        # With the HUD hidden, its one control: a faint button in the bottom right corner (while the
        # mouse is over the window) that shows the HUD again, lit with its tooltip under the mouse.
        self.corner_batch = pyglet.graphics.Batch()
        self._corner_face = pyglet.shapes.Rectangle(
            0, 0, controls.SHOW_HUD.width, controls.BUTTON_H, batch=self.corner_batch, group=back
        )
        self._corner_text = pyglet.text.Label(
            controls.SHOW_HUD.text, x=0, y=0, font_size=9, anchor_x="center", anchor_y="center",
            batch=self.corner_batch, group=front,
        )  # fmt: skip
        self._corner_tip_back = pyglet.shapes.Rectangle(
            0, 0, 1, 1, color=(250, 240, 200, 240), batch=self.corner_batch, group=back
        )
        self._corner_tip = pyglet.text.Label(
            "", x=0, y=0, font_size=10, color=(20, 20, 30, 255), batch=self.corner_batch, group=front
        )
        self._tip_back = pyglet.shapes.Rectangle(0, 0, 1, 1, color=(250, 240, 200, 240), batch=self.batch, group=back)
        self._tip = pyglet.text.Label(
            "", x=0, y=0, font_size=10, color=(20, 20, 30, 255), batch=self.batch, group=front
        )

    def _set_status(self, lines: list[HudLine]) -> None:
        """The status panel's text, each line in its colour (white by default): a new document, laid
        out whole (restyling ranges of a laid-out document can leave colours on the wrong letters)."""
        import pyglet

        text = "\n".join(line.text for line in lines)
        document = pyglet.text.document.FormattedDocument(text)
        document.set_style(0, len(text), {"font_size": 12, "color": (255, 255, 255, 255), "weight": "normal"})
        position = 0
        for line in lines:
            if line.colour is not None:
                document.set_style(position, position + len(line.text), {"color": (*line.colour, 255)})
            position += len(line.text) + 1
        self._status.document = document

    def _layout(
        self,
        status: list[HudLine],
        show_help: bool,
        message: str,
        width: int,
        height: int,
        helps: tuple[tuple[str, str], ...] = HELP_LINES,
        panel_width: float = 0.0,
        hud_shown: bool = True,
    ) -> None:
        pad = 8
        self._set_status(status)
        self._status.x, self._status.y = 4 + pad, height - 4 - pad
        status_w = self._status.content_width + 2 * pad
        status_h = self._status.content_height + 2 * pad
        self._status_panel.x, self._status_panel.y = 4, height - 4 - status_h
        self._status_panel.width, self._status_panel.height = status_w, status_h
        buttons = controls.layout((width, height), panel_width)
        panel_top = cards.PANEL_BOTTOM + cards.PANEL_HEIGHT if panel_width else 0.0
        strip = max(panel_top, height - buttons[0].top if buttons else 0.0) + 4.0
        shown = tuple(helps) if show_help else ()
        top = height - 4.0
        # What the help must stay above: the cards and buttons; a hidden HUD's corner button.
        floor = strip if hud_shown else controls.corner_box((width, height)).height + 2 * controls.CORNER_MARGIN
        under = height - 4 - status_h - 6 if hud_shown else top  # a hidden HUD: from the top
        # Under the status panel; where its last lines went under the cards and buttons (a 700 px
        # high window), beside it from the window's top; else in two columns, under or beside.
        places = [(1, 4.0, under), (1, 4 + status_w + 6, top), (2, 4.0, under), (2, 4 + status_w + 6, top)]
        if not hud_shown:
            places = [(1, 4.0, top), (2, 4.0, top)]
        # ... in a smaller type where none fits (an 800x600 window); where still none fits (a 640x480
        # window), over the status panel from the window's top, which the help is read instead of:
        # the cards and buttons stay clear, so the "?" button that closes it is still there.
        over = [] if not hud_shown else [(1, 4.0, top), (2, 4.0, top)]
        tries = [(size, *place) for size in HELP_SIZES for place in places]
        tries += [(size, *place) for size in HELP_SIZES for place in over]
        tries.append((HELP_SIZES[-1], *(over or places)[-1]))  # none at all: the smallest, as it comes
        for size, columns, help_left, top in tries:
            first = len(shown) if columns == 1 else (len(shown) + 1) // 2
            help_w, help_h = self._fill_help(shown, first, pad, size)
            if top - help_h >= floor and help_left + help_w <= width - 4:
                break
        x = help_left + pad
        for keys_label, text_label in self._help_columns:
            keys_label.x, keys_label.y = x, top - pad
            text_label.x, text_label.y = x + keys_label.content_width + 14, top - pad
            x = text_label.x + text_label.content_width + 24
        self._help_panel.visible = show_help
        self._help_panel.x, self._help_panel.y = help_left, top - help_h
        self._help_panel.width, self._help_panel.height = help_w, help_h
        self._message.width = max(120, width - 32)
        self._message.text = message
        self._message.y = strip + 8
        self._bottom_panel.x, self._bottom_panel.y = 0, 0
        self._bottom_panel.width = width
        self._bottom_panel.height = strip + (self._message.content_height + 14 if message else 0)

    def _fill_help(self, helps: Sequence[tuple[str, str]], first: int, pad: int, size: int) -> tuple[float, float]:
        """Put the help's first ``first`` lines in the left column and the rest in the right one, in
        ``size`` points; the panel's width and height."""
        columns = (helps[:first], helps[first:])
        width, height = 2.0 * pad - 24, 0.0
        for (keys_label, text_label), pairs in zip(self._help_columns, columns, strict=True):
            keys_label.font_size = text_label.font_size = size
            keys_label.text = "\n".join(k for k, _ in pairs)
            text_label.text = "\n".join(t for _, t in pairs)
            if pairs:
                width += keys_label.content_width + 14 + text_label.content_width + 24
                height = max(height, keys_label.content_height)
        return width, height + 2 * pad

    def draw(self, app: GameApp) -> None:
        from viewer3d.app import ViewerApp

        width, height = app.camera.viewport
        status = app.status_lines()
        if app.round_entry is not None:
            status.append(HudLine(f"jump to round: {app.round_entry}_"))
        helps = tuple(app.help_pairs())
        key = (tuple(status), app.show_help, app.message, width, height, helps, app.show_hud)
        if key != self._last:
            self._last = key
            self._layout(status, app.show_help, app.message, width, height, helps, app.panel_width, app.show_hud)
        robots = app if isinstance(app, ViewerApp) else None  # the robot game's card panel, ticks, marks
        if robots is not None:
            self._draw_marks(robots, height)
            self.marks_batch.draw()
        if not app.show_hud:  # Tab: only the help overlay (F1), which says how to get the HUD back
            note = hidden_hud_note(app.message, app.round_entry)
            if note:
                self._show_note(note, width)
                self.note_batch.draw()
            self.help_batch.draw()
            if app.mouse_in and not app.screenshot_requested:  # a screenshot shows the board alone
                self._show_corner(app, width, height)
                self.corner_batch.draw()
            return
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
        self._draw_round_ticks(app, bar, bottom)
        hand = cards.round_hand(robots.player, robots.chosen_in) if robots is not None else None
        self.cards.update(hand, (width, height))
        self._layout_buttons(app, width, height)
        if robots is not None:
            self._draw_lossy(robots, bar, bottom, duration)
        self.batch.draw()
        self._ticks_batch.draw()
        self.help_batch.draw()

    def _show_corner(self, app: GameApp, width: int, height: int) -> None:
        """The hidden HUD's corner button: faint, lit under the mouse with its tooltip beside it."""
        box = controls.corner_box((width, height))
        lit = app.hover is controls.SHOW_HUD
        face, text = self._corner_face, self._corner_text
        face.x, face.y = box.left, height - box.top - box.height  # pyglet y grows upwards
        face.color = (70, 96, 140, 240) if lit else (38, 46, 60, 120)
        text.color = (235, 240, 250, 255 if lit else 150)
        text.x, text.y = box.left + box.width / 2, face.y + box.height / 2
        tip = app.tooltip if lit else ""
        self._corner_tip.text = tip
        self._corner_tip.visible = self._corner_tip_back.visible = bool(tip)
        if tip:
            size = (self._corner_tip.content_width + 12.0, self._corner_tip.content_height + 8.0)
            x, top, _, _ = tooltips.place((box.left, box.top, box.width, box.height), size, (width, height), [])
            y = height - top - size[1]
            self._corner_tip.x, self._corner_tip.y = x + 6, y + 5
            self._corner_tip_back.x, self._corner_tip_back.y = x, y
            self._corner_tip_back.width, self._corner_tip_back.height = size

    def _show_note(self, note: str, width: int) -> None:
        if self._note.text != note or self._note.width != max(120, width - 32):
            self._note.width = max(120, width - 32)
            self._note.text = note
            self._note_back.x, self._note_back.y = 4, 4
            self._note_back.width = self._note.content_width + 16
            self._note_back.height = self._note.content_height + 16

    def _draw_round_ticks(self, app: GameApp, bar: TimelineBar, bottom: float) -> None:
        """Round ticks on the seek bar and the outcome's letter at its end (rebuilt on change)."""
        import pyglet

        timeline = app.timeline
        key = (len(timeline.step_ends), timeline.complete, bar, bottom)
        if key == self._ticks_key:
            return
        self._ticks_key = key
        for mark in self._ticks:
            mark.delete()
        self._ticks = [
            pyglet.shapes.Rectangle(
                x - 0.5,
                bottom - 3,
                1.5,
                bar.height + 6,
                color=(230, 236, 245, 200),
                batch=self._ticks_batch,
                group=self._ticks_group,
            )
            for _, x in bar.round_marks(timeline)
        ]
        letter, colour = app.outcome_mark() or ("", (0, 0, 0, 0))
        self._outcome.text = letter
        self._outcome.color = colour
        self._outcome.x, self._outcome.y = bar.left + bar.width + 3, bottom + bar.height / 2

    def _layout_buttons(self, app: GameApp, width: int, height: int) -> None:
        playing = app.player.playing
        key = (width, height, app.hover, playing, app.camera.following, app.computing)
        if key == self._buttons_key:
            return
        self._buttons_key = key
        boxes = {box.button.name: box for box in controls.layout((width, height), app.panel_width)}
        for control, face, text in self._buttons:
            box = boxes[control.name]
            face.x, face.y = box.left, height - box.top - box.height
            face.width, face.height = box.width, box.height
            lit = control is app.hover or (control.name == "follow" and app.camera.following)
            face.color = (70, 96, 140, 240) if lit else (38, 46, 60, 230)
            text.text = ("Pause" if playing else "Play") if control.name == "play" else control.text
            if control.name == "open" and app.computing:
                text.text = "Cancel"  # O and Esc cancel a game still computed
            text.x, text.y = box.left + box.width / 2, face.y + box.height / 2
        tip = app.tooltip
        self._tip.text = tip
        self._tip.visible = self._tip_back.visible = bool(tip)
        if tip and app.hover is not None:
            box = boxes[app.hover.name]
            size = (self._tip.content_width + 12.0, self._tip.content_height + 8.0)
            bar = TimelineBar.for_viewport((width, height))
            avoid = [(b.left, b.top, b.width, b.height) for b in boxes.values()]
            avoid.append((bar.left, bar.top, bar.width, bar.height))  # the seek bar is clicked too
            if app.panel_width:
                avoid.append(
                    (0.0, height - cards.PANEL_BOTTOM - cards.PANEL_HEIGHT, app.panel_width, cards.PANEL_HEIGHT)
                )
            x, top, _, _ = tooltips.place((box.left, box.top, box.width, box.height), size, (width, height), avoid)
            y = height - top - size[1]  # pyglet y grows upwards
            self._tip.x, self._tip.y = x + 6, y + 5
            self._tip_back.x, self._tip_back.y = x, y
            self._tip_back.width, self._tip_back.height = size

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
                    *[flip(c) for c in corners], color=(*colour, MARK_ALPHA), batch=self.marks_batch, group=group
                )
            )
        for start, end, colour in shapes.arrows:
            a, b = flip(start), flip(end)
            self._mark_shapes.append(
                pyglet.shapes.Line(*a, *b, 3, color=(*colour, 240), batch=self.marks_batch, group=group)
            )
            head = [flip(p) for p in arrow_head(start, end)]
            self._mark_shapes.append(
                pyglet.shapes.Triangle(
                    *head[0], *head[1], *head[2], color=(*colour, 240), batch=self.marks_batch, group=group
                )
            )
        for point, text in shapes.labels:
            x, y = flip(point)
            self._mark_shapes.append(
                pyglet.text.Label(
                    text, x=x, y=y, anchor_x="center", anchor_y="center", font_size=10, batch=self.marks_batch
                )
            )
