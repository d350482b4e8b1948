"""Taking back a mis-tapped box: its player's turn restored, until the next player acts.

When a person writes a box and the game goes on, the game keeps what their turn was just before
(`Retake`). Until the next player acts (a throw, a hold, leaving; a reminder is not acting, an
expired turn is), the writer alone may take the box back: the same dice, held dice and throw,
their sheet without it, and the time their turn had left. The box that ends the game cannot be
taken back (the game is over), nor a computer's, nor one the bot wrote for an expired turn.
The log keeps both the box and its taking back; `standing` is the log as it stands.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from core.boxes import Box
from core.dice import Dice
from core.errors import ErrorCode, GameError
from core.events import BoxScored, Event, ScoreTakenBack
from core.identity import PlayerRef

if TYPE_CHECKING:  # core.game imports this module: its types only
    from core.table import Game


@dataclass(frozen=True)
class Retake:
    """What taking back the last box restores: the writer's seat, the round, the turn as it was
    before the box was written, the box, their count of missed turns, and how long the turn had
    run (the restored turn's clock goes on from there)."""

    seat: int
    round: int
    throws: int
    dice: Dice
    held: tuple[bool, ...]
    reminded: bool
    box: Box
    missed: int
    elapsed: float


def retake_of(game: Game, box: Box, now: float) -> Retake | None:
    """What writing `box` now in the current turn leaves to take back (nothing for a computer)."""
    seat, turn = game.seats[game.current], game.turn
    if seat.player.is_computer:
        return None
    return Retake(
        game.current,
        game.round,
        turn.throws,
        turn.dice,
        turn.held,
        turn.reminded,
        box,
        seat.missed,
        max(0.0, now - game.turn_started),
    )


def take_back(game: Game, player: PlayerRef, now: float) -> tuple[Game, tuple[Event, ...]]:
    """`player` takes back the box they wrote last; refused where there is none to take back
    or it is someone else's."""
    retake = game.retake
    if game.current_seat is None:
        raise GameError(ErrorCode.NOT_STARTED)
    if retake is None:
        raise GameError(ErrorCode.NOTHING_TO_TAKE_BACK)
    writer = game.seats[retake.seat]
    if writer.player.id != player.id:
        raise GameError(ErrorCode.NOT_YOUR_TAKE_BACK, player=writer.player.name)
    index = retake.box.index
    scores = tuple(None if i == index else points for i, points in enumerate(writer.scores))
    restored = replace(writer, scores=scores, missed=retake.missed)
    turn = replace(
        game.turn,
        throws=retake.throws,
        dice=retake.dice,
        held=retake.held,
        reminded=retake.reminded,
    )
    game = replace(
        game,
        seats=tuple(restored if i == retake.seat else s for i, s in enumerate(game.seats)),
        current=retake.seat,
        round=retake.round,
        turn=turn,
        retake=None,
        turn_started=now - retake.elapsed,
    )
    return game, (ScoreTakenBack(player.id, retake.box, writer.scores[index] or 0),)


def standing(events: Iterable[Event]) -> list[Event]:
    """The log as it stands: each taking back removes the box it took back and what followed
    it (the next player's turn beginning, a reminder), so that a review judges what stands."""
    kept: list[Event] = []
    written: list[int] = []  # where each standing box is in `kept`
    for event in events:
        if isinstance(event, ScoreTakenBack):
            if written:
                del kept[written.pop() :]
            continue
        if isinstance(event, BoxScored):
            written.append(len(kept))
        kept.append(event)
    return kept


def retake_to_dict(retake: Retake | None) -> dict[str, Any] | None:
    """The snapshot's form of what may be taken back (None: nothing)."""
    if retake is None:
        return None
    return {
        "seat": retake.seat,
        "round": retake.round,
        "throws": retake.throws,
        "dice": list(retake.dice),
        "held": list(retake.held),
        "reminded": retake.reminded,
        "box": retake.box.value,
        "missed": retake.missed,
        "elapsed": retake.elapsed,
    }


def retake_from_dict(data: dict[str, Any] | None) -> Retake | None:
    """Read back retake_to_dict's form; a snapshot from before take-backs has none."""
    if data is None:
        return None
    return Retake(  # as stored, nothing coerced: core.invariants judges it
        data["seat"],
        data["round"],
        data["throws"],
        tuple(data["dice"]),
        tuple(data["held"]),
        data["reminded"],
        Box(data["box"]),
        data["missed"],
        data["elapsed"],
    )
