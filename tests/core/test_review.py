"""The post-game review (core.review): known mistakes found with the engine's losses, a Master's
flawless game, the review through GameService on a real SQLite file, and the story weighed by
win chances against the chances of the live games."""

from __future__ import annotations

import itertools
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from adapters.sqlite import SqliteRepository
from core.actions import Action, AddComputer, Hold, Join, Leave, Open, Roll, Score, Start
from core.boxes import ALL_BOXES, Box
from core.chances import Standing, game_shares
from core.computer import level_of, next_action
from core.dice import DICE_COUNT, CountingRoller, Dice, ScriptedRoller, SeededRoller
from core.errors import ErrorCode, GameError
from core.events import (
    BigGeneralThrown,
    BoxScored,
    DiceRolled,
    EndReason,
    Event,
    GameEnded,
    GameStarted,
    TurnStarted,
)
from core.game import apply, open_lobby
from core.identity import ChannelKey, PlayerRef
from core.levels import Level
from core.review import (
    CHANCE_SEATS,
    LEAD_MARGIN,
    Grade,
    Moment,
    MomentKind,
    Story,
    TurningPoint,
    TurnPlayed,
    grade_of,
    review,
    story,
)
from core.rules import BigGeneralMode, Variants
from core.service import GameService
from core.strategy import Choice, choices, expected_game
from core.table import Game, Phase
from core.winplay import choice_shares
from tests.core.gamekit import ALICE, BOB, CHANNEL, PLAYERS, play_random_game, started

DEFAULT = Variants()
EXACT = 1e-9
SIXES_MISTAKE = (2, 2, 4, 6, 5)  # round 1, last throw: writes Sixes, Twos is better
KEEP_MISTAKE = (5, 5, 5, 3, 1)  # round 2, first throw: keeps 5-5-5-3, 5-5-5 alone is better
KEEP_MISTAKE_HELD = frozenset({0, 1, 2, 3})


class ScriptThenSeeded(CountingRoller):
    """Scripted dice while the script lasts (ScriptedRoller), then reproducible random ones."""

    def __init__(self, seed: int) -> None:
        self.script = ScriptedRoller()
        self._seeded = SeededRoller(seed)

    def roll(self, count: int) -> Dice:
        if self.script.remaining:
            return self.script.roll(count)
        return self._seeded.roll(count)


def option(options: list[Choice], *, box: Box | None = None, keep: tuple[int, ...] = ()) -> Choice:
    if box is not None:
        return next(o for o in options if o.box is box)
    return next(o for o in options if o.keep == keep)


def alice_plays(game: Game, roller: ScriptThenSeeded) -> Action:
    """Alice plays like a Master except for two scripted mistakes, pushing the dice she meets."""
    turn = game.turn
    held = frozenset(i for i, h in enumerate(turn.held) if h)
    if game.round == 1:
        if turn.throws == 0:
            roller.script.push(SIXES_MISTAKE)
            return Roll()
        if turn.throws == 3:
            return Score(Box.SIXES)
        action = next_action(game, Level.MASTER)
        assert not isinstance(action, Score)  # Master keeps some dice here (the twos)
        if isinstance(action, Roll):  # the same dice come again where they were thrown
            roller.script.push(SIXES_MISTAKE[i] for i in range(DICE_COUNT) if i not in held)
        return action
    if game.round == 2 and turn.throws <= 1:
        if turn.throws == 0:
            roller.script.push(KEEP_MISTAKE)
            return Roll()
        return Roll() if held == KEEP_MISTAKE_HELD else Hold(KEEP_MISTAKE_HELD)
    return next_action(game, Level.MASTER)


def play_with_mistakes(seed: int) -> tuple[Game, list[Event]]:
    roller = ScriptThenSeeded(seed)
    game, events = open_lobby("g-review", CHANNEL, ALICE, Open(DEFAULT))
    log = list(events)
    game, events = apply(game, ALICE, Start(), roller)
    log += events
    while game.phase is Phase.PLAYING:
        game, events = apply(game, ALICE, alice_plays(game, roller), roller)
        log += events
    return game, log


