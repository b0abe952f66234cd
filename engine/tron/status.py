"""Is an arena playable, and how much room does each bot get? The arena checks every front end shows.

Errors keep a game from starting (a start on a blocked field, too few starts for a game of two
without start lines); warnings are legal but probably unintended (a bot walled in, bots that can
never meet); the reachable space per bot is always reported, since it decides most games. Every
problem names the fields it concerns (1-based, as in the arena file), so an editor can mark them.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.tron.arena import Arena, Start

ERROR, WARNING, INFO = "error", "warning", "info"
Field = tuple[int, int]


@dataclass(frozen=True)
class ArenaProblem:
    """One finding: ``severity`` is ``error``, ``warning`` or ``info``; ``fields`` are 1-based."""

    severity: str
    message: str
    fields: tuple[Field, ...] = ()


def reachable(arena: Arena, x: int, y: int, heads: set[Field]) -> set[Field]:
    """The free fields a cycle on x,y can reach (4-neighbours), its own field and other heads excluded."""
    seen: set[Field] = set()
    stack = [(x, y)]
    while stack:
        cx, cy = stack.pop()
        for nx, ny in ((cx + 1, cy), (cx - 1, cy), (cx, cy + 1), (cx, cy - 1)):
            if (nx, ny) in seen or (nx, ny) in heads or not arena.inside(nx, ny) or arena.is_blocked(nx, ny):
                continue
            seen.add((nx, ny))
            stack.append((nx, ny))
    return seen


def _game_starts(arena: Arena) -> tuple[tuple[Start, ...], list[ArenaProblem]]:
    """The starts a default game uses, or the error that keeps it from starting."""
    blocked = [
        ArenaProblem(ERROR, f"bot {bot} starts on the blocked field {s.x},{s.y}", ((s.x, s.y),))
        for bot, s in enumerate(arena.starts, 1)
        if arena.is_blocked(s.x, s.y)
    ]
    if blocked:
        return (), blocked
    try:
        return arena.starts_for(arena.default_bots), []
    except ValueError as exc:
        return (), [ArenaProblem(ERROR, f"cannot start a game of two: {exc}")]


def arena_problems(arena: Arena) -> list[ArenaProblem]:
    """Every finding about ``arena``, errors first."""
    starts, errors = _game_starts(arena)
    if errors:
        return errors
    problems: list[ArenaProblem] = []
    if arena.default_bots == 1:
        first = arena.starts[0]
        problems.append(
            ArenaProblem(
                WARNING, "one start line: only a one-bot (space-filling) game can be played", ((first.x, first.y),)
            )
        )
    if not arena.starts:
        fields = tuple((s.x, s.y) for s in starts)
        problems.append(ArenaProblem(INFO, "no start lines: two bots start on the contest's default fields", fields))
    heads = {(s.x, s.y) for s in starts}
    regions = []
    for bot, start in enumerate(starts, 1):
        region = reachable(arena, start.x, start.y, heads)
        regions.append(region)
        where = ((start.x, start.y),)
        if not region:
            problems.append(ArenaProblem(WARNING, f"bot {bot} is walled in: it is out in round 1", where))
        problems.append(
            ArenaProblem(INFO, f"bot {bot} at {start.x},{start.y} {start.heading.name}: {len(region)} fields reachable")
        )
    for a in range(len(regions)):
        for b in range(a + 1, len(regions)):
            if regions[a] and regions[b] and not (regions[a] & regions[b]):
                fields = ((starts[a].x, starts[a].y), (starts[b].x, starts[b].y))
                problems.append(
                    ArenaProblem(WARNING, f"bots {a + 1} and {b + 1} can never meet (separate regions)", fields)
                )
    order = {ERROR: 0, WARNING: 1, INFO: 2}
    return sorted(problems, key=lambda p: order[p.severity])
