"""One table's state as values: its seats and score sheet, the turn, the lot, its phase. The
transitions are core.game's."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any, TypeVar

from core.boxes import ALL_BOXES, Box
from core.dice import DICE_COUNT, Dice
from core.events import EndReason
from core.identity import ChannelKey, PlayerRef
from core.rules import MAX_THROWS, Variants
from core.takeback import Retake

NO_HOLDS: tuple[bool, ...] = (False,) * DICE_COUNT
_Value = TypeVar("_Value", "Game", "Seat", "Turn")


def evolve(value: _Value, **changes: Any) -> _Value:
    """`dataclasses.replace` for this module's frozen values, none of which checks anything as
    it is made: a copy of the fields with `changes`, at a sixth of replace's cost (every
    action makes two to four)."""
    new = object.__new__(type(value))
    fields = new.__dict__
    fields.update(value.__dict__)
    fields.update(changes)
    return new


class Phase(Enum):
    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"

    @property
    def active(self) -> bool:
        return self is not Phase.FINISHED


@dataclass(frozen=True)
class Seat:
    """A player's place at the table and their column of the score sheet."""

    player: PlayerRef
    scores: tuple[int | None, ...] = (None,) * len(ALL_BOXES)
    active: bool = True
    missed: int = 0  # turns in a row whose time ran out

    @property
    def total(self) -> int:
        return sum(points for points in self.scores if points is not None)

    def score_of(self, box: Box) -> int | None:
        return self.scores[box.index]

    def open_boxes(self) -> tuple[Box, ...]:
        sheet = zip(ALL_BOXES, self.scores, strict=True)
        return tuple(box for box, points in sheet if points is None)


@dataclass(frozen=True)
class Turn:
    """The current player's throws so far: dice showing and which are held."""

    throws: int = 0
    dice: Dice = ()
    held: tuple[bool, ...] = NO_HOLDS
    reminded: bool = False

    @property
    def throws_left(self) -> int:
        return MAX_THROWS - self.throws


NEW_TURN = Turn()  # a turn before its first throw (frozen: every turn may begin from it)


@dataclass(frozen=True)
class LotThrow:
    round: int
    player_id: str
    dice: Dice


@dataclass(frozen=True)
class Game:
    """One table. Seats are in join order in the lobby and in seating order once started."""

    id: str
    channel: ChannelKey
    host_id: str
    variants: Variants
    phase: Phase = Phase.LOBBY
    seats: tuple[Seat, ...] = ()
    current: int = 0
    round: int = 0
    turn: Turn = field(default_factory=Turn)
    lot: tuple[LotThrow, ...] = ()
    version: int = 0
    winners: tuple[str, ...] = ()
    end_reason: EndReason | None = None
    turn_started: float = 0.0  # when the current turn (in the lobby: the lobby) began
    touched: float = 0.0  # when anything last happened
    language: str = ""  # the table's language, decided when it opened ("": the chat decides)
    retake: Retake | None = None  # what taking back the last box restores (core.takeback)
    # The committed dice (core.fairdice): SHA-256 of the seed, shown from the lobby on, and the
    # secret seed, revealed at the end; both "" for the old dice. A game the service hands out
    # in play is sealed: its seed is "", so that no computer, hint or page holds a future throw.
    commitment: str = ""
    seed: str = field(default="", repr=False)
    # A tournament's table (core.tournament): "<event id>:<round>:<table>"; "" for any other.
    # Its seed is the round's (core.tournament.table_seed), revealed by the event once every
    # table of the round is over, never by the game: a duplicate round's tables share it.
    event: str = ""

    def seat_of(self, player_id: str) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.player.id == player_id:
                return index
        return None

    @property
    def current_seat(self) -> Seat | None:
        return self.seats[self.current] if self.phase is Phase.PLAYING else None

    def sealed(self) -> Game:
        """The game as players may know it: the seed only once the game is over (an event's
        table: never, see `event`)."""
        if not self.seed or (self.phase is Phase.FINISHED and not self.event):
            return self
        return evolve(self, seed="")

    @property
    def host(self) -> PlayerRef | None:
        index = self.seat_of(self.host_id)
        return None if index is None else self.seats[index].player
