"""What happened: every change to a game is told as events, every die thrown included."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import Enum, StrEnum
from typing import Any, ClassVar

from core.boxes import Box


class EndReason(Enum):
    COMPLETED = "completed"
    BIG_GENERAL = "big_general"
    CANCELLED = "cancelled"
    ABANDONED = "abandoned"  # every person left
    IDLE = "idle"  # a lobby nobody started, or a game nobody touched for days


# The endings that count: their results are recorded (leaderboards, ratings) and reviewed.
RECORDED_ENDS = frozenset({EndReason.COMPLETED, EndReason.BIG_GENERAL})


@dataclass(frozen=True)
class LobbyOpened:
    """A lobby opened; `rematch_of` names the finished game it is a rematch of ("" if none);
    `commitment` is the SHA-256 of its dice's seed, shown before any die ("": the old dice)."""

    kind: ClassVar[str] = "lobby_opened"
    host_id: str
    rematch_of: str = ""
    commitment: str = ""


@dataclass(frozen=True)
class PlayerJoined:
    kind: ClassVar[str] = "player_joined"
    player_id: str
    name: str


@dataclass(frozen=True)
class PlayerLeft:
    kind: ClassVar[str] = "player_left"
    player_id: str
    name: str = ""  # a lobby forgets who left: the event remembers


class RemovalCause(StrEnum):
    """Why a player was taken off the table; a str, so that the words' keys read as before."""

    KICKED = "kicked"  # by the host
    TIMEOUT = "timeout"  # too many turns in a row ran out


@dataclass(frozen=True)
class PlayerRemoved:
    kind: ClassVar[str] = "player_removed"
    player_id: str
    cause: RemovalCause


@dataclass(frozen=True)
class TurnReminder:
    kind: ClassVar[str] = "turn_reminder"
    player_id: str
    seconds_left: int


@dataclass(frozen=True)
class TurnTimedOut:
    """The turn's time ran out: the bot plays it for the player, as the Club computer would."""

    kind: ClassVar[str] = "turn_timed_out"
    player_id: str


@dataclass(frozen=True)
class HostChanged:
    kind: ClassVar[str] = "host_changed"
    player_id: str


@dataclass(frozen=True)
class LotThrown:
    """One throw of the lot; `round` counts the re-throws among players tied for lowest."""

    kind: ClassVar[str] = "lot_thrown"
    round: int
    player_id: str
    dice: tuple[int, ...]


@dataclass(frozen=True)
class GameStarted:
    kind: ClassVar[str] = "game_started"
    order: tuple[str, ...]


@dataclass(frozen=True)
class TurnStarted:
    kind: ClassVar[str] = "turn_started"
    player_id: str
    round: int


@dataclass(frozen=True)
class DiceRolled:
    kind: ClassVar[str] = "dice_rolled"
    player_id: str
    throw: int
    dice: tuple[int, ...]
    held: tuple[bool, ...]


@dataclass(frozen=True)
class HoldChanged:
    kind: ClassVar[str] = "hold_changed"
    player_id: str
    held: tuple[bool, ...]


@dataclass(frozen=True)
class BoxScored:
    kind: ClassVar[str] = "box_scored"
    player_id: str
    box: Box
    points: int
    dice: tuple[int, ...]
    throw: int


@dataclass(frozen=True)
class ScoreTakenBack:
    """`player_id` took back the `points` they had just written in `box`: the box is open
    again and their turn goes on as it was (the log's reviews skip what was taken back)."""

    kind: ClassVar[str] = "score_taken_back"
    player_id: str
    box: Box
    points: int


@dataclass(frozen=True)
class BigGeneralThrown:
    kind: ClassVar[str] = "big_general"
    player_id: str
    dice: tuple[int, ...]


@dataclass(frozen=True)
class GameEnded:
    kind: ClassVar[str] = "game_ended"
    reason: EndReason
    winners: tuple[str, ...]
    seed: str = ""  # the committed dice's seed, revealed ("": the old dice)


Event = (
    LobbyOpened
    | PlayerJoined
    | PlayerLeft
    | PlayerRemoved
    | TurnReminder
    | TurnTimedOut
    | HostChanged
    | LotThrown
    | GameStarted
    | TurnStarted
    | DiceRolled
    | HoldChanged
    | BoxScored
    | ScoreTakenBack
    | BigGeneralThrown
    | GameEnded
)

EVENT_TYPES: dict[str, type[Event]] = {
    cls.kind: cls
    for cls in (
        LobbyOpened,
        PlayerJoined,
        PlayerLeft,
        PlayerRemoved,
        TurnReminder,
        TurnTimedOut,
        HostChanged,
        LotThrown,
        GameStarted,
        TurnStarted,
        DiceRolled,
        HoldChanged,
        BoxScored,
        ScoreTakenBack,
        BigGeneralThrown,
        GameEnded,
    )
}


# The fields stored by their enum's value, read back into the enum.
_ENUM_FIELDS: dict[str, type[Enum]] = {"box": Box, "reason": EndReason, "cause": RemovalCause}


def event_to_dict(event: Event) -> dict[str, Any]:
    """Explicit JSON-ready form; enums by value, tuples as lists."""
    data: dict[str, Any] = {"kind": event.kind}
    for name, _ in _fields(type(event)):
        value = getattr(event, name)
        if isinstance(value, Enum):
            value = value.value
        elif isinstance(value, tuple):
            value = list(value)
        data[name] = value
    return data


def event_from_dict(data: dict[str, Any]) -> Event:
    cls = EVENT_TYPES[data["kind"]]
    values: dict[str, Any] = {}
    for name, optional in _fields(cls):
        if optional and name not in data:
            continue  # a field added later: older logs take its default
        raw = data[name]
        if name in _ENUM_FIELDS:
            raw = _ENUM_FIELDS[name](raw)
        elif isinstance(raw, list):
            raw = tuple(raw)
        values[name] = raw
    return cls(**values)


_FIELDS: dict[type, tuple[tuple[str, bool], ...]] = {}


def _fields(cls: type) -> tuple[tuple[str, bool], ...]:
    """An event type's fields, read once (dataclasses.fields() was most of a save's events'
    cost): each one's name, and whether it has a default."""
    found = _FIELDS.get(cls)
    if found is None:
        found = _FIELDS[cls] = tuple(
            (item.name, item.default is not dataclasses.MISSING) for item in dataclasses.fields(cls)
        )
    return found
