"""/general tournament at the chat level: the event's message and its buttons, the refusals, and
whole events played to the end (rounds paired, tables in threads, standings, the final table)."""

from __future__ import annotations

import asyncio
import itertools
from pathlib import Path

import pytest

from adapters.chat import cards, payload, presses
from adapters.chat.boards import BoardRef
from adapters.chat.commands import command
from adapters.chat.layout import Message as LayoutMessage
from adapters.chat.layout_cards import of
from adapters.telegram.words import asked as typed
from core.errors import ErrorCode, GameError
from core.events import RECORDED_ENDS
from core.identity import ChannelKey, PlayerRef
from core.table import Game, Phase
from core.tournament import EventPhase, Format, Tournament, standings
from tests.chat.kit import ALICE, BOB, CHANNEL, SHAPE, Message, T, World, opened

CAROL = PlayerRef("33", "Carol")
DAN = PlayerRef("44", "Dan")
SEEDS = itertools.count()


def seeds() -> str:
    return f"{next(SEEDS):064x}"


def event_message(world: World) -> Message:
    found = [m for m in world.platform.of(cards.EventCard) if not m.deleted]
    assert found, "no event message"
    return found[-1]


async def press(world: World, person: PlayerRef, code: str, **switches: object) -> list[str]:
    message = event_message(world)
    card = message.card
    assert isinstance(card, cards.EventCard)
    exchange = world.pressing(message, person, **switches)
    await presses.press(world.tables, exchange, payload.event_code(card.event.id, code))
    return exchange.said()


async def the_event(world: World) -> Tournament:
    card = event_message(world).card
    assert isinstance(card, cards.EventCard)
    event = await world.tables.director.load(card.event.id)
    assert event is not None
    return event


async def play_people(world: World, people: list[PlayerRef], until: EventPhase) -> Tournament:
    """Every table's people play (roll once, write the first box offered) until the event is
    `until`; the computers play by themselves."""
    async with asyncio.timeout(60):
        while True:
            event = await the_event(world)
            if event.phase is until and event.told >= len(event.rounds):
                await world.tables.director.idle()  # what was claimed, said
                return event
            moved = False
            for game in await world.service.active_games("tc"):
                seat = game.current_seat
                if seat is None or seat.player.is_computer:
                    continue
                person = next(p for p in people if p.id == seat.player.id)
                ref = BoardRef.loads(await world.repository.board(game.id))
                message = world.platform.find(ref) if ref else None
                if message is None:
                    continue
                code = "r" if game.turn.throws == 0 else "s"
                if code == "s":
                    view = await world.service.view(game.channel, person.id)
                    assert view is not None
                    code = f"s{view.options[0].box.index}"
                await world.press(message, person, code)
                moved = True
            if not moved:
                await asyncio.sleep(0.01)


async def turn_for(world: World, key: ChannelKey, person: PlayerRef) -> Game:
    """The table's game once it is `person`'s turn (the computers play theirs meanwhile)."""
    for _ in range(1000):
        game = await world.service.game(key)
        if game is not None and game.current_seat and game.current_seat.player.id == person.id:
            return game
        await asyncio.sleep(0.01)
    raise AssertionError(f"never {person.name}'s turn")


async def test_only_the_chats_managers_open_an_event_and_its_message_shows_the_rules(
    tmp_path: Path,
) -> None:
    async with opened(tmp_path) as world:
        refused = await world.command(BOB, "tournament")
        assert refused.said() == [
            "Only those who manage the chat can open a tournament (the chat's administrators)."
        ]
        assert world.platform.of(cards.EventCard) == []
        await world.command(ALICE, "tournament", admin=True)
        message = event_message(world)
        event = await the_event(world)
        assert [p.name for p in event.entrants] == ["Alice"] and event.host_id == ALICE.id
        again = await world.command(BOB, "tournament")
        assert again.said() == [] and len(world.platform.of(cards.EventCard)) == 2
        assert (await the_event(world)).message == str(event_message(world).id)
        assert message.id != event_message(world).id


