"""The rules: one pure function plays one card and returns the events it caused.

The order inside a card follows the contest text and ``docs/rules.md``:
the card itself (with oil slides and doubled turns), then conveyors, then
pushers and crushers, then rotators. After every phase a destroyed robot or one
standing on a goal ends the card.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass

from engine.cards import Card
from engine.events import Cause, DeathReason, Event, EventKind, RobotStatus
from engine.model import Board, Direction, Level, Pose, Rotation, TileKind


@dataclass(frozen=True, slots=True)
class CardResult:
    """What playing one card did: the ordered events, the pose after it and the robot's status."""

    events: tuple[Event, ...]
    pose: Pose
    status: RobotStatus

    @property
    def sequence_lines(self) -> list[str]:
        """The card's lines in ``sequence.txt`` (X or Z last if the game ended)."""
        return [line for e in self.events if (line := e.sequence_line) is not None]


@dataclass(frozen=True, slots=True)
class _LevelView:
    """The board as the rules see it at one level: flat lists of kinds and wall bits."""

    width: int
    height: int
    kinds: tuple[TileKind, ...]
    walls: tuple[int, ...]
    directions: tuple[Direction | None, ...]
    edge_is_wall: bool


def level_view(board: Board, level: Level) -> _LevelView:
    """The cached per-level view of a board (computed once per board and level)."""
    cache = board.derived_cache
    key = ("rules.level_view", level)
    view = cache.get(key)
    if view is None:
        tiles = [t for row in board.rows for t in row]
        view = _LevelView(
            board.width,
            board.height,
            tuple(t.rule_kind(level) for t in tiles),
            tuple(t.rule_walls(level) for t in tiles),
            tuple(t.direction for t in tiles),
            level.edge_is_wall,
        )
        cache[key] = view
    assert isinstance(view, _LevelView)
    return view


class _Robot:
    """Mutable scratch state used while one card is played; never escapes ``play_card``."""

    __slots__ = ("events", "facing", "status", "view", "x", "y")

    def __init__(self, view: _LevelView, pose: Pose, record: bool = True) -> None:
        self.view = view
        self.x = pose.x
        self.y = pose.y
        self.facing = pose.facing
        self.status = RobotStatus.ALIVE
        #: None when only the outcome is wanted (``play_card_outcome``): no events are built.
        self.events: list[Event] | None = [] if record else None

    @property
    def pose(self) -> Pose:
        return Pose(self.x, self.y, self.facing)

    def index(self) -> int:
        return self.y * self.view.width + self.x

    def kind_here(self) -> TileKind:
        view = self.view
        return view.kinds[self.y * view.width + self.x]

    def emit(self, kind: EventKind, cause: Cause, **details: object) -> None:
        if self.events is not None:
            self.events.append(Event(kind, cause, self.pose, **details))  # type: ignore[arg-type]

    def step(self, direction: Direction, cause: Cause) -> bool:
        """One step (then any oil slide). Returns False if the first step was blocked."""
        if not self._one_step(direction, cause, EventKind.MOVE):
            return False
        kinds, width = self.view.kinds, self.view.width
        while self.status is RobotStatus.ALIVE and kinds[self.y * width + self.x] is TileKind.OIL:
            if not self._one_step(direction, cause, EventKind.SLIDE):
                break
        return True

    def _one_step(self, direction: Direction, cause: Cause, kind: EventKind) -> bool:
        # The hottest code of the transition tables: index and event checks written out.
        view = self.view
        if view.walls[self.y * view.width + self.x] & direction.wall_bit:
            self.emit(EventKind.BLOCKED, cause, direction=direction)
            return False
        nx, ny = self.x + direction.dx, self.y + direction.dy
        if not (0 <= nx < view.width and 0 <= ny < view.height):
            if view.edge_is_wall:
                self.emit(EventKind.BLOCKED, cause, direction=direction)
                return False
            self.x, self.y = nx, ny
            self.emit(kind, cause, direction=direction)
            self._destroy(cause, DeathReason.EDGE)
            return True
        target = ny * view.width + nx
        if view.walls[target] & direction.opposite.wall_bit:
            self.emit(EventKind.BLOCKED, cause, direction=direction)
            return False
        self.x, self.y = nx, ny
        if self.events is not None:
            self.emit(kind, cause, direction=direction)
        if view.kinds[target] is TileKind.HOLE:
            self._destroy(cause, DeathReason.HOLE)
        return True

    def turn(self, rotation: Rotation, cause: Cause) -> None:
        self.facing = self.facing.rotate(rotation)
        self.emit(EventKind.TURN, cause, rotation=rotation)

    def _destroy(self, cause: Cause, reason: DeathReason) -> None:
        self.status = RobotStatus.DESTROYED
        self.emit(EventKind.DESTROYED, cause, reason=reason)

    def game_over(self, cause: Cause) -> bool:
        """The check made between steps and phases: destroyed, or standing on a goal."""
        if self.status is RobotStatus.DESTROYED:
            return True
        view = self.view
        if view.kinds[self.y * view.width + self.x] is TileKind.GOAL:
            self.status = RobotStatus.FINISHED
            self.emit(EventKind.GOAL, cause)
            return True
        return False


def play_card(board: Board, level: Level, pose: Pose, card: Card) -> CardResult:
    """Play ``card`` for a robot at ``pose`` and let the board act; pure, returns the events.

    The robot must be alive and on the board when the card starts.
    """
    robot = _played(board, level, pose, card, record=True)
    assert robot.events is not None
    return CardResult(tuple(robot.events), robot.pose, robot.status)


