"""Who wants a private word when a table opens in a chat (`/general notify`)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Subscriber:
    """A person asking to hear of new tables in one chat, in the language they asked in."""

    player_id: str
    locale: str
