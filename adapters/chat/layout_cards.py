"""Every card's layout (`of`): the one match over the chat layer's cards, for every platform."""

from __future__ import annotations

from adapters.chat import cards, payload
from adapters.chat.catalogue import usages, welcome_lines
from adapters.chat.layout import (
    Block,
    Button,
    Code,
    Drawn,
    Intent,
    Layout,
    Line,
    Mark,
    Message,
    Pages,
    Part,
    Platform,
    Row,
    Section,
    Shape,
    Span,
    Strip,
    Table,
    bold,
    chunked,
    person,
    plain,
    serialised,
)
from adapters.chat.layout_boards import board
from adapters.chat.layout_events import event_screen
from adapters.i18n import Translator
from adapters.i18n.endings import ending
from adapters.i18n.hints import hint_lines
from adapters.i18n.settings import setting_label
from adapters.i18n.sheet import sheet_tables
from core.chat_settings import CHOICES, ChatSettings
from core.fairdice import short
from core.view import GameView


def drawn(platform: Platform[Drawn], t: Translator, card: cards.Card) -> list[Drawn]:
    """The platform's messages that show `card`, in order (most cards are one message)."""
    return serialised(platform, of(t, card, platform.shape))


def of(t: Translator, card: cards.Card, shape: Shape) -> Layout:
    """What `card` shows, in the words of `t`, arranged for `shape`."""
    match card:
        case cards.Board() | cards.Redrawn():
            return board(t, card, shape)
        case cards.Stripped():
            return Strip()
        case cards.Linked(lines=lines, label=label, url=url):
            return Message(_plain(lines), ((Button(label, url=url, intent=Intent.PRIMARY),),))
        case cards.Review(lines=lines, picture=picture) if picture is not None:
            # The chart first: a review may be longer than a picture's caption.
            return Pages(_plain(lines), picture=picture)
        case cards.Lines(lines=lines):
            return Pages(_plain(lines))
        case cards.Records(lines=lines):
            return Table(lines[0], lines[1:])
        case cards.Sheet(view=view, picture=picture):
            if picture is not None:
                return Pages((), Block((bold(t("sheet-title")),)), picture)
            return Pages(_sheet(t, view))
        case cards.Final():
            return _final(t, card)
        case cards.Notice(text=text, player=player):
            named = None if player.is_computer else person(player, notify=True)
            return Message((plain(text),), person=named)
        case cards.Settings(settings=settings):
            return settings_screen(t, settings, shape)
        case cards.Help(topic=topic, preface=preface):
            return Message(help_lines(t, topic, shape), lead=_plain(preface))
        case cards.Hint(options=options, dice=dice, shares=shares, places=places):
            hinted = hint_lines(t, list(options), dice, shares=shares, places=places)
            return Message(_plain(hinted))
        case cards.Welcome(brief=brief, invite=invite):
            return welcome(t, brief, invite, shape)
        case cards.Forget(player_id=player_id):
            return forget(t, player_id)
        case cards.TableLink(url=url, minutes=minutes, replay=replay):
            return table_link(t, url, minutes, replay)
        case cards.EventCard(event=event):
            return event_screen(t, event, shape)


def _plain(lines: tuple[str, ...] | list[str]) -> tuple[Line, ...]:
    return tuple(plain(line) for line in lines)


def _sheet(t: Translator, view: GameView) -> tuple[Part, ...]:
    """The score sheet as monospace tables (a few players each, to fit phones)."""
    return (bold(t("sheet-title")), *(Code(table) for table in sheet_tables(t, view)))


