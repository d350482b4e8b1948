"""A press made on the live table's page, carried out once for every chat.

It is judged as a chat button's press is: the same payload codes, the same service call with the
version the page showed (so a double tap or an old page is refused as an old board's press is),
the same refusals in the person's language, flood limit, log and metrics. What differs is the
chat: while a turn is played on the page, the chat's board is not edited at each throw and
hold (a group's budget is about 20 messages and edits a minute, shared), only once the turn is
over, with its result; the lobby, the end and anything a chat press does are shown as ever.
"""

from __future__ import annotations

from adapters.chat import cards, metrics, payload
from adapters.chat.commands import refusal
from adapters.chat.envelope import envelope
from adapters.chat.pacing import pending
from adapters.chat.plan import Redraw, plan
from adapters.chat.presses import note, rematch
from adapters.chat.surface import Exchange
from adapters.chat.tables import Tables
from adapters.chat.voices import Voices
from core.actions import AddComputer
from core.chat_settings import ChatSettings
from core.errors import ErrorCode, GameError
from core.outcome import Outcome

# What the page shows by itself (the sheet) or is the chat's alone (a hint, the table's link).
NOT_FROM_PAGE = frozenset({payload.SHEET, payload.HINT})


async def page_press(
    tables: Tables, exchange: Exchange, game_id: str, version: int, code: str
) -> None:
    """Carry out a page's press of `code` on `game_id` as the page showed it at `version`."""

    async def work(voices: Voices, settings: ChatSettings) -> None:
        press = payload.decode(payload.encode(game_id, version, code))
        if press is None or press.code in NOT_FROM_PAGE:
            metrics.refused(ErrorCode.BAD_ACTION)
            await exchange.private(cards.Lines((voices.own("error-bad-action"),)), voices.own)
            return
        async with tables.serial(exchange.channel, exchange, voices):
            if press.code == payload.REMATCH:
                await rematch(tables, exchange, voices, press, carried=True)
            else:
                await _played(tables, exchange, voices, press)

    with metrics.counted(tables.platform.name, "press"), pending():
        doing = f"page press {code[:8]!r}"
        await envelope(tables, exchange.channel, work, doing=doing, exchange=exchange)


async def _played(tables: Tables, exchange: Exchange, voices: Voices, press: payload.Press) -> None:
    channel, own = exchange.channel, voices.own
    action = press.action
    if press.computer is not None:
        action = AddComputer(press.computer, voices.table(f"computer-{press.computer.value}"))
    if action is None:
        metrics.refused(ErrorCode.BAD_ACTION)
        await exchange.private(cards.Lines((own("error-bad-action"),)), own)
        return
    try:
        outcome = await tables.service.act(
            channel, exchange.person, action, game_id=press.game_id, version=press.version
        )
    except GameError as error:
        await exchange.private(await refusal(tables, channel, error, own), own)
        return
    await note(exchange, own, outcome)
    if within_turn(outcome):
        metrics.outcome(tables.platform.name, outcome.events)
        await tables.order.shown(channel)  # the next action may act: nothing to show here
        return
    await tables.publisher.publish(channel, outcome, voices.table, exchange)


def within_turn(outcome: Outcome) -> bool:
    """A throw or a hold in the middle of a turn: the page shows it; the chat waits for the
    turn's result (a reminder or anything else the chat must say is shown at once)."""
    steps = plan(outcome.view, outcome.events)
    return steps.redraw is Redraw.TURN and not steps.notice and not steps.new_board
