"""The game state machine: lobby, lot, turns, big and small general, the end, leaving, cancelling,
refusals, versions and the JSON forms of games and events."""

from __future__ import annotations

import json

import pytest

from core.actions import Cancel, Hold, Join, Leave, Open, Roll, Score, Start, ToggleHold
from core.boxes import ALL_BOXES, Box
from core.dice import ScriptedRoller
from core.errors import ErrorCode
from core.events import (
    EVENT_TYPES,
    BigGeneralThrown,
    BoxScored,
    DiceRolled,
    EndReason,
    GameEnded,
    GameStarted,
    HoldChanged,
    HostChanged,
    LobbyOpened,
    LotThrown,
    PlayerJoined,
    PlayerLeft,
    PlayerRemoved,
    RemovalCause,
    ScoreTakenBack,
    TurnReminder,
    TurnStarted,
    TurnTimedOut,
    event_from_dict,
    event_to_dict,
)
from core.game import open_lobby
from core.identity import ChannelKey, PlayerRef
from core.rules import BigGeneralMode, Variants
from core.snapshot import game_from_dict, game_to_dict
from core.table import Game, Phase
from core.view import make_view
from tests.core.gamekit import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    DAVE,
    ERIN,
    STRANGER,
    act,
    current_player,
    lobby,
    one_throw_turn,
    play_out,
    refuse,
    started,
)

SIXTY = Variants(big_general=BigGeneralMode.SCORES_SIXTY)
NO_COMBO = (1, 2, 2, 4, 6)


def ids(game: Game) -> list[str]:
    return [seat.player.id for seat in game.seats]


def of_type(events, kind) -> list:
    return [e for e in events if isinstance(e, kind)]


# --- lobby ------------------------------------------------------------------------------------


def test_open_seats_the_host() -> None:
    game, events = open_lobby("g-1", CHANNEL, ALICE, Open(SIXTY))
    assert game.phase is Phase.LOBBY
    assert game.version == 1
    assert game.host_id == ALICE.id
    assert game.host == ALICE
    assert ids(game) == [ALICE.id]
    assert game.variants == SIXTY
    assert game.channel == CHANNEL
    assert events == (LobbyOpened(ALICE.id), PlayerJoined(ALICE.id, ALICE.name))


def test_join_in_order() -> None:
    game = lobby(ALICE)
    game, events = act(game, BOB, Join())
    assert events == (PlayerJoined(BOB.id, BOB.name),)
    game, _ = act(game, CAROL, Join())
    assert ids(game) == [ALICE.id, BOB.id, CAROL.id]
    assert game.version == 3
    assert game.host_id == ALICE.id


def test_join_when_already_seated() -> None:
    game = lobby(ALICE, BOB)
    refuse(game, ALICE, Join(), ErrorCode.ALREADY_SEATED)
    refuse(game, BOB, Join(), ErrorCode.ALREADY_SEATED)


def test_default_table_cap_is_ten() -> None:
    players = [PlayerRef(f"u{i}", f"P{i}") for i in range(11)]
    game = lobby(*players[:10])
    assert len(game.seats) == 10
    error = refuse(game, players[10], Join(), ErrorCode.TABLE_FULL)
    assert error.params == {"cap": 10}


@pytest.mark.parametrize("cap", [1, 3])
def test_table_cap_from_variants(cap: int) -> None:
    players = [PlayerRef(f"u{i}", f"P{i}") for i in range(cap + 1)]
    game = lobby(*players[:cap], variants=Variants(table_cap=cap))
    assert len(game.seats) == cap
    error = refuse(game, players[cap], Join(), ErrorCode.TABLE_FULL)
    assert error.params == {"cap": cap}


def test_a_seat_freed_in_the_lobby_can_be_taken() -> None:
    game = lobby(ALICE, BOB, variants=Variants(table_cap=2))
    refuse(game, CAROL, Join(), ErrorCode.TABLE_FULL)
    game, _ = act(game, BOB, Leave())
    game, _ = act(game, CAROL, Join())
    assert ids(game) == [ALICE.id, CAROL.id]


def test_leave_in_lobby_removes_the_seat() -> None:
    game = lobby(ALICE, BOB, CAROL)
    game, events = act(game, BOB, Leave())
    assert events == (PlayerLeft(BOB.id, BOB.name),)
    assert ids(game) == [ALICE.id, CAROL.id]
    assert game.host_id == ALICE.id
    refuse(game, BOB, Leave(), ErrorCode.NOT_SEATED)
    refuse(game, STRANGER, Leave(), ErrorCode.NOT_SEATED)
    # and may come back, at the end of the order
    game, _ = act(game, BOB, Join())
    assert ids(game) == [ALICE.id, CAROL.id, BOB.id]


