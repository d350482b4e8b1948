"""/general forget, once for every chat: the confirmation, and the press that forgets.

Forgetting (see core.forget) first seats the person out of every game in progress on the
platform, through the service and the game's own rules (Leave), so that each table goes on and
is shown as it does; then storage moves their past to a fresh anonymous player and rewrites every
stored game that names them. The tables are shown afterwards, with the anonymous name. The
operator's `python -m bot forget` does the same without a chat to show it in (`forget_person`
with no tables): a table whose board still shows the person is redrawn at its next press.
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
from core.actions import Leave
from core.chat_settings import ChatSettings
from core.errors import ErrorCode, GameError
from core.events import PlayerLeft, event_from_dict, event_to_dict
from core.forget import Forgotten, forgettable, new_alias, scrub_event
from core.identity import ChannelKey
from core.service import GameService, Outcome
from core.view import make_view

Seated = list[tuple[ChannelKey, Outcome]]


async def forget_person(
    service: GameService, platform: str, player_id: str
) -> tuple[Forgotten, Seated]:
    """Seat the person out of the platform's games in progress, then forget them in storage;
    what was done, and each table's outcome (with the anonymous player in it) to show.
    ValueError for a computer."""
    if not forgettable(player_id):
        raise ValueError(f"{player_id!r} cannot be forgotten")
    left: Seated = []
    for game in await service.repository.active_games(platform):
        index = game.seat_of(player_id)
        if index is None or not game.seats[index].active:
            continue
        try:
            outcome = await service.act(game.channel, game.seats[index].player, Leave())
        except GameError:
            continue  # the table moved on meanwhile (it ended, say): nothing to leave
        left.append((game.channel, outcome))
    alias = new_alias()
    forgotten = await service.repository.forget_player(platform, player_id, alias)
    shown: Seated = []
    for channel, outcome in left:
        stored = await service.repository.get_game(outcome.game.id)
        if stored is None:
            continue
        events = tuple(
            event_from_dict(scrub_event(data, player_id, alias) or data)
            for data in map(event_to_dict, outcome.events)
        )
        shown.append((channel, Outcome(stored, events, make_view(stored, None, events))))
    done = Forgotten(forgotten.results, forgotten.ratings, forgotten.games, len(left))
    return done, shown


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
    forgotten, shown = await forget_person(tables.service, tables.platform.key, exchange.person.id)
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
