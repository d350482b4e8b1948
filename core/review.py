"""The post-game review: each decision a player made, weighed against the exact best play.

Rebuilt from the event log alone: after every throw the player either rolled again holding some
dice (the next throw's held flags) or wrote a box. The loss of a decision is the expected final
score of the best choice minus that of the choice made, both under optimal play afterwards.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from core.boxes import ALL_BOXES, Box
from core.dice import Dice
from core.events import BoxScored, DiceRolled, Event, TurnStarted, TurnTimedOut
from core.rules import Variants
from core.strategy import Choice, expected_game, judge

# Losses below this are rounding, not mistakes.
NOISE = 1e-6


@dataclass(frozen=True)
class Decision:
    round: int
    throw: int
    dice: Dice
    chosen: Choice
    best: Choice

    @property
    def loss(self) -> float:
        return max(0.0, self.best.expected - self.chosen.expected)


@dataclass
class PlayerReview:
    player_id: str
    decisions: list[Decision] = field(default_factory=list)

    @property
    def lost(self) -> float:
        """Expected points given away against optimal play over the whole game."""
        return sum(d.loss for d in self.decisions)

    @property
    def costly(self) -> list[Decision]:
        """The decisions that cost something, costliest first."""
        return sorted((d for d in self.decisions if d.loss > NOISE), key=lambda d: -d.loss)

    def accuracy(self, variants: Variants) -> float:
        """100 for flawless play, less by the share of the optimal game's expectation given away."""
        return max(0.0, 100.0 * (1.0 - self.lost / expected_game(variants)))


@dataclass
class _Sheet:
    open: list[Box] = field(default_factory=lambda: list(ALL_BOXES))
    total: int = 0


def review(events: Iterable[Event], variants: Variants) -> dict[str, PlayerReview]:
    reviews: dict[str, PlayerReview] = {}
    sheets: dict[str, _Sheet] = {}
    round_ = 0
    last: tuple[int, Dice] | None = None
    stand_in = False  # the bot plays the rest of a timed-out turn: not the player's decisions

    def decide(player_id: str, throw: int, dice: Dice, chosen: Choice) -> None:
        sheet = sheets.setdefault(player_id, _Sheet())
        made, best = judge(variants, sheet.open, dice, throw, chosen, sheet.total)
        review = reviews.setdefault(player_id, PlayerReview(player_id))
        review.decisions.append(Decision(round_, throw, dice, made, best))

    for event in events:
        match event:
            case TurnStarted(round=number):
                round_, last, stand_in = number, None, False
            case TurnTimedOut():
                stand_in, last = True, None
            case DiceRolled(player_id=pid, throw=throw, dice=dice, held=held):
                if stand_in:
                    continue
                if last is not None and throw > 1:
                    thrown, shown = last
                    kept = tuple(sorted(d for d, h in zip(shown, held, strict=True) if h))
                    decide(pid, thrown, shown, Choice(0.0, keep=kept))
                last = (throw, dice)
            case BoxScored(player_id=pid, box=box, points=points, dice=dice, throw=throw):
                if not stand_in:
                    decide(pid, throw, dice, Choice(0.0, box=box))
                sheet = sheets.setdefault(pid, _Sheet())
                sheet.open.remove(box)
                sheet.total += points
                last = None
    return reviews
