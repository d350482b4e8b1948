"""The operator's tools as they are run: `python -m bot ratings --rebuild`, a real process on a
real database file."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from adapters.sqlite import SqliteRepository
from core.actions import Cancel, Open, Start
from core.dice import ScriptedRoller
from core.identity import ChannelKey, PlayerRef
from core.service import GameService
from tests.process import tool
from tests.storage.test_ratings import HERE, STRAIGHT, play

STRONG = [6, 6, 6, 5, 5]


def ratings(database: Path) -> list[tuple[object, ...]]:
    """Every rating (but when it was written) and every change."""
    with sqlite3.connect(database) as db:
        return [
            *db.execute(
                "SELECT platform, scope, player_id, mu, sigma, games, best FROM ratings"
                " ORDER BY platform, scope, player_id"
            ),
            *db.execute("SELECT * FROM rating_changes ORDER BY seq, scope, player_id"),
        ]


async def test_the_rebuild_gives_the_live_ratings_and_refuses_while_the_bot_runs(
    tmp_path: Path,
) -> None:
    database = tmp_path / "general.db"
    repository = await SqliteRepository.open(database)
    roller = ScriptedRoller()
    service = GameService(repository, roller)
    await play(service, roller, HERE, [STRONG, STRAIGHT])
    await play(service, roller, ChannelKey("tg", "-7"), [STRAIGHT, STRONG, [3, 3, 3, 2, 2]])
    await play(service, roller, HERE, [STRAIGHT, STRONG])

    code, out, err = await tool(database, "ratings", "--rebuild")  # the bot holds the file
    assert code != 0 and out == ""
    assert "stop the other process first" in err and "Traceback" not in err
    await repository.close()

    live = ratings(database)
    assert len(live) > 8
    with sqlite3.connect(database) as db:  # as a bot whose model changed would find them
        db.execute("UPDATE ratings SET mu = 1, sigma = 1")
    code, out, err = await tool(database, "ratings", "--rebuild")
    assert (code, out, err) == (
        0,
        "rated 3 recorded games again, in the order they were rated\n",
        "",
    )
    assert ratings(database) == live


async def test_a_wrong_tool_or_argument_is_one_line_and_status_2(tmp_path: Path) -> None:
    database = tmp_path / "general.db"
    code, out, err = await tool(database, "ratings")
    assert (code, out) == (2, "")
    assert err == "python -m bot ratings: error: the following arguments are required: --rebuild\n"
    code, _, err = await tool(database, "rating")
    assert code == 2 and err.count("\n") == 1 and "invalid choice: 'rating'" in err
    assert not database.exists()  # nothing was opened for a command that was not understood


async def test_forget_as_the_operator_runs_it(tmp_path: Path) -> None:
    """`python -m bot forget`: Ann's name leaves every stored row; Bob's rating stays exactly;
    without --yes and no terminal to ask on, nothing is done."""
    database = tmp_path / "general.db"
    repository = await SqliteRepository.open(database)
    roller = ScriptedRoller()
    await play(GameService(repository, roller), roller, HERE, [STRONG, STRAIGHT])
    await repository.close()
    bob = [row for row in ratings(database) if row[2] == "2"]

    code, out, err = await tool(database, "forget", "--platform", "telegram", "--user", "1")
    assert (code, out) == (1, "") and err.count("\n") == 1  # not confirmed: nothing done
    code, out, err = await tool(
        database, "forget", "--platform", "telegram", "--user", "1", "--yes"
    )
    assert code == 0 and err == "" and out.startswith("forgot telegram user 1: "), (out, err)
    with sqlite3.connect(database) as db:
        names = {name for (name,) in db.execute("SELECT name FROM results")}
        logs = " ".join(text for (text,) in db.execute("SELECT data FROM events"))
        logs += " ".join(text for (text,) in db.execute("SELECT snapshot FROM games"))
    assert "Ann" not in names and "Bob" in names and "Ann" not in logs
    assert [row for row in ratings(database) if row[2] == "2"] == bob


async def test_verify_and_export_refuse_what_there_is_nothing_to_check(tmp_path: Path) -> None:
    """A game not there, one still in play (its seed is not yet told), one of the old dice:
    one line each, status 1, nothing printed on stdout."""
    database = tmp_path / "general.db"
    code, out, err = await tool(database, "verify", "nosuchgm")
    assert (code, out) == (1, "") and err == f"python -m bot verify: no database at {database}\n"
    repository = await SqliteRepository.open(database)
    service = GameService(repository, ScriptedRoller([1, 2, 3, 4, 6]))
    await service.act(HERE, PlayerRef("1", "Anna"), Open())
    await service.act(HERE, PlayerRef("1", "Anna"), Start())
    playing = await service.game(HERE)
    assert playing is not None
    await service.act(ChannelKey("tg", "-9"), PlayerRef("2", "Boris"), Open(committed=False))
    old = await service.game(ChannelKey("tg", "-9"))
    assert old is not None
    await service.act(ChannelKey("tg", "-9"), PlayerRef("2", "Boris"), Cancel())
    await repository.close()
    for argv, said in [
        (("verify", "nosuchgm"), "no game 'nosuchgm' in the database"),
        (("export", "nosuchgm"), "no game 'nosuchgm' in the database"),
        (("export", playing.id), "this game is still in play: its seed is revealed when it ends"),
    ]:
        code, out, err = await tool(database, *argv)
        assert (code, out, err) == (1, "", f"python -m bot {argv[0]}: {said}\n")
    code, out, err = await tool(database, "verify", playing.id)
    assert (code, out, err) == (
        1,
        "this game is still in play: its seed is revealed when it ends\n",
        "",
    )
    code, out, err = await tool(database, "verify", old.id)
    assert (code, err) == (1, "") and out.startswith("this game was played with the old dice")
