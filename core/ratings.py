"""Skill ratings from finished games: the Weng–Lin Plackett–Luce model (openskill), made for
free-for-all rankings of any size, and the one whole number people are shown.

A rating is a belief about a player's skill: μ (its centre) and σ (how unsure it is). What
people read is the conservative μ − 3σ, scaled so that a newcomer shows 1000 and every point of
μ is 20: it rises as the bot learns how good someone is, and a regular of average strength
settles around 1400. Fewer than PROVISIONAL_GAMES games and the rating is provisional.

Both backends store μ and σ per scope (a chat, and every chat of a platform) and replay games
here in the order they were rated, so that a rebuild gives exactly the live ratings.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from core.identity import COMPUTER_PREFIX

if TYPE_CHECKING:
    from openskill.models import PlackettLuce

PROVISIONAL_GAMES = 5
BASE = 1000
SCALE = 20
TREND = 10  # games the statistics' trend looks back over
EVERYWHERE = ""  # the scope of a platform's every chat


@dataclass(frozen=True)
class Skill:
    mu: float
    sigma: float

    @property
    def shown(self) -> int:
        """The number people read: conservative (μ − 3σ), on a familiar scale."""
        return round(BASE + SCALE * (self.mu - 3 * self.sigma))


@cache
def _model() -> PlackettLuce:
    """openskill is imported with the first game rated, not at start-up."""
    from openskill.models import PlackettLuce

    return PlackettLuce()


def newcomer() -> Skill:
    model = _model()
    return Skill(model.mu, model.sigma)


@dataclass(frozen=True)
class Placing:
    """A seat of a finished game as the rating sees it."""

    player_id: str
    total: int
    big_general: bool


def rated_id(player_id: str) -> str:
    """Whom a seat's result rates: a person by their id, a computer by its level (every
    Master is one Master, whichever seat or game it played)."""
    if not player_id.startswith(COMPUTER_PREFIX):
        return player_id
    return player_id.rsplit("-", 1)[0]  # "cpu-master-2" (a seat) is "cpu-master" (the level)


def ranks(placings: Sequence[Placing]) -> list[int]:
    """The final ranking, 1 best: the big general's thrower first, the rest by total; equal
    totals share a rank."""

    def key(placing: Placing) -> tuple[int, int]:
        return (0 if placing.big_general else 1, -placing.total)

    keys = [key(p) for p in placings]
    return [1 + sum(other < mine for other in keys) for mine in keys]


def rate(placings: Sequence[Placing], before: Mapping[str, Skill]) -> dict[str, Skill]:
    """Everyone's skill after one game (keyed by `rated_id`), from their skills before it
    (a missing one is a newcomer's). A level seated twice is rated once, at its best place;
    everyone is still ranked against every seat. A game of one seat rates no one."""
    if len(placings) < 2:
        return {}
    model = _model()
    ids = [rated_id(p.player_id) for p in placings]
    prior = [before.get(i) or newcomer() for i in ids]
    teams = [[model.create_rating([skill.mu, skill.sigma])] for skill in prior]
    order = ranks(placings)
    after = model.rate(teams, ranks=[float(r) for r in order])
    best: dict[str, tuple[int, Skill]] = {}
    for rated, place, (rating,) in zip(ids, order, after, strict=True):
        if rated not in best or place < best[rated][0]:
            best[rated] = (place, Skill(rating.mu, rating.sigma))
    return {rated: skill for rated, (_, skill) in best.items()}


@dataclass(frozen=True)
class Rating:
    """A player's rating in a scope, as the leaderboard and statistics show it."""

    skill: Skill
    games: int
    best: int
    # The shown rating before the last TREND games and after each of them, oldest first.
    trend: tuple[int, ...] = ()

    @property
    def shown(self) -> int:
        return self.skill.shown

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


@dataclass(frozen=True)
class Change:
    """One player's rating in one scope, before and after a game (`before` None: their first),
    with their games and best after it."""

    scope: str
    player_id: str
    before: Skill | None
    after: Skill
    games: int
    best: int

    @property
    def delta(self) -> int:
        return self.after.shown - (self.before or newcomer()).shown

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


def changes(
    placings: Sequence[Placing], scopes: Sequence[str], stored: Mapping[tuple[str, str], Rating]
) -> list[Change]:
    """A game's changes in every scope it counts in, from the stored ratings by (scope, id)."""
    ids = list(dict.fromkeys(rated_id(p.player_id) for p in placings))
    found: list[Change] = []
    for scope in scopes:
        kept = {i: stored[scope, i] for i in ids if (scope, i) in stored}
        before = {i: rating.skill for i, rating in kept.items()}
        for player_id, skill in rate(placings, before).items():
            old = kept.get(player_id)
            games = old.games + 1 if old else 1
            best = max(old.best, skill.shown) if old else skill.shown
            found.append(Change(scope, player_id, before.get(player_id), skill, games, best))
    return found


def trend_of(rows: Sequence[Mapping[str, Any]]) -> tuple[int, ...]:
    """A Rating's trend from its latest changes (mu_before, sigma_before, mu, sigma), newest
    first."""
    if not rows:
        return ()
    oldest = rows[-1]
    before = oldest["mu_before"], oldest["sigma_before"]
    start = newcomer() if before[0] is None else Skill(*before)
    return (start.shown, *(Skill(row["mu"], row["sigma"]).shown for row in reversed(rows)))


def rating_of(row: Mapping[str, Any]) -> Rating:
    """A stored rating (a row with mu, sigma, games, best), as both backends read it."""
    return Rating(Skill(row["mu"], row["sigma"]), row["games"], row["best"])


def change_of(scope: str, row: Mapping[str, Any]) -> Change:
    """A stored change (player_id, mu_before, sigma_before, mu, sigma, games, best)."""
    before = row["mu_before"], row["sigma_before"]
    return Change(
        scope,
        row["player_id"],
        None if before[0] is None else Skill(*before),
        Skill(row["mu"], row["sigma"]),
        row["games"],
        row["best"],
    )
