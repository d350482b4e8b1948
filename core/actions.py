"""What a player can do: small frozen values that front ends build from commands and buttons."""

from __future__ import annotations

from dataclasses import dataclass, field

from core.boxes import Box
from core.levels import Level
from core.rules import DEFAULT_VARIANTS, Variants


@dataclass(frozen=True)
class Open:
    """Open a lobby in a channel; the opener is the host and is seated. `language` is the
    table's, kept with the game so that every public message of it reads the same after a
    restart ("" where the chat's setting decides). `committed`: the dice are drawn from a
    seed committed to in the lobby (core.fairdice); False for the old dice."""

    variants: Variants = field(default=DEFAULT_VARIANTS)
    language: str = ""
    committed: bool = True


@dataclass(frozen=True)
class Join:
    pass


@dataclass(frozen=True)
class AddComputer:
    """The host seats a computer of `level`, shown as `name` (chosen in the chat's language)."""

    level: Level
    name: str


@dataclass(frozen=True)
class Leave:
    pass


@dataclass(frozen=True)
class Kick:
    """The host removes a player from the table (their sheet stays in the record)."""

    player_id: str


@dataclass(frozen=True)
class Remind:
    """The bot reminds the player whose turn it is that half their time has gone."""


@dataclass(frozen=True)
class Abandon:
    """The bot closes a lobby nobody started, or a game nobody touched for days."""


@dataclass(frozen=True)
class Start:
    pass


@dataclass(frozen=True)
class Cancel:
    pass


@dataclass(frozen=True)
class Roll:
    pass


@dataclass(frozen=True)
class ToggleHold:
    """Hold or release die `index` (0…4) before the next throw."""

    index: int


@dataclass(frozen=True)
class Hold:
    """Hold exactly the dice at `indices`, releasing the rest."""

    indices: frozenset[int]


@dataclass(frozen=True)
class Score:
    box: Box


@dataclass(frozen=True)
class TakeBack:
    """The player who wrote the last box takes it back (a mis-tap) before the next player acts:
    their turn is again as it was just before they wrote it (core.takeback)."""


Action = (
    Open
    | Join
    | AddComputer
    | Leave
    | Kick
    | Remind
    | Abandon
    | Start
    | Cancel
    | Roll
    | ToggleHold
    | Hold
    | Score
    | TakeBack
)
