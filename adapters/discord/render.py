"""Discord messages drawn from the view: markdown content plus buttons (at most 5 rows of 5).

Every text that can hold a name is escaped for Discord markdown and mentions; the catalogue's
words are escaped too (they are plain text). Content stays within Discord's 2000 characters:
long texts are cut into pages. Buttons are drawn as Discord's component JSON (what a
discord.py View of them serialises to) without building discord.py's View and Item objects: a
board's 17–20 buttons are drawn at every press. They hold no state: each press comes back as a
dynamic item (buttons.py) whose custom_id carries the game and its version.
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import discord
from discord.utils import escape_markdown, escape_mentions

from adapters.chat import payload
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

MESSAGE_LIMIT = 2000
ROW_WIDTH = 5
KEYCAPS = ("1️⃣", "2️⃣", "3️⃣", "4️⃣", "5️⃣", "6️⃣")
HELD = "🔒"
SHEET_FILE = "score-sheet.png"
SETTINGS_PER_ROW = 3  # eleven buttons within Discord's five rows
ROWS = 5
LABEL_LIMIT = 80
_Style = discord.ButtonStyle
Component = dict[str, Any]  # a button (type 2) or an action row (type 1), as Discord's JSON


@dataclass
class Buttons:
    """A message's rows of buttons (an empty row is left out) as Discord's JSON, given to
    discord.py where it takes a View: it reads the components, and keeps nothing to dispatch
    (every button is a dynamic item, found again by its custom_id at each press)."""

    rows: list[list[Component]]
    __discord_ui_view__ = True
    timeout = None

    def __post_init__(self) -> None:
        self.rows = [row for row in self.rows if row]
        if len(self.rows) > ROWS or any(len(row) > ROW_WIDTH for row in self.rows):
            raise ValueError(f"more buttons than Discord's {ROWS} rows of {ROW_WIDTH}")

    def to_components(self) -> list[Component]:
        return [{"type": 1, "components": row} for row in self.rows]

    def has_components_v2(self) -> bool:
        return False

    def is_finished(self) -> bool:
        return True

    def is_dispatchable(self) -> bool:
        return False


def button(custom_id: str, label: str, style: _Style = _Style.secondary) -> Component:
    return {
        "type": 2,
        "style": style.value,
        "disabled": False,
        "label": clip(label, LABEL_LIMIT),
        "custom_id": custom_id,
    }


@dataclass(frozen=True)
class Rendered:
    """A message to send or an edit to make. `view=None` on an edit removes the buttons;
    `content=None` on an edit keeps the text. `ping` is the one user a new message notifies;
    `picture` a PNG sent with a new message (the score sheet)."""

    content: str | None
    view: Buttons | None = None
    ping: str | None = None
    picture: bytes | None = None

    def send_kwargs(self) -> dict[str, Any]:
        kwargs: dict[str, Any] = {"content": self.content, "allowed_mentions": self.mentions()}
        if self.view is not None:
            kwargs["view"] = self.view
        if self.picture is not None:
            # A File is read once: a new one for every attempt.
            kwargs["file"] = discord.File(io.BytesIO(self.picture), filename=SHEET_FILE)
        return kwargs

    def edit_kwargs(self) -> dict[str, Any]:
        # An edit never notifies anyone, whatever it mentions.
        kwargs: dict[str, Any] = {"view": self.view, "allowed_mentions": _NOBODY}
        if self.content is not None:
            kwargs["content"] = self.content
        return kwargs

    def mentions(self) -> discord.AllowedMentions:
        if self.ping is None or not self.ping.isdigit():
            return _NOBODY
        return discord.AllowedMentions(
            everyone=False, roles=False, replied_user=False, users=[discord.Object(int(self.ping))]
        )


_NOBODY = discord.AllowedMentions.none()


def esc(text: str) -> str:
    """Plain text made safe for Discord: no markdown, no mass or user mentions."""
    return escape_markdown(escape_mentions(text))


def mention(player: PlayerView) -> str:
    """`<@id>` for a Discord user (it notifies them in a new message); a name otherwise."""
    return f"<@{player.id}>" if player.id.isdigit() else f"**{esc(shown_name(player.name))}**"


def clip(text: str, limit: int = MESSAGE_LIMIT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def pages(parts: Iterable[str], limit: int = MESSAGE_LIMIT) -> list[str]:
    """Parts joined by newlines into as few messages as fit `limit` each (a part is never cut
    across two messages; a part longer than a message is clipped)."""
    out: list[str] = []
    current = ""
    for part in (clip(p, limit) for p in parts if p):
        if current and len(current) + 1 + len(part) > limit:
            out.append(current)
            current = part
        else:
            current = f"{current}\n{part}" if current else part
    if current:
        out.append(current)
    return out


def _button(view: GameView, code: str, label: str, style: _Style = _Style.secondary) -> Component:
    return button(payload.encode(view.game_id, view.version, code), label, style)


def dice_line(dice: Iterable[int], held: Iterable[bool] | None = None) -> str:
    values = tuple(dice)
    marks = tuple(held) if held is not None else (False,) * len(values)
    return "  ".join(
        KEYCAPS[d - 1] + (HELD if h else "") for d, h in zip(values, marks, strict=True)
    )


# ---------------------------------------------------------------------------------------- boards


def lobby(t: Translator, view: GameView) -> Rendered:
    """The lobby: who hosts, who sits (as many names as one message holds); Join, Leave, Start
    and Cancel while it is open."""
    lines = [
        f"**{esc(t('lobby-title'))}**",
        esc(t("lobby-host", host=view.host.name if view.host else "")),
        esc(t("lobby-players", count=len(view.players), names="\x00")),
    ]
    if view.phase is not Phase.LOBBY:
        closed = "chat-game-started" if view.phase is Phase.PLAYING else "chat-lobby-closed"
        return Rendered(_seated(view, [*lines, esc(t(closed))]))
    lines.append(esc(t("lobby-hint")))
    seating = [
        _button(view, "j", t("btn-join"), _Style.primary),
        _button(view, "l", t("btn-leave")),
        _button(view, "b", t("btn-start"), _Style.success),
        _button(view, "x", t("btn-cancel"), _Style.danger),
    ]
    computers = [
        _button(view, code, t(f"btn-add-{level.value}"))
        for code, level in payload.LEVEL_CODES.items()
    ]
    return Rendered(_seated(view, lines), Buttons([seating, computers]))


def _seated(view: GameView, lines: list[str]) -> str:
    """The lobby's lines with the seated names in place of the \\x00 that holds their place."""
    text = clip("\n".join(lines))
    names = [esc(shown_name(p.name)) for p in view.players]
    return text.replace("\x00", listed(names, MESSAGE_LIMIT - len(text) + 1))


