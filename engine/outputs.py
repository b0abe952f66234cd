"""The game's output files: ``sequence.txt``, ``globalseq.txt`` and ``stats.txt`` (writers).

All of them are derived from the events recorded in a GameRecord, exactly as
``docs/rules.md`` (Output files) describes.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.events import Cause
from engine.game import GameRecord, Outcome

CARD_SEPARATOR = "----"
ROUND_SEPARATOR = "--------"


def round_lines(game: GameRecord, index: int) -> list[str]:
    """Lines of round ``index`` (0-based) as written in ``sequence.txt``.

    The round after the last dealt one (index == len(game.rounds)) exists only
    when the deck ran out: its single line is ``Y``.
    """
    if index == len(game.rounds):
        if game.outcome is Outcome.CARDS_OUT:
            return [Outcome.CARDS_OUT.value]
        raise IndexError(f"game has {len(game.rounds)} rounds")
    return game.rounds[index].sequence_lines


def sequence_rounds(game: GameRecord) -> list[list[str]]:
    """Every round's sequence lines, including the final ``Y`` round when the deck ran out."""
    count = len(game.rounds) + (1 if game.outcome is Outcome.CARDS_OUT else 0)
    return [round_lines(game, i) for i in range(count)]


def format_sequence(lines: list[str]) -> str:
    return "".join(line + "\n" for line in lines)


def last_sequence(game: GameRecord) -> str:
    """``sequence.txt`` as left by the game's last round."""
    rounds = sequence_rounds(game)
    return format_sequence(rounds[-1]) if rounds else ""


def format_globalseq(game: GameRecord) -> str:
    """``globalseq.txt``: every round's lines, rounds separated by ``--------``."""
    lines: list[str] = []
    for i, round_ in enumerate(sequence_rounds(game)):
        if i:
            lines.append(ROUND_SEPARATOR)
        lines.extend(round_)
    return format_sequence(lines)


@dataclass(frozen=True)
class Stats:
    """The seven figures of ``stats.txt``."""

    cards: int
    rounds: int
    card_moves: int
    board_moves: int
    destroyed: int
    cards_out: int
    finished: int

    @classmethod
    def of(cls, game: GameRecord) -> Stats:
        card_moves = board_moves = 0
        for record in game.rounds:
            for result in record.results:
                for event in result.events:
                    if event.counts_as_move:
                        if event.cause is Cause.CARD:
                            card_moves += 1
                        else:
                            board_moves += 1
        return cls(
            cards=game.cards_played,
            rounds=len(game.rounds),
            card_moves=card_moves,
            board_moves=board_moves,
            destroyed=int(game.outcome is Outcome.DESTROYED),
            cards_out=int(game.outcome is Outcome.CARDS_OUT),
            finished=int(game.outcome is Outcome.FINISHED),
        )

    def format(self) -> str:
        return (
            f"Cards: {self.cards}\n"
            f"Rounds: {self.rounds}\n"
            f"Card Moves: {self.card_moves}\n"
            f"Board Moves: {self.board_moves}\n"
            f"Destroyed (X): {self.destroyed}\n"
            f"Cards Out (Y): {self.cards_out}\n"
            f"Finished (Z): {self.finished}\n"
        )


def format_stats(game: GameRecord) -> str:
    return Stats.of(game).format()
