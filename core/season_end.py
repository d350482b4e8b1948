"""What a season's end says beyond its podium: who rose the most in the chat's own (all-time)
rating over the season, read from the rating changes its games made."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from core.identity import COMPUTER_PREFIX
from core.ratings import Skill, newcomer


@dataclass(frozen=True)
class Move:
    """One game's change of a player's rating in the chat (`before` None: their first)."""

    player_id: str
    before: Skill | None
    after: Skill


def move_of(row: Mapping[str, Any]) -> Move:
    """A stored change (player_id, mu_before, sigma_before, mu, sigma), as both backends read
    it."""
    before = None if row["mu_before"] is None else Skill(row["mu_before"], row["sigma_before"])
    return Move(row["player_id"], before, Skill(row["mu"], row["sigma"]))


def most_improved(moves: Sequence[Move]) -> tuple[str, int] | None:
    """The person whose shown rating rose the most from before their first game of the season
    to after their last (`moves` in the order they were rated), with the rise; None where
    nobody rose. Equal rises go to the earlier rated; computers are not improving."""
    first: dict[str, Skill] = {}
    last: dict[str, Skill] = {}
    for move in moves:
        if move.player_id.startswith(COMPUTER_PREFIX):
            continue
        first.setdefault(move.player_id, move.before or newcomer())
        last[move.player_id] = move.after
    rises = [(last[p].shown - first[p].shown, p) for p in first]
    best = max(rises, key=lambda rise: rise[0], default=None)
    return None if best is None or best[0] <= 0 else (best[1], best[0])
