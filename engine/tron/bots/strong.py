"""The strong Tron bot: territory while the cycles can meet, space filling once they cannot.

* **Contact** (the opponent's head can be reached): alpha-beta search over rounds (my move, then the
  opponent's; both moving onto one field is a draw, as in the rules), iterative deepening until the
  time budget is spent, leaves scored by a Voronoi partition: fields I reach strictly first minus
  fields the opponent reaches first (the root's candidates over the whole board, the leaves within
  ``VORONOI_LEVELS`` of the heads).  When the partition shows the regions no longer touch, the
  difference of reachable space decides, weighted far above any territory count.  Far apart, one ply
  of whole-board Voronoi is enough and much cheaper.
* **Separated** (no opponent can ever reach me again, which stays true for the rest of the game):
  fill my region.  Each move keeps the largest piece of space: a candidate field that is no
  articulation point of the free space (its free neighbours stay connected around it, checked on
  the 3x3 ring first) loses nothing; one that is an articulation point splits the space, and a race
  of breadth-first searches from the pieces (stopping as soon as only the biggest is still growing)
  says how much is lost.  Ties go to the field with more blocked neighbours (hugging walls leaves
  no holes).
"""

from __future__ import annotations

import time

from engine.tron.bots.client import View

DEFAULT_BUDGET = 0.3
WIN = 10**9
#: Beyond this distance the opponent's replies cannot matter within a few rounds: one ply suffices.
FAR = 16
#: Voronoi levels explored per evaluation: the territory near the heads is what a fight decides.
VORONOI_LEVELS = 60
_ANSWERS = ("AHEAD", "LEFT", "RIGHT")
#: A head-on collision is a draw (1 point each); opponents are rarely perfect, so a draw is valued
#: below a slightly worse territory: the bot does not seek a draw while the game is still open.
COLLISION = -40


class _Timeout(Exception):
    pass


class StrongBot:
    """A chooser: ``bot(view) -> 'LEFT' | 'RIGHT' | 'AHEAD'``; keeps whether it is separated."""

    def __init__(self, budget: float = DEFAULT_BUDGET, max_depth: int = 60) -> None:
        self.budget = budget
        self.max_depth = max_depth  # tests fix it (with a generous budget) for reproducible play
        self.separated = False
        self.depth_reached = 0

    def __call__(self, view: View) -> str:
        deadline = time.monotonic() + self.budget
        me = view.heads[view.me][0]
        legal = [(a, view.move_target(a)) for a in _ANSWERS]
        legal = [(a, c) for a, c in legal if view.free[c]]
        if not legal:
            return "AHEAD"
        opponents = {cell for bot, (cell, _) in view.heads.items() if bot != view.me}
        if not self.separated:
            found = nearest_head(view.free, view.offsets, me, opponents)
            if found is None:
                self.separated = True
            else:
                opp, distance = found
                if len(legal) == 1:
                    return legal[0][0]
                return self._fight(view, me, opp, distance, legal, deadline)
        if len(legal) == 1:
            return legal[0][0]
        return fill_move(view, me, legal)

    @staticmethod
    def _root_scores(
        free: bytearray,
        offsets: tuple[int, ...],
        legal: list[tuple[str, int]],
        opp: int,
        levels: int,
        deadline: float | None = None,
    ) -> list[tuple[int, int, str, int]] | None:
        """(Voronoi value, walls around, answer, field) per candidate; None when ``deadline`` passes first."""
        scored = []
        for answer, cell in legal:
            if deadline is not None and time.monotonic() > deadline:
                return None
            free[cell] = 0
            value = voronoi(free, offsets, cell, opp, levels=levels)
            free[cell] = 1
            scored.append((value, _walls(free, offsets, cell), answer, cell))
        return scored

    def _fight(
        self, view: View, me: int, opp: int, distance: int, legal: list[tuple[str, int]], deadline: float
    ) -> str:
        free, offsets = view.free, view.offsets
        scored = self._root_scores(free, offsets, legal, opp, VORONOI_LEVELS)
        assert scored is not None  # no deadline: always complete
        # The root should see all the territory (the near part misjudges huge open arenas): whole-board
        # scores replace the near ones when they fit in half the budget (~60 ms each on 200x200).
        started = time.monotonic()
        half = started + (deadline - started) / 2
        whole = self._root_scores(free, offsets, legal, opp, len(free), half)
        if whole is not None:
            scored = whole
        scored.sort(key=lambda s: (-s[0], -s[1]))
        best = scored[0][2]
        if distance > FAR:
            return best
        order = [cell for _, _, _, cell in scored]
        names = {cell: answer for answer, cell in legal}
        depth = 1
        self.depth_reached = 0
        while depth <= self.max_depth:
            scratch = bytearray(free)  # a timeout unwinds mid-search: never search on the view itself
            values: dict[int, int] = {}
            try:
                for cell in order:
                    scratch[cell] = 0
                    values[cell] = _min_node(scratch, offsets, cell, opp, depth, -WIN * 2, WIN * 2, deadline)
                    scratch[cell] = 1
            except _Timeout:
                break
            order.sort(key=lambda c: -values[c])
            best = names[order[0]]
            self.depth_reached = depth
            if abs(values[order[0]]) >= WIN // 2:
                break  # the outcome is decided either way
            depth += 1
        return best