def test_host_leaving_the_lobby_hands_over_in_join_order() -> None:
    game = lobby(ALICE, BOB, CAROL)
    game, events = act(game, ALICE, Leave())
    assert events == (PlayerLeft(ALICE.id, ALICE.name), HostChanged(BOB.id))
    assert game.host_id == BOB.id
    assert ids(game) == [BOB.id, CAROL.id]
    refuse(game, CAROL, Start(), ErrorCode.NOT_HOST)
    refuse(game, ALICE, Start(), ErrorCode.NOT_SEATED)
    roller = ScriptedRoller([1, 1, 1, 1, 1, 6, 6, 6, 6, 6])
    game, _ = act(game, BOB, Start(), roller)
    assert game.phase is Phase.PLAYING


def test_empty_lobby_closes() -> None:
    game = lobby(ALICE, BOB)
    game, _ = act(game, BOB, Leave())
    game, events = act(game, ALICE, Leave())
    assert events == (PlayerLeft(ALICE.id, ALICE.name), GameEnded(EndReason.ABANDONED, ()))
    assert game.phase is Phase.FINISHED
    assert game.end_reason is EndReason.ABANDONED
    assert game.winners == ()
    assert game.seats == ()
    for player, action in [(ALICE, Join()), (ALICE, Start()), (BOB, Leave()), (ALICE, Roll())]:
        refuse(game, player, action, ErrorCode.GAME_OVER)


def test_non_host_cannot_start_or_cancel() -> None:
    game = lobby(ALICE, BOB)
    error = refuse(game, BOB, Start(), ErrorCode.NOT_HOST)
    assert error.params == {"host": ALICE.name}
    error = refuse(game, BOB, Cancel(), ErrorCode.NOT_HOST)
    assert error.params == {"host": ALICE.name}
    refuse(game, STRANGER, Start(), ErrorCode.NOT_SEATED)
    refuse(game, STRANGER, Cancel(), ErrorCode.NOT_SEATED)


def test_join_or_start_after_start_is_refused() -> None:
    game, roller = started(ALICE, BOB)
    refuse(game, CAROL, Join(), ErrorCode.NOT_IN_LOBBY)
    refuse(game, BOB, Join(), ErrorCode.NOT_IN_LOBBY)
    refuse(game, ALICE, Start(), ErrorCode.NOT_IN_LOBBY, roller)


def test_open_on_an_existing_game_is_refused() -> None:
    refuse(lobby(ALICE), BOB, Open(), ErrorCode.GAME_EXISTS)
    refuse(started(ALICE)[0], ALICE, Open(), ErrorCode.GAME_EXISTS)


def test_turn_actions_in_the_lobby_are_refused() -> None:
    game = lobby(ALICE, BOB)
    for action in (Roll(), Hold(frozenset()), ToggleHold(0), Score(Box.ONES)):
        refuse(game, ALICE, action, ErrorCode.NOT_STARTED)


def test_host_cancels_the_lobby() -> None:
    game = lobby(ALICE, BOB)
    game, events = act(game, ALICE, Cancel())
    assert events == (GameEnded(EndReason.CANCELLED, ()),)
    assert game.phase is Phase.FINISHED
    assert game.end_reason is EndReason.CANCELLED
    refuse(game, BOB, Join(), ErrorCode.GAME_OVER)


# --- the lot ----------------------------------------------------------------------------------


def test_lot_with_a_clear_lowest() -> None:
    game = lobby(ALICE, BOB, CAROL)
    throws = {ALICE.id: (6, 4, 3, 5, 2), BOB.id: (1, 2, 1, 2, 1), CAROL.id: (6, 6, 5, 4, 4)}
    roller = ScriptedRoller([f for pid in (ALICE.id, BOB.id, CAROL.id) for f in throws[pid]])
    game, events = act(game, ALICE, Start(), roller)
    assert roller.remaining == 0
    lot_events = of_type(events, LotThrown)
    assert lot_events == [LotThrown(1, pid, dice) for pid, dice in throws.items()]
    assert [(t.round, t.player_id, t.dice) for t in game.lot] == [
        (1, pid, dice) for pid, dice in throws.items()
    ]
    # join order A, B, C rotated so that the lot's winner (Bob) is first
    assert ids(game) == [BOB.id, CAROL.id, ALICE.id]
    assert of_type(events, GameStarted) == [GameStarted((BOB.id, CAROL.id, ALICE.id))]
    assert events[-1] == TurnStarted(BOB.id, 1)
    assert (game.phase, game.round, game.current) == (Phase.PLAYING, 1, 0)
    assert current_player(game) == BOB
    assert game.host_id == ALICE.id


