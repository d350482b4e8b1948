"""`/general …` carried out, once for every chat; each front end only parses its own arguments
into an `Asked` (Telegram's words: adapters/telegram/words.py; Discord's options) and answers
through its exchange."""

from __future__ import annotations

from dataclasses import dataclass

from adapters.chat import cards, forget, metrics
from adapters.chat.catalogue import BY_NAME
from adapters.chat.chances import chances
from adapters.chat.envelope import envelope
from adapters.chat.pacing import pending
from adapters.chat.plan import plan
from adapters.chat.publisher import seating
from adapters.chat.records import KINDS, Query, record_lines
from adapters.chat.review import last_review
from adapters.chat.surface import Exchange
from adapters.chat.tables import Tables
from adapters.chat.verify import verified
from adapters.chat.voices import Voices
from adapters.i18n import Translator
from adapters.i18n.dice import dice_text
from adapters.i18n.refusals import error_message
from core.actions import Action, Cancel, Join, Kick, Leave, Open
from core.chat_settings import ChatSettings, DiceKind
from core.errors import ErrorCode, GameError
from core.identity import ChannelKey

MAX_ARGUMENT = 32
ACTIONS: dict[str, Action] = {"join": Join(), "leave": Leave(), "stop": Cancel()}


@dataclass(frozen=True)
class Target:
    """The player a host names to remove: picked by id (Discord's user picker) or by the name
    they play under (typed on Telegram, `@` allowed)."""

    player_id: str | None = None
    name: str | None = None


@dataclass(frozen=True)
class Asked:
    """A command as asked: its name (or the unknown word typed), and its arguments."""

    name: str
    text: bool = False  # sheet: as text even where pictures were chosen
    off: bool = False  # notify: no longer
    query: Query | None = None  # leaderboard, stats, history
    target: Target | None = None  # kick


async def refusal(
    tables: Tables, channel: ChannelKey, error: GameError, own: Translator
) -> cards.Lines:
    """Why an action was refused (of an old board's press, what changed since it was drawn);
    where the table's game is gone because its stored state could not be read (quarantined),
    that is said instead of "no game"."""
    metrics.refused(error.code)
    gone = error.code in (ErrorCode.NO_GAME, ErrorCode.GAME_OVER, ErrorCode.STALE)
    if (
        gone
        and await tables.service.game(channel) is None
        and await tables.service.quarantined(channel) is not None
    ):
        return cards.Lines((own("error-game-lost"),))
    if error.detail is not None:  # an old board's press: what changed since that board
        params = {**error.params}
        if "dice" in params:
            params["dice"] = dice_text(params["dice"])
        key = f"error-{error.code.value}-{error.detail.value}"
        return cards.Lines((own(key, **params),))
    return cards.Lines((error_message(own, error),))


async def command(tables: Tables, exchange: Exchange, asked: Asked) -> None:
    """Carry out a command and answer it; the platform failing is logged once and told."""

    async def work(voices: Voices, settings: ChatSettings) -> None:
        await _command(tables, exchange, asked, voices, settings)

    with metrics.counted(tables.platform.name, "command", asked.name), pending():
        doing = f"/general {asked.name[:MAX_ARGUMENT]}"
        await envelope(tables, exchange.channel, work, doing=doing, exchange=exchange)


async def _command(
    tables: Tables, exchange: Exchange, asked: Asked, voices: Voices, settings: ChatSettings
) -> None:
    t, own, name, channel = voices.table, voices.own, asked.name, exchange.channel
    if name in ("help", "rules"):
        await exchange.private(cards.Help(name), own)
    elif name == "settings":
        if await exchange.may_configure():
            await exchange.private(cards.Settings(settings), t)  # it describes the chat
        else:
            metrics.refused(metrics.NOT_ADMIN)
            await exchange.private(settings_refused(tables, own), own)
    elif name in KINDS:
        query = asked.query or Query(name)
        lines = await record_lines(t, tables.service, channel, exchange.person, query, settings)
        await exchange.public(cards.Records(tuple(lines)), t)
    elif name == "hint":
        await hint(tables, exchange, voices)
    elif name == "chances":
        await chances(tables, exchange, voices)
    elif name == "review":
        review = await last_review(t, tables.service, channel, settings.language)
        await exchange.public(review, t)
    elif name == "verify":
        await exchange.public(await verified(t, tables.service, channel, tables.links), t)
    elif name == "table":
        await table_link(tables, exchange, voices)
    elif name == "forget":
        await forget.ask(exchange, own)
    elif name == "notify":
        await tables.notifier.ask(exchange, voices, off=asked.off)
    elif name == "tournament":
        await tables.director.command(exchange, voices)
    elif name in BY_NAME:
        async with tables.serial(channel, exchange, voices):
            await _at_table(tables, exchange, asked, voices, settings)
    else:
        unknown = own("chat-unknown", arg=name)
        await exchange.private(cards.Help(preface=(unknown,)), own)


async def table_link(tables: Tables, exchange: Exchange, voices: Voices) -> None:
    """/general table: anyone's link to watch the table's game, said to the chat; between
    games, the last one's (the page replays it); where there is none or no live table, the
    asker alone is told."""
    links, own, channel = tables.links, voices.own, exchange.channel
    if links is None:
        await exchange.private(cards.Lines((own("table-off"),)), own)
        return
    game = await tables.service.game(channel)
    ended = None if game is not None else await tables.service.last_finished(channel)
    shown = game or ended
    if shown is None:
        await exchange.private(cards.Lines((own("table-none"),)), own)
    else:
        link = cards.TableLink(links.spectator(shown.id), replay=game is None)
        await exchange.public(link, voices.table)


