"""Dice and the rollers that throw them; randomness is injected so games can be replayed."""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable
from typing import Protocol

DICE_COUNT = 5
FACES = 6

Dice = tuple[int, ...]


class Roller(Protocol):
    """Throws `count` six-sided dice."""

    def roll(self, count: int) -> Dice: ...


class SecureRoller:
    """The production roller: the operating system's cryptographic randomness."""

    def roll(self, count: int) -> Dice:
        return tuple(secrets.randbelow(FACES) + 1 for _ in range(count))


class SeededRoller:
    """Reproducible dice for simulations and property tests."""

    def __init__(self, seed: int | str) -> None:
        self._random = random.Random(seed)

    def roll(self, count: int) -> Dice:
        return tuple(self._random.randint(1, FACES) for _ in range(count))


class ScriptedRoller:
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