def test_lot_ties_for_lowest_rethrow_among_the_tied_only_twice() -> None:
    game = lobby(ALICE, BOB, CAROL, DAVE)
    script = [
        # round 1: Alice 10; Bob, Carol, Dave tie at 7
        (ALICE, (2, 2, 2, 2, 2)),
        (BOB, (3, 1, 1, 1, 1)),
        (CAROL, (1, 1, 3, 1, 1)),
        (DAVE, (1, 1, 1, 1, 3)),
        # round 2 among the three: Bob and Carol tie at 9, Dave 12
        (BOB, (1, 2, 2, 2, 2)),
        (CAROL, (2, 2, 2, 2, 1)),
        (DAVE, (3, 3, 3, 2, 1)),
        # round 3 among Bob and Carol: Carol is lowest
        (BOB, (3, 3, 3, 3, 3)),
        (CAROL, (2, 2, 2, 1, 1)),
    ]
    roller = ScriptedRoller([f for _, dice in script for f in dice])
    game, events = act(game, ALICE, Start(), roller)
    assert roller.remaining == 0
    rounds = [1, 1, 1, 1, 2, 2, 2, 3, 3]
    expected = [LotThrown(r, p.id, dice) for r, (p, dice) in zip(rounds, script, strict=True)]
    assert of_type(events, LotThrown) == expected
    assert [(t.round, t.player_id, t.dice) for t in game.lot] == [
        (e.round, e.player_id, e.dice) for e in expected
    ]
    assert ids(game) == [CAROL.id, DAVE.id, ALICE.id, BOB.id]
    assert events[-1] == TurnStarted(CAROL.id, 1)


def test_lot_tie_for_highest_is_no_rethrow() -> None:
    game = lobby(ALICE, BOB, CAROL)
    roller = ScriptedRoller([6] * 5 + [6] * 5 + [1] * 5)
    game, events = act(game, ALICE, Start(), roller)
    assert len(of_type(events, LotThrown)) == 3
    assert ids(game) == [CAROL.id, ALICE.id, BOB.id]


def test_solo_game_has_no_lot() -> None:
    game = lobby(ALICE)
    game, events = act(game, ALICE, Start(), ScriptedRoller())
    assert game.lot == ()
    assert of_type(events, LotThrown) == []
    assert events == (GameStarted((ALICE.id,)), TurnStarted(ALICE.id, 1))
    assert game.phase is Phase.PLAYING


# --- a turn -----------------------------------------------------------------------------------


def test_three_throws_then_no_throws_left() -> None:
    game, roller = started(ALICE, BOB)
    roller.push([1, 2, 3, 4, 6] * 3)
    for throw in (1, 2, 3):
        game, events = act(game, ALICE, Roll(), roller)
        assert events == (DiceRolled(ALICE.id, throw, (1, 2, 3, 4, 6), (False,) * 5),)
        assert game.turn.throws == throw
        assert game.turn.throws_left == 3 - throw
    assert roller.remaining == 0
    roller.push([5] * 5)
    refuse(game, ALICE, Roll(), ErrorCode.NO_THROWS_LEFT, roller)
    refuse(game, ALICE, ToggleHold(0), ErrorCode.NO_THROWS_LEFT)
    refuse(game, ALICE, Hold(frozenset({1})), ErrorCode.NO_THROWS_LEFT)
    game, events = act(game, ALICE, Score(Box.STRAIGHT))
    assert events[0] == BoxScored(ALICE.id, Box.STRAIGHT, 0, (1, 2, 3, 4, 6), 3)


def test_held_dice_keep_their_values() -> None:
    game, roller = started(ALICE, BOB)
    roller.push([1, 2, 3, 4, 5])
    game, _ = act(game, ALICE, Roll(), roller)
    game, events = act(game, ALICE, Hold(frozenset({0, 2})))
    assert events == (HoldChanged(ALICE.id, (True, False, True, False, False)),)
    roller.push([6, 6, 6])
    game, events = act(game, ALICE, Roll(), roller)
    assert events == (DiceRolled(ALICE.id, 2, (1, 6, 3, 6, 6), (True, False, True, False, False)),)
    assert roller.remaining == 0
    # toggling: release die 0, hold dice 1 and 4
    game, _ = act(game, ALICE, ToggleHold(0))
    game, _ = act(game, ALICE, ToggleHold(1))
    game, events = act(game, ALICE, ToggleHold(4))
    assert events == (HoldChanged(ALICE.id, (False, True, True, False, True)),)
    roller.push([2, 5])
    game, events = act(game, ALICE, Roll(), roller)
    assert events[0].dice == (2, 6, 3, 5, 6)
    assert game.turn.dice == (2, 6, 3, 5, 6)
    game, events = act(game, ALICE, Score(Box.SIXES))
    assert events[0] == BoxScored(ALICE.id, Box.SIXES, 12, (2, 6, 3, 5, 6), 3)


def test_toggle_twice_releases_again() -> None:
    game, roller = started(ALICE)
    roller.push([4, 4, 4, 1, 2])
    game, _ = act(game, ALICE, Roll(), roller)
    game, _ = act(game, ALICE, ToggleHold(3))
    game, events = act(game, ALICE, ToggleHold(3))
    assert events == (HoldChanged(ALICE.id, (False,) * 5),)
    roller.push([5] * 5)
    game, _ = act(game, ALICE, Roll(), roller)
    assert game.turn.dice == (5,) * 5


