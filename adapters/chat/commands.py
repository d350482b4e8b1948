"""`/general …` carried out, once for every chat; each front end only parses its own arguments
into an `Asked` (Telegram's words, Discord's options) and answers through its exchange."""

from __future__ import annotations

from dataclasses import dataclass

from adapters.chat import cards, forget, metrics
from adapters.chat.catalogue import ALIASES, BY_NAME, TEXT
from adapters.chat.chances import chances
from adapters.chat.pacing import pending
from adapters.chat.plan import plan
from adapters.chat.records import KINDS, Query, record_lines
from adapters.chat.review import last_review
from adapters.chat.surface import Exchange
from adapters.chat.tables import Tables
from adapters.i18n.dice import dice_text
from adapters.i18n.refusals import error_message
from core.actions import Action, Cancel, Join, Kick, Leave, Open
from core.chat_settings import ChatSettings
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
    query: Query | None = None  # leaderboard, stats, history
    target: Target | None = None  # kick

    @classmethod
    def from_words(cls, words: list[str]) -> Asked:
        """Telegram's `/general <name> [words…]`."""
        first = (words[0].lower() if words else "").strip()[:MAX_ARGUMENT]
        name = ALIASES.get(first, first)
        rest = words[1:]
        if name in KINDS:
            return cls(name, query=Query.from_words(name, rest))
        if name == "kick":
            return cls(name, target=Target(name=" ".join(rest).strip().lstrip("@") or None))
        return cls(name, text=len(rest) == 1 and rest[0].casefold() in TEXT.typed)


async def refusal(tables: Tables, channel: ChannelKey, error: GameError) -> cards.Lines:
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
        return cards.Lines((tables.own("error-game-lost"),))
    if error.detail is not None:  # an old board's press: what changed since that board
        params = {**error.params}
        if "dice" in params:
            params["dice"] = dice_text(params["dice"])
        key = f"error-{error.code.value}-{error.detail.value}"
        return cards.Lines((tables.own(key, **params),))
    return cards.Lines((error_message(tables.own, error),))


async def command(tables: Tables, exchange: Exchange, asked: Asked) -> None:
    """Carry out a command and answer it; the platform failing is logged once and told."""
    with metrics.counted(tables.platform.name, "command", asked.name), pending():
        await _asked(tables, exchange, asked)


async def _asked(tables: Tables, exchange: Exchange, asked: Asked) -> None:
    channel = exchange.channel
    try:
        settings = await tables.settings_for(channel, exchange)
        if not await tables.slowed(exchange):
            await _command(tables, exchange, asked, settings)
    except tables.platform.errors as error:
        tables.troubles(channel, error)
        await exchange.troubled(error)
    except Exception:
        metrics.failed()
        tables.log.exception("/general %s in %s failed", asked.name[:MAX_ARGUMENT], channel)
        await exchange.fail()
    await tables.wake_computers(channel)


async def _command(
    tables: Tables, exchange: Exchange, asked: Asked, settings: ChatSettings
) -> None:
    t, name, channel = tables.t, asked.name, exchange.channel
    if name in ("help", "rules"):
        await exchange.private(cards.Help(name))
    elif name == "settings":
        if await exchange.may_configure():
            tables.as_the_chat()
            await exchange.private(cards.Settings(settings))
        else:
            metrics.refused(metrics.NOT_ADMIN)
            await exchange.private(tables.settings_refused())
    elif name in KINDS:
        query = asked.query or Query(name)
        lines = await record_lines(t, tables.service, channel, exchange.person, query)
        await exchange.public(cards.Records(tuple(lines)))
    elif name == "hint":
        await hint(tables, exchange)
    elif name == "chances":
        await chances(tables, exchange)
    elif name == "review":
        await exchange.public(await last_review(t, tables.service, channel, settings.language))
    elif name == "forget":
        await forget.ask(tables, exchange)
    elif name in BY_NAME:
        async with tables.serial(channel, exchange):
            await _at_table(tables, exchange, asked, settings)
    else:
        unknown = tables.own("chat-unknown", arg=name)
        await exchange.private(cards.Help(preface=(unknown,)))


