"""A rematch: the lobby of a new game built from a finished one, with its players seated again.

Who sits: the presser first, as host, then everyone who was still at the old table at its end,
in the old seating order, computers included. Those who had left or were removed (kicked, timed
out) are not seated again: they chose to go, or were sent away, and a rematch that pulled them
back would undo that; they may join the new lobby like anyone. Computers are numbered again in
their new order, as the lobby's 🤖 buttons would have numbered them, so that a computer added
later never takes an id already seated.
"""

from __future__ import annotations

from dataclasses import replace

from core.actions import Open
from core.computer import level_of
from core.errors import ErrorCode, GameError
from core.events import RECORDED_ENDS, Event, LobbyOpened, PlayerJoined
from core.game import open_lobby
from core.identity import COMPUTER_PREFIX, PlayerRef
from core.table import Game, Phase, Seat


def rematch_lobby(
    old: Game, game_id: str, presser: PlayerRef, now: float = 0.0, seed: str = ""
) -> tuple[Game, tuple[Event, ...]]:
    """The new lobby, in the old game's channel, variants and language; raises GameError when
    `old` did not end in a recorded way (REMATCH_UNAVAILABLE) or `presser` never sat at it
    (NOT_AT_TABLE). The log tells it as a lobby opened (naming the old game) and its seats
    taken, as `open_lobby`, Join and AddComputer tell them. Its dice are committed to `seed`."""
    if old.phase is not Phase.FINISHED or old.end_reason not in RECORDED_ENDS:
        raise GameError(ErrorCode.REMATCH_UNAVAILABLE)
    index = old.seat_of(presser.id)
    if index is None or presser.is_computer:
        raise GameError(ErrorCode.NOT_AT_TABLE)
    opening = Open(variants=old.variants, language=old.language)
    lobby, opened = open_lobby(game_id, old.channel, presser, opening, now, seed)
    others = _renumbered(
        [seat.player for seat in old.seats if seat.active and seat.player.id != presser.id]
    )
    seats = (*lobby.seats, *(Seat(player) for player in others))
    events: tuple[Event, ...] = (
        LobbyOpened(presser.id, rematch_of=old.id, commitment=lobby.commitment),
        *opened[1:],
        *(PlayerJoined(player.id, player.name) for player in others),
    )
    return replace(lobby, seats=seats), events


def _renumbered(players: list[PlayerRef]) -> list[PlayerRef]:
    """Computers' ids numbered 1, 2, … in seat order (people keep theirs)."""
    out: list[PlayerRef] = []
    number = 0
    for player in players:
        level = level_of(player)
        if level is not None:
            number += 1
            player = PlayerRef(f"{COMPUTER_PREFIX}{level.value}-{number}", player.name)
        out.append(player)
    return out