@pytest.mark.parametrize("throws", [1, 2])
def test_a_throw_with_all_five_held_is_refused(throws: int) -> None:
    """Holding all five throws no die: the Roll is refused (game and version unchanged), the
    player writes a box instead — at the first-throw price after the first throw."""
    game, roller = started(ALICE, BOB)
    roller.push([3, 3, 3, 3, 2])
    game, _ = act(game, ALICE, Roll(), roller)
    if throws == 2:
        game, _ = act(game, ALICE, Hold(frozenset({0, 1, 2, 3})))
        roller.push([2])
        game, _ = act(game, ALICE, Roll(), roller)
    game, _ = act(game, ALICE, Hold(frozenset(range(5))))
    version = game.version
    refuse(game, ALICE, Roll(), ErrorCode.ALL_HELD, roller)
    assert game.version == version and game.turn.throws == throws
    # Releasing one die makes the throw legal again.
    game, _ = act(game, ALICE, ToggleHold(4))
    roller.push([6])
    game, events = act(game, ALICE, Roll(), roller)
    assert events[0] == DiceRolled(ALICE.id, throws + 1, (3, 3, 3, 3, 6), (True,) * 4 + (False,))


def test_all_five_held_then_written_at_the_first_throw_price() -> None:
    game, roller = started(ALICE, BOB)
    roller.push([3, 3, 3, 3, 2])
    game, _ = act(game, ALICE, Roll(), roller)
    game, _ = act(game, ALICE, Hold(frozenset(range(5))))
    game, events = act(game, ALICE, Score(Box.FOUR))
    assert events[0] == BoxScored(ALICE.id, Box.FOUR, 45, (3, 3, 3, 3, 2), 1)
    # the next player's first throw uses all five dice again
    roller.push([1, 2, 3, 4, 5])
    game, events = act(game, BOB, Roll(), roller)
    assert events[0] == DiceRolled(BOB.id, 1, (1, 2, 3, 4, 5), (False,) * 5)
    assert roller.remaining == 0


def test_hold_before_the_first_throw() -> None:
    game, _ = started(ALICE, BOB)
    refuse(game, ALICE, Hold(frozenset({0})), ErrorCode.THROW_FIRST)
    refuse(game, ALICE, ToggleHold(0), ErrorCode.THROW_FIRST)


@pytest.mark.parametrize(
    "action", [ToggleHold(5), ToggleHold(-1), Hold(frozenset({5})), Hold(frozenset({0, -1}))]
)
def test_bad_die_index(action) -> None:
    game, roller = started(ALICE, BOB)
    roller.push([1, 2, 3, 4, 5])
    game, _ = act(game, ALICE, Roll(), roller)
    refuse(game, ALICE, action, ErrorCode.BAD_DIE)


def test_score_before_throwing() -> None:
    game, _ = started(ALICE, BOB)
    refuse(game, ALICE, Score(Box.ONES), ErrorCode.THROW_FIRST)


def test_box_filled() -> None:
    game, roller = started(ALICE)
    game, _ = one_throw_turn(game, roller, (1, 1, 2, 3, 4), Box.ONES)
    assert game.round == 2
    roller.push([1, 1, 1, 2, 3])
    game, _ = act(game, ALICE, Roll(), roller)
    error = refuse(game, ALICE, Score(Box.ONES), ErrorCode.BOX_FILLED)
    assert error.params == {"box": "ones"}
    game, _ = act(game, ALICE, Score(Box.FULL_HOUSE))
    assert game.seats[0].score_of(Box.ONES) == 2
    assert game.seats[0].score_of(Box.FULL_HOUSE) == 0


def test_not_your_turn_names_the_current_player() -> None:
    game, roller = started(ALICE, BOB, CAROL)
    roller.push([1, 2, 3, 4, 5])
    for action in (Roll(), Score(Box.ONES), Hold(frozenset()), ToggleHold(0)):
        error = refuse(game, BOB, action, ErrorCode.NOT_YOUR_TURN, roller)
        assert error.params == {"player": ALICE.name}
    game, _ = act(game, ALICE, Roll(), roller)
    error = refuse(game, CAROL, Score(Box.ONES), ErrorCode.NOT_YOUR_TURN)
    assert error.params == {"player": ALICE.name}


def test_not_seated_in_play() -> None:
    game, roller = started(ALICE, BOB)
    roller.push([1, 2, 3, 4, 5])
    for action in (Leave(), Cancel()):
        refuse(game, STRANGER, action, ErrorCode.NOT_SEATED, roller)
    for action in (Roll(), Score(Box.ONES)):  # a stranger's press is told whose turn it is
        error = refuse(game, STRANGER, action, ErrorCode.NOT_YOUR_TURN, roller)
        assert error.params == {"player": game.seats[game.current].player.name}


