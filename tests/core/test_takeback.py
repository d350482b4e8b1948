"""Taking back a mis-tapped box: who may, until when, what it restores, and what stands after."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from core.actions import AddComputer, Hold, Leave, Remind, Roll, Score, Start, TakeBack
from core.boxes import Box
from core.dice import ScriptedRoller, SeededRoller
from core.errors import ErrorCode
from core.events import (
    BoxScored,
    Event,
    GameEnded,
    ScoreTakenBack,
    TurnReminder,
    TurnStarted,
    event_from_dict,
    event_to_dict,
)
from core.game import apply
from core.levels import Level
from core.presses import TurnPresses
from core.review import review, story
from core.rules import Variants
from core.snapshot import game_from_dict, game_to_dict
from core.table import Game, Phase
from core.takeback import standing
from core.timeouts import Due, expire, next_deadline
from core.view import make_view
from tests.core.gamekit import (
    ALICE,
    BOB,
    CAROL,
    STRANGER,
    act,
    current_player,
    lobby,
    lot_in_join_order,
    one_throw_turn,
    refuse,
    started,
)


def alice_mid_turn() -> tuple[Game, ScriptedRoller]:
    """Alice, Bob and Carol playing; Alice on her second throw, two dice held: about to write."""
    game, roller = started(ALICE, BOB, CAROL)
    roller.push([6, 6, 2, 3, 1])
    game, _ = act(game, ALICE, Roll(), roller)
    game, _ = act(game, ALICE, Hold(frozenset({0, 1})))
    roller.push([6, 4, 5])
    game, _ = act(game, ALICE, Roll(), roller)
    game, _ = act(game, ALICE, Hold(frozenset({0, 1, 2})))
    return game, roller


def test_the_writer_takes_back_the_box_and_the_turn_is_as_it_was() -> None:
    before, _ = alice_mid_turn()
    before = replace(before, turn_started=100.0)
    written, events = apply(before, ALICE, Score(Box.GENERAL), ScriptedRoller(), 160.0)
    assert events[0] == BoxScored(ALICE.id, Box.GENERAL, 0, (6, 6, 6, 4, 5), 2)
    assert current_player(written) == BOB
    assert written.seats[0].score_of(Box.GENERAL) == 0
    taken, events = apply(written, ALICE, TakeBack(), ScriptedRoller(), 200.0)
    assert events == (ScoreTakenBack(ALICE.id, Box.GENERAL, 0),)
    # Exactly the turn before the box: the dice, the holds, the throw, the sheet; its clock
    # goes on with the 60 seconds it had run.
    assert taken == replace(before, version=before.version + 2, touched=200.0, turn_started=140.0)
    assert taken.turn.dice == (6, 6, 6, 4, 5) and taken.turn.throws == 2
    assert taken.turn.held == (True, True, True, False, False)
    assert taken.seats[0].score_of(Box.GENERAL) is None
    # The turn goes on: another throw, or another box.
    rolled, _ = act(taken, ALICE, Roll(), ScriptedRoller([6, 6]))
    assert rolled.turn.dice == (6, 6, 6, 6, 6) and rolled.turn.throws == 3
    final, events = act(rolled, ALICE, Score(Box.GENERAL))
    assert events[0] == BoxScored(ALICE.id, Box.GENERAL, 60, (6, 6, 6, 6, 6), 3)
    assert current_player(final) == BOB


def test_only_the_writer_may_take_back_and_only_until_the_next_player_acts() -> None:
    game, roller = alice_mid_turn()
    refuse(game, ALICE, TakeBack(), ErrorCode.NOTHING_TO_TAKE_BACK)  # nothing written yet
    game, _ = act(game, ALICE, Score(Box.FOUR))
    for other in (BOB, CAROL, STRANGER):
        error = refuse(game, other, TakeBack(), ErrorCode.NOT_YOUR_TAKE_BACK)
        assert error.params == {"player": "Alice"}
    reminded, events = act(game, BOB, Remind())  # the bot's own reminder is not Bob acting
    assert events == (TurnReminder(BOB.id, 600),)
    assert make_view(reminded).take_back == make_view(reminded).player(ALICE.id)
    assert act(reminded, ALICE, TakeBack())[1] == (ScoreTakenBack(ALICE.id, Box.FOUR, 0),)
    roller.push([1, 2, 3, 4, 5])
    rolled, _ = act(game, BOB, Roll(), roller)
    assert make_view(rolled).take_back is None
    refuse(rolled, ALICE, TakeBack(), ErrorCode.NOTHING_TO_TAKE_BACK)
    left, _ = act(game, CAROL, Leave())  # anyone's leaving moves the table on too
    refuse(left, ALICE, TakeBack(), ErrorCode.NOTHING_TO_TAKE_BACK)
    taken, _ = act(game, ALICE, TakeBack())
    refuse(taken, ALICE, TakeBack(), ErrorCode.NOTHING_TO_TAKE_BACK)  # once per box
    refuse(lobby(ALICE, BOB), ALICE, TakeBack(), ErrorCode.NOT_STARTED)


def test_the_next_board_names_the_writer_for_everyone() -> None:
    game, _ = alice_mid_turn()
    assert make_view(game).take_back is None
    game, _ = act(game, ALICE, Score(Box.SIXES))
    for viewer in (ALICE.id, BOB.id, None):
        view = make_view(game, viewer)
        assert view.take_back is not None and view.take_back.id == ALICE.id


def test_the_box_that_ends_the_game_stands() -> None:
    game, roller = started(ALICE)
    for _ in range(9):
        game, _ = one_throw_turn(game, roller, (2, 2, 3, 4, 5))
    game, events = one_throw_turn(game, roller, (2, 2, 3, 4, 5))
    assert isinstance(events[-1], GameEnded) and game.phase is Phase.FINISHED
    assert game.retake is None
    refuse(game, ALICE, TakeBack(), ErrorCode.GAME_OVER)
    big, big_roller = started(ALICE, BOB)
    big, _ = one_throw_turn(big, big_roller, (1, 2, 3, 4, 6))
    big_roller.push([4] * 5)
    big, _ = act(big, BOB, Roll(), big_roller)  # a big general: the game is over
    refuse(big, ALICE, TakeBack(), ErrorCode.GAME_OVER)


def test_a_solo_player_takes_back_until_their_next_throw() -> None:
    game, roller = started(ALICE)
    game, _ = one_throw_turn(game, roller, (5, 5, 5, 1, 2), Box.ONES)
    assert (game.round, current_player(game)) == (2, ALICE)
    taken, events = act(game, ALICE, TakeBack())
    assert events == (ScoreTakenBack(ALICE.id, Box.ONES, 1),) and taken.round == 1
    roller.push([3, 3, 3, 3, 1])
    rolled, _ = act(game, ALICE, Roll(), roller)
    refuse(rolled, ALICE, TakeBack(), ErrorCode.NOTHING_TO_TAKE_BACK)


def test_computers_leave_nothing_to_take_back() -> None:
    game = lobby(ALICE)
    game, _ = act(game, ALICE, AddComputer(Level.CLUB, "Club"))
    roller = ScriptedRoller([6, 1, 1, 1, 1, 1, 1, 1, 1, 2])  # the computer throws lowest
    game, _ = act(game, ALICE, Start(), roller)
    computer = current_player(game)
    assert computer.is_computer
    game, _ = one_throw_turn(game, roller, (1, 2, 3, 4, 6))
    assert current_player(game) == ALICE and game.retake is None
    assert make_view(game).take_back is None
    refuse(game, computer, TakeBack(), ErrorCode.NOTHING_TO_TAKE_BACK)


def test_an_expired_turn_counts_as_acting_and_its_box_stands() -> None:
    game, roller = started(ALICE, BOB, CAROL)
    game, _ = one_throw_turn(game, roller, (1, 2, 3, 4, 6), Box.SIXES)
    expired, events = expire(game, SeededRoller(3), 1000.0)
    assert any(isinstance(e, BoxScored) and e.player_id == BOB.id for e in events)
    assert current_player(expired) == CAROL and expired.retake is None
    refuse(expired, ALICE, TakeBack(), ErrorCode.NOTHING_TO_TAKE_BACK)
    refuse(expired, BOB, TakeBack(), ErrorCode.NOTHING_TO_TAKE_BACK)


def test_the_restored_turn_keeps_its_reminder_and_its_time_left() -> None:
    game, _ = started(ALICE, BOB, variants=Variants(turn_timer=600))
    game = replace(game, turn_started=1000.0)
    roller = ScriptedRoller([1, 2, 3, 4, 6])
    game, _ = apply(game, ALICE, Roll(), roller, 1100.0)
    game, _ = apply(game, ALICE, Remind(), roller, 1300.0)
    game, _ = apply(game, ALICE, Score(Box.TWOS), roller, 1500.0)  # 500 of her 600 seconds
    bob = next_deadline(game)
    assert bob is not None and (bob.at, bob.due) == (1800.0, Due.REMIND)  # Bob's own clock
    game, _ = apply(game, ALICE, TakeBack(), roller, 1520.0)
    deadline = next_deadline(game)
    assert deadline is not None and (deadline.at, deadline.due) == (1620.0, Due.EXPIRE)


def test_a_snapshot_keeps_what_may_be_taken_back() -> None:
    game, _ = alice_mid_turn()
    game, _ = apply(game, ALICE, Score(Box.FULL_HOUSE), ScriptedRoller(), 12.5)
    data = json.loads(json.dumps(game_to_dict(game)))
    loaded = game_from_dict(data)
    assert loaded == game and loaded.retake is not None
    assert game_to_dict(loaded) == data
    assert apply(loaded, ALICE, TakeBack(), ScriptedRoller(), 20.0) == apply(
        game, ALICE, TakeBack(), ScriptedRoller(), 20.0
    )
    older = {key: value for key, value in data.items() if key != "retake"}  # before take-backs
    assert game_from_dict(older) == replace(game, retake=None)
    event = ScoreTakenBack(ALICE.id, Box.FULL_HOUSE, 0)
    assert event_from_dict(json.loads(json.dumps(event_to_dict(event)))) == event


def play(mistake: bool) -> tuple[Game, list[Event]]:
    """Alice, Bob and Carol play out a game; with `mistake`, Alice's first box is a 0 in
    General, taken back for Threes, while Bob's turn waits (a reminder comes meanwhile)."""
    roller = ScriptedRoller(lot_in_join_order(3))
    game, events = act(lobby(ALICE, BOB, CAROL), ALICE, Start(), roller)
    log = list(events)
    roller.push([3, 3, 3, 1, 2])
    game, events = act(game, ALICE, Roll(), roller)
    log.extend(events)
    if mistake:
        for player, action in ((ALICE, Score(Box.GENERAL)), (BOB, Remind()), (ALICE, TakeBack())):
            game, events = act(game, player, action)
            log.extend(events)
    game, events = act(game, ALICE, Score(Box.THREES))
    log.extend(events)
    faces = iter([1, 2, 3, 4, 5, 6, 2, 3, 4, 5] * 3)
    while game.phase is Phase.PLAYING:
        game, events = one_throw_turn(game, roller, (next(faces), 2, 3, 4, 5))
        log.extend(events)
    return game, log