def _walls(free: bytearray, offsets: tuple[int, ...], cell: int) -> int:
    return sum(1 for o in offsets if not free[cell + o])


def _min_node(
    free: bytearray, offsets: tuple[int, ...], me: int, opp: int, depth: int, alpha: int, beta: int, deadline: float
) -> int:
    """I have just moved onto ``me`` (already blocked); the opponent at ``opp`` replies."""
    if time.monotonic() > deadline:
        raise _Timeout
    replies = [opp + o for o in offsets if free[opp + o] or opp + o == me]
    if not replies:
        return WIN + depth  # the opponent crashes this round, I do not
    worst = WIN * 2
    for reply in replies:
        if reply == me:
            value = COLLISION  # both drive onto one field: both out in the same round, a draw
        else:
            free[reply] = 0
            value = _max_node(free, offsets, me, reply, depth - 1, alpha, min(beta, worst), deadline)
            free[reply] = 1
        worst = min(worst, value)
        if worst <= alpha:
            break
    return worst


def _max_node(
    free: bytearray, offsets: tuple[int, ...], me: int, opp: int, depth: int, alpha: int, beta: int, deadline: float
) -> int:
    moves = [me + o for o in offsets if free[me + o]]
    if not moves:
        opp_can = any(free[opp + o] for o in offsets)
        return -(WIN + depth) if opp_can else 0
    if depth <= 0:
        return voronoi(free, offsets, me, opp)
    best = -WIN * 2
    for move in moves:
        free[move] = 0
        value = _min_node(free, offsets, move, opp, depth, max(alpha, best), beta, deadline)
        free[move] = 1
        best = max(best, value)
        if best >= beta:
            break
    return best


def voronoi(free: bytearray, offsets: tuple[int, ...], a: int, b: int, levels: int = VORONOI_LEVELS) -> int:
    """Fields ``a`` reaches strictly before ``b`` minus the reverse (both heads blocked), within ``levels``.

    When the two regions do not touch and the smaller one is known to be smaller (its search ran dry
    within ``levels``), the game is decided by space: the difference is scaled far above any territory
    count (but below a sure win).
    """
    owner = bytearray(len(free))  # 0 free, 1 a's, 2 b's, 3 tie, 4 a's in the level being built
    owner[a], owner[b] = 1, 2
    fa, fb = [a], [b]
    count_a = count_b = 0
    contact = False
    level = 0
    while (fa or fb) and level < levels:
        level += 1
        new_a = []
        for c in fa:
            for o in offsets:
                d = c + o
                if free[d]:
                    w = owner[d]
                    if not w:
                        owner[d] = 4
                        new_a.append(d)
                    elif w == 2 or w == 3:
                        contact = True
        new_b = []
        for c in fb:
            for o in offsets:
                d = c + o
                if free[d]:
                    w = owner[d]
                    if not w:
                        owner[d] = 2
                        new_b.append(d)
                    elif w == 4:
                        owner[d] = 3
                        contact = True
                    elif w == 1 or w == 3:
                        contact = True
        fa = []
        for d in new_a:
            if owner[d] == 4:
                owner[d] = 1
                fa.append(d)
        fb = new_b
        count_a += len(fa)
        count_b += len(fb)
        if not contact and ((not fa and count_a <= count_b) or (not fb and count_b <= count_a)):
            break  # sealed apart and the smaller side is known: nothing more to learn
    # Sealed apart: a side whose search ran dry knows its whole space.  If the smaller side is
    # known to be smaller, the fight is over: weigh it like a decided game (but below a sure win).
    if not contact and ((not fa and not fb) or (not fa and count_a <= count_b) or (not fb and count_b <= count_a)):
        return (count_a - count_b) * 10000
    return count_a - count_b


def nearest_head(free: bytearray, offsets: tuple[int, ...], start: int, heads: set[int]) -> tuple[int, int] | None:
    """The first of ``heads`` (blocked fields) next to a free field reachable from ``start``, and its distance."""
    if not heads:
        return None
    seen = bytearray(len(free))
    seen[start] = 1
    frontier = [start]
    distance = 0
    while frontier:
        distance += 1
        nxt = []
        for c in frontier:
            for o in offsets:
                d = c + o
                if d in heads:
                    return d, distance
                if free[d] and not seen[d]:
                    seen[d] = 1
                    nxt.append(d)
        frontier = nxt
    return None


