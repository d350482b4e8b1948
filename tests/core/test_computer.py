"""Computer players (core.computer): legal play through whole games at every level, Master and Club
follow the engine, Novice's simple rules, lobbies with computers, and computer turns through the
service on a real SQLite file."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adapters.sqlite import SqliteRepository
from core.actions import (
    Action,
    AddComputer,
    Cancel,
    Hold,
    Join,
    Leave,
    Open,
    Roll,
    Score,
    Start,
)
from core.boxes import Box
from core.computer import level_of, next_action
from core.dice import DICE_COUNT, ScriptedRoller, SeededRoller
from core.errors import ErrorCode, GameError
from core.events import (
    BoxScored,
    DiceRolled,
    EndReason,
    GameEnded,
    HoldChanged,
    HostChanged,
    PlayerJoined,
)
from core.game import apply, open_lobby
from core.identity import ChannelKey, PlayerRef
from core.levels import Level
from core.outcome import Outcome
from core.rules import BigGeneralMode, Variants
from core.service import GameService
from core.strategy import choices
from core.table import Game, Phase
from tests.core.gamekit import ALICE, BOB, CHANNEL, act, lobby, refuse, started, variants_of

# Most actions a turn can take: roll, hold, roll, hold, roll, score.
MOST_ACTIONS_PER_TURN = 6


def held_faces(game: Game, positions: frozenset[int] | None = None) -> tuple[int, ...]:
    turn = game.turn
    if positions is None:
        positions = frozenset(i for i, h in enumerate(turn.held) if h)
    return tuple(sorted(turn.dice[i] for i in positions))


def check_follows_engine(game: Game, action: Action, level: Level) -> None:
    """Master plays choices(...)[0]; Club the same with only this turn's points counted."""
    seat = game.seats[game.current]
    turn = game.turn
    if turn.throws == 0:
        assert action == Roll()
        return
    options = choices(
        game.variants,
        seat.open_boxes(),
        turn.dice,
        turn.throws,
        seat.total,
        greedy=level is Level.CLUB,
    )
    assert all(o.keep is None or len(o.keep) < DICE_COUNT for o in options)
    best = options[0]
    match action:
        case Score(box=box):
            assert box is best.box
        case Hold(indices=positions):
            assert best.keep is not None
            assert held_faces(game, positions) == best.keep
        case Roll():
            assert best.keep is not None
            assert held_faces(game) == best.keep
        case _:
            raise AssertionError(f"unexpected {action}")


def play_computer_game(
    levels: list[Level], variants: Variants, seed: int, human_plays: Level = Level.CLUB
) -> tuple[Game, list[object], dict[str, int]]:
    """A host adds computers and starts; everyone (the host as `human_plays`) acts only through
    next_action until the game ends. Returns the game, the log and the actions per player."""
    roller = SeededRoller(seed)
    game, events = open_lobby("g-cpu", CHANNEL, ALICE, Open(variants))
    log: list[object] = list(events)
    for number, level in enumerate(levels, start=1):
        game, events = apply(game, ALICE, AddComputer(level, f"Computer {number}"), roller)
        log += events
    game, events = apply(game, ALICE, Start(), roller)
    log += events
    actions: dict[str, int] = {}
    limit = len(game.seats) * 10 * MOST_ACTIONS_PER_TURN
    while game.phase is Phase.PLAYING:
        seat = game.seats[game.current]
        player = seat.player
        found = level_of(player)
        assert (found is None) == (player == ALICE)
        level = found or human_plays
        action = next_action(game, level)
        turn = game.turn
        # The shape of a legal action; apply() below refuses anything else with a GameError.
        if isinstance(action, Hold):
            assert 1 <= turn.throws < 3
        if isinstance(action, Roll):
            assert not all(turn.held), "a computer throws at least one die"
        if isinstance(action, Score):
            assert turn.throws >= 1
            assert action.box in seat.open_boxes()
        if level in (Level.MASTER, Level.CLUB):
            check_follows_engine(game, action, level)
        before = game
        game, events = apply(game, player, action, roller)
        log += events
        actions[player.id] = actions.get(player.id, 0) + 1
        if isinstance(action, Hold):
            # A computer that holds always throws next (it never dithers over its holds).
            assert next_action(game, level) == Roll()
            assert before.turn.throws == game.turn.throws
        assert sum(actions.values()) <= limit
    return game, log, actions


