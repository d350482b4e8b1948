"""Tournament tables: at each decision the choice with the most expected place points.

An event's table scores each player by place (core.tournament.placings): the share of the others
they finish above, a tie counting half, so that second of four is worth 2/3 where the Grandmaster
(core.winplay) counts it as nothing. The expected place points are the mean over the opponents of
P(above) + ½·P(level). That is a sum of pairwise terms, linear in the mover's final distribution,
so winplay's machinery applies (a value per box and points written, pushed through the Master's
later throws), with a sum of the opponents' distribution functions in place of its product.

A big general ends the game (RULES.md). Its thrower is first; the others keep the totals they had
then, and placings ranks those still seated by them, those who left below. Those totals come
from the points each player makes in the turns before the big general: `_partials`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from numpy.lib.stride_tricks import sliding_window_view

from core.chances import Standing, check_position, turn_starts
from core.dice import Dice
from core.distribution import BOX_SPAN, Distributions, distributions, solve_distributions
from core.once import once
from core.rules import MAX_THROWS, Variants, is_big_general
from core.strategy import Choice, RuleKey, choices, open_mask
from core.table import Game
from core.turns import BOX_COUNT, FULL, KEEP_INDEX, MASKS, OPEN_COUNT, TRANSITION
from core.winplay import _onward, best_of, choice_in, hint_values

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

PARTIALS_KEPT = 2  # rule sets whose partial distributions are kept: 8.5 MiB each
FINAL = -1  # in place of the turns played before a big general: the game played out


def event_choice(game: Game) -> Choice:
    """The choice with the most expected place points for the player to move, dice thrown."""
    return choice_in(game, choice_points)


def event_choice_at(
    variants: Variants, standings: Sequence[Standing], to_move: int, dice: Dice, throws: int
) -> Choice:
    """The same from standings; equal points (within 1e-12) go to the Master's choice."""
    return best_of(choice_points(variants, standings, to_move, dice, throws))


def choice_points(
    variants: Variants, standings: Sequence[Standing], to_move: int, dice: Dice, throws: int
) -> list[tuple[Choice, float]]:
    """Every legal choice in the Master's order with the mover's expected place points after
    it, everyone playing Master afterwards (seating order as core.chances.win_shares)."""
    check_position(standings, to_move, dice, throws)
    if is_big_general(dice, throws, variants):
        raise ValueError("a big general has already ended the game")
    dist = distributions(variants)
    mover = standings[to_move]
    boxes = sorted(mover.open, key=lambda b: b.index)
    mask = open_mask(boxes)
    ranking = _ranking(dist, standings, to_move, turn_starts(standings, to_move, throws))
    written = _written(dist, mask, mover.total, ranking)
    onward = _onward(dist, mask, written, throws + 1) if throws < MAX_THROWS else None
    found: list[tuple[Choice, float]] = []
    for choice in choices(variants, boxes, dice, throws, mover.total):
        if choice.box is not None:
            points = written[choice.box.index, choice.points]
        else:
            assert onward is not None and choice.keep is not None
            points = float(TRANSITION[KEEP_INDEX[choice.keep]] @ onward)
        found.append((choice, float(points)))
    return found


def place_points(
    variants: Variants, standings: Sequence[Standing], to_move: int
) -> tuple[float, ...]:
    """Every seat's expected place points at the start of `to_move`'s turn, everyone playing
    Master; they add up to n/2 (each pair of seats shares one point)."""
    check_position(standings, to_move, None, 0)
    dist = distributions(variants)
    starts = turn_starts(standings, to_move, 0)
    others = max(1, len(standings) - 1)
    found: list[float] = []
    for i, seat in enumerate(standings):
        if not seat.playing:  # below everyone still seated; among those who left, by points
            gone = [s.total for j, s in enumerate(standings) if j != i and not s.playing]
            found.append(sum(_versus(seat.total, total) for total in gone) / others)
            continue
        ranking = _ranking(dist, standings, i, starts)
        mask = open_mask(list(seat.open))
        window = slice(seat.total, seat.total + dist.length)
        value = ranking.constant + float(ranking.final[window] @ dist.rest[mask])
        for made, weight in ranking.weights.items():
            value += float(weight[window] @ _partial(dist, made, np.array([mask]))[0])
        found.append(value)
    return tuple(found)


def hint_points(game: Game, options: Sequence[Choice]) -> tuple[float, ...]:
    """Each of a hint's options' expected place points, in its order; none where the player to
    move plays alone or the dice are not thrown yet (as core.winplay.hint_shares)."""
    return hint_values(game, options, choice_points)


def _versus(mine: int, theirs: int) -> float:
    return 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0


@dataclass(frozen=True)
class _Ranking:
    """One player's expected place points as a function of their own points: `constant`, plus
    per number m of turns they play (a turn under way not counted) before a big general ends the
    game, `weights[m]` at their total then, plus `final` at their final total (index: total;
    all scaled by 1/(n − 1))."""

    constant: float
    weights: dict[int, FloatArray]
    final: FloatArray


