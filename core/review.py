"""The post-game review: each decision a player made, weighed against the exact best play.

Rebuilt from the event log alone: after every throw the player either rolled again holding some
dice (the next throw's held flags) or wrote a box. The loss of a decision is the expected final
score of the best choice minus that of the choice made, both under optimal play afterwards.
Weighed by win chances as well (`story`), a decision also costs the mover's win share after the
choice that wins most minus after theirs, everyone seated then counted (core.winplay); and the
game becomes a story: every player's win chance after each turn, its big moments, its turning
point. STRATEGY.md ("The review") defines the grades and the turning point.
The log is read as it stands: a box taken back is no decision (core.takeback).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum

from core.boxes import ALL_BOXES, Box
from core.chances import Standing, win_shares
from core.dice import Dice
from core.events import (
    BigGeneralThrown,
    BoxScored,
    DiceRolled,
    Event,
    GameEnded,
    GameStarted,
    PlayerLeft,
    PlayerRemoved,
    TurnStarted,
    TurnTimedOut,
)
from core.luck import Cause, Ledger, Luck, Unit
from core.rules import Variants
from core.strategy import Choice, expected_game, judge, open_mask, solution
from core.takeback import standing
from core.winplay import choice_shares

# Losses below this are rounding, not mistakes (points, and win shares).
NOISE = 1e-6
# Win chances are weighed at tables up to this size: beyond it a review would take seconds.
CHANCE_SEATS = 10


class Grade(Enum):
    """How much win chance a decision gave away."""

    BEST = "best"
    GOOD = "good"
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"


# Each grade but the blunder, below its bound of win share lost (0.005 is half a percentage point).
GRADE_BOUNDS = (
    (NOISE, Grade.BEST),
    (0.005, Grade.GOOD),
    (0.02, Grade.INACCURACY),
    (0.05, Grade.MISTAKE),
)
LEAD_MARGIN = 0.02  # a lead changes hands when another's win chance is this much higher
ERRORS = (Grade.BLUNDER, Grade.MISTAKE, Grade.INACCURACY)  # what a review counts, worst first


def grade_of(chance_lost: float) -> Grade:
    return next((grade for bound, grade in GRADE_BOUNDS if chance_lost < bound), Grade.BLUNDER)


@dataclass(frozen=True)
class Decision:
    round: int
    throw: int
    dice: Dice
    chosen: Choice
    best: Choice  # the most expected points
    winning: Choice | None = None  # the highest win share (weighed reviews only)
    won_best: float = 0.0  # the mover's win share after `winning`
    won_chosen: float = 0.0  # and after `chosen`

    @property
    def loss(self) -> float:
        return max(0.0, self.best.expected - self.chosen.expected)

    @property
    def chance_lost(self) -> float:
        """The win share given away (0 where the review was not weighed by win chances)."""
        return max(0.0, self.won_best - self.won_chosen)

    @property
    def grade(self) -> Grade:
        return grade_of(self.chance_lost)


@dataclass
class PlayerReview:
    player_id: str
    decisions: list[Decision] = field(default_factory=list)
    luck: Luck | None = None  # their dice against their decisions (core.luck)

    @property
    def lost(self) -> float:
        """Expected points given away against optimal play over the whole game."""
        return sum(d.loss for d in self.decisions)

    @property
    def costly(self) -> list[Decision]:
        """The decisions that cost points, costliest first."""
        return sorted((d for d in self.decisions if d.loss > NOISE), key=lambda d: -d.loss)

    @property
    def costliest(self) -> Decision | None:
        """The decision that gave away the most win chance (the most points among equals)."""
        costing = [d for d in self.decisions if d.chance_lost > NOISE or d.loss > NOISE]
        return max(costing, key=lambda d: (d.chance_lost, d.loss), default=None)

    @property
    def grades(self) -> Counter[Grade]:
        return Counter(d.grade for d in self.decisions)

    def accuracy(self, variants: Variants) -> float:
        """100 for flawless play, less by the share of the optimal game's expectation given away."""
        return max(0.0, 100.0 * (1.0 - self.lost / expected_game(variants)))


class MomentKind(Enum):
    BIG_GENERAL = "big"  # five of a kind on a first throw, ending the game
    GENERAL = "general"  # five of a kind written in General
    LEAD = "lead"  # a new player has the highest win chance


@dataclass(frozen=True)
class Moment:
    point: int  # where in the series it shows: the point after the turn it happened in
    kind: MomentKind
    player_id: str


@dataclass(frozen=True)
class TurnPlayed:
    """One turn, as the story tells it: who, and what they wrote (None: a big general, or they
    left in the middle of it)."""

    round: int
    player_id: str
    box: Box | None = None
    points: int = 0
    big_general: bool = False


@dataclass(frozen=True)
class TurningPoint:
    """The turn that raised an eventual winner's win chance the most."""

    turn: int  # index into Story.turns
    winner_id: str
    before: float
    after: float

    @property
    def rise(self) -> float:
        return self.after - self.before