def turn(t: Translator, view: GameView, *, notify: bool = False) -> Rendered:
    """The live board of the current turn. Rows: the dice (while holds are allowed), Roll, Sheet
    and Hint, then the open boxes five to a row with what each scores now (0: a scratch). A
    computer's board has the Sheet button only: it plays by itself."""
    current = view.current
    assert current is not None, "a turn board needs a current player"
    human = not current.is_computer
    ping = current.id if notify and human else None
    lines = [esc(line) for line in taken_back(t, view)]
    lines.append(esc(turn_header(t, view, "\x00")).replace("\x00", mention(current)))
    for line in (standings_line(t, view), chances_line(t, view)):
        if line is not None:
            lines.append(esc(line))
    sheet = _button(view, "v", t("btn-sheet"))
    if not view.dice:
        first: list[Component] = []
        back: list[Component] = []
        if human:
            lines.append(esc(t("turn-first")))
            first.append(_button(view, "r", t("btn-roll-first"), _Style.primary))
            if view.take_back:  # for whoever wrote the last box (a mis-tap), on a row of its own
                back.append(_button(view, payload.TAKE_BACK, t("btn-take-back")))
        return Rendered(clip("\n".join(lines)), Buttons([[*first, sheet], back]), ping)
    lines.append("# " + dice_line((d.value for d in view.dice), (d.held for d in view.dice)))
    if not human:
        return Rendered(clip("\n".join(lines)), Buttons([[sheet]]))
    lines.append(esc(t("chat-throws-left", left=view.throws_left)))
    dice = [
        _button(view, f"h{i}", f"{HELD} {d.value}", _Style.primary)
        if d.held
        else _button(view, f"h{i}", str(d.value))
        for i, d in enumerate(view.dice)
    ]
    control = []
    if view.can_roll:
        control.append(_button(view, "r", t("btn-roll", left=view.throws_left), _Style.primary))
    control.append(sheet)
    if view.variants.hints:
        control.append(_button(view, payload.HINT, t("btn-hint")))
    boxes = [
        _button(
            view,
            f"s{option.box.index}",
            t("btn-box", box=box_name(t, option.box), points=option.points),
            _Style.success if option.points else _Style.secondary,
        )
        for option in view.options
    ]
    rows = [dice if view.can_hold else [], control]
    rows += [boxes[i : i + ROW_WIDTH] for i in range(0, len(boxes), ROW_WIDTH)]
    return Rendered(clip("\n".join(lines)), Buttons(rows), ping)


