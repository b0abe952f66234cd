"""Play the games of a contest, one process per core: boards x decks at one level with one AI.

Workers get the boards and the deck *sources* (a file or a seed) once, at start-up, and load
each deck at most once, so a task is just two indexes.  Every game gets a fresh AI, so an AI
cannot carry state from one game into another and results do not depend on scheduling -- except
built-in AIs registered as reusable (``engine.ai.registry.is_reusable``: the reference AI, the
planner), whose one instance per worker keeps only caches that never change a choice: the
planner then builds each board's tables once per worker instead of once per game.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

from engine.ai.external import kill_running_ais
from engine.ai.registry import is_reusable, resolve_ai
from engine.boardfile import parse_board
from engine.cards import Card
from engine.deck import generate_deck, load_deck
from engine.errors import InputError
from engine.game import Chooser, Outcome, play_game
from engine.model import Board, Level
from engine.outputs import Stats


@dataclass(frozen=True)
class DeckSource:
    """Where a deck comes from: a deck file, or a seed for ``generate_deck``."""

    path: Path | None = None
    seed: int | None = None

    @property
    def label(self) -> str:
        return str(self.path) if self.path is not None else f"seed:{self.seed}"

    def load(self) -> list[Card]:
        if self.path is not None:
            return load_deck(self.path)
        return generate_deck(self.seed)


@dataclass(frozen=True)
class BoardSource:
    """A board as read by the main process: its label (the path given) and its file text."""

    label: str
    text: str

    def parse(self) -> Board:
        return parse_board(self.text, self.label)


@dataclass(frozen=True)
class ContestSetup:
    """Everything a worker needs, sent once per worker process."""

    boards: tuple[BoardSource, ...]
    decks: tuple[DeckSource, ...]
    level: Level
    ai: str
    timeout: float
    log_dir: Path | None


@dataclass(frozen=True)
class GameResult:
    """One row of ``results.csv``."""

    board: str
    deck: str
    level: str
    ai: str
    outcome: str
    rounds: int
    cards: int
    card_moves: int
    board_moves: int
    error: str


_setup: ContestSetup | None = None


def init_worker(setup: ContestSetup, *, in_pool: bool = False) -> None:
    """Set a process up to play this contest's games (the main process too, when ``--jobs 1``)."""
    global _setup
    if in_pool:
        # Ctrl-C goes to the main process, which stops the pool; workers print no tracebacks.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        # When the pool is stopped, a running external AI is killed too.
        signal.signal(signal.SIGTERM, _exit_on_sigterm)
    _setup = setup
    _board.cache_clear()
    _deck.cache_clear()
    _reused.cache_clear()


@cache
def _board(index: int) -> Board:
    assert _setup is not None
    return _setup.boards[index].parse()


@lru_cache(maxsize=8)
def _deck(index: int) -> tuple[Card, ...]:
    assert _setup is not None
    return tuple(_setup.decks[index].load())


@cache
def _reused(spec: str) -> Chooser:
    """The one instance of a reusable built-in AI in this worker."""
    return resolve_ai(spec)


def _log_path(setup: ContestSetup, board_index: int, deck_index: int) -> Path | None:
    if setup.log_dir is None:
        return None
    board = Path(setup.boards[board_index].label).stem
    deck = Path(setup.decks[deck_index].label).stem.replace(":", "-")
    return setup.log_dir / f"{board_index:03d}-{board}__{deck_index:04d}-{deck}.log"


