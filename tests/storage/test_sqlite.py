"""SqliteRepository on a real file: migrations, snapshots, the event log, versions, results."""

from __future__ import annotations

import dataclasses
import json
import sqlite3
import threading
import traceback
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

import aiosqlite
import pytest

from adapters.sqlite import SqliteRepository
from adapters.sqlite.schema import MIGRATIONS, SCHEMA_VERSION
from core.actions import Cancel, Hold, Join, Leave, Open, Roll, Score, Start
from core.boxes import Box
from core.dice import ScriptedRoller
from core.errors import ErrorCode, GameError
from core.events import (
    BoxScored,
    DiceRolled,
    EndReason,
    Event,
    GameEnded,
    LotThrown,
    TurnStarted,
)
from core.game import Game, Phase, apply, game_to_dict, open_lobby
from core.identity import ChannelKey, PlayerRef
from core.rules import BigGeneralMode, Variants

CHANNEL = ChannelKey("telegram", "-100200300", "7")
ALICE = PlayerRef("a1", "Alice")
BOB = PlayerRef("b2", "Bob")
CAROL = PlayerRef("c3", "Carol")


class Table:
    """A game driven with the real core and saved after every action, as the service does."""

    def __init__(self, repo: SqliteRepository, game_id: str = "g-1", channel=CHANNEL) -> None:
        self.repo = repo
        self.game_id = game_id
        self.channel = channel
        self.roller = ScriptedRoller()
        self.thrown: list[int] = []  # every face the roller handed out, in order
        self.game: Game | None = None
        self.log: list[Event] = []

    async def open(self, host: PlayerRef, variants: Variants | None = None) -> Game:
        self.game, events = open_lobby(
            self.game_id, self.channel, host, Open(variants or Variants())
        )
        await self.repo.save(self.game, events, None)
        self.log.extend(events)
        return self.game

    async def do(self, player: PlayerRef, action, dice: Sequence[int] = ()) -> Game:
        assert self.game is not None
        self.roller.push(dice)
        self.thrown.extend(dice)
        new, events = apply(self.game, player, action, self.roller)
        assert self.roller.remaining == 0
        await self.repo.save(new, events, self.game.version)
        self.game = new
        self.log.extend(events)
        return new

    def current(self) -> PlayerRef:
        assert self.game is not None and self.game.phase is Phase.PLAYING
        return self.game.seats[self.game.current].player

    async def turn(self, dice: Sequence[int], box: Box | None = None) -> Game:
        player = self.current()
        await self.do(player, Roll(), dice)
        if self.game.phase is not Phase.PLAYING:
            return self.game
        box = box or self.game.seats[self.game.current].open_boxes()[0]
        return await self.do(player, Score(box))


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "general.db"


@pytest.fixture
async def repo(db_path: Path):
    repository = await SqliteRepository.open(db_path)
    yield repository
    await repository.close()


def raw(db_path: Path, sql: str, params: tuple = ()) -> list[tuple]:
    with sqlite3.connect(db_path) as connection:
        return connection.execute(sql, params).fetchall()


async def started_pair(repo: SqliteRepository, game_id: str = "g-1") -> Table:
    table = Table(repo, game_id)
    await table.open(ALICE)
    await table.do(BOB, Join())
    await table.do(ALICE, Start(), [1, 1, 1, 1, 1, 6, 6, 6, 6, 6])  # Alice's lot is lowest
    return table


# --- migrations -------------------------------------------------------------------------------


