"""`python -m bot.analyse luck GAME` as an operator runs it, a real process on a real database
file: each player's throws and decisions add up to their result, the same figures as the
review's, in win chances or in points, and a game that is not there is one line, exit 1."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from adapters.postgres import PostgresRepository
from adapters.sqlite import SqliteRepository
from core.dice import ScriptedRoller
from core.review import review, story
from core.service import GameService
from tests.conftest import needs_postgres
from tests.storage.test_ratings import HERE, STRAIGHT, play

ROOT = Path(__file__).resolve().parent.parent
STRONG = [6, 6, 6, 5, 5]


async def analyse(database: Path, *argv: str, url: str = "") -> tuple[int, str, str]:
    """The tool on a SQLite file, or (`url`) on PostgreSQL, as an operator runs it."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.analyse", "luck", *argv,
        cwd=database.parent,
        env={"PATH": os.environ["PATH"], "HOME": str(database.parent), "PYTHONPATH": str(ROOT),
             "GENERAL_DATABASE": str(database), "GENERAL_DATABASE_URL": url},
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, err = await process.communicate()
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


def adds_up(player: dict[str, Any]) -> None:
    steps = {cause: 0.0 for cause in ("dice", "decision", "rest")}
    for step in player["steps"]:
        steps[step["cause"]] += step["change"]
    assert steps["dice"] == pytest.approx(player["dice"], abs=1e-9)
    assert steps["decision"] == pytest.approx(player["decisions"], abs=1e-9)
    parts = player["start"] + player["dice"] + player["decisions"] + player["rest"]
    assert parts == pytest.approx(player["result"], abs=1e-9)


async def test_a_stored_games_luck_in_win_chances_and_in_points(tmp_path: Path) -> None:
    database = tmp_path / "general.db"
    repository = await SqliteRepository.open(database)
    roller = ScriptedRoller()
    await play(GameService(repository, roller), roller, HERE, [STRONG, STRAIGHT])
    (past,) = await repository.history(HERE)
    game = await repository.get_game(past.game_id)
    events = await repository.events(past.game_id)
    await repository.close()
    assert game is not None

    code, out, err = await analyse(database, past.game_id, "--json")
    assert (code, err) == (0, ""), err
    data = json.loads(out)
    told = story(events, game.variants)
    assert told is not None and data["unit"] == "share"
    assert [p["name"] for p in data["players"]] == ["Ann", "Bob"]
    for player in data["players"]:
        adds_up(player)
        luck = told.reviews[player["player_id"]].luck
        assert luck is not None and player["dice"] == pytest.approx(luck.dice, abs=1e-12)
        assert player["result"] == (1.0 if player["name"] == "Ann" else 0.0)

    code, out, err = await analyse(database, past.game_id, "--points", "--json")
    assert (code, err) == (0, "")
    points = json.loads(out)
    weighed = review(events, game.variants)
    assert points["unit"] == "points"
    for player in points["players"]:
        adds_up(player)
        luck = weighed[player["player_id"]].luck
        assert luck is not None and player["decisions"] == pytest.approx(luck.decisions, abs=1e-12)

    code, out, err = await analyse(database, past.game_id)
    lines = out.splitlines()
    assert code == 0 and lines[0] == f"game {past.game_id}, weighed by win chances"
    assert any(line.startswith("Ann: start ") for line in lines)
    assert sum("round 1, throw 1" in line and "dice" in line for line in lines) == 2

    code, out, err = await analyse(database, "nosuchgm")
    assert (code, out) == (1, "")
    assert err == "python -m bot.analyse luck: no game 'nosuchgm' in the database\n"


@needs_postgres
async def test_on_postgresql_the_tool_reads_the_same_game(
    postgres_url: str, tmp_path: Path
) -> None:
    repository = await PostgresRepository.open(postgres_url)
    try:
        roller = ScriptedRoller()
        await play(GameService(repository, roller), roller, HERE, [STRONG, STRAIGHT])
        (past,) = await repository.history(HERE)
        game = await repository.get_game(past.game_id)
        events = await repository.events(past.game_id)
    finally:
        await repository.close()
    assert game is not None
    code, out, err = await analyse(tmp_path / "unused.db", past.game_id, "--json", url=postgres_url)
    assert (code, err) == (0, ""), err
    told = story(events, game.variants)
    assert told is not None
    for player in json.loads(out)["players"]:
        adds_up(player)
        luck = told.reviews[player["player_id"]].luck
        assert luck is not None and player["dice"] == pytest.approx(luck.dice, abs=1e-12)