def play_task(task: tuple[int, int]) -> GameResult:
    """Play one game (board index, deck index) of the contest set up by ``init_worker``."""
    assert _setup is not None
    setup = _setup
    board_index, deck_index = task
    board_label = setup.boards[board_index].label
    deck_label = setup.decks[deck_index].label
    common = (board_label, deck_label, setup.level.value, setup.ai)
    try:
        if is_reusable(setup.ai):
            game = play_game(_board(board_index), setup.level, _deck(deck_index), _reused(setup.ai))
        else:
            chooser = resolve_ai(setup.ai, timeout=setup.timeout, log_path=_log_path(setup, board_index, deck_index))
            try:
                game = play_game(_board(board_index), setup.level, _deck(deck_index), chooser)
            finally:
                close = getattr(chooser, "close", None)
                if callable(close):
                    close()
    except InputError as exc:
        return GameResult(*common, Outcome.AI_ERROR.value, 0, 0, 0, 0, str(exc))
    except Exception as exc:  # a built-in AI's bug must not stop the other games
        return GameResult(*common, Outcome.AI_ERROR.value, 0, 0, 0, 0, f"crashed: {type(exc).__name__}: {exc}")
    stats = Stats.of(game)
    assert game.outcome is not None
    return GameResult(
        *common,
        game.outcome.value,
        stats.rounds,
        stats.cards,
        stats.card_moves,
        stats.board_moves,
        game.error or "",
    )


def all_tasks(setup: ContestSetup) -> list[tuple[int, int]]:
    """Board-major order, as the contest's ``start_contest`` loops: every deck on board 1, then board 2..."""
    return [(b, d) for b in range(len(setup.boards)) for d in range(len(setup.decks))]


def effective_jobs(jobs: int) -> int:
    return jobs if jobs > 0 else (os.cpu_count() or 1)


def run_contest(
    setup: ContestSetup, jobs: int, on_result: Callable[[int, GameResult], None] | None = None
) -> list[GameResult]:
    """Play every game; results in task order.  ``on_result(done, result)`` reports progress."""
    tasks = all_tasks(setup)
    results: list[GameResult] = []
    workers = min(effective_jobs(jobs), max(1, len(tasks)))
    if workers == 1:
        init_worker(setup)
        stream: Iterator[GameResult] = map(play_task, tasks)
        _collect(stream, results, on_result)
        return results
    chunk = max(1, min(16, len(tasks) // (workers * 8)))
    if is_reusable(setup.ai):
        # One board's games in one chunk, the biggest boards first: each board's tables are built
        # by one worker only, and the longest precomputations start first.
        tasks, chunk = board_affine_tasks(setup), len(setup.decks)
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_init_pool_worker, initargs=(setup,))
    try:
        _collect(pool.map(play_task, tasks, chunksize=chunk), results, on_result)
    except BaseException:
        # Interrupted: do not wait for games in progress (an external AI may take minutes).
        for process in list(getattr(pool, "_processes", {}).values()):
            process.terminate()
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()
    position = {task: i for i, task in enumerate(all_tasks(setup))}
    return [result for _, result in sorted(zip(tasks, results, strict=True), key=lambda pair: position[pair[0]])]


def board_affine_tasks(setup: ContestSetup) -> list[tuple[int, int]]:
    """Every game, grouped by board, boards by falling size (a proxy for their precomputation)."""
    sizes = []
    for index, source in enumerate(setup.boards):
        board = source.parse()
        sizes.append((-board.width * board.height, index))
    return [(b, d) for _, b in sorted(sizes) for d in range(len(setup.decks))]


def _exit_on_sigterm(signum: int, frame: object) -> None:
    # The pool's worker loop catches exceptions and carries on with the next game, so leave at once.
    kill_running_ais()
    os._exit(128 + signum)


def _init_pool_worker(setup: ContestSetup) -> None:
    init_worker(setup, in_pool=True)


def _collect(
    stream: Iterator[GameResult], results: list[GameResult], on_result: Callable[[int, GameResult], None] | None
) -> None:
    for result in stream:
        results.append(result)
        if on_result is not None:
            on_result(len(results), result)


def summarize_outcomes(results: Sequence[GameResult]) -> dict[str, int]:
    counts = {outcome.value: 0 for outcome in Outcome}
    for result in results:
        counts[result.outcome] += 1
    return counts
