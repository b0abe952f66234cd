"""Tron (freiesMagazin 2014) behind the viewer's game interface: game number two.

The rules engine's replay (``engine.tron.record``) becomes a ``timeline.Timeline`` sampled in
rounds; here it is put on the shared clock's axis in seconds (``ROUND_SECONDS`` a round at speed
1, one step per round), so the same Player, keys, timeline bar with round ticks, HUD panel,
window and export play it as they play robot games.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from pathlib import Path
from typing import Any, Protocol

import moderngl
import numpy as np
from numpy.typing import NDArray

from engine.errors import InputError, read_text, read_utf8
from engine.games import TRANSCRIPT_LINE, TRON
from engine.tron.arena import parse_arena
from engine.tron.record import BotInfo, GameRecord, parse_game
from engine.tron.rules import Event, State
from engine.wording import counted
from viewer3d.clock import GamePlayer
from viewer3d.games.base import ActorPose, DynamicCells, GameRenderer, HudLine, SegmentInfo
from viewer3d.games.tron.timeline import CRASH_ROUNDS, Moment, Timeline, bot_colour

#: Seconds a round lasts at speed 1 (robot cards last about 0.4 s; a round is one field's drive).
ROUND_SECONDS = 0.25
#: A long game starts at a speed that shows it in about this many seconds.
TARGET_SECONDS = 60.0
DRAW_MARK = ("=", (170, 170, 180, 255))


class LiveState(Protocol):
    """What the HUD of a game being played says at its end (``viewer3d.games.tron.live``)."""

    @property
    def path(self) -> Path | None: ...

    @property
    def error(self) -> str | None: ...


def colour_of(bot: int) -> tuple[int, int, int]:
    """Bot ``bot``'s (0-based) colour as 0-255 RGB: its light wall, its HUD line."""
    r, g, b = bot_colour(bot)
    return (int(255 * r), int(255 * g), int(255 * b))


class TronSteps:
    """The clock's view of a Tron game (``viewer3d.games.base.Steps``): one step per round.

    A game file is read whole (``complete``); a game being played grows by ``add_round`` from the
    server's thread, each list before the count, so the clock never sees a step without its end."""

    def __init__(self, rounds: int, complete: bool = True) -> None:
        self.rounds = 0
        self.complete = complete
        self.step_starts: list[float] = []
        self.step_ends: list[float] = []
        self.round_starts: dict[int, float] = {}
        for _ in range(rounds):
            self.add_round()

    def add_round(self) -> None:
        index = self.rounds
        self.step_ends.append((index + 1) * ROUND_SECONDS)
        self.step_starts.append(index * ROUND_SECONDS)
        self.round_starts[index + 1] = index * ROUND_SECONDS
        self.rounds = index + 1

    @property
    def duration(self) -> float:
        return self.rounds * ROUND_SECONDS

    def step_round(self, index: int) -> int:
        return index + 1


def load_record(path: Path) -> GameRecord:
    """A game file, or an arena shown before its first round (bots at their starts)."""
    text = read_text(path)
    if TRANSCRIPT_LINE.match(text.lstrip()):
        # Users reach for the --log file first: it is text and named by them.
        raise InputError(
            "a robots-tron --log transcript of the protocol, not a game file: open the game file "
            "robots-tron play wrote (tron-game.json in its --out folder)",
            path,
            1,
            1,
        )
    if text.lstrip().startswith("GAMEBOARDSTART"):
        arena = parse_arena(text, path)
        bots = arena.default_bots
        try:
            arena.starts_for(bots)
        except ValueError as exc:
            raise InputError(str(exc), path) from None
        return GameRecord(arena, tuple(BotInfo(f"bot {p}") for p in range(1, bots + 1)), ())
    # A game file is JSON, UTF-8 only: read as Latin-1 above, bytes that are not UTF-8 became part
    # of a key and the message said "not a Tron game file" instead of naming them.
    return parse_game(read_utf8(path), path)


