"""Both games behind the viewer's game interface (``viewer3d.games.base``), checked by the same table:
the clock's steps and rounds, static and dynamic cells, actors, segments, HUD lines, the registry's
open/playable, the shared player walking every step and round, and the renderer hook drawing."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from engine.boardfile import load_board
from engine.conformance import reference_chooser
from engine.deck import generate_deck
from engine.game import play_game
from engine.model import Level
from engine.outputs import format_globalseq
from engine.replay import load_replay
from engine.tron.arena import parse_arena
from engine.tron.record import BotInfo, GameRecord, RoundRecord, save_game
from viewer3d.clock import GamePlayer
from viewer3d.games import by_name, playable
from viewer3d.games.base import ActorPose, GameShow, HudLine
from viewer3d.games.robots import RobotShow
from viewer3d.games.tron.show import TronShow
from viewer3d.sources import timeline_from_replay

ROOT = Path(__file__).resolve().parents[2]
CHOP = ROOT / "gameboards" / "chop.dat"
ARENA = "GAMEBOARDSTART 6,4\n......\n......\n......\n......\nGAMEBOARDEND\nPOS 1 1,2 E\nPOS 2 6,3 W\n"


def tron_record() -> GameRecord:
    rounds = [
        RoundRecord({1: "AHEAD", 2: "AHEAD"}, {}, [], {}),
        RoundRecord({1: "AHEAD", 2: "RIGHT"}, {}, [], {}),
        RoundRecord({1: "AHEAD", 2: "LEFT"}, {}, [1, 2], {}),  # both onto 4,2: a collision
    ]
    return GameRecord(parse_arena(ARENA), (BotInfo("one"), BotInfo("two")), tuple(rounds))


def robot_game(folder: Path) -> tuple[GameShow[Any], Path]:
    board = load_board(CHOP)
    game = play_game(board, Level.NORMAL, generate_deck(16), reference_chooser)
    replay = load_replay(board, Level.NORMAL, game.start, format_globalseq(game))
    return RobotShow(board, timeline_from_replay(replay), "chop"), CHOP


def tron_game(folder: Path) -> tuple[GameShow[Any], Path]:
    path = folder / "tron-game.json"
    save_game(tron_record(), path)
    return TronShow(tron_record(), path.name), path


def tron_arena(folder: Path) -> tuple[GameShow[Any], Path]:
    path = folder / "arena.txt"
    path.write_text(ARENA)
    return TronShow.open(path), path


@dataclass(frozen=True)
class Case:
    name: str
    make: Callable[[Path], tuple[GameShow[Any], Path]]
    game: str
    actors: int
    step_noun: str


CASES = [
    Case("robots", robot_game, "robots", 1, "card"),
    Case("tron", tron_game, "tron", 2, "round"),
    Case("tron-arena", tron_arena, "tron", 2, "round"),
]


@pytest.fixture(params=CASES, ids=[c.name for c in CASES])
def case(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[Case, GameShow[Any], Path]:
    spec: Case = request.param
    show, path = spec.make(tmp_path)
    return spec, show, path


def test_identity_and_registry(case: tuple[Case, GameShow[Any], Path]) -> None:
    spec, show, path = case
    assert show.game == spec.game and show.step_noun == spec.step_noun
    game = playable(path)
    assert game is by_name(spec.game)
    opened = game.open(path)
    assert opened.game == spec.game and opened.size == show.size


def test_static_cells(case: tuple[Case, GameShow[Any], Path]) -> None:
    _, show, _ = case
    width, height = show.size
    kinds = show.cell_kinds()
    assert kinds.shape == (height, width) and kinds.dtype == np.uint8
    assert int(kinds.max()) < len(show.kind_names())


def test_steps_and_rounds(case: tuple[Case, GameShow[Any], Path]) -> None:
    _, show, _ = case
    steps = show.timeline
    assert steps.complete
    starts, ends = steps.step_starts, steps.step_ends
    assert len(starts) == len(ends)
    assert all(a < b for a, b in zip(starts, ends, strict=True))
    assert all(b <= a + 1e-9 for a, b in zip(starts[1:], ends, strict=False))  # steps follow each other
    assert steps.duration == (ends[-1] if ends else 0.0)
    rounds = [steps.step_round(i) for i in range(len(starts))]
    assert rounds == sorted(rounds)
    for number, start in steps.round_starts.items():  # a round starts at its first step
        assert start == starts[rounds.index(number)]


def test_actors_and_dynamic_cells_over_time(case: tuple[Case, GameShow[Any], Path]) -> None:
    spec, show, _ = case
    width, height = show.size
    duration = show.timeline.duration
    marked_before = np.zeros((height, width), dtype=bool)
    for k in range(11):
        t = duration * k / 10
        actors = show.actors_at(t)
        assert len(actors) == spec.actors and all(isinstance(a, ActorPose) for a in actors)
        for actor in actors:
            assert -1.0 <= actor.x <= width and -1.0 <= actor.y <= height and 0.0 <= actor.fade <= 1.0
        cells = show.dynamic_cells_at(t)
        assert cells.owner.shape == cells.strength.shape == (height, width)
        assert int(cells.owner.max()) < spec.actors and float(cells.strength.max()) <= 1.0
        marked = cells.owner >= 0
        assert not (marked_before & ~marked).any()  # a trail or light wall never disappears
        marked_before = marked
        assert show.frame(t) is not None


def test_segments_and_hud(case: tuple[Case, GameShow[Any], Path]) -> None:
    _, show, _ = case
    duration = show.timeline.duration
    segments = show.segments()
    assert all(s.kind and 0.0 <= s.start <= duration + 1e-9 and s.duration > 0 for s in segments)
    assert {s.round for s in segments} <= set(show.timeline.round_starts)
    player: GamePlayer[Any] = GamePlayer(show.timeline)
    for t in (0.0, duration / 2, duration):
        player.seek(t)
        lines = show.status_lines(player)
        assert lines and all(isinstance(line, HudLine) and line.text for line in lines)
    mark = show.outcome_mark()
    assert mark is None or (isinstance(mark[0], str) and len(mark[1]) == 4)


def test_the_shared_player_walks_every_step_and_round(case: tuple[Case, GameShow[Any], Path]) -> None:
    _, show, _ = case
    steps = show.timeline
    player: GamePlayer[Any] = GamePlayer(steps)
    visited = []
    for _ in range(len(steps.step_ends) + 2):
        player.step_forward()
        visited.append(player.time)
    assert visited[: len(steps.step_ends)] == steps.step_ends and player.time == steps.duration
    player.seek(0.0)
    rounds = []
    for _ in range(len(steps.round_starts) + 1):
        player.next_round()
        rounds.append(player.current_round())
    assert rounds[: len(steps.round_starts)] == sorted(steps.round_starts)


def test_the_renderer_hook_draws(case: tuple[Case, GameShow[Any], Path]) -> None:
    from viewer3d.movie import camera_for_view
    from viewer3d.render.offscreen import OffscreenTarget, create_headless_context

    _, show, _ = case
    size = (160, 120)
    ctx = create_headless_context()
    renderer = show.renderer(ctx, None)
    target = OffscreenTarget(ctx, size)
    try:
        matrices = camera_for_view(show.size, size, "iso1").matrices()
        frame = show.frame(show.timeline.duration / 2)
        image = np.asarray(target.render(lambda: renderer.render(matrices, frame, size)).convert("RGB")).astype(int)
    finally:
        target.release()
        renderer.release()
        ctx.release()
    assert image.shape == (120, 160, 3)
    assert (np.abs(image - image[0, 0]).sum(axis=2) > 60).mean() > 0.1  # the board is drawn, not just cleared


def test_actors_face_the_way_they_drive(case: tuple[Case, GameShow[Any], Path]) -> None:
    """``heading`` is atan2(dy, dx) in cells for every game: mid-move, an actor moves along it."""
    _, show, _ = case
    forward = 0
    for segment in show.segments():
        if segment.kind not in ("card_move", "drive"):
            continue
        t = segment.start + segment.duration / 2
        before, after = show.actors_at(t - 0.01), show.actors_at(t + 0.01)
        for a, b in zip(before, after, strict=True):
            dx, dy = b.x - a.x, b.y - a.y
            if a.alive and b.alive and math.hypot(dx, dy) > 1e-4:
                along = (dx * math.cos(a.heading) + dy * math.sin(a.heading)) / math.hypot(dx, dy)
                assert abs(along) > 0.99  # forwards, or a robot's back-up card
                forward += along > 0.99
    assert forward > 0 or not show.timeline.step_ends
