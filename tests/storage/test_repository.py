"""The storage contract on every backend: snapshots, the event log, versions, one table per
channel, results, boards and chat settings; several repositories on one store (processes)."""

from __future__ import annotations

import asyncio
import dataclasses
import json
from dataclasses import dataclass
from typing import ClassVar

import pytest

from core.actions import Cancel, Hold, Join, Leave, Open, Roll, Score, Start
from core.boxes import Box
from core.chat_settings import ChatSettings, SheetStyle
from core.dice import ScriptedRoller
from core.errors import ErrorCode, GameError
from core.events import BoxScored, DiceRolled, EndReason, GameEnded, LotThrown, TurnStarted
from core.game import apply, open_lobby
from core.identity import ChannelKey
from core.records import Weighed
from core.rules import BigGeneralMode, Variants
from core.table import Game, Phase
from tests.storage.conftest import Backend, Repository
from tests.storage.tables import ALICE, BOB, CAROL, CHANNEL, Table, started_pair

# --- snapshots ---------------------------------------------------------------------------------


async def test_round_trip_at_every_phase(repository: Repository) -> None:
    variants = Variants(BigGeneralMode.SCORES_SIXTY, True, False, 4)
    table = Table(repository)
    seen: list[Game] = []

    async def check() -> None:
        game = table.game
        assert await repository.get_game(game.id) == game
        active = await repository.active_game(CHANNEL)
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


async def test_round_trip_of_completed_and_big_general_games(repository: Repository) -> None:
    solo = Table(repository, "g-solo", ChannelKey("console", "local"))
    await solo.open(ALICE)
    await solo.do(ALICE, Start())
    while solo.game.phase is Phase.PLAYING:
        await solo.turn([2, 2, 5, 5, 5])
    assert await repository.get_game("g-solo") == solo.game
    big = await started_pair(repository, "g-big")
    await big.turn([6, 6, 6, 6, 6])
    assert big.game.end_reason is EndReason.BIG_GENERAL
    assert await repository.get_game("g-big") == big.game
    assert await repository.get_game("nope") is None


async def test_a_second_repository_on_the_same_store_sees_the_same_game(
    backend: Backend,
) -> None:
    first = await backend.open()
    table = await started_pair(first)
    await table.do(ALICE, Roll(), [1, 2, 3, 4, 6])
    await table.do(ALICE, Hold(frozenset({4})))
    second = await backend.open()
    assert await second.active_game(CHANNEL) == table.game
    assert await second.get_game("g-1") == table.game
    assert await second.events("g-1") == table.log
    await first.close()
    third = await backend.open()  # reopening keeps the data
    assert await third.get_game("g-1") == table.game
    assert await third.events("g-1") == table.log


async def test_active_games_of_a_platform_and_the_last_finished(repository: Repository) -> None:
    here = await started_pair(repository, "g-here")
    elsewhere = ChannelKey("telegram", "-999")
    there = Table(repository, "g-there", elsewhere)
    await there.open(BOB)
    console = Table(repository, "g-console", ChannelKey("console", "local"))
    await console.open(CAROL)
    actives = await repository.active_games("telegram")
    assert sorted(g.id for g in actives) == ["g-here", "g-there"]
    assert {g.id: g for g in actives}["g-here"] == here.game
    assert [g.id for g in await repository.active_games("console")] == ["g-console"]
    assert await repository.active_games("discord") == []
    assert await repository.active_games("tele") == []  # a platform, not a prefix of one
    assert await repository.last_finished(CHANNEL) is None
    await here.do(ALICE, Cancel())
    assert await repository.last_finished(CHANNEL) == here.game
    later = Table(repository, "g-later")
    await later.open(BOB)
    await later.do(BOB, Cancel())
    assert await repository.last_finished(CHANNEL) == later.game
    assert sorted(g.id for g in await repository.active_games("telegram")) == ["g-there"]


# --- the event log ------------------------------------------------------------------------------


