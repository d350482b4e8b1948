"""The chat layer's cards drawn as Telegram messages (HTML text, inline keyboards, photos)."""

from __future__ import annotations

from html import escape

from adapters.chat import cards
from adapters.i18n import Translator
from adapters.i18n.text import hint_lines
from adapters.telegram import render
from adapters.telegram.render import MESSAGE_LIMIT, Rendered

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
            return [*(Rendered(page) for page in _pages(preface)), board]
        case cards.Redrawn():
            return [cards.draw_board(render, t, card)]
        case cards.Stripped():
            return [Rendered("", strip=True)]
        case cards.Lines(lines=lines):
            return [Rendered(page) for page in _pages(lines)]
        case cards.Records(lines=lines):
            return [Rendered(_records(lines))]
        case cards.Sheet(view=view, picture=picture):
            if picture is not None:
                return [Rendered(f"<b>{escape(t('sheet-title'))}</b>", picture=picture)]
            return [Rendered(page) for page in render.sheet(t, view)]
        case cards.Final(view=view, review=review, picture=picture):
            if picture is None:
                return [Rendered(page) for page in render.final(t, view, list(review))]
            ending = "\n".join(render.final(t, view, None, with_sheet=False))
            photo = Rendered(ending[: render.CAPTION_LIMIT], picture=picture)
            return [photo, *(Rendered(page) for page in _pages(review))]
        case cards.Notice(text=text, player=player):
            if player.is_computer:
                return [Rendered(escape(text))]
            return [Rendered(escape(text).replace(escape(player.name), render.mention(player), 1))]
        case cards.Settings(settings=settings):
            return [render.settings(t, settings)]
        case cards.Help(topic=topic, preface=preface):
            head = f"{_lines(preface)}\n" if preface else ""
            return [Rendered(head + render.help_text(t, topic))]
        case cards.Hint(options=options, dice=dice):
            return [Rendered(_lines(hint_lines(t, list(options), dice)))]
        case cards.Welcome(brief=brief, invite=invite):
            return [render.welcome(t, brief, invite)]


def alert(t: Translator, card: cards.Card) -> tuple[str | None, bool]:
    """A press's answer in its callback (plain text, at most 200 characters): the text and
    whether it shows as an alert; (None, False) for a card that cannot be said there."""
    match card:
        case cards.Lines(lines=lines):
            return render.alert("\n".join(lines)), False
        case cards.Hint(options=options, dice=dice):
            hint = hint_lines(t, list(options), dice, count=ALERT_CHOICES)
            return render.alert("\n".join(hint)), True
    return None, False


def _lines(lines: tuple[str, ...] | list[str]) -> str:
    return escape("\n".join(lines))


def _pages(lines: tuple[str, ...] | list[str]) -> list[str]:
    """Lines joined into as few messages as fit (a longer line is cut at the limit)."""
    pages: list[str] = []
    current = ""
    for line in (escape(line)[:MESSAGE_LIMIT] for line in lines):
        if current and len(current) + 1 + len(line) > MESSAGE_LIMIT:
            pages.append(current)
            current = line
        else:
            current = f"{current}\n{line}" if current else line
    return [*pages, current] if current else pages


def _records(lines: tuple[str, ...]) -> str:
    """The title in bold, the rest in a monospace block."""
    title, *body = lines
    block = f"\n<pre>{escape(chr(10).join(body))}</pre>" if body else ""
    return f"<b>{escape(title)}</b>{block}"