def settings_refused(tables: Tables, own: Translator) -> cards.Lines:
    """Who may change the settings, in the platform's terms (a Discord server's permission,
    a Telegram chat's administrators)."""
    return cards.Lines((own("settings-admins-only", platform=tables.platform.name),))


async def _at_table(
    tables: Tables, exchange: Exchange, asked: Asked, voices: Voices, settings: ChatSettings
) -> None:
    """What changes or shows the table: one at a time."""
    channel, person, own = exchange.channel, exchange.person, voices.own
    if asked.name == "sheet":
        view = await tables.service.view(channel, person.id)
        if view is None:
            await exchange.private(cards.Lines((own("chat-sheet-none"),)), own)
        else:
            await tables.scores.show(exchange, view, voices, text=asked.text, pressed=False)
        return
    if asked.name == "kick":
        await kick(tables, exchange, asked.target or Target(), voices)
        return
    if asked.name == "start" and await tables.endings.owed_final(channel, voices.table):
        return  # the last game's end comes first; its Rematch (or start again) opens the next
    if asked.name == "start":  # the table keeps the language it opens in
        committed = settings.dice is DiceKind.SEALED
        action: Action = Open(settings.variants(), voices.table.locale, committed)
    else:
        action = ACTIONS[asked.name]
    try:
        outcome = await tables.service.act(channel, person, action)
    except GameError as error:
        await exchange.private(await refusal(tables, exchange.channel, error, own), own)
        if error.code is ErrorCode.GAME_EXISTS:
            await tables.repair.repost_board(channel, voices.table)
        return
    if isinstance(action, Join | Leave):
        lines = seating(outcome, person.name, voices.table)
        if lines:
            await exchange.public(cards.Lines(tuple(lines)), voices.table)
    await tables.publisher.publish(channel, outcome, voices.table, exchange)


async def kick(tables: Tables, exchange: Exchange, target: Target, voices: Voices) -> None:
    """The host removes a player from the table: the one picked, or the one who goes by the
    name typed; where several do, nobody, and the host is told how to pick one."""
    t, own, channel = voices.table, voices.own, exchange.channel
    game = await tables.service.game(channel)
    if game is None:
        refused = await refusal(tables, exchange.channel, GameError(ErrorCode.NO_GAME), own)
        await exchange.private(refused, own)
        return
    wanted = (target.name or "").casefold()
    matches = [
        seat.player
        for seat in game.seats
        if seat.active
        and (
            seat.player.id == target.player_id
            if target.player_id is not None
            else seat.player.name.casefold() == wanted
        )
    ]
    if len(matches) != 1:
        if len(matches) > 1:
            platform = tables.platform.name
            said = own("kick-ambiguous", name=matches[0].name, platform=platform)
        elif target.player_id is not None:
            said = own("kick-not-seated", name=target.name or "?")
        else:
            said = own("error-cannot-kick")  # it says how to name one
        await exchange.private(cards.Lines((said,)), own)
        return
    (found,) = matches
    try:
        outcome = await tables.service.act(channel, exchange.person, Kick(found.id))
    except GameError as error:
        if error.code is ErrorCode.BAD_ACTION:  # the host named themselves
            metrics.refused(error.code)
            await exchange.private(cards.Lines((own("kick-self"),)), own)
        else:
            await exchange.private(await refusal(tables, exchange.channel, error, own), own)
        return
    if not plan(outcome.view, outcome.events).told:  # else the board says it in its place
        await exchange.public(cards.Lines((t("event-removed-kicked", name=found.name),)), t)
    await tables.publisher.publish(channel, outcome, t, exchange)


async def hint(
    tables: Tables, exchange: Exchange, voices: Voices, game_id: str | None = None
) -> None:
    """The best choices now, for the player whose turn it is, privately, and privately too why
    not (see cards.Aside). From a board's button (`game_id`), only while that game is the
    table's."""
    channel, own = exchange.channel, voices.own
    if game_id is not None:
        game = await tables.service.game(channel)
        if game is None or game.id != game_id:
            metrics.refused(ErrorCode.GAME_OVER)
            await exchange.private(cards.Aside((own("error-game-over"),)), own)
            return
    try:
        options = await tables.service.hint(channel, exchange.person)
    except GameError as error:
        refused = await refusal(tables, exchange.channel, error, own)
        await exchange.private(cards.Aside(refused.lines), own)
        return
    view = await tables.service.view(channel, exchange.person.id)
    if view is None:  # the game ended in between
        await exchange.private(cards.Aside((own("error-game-over"),)), own)
        return
    dice = tuple(d.value for d in view.dice)
    game = await tables.service.game(channel)
    from core.eventplay import hint_points  # numpy: loaded by the hint's options already
    from core.winplay import hint_shares

    places = game is not None and bool(game.event)  # a tournament's table: place points
    shares: tuple[float, ...] = ()
    if game is not None and game.id == view.game_id:
        shares = hint_points(game, options) if places else hint_shares(game, options)
    hinted = cards.Hint(tuple(options), dice, view.game_id, view.version, shares, places)
    await exchange.private(hinted, own)


async def welcome(
    tables: Tables,
    exchange: Exchange,
    *,
    brief: bool,
    invite: str | None = None,
    notices: bool = False,
) -> None:
    """A first contact (Telegram's /start and /help): what General is and how to begin, in the
    person's language; `notices`: they opened the private chat for /general notify's words,
    which are said to come here now."""

    async def work(voices: Voices, settings: ChatSettings) -> None:
        if notices:
            await exchange.private(cards.Lines((voices.own("notify-private-open"),)), voices.own)
        await exchange.private(cards.Welcome(brief, invite), voices.own)

    await envelope(tables, exchange.channel, work, doing="the welcome", exchange=exchange)
