"""Luck against skill: how much of each player's result their dice gave and how much their own
decisions gave away, read from the exact engine (STRATEGY.md, "Luck and skill").

A player's value is their win share where the game is weighed by win chances (core.review.story)
and their expected final score otherwise (alone at the table, or a table too big to weigh). It
is read as each turn starts, after each of the player's throws (the best choice's value: what the
dice offer) and after each of their decisions (the chosen choice's value), and at the end (the
result). Every change between two readings is put down to one cause: the player's dice, their
decision (the chosen choice's value minus the best one's: never above 0), or the rest (the other
players' turns, a turn the bot played for them, leaving). So the start and the causes add up to
the result exactly. Points cannot weigh the win a big general is: in points, a game it ends is
read as if it went on (the thrower's result what the five of a kind is worth).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Unit(Enum):
    """What a value counts."""

    SHARE = "share"  # the player's share of the win (0 to 1)
    POINTS = "points"  # the player's expected final score


class Cause(Enum):
    DICE = "dice"
    DECISION = "decision"
    REST = "rest"


@dataclass(frozen=True)
class Step:
    """One change in a player's value: at their throw or decision (`throw` 1 to 3), or between
    their readings (`throw` 0: the rest)."""

    cause: Cause
    round: int
    throw: int
    change: float


@dataclass(frozen=True)
class Luck:
    """One player's game as value changes: start + dice + decisions + rest = result."""

    player_id: str
    unit: Unit
    start: float
    result: float
    steps: tuple[Step, ...]

    def sum(self, cause: Cause) -> float:
        return sum(step.change for step in self.steps if step.cause is cause)

    @property
    def dice(self) -> float:
        return self.sum(Cause.DICE)

    @property
    def decisions(self) -> float:
        return self.sum(Cause.DECISION)

    @property
    def rest(self) -> float:
        return self.sum(Cause.REST)


class Ledger:
    """Each player's value as the log is read (core.review's walk), each change put down to its
    cause."""

    def __init__(self, unit: Unit) -> None:
        self.unit = unit
        self._start: dict[str, float] = {}
        self._value: dict[str, float] = {}
        self._steps: dict[str, list[Step]] = {}

    def read(
        self, player_id: str, value: float, round_: int, throw: int = 0, cause: Cause = Cause.REST
    ) -> None:
        """The player's value now; its change since the last reading is `cause`'s."""
        if player_id not in self._value:
            self._start[player_id], self._steps[player_id] = value, []
        else:
            change = value - self._value[player_id]
            self._steps[player_id].append(Step(cause, round_, throw, change))
        self._value[player_id] = value

    def decided(self, player_id: str, round_: int, throw: int, best: float, chosen: float) -> None:
        """A decision after a throw: the throw brought the best choice's value, the decision
        the chosen one's."""
        self.read(player_id, best, round_, throw, Cause.DICE)
        self.read(player_id, chosen, round_, throw, Cause.DECISION)

    def lucks(self) -> dict[str, Luck]:
        return {
            player_id: Luck(
                player_id,
                self.unit,
                self._start[player_id],
                self._value[player_id],
                tuple(self._steps[player_id]),
            )
            for player_id in self._value
        }
