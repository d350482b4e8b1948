"""Button presses carried out, once for every chat: a board's buttons and the settings screen.

The payload is untrusted (a client can send anything): it is parsed again here, and only what
the pressed message itself shows is trusted when a stale press redraws or strips a board.
"""

from __future__ import annotations

import time

from adapters.chat import cards, forget, metrics, payload
from adapters.chat.boards import BoardRef
from adapters.chat.commands import hint, refusal, settings_refused
from adapters.chat.envelope import envelope
from adapters.chat.pacing import pending
from adapters.chat.surface import Exchange
from adapters.chat.tables import Tables
from adapters.chat.voices import Voices
from adapters.i18n import Translator
from adapters.i18n.dice import box_name, dice_text
from core.actions import AddComputer, Start
from core.chat_settings import ChatSettings, cycled
from core.errors import ErrorCode, GameError
from core.events import BoxScored, DiceRolled, HoldChanged, ScoreTakenBack
from core.outcome import Outcome
from core.view import make_view

# The host's lobby buttons: Start and the computers. Made up (on a message that does not show
# them, or for another game), they are refused as such, not by what the game would refuse.
HOSTS = frozenset({payload.action_code(Start()), *payload.LEVEL_CODES})


async def press(tables: Tables, exchange: Exchange, data: str | None) -> None:
    """Carry out a press and answer it; the platform failing is logged once and told."""

    async def work(voices: Voices, settings: ChatSettings) -> None:
        await _press(tables, exchange, data, voices, settings)

    with metrics.counted(tables.platform.name, "press"), pending():
        doing = f"press {(data or '')[:100]!r}"
        await envelope(tables, exchange.channel, work, doing=doing, exchange=exchange)


async def _press(
    tables: Tables, exchange: Exchange, data: str | None, voices: Voices, settings: ChatSettings
) -> None:
    channel, own = exchange.channel, voices.own
    setting = payload.setting_pressed(data)
    board = payload.decode(data)
    if setting is not None and data is not None and exchange.carries(data):
        # Only from the screen that shows it: forged onto another message, it is refused.
        await configure(tables, exchange, voices, settings, setting)
    elif (forgetting := payload.forget_pressed(data)) is not None:
        await forget.pressed(tables, exchange, own, forgetting, exchange.carries(data or ""))
    elif (event := payload.event_pressed(data)) is not None:
        await tables.director.pressed(exchange, voices, event, exchange.carries(data or ""))
    elif board is None or exchange.pressed is None:
        metrics.refused(ErrorCode.BAD_ACTION)
        await exchange.private(cards.Lines((own("error-bad-action"),)), own)
    elif board.code == payload.HINT:
        await hint(tables, exchange, voices, board.game_id)
    elif board.code == payload.TABLE:  # opens the page, changes nothing
        await _open_table(tables, exchange, own)
    elif board.code == payload.SHEET:  # shows, changes nothing: waits for no action
        await _sheet(tables, exchange, voices, board.game_id)
    elif board.code == payload.REMATCH:
        async with tables.serial(channel, exchange, voices):
            await rematch(tables, exchange, voices, board, exchange.carries(data or ""))
    else:
        async with tables.serial(channel, exchange, voices):
            await _on_board(tables, exchange, voices, board, exchange.carries(data or ""))


async def rematch(
    tables: Tables, exchange: Exchange, voices: Voices, press: payload.Press, carried: bool
) -> None:
    """A final message's Rematch: the new lobby, its players seated, posted as a new message as
    /general start's is, in the old table's language. Only from the final message that shows
    the button (a payload forged onto another message is refused); where the table has a game
    already, the presser is told, and one not opened from this message is shown again."""
    channel, own = exchange.channel, voices.own
    if not carried:
        metrics.refused(ErrorCode.BAD_ACTION)
        await exchange.private(cards.Lines((own("error-bad-action"),)), own)
        return
    try:
        outcome = await tables.service.rematch(
            channel, exchange.person, press.game_id, version=press.version
        )
    except GameError as error:
        await exchange.private(await refusal(tables, channel, error, own), own)
        if error.code is ErrorCode.GAME_EXISTS:
            await tables.repair.repost_board(channel, voices.table)
        return
    # The new table speaks the old one's language.
    _, voices = await tables.languages.of(channel, exchange)
    await exchange.note(voices.own("rematch-opened"))
    await tables.publisher.publish(channel, outcome, voices.table, exchange)


