"""The committed dice (DICE.md): fixed vectors, fairness over a million dice, a game's dice as
its seed's, and the check that finds a tampered throw, seed or seal."""

from __future__ import annotations

import dataclasses
import hashlib
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.actions import Open, Roll, Start
from core.dice import SecureRoller
from core.events import DiceRolled, Event, GameEnded, LobbyOpened, LotThrown
from core.fairdice import Place, Stage, commitment_of, face, faces, new_seed, short
from core.game import apply, open_lobby
from core.identity import PlayerRef
from core.rules import DEFAULT_VARIANTS
from core.verification import Finding, throws_of, verify
from tests.core.gamekit import CHANNEL, play_random_game

SEED = bytes(range(32)).hex()  # 000102…1f, the seed of DICE.md's vectors
# (message, die): each checked against `openssl dgst -sha256 -mac HMAC -macopt hexkey:<SEED>`.
VECTORS = (
    ("lot 1 0 1 0", 1),
    ("lot 1 0 1 1", 3),
    ("turn 1 0 1 0", 1),
    ("turn 1 0 1 2", 6),
    ("turn 3 1 2 4", 6),
    ("turn 10 2 3 0", 4),
    ("turn 2 3 2 2", 2),  # its first byte, 255, is rejected; the next, 187, gives the die
)
# Chi-square with 5 degrees of freedom: a fair die exceeds it once in a thousand samples.
CHI_SQUARE_5_AT_0_001 = 20.515
ANNA, BORIS = PlayerRef("1", "Anna"), PlayerRef("2", "Boris")


def place(text: str) -> Place:
    stage, *numbers = text.split()
    return Place(Stage(stage), *map(int, numbers))


def chi_square(counts: Counter[int]) -> float:
    expected = sum(counts.values()) / 6
    return sum((counts[f] - expected) ** 2 / expected for f in range(1, 7))


@pytest.mark.parametrize(("message", "die"), VECTORS)
def test_the_vectors_of_dice_md(message: str, die: int) -> None:
    assert face(SEED, place(message)) == die


def test_the_seal_is_sha256_of_the_seed_s_bytes_and_its_short_form_its_head() -> None:
    seal = "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
    assert commitment_of(SEED) == seal == hashlib.sha256(bytes(range(32))).hexdigest()
    assert short(seal) == "630d cd29 66c4 3366"
    assert len({new_seed() for _ in range(100)}) == 100 and len(new_seed()) == 64


def test_a_first_throw_is_the_seed_s_at_round_1_seat_0_throw_1() -> None:
    """DICE.md's worked example: 1-3-6-2-6, through the game's own transitions."""
    game, _ = open_lobby("g", CHANNEL, ANNA, Open(), seed=SEED)
    game, _ = apply(game, ANNA, Start(), SecureRoller())
    game, events = apply(game, ANNA, Roll(), SecureRoller())
    assert events[0] == DiceRolled(ANNA.id, 1, (1, 3, 6, 2, 6), (False,) * 5)


def test_a_million_dice_are_fair_on_every_face_and_every_position() -> None:
    """200,000 five-dice throws over 400 seeds: each face 1/6, overall and at each of the five
    positions (folding the four bytes over 251 in instead of rejecting them would push the
    overall figure above 100)."""
    overall: Counter[int] = Counter()
    by_position = [Counter[int]() for _ in range(5)]
    for number in range(400):
        seed = hashlib.sha256(f"fairness {number}".encode()).hexdigest()
        places = [
            Place(Stage.TURN, r, s, t, d)
            for r in range(1, 11)
            for s in range(50)
            for t in (1,)
            for d in range(5)
        ]
        thrown = faces(seed, places)
        overall.update(thrown)
        for position in range(5):
            by_position[position].update(thrown[position::5])
    assert sum(overall.values()) == 1_000_000
    assert chi_square(overall) < CHI_SQUARE_5_AT_0_001
    for counts in by_position:
        assert chi_square(counts) < CHI_SQUARE_5_AT_0_001


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 4), st.booleans())
def test_every_random_game_s_dice_are_its_seed_s(number: int, count: int, leaving: bool) -> None:
    """Random holds, stops and leaves: every throw, lot included, is the seed's at its place,
    the log tells the seal first and the seed last, and the check finds all of them."""
    seed = hashlib.sha256(str(number).encode()).hexdigest()
    players = [PlayerRef(str(n), f"P{n}") for n in range(count)]
    rng = random.Random(number)
    game, log = play_random_game(
        players, DEFAULT_VARIANTS, 0, rng, 0.02 if leaving else 0.0, sealed_with=seed
    )
    opened, ended = log[0], [e for e in log if isinstance(e, GameEnded)]
    assert isinstance(opened, LobbyOpened) and opened.commitment == commitment_of(seed)
    assert len(ended) == 1 and ended[0].seed == seed == game.seed
    throws = throws_of(log)
    assert len(throws) == sum(isinstance(e, DiceRolled | LotThrown) for e in log)
    for throw in throws:
        fresh = [throw.dice[d] for d in range(5) if not throw.held[d]]
        assert fresh == list(faces(seed, throw.places()))
    verdict = verify(log)
    assert verdict.ok and verdict.throws == len(throws), verdict


