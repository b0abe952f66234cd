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
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.atomic import write_text_atomic
from engine.boardfile import parse_board, write_board
from engine.bounds import shown
from engine.cards import HAND_SIZE, Card
from engine.errors import ProtocolError, parse_json_object, read_utf8
from engine.game import AIError, Chooser, GameRecord, Outcome, check_choice, new_game, play_rounds
from engine.jsonplace import JsonSource
from engine.model import Board, Level, Pose
from engine.status import require_start

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

    def _replayed(self, then: Chooser | None = None) -> GameRecord:
        """The recorded rounds played again through the engine's game loop, then (with ``then``)
        one more round chosen by ``then``. A recorded choice not from its hand is an InputError."""
        game = new_game(self.board, self.level)
        recorded = self.chosen

        def choose(board: Board, level: Level, pose: Pose, hand: tuple[Card, ...]) -> Sequence[Card]:
            number = len(game.rounds) + 1
            if number > len(recorded):
                assert then is not None
                return then(board, level, pose, hand)
            try:
                check_choice(hand, recorded[number - 1])
            except AIError as exc:
                raise ProtocolError(
                    f"round {number}: recorded choice is not from the hand: {exc}", STATE_FILE
                ) from None
            return recorded[number - 1]

        limit = len(recorded) + (then is not None)
        if limit:
            for _ in play_rounds(game, self.deck, choose):
                if len(game.rounds) == limit:
                    break
        return game

    def rebuild(self) -> GameRecord:
        """The game so far, replayed from the recorded choices with the rules."""
        game = self._replayed()
        played = len(game.rounds)
        if played < len(self.chosen):
            if game.outcome is Outcome.CARDS_OUT:
                raise ProtocolError(f"round {played + 1} was recorded but the deck has no cards for it", STATE_FILE)
            raise ProtocolError(f"the game ended in round {played} but more rounds are recorded", STATE_FILE)
        if game.outcome is not None and self.status not in (RUNNING, game.outcome.value):
            raise ProtocolError(
                f"status {shown(self.status, 20)} contradicts the recorded rounds ({game.outcome.value})", STATE_FILE
            )
        if game.outcome is None and self.status in (Outcome.DESTROYED.value, Outcome.FINISHED.value):
            raise ProtocolError(
                f"status {shown(self.status, 20)} contradicts the recorded rounds (the game goes on)", STATE_FILE
            )
        if self.status == Outcome.CARDS_OUT.value:
            game.outcome = Outcome.CARDS_OUT
        elif self.status == Outcome.AI_ERROR.value:
            game.outcome = Outcome.AI_ERROR
            game.error = self.error
        return game

    def play_next_round(self, chooser: Chooser) -> GameRecord:
        """Play the next round with ``chooser`` (the game loop deals, checks the choice and plays it),
        record it, and return the game: ended when the deck ran out, the AI failed or the round ended it."""
        game = self._replayed(then=chooser)
        if len(game.rounds) > len(self.chosen):
            self.chosen.append(list(game.rounds[-1].chosen))
        if game.outcome is not None:
            self.status = game.outcome.value
            self.error = game.error
        return game


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


def _field(data: dict[str, Any], name: str, kind: type, source: JsonSource) -> Any:
    value = data.get(name)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise source.error(f"state field {name!r} is missing or not a {kind.__name__}", (name,), kind=ProtocolError)
    return value


def _cards(values: Any, what: str, source: JsonSource, keys: tuple[str | int, ...]) -> list[Card]:
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise source.error(f"state field {what!r} must be a list of card names", keys, kind=ProtocolError)
    cards = []
    for index, value in enumerate(values):
        try:
            cards.append(Card.parse(value))
        except ValueError as exc:
            raise source.error(f"state field {what!r}: {exc}", (*keys, index), kind=ProtocolError) from None
    return cards


def session_from_json(text: str, path: str | Path = STATE_FILE) -> Session:
    """Parse the state file; every problem is an InputError naming it (and the value's line and column)."""
    data = parse_json_object(text, path)
    source = JsonSource(text, path)
    if data.get("format") != STATE_FORMAT:
        raise source.error(f"not a robots-engine state file of format {STATE_FORMAT}", ("format",), kind=ProtocolError)
    level_word = _field(data, "level", str, source)
    try:
        level = Level(level_word)
    except ValueError:
        message = f"state field 'level' is not easy, normal or hard: {shown(level_word, 20)}"
        raise source.error(message, ("level",), kind=ProtocolError) from None
    status = _field(data, "status", str, source)
    if status not in {RUNNING, *(o.value for o in Outcome)}:
        raise source.error(f"state field 'status' is unknown: {shown(status, 20)}", ("status",), kind=ProtocolError)
    board = parse_board(_field(data, "board", str, source), f"{path} (board)")
    require_start(board, f"{path} (board)")
    chosen_raw = _field(data, "chosen", list, source)
    chosen = [_cards(cards, "chosen", source, ("chosen", index)) for index, cards in enumerate(chosen_raw)]
    error = data.get("error")
    sources = [data.get("board_source"), data.get("deck_source")]
    return Session(
        board=board,
        level=level,
        deck=_cards(data.get("deck"), "deck", source, ("deck",)),
        board_source=sources[0] if isinstance(sources[0], str) else None,
        deck_source=sources[1] if isinstance(sources[1], str) else None,
        chosen=chosen,
        status=status,
        error=error if isinstance(error, str) else None,
    )


def load_session(folder: str | Path) -> Session:
    path = Path(folder) / STATE_FILE
    if not os.path.lexists(path):  # a link loop there is not "no game": read_utf8 says what it is
        raise ProtocolError("no game loaded here: run 'robots-engine load BOARD [DECK] [LEVEL]' first", path)
    return session_from_json(read_utf8(path, ProtocolError), path)


def save_session(folder: str | Path, session: Session) -> None:
    write_text_atomic(Path(folder) / STATE_FILE, session_to_json(session))
