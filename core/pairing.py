"""Who sits at which table in a tournament's round: Swiss (players of similar score together,
rematches avoided) or round robin (everyone meets everyone in as few rounds as it can).

Pure and deterministic, with no randomness and nothing that hangs on hash order, so any process
pairs a round the same and a round can be paired again from the event alone. The search behind
both has a fixed step budget, so 64 players pair in milliseconds whatever their history.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

SIZES = range(2, 7)  # players at a table at most
_SWISS_STEPS = 20_000  # search steps for a Swiss round
_ROBIN_STEPS = 3_000  # and for each round of a round robin's schedule


@dataclass(frozen=True)
class Pairing:
    """One round's seating."""

    tables: tuple[tuple[str, ...], ...]  # player ids per table in seat order; table 1 = top
    byes: tuple[str, ...] = ()  # players who sit this round out


def table_sizes(count: int, size: int) -> tuple[tuple[int, ...], int]:
    """How `count` players sit at tables of at most `size`: the fewest tables, as even as can
    be (largest first), and how many sit out. A bye only where a table would seat one alone:
    size 2 with an odd count, or a lone player."""
    if size not in SIZES or count < 0:
        raise ValueError(f"no tables of {size} for {count} players")
    byes = count % 2 if size == 2 else int(count == 1)
    seated = count - byes
    tables = -(-seated // size)
    if not tables:
        return (), byes
    small, large = divmod(seated, tables)
    return (small + 1,) * large + (small,) * (tables - large), byes


class _Spent(Exception):
    """The search found the best there is, or ran out of steps."""


def _greedy(cost: list[list[int]], sizes: tuple[int, ...]) -> list[list[int]]:
    """Top down: the best player left heads a table and picks the cheapest company, the better
    ranked among equals. The search's first bound."""
    left = list(range(len(cost)))
    tables = []
    for size in sizes:
        table = [left.pop(0)]
        while len(table) < size:
            pick = min(left, key=lambda c: (sum(cost[c][x] for x in table), c))
            left.remove(pick)
            table.append(pick)
        tables.append(sorted(table))
    return tables


def _seat(cost: list[list[int]], sizes: tuple[int, ...], steps: int) -> list[list[int]]:
    """Players 0..n-1, best first, at tables of `sizes`: the least total cost of the pairs
    sharing a table, and among those the seating closest to rank order read top down (each
    table's head is the best player left; its company is the best ranked that costs no more).

    A depth-first search in exactly that order finds it, pruned by the cheapest seating found
    so far (the greedy one to begin with) against what the rest must cost at least. Where the
    steps run out, the cheapest found by then, mended (_mend)."""
    n = len(cost)
    left = {s: sizes.count(s) for s in sorted(set(sizes), reverse=True)}
    lowest = min((c for row in cost for c in row if c > 0), default=1)
    # Whom each player could sit with at no cost, as a bit mask.
    friends = [
        sum(1 << q for q, c in enumerate(row) if not c and q != p) for p, row in enumerate(cost)
    ]
    best = _greedy(cost, sizes)
    # A seating must cost less than this to be kept.
    limit = 1 + sum(cost[a][b] for t in best for i, a in enumerate(t) for b in t[i + 1 :])
    tables: list[list[int]] = []
    known: dict[tuple[int, ...], int] = {}  # the least the players of a mask can cost
    budget = steps

    def bound(rest: int, players: list[int]) -> int:
        """Each of the rest sits with at least `need` others: those with fewer friends left
        pay for each one short, and each pair is counted from both ends."""
        need = min(s for s, c in left.items() if c) - 1
        short = sum(max(0, need - (friends[p] & rest).bit_count()) for p in players)
        return -(-short * lowest // 2)

    def head(spent: int, rest: int) -> None:
        nonlocal best, limit
        if not rest:
            best, limit = [list(t) for t in tables], spent
            if spent == 0:
                raise _Spent
            return
        key = (rest, *left.values())
        least = known.get(key)
        players = None
        if least is None:
            players = _bits(rest)
            least = known[key] = bound(rest, players)
        if spent + least >= limit:
            return
        players = players or _bits(rest)
        before = limit
        first = players[0]
        for size, count in left.items():
            if count:
                left[size] -= 1
                tables.append([first])
                fill(tables[-1], size - 1, players[1:], spent, rest & ~(1 << first))
                tables.pop()
                left[size] += 1
        known[key] = limit - spent if limit < before else max(least, limit - spent)

    def fill(table: list[int], need: int, choices: list[int], spent: int, rest: int) -> None:
        """Seat `need` more at `table`, from `choices` (the rest ranked below its last)."""
        nonlocal budget
        if not need:
            head(spent, rest)
            return
        for k in range(len(choices) - need + 1):
            budget -= 1
            if budget < 0:
                raise _Spent
            pick = choices[k]
            total = spent + sum(map(cost[pick].__getitem__, table))
            if total >= limit:
                continue
            table.append(pick)
            fill(table, need - 1, choices[k + 1 :], total, rest & ~(1 << pick))
            table.pop()

    try:
        head(0, (1 << n) - 1)
    except _Spent:
        if budget < 0:
            _mend(cost, best)
    return best


def _mend(cost: list[list[int]], tables: list[list[int]]) -> None:
    """Where the search ran out of steps: while it lowers the cost, swap two players of
    different tables, or move one from a larger table to a smaller; the change that lowers
    it most, the closest in rank among equals."""
    where = {p: t for t, table in enumerate(tables) for p in table}
    while True:
        found: tuple[int, int, int, int, int] | None = None
        own = {p: sum(cost[p][q] for q in tables[t]) for p, t in where.items()}
        for x in sorted(where):
            mine = tables[where[x]]
            if not own[x]:
                continue
            for t, theirs in enumerate(tables):
                if theirs is mine:
                    continue
                into = sum(cost[x][q] for q in theirs)
                moved = own[x] - into if len(theirs) < len(mine) else 0
                if moved > 0 and (found is None or (moved, 0) > found[:2]):
                    found = (moved, 0, x, -1, t)
                for y in theirs:
                    back = sum(cost[y][q] for q in mine) - cost[y][x]
                    gain = own[x] + own[y] - into + cost[x][y] - back
                    if gain > 0 and (found is None or (gain, -abs(x - y)) > found[:2]):
                        found = (gain, -abs(x - y), x, y, t)
        if found is None:
            break
        _, _, x, y, t = found
        tables[where[x]].remove(x)
        if y >= 0:
            tables[t].remove(y)
            tables[where[x]].append(y)
            where[y] = where[x]
        tables[t].append(x)
        where[x] = t
    for table in tables:
        table.sort()
    tables.sort()


def _bits(mask: int) -> list[int]:
    """The players of a mask, best first."""
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return found


def swiss(
    ranked: Sequence[str], met: Mapping[frozenset[str], int], byes_had: Mapping[str, int], size: int
) -> Pairing:
    """A Swiss round of `ranked` (best first). The bye goes to the lowest ranked of those with
    the fewest byes, so byes rotate. The rest sit with the fewest repeated meetings (each pair
    weighted by how often it met: a third meeting is worse than a second), then as close to
    rank order as that allows (see _seat). Tables go by their best player, each in rank order;
    where sizes differ, a smaller table may come first if that avoids a rematch."""
    players = list(ranked)
    if len(set(players)) != len(players):
        raise ValueError("a player ranked twice")
    sizes, byes = table_sizes(len(players), size)
    # Fewest byes first, then the lowest ranked.
    out = set(sorted(range(len(players)), key=lambda i: (byes_had.get(players[i], 0), -i))[:byes])
    seated = [p for i, p in enumerate(players) if i not in out]
    index = {p: i for i, p in enumerate(seated)}
    cost = [[0] * len(seated) for _ in seated]
    for pair, times in met.items():
        places = [index[p] for p in pair if p in index]
        if len(places) == 2 and times > 0:
            a, b = places
            cost[a][b] = cost[b][a] = times
    tables = _seat(cost, sizes, _SWISS_STEPS)
    return Pairing(
        tuple(tuple(seated[i] for i in t) for t in tables),
        tuple(p for i, p in enumerate(players) if i in out),
    )


def _circle(count: int, round_number: int) -> tuple[list[tuple[int, int]], list[int]]:
    """Berger tables: the first player stays put while the rest turn one place a round; an odd
    count adds a dummy, and meeting it is the bye. The first player's seat alternates."""
    ring: list[int | None] = [*range(count), *([None] if count % 2 else [])]
    turn = (round_number - 1) % (len(ring) - 1)
    rest = ring[1:]
    line = [ring[0], *rest[len(rest) - turn :], *rest[: len(rest) - turn]]
    tables: list[tuple[int, int]] = []
    byes: list[int] = []
    for i in range(len(line) // 2):
        a, b = line[i], line[-1 - i]
        if a is not None and b is not None:
            tables.append((b, a) if i == 0 and turn % 2 else (a, b))
        else:
            byes.extend(p for p in (a, b) if p is not None)
    return tables, byes


Round = tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]  # tables and byes, by join order


@lru_cache(maxsize=4096)
def _greedy_round(count: int, size: int, round_number: int) -> Round:
    """A round robin's round at tables of more than two, given the rounds before it: the most
    pairs that have not met yet, then the fewest meetings of those that have (so they spread
    evenly). Nobody sits out but a lone player (table_sizes)."""
    met = [[0] * count for _ in range(count)]
    for number in range(1, round_number):
        for table in _greedy_round(count, size, number)[0]:
            for i, a in enumerate(table):
                for b in table[i + 1 :]:
                    met[a][b] += 1
                    met[b][a] += 1
    sizes, byes = table_sizes(count, size)
    if byes:
        return (), (0,)
    weight = 1 + sum(map(sum, met))  # one pair met already outweighs all repeats together
    cost = [[weight * (m > 0) + m for m in row] for row in met]
    return tuple(map(tuple, _seat(cost, sizes, _ROBIN_STEPS))), ()


def round_robin(players: Sequence[str], size: int, round_number: int) -> Pairing:
    """Round `round_number` (from 1) of a round robin among `players` in the order they joined.
    At tables of two, Berger tables (each pair once in round_robin_rounds, each player one bye
    where the count is odd); at larger tables, a greedy schedule (see _greedy_round). Rounds
    after the last go on the same way."""
    if size not in SIZES or round_number < 1:
        raise ValueError(f"no round {round_number} at tables of {size}")
    tables: Sequence[tuple[int, ...]]
    byes: Sequence[int]
    if size == 2 and len(players) > 1:
        tables, byes = _circle(len(players), round_number)
    else:
        tables, byes = _greedy_round(len(players), size, round_number)
    return Pairing(
        tuple(tuple(players[i] for i in t) for t in tables), tuple(players[i] for i in byes)
    )


@lru_cache(maxsize=512)
def round_robin_rounds(count: int, size: int) -> int:
    """The rounds a full round robin takes: at tables of two, count - 1 (or count where it is
    odd: one bye each); at larger tables, exactly as many as the greedy schedule takes until
    every pair has met (at least ceil((count - 1) / (size - 1)), since each round meets at most
    size - 1 new opponents). 0 for fewer than two players."""
    if size not in SIZES or count < 0:
        raise ValueError(f"no round robin of {count} at tables of {size}")
    if count < 2:
        return 0
    if size == 2:
        return count - 1 + count % 2
    unmet = {(a, b) for a in range(count) for b in range(a + 1, count)}
    number = 0
    while unmet:
        number += 1
        if number > count * count:  # each round meets a new pair (tested to 64 players)
            raise RuntimeError(f"no round robin schedule of {count} at tables of {size}")
        for table in _greedy_round(count, size, number)[0]:
            unmet.difference_update((a, b) for i, a in enumerate(table) for b in table[i + 1 :])
    return number
