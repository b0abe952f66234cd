"""Tron in the viewer: the timeline (no GL), sniffing files, headless export through robots-view, and
the shared window (``ViewerWindow`` over ``GameApp``) whose pixels show the light walls."""

from __future__ import annotations

import pyglet

pyglet.options["headless"] = True

import math  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
import pytest  # noqa: E402
from PIL import Image  # noqa: E402

from engine.tron.arena import parse_arena  # noqa: E402
from engine.tron.record import BotInfo, GameRecord, RoundRecord, save_game  # noqa: E402
from viewer3d.cli import main as view_main  # noqa: E402
from viewer3d.gameapp import GameApp  # noqa: E402
from viewer3d.games import by_name, sniff  # noqa: E402
from viewer3d.games.tron.show import TronShow  # noqa: E402
from viewer3d.games.tron.timeline import COLOURS, WALL_HEIGHT, Timeline, bot_colour  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
ARENA = parse_arena("GAMEBOARDSTART 6,4\n......\n......\n......\n......\nGAMEBOARDEND\nPOS 1 1,2 E\nPOS 2 6,3 W\n")


def _record() -> GameRecord:
    # bot 1 drives east along row 2; bot 2 turns north (row 2 col 6 -> 6,2) then west ... collide
    rounds = [
        RoundRecord({1: "AHEAD", 2: "AHEAD"}, {}, [], {}),  # 1: 2,2 / 5,3
        RoundRecord({1: "AHEAD", 2: "RIGHT"}, {}, [], {}),  # 2: 3,2 / 5,2 (north)
        RoundRecord({1: "AHEAD", 2: "LEFT"}, {}, [1, 2], {}),  # 3: both onto 4,2: collision
    ]
    return GameRecord(ARENA, (BotInfo("one"), BotInfo("two")), tuple(rounds))


def test_timeline_follows_the_rules_replay() -> None:
    timeline = Timeline(_record())
    assert timeline.duration == 3
    start = timeline.at(0.0)
    assert [(c.x, c.z) for c in start.cycles] == [(0.0, 1.0), (5.0, 2.0)]  # 0-based cells
    assert all(s.x0 == s.x1 and s.z0 == s.z1 for s in start.segments)  # nothing driven yet
    half = timeline.at(1.5)
    assert half.cycles[0].x == pytest.approx(1.5) and half.cycles[0].z == 1.0  # halfway from 2,2 to 3,2
    assert half.round == 2
    full = [s for s in timeline.at(2.0).segments if s.bot == 0 and s.height == pytest.approx(WALL_HEIGHT)]
    assert len(full) >= 1
    # bot 2 turned north in round 2: its heading rotates towards -pi/2
    assert timeline.at(2.0).cycles[1].yaw == pytest.approx(-np.pi / 2)
    end = timeline.at(3.0)
    assert len(end.flashes) == 2 and not any(c.alive for c in end.cycles)
    assert "collided" in " ".join(end.hud) and "points: one 1, two 1" in end.hud[-1]


def test_every_bot_of_an_arena_has_its_own_colour() -> None:
    """Arenas take up to 32 starts; the eight colours in turn made bot 9 look like bot 1."""
    colours = [bot_colour(bot) for bot in range(32)]
    assert colours[: len(COLOURS)] == list(COLOURS)
    assert len(set(colours)) == 32
    assert all(0.0 <= c <= 1.0 for colour in colours for c in colour)
    first16 = colours[:16]
    nearest = min(math.dist(a, b) for i, a in enumerate(first16) for b in first16[:i])
    assert nearest > 0.3  # told apart at a glance on the dark floor


def test_what_a_crash_leaves_blocked_stays_drawn() -> None:
    """Bots 1 and 2 drive onto 2,1 together in round 1 and bot 3 crashes into it in round 2 (a
    blocked field, rules.md); bot 4 drives off the board at once.  The field they collided on and
    the start fields of bots that never moved were drawn empty: bot 3 crashed into nothing."""
    arena = parse_arena(
        "GAMEBOARDSTART 5,3\n.....\n.....\n.....\nGAMEBOARDEND\nPOS 1 1,1 E\nPOS 2 3,1 W\nPOS 3 2,3 N\nPOS 4 5,3 E\n"
    )
    rounds = [
        RoundRecord({1: "AHEAD", 2: "AHEAD", 3: "AHEAD", 4: "AHEAD"}, {}, [1, 2, 4], {}),
        RoundRecord({3: "AHEAD"}, {}, [3], {}),
    ]
    bots = tuple(BotInfo(name) for name in ("one", "two", "three", "four"))
    timeline = Timeline(GameRecord(arena, bots, tuple(rounds)))
    assert not any(s.bot in (0, 1, 3) for s in timeline.at(0.0).segments)  # nothing before the crash
    end = timeline.at(timeline.duration).segments
    walls = {bot: [(s.x0, s.z0, s.x1, s.z1) for s in end if s.bot == bot] for bot in range(4)}
    assert walls[0] == [(0.0, 0.0, 1.0, 0.0)] and walls[1] == [(2.0, 0.0, 1.0, 0.0)]  # into 2,1 (cell 1,0)
    assert walls[3] == [(3.75, 2.0, 4.25, 2.0)]  # a stub on its start field 5,3, along its heading
    assert all(s.height == pytest.approx(WALL_HEIGHT) for s in end if s.bot != 2)


