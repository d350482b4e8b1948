"""`python -m bot <tool>`: the operator's commands on the bot's database (the one its settings
name), beside the bot itself.

ratings --rebuild       rate every recorded game again, in the order they were rated
backup PATH             a checked copy of the SQLite database, also while the bot runs
migrate --to URL        copy the SQLite database into an empty PostgreSQL database
forget --platform P --user ID
                        forget a person (as their own /general forget would)
verify GAME             check every throw of a finished game against its revealed seed
export GAME             a finished game's dice as JSON, for verifier/verify_dice.py

A refusal is one line on stderr: exit status 2 where an argument or setting is wrong as written,
1 where the work was refused or failed (nothing was written then).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from adapters.sqlite import SqliteRepository
from bot import backup, dicecheck, forget, migrate
from bot.app import open_repository
from bot.logs import RedactSecrets, configure
from bot.settings import Settings
from bot.startup import StartupError, database_failure, load_settings
from core.service import GameService


class _Parser(argparse.ArgumentParser):
    """Bad arguments: one line on stderr and exit status 2, without the usage block."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")


def parser() -> argparse.ArgumentParser:
    top = _Parser(prog="python -m bot", description="The bot's tools for its operator.")
    tools = top.add_subparsers(dest="tool", required=True, parser_class=_Parser)
    ratings = tools.add_parser("ratings", help="the players' skill ratings")
    ratings.add_argument(
        "--rebuild",
        action="store_true",
        required=True,
        help="forget every rating and rate every recorded game again (after the bot's rating"
        " model changed, say); stop the bot first when it keeps its games in SQLite",
    )
    copy = tools.add_parser(
        "backup", help="a consistent, checked copy of the SQLite database (the bot may run)"
    )
    copy.add_argument(
        "path", type=Path, help="the new file (or a directory: a dated file is made in it)"
    )
    copy.add_argument(
        "--overwrite", action="store_true", help="replace PATH if it exists (once the copy is good)"
    )
    move = tools.add_parser(
        "migrate", help="copy the SQLite database into an empty PostgreSQL database"
    )
    move.add_argument(
        "--to", required=True, metavar="URL", help="postgresql://user:password@host:port/database"
    )
    forget.add_parser(tools)
    check = tools.add_parser(
        "verify", help="check every throw of a finished game against its revealed seed (DICE.md)"
    )
    check.add_argument("game", help="the game's id (as /general verify and the final message say)")
    out = tools.add_parser(
        "export", help="a finished game's dice as JSON, for verifier/verify_dice.py (DICE.md)"
    )
    out.add_argument("game", help="the game's id")
    return top


async def main(argv: Sequence[str]) -> int:
    arguments = parser().parse_args(argv)
    redact = RedactSecrets(())
    try:
        settings = load_settings()
        extra = migrate.passwords(arguments.to) if arguments.tool == "migrate" else []
        redact = configure(
            settings.general_log_level, [*settings.secrets, *extra], settings.general_log_format
        )
        if arguments.tool == "backup":
            return _backup(settings, arguments.path, overwrite=arguments.overwrite)
        if arguments.tool == "migrate":
            return await _migrate(settings, arguments.to, redact)
        if arguments.tool == "verify":
            return await dicecheck.run_verify(settings, arguments.game)
        if arguments.tool == "export":
            return await dicecheck.run_export(settings, arguments.game)
        repository = await open_repository(settings)
    except StartupError as failure:
        sys.stderr.write(redact.clean(failure.report()))
        return failure.code
    except dicecheck.Missing as missing:
        sys.stderr.write(redact.clean(f"python -m bot {arguments.tool}: {missing}\n"))
        return 1
    except backup.Refusal as refusal:
        sys.stderr.write(redact.clean(f"python -m bot {arguments.tool}: {refusal.line}\n"))
        return refusal.code
    try:
        if arguments.tool == "forget":
            return await forget.run(arguments, repository)
        games = await GameService(repository).rebuild_ratings()
        print(f"rated {games} recorded games again, in the order they were rated")
    finally:
        await repository.close()
    return 0


def _backup(settings: Settings, path: Path, *, overwrite: bool) -> int:
    if settings.general_database_url:
        raise backup.postgres_refusal()
    print(backup.backup(Path(settings.general_database), path, overwrite=overwrite).line())
    return 0


async def _migrate(settings: Settings, url: str, redact: RedactSecrets) -> int:
    """The SQLite file is opened the bot's way, so its process lock refuses a running bot."""
    url = migrate.postgres_url(url)
    database = backup.existing(Path(settings.general_database))
    sqlite_only = settings.model_copy(update={"general_database_url": None})
    try:
        repository = await SqliteRepository.open(database)
    except Exception as error:
        raise database_failure(sqlite_only, error) from error
    try:
        await migrate.prepare(url)
        with migrate.reading(database) as source:
            copied = await migrate.copy(source, url)
    finally:
        await repository.close()
    print(redact.clean(copied.line(database, url)))
    return 0
