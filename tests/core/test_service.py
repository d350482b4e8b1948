"""GameService on the real SqliteRepository: the whole loop, stale presses, concurrency, isolation
of channels, and the core's independence of platforms and storage."""

from __future__ import annotations

import asyncio
import itertools
import json
import subprocess
import sys
from pathlib import Path

import pytest

from adapters.sqlite import SqliteRepository
from core.actions import Cancel, Hold, Join, Leave, Open, Roll, Score, Start
from core.boxes import Box
from core.dice import ScriptedRoller, SeededRoller
from core.errors import ErrorCode, GameError
from core.events import BoxScored, DiceRolled, EndReason, GameEnded, LotThrown
from core.fairdice import is_seed
from core.identity import ChannelKey, PlayerRef
from core.rules import Variants
from core.service import GameService, new_game_id
from core.snapshot import game_to_dict
from core.table import Phase
from core.view import make_view
from tests.core.gamekit import ALICE, BOB, CAROL, DAVE, ERIN, STRANGER

ROOT = Path(__file__).resolve().parents[2]
CHANNEL = ChannelKey("test", "chan-1")
OTHER = ChannelKey("test", "chan-2")


@pytest.fixture
async def repo(tmp_path: Path):
    repository = await SqliteRepository.open(tmp_path / "games.db")
    yield repository
    await repository.close()


def counter_ids(prefix: str = "game"):
    numbers = itertools.count(1)
    return lambda: f"{prefix}{next(numbers)}"


async def expect_refusal(service: GameService, code: ErrorCode, *args, **kwargs) -> None:
    """The service refuses with `code` and the stored game and log are as they were."""
    channel = args[0]
    before = await service.game(channel)
    log_before = await service.events(before.id) if before else []
    with pytest.raises(GameError) as caught:
        await service.act(*args, **kwargs)
    assert caught.value.code is code
    after = await service.game(channel)
    assert after == before
    if before is not None:
        assert await service.events(before.id) == log_before


async def test_open_join_start_play(repo: SqliteRepository) -> None:
    roller = ScriptedRoller()
    service = GameService(repo, roller, id_factory=counter_ids())
    log = []

    outcome = await service.act(CHANNEL, ALICE, Open())
    assert outcome.game.id == "game1"
    assert outcome.game.version == 1
    assert outcome.view.phase is Phase.LOBBY
    assert outcome.view.viewer_id == ALICE.id
    assert outcome.view.host is not None and outcome.view.host.id == ALICE.id
    log += outcome.events

    outcome = await service.act(CHANNEL, BOB, Join(), game_id="game1", version=1)
    assert [p.id for p in outcome.view.players] == [ALICE.id, BOB.id]
    log += outcome.events

    roller.push([6, 6, 6, 6, 6, 1, 1, 1, 1, 2])  # Bob's lot is lowest
    outcome = await service.act(CHANNEL, ALICE, Start(), game_id="game1", version=2)
    assert outcome.view.phase is Phase.PLAYING
    assert outcome.view.current is not None and outcome.view.current.id == BOB.id
    assert [e.dice for e in outcome.events if isinstance(e, LotThrown)] == [
        (6, 6, 6, 6, 6),
        (1, 1, 1, 1, 2),
    ]
    log += outcome.events

    roller.push([2, 3, 4, 4, 1])
    outcome = await service.act(CHANNEL, BOB, Roll(), game_id="game1", version=3)
    assert [d.value for d in outcome.view.dice] == [2, 3, 4, 4, 1]
    log += outcome.events
    outcome = await service.act(CHANNEL, BOB, Hold(frozenset({0, 1, 2})), version=4)
    log += outcome.events
    roller.push([5, 6])
    outcome = await service.act(CHANNEL, BOB, Roll(), version=5)
    assert [d.value for d in outcome.view.dice] == [2, 3, 4, 5, 6]
    options = {o.box: o.points for o in outcome.view.options}
    assert options[Box.STRAIGHT] == 20
    log += outcome.events
    outcome = await service.act(CHANNEL, BOB, Score(Box.STRAIGHT), version=6)
    assert outcome.events[0] == BoxScored(BOB.id, Box.STRAIGHT, 20, (2, 3, 4, 5, 6), 2)
    assert outcome.view.current is not None and outcome.view.current.id == ALICE.id
    assert outcome.view.player(BOB.id).total == 20
    log += outcome.events

    stored = await repo.active_game(CHANNEL)
    assert stored.sealed() == outcome.game == await service.game(CHANNEL)
    assert stored.seed and stored.version == 7
    assert await repo.events("game1") == log
    assert await service.view(CHANNEL, BOB.id) == make_view(stored, BOB.id)
    assert await service.view(OTHER) is None
    assert roller.remaining == 0


