"""The live table's web listener: the page, its sessions and its sockets (PROTOCOL.md).

A page proves who it is once (Telegram's signed launch data, a personal link the bot signed, or
inside a Discord Activity an OAuth2 code the bot exchanges with Discord) and is given a session:
a grant the bot signs, bound to that person and that table, short-lived. A link to a table alone
gives a spectator's session. Nothing secret ever reaches a page: the session names a person and a
channel, signed, and nothing else.
"""

from __future__ import annotations

import gzip
import logging
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import orjson
from aiohttp import web

from adapters.chat.metrics import LIVE_PAGES
from adapters.chat.tables import Tables
from adapters.i18n import Translator, normalize_locale, translator
from adapters.web.auth import (
    LOCALE_CHARS,
    AuthCode,
    AuthError,
    Grant,
    Kind,
    Signer,
    telegram_launch,
)
from adapters.web.discord_oauth import DiscordOAuth, DiscordRefused
from adapters.web.live import Live, Viewer
from core.events import PlayerJoined
from core.identity import ChannelKey, PlayerRef
from core.service import GameService
from core.verification import export

log = logging.getLogger(__name__)
STATIC = Path(__file__).parent / "static"
SESSION_LIFE = 12 * 3600.0  # seconds a page's session lasts (a long evening's games)
BODY_LIMIT = 8192  # bytes of a session request: launch data is well under one
GAME_ID_LIMIT = 32  # characters of a game's id read from a query (they are 8)
HOST = re.compile(r"[A-Za-z0-9.-]+(:[0-9]{1,5})?|\[[0-9A-Fa-f:.]+\](:[0-9]{1,5})?")
TABLE_CODE = 8  # a table in a link is its game's id: eight base32 characters
SNOWFLAKE_DIGITS = 20  # a Discord id (a channel's) is a 64-bit number
# Why a page is refused a session, in words: each code its catalogue message and HTTP status.
REFUSALS = {
    "bad_request": ("web-bad-link", 400),
    "bad_signature": ("web-bad-link", 403),
    "stale": ("web-stale-launch", 403),
    "expired": ("web-link-expired", 403),
    "no_table": ("web-not-found", 404),
    "disabled": ("web-disabled", 404),
    "discord_refused": ("web-discord-refused", 403),
    "discord_down": ("web-discord-down", 502),
    "discord_elsewhere": ("web-discord-elsewhere", 403),
    "no_dice": ("web-no-dice", 404),
}
AUTH_REFUSALS = {
    AuthCode.MALFORMED: "bad_request",
    AuthCode.NO_HASH: "bad_signature",
    AuthCode.DUPLICATE: "bad_request",
    AuthCode.BAD_SIGNATURE: "bad_signature",
    AuthCode.STALE: "stale",
    AuthCode.NO_USER: "bad_signature",
    AuthCode.EXPIRED: "expired",
    AuthCode.WRONG_KIND: "bad_signature",
}


class Refused(Exception):
    """A session not given: its PROTOCOL.md code, said in `locale` where the asker has one."""

    def __init__(self, code: str, locale: str | None = None) -> None:
        super().__init__(code)
        self.code, self.locale = code, locale


@dataclass(frozen=True)
class Asset:
    """A static file as served: its bytes, gzipped once, and its type."""

    body: bytes
    zipped: bytes
    kind: str


def assets(folder: Path = STATIC) -> dict[str, Asset]:
    kinds = {".html": "text/html", ".js": "text/javascript", ".css": "text/css"}
    kinds |= {".svg": "image/svg+xml", ".png": "image/png"}
    found = {}
    for path in sorted(folder.iterdir()):
        if path.suffix in kinds:
            body = path.read_bytes()
            found[path.name] = Asset(body, gzip.compress(body, 9, mtime=0), kinds[path.suffix])
    return found