def test_sniff_tells_the_games_apart(tmp_path: Path) -> None:
    game = tmp_path / "tron-game.json"
    save_game(_record(), game)
    assert sniff(game) is by_name("tron")
    assert sniff(ROOT / "gameboards/tron/open-10x10.txt") is by_name("tron")
    assert sniff(ROOT / "gameboards/chop.dat") is by_name("robots")
    assert sniff(tmp_path) is by_name("robots")
    assert sniff(tmp_path / "missing") is None


def test_robots_view_exports_a_tron_game_headless(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = tmp_path / "tron-game.json"
    save_game(_record(), game)
    gif, png = tmp_path / "t.gif", tmp_path / "t.png"
    assert view_main([str(game), "--headless", "--out", str(gif), "--size", "320x240", "--fps", "10"]) == 0
    with Image.open(gif) as image:
        assert image.n_frames > 3 and image.size == (320, 240)  # identical held frames merge
    assert view_main([str(game), "--headless", "--out", str(png), "--size", "320x240"]) == 0
    pixels = np.asarray(Image.open(png).convert("RGB")).astype(int)
    cyan = (pixels[..., 2] > 180) & (pixels[..., 1] > 150) & (pixels[..., 0] < 120)
    orange = (pixels[..., 0] > 200) & (pixels[..., 1] > 90) & (pixels[..., 2] < 80)
    assert cyan.sum() > 50 and orange.sum() > 50  # both light walls are drawn in their colours
    assert "wrote" in capsys.readouterr().out


def test_robots_view_refuses_a_contradicting_tron_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = tmp_path / "bad.json"
    save_game(_record(), game)
    game.write_text(game.read_text().replace('"out":[1,2]', '"out":[1]'))
    assert view_main([str(game), "--headless", "--out", str(tmp_path / "x.gif")]) == 2
    err = capsys.readouterr().err
    assert "round 3, bot 2" in err and err.count("\n") == 1


def test_robots_view_names_bytes_of_a_tron_file_that_are_not_utf8(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Read as Latin-1, FF FE in a key said "1:1: not a Tron game file" (its format key gone)."""
    game = tmp_path / "tron-game.json"
    save_game(_record(), game)
    lines = game.read_bytes().split(b"\n")
    lines[1] = lines[1][:2] + b"\xff\xfe" + lines[1][2:]
    game.write_bytes(b"\n".join(lines))
    assert view_main([str(game), "--headless", "--out", str(tmp_path / "x.gif")]) == 2
    assert capsys.readouterr().err == f"robots-view: {game}:2:3: not UTF-8 text (byte 0xff): save it as UTF-8\n"


def test_headless_window_draws_light_walls(tmp_path: Path) -> None:
    from viewer3d.window import ViewerWindow

    app = GameApp(TronShow(_record(), "test"), title="test", viewport=(320, 240))
    window = ViewerWindow(app, 320, 240, visible=False)
    try:
        app.key("END")
        window.switch_to()
        window.on_draw()
        pixels = window.read_pixels().astype(int)
        cyan = (pixels[..., 2] > 180) & (pixels[..., 1] > 150) & (pixels[..., 0] < 120)
        assert cyan.sum() > 30
        shot = window.save_screenshot(tmp_path / "shot.png")
        assert Image.open(shot).size == window.get_framebuffer_size()
    finally:
        window.close()


def _spiral_record(side: int = 40) -> GameRecord:
    """One bot on an open ``side`` x ``side`` arena drives a square spiral inwards until it crashes:
    long straight runs joined by turns, hundreds of rounds."""
    from engine.tron.rules import Turn, initial_state, step

    arena = parse_arena(f"GAMEBOARDSTART {side},{side}\n" + ("." * side + "\n") * side + "GAMEBOARDEND\nPOS 1 1,1 E\n")
    state = initial_state(arena, arena.starts_for(1))
    rounds = []
    while not state.over:
        cycle = state.cycles[0]
        dx, dy = {"EAST": (1, 0), "SOUTH": (0, 1), "WEST": (-1, 0), "NORTH": (0, -1)}[cycle.heading.name]
        x, y = cycle.x + dx, cycle.y + dy
        ahead_free = 1 <= x <= side and 1 <= y <= side and not state.blocked[(y - 1) * side + (x - 1)]
        word = "AHEAD" if ahead_free else "RIGHT"
        state, _ = step(state, {1: Turn(word)})
        rounds.append(RoundRecord({1: word}, {}, [1] if state.over else [], {}))
    return GameRecord(arena, (BotInfo("spiral"),), tuple(rounds))


def test_a_moment_of_a_long_game_holds_runs_not_every_round() -> None:
    """A frame's walls were one segment per round driven, rebuilt and uploaded every frame (0.9 s a
    frame at round 60,000 of a 512x512 arena): settled walls are now straight runs the renderer
    keeps, and what a moment builds afresh stays a handful whatever the round."""
    timeline = Timeline(_spiral_record())
    assert timeline.duration > 1000
    turns = len(timeline.run_starts[0])
    assert 50 < turns < timeline.duration / 10
    for t in (10.5, 500.25, timeline.duration - 3.5, timeline.duration):
        moment = timeline.at(t)
        assert len(moment.fresh) <= 4
        (walls,) = moment.walls
        assert walls.count <= turns
        # the runs and the fresh segments cover exactly the fields driven through so far
        cells = set()
        for s in moment.segments:
            steps = int(abs(s.x1 - s.x0) + abs(s.z1 - s.z0))
            for i in range(steps + 1):
                u = i / max(1, steps)
                cells.add((round(s.x0 + (s.x1 - s.x0) * u), round(s.z0 + (s.z1 - s.z0) * u)))
        driven = int(min(t, timeline.duration - 1))
        assert cells >= set(timeline.paths[0][: driven + 1])


def test_reading_a_game_never_holds_every_state(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Reading a game file and building its timeline replay one round at a time: holding every state
    (each the arena's blocked fields) took 17 GB for a 66,000-round game on a 512x512 arena."""
    from engine.tron.record import load_game

    record = _spiral_record(12)
    save_game(record, tmp_path / "g.json")

    def refuse(self: GameRecord) -> None:
        raise AssertionError("replay() holds every state")

    monkeypatch.setattr(GameRecord, "replay", refuse)
    loaded = load_game(tmp_path / "g.json")
    assert loaded.points() == [0] and loaded.survived() == [len(record.rounds) - 1]
    assert Timeline(loaded).duration == len(record.rounds)


def test_settled_walls_are_uploaded_once() -> None:
    """The renderer uploads each settled run when it settles (and once more when its buffer
    doubles); drawing the same or an earlier moment uploads nothing."""
    from viewer3d.games.tron.render import TronRenderer
    from viewer3d.render.offscreen import OffscreenTarget, create_headless_context
    from viewer3d.show_export import camera_for_view

    record = _spiral_record()
    show = TronShow(record, "spiral")
    ctx = create_headless_context()
    target = OffscreenTarget(ctx, (160, 120))
    renderer = TronRenderer(ctx, record.arena)
    try:
        matrices = camera_for_view(show.size, (160, 120), "top", hud_top=0.0).matrices()
        timeline = show.rounds
        end = timeline.at(timeline.duration)
        uploaded = []
        for t in (100.0, 100.5, 50.0, timeline.duration, timeline.duration, 50.0, timeline.duration):
            target.render(lambda t=t: renderer.render(matrices, timeline.at(t), (160, 120)))
            uploaded.append(renderer.walls.rows_uploaded)
        assert uploaded[0] == uploaded[1] == uploaded[2] > 0  # earlier: nothing new to upload
        assert uploaded[3] == uploaded[4] == uploaded[5] == uploaded[6]  # the same or earlier: nothing
        # each run once, plus one copy of the runs so far each time the buffer doubles
        assert end.walls[0].count <= uploaded[-1] <= 2 * end.walls[0].count
        early, picture = (
            np.asarray(target.render(lambda m=m: renderer.render(matrices, m, (160, 120))).convert("RGB"), dtype=int)
            for m in (timeline.at(50.0), end)
        )
    finally:
        renderer.release()
        target.release()
        ctx.release()

    def cyan(image: np.ndarray) -> float:
        return float(((image[..., 2] > 150) & (image[..., 1] > 120) & (image[..., 0] < 120)).mean())

    assert cyan(picture) > 0.05 and cyan(picture) > 3 * cyan(early)  # the spiral's rings, drawn


@pytest.mark.parametrize("mark", [":", "."])
def test_an_exported_hud_keeps_a_gap_before_colons_and_full_stops(mark: str) -> None:
    """``1 ./cbot: driving`` was exported as ``1 ./cbot driving``: at 10 px the colon's dots merged
    into the t.  Every letter and digit must leave a blank column before the mark."""
    from PIL import ImageChops

    from viewer3d.roundview import draw_on_image

    blank = Image.new("RGB", (80, 40))

    def lit(line: str) -> Image.Image:
        return draw_on_image(blank, None, [line]).convert("L").point(lambda v: 255 if v > 100 else 0)

    merged = []
    for letter in "abcdefghijklmnopqrstuvwxyz0123456789":
        alone = lit(letter)
        mark_box = ImageChops.difference(lit(letter + mark), alone).getbbox()
        letter_box = ImageChops.difference(alone, lit("")).getbbox()
        assert mark_box is not None and letter_box is not None
        if mark_box[0] <= letter_box[2]:  # no blank column between them
            merged.append(letter + mark)
    assert merged == []


def test_an_exported_hud_line_too_long_for_the_frame_is_cut_not_run_off_its_edge() -> None:
    """A bot's path and reason ran off a 480 px GIF's right edge mid-word; now it ends in '...'."""
    from viewer3d.roundview import draw_on_image

    blank = Image.new("RGB", (240, 60))
    line = "1 /tmp/bots/nul.py: out after 0 rounds - answered 'AH?EAD', not LEFT, RIGHT or AHEAD"
    frame = np.asarray(draw_on_image(blank, None, ["title", line], [None, (0, 200, 255)]))
    assert not frame[:, -4:].any()  # neither text nor panel in the last 4 columns
    assert frame[:, :-4].any()
    short = np.asarray(draw_on_image(blank, None, ["title", "1 bot: driving"]))
    assert not short[:, 120:].any()  # a line that fits keeps its panel as wide as before


@pytest.mark.parametrize(("side", "ringed"), [(300, True), (6, False)])
def test_cycles_get_locator_rings_where_fields_are_too_small_to_see(side: int, ringed: bool) -> None:
    """On a big arena's whole view a cycle is a pixel (F follows it, but watching the whole arena it
    was lost): each cycle still riding gets a ring of fixed screen size in its bot's colour, as the
    robot does; a small arena, where a cycle shows, gets none."""
    from viewer3d import coords
    from viewer3d.games.tron.render import TronRenderer
    from viewer3d.render.offscreen import OffscreenTarget, create_headless_context
    from viewer3d.show_export import camera_for_view

    rows = "\n".join("." * side for _ in range(side))
    arena = parse_arena(
        f"GAMEBOARDSTART {side},{side}\n{rows}\nGAMEBOARDEND\nPOS 1 2,2 E\nPOS 2 {side - 1},{side - 1} W\n"
    )
    record = GameRecord(arena, (BotInfo("one"), BotInfo("two")), (RoundRecord({1: "AHEAD", 2: "AHEAD"}, {}, [], {}),))
    show = TronShow(record, "open")
    size = (320, 240)
    ctx = create_headless_context()
    target = OffscreenTarget(ctx, size)
    renderer = TronRenderer(ctx, arena)
    try:
        matrices = camera_for_view(show.size, size, "top", hud_top=0.0).matrices()
        moment = show.rounds.at(0.0)
        picture = np.asarray(target.render(lambda: renderer.render(matrices, moment, size)).convert("RGB"), dtype=int)
        drawn = renderer.locators_drawn
    finally:
        renderer.release()
        target.release()
        ctx.release()
    assert drawn == ringed
    if not ringed:
        return
    view_proj = matrices.view_proj_columns()
    for cycle in moment.cycles:
        x, y = coords.project((cycle.x + 0.5, 0.3, cycle.z + 0.5), view_proj, size)[:2]
        tint = np.array([0.75 * c + 0.25 for c in bot_colour(cycle.bot)])  # the shader's, before blending
        around = picture[max(0, int(y) - 26) : int(y) + 27, max(0, int(x) - 26) : int(x) + 27].reshape(-1, 3)
        bright = around[around.sum(axis=1) > 200]
        cosine = bright @ tint / (np.linalg.norm(bright, axis=1) * np.linalg.norm(tint))
        assert (cosine > 0.98).sum() > 40, cycle.bot  # the ring in the bot's colour (held inside the frame)
