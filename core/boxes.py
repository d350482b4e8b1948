"""The ten boxes of a General score sheet, in sheet order."""

from __future__ import annotations

from enum import Enum


class Box(Enum):
    """A box of the score sheet; the value is the stable name used in storage and payloads."""

    ONES = "ones"
    TWOS = "twos"
    THREES = "threes"
    FOURS = "fours"
    FIVES = "fives"
    SIXES = "sixes"
    STRAIGHT = "straight"
    FULL_HOUSE = "full_house"
    FOUR = "four"
    GENERAL = "general"

    @property
    def face(self) -> int | None:
        """The face a number box counts (Ones → 1 … Sixes → 6), None for a combination."""
        return _FACES.get(self)

    @property
    def index(self) -> int:
        """Position on the sheet, 0…9; compact for button payloads."""
        return _ORDER.index(self)

    @classmethod
    def from_index(cls, index: int) -> Box:
        return _ORDER[index]


_ORDER: tuple[Box, ...] = tuple(Box)
_FACES: dict[Box, int] = {
    Box.ONES: 1,
    Box.TWOS: 2,
    Box.THREES: 3,
    Box.FOURS: 4,
    Box.FIVES: 5,
    Box.SIXES: 6,
}

ALL_BOXES: tuple[Box, ...] = _ORDER
