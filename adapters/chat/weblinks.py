"""The live table's links, made once for every chat: a table's spectator link, the Telegram Mini
App's direct link to it, and a person's own signed link (the page takes it for them).

A table in a URL is its game's id (8 base32 characters: nothing to escape); a personal link's
token is URL-safe (adapters/web/auth.py)."""

from __future__ import annotations

from dataclasses import dataclass

from adapters.web.auth import LOCALE_CHARS, Grant, Kind, Signer
from core.identity import ChannelKey, PlayerRef

LINK_LIFE = 600.0  # seconds a personal link opens the table: long enough to tap it


@dataclass(frozen=True)
class WebLinks:
    """`base`: the page's public URL (ends with "/"); `mini_app`: `https://t.me/<bot>/<app>`
    once the Telegram front end knows its bot's name (None: no Mini App); `activity`: the
    Discord application launches the table as an Activity."""

    base: str
    signer: Signer
    mini_app: str | None = None
    link_life: float = LINK_LIFE
    activity: bool = False

    def spectator(self, table: str) -> str:
        """Anyone's link to the table: it shows the game live, read only."""
        return f"{self.base}?t={table}"

    def dice(self, game_id: str) -> str:
        """A finished game's dice as a file, for the stand-alone verifier (DICE.md)."""
        return f"{self.base}api/dice?game={game_id}"

    def launch(self, table: str) -> str | None:
        """The Mini App opened at the table (Telegram passes `startapp` to the page)."""
        return None if self.mini_app is None else f"{self.mini_app}?startapp={table}"

    def personal(
        self, channel: ChannelKey, person: PlayerRef, now: float, locale: str | None = None
    ) -> str:
        """A link for this person alone at this channel's table, good for `link_life` seconds;
        the page speaks their `locale` where the platform told it (a code it does not know is
        left out: the table's language then)."""
        said = locale or ""
        known = said if len(said) <= LOCALE_CHARS and said.isascii() else ""
        until = now + self.link_life
        grant = Grant(Kind.LINK, str(channel), person.id, person.name, until, known)
        return f"{self.base}?k={self.signer.issue(grant)}"

    @property
    def minutes(self) -> int:
        """How long a personal link works, in whole minutes (at least one), to say so."""
        return max(1, round(self.link_life / 60))
