"""The contest's round-by-round game kept in a working directory (``robots-engine load`` / ``start``).

The contest engine kept its game in the folder it ran in: ``load`` put the board and
deck there, each ``start`` played one round with the AI behind ``./bot-ki``. We do the
same, and keep the game's truth in one small state file, ``.robots-state.json``: the
board text, the level, the whole deck and the cards chosen in every round so far.
Every ``start`` rebuilds the game from that history with the real rules (a few
milliseconds), so ``globalseq.txt`` and ``stats.txt`` come out exactly as a one-shot
game would write them, and an interrupted or crashed ``start`` never leaves the
state half-updated (it is replaced atomically, last).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.atomic import write_text_atomic
from engine.boardfile import parse_board, write_board
from engine.bounds import shown
from engine.cards import HAND_SIZE, Card
from engine.errors import InputError, parse_json_object, read_text
from engine.game import AIError, GameRecord, Outcome, deal, play_round
from engine.model import Board, Level

STATE_FILE = ".robots-state.json"
STATE_FORMAT = 1
RUNNING = "running"


@dataclass
class Session:
    """A game in a working directory: what ``load`` set up and what each ``start`` chose."""

    board: Board
    level: Level
    deck: list[Card]
    board_source: str | None = None
    deck_source: str | None = None
    chosen: list[list[Card]] = field(default_factory=list)
    status: str = RUNNING  # "running", or the outcome letter X Y Z E
    error: str | None = None

    @property
    def next_round(self) -> int:
        return len(self.chosen) + 1

    @property
    def over(self) -> bool:
        return self.status != RUNNING

    def remaining_deck(self) -> list[Card]:
        """The cards not dealt yet (what ``cards.txt`` holds between rounds)."""
        return self.deck[HAND_SIZE * len(self.chosen) :]

    def rebuild(self) -> GameRecord:
        """The game so far, replayed from the recorded choices with the rules."""
        game = GameRecord(self.board, self.level, self.board.start)
        game.final_pose = game.start
        for number, chosen in enumerate(self.chosen, start=1):
            hand = deal(self.deck, number)
            if hand is None:
                raise InputError(f"round {number} was recorded but the deck has no cards for it", STATE_FILE)
            try:
                record = play_round(self.board, self.level, game.pose, number, hand, chosen)
            except AIError as exc:
                raise InputError(f"round {number}: recorded choice is not from the hand: {exc}", STATE_FILE) from None
            outcome = game.add_round(record)
            if outcome is not None:
                if number != len(self.chosen):
                    raise InputError(f"the game ended in round {number} but more rounds are recorded", STATE_FILE)
                if self.status not in (RUNNING, outcome.value):
                    raise InputError(
                        f"status {shown(self.status, 20)} contradicts the recorded rounds ({outcome.value})", STATE_FILE
                    )
        if game.outcome is None and self.status in (Outcome.DESTROYED.value, Outcome.FINISHED.value):
            raise InputError(
                f"status {shown(self.status, 20)} contradicts the recorded rounds (the game goes on)", STATE_FILE
            )
        if self.status == Outcome.CARDS_OUT.value:
            game.outcome = Outcome.CARDS_OUT
        elif self.status == Outcome.AI_ERROR.value:
            game.outcome = Outcome.AI_ERROR
            game.error = self.error
        return game

    def record_round(self, chosen: Sequence[Card]) -> GameRecord:
        """Add one round's chosen cards (already checked against the hand) and return the updated game."""
        self.chosen.append(list(chosen))
        game = self.rebuild()
        if game.outcome is not None:
            self.status = game.outcome.value
        return game

    def end(self, outcome: Outcome, error: str | None = None) -> GameRecord:
        """End the game without a round (deck exhausted, or the AI failed)."""
        self.status = outcome.value
        self.error = error
        return self.rebuild()


def session_to_json(session: Session) -> str:
    data = {
        "format": STATE_FORMAT,
        "level": session.level.value,
        "status": session.status,
        "round": session.next_round,
        "error": session.error,
        "board_source": session.board_source,
        "deck_source": session.deck_source,
        "board": write_board(session.board),
        "chosen": [[card.value for card in cards] for cards in session.chosen],
        "deck": [card.value for card in session.deck],
    }
    return json.dumps(data, indent=1) + "\n"


def _field(data: dict[str, Any], name: str, kind: type, path: str | Path) -> Any:
    value = data.get(name)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise InputError(f"state field {name!r} is missing or not a {kind.__name__}", path)
    return value


def _cards(values: Any, what: str, path: str | Path) -> list[Card]:
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise InputError(f"state field {what!r} must be a list of card names", path)
    try:
        return [Card.parse(v) for v in values]
    except ValueError as exc:
        raise InputError(f"state field {what!r}: {exc}", path) from None


def session_from_json(text: str, path: str | Path = STATE_FILE) -> Session:
    """Parse the state file; every problem is an InputError naming it."""
    data = parse_json_object(text, path)
    if data.get("format") != STATE_FORMAT:
        raise InputError(f"not a robots-engine state file of format {STATE_FORMAT}", path)
    level_word = _field(data, "level", str, path)
    try:
        level = Level(level_word)
    except ValueError:
        raise InputError(f"state field 'level' is not easy, normal or hard: {shown(level_word, 20)}", path) from None
    status = _field(data, "status", str, path)
    if status not in {RUNNING, *(o.value for o in Outcome)}:
        raise InputError(f"state field 'status' is unknown: {shown(status, 20)}", path)
    board = parse_board(_field(data, "board", str, path), f"{path} (board)")
    if len(board.starts) != 1:
        raise InputError(f"the board in the state has {len(board.starts)} start tiles, a game needs exactly one", path)
    chosen_raw = _field(data, "chosen", list, path)
    chosen = [_cards(cards, "chosen", path) for cards in chosen_raw]
    error = data.get("error")
    sources = [data.get("board_source"), data.get("deck_source")]
    return Session(
        board=board,
        level=level,
        deck=_cards(data.get("deck"), "deck", path),
        board_source=sources[0] if isinstance(sources[0], str) else None,
        deck_source=sources[1] if isinstance(sources[1], str) else None,
        chosen=chosen,
        status=status,
        error=error if isinstance(error, str) else None,
    )


def load_session(folder: str | Path) -> Session:
    path = Path(folder) / STATE_FILE
    if not path.exists():
        raise InputError("no game loaded here: run 'robots-engine load BOARD [DECK] [LEVEL]' first", path)
    return session_from_json(read_text(path), path)


def save_session(folder: str | Path, session: Session) -> None:
    write_text_atomic(Path(folder) / STATE_FILE, session_to_json(session))