def test_scoring_writes_the_box_and_passes_the_turn() -> None:
    game, roller = started(ALICE, BOB)
    game, events = one_throw_turn(game, roller, (5, 5, 1, 1, 1), Box.FULL_HOUSE)
    assert events[1:] == (
        BoxScored(ALICE.id, Box.FULL_HOUSE, 35, (5, 5, 1, 1, 1), 1),
        TurnStarted(BOB.id, 1),
    )
    assert game.seats[0].score_of(Box.FULL_HOUSE) == 35
    assert game.seats[0].total == 35
    assert current_player(game) == BOB
    assert game.turn.throws == 0 and game.turn.dice == ()
    game, events = one_throw_turn(game, roller, (4, 1, 5, 2, 2), Box.TWOS)
    assert events[1:] == (
        BoxScored(BOB.id, Box.TWOS, 4, (4, 1, 5, 2, 2), 1),
        TurnStarted(ALICE.id, 2),
    )
    assert game.round == 2


def test_view_of_a_turn_before_its_first_throw() -> None:
    game, _ = started(ALICE, BOB)
    view = make_view(game, ALICE.id)
    assert view.current is not None and view.current.id == ALICE.id
    assert view.throw == 0 and view.throws_left == 3
    assert view.dice == ()
    assert view.options == ()
    assert view.can_roll and not view.can_hold and view.viewer_to_act


# --- big general, small general ----------------------------------------------------------------


def test_big_general_ends_the_game_at_once() -> None:
    game, roller = started(ALICE, BOB, CAROL)
    game, _ = one_throw_turn(game, roller, (1, 3, 4, 5, 6), Box.STRAIGHT)  # Alice 25
    roller.push([6] * 5)
    game, events = act(game, BOB, Roll(), roller)
    assert events == (
        DiceRolled(BOB.id, 1, (6,) * 5, (False,) * 5),
        BigGeneralThrown(BOB.id, (6,) * 5),
        GameEnded(EndReason.BIG_GENERAL, (BOB.id,)),
    )
    assert game.phase is Phase.FINISHED
    assert game.end_reason is EndReason.BIG_GENERAL
    assert game.winners == (BOB.id,)
    assert game.seats[1].scores == (None,) * 10  # no box is written for it
    assert game.seats[0].total == 25  # the others' totals stand
    roller.push([1, 2, 3, 4, 5])
    for player, action in [(CAROL, Roll()), (BOB, Score(Box.GENERAL)), (ALICE, Roll())]:
        refuse(game, player, action, ErrorCode.GAME_OVER, roller)


def test_big_general_wins_even_with_the_general_box_filled() -> None:
    game, roller = started(ALICE, BOB)
    game, _ = one_throw_turn(game, roller, (6, 6, 6, 6, 5), Box.FOUR)
    game, _ = one_throw_turn(game, roller, NO_COMBO, Box.GENERAL)
    assert game.seats[1].score_of(Box.GENERAL) == 0
    game, _ = one_throw_turn(game, roller, (2, 3, 4, 5, 6), Box.STRAIGHT)
    roller.push([2] * 5)
    game, events = act(game, BOB, Roll(), roller)
    assert events[-1] == GameEnded(EndReason.BIG_GENERAL, (BOB.id,))
    assert game.winners == (BOB.id,)
    assert game.seats[0].total > game.seats[1].total


def test_big_general_in_the_scores_sixty_variant_plays_on() -> None:
    game, roller = started(ALICE, BOB, variants=SIXTY)
    roller.push([4] * 5)
    game, events = act(game, ALICE, Roll(), roller)
    assert of_type(events, BigGeneralThrown) == []
    assert game.phase is Phase.PLAYING
    game, events = act(game, ALICE, Score(Box.GENERAL))
    assert events[0] == BoxScored(ALICE.id, Box.GENERAL, 60, (4,) * 5, 1)
    game, events = one_throw_turn(game, roller, (3,) * 5, Box.FOUR)
    assert events[1] == BoxScored(BOB.id, Box.FOUR, 45, (3,) * 5, 1)
    assert game.phase is Phase.PLAYING
    assert current_player(game) == ALICE


def test_small_general_scores_sixty_and_play_goes_on() -> None:
    game, roller = started(ALICE, BOB)
    roller.push([6, 6, 6, 2, 3])
    game, _ = act(game, ALICE, Roll(), roller)
    game, _ = act(game, ALICE, Hold(frozenset({0, 1, 2})))
    roller.push([6, 6])
    game, events = act(game, ALICE, Roll(), roller)
    assert events == (DiceRolled(ALICE.id, 2, (6,) * 5, (True, True, True, False, False)),)
    assert game.phase is Phase.PLAYING
    options = {o.box: o.points for o in make_view(game, ALICE.id).options}
    assert (options[Box.GENERAL], options[Box.FOUR], options[Box.SIXES]) == (60, 40, 30)
    game, events = act(game, ALICE, Score(Box.GENERAL))
    assert events[0].points == 60
    assert game.phase is Phase.PLAYING
    assert current_player(game) == BOB


def test_five_of_a_kind_on_the_third_throw_is_not_big() -> None:
    game, roller = started(ALICE)
    roller.push([1, 2, 3, 4, 5])
    game, _ = act(game, ALICE, Roll(), roller)
    game, _ = act(game, ALICE, Hold(frozenset({0})))
    roller.push([1, 1, 1, 2])
    game, _ = act(game, ALICE, Roll(), roller)
    game, _ = act(game, ALICE, Hold(frozenset({0, 1, 2, 3})))
    roller.push([1])
    game, _ = act(game, ALICE, Roll(), roller)
    assert game.turn.dice == (1,) * 5
    assert game.phase is Phase.PLAYING
    game, events = act(game, ALICE, Score(Box.GENERAL))
    assert events[0].points == 60