async def configure(
    tables: Tables, exchange: Exchange, voices: Voices, settings: ChatSettings, setting: str
) -> None:
    """The settings screen: administrators only; each press cycles one choice and saves it."""
    if not await exchange.may_configure():
        metrics.refused(metrics.NOT_ADMIN)
        await exchange.private(settings_refused(tables, voices.own), voices.own)
    elif setting == payload.SETTINGS_DONE:
        t = voices.table  # the screen describes the chat
        await exchange.redraw(cards.Lines((t("settings-closed"),)), t)
    else:
        settings = cycled(settings, setting)
        place = await exchange.place()
        await tables.service.save_chat_settings(tables.platform.key, place.chat, settings)
        _, voices = await tables.languages.of(exchange.channel, exchange)
        await exchange.redraw(cards.Settings(settings), voices.table)  # a new language at once


async def _on_board(
    tables: Tables, exchange: Exchange, voices: Voices, press: payload.Press, carried: bool
) -> None:
    """A press on a board's button. `carried`: the pressed message has this very button, so it
    may be taken for the live board; a payload forged onto any other message never makes it one."""
    pressed = exchange.pressed
    assert pressed is not None
    channel, person, t, own = exchange.channel, exchange.person, voices.table, voices.own
    if press.code in HOSTS and not carried and not _lobby_moved_on(exchange, press):
        metrics.refused(ErrorCode.BAD_ACTION)  # made up: not on this message, nor this game's
        await exchange.private(cards.Lines((own("error-bad-action"),)), own)
        return
    action = press.action
    if press.computer is not None:
        action = AddComputer(press.computer, t(f"computer-{press.computer.value}"))
    elif action is None:
        metrics.refused(ErrorCode.BAD_ACTION)
        await exchange.private(cards.Lines((own("error-bad-action"),)), own)
        return
    try:
        outcome = await tables.service.act(
            channel, person, action, game_id=press.game_id, version=press.version
        )
    except GameError as error:
        await _after_refusal(tables, exchange, voices, press, error, carried)
        await exchange.private(await refusal(tables, channel, error, own), own)
        return
    await note(exchange, own, outcome)
    game_id = outcome.view.game_id
    ref = BoardRef.loads(await tables.boards.board(game_id))
    shown = exchange.shown
    if (
        carried
        and shown is not None
        and (shown.game_id, shown.version) == (game_id, press.version)
        and (ref != pressed)
    ):
        # The pressed message shows this very version of the game: it is the live board
        # (a crash may have kept the stored reference from following it).
        await tables.boards.set_board(game_id, pressed.dumps())
        tables.repair.found_live(channel)
    await tables.publisher.publish(channel, outcome, t, exchange)


async def _sheet(tables: Tables, exchange: Exchange, voices: Voices, game_id: str) -> None:
    """The board's 📋: the score sheet for the presser's eyes where the platform can."""
    view = await tables.service.view(exchange.channel, exchange.person.id)
    if view is None or view.game_id != game_id:
        metrics.refused(ErrorCode.GAME_OVER)
        await exchange.private(cards.Lines((voices.own("error-game-over"),)), voices.own)
        return
    await tables.scores.show(exchange, view, voices, text=False, pressed=True)


