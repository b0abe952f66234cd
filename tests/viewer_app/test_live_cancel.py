"""A live game shows how long the AI has been thinking and can be cancelled from the window
(Esc, or the Open button that reads Cancel meanwhile): back to the start screen, the AI ended."""

from __future__ import annotations

import pyglet

pyglet.options["headless"] = True

import os  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

from engine.boardfile import load_board  # noqa: E402
from engine.cards import Card  # noqa: E402
from engine.deck import generate_deck  # noqa: E402
from engine.model import Level  # noqa: E402
from tests.viewer_app.conftest import CHOP  # noqa: E402
from viewer3d import cards, controls  # noqa: E402
from viewer3d.app import ViewerApp  # noqa: E402
from viewer3d.hud import status_lines  # noqa: E402
from viewer3d.sources import play_live  # noqa: E402
from viewer3d.start import StartScreen  # noqa: E402

SIZE = (800, 600)


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def live_app(gate: threading.Event, rounds_before_waiting: int = 0) -> ViewerApp:
    """A live game whose AI plays ``rounds_before_waiting`` rounds at once, then waits for ``gate``."""
    calls = [0]

    def ai(board: object, level: object, pose: object, hand: tuple[Card, ...]) -> tuple[Card, ...]:
        calls[0] += 1
        if calls[0] > rounds_before_waiting:
            gate.wait(60)
        return hand[:5]

    source = play_live(load_board(CHOP), Level.NORMAL, generate_deck(16), ai, "live")
    app = ViewerApp(source.board, source.timeline, "live", SIZE)
    app.live_ai = True
    return app


def test_the_hud_counts_the_seconds_the_ai_thinks_on_a_round() -> None:
    gate = threading.Event()
    app = live_app(gate)
    clock = FakeClock()
    app.clock = clock
    try:
        assert app.thinking_seconds() == 0
        clock.now += 12.6
        lines = status_lines(app.player, app.title, app.thinking_seconds(), app.live_ai)
        assert "round 1: the AI is thinking, 12 s   (Esc or Cancel stops it)" in lines
        assert app.view_signature()[-2:] == (12, "")  # the idle window redraws when the count moves on
    finally:
        gate.set()
    deadline = time.monotonic() + 60
    while not app.timeline.complete and time.monotonic() < deadline:  # wait for the game to end
        time.sleep(0.01)
    assert app.thinking_seconds() is None
    assert not any("thinking" in line for line in status_lines(app.player, "", app.thinking_seconds(), True))


def test_new_cards_restart_the_count() -> None:
    gate = threading.Event()
    app = live_app(gate, rounds_before_waiting=1)
    clock = FakeClock()
    app.clock = clock
    try:
        deadline = time.monotonic() + 60
        while len(app.timeline.steps) < 5 and time.monotonic() < deadline:  # round 1 computed
            time.sleep(0.01)
        assert len(app.timeline.steps) == 5
        app.thinking_seconds()  # sees the five cards: counts from now
        clock.now += 3.2
        assert app.thinking_seconds() == 3
        assert "round 2: the AI is thinking, 3 s" in status_lines(app.player, "", 3, True)[-1]
    finally:
        gate.set()


def test_esc_cancels_a_game_being_computed_and_quits_a_finished_one() -> None:
    gate = threading.Event()
    app = live_app(gate)
    try:
        app.key("ESCAPE")
        assert app.reopen == "start" and app.quit_requested
    finally:
        gate.set()
    deadline = time.monotonic() + 60
    while not app.timeline.complete and time.monotonic() < deadline:
        time.sleep(0.01)
    done = ViewerApp(app.board, app.timeline, "done", SIZE)
    done.key("ESCAPE")
    assert done.quit_requested and done.reopen is None


def test_the_open_button_reads_cancel_while_the_game_is_computed() -> None:
    from viewer3d.window import ViewerWindow

    gate = threading.Event()
    app = live_app(gate)
    window = ViewerWindow(app, *SIZE, visible=False)
    window._enable_event_queue = False
    try:
        window.draw_frame()
        texts = {control.name: text.text for control, _, text in window.hud._buttons}
        assert texts["open"] == "Cancel"
        box = next(b for b in controls.layout(SIZE, cards.panel_width()) if b.button.name == "open")
        app.mouse_move(box.left + 2, box.top + 2)
        assert app.tooltip == "cancel this game, back to the start screen (Esc)"
        app.mouse_press(box.left + 2, box.top + 2, "left")
        assert app.reopen == "start" and app.quit_requested
    finally:
        gate.set()
        window.close()