async def test_the_log_is_append_only_and_holds_every_die(
    repository: Repository, backend: Backend
) -> None:
    table = Table(repository)
    await table.open(ALICE)
    await table.do(BOB, Join())
    await table.do(CAROL, Join())
    # a tied lot: everyone's dice, then the tied pair's again
    await table.do(ALICE, Start(), [1, 1, 1, 1, 2] + [3] * 5 + [2, 1, 1, 1, 1] + [6] * 5 + [1] * 5)
    rows_before = await backend.raw("SELECT seq, version, kind, data FROM events ORDER BY seq")
    player = table.current()
    await table.do(player, Roll(), [1, 2, 3, 4, 5])
    await table.do(player, Hold(frozenset({1, 3})))
    await table.do(player, Roll(), [6, 6, 6])
    await table.do(player, Hold(frozenset({0, 1, 2, 3})))
    await table.do(player, Roll(), [5])
    await table.do(player, Score(Box.SIXES))
    await table.turn([4, 4, 4, 1, 1])
    rows = await backend.raw("SELECT seq, version, kind, data FROM events ORDER BY seq")
    # append-only: the earlier rows are untouched, seq runs 1, 2, 3, … without gaps
    assert rows[: len(rows_before)] == rows_before
    assert [row[0] for row in rows] == list(range(1, len(rows) + 1))
    versions = [row[1] for row in rows]
    assert versions == sorted(versions) and versions[-1] == table.game.version
    assert [json.loads(row[3])["kind"] for row in rows] == [row[2] for row in rows]
    assert await repository.events("g-1") == table.log
    # every die thrown is in the log: lot throws whole, rolls' fresh (not held) dice
    logged: list[int] = []
    for event in await repository.events("g-1"):
        if isinstance(event, LotThrown):
            logged.extend(event.dice)
        elif isinstance(event, DiceRolled):
            logged.extend(d for d, h in zip(event.dice, event.held, strict=True) if not h)
    assert logged == table.thrown
    lot_rounds = [e.round for e in table.log if isinstance(e, LotThrown)]
    assert lot_rounds == [1, 1, 1, 2, 2]


async def test_events_carry_the_version_of_their_snapshot(
    repository: Repository, backend: Backend
) -> None:
    table = await started_pair(repository)
    await table.turn([2, 2, 2, 3, 3], Box.FULL_HOUSE)
    (version,) = (await backend.raw("SELECT version FROM games WHERE id='g-1'"))[0]
    last = await backend.raw("SELECT version, kind FROM events ORDER BY seq DESC LIMIT 2")
    assert version == table.game.version == last[0][0] == last[1][0]
    assert [kind for _, kind in last] == [TurnStarted.kind, BoxScored.kind]


# --- versions and one game per channel ---------------------------------------------------------


async def test_a_wrong_previous_version_is_stale_and_writes_nothing(
    repository: Repository, backend: Backend
) -> None:
    table = await started_pair(repository)
    stored = await repository.get_game("g-1")
    events_before = await backend.raw("SELECT * FROM events ORDER BY seq")
    snapshot_before = await backend.raw("SELECT * FROM games")
    new, events = apply(table.game, ALICE, Roll(), ScriptedRoller([1, 2, 3, 4, 5]))
    for wrong in (table.game.version - 1, table.game.version + 1, 0):
        with pytest.raises(GameError) as caught:
            await repository.save(new, events, wrong)
        assert caught.value.code is ErrorCode.STALE
    assert await backend.raw("SELECT * FROM events ORDER BY seq") == events_before
    assert await backend.raw("SELECT * FROM games") == snapshot_before
    assert await repository.get_game("g-1") == stored
    # the right one still goes through afterwards
    await repository.save(new, events, table.game.version)
    assert await repository.get_game("g-1") == new


async def test_saving_the_same_version_twice_is_stale(repository: Repository) -> None:
    table = await started_pair(repository)
    previous = table.game
    await table.do(ALICE, Roll(), [1, 2, 3, 4, 5])
    other, events = apply(previous, ALICE, Roll(), ScriptedRoller([6, 6, 6, 6, 5]))
    with pytest.raises(GameError) as caught:
        await repository.save(other, events, previous.version)
    assert caught.value.code is ErrorCode.STALE
    assert await repository.get_game("g-1") == table.game
    assert await repository.events("g-1") == table.log


@dataclass(frozen=True)
class Unwritable:
    """An event the log cannot store (its payload is not JSON): the save must fail whole."""

    kind: ClassVar[str] = "unwritable"
    payload: object


