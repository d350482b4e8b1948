"""The live table's settings: what is refused at start-up (in one line naming the setting), what
is normalised, and the links the front ends are given (none without GENERAL_WEB_URL)."""

from __future__ import annotations

import time
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from pydantic import ValidationError

from adapters.web.auth import Kind, Signer
from bot.app import web_links
from bot.settings import Settings
from bot.startup import invalid_settings
from core.identity import ChannelKey, PlayerRef

WEB = {"general_web_url": "https://example.org/table", "general_web_port": "8090"}


def settings(**values: Any) -> Settings:
    return Settings(_env_file=None, **values)  # type: ignore[call-arg]


def refusal(**values: Any) -> str:
    """The start-up line for settings that are refused."""
    with pytest.raises(ValidationError) as refused:
        settings(**values)
    return invalid_settings(refused.value).line


def test_none_set_is_no_live_table() -> None:
    plain = settings(telegram_token="1:x")
    assert plain.general_web_url is None and plain.general_web_port is None
    assert plain.general_web_listen == "127.0.0.1" and plain.general_web_auth_age == 3600
    assert plain.telegram_mini_app is None and plain.discord_activity is False
    assert web_links(plain) is None
    empty = settings(
        telegram_token="1:x",
        general_web_url=" ",
        general_web_port="",
        telegram_mini_app="",
        discord_activity="",
    )
    assert web_links(empty) is None and empty.discord_activity is False


@pytest.mark.parametrize(
    ("given", "kept"),
    [
        ("https://example.org/table", "https://example.org/table/"),
        ("https://example.org/table/", "https://example.org/table/"),
        ("http://127.0.0.1:8090", "http://127.0.0.1:8090/"),
    ],
)
def test_the_url_ends_with_a_slash(given: str, kept: str) -> None:
    assert settings(general_web_url=given, general_web_port=8090).general_web_url == kept


@pytest.mark.parametrize(
    ("values", "said"),
    [
        ({**WEB, "general_web_url": "ftp://example.org/"}, "GENERAL_WEB_URL: must be an http"),
        ({**WEB, "general_web_url": "https://"}, "GENERAL_WEB_URL: must be an http"),
        ({**WEB, "general_web_url": "https://a.org/?x=1"}, "GENERAL_WEB_URL: must have no ?"),
        ({"general_web_url": "https://a.org/"}, "GENERAL_WEB_PORT is required with"),
        ({"general_web_port": 8090}, "GENERAL_WEB_PORT needs GENERAL_WEB_URL"),
        ({**WEB, "general_web_port": 0}, "GENERAL_WEB_PORT: Input should be greater than"),
        ({**WEB, "general_web_port": 65536}, "GENERAL_WEB_PORT: Input should be less than"),
        ({**WEB, "general_http_port": 8090}, "must differ from GENERAL_HTTP_PORT"),
        (
            {
                **WEB,
                "telegram_webhook_url": "https://a.org/hook",
                "telegram_webhook_secret": "s",
                "telegram_webhook_port": 8090,
            },
            "must differ from TELEGRAM_WEBHOOK_PORT",
        ),
        ({**WEB, "general_web_auth_age": 0}, "GENERAL_WEB_AUTH_AGE: Input should be greater"),
        ({**WEB, "telegram_mini_app": "ab"}, "TELEGRAM_MINI_APP: must be 3 to 30 characters"),
        ({**WEB, "telegram_mini_app": "a" * 31}, "TELEGRAM_MINI_APP: must be 3 to 30"),
        ({**WEB, "telegram_mini_app": "my-app"}, "TELEGRAM_MINI_APP: must be 3 to 30"),
        ({"telegram_mini_app": "table"}, "TELEGRAM_MINI_APP needs GENERAL_WEB_URL"),
        ({"discord_activity": "true"}, "DISCORD_ACTIVITY needs GENERAL_WEB_URL"),
        ({**WEB, "discord_activity": "perhaps"}, "DISCORD_ACTIVITY: Input should be a valid"),
    ],
)
def test_what_is_refused_is_named(values: dict[str, Any], said: str) -> None:
    line = refusal(**values)
    assert said in line and "\n" not in line


def test_what_is_accepted() -> None:
    chosen = settings(
        **WEB,
        general_http_port=9000,
        general_web_listen="0.0.0.0",
        general_web_auth_age="120",
        telegram_mini_app=" My_Table_2 ",
        discord_activity="true",
    )
    assert chosen.general_web_port == 8090 and chosen.general_web_listen == "0.0.0.0"
    assert chosen.general_web_auth_age == 120 and chosen.telegram_mini_app == "My_Table_2"
    assert chosen.discord_activity is True
    # A webhook on its own port beside the page's is fine.
    hooked = settings(
        **WEB,
        telegram_webhook_url="https://a.org/hook",
        telegram_webhook_secret="s",
        telegram_webhook_port=8443,
    )
    assert hooked.general_web_port == 8090


def test_the_links_are_signed_with_the_bot_tokens() -> None:
    chosen = settings(**WEB, telegram_token="1:tg", discord_token="dc", discord_activity=True)
    links = web_links(chosen)
    assert links is not None and links.activity and links.mini_app is None
    assert links.base == "https://example.org/table/"
    url = links.personal(ChannelKey("tg", "-5"), PlayerRef("7", "Ann"), time.time())
    (token,) = parse_qs(urlsplit(url).query)["k"]
    grant = Signer.derived("dc", "1:tg").open(token, kind=Kind.LINK, now=time.time())
    assert (grant.table, grant.player_id, grant.name) == ("tg:-5:", "7", "Ann")