async def test_entering_leaving_and_the_hosts_buttons_refuse_what_they_should(
    tmp_path: Path,
) -> None:
    async with opened(tmp_path) as world:
        await world.command(ALICE, "tournament", admin=True)
        assert await press(world, BOB, "j") == []
        assert await press(world, BOB, "j") == ["You are in already."]
        assert await press(world, BOB, "csize") == [
            "Only the tournament's host (Alice) can do that."
        ]
        assert await press(world, BOB, "b") == ["Only the tournament's host (Alice) can do that."]
        assert await press(world, ALICE, "l") == [
            "The host cannot leave the tournament: cancel it instead."
        ]
        assert await press(world, ALICE, "csize") == []
        assert await press(world, ALICE, "cformat") == []
        assert await press(world, ALICE, "cdice") == []
        event = await the_event(world)
        assert (event.rules.size, event.rules.format, event.rules.duplicate) == (
            5,
            Format.ROUND_ROBIN,
            False,
        )
        assert await press(world, BOB, "l") == []
        assert await press(world, BOB, "l") == ["You are not in this tournament."]
        assert await press(world, ALICE, "b") == ["A tournament needs at least 2 players."]
        # An event's button made up onto another message (a table's board) changes nothing.
        await world.command(CAROL, "start")
        board = await world.board()
        exchange = world.pressing(board, CAROL)
        await presses.press(world.tables, exchange, payload.event_code(event.id, "j"))
        assert exchange.said() == [T("error-bad-action")]
        assert not (await the_event(world)).is_entered(CAROL.id)


async def test_a_round_robin_of_four_plays_to_its_end_in_threads(tmp_path: Path) -> None:
    async with opened(tmp_path, seeds=seeds) as world:
        await world.command(ALICE, "tournament", admin=True)
        await press(world, BOB, "j")
        await press(world, ALICE, "am")
        await press(world, ALICE, "am")
        await press(world, ALICE, "cformat")  # round robin
        for _ in range(3):  # 4 → 5 → 6 → 2
            await press(world, ALICE, "csize")
        event = await the_event(world)
        assert (event.rules.format, event.rules.size, event.planned) == (Format.ROUND_ROBIN, 2, 3)
        assert await press(world, ALICE, "b") == []
        await world.tables.director.idle()
        event = await play_people(world, [ALICE, BOB], EventPhase.FINISHED)
        # Everyone met everyone once, at tables of two in threads of the chat.
        pairs = {frozenset(t.players) for r in event.rounds for t in r.tables}
        ids = [p.id for p in event.entrants]
        assert pairs == {frozenset(pair) for pair in itertools.combinations(ids, 2)}
        threads = [key for key, _ in world.platform.opened]
        assert len(threads) == 6 and all(key.chat == CHANNEL.chat for key in threads)
        assert world.platform.opened[0][1] == "Round 1 · Table 1"
        for round_ in event.rounds:
            for table in round_.tables:
                assert sorted(p.score for p in table.placings) in ([0.0, 1.0], [0.5, 0.5])
        ranked = standings(event)
        assert sum(s.score for s in ranked) == 6  # a point a table
        said = [line for m in world.platform.messages if isinstance(m.card, cards.Lines)
                for line in m.card.lines]  # fmt: skip
        assert sum(line.startswith("🏆 Round ") for line in said) == 3
        assert sum(line.startswith("🔓 Its dice: seed ") for line in said) == 3
        finals = [m.card for m in world.platform.messages if isinstance(m.card, cards.Review)]
        assert len(finals) == 1 and finals[0].picture and finals[0].lines[0].startswith("🥇 ")
        tables_said = [m.card for m in world.platform.messages if isinstance(m.card, cards.Records)]
        assert tables_said[-1].lines[0] == "🏆 The tournament is over: the final table"
        assert isinstance(event_message(world).card, cards.EventCard)
        assert event_message(world).card.event.phase is EventPhase.FINISHED  # type: ignore[union-attr]
        # Each table's game was a game of its own, recorded, in its thread.
        for round_ in event.rounds:
            for table in round_.tables:
                key = ChannelKey.parse(table.channel)
                last = await world.service.last_finished(key)
                assert last is not None and last.event.startswith(event.id)
                assert last.phase is Phase.FINISHED


