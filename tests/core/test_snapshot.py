"""A snapshot loads only as a game the bot can play: every game the rules reach loads (every
variant, every phase, old snapshots), and one damaged in any field raises DamagedGame, the
error the storage quarantines, never anything else and never a game that breaks the bot."""

from __future__ import annotations

import contextlib
import copy
import itertools
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.actions import (
    Abandon,
    Action,
    AddComputer,
    Cancel,
    Hold,
    Join,
    Kick,
    Leave,
    Remind,
    Roll,
    Score,
    Start,
)
from core.boxes import ALL_BOXES, Box
from core.dice import FACES, SeededRoller
from core.errors import GameError
from core.game import apply
from core.invariants import POSSIBLE_SCORES, Broken, DamagedGame, check_game, check_row
from core.levels import Level
from core.rematch import rematch_lobby
from core.rules import BigGeneralMode, Variants, sheet_scores
from core.snapshot import game_from_dict, game_to_dict
from core.table import Game, Phase
from core.timeouts import expire, next_deadline
from core.view import make_view
from tests.core.gamekit import ALICE, BOB, CAROL, PLAYERS, STRANGER, act, lobby, started

variants = st.builds(
    Variants,
    big_general=st.sampled_from(list(BigGeneralMode)),
    five_of_a_kind_full_house=st.booleans(),
    straight_joker=st.booleans(),
    table_cap=st.integers(min_value=1, max_value=6),
    hints=st.booleans(),
    turn_timer=st.sampled_from([0, 60, 600]),
    chances=st.booleans(),
)


def loaded(game: Game) -> Game:
    """The game as the storage gives it back: through JSON and game_from_dict."""
    return game_from_dict(json.loads(json.dumps(game_to_dict(game))))


def chaos_action(rng: random.Random, game: Game) -> Action:
    """Anything a table may see: turns, holds, joins, computers, kicks, leaves, the clock."""
    pick = rng.random()
    if pick < 0.35:
        return Roll()
    if pick < 0.5:
        return Hold(frozenset(i for i in range(5) if rng.random() < 0.4))
    if pick < 0.85:
        return Score(rng.choice(ALL_BOXES))
    others = [seat.player.id for seat in game.seats] + [STRANGER.id]
    if pick < 0.9:
        return AddComputer(rng.choice([Level.NOVICE, Level.CLUB]), "Robo")
    kick = Kick(rng.choice(others))
    return rng.choice([Join(), Start(), Leave(), Cancel(), Remind(), Abandon(), kick])


@settings(max_examples=80, deadline=None)
@given(rules=variants, seed=st.integers(0, 2**32 - 1), steps=st.integers(1, 300))
def test_every_game_the_rules_reach_loads_as_itself(rules: Variants, seed: int, steps: int) -> None:
    """Each state of random tables (leaves, kicks, computers, timeouts, rematches) loads."""
    rng, roller = random.Random(seed), SeededRoller(seed)
    game = lobby(ALICE, variants=rules)
    people = (*PLAYERS, STRANGER)
    for _ in range(steps):
        if game.phase is Phase.FINISHED:
            try:
                presser = game.seats[0].player if game.seats else ALICE
                game = rematch_lobby(game, f"g-{rng.random()}", presser)[0]
            except GameError:
                game = lobby(rng.choice(PLAYERS), variants=rules)
        elif game.phase is Phase.PLAYING and rng.random() < 0.03:
            game = expire(game, roller, now=1.0)[0]
        else:
            if game.phase is Phase.PLAYING and rng.random() < 0.7:
                player = game.seats[game.current].player
            else:
                player = rng.choice([*people, *(seat.player for seat in game.seats)])
            try:
                game = apply(game, player, chaos_action(rng, game), roller, now=2.0)[0]
            except GameError:
                continue
        assert loaded(game) == game


