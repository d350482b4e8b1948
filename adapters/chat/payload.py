"""Button payloads shared by every chat front end: short, versioned, and parsed as untrusted input.

`g1|<game id>|<version>|<action>` — well under Telegram's 64 bytes and Discord's 100 characters.
Actions: j join, l leave, b begin (start), x cancel, r roll, h0…h4 toggle a die, s0…s9 score a box
by its sheet index, ag/am/ac/an add a Grandmaster/Master/Club/Novice computer; v view the score
sheet, t a hint; m (on a finished game's final message) open its rematch; u take back the box
just written (on the next player's board); o open the live table (where its links are set).
The settings screen's buttons are `cfg|<setting>` (or `cfg|done`); the confirmation of
/general forget's are `fgt|<user id>|y` (forget me) and `fgt|<user id>|n` (do not). A
tournament's message has `ev1|<event id>|<code>`: j enter, l leave, b start, x cancel, a[gmcn]
enter a computer, c<rule> change a rule (cformat, crounds, csize, cdeadline, cdice).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from core.actions import (
    Action,
    AddComputer,
    Cancel,
    Join,
    Leave,
    Roll,
    Score,
    Start,
    TakeBack,
    ToggleHold,
)
from core.boxes import Box
from core.chat_settings import CHOICES
from core.events import RECORDED_ENDS
from core.levels import Level
from core.table import Phase
from core.view import GameView

PREFIX = "g1"
SHEET = "v"
HINT = "t"
REMATCH = "m"
TAKE_BACK = "u"
TABLE = "o"
TABLE_END = f"|{TABLE}"
PATTERN = re.compile(r"g1\|([a-z2-7]{8})\|(\d{1,9})\|(j|l|b|x|r|v|t|m|u|o|a[gmcn]|h[0-4]|s\d)")
LEVEL_CODES = {"ag": Level.GRANDMASTER, "am": Level.MASTER, "ac": Level.CLUB, "an": Level.NOVICE}
SETTINGS_PREFIX = "cfg|"
SETTINGS_DONE = "done"
SETTINGS_PATTERN = re.compile(r"cfg\|[a-z_]{1,40}")
FORGET_PATTERN = re.compile(r"fgt\|(\d{1,20})\|([yn])")
EVENT_PATTERN = re.compile(
    r"ev1\|([a-z2-7]{8})\|(j|l|b|x|a[gmcn]|c(?:format|rounds|size|deadline|dice))"
)


@dataclass(frozen=True)
class Press:
    """A decoded button: which game, which version of it the board showed, what was pressed."""

    game_id: str
    version: int
    code: str

    @property
    def action(self) -> Action | None:
        """The game action, or None for buttons that change nothing or need the chat's words."""
        return code_to_action(self.code)

    @property
    def computer(self) -> Level | None:
        """The level of the computer that an "add computer" button seats."""
        return LEVEL_CODES.get(self.code)


def setting_pressed(data: str | None) -> str | None:
    """The setting a settings-screen button names (or SETTINGS_DONE); None for anything else."""
    if not data or not data.startswith(SETTINGS_PREFIX):
        return None
    name = data[len(SETTINGS_PREFIX) :]
    return name if name in CHOICES or name == SETTINGS_DONE else None


def setting_code(name: str) -> str:
    return SETTINGS_PREFIX + name


@dataclass(frozen=True)
class ForgetPress:
    """A button of /general forget's confirmation: whom it forgets, and whether to."""

    player_id: str
    confirmed: bool


def forget_code(player_id: str, confirmed: bool) -> str:
    return f"fgt|{player_id}|{'y' if confirmed else 'n'}"


def forget_pressed(data: str | None) -> ForgetPress | None:
    """The confirmation's button the payload names; None for anything else."""
    match = FORGET_PATTERN.fullmatch(data or "")
    return None if match is None else ForgetPress(match.group(1), match.group(2) == "y")


@dataclass(frozen=True)
class EventPress:
    """A button of a tournament's message: which event, what was pressed."""

    event_id: str
    code: str

    @property
    def rule(self) -> str | None:
        """The rule a host's button moves on (core.tournament.cycled), if it is one."""
        return self.code[1:] if self.code.startswith("c") else None

    @property
    def computer(self) -> Level | None:
        return LEVEL_CODES.get(self.code)


def event_code(event_id: str, code: str) -> str:
    return f"ev1|{event_id}|{code}"


def event_pressed(data: str | None) -> EventPress | None:
    """The tournament button the payload names; None for anything else."""
    match = EVENT_PATTERN.fullmatch(data or "")
    return None if match is None else EventPress(match.group(1), match.group(2))


def encode(game_id: str, version: int, code: str) -> str:
    return f"{PREFIX}|{game_id}|{version}|{code}"


def table_of(data: str | None) -> str | None:
    """The game whose live table a button opens (None: any other button), for a platform that
    opens the page itself instead of taking the press (Telegram)."""
    if data is None or not data.endswith(TABLE_END):
        return None
    press = decode(data)
    return None if press is None else press.game_id


def rematch(view: GameView) -> str | None:
    """The payload of a final message's one button, Rematch: only where the game ended in a
    way that counts (played out, or a big general), never for a cancelled or abandoned one."""
    if view.phase is not Phase.FINISHED or view.end_reason not in RECORDED_ENDS or view.event:
        return None  # an event's table: the event pairs the next
    return encode(view.game_id, view.version, REMATCH)


def decode(data: str | None) -> Press | None:
    """None for anything that is not exactly one of our payloads."""
    if not data or len(data) > 64:
        return None
    match = PATTERN.fullmatch(data)
    if match is None:
        return None
    game_id, version, code = match.groups()
    if code.startswith("s") and int(code[1:]) >= len(Box):
        return None
    return Press(game_id, int(version), code)


def shown(datas: Iterable[str]) -> Press | None:
    """The game and version a message's buttons belong to, from their payloads (None: no game
    buttons), so that a press on an older drawing of the board is told apart."""
    presses = (decode(data) for data in datas)
    return next((press for press in presses if press is not None), None)


def action_code(action: Action) -> str:
    match action:
        case Join():
            return "j"
        case Leave():
            return "l"
        case Start():
            return "b"
        case Cancel():
            return "x"
        case Roll():
            return "r"
        case ToggleHold(index=index):
            return f"h{index}"
        case Score(box=box):
            return f"s{box.index}"
        case TakeBack():
            return TAKE_BACK
        case AddComputer(level=level):
            return next(code for code, lv in LEVEL_CODES.items() if lv is level)
    raise ValueError(f"no button for {action!r}")


def code_to_action(code: str) -> Action | None:
    simple: dict[str, Action] = {
        "j": Join(),
        "l": Leave(),
        "b": Start(),
        "x": Cancel(),
        "r": Roll(),
        TAKE_BACK: TakeBack(),
    }
    if code in simple:
        return simple[code]
    if code.startswith("h"):
        return ToggleHold(int(code[1:]))
    if code.startswith("s"):
        return Score(Box.from_index(int(code[1:])))
    return None