async def test_a_whole_solo_game_then_a_new_one(repo: SqliteRepository) -> None:
    roller = ScriptedRoller()
    service = GameService(repo, roller, id_factory=counter_ids())
    await service.act(CHANNEL, CAROL, Open())
    await service.act(CHANNEL, CAROL, Start())
    for box in Box:
        roller.push([3, 3, 3, 5, 5])
        outcome = await service.act(CHANNEL, CAROL, Roll())
        outcome = await service.act(CHANNEL, CAROL, Score(box))
    assert outcome.game.phase is Phase.FINISHED
    assert outcome.events[-1] == GameEnded(EndReason.COMPLETED, (CAROL.id,), outcome.game.seed)
    assert is_seed(outcome.game.seed)  # revealed at the end
    assert outcome.view.winners[0].id == CAROL.id
    assert await service.game(CHANNEL) is None
    assert await service.view(CHANNEL) is None
    assert (await repo.get_game("game1")) == outcome.game
    [row] = await repo.results("game1")
    assert (row["player_id"], row["total"], row["winner"]) == (CAROL.id, 9 + 10 + 35, 1)
    with pytest.raises(GameError) as caught:
        await service.act(CHANNEL, CAROL, Roll())
    assert caught.value.code is ErrorCode.NO_GAME
    fresh = await service.act(CHANNEL, DAVE, Open())
    assert fresh.game.id == "game2"
    assert (await service.game(CHANNEL)).host_id == DAVE.id


async def test_stale_version_is_refused_and_changes_nothing(repo: SqliteRepository) -> None:
    roller = ScriptedRoller()
    service = GameService(repo, roller, id_factory=counter_ids())
    await service.act(CHANNEL, ALICE, Open())
    await service.act(CHANNEL, ALICE, Start())
    roller.push([1, 2, 3, 4, 5])
    await service.act(CHANNEL, ALICE, Roll(), game_id="game1", version=2)
    roller.push([6, 6, 6, 6, 6])
    # a press on the board of version 2 after the game moved to 3
    await expect_refusal(service, ErrorCode.STALE, CHANNEL, ALICE, Roll(), version=2)
    await expect_refusal(
        service, ErrorCode.STALE, CHANNEL, ALICE, Score(Box.ONES), game_id="game1", version=99
    )
    assert roller.remaining == 5
    outcome = await service.act(CHANNEL, ALICE, Roll(), game_id="game1", version=3)
    assert outcome.game.turn.dice == (6, 6, 6, 6, 6)


async def test_a_press_for_an_older_game_is_game_over(repo: SqliteRepository) -> None:
    service = GameService(repo, ScriptedRoller(), id_factory=counter_ids())
    await service.act(CHANNEL, ALICE, Open())
    await service.act(CHANNEL, BOB, Join())
    await service.act(CHANNEL, ALICE, Cancel())
    # no game at all: a button of the old game is over, a plain command finds no game
    await expect_refusal(service, ErrorCode.GAME_OVER, CHANNEL, BOB, Join(), game_id="game1")
    await expect_refusal(service, ErrorCode.NO_GAME, CHANNEL, BOB, Join())
    await service.act(CHANNEL, BOB, Open())
    await expect_refusal(
        service, ErrorCode.GAME_OVER, CHANNEL, ALICE, Join(), game_id="game1", version=1
    )
    game = await service.game(CHANNEL)
    assert game.id == "game2" and [s.player for s in game.seats] == [BOB]


