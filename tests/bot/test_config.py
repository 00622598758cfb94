import pytest

from bot.config import SettingsError, load_settings


def test_defaults_need_no_environment() -> None:
    settings = load_settings(_env_file=None)
    assert settings.bot_token is None
    assert settings.timezone == "Europe/Moscow"
    assert settings.default_language == "ru"
    assert settings.reminders == (1440, 60, 10)
    assert settings.render_processes == 1


def test_values_are_parsed(monkeypatch) -> None:
    monkeypatch.setenv("ADMIN_IDS", "11, 22 33")
    monkeypatch.setenv("REMINDERS", "10,60")
    monkeypatch.setenv("RENDER_PROCESSES", "0")
    monkeypatch.setenv("BOT_TOKEN", "123456789:AAAbbbCCCdddEEEfffGGGhhh")
    settings = load_settings(_env_file=None)
    assert settings.admin_ids == {11, 22, 33}
    assert settings.reminders == (60, 10)
    assert settings.render_processes == 0


@pytest.mark.parametrize(("name", "value"), [
    ("BOT_TOKEN", "not-a-token"), ("ADMIN_IDS", "alice"), ("TIMEZONE", "Mars/Olympus"),
    ("TIMEZONE", "Europe"),
    ("DEFAULT_LANGUAGE", "de"), ("REMINDERS", "10,-5"), ("WEBHOOK_SECRET", "bad secret!"),
    ("WEBHOOK_PORT", "70000"), ("RENDER_PROCESSES", "-1")])
def test_a_wrong_setting_stops_with_one_line_naming_it(monkeypatch, name, value) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(SettingsError) as caught:
        load_settings(_env_file=None)
    message = str(caught.value)
    assert message.startswith(f"Setting {name} is wrong:")
    assert "\n" not in message
    assert value not in message or name != "BOT_TOKEN"  # the token is never echoed