def a_verified_game() -> list[Event]:
    seed = hashlib.sha256(b"tamper").hexdigest()
    _, log = play_random_game(
        [ANNA, BORIS], DEFAULT_VARIANTS, 0, random.Random(7), sealed_with=seed
    )
    assert verify(log).ok
    return log


def test_a_tampered_throw_is_named() -> None:
    log = a_verified_game()
    index, rolled = next(
        (i, e) for i, e in enumerate(log) if isinstance(e, DiceRolled) and e.throw == 2
    )
    changed = next(d for d in range(5) if not rolled.held[d])
    dice = list(rolled.dice)
    dice[changed] = dice[changed] % 6 + 1
    log[index] = dataclasses.replace(rolled, dice=tuple(dice))
    verdict = verify(log)
    number = sum(isinstance(e, DiceRolled | LotThrown) for e in log[:index]) + 1
    assert verdict.finding is Finding.MISMATCH and verdict.throws == number - 1
    assert verdict.first_bad is not None and verdict.first_bad.dice == tuple(dice)
    assert verdict.expected == rolled.dice


def test_a_held_die_that_changed_is_named() -> None:
    log = a_verified_game()
    index, rolled = next(
        (i, e) for i, e in enumerate(log) if isinstance(e, DiceRolled) and any(e.held)
    )
    held = rolled.held.index(True)
    dice = list(rolled.dice)
    dice[held] = dice[held] % 6 + 1
    log[index] = dataclasses.replace(rolled, dice=tuple(dice))
    assert verify(log).finding is Finding.MISMATCH


def test_a_throw_told_twice_or_skipped_is_out_of_order() -> None:
    log = a_verified_game()
    index = next(i for i, e in enumerate(log) if isinstance(e, DiceRolled) and e.throw == 1)
    twice = [*log[: index + 1], log[index], *log[index + 1 :]]
    assert verify(twice).finding is Finding.ORDER
    rolled = log[index]
    assert isinstance(rolled, DiceRolled)
    skipped = [*log[:index], dataclasses.replace(rolled, throw=2), *log[index + 1 :]]
    assert verify(skipped).finding is Finding.ORDER


def test_another_seed_or_seal_fails_the_check() -> None:
    log = a_verified_game()
    end = next(i for i, e in enumerate(log) if isinstance(e, GameEnded))
    ended = log[end]
    assert isinstance(ended, GameEnded)
    other = new_seed()
    reseeded = [*log[:end], dataclasses.replace(ended, seed=other), *log[end + 1 :]]
    assert verify(reseeded).finding is Finding.BAD_SEED
    opened = log[0]
    assert isinstance(opened, LobbyOpened)
    # A seal made for another seed, with that seed revealed: the seal holds, the throws do not.
    resealed = [dataclasses.replace(opened, commitment=commitment_of(other)), *reseeded[1:]]
    assert verify(resealed).finding is Finding.MISMATCH
    unsealed = [dataclasses.replace(opened, commitment=""), *log[1:]]
    assert verify(unsealed).finding is Finding.NOT_COMMITTED
    assert verify(log[:end]).finding is Finding.NOT_REVEALED


def test_a_sealed_game_cannot_throw() -> None:
    """A game handed out in play holds no seed: its dice would not be the committed ones, so
    it refuses to throw rather than throw others."""
    game, _ = open_lobby("g", CHANNEL, ANNA, Open(), seed=SEED)
    game, _ = apply(game, ANNA, Start(), SecureRoller())
    assert game.sealed().seed == "" and game.sealed().commitment == game.commitment
    with pytest.raises(ValueError, match="sealed"):
        apply(game.sealed(), ANNA, Roll(), SecureRoller())


def test_the_old_dice_have_no_seal_and_nothing_to_check() -> None:
    game, events = open_lobby("g", CHANNEL, ANNA, Open(committed=False))
    assert game.commitment == game.seed == "" and events[0] == LobbyOpened(ANNA.id)
    _, log = play_random_game([ANNA], DEFAULT_VARIANTS, 3, random.Random(3))
    assert verify(log).finding is Finding.NOT_COMMITTED
