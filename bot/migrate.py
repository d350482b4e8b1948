"""`python -m bot migrate --to postgresql://…`: everything in the SQLite database, copied to an
empty PostgreSQL database, checked, in one transaction.

The target's tables are made by the bot's own PostgreSQL migrations (PostgresRepository.open),
so they are exactly what the bot will use. The copy refuses a target where any of the bot's
tables has a row (merging two histories is not a copy), writes every table in ONE transaction
(all or nothing), compares every table's count and a sample of games row by row inside that
transaction, and commits only if all agree. Deadline leases are not copied: SQLite has none (one
process holds every timer), and a PostgreSQL process claims a game's lease when it arms the
timer; the deadlines themselves are part of the games' snapshots.

The source is opened the normal way (SqliteRepository.open), which takes the SQLite process
lock: while the bot runs on the file it refuses with "stop the other process first", so nothing
is written to the file after the copy began. The rows are read in one read transaction.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

import asyncpg

from adapters.postgres import PostgresRepository
from bot.backup import CONFIGURATION, FAILED, Refusal
from bot.startup import describe

TIME, JSON, BOXES, FLAG = "time", "json", "boxes", "flag"  # how a column differs between the two
BATCH = 2000  # rows a COPY at a time: memory stays small whatever the database's size
SAMPLE = 50  # finished games compared row by row (every unfinished game is, besides)
TOLERANCE = 1e-6  # seconds: timestamptz keeps microseconds, a REAL a little more


@dataclass(frozen=True)
class Table:
    """One table as both schemas have it: its columns, which need converting, how its rows
    are ordered (the primary key) and the column naming its game, for the row-by-row check."""

    name: str
    columns: tuple[str, ...]
    order: str
    kinds: dict[str, str] = field(default_factory=dict)
    game: str | None = "game_id"

    @property
    def key(self) -> tuple[str, ...]:
        return tuple(self.order.split(", "))


TABLES = (
    Table(
        "games",
        ("id", "channel", "phase", "version", "snapshot", "created_at", "updated_at",
         "finished_at", "end_reason", "quarantined_from", "quarantine_reason"),
        "id",
        {"snapshot": JSON, "created_at": TIME, "updated_at": TIME, "finished_at": TIME},
        "id",
    ),
    Table("events", ("game_id", "seq", "version", "kind", "data", "at"), "game_id, seq",
          {"data": JSON, "at": TIME}),
    Table(
        "results",
        ("game_id", "player_id", "platform", "channel", "name", "seat", "total", "boxes",
         "winner", "left_table", "big_general", "end_reason", "finished_at", "accuracy",
         "luck_dice", "luck_decisions"),
        "game_id, player_id",
        {"boxes": BOXES, "winner": FLAG, "left_table": FLAG, "big_general": FLAG,
         "finished_at": TIME},
    ),
    Table("boards", ("game_id", "ref"), "game_id"),
    Table("chat_settings", ("chat", "data", "updated_at"), "chat",
          {"data": JSON, "updated_at": TIME}, None),
    Table("ratings", ("platform", "scope", "player_id", "mu", "sigma", "games", "best",
                      "updated_at"), "platform, scope, player_id", {"updated_at": TIME}, None),
    Table("rated_games", ("game_id", "seq"), "game_id"),
    Table("rating_changes", ("game_id", "platform", "scope", "player_id", "seq", "mu_before",
                             "sigma_before", "mu", "sigma", "games"), "game_id, scope, player_id"),
    Table("unrated", ("game_id", "queued"), "game_id"),  # queued: seconds in both
    Table("subscriptions", ("chat", "player_id", "locale", "since"), "chat, player_id",
          {"since": TIME}, None),
    Table("season_ends", ("channel", "season", "claimed_at"), "channel, season",
          {"claimed_at": TIME}, None),
    Table("tournaments", ("id", "platform", "chat", "version", "finished", "opened", "data"),
          "id", {"finished": FLAG, "opened": TIME, "data": JSON}, None),
)  # fmt: skip
# Must be empty too, though nothing is copied into it (see the module's docstring).
TARGET_ONLY = ("deadline_leases",)


def postgres_url(url: str) -> str:
    """The --to argument, refused (status 2) unless it is a PostgreSQL URL."""
    if not url.startswith(("postgresql://", "postgres://")):
        raise Refusal("--to must be a postgresql:// URL", CONFIGURATION)
    try:
        urlsplit(url).port  # noqa: B018 (a port that is no number raises here)
    except ValueError as error:
        raise Refusal(f"--to is not a valid URL: {error}", CONFIGURATION) from None
    return url


def passwords(url: str) -> list[str]:
    """Every spelling of the URL's password (in its user part or as ?password=), to redact."""
    parts = urlsplit(url)
    found = [parts.password or "", *parse_qs(parts.query).get("password", [])]
    return [p for text in found if text for p in (text, unquote(text))]


