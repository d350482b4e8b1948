"""Each player's exact expected share of the win when everyone plays the Master policy from now.

Under Master play each sheet goes its own way, so the final totals are independent given that no
big general happens; each player has as many turns left as boxes open, so the turn starts still
to come are known in order. Under the default rule the first big general among them (chance
6/7776 each) wins outright; otherwise the highest total wins, equal totals sharing it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from core.boxes import Box
from core.dice import DICE_COUNT, FACES, Dice
from core.distribution import Distributions, distributions, within_turn
from core.rules import MAX_THROWS, Variants, is_big_general
from core.table import Game, Phase, Seat

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Standing:
    """One seat as the chances see it."""

    total: int  # points so far
    open: frozenset[Box]  # boxes still open
    playing: bool = True  # False: left the table; cannot win, has no share


def win_shares(
    variants: Variants,
    standings: Sequence[Standing],
    to_move: int,
    dice: Dice | None = None,
    throws: int = 0,
) -> tuple[float, ...]:
    """Expected win shares in seating order: standings[to_move] is to move (after `throws`
    throws showing `dice`, or at the start of the turn), the players before have played this
    round, those after have not."""
    finals = final_totals(variants, standings, to_move, dice, throws)
    weights = tie_weights(finals)
    outright, unbroken = big_general_shares(variants, standings, to_move, throws)
    shares = outright + unbroken * np.einsum("is,is->i", finals, weights)
    return tuple(float(share) for share in shares)


def standings_of(seats: Sequence[Seat]) -> tuple[Standing, ...]:
    """Every seat of a game as the chances see it, in seating order (the seats alone: the
    game holds what no forecast may see, its dice's seed)."""
    return tuple(Standing(seat.total, frozenset(seat.open_boxes()), seat.active) for seat in seats)


def game_shares(game: Game) -> tuple[float, ...]:
    """The win shares of a game in play, per seat in seating order."""
    if game.phase is not Phase.PLAYING:
        raise ValueError("win shares exist for a game in play")
    turn = game.turn
    dice = turn.dice if turn.throws else None
    return win_shares(game.variants, standings_of(game.seats), game.current, dice, turn.throws)


def check_position(
    standings: Sequence[Standing], to_move: int, dice: Dice | None, throws: int
) -> None:
    if not any(s.playing for s in standings):
        raise ValueError("nobody is playing")
    if not 0 <= to_move < len(standings) or not standings[to_move].playing:
        raise ValueError("the player to move must be seated and playing")
    if not standings[to_move].open:
        raise ValueError("the player to move has no box open")
    if not 0 <= throws <= MAX_THROWS or (dice is None) != (throws == 0):
        raise ValueError("dice show after throw 1, 2 or 3, and only then")
    if dice is not None and (len(dice) != DICE_COUNT or any(not 1 <= f <= FACES for f in dice)):
        raise ValueError(f"dice are {DICE_COUNT} faces 1..{FACES}")


def final_totals(
    variants: Variants,
    standings: Sequence[Standing],
    to_move: int,
    dice: Dice | None,
    throws: int,
) -> FloatArray:
    """Per player, the distribution of the final total given no big general (rows: players,
    index: total; all zeros for those not playing)."""
    check_position(standings, to_move, dice, throws)
    if dice is not None and is_big_general(dice, throws, variants):
        raise ValueError("a big general has already ended the game")
    dist = distributions(variants)
    finals = _from_start(dist, standings, to_move if dice is not None else None)
    if dice is not None:
        mover = standings[to_move]
        boxes = sorted(mover.open, key=lambda b: b.index)
        finals[to_move, mover.total : mover.total + dist.length] = within_turn(
            variants, boxes, dice, throws
        )
    return finals


def _from_start(dist: Distributions, standings: Sequence[Standing], skip: int | None) -> FloatArray:
    """Final totals from the start of a turn for each playing player but `skip` (zero rows)."""
    finals = np.zeros((len(standings), max(s.total for s in standings) + dist.length))
    for i, standing in enumerate(standings):
        if standing.playing and i != skip:
            rest = dist.from_start(sorted(standing.open, key=lambda b: b.index))
            finals[i, standing.total : standing.total + dist.length] = rest
    return finals


def mover_weights(variants: Variants, standings: Sequence[Standing], to_move: int) -> FloatArray:
    """The mover's share of the win (no big general) for each final total they may reach, from
    the others' distributions: what a choice of the mover's is weighed against."""
    weights: FloatArray = tie_weights(_from_start(distributions(variants), standings, to_move))
    weights = weights[to_move]
    return weights


def tie_weights(finals: FloatArray) -> FloatArray:
    """weights[i, s]: player i's expected share of the win if they end on total s and the others
    (rows of `finals`, all zeros for one not playing) end as distributed, equal highest totals
    sharing it.

    With a_j = P(total_j < s) and e_j = P(total_j = s), the share is the integral over x in [0, 1]
    of the product over j ≠ i of (a_j + e_j·x): the x^k term is k others level, sharing 1/(k+1).
    Gauss–Legendre with ⌈n/2⌉ nodes integrates that polynomial of degree < n exactly.
    """
    below = np.cumsum(finals, axis=1) - finals
    x, node_weights = _nodes(max(1, (len(finals) + 1) // 2))
    factors = below[None, :, :] + x[:, None, None] * finals[None, :, :]  # (nodes, n, s)
    absent = finals.sum(axis=1) == 0  # not playing: beats nobody, level with nobody
    factors[:, absent, :] = 1.0
    ones = np.ones_like(factors[:, :1])
    before = np.cumprod(np.concatenate([ones, factors[:, :-1]], axis=1), axis=1)
    after = np.cumprod(np.concatenate([ones, factors[:, :0:-1]], axis=1), axis=1)[:, ::-1]
    result: FloatArray = np.einsum("k,kis->is", node_weights, before * after)
    return result


@cache
def _nodes(count: int) -> tuple[FloatArray, FloatArray]:
    """Gauss–Legendre nodes and weights on [0, 1]."""
    nodes, weights = np.polynomial.legendre.leggauss(count)
    return (nodes + 1.0) / 2.0, weights / 2.0


def big_general_shares(
    variants: Variants, standings: Sequence[Standing], to_move: int, throws: int
) -> tuple[FloatArray, float]:
    """Each player's chance that their big general is the first (in turn order, over every turn
    start still to come), and the chance that none comes."""
    chance = distributions(variants).big_general
    outright = np.zeros(len(standings))
    unbroken = 1.0
    for player in turn_starts(standings, to_move, throws):
        outright[player] += unbroken * chance
        unbroken *= 1.0 - chance
    return outright, unbroken


def turn_starts(standings: Sequence[Standing], to_move: int, throws: int) -> list[int]:
    """Who starts each turn still to come, in order (a turn under way has started)."""
    left = [len(s.open) if s.playing else 0 for s in standings]
    if throws:
        left[to_move] -= 1
    starts: list[int] = []
    seats = range(to_move + (1 if throws else 0), len(standings))
    while any(left):
        for seat in seats:
            if left[seat]:
                left[seat] -= 1
                starts.append(seat)
        seats = range(len(standings))
    return starts
