"""`python -m bot verify GAME` and `python -m bot export GAME`: a stored game's dice checked
against its revealed seed (core.verification), or written out as JSON for the stand-alone
verifier (verifier/verify_dice.py). Both only read: a SQLite file is read beside the running
bot (which holds its process lock) through a read-only connection."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import orjson

from bot.app import open_repository
from bot.settings import Settings
from core.events import Event, PlayerJoined, event_from_dict
from core.fairdice import Stage
from core.ports import read_snapshot
from core.table import Game
from core.verification import Finding, Verdict, export, verify


class Missing(Exception):
    """The game (or the database) is not there: one line, exit status 1."""


async def game_log(settings: Settings, game_id: str) -> list[Event]:
    """A game's log (its save left alone: a damaged one does not keep a log from its check)."""
    return (await _read(settings, game_id, with_game=False))[1]


async def stored_game(settings: Settings, game_id: str) -> tuple[Game, list[Event]]:
    """A game as it was last saved, with its log (its rules are in the save, not the log)."""
    game, events = await _read(settings, game_id, with_game=True)
    if game is None:
        raise Missing(f"no game {game_id!r} in the database")
    return game, events


async def _read(
    settings: Settings, game_id: str, *, with_game: bool
) -> tuple[Game | None, list[Event]]:
    game = None
    if settings.general_database_url:
        repository = await open_repository(settings)
        try:
            events = await repository.events(game_id)
            if with_game:
                game = await repository.get_game(game_id)
        finally:
            await repository.close()
    else:
        game, events = _sqlite_read(Path(settings.general_database), game_id, with_game)
    if not events:
        raise Missing(f"no game {game_id!r} in the database")
    return game, events


def _sqlite_read(path: Path, game_id: str, with_game: bool) -> tuple[Game | None, list[Event]]:
    if not path.exists():
        raise Missing(f"no database at {path}")
    connection = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        rows = connection.execute(
            "SELECT data FROM events WHERE game_id = ? ORDER BY seq", (game_id,)
        ).fetchall()
        saved = None
        if with_game:
            query = "SELECT snapshot FROM games WHERE id = ?"
            saved = connection.execute(query, (game_id,)).fetchone()
    finally:
        connection.close()
    game = read_snapshot(orjson.loads(saved[0])) if saved else None
    return game, [event_from_dict(orjson.loads(row[0])) for row in rows]


def names(events: list[Event]) -> dict[str, str]:
    return {e.player_id: e.name for e in events if isinstance(e, PlayerJoined)}


def verdict_line(verdict: Verdict, events: list[Event]) -> str:
    """What `verify` prints: all throws match, or the first that does not and why."""
    match verdict.finding:
        case Finding.MATCH:
            return f"all {verdict.throws} throws match the seed committed to ({verdict.commitment})"
        case Finding.NOT_COMMITTED:
            return "this game was played with the old dice: nothing was committed to"
        case Finding.NOT_REVEALED:
            return "this game is still in play: its seed is revealed when it ends"
        case Finding.BAD_SEED:
            return "the seed revealed is not the one committed to: its SHA-256 differs"
    throw = verdict.first_bad
    assert throw is not None
    who = names(events).get(throw.player_id, throw.player_id)
    where = (
        f"the lot, round {throw.round}, {who}"
        if throw.stage is Stage.LOT
        else f"round {throw.round}, {who}, throw {throw.throw}"
    )
    number = verdict.throws + 1
    if verdict.finding is Finding.ORDER:
        return f"throw {number} ({where}) is out of order"
    shown, wanted = ("-".join(map(str, dice)) for dice in (throw.dice, verdict.expected))
    return f"throw {number} ({where}) shows {shown}; the seed gives {wanted}"


async def run_verify(settings: Settings, game_id: str) -> int:
    events = await game_log(settings, game_id)
    verdict = verify(events)
    print(verdict_line(verdict, events))
    return 0 if verdict.ok else 1


async def run_export(settings: Settings, game_id: str) -> int:
    """The export on stdout; a game without a revealed seed is refused (nothing to check)."""
    events = await game_log(settings, game_id)
    verdict = verify(events)
    if verdict.finding in (Finding.NOT_COMMITTED, Finding.NOT_REVEALED):
        raise Missing(verdict_line(verdict, events))
    print(json.dumps(export(game_id, events, names(events)), indent=1))
    return 0