def finished_turn(t: Translator, view: GameView) -> Rendered:
    """What a turn's board keeps once the turn is over: the dice and what was written."""
    lines: list[str] = []
    for event in view.events:
        match event:
            case BoxScored(player_id=pid, box=box, points=points, dice=dice, throw=throw):
                player = view.player(pid)
                name = shown_name(player.name) if player else "?"
                lines.append(f"**{esc(name)}** · {esc(t('turn-header-short', throw=throw))}")
                lines.append(dice_line(dice))
                key = "turn-scored" if points else "turn-scratched"
                lines.append("✍️ " + esc(t(key, name=name, points=points, box=box_name(t, box))))
            case BigGeneralThrown(player_id=pid, dice=dice):
                lines.append("# " + dice_line(dice))
                lines.append(f"**{esc(_big_general(t, view, pid, dice))}**")
    return Rendered(clip("\n".join(lines) or esc(t("game-over"))))


def narration(t: Translator, view: GameView, events: tuple[Event, ...]) -> Rendered:
    """What happened (a player left, the host cancelled): the board keeps it, without buttons."""
    lines = narrate(t, view, events)
    return Rendered(clip("\n".join(esc(line) for line in lines)) if lines else esc(t("game-over")))


def _big_general(t: Translator, view: GameView, player_id: str, dice: tuple[int, ...]) -> str:
    player = view.player(player_id)
    return t("big-general", name=player.name if player else "?", dice=dice_text(dice))


# ---------------------------------------------------------------------------------------- sheets


def _code(text: str) -> str:
    """A code block that a name cannot close: backticks become a look-alike."""
    return "```\n" + text.replace("`", "ˋ") + "\n```"


def sheet(t: Translator, view: GameView) -> list[str]:
    """The score sheet as messages of monospace tables (a few players each, to fit phones)."""
    title = f"**{esc(t('sheet-title'))}**"
    return pages([title, *(_code(table) for table in sheet_tables(t, view))])


def final(
    t: Translator, view: GameView, review: Iterable[str] = (), *, with_sheet: bool = True
) -> list[str]:
    """The end of a game: the winners (a big general is announced by the board just above, and
    the verdict says it ended the game), the final sheet (unless it goes as a picture), and how
    everyone played."""
    lines = [esc(line) for line in ending(t, view, view.end_reason)] if view.end_reason else []
    parts = ["\n".join(lines)]
    if view.round and with_sheet:
        parts.extend(sheet(t, view))
    parts.extend(esc(line) for line in review)
    return pages(parts)


def rematch(t: Translator, view: GameView) -> Buttons | None:
    """The final message's one row: its Rematch button, where the game ended in a way that
    counts (see payload.rematch)."""
    custom_id = payload.rematch(view)
    if custom_id is None:
        return None
    return Buttons([[button(custom_id, t("btn-rematch"), _Style.primary)]])


# ---------------------------------------------------------------------------- other answers


def notice(text: str, player: PlayerView) -> Rendered:
    """A line that mentions its player (a new message with it notifies them, and only them)."""
    if player.is_computer or not player.id.isdigit():
        return Rendered(clip(esc(text)))
    name = esc(shown_name(player.name))  # as the catalogue's words show it
    return Rendered(clip(esc(text).replace(name, mention(player), 1)), ping=player.id)


def lines_text(lines: Iterable[str]) -> str:
    """Lines of the catalogue (a hint, a review), escaped, in one message."""
    return clip("\n".join(esc(line) for line in lines))


def records(lines: list[str]) -> list[str]:
    """A leaderboard, statistics or history: the title in bold, the rest in monospace blocks
    (as many messages as it takes; a block is never cut across two)."""
    title, *body = lines
    heading = f"**{esc(title)}**"
    if not body:
        return [heading]
    blocks: list[str] = []
    chunk: list[str] = []
    room = MESSAGE_LIMIT - len(heading) - 1 - len(_code(""))
    for line in body:
        line = clip(line, room)
        if chunk and len("\n".join([*chunk, line])) > room:
            blocks.append(_code("\n".join(chunk)))
            chunk = []
        chunk.append(line)
    blocks.append(_code("\n".join(chunk)))
    return pages([heading, *blocks])


def forget(t: Translator, player_id: str) -> Rendered:
    """/general forget's confirmation: what it removes, "Forget me" and "Keep me"."""
    choice = [
        button(payload.forget_code(player_id, True), t("forget-yes"), _Style.danger),
        button(payload.forget_code(player_id, False), t("forget-no")),
    ]
    text = f"**{esc(t('forget-ask-title'))}**\n{esc(t('forget-ask'))}"
    return Rendered(text, Buttons([choice]))


def settings(t: Translator, chosen: ChatSettings) -> Rendered:
    """The settings screen: one button per setting, each press moves it to its next choice."""
    buttons = [
        button(payload.setting_code(name), setting_label(t, name, chosen)) for name in CHOICES
    ]
    done = payload.setting_code(payload.SETTINGS_DONE)
    buttons.append(button(done, t("settings-done"), _Style.success))
    rows = [buttons[i : i + SETTINGS_PER_ROW] for i in range(0, len(buttons), SETTINGS_PER_ROW)]
    title = esc(t("settings-title", platform="discord"))
    return Rendered(f"**{title}**", Buttons(rows))
