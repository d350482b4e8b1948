"""Why a start failed, as one line that names the setting to fix: an operator reads it in the
journal, so it is no traceback and holds no secret.

Exit codes (DEPLOY.md): 2, a setting is wrong as written or names a database file that cannot be
used; 1, a server (Telegram, Discord, PostgreSQL) refused or could not be reached.
"""

from __future__ import annotations

import errno
import os
import sqlite3
from pathlib import Path
from urllib.parse import urlsplit

from pydantic import ValidationError

from bot.settings import Settings
from core.errors import StorageCode, StorageError

CONFIGURATION = 2
REFUSED = 1


class StartupError(Exception):
    """A start-up failure the operator fixes outside the code: the line, a hint, the exit code."""

    def __init__(self, line: str, *, hint: str = "", code: int = CONFIGURATION) -> None:
        super().__init__(line)
        self.line, self.hint, self.code = line, hint, code

    def report(self) -> str:
        """What stderr shows: the line, and the hint on a line of its own where there is one."""
        return f"cannot start: {self.line}\n" + (f"hint: {self.hint}\n" if self.hint else "")


def describe(error: BaseException) -> str:
    """The cause in words: the system's for an OS error (asyncio's "Connect call failed" hides
    "Connection refused"), else the exception's own message."""
    if isinstance(error, OSError) and error.errno and error.errno > 0:
        return os.strerror(error.errno)
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    text = str(error).strip()
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def load_settings() -> Settings:
    """The settings from the environment and .env; StartupError naming every invalid one."""
    try:
        return Settings()
    except ValidationError as error:
        raise invalid_settings(error) from None


def invalid_settings(error: ValidationError) -> StartupError:
    """Every invalid setting by its variable's name; the values are never repeated (pydantic
    would echo a database URL with its password)."""
    problems = []
    for item in error.errors(include_url=False, include_input=False, include_context=False):
        message = item["msg"].removeprefix("Value error, ")
        problems.append(f"{str(item['loc'][0]).upper()}: {message}" if item["loc"] else message)
    return StartupError("; ".join(problems))


def database_failure(settings: Settings, error: Exception) -> StartupError:
    url = settings.general_database_url
    if url:
        return _postgres_failure(url, error)
    path = Path(settings.general_database)
    if isinstance(error, StorageError) and error.code is StorageCode.DATABASE_BUSY:
        return StartupError(
            f"GENERAL_DATABASE: {error}",
            hint="stop the other process first; the bot keeps one SQLite file to itself",
        )
    hint = ""
    if not path.parent.is_dir():
        hint = f"create the directory {path.parent}, or point GENERAL_DATABASE at another file"
    elif isinstance(error, PermissionError | sqlite3.OperationalError):
        hint = f"the bot's user must be able to write {path} and its directory {path.parent}"
    elif isinstance(error, sqlite3.DatabaseError):
        hint = f"is {path} a General database? move it away to start afresh"
    return StartupError(f"GENERAL_DATABASE: cannot use {path}: {describe(error)}", hint=hint)


def _postgres_failure(url: str, error: Exception) -> StartupError:
    import asyncpg  # loaded already: only GENERAL_DATABASE_URL gets here

    parts = urlsplit(url)
    where = f" at {parts.hostname}" if parts.hostname else ""
    hint = ""
    if isinstance(error, OSError) and error.errno in (errno.ECONNREFUSED, errno.EHOSTUNREACH):
        hint = "is PostgreSQL running there, and does it accept connections from this machine?"
    elif isinstance(error, asyncpg.InvalidAuthorizationSpecificationError):
        hint = "check the user and password in GENERAL_DATABASE_URL"
    return StartupError(
        f"GENERAL_DATABASE_URL: cannot use PostgreSQL{where}: {describe(error)}",
        hint=hint,
        code=REFUSED,
    )


def telegram_failure(settings: Settings, error: Exception) -> StartupError | None:
    """What Telegram's start refused, by setting; None for a failure no setting explains."""
    from telegram.error import InvalidToken, NetworkError, TelegramError

    if isinstance(error, InvalidToken):  # its message holds the token: never shown
        return StartupError(
            "TELEGRAM_TOKEN: Telegram rejected the token",
            hint="copy it again from @BotFather (/mybots, API Token)",
            code=REFUSED,
        )
    if isinstance(error, NetworkError):
        setting = "TELEGRAM_BASE_URL" if settings.telegram_base_url else "TELEGRAM_TOKEN"
        return StartupError(
            f"{setting}: cannot reach the Telegram Bot API: {error.message}", code=REFUSED
        )
    if isinstance(error, TelegramError):
        setting = "TELEGRAM_WEBHOOK_URL" if settings.telegram_webhook_url else "TELEGRAM_TOKEN"
        return StartupError(f"{setting}: Telegram refused: {error.message}", code=REFUSED)
    if isinstance(error, OSError) and settings.telegram_webhook_url:
        address = f"{settings.telegram_webhook_listen}:{settings.telegram_webhook_port}"
        return StartupError(
            f"TELEGRAM_WEBHOOK_LISTEN, TELEGRAM_WEBHOOK_PORT: cannot listen on {address}: "
            f"{describe(error)}",
            code=REFUSED,
        )
    return None


def discord_failure(settings: Settings, error: Exception) -> StartupError | None:
    """What Discord's start refused, by setting; None for a failure no setting explains."""
    import aiohttp
    import discord

    if isinstance(error, discord.LoginFailure):
        return StartupError(
            "DISCORD_TOKEN: Discord rejected the token",
            hint="reset it on the Bot page of the Discord Developer Portal",
            code=REFUSED,
        )
    if isinstance(error, aiohttp.ClientError | OSError):
        setting = "DISCORD_API_BASE_URL" if settings.discord_api_base_url else "DISCORD_TOKEN"
        return StartupError(f"{setting}: cannot reach Discord: {describe(error)}", code=REFUSED)
    if isinstance(error, discord.Forbidden) and settings.discord_guild_id:
        return StartupError(
            f"DISCORD_GUILD_ID: Discord refused: {describe(error)}",
            hint="is the bot a member of that server, invited with applications.commands?",
            code=REFUSED,
        )
    if isinstance(error, discord.DiscordException):
        return StartupError(f"DISCORD_TOKEN: Discord refused: {describe(error)}", code=REFUSED)
    return None
