"""The settings a tournament accepts, validated once for /new and /settings alike.

Each known key has a parser that returns the typed value or raises ``ValueError`` with the
catalog key of the reason. Games declare their own keys (``bot.games.Game.parsers``); every
game has :data:`COMMON_SETTINGS`, and the games run by the tournament formats add
:data:`FORMAT_SETTINGS`. A parser says what it allows in ``hint`` (the answer to a refused
pair), and the words its value may be said with in ``words`` (:func:`value_words`).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable
from functools import cache
from itertools import takewhile
from typing import Any

from bot.config import SUPPORTED_LANGUAGES
from bot.i18n import Translator, clip

FORMATS = ("round_robin", "swiss", "swiss_elim", "single_elim", "double_elim", "reentry",
           "groups_playoff", "cup")


def int_range(low: int, high: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        if not text.isdecimal() or not low <= int(text) <= high:
            raise ValueError("settings.bad_number")
        return int(text)
    parse.hint = f"{low}–{high}"  # type: ignore[attr-defined]
    return parse


_DURATION = re.compile(r"(\d+)([^\W\d_]*)")
_UNIT_MINUTES = {
    1: ("", "m", "min", "mins", "minutes", "м", "мин", "minuuttia"),
    60: ("h", "hr", "hours", "ч", "час", "часа", "часов", "t", "tunti", "tuntia"),
    1440: ("d", "day", "days", "д", "дн", "день", "дня", "дней", "pv", "päivä", "päivää"),
}
_UNITS = {unit: size for size, units in _UNIT_MINUTES.items() for unit in units}
_UNIT_EXAMPLES = {"2h": "settings.unit_example.hours", "1d": "settings.unit_example.day"}
"""The durations a hint of :func:`minutes` names, as the chat's language writes them
(«2ч», ``2t``): each one :func:`minutes` takes."""


def minutes(low: int, high: int) -> Callable[[str], int]:
    """A number of minutes from ``low`` to ``high``, written bare (``90``) or with a unit as
    organisers write it in the bot's languages (``30m``, ``2h``, ``1d``; ``2ч``, ``1д``;
    ``2t``, ``1pv``); kept as minutes. A 0 it allows means none (no check-in, no deadline)
    and is also said with the word for ``off`` (``checkin=off``, «отметка=нет»)."""
    def parse(text: str) -> int:
        found = _DURATION.fullmatch(text.strip().lower())
        if not found or found[2] not in _UNITS:
            raise ValueError("settings.bad_number")
        value = int(found[1]) * _UNITS[found[2]]
        if not low <= value <= high:
            raise ValueError("settings.bad_number")
        return value
    units = tuple(_UNIT_EXAMPLES)[:2 if high >= 1440 else 1]  # values it accepts
    parse.hint = "|".join((f"{low}–{high}", *units))  # type: ignore[attr-defined]
    if low == 0:
        parse.words = {"off": "0"}  # type: ignore[attr-defined]
    return parse


def choice(*options: str) -> Callable[[str], str]:
    def parse(text: str) -> str:
        if text.lower() not in options:
            raise ValueError("settings.bad_choice")
        return text.lower()
    parse.hint = "|".join(options)  # type: ignore[attr-defined]
    parse.words = {option: option for option in options}  # type: ignore[attr-defined]
    return parse


def int_choice(*options: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        if not text.isdecimal() or int(text) not in options:
            raise ValueError("settings.bad_choice")
        return int(text)
    parse.hint = "|".join(map(str, options))  # type: ignore[attr-defined]
    return parse


def _narrowed(low: int, high: int, keep: Callable[[int], bool], refusal: str,
              hint: str) -> Callable[[str], int]:
    """A whole number from ``low`` to ``high`` that ``keep`` accepts (else ``refusal``)."""
    base = int_range(low, high)

    def parse(text: str) -> int:
        value = base(text)
        if not keep(value):
            raise ValueError(refusal)
        return value
    parse.hint = hint  # type: ignore[attr-defined]
    return parse


def odd(low: int, high: int) -> Callable[[str], int]:
    """An odd number from ``low`` (odd) to ``high``; its hint lists the first few and the
    last (``1|3|5…21``), which reads the same in every language."""
    return _narrowed(low, high, lambda value: value % 2 == 1, "settings.must_be_odd",
                     f"{low}|{low + 2}|{low + 4}…{high}")


def player_limit(high: int) -> Callable[[str], int]:
    """0 for no limit (also said with the word for ``no_limit``: «без_лимита»), else at
    least two players (a match needs two)."""
    parse = _narrowed(0, high, lambda value: value != 1, "settings.bad_number", f"0|2–{high}")
    parse.words = {"no_limit": "0"}  # type: ignore[attr-defined]
    return parse


def format_list(*options: str, most: int = 4) -> Callable[[str], list[str]]:
    def parse(text: str) -> list[str]:
        items = [item.strip().lower() for item in text.split(",") if item.strip()]
        if not 1 <= len(items) <= most or any(item not in options for item in items):
            raise ValueError("settings.bad_choice")
        return items
    parse.hint = ",".join(options)  # type: ignore[attr-defined]
    parse.words = {option: option for option in options}  # type: ignore[attr-defined]
    return parse


COMMON_SETTINGS: dict[str, Callable[[str], Any]] = {
    "max_players": player_limit(512),
    "approval": choice("on", "off"),
    "checkin": minutes(0, 1440),
    "topics": choice("on", "off"),
}
TIEBREAK_KEYS = ("h2h", "buchholz", "median_buchholz", "sonneborn_berger", "wins",
                 "vs_higher", "diff", "scored", "stat")
# A Swiss tournament without ``rounds`` plays this many.
SWISS_ROUNDS = 5
# The formats' options (bot/features/formats); absent keys take the formats' defaults.
FORMAT_SETTINGS: dict[str, Callable[[str], Any]] = {
    "format": choice(*FORMATS[:-1]),
    "rounds": int_range(1, 30),
    "max_losses": int_range(1, 5),
    "third_place": choice("on", "off"),
    "reset": choice("on", "off"),
    "groups": int_range(1, 16),
    "top": int_range(1, 8),
    "tiebreaks": format_list(*TIEBREAK_KEYS, most=len(TIEBREAK_KEYS)),
    "deadline": minutes(0, 10080),
}


class Refused(ValueError):
    """A pair :func:`parse_settings` refused: ``args`` are the catalog key of why, the key
    named and the pair probably meant (or None); ``with_others``: other settings were said
    with it (none of them is saved)."""

    def __init__(self, reason: str, name: str, meant: str | None, with_others: bool) -> None:
        super().__init__(reason, name, meant)
        self.with_others = with_others


def parse_settings(parsers: dict[str, Callable[[str], Any]], words: list[str],
                   current: dict[str, Any]) -> dict[str, Any]:
    """Apply the ``key=value`` pairs of ``words`` (:func:`_pairs`: also ``key value``) to
    ``current``, all of them or none; :class:`Refused` if one is wrong, the pair being the
    one as it was probably meant (``format=swis`` → ``format=swiss``, ``fromat=swiss`` →
    ``format=swiss``, a value said in words: ``format round robin`` →
    ``format=round_robin``), for a key without a value the one set now (``legs=3``), or
    None."""
    result = dict(current)
    pairs = _pairs(parsers, words)
    for at, said in enumerate(pairs):
        name, sep, value = "=".join(said).partition("=")
        name = _key_named(parsers, name.strip().lower())
        value = _value_named(parsers.get(name), value.strip())
        try:
            if not sep and name in parsers:
                raise ValueError("settings.no_value")
            if not sep or name not in parsers:
                raise ValueError("settings.unknown_key")
            result[name] = parsers[name](value)
        except ValueError as error:
            raise _refused(parsers, pairs, at, error.args[0], name, value, current) from None
    return result


def _refused(parsers: dict[str, Callable[[str], Any]], pairs: list[list[str]], at: int,
             reason: str, name: str, value: str, current: dict[str, Any]) -> Refused:
    """The refusal of ``pairs[at]`` (key ``name``, ``value``): a value said in words, its
    own and the words after it up to a pair written with «=», is the pair meant when its
    setting takes them joined with "_" (``format round robin``, ``format double elim``:
    then those words are no other settings); else the pair as :func:`_meant` puts it
    right, or for a key without a value the one set now."""
    following = list(takewhile(lambda said: len(said) > 1 or "=" not in said[0],
                               pairs[at + 1:]))
    apart = [*"=".join(pairs[at]).partition("=")[2].split(),
             *(word for said in following for word in said)]
    if name in parsers and len(apart) > 1 and (
            meant := _joined_meant(parsers, name, "_".join(apart))):
        return Refused("settings.value_apart", name, meant, len(pairs) > 1 + len(following))
    others = len(pairs) > 1
    if reason == "settings.no_value":
        return Refused(reason, name, _pair_now(name, current), others)
    return Refused(reason, name, _meant(parsers, name, value), others)


def _joined_meant(parsers: dict[str, Callable[[str], Any]], name: str, joined: str
                  ) -> str | None:
    """``name=joined`` when its setting takes it (its words said in a bot's language too),
    else as :func:`_meant` puts it right, else None."""
    value = _value_named(parsers[name], joined)
    return f"{name}={value}" if _takes(parsers[name], value) else _meant(parsers, name, value)


def _pairs(parsers: dict[str, Callable[[str], Any]], words: list[str]) -> list[list[str]]:
    """``words`` as pairs: a word as written (``key=value``, or a lone word), or a key
    written without «=» and the word after it, its value (``format swiss``), when that word
    is no pair and no key."""
    pairs: list[list[str]] = []
    for word in words:
        if pairs and len(pairs[-1]) == 1 and _is_key(parsers, pairs[-1][0]) \
                and not _is_key(parsers, word) and "=" not in word:
            pairs[-1].append(word)
        else:
            pairs.append([word])
    return pairs


def _is_key(parsers: dict[str, Callable[[str], Any]], word: str) -> bool:
    """Whether ``word`` is a setting's key alone, in one of the bot's languages («legit»)."""
    return "=" not in word and _key_named(parsers, word.strip().lower()) in parsers


def _pair_now(key: str, settings: dict[str, Any]) -> str | None:
    """``key`` with the value ``settings`` give it as shown (:func:`shown_settings`: a Swiss
    format's default rounds too), or None when they leave it to the format's default."""
    value = shown_settings(settings).get(key)
    if value is None:
        return None
    return f"{key}={','.join(map(str, value)) if isinstance(value, list) else value}"


def _key_named(parsers: dict[str, Callable[[str], Any]], name: str) -> str:
    """The key ``name`` stands for: itself, or a key whose word it is in one of the bot's
    languages («формат» → ``format``; catalogs: ``settings.key_words.<key>``)."""
    if name in parsers:
        return name
    return next((key for key in parsers if name in said_as(f"settings.key_words.{key}")), name)


def value_words(parse: Callable[[str], Any] | None) -> dict[str, str]:
    """The words a setting's value may be said with, as catalog entries
    (``settings.value_words.<entry>``) and the value each stands for: a choice's options
    (``swiss`` → ``swiss``), and the 0 of a number where 0 means none (``no_limit`` → ``0``);
    empty for a setting taken only as typed."""
    return getattr(parse, "words", {})


def _value_named(parse: Callable[[str], Any] | None, value: str) -> str:
    """``value`` with each comma-separated word that is one of the setting's value words in
    one of the bot's languages put as what it stands for («швейцарка» → ``swiss``, «да» →
    ``on``, «без_лимита» → ``0``); a setting without value words takes it as typed."""
    words = value_words(parse)
    if not words:
        return value
    return ",".join(next((meant for entry, meant in words.items() if word.strip().lower() in
                          said_as(f"settings.value_words.{entry}")), word)
                    for word in value.split(","))


@cache
def said_as(entry: str) -> frozenset[str]:
    """The words of catalog ``entry`` in every language, lower case (none when no catalog
    has it): a Finnish group may type a Russian word too."""
    words: set[str] = set()
    for language in SUPPORTED_LANGUAGES:
        tr = Translator(language)
        if tr.has(entry):
            words |= set(tr(entry).lower().split())
    return frozenset(words)


CLOSE_ENOUGH = 0.7
"""How alike a typed word and a known one must be to be offered as what was meant (difflib's
ratio: ``swis`` against ``swiss`` is 0.89, ``shangai`` against ``shanghai`` 0.93, ``chess``
against ``dice`` 0.44); for a game's name (``bot/features/game_names.py``) and a setting."""


def _closest(word: str, options: Iterable[str]) -> str | None:
    found = difflib.get_close_matches(word.lower(), options, n=1, cutoff=CLOSE_ENOUGH)
    return found[0] if found else None


def _meant(parsers: dict[str, Callable[[str], Any]], name: str, value: str) -> str | None:
    """The refused pair put right — a mistyped key, a mistyped word of a value chosen from a
    list, or both — when the pair put right is one its setting takes; else None."""
    named = {word: key for key in parsers
             for word in (key, *said_as(f"settings.key_words.{key}"))}
    key = name if name in parsers else named.get(_closest(name, named) or "")
    if key is None or not value:
        return None
    for candidate in (value, _words_put_right(parsers[key], value)):
        if candidate is not None and (key, candidate) != (name, value) and _takes(
                parsers[key], candidate):
            return f"{key}={candidate}"
    return None


def _words_put_right(parse: Callable[[str], Any], value: str) -> str | None:
    """``value``'s comma-separated words, each replaced by what the value word closest to it
    stands for (an option, or one of its words in the bot's languages: «швейцарк» →
    ``swiss``); None for a setting without value words, or a word close to none of them."""
    words = value_words(parse)
    if not words:
        return None
    named = {word: meant for entry, meant in words.items()
             for word in (entry, *said_as(f"settings.value_words.{entry}"))}
    typed = [word.strip().lower() for word in value.split(",") if word.strip()]
    fixed = [named.get(word) or named.get(_closest(word, named) or "") for word in typed]
    return None if not fixed or None in fixed else ",".join(fixed)


def _takes(parse: Callable[[str], Any], value: str) -> bool:
    try:
        parse(value)
    except ValueError:
        return False
    return True


def refused_key(error: ValueError) -> str:
    """The key whose values the answer to a refused pair lists: the one probably meant
    (``fromat`` → ``format``), else the one typed (every key's when it is no key)."""
    name, meant = error.args[1:]
    return name if meant is None else meant.partition("=")[0]


def refusal(tr: Translator, parsers: dict[str, Callable[[str], Any]],
            error: ValueError) -> str:
    """Why a ``key=value`` was refused (``error`` from :func:`parse_settings`), with the
    pair as it was probably meant (a key without a value: the pair set now), in the chat's
    language (as :func:`settings_line`)."""
    reason, key, meant = error.args
    said = tr(reason, key=key_said(tr, key) if key in parsers else clip(key))
    if meant is None:
        return said
    meant_key, _, value = meant.partition("=")
    pair = f"{key_said(tr, meant_key)}={_value_said(tr, parsers[meant_key], value.split(','))}"
    follow = "settings.value_now" if reason == "settings.no_value" else "settings.did_you_mean"
    return f"{said} {tr(follow, pair=pair)}"


def hints(tr: Translator, parsers: dict[str, Callable[[str], Any]],
          refused: str | None = None) -> str:
    """What the keys allow, as ``key=values`` in the chat's language (the words of
    :func:`settings_line`): only the ``refused`` key's when it is one of them (a bad value
    of one setting is answered with that setting, not all twenty), every key's otherwise
    (an unknown key, or the whole list of /settings)."""
    shown = {refused: parsers[refused]} if refused in parsers else parsers
    return ", ".join(f"{key_said(tr, key)}={_hint_said(tr, parse)}"
                     for key, parse in shown.items())


def _hint_said(tr: Translator, parse: Callable[[str], Any]) -> str:
    """A setting's allowed values (``round_robin|swiss``, ``0|2–512``), each that has a
    word of its own in the chat's language (``круговая|швейцарка``, ``без_лимита|2–512``),
    a duration with the language's unit (``нет|0–1440|2ч|1д``)."""
    return re.sub(r"[^|,]+", lambda found: _piece_said(tr, parse, found[0]),
                  getattr(parse, "hint", "…"))


def _piece_said(tr: Translator, parse: Callable[[str], Any], piece: str) -> str:
    if piece in _UNIT_EXAMPLES:
        return tr(_UNIT_EXAMPLES[piece])
    return _value_said(tr, parse, piece)


def shown_settings(settings: dict[str, Any]) -> dict[str, Any]:
    """The settings as the organiser reads them: a Swiss format names its round count next
    to it, also when it was left to the default."""
    if settings.get("format") != "swiss":
        return settings
    rest = {key: value for key, value in settings.items() if key != "rounds"}
    shown: dict[str, Any] = {}
    for key, value in rest.items():
        shown[key] = value
        if key == "format":
            shown["rounds"] = settings.get("rounds", SWISS_ROUNDS)
    return shown


def settings_line(tr: Translator, parsers: dict[str, Callable[[str], Any]],
                  settings: dict[str, Any]) -> str:
    """The settings as the organiser reads them (:func:`shown_settings`), one ``key=value``
    pair each in the chat's language as /settings takes them back (``формат=круговая``,
    ``макс_игроков=без_лимита``, ``checkin=off``): a key, and a value with a word of its
    own (:func:`value_words`), is said with the first word of its catalog entry, anything
    else as it is kept."""
    return ", ".join(f"{key_said(tr, key)}={_value_said(tr, parsers.get(key), value)}"
                     for key, value in shown_settings(settings).items())


def key_said(tr: Translator, key: str) -> str:
    """A setting's key as the chat's language says it in a settings line («в_плей-офф»)."""
    return _first_word(tr, f"settings.key_words.{key}", key)


def _value_said(tr: Translator, parse: Callable[[str], Any] | None, value: Any) -> str:
    """A setting's value in the chat's language: each item of a list (``formats``) on its
    own, a comma between them."""
    entries = {meant: entry for entry, meant in value_words(parse).items()}
    items = value if isinstance(value, list) else [value]
    return ",".join(_first_word(tr, f"settings.value_words.{entries[str(item)]}", str(item))
                    if str(item) in entries else str(item) for item in items)


def _first_word(tr: Translator, entry: str, kept: str) -> str:
    """The first word of catalog ``entry`` (the one a settings line shows), or ``kept``
    when no catalog has it."""
    return tr(entry).split()[0] if tr.has(entry) else kept
