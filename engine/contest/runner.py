"""The games of a contest as batch jobs: boards x decks at one level with one AI.

Each game is a :class:`GameSpec`, a picklable value holding everything needed to play it (the
board's text, the deck's text or seed, level, AI, limits), so it can be played in any process
on any machine; :func:`play_spec` turns it into one row of ``results.csv``.  ``engine.batch``
runs the specs (worker processes or a Dask cluster), journals each row as it comes, and gives
a game whose worker died the row of :func:`lost_game`.  Every game gets a fresh AI, so an AI
cannot carry state from one game into another and results do not depend on scheduling -- except
built-in AIs registered as reusable (``engine.ai.registry.is_reusable``: the reference AI, the
planner), whose one instance per worker keeps only caches that never change a choice: the
planner then builds each board's tables once per worker instead of once per game.  For them a
worker keeps to one board's games (``affinity``), biggest boards first.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field, fields
from functools import cache, lru_cache, partial
from pathlib import Path
from typing import Any

from engine.ai.registry import is_reusable, resolve_ai
from engine.ai.supervise import AILimits
from engine.ai.threads import THREADS_VARIABLE
from engine.batch import Journal, run_batch
from engine.boardfile import parse_board
from engine.cards import Card
from engine.deck import generate_deck, load_deck, parse_deck
from engine.errors import InputError
from engine.game import Chooser, Outcome, play_game
from engine.model import Board, Level
from engine.outputs import Stats


@dataclass(frozen=True)
class DeckSource:
    """Where a deck comes from: a deck file (its text read once, up front), or a seed for ``generate_deck``."""

    path: Path | None = None
    seed: int | None = None
    text: str | None = None

    @property
    def label(self) -> str:
        return str(self.path) if self.path is not None else f"seed:{self.seed}"

    def load(self) -> list[Card]:
        if self.text is not None:
            return parse_deck(self.text, self.path)
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
    """What a contest plays: every board with every deck, at one level, with one AI."""

    boards: tuple[BoardSource, ...]
    decks: tuple[DeckSource, ...]
    level: Level
    ai: str
    timeout: float
    log_dir: Path | None
    limits: AILimits = field(default_factory=AILimits)
    #: What the games run for an AI program, when not ``ai`` as given: its absolute command line
    #: (``engine.contest.absolute_command``), since a cluster's workers run in other folders.
    #: Not in the fingerprint nor in the rows: a resumed contest may be started from elsewhere.
    command: str | None = None

    def fingerprint(self) -> dict[str, Any]:
        """What the journal must match to be resumed: everything that decides a game's result."""
        return {
            "boards": [[b.label, b.text] for b in self.boards],
            "decks": [d.label for d in self.decks],
            "level": self.level.value,
            "ai": self.ai,
            "timeout": self.timeout,
            "limits": asdict(self.limits),
        }


@dataclass(frozen=True)
class GameSpec:
    """One game, self-contained and picklable: a batch job."""

    board_index: int
    deck_index: int
    board: BoardSource
    deck: DeckSource
    level: Level
    ai: str
    timeout: float
    log_path: Path | None
    limits: AILimits
    command: str | None = None

    @property
    def key(self) -> str:
        """The game's name in the journal: which board and deck, by position and label."""
        return f"{self.board_index}:{self.deck_index}:{self.board.label}:{self.deck.label}"


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

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> GameResult:
        return cls(**{f.name: row[f.name] for f in fields(cls)})


def _log_path(setup: ContestSetup, board_index: int, deck_index: int) -> Path | None:
    if setup.log_dir is None:
        return None
    board = Path(setup.boards[board_index].label).stem
    deck = Path(setup.decks[deck_index].label).stem.replace(":", "-")
    return setup.log_dir / f"{board_index:03d}-{board}__{deck_index:04d}-{deck}.log"


def game_specs(setup: ContestSetup) -> list[GameSpec]:
    """Board-major order, as the contest's ``start_contest`` loops: every deck on board 1, then board 2..."""
    return [
        GameSpec(
            b,
            d,
            setup.boards[b],
            setup.decks[d],
            setup.level,
            setup.ai,
            setup.timeout,
            _log_path(setup, b, d),
            setup.limits,
            setup.command,
        )
        for b in range(len(setup.boards))
        for d in range(len(setup.decks))
    ]


def _row(spec: GameSpec, outcome: str, error: str, stats: Stats | None = None) -> dict[str, Any]:
    figures = (stats.rounds, stats.cards, stats.card_moves, stats.board_moves) if stats else (0, 0, 0, 0)
    return asdict(GameResult(spec.board.label, spec.deck.label, spec.level.value, spec.ai, outcome, *figures, error))


def lost_game(spec: GameSpec, reason: str) -> dict[str, Any]:
    """The row of a game that could not be played to its end: outcome E with the reason."""
    return _row(spec, Outcome.AI_ERROR.value, reason)