async def test_open_when_a_game_exists(repo: SqliteRepository) -> None:
    service = GameService(repo, ScriptedRoller(), id_factory=counter_ids())
    await service.act(CHANNEL, ALICE, Open())
    await expect_refusal(service, ErrorCode.GAME_EXISTS, CHANNEL, BOB, Open())
    await expect_refusal(service, ErrorCode.GAME_EXISTS, CHANNEL, ALICE, Open(Variants()))
    # a second service (another process) is refused by the storage itself
    other = GameService(repo, ScriptedRoller(), id_factory=counter_ids("other"))
    await expect_refusal(other, ErrorCode.GAME_EXISTS, CHANNEL, BOB, Open())
    assert await repo.get_game("other1") is None


async def test_a_refused_rule_changes_nothing_in_storage(repo: SqliteRepository) -> None:
    roller = ScriptedRoller()
    service = GameService(repo, roller, id_factory=counter_ids())
    await service.act(CHANNEL, ALICE, Open())
    await service.act(CHANNEL, BOB, Join())
    roller.push([1, 1, 1, 1, 1, 2, 2, 2, 2, 2])
    await service.act(CHANNEL, ALICE, Start())
    roller.push([1, 2, 3, 4, 5])
    await expect_refusal(service, ErrorCode.NOT_YOUR_TURN, CHANNEL, BOB, Roll())
    await expect_refusal(service, ErrorCode.THROW_FIRST, CHANNEL, ALICE, Score(Box.ONES))
    await expect_refusal(service, ErrorCode.NOT_YOUR_TURN, CHANNEL, STRANGER, Roll())
    await expect_refusal(service, ErrorCode.NOT_IN_LOBBY, CHANNEL, CAROL, Join())
    assert roller.remaining == 5


async def test_two_presses_on_the_same_version_apply_once(repo: SqliteRepository) -> None:
    """Bob's double tap on Join: one seat (others' joins on that lobby count: test_presses)."""
    service = GameService(repo, SeededRoller(1), id_factory=counter_ids())
    await service.act(CHANNEL, ALICE, Open())
    results = await asyncio.gather(
        service.act(CHANNEL, BOB, Join(), game_id="game1", version=1),
        service.act(CHANNEL, BOB, Join(), game_id="game1", version=1),
        return_exceptions=True,
    )
    applied = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, BaseException)]
    assert len(applied) == 1 and len(refused) == 1
    assert isinstance(refused[0], GameError) and refused[0].code is ErrorCode.STALE
    game = await repo.active_game(CHANNEL)
    assert game.version == 2
    assert len(game.seats) == 2
    assert game.sealed() == applied[0].game
    assert len(await repo.events("game1")) == 3


async def test_two_rolls_on_the_same_version_throw_once(repo: SqliteRepository) -> None:
    roller = ScriptedRoller()
    service = GameService(repo, roller, id_factory=counter_ids())
    await service.act(CHANNEL, ALICE, Open())
    await service.act(CHANNEL, ALICE, Start())
    roller.push([2, 2, 3, 3, 4] * 2)
    results = await asyncio.gather(
        *(service.act(CHANNEL, ALICE, Roll(), version=2) for _ in range(2)),
        return_exceptions=True,
    )
    refused = [r for r in results if isinstance(r, BaseException)]
    assert len(refused) == 1
    assert isinstance(refused[0], GameError) and refused[0].code is ErrorCode.STALE
    game = await repo.active_game(CHANNEL)
    assert (game.version, game.turn.throws) == (3, 1)
    rolled = [e for e in await repo.events(game.id) if isinstance(e, DiceRolled)]
    assert len(rolled) == 1
    assert roller.remaining == 5


