"""Time at the table: when a turn is due a reminder or has run out, when a table is abandoned.

Pure functions of the game and the time; the service schedules them and applies what falls due.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum

from core.actions import Abandon, Leave, Remind
from core.computer import next_action
from core.dice import Roller
from core.events import Event, GameEnded, PlayerRemoved, RemovalCause, TurnStarted, TurnTimedOut
from core.game import apply
from core.levels import Level
from core.table import Game, Phase

LOBBY_LIFETIME = 30 * 60
IDLE_LIFETIME = 7 * 24 * 3600
MISSED_TURNS_LIMIT = 2


class Due(Enum):
    REMIND = "remind"
    EXPIRE = "expire"
    ABANDON = "abandon"


@dataclass(frozen=True)
class Deadline:
    at: float
    due: Due


def next_deadline(game: Game) -> Deadline | None:
    """The next moment the bot must act on this table by itself, if any."""
    if game.phase is Phase.LOBBY:
        return Deadline(game.turn_started + LOBBY_LIFETIME, Due.ABANDON)
    if game.phase is not Phase.PLAYING:
        return None
    idle = Deadline(game.touched + IDLE_LIFETIME, Due.ABANDON)
    ends = turn_ends(game)
    if ends is None:
        return idle
    if not game.turn.reminded:
        halfway = game.turn_started + game.variants.turn_timer / 2
        return min(idle, Deadline(halfway, Due.REMIND), key=_when)
    return min(idle, Deadline(ends, Due.EXPIRE), key=_when)


def turn_ends(game: Game) -> float | None:
    """When the turn being played times out: None without a turn timer, or for a computer's
    turn (it plays by itself), or outside play."""
    timer = game.variants.turn_timer
    if game.phase is not Phase.PLAYING or not timer:
        return None
    if game.seats[game.current].player.is_computer:
        return None
    return game.turn_started + timer


def _when(deadline: Deadline) -> float:
    return deadline.at


def act_on(game: Game, due: Due, roller: Roller, now: float) -> tuple[Game, tuple[Event, ...]]:
    """What the bot does when a deadline falls due."""
    player = game.seats[game.current].player
    if due is Due.ABANDON:
        return apply(game, player, Abandon(), roller, now)
    if due is Due.REMIND:
        return apply(game, player, Remind(), roller, now)
    return expire(game, roller, now)


def expire(game: Game, roller: Roller, now: float) -> tuple[Game, tuple[Event, ...]]:
    """The turn's time is up: it is played as the Club computer would (and stands: nobody may
    take it back); twice in a row, out."""
    index = game.current
    seat = game.seats[index]
    player, missed = seat.player, seat.missed + 1
    events: list[Event] = [TurnTimedOut(player.id)]
    over = False
    while not over:
        game, step = apply(game, player, next_action(game.sealed(), Level.CLUB), roller, now)
        events.extend(step)
        over = any(isinstance(event, TurnStarted | GameEnded) for event in step)
    seats = tuple(replace(s, missed=missed) if i == index else s for i, s in enumerate(game.seats))
    game = replace(game, seats=seats, retake=None)  # the bot wrote that box: it stands
    if missed >= MISSED_TURNS_LIMIT and game.phase is Phase.PLAYING:
        events.append(PlayerRemoved(player.id, RemovalCause.TIMEOUT))
        game, step = apply(game, player, Leave(), roller, now)
        events.extend(step)
    return game, tuple(events)