def test_cancel_ends_the_ai_program_and_shows_the_start_screen(tmp_path: Path, monkeypatch) -> None:
    """robots-view --ai PROGRAM: Esc while the program thinks kills it and opens the start screen."""
    import viewer3d.start_window
    from engine.ai import external
    from viewer3d import cli

    pid_file = tmp_path / "pid"
    program = tmp_path / "slow-ai"
    program.write_text(f"#!/bin/sh\necho $$ > {pid_file}\nexec sleep 300\n", encoding="utf-8")
    program.chmod(0o755)
    seen: list[ViewerApp] = []

    def fake_window(app: ViewerApp, **options: object) -> None:
        deadline = time.monotonic() + 60
        while not pid_file.exists() or not pid_file.read_text().strip():  # the AI program is thinking
            assert time.monotonic() < deadline, "the AI program never started"
            time.sleep(0.01)
        seen.append(app)
        app.key("ESCAPE")

    screens: list[StartScreen] = []

    def start_screen(screen: StartScreen, screenshot: object = None, size: object = None) -> StartScreen:
        screens.append(screen)
        return screen  # closed without a choice

    monkeypatch.setattr("viewer3d.window.run_window", fake_window)
    monkeypatch.setattr(viewer3d.start_window, "run_start_screen", start_screen)
    monkeypatch.setenv("DISPLAY", ":99")
    assert cli.main(["--board", str(CHOP), "--ai", str(program), "--level", "easy"]) == 0
    assert seen and seen[0].reopen == "start" and len(screens) == 1
    pid = int(pid_file.read_text())
    assert not external._RUNNING
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        pass
    else:  # only a zombie may be left for a moment; never a running program
        state = Path(f"/proc/{pid}/stat").read_text().split()[2] if Path(f"/proc/{pid}/stat").exists() else "X"
        assert state in ("Z", "X")


def test_the_hud_shows_what_the_ai_precomputes() -> None:
    """A live game's AI that reports its precomputation (engine.ai.progress): the HUD shows the stage."""
    from engine.ai.progress import report

    gate, reported = threading.Event(), threading.Event()

    def ai(board: object, level: object, pose: object, hand: tuple[Card, ...]) -> tuple[Card, ...]:
        report("building moves", 0.42)
        reported.set()
        gate.wait(60)
        return hand[:5]

    source = play_live(load_board(CHOP), Level.NORMAL, generate_deck(16), ai, "live")
    app = ViewerApp(source.board, source.timeline, "live", SIZE)
    app.live_ai, app.ai_stage = True, lambda: source.ai_stage
    try:
        assert reported.wait(60)
        assert app.stage_text() == "building moves 42%"
        line = status_lines(app.player, "", 7, True, app.stage_text())[-1]
        assert line == "round 1: the AI is thinking, 7 s, building moves 42%   (Esc or Cancel stops it)"
    finally:
        gate.set()
    source.worker.join(60)  # type: ignore[union-attr]
    assert source.ai_stage is None and app.stage_text() == ""


def test_cancel_stops_the_built_in_planner_in_its_precomputation() -> None:
    """The planner runs in the viewer's thread: Cancel (the source's stop) ends it at its next
    progress report, before its plan is finished, and keeps nothing half-built."""
    from engine.ai import planner as planner_module
    from engine.ai.planner import Planner
    from engine.boardfile import write_board

    planner_module.forget_plans()
    planner = Planner(cache_dir=None)
    ready = threading.Event()
    holder: dict[str, object] = {}

    def cancelled_ai(board: object, level: object, pose: object, hand: tuple[Card, ...]) -> list[Card]:
        ready.wait(60)
        holder["source"].stop.set()  # type: ignore[attr-defined]  # the window's Cancel, as the planner starts
        return planner(board, level, pose, hand)  # type: ignore[arg-type]

    board = load_board(CHOP)
    source = play_live(board, Level.HARD, generate_deck(1), cancelled_ai, "live")
    holder["source"] = source
    ready.set()
    source.worker.join(60)  # type: ignore[union-attr]
    assert not source.worker.is_alive()  # type: ignore[union-attr]
    assert source.timeline.complete and source.timeline.error == "cancelled" and not source.timeline.steps
    assert (write_board(board), Level.HARD) not in planner_module._PLANS


def test_the_game_is_stopped_before_the_start_screen_opens(tmp_path: Path, monkeypatch) -> None:
    """Esc in a live game opened the start screen from inside the game's clean-up, so the AI (a
    program, or the built-in planner in its thread: 45 s at up to two cores on a 512x512 board)
    went on computing while the start screen was shown. It is stopped first now."""
    import viewer3d.start_window
    from engine.ai import external
    from viewer3d import cli

    pid_file = tmp_path / "pid"
    program = tmp_path / "slow-ai"
    program.write_text(f"#!/bin/sh\necho $$ > {pid_file}\nexec sleep 300\n", encoding="utf-8")
    program.chmod(0o755)

    def fake_window(app: ViewerApp, **options: object) -> None:
        deadline = time.monotonic() + 60
        while not pid_file.exists() or not pid_file.read_text().strip():  # the AI program is thinking
            assert time.monotonic() < deadline, "the AI program never started"
            time.sleep(0.01)
        app.key("ESCAPE")

    running_at_start_screen: list[int] = []

    def start_screen(screen: StartScreen, screenshot: object = None, size: object = None) -> StartScreen:
        running_at_start_screen.append(len(external._RUNNING))
        return screen  # closed without a choice

    monkeypatch.setattr("viewer3d.window.run_window", fake_window)
    monkeypatch.setattr(viewer3d.start_window, "run_start_screen", start_screen)
    monkeypatch.setenv("DISPLAY", ":99")
    assert cli.main(["--board", str(CHOP), "--ai", str(program), "--level", "easy"]) == 0
    assert running_at_start_screen == [0]