@pytest.mark.parametrize(
    ("variants", "seed"),
    [
        (Variants(), 1),
        (Variants(), 2),
        (variants_of(BigGeneralMode.SCORES_SIXTY, True, False), 3),
        (variants_of(BigGeneralMode.ENDS_GAME, True, False), 4),
    ],
)
def test_computers_play_whole_games_legally(variants: Variants, seed: int) -> None:
    levels = [Level.MASTER, Level.CLUB, Level.NOVICE, Level.MASTER]
    game, log, actions = play_computer_game(levels, variants, seed)
    assert game.phase is Phase.FINISHED
    assert game.end_reason in (EndReason.COMPLETED, EndReason.BIG_GENERAL)
    ids = [seat.player.id for seat in game.seats]
    assert sorted(ids) == sorted(
        [ALICE.id, "cpu-master-1", "cpu-club-2", "cpu-novice-3", "cpu-master-4"]
    )
    assert all(actions.get(player_id, 0) > 0 for player_id in ids)
    if game.end_reason is EndReason.COMPLETED:
        assert all(None not in seat.scores for seat in game.seats)
        scored = [e for e in log if isinstance(e, BoxScored)]
        assert len(scored) == 10 * len(game.seats)


def test_computers_finish_many_games_with_big_generals_allowed() -> None:
    """Several seeds under the default rules: every game ends, by completion or a big general."""
    reasons = set()
    for seed in range(10, 16):
        game, _, _ = play_computer_game([Level.NOVICE, Level.MASTER], Variants(), seed)
        assert game.phase is Phase.FINISHED
        reasons.add(game.end_reason)
    assert reasons <= {EndReason.COMPLETED, EndReason.BIG_GENERAL}


@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    big=st.sampled_from(list(BigGeneralMode)),
    full=st.booleans(),
    joker=st.booleans(),
)
def test_computers_never_hold_all_five_and_throw(
    seed: int, big: BigGeneralMode, full: bool, joker: bool
) -> None:
    """Seeded games of every level (the host as a Master): no computer weighs or makes a throw
    of no dice (play_computer_game checks each decision); the log agrees, throw by throw."""
    levels = [Level.MASTER, Level.CLUB, Level.NOVICE]
    _, log, _ = play_computer_game(levels, variants_of(big, full, joker), seed, Level.MASTER)
    rolled = [e for e in log if isinstance(e, DiceRolled)]
    assert rolled and not any(all(e.held) for e in rolled)


@pytest.mark.parametrize("level", [Level.MASTER, Level.CLUB, Level.NOVICE])
@pytest.mark.parametrize("dice", [(6, 6, 6, 6, 2), (1, 2, 3, 4, 6), (2, 2, 4, 6, 5)])
def test_taking_over_with_all_five_held_releases_dice_or_writes(
    level: Level, dice: tuple[int, ...]
) -> None:
    """A person held all five and walked away; the computer that plays on (as a timed-out turn's
    stand-in does) never throws them so: it holds what it keeps, then throws, or writes a box."""
    game, roller = started(ALICE)
    roller.push(dice)
    game, _ = act(game, ALICE, Roll(), roller)
    game, _ = act(game, ALICE, Hold(frozenset(range(DICE_COUNT))))
    action = next_action(game, level)
    assert isinstance(action, Hold | Score)
    if isinstance(action, Hold):
        assert len(action.indices) < DICE_COUNT
        game, _ = act(game, ALICE, action)
        assert next_action(game, level) == Roll()


