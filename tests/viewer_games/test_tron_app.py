"""A Tron game played through the shared viewer app (``GameApp``), without GL: the same keys, buttons,
seek bar with round ticks, round jumps, help and HUD panel as robot games, in Tron's words and colours."""

from __future__ import annotations

import pytest

from engine.tron.arena import parse_arena
from engine.tron.record import BotInfo, GameRecord, RoundRecord
from viewer3d import controls, coords
from viewer3d.clock import TICK
from viewer3d.gameapp import FOLLOW_TILE_PX, GameApp
from viewer3d.games.tron.show import ROUND_SECONDS, TronShow, colour_of
from viewer3d.hud import TimelineBar

SIZE = (800, 600)
ARENA = parse_arena("GAMEBOARDSTART 8,5\n........\n........\n........\n........\n........\nGAMEBOARDEND\n"
                    "POS 1 1,2 E\nPOS 2 8,4 W\n")  # fmt: skip


def record(rounds: int = 6) -> GameRecord:
    """Bot 1 drives east along row 2; bot 2 west along row 4 and drives off the board in the last round."""
    plays = [RoundRecord({1: "AHEAD", 2: "AHEAD"}, {}, [], {}) for _ in range(rounds - 1)]
    plays.append(RoundRecord({1: "AHEAD", 2: "AHEAD"}, {}, [], {}))
    return GameRecord(ARENA, (BotInfo("east"), BotInfo("west")), tuple(plays))


def crashing() -> GameRecord:
    """Bot 2 runs off the west edge in round 8 (it starts on column 8 facing west), bot 1 wins."""
    plays = [RoundRecord({1: "LEFT" if i == 0 else "RIGHT" if i == 1 else "AHEAD", 2: "AHEAD"}, {}, [], {})
             for i in range(7)]  # fmt: skip
    plays.append(RoundRecord({1: "AHEAD", 2: "AHEAD"}, {}, [2], {}))
    return GameRecord(ARENA, (BotInfo("east"), BotInfo("west")), tuple(plays))


@pytest.fixture
def app() -> GameApp:
    show = TronShow(crashing(), "crash.json")
    return GameApp(show, title=show.title, viewport=SIZE)


def test_play_pause_and_the_fixed_clock(app: GameApp) -> None:
    assert app.player.playing and app.busy
    app.update(0.5)
    assert app.player.time == pytest.approx(round(0.5 / TICK) * TICK)
    assert app.key("SPACE") and not app.player.playing
    app.key("SPACE")
    app.update(100.0)
    assert app.player.at_end and not app.player.playing and app.player.time == app.timeline.duration


def test_step_and_round_keys_move_by_rounds(app: GameApp) -> None:
    app.key("RIGHT")
    assert app.player.time == ROUND_SECONDS and app.player.current_round() == 1 and not app.player.playing
    app.key("RIGHT")
    app.key("LEFT")
    assert app.player.time == ROUND_SECONDS
    app.key("PAGEDOWN")
    assert app.player.current_round() == 2 and app.player.time == ROUND_SECONDS
    for name in ("J", "_5", "RETURN"):
        app.key(name)
    assert app.player.current_round() == 5 and app.player.time == 4 * ROUND_SECONDS
    app.key("PAGEUP")
    assert app.player.current_round() == 4
    for name in ("J", "_9", "_9", "RETURN"):
        app.key(name)
    assert app.message == "no round 99 (yet)" and app.player.current_round() == 4
    app.key("END")
    assert app.player.time == app.timeline.duration
    app.key("R")
    assert app.player.time == 0.0 and app.player.playing


def test_camera_keys_are_the_robot_games(app: GameApp) -> None:
    yaw = app.camera.pose.yaw
    app.key("_3")
    app.update(2.0)
    assert app.camera.pose.yaw != yaw
    app.key("T")
    app.update(2.0)
    assert app.camera.pose.pitch > 80
    orthographic = app.camera.pose.orthographic
    app.key("P")
    assert app.camera.pose.orthographic != orthographic
    app.scroll(400, 300, 3)
    app.update(1.0)
    assert not app.camera.fitted
    app.key("HOME")
    app.update(2.0)
    assert app.camera.fitted
    before = app.camera.pose
    app.mouse_drag(420, 300, 40, 10, "left")
    assert app.camera.pose != before


def test_f_follows_each_cycle_in_turn_then_frees_the_camera(app: GameApp) -> None:
    app.key("SPACE")
    for name in ("J", "_3", "RETURN"):
        app.key(name)
    assert not app.camera.following  # a game of several cycles opens on the whole arena
    followed = []
    for _ in range(3):
        app.key("F")
        said = app.message
        app.update(5.0)  # the camera has caught up with the (paused) cycle
        followed.append((app.camera.following, said, app.camera.pose.target))
    heads = [coords.tile_center(*head) for head in (app.show.focus(app.player.time, bot) for bot in (0, 1))]
    assert heads[0] != heads[1]
    assert [(f, m) for f, m, _ in followed] == [
        (True, "follow bot 1 (east)"),
        (True, "follow bot 2 (west)"),
        (False, "free camera"),
    ]
    assert followed[0][2] == pytest.approx(heads[0]) and followed[1][2] == pytest.approx(heads[1])
    assert followed[2][2] == pytest.approx(heads[1])  # freed where it was
    assert "each cycle in turn" in dict(app.help_pairs())["F"]


