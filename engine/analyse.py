"""``robots-engine analyse GAMEDIR``: each round of a played game against the best choice.

For every round of the round record (``rounds.jsonl``) it asks the planner's no-foresight
optimum (``engine.ai.planner``: the best goal probability any AI that cannot see future hands
can reach, then the least expected rounds of the won games) for every ordered 5-card choice of
that round's hand from that round's pose, and compares the AI's choice with the best one, in the
contest's order: goal probability first, then expected rounds.  A round is *lossy* when the AI's
choice has a lower goal probability (by at least the planner's tolerance ``EPS``) or, at the same
goal probability, more expected rounds.  The findings are written to ``analysis.json`` in the
game folder, where the viewer picks them up (the best choice as a ghost robot, lossy rounds
marked on the timeline).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.ai.plan_choice import goal_tier
from engine.ai.planner import Choice, plan_for
from engine.atomic import write_text_atomic
from engine.bounds import cut
from engine.cards import Card
from engine.errors import InputError
from engine.gamedir import ANALYSIS_FILE, read_game_dir
from engine.jsonplace import JsonSource, dotted
from engine.roundlog import ROUNDS_FILE, read_rounds
from engine.wording import counted

ANALYSIS_FORMAT = 1
#: Expected rounds closer than this count as equal.
ROUNDS_TOLERANCE = 1e-6

Keys = tuple[str | int, ...]


@dataclass(frozen=True)
class RoundVerdict:
    """One round: the AI's choice and the best one, with what the optimum expects after each."""

    number: int
    chosen: Choice | None  # None: the AI chose nothing usable (an AI error)
    best: Choice

    @property
    def goal_loss(self) -> float:
        """Goal probability given away this round (0 when none)."""
        return max(0.0, self.best.goal_probability - self.chosen.goal_probability) if self.chosen else 0.0

    @property
    def rounds_loss(self) -> float:
        """Expected rounds added at an equal goal probability (0 when none, or when it cannot win)."""
        if self.chosen is None or self.lost_goal:
            return 0.0
        a, b = self.chosen.expected_rounds, self.best.expected_rounds
        if math.isinf(a) and math.isinf(b):
            return 0.0
        return max(0.0, a - b)

    @property
    def lost_goal(self) -> bool:
        return self.chosen is not None and goal_tier(self.chosen.goal_probability) < goal_tier(
            self.best.goal_probability
        )

    @property
    def lossy(self) -> bool:
        return self.chosen is not None and (self.lost_goal or self.rounds_loss > ROUNDS_TOLERANCE)

    def loss_text(self) -> str:
        if self.chosen is None:
            return "no choice (AI error)"
        if self.lost_goal:
            points = 100 * self.goal_loss
            return f"goal -{points:.2f} pp" if points >= 0.01 else f"goal -{points:.1e} pp"
        if self.rounds_loss > ROUNDS_TOLERANCE:
            return f"rounds +{self.rounds_loss:.2f}" if not math.isinf(self.rounds_loss) else "rounds +inf"
        return "-"


def _choice_json(choice: Choice | None) -> dict[str, Any] | None:
    if choice is None:
        return None
    rounds = choice.expected_rounds
    return {
        "cards": [c.value for c in choice.cards],
        "goal_probability": choice.goal_probability,
        "expected_rounds": None if math.isinf(rounds) else rounds,
        "destroyed": choice.destroyed,
        "reaches_goal": choice.reaches_goal,
    }


def analyse_game(folder: str | Path) -> list[RoundVerdict]:
    """Every round of the game in ``folder`` that has a hand, judged against the best choice."""
    game = read_game_dir(folder)
    entries = read_rounds(game.path, game.board.width, game.board.height)
    if entries is None:
        raise InputError("this game folder has no round record (rounds.jsonl): play it again to analyse it", game.path)
    if not entries:  # an emptied file: "no lossy round (0 rounds)" judged a game that was not there
        raise InputError("the round record holds no round: play the game again to analyse it", game.path / ROUNDS_FILE)
    plan = plan_for(game.board, game.level)
    verdicts = []
    for entry in entries:
        ranked = plan.rank(entry.before, entry.hand)
        by_cards: dict[tuple[Card, ...], Choice] = {choice.cards: choice for choice in ranked}
        chosen = by_cards.get(tuple(entry.chosen)) if entry.chosen is not None else None
        verdicts.append(RoundVerdict(entry.number, chosen, ranked[0]))
    return verdicts


def analysis_json(verdicts: list[RoundVerdict]) -> dict[str, Any]:
    return {
        "format": ANALYSIS_FORMAT,
        "yardstick": "no-foresight optimum (engine.ai.planner): goal probability first, then expected rounds",
        "lossy_rounds": [v.number for v in verdicts if v.lossy],
        "rounds": [
            {
                "round": v.number,
                "chosen": _choice_json(v.chosen),
                "best": _choice_json(v.best),
                "lossy": v.lossy,
                "goal_loss": v.goal_loss,
                "rounds_loss": None if math.isinf(v.rounds_loss) else v.rounds_loss,
            }
            for v in verdicts
        ],
    }


def format_analysis(verdicts: list[RoundVerdict]) -> str:
    """The text of ``analysis.json`` (the writer paired with ``parse_analysis``)."""
    return json.dumps(analysis_json(verdicts), indent=1) + "\n"


