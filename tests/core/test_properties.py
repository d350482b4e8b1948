"""Random whole games (hypothesis): invariants of the rules, the view and the event log."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.actions import Action, Cancel, Hold, Join, Leave, Open, Roll, Score, Start, ToggleHold
from core.boxes import ALL_BOXES, Box
from core.dice import SeededRoller
from core.errors import GameError
from core.events import (
    BigGeneralThrown,
    BoxScored,
    DiceRolled,
    EndReason,
    GameEnded,
    GameStarted,
    TurnStarted,
)
from core.game import apply, open_lobby
from core.rules import BigGeneralMode, Variants
from core.table import Game, Phase
from core.view import make_view
from tests.core.gamekit import (
    CHANNEL,
    PLAYERS,
    STRANGER,
    play_random_game,
    reference_score,
    replay,
)

variants_strategy = st.builds(
    Variants,
    big_general=st.sampled_from(list(BigGeneralMode)),
    five_of_a_kind_full_house=st.booleans(),
    straight_joker=st.booleans(),
)
player_count = st.integers(min_value=1, max_value=5)
seeds = st.integers(min_value=0, max_value=2**32 - 1)
FEW = settings(max_examples=60, deadline=None)


def check_view(game: Game) -> None:
    """The view tells the same story as the game."""
    viewer = game.seats[0].player.id if game.seats else None
    view = make_view(game, viewer)
    assert view.version == game.version
    assert view.phase is game.phase
    assert [p.id for p in view.players] == [s.player.id for s in game.seats]
    assert [p.total for p in view.players] == [s.total for s in game.seats]
    assert [p.active for p in view.players] == [s.active for s in game.seats]
    for row in view.sheet:
        assert row.cells == tuple(s.score_of(row.box) for s in game.seats)
    if game.phase is not Phase.PLAYING:
        assert view.current is None and view.options == () and view.dice == ()
        return
    seat, turn = game.seats[game.current], game.turn
    assert view.current is not None and view.current.id == seat.player.id
    assert [p.id for p in view.players if p.is_current] == [seat.player.id]
    assert view.throw == turn.throws and view.throws_left == 3 - turn.throws
    assert [(d.value, d.held) for d in view.dice] == list(zip(turn.dice, turn.held, strict=False))
    assert view.can_roll == (turn.throws < 3)
    if turn.throws == 0:
        assert view.options == ()
        return
    first = turn.throws == 1
    expected = {
        box: reference_score(box, turn.dice, first, game.variants) for box in seat.open_boxes()
    }
    assert {o.box: o.points for o in view.options} == expected
    assert [o.box for o in view.options] == [b for b in ALL_BOXES if b in expected]


def check_log(game: Game, log: list, players: int) -> None:
    """Invariants of a finished game's event log and sheet."""
    variants = game.variants
    started_at = next(i for i, e in enumerate(log) if isinstance(e, GameStarted))
    order = log[started_at].order
    assert tuple(s.player.id for s in game.seats) == order
    assert sorted(order) == sorted(p.id for p in PLAYERS[:players])

    # at most three throws in a turn; the turn's throws are numbered 1, 2, 3
    throws: list[int] = []
    for event in log[started_at:]:
        if isinstance(event, TurnStarted):
            throws = []
        elif isinstance(event, DiceRolled):
            throws.append(event.throw)
            assert throws == list(range(1, len(throws) + 1))
            assert len(throws) <= 3
            assert not all(event.held), "every throw throws at least one die"

    # each box at most once per player; points as the rules table; totals add up
    scored = [e for e in log if isinstance(e, BoxScored)]
    pairs = Counter((e.player_id, e.box) for e in scored)
    assert max(pairs.values(), default=1) == 1
    for event in scored:
        first = event.throw == 1
        assert event.points == reference_score(event.box, event.dice, first, variants)
    for seat in game.seats:
        mine = {e.box: e.points for e in scored if e.player_id == seat.player.id}
        assert seat.scores == tuple(mine.get(box) for box in ALL_BOXES)
        assert seat.total == sum(mine.values())

    ended = [e for e in log if isinstance(e, GameEnded)]
    assert ended == [log[-1]]
    assert ended[0].winners == game.winners
    assert game.phase is Phase.FINISHED
    big = [i for i, e in enumerate(log) if isinstance(e, BigGeneralThrown)]
    if game.end_reason is EndReason.BIG_GENERAL:
        assert variants.big_general is BigGeneralMode.ENDS_GAME
        assert big == [len(log) - 2]
        thrower = log[-2].player_id
        rolled = log[-3]
        assert isinstance(rolled, DiceRolled) and rolled.throw == 1
        assert rolled.player_id == thrower and len(set(rolled.dice)) == 1
        assert game.winners == (thrower,)
        assert len(scored) < 10 * players
    else:
        assert big == []
        assert game.end_reason is EndReason.COMPLETED