async def _open_table(tables: Tables, exchange: Exchange, own: Translator) -> None:
    """The board's "Open the table": the Activity launched where the platform has one, else
    the presser's own link, for their eyes alone (seated or not: the page decides what they
    may do there)."""
    links = tables.links
    if links is None:  # an old board's button, from before the live table was switched off
        await exchange.private(cards.Lines((own("table-off"),)), own)
        return
    if links.activity and await exchange.launch():
        return
    url = links.personal(exchange.channel, exchange.person, time.time(), exchange.locale)
    if not await exchange.direct(cards.TableLink(url, links.minutes), own):
        await exchange.private(cards.Lines((own("table-write-to-me"),)), own)


def _lobby_moved_on(exchange: Exchange, press: payload.Press) -> bool:
    """The pressed message is this game's lobby and has this button, at a later version: a
    press made before a redraw (its refusal says the board is out of date)."""
    shown = exchange.shown
    return (
        shown is not None
        and shown.game_id == press.game_id
        and exchange.carries(payload.encode(shown.game_id, shown.version, press.code))
    )


async def note(exchange: Exchange, own: Translator, outcome: Outcome) -> None:
    """Answer the press at once, saying what a throw showed, which dice are kept, what a box
    earned or which was taken back, for the presser's eyes, before the board can."""
    text = None
    for event in outcome.events:  # the press's own event comes first
        if text is not None:
            break
        if isinstance(event, DiceRolled):
            text = own("toast-rolled", dice=dice_text(event.dice))
        elif isinstance(event, BoxScored):
            text = own("toast-scored", points=event.points, box=box_name(own, event.box))
        elif isinstance(event, HoldChanged):
            text = _held(own, outcome, event.held)
        elif isinstance(event, ScoreTakenBack):
            text = own("toast-taken-back", box=box_name(own, event.box))
    await exchange.note(text)


def _held(own: Translator, outcome: Outcome, held: tuple[bool, ...]) -> str:
    """Which dice the next throw keeps: the board may show it only a slot later."""
    dice = [die.value for die in outcome.view.dice]
    kept = [value for value, keep in zip(dice, held, strict=True) if keep]
    if not kept:
        return own("toast-held-none")
    if len(kept) == len(dice):
        return own("toast-held-all")
    free = [value for value, keep in zip(dice, held, strict=True) if not keep]
    return own("toast-held", held=dice_text(kept), free=dice_text(free))


async def _after_refusal(
    tables: Tables,
    exchange: Exchange,
    voices: Voices,
    press: payload.Press,
    error: GameError,
    carried: bool,
) -> None:
    """A stale press redraws the live board it was made on (unless it shows the game as it is
    already); a board of a game that is over loses its buttons. Only a button the pressed
    message has counts: a forged one changes no message."""
    pressed, shown, t = exchange.pressed, exchange.shown, voices.table
    channel, drawer = exchange.channel, tables.drawer
    assert pressed is not None
    if not carried:
        return
    if error.code is ErrorCode.STALE:
        game = await tables.service.game(channel)
        if game is None or shown is None or shown.game_id != game.id:
            return
        ref = BoardRef.loads(await tables.boards.board(game.id))
        if ref == pressed and tables.order.showing(channel):
            return  # the action that moved the game on is drawing its newest state there
        if ref is None or ref == pressed:
            if tables.service.shared and shown.version != game.version:
                # Another process may have drawn an older state over this board after this
                # one drew it anew: what the pressed message shows is the truth, not our memory.
                drawer.drawn.forget(pressed)
            board = cards.Board(make_view(game))
            await drawer.redraw_board(channel, exchange, game.id, pressed, board, game.version, t)
            if ref is None:
                await tables.boards.set_board(game.id, pressed.dumps())
                tables.repair.found_live(channel)
        elif shown.version != game.version:
            await drawer.strip(channel, game.id, pressed, t, exchange)  # a left-over board
    elif (
        error.code in (ErrorCode.GAME_OVER, ErrorCode.NO_GAME)
        and shown is not None
        and shown.game_id == press.game_id
    ):
        await drawer.strip(channel, press.game_id, pressed, t, exchange)
        await tables.endings.owed_final(channel, t)