async def test_two_services_on_one_file_apply_a_version_once(tmp_path: Path) -> None:
    """Two processes (two connections) racing on one game: the storage's version check decides."""
    path = tmp_path / "shared.db"
    first = await SqliteRepository.open(path)
    second = await SqliteRepository.open(path)
    try:
        one = GameService(first, SeededRoller(1), id_factory=counter_ids())
        two = GameService(second, SeededRoller(2), id_factory=counter_ids("x"))
        await one.act(CHANNEL, ALICE, Open())
        for _ in range(5):
            version = (await first.active_game(CHANNEL)).version
            players = [PlayerRef(f"racer-{version}-{n}", f"R{n}") for n in range(2)]
            results = await asyncio.gather(
                one.act(CHANNEL, players[0], Join(), version=version),
                two.act(CHANNEL, players[1], Join(), version=version),
                return_exceptions=True,
            )
            errors = [r for r in results if isinstance(r, BaseException)]
            assert len(errors) == 1, results
            assert isinstance(errors[0], GameError) and errors[0].code is ErrorCode.STALE
            game = await second.active_game(CHANNEL)
            assert game.version == version + 1
        assert len(game.seats) == 6
        log = await first.events(game.id)
        assert len(log) == 2 + 5
    finally:
        await first.close()
        await second.close()


async def test_actions_without_a_version_are_serialised_per_channel(
    repo: SqliteRepository,
) -> None:
    service = GameService(repo, SeededRoller(3), id_factory=counter_ids())
    await service.act(CHANNEL, ALICE, Open(Variants(table_cap=20)))
    players = [PlayerRef(f"p{n}", f"P{n}") for n in range(12)]
    outcomes = await asyncio.gather(*(service.act(CHANNEL, p, Join()) for p in players))
    assert sorted(o.game.version for o in outcomes) == list(range(2, 14))
    game = await repo.active_game(CHANNEL)
    assert {s.player.id for s in game.seats} == {ALICE.id} | {p.id for p in players}
    assert len(await repo.events(game.id)) == 2 + 12


async def test_many_channels_in_parallel_do_not_interfere(repo: SqliteRepository) -> None:
    service = GameService(repo, SeededRoller(11))
    channels = [ChannelKey("test", f"room-{n}", str(n % 3)) for n in range(8)]
    cast = [ALICE, BOB, CAROL, DAVE, ERIN]

    async def play(n: int, channel: ChannelKey) -> tuple[str, int]:
        """Open, join, start, n + 3 one-throw turns, and for odd n the guest leaves."""
        host, guest = cast[n % 5], PlayerRef(f"guest-{n}", f"Guest {n}")
        outcome = await service.act(channel, host, Open())
        await service.act(channel, guest, Join())
        outcome = await service.act(channel, host, Start())
        applied = 3
        for _ in range(3 + n):
            player = outcome.game.seats[outcome.game.current].player
            outcome = await service.act(channel, player, Roll())
            applied += 1
            if outcome.game.phase is not Phase.PLAYING:  # a big general
                return outcome.game.id, applied
            box = outcome.game.seats[outcome.game.current].open_boxes()[0]
            outcome = await service.act(channel, player, Score(box))
            applied += 1
        if n % 2:
            await service.act(channel, guest, Leave())
            applied += 1
        return outcome.game.id, applied

    played = await asyncio.gather(*(play(n, c) for n, c in enumerate(channels)))
    assert len({game_id for game_id, _ in played}) == len(channels)
    for n, (channel, (game_id, applied)) in enumerate(zip(channels, played, strict=True)):
        game = await repo.get_game(game_id)
        assert game.channel == channel
        assert game.version == applied
        assert {s.player.id for s in game.seats} == {cast[n % 5].id, f"guest-{n}"}
        log = await repo.events(game_id)
        actors = {getattr(e, "player_id", None) for e in log} - {None}
        assert actors <= {cast[n % 5].id, f"guest-{n}"}
        for seat in game.seats:
            points = [
                e.points for e in log if isinstance(e, BoxScored) and e.player_id == seat.player.id
            ]
            assert seat.total == sum(points)
        if game.phase is not Phase.FINISHED:
            assert await repo.active_game(channel) == game
            guest_seat = game.seats[game.seat_of(f"guest-{n}")]
            assert guest_seat.active is (n % 2 == 0)


