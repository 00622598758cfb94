"""Settings read from the environment (and an optional ``.env`` file)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import Field, ValidationError, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

SUPPORTED_LANGUAGES = ("ru", "en", "fi")
_TOKEN_SHAPE = re.compile(r"^\d+:[\w-]{20,}$")
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


class Settings(BaseSettings):
    """Every setting the bot reads; ``.env.example`` documents each one."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    bot_token: str | None = None
    admin_ids: Annotated[frozenset[int], NoDecode] = frozenset()
    database_path: Path = Path("data/bot.sqlite3")
    timezone: str = "Europe/Moscow"
    default_language: str = "ru"
    webhook_url: str | None = None
    webhook_secret: str | None = None
    webhook_host: str = "0.0.0.0"
    webhook_port: int = Field(default=8080, ge=1, le=65535)
    bot_api_url: str | None = None
    reminders: Annotated[tuple[int, ...], NoDecode] = (1440, 60, 10)
    log_level: str = "INFO"
    render_processes: int = Field(default=1, ge=0, le=32)

    @field_validator("bot_token")
    @classmethod
    def _token_shape(cls, value: str | None) -> str | None:
        if value in (None, ""):
            return None
        if not _TOKEN_SHAPE.match(value):
            raise ValueError("must look like 123456789:AA... as BotFather gives it")
        return value

    @field_validator("admin_ids", mode="before")
    @classmethod
    def _parse_ids(cls, value: object) -> object:
        if isinstance(value, str):
            parts = [p for p in re.split(r"[,\s]+", value.strip()) if p]
            try:
                return frozenset(int(p) for p in parts)
            except ValueError:
                raise ValueError("must be user ids separated by commas, e.g. 111,222") from None
        return value

    @field_validator("reminders", mode="before")
    @classmethod
    def _parse_minutes(cls, value: object) -> object:
        if isinstance(value, str):
            try:
                minutes = tuple(int(p) for p in re.split(r"[,\s]+", value.strip()) if p)
            except ValueError:
                raise ValueError("must be minutes before the start, e.g. 1440,60,10") from None
            if any(m <= 0 for m in minutes):
                raise ValueError("every reminder must be a positive number of minutes")
            return tuple(sorted(minutes, reverse=True))
        return value

    @field_validator("timezone")
    @classmethod
    def _zone_exists(cls, value: str) -> str:
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError, OSError):  # OSError: "Europe", a folder
            raise ValueError(f"unknown time zone {value!r}, use an IANA name such as Europe/Moscow") from None
        return value

    @field_validator("default_language")
    @classmethod
    def _language_supported(cls, value: str) -> str:
        if value not in SUPPORTED_LANGUAGES:
            raise ValueError(f"must be one of {', '.join(SUPPORTED_LANGUAGES)}")
        return value

    @field_validator("log_level")
    @classmethod
    def _level_known(cls, value: str) -> str:
        if value.upper() not in LOG_LEVELS:
            raise ValueError(f"must be one of {', '.join(LOG_LEVELS)}")
        return value.upper()

    @field_validator("webhook_secret")
    @classmethod
    def _secret_shape(cls, value: str | None) -> str | None:
        if value and not re.fullmatch(r"[A-Za-z0-9_-]{1,256}", value):
            raise ValueError("may contain only A-Z, a-z, 0-9, _ and - (Telegram's rule)")
        return value or None

    @property
    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.timezone)


class SettingsError(SystemExit):
    """Raised at start-up with one line naming the wrong setting."""


def load_settings(**overrides: object) -> Settings:
    """Read the settings, turning a validation error into one clear line."""
    try:
        return Settings(**overrides)  # type: ignore[arg-type]
    except ValidationError as error:
        first = error.errors()[0]
        name = str(first["loc"][0]).upper() if first["loc"] else "settings"
        message = str(first["msg"]).removeprefix("Value error, ")
        raise SettingsError(f"Setting {name} is wrong: {message}") from None
