"""SQLite storage of games (aiosqlite): snapshots, the event log and finished results."""

from adapters.sqlite.repository import SqliteRepository

__all__ = ["SqliteRepository"]
