"""Dice and the rollers that throw them; randomness is injected so games can be replayed."""

from __future__ import annotations

import random
import secrets
from abc import ABC, abstractmethod
from collections.abc import Iterable
from typing import Protocol

from core.fairdice import FACES as FACES
from core.fairdice import Place, faces

DICE_COUNT = 5

Dice = tuple[int, ...]


class Roller(Protocol):
    """Throws a die at each of `places` of the game whose seed is `seed` ("": a game of the
    old, uncommitted dice)."""

    def throw(self, seed: str, places: tuple[Place, ...]) -> Dice: ...


class SecureRoller:
    """The production roller: a game's committed dice (core.fairdice) where it has a seed,
    else the operating system's cryptographic randomness."""

    def throw(self, seed: str, places: tuple[Place, ...]) -> Dice:
        if seed:
            return faces(seed, places)
        return tuple(secrets.randbelow(FACES) + 1 for _ in places)


class CountingRoller(ABC):
    """A roller that throws dice by the number, whatever the game's seed: the simulations' and
    the tests' dice."""

    def throw(self, seed: str, places: tuple[Place, ...]) -> Dice:
        return self.roll(len(places))

    @abstractmethod
    def roll(self, count: int) -> Dice: ...


class SeededRoller(CountingRoller):
    """Reproducible dice for simulations and property tests."""

    def __init__(self, seed: int | str) -> None:
        self._random = random.Random(seed)

    def roll(self, count: int) -> Dice:
        return tuple(self._random.randint(1, FACES) for _ in range(count))


class ScriptedRoller(CountingRoller):
    """Dice given in advance, face by face, for tests that need an exact game."""

    def __init__(self, faces: Iterable[int] = ()) -> None:
        self._faces: list[int] = []
        self.push(faces)

    def push(self, faces: Iterable[int]) -> None:
        values = list(faces)
        if any(not 1 <= face <= FACES for face in values):
            raise ValueError(f"faces must be 1..{FACES}: {values}")
        self._faces.extend(values)

    @property
    def remaining(self) -> int:
        return len(self._faces)

    def roll(self, count: int) -> Dice:
        if count > len(self._faces):
            raise RuntimeError(f"scripted roller ran out: wanted {count}, has {len(self._faces)}")
        thrown, self._faces = self._faces[:count], self._faces[count:]
        return tuple(thrown)


def counts(dice: Dice) -> tuple[int, ...]:
    """How many dice show each face, faces 1…6."""
    return tuple(dice.count(face) for face in range(1, FACES + 1))


def is_five_of_a_kind(dice: Dice) -> bool:
    return len(dice) == DICE_COUNT and len(set(dice)) == 1
