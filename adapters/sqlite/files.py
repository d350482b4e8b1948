"""The SQLite file's guards: one process at a time on it, and noticing it deleted or replaced."""

from __future__ import annotations

import fcntl
import logging
import os
from pathlib import Path
from typing import ClassVar

from core.errors import StorageCode, StorageError

log = logging.getLogger(__name__)


class ProcessLock:
    """An exclusive flock on `<db>.lock`, held while any repository of this process has the
    file open: a second process would keep a stale copy of the games and arm every timer again.
    Repositories of one process share it (tests stand two of them in for two processes)."""

    _held: ClassVar[dict[str, ProcessLock]] = {}  # by the lock file's real path

    def __init__(self, key: str, fd: int) -> None:
        self._key = key
        self._fd = fd
        self._users = 0

    @classmethod
    def take(cls, database: Path) -> ProcessLock:
        """Lock `database` for this process, or raise StorageError DATABASE_BUSY at once."""
        path = Path(f"{database}.lock")
        key = os.path.realpath(path)
        lock = cls._held.get(key)
        if lock is None:
            fd = os.open(path, os.O_CREAT | os.O_RDWR, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                raise StorageError(
                    StorageCode.DATABASE_BUSY,
                    f"the SQLite database {database} is locked ({path}): another bot process"
                    " is using it; use the PostgreSQL backend (GENERAL_DATABASE_URL) to run"
                    " several",
                ) from None
            except BaseException:
                os.close(fd)
                raise
            lock = cls._held[key] = cls(key, fd)
        lock._users += 1
        return lock

    def release(self) -> None:
        self._users -= 1
        if self._users == 0:
            del self._held[self._key]
            os.close(self._fd)  # closing the last descriptor drops the flock


class FileWatch:
    """Whether the path still names the file the connection opened. Deleted or replaced, the
    connection goes on writing to the old inode, which nobody will read again: each write is
    refused instead of acknowledged and lost, and the error logged once."""

    def __init__(self, path: Path) -> None:
        self._path = path
        stat = os.stat(path)
        self._identity = (stat.st_dev, stat.st_ino)
        self._gone: str | None = None

    def check(self) -> None:
        """Raise StorageError DATABASE_GONE if the file is no longer at its path."""
        if self._gone is None:
            try:
                stat = os.stat(self._path)
            except FileNotFoundError:
                self._gone = "deleted"
            else:
                if (stat.st_dev, stat.st_ino) != self._identity:
                    self._gone = "replaced"
            if self._gone is not None:
                log.error(
                    "the SQLite database %s was %s while the bot ran: every write is refused"
                    " until the bot is restarted",
                    self._path,
                    self._gone,
                )
        if self._gone is not None:
            raise StorageError(
                StorageCode.DATABASE_GONE,
                f"the SQLite database {self._path} was {self._gone} while the bot ran; nothing"
                " is written until the bot is restarted",
            )
