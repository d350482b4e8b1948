"""/general forget, once for every chat: the confirmation, and the press that forgets.

Forgetting is the service's (GameService.forget_person, see core.forget): the person seated
out of every game in progress on the platform, their past moved to a fresh anonymous player.
Here the tables they left are shown afterwards, with the anonymous name. The operator's
`python -m bot forget` forgets without a chat to show it in: a table whose board still shows
the person is redrawn at its next press.
"""

from __future__ import annotations

import asyncio

from adapters.chat import cards, metrics, payload
from adapters.chat.surface import Exchange
from adapters.chat.tables import Tables
from core.errors import ErrorCode
from core.events import PlayerLeft
from core.identity import ChannelKey
from core.service import Outcome


async def ask(tables: Tables, exchange: Exchange) -> None:
    """/general forget: what it removes, and the buttons, for the asker's eyes."""
    await exchange.private(cards.Forget(exchange.person.id))


async def pressed(
    tables: Tables, exchange: Exchange, press: payload.ForgetPress, carried: bool
) -> None:
    """A press on the confirmation: only from the message that shows it, only by the person it
    names; "Forget me" forgets them, the other button closes the question."""
    own = tables.own
    if not carried:
        metrics.refused(ErrorCode.BAD_ACTION)
        await exchange.private(cards.Lines((own("error-bad-action"),)))
        return
    if press.player_id != exchange.person.id:
        metrics.refused("not-yours")
        await exchange.private(cards.Lines((own("forget-not-yours"),)))
        return
    if not press.confirmed:
        await exchange.redraw(cards.Lines((own("forget-kept"),)))
        return
    forgotten, shown = await tables.service.forget_person(tables.platform.key, exchange.person.id)
    said = own(
        "forget-done" if forgotten.anything else "forget-nothing",
        results=forgotten.results,
        games=forgotten.seated_out,
    )
    await exchange.note(said)
    await exchange.redraw(cards.Lines((said,)))
    # Each table in a task of its own: its language is its own, not the presser's.
    await asyncio.gather(*(asyncio.create_task(_show(tables, c, o)) for c, o in shown))


async def _show(tables: Tables, channel: ChannelKey, outcome: Outcome) -> None:
    """A table the person left: who left, then its board (as a move the bot made itself)."""
    try:
        await tables.settings_for(channel)
        async with tables.order.turn(channel):
            await tables.heal(channel)
            lines = tables.seating(outcome, _leaver(outcome))
            if lines:
                await tables.platform.send(channel, cards.Lines(tuple(lines)))
            await tables.publish(channel, outcome)
    except tables.platform.errors as error:
        tables.troubles(channel, error)
    except Exception:
        tables.log.exception("showing %s after a player was forgotten failed", channel)
    await tables.wake_computers(channel)


def _leaver(outcome: Outcome) -> str:
    """The name the events give whoever left (the anonymous one)."""
    return next((e.name for e in outcome.events if isinstance(e, PlayerLeft)), "")