async def test_snapshot_and_events_are_one_transaction(
    repository: Repository, backend: Backend
) -> None:
    table = await started_pair(repository)
    before = await backend.raw("SELECT * FROM games"), await backend.raw("SELECT * FROM events")
    new, events = apply(table.game, ALICE, Roll(), ScriptedRoller([1, 2, 3, 4, 5]))
    bad = (*events, Unwritable(object()))
    assert dataclasses.is_dataclass(bad[-1])
    with pytest.raises(TypeError):
        await repository.save(new, bad, table.game.version)
    after = await backend.raw("SELECT * FROM games"), await backend.raw("SELECT * FROM events")
    assert after == before
    assert await repository.get_game("g-1") == table.game
    await repository.save(new, events, table.game.version)  # the store is usable afterwards
    assert await repository.get_game("g-1") == new


async def test_one_active_game_per_channel(repository: Repository, backend: Backend) -> None:
    first = Table(repository, "g-1")
    await first.open(ALICE)
    second, events = open_lobby("g-2", CHANNEL, BOB, Open())
    with pytest.raises(GameError) as caught:
        await repository.save(second, events, None)
    assert caught.value.code is ErrorCode.GAME_EXISTS
    assert await repository.get_game("g-2") is None
    assert await backend.raw("SELECT COUNT(*) FROM events WHERE game_id='g-2'") == [(0,)]
    assert await repository.active_game(CHANNEL) == first.game
    # another channel is another table
    elsewhere, more = open_lobby("g-3", ChannelKey("telegram", "-100200300", "8"), BOB, Open())
    await repository.save(elsewhere, more, None)
    assert await repository.active_game(elsewhere.channel) == elsewhere
    # once the first game is over, the channel takes a new one
    await first.do(ALICE, Cancel())
    assert await repository.active_game(CHANNEL) is None
    await repository.save(second, events, None)
    assert await repository.active_game(CHANNEL) == second
    assert await repository.get_game("g-1") == first.game


async def test_the_same_game_id_cannot_be_inserted_twice(repository: Repository) -> None:
    table = Table(repository, "g-1")
    await table.open(ALICE)
    await table.do(ALICE, Cancel())
    again, events = open_lobby("g-1", CHANNEL, BOB, Open())
    with pytest.raises(GameError) as caught:
        await repository.save(again, events, None)
    assert caught.value.code is ErrorCode.GAME_EXISTS
    assert await repository.get_game("g-1") == table.game


async def test_two_processes_racing_on_one_version_one_wins(backend: Backend) -> None:
    """Two repositories (two processes) save the same version at once: one lands, one is
    STALE, and the log holds the winner's events only."""
    first, second = await backend.open(), await backend.open()
    table = await started_pair(first)
    base = table.game
    rolls = [[1, 2, 3, 4, 5], [6, 6, 6, 6, 5]]
    moves = [apply(base, ALICE, Roll(), ScriptedRoller(dice)) for dice in rolls]
    outcomes = await asyncio.gather(
        *(
            repo.save(new, events, base.version)
            for repo, (new, events) in zip((first, second), moves, strict=True)
        ),
        return_exceptions=True,
    )
    refused = [o for o in outcomes if isinstance(o, GameError)]
    assert len(refused) == 1 and refused[0].code is ErrorCode.STALE
    assert outcomes.count(None) == 1
    winner, winner_events = moves[outcomes.index(None)]
    assert await second.get_game("g-1") == await first.get_game("g-1") == winner
    assert await first.events("g-1") == [*table.log, *winner_events]


async def test_two_processes_opening_one_channel_one_wins(backend: Backend) -> None:
    first, second = await backend.open(), await backend.open()
    lobbies = [open_lobby("g-1", CHANNEL, ALICE, Open()), open_lobby("g-2", CHANNEL, BOB, Open())]
    outcomes = await asyncio.gather(
        *(
            repo.save(game, events, None)
            for repo, (game, events) in zip((first, second), lobbies, strict=True)
        ),
        return_exceptions=True,
    )
    refused = [o for o in outcomes if isinstance(o, GameError)]
    assert len(refused) == 1 and refused[0].code is ErrorCode.GAME_EXISTS
    winner, _ = lobbies[outcomes.index(None)]
    assert await second.active_game(CHANNEL) == winner


# --- results --------------------------------------------------------------------------------------


