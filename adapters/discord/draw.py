"""The chat layer's cards drawn as Discord messages (markdown content, buttons, attachments)."""

from __future__ import annotations

from dataclasses import replace

from adapters.chat import cards
from adapters.chat.catalogue import COMMANDS, usage, welcome_lines
from adapters.discord import render
from adapters.discord.render import MESSAGE_LIMIT, Rendered, esc
from adapters.i18n import Translator
from adapters.i18n.hints import hint_lines


def draw(t: Translator, card: cards.Card) -> list[Rendered]:
    """The messages that show `card`, in order (most cards are one message)."""
    match card:
        case cards.Board(preface=preface):
            board = cards.draw_board(render, t, card)
            pages = render.pages(esc(line) for line in preface)
            content = board.content or ""
            if pages and len(pages[-1]) + 2 + len(content) <= MESSAGE_LIMIT:
                board = Rendered(f"{pages.pop()}\n\n{content}", board.view, board.ping)
            return [*(Rendered(page) for page in pages), board]
        case cards.Redrawn():
            return [cards.draw_board(render, t, card)]
        case cards.Stripped():
            return [Rendered(None)]
        case cards.Review(lines=lines, picture=picture) if picture is not None:
            first, *rest = render.pages(esc(line) for line in lines)
            return [Rendered(first, picture=picture), *(Rendered(page) for page in rest)]
        case cards.Lines(lines=lines):
            return [Rendered(page) for page in render.pages(esc(line) for line in lines)]
        case cards.Records(lines=lines):
            return [Rendered(page) for page in render.records(list(lines))]
        case cards.Sheet(view=view, picture=picture):
            if picture is not None:
                return [Rendered(f"**{esc(t('sheet-title'))}**", picture=picture)]
            return [Rendered(page) for page in render.sheet(t, view)]
        case cards.Final(view=view, notes=review, picture=picture):
            if picture is None:
                final = [Rendered(page) for page in render.final(t, view, review)]
            else:
                first, *rest = render.final(t, view, review, with_sheet=False)
                final = [Rendered(first, picture=picture), *(Rendered(page) for page in rest)]
            # The one Rematch button, on the last message of however many it takes.
            return [*final[:-1], replace(final[-1], view=render.rematch(t, view))] if final else []
        case cards.Notice(text=text, player=player):
            return [render.notice(text, player)]
        case cards.Settings(settings=settings):
            return [render.settings(t, settings)]
        case cards.Help(topic=topic, preface=preface):
            return [Rendered(render.clip("\n".join([*map(esc, preface), _help(t, topic)])))]
        case cards.Hint(options=options, dice=dice, shares=shares):
            return [Rendered(render.lines_text(hint_lines(t, list(options), dice, shares=shares)))]
        case cards.Welcome(brief=brief):
            return [Rendered(render.clip("\n".join(map(esc, welcome_lines(t, brief)))))]
        case cards.Forget(player_id=player_id):
            return [render.forget(t, player_id)]


def _help(t: Translator, topic: str) -> str:
    """The rules, or every `/general` command with what it does (from the catalogue)."""
    title = f"**{esc(t('help-title'))}**"
    if topic == "rules":
        return f"{title}\n{esc(t('help-rules'))}"
    lines = [f"`{usage(c, t, typed=False)}` — {esc(t(c.about))}" for c in COMMANDS]
    return "\n".join([title, *lines])
