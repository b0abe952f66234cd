"""The card panel's model, the clickable controls and the seek bar's round marks (no GL)."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from engine.conformance import reference_chooser
from engine.deck import generate_deck
from engine.game import play_game
from engine.gamedir import write_game_dir
from engine.model import Level
from engine.replay import Replay
from tests.viewer_app.conftest import CHOP, RICH
from viewer3d import cards, controls
from viewer3d.app import ViewerApp, hud_insets_for
from viewer3d.clock import TICK
from viewer3d.hud import TimelineBar, status_lines
from viewer3d.playback import Player, Timeline
from viewer3d.sources import from_game_dir, timeline_from_replay

SIZE = (1024, 768)


def with_deck(replay: Replay) -> Timeline:
    timeline = timeline_from_replay(replay)
    assert timeline.set_deck(generate_deck(RICH[0]))
    return timeline


def test_the_rounds_eight_cards_with_the_played_five_in_order(replay: Replay) -> None:
    player = Player(with_deck(replay))
    player.jump_to_round(2)
    player.step_forward()
    player.step_forward()  # round 2, card 2 has just been played
    hand = cards.round_hand(player)
    assert hand is not None and hand.round_number == 2 and hand.dealt_known
    assert [c.label for c in hand.cards] == [c.value for c in generate_deck(RICH[0])[8:16]]
    orders = sorted(c.order for c in hand.cards if c.order is not None)
    assert orders == [1, 2, 3, 4, 5] and sum(c.order is None for c in hand.cards) == 3
    current = [c for c in hand.cards if c.current]
    assert len(current) == 1 and current[0].order == 2 and current[0].done
    played = [step for step in player.timeline.steps if step.round_number == 2]
    by_order = sorted((c for c in hand.cards if c.order is not None), key=lambda c: c.order or 0)
    assert [c.label for c in by_order] == [step.card.value for step in played]
    assert [c.done for c in by_order] == [True, True, False, False, False]


def test_without_a_deck_the_five_played_cards(replay: Replay) -> None:
    player = Player(timeline_from_replay(replay))
    player.step_forward()
    hand = cards.round_hand(player)
    assert hand is not None and not hand.dealt_known and len(hand.cards) == 5
    assert [c.order for c in hand.cards] == [1, 2, 3, 4, 5] and hand.cards[0].current
    assert "deck unknown" in hand.caption
    assert cards.round_hand(Player(timeline_from_replay(replay))) is None  # before the first card


def test_a_deck_that_does_not_fit_the_game_is_refused(replay: Replay) -> None:
    timeline = timeline_from_replay(replay)
    assert not timeline.set_deck(generate_deck(RICH[0] + 1))
    assert timeline.deck is None


def test_a_game_directory_brings_its_deck(tmp_path: Path) -> None:
    from engine.boardfile import load_board

    game = play_game(load_board(CHOP), Level.NORMAL, generate_deck(16), reference_chooser)
    write_game_dir(tmp_path / "g", game, ai="reference", deck=None, seed=16)
    source = from_game_dir(tmp_path / "g")
    assert source.timeline.deck is not None and source.timeline.hand(1) == tuple(generate_deck(16)[:8])


def test_a_blocked_move_is_shown_as_the_card_the_ai_chose(tmp_path: Path) -> None:
    """Round 6, card 3 of this game is a blocked MF: its lines fit MF 1, 2 and 3. The window's HUD
    said "MF 1/2/3" and the panel guessed from the hand, badging the hand's second MF 2 as the 4th
    card and leaving the MF 1 the AI played grey, while the export (from the round record) said
    "MF 3 MF 2 [MF 2] MF 1 RR". The window now takes the AI's recorded choice too."""
    from engine.boardfile import load_board
    from viewer3d.hud import status_lines

    game = play_game(load_board(CHOP), Level.NORMAL, generate_deck(16), reference_chooser)
    write_game_dir(tmp_path / "g", game, ai="reference", deck=None, seed=16)
    source = from_game_dir(tmp_path / "g", background=False)
    app = ViewerApp(source.board, source.timeline, "g", SIZE)
    app.rounds = source.rounds  # as the command line does for a game folder
    chosen = [card.value for card in source.rounds[6].chosen or ()]
    assert chosen == ["MF 3", "MF 2", "MF 2", "MF 1", "RR"]
    player = app.player
    player.jump_to_round(6)
    for _ in range(3):
        player.step_forward()  # round 6, card 3 has just been played
    step = player.current_step()
    assert step is not None and (step.round_number, step.index) == (6, 2) and len(step.candidates) == 3
    assert status_lines(player)[0] == "round 6   card 3/5   MF 1/2/3"  # the lines alone
    assert app.status_lines()[1].text == "round 6   card 3/5   MF 2"
    hand = cards.round_hand(player, app.chosen_in)
    assert hand is not None and hand.dealt_known
    played = sorted((c.order, c.label) for c in hand.cards if c.order is not None)
    assert [label for _, label in played] == chosen
    assert [c.label for c in hand.cards if c.current] == ["MF 2"]


