"""What a chat's administrators choose for their tables; a game keeps what it started with."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from enum import Enum
from typing import Any

from core.rules import MAX_TABLE_CAP, MIN_TABLE_CAP, BigGeneralMode, Variants

TURN_TIMERS = (0, 60, 300, 600, 1800, 3600, 86400)  # seconds; 0 is off
TABLE_CAPS = (2, 4, 6, 10, 20, 50)
PAUSES: tuple[float | None, ...] = (None, 0.0, 0.5, 1.0, 2.0, 3.0)  # None: the bot's default
LANGUAGES: tuple[str | None, ...] = (None, "en", "ru")  # None: each person's own language


class SheetStyle(Enum):
    TEXT = "text"
    PICTURE = "picture"


@dataclass(frozen=True)
class ChatSettings:
    language: str | None = None
    turn_timer: int = 600
    hints: bool = True
    big_general: BigGeneralMode = BigGeneralMode.ENDS_GAME
    five_of_a_kind_full_house: bool = False
    straight_joker: bool = True
    table_cap: int = 10
    sheet: SheetStyle = SheetStyle.TEXT
    computer_pause: float | None = None
    chances: bool = True

    def __post_init__(self) -> None:
        if not MIN_TABLE_CAP <= self.table_cap <= MAX_TABLE_CAP:
            raise ValueError("table cap out of range")
        if not 0 <= self.turn_timer <= 86400 or 0 < self.turn_timer < 60:
            raise ValueError("turn timer is off or 1 minute to 24 hours")

    def variants(self) -> Variants:
        """The rules a new game in this chat starts with."""
        return Variants(
            big_general=self.big_general,
            five_of_a_kind_full_house=self.five_of_a_kind_full_house,
            straight_joker=self.straight_joker,
            table_cap=self.table_cap,
            hints=self.hints,
            turn_timer=self.turn_timer,
            chances=self.chances,
        )

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {}
        for item in fields(self):
            value = getattr(self, item.name)
            data[item.name] = value.value if isinstance(value, Enum) else value
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ChatSettings:
        """Unknown keys are ignored and bad values fall back to the default: settings are data."""
        settings = cls()
        for item in fields(cls):
            if item.name not in data:
                continue
            try:
                settings = settings.changed(item.name, data[item.name])
            except (ValueError, TypeError):
                continue
        return settings

    def changed(self, name: str, value: Any) -> ChatSettings:
        current = getattr(self, name)
        if isinstance(current, Enum):
            value = type(current)(value)
        elif isinstance(current, bool):
            value = bool(value)
        elif name == "computer_pause":
            value = None if value is None else float(value)
        elif name == "language":
            value = value if value in LANGUAGES else None
        elif isinstance(current, int):
            value = int(value)
        return replace(self, **{name: value})


# The order in which the settings screen cycles through each setting's choices.
CHOICES: dict[str, tuple[Any, ...]] = {
    "language": LANGUAGES,
    "turn_timer": TURN_TIMERS,
    "hints": (True, False),
    "big_general": tuple(BigGeneralMode),
    "five_of_a_kind_full_house": (False, True),
    "straight_joker": (True, False),
    "table_cap": TABLE_CAPS,
    "sheet": tuple(SheetStyle),
    "computer_pause": PAUSES,
    "chances": (True, False),
}


def cycled(settings: ChatSettings, name: str) -> ChatSettings:
    """The setting moved on to its next choice (wrapping round)."""
    options = CHOICES[name]
    current = getattr(settings, name)
    position = options.index(current) if current in options else -1
    return replace(settings, **{name: options[(position + 1) % len(options)]})
