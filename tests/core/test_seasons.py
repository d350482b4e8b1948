"""Seasons (core.seasons): month and quarter boundaries at local midnight in the chat's zone,
across daylight saving, their labels and neighbours, and a season's ratings replayed from its
games alone."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.ratings import TREND, Placing, Skill, newcomer, rate
from core.seasons import (
    ZONES,
    Season,
    SeasonGame,
    SeasonLength,
    SeasonSeat,
    following,
    named,
    previous,
    season_at,
    season_ratings,
)

MONTHLY = SeasonLength.MONTHLY
QUARTERLY = SeasonLength.QUARTERLY
OFF = SeasonLength.OFF


def utc(year: int, month: int, day: int, hour: int = 0) -> float:
    return datetime(year, month, day, hour, tzinfo=UTC).timestamp()


def at(when: float, length: SeasonLength, zone: str) -> Season:
    season = season_at(when, length, zone)
    assert season is not None
    return season


# (zone, length, a moment inside, label, its start and end in UTC)
BOUNDARIES = [
    ("UTC", MONTHLY, utc(2026, 11, 15), "2026-11", utc(2026, 11, 1), utc(2026, 12, 1)),
    ("UTC", MONTHLY, utc(2026, 12, 31, 23), "2026-12", utc(2026, 12, 1), utc(2027, 1, 1)),
    ("UTC", QUARTERLY, utc(2026, 2, 28), "2026-Q1", utc(2026, 1, 1), utc(2026, 4, 1)),
    ("UTC", QUARTERLY, utc(2026, 12, 1), "2026-Q4", utc(2026, 10, 1), utc(2027, 1, 1)),
    # New York: daylight time (UTC-4) until 02:00 on 1 November 2026, then standard time (UTC-5).
    (
        "America/New_York",
        MONTHLY,
        utc(2026, 11, 20),
        "2026-11",
        utc(2026, 11, 1, 4),
        utc(2026, 12, 1, 5),
    ),
    (
        "America/New_York",
        MONTHLY,
        utc(2026, 3, 20),
        "2026-03",
        utc(2026, 3, 1, 5),
        utc(2026, 4, 1, 4),
    ),
    (
        "America/New_York",
        QUARTERLY,
        utc(2026, 11, 20),
        "2026-Q4",
        utc(2026, 10, 1, 4),
        utc(2027, 1, 1, 5),
    ),
    (
        "America/New_York",
        QUARTERLY,
        utc(2026, 2, 1),
        "2026-Q1",
        utc(2026, 1, 1, 5),
        utc(2026, 4, 1, 4),
    ),
    # Moscow: UTC+3 all year now, so a month starts at 21:00 UTC the day before...
    (
        "Europe/Moscow",
        MONTHLY,
        utc(2026, 7, 10),
        "2026-07",
        utc(2026, 6, 30, 21),
        utc(2026, 7, 31, 21),
    ),
    (
        "Europe/Moscow",
        QUARTERLY,
        utc(2026, 12, 31, 22),
        "2027-Q1",
        utc(2026, 12, 31, 21),
        utc(2027, 3, 31, 21),
    ),
    # ...but in 2010 it still had summer time (UTC+4 from 28 March).
    (
        "Europe/Moscow",
        MONTHLY,
        utc(2010, 3, 30),
        "2010-03",
        utc(2010, 2, 28, 21),
        utc(2010, 3, 31, 20),
    ),
    (
        "Europe/Moscow",
        QUARTERLY,
        utc(2010, 5, 1),
        "2010-Q2",
        utc(2010, 3, 31, 20),
        utc(2010, 6, 30, 20),
    ),
    # In 1982 Moscow's summer time began at midnight on 1 April: April began at 01:00 local.
    (
        "Europe/Moscow",
        MONTHLY,
        utc(1982, 4, 10),
        "1982-04",
        utc(1982, 3, 31, 21),
        utc(1982, 4, 30, 20),
    ),
    # Sydney's summer is January's.
    (
        "Australia/Sydney",
        MONTHLY,
        utc(2026, 1, 10),
        "2026-01",
        utc(2025, 12, 31, 13),
        utc(2026, 1, 31, 13),
    ),
]


@pytest.mark.parametrize(("zone", "length", "inside", "label", "start", "end"), BOUNDARIES)
def test_a_season_runs_from_local_midnight_of_its_first_day_to_the_next_ones(
    zone: str, length: SeasonLength, inside: float, label: str, start: float, end: float
) -> None:
    season = at(inside, length, zone)
    assert (season.label, season.start, season.end, season.zone) == (label, start, end, zone)
    assert season.length is length
    assert season.contains(inside) and season.contains(start) and not season.contains(end)
    assert at(start, length, zone) == season
    assert at(start - 1, length, zone) == previous(season)
    assert at(end, length, zone) == following(season)
    assert at(end - 1, length, zone) == season


def test_the_moment_of_the_boundary_belongs_to_the_new_season() -> None:
    boundary = utc(2026, 12, 1, 5)  # midnight in New York
    assert at(boundary, MONTHLY, "America/New_York").label == "2026-12"
    assert at(boundary - 0.001, MONTHLY, "America/New_York").label == "2026-11"
    assert at(boundary, MONTHLY, "UTC").label == "2026-12"  # 05:00 in London is well inside
    assert at(utc(2026, 12, 1) - 0.001, MONTHLY, "UTC").label == "2026-11"


def test_a_season_reads_its_year_and_number_in_the_chats_zone() -> None:
    when = utc(2026, 12, 31, 22)  # 2027 in Moscow and Tokyo, still 2026 in New York
    assert (at(when, MONTHLY, "Europe/Moscow").year, at(when, MONTHLY, "Asia/Tokyo").number) == (
        2027,
        1,
    )
    assert at(when, QUARTERLY, "America/New_York").label == "2026-Q4"


def test_no_season_where_seasons_are_off() -> None:
    assert season_at(utc(2026, 11, 15), OFF, "UTC") is None
    assert named("2026-11", OFF, "UTC") is None


def test_an_unknown_zone_is_utc() -> None:
    when = utc(2026, 11, 15)
    for zone in ("Mars/Olympus", "", "utc", "../etc/passwd", "/etc/passwd", "zone.tab", "\x00"):
        season = at(when, MONTHLY, zone)
        assert season == at(when, MONTHLY, "UTC"), zone
        assert season.zone == "UTC"
        assert named("2026-11", MONTHLY, zone) == season


def test_labels() -> None:
    assert at(utc(2026, 3, 5), MONTHLY, "UTC").label == "2026-03"
    assert at(utc(2026, 11, 5), MONTHLY, "UTC").label == "2026-11"
    assert at(utc(2026, 3, 5), QUARTERLY, "UTC").label == "2026-Q1"
    assert at(utc(2026, 11, 5), QUARTERLY, "UTC").label == "2026-Q4"


def test_neighbours_across_the_years() -> None:
    january = at(utc(2026, 1, 10), MONTHLY, "Europe/Moscow")
    assert previous(january).label == "2025-12"
    assert previous(january).end == january.start
    assert following(previous(january)) == january
    assert following(at(utc(2025, 12, 10), MONTHLY, "Europe/Moscow")) == january
    first = at(utc(2026, 2, 10), QUARTERLY, "America/New_York")
    assert previous(first).label == "2025-Q4"
    assert previous(first).zone == "America/New_York"
    assert following(previous(first)) == first
    assert following(following(previous(first))).label == "2026-Q2"


def test_named_reads_a_label_of_its_own_length() -> None:
    moscow = "Europe/Moscow"
    assert named("2026-11", MONTHLY, moscow) == at(utc(2026, 11, 15), MONTHLY, moscow)
    assert named("2026-01", MONTHLY, "UTC") == at(utc(2026, 1, 1), MONTHLY, "UTC")
    assert named("2026-Q4", QUARTERLY, moscow) == at(utc(2026, 11, 15), QUARTERLY, moscow)
    assert named("2026-q4", QUARTERLY, moscow) == at(utc(2026, 11, 15), QUARTERLY, moscow)
    assert named("2026-Q4", MONTHLY, moscow) is None
    assert named("2026-11", QUARTERLY, moscow) is None
    assert named("2026-04", QUARTERLY, moscow) is None
    earliest, latest = named("0002-01", MONTHLY, moscow), named("9998-Q4", QUARTERLY, moscow)
    assert earliest is not None and previous(earliest).label == "0001-12"
    assert latest is not None and following(latest).label == "9999-Q1"


@pytest.mark.parametrize(
    "label",
    [
        "",
        "2026",
        "2026-13",
        "2026-00",
        "2026-1",
        "2026-011",
        "26-11",
        "2026/11",
        "2026-Q5",
        "2026-Q0",
        "2026-QQ4",
        "2026-Q",
        "２０２６-１１",
        "٢٠٢٦-١١",
        "0000-01",
        "0001-12",
        "9999-01",
        "9999-Q1",
        "2026-11\n2026-12",
        "-2026-11",
        "2026-11x",
        "next month",
    ],
)
def test_named_refuses_anything_else(label: str) -> None:
    assert named(label, MONTHLY, "UTC") is None
    assert named(label, QUARTERLY, "UTC") is None


@given(st.text(), st.sampled_from(list(SeasonLength)), st.sampled_from([*ZONES, "Nowhere/At"]))
def test_named_never_raises(label: str, length: SeasonLength, zone: str) -> None:
    season = named(label, length, zone)
    assert season is None or season.label.lower() == label.strip().lower()


moments = st.floats(min_value=0, max_value=utc(2200, 1, 1), allow_nan=False)
lengths = st.sampled_from([MONTHLY, QUARTERLY])


@given(moments, lengths, st.sampled_from(ZONES))
def test_every_moment_is_in_one_season_between_its_neighbours(
    when: float, length: SeasonLength, zone: str
) -> None:
    season = at(when, length, zone)
    assert season.contains(when)
    before, after = previous(season), following(season)
    assert before.end == season.start < season.end == after.start
    assert not before.contains(when) and not after.contains(when)
    assert following(before) == season == previous(after)
    assert named(season.label, length, zone) == season
    assert named(season.label.lower(), length, zone) == season
    assert at(season.start, length, zone) == season == at(season.end - 0.001, length, zone)
    # It starts at the first moment of its first day (midnight, or where the clocks jumped over
    # midnight, the jump).
    local = datetime.fromtimestamp(season.start, ZoneInfo(zone))
    assert (local.year, local.month, local.day) == (season.year, first_month(season), 1)
    assert datetime.fromtimestamp(season.start - 1, ZoneInfo(zone)).day != 1


def first_month(season: Season) -> int:
    return 1 + (season.number - 1) * (1 if season.length is MONTHLY else 3)


# Season ratings.

ALICE, BOB, CAROL, DAVE = "1001", "1002", "1003", "1004"


def seat(player_id: str, total: int, name: str = "", big_general: bool = False) -> SeasonSeat:
    return SeasonSeat(player_id, name or f"name of {player_id}", total, big_general)


def game(game_id: str, finished_at: float, *seats: SeasonSeat) -> SeasonGame:
    return SeasonGame(game_id, finished_at, seats)


def by_hand(games: list[SeasonGame]) -> dict[str, list[Skill]]:
    """Each player's skill after every game that rated them, replaying rate() in the given
    order."""
    skills: dict[str, Skill] = {}
    history: dict[str, list[Skill]] = {}
    for played in games:
        placings = [Placing(s.player_id, s.total, s.big_general) for s in played.seats]
        after = rate(placings, skills)
        skills.update(after)
        for player_id, skill in after.items():
            history.setdefault(player_id, []).append(skill)
    return history


SEASON = [
    game("g1", 100.0, seat(ALICE, 260, "Alice"), seat(BOB, 180, "Bob")),
    game("g2", 200.0, seat(BOB, 250, "Bob"), seat(CAROL, 190, "Carol"), seat(ALICE, 120)),
    game("g3", 300.0, seat(DAVE, 50, "Dave")),  # one seat: rates nobody
    game("g4", 400.0, seat(CAROL, 240, "Carol"), seat(ALICE, 110, "Alice W"), seat(BOB, 300)),
    game(
        "g5",
        500.0,
        seat(BOB, 0, "Bobby"),
        seat(ALICE, 90, "Alice W"),
        seat(CAROL, 0, big_general=True),
    ),
]


def test_season_ratings_replay_rate_in_the_order_the_games_finished() -> None:
    history = by_hand(SEASON)
    found = season_ratings(SEASON)
    assert {r.player_id for r in found} == {ALICE, BOB, CAROL}  # not Dave: never rated
    for rating in found:
        skills = history[rating.player_id]
        assert rating.rating.skill == skills[-1]
        assert rating.rating.games == len(skills)
        assert rating.rating.best == max(s.shown for s in skills)
        assert rating.rating.trend == (newcomer().shown, *(s.shown for s in skills))
    assert [r.rating.games for r in sorted(found, key=lambda r: r.player_id)] == [4, 4, 3]
    shown = [(-r.rating.shown, -r.rating.games, r.player_id) for r in found]
    assert shown == sorted(shown)


def test_best_is_the_highest_shown_rating_of_the_season_not_the_last() -> None:
    games = [game("a", 1.0, seat(ALICE, 300), seat(BOB, 100))]
    games += [game(f"b{i}", 2.0 + i, seat(ALICE, 100), seat(BOB, 300)) for i in range(4)]
    alice = next(r for r in season_ratings(games) if r.player_id == ALICE)
    shown = [s.shown for s in by_hand(games)[ALICE]]
    assert alice.rating.best == max(shown) == shown[0] > alice.rating.shown
    # Not the newcomer's rating either: a season of losses peaks below it.
    loser = next(r for r in season_ratings(games[:1]) if r.player_id == BOB)
    assert loser.rating.best == loser.rating.shown < newcomer().shown


def test_season_ratings_do_not_depend_on_the_order_games_are_given_in() -> None:
    # Two games finished in the same second: the game id decides which came first.
    tied = [
        *SEASON,
        game("g6", 600.0, seat(ALICE, 300), seat(CAROL, 100)),
        game("g7", 600.0, seat(CAROL, 300), seat(BOB, 200), seat(ALICE, 100)),
    ]
    swapped = [*tied[:-2], tied[-1], tied[-2]]
    assert by_hand(tied) != by_hand(swapped)  # so the order does matter to rate()
    expected = season_ratings(tied)
    assert expected[0].rating.skill == max(
        (skills[-1] for skills in by_hand(tied).values()), key=lambda s: s.shown
    )
    rng = random.Random(7)
    for _ in range(10):
        shuffled = rng.sample(tied, len(tied))
        assert season_ratings(shuffled) == expected
    assert season_ratings(tuple(swapped)) == expected


def test_a_player_goes_by_the_name_of_their_latest_game() -> None:
    shuffled = [SEASON[4], SEASON[0], SEASON[3], SEASON[2], SEASON[1]]
    names = {r.player_id: r.name for r in season_ratings(shuffled)}
    assert names == {ALICE: "Alice W", BOB: "Bobby", CAROL: f"name of {CAROL}"}


def test_a_computer_level_seated_twice_is_rated_once_by_its_level() -> None:
    games = [
        game(
            "c1",
            1.0,
            seat("cpu-master-1", 250, "Master"),
            seat(ALICE, 200),
            seat("cpu-master-2", 150, "Master 2"),
        ),
        game("c2", 2.0, seat(ALICE, 220), seat("cpu-novice-1", 100, "Novice")),
    ]
    found = {r.player_id: r for r in season_ratings(games)}
    assert set(found) == {"cpu-master", "cpu-novice", ALICE}
    assert found["cpu-master"].rating.games == 1
    assert found["cpu-master"].name == "Master"  # its first seat's
    assert found[ALICE].rating.games == 2
    history = by_hand(games)
    assert {player_id: r.rating.skill for player_id, r in found.items()} == {
        player_id: skills[-1] for player_id, skills in history.items()
    }


def test_equal_ratings_go_by_games_then_id() -> None:
    draw = [game("t", 1.0, seat("zed", 100), seat("amy", 100))]  # newcomers, equal in all
    assert [r.player_id for r in season_ratings(draw)] == ["amy", "zed"]

    def against_newcomers(game_id: str, player_id: str, place: int, seats: int) -> SeasonGame:
        others = (seat(f"{game_id}-{n}", 100 - 10 * n) for n in range(seats) if n != place)
        return game(game_id, float(len(game_id)), seat(player_id, 100 - 10 * place), *others)

    once = [against_newcomers("a", "amy", 3, 4)]  # last of four
    thrice = [
        against_newcomers("z" * n, "zed", place, seats)
        for n, (place, seats) in enumerate([(2, 3), (1, 2), (2, 4)], 1)
    ]  # last of three, of two, third of four
    found = {r.player_id: r for r in season_ratings(once + thrice)}
    assert found["amy"].rating.shown == found["zed"].rating.shown  # the case this test is for
    mine = [r.player_id for r in season_ratings(thrice + once) if r.player_id in found]
    assert mine.index("zed") < mine.index("amy")


def test_the_trend_keeps_the_last_games_only() -> None:
    games = [
        game(f"g{i:02d}", float(i), seat(ALICE, 100 + i % 3), seat(BOB, 101)) for i in range(14)
    ]
    alice = next(r for r in season_ratings(games) if r.player_id == ALICE)
    shown = [s.shown for s in by_hand(games)[ALICE]]
    assert alice.rating.games == 14
    assert alice.rating.trend == tuple(shown[-TREND - 1 :])


def test_no_games_no_ratings() -> None:
    assert season_ratings([]) == []
    assert season_ratings([game("solo", 1.0, seat(ALICE, 100))]) == []
