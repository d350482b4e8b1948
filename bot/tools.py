"""`python -m bot <tool>`: the operator's commands on the bot's database (the one its settings
name), beside the bot itself.

ratings --rebuild   rate every recorded game again, in the order they were rated
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import NoReturn

from pydantic import ValidationError

from bot.app import open_repository
from bot.logs import configure
from bot.settings import Settings
from bot.startup import StartupError, invalid_settings

TOOLS = ("ratings",)


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
    return top


async def main(argv: Sequence[str]) -> int:
    arguments = parser().parse_args(argv)
    try:
        try:
            settings = Settings()
        except ValidationError as error:
            raise invalid_settings(error) from None
        configure(settings.general_log_level, settings.secrets, settings.general_log_format)
        repository = await open_repository(settings)
    except StartupError as failure:
        sys.stderr.write(failure.report())
        return failure.code
    try:
        if arguments.tool == "ratings":
            games = await repository.rebuild_ratings()
            print(f"rated {games} recorded games again, in the order they were rated")
    finally:
        await repository.close()
    return 0