async def test_a_swiss_event_with_duplicate_dice_deals_every_table_the_same_throws(
    tmp_path: Path,
) -> None:
    people = [ALICE, BOB, CAROL, DAN]
    async with opened(tmp_path, seeds=seeds) as world:
        await world.command(ALICE, "tournament", admin=True)
        for person in people[1:]:
            await press(world, person, "j")
        for _ in range(4):
            await press(world, ALICE, "ag")
        await press(world, ALICE, "crounds")  # 3 → 4... then back to 2
        for _ in range(4):
            await press(world, ALICE, "crounds")
        event = await the_event(world)
        assert (event.rules.format, event.rules.rounds, event.rules.size) == (Format.SWISS, 2, 4)
        assert event.rules.duplicate
        await press(world, ALICE, "b")
        await world.tables.director.idle()
        event = await play_people(world, people, EventPhase.FINISHED)
        assert [len(r.tables) for r in event.rounds] == [2, 2]
        for round_ in event.rounds:
            firsts = []
            for table in round_.tables:
                game = await world.service.last_finished(ChannelKey.parse(table.channel))
                assert game is not None
                events = await world.service.events(game.id)
                thrown = [e for e in events if type(e).__name__ == "DiceRolled"]
                firsts.append(thrown[0].dice)  # type: ignore[attr-defined]
            assert firsts[0] == firsts[1]  # the first throw of each table: the same dice
        # The second round avoids the first's meetings where it can.
        first = {frozenset(t.players) for t in event.rounds[0].tables}
        assert not {frozenset(t.players) for t in event.rounds[1].tables} & first
        # /general verify in a table's thread checks its dice against the revealed seed.
        table = event.rounds[0].tables[0]
        exchange = world.asking(ALICE, ChannelKey.parse(table.channel))
        await command(world.tables, exchange, typed(["verify"]))
        lines = [line for card in exchange.publicly if isinstance(card, cards.Lines)
                 for line in card.lines]  # fmt: skip
        assert lines and lines[0].startswith("✅"), lines


async def test_the_event_speaks_russian_where_it_was_opened_in_russian(tmp_path: Path) -> None:
    async with opened(tmp_path, seeds=seeds) as world:
        await world.command(ALICE, "tournament", admin=True, locale="ru")
        assert (await the_event(world)).language == "ru"
        assert await press(world, BOB, "j", locale="ru") == []
        assert await press(world, BOB, "j", locale="ru") == ["Вы уже участвуете."]
        await press(world, ALICE, "am", locale="ru")
        for _ in range(4):  # round of two: 3 → 4 → 5 → 6 → 7 → 2
            await press(world, ALICE, "crounds", locale="ru")
        await press(world, ALICE, "crounds", locale="ru")
        for _ in range(3):
            await press(world, ALICE, "csize", locale="ru")
        await press(world, ALICE, "b", locale="ru")
        await world.tables.director.idle()
        event = await play_people(world, [ALICE, BOB], EventPhase.FINISHED)
        assert len(event.rounds) == 2 and event.rules.size == 2
        assert len(event.rounds[0].byes) == 1  # three at tables of two: one sits out
        said = [line for m in world.platform.messages if isinstance(m.card, cards.Lines)
                for line in m.card.lines]  # fmt: skip
        assert any(line.startswith("🏆 Начинается тур 1 из 2: 1 стол.") for line in said)
        assert any(line.startswith("Без пары (засчитывается как победа): ") for line in said)
        assert any(line.startswith("🔓 Его кости: зерно ") for line in said)
        records = [m.card for m in world.platform.messages if isinstance(m.card, cards.Records)]
        assert records[0].lines[0] == "Положение после тура 1"
        assert records[-1].lines[0] == "🏆 Турнир окончен: итоговая таблица"
        (final,) = [m for m in world.platform.messages if isinstance(m.card, cards.Review)]
        assert final.languages == ["ru"] and final.card.lines[0].startswith("🥇 ")  # type: ignore[union-attr]
        assert world.platform.opened[0][1] == "Тур 1 · Стол 1"