@dataclass(frozen=True)
class Story:
    """A finished game weighed by win chances: `chances[i]` are the seats' win shares before
    turn i (`turns[i]`), the last point the result (1 for a winner, shared; 0 for the others)."""

    reviews: dict[str, PlayerReview]
    seats: tuple[str, ...]
    chances: tuple[tuple[float, ...], ...]
    turns: tuple[TurnPlayed, ...]
    moments: tuple[Moment, ...]
    turning: TurningPoint | None

    def series(self, player_id: str) -> tuple[float, ...]:
        """One player's win chance from the start to the end."""
        seat = self.seats.index(player_id)
        return tuple(point[seat] for point in self.chances)


@dataclass
class _Sheet:
    open: list[Box] = field(default_factory=lambda: list(ALL_BOXES))
    total: int = 0
    playing: bool = True


class _Walk:
    """The log read event by event: the sheets, the decisions and, when weighing, the chances."""

    def __init__(self, variants: Variants, weigh: bool) -> None:
        self.variants, self.weigh = variants, weigh
        self.sheets: dict[str, _Sheet] = {}  # seating order
        self.reviews: dict[str, PlayerReview] = {}
        self.round = 0
        self.last: tuple[int, Dice] | None = None
        self.stand_in = False  # the bot plays the rest of a timed-out turn: not their decisions
        self.chances: list[tuple[float, ...]] = []
        self.turns: list[TurnPlayed] = []
        self.turn: TurnPlayed | None = None
        self.ended = False  # with winners
        self.ledger = Ledger(Unit.SHARE if weigh else Unit.POINTS)
        self.big: str | None = None  # who threw the big general that ends the game

    def standings(self) -> list[Standing]:
        return [Standing(s.total, frozenset(s.open), s.playing) for s in self.sheets.values()]

    def seat(self, player_id: str) -> int:
        return list(self.sheets).index(player_id)

    def decide(self, player_id: str, throw: int, dice: Dice, chosen: Choice) -> None:
        sheet = self.sheets.setdefault(player_id, _Sheet())
        made, best = judge(self.variants, sheet.open, dice, throw, chosen, sheet.total)
        decision = Decision(self.round, throw, dice, made, best)
        if self.weigh:
            decision = self.weighed(decision, player_id)
            values = decision.won_best, decision.won_chosen
        else:
            values = best.expected, made.expected
        self.ledger.decided(player_id, self.round, throw, *values)
        review = self.reviews.setdefault(player_id, PlayerReview(player_id))
        review.decisions.append(decision)

    def weighed(self, decision: Decision, player_id: str) -> Decision:
        standings, seat = self.standings(), self.seat(player_id)
        dice, throw, chosen = decision.dice, decision.throw, decision.chosen
        shares = choice_shares(self.variants, standings, seat, dice, throw)
        winning, won_best = max(shares, key=lambda pair: pair[1])
        mine = [s for c, s in shares if c.box == chosen.box and c.keep == chosen.keep]
        if not mine:  # all five held, in an older log: the same dice one throw later (judge)
            later = choice_shares(self.variants, standings, seat, dice, throw + 1)
            mine = [max(share for _, share in later)]
        return Decision(
            decision.round, throw, dice, chosen, decision.best, winning, won_best, mine[0]
        )

    def point(self, player_id: str) -> None:
        """The win shares as a turn of `player_id` starts; the turn before it ends here."""
        self.close()
        if self.weigh:
            shares = win_shares(self.variants, self.standings(), self.seat(player_id))
            self.chances.append(shares)
            for seated, share in zip(self.sheets, shares, strict=True):
                self.ledger.read(seated, share, self.round)
        else:
            sheet = self.sheets[player_id]
            rest = solution(self.variants).value[open_mask(sheet.open)]
            self.ledger.read(player_id, sheet.total + float(rest), self.round)
        self.turn = TurnPlayed(self.round, player_id)

    def close(self) -> None:
        if self.turn is not None:
            self.turns.append(self.turn)
            self.turn = None

    def read(self, event: Event) -> None:
        match event:
            case GameStarted(order=order):
                self.sheets = {pid: _Sheet() for pid in order}
            case TurnStarted(player_id=pid, round=number):
                self.round, self.last, self.stand_in, self.big = number, None, False, None
                self.sheets.setdefault(pid, _Sheet())
                self.point(pid)
            case TurnTimedOut():
                self.stand_in, self.last = True, None
            case DiceRolled(player_id=pid, throw=throw, dice=dice, held=held):
                if self.stand_in:
                    return
                if self.last is not None and throw > 1:
                    thrown, shown = self.last
                    kept = tuple(sorted(d for d, h in zip(shown, held, strict=True) if h))
                    self.decide(pid, thrown, shown, Choice(0.0, keep=kept))
                self.last = (throw, dice)
            case BoxScored(player_id=pid, box=box, points=points, dice=dice, throw=throw):
                if not self.stand_in:
                    self.decide(pid, throw, dice, Choice(0.0, box=box))
                sheet = self.sheets.setdefault(pid, _Sheet())
                sheet.open.remove(box)
                sheet.total += points
                self.last = None
                if self.turn is not None:
                    self.turn = TurnPlayed(self.turn.round, pid, box, points)
            case BigGeneralThrown(player_id=pid):
                self.big = pid
                if self.turn is not None:
                    self.turn = TurnPlayed(self.turn.round, pid, big_general=True)
            case PlayerLeft(player_id=pid) | PlayerRemoved(player_id=pid) if pid in self.sheets:
                self.sheets[pid].playing = False
            case GameEnded(winners=winners):
                self.finish(winners)

    def finish(self, winners: tuple[str, ...]) -> None:
        """The result: each one's share of the win (weighed), else their final score; a big
        general's last change is its thrower's dice. Points cannot weigh the win a big general
        is: there each one's result is their expected score had the game gone on."""
        if self.weigh:
            if not winners:
                return
            self.close()
            self.ended = True
            share = 1.0 / len(winners)
            self.chances.append(tuple(share if p in winners else 0.0 for p in self.sheets))
            results = dict(zip(self.sheets, self.chances[-1], strict=True))
        elif self.big is None:
            results = {p: float(sheet.total) for p, sheet in self.sheets.items()}
        else:
            results = {p: self.going_on(p) for p in self.sheets}
        for player_id, result in results.items():
            thrown = player_id == self.big
            cause = Cause.DICE if thrown else Cause.REST
            self.ledger.read(player_id, result, self.round, int(thrown), cause)

    def going_on(self, player_id: str) -> float:
        """The expected final score as if the game went on: the big general's thrower from the
        five of a kind (the best choice it offers), the others from where they stand."""
        sheet = self.sheets[player_id]
        if player_id == self.big and self.last is not None and sheet.open:
            throw, dice = self.last
            chosen = Choice(0.0, box=sheet.open[0])
            return judge(self.variants, sheet.open, dice, throw, chosen, sheet.total)[1].expected
        return sheet.total + float(solution(self.variants).value[open_mask(sheet.open)])

    def reviewed(self) -> dict[str, PlayerReview]:
        """Each player's review with their luck (core.luck) beside it."""
        for player_id, luck in self.ledger.lucks().items():
            if player_id in self.reviews:
                self.reviews[player_id].luck = luck
        return self.reviews


