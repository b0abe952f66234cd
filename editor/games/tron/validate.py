"""What is wrong with an arena, and how much room each bot gets.

Errors keep a game from starting (a start on a blocked field, too few starts for two bots without
start lines); warnings are legal but probably unintended (a bot walled in, bots that can never meet);
the reachable space per bot is always reported, since it decides most games.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.tron.arena import Arena


@dataclass(frozen=True)
class Problem:
    level: str  # "error", "warning" or "info"
    message: str


def reachable(arena: Arena, x: int, y: int, blocked: set[tuple[int, int]]) -> set[tuple[int, int]]:
    """The free fields a cycle on x,y can reach (4-neighbours), its own field excluded."""
    seen: set[tuple[int, int]] = set()
    stack = [(x, y)]
    while stack:
        cx, cy = stack.pop()
        for nx, ny in ((cx + 1, cy), (cx - 1, cy), (cx, cy + 1), (cx, cy - 1)):
            if (nx, ny) in seen or (nx, ny) in blocked or not arena.inside(nx, ny) or arena.is_blocked(nx, ny):
                continue
            seen.add((nx, ny))
            stack.append((nx, ny))
    return seen


def validate(arena: Arena) -> list[Problem]:
    problems: list[Problem] = []
    for bot, start in enumerate(arena.starts, 1):
        if arena.is_blocked(start.x, start.y):
            problems.append(Problem("error", f"bot {bot} starts on the blocked field {start.x},{start.y}"))
    if any(p.level == "error" for p in problems):
        return problems
    try:
        starts = arena.starts_for(arena.default_bots)
    except ValueError as exc:
        return [Problem("error", f"cannot start a game of two: {exc}")]
    if arena.default_bots == 1:
        problems.append(Problem("warning", "one start line: only a one-bot (space-filling) game can be played"))
    if not arena.starts:
        problems.append(Problem("info", "no start lines: two bots start on the contest's default fields"))
    heads = {(s.x, s.y) for s in starts}
    regions = []
    for bot, start in enumerate(starts, 1):
        region = reachable(arena, start.x, start.y, heads)
        regions.append(region)
        if not region:
            problems.append(Problem("warning", f"bot {bot} is walled in: it is out in round 1"))
        problems.append(
            Problem("info", f"bot {bot} at {start.x},{start.y} {start.heading.name}: {len(region)} fields reachable")
        )
    for a in range(len(regions)):
        for b in range(a + 1, len(regions)):
            if regions[a] and regions[b] and not (regions[a] & regions[b]):
                problems.append(Problem("warning", f"bots {a + 1} and {b + 1} can never meet (separate regions)"))
    return problems
