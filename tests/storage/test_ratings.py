"""Skill ratings from real games on every backend: equal to openskill's own computation for the
same rankings, rebuilt exactly, migrated into from the schema before them, moved with a chat."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
from openskill.models import PlackettLuce

from adapters.sqlite import ratings as sqlite_ratings
from core.actions import AddComputer, Join, Open, Roll, Score, Start
from core.boxes import ALL_BOXES
from core.dice import ScriptedRoller
from core.identity import ChannelKey, PlayerRef
from core.levels import Level
from core.ratings import EVERYWHERE, Skill
from core.service import GameService
from tests.storage.conftest import Backend, PostgresBackend, Repository, SqliteBackend

HERE, THERE = ChannelKey("tg", "-100"), ChannelKey("tg", "-200")
NAMES = ("Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus")
PEOPLE = [PlayerRef(str(n), name) for n, name in enumerate(NAMES, 1)]
STRAIGHT = [1, 2, 3, 4, 5]


async def play(
    service: GameService,
    roller: ScriptedRoller,
    channel: ChannelKey,
    dice: Sequence[list[int]],
    *,
    computers: Sequence[Level] = (),
    big_general: int | None = None,
) -> list[str]:
    """A game of len(dice) people (then `computers`) in which seat n throws dice[n] every turn
    (computers a straight) and fills the boxes in order; a big general by seat `big_general`
    at its first turn ends it. Returns the player ids in seating order."""
    people = PEOPLE[: len(dice)]
    await service.act(channel, people[0], Open())
    for person in people[1:]:
        await service.act(channel, person, Join())
    for level in computers:
        await service.act(channel, people[0], AddComputer(level, level.value.title()))
    game = await service.game(channel)
    assert game is not None
    seats = [seat.player for seat in game.seats]
    throws = {p.id: d for p, d in zip(seats, [*dice, *[STRAIGHT] * len(computers)], strict=True)}
    # The lot: seat n throws 5 + n, so the seats play in their order.
    roller.push([v for n in range(len(seats)) for v in (1, 1, 1, 1 + min(n, 5), 1 + max(0, n - 5))])
    await service.act(channel, people[0], Start())
    while (game := await service.game(channel)) is not None:
        seat = game.seats[game.current]
        first = big_general is not None and seat.player == seats[big_general]
        roller.push([4] * 5 if first else throws[seat.player.id])
        outcome = await service.act(channel, seat.player, Roll())
        if outcome.game.phase.value == "finished":
            break
        box = next(b for b in ALL_BOXES if b in seat.open_boxes())
        await service.act(channel, seat.player, Score(box))
    return [player.id for player in seats]


def library(games: Sequence[tuple[list[str], list[int]]]) -> dict[str, Skill]:
    """openskill's own ratings after the games (players by id, ranks 1 best), in order."""
    model = PlackettLuce()
    kept: dict[str, Skill] = {}
    for ids, ranks in games:
        teams = [[model.rating(mu=kept[i].mu, sigma=kept[i].sigma) if i in kept else model.rating()]
                 for i in ids]  # fmt: skip
        for i, (rating,) in zip(ids, model.rate(teams, ranks=ranks), strict=True):
            kept[i] = Skill(rating.mu, rating.sigma)
    return kept


async def stored(backend: Backend, scope: str) -> dict[str, Skill]:
    rows = await backend.raw(
        f"SELECT player_id, mu, sigma FROM ratings WHERE scope = '{scope}' ORDER BY player_id"
    )
    return {row[0]: Skill(row[1], row[2]) for row in rows}


async def everything(backend: Backend) -> list[tuple[object, ...]]:
    """Every rating and every change, exactly as stored."""
    ratings = await backend.raw(
        "SELECT platform, scope, player_id, mu, sigma, games, best FROM ratings"
        " ORDER BY platform, scope, player_id"
    )
    changes = await backend.raw(
        "SELECT game_id, scope, player_id, seq, mu_before, sigma_before, mu, sigma, games"
        " FROM rating_changes ORDER BY seq, scope, player_id"
    )
    return [*ratings, *changes]