def test_cards_sit_in_the_bottom_strip_the_camera_keeps_free(replay: Replay) -> None:
    player = Player(with_deck(replay))
    player.step_forward()
    hand = cards.round_hand(player)
    assert hand is not None
    boxes = cards.panel_layout(hand, SIZE)
    _top, _, bottom, _ = hud_insets_for(SIZE)
    assert len(boxes) == 8 and all(box.top >= SIZE[1] - bottom - 10 for box in boxes)
    assert all(b.left > a.left + a.width for a, b in itertools.pairwise(boxes))  # side by side


def test_every_button_does_what_its_key_does(replay: Replay) -> None:
    app = ViewerApp(replay.board, timeline_from_replay(replay), "t", SIZE)
    for box in controls.layout(SIZE, cards.panel_width()):
        assert app.key(box.button.key), box.button.name  # the key exists
    app = ViewerApp(replay.board, timeline_from_replay(replay), "t", SIZE)
    boxes = {b.button.name: b for b in controls.layout(SIZE, cards.panel_width())}

    def click(name: str) -> None:
        box = boxes[name]
        app.mouse_press(box.left + box.width / 2, box.top + box.height / 2, "left")
        app.mouse_drag(box.left + 30, box.top, 30, 0, "left")  # a shaky click never orbits
        app.mouse_release()

    yaw = app.camera.pose.yaw
    click("play")
    assert not app.player.playing and app.camera.pose.yaw == yaw
    click("forward")
    click("forward")
    assert app.player.time == app.timeline.card_ends[1]
    click("back")
    assert app.player.time == app.timeline.card_ends[0]
    click("faster")
    assert app.player.speed == 2.0
    click("follow")
    assert app.camera.following
    click("help")
    assert app.show_help


def test_hovering_a_button_shows_its_tooltip(replay: Replay) -> None:
    app = ViewerApp(replay.board, timeline_from_replay(replay), "t", SIZE)
    box = next(b for b in controls.layout(SIZE, cards.panel_width()) if b.button.name == "round")
    app.mouse_move(box.left + 2, box.top + 2)
    assert app.tooltip == "next round (PgDn)"
    app.mouse_move(5, 300)
    assert app.tooltip == ""


@pytest.mark.parametrize("width", [360, 500, 560, 640, 1024, 1920])
def test_controls_never_cover_the_cards(width: int) -> None:
    """Below about 570 pixels the one row ran off the window's right edge (Open, ? and Follow
    could not be clicked): a narrow window wraps the buttons into rows, each inside the window."""
    viewport = (width, 600)
    card_right = cards.panel_width()
    card_top = viewport[1] - cards.PANEL_BOTTOM - cards.CARD_H - 10
    boxes = controls.layout(viewport, card_right)
    assert [box.button for box in boxes] == list(controls.BUTTONS)
    for box in boxes:
        beside = box.left >= card_right
        above = box.top + box.height <= card_top
        assert beside or above, (width, box)
        assert box.left >= 0 and box.left + box.width <= width
        assert controls.hit(viewport, box.left + box.width / 2, box.top + box.height / 2, card_right) == box.button
    for one, other in itertools.combinations(boxes, 2):
        apart = one.left + one.width <= other.left or other.left + other.width <= one.left
        assert apart or one.top + one.height <= other.top or other.top + other.height <= one.top, (one, other)


