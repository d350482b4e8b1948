"""Both backends are the core's storage port: every member of GameRepository (its Records
included) with the port's parameters, and each record method answering through the port."""

from __future__ import annotations

import inspect

from core.actions import Join, Open, Roll, Score, Start
from core.boxes import ALL_BOXES
from core.dice import ScriptedRoller
from core.identity import ChannelKey, PlayerRef
from core.ports import GameRepository, Records
from core.service import GameService
from tests.storage.conftest import Repository

ANN, BOB = PlayerRef("1", "Ann"), PlayerRef("2", "Bob")
HERE = ChannelKey("tg", "-100")


def port_methods() -> list[str]:
    """The methods the port asks for, Records' among them (dir() follows the protocols' bases)."""
    return [name for name in dir(GameRepository) if not name.startswith("_")]


def test_the_port_includes_the_records() -> None:
    assert {"leaderboard", "player_stats", "find_player", "history"} <= set(port_methods())
    assert {name for name in dir(Records) if not name.startswith("_")} <= set(port_methods())


async def test_each_backend_has_every_method_of_the_port(repository: Repository) -> None:
    assert isinstance(repository.shared, bool)
    for name in port_methods():
        wanted = inspect.signature(getattr(GameRepository, name))
        found = inspect.signature(getattr(type(repository), name))
        assert list(found.parameters) == list(wanted.parameters), name
        for parameter in wanted.parameters.values():
            assert found.parameters[parameter.name].default == parameter.default, name
        assert inspect.iscoroutinefunction(getattr(repository, name)) == (
            inspect.iscoroutinefunction(getattr(GameRepository, name))
        ), name


async def read(records: Records, player_id: str) -> tuple[int, bool, str | None, int]:
    """Every record method, called through the port alone."""
    standings = await records.leaderboard("tg", HERE, None)
    stats = await records.player_stats("tg", player_id, HERE)
    found = await records.find_player("tg", HERE, "ann")
    history = await records.history(HERE)
    return len(standings), stats is not None, found, len(history)


async def test_the_records_through_the_port(repository: Repository) -> None:
    roller = ScriptedRoller()
    service = GameService(repository, roller)
    assert await read(service.records, ANN.id) == (0, False, None, 0)
    await service.act(HERE, ANN, Open())
    await service.act(HERE, BOB, Join())
    roller.push([1, 1, 1, 1, 2, 6, 6, 6, 6, 5])  # the lot: Ann starts
    await service.act(HERE, ANN, Start())
    for box in ALL_BOXES:
        for player in (ANN, BOB):
            roller.push([6, 6, 6, 5, 5] if player is ANN else [1, 2, 3, 4, 5])
            await service.act(HERE, player, Roll())
            await service.act(HERE, player, Score(box))
    assert await read(service.records, ANN.id) == (2, True, ANN.id, 1)
