"""The post-game review (core.review): known mistakes found with the engine's losses, a Master's
flawless game, and the review through GameService on a real SQLite file."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from adapters.sqlite import SqliteRepository
from core.actions import Action, AddComputer, Hold, Open, Roll, Score, Start
from core.boxes import ALL_BOXES, Box
from core.computer import level_of, next_action
from core.dice import DICE_COUNT, Dice, ScriptedRoller, SeededRoller
from core.errors import ErrorCode, GameError
from core.events import BigGeneralThrown, BoxScored, DiceRolled, Event, TurnStarted
from core.game import Game, Phase, apply, open_lobby
from core.identity import ChannelKey
from core.levels import Level
from core.review import review
from core.rules import BigGeneralMode, Variants
from core.service import GameService
from core.strategy import Choice, choices, expected_game
from tests.core.gamekit import ALICE, CHANNEL, PLAYERS, play_random_game

DEFAULT = Variants()
EXACT = 1e-9
SIXES_MISTAKE = (2, 2, 4, 6, 5)  # round 1, last throw: writes Sixes, Twos is better
KEEP_MISTAKE = (5, 5, 5, 3, 1)  # round 2, first throw: keeps 5-5-5-3, 5-5-5 alone is better
KEEP_MISTAKE_HELD = frozenset({0, 1, 2, 3})


class ScriptThenSeeded:
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
    await service.act(channel, ALICE, Open())
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