def engine_losses() -> tuple[float, float]:
    """The two mistakes' losses straight from the engine's choices."""
    round_1 = choices(DEFAULT, list(ALL_BOXES), SIXES_MISTAKE, 3, total=0)
    sixes_loss = option(round_1, box=Box.TWOS).expected - option(round_1, box=Box.SIXES).expected
    assert round_1[0].box is Box.TWOS
    open_2: list[Box] = [b for b in ALL_BOXES if b is not Box.SIXES]
    round_2 = choices(DEFAULT, open_2, KEEP_MISTAKE, 1, total=6)
    assert round_2[0].keep == (5, 5, 5)
    keep_loss = round_2[0].expected - option(round_2, keep=(3, 5, 5, 5)).expected
    return sixes_loss, keep_loss


def test_review_finds_the_sixes_mistake_as_the_costliest() -> None:
    game, log = play_with_mistakes(seed=3)
    assert game.phase is Phase.FINISHED
    reviews = review(log, DEFAULT)
    assert set(reviews) == {ALICE.id}
    alice = reviews[ALICE.id]
    sixes_loss, keep_loss = engine_losses()
    assert 7.9 < sixes_loss < 7.92 and 2 < keep_loss < sixes_loss

    worst, second = alice.costly
    assert (worst.round, worst.throw, worst.dice) == (1, 3, SIXES_MISTAKE)
    assert worst.chosen.box is Box.SIXES and worst.best.box is Box.TWOS
    assert worst.loss == pytest.approx(sixes_loss, abs=EXACT)

    assert (second.round, second.throw, tuple(second.dice)) == (2, 1, KEEP_MISTAKE)
    assert second.chosen.keep == (3, 5, 5, 5) and second.best.keep == (5, 5, 5)
    assert second.loss == pytest.approx(keep_loss, abs=EXACT)

    # Everything else was Master's play: nothing more was lost.
    assert alice.lost == pytest.approx(sixes_loss + keep_loss, abs=EXACT)
    assert alice.accuracy(DEFAULT) == pytest.approx(
        100 * (1 - (sixes_loss + keep_loss) / expected_game(DEFAULT)), abs=EXACT
    )
    # One decision after every throw but a game-ending big general.
    throws = sum(1 for e in log if isinstance(e, DiceRolled))
    big = sum(1 for e in log if isinstance(e, BigGeneralThrown))
    assert len(alice.decisions) == throws - big
    # The round-1 keeps (Master's twos) were found from the held flags and cost nothing.
    first_turn = [d for d in alice.decisions if d.round == 1]
    assert [d.throw for d in first_turn] == [1, 2, 3]
    assert [d.chosen.keep for d in first_turn[:2]] == [(2, 2), (2, 2)]
    assert all(d.loss < EXACT for d in first_turn[:2])


def test_a_master_computer_loses_nothing_and_weaker_levels_do() -> None:
    roller = SeededRoller(8)
    game, events = open_lobby("g-cpu", CHANNEL, ALICE, Open(DEFAULT))
    log = list(events)
    for level in (Level.MASTER, Level.CLUB, Level.NOVICE):
        game, events = apply(game, ALICE, AddComputer(level, level.value), roller)
        log += events
    game, events = apply(game, ALICE, Start(), roller)
    log += events
    while game.phase is Phase.PLAYING:
        player = game.seats[game.current].player
        level = level_of(player) or Level.MASTER  # the human plays like a Master too
        game, events = apply(game, player, next_action(game, level), roller)
        log += events

    reviews = review(log, DEFAULT)
    by_level = {level_of(pid): r for pid, r in reviews.items()}
    assert set(by_level) == {None, Level.MASTER, Level.CLUB, Level.NOVICE}
    for flawless in (by_level[Level.MASTER], by_level[None]):
        assert len(flawless.decisions) >= 10
        assert flawless.lost == pytest.approx(0, abs=EXACT)
        assert flawless.costly == []
        assert flawless.accuracy(DEFAULT) == pytest.approx(100, abs=EXACT)
    assert by_level[Level.CLUB].lost > 0
    assert by_level[Level.NOVICE].lost > 0
    for weaker in (by_level[Level.CLUB], by_level[Level.NOVICE]):
        losses = [d.loss for d in weaker.costly]
        assert losses == sorted(losses, reverse=True)
        assert weaker.accuracy(DEFAULT) < 100