@FEW
@given(players=player_count, variants=variants_strategy, seed=seeds, rng=st.randoms())
@pytest.mark.slow
def test_random_full_games_keep_the_rules(
    players: int, variants: Variants, seed: int, rng: random.Random
) -> None:
    game, log = play_random_game(PLAYERS[:players], variants, seed, rng, on_step=check_view)
    check_log(game, log, players)
    scored = [e for e in log if isinstance(e, BoxScored)]
    if game.end_reason is EndReason.COMPLETED:
        # exactly ten rounds: every player filled every box exactly once
        assert len(scored) == 10 * players
        assert all(seat.open_boxes() == () for seat in game.seats)
        rounds = [e.round for e in log if isinstance(e, TurnStarted)]
        assert rounds == sorted(rounds) and set(rounds) == set(range(1, 11))
        assert Counter(rounds) == dict.fromkeys(range(1, 11), players)
        best = max(seat.total for seat in game.seats)
        assert game.winners == tuple(s.player.id for s in game.seats if s.total == best)
        # in sheet order, every player took one turn per round
        turns = [e.player_id for e in log if isinstance(e, TurnStarted)]
        assert turns == [s.player.id for s in game.seats] * 10


@FEW
@given(players=player_count, variants=variants_strategy, seed=seeds, rng=st.randoms())
def test_replaying_the_event_log_reproduces_the_game(
    players: int, variants: Variants, seed: int, rng: random.Random
) -> None:
    game, log = play_random_game(PLAYERS[:players], variants, seed, rng, leave_chance=0.01)
    rebuilt = replay(log, game.id, game.channel, variants)
    assert rebuilt == game
    assert [s.total for s in rebuilt.seats] == [s.total for s in game.seats]
    # and the sheets alone, summed from the log's BoxScored events
    totals = Counter()
    for event in log:
        if isinstance(event, BoxScored):
            totals[event.player_id] += event.points
    assert {s.player.id: s.total for s in game.seats} == {
        s.player.id: totals[s.player.id] for s in game.seats
    }


@FEW
@given(
    players=st.integers(min_value=2, max_value=5),
    variants=variants_strategy,
    seed=seeds,
    rng=st.randoms(),
)
def test_random_games_with_players_leaving(
    players: int, variants: Variants, seed: int, rng: random.Random
) -> None:
    game, log = play_random_game(
        PLAYERS[:players], variants, seed, rng, leave_chance=0.02, on_step=check_view
    )
    left = {e.player_id for e in log if e.kind == "player_left"}
    assert {s.player.id for s in game.seats if not s.active} == left
    assert not left & set(game.winners)
    started_at = next(i for i, e in enumerate(log) if isinstance(e, GameStarted))
    assert tuple(s.player.id for s in game.seats) == log[started_at].order
    if game.end_reason is EndReason.ABANDONED:
        assert len(left) == players and game.winners == ()
    elif game.end_reason is EndReason.COMPLETED:
        for seat in game.seats:
            assert seat.open_boxes() == () or not seat.active
        best = max(s.total for s in game.seats if s.active)
        assert game.winners == tuple(
            s.player.id for s in game.seats if s.active and s.total == best
        )
    else:
        assert game.end_reason is EndReason.BIG_GENERAL
    # no turn is given to a player after they left
    gone: set[str] = set()
    for event in log[started_at:]:
        if event.kind == "player_left":
            gone.add(event.player_id)
        elif isinstance(event, TurnStarted):
            assert event.player_id not in gone


def random_action(rng: random.Random) -> Action:
    """Mostly turn actions, some out of range, now and then a lobby action, a leave or a cancel."""
    pick = rng.random()
    if pick < 0.3:
        return Roll()
    if pick < 0.45:
        return ToggleHold(rng.randint(-1, 5))
    if pick < 0.6:
        return Hold(frozenset(i for i in range(-1, 6) if rng.random() < 0.4))
    if pick < 0.95:
        return Score(rng.choice(list(Box)))
    return rng.choice([Join(), Start(), Leave(), Cancel()])


@settings(max_examples=60, deadline=None)
@given(
    players=player_count,
    variants=variants_strategy,
    seed=seeds,
    start=st.booleans(),
    steps=st.integers(min_value=1, max_value=400),
    rng=st.randoms(),
)
def test_any_action_by_anyone_is_applied_or_refused_cleanly(
    players: int, variants: Variants, seed: int, start: bool, steps: int, rng: random.Random
) -> None:
    """Chaos: whoever does whatever, the game only ever refuses with a GameError and stays sane."""
    people = (*PLAYERS[:players], STRANGER)
    roller = SeededRoller(seed)
    game, _ = open_lobby("g-chaos", CHANNEL, people[0], Open(variants))
    if start:
        for player in people[1:-1]:
            game, _ = apply(game, player, Join(), roller)
        game, _ = apply(game, people[0], Start(), roller)
    for _ in range(steps):
        action = random_action(rng)
        if game.phase is Phase.PLAYING and rng.random() < 0.7:
            player = game.seats[game.current].player
        else:
            player = rng.choice(people)
        try:
            new, events = apply(game, player, action, roller)
        except GameError:
            continue
        assert new.version == game.version + 1 and events
        if isinstance(action, Roll):  # accepted only with a die to throw
            assert not all(game.turn.held)
        if game.phase is not Phase.LOBBY:
            assert [s.player.id for s in new.seats] == [s.player.id for s in game.seats]
            # a written box is never rewritten; only the actor's Score writes one box
            for old, seat in zip(game.seats, new.seats, strict=True):
                changed = [
                    i
                    for i, (a, b) in enumerate(zip(old.scores, seat.scores, strict=True))
                    if a != b
                ]
                assert all(old.scores[i] is None for i in changed)
                if changed:
                    assert isinstance(action, Score) and seat.player == player
                    assert changed == [action.box.index]
        assert new.turn.throws <= 3
        game = new
        check_view(game)
