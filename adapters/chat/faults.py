"""A platform refusing or failing never undoes a game (it is saved before anything is shown):
the log says so once per chat and kind of failure, and play goes on."""

from __future__ import annotations

import logging

from core.identity import ChannelKey


class Troubles:
    """Logs each failure once per chat and kind, in the platform's own log."""

    def __init__(self, log: logging.Logger, platform: str, forbidden: type[Exception]) -> None:
        self.log = log
        self.platform = platform
        self.forbidden = forbidden
        self._seen: set[tuple[str, str]] = set()

    def __call__(self, channel: ChannelKey, error: Exception) -> None:
        key = (channel.chat, type(error).__name__)
        if key in self._seen:
            self.log.debug("%s again in %s: %s", self.platform, channel, error)
            return
        self._seen.add(key)
        if isinstance(error, self.forbidden):
            self.log.warning(
                "cannot write in %s %s (removed, or no right to send): %s; "
                "its game is kept for when the bot may write again",
                "chat" if self.platform == "telegram" else "channel",
                channel.chat,
                error,
            )
        else:
            self.log.warning(
                "%s failed in %s: %r; the game is saved and goes on", self.platform, channel, error
            )