def test_the_review_never_names_a_throw_of_no_dice_as_better() -> None:
    """Random play and every computer level over several seeds: each decision's better choice
    is a box or a keep that throws at least one die, the best that choices() lists."""
    rng = random.Random(14)
    for seed in range(6):
        variants = rng.choice([DEFAULT, Variants(big_general=BigGeneralMode.SCORES_SIXTY)])
        _, log = play_random_game(PLAYERS[:2], variants, seed, rng)
        decisions = [d for r in review(log, variants).values() for d in r.decisions]
        assert decisions
        for decision in decisions:
            best = decision.best
            assert best.keep is None or len(best.keep) < DICE_COUNT, decision
            assert best.expected >= decision.chosen.expected - EXACT


def test_an_older_log_with_a_throw_of_no_dice_is_still_reviewed() -> None:
    """Logs from before the rules refused it may hold a throw with all five held. It is valued
    as what it was, the same dice one throw later, and charged against real best play."""
    sixes = (6, 6, 6, 6, 2)
    held = (True,) * DICE_COUNT
    log: list[Event] = [
        TurnStarted(ALICE.id, 1),
        DiceRolled(ALICE.id, 1, sixes, (False,) * DICE_COUNT),
        DiceRolled(ALICE.id, 2, sixes, held),
        DiceRolled(ALICE.id, 3, sixes, held),
        BoxScored(ALICE.id, Box.FOUR, 40, sixes, 3),
    ]
    first, second, written = review(log, DEFAULT)[ALICE.id].decisions
    boxes = list(ALL_BOXES)
    all_five = tuple(sorted(sixes))
    assert (first.throw, first.chosen.keep, first.best.keep) == (1, all_five, (6, 6, 6, 6))
    after_two = choices(DEFAULT, boxes, sixes, 2)[0].expected
    assert first.chosen.expected == pytest.approx(after_two, abs=EXACT)
    assert first.best == choices(DEFAULT, boxes, sixes, 1)[0]
    assert first.loss > 0
    assert (second.throw, second.best.keep) == (2, (6, 6, 6, 6))
    after_three = choices(DEFAULT, boxes, sixes, 3)[0].expected
    assert second.chosen.expected == pytest.approx(after_three, abs=EXACT)
    assert (written.throw, written.chosen.box) == (3, Box.FOUR)


@pytest.fixture
async def repo(tmp_path: Path) -> AsyncIterator[SqliteRepository]:
    repository = await SqliteRepository.open(tmp_path / "games.db")
    yield repository
    await repository.close()


async def test_review_through_the_service_on_sqlite(repo: SqliteRepository) -> None:
    channel = ChannelKey("test", "review-room")
    roller = ScriptThenSeeded(3)
    service = GameService(repo, roller, id_factory=lambda: "g-review")
    await service.act(channel, ALICE, Open(committed=False))  # as the in-memory game below
    outcome = await service.act(channel, ALICE, Start())
    game = outcome.game
    while game.phase is Phase.PLAYING:
        outcome = await service.act(channel, ALICE, alice_plays(game, roller))
        game = outcome.game

    reviews = await service.review("g-review")
    alice = reviews[ALICE.id]
    sixes_loss, keep_loss = engine_losses()
    worst = alice.costly[0]
    assert (worst.round, worst.throw, worst.chosen.box, worst.best.box) == (
        1,
        3,
        Box.SIXES,
        Box.TWOS,
    )
    assert worst.loss == pytest.approx(sixes_loss, abs=EXACT)
    assert alice.lost == pytest.approx(sixes_loss + keep_loss, abs=EXACT)
    # The stored log reviews exactly like the in-memory one of the same game.
    _, log = play_with_mistakes(seed=3)
    assert [e for e in await repo.events("g-review")] == log
    assert review(log, DEFAULT)[ALICE.id].decisions == alice.decisions
    scored = [e for e in log if isinstance(e, BoxScored)]
    assert scored[0] == BoxScored(ALICE.id, Box.SIXES, 6, SIXES_MISTAKE, 3)

    with pytest.raises(GameError) as caught:
        await service.review("no-such-game")
    assert caught.value.code is ErrorCode.NO_GAME