def test_following_a_cycle_on_a_big_arena_closes_in_on_it() -> None:
    """On 512x512 a cycle is about a pixel in the whole view: F brings it to about 12 px a field."""
    arena = parse_arena(
        "GAMEBOARDSTART 512,512\n" + ("." * 512 + "\n") * 512 + "GAMEBOARDEND\nPOS 1 5,9 E\nPOS 2 500,9 W\n"
    )
    plays = (RoundRecord({1: "AHEAD", 2: "AHEAD"}, {}, [], {}),) * 4
    show = TronShow(GameRecord(arena, (BotInfo("a"), BotInfo("b")), plays), "big.json")
    app = GameApp(show, title=show.title, viewport=SIZE)
    assert app.camera.fitted and not app.camera.following and app.camera.tile_pixels() < 4
    app.key("F")
    app.key("F")
    assert app.message == "follow bot 2 (b)"
    app.update(5.0)
    assert app.camera.following
    assert app.camera.tile_pixels() == pytest.approx(FOLLOW_TILE_PX, rel=0.3)
    assert app.camera.pose.target == pytest.approx(coords.tile_center(*show.focus(app.player.time, 1)))


def test_seek_by_click_and_drag_on_the_timeline_bar(app: GameApp) -> None:
    bar = TimelineBar.for_viewport(SIZE)
    app.mouse_press(bar.left + bar.width / 2, bar.top + bar.height / 2, "left")
    assert app.player.time == pytest.approx(app.timeline.duration / 2)
    app.mouse_drag(bar.left + bar.width / 4, bar.top + 4, -bar.width / 4, 0, "left")
    assert app.player.time == pytest.approx(app.timeline.duration / 4)
    app.mouse_release()
    marks = bar.round_marks(app.timeline)
    assert [number for number, _ in marks] == list(range(2, 9))  # a tick at every round's start
    assert marks[0][1] == pytest.approx(bar.left + bar.width / 8)


def test_buttons_do_what_their_keys_do_in_the_games_words(app: GameApp) -> None:
    boxes = {b.button.name: b for b in controls.layout(SIZE, app.panel_width)}
    forward = boxes["forward"]
    app.mouse_move(forward.left + 2, forward.top + 2)
    assert app.tooltip == "one round forward (Right)"
    app.mouse_press(forward.left + 2, forward.top + 2, "left")
    app.mouse_release()
    assert app.player.time == ROUND_SECONDS and not app.player.playing
    assert app.camera.insets[2] < 100  # no card panel: the bottom strip is the buttons and the bar


def test_help_and_screenshot_keys(app: GameApp) -> None:
    app.key("H")
    assert app.show_help
    keys = dict(app.help_pairs())
    assert keys["Right / Left"] == "one round forward / back" and "G" not in keys
    assert not app.key("G") and not app.key("D") and not app.key("B")  # the robot game's own keys
    app.key("S")
    assert app.screenshot_requested and app.next_screenshot_path().name == "robots-view-001.png"
    app.key("ESCAPE")
    assert app.quit_requested


def test_hud_lines_round_bots_in_their_colours_outs_and_points(app: GameApp) -> None:
    lines = app.status_lines()
    assert [line.text for line in lines[:2]] == ["crash.json", "Tron 8x5   start - 8 rounds"]
    assert lines[2].colour == colour_of(0) and lines[3].colour == colour_of(1)
    assert lines[2].text == "1 east: driving" and lines[-1].text == "speed x1   playing"
    app.key("SPACE")
    app.key("PAGEDOWN")
    app.key("PAGEDOWN")
    assert app.status_lines()[1].text == "Tron 8x5   round 2 / 8"
    app.key("END")
    texts = [line.text for line in app.status_lines()]
    assert texts[3] == "2 west: out after 7 rounds - drove off the board"
    assert "points: east 3, west 0" in texts and texts[-1] == "speed x1   paused"
    assert app.outcome_mark() == ("1", (*colour_of(0), 255))


def test_a_long_game_starts_fast_enough_to_last_about_a_minute() -> None:
    show = TronShow(record(4), "short")
    assert show.start_speed() == 1.0
    long_rounds = tuple(RoundRecord({1: "AHEAD", 2: "AHEAD"}, {}, [], {}) for _ in range(6))
    long = TronShow(GameRecord(ARENA, (BotInfo("a"), BotInfo("b")), long_rounds), "long")
    long._steps.rounds = 4000  # the clock's view only: 1,000 s at speed 1
    app = GameApp(long, viewport=SIZE)
    assert app.player.speed == 32.0  # the first speed that shows it in at most a minute (16x: 62 s)


def test_an_arena_shows_where_each_bot_starts() -> None:
    show = TronShow(GameRecord(ARENA, (BotInfo("bot 1"), BotInfo("bot 2")), ()), "arena.txt")
    app = GameApp(show, title=show.title, viewport=SIZE)
    texts = [line.text for line in app.status_lines()]
    assert texts[1].startswith("Tron 8x5   arena only")
    assert texts[2:4] == ["1 bot 1: starts on 1,2 facing east", "2 bot 2: starts on 8,4 facing west"]
    app.update(1.0)
    assert not app.player.playing and app.outcome_mark() is None


def test_tab_hides_the_hud_and_frames_the_arena_in_the_whole_window(app: GameApp) -> None:
    assert app.camera.insets != (0.0, 0.0, 0.0, 0.0)
    app.key("TAB")
    assert not app.show_hud and app.camera.insets == (0.0, 0.0, 0.0, 0.0)
    assert "hidden now" in dict(app.help_pairs())["Tab"]
    app.key("TAB")
    assert app.show_hud and app.camera.insets != (0.0, 0.0, 0.0, 0.0)
