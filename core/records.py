"""Leaderboards, statistics and history: what finished games add up to, as plain data."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from core.boxes import Box
from core.identity import COMPUTER_PREFIX
from core.ratings import Rating


@dataclass(frozen=True)
class Standing:
    """One player's line on a leaderboard."""

    player_id: str
    name: str
    games: int
    wins: int
    average: float
    best: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


@dataclass(frozen=True)
class PlayerStats:
    player_id: str
    name: str
    games: int
    wins: int
    average: float
    best: int
    small_generals: int
    big_generals: int
    box_averages: dict[Box, float]
    accuracy: float | None  # the average of the post-game reviews, where there were any
    # Per reviewed game on average, in expected points (core.luck): what the dice gave, and
    # what the person's decisions gave away (never above 0).
    dice: float | None = None
    decisions: float | None = None

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


@dataclass(frozen=True)
class Weighed:
    """What a person's post-game review adds to their result: accuracy, and their dice against
    their decisions in expected points (core.luck)."""

    accuracy: float
    dice: float
    decisions: float


class LuckOrder(Enum):
    """How the luck board orders people: the luckiest dice, or the best decisions."""

    DICE = "luck"
    DECISIONS = "skill"


# A person is on the luck board after this many reviewed games: one lucky evening is not luck.
LUCK_GAMES = 3


@dataclass(frozen=True)
class Fortune:
    """One person's line on the luck board: per reviewed game on average, in expected points."""

    player_id: str
    name: str
    games: int
    dice: float
    decisions: float


@dataclass(frozen=True)
class PastGame:
    game_id: str
    finished_at: float
    end_reason: str
    players: tuple[tuple[str, int, bool], ...]  # (name, total, winner) in seating order


@dataclass(frozen=True)
class Rated:
    """One player's line on the rating leaderboard; a computer's `name` is its level's."""

    player_id: str
    name: str
    rating: Rating


def names_a_level(player_id: str) -> bool:
    """Whether `player_id` is a computer's level (`cpu-master`: every seat it played, as its
    rating counts them), not a person or one seat (`cpu-master-2`)."""
    return player_id.startswith(COMPUTER_PREFIX) and "-" not in player_id[len(COMPUTER_PREFIX) :]