def old_snapshot() -> dict[str, Any]:
    """A running game as an older bot wrote it: before missed turns, reminders, the clock,
    the table's language, threads and the later variants."""
    game, roller = started(ALICE, BOB)
    roller.push([2, 2, 3, 4, 6])
    game, _ = act(game, ALICE, Roll(), roller)
    data = json.loads(json.dumps(game_to_dict(game)))
    for field in ("turn_started", "touched", "language"):
        del data[field]
    del data["turn"]["reminded"], data["channel"]["thread"]
    for seat in data["seats"]:
        del seat["missed"]
    data["variants"] = {"big_general": "ends_game", "straight_joker": False}
    return data


def test_an_old_snapshot_loads_with_the_defaults() -> None:
    game = game_from_dict(old_snapshot())
    assert game.turn.dice == (2, 2, 3, 4, 6) and game.turn.reminded is False
    assert game.variants == Variants(straight_joker=False)
    assert (game.touched, game.language, [s.missed for s in game.seats]) == (0.0, "", [0, 0])


def test_the_scores_a_box_may_hold_are_those_the_rules_write() -> None:
    """Every throw, first or later, under every rule set: nothing more, nothing less."""
    written: list[set[int]] = [set() for _ in ALL_BOXES]
    for big, full, joker in itertools.product(BigGeneralMode, (False, True), (False, True)):
        rules = Variants(big_general=big, five_of_a_kind_full_house=full, straight_joker=joker)
        for dice in itertools.product(range(1, FACES + 1), repeat=5):
            for first in (True, False):
                for box, points in enumerate(sheet_scores(dice, first, rules)):
                    written[box].add(points)
    assert [set(possible) for possible in POSSIBLE_SCORES] == written


def running() -> dict[str, Any]:
    """A running game of three mid-turn, Alice's first box written, as stored."""
    game, roller = started(ALICE, BOB, CAROL)
    roller.push([1, 1, 1, 4, 5])
    game, _ = act(game, ALICE, Roll(), roller)
    game, _ = act(game, ALICE, Score(Box.ONES), roller)
    roller.push([6, 6, 2, 3, 6])
    game, _ = act(game, BOB, Roll(), roller)
    game, _ = act(game, BOB, Hold(frozenset({0, 1, 4})), roller)
    return json.loads(json.dumps(game_to_dict(game)))


def _set(path: str, value: Any) -> Any:
    def damage(data: dict[str, Any]) -> None:
        *steps, last = [int(step) if step.isdigit() else step for step in path.split(".")]
        target: Any = data
        for step in steps:
            target = target[step]
        target[last] = value

    return damage


