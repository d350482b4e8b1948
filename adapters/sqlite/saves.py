"""A save's statement and parameters, and what a group of saves does in the database's thread
for the games that ended in it: rate them, and read each one's log, which its review reads
next. So a game's end costs no trip to the database of its own, and no commit of its own."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import aiosqlite
import orjson

from adapters.sqlite.ratings import SqliteRatings, rate_in_order
from adapters.sqlite.recent import Recent
from adapters.sqlite.writer import GroupWriter, Statement, Verdict
from core.errors import ErrorCode, GameError
from core.events import RECORDED_ENDS, EndReason, Event, event_from_dict, event_to_dict
from core.records import Weighed
from core.snapshot import game_to_dict
from core.table import Game, Phase

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


WEIGHED = (
    "UPDATE results SET accuracy = ?, luck_dice = ?, luck_decisions = ?"
    " WHERE game_id = ? AND player_id = ?"
)


class SqliteSaves:
    """Saves through the one writer (see adapters.sqlite.writer); handed what a save keeps
    up to date: the active games by channel and the logs of the games it recorded, and the
    ratings, which rate a recorded game its group did not."""

    def __init__(
        self,
        writer: GroupWriter[Ends],
        active: dict[str, Game],
        logs: Recent[str],
        ratings: SqliteRatings,
    ) -> None:
        self._writer = writer
        self._active = active
        self._logs = logs
        self._ratings = ratings

    async def save(self, game: Game, events: Sequence[Event], previous_version: int | None) -> None:
        """Queue the save for the writer and wait until its group is committed (or the save
        refused: GameError STALE, GAME_EXISTS). Once called, the save is the writer's: a
        cancellation is raised only after the verdict. A recorded game is rated before this
        returns (the games before it too, in their order): by its group, or else here."""
        finished = game.phase is Phase.FINISHED
        row = save_row(game, events, previous_version)
        key = str(game.channel)
        recorded = row[-1] is not None
        rated_by_group = False

        def done(error: BaseException | None, ends: Ends | None) -> None:
            """Run by the writer once the group is committed or refused, waited for or not:
            the copy in memory follows the file (a save whose fate is unknown drops it)."""
            nonlocal rated_by_group
            if error is not None or finished:
                self._active.pop(key, None)
            else:
                self._active[key] = game
            if error is None and recorded and ends is not None:
                rated_by_group = game.id in ends.rated
                log = ends.logs.get(game.id)
                if log is not None:
                    self._logs.put(game.id, log)

        committed = self._writer.submit(SAVE, row, done)
        try:
            await committed  # a cancellation meanwhile is raised once the verdict is in
        except aiosqlite.IntegrityError as error:
            if str(error) == "stale":
                raise GameError(ErrorCode.STALE) from error
            if previous_version is None:
                raise GameError(ErrorCode.GAME_EXISTS) from error
            raise
        except asyncio.CancelledError:
            if recorded and _committed(committed):
                self._ratings.rate_later()  # recorded all the same: rated without this caller
            raise
        if recorded and not rated_by_group:
            await self._ratings.rate_recorded(game.id)

    async def set_weighed(self, game_id: str, weighed: dict[str, Weighed]) -> None:
        """Written with the next group of saves: no trip nor commit of its own."""
        writes = [
            self._writer.submit(
                WEIGHED, (w.accuracy, w.dice, w.decisions, game_id, player_id), _nothing
            )
            for player_id, w in weighed.items()
        ]
        await asyncio.gather(*writes)


def _committed(future: Verdict) -> bool:
    return future.done() and not future.cancelled() and future.exception() is None


def _nothing(error: BaseException | None, ends: Ends | None) -> None:
    """A review's figures change nothing kept in memory."""