def test_moves_the_bot_plays_for_a_timed_out_player_are_not_reviewed_as_theirs() -> None:
    """When a turn's time runs out the bot plays it for the player, as the Club computer would
    (core.timeouts.expire, event TurnTimedOut). Those keeps and that box are not the player's
    decisions: the review must not charge them, yet must still track the box written."""
    from core.timeouts import expire

    roller = ScriptThenSeeded(5)
    game, events = open_lobby("g-timeout", CHANNEL, ALICE, Open(DEFAULT))
    log = list(events)
    game, events = apply(game, ALICE, Start(), roller)
    log += events
    roller.script.push(SIXES_MISTAKE)
    game, events = apply(game, ALICE, Roll(), roller)  # Alice throws once, then walks away
    log += events
    game, events = expire(game, roller, now=0.0)
    log += events
    stand_in = [e for e in events if isinstance(e, DiceRolled | BoxScored)]
    assert stand_in, "the bot played the rest of the turn"
    while game.phase is Phase.PLAYING:  # from round 2 on, Alice plays like a Master
        game, events = apply(game, ALICE, next_action(game, Level.MASTER), roller)
        log += events

    alice = review(log, DEFAULT)[ALICE.id]
    assert [d for d in alice.decisions if d.round == 1] == []
    assert alice.lost == pytest.approx(0, abs=EXACT)
    assert len(alice.decisions) >= 9


# The review weighed by win chances (core.review.story), against the live games' own chances.


def live_standings(game: Game) -> list[Standing]:
    return [Standing(s.total, frozenset(s.open_boxes()), s.active) for s in game.seats]


class Weighed:
    """A game of random legal play (some leaving), each decision's win shares and each turn
    start's win chances taken from the live Game as it was played: what the story must rebuild
    from the log alone."""

    def __init__(self, players: int, variants: Variants, seed: int, leave: float = 0.0) -> None:
        self.rng, self.roller = random.Random(seed), SeededRoller(seed)
        self.variants = variants
        game, events = open_lobby("g-story", CHANNEL, ALICE, Open(variants))
        self.game, self.log = game, list(events)
        self.decisions: list[tuple[str, float, float]] = []  # mover, best share, chosen share
        self.starts: list[tuple[float, ...]] = []
        for player in PLAYERS[1:players]:
            self.step(player, Join())
        self.step(ALICE, Start())
        while self.game.phase is Phase.PLAYING:
            self.play(leave)

    def step(self, player: PlayerRef, action: Action) -> None:
        self.game, events = apply(self.game, player, action, self.roller)
        self.log += events
        if any(isinstance(e, TurnStarted) for e in events) and self.game.phase is Phase.PLAYING:
            self.starts.append(game_shares(self.game))

    def weigh(self, box: Box | None = None) -> None:
        game, turn = self.game, self.game.turn
        keep = (
            None
            if box
            else tuple(sorted(d for d, h in zip(turn.dice, turn.held, strict=True) if h))
        )
        shares = choice_shares(
            game.variants, live_standings(game), game.current, turn.dice, turn.throws
        )
        mine = next(s for c, s in shares if c.box == box and (box or c.keep == keep))
        player_id = game.seats[game.current].player.id
        self.decisions.append((player_id, max(s for _, s in shares), mine))

    def play(self, leave: float) -> None:
        game, rng = self.game, self.rng
        seat = game.seats[game.current]
        player, turn = seat.player, game.turn
        actives = [s.player for s in game.seats if s.active]
        if len(actives) > 2 and rng.random() < leave:
            self.step(rng.choice(actives), Leave())
        elif turn.throws == 0:
            self.step(player, Roll())
        elif turn.throws < 3 and rng.random() < 0.6:
            kept = frozenset(i for i in range(DICE_COUNT - 1) if rng.random() < 0.5)
            self.step(player, Hold(kept))
            self.weigh()
            self.step(player, Roll())
        else:
            box = rng.choice(seat.open_boxes())
            self.weigh(box)
            self.step(player, Score(box))


