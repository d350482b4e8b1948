"""A tournament's table made as any table is, by the rules' own steps: a lobby, everyone
seated in the pairing's order, the lot, the start; so that its log replays and verifies as a
game opened in the chat does."""

from __future__ import annotations

from collections.abc import Sequence

from core.actions import Join, Open, Start
from core.dice import Roller
from core.events import Event
from core.game import apply, open_lobby
from core.identity import ChannelKey, PlayerRef
from core.rules import Variants
from core.table import Game, evolve


def seated_game(
    game_id: str,
    channel: ChannelKey,
    players: Sequence[PlayerRef],
    variants: Variants,
    language: str,
    seed: str,
    event: str,
    roller: Roller,
    now: float,
) -> tuple[Game, tuple[Event, ...]]:
    """The table's game started; its first player hosts (a table of computers too: nobody
    presses a host's button at an event's table)."""
    host, *others = players
    game, events = open_lobby(game_id, channel, host, Open(variants, language), now, seed)
    game = evolve(game, event=event)
    log = list(events)
    for player in others:
        game, more = apply(game, player, Join(), roller, now)
        log.extend(more)
    game, more = apply(game, host, Start(), roller, now)
    log.extend(more)
    return game, tuple(log)
