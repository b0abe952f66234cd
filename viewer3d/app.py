"""The robot game's viewer application: ``GameApp`` plus what only robot games have.

The shared machinery (clock, keys, camera, mouse, themes, HUD flags) is ``viewer3d.gameapp``;
this adds the robot's trail (G), the AI's round record and debug marks (D), the analysis' ghost
robot (B), the card panel's hand, the "AI is thinking" seconds of a live game, and reloading a
rewritten game folder. No pyglet and no GL here.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from engine.cards import Card
from engine.model import Board
from engine.roundlog import RoundEntry
from viewer3d.camera import Camera
from viewer3d.gameapp import (
    DEFAULT_THEME,
    FOLLOW_TILE_PX,
    ZOOM_STEP,
    GameApp,
    ThemeLoader,
    discovered_theme_keys,
    hud_insets_for,
    load_named_theme,
    one_line_error,
    theme_message,
)
from viewer3d.games.base import HudLine
from viewer3d.games.robots import RobotShow
from viewer3d.hud import HELP_LINES, help_with_hud_state, status_lines
from viewer3d.playback import Player, Timeline, TrailCounter
from viewer3d.render.state import FrameState
from viewer3d.roundview import RoundAnalysis, analysis_line, ghost_visual, round_and_cards_done

__all__ = [
    "DEFAULT_THEME",
    "FOLLOW_TILE_PX",
    "ZOOM_STEP",
    "ThemeLoader",
    "ViewerApp",
    "discovered_theme_keys",
    "hud_insets_for",
    "load_named_theme",
    "one_line_error",
    "theme_message",
]


class ViewerApp(GameApp):
    """State of one robot game's viewer: the shared app, plus the trail, marks, ghost and cards."""

    player: Player
    show: RobotShow
    card_panel = True

    def __init__(
        self,
        board: Board,
        timeline: Timeline,
        title: str = "",
        viewport: tuple[int, int] = (1024, 768),
        screenshot_dir: Path | None = None,
        theme: str | None = None,
        theme_keys: Sequence[str] | None = None,
        theme_loader: ThemeLoader | None = None,
    ) -> None:
        self.board = board
        self.trail = TrailCounter(timeline)
        self.show_trail = True
        #: The AI's side of each round (``engine.roundlog.RoundEntry`` by number) for the HUD and marks.
        self.rounds: Mapping[int, RoundEntry] = {}
        self.show_marks = True
        #: ``robots-engine analyse``'s findings by round: the best choice (drawn as a ghost robot).
        self.analysis: Mapping[int, RoundAnalysis] = {}
        self.show_ghost = True
        #: The clock of the "thinking" seconds (tests give their own) and (cards computed, since when).
        self.clock: Callable[[], float] = time.monotonic
        self._progress: tuple[int, float] = (-1, 0.0)  # -1: counting starts at the first look
        #: Whether the game is played live by an AI (the HUD says "the AI is thinking").
        self.live_ai = False
        #: What the live game's AI is precomputing (``GameSource.ai_stage``): stage and fraction, or None.
        self.ai_stage: Callable[[], tuple[str, float] | None] = lambda: None
        super().__init__(
            RobotShow(board, timeline, title),
            Player(timeline),
            title,
            viewport,
            screenshot_dir,
            theme,
            theme_keys,
            theme_loader,
        )

    @property
    def timeline(self) -> Timeline:
        return self.player.timeline

    def view_signature(self) -> tuple[object, ...]:
        """Everything the picture depends on: the shared app's, the robot game's toggles, the cards
        computed so far and, last, the live AI's thinking seconds and stage."""
        return (
            *super().view_signature(),
            self.show_trail,
            self.show_marks,
            self.show_ghost,
            len(self.timeline.steps),
            self.thinking_seconds(),
            self.stage_text(),
        )

    def frame(self) -> FrameState:
        """What the renderer draws now."""
        state = self.timeline.state_at(self.player.time)
        trail = self.trail.strength(self.player.time) if self.show_trail else None
        ghost = None
        if self.show_ghost and self.analysis:
            number, done = self.round_and_cards_done()
            ghost = ghost_visual(self.analysis.get(number), done)
        return replace(state, trail=trail, pointer=self.pointer, ghost=ghost)

    def status_lines(self) -> list[HudLine]:
        lines = status_lines(
            self.player, self.title, self.thinking_seconds(), self.live_ai, self.stage_text(), self.chosen_in
        )
        return [HudLine(line) for line in [*lines, *self.round_lines(cards=False)]]

    def status_rows(self) -> int:
        """The tallest status panel of this game: title, round and card, what happens, speed, the
        count or outcome (and the AI's seconds while computed), and the AI's side of its most
        talkative round, as exports reserve (``cli.export_hud_top``), so every round fits alike."""
        from viewer3d.roundview import round_lines

        said = max(
            (
                len(round_lines(entry, cards=False)) + len(analysis_line(self.analysis.get(number)))
                for number, entry in self.rounds.items()
            ),
            default=0,
        )
        # Counted, not read off status_lines(): that starts the thinking clock (thinking_seconds).
        if self.computing:  # a live game: the AI's seconds line, and its time once a round is in
            return 6 + max(said, 1)
        return 5 + said

    def help_pairs(self) -> Sequence[tuple[str, str]]:
        return help_with_hud_state(HELP_LINES, self.show_hud)

    def key_actions(self) -> dict[str, Callable[[], None]]:
        return {**super().key_actions(), "G": self._toggle_trail, "D": self._toggle_marks, "B": self._toggle_ghost}

    def _toggle_trail(self) -> None:
        self.show_trail = not self.show_trail

    def _toggle_marks(self) -> None:
        self.show_marks = not self.show_marks
        self.say("AI debug marks on" if self.show_marks else "AI debug marks off", 1.5)

    def replace_game(
        self,
        board: Board,
        timeline: Timeline,
        title: str,
        rounds: Mapping[int, RoundEntry] | None = None,
        analysis: Mapping[int, RoundAnalysis] | None = None,
    ) -> None:
        """Show another game in place of this one (its folder was rewritten): the camera and view
        stay (refitted only for a board of another size), playback goes to the same round (or the
        end when the new game is shorter, or when the old one was at its end), speed and loop stay."""
        old = self.player
        was_at_end = old.at_end
        number = old.current_round()
        same_size = (board.width, board.height) == (self.board.width, self.board.height)
        self.board = board
        self.title = title
        self.show = RobotShow(board, timeline, title)
        self.rounds = rounds if rounds is not None else {}
        self.analysis = analysis if analysis is not None else {}
        self.player = Player(timeline)
        self.player.speed_index, self.player.loop, self.player.playing = old.speed_index, old.loop, old.playing
        self.trail = TrailCounter(timeline)
        if not same_size:
            pose = self.camera.pose
            self.camera = Camera((board.width, board.height), self.camera.viewport)
            self.refresh_insets()
            self.camera.animate_to(pose, animate=False)
            self.camera.fit(animate=False)
        if was_at_end or number > max(timeline.round_starts, default=0):
            self.player.seek(timeline.duration)
        elif number >= 1:
            self.player.jump_to_round(number)
        self.say(f"reloaded: {title}", 3.0)

    def _toggle_ghost(self) -> None:
        self.show_ghost = not self.show_ghost
        self.say("best choice (ghost robot) on" if self.show_ghost else "best choice (ghost robot) off", 1.5)

    def round_and_cards_done(self) -> tuple[int, int]:
        """The round on screen and how many of its cards have been played at this moment."""
        return round_and_cards_done(self.timeline, self.player.time)

    def chosen_in(self, number: int) -> tuple[Card, ...] | None:
        """The cards the AI chose in round ``number``, from its round record (None if unknown)."""
        entry = self.rounds.get(number)
        return entry.chosen if entry is not None else None

    def round_entry_now(self) -> RoundEntry | None:
        """The record of the round on screen (before the first card: round 1's)."""
        return self.rounds.get(max(1, self.player.current_round()))

    def round_lines(self, cards: bool = True) -> list[str]:
        """The HUD's lines about the AI's side of the round on screen (``cards`` False: without the
        hand and the choice, which the window's card panel shows)."""
        from viewer3d.roundview import round_lines

        entry = self.round_entry_now()
        step = self.player.current_step()
        card = step.index if step is not None and entry is not None and step.round_number == entry.number else None
        if self.player.round_start() is not None:  # before the round's first card: none is playing
            card = None
        lines = round_lines(entry, card, cards=cards)
        return lines + analysis_line(self.analysis.get(entry.number) if entry is not None else None)

    def stage_text(self) -> str:
        """The AI's precomputation as the HUD says it ("building moves 40%"), or ""."""
        stage = self.ai_stage() if self.computing else None
        return f"{stage[0]} {int(stage[1] * 100)}%" if stage is not None else ""

    def thinking_seconds(self) -> int | None:
        """Whole seconds since the last card was computed (None once the game is complete): the AI's
        time on the round it is choosing, its precomputation included on round 1."""
        if not self.computing:
            return None
        count, now = len(self.timeline.steps), self.clock()
        if count != self._progress[0]:
            self._progress = (count, now)
        return int(now - self._progress[1])
