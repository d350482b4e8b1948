"""Committed dice: each die a pure function of the game's secret seed and its place in the game,
so that the seed's hash, shown before the first throw, binds every throw. DICE.md defines it."""

from __future__ import annotations

import hashlib
import hmac
import itertools
import secrets
from enum import StrEnum
from typing import NamedTuple

SCHEME = "general-hmac-sha256-v1"  # named in every export, so that a verifier knows what it checks
SEED_BYTES = 32
FACES = 6
ACCEPT = 252  # the largest multiple of 6 up to 256: a byte from 252 up is rejected, never folded


class Stage(StrEnum):
    """A throw of the lot before the game, or of a turn in it."""

    LOT = "lot"
    TURN = "turn"


class Place(NamedTuple):
    """Where a die is thrown: the lot's round or the game's round, the seat (the lobby's join
    order for the lot, the seating order in play), the throw of the turn (1 in the lot), the die.
    (A named tuple: a million are made in a breath by the tests of the dice's fairness.)"""

    stage: Stage
    round: int
    seat: int
    throw: int
    die: int

    def message(self, attempt: int) -> bytes:
        stage, round_, seat, throw, die = self
        return f"{stage.value} {round_} {seat} {throw} {die} {attempt}".encode()


def new_seed() -> str:
    return secrets.token_hex(SEED_BYTES)


def is_seed(seed: str) -> bool:
    try:
        return len(bytes.fromhex(seed)) == SEED_BYTES
    except ValueError:
        return False


def commitment_of(seed: str) -> str:
    """SHA-256 of the seed's bytes, in hex: what the lobby shows before any die is thrown."""
    return hashlib.sha256(bytes.fromhex(seed)).hexdigest()


def face(seed: str, place: Place) -> int:
    return faces(seed, (place,))[0]


def faces(seed: str, places: tuple[Place, ...] | list[Place]) -> tuple[int, ...]:
    keyed = hmac.new(bytes.fromhex(seed), digestmod="sha256")  # the key's pads, made once
    return tuple(_face(keyed, place) for place in places)


def _face(keyed: hmac.HMAC, place: Place) -> int:
    """The die at `place`: the first byte below ACCEPT of HMAC-SHA256(seed, place's message),
    taken mod 6, plus 1 (each face exactly 1/6); a block of only rejected bytes (a chance of
    2^-192) moves on to the next attempt."""
    for attempt in itertools.count():
        mac = keyed.copy()
        mac.update(place.message(attempt))
        for byte in mac.digest():
            if byte < ACCEPT:
                return byte % FACES + 1
    raise AssertionError("unreachable")


def short(commitment: str) -> str:
    """The commitment's first 16 hex digits, in groups of four: enough to compare by eye."""
    head = commitment[:16]
    return " ".join(head[i : i + 4] for i in range(0, len(head), 4))
