"""Telegram's `/general <name> [words…]`: the words typed after a space, read into what the
chat layer carries out (Discord gives its options already parsed)."""

from __future__ import annotations

import re

from adapters.chat.catalogue import ALIASES, OFF, ORDER, PERIOD, SCOPE, TEXT
from adapters.chat.commands import MAX_ARGUMENT, Asked, Target
from adapters.chat.records import KINDS, Order, Period, Query

SEASON_NAME = re.compile(r"[0-9]{4}-(?:[0-9]{2}|[qQ][1-4])")  # "2026-10", "2026-Q3"
RECENT_WORDS = frozenset({"30", "30d", "month", "recent", "месяц"})


def asked(words: list[str]) -> Asked:
    """The command named (an alias, or the unknown word, cut short) and its arguments."""
    first = (words[0].lower() if words else "").strip()[:MAX_ARGUMENT]
    name = ALIASES.get(first, first)
    rest = words[1:]
    if name in KINDS:
        return Asked(name, query=query(name, rest))
    if name == "kick":
        return Asked(name, target=Target(name=" ".join(rest).strip().lstrip("@") or None))
    flag = len(rest) == 1 and rest[0].casefold()
    if name == "notify":
        return Asked(name, off=flag in OFF.typed)
    return Asked(name, text=flag in TEXT.typed)


def query(kind: str, words: list[str]) -> Query:
    """`/general leaderboard global 30d wins` (or `all`, `last`; `luck`, `decisions`),
    `/general stats Ann Lee`."""
    lowered = {word.casefold() for word in words}
    name = " ".join(words).strip().lstrip("@") or None
    recent = RECENT_WORDS | PERIOD.typed
    season = next((word for word in words if SEASON_NAME.fullmatch(word)), None)
    return Query(
        kind,
        bool(lowered & SCOPE.typed),
        Period.RECENT if lowered & recent else Period(PERIOD.chosen(lowered) or "season"),
        _order(lowered),
        season,
        who_name=name,
    )


def _order(lowered: set[str]) -> Order:
    chosen = ORDER.chosen(lowered)
    if chosen is not None:
        return Order(chosen)
    return Order.WINS if lowered & ORDER.typed else Order.RATING
