"""Telegram messages drawn from the view: HTML text plus inline keyboard, a pure function.

Keyboards are drawn as the Bot API's JSON (what python-telegram-bot's InlineKeyboardMarkup
serialises to) without building its objects: a board's 17–20 buttons are drawn at every press.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from html import escape

from adapters.chat import payload
from adapters.chat.catalogue import help_lines, welcome_lines
from adapters.i18n import Translator
from adapters.i18n.chances import chances_line
from adapters.i18n.dice import box_name, dice_text
from adapters.i18n.endings import ending
from adapters.i18n.names import listed, shown_name
from adapters.i18n.narration import narrate, taken_back, turn_header
from adapters.i18n.settings import setting_label
from adapters.i18n.sheet import sheet_tables
from adapters.i18n.standings import standings_line
from core.chat_settings import CHOICES, ChatSettings
from core.events import BigGeneralThrown, BoxScored, Event
from core.game import Phase
from core.view import GameView, PlayerView

LEVELS = list(payload.LEVEL_CODES.items())

MESSAGE_LIMIT = 4096
ALERT_LIMIT = 200
CAPTION_LIMIT = 1024
KEYCAPS = ("1️⃣", "2️⃣", "3️⃣", "4️⃣", "5️⃣", "6️⃣")
HELD = "🔒"

Button = dict[str, str]  # an InlineKeyboardButton as JSON: its text, its callback_data or url
Keyboard = dict[str, list[list[Button]]]  # an InlineKeyboardMarkup as JSON


@dataclass(frozen=True)
class Rendered:
    """A message: HTML text (a caption where `picture`, a PNG, goes with it) and its keyboard.
    On an edit, `strip` keeps the text and takes the keyboard away."""

    text: str
    markup: Keyboard | None = None
    picture: bytes | None = None
    strip: bool = False


def mention(player: PlayerView) -> str:
    """A link to the user: in a new message it notifies them, whatever their privacy settings."""
    return f'<a href="tg://user?id={escape(player.id)}">{escape(shown_name(player.name))}</a>'


def escaped(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """Plain text as HTML of at most `limit` characters, cut (with "…") between characters so
    that no entity is split."""
    out = escape(text)
    if len(out) <= limit:
        return out
    pieces: list[str] = []
    size = 0
    for piece in map(escape, text):
        if size + len(piece) > limit - 1:
            break
        pieces.append(piece)
        size += len(piece)
    return "".join(pieces) + "…"


def pages(blocks: Iterable[str], limit: int = MESSAGE_LIMIT) -> list[str]:
    """HTML blocks joined by newlines into as few messages as fit (none is longer than a
    message: plain lines come through `escaped`)."""
    out: list[str] = []
    current = ""
    for block in blocks:
        if current and len(current) + 1 + len(block) > limit:
            out.append(current)
            current = block
        else:
            current = f"{current}\n{block}" if current else block
    return [*out, current] if current else out


def line_pages(lines: Iterable[str]) -> list[str]:
    """Plain lines (a review, a refusal) as pages of HTML; a line longer than a message is cut."""
    return pages(escaped(line) for line in lines)


def keyboard(rows: Iterable[list[Button]]) -> Keyboard:
    return {"inline_keyboard": list(rows)}


def pressed(text: str, data: str) -> Button:
    """A button that sends `data` back when pressed."""
    return {"text": text, "callback_data": data}


def _button(text: str, view: GameView, code: str) -> Button:
    return pressed(text, payload.encode(view.game_id, view.version, code))


def dice_line(dice: tuple[int, ...], held: tuple[bool, ...] = ()) -> str:
    marks = held or (False,) * len(dice)
    return "  ".join(KEYCAPS[d - 1] + (HELD if h else "") for d, h in zip(dice, marks, strict=True))


def lobby(t: Translator, view: GameView) -> Rendered:
    """The lobby: who hosts, who sits (as many names as one message holds), and its buttons."""
    lines = [
        f"<b>{escape(t('lobby-title'))}</b>",
        escape(t("lobby-host", host=view.host.name if view.host else "")),
        escape(t("lobby-players", count=len(view.players), names="\x00")),
    ]
    if view.phase is not Phase.LOBBY:
        closed = "chat-game-started" if view.phase is Phase.PLAYING else "chat-lobby-closed"
        return Rendered(_seated(view, [*lines, escape(t(closed))]))
    lines.append(escape(t("lobby-hint")))
    rows = [
        [_button(t("btn-join"), view, "j"), _button(t("btn-leave"), view, "l")],
        *(  # two computers a row: their names are long in Russian
            [_button(t(f"btn-add-{level.value}"), view, code) for code, level in LEVELS[i : i + 2]]
            for i in range(0, len(LEVELS), 2)
        ),
        [_button(t("btn-start"), view, "b"), _button(t("btn-cancel"), view, "x")],
    ]
    return Rendered(_seated(view, lines), keyboard(rows))


def _seated(view: GameView, lines: list[str]) -> str:
    """The lobby's lines with the seated names in place of the \\x00 that holds their place."""
    text = "\n".join(lines)
    names = [escape(shown_name(p.name)) for p in view.players]
    return text.replace("\x00", listed(names, MESSAGE_LIMIT - len(text)))


