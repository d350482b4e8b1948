"""What only PostgreSQL has: its migrations table, the cross-process channel lock, timer leases."""

from __future__ import annotations

import asyncio
import contextvars
import json
import time
import uuid

import asyncpg
import pytest

import adapters.postgres.repository as repository_module
from adapters.postgres import PostgresRepository, lock_key
from adapters.postgres.schema import MIGRATIONS, MIGRATIONS_TABLE, SCHEMA_VERSION
from core.actions import Join, Open, Roll
from core.dice import ScriptedRoller
from core.errors import ErrorCode, GameError
from core.game import apply, open_lobby
from core.identity import ChannelKey, PlayerRef
from core.snapshot import game_to_dict
from tests.storage.conftest import PostgresBackend
from tests.storage.tables import ALICE, BOB, CHANNEL, Table, started_pair

OTHER = ChannelKey("telegram", "-100200300", "8")
BLOCKED = 0.3  # seconds a waiter is watched to be still waiting


async def versions(postgres: PostgresBackend) -> list[int]:
    return [v for (v,) in await postgres.raw("SELECT version FROM general_migrations ORDER BY 1")]


async def tables(postgres: PostgresBackend) -> set[str]:
    rows = await postgres.raw(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = $1",
        postgres.schema,
    )
    return {name for (name,) in rows}


# --- migrations -------------------------------------------------------------------------------


async def test_migrations_are_recorded_in_their_table(postgres: PostgresBackend) -> None:
    await postgres.open()
    assert SCHEMA_VERSION == len(MIGRATIONS) >= 2
    assert await versions(postgres) == list(range(1, SCHEMA_VERSION + 1))
    assert {
        "general_migrations", "games", "events", "results", "boards", "chat_settings",
        "deadline_leases",
    } <= await tables(postgres)  # fmt: skip
    types = dict(
        await postgres.raw(
            "SELECT table_name || '.' || column_name, data_type FROM information_schema.columns"
            " WHERE table_schema = $1",
            postgres.schema,
        )
    )
    assert types["games.snapshot"] == types["events.data"] == "jsonb"
    assert types["results.boxes"] == "ARRAY"
    assert types["results.finished_at"] == "timestamp with time zone"


async def test_reopening_is_idempotent_and_keeps_the_data(postgres: PostgresBackend) -> None:
    first = await postgres.open()
    table = await started_pair(first)
    await first.close()
    for _ in range(2):
        again = await postgres.open()
        assert await versions(postgres) == list(range(1, SCHEMA_VERSION + 1))
        assert await again.get_game("g-1") == table.game
        assert await again.events("g-1") == table.log


async def test_processes_starting_together_migrate_once(postgres: PostgresBackend) -> None:
    opened = await asyncio.gather(*(postgres.open() for _ in range(4)))
    assert await versions(postgres) == list(range(1, SCHEMA_VERSION + 1))
    await Table(opened[0]).open(ALICE)
    assert await opened[3].active_game(CHANNEL) is not None


async def test_a_newer_schema_is_refused_and_the_pool_closed(postgres: PostgresBackend) -> None:
    await postgres.raw(MIGRATIONS_TABLE)
    await postgres.raw(f"INSERT INTO general_migrations (version) VALUES ({SCHEMA_VERSION + 1})")
    name = f"general-test-{uuid.uuid4().hex[:12]}"
    with pytest.raises(RuntimeError, match="newer"):
        await postgres.open(server_settings={"application_name": name})
    assert await versions(postgres) == [SCHEMA_VERSION + 1]
    assert "games" not in await tables(postgres)
    for _ in range(50):  # the server forgets a closed connection a moment later
        sql = "SELECT COUNT(*) FROM pg_stat_activity WHERE application_name = $1"
        if await postgres.raw(sql, name) == [(0,)]:
            break
        await asyncio.sleep(0.02)
    assert await postgres.raw(sql, name) == [(0,)]


