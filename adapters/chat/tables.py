"""The tables of one chat platform: their language, their boards and what is shown after an
action, written once for every front end.

A game lives in a chat as boards (see plan.py). After an action the plan is carried out here:
the board redrawn (as the press's own answer where the platform can), the final message, the
next player's new board, notices. Discord or Telegram failing never undoes a game: it was saved
before anything is shown; the log says so once (faults.py), and a board that could not be posted
is posted again at the next command or press at that table ("repair").
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from functools import partial

from adapters.chat import cards, metrics
from adapters.chat.boards import FINAL_SHOWN, BoardRef, BoardStore, Drawn
from adapters.chat.faults import Troubles
from adapters.chat.language import choose, current, own, speak
from adapters.chat.order import Order
from adapters.chat.pacing import Redraws
from adapters.chat.plan import plan
from adapters.chat.review import game_review
from adapters.chat.sheets import Sheets
from adapters.chat.surface import Exchange, Platform
from adapters.i18n import Translator, normalize_locale, translator
from adapters.i18n.narration import narrate
from adapters.i18n.ratings import rating_line
from adapters.logcontext import bind
from adapters.ratelimit import RateLimiter, Verdict
from core.chat_settings import ChatSettings, SheetStyle
from core.events import RECORDED_ENDS, GameEnded, PlayerLeft, TurnStarted
from core.game import Game
from core.identity import ChannelKey
from core.service import GameService, Outcome
from core.view import GameView, make_view

# More players than this and a text sheet takes more than two phone-wide blocks: a picture.
PICTURE_ABOVE = 8
FLUSH = 5.0  # seconds a stop waits for boards still to be redrawn
STRIPPED = 2**62  # the version an old board is stripped at: no later state redraws it


class Tables:
    """Everything a platform's tables share; the front end gives it `platform` to draw and call."""

    def __init__(
        self,
        service: GameService,
        boards: BoardStore,
        platform: Platform,
        log: logging.Logger,
        *,
        locale: str = "en",
        pause: float = 1.0,
        limiter: RateLimiter | None = None,
    ) -> None:
        self.service = service
        self.boards = boards
        self.platform = platform
        self.log = log
        self.default_t = translator(normalize_locale(locale))
        self.pause = pause
        self.limiter = limiter or RateLimiter()
        self.troubles = Troubles(log, platform.name, platform.forbidden)
        self.drawn = Drawn()
        self.redraws = Redraws(self._draw_board, lambda ref: platform.pace.ready(str(ref.chat)))
        self.sheets = Sheets()
        self.order = Order()  # one table's actions in order, and what they show
        self._lost: dict[str, str] = {}  # channel → game whose live board could not be posted

    @property
    def t(self) -> Translator:
        """The table's language: for what the chat sees (see `settings_for`)."""
        return current(self.default_t)

    @property
    def own(self) -> Translator:
        """The language of the person being answered: for what only they see."""
        return own(self.default_t)

    # ------------------------------------------------------------------ language and settings

    async def settings_for(
        self, channel: ChannelKey, exchange: Exchange | None = None, game: Game | None = None
    ) -> ChatSettings:
        """Load the chat's settings and take up the languages for the rest of this task. The
        table's: the chat's choice, else the language its game opened with (kept, so that a
        computer's turn or a restart speaks it too), else the person's, else the place's (a
        server's), else the bot's. The person's own: theirs, else the table's. `game`: the one
        being shown, where the caller has it (a move that ended it: no longer the table's)."""
        place = await (exchange.place() if exchange else self.platform.place(channel))
        settings = await self.service.chat_settings(self.platform.key, place.chat)
        game = game or await self.service.game(channel)
        bind(platform=self.platform.name, chat=channel.chat, game=game.id if game else "")
        person = exchange.locale if exchange else None
        table = choose(
            self.default_t, settings.language, game.language if game else None, person, place.locale
        )
        speak(table, choose(table, person))
        return settings

    def settings_refused(self) -> cards.Lines:
        """Who may change the settings, in the platform's terms (a Discord server's permission,
        a Telegram chat's administrators)."""
        return cards.Lines((self.own("settings-admins-only", platform=self.platform.name),))

    def as_the_chat(self) -> None:
        """Answer this person in the table's language too: the settings screen describes the
        chat, and a new language must show on it at once."""
        speak(self.t)

    async def chat_settings(self, channel: ChannelKey) -> ChatSettings:
        place = await self.platform.place(channel)
        return await self.service.chat_settings(self.platform.key, place.chat)

    async def slowed(self, exchange: Exchange) -> bool:
        """The per-person flood limit: beyond it "slow down" (once, unless saying it costs
        nothing), then silence; every press is still acknowledged."""
        verdict = self.limiter.check(exchange.person.id)
        if verdict is not Verdict.ALLOW:
            metrics.flood_limited()
        if verdict is Verdict.WARN or (verdict is Verdict.DROP and exchange.quiet):
            await exchange.private(cards.Lines((self.own("error-slow-down"),)))
        elif verdict is Verdict.DROP:
            await exchange.ack()
        return verdict is not Verdict.ALLOW

    @contextlib.asynccontextmanager
    async def serial(self, channel: ChannelKey, exchange: Exchange) -> AsyncIterator[None]:
        """One action at a time per table, shown in order (see order.py); a lost board comes
        back after it. An action that waits more than a moment is acknowledged first; one that
        waits less is answered by what it does (on Discord, the pressed board redrawn: one
        call, not a deferral and an edit)."""
        async with self.order.turn(channel, exchange.ack):
            yield
            await self.heal(channel)

    # ------------------------------------------------------------------ what an action shows

    async def publish(
        self, channel: ChannelKey, outcome: Outcome, exchange: Exchange | None = None
    ) -> None:
        """Bring the chat up to date with an applied action (see plan.py). `exchange` is the
        command or press that made it, None for a move the service made by itself."""
        await self.order.shown(channel)  # the next action may act; this one's turn to show
        view, events = outcome.view, outcome.events
        bind(game=view.game_id)  # a game just opened, or the one acted on
        if exchange is not None:  # the bot's own moves are counted as they come (publish_in_turn)
            metrics.outcome(self.platform.name, events)
        steps = plan(view, events)

        async def say(card: cards.Card) -> int:
            if exchange is not None:
                return await exchange.public(card)
            return await self.platform.send(channel, card)

        ref = BoardRef.loads(await self.boards.board(view.game_id))
        if steps.redraw is not None and ref is not None:
            card = cards.Redrawn(steps.redraw, view, steps.told)
            await self.redraw_board(channel, exchange, view.game_id, ref, card, view.version)
        elif steps.strip and ref is not None:
            await self.redraw_board(
                channel, exchange, view.game_id, ref, cards.Stripped(), view.version
            )
        if steps.final:
            self._lost.pop(str(channel), None)  # no board of an ended game is owed
            await say(await self.final(channel, view))
            await self.boards.set_board(view.game_id, FINAL_SHOWN)
        if steps.new_board:
            preface = tuple(narrate(self.t, view, steps.preface))
            try:
                message = await say(cards.Board(view, notify=True, preface=preface))
            except self.platform.errors:
                # No live board now: nothing to redraw until one is posted again (heal).
                self._lost[str(channel)] = view.game_id
                await self.boards.set_board(view.game_id, "")
                raise
            self._lost.pop(str(channel), None)
            new = BoardRef(int(channel.chat), message)
            self.drawn.remember(new, view.version)
            await self.boards.set_board(view.game_id, new.dumps())
        for event in steps.notice:
            player = view.player(getattr(event, "player_id", ""))
            if player is not None:
                await say(cards.Notice(narrate(self.t, view, [event])[0], player))

    async def publish_in_turn(
        self, channel: ChannelKey, outcome: Outcome, patience: float | None = None
    ) -> None:
        """Show a move the service made by itself, in the chat's language; the platform failing
        is logged (once) and does not stop the game. What comes next (a computer's next step,
        the next deadline) waits for this move to be drawn, a computer's for its `patience`
        at most: in a busy group, where a slot comes every few seconds, a computer plays on
        at its pace and its board shows the newest step each slot."""
        metrics.outcome(self.platform.name, outcome.events)
        try:
            await self.settings_for(channel, game=outcome.game)
            async with self.order.turn(channel):
                await self.heal(channel)
                await self.publish(channel, outcome)
        except self.platform.errors as error:
            self.troubles(channel, error)
        await self.redraws.settled(int(channel.chat), patience)

    async def redraw_board(
        self,
        channel: ChannelKey,
        exchange: Exchange | None,
        game_id: str,
        ref: BoardRef,
        card: cards.Redrawn | cards.Board | cards.Stripped,
        version: int,
    ) -> None:
        """Redraw a board: as the press's answer where it was pressed and the platform can,
        else by an edit that waits for the platform's pace without holding the table up (a
        newer state replaces one still waiting: see pacing.py)."""
        if self.drawn.shows(ref, version):
            return  # it shows this version already
        if exchange is not None and ref == exchange.pressed and await exchange.update(card):
            self.drawn.remember(ref, version)
            return
        self.redraws.request(channel, game_id, ref, card, version)

    async def _draw_board(
        self, channel: ChannelKey, game_id: str, ref: BoardRef, card: cards.Card, version: int
    ) -> None:
        """The edit itself; one deleted while it still had buttons is sent anew. The platform
        failing is logged once: the next press redraws."""
        try:
            await self._edit_board(channel, game_id, ref, card, version)
        except self.platform.errors as error:
            self.troubles(channel, error)

    async def _edit_board(
        self, channel: ChannelKey, game_id: str, ref: BoardRef, card: cards.Card, version: int
    ) -> None:
        if self.drawn.shows(ref, version):
            return
        if not await self.platform.edit(ref, card):
            if not cards.live(card):
                self.log.info("board %s of game %s is gone", ref, game_id)
                return
            self.log.info("board %s of game %s was deleted; sending it again", ref, game_id)
            ref = BoardRef(ref.chat, await self.platform.send(channel, card))
            await self.boards.set_board(game_id, ref.dumps())
        self.drawn.remember(ref, version)

    async def strip(
        self, channel: ChannelKey, game_id: str, ref: BoardRef, exchange: Exchange | None = None
    ) -> None:
        """An old board loses its buttons (it may be gone or out of reach already): as the
        press's answer where the platform can, else by an edit at the chat's pace that no
        press waits for."""
        if (
            exchange is not None
            and ref == exchange.pressed
            and await exchange.update(cards.Stripped())
        ):
            return
        self.redraws.request(channel, game_id, ref, cards.Stripped(), STRIPPED)

    async def final(self, channel: ChannelKey, view: GameView) -> cards.Final:
        """Who won, the sheet (a picture where the chat chose them or a big table needs one),
        everyone's new rating here, how everyone played."""
        review = tuple(await game_review(self.t, self.service, view)) if view.round else ()
        ratings: tuple[str, ...] = ()
        if view.end_reason in RECORDED_ENDS:
            changes = await self.service.records.game_ratings(view.game_id, channel)
            ratings = tuple(rating_line(self.t, view, changes))
        picture = await self.picture(channel, view) if view.round else None
        return cards.Final(view, review, picture, ratings)

    async def owed_final(self, channel: ChannelKey) -> bool:
        """Send the final message of the last game here if it never went out (the process that
        ended it died first, or the platform refused it): whoever acts next learns how it
        ended. True if it was owed. It is claimed before it is sent, so that of two processes
        asked at once one sends it; should sending fail, it is owed again."""
        if self.order.showing(channel):
            return False  # an action still to be shown here sends it, if it ended the game
        game = await self.service.last_finished(channel)
        stored = await self.boards.board(game.id) if game is not None else None
        if game is None or stored is None or BoardRef.loads(stored) is None:
            return False
        if not await self.boards.claim_board(game.id, stored, FINAL_SHOWN):
            return True  # another process is sending it
        self.log.info("sending the final message of game %s again", game.id)
        try:
            log = await self.service.events(game.id)
            turns = [index for index, event in enumerate(log) if isinstance(event, TurnStarted)]
            last_turn = tuple(log[turns[-1] if turns else 0 :])  # the ending action's: its verdict
            view = make_view(game, events=last_turn)
            await self.platform.send(channel, await self.final(channel, view))
        except Exception:
            await self.boards.claim_board(game.id, FINAL_SHOWN, stored)
            raise
        return True

    async def sheet(self, channel: ChannelKey, view: GameView, *, text: bool) -> cards.Sheet:
        return cards.Sheet(view, None if text else await self.picture(channel, view))

    async def show_sheet(
        self, exchange: Exchange, view: GameView, *, text: bool, pressed: bool
    ) -> None:
        """The score sheet, for whoever asks (a command, or the board's button): to the presser
        alone where the platform can (or an outsider, where it whispers); else posted in the
        chat once per turn, by a player; otherwise a line saying why not. A busy group's
        minute is not spent on a sheet the chat has seen."""
        channel, seated = exchange.channel, view.player(exchange.person.id) is not None
        if not (seated or exchange.whispers):
            await exchange.private(cards.Lines((self.own("sheet-for-players"),)))
            return
        sheet = await self.sheet(channel, view, text=text)
        if (pressed or not seated) and await exchange.direct(sheet):
            return
        if self.sheets.first_post(channel, view, picture=sheet.picture is not None):
            await exchange.public(sheet)
        elif exchange.whispers:
            await exchange.private(sheet)
        else:
            await exchange.private(cards.Lines((self.own("sheet-above"),)))

    async def picture(self, channel: ChannelKey, view: GameView) -> bytes | None:
        settings = await self.chat_settings(channel)
        if settings.sheet is SheetStyle.PICTURE or len(view.players) > PICTURE_ABOVE:
            return await self.sheets.picture(self.t, view)
        return None

    def seating(self, outcome: Outcome, name: str) -> list[str]:
        """Who sat down or left, unless the board says it (see plan.py); never the game's end,
        which its final message says. A player who leaves a lobby is no longer in the view,
        where `narrate` looks names up: `name` (the leaver's) is used for them."""
        view = outcome.view
        said = (
            *plan(view, outcome.events).told,
            *(e for e in outcome.events if isinstance(e, GameEnded)),
        )
        events = [e for e in outcome.events if e not in said]
        gone = [e for e in events if isinstance(e, PlayerLeft) and not view.player(e.player_id)]
        rest = [e for e in events if e not in gone]
        return [self.t("event-left", name=name) for _ in gone] + narrate(self.t, view, rest)

    # ------------------------------------------------------------------ repair

    async def repost_board(self, channel: ChannelKey) -> None:
        """Show the live board again at the bottom of the chat; the old one loses its buttons."""
        game: Game | None = await self.service.game(channel)
        if game is None:
            self._lost.pop(str(channel), None)
            return
        old = BoardRef.loads(await self.boards.board(game.id))
        message = await self.platform.send(channel, cards.Board(make_view(game)))
        ref = BoardRef(int(channel.chat), message)
        self.drawn.remember(ref, game.version)
        await self.boards.set_board(game.id, ref.dumps())
        self._lost.pop(str(channel), None)
        if old is not None:
            await self.strip(channel, game.id, old)

    async def heal(self, channel: ChannelKey) -> None:
        """A table whose live board could not be posted gets it now."""
        if str(channel) in self._lost:
            self.log.info("posting the board of %s again", channel)
            await self.repost_board(channel)

    def found_live(self, channel: ChannelKey) -> None:
        """The live board of the channel is known again."""
        self._lost.pop(str(channel), None)

    # ------------------------------------------------------------------ on its own

    async def flush(self, timeout: float = FLUSH) -> None:
        """At a stop: let the boards still waiting for their edit get it (a while at most)."""
        try:
            await asyncio.wait_for(self.redraws.idle(), timeout)
        except TimeoutError:
            self.log.warning("stopping with boards not yet redrawn; the next press redraws them")

    async def resume(self) -> None:
        """At start-up: re-arm the stored deadlines; boards lost before a restart are posted at
        the next chance; computers finish turns a restart cut short."""
        key = self.platform.key
        self.service.on_deadline(key, self.on_deadline)
        await self.service.resume_deadlines(key)
        for game in await self.service.active_games(key):
            if BoardRef.loads(await self.boards.board(game.id)) is None:
                self._lost[str(game.channel)] = game.id
            await self.wake_computers(game.channel)

    async def wake_computers(self, channel: ChannelKey) -> None:
        """Let the computers of this table play their turns (if it is one of theirs)."""
        try:
            settings = await self.chat_settings(channel)
        except Exception:
            self.log.exception("waking the computers of %s failed", channel)
            return
        pause = self.pause if settings.computer_pause is None else settings.computer_pause
        publish = partial(self.publish_in_turn, channel, patience=pause)
        self.service.wake_computers(channel, publish, pause)

    async def on_deadline(self, channel: ChannelKey, outcome: Outcome) -> None:
        """The bot acted by itself (a reminder, an expired turn, a closed table): show it."""
        metrics.timer_fired(self.platform.name, outcome.events)
        await self.publish_in_turn(channel, outcome)
        await self.wake_computers(channel)