async def test_migrations_set_user_version(repo: SqliteRepository, db_path: Path) -> None:
    assert SCHEMA_VERSION == len(MIGRATIONS) >= 1
    assert raw(db_path, "PRAGMA user_version") == [(SCHEMA_VERSION,)]
    tables = {name for (name,) in raw(db_path, "SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"games", "events", "results"} <= tables


async def test_journal_mode_is_wal(repo: SqliteRepository, db_path: Path) -> None:
    assert raw(db_path, "PRAGMA journal_mode") == [("wal",)]


async def test_reopening_is_idempotent_and_keeps_the_data(db_path: Path) -> None:
    first = await SqliteRepository.open(db_path)
    table = await started_pair(first)
    await first.close()
    for _ in range(2):
        again = await SqliteRepository.open(db_path)
        try:
            assert raw(db_path, "PRAGMA user_version") == [(SCHEMA_VERSION,)]
            assert await again.get_game("g-1") == table.game
            assert await again.events("g-1") == table.log
        finally:
            await again.close()


async def test_a_newer_schema_is_refused_and_the_connection_closed(db_path: Path) -> None:
    with sqlite3.connect(db_path) as connection:
        connection.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    before = set(threading.enumerate())
    with pytest.raises(RuntimeError) as caught:
        await SqliteRepository.open(db_path)
    try:
        assert "newer" in str(caught.value)
        assert raw(db_path, "PRAGMA user_version") == [(SCHEMA_VERSION + 1,)]
        # the refused open must not leave its connection (and aiosqlite's worker thread) behind
        started = [t for t in threading.enumerate() if t not in before]
        for thread in started:
            thread.join(timeout=0.5)
        assert [t for t in started if t.is_alive()] == []
    finally:
        for frame, _ in traceback.walk_tb(caught.tb):  # tidy up a leaked connection, if any
            leaked = frame.f_locals.get("connection")
            if isinstance(leaked, aiosqlite.Connection):
                await leaked.close()


async def test_a_version_1_file_is_upgraded_in_place(db_path: Path) -> None:
    game, _ = open_lobby("g-old", CHANNEL, ALICE, Open())
    with sqlite3.connect(db_path) as connection:
        connection.executescript(MIGRATIONS[0])
        connection.execute("PRAGMA user_version=1")
        connection.execute(
            "INSERT INTO games (id, channel, phase, version, snapshot, created_at, updated_at)"
            " VALUES (?, ?, ?, ?, ?, 0, 0)",
            ("g-old", str(CHANNEL), "lobby", 1, json.dumps(game_to_dict(game))),
        )
    upgraded = await SqliteRepository.open(db_path)
    try:
        assert raw(db_path, "PRAGMA user_version") == [(SCHEMA_VERSION,)]
        assert await upgraded.active_game(CHANNEL) == game
        joined, more = apply(game, BOB, Join(), ScriptedRoller())
        await upgraded.save(joined, more, game.version)
        assert await upgraded.get_game("g-old") == joined
    finally:
        await upgraded.close()


async def test_board_references(repo: SqliteRepository) -> None:
    table = Table(repo)
    await table.open(ALICE)
    assert await repo.board("g-1") is None
    await repo.set_board("g-1", "msg:123")
    assert await repo.board("g-1") == "msg:123"
    await repo.set_board("g-1", "msg:456")
    assert await repo.board("g-1") == "msg:456"
    assert await repo.board("g-2") is None


# --- snapshots ---------------------------------------------------------------------------------


async def test_round_trip_at_every_phase(repo: SqliteRepository) -> None:
    variants = Variants(BigGeneralMode.SCORES_SIXTY, True, False, 4)
    table = Table(repo)
    seen: list[Game] = []

    async def check() -> None:
        game = table.game
        assert await repo.get_game(game.id) == game
        active = await repo.active_game(CHANNEL)
        assert active == (game if game.phase.active else None)
        seen.append(game)

    await table.open(ALICE, variants)
    await check()  # lobby
    await table.do(BOB, Join())
    await table.do(CAROL, Join())
    await check()
    await table.do(ALICE, Start(), [2] * 5 + [1] * 5 + [1] * 5 + [4] * 5 + [3] * 5)
    await check()  # playing, with a tied lot
    await table.do(table.current(), Roll(), [3, 3, 3, 3, 3])  # a first-throw five: plays on
    await table.do(table.current(), Hold(frozenset({0, 1})))
    await check()  # mid-turn, holds
    await table.do(table.current(), Score(Box.GENERAL))
    await table.do(CAROL, Leave())
    await check()  # a left seat
    assert table.game.host_id == ALICE.id
    await table.do(ALICE, Cancel())
    await check()  # finished, cancelled
    assert [g.phase for g in seen] == [Phase.LOBBY] * 2 + [Phase.PLAYING] * 3 + [Phase.FINISHED]


async def test_round_trip_of_completed_and_big_general_games(repo: SqliteRepository) -> None:
    solo = Table(repo, "g-solo", ChannelKey("console", "local"))
    await solo.open(ALICE)
    await solo.do(ALICE, Start())
    while solo.game.phase is Phase.PLAYING:
        await solo.turn([2, 2, 5, 5, 5])
    assert await repo.get_game("g-solo") == solo.game
    big = await started_pair(repo, "g-big")
    await big.turn([6, 6, 6, 6, 6])
    assert big.game.end_reason is EndReason.BIG_GENERAL
    assert await repo.get_game("g-big") == big.game
    assert await repo.get_game("nope") is None


async def test_a_new_repository_on_the_same_file_sees_the_same_game(db_path: Path) -> None:
    first = await SqliteRepository.open(db_path)
    table = await started_pair(first)
    await table.do(ALICE, Roll(), [1, 2, 3, 4, 6])
    await table.do(ALICE, Hold(frozenset({4})))
    second = await SqliteRepository.open(db_path)
    try:
        assert await second.active_game(CHANNEL) == table.game
        assert await second.get_game("g-1") == table.game
        assert await second.events("g-1") == table.log
    finally:
        await second.close()
        await first.close()


# --- the event log ------------------------------------------------------------------------------


async def test_the_log_is_append_only_and_holds_every_die(
    repo: SqliteRepository, db_path: Path
) -> None:
    table = Table(repo)
    await table.open(ALICE)
    await table.do(BOB, Join())
    await table.do(CAROL, Join())
    # a tied lot: everyone's dice, then the tied pair's again
    await table.do(ALICE, Start(), [1, 1, 1, 1, 2] + [3] * 5 + [2, 1, 1, 1, 1] + [6] * 5 + [1] * 5)
    rows_before = raw(db_path, "SELECT seq, version, kind, data FROM events ORDER BY seq")
    player = table.current()
    await table.do(player, Roll(), [1, 2, 3, 4, 5])
    await table.do(player, Hold(frozenset({1, 3})))
    await table.do(player, Roll(), [6, 6, 6])
    await table.do(player, Hold(frozenset({0, 1, 2, 3})))
    await table.do(player, Roll(), [5])
    await table.do(player, Score(Box.SIXES))
    await table.turn([4, 4, 4, 1, 1])
    rows = raw(db_path, "SELECT seq, version, kind, data FROM events ORDER BY seq")
    # append-only: the earlier rows are untouched, seq runs 1, 2, 3, … without gaps
    assert rows[: len(rows_before)] == rows_before
    assert [row[0] for row in rows] == list(range(1, len(rows) + 1))
    versions = [row[1] for row in rows]
    assert versions == sorted(versions) and versions[-1] == table.game.version
    assert [json.loads(row[3])["kind"] for row in rows] == [row[2] for row in rows]
    assert await repo.events("g-1") == table.log
    # every die thrown is in the log: lot throws whole, rolls' fresh (not held) dice
    logged: list[int] = []
    for event in await repo.events("g-1"):
        if isinstance(event, LotThrown):
            logged.extend(event.dice)
        elif isinstance(event, DiceRolled):
            logged.extend(d for d, h in zip(event.dice, event.held, strict=True) if not h)
    assert logged == table.thrown
    lot_rounds = [e.round for e in table.log if isinstance(e, LotThrown)]
    assert lot_rounds == [1, 1, 1, 2, 2]


async def test_events_carry_the_version_of_their_snapshot(
    repo: SqliteRepository, db_path: Path
) -> None:
    table = await started_pair(repo)
    await table.turn([2, 2, 2, 3, 3], Box.FULL_HOUSE)
    (version,) = raw(db_path, "SELECT version FROM games WHERE id='g-1'")[0]
    last = raw(db_path, "SELECT version, kind FROM events ORDER BY seq DESC LIMIT 2")
    assert version == table.game.version == last[0][0] == last[1][0]
    assert [kind for _, kind in last] == [TurnStarted.kind, BoxScored.kind]


# --- versions and one game per channel ---------------------------------------------------------


async def test_a_wrong_previous_version_is_stale_and_writes_nothing(
    repo: SqliteRepository, db_path: Path
) -> None:
    table = await started_pair(repo)
    stored = await repo.get_game("g-1")
    events_before = raw(db_path, "SELECT * FROM events ORDER BY seq")
    snapshot_before = raw(db_path, "SELECT * FROM games")
    new, events = apply(table.game, ALICE, Roll(), ScriptedRoller([1, 2, 3, 4, 5]))
    for wrong in (table.game.version - 1, table.game.version + 1, 0):
        with pytest.raises(GameError) as caught:
            await repo.save(new, events, wrong)
        assert caught.value.code is ErrorCode.STALE
    assert raw(db_path, "SELECT * FROM events ORDER BY seq") == events_before
    assert raw(db_path, "SELECT * FROM games") == snapshot_before
    assert await repo.get_game("g-1") == stored
    # the right one still goes through afterwards
    await repo.save(new, events, table.game.version)
    assert await repo.get_game("g-1") == new


async def test_saving_the_same_version_twice_is_stale(repo: SqliteRepository) -> None:
    table = await started_pair(repo)
    previous = table.game
    await table.do(ALICE, Roll(), [1, 2, 3, 4, 5])
    other, events = apply(previous, ALICE, Roll(), ScriptedRoller([6, 6, 6, 6, 5]))
    with pytest.raises(GameError) as caught:
        await repo.save(other, events, previous.version)
    assert caught.value.code is ErrorCode.STALE
    assert await repo.get_game("g-1") == table.game
    assert await repo.events("g-1") == table.log


@dataclass(frozen=True)
class Unwritable:
    """An event the log cannot store (its payload is not JSON): the save must fail whole."""

    kind: ClassVar[str] = "unwritable"
    payload: object


async def test_snapshot_and_events_are_one_transaction(
    repo: SqliteRepository, db_path: Path
) -> None:
    table = await started_pair(repo)
    before = raw(db_path, "SELECT * FROM games"), raw(db_path, "SELECT * FROM events")
    new, events = apply(table.game, ALICE, Roll(), ScriptedRoller([1, 2, 3, 4, 5]))
    bad = (*events, Unwritable(object()))
    assert dataclasses.is_dataclass(bad[-1])
    with pytest.raises(TypeError):
        await repo.save(new, bad, table.game.version)
    assert (raw(db_path, "SELECT * FROM games"), raw(db_path, "SELECT * FROM events")) == before
    assert await repo.get_game("g-1") == table.game
    await repo.save(new, events, table.game.version)  # the connection is usable afterwards
    assert await repo.get_game("g-1") == new


async def test_one_active_game_per_channel(repo: SqliteRepository, db_path: Path) -> None:
    first = Table(repo, "g-1")
    await first.open(ALICE)
    second, events = open_lobby("g-2", CHANNEL, BOB, Open())
    with pytest.raises(GameError) as caught:
        await repo.save(second, events, None)
    assert caught.value.code is ErrorCode.GAME_EXISTS
    assert await repo.get_game("g-2") is None
    assert raw(db_path, "SELECT COUNT(*) FROM events WHERE game_id='g-2'") == [(0,)]
    assert await repo.active_game(CHANNEL) == first.game
    # another channel is another table
    elsewhere, more = open_lobby("g-3", ChannelKey("telegram", "-100200300", "8"), BOB, Open())
    await repo.save(elsewhere, more, None)
    assert await repo.active_game(elsewhere.channel) == elsewhere
    # once the first game is over, the channel takes a new one
    await first.do(ALICE, Cancel())
    assert await repo.active_game(CHANNEL) is None
    await repo.save(second, events, None)
    assert await repo.active_game(CHANNEL) == second
    assert await repo.get_game("g-1") == first.game


async def test_the_same_game_id_cannot_be_inserted_twice(repo: SqliteRepository) -> None:
    table = Table(repo, "g-1")
    await table.open(ALICE)
    await table.do(ALICE, Cancel())
    again, events = open_lobby("g-1", CHANNEL, BOB, Open())
    with pytest.raises(GameError) as caught:
        await repo.save(again, events, None)
    assert caught.value.code is ErrorCode.GAME_EXISTS
    assert await repo.get_game("g-1") == table.game


# --- results --------------------------------------------------------------------------------------


async def test_a_completed_game_records_one_row_per_player(repo: SqliteRepository) -> None:
    table = Table(repo)
    await table.open(ALICE)
    await table.do(BOB, Join())
    await table.do(CAROL, Join())
    await table.do(ALICE, Start(), [1, 1, 1, 1, 1] + [2] * 5 + [3] * 5)
    dice = {ALICE.id: [2, 3, 4, 5, 6], BOB.id: [1, 2, 2, 4, 6], CAROL.id: [2, 3, 4, 5, 6]}
    await table.turn(dice[ALICE.id])
    await table.do(BOB, Leave())
    while table.game.phase is Phase.PLAYING:
        await table.turn(dice[table.current().id])
    game = table.game
    assert game.end_reason is EndReason.COMPLETED
    assert game.winners == (ALICE.id, CAROL.id)
    rows = await repo.results("g-1")
    assert [r["player_id"] for r in rows] == [ALICE.id, BOB.id, CAROL.id]
    assert [r["seat"] for r in rows] == [0, 1, 2]
    assert [r["name"] for r in rows] == ["Alice", "Bob", "Carol"]
    assert [r["total"] for r in rows] == [s.total for s in game.seats] == [45, 0, 45]
    assert [r["winner"] for r in rows] == [1, 0, 1]
    assert [r["left_table"] for r in rows] == [0, 1, 0]
    assert [r["big_general"] for r in rows] == [0, 0, 0]
    assert {r["end_reason"] for r in rows} == {"completed"}
    assert {r["platform"] for r in rows} == {"telegram"}
    assert {r["channel"] for r in rows} == {str(CHANNEL)}
    assert [json.loads(r["boxes"]) for r in rows] == [list(s.scores) for s in game.seats]
    assert all(r["finished_at"] > 0 for r in rows)


async def test_a_big_general_records_the_thrower(repo: SqliteRepository) -> None:
    table = await started_pair(repo)
    await table.turn([6, 6, 5, 5, 5], Box.FULL_HOUSE)  # Alice 35
    await table.turn([3, 3, 3, 3, 3])  # Bob: big general
    rows = await repo.results("g-1")
    by_player = {r["player_id"]: r for r in rows}
    assert set(by_player) == {ALICE.id, BOB.id}
    assert (by_player[BOB.id]["winner"], by_player[BOB.id]["big_general"]) == (1, 1)
    assert (by_player[ALICE.id]["winner"], by_player[ALICE.id]["big_general"]) == (0, 0)
    assert by_player[ALICE.id]["total"] == 35 and by_player[BOB.id]["total"] == 0
    assert {r["end_reason"] for r in rows} == {"big_general"}
    assert table.log[-1] == GameEnded(EndReason.BIG_GENERAL, (BOB.id,))


@pytest.mark.parametrize("ending", ["cancel", "abandon in play", "abandon the lobby"])
async def test_cancelled_or_abandoned_games_record_no_results(
    repo: SqliteRepository, db_path: Path, ending: str
) -> None:
    if ending == "abandon the lobby":
        table = Table(repo)
        await table.open(ALICE)
        await table.do(ALICE, Leave())
    else:
        table = await started_pair(repo)
        await table.turn([1, 2, 3, 4, 5])
        if ending == "cancel":
            await table.do(ALICE, Cancel())
        else:
            await table.do(BOB, Leave())
            await table.do(ALICE, Leave())
    assert table.game.phase is Phase.FINISHED
    assert await repo.results("g-1") == []
    assert raw(db_path, "SELECT COUNT(*) FROM results") == [(0,)]
    (end_reason, finished_at) = raw(db_path, "SELECT end_reason, finished_at FROM games")[0]
    assert end_reason == table.game.end_reason.value and finished_at is not None
