"""An applied action carried out in the chat (see plan.py): the board redrawn (as the press's
own answer where the platform can), the final message, the next player's new board, notices.
Discord or Telegram failing never undoes a game: it was saved before anything is shown."""

from __future__ import annotations

from collections.abc import Callable

from adapters.chat import cards, metrics
from adapters.chat.boards import FINAL_SHOWN, BoardRef
from adapters.chat.drawer import Drawer
from adapters.chat.endings import Endings
from adapters.chat.notify import Notifier
from adapters.chat.order import Order
from adapters.chat.plan import plan
from adapters.chat.repair import Repair
from adapters.chat.surface import Exchange, Platform
from adapters.i18n import Translator
from adapters.i18n.narration import narrate
from adapters.logcontext import bind
from core.events import GameEnded, LobbyOpened, PlayerLeft
from core.identity import ChannelKey
from core.outcome import Outcome
from core.ports import Boards


class Publisher:
    """Carries out each applied action's plan, in the order the table's actions came."""

    def __init__(
        self,
        boards: Boards,
        platform: Platform,
        order: Order,
        drawer: Drawer,
        endings: Endings,
        repair: Repair,
        notifier: Notifier,
    ) -> None:
        self.boards = boards
        self.platform = platform
        self.order = order
        self.drawer = drawer
        self.endings = endings
        self.repair = repair
        self.notifier = notifier
        # A tournament's table ended: its event moves on (adapters.chat.tournaments).
        self.table_over: Callable[[str], None] = lambda event_id: None

    async def publish(
        self, channel: ChannelKey, outcome: Outcome, t: Translator, exchange: Exchange | None
    ) -> None:
        """Bring the chat up to date with an applied action, in the table's language `t`.
        `exchange` is the command or press that made it, None for a move the service made by
        itself."""
        await self.order.shown(channel)  # the next action may act; this one's turn to show
        view, events = outcome.view, outcome.events
        bind(game=view.game_id)  # a game just opened, or the one acted on
        if exchange is not None:  # the bot's own moves are counted as they come (the clock)
            metrics.outcome(self.platform.name, events)
        steps = plan(view, events)

        async def say(card: cards.Card) -> str:
            if exchange is not None:
                return await exchange.public(card, t)
            return await self.platform.send(channel, card, t)

        ref = BoardRef.loads(await self.boards.board(view.game_id))
        drawer = self.drawer
        if steps.redraw is not None and ref is not None:
            card = cards.Redrawn(steps.redraw, view, steps.told)
            await drawer.redraw_board(channel, exchange, view.game_id, ref, card, view.version, t)
        elif steps.strip and ref is not None:
            stripped = cards.Stripped()
            await drawer.redraw_board(
                channel, exchange, view.game_id, ref, stripped, view.version, t
            )
        if steps.final:
            self.repair.found_live(channel)  # no board of an ended game is owed
            await say(await self.endings.final(channel, view, t))
            await self.boards.set_board(view.game_id, FINAL_SHOWN)
            if view.event:
                self.table_over(view.event.split(":", 1)[0])
        if steps.new_board:
            preface = tuple(narrate(t, view, steps.preface))
            try:
                message = await say(cards.Board(view, notify=True, preface=preface))
            except self.platform.errors:
                # No live board now: nothing to redraw until one is posted again (heal).
                self.repair.lost(channel, view.game_id)
                await self.boards.set_board(view.game_id, "")
                raise
            self.repair.found_live(channel)
            new = BoardRef(channel.chat, message)
            drawer.drawn.remember(new, view.version)
            await self.boards.set_board(view.game_id, new.dumps())
            if not view.event and any(isinstance(event, LobbyOpened) for event in events):
                self.notifier.opened(channel, view, message)
        for event in steps.notice:
            player = view.player(getattr(event, "player_id", ""))
            if player is not None:
                await say(cards.Notice(narrate(t, view, [event])[0], player))


def seating(outcome: Outcome, name: str, t: Translator) -> list[str]:
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
    return [t("event-left", name=name) for _ in gone] + narrate(t, view, rest)
