"""A fake Telegram Bot API server for offline end-to-end tests.

The real python-telegram-bot code talks over real HTTP to this server, which listens on
127.0.0.1 (port 0) inside the test's event loop::

    fake = FakeTelegram(token="123456:TEST")
    await fake.start()
    app = (
        Application.builder()
        .token(fake.token)
        .base_url(fake.base_url)
        .base_file_url(fake.base_file_url)
        .build()
    )
    alice = fake.user(1001, "Alice", username="alice")
    group = fake.chat(-100500, type="supergroup", title="Dice night")
    await fake.send_message(alice, group, "/general start")
    await fake.wait_for(lambda: fake.bot_messages(group))

What it simulates faithfully (the rules real bots trip over):

* long polling: ``getUpdates`` blocks until an update exists or ``timeout`` expires; updates are
  forgotten only once confirmed through ``offset``; a newer poll terminates an older one with
  409 Conflict, like the real server;
* form decoding per parameter (strings stay raw, other values are JSON text), and JSON bodies;
* ``editMessageText`` without ``reply_markup`` removes the keyboard; identical edits are
  400 "message is not modified"; callback queries can be answered once; text limits; the 64-byte
  ``callback_data`` limit; HTML / MarkdownV2 entity parsing with Telegram's error messages;
* 401 for a wrong token, 404 for an unknown method.

Anything it does not understand (an unknown method, an unknown parameter, a value it can't
decode) is answered with an error *and* recorded in :attr:`FakeTelegram.unhandled`; tests assert
that list is empty.

One deliberate divergence: with ``strict_html=True`` (the default) a stray ``&`` (one that does
not start ``&lt;``, ``&gt;``, ``&amp;``, ``&quot;`` or a numeric reference) is rejected.  The real
server keeps such an ``&`` literally, but a bot that leaves ``&`` unescaped will also leave ``<``
unescaped, which the real server does reject - so the fake catches the bug earlier.  Pass
``strict_html=False`` for the real server's behaviour.
"""

from tests.fakes.telegram.errors import ApiError
from tests.fakes.telegram.html_parser import parse_html
from tests.fakes.telegram.markdown_parser import parse_markdown, parse_markdown_v2
from tests.fakes.telegram.model import (
    CallbackAnswer,
    FakeButton,
    FakeChat,
    FakeMessage,
    FakeUser,
    MessageSnapshot,
)
from tests.fakes.telegram.server import FakeTelegram

__all__ = [
    "ApiError",
    "CallbackAnswer",
    "FakeButton",
    "FakeChat",
    "FakeMessage",
    "FakeTelegram",
    "FakeUser",
    "MessageSnapshot",
    "parse_html",
    "parse_markdown",
    "parse_markdown_v2",
]
