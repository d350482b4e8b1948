"""The Grandmaster: at each decision the choice with the highest chance of winning the table.

Each legal choice gives the mover a distribution of final points (Master play afterwards); against
the other players' distributions (core.chances) that is a win share. A choice cannot change when
big generals may come (the turns left are the boxes open), so only the share without one differs.
Equal shares (within 1e-12) fall back to the Master's ranking: far ahead or hopeless, it is Master.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt
from numpy.lib.stride_tricks import sliding_window_view

from core.chances import (
    Standing,
    big_general_shares,
    check_position,
    mover_weights,
    standings_of,
)
from core.dice import Dice
from core.distribution import BOX_SPAN, Distributions, distributions
from core.rules import MAX_THROWS, Variants, is_big_general
from core.strategy import Choice, choices, open_mask
from core.table import Game, Phase
from core.turns import BOX_COUNT, KEEP_INDEX, ROLLS, TRANSITION

FloatArray = npt.NDArray[np.float64]

TIE = 1e-12


# A choice's value to the mover, every legal choice in the Master's order (choice_shares here,
# core.eventplay.choice_points at a tournament's table).
Valued = Callable[[Variants, Sequence[Standing], int, Dice, int], list[tuple[Choice, float]]]


def winning_choice(game: Game) -> Choice:
    """The Grandmaster's choice for the player to move in a game in play, dice thrown."""
    return choice_in(game, choice_shares)


def winning_choice_at(
    variants: Variants, standings: Sequence[Standing], to_move: int, dice: Dice, throws: int
) -> Choice:
    """The same from standings (seating order as core.chances.win_shares)."""
    return best_of(choice_shares(variants, standings, to_move, dice, throws))


def choice_in(game: Game, valued: Valued) -> Choice:
    """The most valued choice for the player to move in a game in play, dice thrown."""
    if game.phase is not Phase.PLAYING or game.turn.throws == 0:
        raise ValueError("a choice exists in a game in play once the dice are thrown")
    turn = game.turn
    return best_of(
        valued(game.variants, standings_of(game.seats), game.current, turn.dice, turn.throws)
    )


def best_of(ranked: list[tuple[Choice, float]]) -> Choice:
    """The most valued; values equal within TIE go to the Master's order (the first)."""
    best = max(value for _, value in ranked)
    return next(choice for choice, value in ranked if value >= best - TIE)


def choice_shares(
    variants: Variants, standings: Sequence[Standing], to_move: int, dice: Dice, throws: int
) -> list[tuple[Choice, float]]:
    """Every legal choice in the Master's order (expected final points, `total` included) with
    the mover's win share after it, everyone playing Master afterwards.

    A share is linear in the mover's final distribution, so each dice set after a throw gets its
    win value (what core.distribution.after_choices' distributions give weighed by the others')
    without building the distributions: fast enough to choose at every decision.
    """
    check_position(standings, to_move, dice, throws)
    if is_big_general(dice, throws, variants):
        raise ValueError("a big general has already ended the game")
    dist = distributions(variants)
    mover = standings[to_move]
    boxes = sorted(mover.open, key=lambda b: b.index)
    mask = open_mask(boxes)
    written = _written(dist, mask, mover_weights(variants, standings, to_move), mover.total)
    outright, unbroken = big_general_shares(variants, standings, to_move, throws)
    onward = _onward(dist, mask, written, throws + 1) if throws < MAX_THROWS else None
    found: list[tuple[Choice, float]] = []
    for choice in choices(variants, boxes, dice, throws, mover.total):
        if choice.box is not None:
            beaten = written[choice.box.index, choice.points]
        else:
            assert onward is not None and choice.keep is not None
            beaten = float(TRANSITION[KEEP_INDEX[choice.keep]] @ onward)
        found.append((choice, float(outright[to_move]) + unbroken * float(beaten)))
    return found


def _written(dist: Distributions, mask: int, weights: FloatArray, total: int) -> FloatArray:
    """written[b, p]: the mover's share (no big general) after writing p points in open box b."""
    need = total + BOX_SPAN + dist.length
    padded = np.concatenate([weights, np.ones(max(0, need - len(weights)))])
    window = sliding_window_view(padded, dist.length)[total : total + BOX_SPAN]
    written = np.zeros((BOX_COUNT, BOX_SPAN))
    for b in range(BOX_COUNT):
        if mask >> b & 1:
            written[b] = window @ dist.rest[mask ^ (1 << b)]
    return written


def _onward(dist: Distributions, mask: int, written: FloatArray, throws: int) -> FloatArray:
    """Per dice set showing after `throws` throws, the share the Master's play from there gives."""
    table = dist.policy
    boxes = table.box_later[mask]
    points = dist.solution.points_later[boxes, np.arange(len(ROLLS))].astype(np.int64)
    share: FloatArray = written[boxes, points]
    if throws == 2:
        keep = table.keep_after_second[mask]
        share = np.where(keep < 0, share, (TRANSITION @ share)[np.maximum(keep, 0)])
    return share


def hint_shares(game: Game, options: Sequence[Choice]) -> tuple[float, ...]:
    """Each of a hint's options' chance of winning, in its order; none where the player to move
    plays alone (every choice wins) or the dice are not thrown yet."""
    return hint_values(game, options, choice_shares)


def hint_values(game: Game, options: Sequence[Choice], valued: Valued) -> tuple[float, ...]:
    """Each of a hint's options' value, in its order; none where the player to move plays
    alone or the dice are not thrown yet."""
    if game.phase is not Phase.PLAYING or game.turn.throws == 0:
        return ()
    if sum(seat.active for seat in game.seats) < 2:
        return ()
    turn = game.turn
    ranked = valued(game.variants, standings_of(game.seats), game.current, turn.dice, turn.throws)
    by_choice = {(choice.keep, choice.box): value for choice, value in ranked}
    if any((option.keep, option.box) not in by_choice for option in options):
        return ()
    return tuple(by_choice[option.keep, option.box] for option in options)
