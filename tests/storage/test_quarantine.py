"""A stored game that cannot be read is set aside, on every backend: the rest goes on."""

from __future__ import annotations

import logging

import pytest

from core.actions import Cancel, Open
from core.dice import SeededRoller
from core.identity import ChannelKey
from core.service import GameService
from tests.storage.conftest import Backend, Repository
from tests.storage.tables import ALICE, BOB, CHANNEL, Table, started_pair

OTHER = ChannelKey("telegram", "-999")
# How each kind of damage is done to a snapshot, in SQLite's SQL and in PostgreSQL's.
DAMAGE = {
    "missing field": ("json_remove(snapshot, '$.turn')", "snapshot - 'turn'"),
    "unknown field": ("json_set(snapshot, '$.future', 1)", "snapshot || '{\"future\": 1}'"),
    "bad value": ("json_set(snapshot, '$.phase', 'exploded')", "snapshot || '{\"phase\": 1}'"),
    "not an object": ("'[1, 2'", "'\"garbage\"'::jsonb"),  # SQLite: not even JSON
    # Read without an error, but games the bot cannot play (core/invariants.py):
    "current seat out of range": (
        "json_set(snapshot, '$.current', 7)",
        "jsonb_set(snapshot, '{current}', '7')",
    ),
    "scores of a wrong type": (
        "json_set(snapshot, '$.seats[0].scores', 'abcdefghij')",
        "jsonb_set(snapshot, '{seats,0,scores}', '\"abcdefghij\"')",
    ),
    "version not the row's": (
        "json_set(snapshot, '$.version', 99)",
        "jsonb_set(snapshot, '{version}', '99')",
    ),
    "channel not the row's": (
        "json_set(snapshot, '$.channel.chat', '-5')",
        "jsonb_set(snapshot, '{channel,chat}', '\"-5\"')",
    ),
}
# The damage that stopped the whole start-up, or left the table stuck, before it was checked.
BROKEN_RULES = [
    "current seat out of range",
    "scores of a wrong type",
    "version not the row's",
    "channel not the row's",
]


async def damage(backend: Backend, game_id: str, kind: str) -> None:
    sqlite, postgres = DAMAGE[kind]
    expression = sqlite if backend.name == "sqlite" else postgres
    await backend.raw(f"UPDATE games SET snapshot = {expression} WHERE id = '{game_id}'")


def quarantine_logs(caplog: pytest.LogCaptureFixture) -> list[str]:
    """The quarantine's ERROR lines, taken out of the log (the suite fails on any other)."""
    logged = [r.getMessage() for r in caplog.records if "quarantined" in r.getMessage()]
    caplog.clear()
    return logged


@pytest.mark.parametrize("kind", DAMAGE)
async def test_an_unreadable_game_is_set_aside_and_the_others_go_on(
    backend: Backend, kind: str, caplog: pytest.LogCaptureFixture
) -> None:
    first = await backend.open()
    await started_pair(first, "g-bad")
    good = await started_pair(first, "g-good", OTHER)
    await damage(backend, "g-bad", kind)
    restarted = await backend.open()  # a start-up after the damage: nothing read it yet
    with caplog.at_level(logging.ERROR):
        assert await restarted.active_games("telegram") == [good.game]
        assert await restarted.active_game(CHANNEL) is None
        assert await restarted.get_game("g-bad") is None
        assert await restarted.active_games("telegram") == [good.game]
    (logged,) = quarantine_logs(caplog)  # once, with the game's id
    assert "g-bad" in logged
    assert await restarted.quarantined(CHANNEL) == "g-bad"
    assert await restarted.quarantined(OTHER) is None
    assert await backend.raw(
        "SELECT phase, quarantined_from, quarantine_reason IS NOT NULL FROM games"
        " WHERE id = 'g-bad'"
    ) == [("quarantined", "playing", True)]  # kept for inspection
    # A new game opens where the unreadable one was; the channel is then no longer reported.
    fresh = Table(restarted, "g-new")
    await fresh.open(BOB)
    assert await restarted.active_game(CHANNEL) == fresh.game
    assert await restarted.quarantined(CHANNEL) is None


@pytest.mark.parametrize("kind", ["missing field", *BROKEN_RULES])
async def test_the_service_opens_a_new_game_where_one_cannot_be_read(
    backend: Backend, kind: str, caplog: pytest.LogCaptureFixture
) -> None:
    await started_pair(await backend.open(), "g-bad")
    await damage(backend, "g-bad", kind)
    service = GameService(await backend.open(), SeededRoller(1), id_factory=lambda: "g-new")
    service.on_deadline("telegram", lambda channel, outcome: _never())
    await service.resume_deadlines("telegram")  # start-up: does not raise
    try:
        assert await service.game(CHANNEL) is None
        outcome = await service.act(CHANNEL, ALICE, Open())
        assert outcome.game.id == "g-new"
    finally:
        await service.close()
    assert len(quarantine_logs(caplog)) == 1


async def _never() -> None:
    raise AssertionError("no deadline is due")


async def test_an_unreadable_finished_game_is_passed_over(
    backend: Backend, repository: Repository, caplog: pytest.LogCaptureFixture
) -> None:
    older = Table(repository, "g-older")
    await older.open(ALICE)
    await older.do(ALICE, Cancel())
    newer = Table(repository, "g-newer")
    await newer.open(ALICE)
    await newer.do(ALICE, Cancel())
    await damage(backend, "g-newer", "missing field")
    restarted = await backend.open()
    assert await restarted.last_finished(CHANNEL) == older.game
    assert len(quarantine_logs(caplog)) == 1
    assert await restarted.quarantined(CHANNEL) is None  # it was not the channel's active game
    assert await backend.raw("SELECT quarantined_from FROM games WHERE id = 'g-newer'") == [
        ("finished",)
    ]
