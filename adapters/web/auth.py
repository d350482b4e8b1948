"""Who a live table's page speaks for: Telegram's signed launch data and our own signed grants.

Pure functions of their inputs and the clock given, so they are tested with fixed vectors. Every
string from a page is untrusted: anything wrong with it is an `AuthError` with a machine code
(the web server turns it into an HTTP answer and words), never another exception and never a
message that quotes a token or a secret.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import math
import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Any
from urllib.parse import parse_qsl

import orjson

# Telegram's launch data is well under a kilobyte; anything far longer is not theirs.
MAX_INIT_DATA = 16_384
MAX_FIELDS = 64
CLOCK_SKEW = 60.0  # an auth_date this far ahead of our clock is still believed
_HASH = re.compile(r"[0-9a-f]{64}")
_AUTH_DATE = re.compile(r"[0-9]{1,12}")

MAX_TOKEN = 400
MAX_NAME = 64  # characters
# The name's, table's and player's JSON sizes in bytes: with them (and the longest locale and
# float) a token stays under MAX_TOKEN (test_auth checks that worst case), whatever the script or
# the escapes a name needs; a Russian name of MAX_NAME letters takes 130.
NAME_BYTES = 144
TABLE_BYTES = 50
PLAYER_BYTES = 34
MAC_BYTES = 16
LOCALE_CHARS = 8  # a language code as platforms give it ("en", "pt-br")
_TOKEN = re.compile(r"([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]{22})")
_DERIVE_LABEL = b"general: the live table's grants"


class AuthCode(StrEnum):
    """Why a credential was refused, as a machine code the server maps to an answer."""

    MALFORMED = "bad_request"
    NO_HASH = "no_hash"
    DUPLICATE = "duplicate"
    BAD_SIGNATURE = "bad_signature"
    STALE = "stale"
    NO_USER = "no_user"
    EXPIRED = "expired"
    WRONG_KIND = "wrong_kind"


class AuthError(Exception):
    """A refused credential; its text is the code alone, so logging it leaks nothing."""

    def __init__(self, code: AuthCode) -> None:
        super().__init__(code.value)
        self.code = code


@dataclass(frozen=True)
class Launch:
    """What a Telegram Mini App's initData proves: who opened it, and from where."""

    user_id: str
    name: str
    language: str | None
    start_param: str | None
    auth_date: int


def telegram_launch(init_data: str, bot_token: str, *, now: float, max_age: float) -> Launch:
    """Check initData as Telegram documents it (HMAC-SHA256 under a key made from the bot
    token), then its age and its user. Raises AuthError only, whatever the string."""
    if not bot_token:
        raise ValueError("no bot token: every initData would be forgeable")
    fields = _query(init_data)
    given = fields.pop("hash", None)
    if given is None:
        raise AuthError(AuthCode.NO_HASH)
    if not _HASH.fullmatch(given):
        raise AuthError(AuthCode.MALFORMED)
    check = "\n".join(f"{key}={fields[key]}" for key in sorted(fields))
    try:
        message = check.encode()
    except UnicodeEncodeError as error:  # a lone surrogate: no UTF-8 client sent that
        raise AuthError(AuthCode.MALFORMED) from error
    secret_key = hmac.new(b"WebAppData", bot_token.encode(), hashlib.sha256).digest()
    expected = hmac.new(secret_key, message, hashlib.sha256).hexdigest()
    if not hmac.compare_digest(expected.encode(), given.encode()):
        raise AuthError(AuthCode.BAD_SIGNATURE)
    auth_date = _auth_date(fields.get("auth_date"))
    if now - auth_date > max_age or auth_date - now > CLOCK_SKEW:
        raise AuthError(AuthCode.STALE)
    if "user" not in fields:
        raise AuthError(AuthCode.NO_USER)
    user = _json(fields["user"])
    if not isinstance(user, dict):
        raise AuthError(AuthCode.MALFORMED)
    user_id = user.get("id")
    if not isinstance(user_id, int) or isinstance(user_id, bool) or user_id <= 0:
        raise AuthError(AuthCode.MALFORMED)
    first, last = _text(user, "first_name") or "", _text(user, "last_name")
    return Launch(
        user_id=str(user_id),
        name=f"{first} {last}" if last else first,
        language=_text(user, "language_code"),
        start_param=fields.get("start_param"),
        auth_date=auth_date,
    )


def _query(init_data: str) -> dict[str, str]:
    """initData's fields, URL-decoded, blank values kept; a key twice is refused outright."""
    if len(init_data) > MAX_INIT_DATA:
        raise AuthError(AuthCode.MALFORMED)
    try:
        pairs = parse_qsl(
            init_data,
            keep_blank_values=True,
            strict_parsing=True,
            errors="strict",
            max_num_fields=MAX_FIELDS,
        )
    except ValueError as error:  # a field without "=", bytes that are not UTF-8, too many
        raise AuthError(AuthCode.MALFORMED) from error
    fields: dict[str, str] = {}
    for key, value in pairs:
        if key in fields:
            raise AuthError(AuthCode.DUPLICATE)
        fields[key] = value
    return fields


