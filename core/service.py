"""The one async part of the core: actions serialised per channel, load → apply → save → view."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import logging
import os
import secrets
import socket
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from core.accuracy import Accuracy, Ended
from core.actions import Action, Leave, Open
from core.broadcast import Broadcast, Watch
from core.chat_settings import ChatSettings
from core.clocks import LEASE, Clocks, TimerPublish
from core.computer import level_of, next_action
from core.dice import Roller, SecureRoller
from core.errors import ErrorCode, GameError
from core.events import RECORDED_ENDS, Event, LobbyOpened
from core.fairdice import new_seed
from core.forget import Forgotten, forgettable, new_alias, scrubbed
from core.game import apply, open_lobby, require_turn
from core.identity import ChannelKey, PlayerRef
from core.locks import ChannelLocks
from core.outcome import Outcome
from core.ports import Boards, GameRepository, Records, Seasons, Subscriptions, Tournaments
from core.presses import TurnPresses, why_stale
from core.rematch import rematch_lobby
from core.service_tables import EventTables
from core.table import Game, Phase
from core.timeouts import act_on, next_deadline
from core.view import GameView, make_view

if TYPE_CHECKING:  # the review and the strategy (numpy) are imported when first used
    from core.review import PlayerReview
    from core.strategy import Choice

log = logging.getLogger(__name__)
Publish = Callable[["Outcome"], Awaitable[None]]
# A computer whose publishing keeps failing gives up after this many tries; the next wake retries.
COMPUTER_TRIES = 3
# How long a stop waits for a computer's step or a deadline being acted on to end whole (a step
# cut off mid-save would leave its connection mid-transaction); longer ones are cancelled.
STEP_ENDS = 5.0


def new_game_id() -> str:
    """Eight lowercase base32 characters: short enough for any button payload, 40 random bits."""
    return base64.b32encode(secrets.token_bytes(5)).decode().lower()


class GameService(EventTables):
    """Front ends call this, and only this, for the games and their records: one action at a
    time per channel, each saved before it is answered and then offered to every watcher of
    its channel (core.broadcast)."""

    def __init__(
        self,
        repository: GameRepository,
        roller: Roller | None = None,
        id_factory: Callable[[], str] = new_game_id,
        clock: Callable[[], float] = time.time,
        seeds: Callable[[], str] = new_seed,
    ) -> None:
        self._repository = repository
        self._roller = roller or SecureRoller()
        self._new_id = id_factory
        self._seeds = seeds
        self._clock = clock
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        self._clocks = Clocks(repository, self._on_deadline, clock)
        self._broadcast = Broadcast()
        self._locks = ChannelLocks()
        self._computers: dict[str, asyncio.Task[None]] = {}
        self._presses = TurnPresses()
        self._accuracy = Accuracy(repository)
        self._closed = False
        self._stopping = asyncio.Event()

    async def act(
        self,
        channel: ChannelKey,
        player: PlayerRef,
        action: Action,
        *,
        game_id: str | None = None,
        version: int | None = None,
    ) -> Outcome:
        """Apply `action`; `game_id`/`version` (from a button) refuse a press on an old board."""
        async with self._locks[channel], self._repository.channel_lock(channel):
            game = await self._repository.active_game(channel)
            now = self._clock()
            if isinstance(action, Open):
                if game is not None:
                    raise GameError(ErrorCode.GAME_EXISTS)
                seed = self._seeds() if action.committed else ""
                new, events = open_lobby(self._new_id(), channel, player, action, now, seed)
                previous = None
            else:
                if game is None or (game_id is not None and game_id != game.id):
                    raise GameError(ErrorCode.GAME_OVER if game_id else ErrorCode.NO_GAME)
                self._presses.seen(game)
                if version is not None:  # a board's press: judged by what that board showed
                    refused = self._presses.judged(game, player, action, version)
                    if refused is not None:
                        raise why_stale(game, player, action, refused)
                new, events = apply(game, player, action, self._roller, now)
                previous = game.version
            await self._repository.save(new, events, previous)
            self._presses.seen(new)
            self._clocks.schedule(new)
            if new.end_reason in RECORDED_ENDS and previous is not None:
                await self._accuracy.record(new)
            return self._offered(Outcome(new.sealed(), events, make_view(new, player.id, events)))

    async def rematch(
        self,
        channel: ChannelKey,
        player: PlayerRef,
        old_game_id: str,
        *,
        version: int | None = None,
    ) -> Outcome:
        """Open the rematch of a finished game of this channel (see core.rematch), `player`
        hosting; `version` (from the button) must be the old game's last. Where the channel has
        a game already, none is opened: GAME_EXISTS, or REMATCH_OPEN where it is this very
        game's rematch (a second press), so that the caller points to it."""
        async with self._locks[channel], self._repository.channel_lock(channel):
            old = await self._repository.get_game(old_game_id)
            if old is None or old.channel != channel or version not in (None, old.version):
                raise GameError(ErrorCode.REMATCH_UNAVAILABLE)
            if old.event:  # a tournament's table: the event pairs the next
                raise GameError(ErrorCode.REMATCH_UNAVAILABLE)
            seed = self._seeds() if old.seed else ""
            new, events = rematch_lobby(old, self._new_id(), player, self._clock(), seed)
            active = await self._repository.active_game(channel)
            if active is not None:
                raise GameError(await self._why_occupied(active, old_game_id))
            await self._repository.save(new, events, None)
            self._clocks.schedule(new)
            return self._offered(Outcome(new.sealed(), events, make_view(new, player.id, events)))

    def _offered(self, outcome: Outcome) -> Outcome:
        self._broadcast.offer(outcome)
        return outcome

    async def listen(self) -> None:
        """Offer the watchers what other processes save too (shared storage): a table played
        from another process is watched here as if it were played here."""
        await self._repository.listen(self._heard, self._broadcast.wanted)

    def _heard(self, game: Game, events: tuple[Event, ...]) -> None:
        self._broadcast.offer(Outcome(game.sealed(), events, make_view(game, None, events)))

    def watch(self, channel: ChannelKey | None = None) -> Watch:
        """Every outcome saved from now on in `channel` (None: in every channel), whatever
        caused it, as a spectator sees it; `close()` the watch when done."""
        return self._broadcast.watch(channel)

    async def _why_occupied(self, active: Game, old_game_id: str) -> ErrorCode:
        """The refusal that points to the table's game: this game's own rematch, or another."""
        opened = next(iter(await self._repository.events(active.id)), None)
        ours = isinstance(opened, LobbyOpened) and opened.rematch_of == old_game_id
        return ErrorCode.REMATCH_OPEN if ours else ErrorCode.GAME_EXISTS

    def ended(self, game_id: str, version: int) -> Ended | None:
        """The end of a game recorded lately, at this version, as weighed then (see Ended)."""
        return self._accuracy.ended(game_id, version)

    async def game(self, channel: ChannelKey) -> Game | None:
        """The channel's game, sealed (core.table): every game handed out is."""
        game = await self._repository.active_game(channel)
        return None if game is None else game.sealed()

    async def find_game(self, game_id: str) -> Game | None:
        """A game by its id, in progress or finished (a link to a table names its game)."""
        game = await self._repository.get_game(game_id)
        return None if game is None else game.sealed()

    async def view(self, channel: ChannelKey, viewer_id: str | None = None) -> GameView | None:
        game = await self._repository.active_game(channel)
        return None if game is None else make_view(game, viewer_id)

    async def hint(self, channel: ChannelKey, player: PlayerRef) -> list[Choice]:
        """The current player's legal choices now, best first, with expected final points."""
        game = await self._repository.active_game(channel)
        if game is None:
            raise GameError(ErrorCode.NO_GAME)
        if not game.variants.hints:
            raise GameError(ErrorCode.HINTS_OFF)  # first: the table's rule, whoever's turn it is
        seat = require_turn(game, player)
        if game.turn.throws == 0:
            raise GameError(ErrorCode.THROW_FIRST)
        from core.strategy import choices

        return choices(
            game.variants, seat.open_boxes(), game.turn.dice, game.turn.throws, seat.total
        )

    # ------------------------------------------------------------------ records and chats

    @property
    def shared(self) -> bool:
        """Whether other processes play from the same storage."""
        return self._repository.shared

    @property
    def records(self) -> Records:
        """The finished games' results, as leaderboards, statistics and ratings read them."""
        return self._repository

    @property
    def boards(self) -> Boards:
        """Where each game's live board is (the chat layer's references, kept with the game)."""
        return self._repository

    @property
    def seasons(self) -> Seasons:
        """A chat's seasons: their games, rating changes and ends."""
        return self._repository

    @property
    def tournaments(self) -> Tournaments:
        """The chats' tournaments, saved whole (core.tournament_snapshot)."""
        return self._repository

    @property
    def subscriptions(self) -> Subscriptions:
        """Who hears privately of a table opening in a chat."""
        return self._repository

    async def events(self, game_id: str) -> list[Event]:
        """A game's log, in order."""
        return await self._repository.events(game_id)

    async def last_finished(self, channel: ChannelKey) -> Game | None:
        return await self._repository.last_finished(channel)

    async def active_games(self, platform: str) -> list[Game]:
        return [game.sealed() for game in await self._repository.active_games(platform)]

    async def quarantined(self, channel: ChannelKey) -> str | None:
        """The id of the channel's game set aside as unreadable, if any."""
        return await self._repository.quarantined(channel)

    async def chat_settings(self, platform: str, chat: str) -> ChatSettings:
        return await self._repository.chat_settings(platform, chat)

    async def save_chat_settings(self, platform: str, chat: str, settings: ChatSettings) -> None:
        await self._repository.save_chat_settings(platform, chat, settings)

    async def rebuild_ratings(self) -> int:
        """Every rating worked out again from the results, in the order they were rated (the
        operator's tool); how many games."""
        return await self._repository.rebuild_ratings()

    async def forget_person(
        self, platform: str, player_id: str
    ) -> tuple[Forgotten, list[tuple[ChannelKey, Outcome]]]:
        """Forget a person (see core.forget): seat them out of the platform's games in
        progress by the game's own rules (Leave), so that each table goes on, then have
        storage move their past to a fresh anonymous player. What was done, and each table's
        outcome with the anonymous player in it, to show. ValueError for a computer."""
        if not forgettable(player_id):
            raise ValueError(f"{player_id!r} cannot be forgotten")
        left: list[tuple[ChannelKey, Outcome]] = []
        for game in await self._repository.active_games(platform):
            index = game.seat_of(player_id)
            if index is None or not game.seats[index].active:
                continue
            try:
                outcome = await self.act(game.channel, game.seats[index].player, Leave())
            except GameError:
                continue  # the table moved on meanwhile (it ended, say): nothing to leave
            left.append((game.channel, outcome))
        alias = new_alias()
        forgotten = await self._repository.forget_player(platform, player_id, alias)
        shown: list[tuple[ChannelKey, Outcome]] = []
        for channel, outcome in left:
            stored = await self._repository.get_game(outcome.game.id)
            if stored is None:
                continue
            events = tuple(scrubbed(event, player_id, alias) for event in outcome.events)
            shown.append(
                (channel, Outcome(stored.sealed(), events, make_view(stored, None, events)))
            )
        done = Forgotten(forgotten.results, forgotten.ratings, forgotten.games, len(left))
        return done, shown

    async def review(self, game_id: str) -> dict[str, PlayerReview]:
        """How each player of a game played, from its event log."""
        from core.review import review

        game = await self._repository.get_game(game_id)
        if game is None:
            raise GameError(ErrorCode.NO_GAME)
        return review(await self._repository.events(game_id), game.variants)

    def wake_computers(
        self, channel: ChannelKey, publish: Publish, pause: float
    ) -> asyncio.Task[None]:
        """Let the computers play their turns in this channel (one runner per channel, which
        is returned: it ends when no computer is to move)."""
        key = str(channel)
        running = self._computers.get(key)
        if running is not None and not running.done():
            return running
        task = asyncio.create_task(self._run_computers(channel, publish, pause))
        self._computers[key] = task
        task.add_done_callback(lambda done: self._forget(key, done))
        return task

    def _forget(self, key: str, task: asyncio.Task[None]) -> None:
        if self._computers.get(key) is task:
            del self._computers[key]

    async def _run_computers(self, channel: ChannelKey, publish: Publish, pause: float) -> None:
        failures = 0
        while failures < COMPUTER_TRIES:
            if self._closed:
                return  # the bot stops: the next start wakes the computers again
            game = await self._repository.active_game(channel)
            if game is None or game.phase is not Phase.PLAYING:
                return
            player = game.seats[game.current].player
            level = level_of(player)
            if level is None:
                return
            if pause > 0:  # the pause, cut short by a stop
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._stopping.wait(), pause)
            else:
                await asyncio.sleep(0)  # no pause: only the loop's other work goes first
            if self._closed:
                return
            try:
                outcome = await self.act(
                    channel, player, next_action(game.sealed(), level), version=game.version
                )
            except GameError as error:
                if error.code in (ErrorCode.STALE, ErrorCode.NO_GAME, ErrorCode.GAME_OVER):
                    continue  # the table moved on meanwhile (stopped, say): look again
                raise
            try:
                await publish(outcome)
                failures = 0
            except Exception:
                failures += 1
                log.warning("showing a computer's move in %s failed", channel, exc_info=True)
        log.error("computer turns in %s stopped after %d failed attempts", channel, failures)

    # ------------------------------------------------------------------ clocks

    def on_deadline(self, platform: str, publish: TimerPublish) -> None:
        """Have the bot act on its own (reminders, expired turns, idle tables) on `platform`."""
        self._clocks.on_deadline(platform, publish)

    async def resume_deadlines(self, platform: str) -> None:
        """Arm every stored deadline of a platform (see core.clocks)."""
        await self._clocks.resume(platform)

    async def move_chat(self, platform: str, old_chat: str, new_chat: str) -> Game | None:
        """A chat got a new id (a Telegram group became a supergroup): its games, settings,
        boards and records move there once any action in flight in it is done, and its clock
        follows; the game now at the new id, if one is in progress."""
        old, new = ChannelKey(platform, old_chat), ChannelKey(platform, new_chat)
        async with self._locks[old], self._repository.channel_lock(old):
            await self._repository.move_chat(platform, old_chat, new_chat)
        self._clocks.stop(old)
        game = await self._repository.active_game(new)
        if game is not None:
            self._clocks.schedule(game)
        return None if game is None else game.sealed()

    async def _on_deadline(self, channel: ChannelKey) -> None:
        try:
            async with self._locks[channel], self._repository.channel_lock(channel):
                game = await self._repository.active_game(channel)
                deadline = next_deadline(game) if game else None
                if game is None or deadline is None:
                    return
                now = self._clock()
                if deadline.at > now:  # moved on meanwhile: wait for the new deadline
                    self._clocks.schedule(game)
                    return
                if not await self._repository.claim_deadline(game.id, self.owner, LEASE):
                    self._clocks.retry(game)  # another process acts on it; watch its lease
                    return
                self._presses.seen(game)  # a press on the board before a reminder still counts
                new, events = act_on(game, deadline.due, self._roller, now)
                await self._repository.save(new, events, game.version)
                self._presses.seen(new)
                if new.end_reason in RECORDED_ENDS:  # a last turn played for its player
                    await self._accuracy.record(new)
                if next_deadline(new) is None:
                    await self._repository.release_deadline(game.id, self.owner)
                self._clocks.schedule(new)
            outcome = self._offered(Outcome(new.sealed(), events, make_view(new, None, events)))
            publish = self._clocks.publisher(channel.platform)
            if publish is not None:
                await publish(channel, outcome)
        except Exception:
            log.exception("acting on a deadline in %s failed", channel)

    async def close(self) -> None:
        """Stop the clocks and the computer runners (their state is saved after every step):
        a step or a deadline being acted on ends whole first (STEP_ENDS at most), none starts
        after; an action still being finished meanwhile arms no clock and wakes no computer."""
        self._closed = True
        self._stopping.set()
        acting = [*self._computers.values(), *self._clocks.firing()]
        if acting:
            await asyncio.wait(acting, timeout=STEP_ENDS)
        tasks = [*self._computers.values(), *self._clocks.close()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