# --- the end ----------------------------------------------------------------------------------


def test_the_game_ends_exactly_after_ten_rounds() -> None:
    game, roller = started(ALICE, BOB)
    log = []
    for _ in range(19):
        game, events = one_throw_turn(game, roller, NO_COMBO)
        log.extend(events)
    assert game.phase is Phase.PLAYING
    assert game.round == 10
    assert current_player(game) == BOB
    assert game.seats[1].open_boxes() == (Box.GENERAL,)
    game, events = one_throw_turn(game, roller, NO_COMBO)
    log.extend(events)
    assert game.phase is Phase.FINISHED
    assert game.end_reason is EndReason.COMPLETED
    assert isinstance(log[-1], GameEnded) and isinstance(log[-2], BoxScored)
    assert len(of_type(log, BoxScored)) == 20
    assert max(e.round for e in of_type(log, TurnStarted)) == 10
    assert all(s.open_boxes() == () for s in game.seats)


def test_highest_total_wins() -> None:
    game, roller = started(ALICE, BOB, CAROL)
    dice = {ALICE.id: (1, 1, 1, 1, 2), BOB.id: (6, 6, 6, 6, 5), CAROL.id: (2, 2, 3, 3, 3)}
    game, log = play_out(game, roller, lambda p: dice[p.id])
    totals = {s.player.id: s.total for s in game.seats}
    assert totals[BOB.id] > max(totals[ALICE.id], totals[CAROL.id])
    assert game.winners == (BOB.id,)
    assert log[-1] == GameEnded(EndReason.COMPLETED, (BOB.id,))


def test_equal_totals_share_the_win() -> None:
    game, roller = started(ALICE, BOB, CAROL)
    dice = {ALICE.id: (2, 3, 4, 5, 6), BOB.id: NO_COMBO, CAROL.id: (2, 3, 4, 5, 6)}
    game, log = play_out(game, roller, lambda p: dice[p.id])
    assert game.seats[0].total == game.seats[2].total > game.seats[1].total
    assert game.winners == (ALICE.id, CAROL.id)
    assert log[-1] == GameEnded(EndReason.COMPLETED, (ALICE.id, CAROL.id))


# --- leaving mid-game, cancelling ----------------------------------------------------------------


def test_current_player_leaving_passes_the_turn_and_keeps_the_sheet() -> None:
    game, roller = started(ALICE, BOB, CAROL)
    game, _ = one_throw_turn(game, roller, (2, 3, 4, 5, 6), Box.STRAIGHT)
    game, _ = one_throw_turn(game, roller, NO_COMBO, Box.ONES)
    game, _ = one_throw_turn(game, roller, NO_COMBO, Box.ONES)
    assert current_player(game) == ALICE and game.round == 2
    roller.push([1, 2, 3, 4, 5])
    game, _ = act(game, ALICE, Roll(), roller)
    game, events = act(game, ALICE, Leave())
    assert events == (PlayerLeft(ALICE.id, ALICE.name), HostChanged(BOB.id), TurnStarted(BOB.id, 2))
    assert ids(game) == [ALICE.id, BOB.id, CAROL.id]
    assert game.seats[0].active is False
    assert game.seats[0].score_of(Box.STRAIGHT) == 25  # first throw
    assert game.seats[0].total == 25
    assert game.turn.throws == 0
    refuse(game, ALICE, Leave(), ErrorCode.NOT_SEATED)
    # Alice's turns are skipped from now on
    game, _ = one_throw_turn(game, roller, NO_COMBO, Box.TWOS)
    game, events = one_throw_turn(game, roller, NO_COMBO, Box.TWOS)
    assert events[-1] == TurnStarted(BOB.id, 3)


def test_other_player_leaving_keeps_the_current_turn() -> None:
    game, roller = started(ALICE, BOB, CAROL)
    roller.push([1, 2, 3, 4, 5])
    game, _ = act(game, ALICE, Roll(), roller)
    game, events = act(game, BOB, Leave())
    assert events == (PlayerLeft(BOB.id, BOB.name),)
    assert current_player(game) == ALICE
    assert game.turn.dice == (1, 2, 3, 4, 5)
    game, events = act(game, ALICE, Score(Box.STRAIGHT))
    assert events[-1] == TurnStarted(CAROL.id, 1)


def test_last_seat_leaving_starts_the_next_round() -> None:
    game, roller = started(ALICE, BOB)
    game, _ = one_throw_turn(game, roller, NO_COMBO)
    game, events = act(game, BOB, Leave())
    assert events == (PlayerLeft(BOB.id, BOB.name), TurnStarted(ALICE.id, 2))
    assert game.round == 2


