"""A chat's seasons: ladders that start afresh each month or quarter, at local midnight in the
chat's own time zone, and a season's ratings, replayed from its games alone.

Everything here is arithmetic on Unix seconds; a zone is an IANA name (zoneinfo), and a name
that cannot be loaded counts as UTC, so that a bad setting never breaks a ladder.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo
from enum import Enum
from zoneinfo import ZoneInfo

from core.ratings import TREND, Placing, Rating, Skill, newcomer, rate, rated_id


class SeasonLength(Enum):
    MONTHLY = "monthly"
    QUARTERLY = "quarterly"
    OFF = "off"


# The time zones a chat may choose for its seasons (IANA names), UTC first.
ZONES: tuple[str, ...] = (
    "UTC",
    "Europe/London",
    "Europe/Berlin",
    "Europe/Kyiv",
    "Europe/Moscow",
    "Asia/Yekaterinburg",
    "Asia/Novosibirsk",
    "Asia/Vladivostok",
    "America/New_York",
    "America/Chicago",
    "America/Los_Angeles",
    "Asia/Tokyo",
    "Australia/Sydney",
)

_MONTHS = {SeasonLength.MONTHLY: 1, SeasonLength.QUARTERLY: 3}  # months in a season
_LABELS = {
    SeasonLength.MONTHLY: re.compile(r"([0-9]{4})-([0-9]{2})"),
    SeasonLength.QUARTERLY: re.compile(r"([0-9]{4})-[qQ]([1-4])"),
}
# The years a label may name: a season's neighbours stay within datetime's years.
_YEARS = range(datetime.min.year + 1, datetime.max.year)


def _zone(name: str) -> tuple[str, tzinfo]:
    """A zone by its IANA name, or UTC for a name zoneinfo cannot load (unknown, malformed, not
    a zone file): a chat's seasons keep turning whatever its setting says."""
    try:
        return name, ZoneInfo(name)
    except (KeyError, ValueError, OSError):  # ZoneInfoNotFoundError is a KeyError
        return "UTC", UTC


@dataclass(frozen=True)
class Season:
    """One season of a chat's ladder: from local midnight of its first day in `zone` up to the
    next season's start."""

    length: SeasonLength  # MONTHLY or QUARTERLY (never OFF)
    year: int
    number: int  # the month 1-12, or the quarter 1-4
    start: float  # Unix seconds, inclusive
    end: float  # Unix seconds: the next season's start (exclusive)
    zone: str  # the zone it was reckoned in ("UTC" where the chat's could not be loaded)

    @property
    def label(self) -> str:
        """Language-neutral, and what `named` reads back: "2026-11" or "2026-Q4"."""
        if self.length is SeasonLength.QUARTERLY:
            return f"{self.year:04d}-Q{self.number}"
        return f"{self.year:04d}-{self.number:02d}"

    def contains(self, when: float) -> bool:
        return self.start <= when < self.end


def _season(length: SeasonLength, year: int, number: int, zone: str) -> Season:
    """Where the clocks jump over midnight, a season starts at the jump: its first day's first
    moment."""
    name, where = _zone(zone)
    months = _MONTHS[length]
    first = (number - 1) * months  # months of the year before it
    after = first + months
    start = datetime(year, first + 1, 1, tzinfo=where).timestamp()
    end = datetime(year + after // 12, after % 12 + 1, 1, tzinfo=where).timestamp()
    return Season(length, year, number, start, end, name)


def season_at(when: float, length: SeasonLength, zone: str) -> Season | None:
    """The season `when` falls in, in the chat's zone; None where seasons are off."""
    if length is SeasonLength.OFF:
        return None
    name, where = _zone(zone)
    local = datetime.fromtimestamp(when, where)
    return _season(length, local.year, (local.month - 1) // _MONTHS[length] + 1, name)


def previous(season: Season) -> Season:
    """The season before, for "last month's ladder" (January's is the previous December)."""
    if season.number > 1:
        return _season(season.length, season.year, season.number - 1, season.zone)
    return _season(season.length, season.year - 1, 12 // _MONTHS[season.length], season.zone)


def following(season: Season) -> Season:
    """The season after, which starts where this one ends."""
    if season.number < 12 // _MONTHS[season.length]:
        return _season(season.length, season.year, season.number + 1, season.zone)
    return _season(season.length, season.year + 1, 1, season.zone)


def named(label: str, length: SeasonLength, zone: str) -> Season | None:
    """A season by its label ("2026-11", "2026-q4" case-insensitive); None for anything else,
    for a label of the other length, or where seasons are off. Must never raise on any string."""
    pattern = _LABELS.get(length)
    found = pattern.fullmatch(label.strip()) if pattern else None
    if found is None:
        return None
    year, number = int(found[1]), int(found[2])
    if year not in _YEARS or not 1 <= number <= 12 // _MONTHS[length]:
        return None
    return _season(length, year, number, zone)


@dataclass(frozen=True)
class SeasonSeat:
    """A seat of a recorded game, as much as a season's ratings need."""

    player_id: str
    name: str
    total: int
    big_general: bool


@dataclass(frozen=True)
class SeasonGame:
    """A finished game of the season: when it finished breaks the replay's ties between games."""

    game_id: str
    finished_at: float
    seats: tuple[SeasonSeat, ...]  # in seating order


@dataclass(frozen=True)
class SeasonRating:
    """A player's standing in one season alone, whatever they were rated before it."""

    player_id: str  # the rated id (core.ratings.rated_id: a computer by its level)
    name: str  # the name in their latest game of the season
    rating: Rating


def season_ratings(games: Sequence[SeasonGame]) -> list[SeasonRating]:
    """Every player's rating over the season's games alone (everyone starts as a newcomer),
    replayed in the order they finished (finished_at, then game_id) with core.ratings.rate, so
    the same games always give the same numbers. Ordered best first by shown rating, then more
    games, then player_id. A game of one seat rates nobody (as core.ratings.rate)."""
    skills: dict[str, Skill] = {}
    shown: dict[str, list[int]] = {}  # the shown rating before their first game and after each
    names: dict[str, str] = {}
    for game in sorted(games, key=lambda g: (g.finished_at, g.game_id)):
        placings = [Placing(s.player_id, s.total, s.big_general) for s in game.seats]
        after = rate(placings, skills)
        skills.update(after)
        for player_id, skill in after.items():
            shown.setdefault(player_id, [newcomer().shown]).append(skill.shown)
        # A level seated twice goes by its first seat's name: reversed, so that one is kept.
        names.update({rated_id(s.player_id): s.name for s in reversed(game.seats)})
    found: list[SeasonRating] = []
    for player_id, skill in skills.items():
        history = shown[player_id]
        rating = Rating(skill, len(history) - 1, max(history[1:]), tuple(history[-TREND - 1 :]))
        found.append(SeasonRating(player_id, names[player_id], rating))
    found.sort(key=lambda r: (-r.rating.shown, -r.rating.games, r.player_id))
    return found