def _ranking(
    dist: Distributions, standings: Sequence[Standing], subject: int, starts: Sequence[int]
) -> _Ranking:
    """Walk the turn starts still to come (core.chances.turn_starts): the k-th is the first big
    general with chance q(1 − q)^k. Its thrower is first; the subject gets 1 for each player
    who left, and against each other seated player P(above) + ½·P(level) at the totals of
    then. With chance (1 − q)^N none comes and the final totals decide."""
    size = max(s.total for s in standings) + BOX_SPAN + dist.length
    others = max(1, len(standings) - 1)
    left = sum(not s.playing for s in standings)
    rivals = [j for j, s in enumerate(standings) if s.playing and j != subject]
    masks = [open_mask(list(s.open)) for s in standings]
    q = dist.big_general
    played = [0] * len(standings)
    unbroken, constant = 1.0, 0.0
    # (the subject's turns played, a rival, theirs) -> its chance: the rival's P(below) + ½·P(level)
    # at those totals counts with that weight.
    terms: dict[tuple[int, int, int], float] = {}
    for thrower in starts if q else ():
        chance = unbroken * q
        if thrower == subject:
            constant += chance * others
        else:
            constant += chance * left
            for j in rivals:
                if j != thrower:
                    key = (played[subject], j, played[j])
                    terms[key] = terms.get(key, 0.0) + chance
        played[thrower] += 1
        unbroken *= 1.0 - q
    for j in rivals:
        terms[FINAL, j, len(standings[j].open)] = unbroken
    pmfs = np.zeros((len(terms), size))
    for row, (_, j, turns) in enumerate(terms):
        total = standings[j].total
        pmfs[row, total : total + dist.length] = _partial(dist, turns, np.array([masks[j]]))[0]
    below = np.cumsum(pmfs, axis=1) - 0.5 * pmfs  # P(the rival's total < x) + ½·P(= x)
    made = sorted({m for m, _, _ in terms})
    chances = np.zeros((len(made), len(terms)))
    for column, ((m, _, _), chance) in enumerate(terms.items()):
        chances[made.index(m), column] = chance / others
    weights = dict(zip(made, chances @ below, strict=True))
    final = weights.pop(FINAL) if FINAL in weights else np.zeros(size)
    return _Ranking((constant + unbroken * left) / others, weights, final)


def _written(dist: Distributions, mask: int, total: int, ranking: _Ranking) -> FloatArray:
    """written[b, p]: the mover's expected place points after writing p points in open box b."""
    span = slice(total, total + BOX_SPAN)
    boxes = [b for b in range(BOX_COUNT) if mask >> b & 1]
    after = mask ^ (1 << np.array(boxes, dtype=np.int64))
    window = sliding_window_view(ranking.final, dist.length)[span]
    points = window @ dist.rest[after].T  # (points written, box)
    for turns, weight in ranking.weights.items():
        window = sliding_window_view(weight, dist.length)[span]
        points += window @ _partial(dist, turns, after).T
    written = np.full((BOX_COUNT, BOX_SPAN), ranking.constant)
    written[boxes] += points.T
    return written


def _partial(dist: Distributions, turns: int, masks: IntArray) -> FloatArray:
    """Per open set (all of one size), the points a player makes in their next `turns` turns
    (Master play, no big general at those turns' starts)."""
    if turns == 0:
        none: FloatArray = np.zeros((len(masks), dist.length))
        none[:, 0] = 1.0
        return none
    if turns == OPEN_COUNT[masks[0]]:
        whole: FloatArray = dist.rest[masks]
        return whole
    table = _partials(dist.rules)
    part: FloatArray = table.rows[table.row[turns, masks]]
    return part


@dataclass(frozen=True, eq=False)
class _Partials:
    """Per open set and 0 < m < boxes open, the points of the next m turns: row[m, mask]."""

    rows: FloatArray
    row: IntArray


@once(PARTIALS_KEPT)
def _partials(rules: RuleKey) -> _Partials:
    """part[m][mask] = Σ over this turn's (box, points) of its chance × part[m − 1][mask − box]
    shifted by the points, from m = 1 up (as core.distribution chains `rest`). Only a big
    general's branch needs it: solved on first use, about 0.2 s."""
    dist = solve_distributions(rules)
    turn = dist.turn
    length = dist.length
    previous = np.zeros((FULL + 1, length))
    previous[:, 0] = 1.0
    row = np.full((BOX_COUNT + 1, FULL + 1), -1, dtype=np.int64)
    sizes = OPEN_COUNT
    kept: list[FloatArray] = []
    count = 0
    for turns in range(1, BOX_COUNT):
        current = np.zeros_like(previous)
        for b in range(BOX_COUNT):
            having = MASKS[(MASKS >> b & 1 == 1) & (sizes >= turns)]
            after = previous[having ^ (1 << b)]
            rows = current[having]
            for p in np.flatnonzero(turn[having, b].any(axis=0)):
                rows[:, p:] += turn[having, b, p, None] * after[:, : length - p]
            current[having] = rows
        more = MASKS[sizes > turns]
        row[turns, more] = np.arange(count, count + len(more))
        kept.append(current[more])
        count += len(more)
        previous = current
    return _Partials(np.concatenate(kept), row)
