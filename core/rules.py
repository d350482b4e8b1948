"""Scoring by RULES.md: first-throw and later prices, the straight with its joker, variants."""

from __future__ import annotations

from dataclasses import Field, dataclass, field, fields
from enum import Enum
from functools import lru_cache
from itertools import product
from typing import Any

from core.boxes import Box
from core.dice import DICE_COUNT, FACES, Dice, counts, is_five_of_a_kind

ROUNDS = 10
MAX_THROWS = 3
MIN_TABLE_CAP = 1
MAX_TABLE_CAP = 50
TURN_TIMERS = (0, 60, 300, 600, 1800, 3600, 86400)  # seconds; 0 is off
TABLE_CAPS = (2, 4, 6, 10, 20, 50)

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


def offered(choices: tuple[Any, ...], *, scoring: bool = False) -> dict[str, Any]:
    """A setting's metadata, beside its name, type and default: the choices the settings screen
    cycles through, and whether it changes scoring (and so the solved strategy)."""
    return {"choices": choices, "scoring": scoring}


@dataclass(frozen=True)
class Variants:
    """The rule choices a chat may make (RULES.md, Variants); defaults are the contract's. Each
    is declared here alone: its JSON, its settings' choices and the strategy's key follow."""

    big_general: BigGeneralMode = field(
        default=BigGeneralMode.ENDS_GAME, metadata=offered(tuple(BigGeneralMode), scoring=True)
    )
    five_of_a_kind_full_house: bool = field(
        default=False, metadata=offered((False, True), scoring=True)
    )
    straight_joker: bool = field(default=True, metadata=offered((True, False), scoring=True))
    table_cap: int = field(default=10, metadata=offered(TABLE_CAPS))
    # Table settings rather than rules: competitive tables turn hints off; the seconds a person
    # has for a turn (0: no limit); every board showing each player's chance of winning.
    hints: bool = field(default=True, metadata=offered((True, False)))
    turn_timer: int = field(default=600, metadata=offered(TURN_TIMERS))
    chances: bool = field(default=True, metadata=offered((True, False)))

    def __post_init__(self) -> None:
        if not MIN_TABLE_CAP <= self.table_cap <= MAX_TABLE_CAP:
            raise ValueError(f"table cap must be {MIN_TABLE_CAP}..{MAX_TABLE_CAP}")

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: a mode as its value, every other choice as itself."""
        return {item.name: _json(getattr(self, item.name)) for item in fields(self)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Variants:
        """A variant missing was written before it existed: it has its default."""
        return cls(
            **{
                item.name: read_as(item.default, data[item.name])
                for item in fields(cls)
                if item.name in data
            }
        )

    def scoring(self) -> Variants:
        """Only the choices that change scoring, every other at its default: the rules the
        strategy is solved for (tables that differ in their cap or timer share a solution)."""
        return Variants(
            **{
                item.name: getattr(self, item.name)
                for item in fields(self)
                if changes_scoring(item)
            }
        )


def choices_of(item: Field[Any]) -> tuple[Any, ...]:
    """What the settings screen cycles through for a setting, in order."""
    return tuple(item.metadata["choices"])


def changes_scoring(item: Field[Any]) -> bool:
    return bool(item.metadata.get("scoring", False))


def read_as(default: Any, value: Any) -> Any:
    """A stored value read as the type of the setting's default (a mode from its value)."""
    if isinstance(default, Enum):
        return type(default)(value)
    if isinstance(default, bool):
        return bool(value)
    if isinstance(default, int):
        return int(value)
    return value


def _json(value: Any) -> Any:
    return value.value if isinstance(value, Enum) else value


def rule_sets() -> tuple[Variants, ...]:
    """Every combination of the choices that change scoring, the others at their defaults:
    every rule set the strategy may be solved for."""
    scoring = [item for item in fields(Variants) if changes_scoring(item)]
    return tuple(
        Variants(**{item.name: value for item, value in zip(scoring, values, strict=True)})
        for values in product(*(choices_of(item) for item in scoring))
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
