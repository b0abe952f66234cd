"""Export frame planning: timing, speed-up of long games, the still's moment, lazy frames."""

from __future__ import annotations

import pytest

from engine.replay import Replay
from viewer3d.movie import HOLD_SECONDS, FramePlan, camera_for_view, frame_times, still_time
from viewer3d.sources import timeline_from_replay


def test_frame_times_follow_speed_and_hold_the_end() -> None:
    times = frame_times(10.0, 10, 1.0)
    assert times[0] == 0.0 and times[1] == pytest.approx(0.1)
    assert times[-1] == 10.0 and times.count(10.0) == 1 + int(HOLD_SECONDS * 10)
    fast = frame_times(10.0, 10, 2.0)
    assert len(fast) - int(HOLD_SECONDS * 10) == 51


def test_long_games_are_sped_up_to_fit() -> None:
    times = frame_times(600.0, 10, None, max_seconds=30.0)
    assert len(times) == 301 + int(HOLD_SECONDS * 10)
    assert times[1] == pytest.approx(2.0)  # x20


def test_still_shows_the_robot_before_its_fall(replay: Replay) -> None:
    timeline = timeline_from_replay(replay)
    t = still_time(timeline)
    assert t < timeline.duration
    robot = timeline.state_at(t).robot
    assert robot is not None and robot.alpha == 1.0


@pytest.mark.parametrize("view", ["iso1", "iso2", "iso3", "iso4", "top", "persp"])
def test_frame_plan_is_lazy_and_complete(replay: Replay, view: str) -> None:
    timeline = timeline_from_replay(replay)
    camera = camera_for_view((replay.board.width, replay.board.height), (320, 240), view)
    plan = FramePlan(timeline, camera, frame_times(timeline.duration, 5, 4.0))
    matrices, last = plan[-1]
    assert matrices.is_orthographic is (view != "persp")
    assert last.trail is not None and last.trail.max() == pytest.approx(1.0)
    first = plan[0][1]
    assert first.trail is not None and first.trail.sum() == pytest.approx(0.35)  # the start tile only
    assert len(plan[1:3]) == 2
    with pytest.raises(IndexError):
        plan[len(plan)]


@pytest.mark.parametrize("view", ["iso1", "iso2", "iso3", "iso4", "top", "persp"])
@pytest.mark.parametrize("size", [(12, 12), (40, 7)])
def test_exported_views_frame_the_board_below_the_hud_box(view: str, size: tuple[int, int]) -> None:
    """An export's HUD text box (top left) never covers the board: the whole board, walls
    included, lies below its strip in every view (the top view of a square board used to put
    the robot's start corner under the box)."""
    hud_top = 84.0
    camera = camera_for_view(size, (1024, 768), view, hud_top=hud_top)
    width, height = size
    corners = [camera.project((x, y, z)) for x in (0, width) for z in (0, height) for y in (-0.2, 0.9)]
    assert min(py for _, py, _ in corners) >= hud_top - 0.5
    assert max(py for _, py, _ in corners) <= 768.5
    if size == (12, 12) and view in ("top", "iso1"):  # a square board fills the height: the strip matters
        bare = camera_for_view(size, (1024, 768), view)
        assert min(bare.project((x, 0.9, z))[1] for x in (0, width) for z in (0, height)) < hud_top


def test_one_rounds_export_ends_on_that_round_not_the_next(
    tmp_path: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A round's end is the next round's start: ``--round 2 --card 5`` (after round 2's last card)
    and the held end of ``--round 2``'s film were labelled ``round 3`` with round 3's hand, choice
    and best choice (and its ghost), as if the next round were shown."""
    from pathlib import Path

    from engine.cli import main as engine_main
    from viewer3d import roundview
    from viewer3d.cli import export_decoration
    from viewer3d.movie import plan_frames, round_span
    from viewer3d.sources import from_game_dir

    game = Path(str(tmp_path)) / "g"
    assert engine_main(["play", "chop.dat", "--seed", "16", "--level", "normal", "--out", str(game)]) == 0
    assert engine_main(["analyse", str(game)]) == 0
    source = from_game_dir(game)
    assert {2, 3} <= set(source.analysis) and len(source.timeline.round_starts) >= 3
    begin, end = round_span(source.timeline, 2)
    assert end == source.timeline.round_starts[3]  # the moment both rounds share
    drawn: list[list[str]] = []
    monkeypatch.setattr(roundview, "draw_on_image", lambda image, shapes, lines, *_: drawn.append(list(lines)))

    def labels(plan: object) -> list[str]:
        decorate = export_decoration(source, plan, (320, 240), hud=True, marks=False)  # type: ignore[arg-type]
        assert decorate is not None
        drawn.clear()
        for index in range(len(plan)):  # type: ignore[arg-type]
            decorate(None, index)  # type: ignore[arg-type]
        return [lines[1] for lines in drawn]

    still = plan_frames(source, (320, 240), 5, "iso1", None, still=True, still_at=end, round_number=2)
    assert labels(still) == ["round 2   card 5/5"]
    film = plan_frames(source, (320, 240), 5, "iso1", None, span=(begin, end), round_number=2)
    shown = labels(film)
    assert shown[0] == "round 2" and all(line.startswith("round 2") for line in shown), set(shown)
    ghost = film.frame(len(film) - 1)[1].ghost
    best = source.analysis[2].ghost[-1]
    assert ghost is not None and (ghost.bx, ghost.by) == (best.x, best.y)
    # The whole game's film still shows a round's start as that round.
    whole = plan_frames(source, (320, 240), 5, "iso1", None, still=True, still_at=end)
    assert labels(whole) == ["round 3"]
