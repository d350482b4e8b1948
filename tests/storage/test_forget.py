"""Forgetting a person on every backend: their results move to one anonymous player, so that
everyone else's records and ratings stay exactly as they were (through a rebuild too); no stored
game or event names them; the games in progress go on without them; computers are refused."""

from __future__ import annotations

import pytest

from core.actions import Join, Open, Roll, Start
from core.dice import ScriptedRoller
from core.forget import ANONYMOUS_PREFIX, FORGOTTEN_PREFIX, new_alias
from core.identity import ChannelKey, PlayerRef
from core.levels import Level
from core.ratings import EVERYWHERE
from core.service import GameService
from tests.storage.conftest import Backend, Repository
from tests.storage.test_ratings import PEOPLE, play, stored

HERE = ChannelKey("tg", "-100")
ANN, BOB, CID = PEOPLE[:3]
OWN = ChannelKey("tg", BOB.id)  # Bob's private chat with the bot has his id


async def text_rows(backend: Backend, table: str, column: str, needle: str) -> int:
    """How many rows of `table` have `needle` anywhere in `column`."""
    cast = "::text" if backend.name == "postgres" else ""
    rows = await backend.raw(f"SELECT COUNT(*) FROM {table} WHERE {column}{cast} LIKE '%{needle}%'")
    return int(rows[0][0])


async def played(repository: Repository) -> GameService:
    """Three recorded games: Ann, Bob and Cid here; Ann, Bob and a Master in Bob's own chat;
    Ann and Bob here again."""
    roller = ScriptedRoller()
    service = GameService(repository, roller)
    await play(service, roller, HERE, [[6, 6, 6, 5, 5], [2, 2, 3, 4, 6], [1, 1, 2, 3, 3]])
    await play(service, roller, OWN, [[1, 2, 2, 3, 3], [5, 5, 5, 6, 6]], computers=[Level.MASTER])
    await play(service, roller, HERE, [[3, 3, 4, 4, 1], [6, 6, 5, 5, 4]])
    return service


async def test_forgetting_keeps_everyone_elses_records_and_ratings_exactly(
    backend: Backend, repository: Repository
) -> None:
    service = await played(repository)
    await repository.rate_games()
    board = await repository.leaderboard("tg", HERE, None)
    rated = await repository.rating_board("tg", None, None)
    history = await repository.history(HERE)
    everywhere, here = await stored(backend, EVERYWHERE), await stored(backend, str(HERE))
    bob = await repository.player_stats("tg", BOB.id, None)
    assert bob is not None and bob.games == 3

    forgotten, shown = await service.forget_person("tg", BOB.id)
    assert (forgotten.results, forgotten.ratings, forgotten.games, forgotten.seated_out) == (
        3, 3, 3, 0
    )  # fmt: skip
    assert shown == []

    # Bob is not known any more, by id or by name.
    assert await repository.player_stats("tg", BOB.id, None) is None
    assert await repository.player_rating("tg", BOB.id, None) is None
    assert await repository.find_player("tg", HERE, "Bob") is None
    for table, column in (("results", "name"), ("games", "snapshot"), ("events", "data")):
        assert await text_rows(backend, table, column, "Bob") == 0, table
        assert await text_rows(backend, table, column, f'"{BOB.id}"') == 0, table
    assert await backend.raw(f"SELECT id FROM games WHERE channel LIKE 'tg:{BOB.id}:%'") == []

    # One anonymous player in his place, with his figures: the others' standing is theirs.
    (alias,) = {row[0] for row in await backend.raw("SELECT DISTINCT player_id FROM ratings")} - {
        ANN.id, CID.id, "cpu-master"
    }  # fmt: skip
    assert alias.startswith(FORGOTTEN_PREFIX)
    after = await repository.leaderboard("tg", HERE, None)
    assert [(s.player_id if s.player_id != alias else BOB.id, s.wins, s.games) for s in after] == [
        (s.player_id, s.wins, s.games) for s in board
    ]
    assert all(s.name.startswith(ANONYMOUS_PREFIX) for s in after if s.player_id == alias)
    after_rated = await repository.rating_board("tg", None, None)
    assert [(r.player_id, r.rating) for r in after_rated if r.player_id != alias] == [
        (r.player_id, r.rating) for r in rated if r.player_id != BOB.id
    ]
    past = await repository.history(HERE)
    assert [[(p[1], p[2]) for p in g.players] for g in past] == [
        [(p[1], p[2]) for p in g.players] for g in history
    ]

    def renamed(skills: dict[str, object]) -> dict[str, object]:
        return {alias if key == BOB.id else key: value for key, value in skills.items()}

    assert await stored(backend, EVERYWHERE) == renamed(everywhere)
    # A rebuild replays the results: the one anonymous id is one player, so nothing moves.
    assert await repository.rebuild_ratings() == 3
    assert await stored(backend, EVERYWHERE) == renamed(everywhere)
    assert await stored(backend, str(HERE)) == renamed(here)