def played_story(played: Weighed) -> Story:
    found = story(played.log, played.variants)
    assert found is not None
    return found


@pytest.mark.parametrize(
    ("players", "variants", "seed", "leave"),
    [(2, DEFAULT, 1, 0.0), (3, Variants(big_general=BigGeneralMode.SCORES_SIXTY), 2, 0.02)],
)
def test_the_story_weighs_each_decision_as_the_live_game_did(
    players: int, variants: Variants, seed: int, leave: float
) -> None:
    played = Weighed(players, variants, seed, leave)
    told = played_story(played)
    decisions = [
        (pid, d.won_best, d.won_chosen) for pid in told.seats for d in told.reviews[pid].decisions
    ]
    assert len(decisions) == len(played.decisions)
    for (pid, best, chosen), (live_pid, live_best, live_chosen) in zip(
        sorted(decisions), sorted(played.decisions), strict=True
    ):
        assert pid == live_pid
        assert abs(best - live_best) < 1e-12 and abs(chosen - live_chosen) < 1e-12
    assert len(played.decisions) > 20 * players  # random play: many decisions, many errors
    for review_ in told.reviews.values():
        for decision in review_.decisions:
            assert decision.chance_lost == pytest.approx(
                max(0.0, decision.won_best - decision.won_chosen)
            )
            assert decision.grade is grade_of(decision.chance_lost)
            assert decision.winning is not None
    # Win chances: one point before each turn, as the live game gave them, then the result.
    assert len(told.chances[:-1]) == len(played.starts)
    for point, live in zip(told.chances[:-1], played.starts, strict=True):
        assert point == pytest.approx(live, abs=1e-12)
    assert len(told.chances) == len(told.turns) + 1
    winners = played.game.winners
    assert told.chances[-1] == tuple(1 / len(winners) if p in winners else 0.0 for p in told.seats)
    for point in told.chances:
        assert sum(point) == pytest.approx(1.0, abs=1e-9)
    if leave:
        left = [s.player.id for s in played.game.seats if not s.active]
        assert left, "someone left the table"
        for pid in left:  # one who left has no share from then on
            assert told.series(pid)[-1] == 0.0


def test_grades_by_win_chance_lost() -> None:
    assert grade_of(0.0) is Grade.BEST
    assert grade_of(0.004) is Grade.GOOD
    assert grade_of(0.005) is Grade.INACCURACY
    assert grade_of(0.0199) is Grade.INACCURACY
    assert grade_of(0.02) is Grade.MISTAKE
    assert grade_of(0.0499) is Grade.MISTAKE
    assert grade_of(0.05) is Grade.BLUNDER
    assert grade_of(0.5) is Grade.BLUNDER


def test_random_play_makes_blunders_and_the_costliest_is_the_dearest_in_win_chance() -> None:
    told = played_story(Weighed(2, DEFAULT, seed=4))
    for review_ in told.reviews.values():
        grades = review_.grades
        assert sum(grades.values()) == len(review_.decisions)
        assert grades[Grade.BLUNDER] > 0
        costliest = review_.costliest
        assert costliest is not None
        assert costliest.chance_lost == max(d.chance_lost for d in review_.decisions)