@dataclass
class Copied:
    """What was copied, for the one line printed at the end."""

    counts: dict[str, int]
    unfinished: int
    quarantined: int
    checked: int
    not_json: int
    seconds: float = 0.0

    def line(self, source: Path, target: str) -> str:
        tables = ", ".join(f"{n} {name.replace('_', ' ')}" for name, n in self.counts.items())
        kept = (
            f"; {self.not_json} unreadable snapshots kept as JSON strings" if self.not_json else ""
        )
        return (
            f"migrated {source} to {target}: {tables} ({self.unfinished} games not finished,"
            f" {self.quarantined} quarantined){kept}; every count equal, {self.checked} games"
            f" checked row by row, in {self.seconds:.2f} s"
        )


async def prepare(url: str) -> None:
    """The target's schema, made by the bot's own migrations; a target that cannot be reached
    or used is refused (status 1) in words."""
    try:
        repository = await PostgresRepository.open(
            url, min_size=1, max_size=1, timeout=10,
            server_settings={"application_name": "general-migrate"},
        )  # fmt: skip
    except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, RuntimeError) as error:
        raise unreachable(url, error) from None
    except TimeoutError:
        raise unreachable(url, TimeoutError("no answer within 10 seconds")) from None
    await repository.close()


def unreachable(url: str, error: BaseException) -> Refusal:
    parts = urlsplit(url)
    where = f"{parts.hostname}:{parts.port or 5432}" if parts.hostname else "the default host"
    return Refusal(f"cannot use PostgreSQL at {where}: {describe(error)}", FAILED)


async def copy(source: sqlite3.Connection, url: str) -> Copied:
    """Copy every table in one transaction, verified before it commits."""
    started = time.monotonic()
    try:
        target = await asyncpg.connect(url, timeout=10)
    except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, TimeoutError) as error:
        raise unreachable(url, error) from None
    try:
        async with target.transaction():
            await _claim_empty(target)
            not_json = 0
            for table in TABLES:
                not_json += await _copy_table(source, target, table)
            counts = await _same_counts(source, target)
            sample = _sample(source)
            await _same_rows(source, target, sample)
    except asyncpg.LockNotAvailableError:
        raise Refusal("the target is in use (a bot running on it?): nothing was written") from None
    except asyncpg.PostgresError as error:
        raise Refusal(
            f"PostgreSQL refused the copy ({describe(error)}): nothing was written"
        ) from None
    finally:
        await target.close()
    unfinished, quarantined = _phases(source)
    return Copied(
        counts, unfinished, quarantined, len(sample), not_json, time.monotonic() - started
    )


async def _claim_empty(target: asyncpg.Connection) -> None:
    """Lock the bot's tables against other writers (a bot started on the target meanwhile),
    then refuse if any has a row: checked, every one, before anything is written."""
    names = [*(t.name for t in TABLES), *TARGET_ONLY]
    await target.execute("SET LOCAL lock_timeout = '5s'")
    await target.execute(f"LOCK TABLE {', '.join(names)} IN EXCLUSIVE MODE")
    full = []
    for name in names:
        rows = await target.fetchval(f"SELECT count(*) FROM {name}")
        if rows:
            full.append(f"{name} has {rows} rows")
    if full:
        raise Refusal(
            f"the target is not empty ({', '.join(full)}): migrate only into an empty database;"
            " nothing was written"
        )


def _rows(source: sqlite3.Connection, table: Table, where: str = "") -> Iterator[tuple[Any, ...]]:
    sql = f"SELECT {', '.join(table.columns)} FROM {table.name} {where} ORDER BY {table.order}"
    yield from source.execute(sql)


async def _copy_table(source: sqlite3.Connection, target: asyncpg.Connection, table: Table) -> int:
    """COPY the table's rows across in batches; the number of values kept as JSON strings."""
    kept = 0
    batch: list[tuple[Any, ...]] = []
    for row in _rows(source, table):
        converted = []
        for column, value in zip(table.columns, row, strict=True):
            value, was_text = _to_target(table.kinds.get(column), value)
            kept += was_text
            converted.append(value)
        batch.append(tuple(converted))
        if len(batch) >= BATCH:
            await target.copy_records_to_table(table.name, records=batch, columns=table.columns)
            batch = []
    if batch:
        await target.copy_records_to_table(table.name, records=batch, columns=table.columns)
    return kept


