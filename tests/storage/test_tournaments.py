"""The chats' tournaments on every backend: saved whole with a version check (a new one whose
id is taken, or an update from another version, is STALE and writes nothing), read back exactly,
listed while not over (of a chat or of a platform, the earliest opened first), carried along
when the chat moves to a new id; kept in the SQLite file across reopening, and added to a file
of the schema before them."""

from __future__ import annotations

import math
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from adapters.sqlite import SqliteRepository
from adapters.sqlite.schema import MIGRATIONS, SCHEMA_VERSION
from core.errors import ErrorCode, GameError
from core.identity import ChannelKey
from core.ports import EventRecord
from tests.storage.conftest import Repository, SqliteBackend

DATA: dict[str, Any] = {
    "id": "ev-1",
    "channel": "tg:-100:7",
    "name": "Кубок «Генерал» 🎲",
    "rules": {"format": "swiss", "rounds": 3, "duplicate": False},
    "entrants": [["1", "Ann"], ["2", "Bob"]],
    "rounds": [],
    "withdrawn": [],
    "message": None,
    "opened": 1764856000.125,
    "scores": [0.5, -0.0, 1e20, 2.5e-7],
    "big": 2**70,
    "nested": {"b": {}, "a": [True, None, "x"]},
}


def event(
    event_id: str,
    chat: str = "-100",
    version: int = 1,
    *,
    finished: bool = False,
    platform: str = "tg",
    **data: Any,
) -> EventRecord:
    return EventRecord(event_id, platform, chat, version, finished, {"id": event_id, **data})


async def stale(repository: Repository, record: EventRecord, previous: int | None) -> None:
    with pytest.raises(GameError) as refused:
        await repository.save_tournament(record, previous)
    assert refused.value.code is ErrorCode.STALE


async def test_a_tournament_reads_back_exactly_as_saved(repository: Repository) -> None:
    assert await repository.tournament("ev-1") is None
    record = EventRecord("ev-1", "tg", "-100", 1, False, DATA)
    await repository.save_tournament(record, None)
    found = await repository.tournament("ev-1")
    assert found == record
    assert found is not None
    assert list(found.data) == list(DATA)  # the keys in their order
    assert [type(x) for x in found.data["scores"]] == [float] * 4
    assert math.copysign(1, found.data["scores"][1]) == -1
    assert found.data["big"] == 2**70


async def test_each_save_names_the_version_it_was_read_at(repository: Repository) -> None:
    await repository.save_tournament(event("ev-1", round=1), None)
    await repository.save_tournament(event("ev-1", version=2, round=2), 1)
    await stale(repository, event("ev-1", version=3, round=3), 1)  # read before the last save
    await stale(repository, event("ev-1", version=3, round=3), 5)
    await stale(repository, event("ev-9", version=2), 1)  # no such tournament
    await repository.save_tournament(event("ev-1", version=3, round=3), 2)
    assert await repository.tournament("ev-1") == event("ev-1", version=3, round=3)
    assert await repository.tournament("ev-9") is None


async def test_a_new_tournament_cannot_take_an_id_in_use(repository: Repository) -> None:
    await repository.save_tournament(event("ev-1", version=4, round=4), None)
    await stale(repository, event("ev-1", chat="-200", round=1), None)
    assert await repository.tournament("ev-1") == event("ev-1", version=4, round=4)
    assert [r.id for r in await repository.open_tournaments("tg", "-200")] == []


async def test_what_cannot_be_written_as_json_is_refused_before_any_write(
    repository: Repository,
) -> None:
    with pytest.raises(ValueError):
        await repository.save_tournament(event("ev-1", score=math.nan), None)
    assert await repository.tournament("ev-1") is None


async def test_the_open_tournaments_of_a_chat_or_a_platform_first_opened_first(
    repository: Repository,
) -> None:
    for record in (
        event("c"),
        event("a", chat="-200"),
        event("b"),
        event("d", finished=True),
        event("e", platform="dc"),
    ):
        await repository.save_tournament(record, None)
    await repository.save_tournament(event("c", version=2, round=1), 1)  # keeps its place
    await repository.save_tournament(event("b", version=2, finished=True), 1)  # over now
    assert [r.id for r in await repository.open_tournaments("tg", "-100")] == ["c"]
    assert [r.id for r in await repository.open_tournaments("tg", "-200")] == ["a"]
    assert [r.id for r in await repository.open_tournaments("tg")] == ["c", "a"]
    assert await repository.open_tournaments("dc") == [event("e", platform="dc")]
    assert await repository.open_tournaments("tg", "-300") == []
    assert await repository.open_tournaments("dc", "-200") == []
    assert (await repository.open_tournaments("tg"))[0] == event("c", version=2, round=1)
    assert await repository.tournament("b") == event("b", version=2, finished=True)


