"""Play one row of a contest's ``results.csv`` again into a game folder, checked to be that game.

``robots-contest --out OUT --replay ROW`` takes row ROW (1 = the first game under the header)
and the contest's ``contest.json`` (``engine.contest.record``), plays the same board, deck,
level and AI with the same timeout and limits, and writes the folder ``robots-engine play --out``
writes (so ``robots-view`` and ``robots-engine analyse`` open it) to ``OUT/games/row-ROW``.
It refuses, in one line and before playing, a row that is not there or does not match the record,
a deck file or AI program that changed since the contest; and after playing, a game whose
outcome, rounds, cards or moves differ from the row (an AI that plays differently each time):
then nothing is written, as the folder would show another game than the row's.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.ai.external import ExternalAI
from engine.ai.registry import resolve_ai
from engine.ai.supervise import AILimits
from engine.contest.record import RECORD_FILE, file_hash, read_record
from engine.contest.report import RESULTS_FILE, parse_csv
from engine.contest.runner import BoardSource, GameResult
from engine.deck import generate_deck, load_deck
from engine.errors import InputError, read_text
from engine.game import play_game
from engine.gamedir import refuse_foreign_folder, write_game_dir
from engine.model import Level
from engine.outputs import Stats
from engine.turns import TurnRecorder

GAMES_FOLDER = "games"
#: The figures of a row that the game played again must match.
CHECKED = ("outcome", "rounds", "cards", "card_moves", "board_moves")


def game_folder(out: Path, row: int) -> Path:
    """Where row ``row``'s game goes: ``OUT/games/row-N``."""
    return out / GAMES_FOLDER / f"row-{row}"


def replay_command(out: Path, row: int) -> str:
    """The command that plays row ``row`` again and opens it in the viewer."""
    return f"robots-contest --out {shlex.quote(str(out))} --replay {row} --view"


@dataclass(frozen=True)
class Replayed:
    """A row played again: where its folder is, and the row."""

    folder: Path
    result: GameResult


def _locate(record: dict[str, Any], row: int, result: GameResult, csv_path: Path) -> tuple[int, int, int]:
    """Which AI, board and deck row ``row`` is: results.csv lists AI by AI, board by board, deck by deck."""
    boards, decks, ais = record.get("boards"), record.get("decks"), record.get("ais")
    if not (isinstance(boards, list) and isinstance(decks, list) and isinstance(ais, list)) or not boards or not decks:
        raise InputError("damaged contest record: no boards, decks or AIs", csv_path.parent / "contest.json")
    games = len(boards) * len(decks)
    ai, rest = divmod(row - 1, games)
    board, deck = divmod(rest, len(decks))
    if ai >= len(ais) or (
        boards[board].get("label"),
        decks[deck].get("label"),
        ais[ai].get("label"),
    ) != (result.board, result.deck, result.ai):
        raise InputError(f"row {row} is not a game of the contest recorded in contest.json", csv_path, row + 1, 1)
    return ai, board, deck


def _deck(entry: dict[str, Any]) -> tuple[list[Any], str | None, int | None]:
    """The deck a record's entry names (cards, file, seed); InputError when its file changed."""
    seed = entry.get("seed")
    if isinstance(seed, int):
        return generate_deck(seed), None, seed
    path = str(entry.get("path"))
    try:
        digest = file_hash(path)
    except OSError as exc:
        raise InputError(f"the contest's deck file cannot be read: {exc.strerror or exc}", path) from None
    if digest != entry.get("sha256"):
        raise InputError("the deck file changed since the contest: this would be another game", path)
    return load_deck(path), path, None


def _check_ai(entry: dict[str, Any]) -> None:
    """InputError when a file of the AI's command changed (or went) since the contest."""
    for path, digest in dict(entry.get("files") or {}).items():
        try:
            now = file_hash(path)
        except OSError:
            now = None
        if now != digest:
            raise InputError("the AI program changed since the contest: it would not play the row's game", path)


def replay_row(
    out: Path, row: int, folder: Path | None = None, announce: Callable[[GameResult], None] | None = None
) -> Replayed:
    """Play row ``row`` of the contest in ``out`` again into ``folder`` (default ``OUT/games/row-N``);
    ``announce(row)`` once every check passed, before the game (a planner's game may take a minute)."""
    try:
        return _replay_row(out, row, folder, announce)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:  # a record edited by hand
        raise InputError(f"damaged contest record ({type(exc).__name__}: {exc})"[:120], out / RECORD_FILE) from None


def _replay_row(out: Path, row: int, folder: Path | None, announce: Callable[[GameResult], None] | None) -> Replayed:
    csv_path = out / RESULTS_FILE
    record = read_record(out)
    try:
        results = parse_csv(read_text(csv_path), csv_path)
    except FileNotFoundError:
        raise InputError("no results.csv: the contest has not finished (play the rest with --resume)", out) from None
    if not 1 <= row <= len(results):
        raise InputError(f"no row {row}: results.csv holds rows 1 to {len(results)}", csv_path)
    result = results[row - 1]
    ai_index, board_index, deck_index = _locate(record, row, result, csv_path)
    entry = record["ais"][ai_index]
    _check_ai(entry)
    cards, deck_path, seed = _deck(record["decks"][deck_index])
    board_entry = record["boards"][board_index]
    board = BoardSource(str(board_entry["label"]), str(board_entry["text"])).parse()
    level = Level(record["level"])
    target = folder if folder is not None else game_folder(out, row)
    refuse_foreign_folder(target, "folder")
    spec = entry["command"] or entry["spec"]
    limits = AILimits(**record.get("limits", {}))
    chooser = resolve_ai(spec, timeout=float(record["timeout"]), limits=limits)
    if announce is not None:
        announce(result)
    recorder = TurnRecorder(chooser)
    try:
        game = play_game(board, level, cards, recorder)
    finally:
        recorder.close()
    stats = Stats.of(game)
    assert game.outcome is not None
    now = {
        "outcome": game.outcome.value,
        "rounds": stats.rounds,
        "cards": stats.cards,
        "card_moves": stats.card_moves,
        "board_moves": stats.board_moves,
    }
    differ = [
        f"{name} {now[name]}, not {getattr(result, name)}" for name in CHECKED if now[name] != getattr(result, name)
    ]
    if differ:
        raise InputError(
            f"row {row} played again differs ({'; '.join(differ)}): the AI does not play the same game twice;"
            " nothing written",
            csv_path,
            row + 1,
            1,
        )
    command = entry["command"] if isinstance(chooser, ExternalAI) else None
    write_game_dir(
        target,
        game,
        ai=str(entry["spec"]),
        deck=deck_path,
        seed=seed,
        turns=recorder.turns,
        cards=cards,
        ai_command=command,
    )
    return Replayed(target, result)


__all__ = ["GAMES_FOLDER", "Replayed", "game_folder", "replay_command", "replay_row"]