def test_level_of_reads_the_computer_id() -> None:
    assert level_of(PlayerRef("cpu-master-1", "M")) is Level.MASTER
    assert level_of("cpu-club-12") is Level.CLUB
    assert level_of("cpu-novice-3") is Level.NOVICE
    assert level_of(ALICE) is None
    assert level_of("12345") is None


def test_next_action_needs_a_game_in_play() -> None:
    with pytest.raises(GameError) as caught:
        next_action(lobby(ALICE), Level.MASTER)
    assert caught.value.code is ErrorCode.NOT_STARTED


# ---------------------------------------------------------------------------------------------
# Novice: keeps the most common face, writes the highest score now
# ---------------------------------------------------------------------------------------------


def novice_step(game: Game, roller: ScriptedRoller, expected: Action) -> Game:
    action = next_action(game, Level.NOVICE)
    assert action == expected
    game, _ = act(game, ALICE, action, roller)
    return game


def test_novice_keeps_the_most_common_face_and_writes_the_highest_score() -> None:
    game, roller = started(ALICE)
    # Turn 1: 3-5-3-5-1, a tie of pairs: the higher face, the fives, stays.
    assert next_action(game, Level.NOVICE) == Roll()
    roller.push([3, 5, 3, 5, 1])
    game = novice_step(game, roller, Roll())
    assert game.turn.dice == (3, 5, 3, 5, 1)
    game = novice_step(game, roller, Hold(frozenset({1, 3})))
    roller.push([5, 2, 2])  # positions 0, 2, 4
    game = novice_step(game, roller, Roll())
    assert game.turn.dice == (5, 5, 2, 5, 2)
    # Three fives now: hold them (a full house is no reason to stop for a Novice).
    game = novice_step(game, roller, Hold(frozenset({0, 1, 3})))
    roller.push([4, 6])
    game = novice_step(game, roller, Roll())
    assert game.turn.dice == (5, 5, 4, 5, 6)
    # Last throw: Fives 15 is the highest score now.
    game, events = act(game, ALICE, next_action(game, Level.NOVICE), roller)
    assert [e for e in events if isinstance(e, BoxScored)] == [
        BoxScored(ALICE.id, Box.FIVES, 15, (5, 5, 4, 5, 6), 3)
    ]

    # Turn 2: three twos and two sixes: keeps the twos, then writes the full house it ends with.
    roller.push([2, 6, 2, 6, 2])
    game = novice_step(game, roller, Roll())
    game = novice_step(game, roller, Hold(frozenset({0, 2, 4})))
    roller.push([6, 6])
    game = novice_step(game, roller, Roll())
    assert game.turn.dice == (2, 6, 2, 6, 2)
    roller.push([3, 3])
    game = novice_step(game, roller, Roll())  # the twos are still held
    game, events = act(game, ALICE, next_action(game, Level.NOVICE), roller)
    assert [e.box for e in events if isinstance(e, BoxScored)] == [Box.FULL_HOUSE]

    # Turn 3: five of a kind on the second throw stops at once and writes General 60.
    roller.push([4, 4, 1, 2, 3])
    game = novice_step(game, roller, Roll())
    game = novice_step(game, roller, Hold(frozenset({0, 1})))
    roller.push([4, 4, 4])
    game = novice_step(game, roller, Roll())
    game, events = act(game, ALICE, next_action(game, Level.NOVICE), roller)
    assert [(e.box, e.points) for e in events if isinstance(e, BoxScored)] == [(Box.GENERAL, 60)]

    # Turn 4: equal best scores go to the box first on the sheet (Twos 4 before Fours 4).
    roller.push([1, 2, 4, 2, 1])  # pairs of ones and twos: the higher face, the twos, stays
    game = novice_step(game, roller, Roll())
    game = novice_step(game, roller, Hold(frozenset({1, 3})))
    roller.push([1, 4, 3])
    game = novice_step(game, roller, Roll())
    assert game.turn.dice == (1, 2, 4, 2, 3)
    roller.push([1, 4, 3])
    game = novice_step(game, roller, Roll())  # the twos are held already: throw again at once
    assert game.turn.dice == (1, 2, 4, 2, 3) and game.turn.throws == 3
    game, events = act(game, ALICE, next_action(game, Level.NOVICE), roller)
    assert [(e.box, e.points) for e in events if isinstance(e, BoxScored)] == [(Box.TWOS, 4)]