def test_a_player_who_left_cannot_win() -> None:
    game, roller = started(ALICE, BOB, CAROL)
    game, _ = one_throw_turn(game, roller, (6, 6, 6, 6, 5), Box.FOUR)  # Alice 45
    game, _ = act(game, ALICE, Leave())
    game, log = play_out(game, roller, lambda p: NO_COMBO)
    totals = {s.player.id: s.total for s in game.seats}
    assert totals[ALICE.id] == 45 > max(totals[BOB.id], totals[CAROL.id])
    assert game.end_reason is EndReason.COMPLETED
    assert ALICE.id not in game.winners
    assert set(game.winners) == {BOB.id, CAROL.id}  # equal totals
    assert len(of_type(log, BoxScored)) == 20
    assert all(e.player_id != ALICE.id for e in of_type(log, TurnStarted))


def test_everyone_leaving_ends_the_game_abandoned() -> None:
    game, roller = started(ALICE, BOB, CAROL)
    game, _ = one_throw_turn(game, roller, NO_COMBO)
    game, _ = act(game, CAROL, Leave())
    game, _ = act(game, BOB, Leave())
    assert game.phase is Phase.PLAYING and current_player(game) == ALICE
    game, events = act(game, ALICE, Leave())
    assert events == (PlayerLeft(ALICE.id, ALICE.name), GameEnded(EndReason.ABANDONED, ()))
    assert game.phase is Phase.FINISHED
    assert game.end_reason is EndReason.ABANDONED
    assert game.winners == ()
    assert game.seats[0].total == 1


def test_host_cancels_a_game_in_play() -> None:
    game, roller = started(ALICE, BOB)
    game, _ = one_throw_turn(game, roller, NO_COMBO)
    refuse(game, BOB, Cancel(), ErrorCode.NOT_HOST)
    game, events = act(game, ALICE, Cancel())
    assert events == (GameEnded(EndReason.CANCELLED, ()),)
    assert game.end_reason is EndReason.CANCELLED
    assert game.winners == ()
    roller.push([1] * 5)
    refuse(game, BOB, Roll(), ErrorCode.GAME_OVER, roller)
    refuse(game, ALICE, Cancel(), ErrorCode.GAME_OVER)


# --- versions -----------------------------------------------------------------------------------


def test_every_applied_action_bumps_the_version_by_one() -> None:
    game = lobby(ALICE)
    versions = [game.version]
    roller = ScriptedRoller([1, 1, 1, 1, 1, 6, 6, 6, 6, 6, 1, 2, 3, 4, 5, 6, 6])
    steps = [
        (BOB, Join()),
        (CAROL, Join()),
        (CAROL, Leave()),
        (ALICE, Start()),
        (ALICE, Roll()),
        (ALICE, ToggleHold(1)),
        (ALICE, Hold(frozenset({0, 1, 2}))),
        (ALICE, Roll()),
        (ALICE, Score(Box.ONES)),
        (BOB, Leave()),
    ]
    for player, action in steps:
        game, _ = act(game, player, action, roller)
        versions.append(game.version)
    assert versions == list(range(1, len(steps) + 2))


# --- JSON forms -----------------------------------------------------------------------------------


def games_at_every_phase() -> dict[str, Game]:
    variants = Variants(
        big_general=BigGeneralMode.SCORES_SIXTY,
        five_of_a_kind_full_house=True,
        straight_joker=False,
        table_cap=7,
    )
    games: dict[str, Game] = {"lobby": lobby(ALICE, BOB, variants=variants)}
    game = lobby(ALICE, BOB, CAROL)
    roller = ScriptedRoller([2] * 5 + [1] * 5 + [1] * 5 + [3] * 5 + [2] * 5)
    game, _ = act(game, ALICE, Start(), roller)
    games["started with a tied lot"] = game
    game, _ = one_throw_turn(game, roller, (2, 3, 4, 5, 6), Box.STRAIGHT)
    roller.push([1, 2, 2, 4, 6])
    game, _ = act(game, current_player(game), Roll(), roller)
    game, _ = act(game, current_player(game), Hold(frozenset({1, 2})))
    games["mid-turn with holds"] = game
    game, _ = act(game, current_player(game), Leave())
    games["after a leave"] = game
    games["cancelled"] = act(game, CAROL, Cancel())[0]
    solo, solo_roller = started(DAVE)
    games["completed"] = play_out(solo, solo_roller, lambda p: (4, 4, 4, 1, 1))[0]
    big, big_roller = started(ERIN, ALICE)
    big_roller.push([5] * 5)
    games["big general"] = act(big, ERIN, Roll(), big_roller)[0]
    abandoned = lobby(BOB)
    games["abandoned"] = act(abandoned, BOB, Leave())[0]
    return games


PHASES = [
    "lobby",
    "started with a tied lot",
    "mid-turn with holds",
    "after a leave",
    "cancelled",
    "completed",
    "big general",
    "abandoned",
]