async def test_a_game_in_progress_goes_on_without_them(
    backend: Backend, repository: Repository
) -> None:
    """Bob sits in a lobby and in a game being played: he leaves both by the game's rules, and
    the tables' stored state names an anonymous player (a new version: an old save is stale)."""
    roller = ScriptedRoller()
    service = GameService(repository, roller)
    lobby, table = ChannelKey("tg", "-300"), ChannelKey("tg", "-400")
    await service.act(lobby, ANN, Open())
    await service.act(lobby, BOB, Join())
    await service.act(table, ANN, Open())
    await service.act(table, BOB, Join())
    await service.act(table, CID, Join())
    roller.push([1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 3])  # Ann, Bob, Cid in this order
    await service.act(table, ANN, Start())
    before = await service.game(table)
    assert before is not None and before.seats[before.current].player == ANN

    forgotten, shown = await service.forget_person("tg", BOB.id)
    assert forgotten.seated_out == 2 and len(shown) == 2
    open_lobby, playing = await service.game(lobby), await service.game(table)
    assert open_lobby is not None and [s.player for s in open_lobby.seats] == [ANN]
    assert playing is not None and playing.seat_of(BOB.id) is None
    (gone,) = [s for s in playing.seats if s.player.id.startswith(FORGOTTEN_PREFIX)]
    assert not gone.active and gone.player.name.startswith(ANONYMOUS_PREFIX)
    assert playing.version == before.version + 2  # his leaving, then the rewrite
    for _, outcome in shown:
        assert BOB.id not in {s.player.id for s in outcome.game.seats}
        assert all(getattr(e, "player_id", "") != BOB.id for e in outcome.events)
    assert await text_rows(backend, "games", "snapshot", "Bob") == 0
    assert await text_rows(backend, "events", "data", "Bob") == 0
    # The table goes on: Ann plays on the version the bot shows now.
    roller.push([2, 2, 3, 3, 3])
    await service.act(table, ANN, Roll(), version=playing.version)


async def test_computers_and_the_forgotten_are_refused(repository: Repository) -> None:
    service = GameService(repository, ScriptedRoller())
    for player_id in ("cpu-master", "cpu-novice-2", f"{FORGOTTEN_PREFIX}abc", ""):
        with pytest.raises(ValueError):
            await repository.forget_player("tg", player_id, new_alias())
        with pytest.raises(ValueError):
            await service.forget_person("tg", player_id)
    with pytest.raises(ValueError):  # an alias must be an anonymous player's
        await repository.forget_player("tg", BOB.id, PlayerRef("9", "Nine"))


async def test_someone_never_seen_changes_nothing(repository: Repository) -> None:
    service = await played(repository)
    forgotten, _ = await service.forget_person("tg", "424242")
    assert not forgotten.anything
    assert (await repository.player_stats("tg", ANN.id, None)) is not None