# The damage of each invariant, done to a running game; the code it is refused with.
DAMAGE = {
    "current seat out of range": (_set("current", 7), Broken.CURRENT),
    "current seat negative": (_set("current", -1), Broken.CURRENT),
    "current player left": (_set("seats.1.active", False), Broken.CURRENT),
    "scores a string": (_set("seats.0.scores", "abcdefghij"), Broken.FIELD),
    "a score a string": (_set("seats.0.scores.0", "3"), Broken.SCORES),
    "a score true": (_set("seats.0.scores.0", True), Broken.SCORES),
    "a score no box holds": (_set("seats.0.scores.6", 24), Broken.SCORES),
    "nine boxes": (_set("seats.0.scores", [None] * 9), Broken.SCORES),
    "a seat's id a number": (_set("seats.2.id", 7), Broken.SEATS),
    "a player seated twice": (_set("seats.2.id", BOB.id), Broken.SEATS),
    "missed negative": (_set("seats.1.missed", -1), Broken.SEATS),
    "active a string": (_set("seats.1.active", "yes"), Broken.SEATS),
    "the host unseated": (_set("host_id", STRANGER.id), Broken.SEATS),
    "four throws": (_set("turn.throws", 4), Broken.TURN),
    "throws a float": (_set("turn.throws", 1.0), Broken.TURN),
    "a seventh face": (_set("turn.dice.2", 7), Broken.DICE),
    "four dice": (_set("turn.dice", [6, 6, 2, 3]), Broken.DICE),
    "held of four": (_set("turn.held", [True, True, False, False]), Broken.HELD),
    "held a number": (_set("turn.held.0", 1), Broken.HELD),
    "round eleven": (_set("round", 11), Broken.ROUND),
    "round zero in play": (_set("round", 0), Broken.ROUND),
    "an unknown phase": (_set("phase", "exploded"), Broken.FIELD),
    "finished without an ending": (_set("phase", "finished"), Broken.PHASE),
    "an ending in play": (_set("end_reason", "completed"), Broken.PHASE),
    "winners in play": (_set("winners", [ALICE.id]), Broken.PHASE),
    "version zero": (_set("version", 0), Broken.VERSION),
    "version a string": (_set("version", "9"), Broken.VERSION),
    "a lot by a stranger": (_set("lot.0.1", STRANGER.id), Broken.LOT),
    "a lot of four dice": (_set("lot.0.2", [1, 1, 1, 1]), Broken.LOT),
    "table cap below the seats": (_set("variants.table_cap", 2), Broken.SEATS),
    "table cap a string": (_set("variants.table_cap", "10"), Broken.VARIANTS),
    "hints a string": (_set("variants.hints", "no"), Broken.VARIANTS),
    "an unknown rule mode": (_set("variants.big_general", "sometimes"), Broken.VARIANTS),
    "a negative timer": (_set("variants.turn_timer", -5), Broken.VARIANTS),
    "touched a string": (_set("touched", "1700000000"), Broken.TIMES),
    "the thread a number": (_set("channel.thread", 5), Broken.IDENTITY),
    "the chat a number": (_set("channel.chat", 5), Broken.FIELD),
    "an empty id": (_set("id", ""), Broken.IDENTITY),
    "language a list": (_set("language", ["en"]), Broken.IDENTITY),
    "no turn": (lambda data: data.pop("turn"), Broken.FIELD),
    "seats an object": (_set("seats", {"a": 1}), Broken.FIELD),
}


@pytest.mark.parametrize("kind", DAMAGE)
def test_each_invariant_broken_is_refused_with_its_code(kind: str) -> None:
    data = running()
    assert game_from_dict(copy.deepcopy(data)).version == data["version"]  # sound before
    damage, broken = DAMAGE[kind]
    damage(data)
    with pytest.raises(DamagedGame) as refused:
        game_from_dict(data)
    assert refused.value.broken is broken, refused.value


def test_a_lobby_and_a_finished_game_keep_theirs() -> None:
    """A lobby holds no throw, score or lot; a finished game names its ending and winners."""
    open_table = json.loads(json.dumps(game_to_dict(lobby(ALICE, BOB))))
    for path, value, broken in [
        ("seats.1.scores.0", 3, Broken.SCORES),
        ("turn.throws", 1, Broken.TURN),
        ("current", 1, Broken.CURRENT),
        ("seats.1.active", False, Broken.SEATS),
    ]:
        data = copy.deepcopy(open_table)
        _set(path, value)(data)
        with pytest.raises(DamagedGame) as refused:
            game_from_dict(data)
        assert refused.value.broken is broken, (path, refused.value)
    game, roller = started(ALICE, BOB)
    roller.push([4] * 5)
    won = json.loads(json.dumps(game_to_dict(act(game, ALICE, Roll(), roller)[0])))
    assert game_from_dict(copy.deepcopy(won)).winners == (ALICE.id,)
    for value in ([], [ALICE.id, BOB.id], [STRANGER.id]):
        data = copy.deepcopy(won)
        data["winners"] = value
        with pytest.raises(DamagedGame) as refused:
            game_from_dict(data)
        assert refused.value.broken is Broken.WINNERS


