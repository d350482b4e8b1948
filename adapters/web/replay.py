"""A finished game turn by turn, from its event log: what the page's replay steps through.

Each frame is the finished game as it stood after a turn (the sheet as written then, the dice
of that turn), made from the stored game by putting its seats' sheets back: the log as it
stands (a box taken back is no turn) decides every frame, and the last is the game's end.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from core.boxes import ALL_BOXES
from core.events import (
    BigGeneralThrown,
    BoxScored,
    Event,
    GameEnded,
    GameStarted,
    PlayerLeft,
    PlayerRemoved,
    TurnTimedOut,
)
from core.table import NEW_TURN, Game, Phase, Turn, evolve
from core.takeback import standing

TURN_ENDS = (BoxScored, BigGeneralThrown, TurnTimedOut, PlayerLeft, PlayerRemoved)


Frame = tuple[Game, tuple[Event, ...]]


def frames(game: Game, events: Iterable[Event]) -> list[Frame]:
    """The game at its start, after each turn, and at its end (the stored game itself), each
    with what made it (said in the frame's status line). A frame shows no live chances (the
    end's chart has them, turn by turn)."""
    log = standing(events)
    if game.phase is not Phase.FINISHED:
        return [(game, ())]
    empty: list[int | None] = [None] * len(ALL_BOXES)
    sheets = {seat.player.id: list(empty) for seat in game.seats}
    gone: set[str] = set()
    shown: list[Frame] = []
    round_ = 1
    for event in log:
        if isinstance(event, GameStarted):
            shown.append((_frame(game, sheets, gone, round_, "", (), 0, len(shown)), (event,)))
        elif isinstance(event, TURN_ENDS):
            player = event.player_id
            dice: tuple[int, ...] = ()
            throw = 1
            if isinstance(event, BoxScored) and player in sheets:
                sheets[player][event.box.index] = event.points
                dice, throw = event.dice, event.throw
            elif isinstance(event, BigGeneralThrown):
                dice = event.dice
            elif isinstance(event, PlayerLeft | PlayerRemoved):
                gone.add(player)
            frame = _frame(game, sheets, gone, round_, player, dice, throw, len(shown))
            shown.append((frame, (event,)))
        round_ = getattr(event, "round", round_)
    ended = tuple(e for e in log if isinstance(e, GameEnded))
    shown.append((game, ended))
    return shown


def _frame(
    game: Game,
    sheets: dict[str, list[int | None]],
    gone: set[str],
    round_: int,
    mover: str,
    dice: tuple[int, ...],
    throw: int,
    index: int,
) -> Game:
    seats = tuple(
        evolve(
            seat,
            scores=tuple(sheets[seat.player.id]),
            active=seat.player.id not in gone,
        )
        for seat in game.seats
    )
    current = game.seat_of(mover) or 0
    turn = Turn(throws=throw, dice=dice) if dice else NEW_TURN
    return evolve(
        game,
        phase=Phase.PLAYING,
        variants=replace(game.variants, chances=False),  # a frame's chances: the chart's
        seats=seats,
        current=current,
        round=max(round_, 1),
        turn=turn,
        version=index,
        winners=(),
        end_reason=None,
        retake=None,
    )