def review(events: Iterable[Event], variants: Variants) -> dict[str, PlayerReview]:
    """Each player's decisions weighed in expected points (fast: every finished game is); a box
    taken back is no decision (core.takeback.standing)."""
    walk = _Walk(variants, weigh=False)
    for event in standing(events):
        walk.read(event)
    return walk.reviewed()


def story(events: Iterable[Event], variants: Variants) -> Story | None:
    """The review weighed by win chances as well, and the game's win chances turn by turn;
    None for a table too big to weigh quickly, a game that did not finish with a winner, or a
    solo game (it always wins: its chances say nothing, its expected points do)."""
    log = standing(events)
    seated = next((len(e.order) for e in log if isinstance(e, GameStarted)), 0)
    if not 1 < seated <= CHANCE_SEATS:
        return None
    walk = _Walk(variants, weigh=True)
    for event in log:
        walk.read(event)
    if not walk.ended or not walk.turns:
        return None
    seats = tuple(walk.sheets)
    chances, turns = tuple(walk.chances), tuple(walk.turns)
    moments = (*_generals(turns), *_lead_changes(seats, chances))
    return Story(
        walk.reviewed(),
        seats,
        chances,
        turns,
        tuple(sorted(moments, key=lambda m: m.point)),
        _turning_point(seats, chances),
    )


def _generals(turns: tuple[TurnPlayed, ...]) -> list[Moment]:
    found: list[Moment] = []
    for index, turn in enumerate(turns):
        if turn.big_general:
            found.append(Moment(index + 1, MomentKind.BIG_GENERAL, turn.player_id))
        elif turn.box is Box.GENERAL and turn.points > 0:
            found.append(Moment(index + 1, MomentKind.GENERAL, turn.player_id))
    return found


def _lead_changes(seats: tuple[str, ...], chances: tuple[tuple[float, ...], ...]) -> list[Moment]:
    """Where another player's win chance passes the leader's by LEAD_MARGIN: the lead changes
    hands (the start's near-equal chances would otherwise cross at every turn)."""
    found: list[Moment] = []
    leader = max(range(len(seats)), key=lambda seat: chances[0][seat])
    for point, shares in enumerate(chances[1:], start=1):
        if max(shares) - shares[leader] >= LEAD_MARGIN:
            leader = max(range(len(seats)), key=lambda seat: shares[seat])
            found.append(Moment(point, MomentKind.LEAD, seats[leader]))
    return found


def _turning_point(
    seats: tuple[str, ...], chances: tuple[tuple[float, ...], ...]
) -> TurningPoint | None:
    """The turn with the largest rise in a winner's win chance (the earliest among equals)."""
    winners = [seat for seat, share in enumerate(chances[-1]) if share > 0]
    best: TurningPoint | None = None
    for turn in range(len(chances) - 1):
        for seat in winners:
            before, after = chances[turn][seat], chances[turn + 1][seat]
            if after - before > NOISE and (best is None or after - before > best.rise + NOISE):
                best = TurningPoint(turn, seats[seat], before, after)
    return best
