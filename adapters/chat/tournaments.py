"""`/general tournament` and what runs it, once for every chat: the event's message and its
buttons, and the director that moves each event on (tables placed in threads and opened, results
taken, rounds paired, standings said) from what is stored, so that a restart, a SIGKILL or a
second process picks up where the last step was saved. Every step is saved with the event's
version, and one process at a time steps an event (a lease, taken over once its holder died).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from adapters.chat import cards, metrics
from adapters.chat.boards import BoardRef
from adapters.chat.envelope import envelope
from adapters.chat.event_words import final_cards, round_over_cards, round_start_lines
from adapters.chat.payload import EventPress
from adapters.chat.surface import Exchange
from adapters.chat.voices import Voices, choose
from adapters.i18n import Translator
from adapters.i18n.refusals import error_message
from core import tournament as tm
from core.chat_settings import ChatSettings
from core.errors import ErrorCode, GameError
from core.identity import ChannelKey
from core.outcome import Outcome
from core.service import new_game_id
from core.table import Phase
from core.tournament_snapshot import event_from_record, event_record

if TYPE_CHECKING:
    from adapters.chat.tables import Tables

# What an event says at a step, in the reader's words, from the event as it is then.
Said = Callable[[Translator, tm.Tournament], Awaitable[list[cards.Card]]]
TICK = 30.0  # how often the events are looked at (deadlines; steps a crash cut short)
STEPS = 200  # changes one look makes to an event at most (each saved)
NUDGES, NUDGE_AGAIN = 5, 1.0


class Director:
    """Moves every event of the platform on; a step for one event at a time in this process."""

    def __init__(self, tables: Tables, log: logging.Logger) -> None:
        self.tables = tables
        self.log = log
        self.clock = time.time
        self._locks: defaultdict[str, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._task: asyncio.Task[None] | None = None
        self._steps: set[asyncio.Task[None]] = set()

    # ------------------------------------------------------------------ storage

    async def load(self, event_id: str) -> tm.Tournament | None:
        record = await self.tables.service.tournaments.tournament(event_id)
        return None if record is None else event_from_record(record)

    async def _save(self, new: tm.Tournament, previous: int | None) -> bool:
        """False where another step saved first (the caller reads the event again)."""
        try:
            await self.tables.service.tournaments.save_tournament(event_record(new), previous)
        except GameError as error:
            if error.code is ErrorCode.STALE:
                return False
            raise
        return True

    async def in_chat(self, channel: ChannelKey) -> tm.Tournament | None:
        """The event not over whose messages are in this channel."""
        records = await self.tables.service.tournaments.open_tournaments(
            channel.platform, channel.chat
        )
        events = [event_from_record(record) for record in records]
        return next((e for e in events if e.channel == channel), None)

    # ------------------------------------------------------------------ people

    async def command(self, exchange: Exchange, voices: Voices) -> None:
        """/general tournament: the chat's event shown again, or (its managers) a new one."""
        async with self._locks[str(exchange.channel)]:  # two at once open one event
            await self._command(exchange, voices)

    async def _command(self, exchange: Exchange, voices: Voices) -> None:
        t, own, channel = voices.table, voices.own, exchange.channel
        event = await self.in_chat(channel)
        if event is not None:
            message = await exchange.public(cards.EventCard(event), self._voice(event, t))
            async with self._locks[event.id]:
                fresh = await self.load(event.id)
                if fresh is not None:
                    await self._save(tm.posted(fresh, message), fresh.version)
            return
        if not await exchange.may_configure():
            metrics.refused(metrics.NOT_ADMIN)
            said = own("event-admins-only", platform=self.tables.platform.name)
            await exchange.private(cards.Lines((said,)), own)
            return
        new = tm.open_event(new_game_id(), channel, exchange.person, t.locale, self.clock())
        await self._save(new, None)
        message = await exchange.public(cards.EventCard(new), t)
        await self._save(tm.posted(new, message), new.version)

    async def pressed(
        self, exchange: Exchange, voices: Voices, press: EventPress, carried: bool
    ) -> None:
        """A button of an event's message: only from the message that shows it."""
        own = voices.own
        if not carried:
            metrics.refused(ErrorCode.BAD_ACTION)
            await exchange.private(cards.Lines((own("error-bad-action"),)), own)
            return
        async with self._locks[press.event_id]:
            event = await self.load(press.event_id)
            try:
                if event is None:
                    raise GameError(ErrorCode.NO_EVENT)
                new = await self._changed(event, exchange, voices, press)
                if not await self._save(new, event.version):
                    raise GameError(ErrorCode.STALE)
            except GameError as error:
                metrics.refused(error.code)
                await exchange.private(cards.Lines((error_message(own, error),)), own)
                return
            t = self._voice(new, voices.table)
            await exchange.note(own(_noted(press, new)))
            await exchange.redraw(cards.EventCard(new), t)
        if new.phase is tm.EventPhase.CANCELLED and event.phase is tm.EventPhase.PLAYING:
            await self._close_tables(new)
        if new.phase is tm.EventPhase.PLAYING:
            self.nudge(new.id)

    async def _changed(
        self, event: tm.Tournament, exchange: Exchange, voices: Voices, press: EventPress
    ) -> tm.Tournament:
        person = exchange.person
        if press.rule is not None:
            return tm.configure(event, person.id, press.rule)
        if press.computer is not None:
            name = voices.table(f"computer-{press.computer.value}")
            return tm.add_computer(event, person.id, press.computer.value, name)
        match press.code:
            case "j":
                return tm.enter(event, person)
            case "l":
                return tm.leave(event, person.id)
            case "x":
                return tm.cancel(event, person.id)
            case "b":
                return await self._started(event, person.id, voices.table)
        raise GameError(ErrorCode.BAD_ACTION)

    async def _started(self, event: tm.Tournament, host: str, t: Translator) -> tm.Tournament:
        """Round 1 paired; where it has several tables, the first one's thread is made now,
        so that a chat that has none is told before anything starts."""
        started = tm.start(event, host, self.tables.service.new_seed(), self.clock())
        first = started.rounds[0]
        if len(first.tables) > 1:
            where = await self.tables.platform.open_thread(event.channel, _title(t, 1, 1))
            if where is None:
                raise GameError(ErrorCode.NO_THREADS)
            started = tm.table_placed(started, 1, 1, str(where))
        return started

    # ------------------------------------------------------------------ the running

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        tasks = [*self._steps, *([self._task] if self._task else [])]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._task = None

    async def _run(self) -> None:
        while True:
            try:
                await self.tick()
            except Exception:
                self.log.exception("moving the tournaments on failed")
            await asyncio.sleep(TICK)

    async def tick(self, now: float | None = None) -> None:
        """Every event of the platform begun and not over, moved on as far as it can go now
        (one still taking entries has nothing to do: no lease is taken for it)."""
        records = await self.tables.service.tournaments.open_tournaments(self.tables.platform.key)
        for record in records:
            if event_from_record(record).phase is not tm.EventPhase.OPEN:
                await self.step(record.id, now)

    def nudge(self, event_id: str) -> None:
        """Move an event on soon (a table of it ended, it started): not in the caller's turn."""
        task = asyncio.create_task(self._nudged(event_id))
        self._steps.add(task)
        task.add_done_callback(self._steps.discard)

    async def _nudged(self, event_id: str) -> None:
        """Where another process steps the event, it may have read it just before the news:
        looked at again a moment later (a few times; the next look catches the rest)."""
        try:
            for _ in range(NUDGES):
                if await self.step(event_id):
                    return
                await asyncio.sleep(NUDGE_AGAIN)
        except Exception:
            self.log.exception("moving tournament %s on failed", event_id)

    async def idle(self) -> None:
        """Wait for the steps under way (a test, a stop)."""
        while self._steps:
            await asyncio.gather(*self._steps, return_exceptions=True)

    async def step(self, event_id: str, now: float | None = None) -> bool:
        """Move the event on as far as it goes now; False where another process does (it
        holds the event's lease: one process steps an event, another once it died)."""
        service, lease = self.tables.service, f"event:{event_id}"
        async with self._locks[event_id]:
            try:
                for _ in range(STEPS):
                    if not await service.lead(lease):
                        return False
                    event = await self.load(event_id)
                    if event is None or not await self._once(event, now or self.clock()):
                        return True
            finally:
                await service.unlead(lease)
        return True

    async def _once(self, event: tm.Tournament, now: float) -> bool:
        """One step taken (True), or nothing to do now."""
        current = event.current
        if current is not None and current.done:  # the next round paired, or the event over
            return await self._save(tm.advanced(event, self._seed(), now), event.version) or True
        done = sum(1 for r in event.rounds if r.done)
        if event.phase in (tm.EventPhase.PLAYING, tm.EventPhase.FINISHED) and event.told < done:
            number = event.told + 1
            return await self._tell(event, tm.said(event, number), self._round_over(number))
        if current is None:
            return False
        for table in current.tables:
            if table.done:
                continue
            if not table.channel:
                return await self._place(event, current, table)
            channel = ChannelKey.parse(table.channel)
            game_id = tm.table_game_id(event.id, current.number, table.number)
            game = await self.tables.service.find_game(game_id)
            if game is None:
                if await self._open(event, current, table, channel):
                    return True
                continue
            if game.phase is not Phase.FINISHED and now >= current.deadline:
                closed = await self.tables.service.close_table(channel, game_id)
                if closed is not None:
                    await self._show(channel, closed, event, closing=True)
                game = await self.tables.service.find_game(game_id)
            if game is not None and game.phase is Phase.FINISHED:
                new = tm.table_over(event, current.number, table.number, game)
                return await self._save(new, event.version) or True
        if event.announced < current.number and all(t.channel for t in current.tables):
            claimed = tm.announced(event, current.number)
            return await self._tell(event, claimed, self._round_start)
        return False

    def _seed(self) -> str:
        return self.tables.service.new_seed()

    async def _place(
        self, event: tm.Tournament, round_: tm.EventRound, table: tm.EventTable
    ) -> bool:
        """The table's thread made (the event's own channel where the chat has none and the
        round has one table)."""
        t = self._voice(event, self.tables.languages.default)
        title = _title(t, round_.number, table.number)
        where = await self.tables.platform.open_thread(event.channel, title)
        if where is None:
            if len(round_.tables) > 1:
                self.log.warning("tournament %s: no thread for a table", event.id)
                return False
            where = event.channel
        new = tm.table_placed(event, round_.number, table.number, str(where))
        return await self._save(new, event.version) or True

    async def _open(
        self, event: tm.Tournament, round_: tm.EventRound, table: tm.EventTable, at: ChannelKey
    ) -> bool:
        """The table's game started and its board shown; False where it cannot be now (a game
        of the chat's own is at that table)."""
        settings = await self.tables.languages.settings(event.channel)
        players = [p for p in (event.entrant(i) for i in table.players) if p is not None]
        try:
            outcome = await self.tables.service.open_table(
                at,
                tm.table_game_id(event.id, round_.number, table.number),
                players,
                settings.variants(),
                event.language,
                tm.table_seed(round_, table.number, event.rules.duplicate),
                tm.event_tag(event.id, round_.number, table.number),
            )
        except GameError as error:
            if error.code is not ErrorCode.GAME_EXISTS:
                raise
            self.log.warning("tournament %s: %s has a game of its own", event.id, at)
            return False
        if outcome is not None:
            await self._show(at, outcome, event)
        return True

    async def _show(
        self, channel: ChannelKey, outcome: Outcome, event: tm.Tournament, closing: bool = False
    ) -> None:
        tables = self.tables

        async def show(voices: Voices, settings: ChatSettings) -> None:
            t = self._voice(event, voices.table)
            if closing:
                await tables.platform.send(channel, cards.Lines((t("event-table-closed"),)), t)
            await tables.publisher.publish(channel, outcome, t, None)

        await envelope(tables, channel, show, doing="a tournament's table", game=outcome.game)

    async def _close_tables(self, event: tm.Tournament) -> None:
        current = event.rounds[-1] if event.rounds else None
        for table in current.tables if current else ():
            if table.channel and not table.done:
                channel = ChannelKey.parse(table.channel)
                game_id = tm.table_game_id(event.id, current.number if current else 0, table.number)
                closed = await self.tables.service.close_table(channel, game_id)
                if closed is not None:
                    await self._show(channel, closed, event)

    # ------------------------------------------------------------------ the chat told

    def _voice(self, event: tm.Tournament, fallback: Translator) -> Translator:
        """The event's language (it keeps the one it opened in), as its tables do."""
        return choose(fallback, event.language)

    async def _tell(self, event: tm.Tournament, claimed: tm.Tournament, said: Said) -> bool:
        """Say something once: claimed first (`claimed` saved; of the processes taking this
        step, one does), then said; where the platform fails, the claim is given back and the
        next look says it (a crash in between loses it: the next standings say it all)."""
        if not await self._save(claimed, event.version):
            return True  # another step came first: read the event again
        tables, failed = self.tables, False

        async def say(voices: Voices, settings: ChatSettings) -> None:
            nonlocal failed
            t = self._voice(claimed, voices.table)
            try:
                for card in await said(t, claimed):
                    await tables.platform.send(event.channel, card, t)
                if claimed.message:  # the event's own message shows where it stands
                    ref = BoardRef(event.channel.chat, claimed.message)
                    await tables.platform.edit(ref, cards.EventCard(claimed), t)
            except tables.platform.forbidden:
                raise  # the bot may not write there: it is not asked again
            except tables.platform.errors:
                failed = True
                raise

        await envelope(tables, event.channel, say, doing="a tournament's news", wake=False)
        if failed:
            given_back = tm.said(tm.announced(claimed, event.announced), event.told)
            await self._save(given_back, claimed.version)
        return not failed

    async def _round_start(self, t: Translator, event: tm.Tournament) -> list[cards.Card]:
        return [cards.Lines(tuple(round_start_lines(t, event)))]

    def _round_over(self, number: int) -> Said:
        async def said(t: Translator, event: tm.Tournament) -> list[cards.Card]:
            told = round_over_cards(t, event, number)
            if event.phase is tm.EventPhase.FINISHED and number == len(event.rounds):
                told.extend(await final_cards(t, event))
            return told

        return said


def _title(t: Translator, round_number: int, table: int) -> str:
    return t("event-table-title", round=round_number, table=table)


def _noted(press: EventPress, event: tm.Tournament) -> str:
    """The presser's short word on what their press did."""
    if press.code == "j":
        return "event-entered-you"
    if press.code == "l":
        return "event-withdrawn-you" if event.phase is tm.EventPhase.PLAYING else "event-left-you"
    return "event-set"