class WebTable:
    """The routes, for the front ends' tables (`tables` by ChannelKey.platform)."""

    def __init__(
        self,
        service: GameService,
        tables: Mapping[str, Tables],
        signer: Signer,
        *,
        telegram_token: str | None = None,
        discord: DiscordOAuth | None = None,
        auth_age: float = 3600.0,
        locale: str = "en",
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.service, self.tables, self.signer = service, dict(tables), signer
        self.telegram_token, self.auth_age = telegram_token, auth_age
        self.discord = discord
        self.locale, self.clock = locale, clock
        self.assets = assets()
        self.pages: set[web.WebSocketResponse] = set()

    def routes(self) -> list[web.RouteDef]:
        return [
            web.get("/", self.index),
            web.get("/static/{name}", self.static),
            web.post("/api/session", self.session),
            web.get("/api/discord", self.discord_client),
            web.get("/api/live", self.live),
            web.get("/api/dice", self.dice),
        ]

    async def index(self, request: web.Request) -> web.Response:
        return self._asset(request, "index.html")

    async def static(self, request: web.Request) -> web.Response:
        return self._asset(request, request.match_info["name"])

    def _asset(self, request: web.Request, name: str) -> web.Response:
        asset = self.assets.get(name)
        if asset is None:
            raise web.HTTPNotFound()
        headers = {
            "Cache-Control": "no-cache",
            "X-Content-Type-Options": "nosniff",
            "Referrer-Policy": "no-referrer",
            "Content-Security-Policy": (
                f"default-src 'self'; img-src 'self' data:; connect-src {_sockets(request)}; "
                "base-uri 'none'"
            ),
        }
        body = asset.body
        if "gzip" in request.headers.get("Accept-Encoding", ""):
            body, headers["Content-Encoding"] = asset.zipped, "gzip"
        return web.Response(body=body, content_type=asset.kind, headers=headers)

    def _refusal(self, code: str, locale: str | None) -> web.Response:
        """A session not given, in words in the asker's language where known."""
        key, status = REFUSALS[code]
        t = translator(normalize_locale(locale or self.locale))
        answer = {"error": code, "message": t(key)}
        return web.json_response(answer, status=status, dumps=_dumps)

    async def dice(self, request: web.Request) -> web.Response:
        """A finished game's dice as the stand-alone verifier reads them (DICE.md): public,
        as its seed is once the game is over; refused with words before that."""
        asked = request.headers.get("Accept-Language", "")[:2] or None
        game_id = request.query.get("game", "")[:GAME_ID_LIMIT]
        game = await self.service.find_game(game_id) if game_id else None
        if game is None or not game.seed:
            return self._refusal("no_dice", asked)
        events = await self.service.events(game.id)
        names = {e.player_id: e.name for e in events if isinstance(e, PlayerJoined)}
        headers = {"Content-Disposition": f'attachment; filename="general-{game.id}.json"'}
        return web.json_response(export(game.id, events, names), headers=headers, dumps=_dumps)

    async def discord_client(self, request: web.Request) -> web.Response:
        """The application's id, which an Activity's page asks Discord to authorize (the
        secret stays here); refused with words where no Activity sign-in is set up."""
        if self.discord is None:
            return self._refusal("disabled", request.headers.get("Accept-Language", "")[:2])
        return web.json_response({"client_id": self.discord.client_id}, dumps=_dumps)

    async def session(self, request: web.Request) -> web.Response:
        asked = request.headers.get("Accept-Language", "")[:2] or None
        try:
            if request.content_length is not None and request.content_length > BODY_LIMIT:
                raise Refused("bad_request", asked)
            body = orjson.loads(await request.read())
            if not isinstance(body, dict):
                raise Refused("bad_request", asked)
            grant, named = await self._grant(body, asked)
        except Refused as refused:
            return self._refusal(refused.code, refused.locale or asked)
        except orjson.JSONDecodeError:
            return self._refusal("bad_request", asked)
        person = None
        if grant.player_id is not None:
            person = {"id": grant.player_id, "name": grant.name}
        if not named:  # a personal link names the channel: its game in play
            game = await self.service.game(ChannelKey.parse(grant.table))
            named = game.id if game else ""
        given = {"session": self.signer.issue(grant), "table": named, "player": person}
        return web.json_response(given, dumps=_dumps)

    async def _grant(self, body: dict[str, object], asked: str | None) -> tuple[Grant, str]:
        """The session a request earns, and the game its link named ("": none): a Telegram
        launch or a personal link is a person's, a table's link a spectator's."""
        now = self.clock()
        until = now + SESSION_LIFE
        launch_data, link, table = body.get("telegram"), body.get("link"), body.get("table")
        if "discord" in body:  # like a personal link, it names a channel: its game in play
            launched = (body.get("channel"), body.get("instance"))
            grant = await self._activity(body.get("discord"), launched, asked, until)
            return grant, ""
        if isinstance(launch_data, str) and launch_data:
            if self.telegram_token is None:
                raise Refused("disabled", asked)
            try:
                launch = telegram_launch(
                    launch_data, self.telegram_token, now=now, max_age=self.auth_age
                )
            except AuthError as error:
                raise Refused(AUTH_REFUSALS[error.code], asked) from None
            named = launch.start_param or table
            channel = await self._channel(named, launch.language)
            if channel.platform != "tg":  # a Telegram account plays at Telegram's tables
                return Grant(Kind.SESSION, str(channel), None, "", until), str(named).lower()
            locale = (launch.language or "")[:LOCALE_CHARS]
            grant = Grant(Kind.SESSION, str(channel), launch.user_id, launch.name, until, locale)
            return grant, str(named).lower()
        if isinstance(link, str) and link:
            try:
                given = self.signer.open(link, kind=Kind.LINK, now=now)
            except AuthError as error:
                raise Refused(AUTH_REFUSALS[error.code], asked) from None
            if _platform(given.table) not in self.tables:
                raise Refused("no_table", asked)
            grant = Grant(
                Kind.SESSION, given.table, given.player_id, given.name, until, given.locale
            )
            return grant, ""
        if isinstance(table, str) and table:
            channel = await self._channel(table, asked)
            return Grant(Kind.SESSION, str(channel), None, "", until), table.lower()
        raise Refused("bad_request", asked)

    async def _activity(
        self, code: object, launched: tuple[object, object], asked: str | None, until: float
    ) -> Grant:
        """A Discord Activity's person at its channel's table, as a personal link's: the code
        Discord gave the page, exchanged; the channel and instance the page's URL names, taken
        only where Discord says that instance runs there with that person in it (a URL can name
        any channel). The code first: no one without one makes the bot ask Discord anything."""
        channel, instance = launched
        if self.discord is None:
            raise Refused("disabled", asked)
        if code == "":  # the page had no code from Discord: no one confirmed (PROTOCOL.md)
            raise Refused("discord_refused", asked)
        if not (isinstance(code, str) and isinstance(channel, str) and isinstance(instance, str)):
            raise Refused("bad_request", asked)
        if not channel.isascii() or not channel.isdigit() or len(channel) > SNOWFLAKE_DIGITS:
            raise Refused("bad_request", asked)
        if "dc" not in self.tables:
            raise Refused("no_table", asked)
        try:
            person = await self.discord.person(code)
            running = await self.discord.instance(instance)
        except DiscordRefused as refused:
            raise Refused(refused.failure.value, asked) from None
        if running.channel_id != channel or person.id not in running.users:
            log.info("discord sign-in: the person is not in that activity in that channel")
            raise Refused("discord_elsewhere", asked)
        locale = person.locale[:LOCALE_CHARS]
        table = str(ChannelKey("dc", channel))
        return Grant(Kind.SESSION, table, person.id, person.name, until, locale)

    async def _channel(self, table: object, locale: str | None) -> ChannelKey:
        """The channel of a table's link (its game's id), where this bot serves it."""
        if not isinstance(table, str) or len(table) != TABLE_CODE or not table.isalnum():
            raise Refused("no_table", locale)
        game = await self.service.find_game(table.lower())
        if game is None or game.channel.platform not in self.tables:
            raise Refused("no_table", locale)
        return game.channel

    async def live(self, request: web.Request) -> web.StreamResponse:
        token = request.query.get("session", "")
        socket = web.WebSocketResponse(heartbeat=30, max_msg_size=4096)
        await socket.prepare(request)
        try:
            grant = self.signer.open(token, kind=Kind.SESSION, now=self.clock())
            tables = self.tables[_platform(grant.table)]
            channel = ChannelKey.parse(grant.table)
        except (AuthError, KeyError, ValueError) as error:
            expired = isinstance(error, AuthError) and error.code is AuthCode.EXPIRED
            t = translator(normalize_locale(self.locale))
            code = "expired" if expired else "bad_signature"
            await _refuse(socket, t, code)
            return socket
        person = None
        if grant.player_id is not None:
            person = PlayerRef(grant.player_id, grant.name)
        viewer = Viewer(person, grant.locale or None, grant.expires)
        pages = LIVE_PAGES.labels(tables.platform.name, "player" if person else "spectator")
        self.pages.add(socket)
        pages.inc()
        try:
            named = request.query.get("table", "")[:TABLE_CODE]
            await Live(socket, tables, channel, viewer, self.clock).run(named)
        finally:
            pages.dec()
            self.pages.discard(socket)
            await socket.close()
        return socket

    async def close(self) -> None:
        """Close every open page's socket (a page reconnects to the next process)."""
        for socket in list(self.pages):
            await socket.close(code=1001)


async def _refuse(socket: web.WebSocketResponse, t: Translator, code: str) -> None:
    key = "web-session-over" if code == "expired" else "web-bad-link"
    await socket.send_str(orjson.dumps({"type": "error", "code": code, "text": t(key)}).decode())
    await socket.close()


def _sockets(request: web.Request) -> str:
    """Where the page may connect: its own origin, its socket named outright too (some
    browsers do not count ws: and wss: as 'self')."""
    host = request.host
    if not HOST.fullmatch(host):
        return "'self'"
    return f"'self' wss://{host} ws://{host}"


def _platform(table: str) -> str:
    return table.split(":", 1)[0]


def _dumps(value: object) -> str:
    return orjson.dumps(value).decode()