def test_a_snapshot_that_is_not_its_rows_is_refused() -> None:
    game = game_from_dict(running())
    row = (game.id, str(game.channel), "playing", game.version)
    check_row(game, *row)
    for column, other in enumerate(("g-other", "test:elsewhere:", "lobby", game.version + 1)):
        with pytest.raises(DamagedGame) as refused:
            check_row(game, *row[:column], other, *row[column + 1 :])  # type: ignore[arg-type]
        assert refused.value.broken is Broken.ROW


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON value: each key of an object, each index of a list."""
    found = [prefix] if prefix else []
    if isinstance(value, dict):
        for key, inner in value.items():
            found += paths(inner, (*prefix, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            found += paths(inner, (*prefix, index))
    return found


# Any text PostgreSQL's jsonb can hold too (not NUL), so the damage is the same on both backends.
texts = st.text(st.characters(blacklist_characters="\x00"), max_size=12)
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.sampled_from([0, 1, 2, 3, 5, 6, 7, 10, 11, 25, 60, -1])
    | st.floats(allow_nan=False, allow_infinity=False)
    | texts,
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(texts, inner, max_size=4),
    max_leaves=8,
)


@st.composite
def damaged(draw: st.DrawFn, base: dict[str, Any]) -> dict[str, Any]:
    """`base` with one to three of its places given a random JSON value, or taken out."""
    data = copy.deepcopy(base)
    for _ in range(draw(st.integers(1, 3))):
        places = paths(data)
        if not places:
            break
        *steps, last = draw(st.sampled_from(places))
        target: Any = data
        for step in steps:
            target = target[step]
        if draw(st.integers(0, 4)) == 0:
            del target[last]
        else:
            target[last] = draw(json_values)
    return data


BASES = {"running": running(), "lobby": json.loads(json.dumps(game_to_dict(lobby(ALICE, BOB))))}


@settings(max_examples=400, deadline=None)
@given(data=st.sampled_from(list(BASES)).flatmap(lambda name: damaged(BASES[name])))
def test_random_damage_is_refused_or_leaves_a_game_the_bot_can_play(data: dict[str, Any]) -> None:
    """DamagedGame and nothing else escapes; a game that loads shows, keeps time and plays:
    every action by anyone is applied or refused by the rules."""
    try:
        game = game_from_dict(data)
    except DamagedGame:
        return
    check_game(game)
    next_deadline(game)
    make_view(game, None)
    roller = SeededRoller(1)
    for seat in game.seats:
        make_view(game, seat.player.id)
        for action in (Roll(), Hold(frozenset({0})), Score(Box.GENERAL), Start(), Leave()):
            with contextlib.suppress(GameError):
                apply(game, seat.player, action, roller)


def just_written() -> dict[str, Any]:
    """Alice's first box written a moment ago: Bob has not acted, so she may take it back."""
    game, roller = started(ALICE, BOB)
    roller.push([1, 1, 1, 4, 5])
    game, _ = act(game, ALICE, Roll(), roller)
    game, _ = act(game, ALICE, Score(Box.ONES), roller)
    assert game.retake is not None
    return json.loads(json.dumps(game_to_dict(game)))


@pytest.mark.parametrize(
    ("path", "value", "broken"),
    [
        ("retake.seat", 2, Broken.RETAKE),
        ("retake.seat", "0", Broken.RETAKE),
        ("retake.throws", 0, Broken.RETAKE),
        ("retake.dice", [1, 1, 1, 4], Broken.RETAKE),
        ("retake.dice", [1, 1, 1, 4, 7], Broken.RETAKE),
        ("retake.held", [0, 0, 0, 0, 0], Broken.RETAKE),
        ("retake.elapsed", -1, Broken.RETAKE),
        ("retake.box", "nine", Broken.FIELD),
        ("retake", [], Broken.FIELD),
    ],
)
def test_a_box_to_take_back_is_checked_too(path: str, value: Any, broken: Broken) -> None:
    """Taking back restores the turn it keeps: a damaged one is refused at load, not at the
    press that would have restored it."""
    data = just_written()
    assert game_from_dict(copy.deepcopy(data)).retake is not None  # sound before
    _set(path, value)(data)
    with pytest.raises(DamagedGame) as refused:
        game_from_dict(data)
    assert refused.value.broken is broken, refused.value