def test_round_marks_on_the_seek_bar(replay: Replay) -> None:
    timeline = timeline_from_replay(replay)
    bar = TimelineBar.for_viewport(SIZE)
    marks = bar.round_marks(timeline)
    assert [number for number, _ in marks] == list(range(2, max(timeline.round_starts) + 1))
    for number, x in marks:
        assert x == pytest.approx(bar.left + bar.width * timeline.round_starts[number] / timeline.duration)
    many = Timeline(timeline.start_pose, (12, 12))
    many.round_starts = {n: float(n) for n in range(1, 701)}
    many.card_ends = [701.0]
    thinned = TimelineBar.for_viewport((640, 480)).round_marks(many)
    xs = [x for _, x in thinned]
    assert 10 < len(thinned) < 200 and min(b - a for a, b in itertools.pairwise(xs)) >= 4.0


class _Counted(list):  # type: ignore[type-arg]
    """A timeline's steps that count how many are looked at (whole passes and searches)."""

    looked = 0

    def __iter__(self):  # type: ignore[no-untyped-def]
        _Counted.looked += len(self)
        return super().__iter__()

    def index(self, *args):  # type: ignore[no-untyped-def]
        _Counted.looked += len(self)
        return super().index(*args)


def test_the_card_panel_looks_at_the_rounds_cards_only(replay: Replay) -> None:
    """The panel is rebuilt every frame: it looked at every card of the game (3,500 for a 700-round
    game) to find the round's five; now it reads the round's neighbours of the current card."""
    timeline = with_deck(replay)
    player = Player(timeline)
    player.jump_to_round(3)
    player.step_forward()
    expected = cards.round_hand(player)
    timeline.steps = _Counted(timeline.steps)
    _Counted.looked = 0
    assert cards.round_hand(player) == expected
    assert _Counted.looked == 0


@pytest.mark.parametrize("keys", [("J", "_4", "RETURN"), ("J", "NUM_4", "NUM_ENTER"), ("PAGEDOWN",)])
def test_a_jump_to_a_round_shows_its_start_not_its_first_card(replay: Replay, keys: tuple[str, ...]) -> None:
    """J 4 Enter (or PgDn from round 3) landed on round 4's start but the HUD said "card 1/5" with
    that card's event ("blocked by a wall") and lit its card before the robot had moved."""
    app = ViewerApp(replay.board, with_deck(replay), "chop", SIZE)
    app.player.playing = False
    if keys == ("PAGEDOWN",):
        app.player.jump_to_round(3)
    for key in keys:
        app.key(key)
    timeline = app.timeline
    assert app.player.time == timeline.round_starts[4]
    first = next(step for step in timeline.steps if step.round_number == 4)
    lines = [line.text for line in app.status_lines()]
    assert lines[1:3] == ["round 4   start - press Space to play", f"at {first.start.to_bot_line()}"]
    assert not any("card" in line for line in lines[:3])
    hand = cards.round_hand(app.player, app.chosen_in)
    assert hand is not None and hand.round_number == 4
    assert not any(card.current or card.done for card in hand.cards)
    app.key("PAGEDOWN")  # the round shown is 4: PgDn goes on to 5, PgUp back to 4 and then 3
    assert app.player.time == timeline.round_starts[5] and app.player.round_start() == 5
    app.key("PAGEUP")
    assert app.player.round_start() == 4
    app.key("SPACE")  # the clock moves: the round's first card plays
    app.update(TICK)
    assert app.player.round_start() is None
    assert app.status_lines()[1].text.startswith("round 4   card 1/5")
    hand = cards.round_hand(app.player, app.chosen_in)
    assert hand is not None and [c.order for c in hand.cards if c.current] == [1]


def test_stepping_onto_a_rounds_start_still_names_the_card_just_played(replay: Replay) -> None:
    """Right pauses on a card's end: at a round's start that is the last round's last card."""
    player = Player(with_deck(replay))
    player.jump_to_round(3)
    while player.time < player.timeline.round_starts[4]:
        player.step_forward()
    assert player.round_start() is None
    step = player.current_step()
    assert step is not None and step.round_number == 3
    assert status_lines(player)[0].startswith("round 3   card")