def _to_target(kind: str | None, value: Any) -> tuple[Any, bool]:
    """A SQLite value as the PostgreSQL column takes it; True where a JSON column's text was no
    JSON (a quarantined game's damaged snapshot): it is kept, as a JSON string."""
    if value is None or kind is None:
        return value, False
    if kind == TIME:
        return datetime.fromtimestamp(float(value), UTC), False
    if kind == FLAG:
        return bool(value), False
    if kind == BOXES:
        return json.loads(value), False
    try:
        json.loads(value)
    except ValueError:
        return json.dumps(value), True
    return value, False


async def _same_counts(source: sqlite3.Connection, target: asyncpg.Connection) -> dict[str, int]:
    counts = {}
    for table in TABLES:
        (expected,) = source.execute(f"SELECT count(*) FROM {table.name}").fetchone()
        found = await target.fetchval(f"SELECT count(*) FROM {table.name}")
        if found != expected:
            raise Refusal(
                f"{table.name}: {found} rows in PostgreSQL, {expected} in SQLite: nothing was"
                " written"
            )
        counts[table.name] = int(expected)
    return counts


def _sample(source: sqlite3.Connection) -> list[str]:
    """Up to SAMPLE finished games spread evenly over their ids (the same every run), and every
    game not finished (running or quarantined), which the bot takes up again first."""
    finished = [str(r[0]) for r in source.execute(
        "SELECT id FROM games WHERE phase = 'finished' ORDER BY id")]  # fmt: skip
    step = max(1, len(finished) // SAMPLE)
    rest = source.execute("SELECT id FROM games WHERE phase != 'finished' ORDER BY id")
    return [*finished[::step][:SAMPLE], *(str(r[0]) for r in rest)]


async def _same_rows(
    source: sqlite3.Connection, target: asyncpg.Connection, games: Sequence[str]
) -> None:
    """Each sampled game's row and every row of every table that names it, compared value by
    value in order: snapshots and events as JSON, times to the microsecond."""
    for table in (t for t in TABLES if t.game is not None):
        for start in range(0, len(games), 500):
            chunk = list(games[start : start + 500])
            marks = ", ".join("?" * len(chunk))
            expected = source.execute(
                f"SELECT {', '.join(table.columns)} FROM {table.name}"
                f" WHERE {table.game} IN ({marks}) ORDER BY {table.order}",
                chunk,
            ).fetchall()
            found = sorted(  # in Python: PostgreSQL's collation may order text otherwise
                await target.fetch(
                    f"SELECT {', '.join(table.columns)} FROM {table.name}"
                    f" WHERE {table.game} = ANY($1::text[])",
                    chunk,
                ),
                key=lambda row: tuple(row[name] for name in table.key),
            )
            if len(found) != len(expected):
                raise Refusal(f"{table.name}: the sampled games' rows differ: nothing was written")
            for old, new in zip(expected, found, strict=True):
                for column, a, b in zip(table.columns, old, new, strict=True):
                    if not _equal(table.kinds.get(column), a, b):
                        raise Refusal(
                            f"{table.name}: {column} of {table.game} {old[0]} differs after the"
                            " copy: nothing was written"
                        )


def _equal(kind: str | None, old: Any, new: Any) -> bool:
    """Whether a SQLite value and its PostgreSQL copy say the same."""
    if old is None or new is None:
        return old is None and new is None
    if kind == TIME:
        return bool(abs(float(old) - new.timestamp()) <= TOLERANCE)
    if kind == FLAG:
        return bool(old) == bool(new)
    if kind == BOXES:
        return bool(json.loads(old) == list(new))
    if kind == JSON:
        with contextlib.suppress(ValueError):
            return bool(json.loads(old) == json.loads(new))
        return bool(json.loads(new) == old)  # kept as a JSON string
    return bool(old == new)


def _phases(source: sqlite3.Connection) -> tuple[int, int]:
    row = source.execute(
        "SELECT count(*) FILTER (WHERE phase NOT IN ('finished', 'quarantined')),"
        " count(*) FILTER (WHERE phase = 'quarantined') FROM games"
    ).fetchone()
    return int(row[0]), int(row[1])


@contextlib.contextmanager
def reading(database: Path) -> Iterator[sqlite3.Connection]:
    """A read-only connection to the file with one read transaction open: every table as of
    one moment, however long the copy takes."""
    uri = f"{database.resolve().as_uri()}?mode=ro"
    with contextlib.closing(sqlite3.connect(uri, uri=True, isolation_level=None)) as source:
        source.execute("BEGIN")
        source.execute("SELECT count(*) FROM games").fetchone()  # the snapshot starts here
        try:
            yield source
        finally:
            source.execute("COMMIT")