class TronShow:
    """A Tron game as the viewer shows it (``viewer3d.games.base.GameShow[Moment]``)."""

    game = TRON
    step_noun = "round"
    #: F follows bot 1, then bot 2... then frees the camera: on a 512x512 arena a cycle is a pixel.
    follow_noun = "each cycle in turn"

    def __init__(self, record: GameRecord, title: str = "", live: LiveState | None = None) -> None:
        self.record = record
        self.title = title
        self.live = live
        if live is None:
            self.rounds = Timeline(record)
            self._steps = TronSteps(len(record.rounds))
        else:
            self.rounds = Timeline.live(record)
            self._steps = TronSteps(0, complete=False)

    def add_round(self, state: State, happened: Sequence[Event]) -> None:
        """A live game's next round (the server's thread): the picture's data first, then the clock's."""
        self.rounds.add_round(state, happened)
        self._steps.add_round()

    def finish(self, record: GameRecord | None) -> None:
        """The live game is over: ``record`` is all of it (None: it ended without one, cancelled or
        failed; ``live.error`` says why)."""
        if record is not None:
            self.record = record
            self.rounds.finish(record)
        self._steps.complete = True

    @classmethod
    def open(cls, path: str | Path) -> TronShow:
        """A Tron game file or arena; InputError (one line, file and place) for a bad one."""
        return cls(load_record(Path(path)), Path(path).name)

    @property
    def size(self) -> tuple[int, int]:
        return (self.record.arena.width, self.record.arena.height)

    @property
    def timeline(self) -> TronSteps:
        return self._steps

    def start_speed(self) -> float:
        return max(1.0, self._steps.duration / TARGET_SECONDS)

    @cached_property
    def _kinds(self) -> NDArray[np.uint8]:
        arena = self.record.arena
        return (
            np.frombuffer(arena.blocked, dtype=np.uint8)
            .reshape(arena.height, arena.width)
            .astype(bool)
            .astype(np.uint8)
        )

    def cell_kinds(self) -> NDArray[np.uint8]:
        return self._kinds

    def kind_names(self) -> tuple[str, ...]:
        return ("free", "blocked")

    def frame(self, t: float) -> Moment:
        return self.rounds.at(t / ROUND_SECONDS)

    def actors_at(self, t: float) -> list[ActorPose]:
        return [
            ActorPose(c.x, c.z, c.yaw, colour_of(c.bot), c.alive, 1.0 if c.alive else 0.0) for c in self.frame(t).cycles
        ]

    def dynamic_cells_at(self, t: float) -> DynamicCells:
        """Each cycle's light wall: the fields it has left (and the one it stands on) by time ``t``."""
        width, height = self.size
        owner = np.full((height, width), -1, dtype=np.int16)
        done = int(max(0.0, t) / ROUND_SECONDS + 1e-9)
        for bot, path in enumerate(self.rounds.paths):
            for x, z in path[: done + 1]:
                owner[round(z), round(x)] = bot
        return DynamicCells(owner, (owner >= 0).astype(np.float32))

    def segments(self) -> Sequence[SegmentInfo]:
        found = [SegmentInfo(i * ROUND_SECONDS, ROUND_SECONDS, "drive", i + 1) for i in range(self._steps.rounds)]
        for crash in self.rounds.crash:
            if crash is not None:
                number = crash[0]
                found.append(SegmentInfo((number - 0.5) * ROUND_SECONDS, CRASH_ROUNDS * ROUND_SECONDS, "crash", number))
        return sorted(found, key=lambda s: (s.start, s.kind))

    def focus_names(self) -> list[str]:
        return [f"bot {number} ({bot.name})" for number, bot in enumerate(self.record.bots, 1)]

    def focus(self, t: float, actor: int = 0) -> tuple[float, float] | None:
        """Where cycle ``actor`` is (driving, or where it crashed), None for no such cycle."""
        cycles = self.frame(t).cycles
        if not 0 <= actor < len(cycles):
            return None
        return cycles[actor].x, cycles[actor].z

    def status_lines(self, player: GamePlayer[Any]) -> list[HudLine]:
        """The arena and round, each bot in its colour (driving, or out: when and why), the points at the end."""
        t = player.time / ROUND_SECONDS
        number, total = player.current_round(), self._steps.rounds
        width, height = self.size
        if self.live is not None:
            return self._live_lines(player, t, number, total)
        if not total:
            where = "arena only: no game (robots-tron play ARENA BOT BOT... records one)"
        elif number:
            where = f"round {number} / {total}"
        else:
            where = f"start - {counted(total, 'round')}" + ("" if player.playing else " - press Space to play")
        shown = [HudLine(f"Tron {width}x{height}   {where}")]
        bots = self.record.bots
        if not total:  # an arena: where each bot starts
            starts = self.record.arena.starts_for(len(bots))
            return shown + [
                HudLine(f"{i + 1} {bot.name}: starts on {s.x},{s.y} facing {s.heading.name.lower()}", colour_of(i))
                for i, (bot, s) in enumerate(zip(bots, starts, strict=True))
            ]
        for i, line in enumerate(self.rounds.hud(t, number)[1:]):
            shown.append(HudLine(line, colour_of(i) if i < len(bots) else None))
        return shown

    def _live_lines(self, player: GamePlayer[Any], t: float, number: int, total: int) -> list[HudLine]:
        """A game being played: how far the server is, each bot (driving, or out: when and why),
        then the result and the saved file, or why the game ended without one."""
        live = self.live
        assert live is not None
        width, height = self.size
        if not self._steps.complete:
            where = f"round {number} / {total} so far - still being played (Esc ends it)"
        elif live.error is not None:
            where = f"round {number} / {total} - {live.error}"
        else:
            where = f"round {number} / {total}" if number else f"start - {counted(total, 'round')}"
        shown = [HudLine(f"Tron {width}x{height}   {where}")]
        bots = self.record.bots
        for i, line in enumerate(self.rounds.hud(t, max(number, 1))[1:]):
            shown.append(HudLine(line, colour_of(i) if i < len(bots) else None))
        if self._steps.complete and live.path is not None and self.rounds.points:
            best = max(self.rounds.points)
            winners = [bots[i].name for i, p in enumerate(self.rounds.points) if p == best]
            result = f"{winners[0]} wins" if len(winners) == 1 else "a draw"
            shown.append(HudLine(f"game over: {result} - saved as {live.path}"))
        return shown

    def outcome_mark(self) -> tuple[str, tuple[int, int, int, int]] | None:
        """The winner's number in its colour at the bar's end, "=" for a draw."""
        if not self._steps.complete or not self.rounds.points:
            return None
        if not self.record.rounds:
            return None
        points = self.rounds.points
        winners = [i for i, p in enumerate(points) if p == max(points)]
        if len(winners) != 1:
            return DRAW_MARK
        return (str(winners[0] + 1), (*colour_of(winners[0]), 255))

    def renderer(self, ctx: moderngl.Context, theme: Any) -> GameRenderer[Moment]:
        from viewer3d.games.tron.render import TronRenderer

        return TronRenderer(ctx, self.record.arena, theme)
