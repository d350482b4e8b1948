"""Forgetting a person: what it means, written once for both storage backends.

A forgotten person's past results stay, for the other players' records, under an anonymous
player: one id (`forgotten-…`) and one neutral name (`anon-…`, the same in every language) per
forgotten person, so that everyone else's wins, history and ratings stay exactly as they were,
also through a rebuild of the ratings (which replays the results: one stable id replays as the
one player it was). Their ratings and rating changes move to that id; every stored game that
names them (its snapshot and its event log, finished or not) names the anonymous player
instead. A chat whose id is the person's own (Telegram's private chat with the bot) moves to
the anonymous id as well. Computers are never forgotten.

Seating the person out of the games in progress is the service's part (GameService.forget_person,
by the game's own rules, so that the tables go on and are shown as they do); storage then
rewrites what is stored.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from core.events import Event, event_from_dict, event_to_dict
from core.identity import COMPUTER_PREFIX, PlayerRef

FORGOTTEN_PREFIX = "forgotten-"
ANONYMOUS_PREFIX = "anon-"
# The fields of a snapshot and of events that hold a player's id, and those that hold ids.
_ID_FIELDS = ("player_id", "host_id")
_ID_LISTS = ("order", "winners")


@dataclass(frozen=True)
class Forgotten:
    """What forgetting a person changed: results rows and rating rows (every scope) moved to
    the anonymous player, stored games rewritten, games in progress left (the chat layer)."""

    results: int = 0
    ratings: int = 0
    games: int = 0
    seated_out: int = 0

    @property
    def anything(self) -> bool:
        return bool(self.results or self.ratings or self.games or self.seated_out)


def new_alias() -> PlayerRef:
    """A fresh anonymous player: 48 random bits, the name shows the first 16 of them."""
    tag = secrets.token_hex(6)
    return PlayerRef(FORGOTTEN_PREFIX + tag, ANONYMOUS_PREFIX + tag[:4])


def forgettable(player_id: str) -> bool:
    """People only: not a computer, not someone forgotten already, not nothing."""
    return bool(player_id) and not player_id.startswith((COMPUTER_PREFIX, FORGOTTEN_PREFIX))


def _swap(value: Any, player_id: str, alias: PlayerRef) -> Any:
    return alias.id if value == player_id else value


def scrub_snapshot(data: dict[str, Any], player_id: str, alias: PlayerRef) -> dict[str, Any] | None:
    """A stored snapshot (decoded JSON) with the person replaced by `alias`; None where it does
    not name them (or is not a snapshot at all)."""
    seats = data.get("seats")
    if not isinstance(seats, list):
        return None
    new = dict(data)
    new["host_id"] = _swap(data.get("host_id"), player_id, alias)
    new["seats"] = [
        {**seat, "id": alias.id, "name": alias.name}
        if isinstance(seat, dict) and seat.get("id") == player_id
        else seat
        for seat in seats
    ]
    lot = data.get("lot")
    if isinstance(lot, list):
        new["lot"] = [
            [t[0], _swap(t[1], player_id, alias), *t[2:]]
            if isinstance(t, list) and len(t) > 1
            else t
            for t in lot
        ]
    if isinstance(data.get("winners"), list):
        new["winners"] = [_swap(w, player_id, alias) for w in data["winners"]]
    return None if new == data else new


def scrub_event(data: dict[str, Any], player_id: str, alias: PlayerRef) -> dict[str, Any] | None:
    """A stored event (decoded JSON) with the person replaced by `alias` (their name too, where
    the event carries it); None where it does not name them."""
    new = dict(data)
    for key in _ID_FIELDS:
        if key in new and new[key] == player_id:
            new[key] = alias.id
            if key == "player_id" and "name" in new:
                new["name"] = alias.name
    for key in _ID_LISTS:
        if isinstance(new.get(key), list):
            new[key] = [_swap(item, player_id, alias) for item in new[key]]
    return None if new == data else new


def scrubbed(event: Event, player_id: str, alias: PlayerRef) -> Event:
    """An event as it is stored once the person is forgotten (see scrub_event)."""
    data = event_to_dict(event)
    return event_from_dict(scrub_event(data, player_id, alias) or data)