async def test_the_hint_at_an_events_table_weighs_place_points(tmp_path: Path) -> None:
    async with opened(tmp_path, seeds=seeds) as world:
        await world.command(ALICE, "tournament", admin=True)
        await press(world, ALICE, "am")
        await press(world, ALICE, "b")
        await world.tables.director.idle()
        event = await the_event(world)
        (table,) = event.rounds[0].tables
        key = ChannelKey.parse(table.channel)
        game = await turn_for(world, key, ALICE)  # the computer plays first where it drew so
        ref = BoardRef.loads(await world.repository.board(game.id))
        assert ref is not None
        board = world.platform.find(ref)
        assert board is not None
        await world.press(board, ALICE, "r")
        exchange = world.asking(ALICE, key)
        await command(world.tables, exchange, typed(["hint"]))
        (hint,) = exchange.privately
        assert isinstance(hint, cards.Hint) and hint.places
        assert len(hint.shares) == len(hint.options)
        assert all(0.0 <= share <= 1.0 for share in hint.shares)
        drawn = of(T, hint, SHAPE)
        assert isinstance(drawn, LayoutMessage)
        title = drawn.lines[0].spans[0].text
        assert title.endswith("expected place points in the tournament, 0 to 1):")


async def test_a_round_whose_time_is_up_closes_its_tables_as_they_stand(tmp_path: Path) -> None:
    people = [ALICE, BOB, CAROL, DAN]
    async with opened(tmp_path, seeds=seeds) as world:
        await world.command(ALICE, "tournament", admin=True)
        for person in people[1:]:
            await press(world, person, "j")
        for _ in range(3):
            await press(world, ALICE, "csize")  # tables of two
        for _ in range(5):
            await press(world, ALICE, "crounds")  # 3 → … → 7 → 2
        await press(world, ALICE, "b")
        await world.tables.director.idle()
        event = await the_event(world)
        first = event.rounds[0]
        assert [len(t.players) for t in first.tables] == [2, 2] and first.deadline > 0
        # Dan leaves during the first round: his table plays on, the second round is without him.
        assert await press(world, DAN, "l") == []
        await world.tables.director.tick(now=first.deadline - 1)
        assert not (await the_event(world)).rounds[0].done  # not yet
        await world.tables.director.tick(now=first.deadline + 1)
        event = await the_event(world)
        assert event.rounds[0].done and len(event.rounds) == 2
        for table in event.rounds[0].tables:  # nobody threw: level at 0, half a point each
            assert [p.score for p in table.placings] == [0.5, 0.5]
            game = await world.service.last_finished(ChannelKey.parse(table.channel))
            assert game is not None and game.phase is Phase.FINISHED
        closed = [m for m in world.platform.messages if isinstance(m.card, cards.Lines)
                  and m.card.lines == (T("event-table-closed"),)]  # fmt: skip
        assert len(closed) == 2 and all(m.channel.thread for m in closed)
        second = event.rounds[1]
        assert DAN.id not in {p for t in second.tables for p in t.players} | set(second.byes)
        assert len(second.tables) == 1 and len(second.byes) == 1
        assert await press(world, ALICE, "x") == []  # the host cancels: its table is closed
        await world.tables.director.idle()
        event = await the_event(world)
        assert event.phase is EventPhase.CANCELLED
        assert await world.service.active_games("tc") == []
        card = event_message(world).card
        assert isinstance(card, cards.EventCard) and card.event.phase is EventPhase.CANCELLED
        assert event_message(world).buttons == ()  # nothing left to press
        assert await press(world, BOB, "j") == [T("error-bad-action")]


async def test_an_events_table_has_no_rematch_even_asked_for_by_hand(tmp_path: Path) -> None:
    async with opened(tmp_path, seeds=seeds) as world:
        await world.command(ALICE, "tournament", admin=True)
        await press(world, ALICE, "am")
        for _ in range(5):
            await press(world, ALICE, "crounds")  # 3 → … → 7 → 2
        await press(world, ALICE, "b")
        await world.tables.director.idle()
        event = await play_people(world, [ALICE], EventPhase.FINISHED)
        key = ChannelKey.parse(event.rounds[0].tables[0].channel)
        game = await world.service.last_finished(key)
        assert game is not None and game.end_reason in RECORDED_ENDS  # one that counts
        with pytest.raises(GameError) as refused:
            await world.service.rematch(key, ALICE, game.id)
        assert refused.value.code is ErrorCode.REMATCH_UNAVAILABLE
        assert await world.service.game(key) is None
