"""Where a viewer's game comes from: a game directory, a board plus a sequence file, or a new
game computed live by an AI in a background thread. Each ends as a ``Timeline``.

All bad input surfaces as ``engine.errors.InputError`` (one line, with file/line and, for a
sequence that contradicts its board, the round and card), never as a traceback.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from engine.ai.registry import resolve_ai
from engine.boardfile import load_board
from engine.cards import Card
from engine.deck import generate_deck, load_deck
from engine.errors import InputError, read_text
from engine.game import AIError, Chooser, Outcome, deal, play_round, round_outcome
from engine.gamedir import read_game_dir
from engine.model import Board, Level, Pose
from engine.replay import CardStep, Replay, load_replay, parse_globalseq, replay_sequence
from gameboards import DEMO_BOARD, board_path
from viewer3d.playback import Timeline


@dataclass
class GameSource:
    """A board and the timeline to show on it, plus a title for the window and HUD."""

    board: Board
    level: Level
    timeline: Timeline
    title: str
    worker: threading.Thread | None = None  # the thread computing a live game
    stop: threading.Event = field(default_factory=threading.Event)


def level_from_text(text: str) -> Level:
    try:
        return Level(text.lower())
    except ValueError:
        raise InputError(f"unknown level {text!r} (easy, normal or hard)") from None


def timeline_from_replay(replay: Replay) -> Timeline:
    board = replay.board
    return Timeline.from_steps(replay.start, (board.width, board.height), replay.steps, replay.outcome)


def from_game_dir(path: str | Path) -> GameSource:
    """A directory written by ``robots-engine play``."""
    game = read_game_dir(path)
    replay = load_replay(game.board, game.level, game.start, game.globalseq, Path(path) / "globalseq.txt")
    ai = game.info.get("ai")
    title = f"{Path(path).name} ({game.level.value}{', ' + str(ai) if ai else ''})"
    return GameSource(game.board, game.level, timeline_from_replay(replay), title)


def from_sequence(
    board_path: str | Path, sequence_path: str | Path, start: Pose | None = None, level: Level | None = None
) -> GameSource:
    """A board and a ``globalseq.txt``; without a level, the hardest one the sequence fits."""
    board = load_board(board_path)
    pose = start if start is not None else board.start
    if not board.in_bounds(pose.x, pose.y):
        raise InputError(f"start {pose.to_bot_line()} lies outside the {board.width}x{board.height} board")
    text = read_text(sequence_path)
    sequence = parse_globalseq(text, sequence_path)  # malformed lines are reported with this file's name
    if level is not None:
        replay = replay_sequence(board, level, pose, sequence, sequence_path)
    else:
        # The hardest level the sequence fits (as engine.replay.consistent_levels orders them),
        # replaying once per level tried; if none fits, report where it breaks at hard.
        first_error: InputError | None = None
        for candidate in (Level.HARD, Level.NORMAL, Level.EASY):
            try:
                replay = replay_sequence(board, candidate, pose, sequence, sequence_path)
            except InputError as error:
                first_error = first_error or error
                continue
            level = candidate
            break
        else:
            assert first_error is not None
            raise first_error
    title = f"{Path(board_path).name} + {Path(sequence_path).name} ({level.value})"
    return GameSource(board, level, timeline_from_replay(replay), title)


def play_live(
    board: Board,
    level: Level,
    deck: Sequence[Card],
    chooser: Chooser,
    title: str,
    start: Pose | None = None,
    on_round: Callable[[], None] | None = None,
) -> GameSource:
    """Start computing a game in a background thread; its cards are appended to the timeline
    round by round, so the viewer can show it while the AI is still thinking."""
    pose = start if start is not None else board.start
    timeline = Timeline(pose, (board.width, board.height))
    source = GameSource(board, level, timeline, title)

    def run() -> None:
        current = pose
        number = 1
        try:
            while not source.stop.is_set():
                hand = deal(deck, number)
                if hand is None:
                    timeline.finish(Outcome.CARDS_OUT)
                    return
                try:
                    chosen = tuple(chooser(board, level, current, hand))
                    record = play_round(board, level, current, number, hand, chosen)
                except AIError as exc:
                    timeline.finish(Outcome.AI_ERROR, f"round {number}: {exc}")
                    return
                card_pose = current
                for index, (card, result) in enumerate(zip(record.chosen, record.results, strict=False)):
                    timeline.append(CardStep(number, index, (card,), card_pose, result))
                    card_pose = result.pose
                if on_round is not None:
                    on_round()
                if record.results:
                    current = record.results[-1].pose
                outcome = round_outcome(record)
                if outcome is not None:
                    timeline.finish(outcome)
                    return
                number += 1
        except Exception as exc:  # an AI crashing in a way the engine did not wrap: show it, do not die
            timeline.finish(Outcome.AI_ERROR, f"round {number}: {exc}")

    source.worker = threading.Thread(target=run, name="robots-view-game", daemon=True)
    source.worker.start()
    return source


def from_ai(
    board_path: str | Path,
    ai: str,
    level: Level = Level.HARD,
    deck_path: str | Path | None = None,
    seed: int | None = None,
    start: Pose | None = None,
) -> GameSource:
    """A new game on a board file with an AI (built-in name or program), computed live."""
    board = load_board(board_path)
    deck = load_deck(deck_path) if deck_path is not None else generate_deck(seed)
    chooser = resolve_ai(ai)
    where = f"deck {Path(deck_path).name}" if deck_path is not None else f"seed {seed}"
    return play_live(board, level, deck, chooser, f"{Path(board_path).name}: {ai}, {level.value}, {where}", start)


def demo_ai_name() -> str:
    """The best built-in AI available: ``planner`` when it is installed, else ``reference``."""
    try:
        resolve_ai("planner")
    except InputError:
        return "reference"
    return "planner"


def demo_source() -> GameSource:
    """chop.dat, hard level, deck seed 1, with the best built-in AI."""
    return from_ai(board_path(DEMO_BOARD), demo_ai_name(), Level.HARD, seed=1)


def wait_complete(source: GameSource, timeout: float | None = None) -> None:
    """Block until a live game has been computed completely (export needs the whole game)."""
    if source.worker is not None:
        source.worker.join(timeout)