async def test_a_completed_game_records_one_row_per_player(repository: Repository) -> None:
    table = Table(repository)
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
    rows = await repository.results("g-1")
    assert list(rows[0]) == [
        "game_id", "player_id", "platform", "channel", "name", "seat", "total", "boxes",
        "winner", "left_table", "big_general", "end_reason", "finished_at", "accuracy",
        "luck_dice", "luck_decisions",
    ]  # fmt: skip
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
    assert all(isinstance(r["finished_at"], float) and r["finished_at"] > 0 for r in rows)
    assert [r["accuracy"] for r in rows] == [None, None, None]
    weighed = {ALICE.id: Weighed(87.5, 12.25, -3.5), CAROL.id: Weighed(100.0, -4.0, 0.0)}
    await repository.set_weighed("g-1", weighed)
    rows = await repository.results("g-1")
    assert [r["accuracy"] for r in rows] == [87.5, None, 100.0]
    assert [r["luck_dice"] for r in rows] == [12.25, None, -4.0]
    assert [r["luck_decisions"] for r in rows] == [-3.5, None, 0.0]


async def test_a_big_general_records_the_thrower(repository: Repository) -> None:
    table = await started_pair(repository)
    await table.turn([6, 6, 5, 5, 5], Box.FULL_HOUSE)  # Alice 35
    await table.turn([3, 3, 3, 3, 3])  # Bob: big general
    rows = await repository.results("g-1")
    by_player = {r["player_id"]: r for r in rows}
    assert set(by_player) == {ALICE.id, BOB.id}
    assert (by_player[BOB.id]["winner"], by_player[BOB.id]["big_general"]) == (1, 1)
    assert (by_player[ALICE.id]["winner"], by_player[ALICE.id]["big_general"]) == (0, 0)
    assert by_player[ALICE.id]["total"] == 35 and by_player[BOB.id]["total"] == 0
    assert {r["end_reason"] for r in rows} == {"big_general"}
    assert table.log[-1] == GameEnded(EndReason.BIG_GENERAL, (BOB.id,))


@pytest.mark.parametrize("ending", ["cancel", "abandon in play", "abandon the lobby"])
async def test_cancelled_or_abandoned_games_record_no_results(
    repository: Repository, backend: Backend, ending: str
) -> None:
    if ending == "abandon the lobby":
        table = Table(repository)
        await table.open(ALICE)
        await table.do(ALICE, Leave())
    else:
        table = await started_pair(repository)
        await table.turn([1, 2, 3, 4, 5])
        if ending == "cancel":
            await table.do(ALICE, Cancel())
        else:
            await table.do(BOB, Leave())
            await table.do(ALICE, Leave())
    assert table.game.phase is Phase.FINISHED
    assert await repository.results("g-1") == []
    assert await backend.raw("SELECT COUNT(*) FROM results") == [(0,)]
    (end_reason, finished_at) = (await backend.raw("SELECT end_reason, finished_at FROM games"))[0]
    assert end_reason == table.game.end_reason.value and finished_at is not None


# --- boards and chat settings --------------------------------------------------------------------


async def test_board_references(repository: Repository) -> None:
    table = Table(repository)
    await table.open(ALICE)
    assert await repository.board("g-1") is None
    await repository.set_board("g-1", "msg:123")
    assert await repository.board("g-1") == "msg:123"
    await repository.set_board("g-1", "msg:456")
    assert await repository.board("g-1") == "msg:456"
    assert await repository.board("g-2") is None


async def test_a_board_reference_is_claimed_only_from_what_it_still_is(
    repository: Repository,
) -> None:
    await Table(repository).open(ALICE)
    await repository.set_board("g-1", "msg:123")
    assert await repository.claim_board("g-1", "msg:123", "final")
    assert not await repository.claim_board("g-1", "msg:123", "final")  # a second claimer loses
    assert await repository.board("g-1") == "final"
    assert await repository.claim_board("g-1", "final", "msg:123")  # given back
    assert await repository.board("g-1") == "msg:123"
    assert not await repository.claim_board("g-2", "msg:123", "final")  # no such board


async def test_chat_settings_default_save_and_replace(backend: Backend) -> None:
    repository = await backend.open()
    assert await repository.chat_settings("telegram", "-100") == ChatSettings()
    chosen = ChatSettings(
        language="ru", turn_timer=60, hints=False, big_general=BigGeneralMode.SCORES_SIXTY,
        table_cap=4, sheet=SheetStyle.PICTURE, computer_pause=0.5,
    )  # fmt: skip
    await repository.save_chat_settings("telegram", "-100", chosen)
    assert await repository.chat_settings("telegram", "-100") == chosen
    assert await repository.chat_settings("discord", "-100") == ChatSettings()  # per platform
    await repository.save_chat_settings("telegram", "-100", ChatSettings(table_cap=2))
    other = await backend.open()
    assert await other.chat_settings("telegram", "-100") == ChatSettings(table_cap=2)
