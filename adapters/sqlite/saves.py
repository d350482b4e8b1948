"""A save's statement and parameters, and what a group of saves does in the database's thread
for the games that ended in it: rate them, and read each one's log, which its review reads
next. So a game's end costs no trip to the database of its own, and no commit of its own."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson

from adapters.sqlite.ratings import rate_in_order
from adapters.sqlite.writer import Statement
from core.events import RECORDED_ENDS, EndReason, Event, event_from_dict, event_to_dict
from core.game import Game, Phase
from core.snapshot import game_to_dict

SAVE = (
    "INSERT INTO game_saves (id, channel, phase, version, previous, snapshot, saved_at,"
    " finished_at, end_reason, events, results) VALUES (?,?,?,?,?,?,?,?,?,?,?)"
)
# A game's whole log as one value, [[seq, data], ...]: one row, so one hand-back of the GIL
# to the database's thread, where a row per event took one each.
LOG = "SELECT json_group_array(json_array(seq, data)) FROM events WHERE game_id = ?"


def dumps(data: Any) -> str:
    """Compact UTF-8 JSON (orjson: a tenth of the standard encoder's time on every save)."""
    return orjson.dumps(data).decode()


def save_row(game: Game, events: Sequence[Event], previous_version: int | None) -> tuple[Any, ...]:
    """The parameters of SAVE for a game, its new events and the version it was read at."""
    now = time.time()
    return (
        game.id,
        str(game.channel),
        game.phase.value,
        game.version,
        previous_version,
        dumps(game_to_dict(game)),
        now,
        now if game.phase is Phase.FINISHED else None,
        game.end_reason.value if game.end_reason else None,
        dumps([event_to_dict(event) for event in events]),
        dumps(_results(game)) if game.end_reason in RECORDED_ENDS else None,
    )


def _results(game: Game) -> list[dict[str, Any]]:
    """Each seat's line of the results table, in seat order (the trigger numbers them)."""
    big_general = {game.winners[0]} if game.end_reason is EndReason.BIG_GENERAL else set()
    return [
        {
            "player_id": seat.player.id,
            "platform": game.channel.platform,
            "name": seat.player.name,
            "total": seat.total,
            "boxes": list(seat.scores),
            "winner": seat.player.id in game.winners,
            "left_table": not seat.active,
            "big_general": seat.player.id in big_general,
        }
        for seat in game.seats
    ]


@dataclass(frozen=True)
class Ends:
    """What a group did for the games recorded in it: the games it rated (those waiting before
    them too), and each recorded game's log as LOG reads it."""

    rated: frozenset[str] = frozenset()
    logs: Mapping[str, str] = field(default_factory=dict)


NO_ENDS = Ends()


def group_ends(
    connection: sqlite3.Connection,
    statements: Sequence[Statement],
    outcomes: Sequence[BaseException | None],
) -> Ends:
    """The group's finish (adapters.sqlite.writer), in its transaction: the games recorded by
    its saves rated in order, in a savepoint of their own (should that fail, nothing of it is
    kept and each saver rates its game as before, whose failure is logged), and their logs read
    (one that cannot be is read again when asked)."""
    recorded = [
        str(row[0])
        for (sql, row), error in zip(statements, outcomes, strict=True)
        if error is None and sql == SAVE and row[-1] is not None
    ]
    if not recorded:
        return NO_ENDS
    logs: dict[str, str] = {}
    for game_id in recorded:
        try:
            cursor = connection.execute(LOG, (game_id,))
            try:
                logs[game_id] = str(cursor.fetchone()[0])
            finally:
                cursor.close()
        except sqlite3.Error:
            continue
    rated: list[str] = []
    connection.execute("SAVEPOINT rating")
    try:
        for game_id in recorded:
            if game_id not in rated:
                rated += rate_in_order(connection, game_id)
    except Exception:
        connection.execute("ROLLBACK TO rating")
        rated = []
    connection.execute("RELEASE rating")
    return Ends(frozenset(rated), logs)


def read_log(text: str) -> list[Event]:
    """A log as LOG read it, in order."""
    return [event_from_dict(orjson.loads(data)) for _, data in sorted(orjson.loads(text))]
