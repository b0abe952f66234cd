"""Read ``globalseq.txt`` back and replay it on its board with the real rules.

A sequence file holds only absolute motions, not the cards. To animate it (and
to catch a file that contradicts its board) each card's lines are matched
against what ``play_card`` does with every card kind from the current pose; the
matching card's events, with their causes, are what the viewer animates. A
block of lines that no card can produce is reported with its round and card.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from engine.bounds import shown
from engine.cards import CHOSEN_PER_ROUND, MAX_ROUNDS, Card
from engine.errors import InputError, SequenceError
from engine.events import EventKind, RobotStatus
from engine.game import Outcome
from engine.model import Board, Level, Pose
from engine.outputs import CARD_SEPARATOR, ROUND_SEPARATOR
from engine.rules import CardResult, play_card

MOTION_LINES = frozenset({"ML", "MR", "MU", "MD", "RL", "RR", "RU"})
END_LINES = frozenset({"X", "Y", "Z"})


@dataclass(frozen=True)
class CardLines:
    """The lines one card wrote, and where they stand in the file (1-based line of the first one)."""

    lines: tuple[str, ...]
    line_number: int


@dataclass(frozen=True)
class SequenceFile:
    """A parsed ``globalseq.txt`` (or a single round's ``sequence.txt``): rounds of cards of lines."""

    rounds: tuple[tuple[CardLines, ...], ...]

    @property
    def cards_out(self) -> bool:
        """Whether the file ends with the ``Y`` round (deck exhausted)."""
        return bool(self.rounds) and [c.lines for c in self.rounds[-1]] == [("Y",)]


def parse_globalseq(text: str, path: str | Path | None = None) -> SequenceFile:
    """Parse the structure of a sequence file; raises InputError naming the line of any problem."""
    rounds: list[tuple[CardLines, ...]] = []
    cards: list[CardLines] = []
    current: list[str] = []
    start_line = 1
    lines = text.splitlines()
    ended_at: int | None = None
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if ended_at is not None and line:
            raise SequenceError(f"text after the game ended on line {ended_at}", path, number, 1)
        if line == ROUND_SEPARATOR:
            cards.append(CardLines(tuple(current), start_line))
            rounds.append(tuple(cards))
            if len(rounds) > MAX_ROUNDS:
                # Round 701 may only be the lone 'Y' of a used-up deck: no card is dealt in it.
                raise SequenceError(f"more than {MAX_ROUNDS} rounds: a game has at most {MAX_ROUNDS}", path, number, 1)
            cards, current, start_line = [], [], number + 1
        elif line == CARD_SEPARATOR:
            cards.append(CardLines(tuple(current), start_line))
            current, start_line = [], number + 1
        elif line in MOTION_LINES or line in END_LINES:
            current.append(line)
            if line in END_LINES:
                ended_at = number
        elif line == "" and number == len(lines):
            continue
        else:
            column = len(raw) - len(raw.lstrip()) + 1
            raise SequenceError(
                f"unknown sequence line {shown(line, 30)} (expected ML MR MU MD RL RR RU X Y Z ---- or --------)",
                path,
                number,
                column,
            )
    if lines:
        cards.append(CardLines(tuple(current), start_line))
        rounds.append(tuple(cards))
    if len(rounds) > MAX_ROUNDS and [c.lines for c in rounds[-1]] != [("Y",)]:
        where = rounds[MAX_ROUNDS][0].line_number
        raise SequenceError(f"more than {MAX_ROUNDS} rounds: a game has at most {MAX_ROUNDS}", path, where, 1)
    for round_cards in rounds:
        for card in round_cards:
            if "Y" in card.lines and (card.lines != ("Y",) or len(round_cards) != 1):
                raise SequenceError(
                    "'Y' (deck exhausted) must stand alone in the last round", path, card.line_number, 1
                )
    return SequenceFile(tuple(rounds))


def write_globalseq(sequence: SequenceFile) -> str:
    """The text of a parsed sequence file (the writer paired with ``parse_globalseq``)."""
    out: list[str] = []
    for r, round_cards in enumerate(sequence.rounds):
        if r:
            out.append(ROUND_SEPARATOR)
        for c, card in enumerate(round_cards):
            if c:
                out.append(CARD_SEPARATOR)
            out.extend(card.lines)
    return "".join(line + "\n" for line in out)


@dataclass(frozen=True)
class CardStep:
    """One card of the replay: which card kinds fit its lines, and what it did."""

    round_number: int  # from 1
    index: int  # position in the round, from 0
    candidates: tuple[Card, ...]  # every card kind that writes exactly these lines from this pose
    start: Pose
    result: CardResult

    @property
    def card(self) -> Card:
        """The most likely card (several kinds can write the same lines, e.g. a blocked move)."""
        return self.candidates[0]


@dataclass(frozen=True)
class Replay:
    """A sequence file replayed on its board: every card's events, and how the game ended (a
    value: the viewer and the command line read it, nothing changes it once replayed)."""

    board: Board
    level: Level
    start: Pose
    steps: tuple[CardStep, ...] = ()
    outcome: Outcome | None = None  # None: the file stops before the game ended
    round_count: int = 0

    @property
    def final_pose(self) -> Pose:
        return self.steps[-1].result.pose if self.steps else self.start


def _blocked_count(result: CardResult) -> int:
    return sum(1 for e in result.events if e.kind is EventKind.BLOCKED)


def _all_cards_from(board: Board, level: Level, pose: Pose) -> list[tuple[Card, CardResult, tuple[str, ...]]]:
    """What every card kind does from ``pose``: (card, result, the lines it writes)."""
    outcomes = []
    for card in Card:
        result = play_card(board, level, pose, card)
        outcomes.append((card, result, tuple(result.sequence_lines)))
    return outcomes


def replay_sequence(
    board: Board,
    level: Level,
    start: Pose,
    sequence: SequenceFile,
    path: str | Path | None = None,
    on_step: Callable[[CardStep], None] | None = None,
) -> Replay:
    """Replay a parsed sequence with the rules; InputError (with round and card) where it cannot happen.

    ``on_step`` is called with each card as soon as it is replayed (a viewer shows a long game
    while the rest is still being replayed)."""
    steps: list[CardStep] = []
    outcome: Outcome | None = None
    round_count = 0
    pose = start
    # Long games revisit the same poses again and again: play each pose's 7 cards only once.
    memo: dict[Pose, list[tuple[Card, CardResult, tuple[str, ...]]]] = {}
    for r, round_cards in enumerate(sequence.rounds, start=1):
        if [c.lines for c in round_cards] == [("Y",)]:
            outcome = Outcome.CARDS_OUT
            break
        round_count = r
        if len(round_cards) > CHOSEN_PER_ROUND:
            raise SequenceError(
                f"round {r} has {len(round_cards)} cards, a round plays at most {CHOSEN_PER_ROUND}",
                path,
                round_cards[CHOSEN_PER_ROUND].line_number,
                1,
            )
        for c, card_lines in enumerate(round_cards):
            if not board.in_bounds(pose.x, pose.y):
                raise SequenceError(
                    f"round {r}, card {c + 1}: the robot is off the board", path, card_lines.line_number, 1
                )
            outcomes = memo.get(pose)
            if outcomes is None:
                outcomes = memo[pose] = _all_cards_from(board, level, pose)
            matches = [(card, result) for card, result, lines in outcomes if lines == card_lines.lines]
            if not matches:
                shown = " ".join(card_lines.lines) or "(no lines)"
                raise SequenceError(
                    f"round {r}, card {c + 1}: no card can write '{shown}' from {pose.to_bot_line()} "
                    f"on this board at level {level.value}",
                    path,
                    card_lines.line_number,
                    1,
                )
            matches.sort(key=lambda m: _blocked_count(m[1]))
            best = matches[0][1]
            step = CardStep(r, c, tuple(card for card, _ in matches), pose, best)
            steps.append(step)
            if on_step is not None:
                on_step(step)
            pose = best.pose
            if best.status is not RobotStatus.ALIVE:
                outcome = Outcome.DESTROYED if best.status is RobotStatus.DESTROYED else Outcome.FINISHED
                if c != len(round_cards) - 1 or r != len(sequence.rounds):
                    raise SequenceError(
                        f"round {r}, card {c + 1}: the game ended here but the file goes on",
                        path,
                        card_lines.line_number,
                        1,
                    )
                return Replay(board, level, start, tuple(steps), outcome, round_count)
        if len(round_cards) < CHOSEN_PER_ROUND:
            raise SequenceError(
                f"round {r} has only {len(round_cards)} cards but the game did not end in it",
                path,
                round_cards[-1].line_number,
                1,
            )
    return Replay(board, level, start, tuple(steps), outcome, round_count)


def load_replay(board: Board, level: Level, start: Pose, text: str, path: str | Path | None = None) -> Replay:
    """Parse and replay sequence text in one go."""
    return replay_sequence(board, level, start, parse_globalseq(text, path), path)


#: The order levels are tried in: the hardest level a sequence fits is the one it was most likely played at.
HARDEST_FIRST = (Level.HARD, Level.NORMAL, Level.EASY)


def fit_levels(
    board: Board,
    start: Pose,
    sequence: SequenceFile,
    path: str | Path | None = None,
    levels: Sequence[Level] = HARDEST_FIRST,
) -> list[Replay]:
    """THE level finder: the sequence replayed at each of ``levels`` it fits, in that order
    (hardest first by default). When it fits none, the InputError of the level at which it
    got furthest (ties: the earlier level in ``levels``), saying so when several were tried."""
    fits: list[Replay] = []
    errors: list[InputError] = []
    for level in levels:
        try:
            fits.append(replay_sequence(board, level, start, sequence, path))
        except InputError as error:
            errors.append(error)
    if fits:
        return fits
    if len(levels) == 1:
        raise errors[0]
    index = max(range(len(errors)), key=lambda i: (errors[i].line or 0, -i))
    best = errors[index]
    raise type(best)(
        f"{best.message} (fits no level; this error is for {levels[index].value})", best.path, best.line, best.column
    )