def _final(t: Translator, card: cards.Final) -> Pages:
    """The end of a game: who won (or why it stopped), the final sheet (a picture, else tables),
    everyone's new rating and how they played; the Rematch button under the last page."""
    view = card.view
    verdict = Block(_plain(ending(t, view, view.end_reason)) if view.end_reason else ())
    notes = _plain((*card.notes, *((t("event-table-over"),) if view.event else ())))
    data = payload.rematch(view)  # only where the game ended in a way that counts
    rows: tuple[Row, ...] = (
        ((Button(t("btn-rematch"), data, intent=Intent.PRIMARY),),) if data else ()
    )
    seed = _revealed(t, view)
    if card.picture is not None:
        return Pages((*notes, *seed), verdict, card.picture, rows)
    sheet = (Section(_sheet(t, view)),) if view.round else ()
    return Pages((*((verdict,) if view.end_reason else ()), *sheet, *notes, *seed), rows=rows)


def _revealed(t: Translator, view: GameView) -> tuple[Part, ...]:
    """The seed of the game's dice, revealed, and how to check the throws against it; nothing
    for a table cancelled before its start, which threw no die."""
    if not view.seed or not view.round:
        return ()
    lines = (
        plain(t("dice-revealed", seed=view.seed)),
        plain(t("dice-revealed-check", short=short(view.commitment))),
    )
    return (Block(lines),)


def settings_screen(t: Translator, chosen: ChatSettings, shape: Shape) -> Message:
    """The settings screen: one button per setting, each press moves it to its next choice."""
    buttons = [
        Button(setting_label(t, name, chosen), payload.setting_code(name)) for name in CHOICES
    ]
    done = payload.setting_code(payload.SETTINGS_DONE)
    buttons.append(Button(t("settings-done"), done, intent=Intent.SUCCESS))
    title = bold(t("settings-title", platform=shape.platform))
    return Message((title,), tuple(chunked(buttons, shape.settings)))


def forget(t: Translator, player_id: str) -> Message:
    """/general forget's confirmation: what it removes, "Forget me" and "Keep me"."""
    choice = (
        Button(t("forget-yes"), payload.forget_code(player_id, True), intent=Intent.DANGER),
        Button(t("forget-no"), payload.forget_code(player_id, False)),
    )
    return Message((bold(t("forget-ask-title")), plain(t("forget-ask"))), (choice,))


def _commands(t: Translator, shape: Shape) -> tuple[Line, ...]:
    """Every command, as typed on the platform, with what it does (from the catalogue)."""
    return tuple(
        Line((Span(command, Mark.COMMAND), Span(" — "), Span(about)))
        for command, about in usages(t, typed=shape.typed)
    )


def help_lines(t: Translator, topic: str, shape: Shape) -> tuple[Line, ...]:
    """The rules, or every command with what it does."""
    title = bold(t("help-title"))
    if topic == "rules":
        return (title, plain(t("help-rules")))
    return (title, *_commands(t, shape))


def welcome(t: Translator, brief: bool, invite: str | None, shape: Shape) -> Message:
    """A first contact: where the platform's welcome lists the commands, the whole welcome and
    them, with a button that adds the bot to a group; else (and in a group) its lines alone."""
    first, *rest = welcome_lines(t, brief)
    if brief or not shape.welcome_menu:
        return Message(_plain([first, *rest]))
    rows = ((Button(t("btn-add-to-group"), url=invite),),) if invite else ()
    return Message((bold(first), *_plain(rest), *_commands(t, shape)), rows)


def table_link(t: Translator, url: str, minutes: int | None, replay: bool = False) -> Message:
    """The live table's link as a button: a person's own (theirs alone, for so long), or
    anyone's to watch (live, or the last game replayed), the link written out too (to copy, or
    where buttons do not show)."""
    button = ((Button(t("btn-table"), url=url, intent=Intent.PRIMARY),),)
    if minutes is not None:
        return Message(
            (bold(t("table-personal-title")), plain(t("table-personal", count=minutes))), button
        )
    said = t("table-replay") if replay else t("table-spectator")
    return Message((plain(said), plain(url)), button)


def hint_offer(t: Translator, game_id: str, version: int) -> Message:
    """Where a hint cannot be written to the asker privately: a button that shows it to
    whoever presses it, in an answer only they see."""
    button = Button(t("btn-hint"), payload.encode(game_id, version, payload.HINT))
    return Message((plain(t("hint-write-to-me")),), ((button,),))
