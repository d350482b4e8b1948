"""`python -m bot forget --platform telegram|discord --user ID`: the operator forgets a person,
as their own /general forget would (see core.forget and adapters.chat.forget).

Their results stay for the other players' records under one anonymous player, their ratings
move there too, every stored game and event names that player instead, and they are seated out
of the games in progress through the game's own rules, so that the stored tables are right and
go on. The bot is not asked to show it: a table whose board still shows them is redrawn at its
next press (a press on the old board is out of date, and redraws it). With SQLite stop the bot
first (its file is held by one process); with PostgreSQL it may run.

A refusal is one line on stderr: exit status 2 where the arguments are wrong as written, 1 where
the operator did not confirm (nothing was changed then).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable
from typing import Any

from core.forget import Forgotten
from core.ports import GameRepository
from core.service import GameService

# The platforms' keys in storage (ChannelKey.platform), as their front ends name them.
PLATFORMS = {"telegram": "tg", "discord": "dc"}
USER = re.compile(r"\d{1,20}")  # Telegram's and Discord's user ids are numbers


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """`forget` among the tools' subcommands."""
    forget = subparsers.add_parser(
        "forget",
        help="forget a person: their name and statistics removed, their past results kept"
        " for the other players under an anonymous player, their games in progress left",
    )
    forget.add_argument("--platform", required=True, choices=sorted(PLATFORMS))
    forget.add_argument("--user", required=True, metavar="ID", help="their platform user id")
    forget.add_argument("--yes", action="store_true", help="do not ask for confirmation")
    return forget  # type: ignore[no-any-return]


def _refuse(line: str, code: int) -> int:
    sys.stderr.write(f"python -m bot forget: {line}\n")
    return code


async def run(
    arguments: argparse.Namespace,
    repository: GameRepository,
    *,
    ask: Callable[[str], str] = input,
    interactive: bool | None = None,
) -> int:
    """Forget the person the arguments name, after a confirmation unless --yes; one line says
    what was done."""
    platform, user = arguments.platform, str(arguments.user).strip()
    if not USER.fullmatch(user):
        why = "computers are never forgotten" if user.startswith("cpu-") else "not a user id"
        return _refuse(f"--user {user[:40]!r}: {why} (a number, as the platform gives it)", 2)
    who = f"{platform} user {user}"
    if not arguments.yes:
        if not (sys.stdin.isatty() if interactive is None else interactive):
            return _refuse(f"nothing forgotten: confirm with --yes to forget {who}", 1)
        answer = ask(f"Forget {who}? This cannot be undone. [y/N] ").strip().casefold()
        if answer not in ("y", "yes"):
            return _refuse("nothing forgotten", 1)
    service = GameService(repository)
    try:
        forgotten, _ = await service.forget_person(PLATFORMS[platform], user)
    finally:
        await service.close()
    print(line(who, forgotten))
    return 0


def line(who: str, forgotten: Forgotten) -> str:
    if not forgotten.anything:
        return f"{who}: nothing stored about them, nothing to forget"
    return (
        f"forgot {who}: {forgotten.results} results and {forgotten.ratings} ratings anonymised,"
        f" {forgotten.games} stored games rewritten, {forgotten.seated_out} games in progress"
        " left"
    )
