"""Everything a tournament says, at the largest event the bot allows (64 entrants with names of
any length, full of markup), drawn for Telegram and for Discord in both languages: inside each
platform's limits, and every name escaped."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

from adapters.chat import cards
from adapters.chat.event_words import final_cards, round_over_cards, round_start_lines
from adapters.discord import render as discord_render
from adapters.discord.draw import draw as draw_discord
from adapters.i18n import translator
from adapters.telegram import render as telegram_render
from adapters.telegram.draw import draw as draw_telegram
from core.boxes import ALL_BOXES
from core.identity import ChannelKey, PlayerRef
from core.rules import Variants
from core.table import Game, Phase, Seat
from core.tournament import (
    MAX_ENTRANTS,
    EventPhase,
    Tournament,
    add_computer,
    enter,
    open_event,
    start,
    table_over,
)

SEED = "ab" * 32
HOME = ChannelKey("tg", "-1001")
# Longer than any platform's name, with Telegram's HTML and Discord's markdown and mentions.
NAMES = [f"<b>{i:02}</b> **@everyone** `x` ||y|| &amp; " + "Ж" * 300 for i in range(MAX_ENTRANTS)]


def biggest(phase: EventPhase) -> Tournament:
    host = PlayerRef("1", NAMES[0])
    event = open_event("abcdefgh", HOME, host, "en", 0.0)
    for i in range(1, MAX_ENTRANTS - 4):
        event = enter(event, PlayerRef(str(i + 1), NAMES[i]))
    for _ in range(4):
        event = add_computer(event, host.id, "master", "🤖 Master")
    if phase is EventPhase.OPEN:
        return event
    event = start(event, host.id, SEED, 0.0)
    tables = event.rounds[0].tables
    event = replace(
        event,
        rounds=(
            replace(
                event.rounds[0],
                tables=tuple(
                    replace(t, channel=str(ChannelKey("tg", "-1001", str(t.number))))
                    for t in tables
                ),
            ),
        ),
    )
    if phase is EventPhase.PLAYING:
        return event
    for table in event.rounds[0].tables:  # every table over, the first seat first
        event = table_over(event, 1, table.number, _finished(table.players))
    return replace(event, phase=EventPhase.FINISHED)


def _finished(players: tuple[str, ...]) -> Game:
    """A table's game over, its players placed in seating order."""
    rest = (0,) * (len(ALL_BOXES) - 1)
    seats = tuple(Seat(PlayerRef(p, "x"), (100 - n, *rest)) for n, p in enumerate(players))
    return Game("abcdefgh", HOME, players[0], Variants(), Phase.FINISHED, seats)


def said(event: Tournament, locale: str) -> list[cards.Card]:
    t = translator(locale)
    told: list[cards.Card] = [cards.EventCard(event)]
    if event.phase is EventPhase.PLAYING:
        told.append(cards.Lines(tuple(round_start_lines(t, event))))
    if event.phase is EventPhase.FINISHED:
        told.extend(round_over_cards(t, event, 1))
        told.extend(asyncio.run(final_cards(t, event)))
    return told


@pytest.mark.parametrize("phase", [EventPhase.OPEN, EventPhase.PLAYING, EventPhase.FINISHED])
@pytest.mark.parametrize("locale", ["en", "ru"])
def test_every_message_fits_telegram(phase: EventPhase, locale: str) -> None:
    t = translator(locale)
    for card in said(biggest(phase), locale):
        for page in draw_telegram(t, card):
            limit = telegram_render.CAPTION_LIMIT if page.picture else telegram_render.MESSAGE_LIMIT
            assert len(page.text) <= limit and (page.text or page.picture)
            assert "<b>00</b>" not in page.text  # a name's markup is escaped
            buttons = [b for row in (page.markup or {}).get("inline_keyboard", []) for b in row]
            assert len(buttons) <= 100
            for button in buttons:
                data = str(button.get("callback_data", ""))
                assert len(data.encode()) <= telegram_render.CALLBACK_LIMIT


@pytest.mark.parametrize("phase", [EventPhase.OPEN, EventPhase.PLAYING, EventPhase.FINISHED])
@pytest.mark.parametrize("locale", ["en", "ru"])
def test_every_message_fits_discord(phase: EventPhase, locale: str) -> None:
    t = translator(locale)
    for card in said(biggest(phase), locale):
        for page in draw_discord(t, card):
            assert page.content is not None
            assert 0 < len(page.content) <= discord_render.MESSAGE_LIMIT
            assert "@everyone" not in page.content
            rows = page.view.rows if page.view is not None else []
            assert len(rows) <= discord_render.ROWS
            for row in rows:
                assert len(row) <= discord_render.ROW_WIDTH
                for button in row:
                    assert len(button.get("label", "")) <= discord_render.LABEL_LIMIT
                    assert len(button.get("custom_id", "")) <= discord_render.CUSTOM_ID_LIMIT