def write_analysis(folder: str | Path, verdicts: list[RoundVerdict]) -> Path:
    path = Path(folder) / ANALYSIS_FILE
    write_text_atomic(path, format_analysis(verdicts))
    return path


def _number(value: Any, source: JsonSource, keys: Keys, *, infinite: bool = False) -> float:
    """A JSON number (null: infinity where ``infinite``) at least 0; InputError at its place otherwise."""
    if value is None and infinite:
        return math.inf
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value < math.inf:
        raise source.error(f"{dotted(keys)} must be a number at least 0, not {cut(json.dumps(value), 30)}", keys)
    return float(value)


def _choice_from_json(value: Any, source: JsonSource, keys: Keys) -> Choice:
    what = dotted(keys)
    if not isinstance(value, dict):
        raise source.error(f"{what} must be an object with 'cards', 'goal_probability', ...", keys)
    cards = value.get("cards")
    if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
        raise source.error(f"{what}.cards must be a list of cards", (*keys, "cards"))
    parsed: list[Card] = []
    for index, card in enumerate(cards):
        try:
            parsed.append(Card.parse(card))
        except ValueError as exc:
            raise source.error(f"{what}.cards: {exc}", (*keys, "cards", index)) from None
    destroyed, reaches_goal = value.get("destroyed"), value.get("reaches_goal")
    if not (isinstance(destroyed, bool) and isinstance(reaches_goal, bool)):
        wrong = "destroyed" if not isinstance(destroyed, bool) else "reaches_goal"
        raise source.error(f"{what}: 'destroyed' and 'reaches_goal' must be true or false", (*keys, wrong))
    goal = _number(value.get("goal_probability"), source, (*keys, "goal_probability"))
    if goal > 1:
        raise source.error(f"{what}.goal_probability must be at most 1, not {goal:g}", (*keys, "goal_probability"))
    rounds = _number(value.get("expected_rounds"), source, (*keys, "expected_rounds"), infinite=True)
    return Choice(tuple(parsed), goal, rounds, destroyed, reaches_goal)


def parse_analysis(
    text: str, path: str | Path | None = None, skip: Callable[[InputError], None] | None = None
) -> list[RoundVerdict]:
    """Read ``analysis.json`` back into the verdicts it was written from; what each says (lossy,
    the loss) is worked out again by ``RoundVerdict``, the one place that judges a round.
    InputError, one line naming the file, line and column (and the round), for anything
    ``format_analysis`` never writes; with ``skip``, a round it cannot use is handed to it and left
    out instead (the viewer shows the others)."""
    source = JsonSource(text, path)
    data = source.object_of_format(ANALYSIS_FORMAT)
    items = data.get("rounds")
    if not isinstance(items, list):
        raise source.error("'rounds' must be a list", ("rounds",))
    verdicts: list[RoundVerdict] = []
    for index, item in enumerate(items):
        try:
            verdicts.append(_verdict_from_json(item, source, ("rounds", index)))
        except InputError as error:
            if skip is None:
                raise
            skip(error)
    return verdicts


def _verdict_from_json(item: Any, source: JsonSource, keys: Keys) -> RoundVerdict:
    number = item.get("round") if isinstance(item, dict) else None
    if type(number) is not int or number < 1:
        raise source.error(f"{dotted(keys)} must be an object with a 'round' number from 1", (*keys, "round"))
    chosen = item.get("chosen")
    return RoundVerdict(
        number,
        _choice_from_json(chosen, source, (*keys, "chosen")) if chosen is not None else None,
        _choice_from_json(item.get("best"), source, (*keys, "best")),
    )


def _value(choice: Choice | None) -> str:
    if choice is None:
        return f"{'-':>7} {'-':>7}"
    rounds = "-" if math.isinf(choice.expected_rounds) else f"{choice.expected_rounds:.2f}"
    return f"{100 * choice.goal_probability:7.2f} {rounds:>7}"


def format_verdicts(verdicts: list[RoundVerdict]) -> str:
    """The table ``analyse`` prints: per round the AI's cards and the best, both values, the loss."""
    width = 28
    head = (
        f"{'round':>5}  {'AI chose':<{width}} {'goal %':>7} {'rounds':>7}   {'best choice':<{width}} "
        f"{'goal %':>7} {'rounds':>7}   loss"
    )
    lines = [head, "-" * (len(head) + 10)]
    for v in verdicts:
        chosen = ", ".join(c.value for c in v.chosen.cards) if v.chosen else "(none)"
        best = ", ".join(c.value for c in v.best.cards) if v.lossy or v.chosen is None else "(the same value)"
        lines.append(
            f"{v.number:>5}  {chosen:<{width}} {_value(v.chosen)}   {best:<{width}} {_value(v.best)}   {v.loss_text()}"
        )
    lossy = [v.number for v in verdicts if v.lossy]
    if lossy:
        lines.append(f"lossy rounds: {', '.join(map(str, lossy))} ({len(lossy)} of {len(verdicts)})")
    else:
        lines.append(f"no lossy round: every choice was as good as the best ({counted(len(verdicts), 'round')})")
    return "\n".join(lines) + "\n"
