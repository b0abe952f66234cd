"""A game directory: every file of one played game, written together and read back by the viewer.

``write_game_dir`` and ``read_game_dir`` are a pair. The directory holds the contest's files
(``board.txt``, ``globalseq.txt``, the last round's ``sequence.txt``, ``stats.txt``,
``ascii-board.txt``), ``start.txt`` (the start pose in ``bot.txt`` format, because a sequence
file only holds relative motion) and ``game.json`` saying how the game was played (level, AI,
deck or seed, outcome), so a viewer can replay it without being told the level.  Since the
round record came, it also holds ``rounds.jsonl`` (per round: pose before and after, hand,
chosen cards, the AI's time, output and debug marks; ``engine.roundlog``) and ``deck.txt``
(the whole deck, so one round can be rerun or measured against the optimum from the folder
alone).
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.asciiboard import render_ascii_board
from engine.atomic import file_kind, read_regular, write_files_atomic
from engine.boardfile import load_board, write_board
from engine.bounds import cut
from engine.cards import Card
from engine.deck import write_cards
from engine.errors import InputError, read_text, read_utf8
from engine.game import GameRecord, Outcome
from engine.jsonplace import JsonSource
from engine.model import Board, Level, Pose
from engine.outputs import format_globalseq, format_stats, last_sequence
from engine.protocol import parse_pose, write_pose
from engine.roundlog import ROUNDS_FILE, format_rounds
from engine.turns import Turn
from engine.wording import counted

FORMAT_VERSION = 1
BOARD_FILE = "board.txt"
START_FILE = "start.txt"
GLOBALSEQ_FILE = "globalseq.txt"
SEQUENCE_FILE = "sequence.txt"
STATS_FILE = "stats.txt"
ASCII_FILE = "ascii-board.txt"
INFO_FILE = "game.json"
DECK_FILE = "deck.txt"
#: What ``robots-engine analyse`` writes beside a game; it belongs to that one game.
ANALYSIS_FILE = "analysis.json"
#: A viewer showing (and watching) a game folder names its process here (``viewer3d.reload``).
VIEWER_PID_FILE = ".robots-view.pid"


def viewer_pid(folder: str | Path) -> int | None:
    """The process id of a live viewer watching ``folder`` (it reloads the game when the folder is
    rewritten), or None. Read with ``read_regular``: a FIFO planted under that name held
    ``play --view`` for ever (``read_text`` waits for a writer)."""
    try:
        pid = int(read_regular(Path(folder) / VIEWER_PID_FILE, 64).decode("ascii").strip()[:12])
    except (OSError, ValueError):
        return None
    if pid <= 0:
        return None
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return None
    except PermissionError:
        return pid
    return pid


def game_info(
    game: GameRecord, *, ai: str, deck: str | None, seed: int | None, ai_command: str | None = None
) -> dict[str, Any]:
    """The content of ``game.json`` for a played game (``ai_command``: an external AI's full command)."""
    final = game.pose
    return {
        "format": FORMAT_VERSION,
        "level": game.level.value,
        "ai": ai,
        "ai_command": ai_command,
        "deck": deck,
        "seed": seed,
        "outcome": game.outcome.value if game.outcome is not None else None,
        "outcome_name": game.outcome.name.lower() if game.outcome is not None else None,
        "rounds": len(game.rounds),
        "cards": game.cards_played,
        "start": [game.start.x, game.start.y, game.start.facing.value],
        "final": [final.x, final.y, final.facing.value],
        "error": game.error,
    }


OUTCOME_WORDS = {
    Outcome.DESTROYED: "robot destroyed",
    Outcome.CARDS_OUT: "deck exhausted",
    Outcome.FINISHED: "robot reached the goal",
    Outcome.AI_ERROR: "AI error",
}


def outcome_note(game: GameRecord) -> str | None:
    """``game over: X (robot destroyed) after 3 rounds, 14 cards``, or None while the game goes on."""
    if game.outcome is None:
        return None
    return (
        f"game over: {game.outcome.value} ({OUTCOME_WORDS[game.outcome]}) "
        f"after {counted(len(game.rounds), 'round')}, {counted(game.cards_played, 'card')}"
    )


#: What ``play`` writes into its ``--out`` folder (``ai.log``: an external AI's output).
GAME_FILES = (
    BOARD_FILE,
    START_FILE,
    GLOBALSEQ_FILE,
    SEQUENCE_FILE,
    STATS_FILE,
    ASCII_FILE,
    ROUNDS_FILE,
    DECK_FILE,
    "ai.log",
)


def refuse_foreign_folder(path: str | Path, purpose: str = "--out") -> None:
    """InputError when ``path`` is a folder holding files a game would replace but no ``game.json``:
    not a game folder, so they are someone's own (``play --out .`` beside your stats.txt replaced it).
    A game folder (``game.json`` in it) is replaced game after game, as before."""
    folder = Path(path)
    if not folder.is_dir() or os.path.lexists(folder / INFO_FILE):
        return
    found = [name for name in GAME_FILES if os.path.lexists(folder / name)]
    if found:
        named = ", ".join(found[:3]) + (", ..." if len(found) > 3 else "")
        raise InputError(
            f"holds {named} but no {INFO_FILE}: not a game folder, its files would be replaced; "
            f"choose another {purpose} (or remove them)",
            folder,
        )


def write_game_dir(
    path: str | Path,
    game: GameRecord,
    *,
    ai: str,
    deck: str | None,
    seed: int | None,
    turns: Sequence[Turn] = (),
    cards: Sequence[Card] | None = None,
    ai_command: str | None = None,
) -> None:
    """Write every file of ``game`` into ``path`` (created if missing), all or nothing.

    ``turns`` (from ``engine.turns.TurnRecorder``) add the AI's side to ``rounds.jsonl``;
    ``cards``, the deck played, is kept as ``deck.txt``.  Every file is written aside first and
    renamed into place only when all are written, ``game.json`` last, so a failure (a full disk,
    a folder in the way) leaves an earlier game in ``path`` whole instead of half replaced.
    """
    folder = Path(path)
    folder.mkdir(parents=True, exist_ok=True)
    files: dict[Path, str] = {
        folder / BOARD_FILE: write_board(game.board),
        folder / START_FILE: write_pose(game.start),
        folder / GLOBALSEQ_FILE: format_globalseq(game),
        folder / SEQUENCE_FILE: last_sequence(game),
        folder / STATS_FILE: format_stats(game),
        folder / ASCII_FILE: render_ascii_board(game.board, game.pose, note=outcome_note(game)),
        folder / ROUNDS_FILE: format_rounds(game, turns),
    }
    if cards is not None:
        files[folder / DECK_FILE] = write_cards(cards)
    files[folder / INFO_FILE] = write_game_info(game_info(game, ai=ai, deck=deck, seed=seed, ai_command=ai_command))
    write_files_atomic(files)
    stale = [] if cards is not None else [DECK_FILE]  # an earlier game's deck must not be taken for this one's
    stale.append(ANALYSIS_FILE)  # nor its analysis: the viewer would show its best choices on these rounds
    for name in stale:
        if not (folder / name).is_dir():  # a folder of that name is the user's, and no reader takes it
            (folder / name).unlink(missing_ok=True)


@dataclass(frozen=True)
class GameDir:
    """What a viewer needs from a game directory: board, start, level, the sequence, and game.json."""

    path: Path
    board: Board
    start: Pose
    level: Level
    globalseq: str
    info: dict[str, Any]


def write_game_info(info: dict[str, Any]) -> str:
    """The text of ``game.json`` (the writer paired with ``parse_game_info``)."""
    return json.dumps(info, indent=2) + "\n"


def parse_game_info(text: str, path: str | Path | None = None) -> dict[str, Any]:
    """Parse ``game.json``: a JSON object with ``format`` 1 and a known ``level``; InputError otherwise."""
    source = JsonSource(text, path)
    info = source.object_of_format(FORMAT_VERSION)
    level = info.get("level")
    if not isinstance(level, str) or level not in {lv.value for lv in Level}:
        raise source.error(f"'level' must be one of easy, normal, hard, not {cut(repr(level), 30)}", ("level",))
    return info


def read_game_dir(path: str | Path) -> GameDir:
    """Read a directory written by ``write_game_dir``; every problem is a one-line InputError."""
    folder = Path(path)
    if not folder.is_dir():
        try:
            mode = folder.stat().st_mode
        except FileNotFoundError:
            raise InputError("not a game directory (no such directory)", folder) from None
        except OSError as exc:  # a link loop was "no such directory"
            raise InputError(f"not a game directory ({exc.strerror or exc})", folder) from None
        kind = "file" if stat.S_ISREG(mode) else file_kind(mode)  # a FIFO was "a file"
        raise InputError(f"not a game directory (a {kind}, not a directory)", folder)
    info_path = folder / INFO_FILE
    info = parse_game_info(read_utf8(info_path), info_path)
    board = load_board(folder / BOARD_FILE)
    start_path = folder / START_FILE
    start = parse_pose(read_text(start_path), start_path)
    if not board.in_bounds(start.x, start.y):
        raise InputError(
            f"start {start.to_bot_line()} lies outside the {board.width}x{board.height} board", start_path, 1, 1
        )
    globalseq_path = folder / GLOBALSEQ_FILE
    globalseq = read_text(globalseq_path)
    cards = info.get("cards")
    if not globalseq.strip() and isinstance(cards, int) and not isinstance(cards, bool) and cards > 0:
        # An emptied sequence showed the robot standing at its start, "game over: Z" beside it.
        raise InputError(f"is empty, but {INFO_FILE} says the game played {counted(cards, 'card')}", globalseq_path)
    return GameDir(folder, board, start, Level(info["level"]), globalseq, info)
