"""The `/general` commands, once for every chat: their names, arguments and descriptions.

Help texts, Telegram's command menu, Discord's slash commands and the README's tables are all
made from this list; `python -m adapters.chat.catalogue [named]` prints the README's table of
typed arguments (Telegram's), or of named options (Discord's).
"""

from __future__ import annotations

import functools
import sys
from dataclasses import dataclass
from enum import Enum

from adapters.i18n import Translator, available_locales, translator

COMMAND = "general"


class Kind(Enum):
    """How an argument is given: a flag word, a choice, a person, or a word of its own (a
    season's name)."""

    FLAG = "flag"
    CHOICE = "choice"
    PERSON = "person"
    WORD = "word"


@dataclass(frozen=True)
class Option:
    """An argument: `name` (Discord's option; on Telegram a word says it: `word-<name>` in the
    reader's language, or `words`, the English one, in any)."""

    name: str
    kind: Kind
    words: str  # how Telegram users type it in English
    about: str  # the message id of its description
    required: bool = False
    choices: tuple[str, ...] = ()
    # Choices beyond the one `word-<name>` gives, each typed on Telegram as its own word
    # (`word-<choice>`; the choice itself in English).
    also: tuple[str, ...] = ()

    @property
    def typed(self) -> frozenset[str]:
        """Every word that gives this option on Telegram, in each language of the catalogues."""
        return _said(f"word-{self.name}", self.words)

    def chosen(self, words: set[str]) -> str | None:
        """The first of the `also` choices one of the (casefolded) words gives on Telegram."""
        return next((c for c in self.also if words & _said(f"word-{c}", c)), None)


@functools.cache
def _said(message: str, english: str) -> frozenset[str]:
    """The words, each also with ё written е (as most type it)."""
    said = [translator(code)(message).casefold() for code in available_locales()]
    return frozenset({english, *said, *(word.replace("ё", "е") for word in said)})


@dataclass(frozen=True)
class Command:
    name: str
    options: tuple[Option, ...] = ()
    # Answered only to the person who asked, where the platform can (Discord).
    private: bool = False

    @property
    def about(self) -> str:
        return f"cmd-{self.name}"


TEXT = Option("text", Kind.FLAG, "text", "opt-text-about")
SCOPE = Option("scope", Kind.CHOICE, "global", "opt-scope-about", choices=("channel", "global"))
PERIOD = Option(
    "period",
    Kind.CHOICE,
    "30d",
    "opt-period-about",
    choices=("season", "previous", "all", "recent"),
    also=("all", "previous"),
)
ORDER = Option(
    "order",
    Kind.CHOICE,
    "wins",
    "opt-order-about",
    choices=("rating", "wins", "luck", "skill"),
    also=("luck", "skill"),
)
OFF = Option("off", Kind.FLAG, "off", "opt-off-about")
SEASON = Option("season", Kind.WORD, "2026-11", "opt-season-about")
STATS_PLAYER = Option("player", Kind.PERSON, "name", "opt-stats-player-about")
KICK_PLAYER = Option("player", Kind.PERSON, "name", "opt-kick-player-about", required=True)
COMMANDS: tuple[Command, ...] = (
    Command("start"),
    Command("join"),
    Command("leave"),
    Command("sheet", (TEXT,)),
    Command("hint", private=True),
    Command("chances"),
    Command("review"),
    Command("verify"),
    Command("table"),
    Command("leaderboard", (SCOPE, PERIOD, ORDER, SEASON)),
    Command("stats", (STATS_PLAYER,)),
    Command("history"),
    Command("notify", (OFF,)),
    Command("tournament"),
    Command("settings", private=True),
    Command("forget", private=True),
    Command("kick", (KICK_PLAYER,)),
    Command("stop"),
    Command("rules", private=True),
    Command("help", private=True),
)
NAMES = tuple(command.name for command in COMMANDS)
BY_NAME = {command.name: command for command in COMMANDS}
# Other words people type for a command.
ALIASES = {"cancel": "stop", "": "help"}


def usage(command: Command, t: Translator, *, typed: bool) -> str:
    """`/general stats [name]` where arguments are typed after a space, as on Telegram (a
    person's name in the reader's language, literal words as they are), `/general stats
    [player]` where options are named, as on Discord (in the reader's language)."""
    parts = [f"/{COMMAND} {command.name}"]
    for option in command.options:
        if not typed:
            word = t(f"opt-{option.name}")
        else:
            word = t("arg-name") if option.kind is Kind.PERSON else t(f"word-{option.name}")
            word = "|".join([word, *(t(f"word-{choice}") for choice in option.also)])
        parts.append(word if option.required else f"[{word}]")
    return " ".join(parts)


def usages(t: Translator, *, typed: bool) -> list[tuple[str, str]]:
    """Every command as the reader types it, with what it does: the help's lines and the
    README's table."""
    return [(usage(c, t, typed=typed), t(c.about)) for c in COMMANDS]


def welcome_lines(t: Translator, brief: bool) -> list[str]:
    """A first contact's words before the commands (a group hears the short form)."""
    if brief:
        return [t("welcome-group")]
    return [t("welcome-title"), t("welcome-about"), t("welcome-where"), "", t("welcome-commands")]


def readme_table(*, typed: bool, t: Translator | None = None) -> str:
    """The README's table of the commands (kept equal to this list by a test)."""
    t = t or translator("en")
    rows = ["| command | what it does |", "|---|---|"]
    for command, about in usages(t, typed=typed):
        escaped = command.replace("|", "\\|")  # a bar ends a cell, even between backticks
        rows.append(f"| `{escaped}` | {about} |")
    return "\n".join(rows)


if __name__ == "__main__":
    print(readme_table(typed="named" not in sys.argv[1:]))
