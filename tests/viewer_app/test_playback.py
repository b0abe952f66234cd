"""Timeline and player: poses at boundaries are the engine's, the clock is fixed, stepping is exact."""

from __future__ import annotations

import math

import pytest

from engine.cards import Card
from engine.events import EventKind
from engine.game import Outcome
from engine.replay import Replay
from viewer3d.coords import facing_yaw
from viewer3d.playback import DURATIONS, TICK, Player, Timeline, TrailCounter, card_label, segment_kind


def timeline_of(replay: Replay) -> Timeline:
    return Timeline.from_steps(replay.start, (replay.board.width, replay.board.height), replay.steps, replay.outcome)


def same_angle(a: float, b: float) -> bool:
    return abs(math.remainder(a - b, 2 * math.pi)) < 1e-9


def test_segment_boundaries_are_engine_poses(replay: Replay) -> None:
    timeline = timeline_of(replay)
    movement = [s for s in timeline.segments if s.event is not None and s.kind not in ("fall", "crush", "goal")]
    assert movement
    for segment in movement:
        end_state = timeline.state_at(segment.start + segment.duration * (1 - 1e-12)).robot
        assert end_state is not None
        assert end_state.bx == pytest.approx(segment.after.x, abs=1e-6)
        assert end_state.by == pytest.approx(segment.after.y, abs=1e-6)
        start_state = timeline.state_at(segment.start).robot
        assert start_state is not None
        assert (start_state.bx, start_state.by) == (segment.before.x, segment.before.y)
        assert same_angle(start_state.yaw, facing_yaw(segment.before.facing))


def test_card_ends_match_each_steps_result(replay: Replay) -> None:
    timeline = timeline_of(replay)
    for step, end in zip(replay.steps[:-1], timeline.card_ends[:-1], strict=True):
        robot = timeline.state_at(end - 1e-9).robot
        assert robot is not None
        assert (robot.bx, robot.by) == (step.result.pose.x, step.result.pose.y)
        assert same_angle(robot.yaw, facing_yaw(step.result.pose.facing))


def test_final_state_is_the_replays_final_pose(replay: Replay, goal_replay: Replay) -> None:
    for game in (replay, goal_replay):
        timeline = timeline_of(game)
        robot = timeline.state_at(timeline.duration + 5).robot
        assert robot is not None
        assert (robot.bx, robot.by) == (game.final_pose.x, game.final_pose.y)
    # The first game ends destroyed: the robot has sunk and faded; the second one glows on the goal.
    gone = timeline_of(replay).state_at(1e9).robot
    assert gone is not None and gone.alpha < 0.05
    assert replay.outcome is Outcome.DESTROYED
    won = timeline_of(goal_replay).state_at(1e9).robot
    assert won is not None and won.glow == 1.0 and won.alpha == 1.0


@pytest.mark.parametrize(
    ("kind", "cause", "expected"),
    [
        ("MOVE", "CARD", "card_move"),
        ("MOVE", "CONVEYOR", "belt"),
        ("MOVE", "PUSHER", "push"),
        ("SLIDE", "CARD", "slide"),
        ("SLIDE", "CONVEYOR", "slide"),
        ("BLOCKED", "CARD", "blocked"),
        ("TURN", "ROTATOR", "board_turn"),
    ],
)
def test_event_kinds_animate_differently(replay: Replay, kind: str, cause: str, expected: str) -> None:
    events = [e for s in replay.steps for e in s.result.events if e.kind.name == kind and e.cause.name == cause]
    assert events, f"fixture lacks {kind}/{cause}"
    assert segment_kind(events[0]) == expected


def test_durations_differ_by_kind() -> None:
    assert DURATIONS["push"] < DURATIONS["slide"] < DURATIONS["card_move"] < DURATIONS["belt"]
    assert DURATIONS["uturn"] > DURATIONS["turn"]