async def test_a_chat_that_moves_takes_its_tournaments(repository: Repository) -> None:
    kept = event("other", chat="-200", named="-100")
    elsewhere = event("dc", platform="dc", chat="-100")
    said = {
        "id": "open",
        "chat": "-100",
        "channel": "tg:-100:7",
        "rounds": [{"chat": "-100"}],
        "scores": DATA["scores"],
        "big": DATA["big"],
    }
    await repository.save_tournament(event("named", x=1), None)
    await repository.save_tournament(EventRecord("open", "tg", "-100", 1, False, said), None)
    await repository.save_tournament(event("over", finished=True, chat_id=-100), None)
    for record in (kept, elsewhere):
        await repository.save_tournament(record, None)
    await repository.move_chat("tg", "-100", "-1009")
    assert await repository.open_tournaments("tg", "-100") == []
    moved = await repository.open_tournaments("tg", "-1009")
    # The data's "chat" follows (in its place); the rest of the data is the caller's.
    assert moved == [
        event("named", chat="-1009", x=1),
        EventRecord("open", "tg", "-1009", 1, False, {**said, "chat": "-1009"}),
    ]
    assert list(moved[1].data) == list(said)
    assert [type(x) for x in moved[1].data["scores"]] == [float] * 4
    assert await repository.tournament("over") == event(
        "over", chat="-1009", finished=True, chat_id=-100
    )
    assert await repository.tournament("other") == kept
    assert await repository.tournament("dc") == elsewhere
    await repository.save_tournament(event("open", chat="-1009", version=2), 1)  # still saved
    assert await repository.tournament("open") == event("open", chat="-1009", version=2)


async def test_a_save_inside_a_channel_lock_is_part_of_it(repository: Repository) -> None:
    """A refused save leaves the lock's transaction usable (PostgreSQL: the save before it,
    and the one after, are committed with the block)."""
    async with repository.channel_lock(ChannelKey("tg", "-100")):
        await repository.save_tournament(event("ev-1"), None)
        await stale(repository, event("ev-1"), None)
        await repository.save_tournament(event("ev-1", version=2), 1)
    assert await repository.tournament("ev-1") == event("ev-1", version=2)


async def test_tournaments_outlive_the_process(tmp_path: Path) -> None:
    backend = SqliteBackend(tmp_path / "general.db")
    try:
        first = await backend.open()
        await first.save_tournament(event("ev-1", **DATA), None)
        await first.save_tournament(event("ev-2", finished=True), None)
        await first.close()
        backend.opened.clear()
        again = await backend.open()
        assert await again.open_tournaments("tg", "-100") == [event("ev-1", **DATA)]
        assert await again.tournament("ev-2") == event("ev-2", finished=True)
        await again.save_tournament(event("ev-1", version=2), 1)
        assert await again.tournament("ev-1") == event("ev-1", version=2)
    finally:
        await backend.close()


async def test_a_file_of_the_schema_before_gains_the_tournaments(tmp_path: Path) -> None:
    path = tmp_path / "general.db"
    with sqlite3.connect(path) as connection:
        connection.executescript(";".join(MIGRATIONS[:11]))
        connection.execute("PRAGMA user_version=11")
        connection.execute("INSERT INTO chat_settings VALUES ('tg:-100', '{}', 0)")
    upgraded = await SqliteRepository.open(path)
    try:
        await upgraded.save_tournament(event("ev-1"), None)
        await upgraded.move_chat("tg", "-100", "-300")
        assert await upgraded.open_tournaments("tg", "-300") == [event("ev-1", chat="-300")]
    finally:
        await upgraded.close()
    with sqlite3.connect(path) as connection:
        assert connection.execute("PRAGMA user_version").fetchall() == [(SCHEMA_VERSION,)]
        assert connection.execute("SELECT chat FROM chat_settings").fetchall() == [("tg:-300",)]