def test_new_game_ids_are_short_and_distinct() -> None:
    ids = {new_game_id() for _ in range(200)}
    assert len(ids) == 200
    assert all(len(i) == 8 and i.isalnum() and i == i.lower() for i in ids)


def test_core_imports_no_platform_or_storage_library() -> None:
    script = (
        "import json, pkgutil, importlib, sys, core\n"
        "names = [m.name for m in pkgutil.iter_modules(core.__path__, 'core.')]\n"
        "for name in names: importlib.import_module(name)\n"
        "print(json.dumps({'imported': names, 'modules': sorted(sys.modules)}))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
    )
    result = json.loads(done.stdout)
    expected = {"core." + m for m in ("actions", "boxes", "dice", "errors", "events", "game")}
    expected |= {"core." + m for m in ("identity", "ports", "rules", "service", "view")}
    assert expected <= set(result["imported"])
    banned = ("discord", "telegram", "aiosqlite", "sqlite3", "_sqlite3")
    offenders = [
        m for m in result["modules"] if any(m == b or m.startswith(b + ".") for b in banned)
    ]
    assert offenders == []


async def test_outcome_view_matches_a_fresh_view_of_the_stored_game(
    repo: SqliteRepository,
) -> None:
    service = GameService(repo, ScriptedRoller([4, 4, 4, 4, 2]))
    await service.act(CHANNEL, ALICE, Open())
    await service.act(CHANNEL, ALICE, Start())
    outcome = await service.act(CHANNEL, ALICE, Roll())
    stored = await repo.active_game(CHANNEL)
    assert outcome.view == make_view(stored, ALICE.id, outcome.events)
    assert game_to_dict(outcome.game) == game_to_dict(stored.sealed())
    assert outcome.game.seed == "" and is_seed(stored.seed)  # handed out sealed, stored whole


async def test_a_hint_is_for_the_player_whose_turn_it_is(repo: SqliteRepository) -> None:
    """The hint asks the rules' own turn check; hints off is said first, to anyone."""

    async def refused(player: PlayerRef) -> ErrorCode:
        with pytest.raises(GameError) as caught:
            await service.hint(CHANNEL, player)
        return caught.value.code

    roller = ScriptedRoller()
    service = GameService(repo, roller, id_factory=counter_ids())
    assert await refused(ALICE) is ErrorCode.NO_GAME
    await service.act(CHANNEL, ALICE, Open())
    await service.act(CHANNEL, BOB, Join())
    assert await refused(ALICE) is ErrorCode.NOT_STARTED
    roller.push([1, 1, 1, 1, 1, 2, 2, 2, 2, 2])  # Alice's lot is lowest
    await service.act(CHANNEL, ALICE, Start())
    assert await refused(ALICE) is ErrorCode.THROW_FIRST
    roller.push([1, 2, 3, 4, 5])
    await service.act(CHANNEL, ALICE, Roll())
    assert await refused(BOB) is ErrorCode.NOT_YOUR_TURN
    assert await refused(STRANGER) is ErrorCode.NOT_YOUR_TURN
    best, *_ = await service.hint(CHANNEL, ALICE)
    assert best.box is Box.STRAIGHT

    await service.act(CHANNEL, ALICE, Cancel())
    await service.act(CHANNEL, ALICE, Open(Variants(hints=False)))
    await service.act(CHANNEL, BOB, Join())
    roller.push([1, 1, 1, 1, 1, 2, 2, 2, 2, 2])
    await service.act(CHANNEL, ALICE, Start())
    roller.push([1, 2, 3, 4, 5])
    await service.act(CHANNEL, ALICE, Roll())
    assert await refused(ALICE) is ErrorCode.HINTS_OFF
    assert await refused(BOB) is ErrorCode.HINTS_OFF