def test_belt_moves_at_constant_speed_and_slides_tilt(replay: Replay) -> None:
    timeline = timeline_of(replay)
    belt = next(s for s in timeline.segments if s.kind == "belt")
    quarter = timeline.state_at(belt.start + belt.duration / 4).robot
    assert quarter is not None
    moved = abs(quarter.bx - belt.before.x) + abs(quarter.by - belt.before.y)
    assert moved == pytest.approx(0.25)
    slide = next(s for s in timeline.segments if s.kind == "slide")
    middle = timeline.state_at(slide.start + slide.duration / 2).robot
    assert middle is not None and middle.tilt > 0.2
    # A belt's tile is reported as active while it carries the robot.
    active = timeline.state_at(belt.start + belt.duration / 2).active
    assert active == {(belt.before.x, belt.before.y): pytest.approx(0.5)}


def test_blocked_bumps_and_returns(replay: Replay) -> None:
    timeline = timeline_of(replay)
    bump = next(s for s in timeline.segments if s.kind == "blocked" and s.event is not None and s.event.direction)
    middle = timeline.state_at(bump.start + bump.duration / 2).robot
    assert middle is not None
    assert (middle.bx, middle.by) != (bump.before.x, bump.before.y)
    end = timeline.state_at(bump.end - 1e-9).robot
    assert end is not None
    assert end.bx == pytest.approx(bump.before.x, abs=1e-6) and end.by == pytest.approx(bump.before.y, abs=1e-6)


def test_turns_take_the_rotation_direction(replay: Replay) -> None:
    timeline = timeline_of(replay)
    for segment in (s for s in timeline.segments if s.kind in ("turn", "uturn")):
        assert segment.event is not None and segment.event.kind is EventKind.TURN
        half = timeline.state_at(segment.start + segment.duration / 2).robot
        assert half is not None
        start = facing_yaw(segment.before.facing)
        expected = {"RL": math.pi / 4, "RR": -math.pi / 4, "RU": math.pi / 2}[segment.event.rotation.value]  # type: ignore[union-attr]
        assert same_angle(half.yaw, start + expected)


def test_fixed_clock_and_speed(replay: Replay) -> None:
    player = Player(timeline_of(replay))
    assert player.update(0.5) == 60  # 120 Hz ticks
    assert player.time == pytest.approx(0.5)
    player.update(TICK / 3)
    player.update(TICK / 3)
    assert player.time == pytest.approx(0.5)  # no tick yet
    player.update(TICK / 3 + 1e-9)
    assert player.time == pytest.approx(0.5 + TICK)
    slow, fast = Player(timeline_of(replay)), Player(timeline_of(replay))
    fast.faster()
    assert fast.speed == 2 * slow.speed
    slow.update(1.0)
    fast.update(1.0)
    assert fast.time == pytest.approx(2 * slow.time)
    fast.slower()
    fast.slower()
    assert fast.speed == 0.5


def test_pause_stops_time(replay: Replay) -> None:
    player = Player(timeline_of(replay))
    player.toggle_play()
    player.update(1.0)
    assert player.time == 0.0 and not player.playing


def test_stepping_lands_on_card_boundaries(replay: Replay) -> None:
    timeline = timeline_of(replay)
    player = Player(timeline)
    player.step_forward()
    assert not player.playing
    assert player.time == timeline.card_ends[0]
    player.step_forward()
    player.step_forward()
    assert player.time == timeline.card_ends[2]
    player.step_back()
    assert player.time == timeline.card_ends[1]
    player.seek(timeline.card_ends[3] - 0.01)  # mid-card: back goes to the previous boundary
    player.step_back()
    assert player.time == timeline.card_ends[2]
    for _ in range(500):
        player.step_forward()
    assert player.time == timeline.duration
    for _ in range(500):
        player.step_back()
    assert player.time == 0.0


