"""The chat layer's cards drawn as Telegram messages (HTML text, inline keyboards, photos)."""

from __future__ import annotations

from dataclasses import replace
from html import escape

from adapters.chat import cards
from adapters.i18n import Translator
from adapters.i18n.hints import hint_lines
from adapters.i18n.names import shown_name
from adapters.telegram import render
from adapters.telegram.render import MESSAGE_LIMIT, Rendered, escaped, line_pages

# A hint answered in a callback alert (200 characters) has room for this many choices.
ALERT_CHOICES = 3


def draw(t: Translator, card: cards.Card) -> list[Rendered]:
    """The messages that show `card`, in order (most cards are one message)."""
    match card:
        case cards.Board(preface=preface):
            board = cards.draw_board(render, t, card)
            if not preface:
                return [board]
            text = f"{_lines(preface)}\n\n{board.text}"
            if len(text) <= MESSAGE_LIMIT:
                return [Rendered(text, board.markup)]
            return [*(Rendered(page) for page in line_pages(preface)), board]
        case cards.Redrawn():
            return [cards.draw_board(render, t, card)]
        case cards.Stripped():
            return [Rendered("", strip=True)]
        case cards.Review(lines=lines, picture=picture) if picture is not None:
            # The chart, then the words: a review may be longer than a caption's 1,024.
            return [Rendered("", picture=picture), *(Rendered(page) for page in line_pages(lines))]
        case cards.Lines(lines=lines):
            return [Rendered(page) for page in line_pages(lines)]
        case cards.Records(lines=lines):
            return [Rendered(page) for page in _records(lines)]
        case cards.Sheet(view=view, picture=picture):
            if picture is not None:
                return [Rendered(f"<b>{escape(t('sheet-title'))}</b>", picture=picture)]
            return [Rendered(page) for page in render.sheet(t, view)]
        case cards.Final(view=view, notes=review, picture=picture):
            if picture is None:
                final = [Rendered(page) for page in render.final(t, view, review)]
            else:
                photo = Rendered(render.caption(t, view), picture=picture)
                final = [photo, *(Rendered(page) for page in line_pages(review))]
            # The one Rematch button, on the last message of however many it takes.
            return (
                [*final[:-1], replace(final[-1], markup=render.rematch(t, view))] if final else []
            )
        case cards.Notice(text=text, player=player):
            if player.is_computer:
                return [Rendered(escape(text))]
            name = escape(shown_name(player.name))  # as the catalogue's words show it
            return [Rendered(escaped(text).replace(name, render.mention(player), 1))]
        case cards.Settings(settings=settings):
            return [render.settings(t, settings)]
        case cards.Help(topic=topic, preface=preface):
            text = render.help_text(t, topic)
            if preface:
                text = f"{escaped(chr(10).join(preface), MESSAGE_LIMIT - len(text) - 1)}\n{text}"
            return [Rendered(text)]
        case cards.Hint(options=options, dice=dice, shares=shares):
            return [Rendered(_lines(hint_lines(t, list(options), dice, shares=shares)))]
        case cards.Welcome(brief=brief, invite=invite):
            return [render.welcome(t, brief, invite)]
        case cards.Forget(player_id=player_id):
            return [render.forget(t, player_id)]


def alert(t: Translator, card: cards.Card) -> tuple[str | None, bool]:
    """A press's answer in its callback (plain text, at most 200 characters): the text and
    whether it shows as an alert; (None, False) for a card that cannot be said there."""
    match card:
        case cards.Lines(lines=lines):
            return render.alert("\n".join(lines)), False
        case cards.Hint(options=options, dice=dice, shares=shares):
            hint = hint_lines(t, list(options), dice, count=ALERT_CHOICES, shares=shares)
            return render.alert("\n".join(hint)), True
    return None, False


def _lines(lines: tuple[str, ...] | list[str]) -> str:
    return escape("\n".join(lines))


def _records(lines: tuple[str, ...]) -> list[str]:
    """The title in bold, the rest in monospace blocks, as many messages as it takes (a line
    is never cut across two)."""
    title, *body = lines
    heading = f"<b>{escaped(title)}</b>"
    room = MESSAGE_LIMIT - len(heading) - 1 - len("<pre></pre>")
    blocks: list[str] = []
    chunk: list[str] = []
    for line in (escaped(line, room) for line in body):
        if chunk and len("\n".join([*chunk, line])) > room:
            blocks.append(f"<pre>{chr(10).join(chunk)}</pre>")
            chunk = []
        chunk.append(line)
    if chunk:
        blocks.append(f"<pre>{chr(10).join(chunk)}</pre>")
    return render.pages([heading, *blocks])