def _auth_date(value: str | None) -> int:
    if value is None or not _AUTH_DATE.fullmatch(value):
        raise AuthError(AuthCode.MALFORMED)
    return int(value)


def _json(value: str | bytes) -> Any:
    try:
        return orjson.loads(value)
    except orjson.JSONDecodeError as error:
        raise AuthError(AuthCode.MALFORMED) from error


def _text(user: dict[str, Any], key: str) -> str | None:
    """An optional text field of the user: absent or null is None, anything but text refused."""
    value = user.get(key)
    if value is not None and not isinstance(value, str):
        raise AuthError(AuthCode.MALFORMED)
    return value


class Kind(StrEnum):
    """What a grant opens: a personal link is only ever exchanged for a session."""

    LINK = "link"
    SESSION = "session"


@dataclass(frozen=True)
class Grant:
    """Who may do what at which table until when; the name is cut so a token stays short."""

    kind: Kind
    table: str
    player_id: str | None
    name: str
    expires: float
    locale: str = ""  # the person's language where their platform told it ("": the table's)

    def __post_init__(self) -> None:
        if len(self.locale) > LOCALE_CHARS or not self.locale.isascii():
            raise ValueError("not a language code")
        if _json_size(self.table) > TABLE_BYTES:
            raise ValueError("a table key this long is not a channel key")
        if self.player_id is not None and _json_size(self.player_id) > PLAYER_BYTES:
            raise ValueError("a player id this long is not a platform's user id")
        if not math.isfinite(self.expires):
            raise ValueError("a grant expires at a moment")
        name = self.name.encode(errors="replace").decode()[:MAX_NAME]  # no lone surrogate
        while _json_size(name) > NAME_BYTES:
            name = name[:-1]
        object.__setattr__(self, "name", name)


def _json_size(text: str) -> int:
    """Bytes a text takes in a token's payload, escapes and all."""
    try:
        return len(orjson.dumps(text))
    except orjson.JSONEncodeError as error:
        raise ValueError("a lone surrogate is no text a platform sends") from error


class Signer:
    """Issues and opens grant tokens: a compact JSON payload and its HMAC-SHA256, URL-safe."""

    __slots__ = ("_secret",)

    def __init__(self, secret: bytes) -> None:
        if len(secret) < 16:
            raise ValueError("a secret of fewer than 16 bytes can be guessed")
        self._secret = secret

    @classmethod
    def derived(cls, *tokens: str) -> Signer:
        """A signer every process of this bot shares without a setting of its own: the secret
        is an HMAC of the bot tokens (the empty ones left out, in any order), never a token."""
        present = sorted(token for token in tokens if token)
        if not present:
            raise ValueError("no bot token to derive a secret from")
        secret = hmac.new(_DERIVE_LABEL, orjson.dumps(present), hashlib.sha256).digest()
        return cls(secret)

    def issue(self, grant: Grant) -> str:
        """The grant as a token of at most MAX_TOKEN characters from [A-Za-z0-9_.-]."""
        payload = orjson.dumps(
            [
                grant.kind.value,
                grant.table,
                grant.player_id,
                grant.name,
                grant.expires,
                grant.locale,
            ]
        )
        body = _b64(payload)
        return f"{body}.{self._mac(body)}"

    def open(self, token: str, *, kind: Kind, now: float) -> Grant:
        """The grant a token carries, if this signer issued it, it is of this kind and it has
        not expired. Raises AuthError only, whatever the string."""
        match = _TOKEN.fullmatch(token) if len(token) <= MAX_TOKEN else None
        if match is None:
            raise AuthError(AuthCode.MALFORMED)
        body, mac = match.groups()
        if not hmac.compare_digest(self._mac(body).encode(), mac.encode()):
            raise AuthError(AuthCode.BAD_SIGNATURE)
        grant = _grant(_json(_unb64(body)))
        if grant.kind != kind:
            raise AuthError(AuthCode.WRONG_KIND)
        if now >= grant.expires:
            raise AuthError(AuthCode.EXPIRED)
        return grant

    def _mac(self, body: str) -> str:
        return _b64(hmac.new(self._secret, body.encode(), hashlib.sha256).digest()[:MAC_BYTES])


def _grant(payload: Any) -> Grant:
    """A signed payload back as a Grant; only a payload of another version could fail here."""
    match payload:
        case [
            str() as kind,
            str() as table,
            str() | None as player,
            str() as name,
            expires,
            str() as locale,
        ]:
            if not _number(expires):
                raise AuthError(AuthCode.MALFORMED)
            try:
                return Grant(Kind(kind), table, player, name, float(expires), locale)
            except ValueError as error:  # an unknown kind, a field too long
                raise AuthError(AuthCode.MALFORMED) from error
    raise AuthError(AuthCode.MALFORMED)


def _number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError) as error:
        raise AuthError(AuthCode.MALFORMED) from error
