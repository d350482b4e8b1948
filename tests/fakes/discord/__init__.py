"""A fake Discord (REST API + gateway) for offline end-to-end tests of the real discord.py.

The fake listens on 127.0.0.1 (port 0) in the test's event loop.  The real discord.py talks to it
once two process-wide settings point at it, before ``login()``::

    fake = FakeDiscord(token="fake-token")
    await fake.start()
    monkeypatch.setattr(discord.http.Route, "BASE", fake.api_base)
    monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY",
                        yarl.URL(fake.gateway_url))

The test side reads like a user: ``fake.slash(alice, chan, "general", "start")``,
``fake.press(alice, msg, label="Roll")``; what the bot showed is in ``fake.channel_messages(chan)``
and on the interaction handles; what it wrote to someone privately (in the DM channel it opened
with ``POST /users/@me/channels``) in ``fake.direct_messages(alice)``, and a member made with
``dms_open=False`` refuses DMs.  Every request the fake does not understand is recorded in
``fake.unhandled``; every interaction the bot did not answer within 3 seconds in ``fake.expired``.

Close the bot (``await client.close()``) before ``await fake.stop()``: a bot whose gateway goes
away keeps reconnecting and logs errors.
"""

from tests.fakes.discord.interaction import FakeInteraction, FakeRequest, FakeResponse
from tests.fakes.discord.message import FakeAttachment, FakeComponent, FakeMessage
from tests.fakes.discord.model import (
    FakeChannel,
    FakeDMChannel,
    FakeGuild,
    FakeMember,
    FakeRole,
    FakeUser,
)
from tests.fakes.discord.protocol import (
    AUTOCOMPLETE_RESULT,
    CHANNEL_MESSAGE,
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE_MESSAGE,
    MODAL,
    PERMISSIONS,
    UPDATE_MESSAGE,
    snowflake_time,
)
from tests.fakes.discord.server import FakeDiscord

__all__ = [
    "AUTOCOMPLETE_RESULT",
    "CHANNEL_MESSAGE",
    "DEFERRED_CHANNEL_MESSAGE",
    "DEFERRED_UPDATE_MESSAGE",
    "MODAL",
    "PERMISSIONS",
    "UPDATE_MESSAGE",
    "FakeAttachment",
    "FakeChannel",
    "FakeComponent",
    "FakeDMChannel",
    "FakeDiscord",
    "FakeGuild",
    "FakeInteraction",
    "FakeMember",
    "FakeMessage",
    "FakeRequest",
    "FakeResponse",
    "FakeRole",
    "FakeUser",
    "snowflake_time",
]
