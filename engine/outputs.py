"""The game's output files: ``sequence.txt``, ``globalseq.txt`` and ``stats.txt`` (writers).

All of them are derived from the events recorded in a GameRecord, exactly as
``docs/rules.md`` (Output files) describes.  ``stats.txt`` is read back by ``parse_stats`` (the
sequence files by ``engine.replay.parse_globalseq``), so a tool comparing contest results reads
the figures the way they were written.
"""

from __future__ import annotations

from dataclasses import astuple, dataclass
from pathlib import Path

from engine.bounds import parse_count, shown
from engine.errors import InputError
from engine.events import Cause
from engine.game import GameRecord, Outcome

CARD_SEPARATOR = "----"
ROUND_SEPARATOR = "--------"
#: The labels of ``stats.txt``'s seven lines, in their order (``Label: N``).
STATS_LABELS = ("Cards", "Rounds", "Card Moves", "Board Moves", "Destroyed (X)", "Cards Out (Y)", "Finished (Z)")
#: The highest figure ``parse_stats`` takes: far above any game's (5,600 cards, 700 rounds).
MAX_STAT = 10**9


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
        return "".join(f"{label}: {value}\n" for label, value in zip(STATS_LABELS, astuple(self), strict=True))


def format_stats(game: GameRecord) -> str:
    return Stats.of(game).format()


def parse_stats(text: str, path: str | Path | None = None) -> Stats:
    """Read ``stats.txt`` as ``Stats.format`` writes it: the seven ``Label: N`` lines in their order
    (the three outcome figures 0 or 1); InputError naming the line and column of anything else."""
    lines = text.splitlines()
    values: list[int] = []
    for number, label in enumerate(STATS_LABELS, start=1):
        if number > len(lines):
            raise InputError(f"missing line {label!r}: stats.txt has {len(STATS_LABELS)} lines", path, number, 1)
        line = lines[number - 1]
        prefix = f"{label}: "
        if not line.startswith(prefix):
            raise InputError(f"expected '{label}: N', not {shown(line, 40)}", path, number, 1)
        high = 1 if number > 4 else MAX_STAT
        values.append(parse_count(line[len(prefix) :], label, 0, high, path, number, len(prefix) + 1))
    if len(lines) > len(STATS_LABELS):
        extra = len(STATS_LABELS) + 1
        raise InputError(f"text after the {len(STATS_LABELS)} lines: {shown(lines[extra - 1], 40)}", path, extra, 1)
    return Stats(*values)