def play_card_outcome(board: Board, level: Level, pose: Pose, card: Card) -> tuple[Pose, RobotStatus]:
    """``play_card``'s pose and status without building its events: the same rules, same code path.

    For callers that play every card from every pose (the planner's transition tables), where
    building the events was a third of the time.
    """
    robot = _played(board, level, pose, card, record=False)
    return robot.pose, robot.status


def play_card_outcomes(board: Board, level: Level, pose: Pose) -> list[tuple[int, int, Direction, RobotStatus]]:
    """``play_card_outcome`` of every card (in ``Card`` order) from one pose, as (x, y, facing,
    status): the transition tables' row, with the board's level view looked up once instead of
    seven times and no ``Pose`` built per card."""
    view = level_view(board, level)
    results = []
    for card in _CARDS:
        robot = _played_in(view, pose, card, record=False)
        results.append((robot.x, robot.y, robot.facing, robot.status))
    return results


def cells_within_walls(board: Board, level: Level, cells: Iterable[int]) -> list[int]:
    """The cells (``y * width + x``) a live robot starting on ``cells`` could ever stand on, nearest
    first (in steps): a bound from above, not the exact set.

    Every move of a robot, whatever makes it (a card, a slide, a belt, a pusher), is one step to
    a neighbouring cell through no wall, and a step onto a hole, a goal or off the board ends the
    robot's moves. So the cells joined to ``cells`` by such steps, holes and goals left out, hold
    every live pose that playing the cards can reach (``plan_table``'s helper plays rows from the
    far end of them while the search plays from the near end).
    """
    view = level_view(board, level)
    width, height = view.width, view.height
    stops = (TileKind.HOLE, TileKind.GOAL)
    found = [False] * (width * height)
    queue: deque[int] = deque()
    for cell in cells:
        if 0 <= cell < width * height and not found[cell]:
            found[cell] = True
            queue.append(cell)
    steps = [(d.dx, d.dy, d.wall_bit, d.opposite.wall_bit) for d in Direction]
    result = []
    while queue:
        cell = queue.popleft()
        if view.kinds[cell] in stops:
            continue  # a robot never stands there alive
        result.append(cell)
        y, x = divmod(cell, width)
        for dx, dy, bit, opposite in steps:
            nx, ny = x + dx, y + dy
            if not (0 <= nx < width and 0 <= ny < height) or view.walls[cell] & bit:
                continue
            target = ny * width + nx
            if not found[target] and not view.walls[target] & opposite:
                found[target] = True
                queue.append(target)
    return result


#: ``Card`` in order as a tuple: iterating the enum itself builds a generator each time.
_CARDS = tuple(Card)


def _played(board: Board, level: Level, pose: Pose, card: Card, *, record: bool) -> _Robot:
    return _played_in(level_view(board, level), pose, card, record=record)


def _played_in(view: _LevelView, pose: Pose, card: Card, *, record: bool) -> _Robot:
    if not (0 <= pose.x < view.width and 0 <= pose.y < view.height):
        raise ValueError(f"pose {pose.to_bot_line()} is off the {view.width}x{view.height} board")
    robot = _Robot(view, pose, record)
    if not _card_phase(robot, card):
        _board_phases(robot)
    return robot


def _card_phase(robot: _Robot, card: Card) -> bool:
    """Play the card itself; True if the game ended during it (or right after it)."""
    steps = card.steps_forward
    if steps:
        for step_number in range(steps):
            if step_number and robot.game_over(Cause.CARD):
                return True
            if not robot.step(robot.facing, Cause.CARD):
                break  # a blocked step leaves the robot where it was: the next one is blocked too
    elif card is Card.MB:
        robot.step(robot.facing.opposite, Cause.CARD)
    else:
        rotation = card.rotation
        assert rotation is not None
        robot.turn(rotation, Cause.CARD)
        if robot.kind_here() is TileKind.OIL:
            robot.turn(rotation, Cause.CARD)
    return robot.game_over(Cause.CARD)


def _board_phases(robot: _Robot) -> None:
    """Conveyors, then pushers and crushers, then rotators; each stops on destruction or goal."""
    view = robot.view
    kind = robot.kind_here()
    # 1. Conveyors.
    if kind is TileKind.CONVEYOR:
        belt = view.directions[robot.index()]
        assert belt is not None
        moved = robot.step(belt, Cause.CONVEYOR)
        if moved and robot.status is RobotStatus.ALIVE and robot.kind_here() is TileKind.CONVEYOR:
            # Carried onto another belt: turn by the angle between this step and that belt.
            new_belt = view.directions[robot.index()]
            if new_belt is belt.turned(-1):
                robot.turn(Rotation.LEFT, Cause.CONVEYOR)
            elif new_belt is belt.turned(1):
                robot.turn(Rotation.RIGHT, Cause.CONVEYOR)
        if robot.game_over(Cause.CONVEYOR):
            return
        kind = robot.kind_here()
    # 2. Pushers and crushers.
    if kind is TileKind.PUSHER:
        push = view.directions[robot.index()]
        assert push is not None
        robot.step(push, Cause.PUSHER)
        if robot.game_over(Cause.PUSHER):
            return
        kind = robot.kind_here()
    elif kind is TileKind.CRUSHER:
        robot._destroy(Cause.CRUSHER, DeathReason.CRUSHER)
        return
    # 3. Rotators (``kind`` is the tile the robot stands on now).
    if kind is TileKind.ROTATOR_LEFT:
        robot.turn(Rotation.LEFT, Cause.ROTATOR)
    elif kind is TileKind.ROTATOR_RIGHT:
        robot.turn(Rotation.RIGHT, Cause.ROTATOR)
