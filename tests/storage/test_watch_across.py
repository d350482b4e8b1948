"""Watching a table played from another process (PostgreSQL's LISTEN/NOTIFY): two services,
each on its own pool as two bot processes are, one playing, the other's watcher hearing every
save in order, with its events; a save that failed is never heard."""

from __future__ import annotations

import asyncio

import pytest

from core.actions import Join, Open, Roll, Start
from core.dice import ScriptedRoller
from core.errors import GameError
from core.events import DiceRolled, LobbyOpened
from core.identity import ChannelKey, PlayerRef
from core.service import GameService
from tests.storage.conftest import PostgresBackend

HERE = ChannelKey("tg", "-5")
ANN, BOB = PlayerRef("1", "Ann"), PlayerRef("2", "Bob")


async def test_a_watcher_hears_what_another_process_saves(postgres: PostgresBackend) -> None:
    roller = ScriptedRoller()
    playing = GameService(await postgres.open(), roller)
    watching = GameService(await postgres.open())
    await playing.listen()
    await watching.listen()
    far, near = watching.watch(HERE), playing.watch(HERE)
    await playing.act(HERE, ANN, Open())
    await playing.act(HERE, BOB, Join())
    roller.push([1, 1, 1, 1, 2, 6, 6, 6, 6, 5])
    await playing.act(HERE, ANN, Start())
    roller.push([6, 6, 6, 5, 5])
    rolled = await playing.act(HERE, ANN, Roll())
    with pytest.raises(GameError):
        await playing.act(HERE, BOB, Roll())  # not his turn: refused, nothing saved
    heard = [await asyncio.wait_for(far.next(), 5) for _ in range(4)]
    # Each save's events, in order; its game as read back, never older than the save (newer
    # where the table moved on before it was read: a loaded machine's reader lags).
    versions = [o.game.version for o in heard]
    assert versions == sorted(versions) and versions[-1] == 4
    assert all(version >= n for n, version in enumerate(versions, start=1))
    assert isinstance(heard[0].events[0], LobbyOpened)
    assert heard[-1].events == rolled.events and isinstance(heard[-1].events[0], DiceRolled)
    assert heard[-1].game == rolled.game and heard[-1].view.viewer_id is None
    # Its own saves the playing process offers once, as they are made, not again when heard.
    await asyncio.sleep(0.2)
    assert far.pending() == [] and [o.game.version for o in near.pending()] == [1, 2, 3, 4]
    await playing.close()
    await watching.close()