def test_novice_stops_on_a_first_throw_five_of_a_kind_when_it_scores() -> None:
    game, roller = started(ALICE, variants=Variants(big_general=BigGeneralMode.SCORES_SIXTY))
    roller.push([6, 6, 6, 6, 6])
    game = novice_step(game, roller, Roll())
    game, events = act(game, ALICE, next_action(game, Level.NOVICE), roller)
    assert [(e.box, e.points) for e in events if isinstance(e, BoxScored)] == [(Box.GENERAL, 60)]


# ---------------------------------------------------------------------------------------------
# Lobbies with computers
# ---------------------------------------------------------------------------------------------


def test_host_adds_computers_and_hosting_passes_to_a_human() -> None:
    game = lobby(ALICE, BOB)
    game, events = act(game, ALICE, AddComputer(Level.MASTER, "Ada"))
    assert events == (PlayerJoined("cpu-master-1", "Ada"),)
    game, _ = act(game, ALICE, AddComputer(Level.NOVICE, "Nick"))
    ids = [s.player.id for s in game.seats]
    assert ids == [ALICE.id, BOB.id, "cpu-master-1", "cpu-novice-2"]
    assert [level_of(i) for i in ids] == [None, None, Level.MASTER, Level.NOVICE]
    assert game.seats[3].player.name == "Nick"
    refuse(game, BOB, AddComputer(Level.CLUB, "Cleo"), ErrorCode.NOT_HOST)

    game, events = act(game, ALICE, Leave())
    assert HostChanged(BOB.id) in events
    assert game.host_id == BOB.id and game.phase is Phase.LOBBY
    assert [s.player.id for s in game.seats] == [BOB.id, "cpu-master-1", "cpu-novice-2"]
    game, _ = act(game, BOB, AddComputer(Level.CLUB, "Cleo"))  # the new host may add
    assert game.seats[-1].player.id == "cpu-club-3"

    # The last human leaves: computers alone do not keep a lobby open.
    game, events = act(game, BOB, Leave())
    assert GameEnded(EndReason.ABANDONED, ()) in events
    assert game.phase is Phase.FINISHED and game.end_reason is EndReason.ABANDONED


def test_a_lone_host_with_computers_leaving_closes_the_lobby() -> None:
    game = lobby(ALICE)
    game, _ = act(game, ALICE, AddComputer(Level.CLUB, "Cleo"))
    game, events = act(game, ALICE, Leave())
    assert game.phase is Phase.FINISHED
    assert GameEnded(EndReason.ABANDONED, ()) in events
    assert not any(isinstance(e, HostChanged) for e in events)


def test_computers_count_against_the_table_cap() -> None:
    game = lobby(ALICE, variants=variants_of(BigGeneralMode.ENDS_GAME, False, True, cap=2))
    game, _ = act(game, ALICE, AddComputer(Level.MASTER, "Ada"))
    refuse(game, ALICE, AddComputer(Level.MASTER, "Ada"), ErrorCode.TABLE_FULL)
    refuse(game, BOB, Join(), ErrorCode.TABLE_FULL)


# ---------------------------------------------------------------------------------------------
# Computer turns through the service, on a real SQLite file
# ---------------------------------------------------------------------------------------------


