"""Telegram's typed words read into what was asked (adapters/telegram/words.py)."""

from __future__ import annotations

import pytest

from adapters.chat.commands import Asked, Target
from adapters.chat.records import Period, Query
from adapters.telegram.words import asked, query


@pytest.mark.parametrize(
    ("words", "wanted"),
    [
        (["cancel"], Asked("stop")),
        (["STOP"], Asked("stop")),
        ([], Asked("help")),
        ([""], Asked("help")),
        (["kick", "@Ann", "Lee"], Asked("kick", target=Target(name="Ann Lee"))),
        (["kick"], Asked("kick", target=Target())),
        (["sheet", "TEXT"], Asked("sheet", text=True)),
        (["sheet", "picture"], Asked("sheet")),
        (["sheet", "text", "text"], Asked("sheet")),
        (
            ["leaderboard", "global", "30d"],
            Asked(
                "leaderboard",
                query=Query("leaderboard", True, Period.RECENT, who_name="global 30d"),
            ),
        ),
        (["stats", "@Bob"], Asked("stats", query=Query("stats", who_name="Bob"))),
        (["history"], Asked("history", query=Query("history"))),
        (["x" * 100], Asked("x" * 32)),
    ],
)
def test_words_are_parsed_into_what_was_asked(words: list[str], wanted: Asked) -> None:
    """Telegram's typed words: aliases, flags, a name with its @, a long word cut short."""
    assert asked(words) == wanted


SEASON, RECENT = Period.SEASON, Period.RECENT


@pytest.mark.parametrize(
    ("words", "everywhere", "period", "name"),
    [
        ([], False, SEASON, None),
        (["global"], True, SEASON, "global"),
        (["GLOBAL", "month"], True, RECENT, "GLOBAL month"),
        (["recent"], False, RECENT, "recent"),
        (["месяц"], False, RECENT, "месяц"),
        (["Везде", "30д"], True, RECENT, "Везде 30д"),  # the words the Russian help shows
        (["@Ann", "Lee"], False, SEASON, "Ann Lee"),
        (["all"], False, Period.ALL, "all"),
        (["все", "wins"], False, Period.ALL, "все wins"),  # ё typed as е
        (["всё"], False, Period.ALL, "всё"),
        (["last"], False, Period.PREVIOUS, "last"),
        (["Прошлый"], False, Period.PREVIOUS, "Прошлый"),
    ],
)
def test_record_queries_are_read_from_words(
    words: list[str], everywhere: bool, period: Period, name: str | None
) -> None:
    """ "global" means every chat; a month's words the last 30 days, "all" all time, "last"
    the season before this one, nothing this season; the words name a player."""
    read = query("leaderboard", words)
    assert (read.everywhere, read.period, read.who_name) == (everywhere, period, name)


@pytest.mark.parametrize(
    ("words", "season"),
    [(["2026-10"], "2026-10"), (["wins", "2026-q3"], "2026-q3"), (["2026-13x"], None), ([], None)],
)
def test_a_season_is_named_by_its_label(words: list[str], season: str | None) -> None:
    assert query("leaderboard", words).season == season
