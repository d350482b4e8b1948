"""What a chat's administrators choose for their tables; a game keeps what it started with."""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from enum import Enum
from typing import Any

from core.rules import Variants, choices_of, offered, read_as
from core.seasons import ZONES, SeasonLength

PAUSES: tuple[float | None, ...] = (None, 0.0, 0.5, 1.0, 2.0, 3.0)  # None: the bot's default
LANGUAGES: tuple[str | None, ...] = (None, "en", "ru")  # None: each person's own language


class SheetStyle(Enum):
    TEXT = "text"
    PICTURE = "picture"


class DiceKind(Enum):
    """Sealed: each game's dice drawn from a seed committed to in its lobby (core.fairdice);
    plain: the old dice, thrown by the system's randomness, with nothing to check."""

    SEALED = "sealed"
    PLAIN = "plain"


@dataclass(frozen=True)
class ChatSettings(Variants):
    """The rules a new game starts with (each variant, declared in Variants) and the chat's own
    choices. Not itself a game's rules: `variants()` is what a table plays."""

    language: str | None = field(default=None, metadata=offered(LANGUAGES))
    sheet: SheetStyle = field(default=SheetStyle.TEXT, metadata=offered(tuple(SheetStyle)))
    computer_pause: float | None = field(default=None, metadata=offered(PAUSES))
    dice: DiceKind = field(default=DiceKind.SEALED, metadata=offered(tuple(DiceKind)))
    # The ladder's seasons (core.seasons), and the time zone their days begin in.
    season: SeasonLength = field(
        default=SeasonLength.MONTHLY, metadata=offered(tuple(SeasonLength))
    )
    time_zone: str = field(default="UTC", metadata=offered(ZONES))

    def __post_init__(self) -> None:
        super().__post_init__()
        if not 0 <= self.turn_timer <= 86400 or 0 < self.turn_timer < 60:
            raise ValueError("turn timer is off or 1 minute to 24 hours")

    def variants(self) -> Variants:
        """The rules a new game in this chat starts with."""
        return Variants(**{item.name: getattr(self, item.name) for item in fields(Variants)})

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
        if name == "computer_pause":
            value = None if value is None else float(value)
        elif name == "language":
            value = value if value in LANGUAGES else None
        elif name == "time_zone":
            value = value if value in ZONES else "UTC"
        else:
            value = read_as(getattr(self, name), value)
        return replace(self, **{name: value})


# The settings screen's rows, top to bottom: each setting of ChatSettings once.
ROWS = (
    "language",
    "turn_timer",
    "hints",
    "big_general",
    "five_of_a_kind_full_house",
    "straight_joker",
    "table_cap",
    "sheet",
    "computer_pause",
    "chances",
    "dice",
    "season",
    "time_zone",
)
# What the settings screen cycles through for each row, in order.
CHOICES: dict[str, tuple[Any, ...]] = {
    name: choices_of(item) for name in ROWS for item in fields(ChatSettings) if item.name == name
}


def cycled(settings: ChatSettings, name: str) -> ChatSettings:
    """The setting moved on to its next choice (wrapping round)."""
    options = CHOICES[name]
    current = getattr(settings, name)
    position = options.index(current) if current in options else -1
    return replace(settings, **{name: options[(position + 1) % len(options)]})
