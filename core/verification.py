"""A finished game's dice checked against its seed, from its log alone: every throw's place is
worked out as the game made it (DICE.md), and each die thrown must be the seed's at that place.
The export is the same throws as plain data, for a verifier that trusts nothing of the bot."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from core.dice import DICE_COUNT, Dice
from core.events import (
    DiceRolled,
    Event,
    GameEnded,
    GameStarted,
    LobbyOpened,
    LotThrown,
    PlayerJoined,
    PlayerLeft,
    TurnStarted,
)
from core.fairdice import SCHEME, Place, Stage, commitment_of, face, is_seed


@dataclass(frozen=True)
class Throw:
    """One throw as the log tells it, at its place: the dice showing after it, and which of
    them were held from the throw before (a held die was not thrown)."""

    stage: Stage
    round: int
    seat: int
    throw: int
    player_id: str
    held: tuple[bool, ...]
    dice: Dice

    @property
    def turn(self) -> tuple[Stage, int, int]:
        return self.stage, self.round, self.seat

    def places(self) -> tuple[Place, ...]:
        return tuple(
            Place(self.stage, self.round, self.seat, self.throw, die)
            for die in range(DICE_COUNT)
            if not self.held[die]
        )


class Finding(Enum):
    """What a check found: the machine code of its answer."""

    MATCH = "match"
    NOT_COMMITTED = "not_committed"  # a game of the old dice
    NOT_REVEALED = "not_revealed"  # still in play: the seed is told at the end
    BAD_SEED = "bad_seed"  # the seed revealed is not the one committed to
    MISMATCH = "mismatch"  # a throw is not the seed's
    ORDER = "order"  # a throw out of turn: a number skipped or told twice


@dataclass(frozen=True)
class Verdict:
    finding: Finding
    throws: int  # how many throws were checked (up to the first that failed)
    commitment: str = ""
    seed: str = ""
    first_bad: Throw | None = None
    expected: Dice = ()  # what the seed gives at the first bad throw

    @property
    def ok(self) -> bool:
        return self.finding is Finding.MATCH


def throws_of(events: Sequence[Event]) -> list[Throw]:
    """Every throw of the log, lot first, each at its place: the lot's seats in the lobby's
    order as it stood at the start, the game's in the seating order."""
    lobby: list[str] = []
    order: tuple[str, ...] = ()
    round_ = 0
    found: list[Throw] = []
    for event in events:
        match event:
            case PlayerJoined(player_id=player) if not order:
                lobby.append(player)
            case PlayerLeft(player_id=player) if not order and player in lobby:
                lobby.remove(player)
            case LotThrown(round=lot_round, player_id=player, dice=dice):
                seat = lobby.index(player)
                found.append(Throw(Stage.LOT, lot_round, seat, 1, player, (False,) * 5, dice))
            case GameStarted(order=seating):
                order = seating
            case TurnStarted(round=started):
                round_ = started
            case DiceRolled(player_id=player, throw=throw, dice=dice, held=held):
                seat = order.index(player)
                found.append(Throw(Stage.TURN, round_, seat, throw, player, held, dice))
    return found


def revealed(events: Sequence[Event]) -> tuple[str, str]:
    """The commitment the lobby told and the seed the end revealed ("" where none)."""
    commitment = next((e.commitment for e in events if isinstance(e, LobbyOpened)), "")
    seed = next((e.seed for e in events if isinstance(e, GameEnded)), "")
    return commitment, seed


def verify(events: Sequence[Event], stored_seed: str | None = None) -> Verdict:
    """Check every throw of a game's log against the seed its end revealed, and the seed
    against the commitment its lobby told. `stored_seed`: the seed as the database holds it,
    to check a game still in play (what its operator, and the tests, may do), or the seed a
    tournament revealed for its table (whose own end reveals none: core.table.Game.event)."""
    commitment, seed = revealed(events)
    ended = any(isinstance(e, GameEnded) for e in events)
    if not commitment:
        return Verdict(Finding.NOT_COMMITTED, 0)
    if stored_seed is not None and not (ended and seed):  # an event's table: told by the event
        seed = stored_seed
    elif not ended:
        return Verdict(Finding.NOT_REVEALED, 0, commitment)
    if not is_seed(seed) or commitment_of(seed) != commitment:
        return Verdict(Finding.BAD_SEED, 0, commitment, seed)
    previous: Throw | None = None
    checked, turns = 0, set()
    for throw in throws_of(events):
        follows = previous is not None and _same_turn(previous, throw)
        number = previous.throw + 1 if previous is not None and follows else 1
        if throw.throw != number or (not follows and throw.turn in turns):
            return Verdict(Finding.ORDER, checked, commitment, seed, throw)
        turns.add(throw.turn)
        expected = _expected(seed, throw, previous)
        if expected != throw.dice:
            return Verdict(Finding.MISMATCH, checked, commitment, seed, throw, expected)
        checked += 1
        previous = throw
    return Verdict(Finding.MATCH, checked, commitment, seed)


def _same_turn(previous: Throw | None, throw: Throw) -> bool:
    """Whether `throw` follows `previous` in one turn (a lot's throws are each a turn)."""
    return (
        previous is not None
        and throw.stage is Stage.TURN
        and (previous.stage, previous.round, previous.seat)
        == (throw.stage, throw.round, throw.seat)
    )


def _expected(seed: str, throw: Throw, previous: Throw | None) -> Dice:
    """The dice the seed gives at the throw's places; a held die is the one shown before it."""
    before = previous.dice if previous is not None and _same_turn(previous, throw) else ()
    thrown = iter(face(seed, place) for place in throw.places())
    return tuple(
        (before[die] if before else 0) if throw.held[die] else next(thrown)
        for die in range(DICE_COUNT)
    )


def export(game_id: str, events: Sequence[Event], names: dict[str, str]) -> dict[str, Any]:
    """A game's dice as plain JSON for the stand-alone verifier (verifier/verify_dice.py)."""
    commitment, seed = revealed(events)
    return {
        "scheme": SCHEME,
        "game": game_id,
        "commitment": commitment,
        "seed": seed,
        "throws": [
            {
                "stage": throw.stage.value,
                "round": throw.round,
                "seat": throw.seat,
                "throw": throw.throw,
                "player": names.get(throw.player_id, throw.player_id),
                "held": list(throw.held),
                "dice": list(throw.dice),
            }
            for throw in throws_of(events)
        ],
    }
