"""Transition tables: every pose x card of one board and level, computed once with ``play_card``.

A pose is an int ``(y * width + x) * 4 + facing`` (facing in ``Direction`` order L R U D); two
absorbing terminal states follow the poses: ``dead`` (destroyed) and ``goal`` (finished). The
table ``next[card, state]`` is what ``engine.rules.play_card`` does to a robot in that state, so
planners and the oracle can simulate thousands of card sequences with numpy gathers instead of
calling the rules one card at a time. Tests check it against ``play_card`` on every pose.
"""

from __future__ import annotations

import functools
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from engine.ai.progress import report
from engine.ai.row_helper import RowHelper
from engine.cards import Card
from engine.events import RobotStatus
from engine.model import Board, Direction, Level, Pose
from engine.rules import cells_within_walls, play_card_outcomes

CARDS: tuple[Card, ...] = tuple(Card)
CARD_INDEX: dict[Card, int] = {card: i for i, card in enumerate(CARDS)}
DIRECTIONS: tuple[Direction, ...] = tuple(Direction)
DIRECTION_INDEX: dict[Direction, int] = {d: i for i, d in enumerate(DIRECTIONS)}

IntArray = npt.NDArray[np.int32]
BoolArray = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class TransitionTable:
    """``next[card, state]`` for one board and level, plus the pose <-> state mapping."""

    width: int
    height: int
    next: IntArray  # shape (7, states), int32
    occupiable: BoolArray  # per state: a live robot can be there between cards (see occupiable_states)
    #: Per state: its row was played (None: every row). Rows not played are self-loops; a table
    #: built from start poses plays exactly the poses reachable from them (``build_table``).
    built: BoolArray | None = None

    @property
    def poses(self) -> int:
        return self.width * self.height * 4

    @property
    def dead(self) -> int:
        return self.poses

    @property
    def goal(self) -> int:
        return self.poses + 1

    @property
    def states(self) -> int:
        return self.poses + 2

    def state_of(self, pose: Pose) -> int:
        return (pose.y * self.width + pose.x) * 4 + DIRECTION_INDEX[pose.facing]

    def pose_of(self, state: int) -> Pose:
        if not 0 <= state < self.poses:
            raise ValueError(f"state {state} is terminal, not a pose")
        cell, facing = divmod(state, 4)
        y, x = divmod(cell, self.width)
        return Pose(x, y, DIRECTIONS[facing])


def state_index(board: Board, pose: Pose) -> int:
    """The state of ``pose`` on ``board`` (``TransitionTable.state_of`` without a table)."""
    return (pose.y * board.width + pose.x) * 4 + DIRECTION_INDEX[pose.facing]


def build_table(board: Board, level: Level, starts: Sequence[int] | None = None) -> TransitionTable:
    """Play every card from every pose with the engine's rules and record where it ends.

    With ``starts`` (states), only the poses a robot can reach from them are played (the rest of
    the table are self-loops, ``built`` says which rows are real): on a big board where the start
    is walled into a small region that is all the planner ever needs, at a fraction of the time.
    """
    width, height = board.width, board.height
    poses = width * height * 4
    dead, goal = poses, poses + 1
    if starts is None:
        table = np.empty((len(CARDS), poses + 2), dtype=np.int32)
        table[:, dead] = dead
        table[:, goal] = goal
        last_first = functools.partial(range, poses - 1, -1, -1)  # the helper plays from the end
        player = functools.partial(_row, board, level, poses)
        with RowHelper(last_first, player, len(CARDS), poses + 2, wanted=poses > HELP_AFTER) as helper:
            for state in range(poses):
                if state % (4 * width) == 0:  # once per row of the board
                    report("building moves", state / poses)
                _play_row(board, level, table, state, helper)
        table.setflags(write=False)
        return TransitionTable(width, height, table, occupiable_states(board, level, table))
    report("building moves", 0.0)
    table = np.tile(np.arange(poses + 2, dtype=np.int32), (len(CARDS), 1))
    built = np.zeros(poses + 2, dtype=np.bool_)
    built[poses:] = True
    _play_reachable(board, level, table, built, starts)
    table.setflags(write=False)
    built.setflags(write=False)
    return TransitionTable(width, height, table, occupiable_states(board, level, table, built), built)


def extend_table(board: Board, level: Level, table: TransitionTable, starts: Sequence[int]) -> TransitionTable:
    """``table`` with the rows of every pose reachable from ``starts`` played (itself if they are)."""
    if table.built is None or all(table.built[s] for s in starts):
        return table
    nxt = table.next.copy()
    built = table.built.copy()
    _play_reachable(board, level, nxt, built, starts)
    nxt.setflags(write=False)
    built.setflags(write=False)
    return TransitionTable(table.width, table.height, nxt, occupiable_states(board, level, nxt, built), built)


#: Rows the search plays before it starts a helper (``row_helper``) on the other core: smaller
#: regions are done by then.
HELP_AFTER = 2048