async def test_a_version_1_database_is_upgraded_in_place(postgres: PostgresBackend) -> None:
    game, _ = open_lobby("g-old", CHANNEL, ALICE, Open())
    await postgres.raw(MIGRATIONS_TABLE)
    await postgres.admin.execute(MIGRATIONS[0])
    await postgres.raw("INSERT INTO general_migrations (version) VALUES (1)")
    await postgres.raw(
        "INSERT INTO games (id, channel, phase, version, snapshot, created_at, updated_at)"
        " VALUES ('g-old', $1, 'lobby', 1, $2::jsonb, now(), now())",
        str(CHANNEL),
        json.dumps(game_to_dict(game)),
    )
    assert "deadline_leases" not in await tables(postgres)
    upgraded = await postgres.open()
    assert await versions(postgres) == list(range(1, SCHEMA_VERSION + 1))
    assert "deadline_leases" in await tables(postgres)
    assert await upgraded.active_game(CHANNEL) == game
    joined, more = apply(game, BOB, Join(), ScriptedRoller())
    await upgraded.save(joined, more, game.version)
    assert await upgraded.get_game("g-old") == joined


async def test_the_games_ended_before_version_5_owe_no_final_message(
    postgres: PostgresBackend,
) -> None:
    """Version 5 marks an ended game's board once its final message is out; the games that
    ended before it had theirs, and the live ones keep their boards."""
    await postgres.raw(MIGRATIONS_TABLE)
    for version, migration in enumerate(MIGRATIONS[:4], start=1):
        await postgres.admin.execute(migration)
        await postgres.raw("INSERT INTO general_migrations (version) VALUES ($1)", version)
    for game_id, phase in (("g-over", "finished"), ("g-live", "playing")):
        await postgres.raw(
            "INSERT INTO games (id, channel, phase, version, snapshot, created_at, updated_at)"
            " VALUES ($1, $2, $3, 1, '{}'::jsonb, now(), now())",
            game_id,
            f"{CHANNEL}{game_id}",
            phase,
        )
        await postgres.raw(
            'INSERT INTO boards (game_id, ref) VALUES ($1, \'{"chat": 5, "message": 7}\')',
            game_id,
        )
    upgraded = await postgres.open()
    assert await upgraded.board("g-over") == "final"
    assert await upgraded.board("g-live") == '{"chat": 5, "message": 7}'