async def test_ratings_are_the_librarys_for_two_three_and_seven_players_ties_and_a_big_general(
    backend: Backend, repository: Repository
) -> None:
    roller = ScriptedRoller()
    service = GameService(repository, roller)
    strong, middling, weak = [6, 6, 6, 5, 5], [3, 3, 3, 2, 2], STRAIGHT
    games: list[tuple[list[str], list[int]]] = []
    ids = await play(service, roller, HERE, [strong, weak])
    games.append((ids, [1, 2]))
    ids = await play(service, roller, HERE, [weak, strong, middling])
    games.append((ids, [3, 1, 2]))
    # Seven: a tie at the top and one at the bottom.
    seven = [strong, strong, middling, weak, weak, [2, 2, 2, 1, 1], [4, 4, 4, 1, 1]]
    ids = await play(service, roller, HERE, seven)
    games.append((ids, [1, 1, 4, 6, 6, 5, 3]))
    # A big general by Bob at his first turn: he ranks first, everyone else by total (Ann and
    # Cid have thrown once each: Ann's straight counts 1 in Ones, Cid's 6-6-6-5-5 nothing).
    ids = await play(service, roller, HERE, [weak, middling, strong], big_general=1)
    games.append((ids, [2, 1, 3]))

    expected = library(games)
    assert await stored(backend, str(HERE)) == expected
    assert await stored(backend, EVERYWHERE) == expected
    assert await stored(backend, str(THERE)) == {}

    change = {c.player_id: c for c in await repository.game_ratings((await last(backend)), HERE)}
    assert set(change) == {"1", "2", "3"}
    assert change["2"].after == expected["2"] and change["2"].delta > 0
    assert change["2"].games == 4 and change["2"].provisional
    assert change["1"].delta == change["1"].after.shown - change["1"].before.shown  # type: ignore[union-attr]


async def last(backend: Backend) -> str:
    ((game_id,),) = await backend.raw("SELECT game_id FROM rated_games ORDER BY seq DESC LIMIT 1")
    return str(game_id)


async def test_computers_are_rated_by_level_and_provisional_players_stand_apart(
    backend: Backend, repository: Repository
) -> None:
    roller = ScriptedRoller()
    service = GameService(repository, roller)
    for _ in range(5):  # Ann beats Master (a straight a turn) five times: no longer provisional
        await play(service, roller, HERE, [[6, 6, 6, 5, 5]], computers=[Level.MASTER])
    await play(service, roller, HERE, [[6, 6, 6, 5, 5], [1, 1, 1, 2, 2]])  # Bob's first
    board = await repository.rating_board("tg", HERE, None)
    assert [(r.player_id, r.rating.games, r.rating.provisional) for r in board] == [
        ("1", 6, False),
        ("cpu-master", 5, False),
        ("2", 1, True),
    ]
    assert board[0].name == "Ann" and board[0].rating.shown > board[1].rating.shown
    assert board[0].rating.best >= board[0].rating.shown
    rating = await repository.player_rating("tg", "1", None)
    assert rating is not None and len(rating.trend) == 7 and rating.trend[-1] == rating.shown
    assert rating.trend[0] == 1000  # before the first of them: a newcomer
    assert await repository.player_rating("tg", "cpu-master", HERE) is not None
    assert await repository.rating_board("tg", THERE, None) == []


async def test_a_rebuild_gives_exactly_the_live_ratings(
    backend: Backend, repository: Repository
) -> None:
    roller = ScriptedRoller()
    service = GameService(repository, roller)
    await play(service, roller, HERE, [[6, 6, 6, 5, 5], STRAIGHT, [3, 3, 3, 2, 2]])
    await play(service, roller, THERE, [STRAIGHT, [6, 6, 6, 5, 5]], computers=[Level.CLUB])
    await play(service, roller, HERE, [[2, 2, 2, 1, 1], [6, 6, 6, 5, 5]])
    live = await everything(backend)
    assert len(live) > 10
    assert await repository.rebuild_ratings() == 3
    assert await everything(backend) == live
    assert await repository.rate_games() == 0  # nothing left waiting