def test_the_turning_point_is_the_largest_rise_of_a_winner() -> None:
    played = Weighed(3, DEFAULT, seed=6)
    told = played_story(played)
    turning = told.turning
    assert turning is not None and turning.winner_id in played.game.winners
    series = told.series(turning.winner_id)
    rises = [after - before for before, after in itertools.pairwise(series)]
    assert turning.rise == pytest.approx(max(rises))
    assert (turning.before, turning.after) == (series[turning.turn], series[turning.turn + 1])
    assert told.turns[turning.turn].round >= 1


def test_lead_changes_when_another_chance_passes_the_leader_clearly() -> None:
    told = played_story(Weighed(3, DEFAULT, seed=9))
    leads = [m for m in told.moments if m.kind is MomentKind.LEAD]
    assert leads
    leader = max(range(3), key=lambda seat: told.chances[0][seat])
    for moment in leads:
        new = told.seats.index(moment.player_id)
        before = told.chances[moment.point]
        assert new != leader and before[new] - before[leader] >= LEAD_MARGIN
        leader = new


def test_a_big_general_is_the_last_moment_and_the_turning_point() -> None:
    """Bob throws a big general in round 2: his chance goes to 1 on that turn."""
    game, roller = started(ALICE, BOB)
    log: list[Event] = [GameStarted((ALICE.id, BOB.id)), TurnStarted(ALICE.id, 1)]
    for turn in range(4):
        player = game.seats[game.current].player
        roller.push((6, 6, 6, 6, 6) if turn == 3 else (1, 2, 3, 4, 6))
        game, events = apply(game, player, Roll(), roller)
        log += events
        if game.phase is Phase.PLAYING:
            game, events = apply(game, player, Score(Box.STRAIGHT if turn else Box.SIXES), roller)
            log += events
    assert game.winners == (BOB.id,)
    told = story(log, DEFAULT)
    assert told is not None
    assert told.turns[-1] == TurnPlayed(2, BOB.id, big_general=True)
    assert told.moments[-1] == Moment(4, MomentKind.BIG_GENERAL, BOB.id)
    assert told.turning == TurningPoint(3, BOB.id, told.series(BOB.id)[3], 1.0)


def test_a_general_written_is_a_moment() -> None:
    """Under "scores 60" a first-throw five of a kind is written in General, a small one."""
    sixty = Variants(big_general=BigGeneralMode.SCORES_SIXTY)
    game, roller = started(ALICE, BOB, variants=sixty)
    log: list[Event] = [GameStarted((ALICE.id, BOB.id)), TurnStarted(ALICE.id, 1)]
    for player, dice, box in ((ALICE, (1, 2, 3, 4, 6), Box.SIXES), (BOB, (4,) * 5, Box.GENERAL)):
        roller.push(dice)
        game, events = apply(game, player, Roll(), roller)
        log += events
        game, events = apply(game, player, Score(box), roller)
        log += events
    told = story([*log, GameEnded(EndReason.COMPLETED, (BOB.id,))], sixty)
    assert told is not None
    assert told.turns[1] == TurnPlayed(1, BOB.id, Box.GENERAL, 60)
    assert [m for m in told.moments if m.kind is not MomentKind.LEAD] == [
        Moment(2, MomentKind.GENERAL, BOB.id)
    ]


def test_no_story_for_a_solo_game_a_table_too_big_to_weigh_or_without_a_winner() -> None:
    _, solo = play_with_mistakes(seed=3)
    assert story(solo, DEFAULT) is None  # it always wins: reviewed in expected points
    assert review(solo, DEFAULT)[ALICE.id].costly  # which name its costliest decision
    log = Weighed(2, DEFAULT, 1, 0.0).log
    assert story(log, DEFAULT) is not None
    assert story([e for e in log if not isinstance(e, GameEnded)], DEFAULT) is None
    order = tuple(f"p{n}" for n in range(CHANCE_SEATS + 1))
    assert story([GameStarted(order), TurnStarted("p0", 1)], DEFAULT) is None
