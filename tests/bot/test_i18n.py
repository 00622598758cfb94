"""Every text the code asks for exists in the Russian and English catalogs, and the Finnish
catalog covers FinCricket; parameters are HTML-escaped."""

from __future__ import annotations

import re
from pathlib import Path

from bot.i18n import Markup, Translator, catalog

ROOT = Path(__file__).resolve().parents[2]
_LITERAL_KEY = re.compile(r"""\btr\(\s*"([a-z_]+\.[a-z_.]+)\"""")


def _keys_in_code() -> set[str]:
    keys = set()
    for path in (ROOT / "bot").rglob("*.py"):
        keys.update(_LITERAL_KEY.findall(path.read_text(encoding="utf-8")))
    return keys


def test_code_keys_exist_in_ru_and_en() -> None:
    keys = _keys_in_code()
    assert len(keys) > 50
    for language in ("ru", "en"):
        missing = keys - set(catalog(language))
        assert not missing, (language, sorted(missing))


def test_catalogs_have_the_same_keys_and_placeholders() -> None:
    ru, en, fi = catalog("ru"), catalog("en"), catalog("fi")
    assert set(ru) == set(en)
    assert set(fi) <= set(en)
    placeholders = re.compile(r"\{(\w+)\}")
    for key in en:
        for other in (ru, fi):
            if key in other:
                assert set(placeholders.findall(other[key])) == set(
                    placeholders.findall(en[key])), key


def test_finnish_has_the_fincricket_texts() -> None:
    assert {k for k in catalog("en") if "fincricket" in k} <= set(catalog("fi"))


def test_parameters_are_escaped_unless_markup() -> None:
    tr = Translator("en")
    assert "&lt;b&gt;" in tr("try.success", name="<b>")
    assert "<b>" in tr("try.success", name=Markup("<b>"))


def test_plain_text_is_the_same_words_unescaped() -> None:
    tr = Translator("en")
    assert tr.plain("try.success", name="<b>&") == "<b>&: Success ✅"


def test_every_text_uses_only_tags_telegram_knows() -> None:
    """A stray ``<match>`` in a usage line makes Telegram refuse the whole message."""
    allowed = {"b", "i", "u", "s", "code", "pre", "a", "tg-spoiler", "blockquote"}
    for language in ("ru", "en", "fi"):
        for key, text in catalog(language).items():
            tags = set(re.findall(r"</?([^\s>/]+)", text))
            assert tags <= allowed, (language, key, tags - allowed)