def _ring_connected(free: bytearray, stride: int, cell: int) -> bool:
    """Whether the free 4-neighbours of ``cell`` are connected through the free fields of its 3x3 ring.

    True proves ``cell`` is no articulation point of the free space (blocking it splits nothing).
    """
    ring = (-stride, -stride + 1, 1, stride + 1, stride, stride - 1, -1, -stride - 1)  # N NE E SE S SW W NW
    free_ring = [bool(free[cell + o]) for o in ring]
    start = next((k for k in range(8) if not free_ring[k]), None)
    if start is None:
        return True
    runs_with_neighbour = 0
    in_run = has_neighbour = False
    for step in range(1, 9):  # walk the ring from a blocked field: runs are maximal free stretches
        k = (start + step) % 8
        if free_ring[k]:
            in_run = True
            has_neighbour = has_neighbour or k % 2 == 0
        elif in_run:
            runs_with_neighbour += has_neighbour
            in_run = has_neighbour = False
    return runs_with_neighbour <= 1


def race(free: bytearray, offsets: tuple[int, ...], seeds: list[int]) -> list[tuple[int, int, bool]]:
    """For each seed: (piece id, size of its connected piece, exact?).  Pieces that meet merge.  Searches grow in
    turn and stop as soon as one piece is still growing and is bigger than every finished one: that piece
    is the largest (its size is a lower bound, not exact); the others are exact."""
    parent = list(range(len(seeds)))

    def find(g: int) -> int:
        while parent[g] != g:
            parent[g] = parent[parent[g]]
            g = parent[g]
        return g

    owner: dict[int, int] = {}
    queues: dict[int, list[int]] = {}
    heads: dict[int, int] = {}
    sizes: dict[int, int] = {}
    for g, seed in enumerate(seeds):
        if seed in owner:
            parent[g] = find(owner[seed])
            continue
        owner[seed] = g
        queues[g], heads[g], sizes[g] = [seed], 0, 1
    while True:
        active = [g for g in queues if find(g) == g and heads[g] < len(queues[g])]
        finished = [sizes[g] for g in queues if find(g) == g and heads[g] >= len(queues[g])]
        if not active:
            break
        if len(active) == 1 and sizes[active[0]] > max(finished, default=0):
            break
        for g in active:
            if find(g) != g or heads[g] >= len(queues[g]):
                continue
            c = queues[g][heads[g]]
            heads[g] += 1
            for o in offsets:
                d = c + o
                if not free[d]:
                    continue
                other = owner.get(d)
                if other is None:
                    owner[d] = g
                    queues[g].append(d)
                    sizes[g] += 1
                else:
                    r = find(other)
                    if r != g:  # two pieces meet: one piece; keep the unexplored fields of both
                        parent[r] = g
                        queues[g] = queues[g][heads[g] :] + queues[r][heads[r] :]
                        heads[g] = 0
                        sizes[g] += sizes[r]
    roots = {find(g) for g in range(len(seeds))}
    exact = {r: heads[r] >= len(queues[r]) for r in roots}
    return [(find(g), sizes[find(g)], exact[find(g)]) for g in range(len(seeds))]


def _space_lost(free: bytearray, offsets: tuple[int, ...], stride: int, cell: int) -> int:
    """Fields cut off (not in the biggest piece) when ``cell`` (already blocked) is driven onto."""
    neighbours = [cell + o for o in offsets if free[cell + o]]
    if len(neighbours) <= 1 or _ring_connected(free, stride, cell):
        return 0
    pieces = {root: (size, exact) for root, size, exact in race(free, offsets, neighbours)}
    # the biggest piece is the one still growing (not exact), else the largest exact one
    biggest = max(pieces, key=lambda r: (not pieces[r][1], pieces[r][0]))
    return sum(size for root, (size, _) in pieces.items() if root != biggest)


def fill_move(view: View, me: int, legal: list[tuple[str, int]]) -> str:
    """The separated endgame: keep the most space, then hug walls."""
    free, offsets, stride = view.free, view.offsets, view.stride
    cells = [c for _, c in legal]
    region: dict[int, int] = {}
    if len(cells) > 1 and not _ring_connected(free, stride, me):
        for cell, (_, size, exact) in zip(cells, race(free, offsets, cells), strict=True):
            region[cell] = WIN if not exact else size
    best_key: tuple[int, int] | None = None
    best = legal[0][0]
    for answer, cell in legal:
        free[cell] = 0
        lost = _space_lost(free, offsets, stride, cell)
        free[cell] = 1
        key = (region.get(cell, WIN) - lost, _walls(free, offsets, cell))
        if best_key is None or key > best_key:
            best_key, best = key, answer
    return best
