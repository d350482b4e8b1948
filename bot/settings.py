"""Every setting of the bot, read from the environment and an optional `.env` file."""

from __future__ import annotations

import logging
import re
from typing import Any, Literal
from urllib.parse import unquote, urlsplit

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from adapters.i18n import DEFAULT_LOCALE, available_locales

LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
# What Telegram accepts as a webhook's secret_token.
WEBHOOK_SECRET = re.compile(r"[A-Za-z0-9_-]{1,256}")
# What BotFather accepts as a Mini App's short name (/newapp).
MINI_APP = re.compile(r"[A-Za-z0-9_]{3,30}")


class Settings(BaseSettings):
    """Names are the environment variables (case-insensitive); see .env.example."""

    # Errors never repeat a value: a database URL holds its password.
    model_config = SettingsConfigDict(
        env_file=".env", env_file_encoding="utf-8", extra="ignore", hide_input_in_errors=True
    )

    general_database: str = Field("general.db", description="SQLite database file")
    general_database_url: str | None = Field(
        None, description="postgresql://… for several processes; empty: the SQLite file"
    )
    general_language: str = Field("en", description="Language where a chat has not chosen one")
    general_log_level: str = Field("INFO", description="Python logging level")
    general_log_format: Literal["text", "json"] = Field(
        "text", description="The log's lines: text, or one JSON object each"
    )
    general_computer_pause: float = Field(
        1.0, ge=0, le=30, description="Seconds between a computer player's steps"
    )
    general_flood_burst: int = Field(
        12, ge=1, description="Presses and commands one person may make in a burst"
    )
    general_flood_rate: float = Field(
        4.0, gt=0, description="Presses and commands a second one person may keep up after it"
    )
    general_dice_seed: str | None = Field(
        None, description="Seed for reproducible dice (testing); empty: secure randomness"
    )
    general_http_port: int | None = Field(
        None, ge=1, le=65535, description="Port serving /healthz and /metrics; empty: none"
    )
    general_http_listen: str = Field(
        "127.0.0.1", min_length=1, description="Address /healthz and /metrics listen on"
    )
    general_web_url: str | None = Field(
        None, description="Public base URL of the live table's page; empty: no live table"
    )
    general_web_port: int | None = Field(
        None, ge=1, le=65535, description="Port the live table's page is served on"
    )
    general_web_listen: str = Field(
        "127.0.0.1", min_length=1, description="Address the live table's page listens on"
    )
    general_web_auth_age: float = Field(
        3600, gt=0, le=86400, description="Seconds a Telegram Mini App's launch stays valid"
    )
    telegram_token: SecretStr | None = Field(None, description="Bot token from BotFather")
    telegram_mini_app: str | None = Field(
        None, description="The Mini App's short name (BotFather's /newapp); empty: none"
    )
    telegram_base_url: str | None = Field(None, description="Bot API endpoint (token appended)")
    telegram_group_rate: float = Field(
        0, description="Requests per minute to one group before waiting; 0: rely on 429 retries"
    )
    telegram_overall_rate: float = Field(
        0, description="Requests a second overall before waiting; 0: rely on 429 retries"
    )
    telegram_chat_burst: int = Field(
        3, ge=1, le=30, description="Messages and edits at once in one chat before pacing"
    )
    telegram_chat_rate: float = Field(
        1.0, ge=0, le=30, description="Messages and edits a second in one chat; 0: no pace"
    )
    telegram_group_messages: int = Field(
        20, ge=1, le=60, description="Messages sent and edited in one group in its window"
    )
    telegram_group_window: float = Field(
        60, gt=0, le=3600, description="Seconds of a group's window (Telegram's is a minute)"
    )
    telegram_pace_slack: float = Field(
        0.1, ge=0, le=5, description="Seconds kept to spare in every limit for a call's way"
    )
    telegram_group_burst: int = Field(
        4, ge=1, le=60, description="A group's writes at once before they are spread evenly"
    )
    telegram_overall_messages: float = Field(
        30, ge=0, le=1000, description="Messages and edits a second in all chats; 0: no cap"
    )
    telegram_webhook_url: str | None = Field(
        None, description="Public URL Telegram pushes updates to; empty: long polling"
    )
    telegram_webhook_secret: SecretStr | None = Field(
        None, description="Secret token Telegram sends with every webhook request (required)"
    )
    telegram_webhook_listen: str = Field("127.0.0.1", description="Address the webhook listens on")
    telegram_webhook_port: int = Field(
        8443, ge=1, le=65535, description="Port the webhook listens on"
    )
    discord_token: SecretStr | None = Field(None, description="Bot token from the Developer Portal")
    discord_shard_count: int | None = Field(
        None, ge=0, description="Gateway shards in all; 0: as many as Discord recommends"
    )
    discord_shard_ids: str | None = Field(
        None, description="The shards this process runs, e.g. 0,1 (with DISCORD_SHARD_COUNT)"
    )
    discord_guild_id: int | None = Field(None, description="Sync commands to this guild only")
    discord_api_base_url: str | None = Field(None, description="Discord REST base URL")
    discord_gateway_url: str | None = Field(None, description="Discord gateway URL")
    discord_activity: bool = Field(
        False, description="The Discord application is set up as an Activity (the live table)"
    )
    discord_application_id: int | None = Field(
        None, ge=1, description="The application's id (OAuth2 client id), for the Activity"
    )
    discord_client_secret: SecretStr | None = Field(
        None, description="The application's OAuth2 client secret: an Activity signs people in"
    )

    @field_validator(
        "general_database_url",
        "general_dice_seed",
        "general_http_port",
        "general_web_url",
        "general_web_port",
        "telegram_token",
        "telegram_mini_app",
        "telegram_base_url",
        "telegram_webhook_url",
        "telegram_webhook_secret",
        "discord_token",
        "discord_guild_id",
        "discord_shard_count",
        "discord_shard_ids",
        "discord_api_base_url",
        "discord_gateway_url",
        "discord_application_id",
        "discord_client_secret",
        mode="before",
    )
    @classmethod
    def _empty_is_unset(cls, value: Any) -> Any:
        """`TELEGRAM_TOKEN=` in a file or the environment means the same as leaving it out."""
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("discord_activity", mode="before")
    @classmethod
    def _empty_is_no(cls, value: Any) -> Any:
        """`DISCORD_ACTIVITY=` means the default, as every empty setting does."""
        return False if isinstance(value, str) and not value.strip() else value

    @field_validator("general_database_url")
    @classmethod
    def _postgres_only(cls, value: str | None) -> str | None:
        if value and not value.startswith(("postgresql://", "postgres://")):
            raise ValueError("must be a postgresql:// URL")
        if value:
            urlsplit(value)  # a ValueError (a broken [IPv6] host) is a validation error too
        return value

    @field_validator("general_web_url")
    @classmethod
    def _page_url(cls, value: str | None) -> str | None:
        """The page's base: links are made by appending `?t=…` to it, so it ends with "/"."""
        if not value:
            return value
        value = value.strip()
        parts = urlsplit(value)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise ValueError("must be an http:// or https:// URL")
        if parts.query or parts.fragment:
            raise ValueError("must have no ?query or #fragment (links add their own)")
        return value if value.endswith("/") else value + "/"

    @field_validator("telegram_mini_app")
    @classmethod
    def _mini_app(cls, value: str | None) -> str | None:
        """Telegram knows no other short name: said here, before any link points nowhere."""
        if value and not MINI_APP.fullmatch(value.strip()):
            raise ValueError("must be 3 to 30 characters, each a letter A-Z or a-z, a digit or _")
        return value.strip() if value else value

    @field_validator("telegram_base_url", "telegram_webhook_url", "discord_api_base_url")
    @classmethod
    def _http_url(cls, value: str | None) -> str | None:
        if value and (
            urlsplit(value).scheme not in ("http", "https") or not urlsplit(value).netloc
        ):
            raise ValueError("must be an http:// or https:// URL")
        return value

    @field_validator("discord_gateway_url")
    @classmethod
    def _websocket_url(cls, value: str | None) -> str | None:
        if value and (urlsplit(value).scheme not in ("ws", "wss") or not urlsplit(value).netloc):
            raise ValueError("must be a ws:// or wss:// URL")
        return value

    @field_validator("telegram_webhook_secret")
    @classmethod
    def _telegram_secret(cls, value: SecretStr | None) -> SecretStr | None:
        """Telegram refuses any other secret at setWebhook; said here, before anything runs."""
        if value and not WEBHOOK_SECRET.fullmatch(value.get_secret_value()):
            raise ValueError(
                "must be 1 to 256 characters, each a letter A-Z or a-z, a digit, _ or -"
            )
        return value

    @field_validator("general_log_level")
    @classmethod
    def _known_level(cls, value: str) -> str:
        level = value.strip().upper() or "INFO"
        if level not in logging.getLevelNamesMapping():
            raise ValueError(f"unknown level {value!r}; one of {', '.join(LEVELS)}")
        return level

    @field_validator("general_language")
    @classmethod
    def _known_language(cls, value: str) -> str:
        """A language without a catalogue would quietly become English; refused instead."""
        code = value.strip().replace("_", "-").split("-")[0].lower() or DEFAULT_LOCALE
        if code not in available_locales():
            known = ", ".join(available_locales())
            raise ValueError(f"no catalogue for language {value!r}; one of {known}")
        return code

    @model_validator(mode="after")
    def _webhook_needs_a_secret(self) -> Settings:
        if self.telegram_webhook_url and not self.telegram_webhook_secret:
            raise ValueError("TELEGRAM_WEBHOOK_SECRET is required with TELEGRAM_WEBHOOK_URL")
        return self

    @model_validator(mode="after")
    def _web_page(self) -> Settings:
        """The live table's settings go together; its port is its own (another server's
        would be taken twice)."""
        port = self.general_web_port
        if self.general_web_url and port is None:
            raise ValueError("GENERAL_WEB_PORT is required with GENERAL_WEB_URL")
        if port is not None and not self.general_web_url:
            raise ValueError("GENERAL_WEB_PORT needs GENERAL_WEB_URL (where people reach it)")
        for name, needs in (
            ("TELEGRAM_MINI_APP", self.telegram_mini_app),
            ("DISCORD_ACTIVITY", self.discord_activity),
            ("DISCORD_CLIENT_SECRET", self.discord_client_secret),
        ):
            if needs and not self.general_web_url:
                raise ValueError(f"{name} needs GENERAL_WEB_URL (the page it opens)")
        if port is not None and port == self.general_http_port:
            raise ValueError("GENERAL_WEB_PORT must differ from GENERAL_HTTP_PORT")
        if port is not None and self.telegram_webhook_url and port == self.telegram_webhook_port:
            raise ValueError("GENERAL_WEB_PORT must differ from TELEGRAM_WEBHOOK_PORT")
        return self

    @model_validator(mode="after")
    def _activity_sign_in(self) -> Settings:
        """The code exchange names the application and proves it with the secret: both."""
        if self.discord_client_secret and self.discord_application_id is None:
            raise ValueError("DISCORD_CLIENT_SECRET needs DISCORD_APPLICATION_ID")
        if self.discord_application_id is not None and not self.discord_client_secret:
            raise ValueError("DISCORD_APPLICATION_ID needs DISCORD_CLIENT_SECRET")
        return self

    @model_validator(mode="after")
    def _shard_ids_need_a_count(self) -> Settings:
        ids = self.shard_ids
        if ids is not None and not self.discord_shard_count:
            raise ValueError("DISCORD_SHARD_IDS needs DISCORD_SHARD_COUNT")
        if ids is not None and any(not 0 <= i < (self.discord_shard_count or 0) for i in ids):
            raise ValueError("every DISCORD_SHARD_IDS entry must be below DISCORD_SHARD_COUNT")
        return self

    @property
    def shard_ids(self) -> tuple[int, ...] | None:
        text = self.discord_shard_ids
        return None if not text else tuple(int(part) for part in text.split(",") if part.strip())

    @property
    def secrets(self) -> list[str]:
        """What is never written out: the tokens, the webhook and client secrets and the
        database password (as the URL spells it and decoded)."""
        values = [
            secret.get_secret_value()
            for secret in (
                self.telegram_token,
                self.discord_token,
                self.telegram_webhook_secret,
                self.discord_client_secret,
            )
            if secret
        ]
        password = urlsplit(self.general_database_url or "").password
        return [*values, password, unquote(password)] if password else values

    @property
    def console_mode(self) -> bool:
        """With no chat token configured the bot plays in the terminal."""
        return self.telegram_token is None and self.discord_token is None
