"""A Tron game watched while it is played (no GL): the live show grows round by round as the
server decides them and completes; the shared app and clock follow it and the HUD says it is still
played, then the result; cancelling kills the bot programs; a bot crashing mid-game is shown out
with its reason. A test bot (``gatebot.py``) answers only when the test opens its gate, and every
wait is on the game's own round notices, never on time."""

from __future__ import annotations

import os
import queue
import sys
from pathlib import Path

import pytest

from engine.tron.record import load_game
from gameboards import tron_arena_path
from viewer3d.gameapp import GameApp
from viewer3d.games.tron.live import LiveTronGame
from viewer3d.games.tron.show import ROUND_SECONDS
from viewer3d.games.tron.timeline import Timeline

ARENA = tron_arena_path("open-10x10.txt")
GATEBOT = Path(__file__).with_name("gatebot.py")
WAIT = 120.0  # a generous bound on a wait for an event, never a pace


class Gate:
    """The files a gatebot is paced and watched by."""

    def __init__(self, folder: Path) -> None:
        self.pidfile, self.gate, self.seen = folder / "pid", folder / "gate", folder / "seen"
        self.gate.write_text("")

    def bot(self, exit_round: int = 0) -> str:
        extra = f" {exit_round}" if exit_round else ""
        return f"{sys.executable} {GATEBOT} {self.pidfile} {self.gate} {self.seen}{extra}"

    def allow(self, rounds: int) -> None:
        with self.gate.open("a") as handle:
            handle.write("go\n" * rounds)


def live_game(tmp_path: Path, bot: str, time_limit: float = 600.0) -> tuple[LiveTronGame, queue.Queue[int]]:
    """A live game with a round notice queue (each notice: the rounds known then; -1 at the end)."""
    live = LiveTronGame(ARENA, [bot, "simple"], folder=tmp_path / "games", time_limit=time_limit)
    notices: queue.Queue[int] = queue.Queue()
    live.listeners.append(lambda: notices.put(-1 if live.finished.is_set() else live.show.timeline.rounds))
    return live.start(), notices


def hud(app: GameApp) -> str:
    return "\n".join(line.text for line in app.status_lines())


def test_the_live_show_grows_round_by_round_and_the_app_follows_it(tmp_path: Path) -> None:
    gate = Gate(tmp_path)
    live, notices = live_game(tmp_path, gate.bot())
    try:
        show = live.show
        app = GameApp(show, title=show.title)
        assert show.timeline.rounds == 0 and not show.timeline.complete
        assert "being played" in show.title and "still being played" in hud(app)
        gate.allow(1)
        assert notices.get(timeout=WAIT) == 1
        assert show.timeline.rounds == 1 and show.timeline.duration == ROUND_SECONDS
        assert not show.timeline.complete and show.outcome_mark() is None
        app.update(5.0)  # far past the rounds known: playback waits at the newest one
        player = app.player
        assert player.time == show.timeline.duration and player.playing and not player.at_end
        assert not app.busy  # nothing to show until the next round: the window sleeps
        text = hud(app)
        assert "round 1 / 1 so far - still being played" in text and "points" not in text
        gate.allow(1)
        assert notices.get(timeout=WAIT) == 2
        assert app.busy  # the next round arrived: playing again
        app.update(ROUND_SECONDS / 2)
        assert ROUND_SECONDS < player.time < 2 * ROUND_SECONDS and player.current_round() == 2
        gate.allow(100)  # the gatebot drives ahead into the edge: the game ends
        while notices.get(timeout=WAIT) != -1:
            pass
        assert live.path is not None and live.error is None and show.timeline.complete
        record = load_game(live.path)  # saved whole, re-simulated against the rules
        assert len(record.rounds) == show.timeline.rounds >= 3
        assert show.title == live.path.name
        app.update(1000.0)
        assert player.at_end and not player.playing and app.title == live.path.name
        text = hud(app)
        assert "still being played" not in text and "points:" in text
        assert "game over: simple wins" in text and str(live.path) in text
        assert "out after" in text and "drove off the board" in text
        assert show.outcome_mark() == ("2", (*show.outcome_mark()[1][:3], 255))  # type: ignore[index]
        whole = Timeline(record)  # the live timeline is the file's
        live_view = show.rounds
        assert (live_view.paths, live_view.crash, live_view.survived) == (whole.paths, whole.crash, whole.survived)
        assert (live_view.points, live_view.reasons) == (whole.points, whole.reasons)
    finally:
        live.cancel()
        live.wait(WAIT)


def test_cancel_kills_the_bot_programs_at_once(tmp_path: Path) -> None:
    gate = Gate(tmp_path)
    live, notices = live_game(tmp_path, gate.bot())  # 600 s a round: only a kill ends round 2 early
    gate.allow(1)
    assert notices.get(timeout=WAIT) == 1
    pids = live.bot_pids
    assert len(pids) == 2 and int(gate.pidfile.read_text()) in pids
    for pid in pids:
        os.kill(pid, 0)  # both bots are running, the gatebot waiting for its gate in round 2
    live.cancel()
    assert live.wait(WAIT) and live.path is None
    assert live.error is not None and "cancelled" in live.error
    for pid in pids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
    assert not (tmp_path / "games").exists() or not list((tmp_path / "games").iterdir())
    assert live.show.timeline.complete  # the window stops waiting; its HUD says why
    app = GameApp(live.show, title=live.show.title)
    assert "cancelled" in hud(app) and "still being played" not in hud(app)


def test_a_bot_crashing_mid_game_is_shown_out_with_its_reason(tmp_path: Path) -> None:
    gate = Gate(tmp_path)
    gate.allow(100)
    live, _ = live_game(tmp_path, gate.bot(exit_round=3), time_limit=30.0)
    app = GameApp(live.show, title=live.show.title)
    assert live.wait(WAIT) and live.path is not None
    app.update(1000.0)
    text = hud(app)
    assert "out after 2 rounds" in text and "closed its output (exited with status 3)" in text
    assert "game over: simple wins" in text
