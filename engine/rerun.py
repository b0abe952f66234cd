"""One round of a played game, again: its board, pose and hand, from a game folder.

``robots-engine round GAMEDIR N`` and ``robots-oracle --from GAMEDIR --round N`` both start
here.  The round record (``rounds.jsonl``) says the pose before the round and its hand; a game
folder written before that record existed still works, through its deck (``deck.txt``, or the
seed or deck file named in ``game.json``) and a replay of its ``globalseq.txt``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from engine.cards import HAND_SIZE, Card
from engine.deck import generate_deck, load_deck
from engine.errors import InputError
from engine.game import deal
from engine.gamedir import DECK_FILE, GameDir, read_game_dir
from engine.model import Board, Level, Pose
from engine.replay import load_replay
from engine.roundlog import RoundEntry, read_rounds


@dataclass(frozen=True)
class RoundState:
    """What the AI was shown in round ``number`` of a game, and what the game recorded for it."""

    game: GameDir
    number: int
    pose: Pose
    hand: tuple[Card, ...]
    entry: RoundEntry | None

    @property
    def board(self) -> Board:
        return self.game.board

    @property
    def level(self) -> Level:
        return self.game.level


def game_deck(game: GameDir) -> list[Card] | None:
    """The deck the game was played with, if the folder says: ``deck.txt``, the seed, or the deck file."""
    own = game.path / DECK_FILE
    if own.is_file():
        return load_deck(own, strict=False)
    seed = game.info.get("seed")
    if isinstance(seed, int) and not isinstance(seed, bool):
        return generate_deck(seed)
    named = game.info.get("deck")
    if isinstance(named, str):
        for candidate in (Path(named), game.path / named):
            try:
                found = candidate.is_file()
            except OSError:  # a name too long for the system: no such deck (it read '[Errno 36] ...' whole)
                found = False
            if found:
                return load_deck(candidate)
    return None


def rounds_played(game: GameDir) -> int:
    """How many rounds the game dealt (including a round that ended in an AI error)."""
    entries = read_rounds(game.path, game.board.width, game.board.height)
    if entries is not None:
        return len(entries)
    rounds = game.info.get("rounds")
    extra = 1 if game.info.get("outcome") == "E" else 0
    return (rounds if isinstance(rounds, int) else 0) + extra


def round_state(folder: str | Path, number: int) -> RoundState:
    """Round ``number`` (from 1) of the game in ``folder``; InputError when it has no such round."""
    game = read_game_dir(folder)
    entries = read_rounds(game.path, game.board.width, game.board.height)
    count = len(entries) if entries is not None else rounds_played(game)
    if not 1 <= number <= max(count, 1):
        raise InputError(f"the game has {count} rounds; there is no round {number}", game.path)
    if entries is not None:
        entry = next((e for e in entries if e.number == number), None)
        if entry is None:
            raise InputError(f"round {number} is missing from the round record", game.path / "rounds.jsonl")
        return RoundState(game, number, entry.before, entry.hand, entry)
    deck = game_deck(game)
    if deck is None:
        raise InputError(
            "this game folder has no round record (rounds.jsonl) and names no deck or seed to rebuild it", game.path
        )
    hand = deal(deck, number)
    if hand is None:
        raise InputError(f"the deck has no full hand for round {number} ({len(deck)} cards)", game.path)
    replay = load_replay(game.board, game.level, game.start, game.globalseq, game.path / "globalseq.txt")
    step = next((s for s in replay.steps if s.round_number == number), None)
    pose = step.start if step is not None else replay.final_pose
    return RoundState(game, number, pose, hand, None)


def remaining_deck(game: GameDir, number: int) -> list[Card] | None:
    """The deck as it stood before round ``number`` was dealt (its first hand is that round's)."""
    deck = game_deck(game)
    if deck is None:
        return None
    return deck[HAND_SIZE * (number - 1) :]