async def test_games_recorded_before_ratings_existed_are_rated_when_the_schema_moves_on(
    backend: Backend, repository: Repository
) -> None:
    roller = ScriptedRoller()
    service = GameService(repository, roller)
    await play(service, roller, HERE, [[6, 6, 6, 5, 5], STRAIGHT])
    await play(service, roller, HERE, [STRAIGHT, [6, 6, 6, 5, 5], [3, 3, 3, 2, 2]])
    live = await everything(backend)
    await repository.close()
    await forget_ratings(backend)  # the database as the bot before ratings left it
    reopened = await backend.open()
    await reopened.rate_games()  # waits for the catching up that opening started
    assert await everything(backend) == live


async def forget_ratings(backend: Backend) -> None:
    if isinstance(backend, PostgresBackend):
        await backend.admin.execute(
            "DROP TABLE ratings, rated_games, rating_changes, unrated;"
            " ALTER TABLE results DROP COLUMN luck_dice, DROP COLUMN luck_decisions;"
            " DROP TABLE subscriptions, season_ends, tournaments;"
            " DELETE FROM general_migrations WHERE version >= 4"
        )
        return
    assert isinstance(backend, SqliteBackend)
    await backend.raw_script(
        "DROP TABLE ratings; DROP TABLE rated_games; DROP TABLE rating_changes;"
        " DROP TABLE unrated; DROP VIEW rating_saves; DROP TRIGGER results_unrated;"
        " DROP TRIGGER chat_moves_ratings; DROP VIEW forgets;"
        " ALTER TABLE results DROP COLUMN luck_dice;"
        " ALTER TABLE results DROP COLUMN luck_decisions;"
        " DROP TRIGGER chat_moves_subscriptions; DROP TABLE subscriptions;"
        " DROP TRIGGER chat_moves_season_ends; DROP TABLE season_ends;"
        " DROP TRIGGER chat_moves_tournaments; DROP TABLE tournaments;"
        " PRAGMA user_version = 5"
    )


async def test_a_chat_that_moves_takes_its_ratings(
    backend: Backend, repository: Repository
) -> None:
    roller = ScriptedRoller()
    service = GameService(repository, roller)
    await play(service, roller, HERE, [[6, 6, 6, 5, 5], STRAIGHT])
    before = await stored(backend, str(HERE))
    await repository.move_chat("tg", "-100", "-300")
    assert await stored(backend, str(HERE)) == {}
    assert await stored(backend, str(ChannelKey("tg", "-300"))) == before


async def test_sqlite_rates_games_waiting_in_trips_of_a_few_exactly_as_one_at_a_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Waiting games are rated BATCH to a trip (a rebuild, a start's catching up): the same
    ratings in the same order as rated live, and a game ending meanwhile is rated too."""
    backend = SqliteBackend(tmp_path / "general.db")
    repository = await backend.open()
    try:
        roller = ScriptedRoller()
        service = GameService(repository, roller)
        for dice in ([[6, 6, 6, 5, 5], STRAIGHT], [STRAIGHT, [3, 3, 3, 2, 2]], [STRAIGHT] * 3):
            await play(service, roller, HERE, dice)
        live = await everything(backend)
        monkeypatch.setattr(sqlite_ratings, "BATCH", 2)  # three games: two trips
        assert await repository.rebuild_ratings() == 3
        assert await everything(backend) == live
        await backend.raw_script(
            "INSERT INTO unrated (game_id, queued) SELECT game_id, seq FROM rated_games;"
            " DELETE FROM rating_changes; DELETE FROM rated_games; DELETE FROM ratings"
        )
        # The live game's saver rates the three waiting before its own, two to a trip.
        await play(service, roller, HERE, [[6, 6, 6, 5, 5], [2, 2, 2, 1, 1]])
        assert await backend.raw("SELECT COUNT(*) FROM unrated") == [(0,)]
        assert await changes_of(backend, through=3) == change_rows(live)
        assert await backend.raw("SELECT COUNT(*) FROM rated_games") == [(4,)]
    finally:
        await backend.close()


async def changes_of(backend: Backend, through: int) -> list[tuple[object, ...]]:
    return await backend.raw(
        "SELECT game_id, scope, player_id, seq, mu_before, sigma_before, mu, sigma, games"
        f" FROM rating_changes WHERE seq <= {through} ORDER BY seq, scope, player_id"
    )


def change_rows(rows: list[tuple[object, ...]]) -> list[tuple[object, ...]]:
    """The rating_changes rows of what `everything` returned (nine columns; ratings have seven)."""
    return [row for row in rows if len(row) == 9]
