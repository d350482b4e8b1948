"""Refusals of the game, each with a machine code that front ends translate."""

from __future__ import annotations

from enum import Enum
from typing import Any


class ErrorCode(Enum):
    """Why an action was refused; the value is the translation key suffix."""

    NO_GAME = "no-game"
    GAME_EXISTS = "game-exists"
    NOT_IN_LOBBY = "not-in-lobby"
    NOT_STARTED = "not-started"
    GAME_OVER = "game-over"
    ALREADY_SEATED = "already-seated"
    NOT_SEATED = "not-seated"
    TABLE_FULL = "table-full"
    NOT_HOST = "not-host"
    NOT_YOUR_TURN = "not-your-turn"
    NO_THROWS_LEFT = "no-throws-left"
    ALL_HELD = "all-held"  # a throw must throw at least one die; stopping is writing a box
    THROW_FIRST = "throw-first"
    BOX_FILLED = "box-filled"
    BAD_DIE = "bad-die"
    STALE = "stale"
    BAD_ACTION = "bad-action"
    BUSY = "busy"
    HINTS_OFF = "hints-off"
    NOT_AT_TABLE = "not-at-table"  # a rematch asked by someone who did not play the game
    REMATCH_UNAVAILABLE = "rematch-unavailable"  # no recorded game of this table by that id
    REMATCH_OPEN = "rematch-open"  # the table's game is already this game's rematch
    NOTHING_TO_TAKE_BACK = "nothing-to-take-back"  # no box written since the turn passed on
    NOT_YOUR_TAKE_BACK = "not-your-take-back"  # the last box is another player's to take back
    # Tournaments (core.tournament).
    NO_EVENT = "no-event"
    EVENT_EXISTS = "event-exists"  # the chat has an event not over
    EVENT_STARTED = "event-started"  # entries and rules are closed
    EVENT_OVER = "event-over"
    NOT_EVENT_HOST = "not-event-host"
    ALREADY_ENTERED = "already-entered"
    NOT_ENTERED = "not-entered"
    EVENT_FULL = "event-full"
    EVENT_TOO_FEW = "event-too-few"
    HOST_LEAVES = "host-leaves"  # the host cancels rather than leaves an open event
    NO_THREADS = "no-threads"  # more than one table and nowhere apart to play them


class Stale(Enum):
    """What changed since the board an out-of-date press was made on: the detail of a STALE
    refusal, so that the presser is told (`error-stale-<value>`), not just "out of date"."""

    THROWN = "thrown"  # the dice were thrown since; `dice`: as they lie now
    HELD = "held"  # the die was held since (a second tap on its button)
    RELEASED = "released"  # the die was released since (a second tap)
    REPEATED = "repeated"  # the presser's own same press was carried out since (a double tap)
    STARTED = "started"  # a lobby's press after the game began
    TURN_PASSED = "turn-passed"  # the turn shown is over; `player`: whose turn it is now
    NEW_TURN = "new-turn"  # the turn shown is over and a new one of the presser's began; `round`


class GameError(ValueError):
    """An action the rules refuse; nothing changed. `params` feed the translated message;
    `detail` says, of a STALE refusal, what changed (None: not known)."""

    def __init__(self, code: ErrorCode, *, detail: Stale | None = None, **params: Any) -> None:
        said = code.value if detail is None else f"{code.value}-{detail.value}"
        super().__init__(f"{said}: {params}" if params else said)
        self.code = code
        self.detail = detail
        self.params = params


class StorageCode(Enum):
    """Why the storage refused; front ends and start-up name the case by its value."""

    DATABASE_BUSY = "database-busy"  # another process holds the SQLite file
    DATABASE_GONE = "database-gone"  # the SQLite file was deleted or replaced under the process


class StorageError(RuntimeError):
    """The storage cannot be used safely: nothing was written. str() is one line for people."""

    def __init__(self, code: StorageCode, message: str) -> None:
        super().__init__(message)
        self.code = code