@pytest.fixture
async def repo(tmp_path: Path) -> AsyncIterator[SqliteRepository]:
    repository = await SqliteRepository.open(tmp_path / "games.db")
    yield repository
    await repository.close()


async def test_computers_play_their_turns_through_the_service(repo: SqliteRepository) -> None:
    channel = ChannelKey("test", "cpu-room")
    service = GameService(repo, SeededRoller(42), id_factory=lambda: "g-service")
    published: list[Outcome] = []

    async def publish(outcome: Outcome) -> None:
        published.append(outcome)

    await service.act(channel, ALICE, Open())
    await service.act(channel, ALICE, AddComputer(Level.MASTER, "Ada"))
    await service.act(channel, ALICE, AddComputer(Level.NOVICE, "Nick"))
    outcome = await service.act(channel, ALICE, Start())
    computers = {"cpu-master-1", "cpu-novice-2"}

    async def computers_done() -> Game:
        """Wait until the stored game is back at the human (or over) and the computers' last
        move is the last one published."""
        async with asyncio.timeout(20):
            while True:  # the state lives in the database: poll it
                stored = await repo.get_game("g-service")
                assert stored is not None
                back = (
                    stored.phase is Phase.FINISHED or stored.seats[stored.current].player == ALICE
                )
                if back and published and published[-1].game.version == stored.version:
                    return stored
                await asyncio.sleep(0.002)

    rounds_seen = []
    try:
        game = outcome.game
        while game.phase is Phase.PLAYING:
            if game.seats[game.current].player != ALICE:
                before = len(published)
                service.wake_computers(channel, publish, pause=0)
                game = await computers_done()
                assert len(published) > before  # the computers moved by themselves, visibly
                continue
            # The human's turn: one throw, the first open box.
            rounds_seen.append(game.round)
            outcome = await service.act(channel, ALICE, Roll())
            if outcome.game.phase is Phase.PLAYING:
                box = game.seats[game.current].open_boxes()[0]
                outcome = await service.act(channel, ALICE, Score(box))
            game = outcome.game
    finally:
        await service.close()

    final = await repo.get_game("g-service")
    assert final is not None and final.phase is Phase.FINISHED
    if final.end_reason is EndReason.COMPLETED:
        assert rounds_seen == list(range(1, 11))
        assert all(None not in seat.scores for seat in final.seats)
    # What was published is the computers' own play, step by step, saved as it went.
    actors = set()
    for shown in published:
        for event in shown.events:
            if isinstance(event, DiceRolled | HoldChanged | BoxScored):
                actors.add(event.player_id)
    assert actors == computers
    log = await repo.events("g-service")
    computer_scores = [e for e in log if isinstance(e, BoxScored) and e.player_id in computers]
    shown_scores = [e for o in published for e in o.events if isinstance(e, BoxScored)]
    assert computer_scores == shown_scores
    assert len(computer_scores) >= 2


async def test_a_table_stopped_while_a_computer_waits_ends_its_run_quietly(
    repo: SqliteRepository,
) -> None:
    """The host stops the game during the computer's pause: its runner ends, raising nothing."""
    channel = ChannelKey("test", "cpu-stop")
    service = GameService(repo, ScriptedRoller([6, 6, 6, 6, 5, 1, 1, 1, 1, 2]))
    try:
        await service.act(channel, ALICE, Open())
        await service.act(channel, ALICE, AddComputer(Level.MASTER, "Ada"))
        started = await service.act(channel, ALICE, Start())  # Ada threw lowest: hers first
        assert level_of(started.game.seats[started.game.current].player) is Level.MASTER
        published: list[Outcome] = []

        async def publish(outcome: Outcome) -> None:
            published.append(outcome)

        runner = service.wake_computers(channel, publish, pause=0.3)
        await service.act(channel, ALICE, Cancel())
        await asyncio.wait_for(runner, 5)  # raises if the runner failed
        assert published == [] and await service.game(channel) is None
    finally:
        await service.close()