def turn(t: Translator, view: GameView, *, notify: bool = False) -> Rendered:
    """The live board of the current turn: header, dice, and the keyboard to play it."""
    current = view.current
    assert current is not None, "a turn board needs a current player"
    human = not current.is_computer
    who = mention(current) if notify and human else f"<b>{escape(shown_name(current.name))}</b>"
    lines = [escape(line) for line in taken_back(t, view)]
    lines.append(escape(turn_header(t, view, "\x00")).replace("\x00", who))
    for line in (standings_line(t, view), chances_line(t, view)):
        if line is not None:
            lines.append(escape(line))
    rows: list[list[Button]] = []
    sheet_button = _button(t("btn-sheet"), view, "v")
    if not view.dice:
        if human:
            lines.append(escape(t("turn-first")))
        first = [_button(t("btn-roll-first"), view, "r")] if human else []
        rows.append([*first, sheet_button])
        if human and view.take_back is not None:  # for whoever wrote the last box (a mis-tap)
            rows.append([_button(t("btn-take-back"), view, payload.TAKE_BACK)])
        return Rendered("\n".join(lines), keyboard(rows))
    values = tuple(d.value for d in view.dice)
    held = tuple(d.held for d in view.dice)
    lines.append("")
    lines.append(dice_line(values, held))
    lines.append("")
    if not human:
        return Rendered("\n".join(lines), keyboard([[sheet_button]]))
    lines.append(escape(t("chat-throws-left", left=view.throws_left)))
    if view.can_hold:
        rows.append(
            [
                _button(f"{HELD}{d.value}" if d.held else str(d.value), view, f"h{i}")
                for i, d in enumerate(view.dice)
            ]
        )
    control = []
    if view.can_roll:
        control.append(_button(t("btn-roll", left=view.throws_left), view, "r"))
    control.append(sheet_button)
    if view.variants.hints:
        control.append(_button(t("btn-hint"), view, "t"))
    rows.append(control)
    boxes = [
        _button(t("btn-box", box=box_name(t, o.box), points=o.points), view, f"s{o.box.index}")
        for o in view.options
    ]
    rows.extend(boxes[i : i + 2] for i in range(0, len(boxes), 2))
    return Rendered("\n".join(lines), keyboard(rows))


def finished_turn(t: Translator, view: GameView) -> Rendered:
    """What the last turn's board says once the turn is over: the dice and what was written."""
    lines: list[str] = []
    for event in view.events:
        match event:
            case BoxScored(player_id=pid, box=box, points=points, dice=dice, throw=throw):
                player = view.player(pid)
                name = escape(shown_name(player.name) if player else "?")
                lines.append(f"<b>{name}</b> · {escape(t('turn-header-short', throw=throw))}")
                lines.append(dice_line(dice))
                key = "turn-scored" if points else "turn-scratched"
                text = t(key, name="\x00", points=points, box=box_name(t, box))
                lines.append("✍️ " + escape(text).replace("\x00", name))
            case BigGeneralThrown(player_id=pid, dice=dice):
                player = view.player(pid)
                lines.append(dice_line(dice))
                lines.append(
                    "<b>"
                    + escape(
                        t("big-general", name=player.name if player else "?", dice=dice_text(dice))
                    )
                    + "</b>"
                )
    return Rendered("\n".join(lines) or escape(t("game-over")))


