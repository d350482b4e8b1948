"""One open page of a table: the table's states pushed to it as they are saved, its presses
carried out as the chats' are (adapters/chat/page.py).

A page watches its channel, not one game: a rematch opened at the table follows on the same
page. It watches before it reads the table, so that nothing saved meanwhile is missed; an
outcome older than what the page was last sent is skipped. A finished game's page gets its
replay, then whatever the table does next.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import orjson
from aiohttp import WSMsgType, web

from adapters.chat.page import page_press
from adapters.chat.review import review_of
from adapters.chat.tables import Tables
from adapters.i18n import Translator
from adapters.web.exchange import PageExchange
from adapters.web.replay import frames
from adapters.web.state import Ending, State, state
from adapters.web.texts import page_texts
from core.events import RECORDED_ENDS, Event
from core.identity import ChannelKey, PlayerRef
from core.table import Game
from core.timeouts import turn_ends
from core.view import make_view

log = logging.getLogger(__name__)
PRESS_LIMIT = 256  # bytes of a page's message: a press is a few dozen
IN_FLIGHT = 4  # a page's presses carried out at once (a flood waits for its turn to be read)
PRESSES_END = 10.0  # seconds a closing page gives its presses to end whole
SHARED = 256  # the newest spectators' states kept, for the other spectators of the same outcome
# A spectator's state of an outcome, by game, version, language and events shown: every
# spectator of a table is sent the same, so it is made once (its clock, `now`, set per page).
_shared: OrderedDict[tuple[str, int, str, int], State] = OrderedDict()


@dataclass(frozen=True)
class Viewer:
    """Who a page is: a seated or would-be player (`person`), or a spectator (None); their
    language where their platform told it; when their session ends."""

    person: PlayerRef | None
    locale: str | None
    expires: float


class Live:
    """One page's socket, from its first state to its close."""

    def __init__(
        self,
        socket: web.WebSocketResponse,
        tables: Tables,
        channel: ChannelKey,
        viewer: Viewer,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.socket, self.tables, self.channel = socket, tables, channel
        self.viewer, self.clock = viewer, clock
        self.shown: Game | None = None  # the game last sent, as it was then
        self.left: set[str] = set()  # the games the page moved on from (a rematch followed)
        self.words: Translator | None = None  # the table's language, as last sent
        self._presses: set[asyncio.Task[None]] = set()
        self._room = asyncio.Semaphore(IN_FLIGHT)

    async def run(self, named: str = "") -> None:
        """Until the page closes; `named`: the game its link named (a finished one replays)."""
        watch = self.tables.service.watch(self.channel)
        reading = asyncio.create_task(self._read())
        try:
            await self._begin(named)
            while not reading.done():
                waiting = asyncio.create_task(watch.next())
                done, _ = await asyncio.wait(
                    {waiting, reading}, return_when=asyncio.FIRST_COMPLETED
                )
                if waiting not in done:
                    waiting.cancel()
                    break
                outcome = waiting.result()
                await self._show(outcome.game, outcome.events)
        finally:
            watch.close()
            reading.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await reading
            await self._finish_presses()

    async def send(self, message: dict[str, Any]) -> None:
        if not self.socket.closed:
            with contextlib.suppress(ConnectionError):
                await self.socket.send_str(orjson.dumps(message).decode())

    async def _begin(self, named: str) -> None:
        """The game the link named where it is over (its replay), else the table's game in
        play, else its last finished one."""
        service = self.tables.service
        linked = await service.find_game(named) if named else None
        if linked is not None and linked.channel == self.channel and not linked.phase.active:
            await self._replay(linked)
            return
        game = await service.game(self.channel)
        if game is not None:
            await self._show(game, ())
            return
        finished = await service.last_finished(self.channel)
        if finished is None:
            t = await self._texts(None)
            await self.send({"type": "error", "code": "no_table", "text": t("web-not-found")})
            await self.socket.close()
            return
        await self._replay(finished)

    async def _texts(self, game: Game | None) -> Translator:
        """The table's language; the page is sent its words again when it changes."""
        _, voices = await self.tables.languages.of(self.channel, None, game)
        t = voices.table
        if self.words is None or t.locale != self.words.locale:
            await self.send({"type": "texts", "language": t.locale, "texts": page_texts(t)})
        self.words = t
        return t

    async def _show(self, game: Game, events: tuple[Event, ...]) -> None:
        """Send the game as this viewer sees it, unless the page has it, or newer, already."""
        if self._behind(game):
            return
        t = await self._texts(game)
        viewer = self.viewer.person.id if self.viewer.person else None
        key = (game.id, game.version, t.locale, len(events))
        sent = _shared.get(key) if viewer is None else None
        if sent is not None:
            sent = {**sent, "now": self.clock()}
        else:
            view = make_view(game, viewer, events)
            ending = None
            if view.end_reason in RECORDED_ENDS:
                ending = await self._ending(t, game)
            sent = state(
                t,
                view,
                table=game.id,
                now=self.clock(),
                deadline=turn_ends(game),
                ending=ending,
            )
            if viewer is None:
                _shared[key] = sent
                while len(_shared) > SHARED:
                    _shared.popitem(last=False)
        self._moved(game)
        await self.send({"type": "state", "state": sent})

    def _behind(self, game: Game) -> bool:
        """Whether the page shows this game's state, or a newer one, already. Outcomes saved
        before the page read the table may still be queued: of the game shown, the older
        versions; of another, a game finished before the one in play opened, or one the page
        moved on from."""
        shown = self.shown
        if shown is None:
            return False
        if game.id == shown.id:
            return game.version <= shown.version
        return game.id in self.left or (shown.phase.active and not game.phase.active)

    def _moved(self, game: Game) -> None:
        if self.shown is not None and self.shown.id != game.id:
            self.left.add(self.shown.id)
        self.shown = game

    async def _ending(self, t: Translator, game: Game) -> Ending:
        reviewed = await review_of(t, self.tables.service, make_view(game))
        story = reviewed.story
        chart: tuple[tuple[float, ...], ...] = ()
        if story is not None:
            seats = [
                story.seats.index(s.player.id) for s in game.seats if s.player.id in story.seats
            ]
            if len(seats) == len(game.seats):
                chart = tuple(tuple(point[i] for i in seats) for point in story.chances)
        lines = reviewed.lines
        if lines and lines[0] == t("review-title"):
            lines = lines[1:]  # the page heads the review with its own words
        return Ending(lines, chart)

    async def _replay(self, game: Game) -> None:
        t = await self._texts(game)
        events = tuple(await self.tables.service.events(game.id))
        viewer = self.viewer.person.id if self.viewer.person else None
        ending = await self._ending(t, game) if game.end_reason in RECORDED_ENDS else None
        shown = await asyncio.to_thread(frames, game, events)
        now, count = self.clock(), len(shown)
        sent: list[State] = [
            state(
                t,
                make_view(frame, viewer, made),
                table=game.id,
                now=now,
                ending=ending if index == count - 1 else None,
                frame=(index, count),
            )
            for index, (frame, made) in enumerate(shown)
        ]
        self._moved(game)
        await self.send({"type": "replay", "frames": sent})

    async def _read(self) -> None:
        """The page's presses until it closes, each carried out on its own: a press waits for
        its table as a chat button's does, not for what the one before shows in the chat (a
        turn's result in a busy group can wait seconds for its minute). A page presses on the
        state it was last sent, so its presses stay in order by their versions; at most
        IN_FLIGHT at once."""
        async for message in self.socket:
            if message.type is not WSMsgType.TEXT and message.type is not WSMsgType.BINARY:
                break
            if self.viewer.expires <= self.clock():
                t = self.words or await self._texts(None)
                over = {"type": "error", "code": "expired", "text": t("web-session-over")}
                await self.send(over)
                await self.socket.close()
                break
            await self._room.acquire()
            press = asyncio.create_task(self._pressed(message.data))
            self._presses.add(press)
            press.add_done_callback(self._pressed_done)

    def _pressed_done(self, press: asyncio.Task[None]) -> None:
        self._presses.discard(press)
        self._room.release()
        if not press.cancelled() and press.exception() is not None:
            log.error("a page's press in %s failed", self.channel, exc_info=press.exception())

    async def _finish_presses(self) -> None:
        """A page that closes lets its presses end whole (each is saved, then shown)."""
        if self._presses:
            await asyncio.wait(set(self._presses), timeout=PRESSES_END)

    async def _pressed(self, data: str | bytes) -> None:
        t = self.words or await self._texts(None)
        press = _press(data)
        person = self.viewer.person
        if person is None:
            await self.send({"type": "refused", "text": t("web-spectator-press")})
        elif press is None or self.shown is None:
            await self.send({"type": "refused", "text": t("error-bad-action")})
        else:
            code, version = press
            exchange = PageExchange(
                self.channel, person, self.viewer.locale, self.tables.platform, self.send
            )
            await page_press(self.tables, exchange, self.shown.id, version, code)


def _press(data: str | bytes) -> tuple[str, int] | None:
    """A page's `{"press": code, "version": n}`; None for anything else."""
    if len(data) > PRESS_LIMIT:
        return None
    try:
        message = orjson.loads(data)
    except orjson.JSONDecodeError:
        return None
    if not isinstance(message, dict):
        return None
    code, version = message.get("press"), message.get("version")
    if not isinstance(code, str) or type(version) is not int or version < 0:
        return None
    return code, version
