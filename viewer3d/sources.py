"""Where a viewer's game comes from: a game directory, a board plus a sequence file, or a new
game computed live by an AI in a background thread. Each ends as a ``Timeline``.

All bad input surfaces as ``engine.errors.InputError`` (one line, with file/line and, for a
sequence that contradicts its board, the round and card), never as a traceback.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from engine import rerun
from engine.ai.progress import Abandoned, listening
from engine.ai.registry import resolve_ai
from engine.boardfile import load_board
from engine.cards import Card
from engine.deck import generate_deck, load_deck
from engine.errors import InputError, SequenceError, read_text
from engine.game import Chooser, Outcome, new_game, play_rounds
from engine.gamedir import GameDir, read_game_dir
from engine.model import Board, Level, Pose
from engine.replay import (
    HARDEST_FIRST,
    CardStep,
    Replay,
    fit_levels,
    load_replay,
    parse_globalseq,
    replay_sequence,
)
from engine.roundlog import RoundEntry, entry_of, read_rounds
from engine.status import game_start
from engine.turns import TurnRecorder
from gameboards import DEMO_BOARD, board_path
from viewer3d.playback import Timeline
from viewer3d.roundview import RoundAnalysis, load_analysis


@dataclass
class GameSource:
    """A board and the timeline to show on it, plus a title for the window and HUD."""

    board: Board
    level: Level
    timeline: Timeline
    title: str
    worker: threading.Thread | None = None  # the thread computing a live game
    stop: threading.Event = field(default_factory=threading.Event)
    #: The AI's side of each round (hand, choice, output, debug marks) when known, by round number.
    rounds: dict[int, RoundEntry] = field(default_factory=dict)
    #: The game folder shown, watched for a rewrite (None for other sources).
    folder: Path | None = None
    #: ``robots-engine analyse``'s findings by round (the best choice, lossy or not), when analysed.
    analysis: dict[int, RoundAnalysis] = field(default_factory=dict)
    #: What a live game's AI reports it is precomputing now (``engine.ai.progress``): stage, fraction.
    ai_stage: tuple[str, float] | None = None


#: The interpreter's thread switch interval (seconds) while a game is computed in a thread here
#: (Python's default is 0.005). Each GL call the window makes through ctypes lets go of the
#: interpreter and must then wait for the worker to hand it back, which a pure-Python worker (the
#: planner building its table, a replay) does only when the switch interval runs out: with 5 ms a
#: frame's dozens of calls took up to 0.4 s and a key up to 0.9 s to show. 0.5 ms keeps that under
#: 0.2 s at no measurable cost to the worker (docs/benchmarks-viewer.md, "Live mode").
WORKER_SWITCH_INTERVAL = 0.0005

_switch_lock = threading.Lock()
_switch_users = 0
_switch_saved: float | None = None  # the interval to restore, None if it was short enough already


@contextmanager
def responsive_switching() -> Iterator[None]:
    """Lower the switch interval to ``WORKER_SWITCH_INTERVAL`` for the ``with`` block (never raise
    it); the first of overlapping blocks (two workers) saves the interval, the last restores it."""
    global _switch_users, _switch_saved
    with _switch_lock:
        if _switch_users == 0:
            interval = sys.getswitchinterval()
            _switch_saved = interval if interval > WORKER_SWITCH_INTERVAL else None
            if _switch_saved is not None:
                sys.setswitchinterval(WORKER_SWITCH_INTERVAL)
        _switch_users += 1
    try:
        yield
    finally:
        with _switch_lock:
            _switch_users -= 1
            if _switch_users == 0 and _switch_saved is not None:
                sys.setswitchinterval(_switch_saved)


def timeline_from_replay(replay: Replay) -> Timeline:
    board = replay.board
    return Timeline.from_steps(replay.start, (board.width, board.height), replay.steps, replay.outcome)


def from_game_dir(path: str | Path, background: bool = False) -> GameSource:
    """A directory written by ``robots-engine play``.

    With ``background`` the sequence is replayed in a thread, each card appended to the timeline
    as soon as it is known, so the window shows its first frame at once even for a long game on
    a 512x512 board (the replay of such a game takes seconds); a sequence that contradicts its
    board then ends the timeline with the one-line error, shown on the HUD."""
    game = read_game_dir(path)
    sequence_path = Path(path) / "globalseq.txt"
    ai = game.info.get("ai")
    title = f"{Path(path).name} ({game.level.value}{', ' + str(ai) if ai else ''})"
    deck = game_deck(game)
    try:
        entries = read_rounds(game.path, game.board.width, game.board.height) or []
    except (InputError, OSError) as exc:  # the record is optional: the game itself is still shown
        print(f"robots-view: the round record is ignored: {exc}", file=sys.stderr)
        entries = []
    rounds = {entry.number: entry for entry in entries}
    try:
        analysis = load_analysis(Path(path), rounds, game.board, game.level)
    except InputError as exc:  # optional too: the game is shown without the best choices
        print(f"robots-view: the analysis is ignored: {exc}", file=sys.stderr)
        analysis = {}
    if not background:
        replay = load_replay(game.board, game.level, game.start, game.globalseq, sequence_path)
        timeline = timeline_from_replay(replay)
        if deck is not None:
            timeline.set_deck(deck)
        return GameSource(game.board, game.level, timeline, title, rounds=rounds, folder=Path(path), analysis=analysis)
    sequence = parse_globalseq(game.globalseq, sequence_path)  # malformed lines: an error at once
    timeline = Timeline(game.start, (game.board.width, game.board.height))
    timeline.deck = deck
    source = GameSource(game.board, game.level, timeline, title, rounds=rounds, folder=Path(path), analysis=analysis)

    def run() -> None:
        with responsive_switching():  # the window's thread keeps drawing while this one replays
            try:
                replay = replay_sequence(game.board, game.level, game.start, sequence, sequence_path, timeline.append)
            except InputError as error:
                timeline.finish(None, str(error))
                return
            if deck is not None:
                timeline.set_deck(deck)  # now checked against every card played
            timeline.finish(replay.outcome)

    source.worker = threading.Thread(target=run, name="robots-view-replay", daemon=True)
    source.worker.start()
    return source


def game_deck(game: GameDir) -> tuple[Card, ...] | None:
    """The deck a game directory was played with (``engine.rerun.game_deck``: its ``deck.txt``, its
    seed, or the deck file it names); None if none can be read (the HUD then shows the played cards
    without the hands)."""
    try:
        deck = rerun.game_deck(game)
    except (InputError, OSError) as exc:  # optional, as the round record: said, and the game still shown
        print(f"robots-view: the deck is ignored (the hands dealt are not shown): {exc}", file=sys.stderr)
        return None
    return tuple(deck) if deck is not None else None


def from_board_file(board_path: str | Path, start: Pose | None = None) -> GameSource:
    """A board on its own (``robots-view board.dat``): the robot on its start pose, no game."""
    board = load_board(board_path)
    pose = game_start(board, start, board_path)
    timeline = Timeline(pose, (board.width, board.height))
    timeline.finish(None)
    return GameSource(board, Level.HARD, timeline, f"{Path(board_path).name} (board only)")


def from_sequence(
    board_path: str | Path, sequence_path: str | Path, start: Pose | None = None, level: Level | None = None
) -> GameSource:
    """A board and a ``globalseq.txt``; without a level, the hardest one the sequence fits."""
    board = load_board(board_path)
    pose = game_start(board, start, board_path)
    text = read_text(sequence_path, SequenceError)
    sequence = parse_globalseq(text, sequence_path)  # malformed lines are reported with this file's name
    replay = fit_levels(board, pose, sequence, sequence_path, HARDEST_FIRST if level is None else [level])[0]
    title = f"{Path(board_path).name} + {Path(sequence_path).name} ({replay.level.value})"
    return GameSource(board, replay.level, timeline_from_replay(replay), title)


class Cancelled(Abandoned):
    """Raised inside the AI's thread when the window cancelled the game (``GameSource.stop``); an
    ``Abandoned``, so no AI takes it for a bug of its own."""


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
    game = new_game(board, level, start)
    timeline = Timeline(game.start, (board.width, board.height))
    timeline.deck = tuple(deck)
    source = GameSource(board, level, timeline, title)
    # The AI's output and marks of every round are kept (the live game's AI log) for the HUD.
    recorder = TurnRecorder(chooser)

    def heard(stage: str, fraction: float) -> None:
        if source.stop.is_set():  # cancelled: a built-in AI stops in the middle of its precomputation
            raise Cancelled
        source.ai_stage = (stage, fraction)

    def run() -> None:
        # responsive_switching: the window's thread keeps drawing while the AI computes in Python
        with responsive_switching(), listening(heard):
            try:
                play()
            except Cancelled:
                timeline.finish(None, "cancelled")

    def play() -> None:
        try:
            if source.stop.is_set():
                return
            for record in play_rounds(game, deck, recorder):
                source.ai_stage = None
                source.rounds[record.number] = entry_of(game, recorder.turns, record.number)
                card_pose = record.start
                for index, (card, result) in enumerate(zip(record.chosen, record.results, strict=False)):
                    timeline.append(CardStep(record.number, index, (card,), card_pose, result))
                    card_pose = result.pose
                if on_round is not None:
                    on_round()
                if source.stop.is_set():
                    return
        except Cancelled:
            raise
        except Exception as exc:  # an AI crashing in a way the engine did not wrap: show it, do not die
            timeline.finish(Outcome.AI_ERROR, f"round {len(game.rounds) + 1}: {exc}")
            return
        assert game.outcome is not None
        failed = len(game.rounds) + 1
        if game.outcome is Outcome.AI_ERROR and recorder.turns and recorder.turns[-1].number == failed:
            source.rounds[failed] = entry_of(game, recorder.turns, failed)
        timeline.finish(game.outcome, game.error)

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
    start = game_start(board, start, board_path)
    deck = load_deck(deck_path) if deck_path is not None else generate_deck(seed)
    chooser = resolve_ai(ai)
    where = f"deck {Path(deck_path).name}" if deck_path is not None else f"seed {seed}"
    return play_live(board, level, deck, chooser, f"{Path(board_path).name}: {ai}, {level.value}, {where}", start)


#: The AI of ``--demo``: the best built-in one.
DEMO_AI = "planner"


def demo_source() -> GameSource:
    """chop.dat, hard level, deck seed 1, with the best built-in AI."""
    return from_ai(board_path(DEMO_BOARD), DEMO_AI, Level.HARD, seed=1)


def wait_complete(source: GameSource, timeout: float | None = None) -> None:
    """Block until a live game has been computed completely (export needs the whole game)."""
    if source.worker is not None:
        source.worker.join(timeout)
