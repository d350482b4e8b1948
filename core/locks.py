"""One asyncio lock per channel, kept only while someone holds or waits for it."""

from __future__ import annotations

import asyncio
import weakref

from core.identity import ChannelKey


class ChannelLocks:
    """`locks[channel]` is the channel's lock; an idle channel's lock is forgotten."""

    def __init__(self) -> None:
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()

    def __getitem__(self, channel: ChannelKey) -> asyncio.Lock:
        key = str(channel)
        lock = self._locks.get(key)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[key] = lock
        return lock