@pytest.mark.parametrize("name", PHASES)
def test_game_dict_round_trip(name: str) -> None:
    games = games_at_every_phase()
    assert list(games) == PHASES
    game = games[name]
    data = game_to_dict(game)
    assert game_from_dict(json.loads(json.dumps(data))) == game
    assert game_to_dict(game_from_dict(data)) == data


def test_a_round_tripped_game_plays_on_identically() -> None:
    game, roller = started(ALICE, BOB)
    roller.push([3, 3, 3, 1, 2])
    game, _ = act(game, ALICE, Roll(), roller)
    game, _ = act(game, ALICE, Hold(frozenset({0, 1, 2})))
    copy = game_from_dict(json.loads(json.dumps(game_to_dict(game))))
    results = []
    for g in (game, copy):
        r = ScriptedRoller([3, 4])
        g, events = act(g, ALICE, Roll(), r)
        g, more = act(g, ALICE, Score(Box.THREES))
        results.append((g, events + more))
    assert results[0] == results[1]
    assert results[0][1][1].points == 12


def all_event_kinds() -> list:
    return [
        LobbyOpened(ALICE.id),
        PlayerJoined(BOB.id, "Bób ✓"),
        PlayerLeft(BOB.id),
        PlayerRemoved(BOB.id, "kicked"),
        TurnReminder(CAROL.id, 300),
        TurnTimedOut(CAROL.id),
        HostChanged(CAROL.id),
        LotThrown(2, CAROL.id, (1, 2, 3, 4, 5)),
        GameStarted((CAROL.id, ALICE.id)),
        TurnStarted(CAROL.id, 7),
        DiceRolled(CAROL.id, 2, (6, 6, 1, 2, 6), (True, True, False, False, True)),
        HoldChanged(CAROL.id, (False, True, False, True, False)),
        BoxScored(CAROL.id, Box.FULL_HOUSE, 30, (2, 2, 5, 5, 5), 3),
        ScoreTakenBack(CAROL.id, Box.GENERAL, 0),
        BigGeneralThrown(ALICE.id, (3,) * 5),
        GameEnded(EndReason.COMPLETED, (ALICE.id, CAROL.id)),
        GameEnded(EndReason.ABANDONED, ()),
    ]


def test_every_event_kind_is_covered() -> None:
    assert {type(e) for e in all_event_kinds()} == set(EVENT_TYPES.values())
    assert {e.kind for e in all_event_kinds()} == set(EVENT_TYPES)


@pytest.mark.parametrize("event", all_event_kinds(), ids=lambda e: e.kind)
def test_event_dict_round_trip(event) -> None:
    data = event_to_dict(event)
    assert data["kind"] == event.kind
    back = event_from_dict(json.loads(json.dumps(data)))
    assert back == event
    assert type(back) is type(event)


@pytest.mark.parametrize("box", ALL_BOXES)
def test_box_scored_round_trip_for_every_box(box: Box) -> None:
    event = BoxScored(ALICE.id, box, 7, (1, 1, 1, 2, 2), 1)
    assert event_from_dict(json.loads(json.dumps(event_to_dict(event)))) == event


@pytest.mark.parametrize("reason", list(EndReason))
def test_game_ended_round_trip_for_every_reason(reason: EndReason) -> None:
    event = GameEnded(reason, (BOB.id,))
    assert event_from_dict(json.loads(json.dumps(event_to_dict(event)))) == event


@pytest.mark.parametrize("cause", list(RemovalCause))
def test_player_removed_round_trip_for_every_cause(cause: RemovalCause) -> None:
    """Stored as the plain word it always was; read back as the enum, which formats as the word."""
    event = PlayerRemoved(BOB.id, cause)
    data = json.loads(json.dumps(event_to_dict(event)))
    assert data == {"kind": "player_removed", "player_id": BOB.id, "cause": cause.value}
    back = event_from_dict(data)
    assert back == event and back.cause is cause
    assert f"event-removed-{back.cause}" == f"event-removed-{cause.value}"


def test_an_old_stored_removal_loads() -> None:
    stored = {"kind": "player_removed", "player_id": "7", "cause": "timeout"}
    assert event_from_dict(stored) == PlayerRemoved("7", RemovalCause.TIMEOUT)
    assert event_to_dict(event_from_dict(stored)) == stored


def test_channel_key_refuses_a_colon_where_it_would_be_ambiguous() -> None:
    with pytest.raises(ValueError):
        ChannelKey("matrix", "!room:example.org")
    with pytest.raises(ValueError):
        ChannelKey("a:b", "1")


@pytest.mark.parametrize(
    "channel",
    [
        ChannelKey("telegram", "-1001234567890", "42"),
        ChannelKey("discord", "1234567890", ""),
        ChannelKey("console", "local"),
        ChannelKey("matrix", "room", "$thread:example.org"),
    ],
    ids=str,
)
def test_channel_key_survives_the_game_snapshot(channel: ChannelKey) -> None:
    game, _ = open_lobby("g-9", channel, ALICE, Open())
    assert game_from_dict(json.loads(json.dumps(game_to_dict(game)))).channel == channel