def test_rounds_jump_and_end_behaviour(replay: Replay) -> None:
    timeline = timeline_of(replay)
    player = Player(timeline)
    assert player.jump_to_round(3)
    step = player.current_step()
    assert step is not None and (step.round_number, step.index) == (3, 0)
    player.next_round()
    assert player.current_round() == 4
    player.seek(player.time + 0.01)
    player.previous_round()
    assert player.current_round() == 4 and player.time == timeline.round_starts[4]
    player.previous_round()
    assert player.current_round() == 3
    assert not player.jump_to_round(999)
    player.seek_fraction(1.0)
    assert player.time == timeline.duration
    player.playing = True
    player.update(0.1)
    assert not player.playing  # stops at the end
    player.toggle_loop()
    player.playing = True
    player.update(0.1)
    assert player.playing and player.time < 0.2  # looped round
    player.restart()
    assert player.time == 0.0 and player.playing


def test_live_timeline_waits_for_more_steps(replay: Replay) -> None:
    timeline = Timeline(replay.start, (replay.board.width, replay.board.height))
    player = Player(timeline)
    timeline.append(replay.steps[0])
    player.update(10.0)
    assert player.playing and player.time == timeline.duration  # waits, not stopped
    for step in replay.steps[1:]:
        timeline.append(step)
    player.update(0.5)
    assert player.time > timeline.card_ends[0]
    timeline.finish(replay.outcome)
    player.update(1e3)
    assert not player.playing and player.at_end


def test_trail_counts_visits(replay: Replay) -> None:
    timeline = timeline_of(replay)
    trail = TrailCounter(timeline)
    counts = trail.seek(timeline.duration)
    moves = [e.pose for s in replay.steps for e in s.result.events if e.kind in (EventKind.MOVE, EventKind.SLIDE)]
    expected: dict[tuple[int, int], int] = {(replay.start.x, replay.start.y): 1}
    for pose in moves:
        if replay.board.in_bounds(pose.x, pose.y):
            expected[(pose.x, pose.y)] = expected.get((pose.x, pose.y), 0) + 1
    for (x, y), n in expected.items():
        assert counts[y, x] == n
    assert int(counts.sum()) == sum(expected.values())
    # Going back in time un-counts; strength is 0 where never visited, max 1 at the most visited tile.
    assert int(trail.seek(0.0).sum()) == 1
    strength = trail.strength(timeline.duration)
    assert strength.max() == pytest.approx(1.0)
    assert strength[counts == 0].max() == 0.0
    assert (strength[counts > 0] >= 0.35).all()


@pytest.mark.parametrize(
    ("cards", "label"),
    [((Card.MF2,), "MF 2"), ((Card.MF1, Card.MF2, Card.MF3), "MF 1/2/3"), ((Card.RL, Card.MB), "RL | MB")],
)
def test_card_label(cards: tuple[Card, ...], label: str) -> None:
    assert card_label(cards) == label


def test_trail_strength_is_reused_until_a_visit_changes(replay: Replay) -> None:
    timeline = timeline_of(replay)
    trail = TrailCounter(timeline)
    first_visit = timeline.visits[1][0]
    early = trail.strength(first_visit - 0.01)
    assert trail.strength(first_visit - 0.005) is early
    later = trail.strength(first_visit + 0.01)
    assert later is not early and later.sum() > early.sum()


def test_after_right_the_hud_names_the_card_just_played(replay: Replay) -> None:
    """Right pauses at the end of a card: the HUD names that card, not the next one (which has not
    moved the robot yet); a jump to a round names the round's first card."""
    timeline = timeline_of(replay)
    player = Player(timeline)
    player.step_forward()
    step = player.current_step()
    assert step is not None and (step.round_number, step.index) == (1, 0)
    player.step_forward()
    step = player.current_step()
    assert step is not None and (step.round_number, step.index) == (1, 1)
    player.step_back()
    step = player.current_step()
    assert step is not None and (step.round_number, step.index) == (1, 0)
    player.jump_to_round(2)
    step = player.current_step()
    assert step is not None and (step.round_number, step.index) == (2, 0)
