"""What a chat must show after an applied action, decided once for every front end.

A game lives in a chat as boards: the lobby message, then one message per turn that is edited
while the turn lasts and keeps, once the turn is over, what was written. The plan says which board
to redraw and how, whether a new board follows (a new message notifies the next player), and
whether the game's final message is due. Each front end carries the steps out with its own drawing.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from core.events import (
    BigGeneralThrown,
    BoxScored,
    Event,
    GameEnded,
    GameStarted,
    LobbyOpened,
    LotThrown,
    PlayerRemoved,
    TurnReminder,
    TurnStarted,
    TurnTimedOut,
)
from core.table import Phase
from core.view import GameView

# What the next player's new board begins with.
PREFACED = (LotThrown, GameStarted, TurnTimedOut, PlayerRemoved)


class Redraw(Enum):
    """How the current board message is redrawn."""

    LOBBY = "lobby"  # the lobby, open (with buttons) or closed
    TURN = "turn"  # the live turn, with its buttons
    FINISHED_TURN = "finished_turn"  # the dice and what was written, no buttons
    NARRATION = "narration"  # what happened (a player left, the host cancelled), no buttons


@dataclass(frozen=True)
class Plan:
    """Each event is told once: by the redrawn board (`told`), the new board's preface, a
    notice or the final message (the game's end, which no board repeats)."""

    redraw: Redraw | None
    new_board: bool
    preface: tuple[Event, ...]  # narrated at the top of the new board (the lot, the start)
    final: bool
    notice: tuple[Event, ...] = ()  # said in a message of its own, to notify (a reminder)
    told: tuple[Event, ...] = ()  # what a NARRATION redraw says
    strip: bool = False  # the board loses its buttons, its text kept (the final says why)


def plan(view: GameView, events: tuple[Event, ...]) -> Plan:
    kinds = {type(event) for event in events}
    if LobbyOpened in kinds:
        return Plan(None, new_board=True, preface=(), final=False)
    turn_over = TurnStarted in kinds or GameEnded in kinds
    if view.round == 0 or GameStarted in kinds:
        redraw = Redraw.LOBBY
    elif not turn_over:
        redraw = Redraw.TURN
    elif BoxScored in kinds or BigGeneralThrown in kinds:
        redraw = Redraw.FINISHED_TURN
    else:
        redraw = Redraw.NARRATION
    if view.phase is Phase.LOBBY or redraw is Redraw.TURN:
        notice = tuple(e for e in events if isinstance(e, TurnReminder))
        return Plan(redraw, new_board=False, preface=(), final=False, notice=notice)
    told = narrated(redraw, events)
    if view.phase is Phase.FINISHED:
        if redraw is Redraw.NARRATION and not told:  # a cancel, a closed table: the final's
            return Plan(None, new_board=False, preface=(), final=True, strip=True)
        return Plan(redraw, new_board=False, preface=(), final=True, told=told)
    preface = tuple(e for e in events if isinstance(e, PREFACED) and e not in told)
    return Plan(redraw, new_board=True, preface=preface, final=False, told=told)


def narrated(redraw: Redraw | None, events: tuple[Event, ...]) -> tuple[Event, ...]:
    """What the board says in its place where it is redrawn as a narration: everything but the
    game's end, which its final message says."""
    if redraw is not Redraw.NARRATION:
        return ()
    return tuple(e for e in events if not isinstance(e, GameEnded))