@lru_cache(maxsize=16)
def _board(source: BoardSource) -> Board:
    """One Board object per board in a worker: reusable AIs key their caches on it."""
    return source.parse()


@lru_cache(maxsize=8)
def _deck(source: DeckSource) -> tuple[Card, ...]:
    return tuple(source.load())


@cache
def _reused(spec: str) -> Chooser:
    """The one instance of a reusable built-in AI in this worker."""
    return resolve_ai(spec)


def play_spec(spec: GameSpec) -> dict[str, Any]:
    """Play one game and return its row (an AI error or a built-in AI's crash ends only this game)."""
    try:
        board, deck = _board(spec.board), _deck(spec.deck)
        if is_reusable(spec.ai):
            game = play_game(board, spec.level, deck, _reused(spec.ai))
        else:
            chooser = resolve_ai(
                spec.command or spec.ai, timeout=spec.timeout, log_path=spec.log_path, limits=spec.limits
            )
            try:
                prepare = getattr(chooser, "prepare", None)
                if callable(prepare):  # an external program's launcher, before the first round's clock
                    prepare()
                game = play_game(board, spec.level, deck, chooser)
            finally:
                close = getattr(chooser, "close", None)
                if callable(close):
                    close()
    except InputError as exc:
        return lost_game(spec, str(exc))
    except OSError as exc:  # the engine's own trouble (a full disk), said as such
        where = f"{exc.filename}: " if exc.filename else ""
        return lost_game(spec, f"engine error, not the AI's: {where}{exc.strerror or exc}")
    except Exception as exc:  # a built-in AI's bug must not stop the other games
        return lost_game(spec, f"crashed: {type(exc).__name__}: {exc}")
    assert game.outcome is not None
    return _row(spec, game.outcome.value, game.error or "", Stats.of(game))


def _key(spec: GameSpec) -> str:
    return spec.key


def _board_of(spec: GameSpec) -> int:
    return spec.board_index


def effective_jobs(jobs: int) -> int:
    return jobs if jobs > 0 else (os.cpu_count() or 1)


@contextmanager
def one_planner_thread_per_game(workers: int) -> Iterator[None]:
    """With several games side by side, their planners (in the workers and in AI programs, which
    inherit the environment) each take one thread instead of one per core: the games already
    keep the cores busy. A value the user set stays."""
    if workers <= 1 or THREADS_VARIABLE in os.environ:
        yield
        return
    os.environ[THREADS_VARIABLE] = "1"
    try:
        yield
    finally:
        os.environ.pop(THREADS_VARIABLE, None)


def run_contest(
    setup: ContestSetup,
    jobs: int,
    on_result: Callable[[int, GameResult], None] | None = None,
    *,
    journal: Journal | None = None,
    cluster: str | None = None,
) -> list[GameResult]:
    """Play every game not in ``journal`` (locally in ``jobs`` processes, or on ``cluster``); results in order.

    Raises ``engine.batch.BatchStopped`` on Ctrl-C once every game in flight is stopped.
    """
    specs = game_specs(setup)

    def report(done: int, row: dict[str, Any]) -> None:
        if on_result is not None:
            on_result(done, GameResult.from_row(row))

    reusable = is_reusable(setup.ai)
    workers = min(effective_jobs(jobs), max(1, len(specs)))
    with one_planner_thread_per_game(workers if cluster is None else 1):
        rows = run_batch(
            specs,
            play_spec,
            key=_key,
            lost=lost_game,
            journal=journal,
            workers=workers,
            cluster=cluster,
            on_row=report,
            # A reusable AI's tables are built once per board and worker: keep each worker on one
            # board's games, and start the biggest boards (the longest precomputations) first.
            affinity=_board_of if reusable else None,
            first=board_sizes(setup) if reusable else None,
            check=partial(worker_problem, setup.command or setup.ai, setup.timeout),
        )
    return [GameResult.from_row(row) for row in rows]


def worker_problem(ai: str, timeout: float) -> str | None:
    """Run on each cluster worker before the games: why it cannot play them (its Python lacks numba
    for the planner, the AI program is not at that path there), or None."""
    try:
        chooser = resolve_ai(ai, timeout=timeout)
    except InputError as exc:
        return str(exc)
    except ImportError as exc:
        return f"its Python lacks a module: {exc}"
    close = getattr(chooser, "close", None)
    if callable(close):
        close()
    return None


def board_sizes(setup: ContestSetup) -> Callable[[GameSpec], int]:
    """A sort key putting the games of bigger boards first."""
    sizes = [source.parse() for source in setup.boards]
    areas = [-board.width * board.height for board in sizes]

    def key(spec: GameSpec) -> int:
        return areas[spec.board_index]

    return key


def board_affine_tasks(setup: ContestSetup) -> list[tuple[int, int]]:
    """The order a reusable AI's games start in: grouped by board, bigger boards first (stable)."""
    key = board_sizes(setup)
    specs = sorted(game_specs(setup), key=key)
    return [(spec.board_index, spec.deck_index) for spec in specs]