def _play_reachable(board: Board, level: Level, table: IntArray, built: BoolArray, starts: Sequence[int]) -> None:
    """Play the rows of the poses reachable from ``starts`` that are not ``built`` yet (in place).

    A breadth-first search from the starts plays the rows it meets, nearest first. Once it has
    played ``HELP_AFTER`` rows, a helper process plays the rows of the poses on the cells a robot
    could reach at all (``rules.cells_within_walls``), farthest first, and the search takes every
    row the helper has finished instead of playing it (the same row: the same rules).
    """
    poses = table.shape[1] - 2
    frontier = deque(int(s) for s in starts if 0 <= s < poses)
    seen = set(frontier)
    done = 0
    helper: RowHelper | None = None
    try:
        while frontier:
            state = frontier.popleft()
            if built[state]:
                row = table[:, state].tolist()
            else:
                if helper is None and done == HELP_AFTER:
                    candidates = functools.partial(_far_first, board, level, {s // 4 for s in seen})
                    player = functools.partial(_row, board, level, poses)
                    helper = RowHelper(candidates, player, len(CARDS), poses + 2)
                row = _play_row(board, level, table, state, helper)
                built[state] = True
                done += 1
                if done % 4096 == 0:
                    report("building moves", min(done / poses, 0.99))
            for t in row:
                if t < poses and t not in seen:
                    seen.add(t)
                    frontier.append(t)
    finally:
        if helper is not None:
            helper.close()


def _far_first(board: Board, level: Level, cells: set[int]) -> list[int]:
    """The poses on the cells a robot from ``cells`` could reach, farthest first (the helper's order)."""
    near_first = cells_within_walls(board, level, cells)
    return [cell * 4 + facing for cell in reversed(near_first) for facing in range(4)]


def _play_row(board: Board, level: Level, table: IntArray, state: int, helper: RowHelper | None = None) -> list[int]:
    """Fill ``table[:, state]`` (where each card takes a robot at that pose); returns it as a list.

    ``helper``: take its row where it has played it already.
    """
    row = helper.ready(state) if helper is not None else None
    if row is None:
        row = _row(board, level, table.shape[1] - 2, state)
    table[:, state] = row
    return row


def _row(board: Board, level: Level, poses: int, state: int) -> list[int]:
    """Where each card takes a robot at pose ``state`` (dead and goal follow the ``poses`` poses)."""
    width = board.width
    dead, goal = poses, poses + 1
    cell, facing = divmod(state, 4)
    y, x = divmod(cell, width)
    row = []
    for to_x, to_y, to_facing, status in play_card_outcomes(board, level, Pose(x, y, DIRECTIONS[facing])):
        if status is RobotStatus.DESTROYED:
            row.append(dead)
        elif status is RobotStatus.FINISHED:
            row.append(goal)
        else:
            row.append((to_y * width + to_x) * 4 + DIRECTIONS.index(to_facing))  # no Enum.__hash__
    return row


def occupiable_states(board: Board, level: Level, table: IntArray, built: BoolArray | None = None) -> BoolArray:
    """States a live robot can be in between cards: live results of some card, or a start tile.

    Goals and holes never are; a crusher tile can be (a pusher may push a robot onto it after the
    crushers have acted), which is why this is read off the table instead of the tile kinds.
    With ``built``, only the rows played count.
    """
    poses = table.shape[1] - 2
    result = np.zeros(poses + 2, dtype=np.bool_)
    rows = table[:, :poses] if built is None else table[:, :poses][:, built[:poses]]
    targets = rows.ravel()
    result[targets[targets < poses]] = True
    for start in board.starts:
        result[(start.y * board.width + start.x) * 4 + DIRECTION_INDEX[start.facing]] = True
    result[poses:] = False
    result.setflags(write=False)
    return result


def cached_table(board: Board, level: Level) -> TransitionTable:
    """``build_table`` memoised on the board instance (boards are immutable)."""
    key = ("plan_table.build_table", level)
    cache = board.derived_cache
    found = cache.get(key)
    if not isinstance(found, TransitionTable):
        found = build_table(board, level)
        cache[key] = found
    return found


def cards_to_goal(table: TransitionTable) -> npt.NDArray[np.int64]:
    """Fewest cards from each state to a goal when any card may be played (-1: never).

    A backward breadth-first search over the table; the goal state is 0. A lower bound on what
    any hand allows, used to find hopeless poses and to start value iteration from below.
    """
    states = table.states
    distance = np.full(states, -1, dtype=np.int64)
    sources = np.repeat(np.arange(states, dtype=np.int64)[None, :], len(CARDS), axis=0).ravel()
    targets = table.next.astype(np.int64).ravel()
    alive = (sources < table.poses) & (targets != table.dead)
    sources, targets = sources[alive], targets[alive]
    order = np.argsort(targets, kind="stable")
    sources, targets = sources[order], targets[order]
    starts = np.searchsorted(targets, np.arange(states + 1))
    distance[table.goal] = 0
    queue: deque[int] = deque([table.goal])
    while queue:
        state = queue.popleft()
        for source in sources[starts[state] : starts[state + 1]]:
            if distance[source] < 0:
                distance[source] = distance[state] + 1
                queue.append(int(source))
    return distance