def narration(t: Translator, view: GameView, events: tuple[Event, ...]) -> Rendered:
    """What happened (a player left, the host cancelled): the board keeps it, without buttons."""
    lines = narrate(t, view, events)
    return Rendered(escaped("\n".join(lines)) if lines else escape(t("game-over")))


def sheet(t: Translator, view: GameView) -> list[str]:
    """The score sheet as one or more messages of monospace tables, each under Telegram's limit."""
    title = f"<b>{escape(t('sheet-title'))}</b>"
    return pages([title, *(f"<pre>{escape(table)}</pre>" for table in sheet_tables(t, view))])


def final(t: Translator, view: GameView, review: Iterable[str] = ()) -> list[str]:
    """The end of a game: who won (or why it stopped), the final sheet, how people played (a
    line each, paged: fifty players' review is several messages)."""
    blocks = [escaped("\n".join(ending(t, view, view.end_reason)))] if view.end_reason else []
    if view.round:
        blocks.extend(sheet(t, view))
    return pages([*blocks, *(escaped(line) for line in review)])


def rematch(t: Translator, view: GameView) -> Keyboard | None:
    """The final message's keyboard: its Rematch button, where the game ended in a way that
    counts (see payload.rematch)."""
    data = payload.rematch(view)
    if data is None:
        return None
    return keyboard([[pressed(t("btn-rematch"), data)]])


def caption(t: Translator, view: GameView) -> str:
    """Who won (or why it stopped), to go under the picture of the final sheet."""
    lines = ending(t, view, view.end_reason) if view.end_reason else []
    return escaped("\n".join(lines), CAPTION_LIMIT)


def settings(t: Translator, chosen: ChatSettings) -> Rendered:
    """The settings screen: one button per setting, each press moves it to its next choice."""
    rows = [
        [pressed(setting_label(t, name, chosen), payload.setting_code(name))] for name in CHOICES
    ]
    rows.append([pressed(t("settings-done"), payload.setting_code(payload.SETTINGS_DONE))])
    title = escape(t("settings-title", platform="telegram"))
    return Rendered(f"<b>{title}</b>", keyboard(rows))


def forget(t: Translator, player_id: str) -> Rendered:
    """/general forget's confirmation: what it removes, "Forget me" and "Keep me"."""
    buttons = [
        pressed(t(key), payload.forget_code(player_id, confirmed))
        for key, confirmed in (("forget-yes", True), ("forget-no", False))
    ]
    text = f"<b>{escape(t('forget-ask-title'))}</b>\n{escape(t('forget-ask'))}"
    return Rendered(text, keyboard([buttons]))


def welcome(t: Translator, brief: bool, invite: str | None) -> Rendered:
    """/start and /help: in a private chat the whole welcome and the commands, with a button
    that adds the bot to a group; in a group a line."""
    lines = [escape(line) for line in welcome_lines(t, brief)]
    if brief:
        return Rendered("\n".join(lines))
    lines[0] = f"<b>{lines[0]}</b>"
    lines += [escape(line) for line in help_lines(t, typed=True)]
    markup = keyboard([[{"text": t("btn-add-to-group"), "url": invite}]]) if invite else None
    return Rendered("\n".join(lines), markup)


def hint_offer(t: Translator, game_id: str, version: int) -> Rendered:
    """Where a hint cannot be written to the asker privately: a button that shows it to
    whoever presses it, in a callback answer only they see."""
    button = pressed(t("btn-hint"), payload.encode(game_id, version, payload.HINT))
    return Rendered(escape(t("hint-write-to-me")), keyboard([[button]]))


def help_text(t: Translator, topic: str = "help") -> str:
    """The rules, or every command with what it does (from the catalogue)."""
    title = f"<b>{escape(t('help-title'))}</b>"
    if topic == "rules":
        return f"{title}\n{escape(t('help-rules'))}"
    return "\n".join([title, *(escape(line) for line in help_lines(t, typed=True))])


def alert(text: str) -> str:
    """A callback alert holds at most 200 characters: cut at a line, else at the limit."""
    if len(text) <= ALERT_LIMIT:
        return text
    lines = text.split("\n")
    while len(lines) > 1 and len("\n".join(lines)) > ALERT_LIMIT:
        lines.pop()
    return "\n".join(lines)[: ALERT_LIMIT - 1] + ("…" if len(lines[0]) >= ALERT_LIMIT else "")