def test_the_review_and_the_record_count_only_what_stands() -> None:
    kept, clean = play(mistake=False)
    fixed, mended = play(mistake=True)
    assert any(isinstance(e, ScoreTakenBack) for e in mended)
    assert [s.scores for s in fixed.seats] == [s.scores for s in kept.seats]
    assert fixed.winners == kept.winners
    assert standing(mended) == clean
    variants = Variants()
    assert review(mended, variants) == review(clean, variants)
    assert review(mended, variants)[ALICE.id].decisions[0].chosen.box is Box.THREES
    told, plain = story(mended, variants), story(clean, variants)
    assert told is not None and plain is not None
    assert (told.chances, told.turns) == (plain.chances, plain.turns)


def test_an_old_boards_press_is_stale_once_the_box_is_taken_back() -> None:
    """Bob's Roll on his new board, pressed after Alice took her box back, is not his to make."""
    game, _ = alice_mid_turn()
    presses = TurnPresses()
    presses.seen(game)
    written, _ = act(game, ALICE, Score(Box.FOUR))
    presses.seen(written)
    taken, _ = act(written, ALICE, TakeBack())
    presses.seen(taken)
    assert presses.judged(taken, BOB, Roll(), written.version) is not None
    assert presses.judged(taken, ALICE, Roll(), taken.version) is None
    assert isinstance(act(taken, ALICE, Score(Box.SIXES))[1][-1], TurnStarted)


@pytest.mark.parametrize("box", [Box.ONES, Box.GENERAL])
def test_standing_drops_each_box_taken_back_and_what_followed(box: Box) -> None:
    first = BoxScored(ALICE.id, Box.TWOS, 4, (2, 2, 1, 3, 4), 1)
    wrong = BoxScored(BOB.id, box, 0, (2, 2, 3, 3, 4), 3)
    right = BoxScored(BOB.id, Box.TWOS, 4, (2, 2, 3, 3, 4), 3)
    log: list[Event] = [first, TurnStarted(BOB.id, 1), wrong, TurnStarted(CAROL.id, 1)]
    log += [TurnReminder(CAROL.id, 300), ScoreTakenBack(BOB.id, box, 0)]
    log += [wrong, TurnStarted(CAROL.id, 1), ScoreTakenBack(BOB.id, box, 0), right]
    assert standing(log) == [first, TurnStarted(BOB.id, 1), right]
