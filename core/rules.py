"""Scoring by RULES.md: first-throw and later prices, the straight with its joker, variants."""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum
from functools import lru_cache
from typing import Any

from core.boxes import Box
from core.dice import DICE_COUNT, FACES, Dice, counts, is_five_of_a_kind

ROUNDS = 10
MAX_THROWS = 3
MIN_TABLE_CAP = 1
MAX_TABLE_CAP = 50

STRAIGHT_PRICE = (25, 20)
FULL_HOUSE_PRICE = (35, 30)
FOUR_PRICE = (45, 40)
GENERAL_PRICE = 60

NATURAL_STRAIGHTS = frozenset({(1, 2, 3, 4, 5), (2, 3, 4, 5, 6)})
JOKER_STRAIGHTS = frozenset({(1, 3, 4, 5, 6), (1, 1, 3, 4, 5)})


class BigGeneralMode(Enum):
    """What five of a kind on a turn's first throw does."""

    ENDS_GAME = "ends_game"
    SCORES_SIXTY = "scores_sixty"


@dataclass(frozen=True)
class Variants:
    """The rule choices a chat may make (RULES.md, Variants); defaults are the contract's."""

    big_general: BigGeneralMode = BigGeneralMode.ENDS_GAME
    five_of_a_kind_full_house: bool = False
    straight_joker: bool = True
    table_cap: int = 10
    hints: bool = True  # a table setting rather than a rule: competitive tables turn hints off
    turn_timer: int = 600  # seconds a person has for a turn; 0: no limit (a table setting too)
    chances: bool = True  # every board shows each player's chance of winning (a table setting)

    def __post_init__(self) -> None:
        if not MIN_TABLE_CAP <= self.table_cap <= MAX_TABLE_CAP:
            raise ValueError(f"table cap must be {MIN_TABLE_CAP}..{MAX_TABLE_CAP}")

    def to_dict(self) -> dict[str, Any]:
        return {
            "big_general": self.big_general.value,
            "five_of_a_kind_full_house": self.five_of_a_kind_full_house,
            "straight_joker": self.straight_joker,
            "table_cap": self.table_cap,
            "hints": self.hints,
            "turn_timer": self.turn_timer,
            "chances": self.chances,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Variants:
        base = cls()
        return replace(
            base,
            big_general=BigGeneralMode(data.get("big_general", base.big_general.value)),
            five_of_a_kind_full_house=bool(
                data.get("five_of_a_kind_full_house", base.five_of_a_kind_full_house)
            ),
            straight_joker=bool(data.get("straight_joker", base.straight_joker)),
            table_cap=int(data.get("table_cap", base.table_cap)),
            hints=bool(data.get("hints", base.hints)),
            turn_timer=int(data.get("turn_timer", base.turn_timer)),
            chances=bool(data.get("chances", base.chances)),
        )


DEFAULT_VARIANTS = Variants()


def is_straight(dice: Dice, joker: bool = True) -> bool:
    """1-2-3-4-5 or 2-3-4-5-6; with the joker also 1-3-4-5-6 and 1-1-3-4-5 (1 plays a 2 or 6)."""
    shape = tuple(sorted(dice))
    return shape in NATURAL_STRAIGHTS or (joker and shape in JOKER_STRAIGHTS)


def is_full_house(dice: Dice, five_of_a_kind_counts: bool = False) -> bool:
    shape = sorted(c for c in counts(dice) if c)
    return shape == [2, 3] or (five_of_a_kind_counts and shape == [DICE_COUNT])


def is_big_general(dice: Dice, throw: int, variants: Variants = DEFAULT_VARIANTS) -> bool:
    """Five of a kind on the first throw, in the mode where that ends the game at once."""
    return (
        throw == 1 and variants.big_general is BigGeneralMode.ENDS_GAME and is_five_of_a_kind(dice)
    )


def score(box: Box, dice: Dice, first_throw: bool, variants: Variants = DEFAULT_VARIANTS) -> int:
    """What `dice` write into `box`; 0 is a scratch. Free choice: any box takes any dice.
    A first-throw five of a kind only reaches General where it does not end the game."""
    return sheet_scores(dice, first_throw, variants)[box.index]


@lru_cache(maxsize=16384)
def sheet_scores(
    dice: Dice, first_throw: bool, variants: Variants = DEFAULT_VARIANTS
) -> tuple[int, ...]:
    """What `dice` write into each of the ten boxes, in sheet order (the board shows them all
    after every throw, so the faces are counted once for all ten). Remembered: there are
    7,776 throws, and every throw's board and its box ask again."""
    price_index = 0 if first_throw else 1
    faces = counts(dice)
    return (
        *(face * faces[face - 1] for face in range(1, FACES + 1)),
        STRAIGHT_PRICE[price_index] if is_straight(dice, variants.straight_joker) else 0,
        FULL_HOUSE_PRICE[price_index]
        if is_full_house(dice, variants.five_of_a_kind_full_house)
        else 0,
        FOUR_PRICE[price_index] if max(faces) >= 4 else 0,
        GENERAL_PRICE if is_five_of_a_kind(dice) else 0,
    )