async def _at_table(
    tables: Tables, exchange: Exchange, asked: Asked, settings: ChatSettings
) -> None:
    """What changes or shows the table: one at a time."""
    channel, person = exchange.channel, exchange.person
    if asked.name == "sheet":
        view = await tables.service.view(channel, person.id)
        if view is None:
            await exchange.private(cards.Lines((tables.own("chat-sheet-none"),)))
        else:
            await tables.show_sheet(exchange, view, text=asked.text, pressed=False)
        return
    if asked.name == "kick":
        await kick(tables, exchange, asked.target or Target())
        return
    if asked.name == "start" and await tables.owed_final(channel):
        return  # the last game's end comes first; its Rematch (or start again) opens the next
    if asked.name == "start":  # the table keeps the language it opens in
        action: Action = Open(settings.variants(), language=tables.t.locale)
    else:
        action = ACTIONS[asked.name]
    try:
        outcome = await tables.service.act(channel, person, action)
    except GameError as error:
        await exchange.private(await refusal(tables, exchange.channel, error))
        if error.code is ErrorCode.GAME_EXISTS:
            await tables.repost_board(channel)
        return
    if isinstance(action, Join | Leave):
        lines = tables.seating(outcome, person.name)
        if lines:
            await exchange.public(cards.Lines(tuple(lines)))
    await tables.publish(channel, outcome, exchange)


async def kick(tables: Tables, exchange: Exchange, target: Target) -> None:
    """The host removes a player from the table: the one picked, or the one who goes by the
    name typed; where several do, nobody, and the host is told how to pick one."""
    t, channel = tables.t, exchange.channel
    game = await tables.service.game(channel)
    if game is None:
        await exchange.private(
            await refusal(tables, exchange.channel, GameError(ErrorCode.NO_GAME))
        )
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
            said = tables.own("kick-ambiguous", name=matches[0].name, platform=platform)
        elif target.player_id is not None:
            said = tables.own("kick-not-seated", name=target.name or "?")
        else:
            said = tables.own("error-cannot-kick")  # it says how to name one
        await exchange.private(cards.Lines((said,)))
        return
    (found,) = matches
    try:
        outcome = await tables.service.act(channel, exchange.person, Kick(found.id))
    except GameError as error:
        if error.code is ErrorCode.BAD_ACTION:  # the host named themselves
            metrics.refused(error.code)
            await exchange.private(cards.Lines((tables.own("kick-self"),)))
        else:
            await exchange.private(await refusal(tables, exchange.channel, error))
        return
    if not plan(outcome.view, outcome.events).told:  # else the board says it in its place
        await exchange.public(cards.Lines((t("event-removed-kicked", name=found.name),)))
    await tables.publish(channel, outcome, exchange)


async def hint(tables: Tables, exchange: Exchange, game_id: str | None = None) -> None:
    """The best choices now, for the player whose turn it is, privately, and privately too why
    not (see cards.Aside). From a board's button (`game_id`), only while that game is the
    table's."""
    channel = exchange.channel
    if game_id is not None:
        game = await tables.service.game(channel)
        if game is None or game.id != game_id:
            metrics.refused(ErrorCode.GAME_OVER)
            await exchange.private(cards.Aside((tables.own("error-game-over"),)))
            return
    try:
        options = await tables.service.hint(channel, exchange.person)
    except GameError as error:
        refused = await refusal(tables, exchange.channel, error)
        await exchange.private(cards.Aside(refused.lines))
        return
    view = await tables.service.view(channel, exchange.person.id)
    if view is None:  # the game ended in between
        await exchange.private(cards.Aside((tables.own("error-game-over"),)))
        return
    dice = tuple(d.value for d in view.dice)
    game = await tables.service.game(channel)
    from core.winplay import hint_shares  # numpy: loaded by the hint's options already

    shares = hint_shares(game, options) if game is not None and game.id == view.game_id else ()
    await exchange.private(cards.Hint(tuple(options), dice, view.game_id, view.version, shares))


async def welcome(
    tables: Tables, exchange: Exchange, *, brief: bool, invite: str | None = None
) -> None:
    """A first contact (Telegram's /start and /help): what General is and how to begin, in the
    person's language."""
    channel = exchange.channel
    try:
        await tables.settings_for(channel, exchange)
        if not await tables.slowed(exchange):
            await exchange.private(cards.Welcome(brief, invite))
    except tables.platform.errors as error:
        tables.troubles(channel, error)
    except Exception:
        tables.log.exception("the welcome in %s failed", channel)
        await exchange.fail()