async def test_a_failing_migration_leaves_nothing_of_itself(
    postgres: PostgresBackend, monkeypatch: pytest.MonkeyPatch
) -> None:
    await postgres.open()
    broken = "CREATE TABLE half_done (x integer); SELECT 1 / 0;"
    monkeypatch.setattr(repository_module, "MIGRATIONS", (*MIGRATIONS, broken))
    monkeypatch.setattr(repository_module, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
    with pytest.raises(asyncpg.DivisionByZeroError):
        await postgres.open()
    assert await versions(postgres) == list(range(1, SCHEMA_VERSION + 1))
    assert "half_done" not in await tables(postgres)


# --- the channel lock ----------------------------------------------------------------------------


def test_lock_keys_are_stable_signed_64_bit() -> None:
    key = lock_key("telegram:-100200300:7")
    assert key == lock_key(str(CHANNEL)) == -2465996061212679779
    assert -(2**63) <= key < 2**63
    assert lock_key(str(OTHER)) != key


@pytest.fixture
def here(postgres: PostgresBackend) -> ChannelKey:
    """A channel of this test's own: advisory locks are per database, not per schema, and
    tests running in parallel must not wait for each other's."""
    return ChannelKey("telegram", postgres.schema, "7")


@pytest.fixture
def there(postgres: PostgresBackend) -> ChannelKey:
    return ChannelKey("telegram", postgres.schema, "8")


async def test_a_channel_lock_makes_another_process_wait(
    postgres: PostgresBackend, here: ChannelKey, there: ChannelKey
) -> None:
    first, second = await postgres.open(), await postgres.open()  # two pools: two processes
    inside = asyncio.Event()
    leave = asyncio.Event()
    order: list[str] = []

    async def holder() -> None:
        async with first.channel_lock(here):
            order.append("first in")
            inside.set()
            await leave.wait()
            order.append("first out")

    async def waiter() -> None:
        await inside.wait()
        async with second.channel_lock(here):
            order.append("second in")

    holding = asyncio.create_task(holder())
    waiting = asyncio.create_task(waiter())
    await inside.wait()
    # another channel is not held up, in either process
    async with asyncio.timeout(2):
        async with second.channel_lock(there):
            order.append("other channel")
        async with first.channel_lock(there):
            pass
    await asyncio.sleep(BLOCKED)
    assert not waiting.done()
    assert order == ["first in", "other channel"]
    leave.set()
    async with asyncio.timeout(2):
        await asyncio.gather(holding, waiting)
    assert order == ["first in", "other channel", "first out", "second in"]


async def test_a_dead_holders_lock_is_released(postgres: PostgresBackend, here: ChannelKey) -> None:
    """A process that dies in the block (the server sees its connections close) lets the
    others go on."""
    name = f"general-test-{uuid.uuid4().hex[:12]}"
    first = await postgres.open(server_settings={"application_name": name})
    second = await postgres.open()
    inside = asyncio.Event()

    async def dies() -> None:
        async with first.channel_lock(here):
            inside.set()
            await asyncio.sleep(60)

    dying = asyncio.create_task(dies())
    await inside.wait()
    assert await second.get_game("nope") is None  # reads never wait for the lock
    entering = asyncio.create_task(_enter(second, here))
    await asyncio.sleep(BLOCKED)
    assert not entering.done()
    await postgres.raw(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1",
        name,
    )
    async with asyncio.timeout(5):
        await entering
    dying.cancel()
    with pytest.raises(asyncio.CancelledError):
        await dying


async def _enter(repository: PostgresRepository, channel: ChannelKey) -> None:
    async with repository.channel_lock(channel):
        pass


async def test_work_inside_the_lock_is_one_transaction_seen_at_its_end(
    postgres: PostgresBackend, here: ChannelKey
) -> None:
    first, second = await postgres.open(), await postgres.open()
    table = await started_pair(first, channel=here)
    before = table.game
    async with first.channel_lock(here):
        await table.do(ALICE, Roll(), [1, 2, 3, 4, 5])
        assert await first.get_game("g-1") == table.game  # its own writes, on its connection
        assert await second.get_game("g-1") == before  # others see them at the end
        # a refused save undoes only itself: the block goes on and its writes stay
        other, events = apply(before, ALICE, Roll(), ScriptedRoller([6, 6, 6, 6, 6]))
        with pytest.raises(GameError) as caught:
            await first.save(other, events, before.version)
        assert caught.value.code is ErrorCode.STALE
        again, events = open_lobby("g-2", here, BOB, Open())
        with pytest.raises(GameError) as caught:
            await first.save(again, events, None)
        assert caught.value.code is ErrorCode.GAME_EXISTS
        # other tasks (and what the block schedules) use connections of their own
        many = await asyncio.gather(*(first.get_game("g-1") for _ in range(5)))
        assert many == [before] * 5
        context = contextvars.copy_context()
    assert await second.get_game("g-1") == table.game
    assert await second.events("g-1") == table.log
    later = asyncio.create_task(first.get_game("g-1"), context=context)
    assert await later == table.game


async def test_writes_in_a_block_that_raises_are_kept(
    postgres: PostgresBackend, here: ChannelKey
) -> None:
    """Each write was whole when it returned (as with SQLite); the lock is not a unit of work."""
    repository = await postgres.open()
    table = await started_pair(repository, channel=here)
    with pytest.raises(ZeroDivisionError):
        async with repository.channel_lock(here):
            await table.do(ALICE, Roll(), [1, 2, 3, 4, 5])
            _ = 1 / 0
    assert await repository.get_game("g-1") == table.game
    async with asyncio.timeout(2), repository.channel_lock(here):  # and the lock was let go
        pass


async def test_a_failed_statement_in_the_block_rolls_it_back(
    postgres: PostgresBackend, here: ChannelKey
) -> None:
    repository = await postgres.open()
    table = await started_pair(repository, channel=here)
    before = table.game
    with pytest.raises(RuntimeError, match="rolled back"):
        async with repository.channel_lock(here):
            await table.do(ALICE, Roll(), [1, 2, 3, 4, 5])
            with pytest.raises(asyncpg.ForeignKeyViolationError):
                await repository.set_board("no-such-game", "msg:1")
    assert await repository.get_game("g-1") == before


async def test_nested_locks_share_the_connection(
    postgres: PostgresBackend, here: ChannelKey, there: ChannelKey
) -> None:
    first, second = await postgres.open(), await postgres.open()
    await Table(first, channel=here).open(ALICE)
    async with first.channel_lock(here):
        async with first.channel_lock(here), first.channel_lock(there):
            assert await first.active_game(here) is not None
        # there stays held until the outermost block ends
        entering = asyncio.create_task(_enter(second, there))
        await asyncio.sleep(BLOCKED)
        assert not entering.done()
    async with asyncio.timeout(2):
        await entering


async def test_service_style_actions_from_two_processes_serialise(
    postgres: PostgresBackend, here: ChannelKey
) -> None:
    """Load, apply and save under the channel lock from two processes at once: both actions
    land, one after the other, neither is refused as stale."""
    first, second = await postgres.open(), await postgres.open()
    table = Table(first, channel=here)
    await table.open(ALICE)

    async def join(repository: PostgresRepository, player: PlayerRef) -> None:
        async with repository.channel_lock(here):
            game = await repository.active_game(here)
            assert game is not None
            await asyncio.sleep(0.05)  # widen the window a lock-free load → save would lose in
            new, events = apply(game, player, Join(), ScriptedRoller())
            await repository.save(new, events, game.version)

    carol = PlayerRef("c3", "Carol")
    await asyncio.gather(join(first, BOB), join(second, carol))
    game = await first.active_game(here)
    assert game is not None
    assert {seat.player.id for seat in game.seats} == {ALICE.id, BOB.id, carol.id}
    assert game.version == table.game.version + 2


# --- timer leases --------------------------------------------------------------------------------


async def test_a_lease_is_held_by_one_owner_until_it_expires(postgres: PostgresBackend) -> None:
    first, second = await postgres.open(), await postgres.open()

    async def expiry() -> float:
        rows = await postgres.raw(
            "SELECT extract(epoch FROM expires_at)::float8 FROM deadline_leases"
            " WHERE game_id = 'g-1'"
        )
        return float(rows[0][0])

    assert await first.claim_deadline("g-1", "process-a", 0.25)
    assert not await second.claim_deadline("g-1", "process-b", 60)
    assert await second.claim_deadline("g-2", "process-b", 60)  # another game is another lease
    held_until = await expiry()
    assert await first.claim_deadline("g-1", "process-a", 0.25)  # a renewal moves the expiry on
    assert await expiry() > held_until
    assert await postgres.raw("SELECT owner FROM deadline_leases WHERE game_id = 'g-1'") == [
        ("process-a",)
    ]
    await asyncio.sleep(0.35)  # process-a died: its lease runs out
    assert await second.claim_deadline("g-1", "process-b", 60)
    assert not await first.claim_deadline("g-1", "process-a", 60)
    await first.release_deadline("g-1", "process-a")  # not its lease: nothing happens
    assert not await first.claim_deadline("g-1", "process-a", 60)
    await second.release_deadline("g-1", "process-b")
    assert await postgres.raw("SELECT COUNT(*) FROM deadline_leases WHERE game_id = 'g-1'") == [
        (0,)
    ]
    assert await first.claim_deadline("g-1", "process-a", 60)


async def test_concurrent_claims_have_one_winner(postgres: PostgresBackend) -> None:
    repositories = [await postgres.open() for _ in range(3)]
    started = time.monotonic()
    won = await asyncio.gather(
        *(repositories[n % 3].claim_deadline("g-1", f"process-{n}", 30) for n in range(12))
    )
    assert won.count(True) == 1
    assert time.monotonic() - started < 5
