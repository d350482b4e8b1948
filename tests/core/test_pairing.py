"""Tournament seating (core.pairing): tables as even as can be, Swiss rounds that seat by rank
and avoid rematches as well as a brute force does, byes that rotate, and round robins in which
every pair meets."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from functools import cache
from itertools import combinations, pairwise

import pytest

from core.pairing import Pairing, round_robin, round_robin_rounds, swiss, table_sizes

Met = dict[frozenset[str], int]


def ids(count: int) -> list[str]:
    return [f"p{i:02d}" for i in range(count)]


def pairs(pairing: Pairing) -> list[frozenset[str]]:
    return [frozenset(pair) for table in pairing.tables for pair in combinations(table, 2)]


def repeats(pairing: Pairing, met: Mapping[frozenset[str], int]) -> int:
    return sum(met.get(pair, 0) for pair in pairs(pairing))


def valid(pairing: Pairing, players: Sequence[str], size: int) -> None:
    """Everyone seated once or sat out, at tables of the sizes table_sizes gives."""
    seated = [p for table in pairing.tables for p in table]
    assert sorted(seated + list(pairing.byes)) == sorted(players)
    sizes, byes = table_sizes(len(players), size)
    assert sorted(len(t) for t in pairing.tables) == sorted(sizes)
    assert len(pairing.byes) == byes


def played(pairing: Pairing, met: Met, byes: dict[str, int]) -> None:
    for pair in pairs(pairing):
        met[pair] = met.get(pair, 0) + 1
    for player in pairing.byes:
        byes[player] = byes.get(player, 0) + 1


def brute_min(players: Sequence[str], met: Mapping[frozenset[str], int], size: int) -> int:
    """The fewest repeats of any seating of `players` (none sitting out), by trying them all."""
    cost = [[met.get(frozenset((a, b)), 0) for b in players] for a in players]

    @cache
    def least(rest: int, sizes: tuple[int, ...]) -> int:
        if not rest:
            return 0
        first, *others = (p for p in range(len(players)) if rest >> p & 1)
        found = []
        for table in set(sizes):
            fewer = list(sizes)
            fewer.remove(table)
            for company in combinations(others, table - 1):
                seated = (first, *company)
                here = sum(cost[a][b] for a, b in combinations(seated, 2))
                left = rest & ~sum(1 << p for p in seated)
                found.append(here + least(left, tuple(fewer)))
        return min(found)

    return least((1 << len(players)) - 1, table_sizes(len(players), size)[0])


def swiss_event(
    count: int, size: int, rounds: int, seed: int
) -> list[tuple[list[str], Met, Pairing]]:
    """Swiss rounds with random results fed back as the ranking: each round's ranking, the
    meetings before it and its pairing."""
    rng = random.Random(seed)
    score = dict.fromkeys(ids(count), 0.0)
    met: Met = {}
    byes: dict[str, int] = {}
    history = []
    for _ in range(rounds):
        ranked = sorted(score, key=lambda p: (-score[p], p))
        pairing = swiss(ranked, met, byes, size)
        valid(pairing, ranked, size)
        history.append((ranked, dict(met), pairing))
        played(pairing, met, byes)
        for table in pairing.tables:
            for place, player in enumerate(rng.sample(table, len(table))):
                score[player] += place / (len(table) - 1)
        for player in pairing.byes:
            score[player] += 1
    return history


def test_table_sizes_seat_everyone_once_at_even_tables() -> None:
    for size in range(2, 7):
        for count in range(70):
            sizes, byes = table_sizes(count, size)
            assert sum(sizes) + byes == count
            assert all(2 <= s <= size for s in sizes)
            assert list(sizes) == sorted(sizes, reverse=True)
            assert not sizes or sizes[0] - sizes[-1] <= 1
            assert len(sizes) == -(-(count - byes) // size)
            assert byes == (count % 2 if size == 2 else int(count == 1))


@pytest.mark.parametrize(
    ("count", "size", "expected"),
    [
        (0, 4, ((), 0)),
        (1, 4, ((), 1)),
        (2, 6, ((2,), 0)),
        (4, 3, ((2, 2), 0)),
        (7, 2, ((2, 2, 2), 1)),
        (7, 4, ((4, 3), 0)),
        (10, 6, ((5, 5), 0)),
        (13, 4, ((4, 3, 3, 3), 0)),
        (64, 6, ((6,) * 9 + (5, 5), 0)),
    ],
)
def test_table_sizes_examples(count: int, size: int, expected: tuple[tuple[int, ...], int]) -> None:
    assert table_sizes(count, size) == expected


@pytest.mark.parametrize("size", [1, 7])
def test_only_tables_of_two_to_six(size: int) -> None:
    with pytest.raises(ValueError):
        table_sizes(8, size)
    with pytest.raises(ValueError):
        swiss(ids(8), {}, {}, size)
    with pytest.raises(ValueError):
        round_robin(ids(8), size, 1)


def test_swiss_ranks_no_one_twice() -> None:
    with pytest.raises(ValueError):
        swiss(["a", "b", "a"], {}, {}, 2)


@pytest.mark.parametrize(("count", "size"), [(8, 2), (7, 2), (10, 4), (16, 4), (13, 6), (9, 3)])
def test_swiss_first_round_is_rank_order_in_blocks(count: int, size: int) -> None:
    ranked = ids(count)[::-1]
    pairing = swiss(ranked, {}, {}, size)
    sizes, byes = table_sizes(count, size)
    starts = [sum(sizes[:i]) for i in range(len(sizes) + 1)]
    assert pairing.tables == tuple(tuple(ranked[a:b]) for a, b in pairwise(starts))
    assert pairing.byes == tuple(ranked[count - byes :])


def test_swiss_moves_the_fewest_players_down_for_a_rematch() -> None:
    ranked = ids(8)
    met = {frozenset(("p00", "p01")): 1}
    assert swiss(ranked, met, {}, 2).tables == (
        ("p00", "p02"),
        ("p01", "p03"),
        ("p04", "p05"),
        ("p06", "p07"),
    )


@pytest.mark.parametrize("seed", [0, 5])
def test_swiss_sixteen_at_fours_avoid_rematches_as_far_as_possible(seed: int) -> None:
    """Two rematch-free rounds of 16 at tables of 4 make a 4x4 grid, and a Latin square always
    gives a third; a fourth needs a square orthogonal to the third, which some lack (seed 0),
    so there the fewest repeats a brute force finds will do."""
    history = swiss_event(16, 4, 4, seed)
    assert [repeats(p, met) for _, met, p in history[:3]] == [0, 0, 0]
    ranked, met, pairing = history[3]
    got = repeats(pairing, met)
    assert got == 0 or got == brute_min(ranked, met, 4)


@pytest.mark.parametrize(
    ("count", "size", "rounds"),
    [(8, 2, 7), (7, 2, 6), (9, 3, 5), (10, 4, 4), (11, 5, 3), (12, 6, 3), (12, 3, 4)],
)
def test_swiss_repeats_no_more_than_a_brute_force(count: int, size: int, rounds: int) -> None:
    for seed in range(2):
        for ranked, met, pairing in swiss_event(count, size, rounds, seed):
            seated = [p for p in ranked if p not in pairing.byes]
            assert repeats(pairing, met) == brute_min(seated, met, size)


def test_swiss_repeats_no_more_than_a_brute_force_on_random_histories() -> None:
    """Crowded histories, some pairs met up to three times: the fewest repeats, weighted."""
    rng = random.Random(3)
    for _ in range(150):
        count, size = rng.randint(5, 10), rng.randint(2, 5)
        players = ids(count)
        met = {frozenset(pair): rng.choice((0, 1, 1, 2, 3)) for pair in combinations(players, 2)}
        pairing = swiss(players, met, {}, size)
        valid(pairing, players, size)
        seated = [p for p in players if p not in pairing.byes]
        assert repeats(pairing, met) == brute_min(seated, met, size)


def test_swiss_byes_rotate_to_the_lowest_ranked_without_one() -> None:
    byes: dict[str, int] = {}
    for ranked, _, pairing in swiss_event(7, 2, 7, seed=5):
        fewest = min(byes.get(p, 0) for p in ranked)
        eligible = [p for p in ranked if byes.get(p, 0) == fewest]
        assert pairing.byes == (eligible[-1],)
        played(pairing, {}, byes)
    assert byes == dict.fromkeys(ids(7), 1)


def test_swiss_bye_skips_the_last_when_they_had_one() -> None:
    ranked = ids(5)
    assert swiss(ranked, {}, {"p04": 1}, 2).byes == ("p03",)
    assert swiss(ranked, {}, dict.fromkeys(ranked[1:], 1), 2).byes == ("p00",)


def test_swiss_is_deterministic_whatever_the_order_of_the_history() -> None:
    ranked, met, pairing = swiss_event(24, 3, 5, seed=9)[-1]
    shuffled = list(met.items())
    random.Random(1).shuffle(shuffled)
    assert swiss(tuple(ranked), dict(shuffled), {}, 3) == pairing
    assert swiss(ranked, dict(reversed(shuffled)), {}, 3) == pairing


def test_pairing_is_the_same_in_every_process() -> None:
    """Nothing hangs on hash order (sets of ids, dictionaries keyed by pairs)."""
    script = (
        "from tests.core.test_pairing import swiss_event; from core.pairing import round_robin;"
        "print(swiss_event(13, 3, 5, 2)[-1][2], swiss_event(9, 2, 5, 2)[-1][2],"
        "[round_robin([str(i) for i in range(11)], 4, r) for r in (1, 2, 3)])"
    )
    runs = [
        subprocess.Popen(
            [sys.executable, "-c", script],
            env={**os.environ, "PYTHONHASHSEED": seed},
            stdout=subprocess.PIPE,
            text=True,
        )
        for seed in ("1", "2")
    ]
    outputs = [run.communicate(timeout=30)[0] for run in runs]
    assert all(run.returncode == 0 for run in runs)
    assert outputs[0] == outputs[1] != ""


@pytest.mark.parametrize("size", range(2, 7))
def test_swiss_pairs_sixty_four_quickly(size: int) -> None:
    """64 players with six random rounds behind them: fast, and with no rematch (there is room
    enough for one)."""
    rng = random.Random(size)
    players = ids(64)
    met: Met = {}
    for _ in range(6):
        played(swiss(rng.sample(players, 64), {}, {}, size), met, {})
    started = time.perf_counter()
    pairing = swiss(players, met, {}, size)
    took = time.perf_counter() - started
    valid(pairing, players, size)
    # Seated by rank alone they would repeat 3 (at twos) to 77 (at sixes) pairs. Six at a table
    # after six rounds (some 30 of 63 met) can still avoid them all, but finding how takes longer.
    by_rank = swiss(players, {}, {}, size)
    assert repeats(pairing, met) <= (0 if size < 6 else repeats(by_rank, met) // 10)
    assert took < 0.25  # about 20 ms here; the margin is for a loaded machine


def meetings(schedule: Sequence[Pairing]) -> Counter[frozenset[str]]:
    return Counter(pair for pairing in schedule for pair in pairs(pairing))


def test_round_robin_of_four_at_twos_meets_each_pair_once() -> None:
    players = ids(4)
    schedule = [round_robin(players, 2, r) for r in range(1, 4)]
    assert meetings(schedule) == Counter(frozenset(p) for p in combinations(players, 2))
    assert all(not p.byes for p in schedule)


def test_round_robin_of_five_at_twos_gives_each_one_bye() -> None:
    players = ids(5)
    schedule = [round_robin(players, 2, r) for r in range(1, 6)]
    assert meetings(schedule) == Counter(frozenset(p) for p in combinations(players, 2))
    assert sorted(b for p in schedule for b in p.byes) == players


@pytest.mark.parametrize("count", range(2, 17))
def test_round_robin_at_twos_is_berger_tables(count: int) -> None:
    players = ids(count)
    rounds = round_robin_rounds(count, 2)
    assert rounds == (count - 1 if count % 2 == 0 else count)
    schedule = [round_robin(players, 2, r) for r in range(1, rounds + 1)]
    for pairing in schedule:
        valid(pairing, players, 2)
    assert meetings(schedule) == Counter(frozenset(p) for p in combinations(players, 2))
    assert Counter(b for p in schedule for b in p.byes) == Counter(players * (count % 2))
    # Round robins go round: the round after the last is the first again.
    assert round_robin(players, 2, rounds + 1) == schedule[0]


@pytest.mark.parametrize("size", range(3, 7))
def test_round_robin_at_larger_tables_meets_every_pair(size: int) -> None:
    for count in range(2, 17):
        players = ids(count)
        rounds = round_robin_rounds(count, size)
        least = -(-(count - 1) // (size - 1))
        assert least <= rounds <= 2 * least
        schedule = [round_robin(players, size, r) for r in range(1, rounds + 1)]
        for pairing in schedule:
            valid(pairing, players, size)
        everyone = {frozenset(p) for p in combinations(players, 2)}
        assert set(meetings(schedule)) == everyone
        assert set(meetings(schedule[:-1])) != everyone  # and not a round sooner


def test_round_robin_meetings_spread_evenly() -> None:
    """Sixteen at fours meet each pair exactly once in five rounds (an affine plane)."""
    players = ids(16)
    assert round_robin_rounds(16, 4) == 5
    schedule = [round_robin(players, 4, r) for r in range(1, 6)]
    assert set(meetings(schedule).values()) == {1}


def test_round_robin_of_nobody_or_one() -> None:
    assert round_robin_rounds(0, 4) == round_robin_rounds(1, 2) == 0
    assert round_robin([], 3, 1) == Pairing(())
    assert round_robin(["a"], 2, 1) == round_robin(["a"], 5, 1) == Pairing((), ("a",))
    with pytest.raises(ValueError):
        round_robin(ids(4), 4, 0)


def test_round_robin_is_by_join_order() -> None:
    players = ids(9)
    renamed = [f"x{p}" for p in players]
    for size in (2, 4):
        for number in range(1, 5):
            ours = round_robin(players, size, number)
            theirs = round_robin(renamed, size, number)
            assert theirs.tables == tuple(tuple(f"x{p}" for p in t) for t in ours.tables)
            assert theirs.byes == tuple(f"x{p}" for p in ours.byes)
