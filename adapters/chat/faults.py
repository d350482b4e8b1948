"""A platform refusing or failing never undoes a game (it is saved before anything is shown):
the log says so once per chat and kind of failure, and play goes on."""

from __future__ import annotations

import logging
from collections import OrderedDict

from core.identity import ChannelKey

# Chat and kind pairs remembered as already logged, the most recent: a chat forgotten among
# more than this many failing ones is logged once more, and memory stays bounded.
TROUBLES_MEMORY = 4096


class Troubles:
    """Logs each failure once per chat and kind (among the latest `memory` pairs), in the
    platform's own log and words."""

    def __init__(
        self,
        log: logging.Logger,
        platform: str,
        forbidden: type[Exception],
        chat_word: str = "chat",
        memory: int = TROUBLES_MEMORY,
    ) -> None:
        self.log = log
        self.platform = platform
        self.forbidden = forbidden
        self.chat_word = chat_word  # the platform's word for a chat, in the log
        self.memory = memory
        self._seen: OrderedDict[tuple[str, str], None] = OrderedDict()

    def __call__(self, channel: ChannelKey, error: Exception) -> None:
        key = (channel.chat, type(error).__name__)
        if key in self._seen:
            self._seen.move_to_end(key)
            self.log.debug("%s again in %s: %s", self.platform, channel, error)
            return
        self._seen[key] = None
        if len(self._seen) > self.memory:
            self._seen.popitem(last=False)
        if isinstance(error, self.forbidden):
            self.log.warning(
                "cannot write in %s %s (removed, or no right to send): %s; "
                "its game is kept for when the bot may write again",
                self.chat_word,
                channel.chat,
                error,
            )
        else:
            self.log.warning(
                "%s failed in %s: %r; the game is saved and goes on", self.platform, channel, error
            )
