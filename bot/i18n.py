"""Localized texts from gettext catalogs (``bot/locales/<lang>/<domain>.po``), read with Babel.

Message ids are stable keys (``registration.applied``); every catalog holds the full text.
Each feature keeps its texts in its own domain file (core, cup, …); a language's catalog is
all of its domain files together, and a key may appear in only one of them.
Parameters are HTML-escaped when formatted (messages go out with parse_mode=HTML), so a
user's name can never inject markup; wrap pre-built markup in :class:`Markup` to keep it.

A text that depends on a number is a gettext plural entry, one ``msgstr[i]`` per form of
the language (ru 3, en and fi 2); its ``msgid_plural`` names the parameter whose value
chooses the form (``msgid "registration.full"`` / ``msgid_plural "max"``), so callers ask
for it like any text. The form follows the language's plural rule, and a number that is
not whole (half a point) takes the second form ("1.5 pts", «1.5 очка», "1.5 pistettä").
"""

from __future__ import annotations

import gettext
import html
import sys
from collections.abc import Callable
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

from bot.config import SUPPORTED_LANGUAGES

FALLBACK = "en"
ECHO_LIMIT = 64  # characters of a user's input quoted back to them


class Markup(str):
    """Text that is already valid HTML and must not be escaped again."""


class Plural(tuple):
    """The forms of a plural entry, in the catalog's order (``msgstr[0]``, ``[1]`` …);
    ``by`` is the parameter that chooses the form, ``rule`` the plural rule of the catalog's
    language."""

    by: str
    rule: Callable[[int], int]

    def __new__(cls, forms: tuple[str, ...], by: str, rule: Callable[[int], int]) -> Plural:
        made = super().__new__(cls, forms)
        made.by, made.rule = by, rule
        return made

    def form(self, key: str, params: dict[str, Any]) -> str:
        """The form for the value of its parameter (module docstring)."""
        count = params.get(self.by)
        if not isinstance(count, int | float):
            raise KeyError(f"{key!r} needs a number {self.by!r} to choose its form")
        index = self.rule(abs(int(count))) if float(count).is_integer() else 1
        return self[min(index, len(self) - 1)]


_extra_folders: list[Path] = []  # games' own catalogs (bot.games.Game.catalogs)


def add_catalogs(folder: Path) -> None:
    """Read ``folder/<lang>/*.po`` too, from now on."""
    if folder not in _extra_folders:
        _extra_folders.append(folder)
        catalog.cache_clear()
        texts.cache_clear()


def lines(*parts: str | None) -> str:
    """The parts there are, a line apart: one message of what one step says."""
    return "\n".join(part for part in parts if part)


def opening(text: str) -> str:
    """``text`` as the start of a sentence: its first letter a capital (a name written in
    lower case mid-sentence, as Russian writes a playoff round: «первый раунд — финал «HP»»,
    begins a message «Финал «HP»: …»)."""
    return text[:1].upper() + text[1:]


def mid_sentence(text: str) -> str:
    """``text``, a name written as a sentence's start (``Тур 1``, ``Final``), as it reads
    inside one, in parentheses: its first letter small («(тур 1)», ``(final)``), unless the
    second is a capital too (an abbreviation)."""
    return text[:1].lower() + text[1:] if text[1:2].islower() else text


def paragraphs(*parts: str | None) -> str:
    """The parts there are, a blank line apart: one message of what one step says in
    blocks (a stage's tables, then the round it opens)."""
    return "\n\n".join(part for part in parts if part)


def place_mark(place: int | None) -> str:
    """A table's text row's place: ``3.``, or a bare dash for a player without one
    (disqualified, or whose withdrawal removed their results)."""
    return f"{place}." if place else "—"


def clip(text: str, limit: int = ECHO_LIMIT) -> str:
    """A user's input as it is quoted back to them: at most ``limit`` characters, so a
    pasted novel is not echoed whole."""
    return text if len(text) <= limit else text[:limit - 1] + "…"


@cache
def catalog(language: str) -> dict[str, str | Plural]:
    texts: dict[str, str | Plural] = {}
    folders = [resources.files("bot") / "locales" / language,
               *(folder / language for folder in _extra_folders)]
    for folder in folders:
        if folder.is_dir():
            _read_folder(folder, language, texts)
    return texts


@cache
def texts(language: str) -> dict[str, str | Plural]:
    """The language's texts and, under the keys it lacks, the fallback's: one lookup a call."""
    if language == FALLBACK:
        return catalog(FALLBACK)
    return {**catalog(FALLBACK), **catalog(language)}


@cache
def plural_rule(language: str) -> Callable[[int], int]:
    """The language's gettext plural rule: a whole number → the index of its form."""
    return gettext.c2py(get_plural(language).plural_expr)


def _read_folder(folder, language: str, texts: dict[str, str | Plural]) -> None:
    for path in sorted(folder.iterdir(), key=lambda p: p.name):
        if not path.name.endswith(".po"):
            continue
        with path.open("rb") as handle:
            parsed = read_po(handle, locale=language)
        for message in parsed:
            if message.id and message.string:
                key = sys.intern(message.id[0] if message.pluralizable else message.id)
                if key in texts:
                    raise ValueError(f"{key!r} is in two {language} catalogs")
                texts[key] = (Plural(message.string, message.id[1], plural_rule(language))
                              if message.pluralizable else message.string)


def _escape(text: str) -> str:
    """``text`` made safe for HTML; a text without ``<``, ``>`` or ``&`` is its own escape."""
    if "&" in text or "<" in text or ">" in text:
        return html.escape(text, quote=False)
    return text


class Translator:
    """Texts in one language: ``tr("key", name=...)``."""

    def __init__(self, language: str) -> None:
        self.language = language if language in SUPPORTED_LANGUAGES else FALLBACK

    def __call__(self, key: str, /, **params: Any) -> str:
        template = texts(self.language).get(key)
        if template is None:
            raise KeyError(f"no text {key!r} in the catalogs")
        if type(template) is Plural:
            template = template.form(key, params)
        for name, value in params.items():
            if type(value) is not int:
                params[name] = self._parameter(value)
        return template.format_map(params)

    def _parameter(self, value: Any) -> Any:
        """A parameter as it goes into a text: escaped, unless it is :class:`Markup` or a
        whole number; a fractional number written the language's way (1,5 in Russian)."""
        if type(value) is str:
            return _escape(value)
        if isinstance(value, float):
            return format_decimal(value, locale=self.language)
        if isinstance(value, Markup | int):
            return value
        return _escape(str(value))

    def decimal(self, value: float, places: int = 2) -> str:
        """``value`` with ``places`` decimals, written the language's way (5,83 in Russian
        and Finnish): a statistic, where 6 is said as 6,00 beside 5,83."""
        return format_decimal(value, format="0." + "0" * places, locale=self.language)

    def plain(self, key: str, /, **params: Any) -> str:
        """The text for somewhere that is not HTML (a picture, a title fed back as a
        parameter): the same words with nothing escaped."""
        return html.unescape(self(key, **params))

    def has(self, key: str) -> bool:
        return key in texts(self.language)


def pick_language(*choices: str | None, default: str) -> str:
    """The first supported language among the choices (``en-US`` counts as ``en``)."""
    for choice in choices:
        if choice:
            short = choice.split("-")[0].lower()
            if short in SUPPORTED_LANGUAGES:
                return short
    return default
