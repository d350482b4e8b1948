"""`python -m bot backup PATH`: a consistent copy of the SQLite database, taken while the bot runs.

The copy goes through SQLite's online backup API from a read-only connection: it takes no
process lock (the running bot holds that, see adapters/sqlite/files.py), and in WAL mode it
neither waits for nor holds up the bot's saves. The copy is readable by its owner only from the
moment it exists, is checked with `PRAGMA integrity_check` before it is given its name, and never
replaces a file unless asked to (`--overwrite`): a backup that silently overwrote the previous
one would lose the only good copy the moment the new one turned out bad.

Restoring (DEPLOY.md): stop the bot, move the database and its -wal and -shm files aside, copy
the backup to the database's name, start the bot.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import tempfile
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

CONFIGURATION = 2  # a setting or argument is wrong as written (as bot/startup.py)
FAILED = 1  # the work itself failed: nothing was written


class Refusal(Exception):
    """A tool's refusal as one line for the operator (no traceback, no secret) and its exit
    status."""

    def __init__(self, line: str, code: int = FAILED) -> None:
        super().__init__(line)
        self.line, self.code = line, code


@dataclass(frozen=True)
class Written:
    """What a backup wrote, for its one line."""

    path: Path
    size: int
    games: int
    unfinished: int
    seconds: float

    def line(self) -> str:
        return (
            f"backed up to {self.path}: {_size(self.size)}, {self.games} games"
            f" ({self.unfinished} not finished), integrity ok, in {self.seconds:.2f} s"
        )


def postgres_refusal() -> Refusal:
    """With GENERAL_DATABASE_URL the games are in PostgreSQL, whose own tool copies them."""
    return Refusal(
        "the bot keeps its games in PostgreSQL (GENERAL_DATABASE_URL): back them up with"
        ' pg_dump, e.g. pg_dump --format=custom --file=general.dump "$GENERAL_DATABASE_URL"',
        CONFIGURATION,
    )


def backup(database: Path, path: Path, *, overwrite: bool = False) -> Written:
    """Copy `database` to `path` (or, for a directory, to a dated file in it) and check it."""
    started = time.monotonic()
    existing(database)
    target = path / f"general-{datetime.now(UTC):%Y%m%d-%H%M%S}.db" if path.is_dir() else path
    _not_the_database(target, database)
    if target.exists() and not overwrite:
        raise Refusal(
            f"{target} exists: name another file, or add --overwrite to replace it", CONFIGURATION
        )
    if not target.parent.is_dir():
        raise Refusal(
            f"there is no directory {target.parent} to write {target.name} in", CONFIGURATION
        )
    partial = _private_file(target)
    try:
        _copy(database, partial)
        games, unfinished = _check(partial)
        _put(partial, target, overwrite=overwrite)
    finally:
        partial.unlink(missing_ok=True)
    size = target.stat().st_size
    return Written(target, size, games, unfinished, time.monotonic() - started)


def existing(database: Path) -> Path:
    """The database file, which must be there: a tool never makes an empty one by mistake."""
    if not database.is_file():
        raise Refusal(f"GENERAL_DATABASE: there is no SQLite database at {database}", CONFIGURATION)
    return database


def _not_the_database(target: Path, database: Path) -> None:
    """Even with --overwrite, never write over the live database or one of its companions."""
    live = {os.path.realpath(f"{database}{end}") for end in ("", "-wal", "-shm", "-journal")}
    if os.path.realpath(target) in live | {os.path.realpath(f"{database}.lock")}:
        raise Refusal(f"{target} is the bot's own database: name another file", CONFIGURATION)


def _private_file(target: Path) -> Path:
    """A new, empty file beside the target, created 0600 (mkstemp: O_EXCL, owner only), so the
    copy is never readable by others, not even while it is being written."""
    try:
        fd, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".part")
    except OSError as error:
        raise Refusal(f"cannot write in {target.parent}: {error.strerror or error}") from None
    os.close(fd)
    return Path(name)


def _copy(database: Path, partial: Path) -> None:
    """The online backup in one step: one read transaction on the source, so one consistent
    state of it, while the bot's writes go on into its WAL. The copy is turned into a single
    self-contained file (rollback journal); the bot turns WAL on again when it opens it."""
    uri = f"{database.resolve().as_uri()}?mode=ro"
    try:
        with contextlib.closing(sqlite3.connect(uri, uri=True)) as source:
            source.execute("PRAGMA busy_timeout=5000")
            with contextlib.closing(sqlite3.connect(partial)) as copy:
                source.backup(copy)
                copy.execute("PRAGMA journal_mode=DELETE")
    except sqlite3.Error as error:
        raise Refusal(f"cannot copy {database}: {error}") from None


def _check(partial: Path) -> tuple[int, int]:
    """The copy's integrity check, and its games (all, and those not finished)."""
    try:
        with contextlib.closing(sqlite3.connect(partial)) as copy:
            problems = [str(row[0]) for row in copy.execute("PRAGMA integrity_check")]
            if problems != ["ok"]:
                raise Refusal(
                    f"the copy failed its integrity check ({problems[0]}; {len(problems)}"
                    " problems in all): the database itself may be damaged; nothing was written"
                )
            row = copy.execute(
                "SELECT count(*), count(*) FILTER (WHERE phase NOT IN ('finished', 'quarantined'))"
                " FROM games"
            ).fetchone()
    except sqlite3.DatabaseError as error:
        raise Refusal(f"the copy cannot be read as a General database: {error}") from None
    return int(row[0]), int(row[1])


def _put(partial: Path, target: Path, *, overwrite: bool) -> None:
    """Give the checked copy its name: replacing the old file in one step (--overwrite), else
    only if no file has taken the name meanwhile (a hard link fails on an existing name)."""
    if overwrite:
        os.replace(partial, target)
    else:
        try:
            os.link(partial, target)
        except FileExistsError:
            raise Refusal(f"{target} appeared meanwhile: nothing was written") from None
        except OSError:  # a file system without hard links
            if target.exists():
                raise Refusal(f"{target} appeared meanwhile: nothing was written") from None
            os.rename(partial, target)
    with contextlib.suppress(OSError):  # the new name itself survives a crash
        fd = os.open(target.parent, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _size(size: int) -> str:
    """Bytes as a person reads them: 812 bytes, 3.4 MiB."""
    if size < 1024:
        return f"{size} bytes"
    amount, unit = size / 1024, "KiB"
    for bigger in ("MiB", "GiB"):
        if amount < 1024:
            break
        amount, unit = amount / 1024, bigger
    return f"{amount:.1f} {unit}"
