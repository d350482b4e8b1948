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
from adapters.chat.envelope import envelope
from adapters.chat.publisher import seating
from adapters.chat.surface import Exchange
from adapters.chat.tables import Tables
from adapters.chat.voices import Voices
from adapters.i18n import Translator
from core.chat_settings import ChatSettings
from core.errors import ErrorCode
from core.events import PlayerLeft
from core.identity import ChannelKey
from core.outcome import Outcome


async def ask(exchange: Exchange, own: Translator) -> None:
    """/general forget: what it removes, and the buttons, for the asker's eyes."""
    await exchange.private(cards.Forget(exchange.person.id), own)


async def pressed(
    tables: Tables, exchange: Exchange, own: Translator, press: payload.ForgetPress, carried: bool
) -> None:
    """A press on the confirmation: only from the message that shows it, only by the person it
    names; "Forget me" forgets them, the other button closes the question."""
    if not carried:
        metrics.refused(ErrorCode.BAD_ACTION)
        await exchange.private(cards.Lines((own("error-bad-action"),)), own)
        return
    if press.player_id != exchange.person.id:
        metrics.refused("not-yours")
        await exchange.private(cards.Lines((own("forget-not-yours"),)), own)
        return
    if not press.confirmed:
        await exchange.redraw(cards.Lines((own("forget-kept"),)), own)
        return
    forgotten, shown = await tables.service.forget_person(tables.platform.key, exchange.person.id)
    said = own(
        "forget-done" if forgotten.anything else "forget-nothing",
        results=forgotten.results,
        games=forgotten.seated_out,
    )
    await exchange.note(said)
    await exchange.redraw(cards.Lines((said,)), own)
    # Each table in its own language, not the presser's.
    await asyncio.gather(*(_show(tables, channel, outcome) for channel, outcome in shown))


async def _show(tables: Tables, channel: ChannelKey, outcome: Outcome) -> None:
    """A table the person left: who left, then its board (as a move the bot made itself)."""

    async def work(voices: Voices, settings: ChatSettings) -> None:
        t = voices.table
        lines = seating(outcome, _leaver(outcome), t)
        if lines:
            await tables.platform.send(channel, cards.Lines(tuple(lines)), t)
        await tables.publisher.publish(channel, outcome, t, None)

    doing = "showing a table after a player was forgotten"
    await envelope(tables, channel, work, doing=doing)


def _leaver(outcome: Outcome) -> str:
    """The name the events give whoever left (the anonymous one)."""
    return next((e.name for e in outcome.events if isinstance(e, PlayerLeft)), "")
