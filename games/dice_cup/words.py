"""The Cup's typed words in Russian, English and Finnish, read into engine actions.

The seed's players type Russian words: «ничья», «переброс», «атака», «защита», «чек»,
«колл», «рейз N», «фолд», «олл-ин», «убираю N», «третья, первая, вторая». Every word has
its English and Finnish forms too, and all of them are accepted whatever the chat's
language; prompts show the chat language's form from :data:`WORDS`.

Each parser takes the typed text and returns the engine's action dict without
``"player"`` (the bot adds the sender's seat), or None when the text is not that kind of
word. Numbers are not range-checked here: «убираю 7» reads as ``{"type": "declare",
"drop": 7}`` so that the engine refuses it with ``bad_drop`` and the player learns why,
instead of the bot ignoring the message. Case, «ё», surrounding spaces and a final «!» or
«.» do not matter; in single words hyphens and inner spaces do not either («олл ин»,
«all-in», «re-roll»).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

LANGUAGES = ("ru", "en", "fi")

# Every accepted form per language and meaning; the first one is what prompts show.
FORMS: dict[str, dict[str, tuple[str, ...]]] = {
    "ru": {
        "draw": ("ничья", "ничью"),
        "reroll": ("переброс", "перебросить"),
        "attack": ("атака", "атакую"),
        "defend": ("защита", "защищаюсь"),
        "check": ("чек",),
        "call": ("колл",),
        "raise": ("рейз",),
        "bet": ("ставка", "ставлю"),
        "fold": ("фолд",),
        "allin": ("олл-ин", "ва-банк"),
        "drop": ("убираю", "убрать", "уберу"),
        "first": ("первая", "первую", "первый"),
        "second": ("вторая", "вторую", "второй"),
        "third": ("третья", "третью", "третий"),
        "fourth": ("четвёртая", "четвёртую", "четвёртый"),
        "order": ("порядок",),
    },
    "en": {
        "draw": ("draw",),
        "reroll": ("reroll",),
        "attack": ("attack", "i attack"),
        "defend": ("defend", "defence", "defense", "i defend"),
        "check": ("check",),
        "call": ("call",),
        "raise": ("raise",),
        "bet": ("bet",),
        "fold": ("fold",),
        "allin": ("all-in",),
        "drop": ("drop", "remove"),
        "first": ("first", "1st"),
        "second": ("second", "2nd"),
        "third": ("third", "3rd"),
        "fourth": ("fourth", "4th"),
        "order": ("order",),
    },
    "fi": {
        "draw": ("tasapeli",),
        "reroll": ("uusintaheitto", "uusinta"),
        "attack": ("hyökkäys", "hyökkään", "hyökkää"),
        "defend": ("puolustus", "puolustan", "puolusta"),
        "check": ("sökö", "sökötän"),
        "call": ("maksu", "maksan", "maksa"),
        "raise": ("korotus", "korotan", "korota"),
        "bet": ("panos", "panostan"),
        "fold": ("kippaus", "kippaan", "kippaa"),
        "allin": ("all-in",),
        "drop": ("poistan", "poista"),
        "first": ("ensimmäinen", "ensimmäisen"),
        "second": ("toinen", "toisen"),
        "third": ("kolmas", "kolmannen"),
        "fourth": ("neljäs", "neljännen"),
        "order": ("järjestys",),
    },
}

WORDS: dict[str, dict[str, str]] = {
    lang: {meaning: forms[0] for meaning, forms in table.items()} for lang, table in FORMS.items()
}
"""The form to show per language: ``WORDS["en"]["attack"] == "attack"``. ``raise`` and
``drop`` are followed by a number («рейз 3», «убираю 2»); an order is three ordinals."""

VOTES = ("draw", "reroll")
CHOICES = ("attack", "defend")
BETS = ("check", "call", "fold", "allin")
ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4}
# Ordinals are read by their stem so that every case ending is accepted
# («третья», «третью»; «toinen», «toisen»).
_ORDINAL_STEMS = {
    "перв": 1, "втор": 2, "трет": 3, "четв": 4,
    "first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4,
    "ensimm": 1, "toi": 2, "kolma": 3, "neljä": 4,
}
_CONNECTORS = frozenset({"и", "затем", "потом", "and", "then", "ja", "sitten", "the"})
_DIGITS = re.compile(r"(\d)\s*[,\-\s]?\s*(\d)\s*[,\-\s]?\s*(\d)")
# Endings written after a digit: «3-я», «3-ю», «3й», "3."
_DIGIT_ENDINGS = ("я", "ю", "й", "ой", "ий", "ья", "ью", ".")
_NUMBERED_POSITION = re.compile(rf"(\d)-?(?:{'|'.join(map(re.escape, _DIGIT_ENDINGS))})?")
_SQUASHED = re.compile(r"[\s\-_]")  # what a word's comparison key leaves out
_ORDER_SEPARATORS = re.compile(r"[\s,;\-–—]+")


@lru_cache(maxsize=256)
def _clean(text: str) -> str:
    """Lower case, «ё» as «е», single spaces, no surrounding spaces or final «!»/«.».

    Remembered: a message is read for each kind of word it might be (a vote, a bet, a
    choice, a raise …), each reading starting here."""
    text = " ".join(text.lower().replace("ё", "е").split())
    return text.rstrip("!.").strip()


def _squash(text: str) -> str:
    """A single word's comparison key: no spaces, hyphens or underscores."""
    return _SQUASHED.sub("", _clean(text))


def _meanings(meanings: tuple[str, ...]) -> dict[str, str]:
    """Squashed form → meaning, over every language."""
    return {
        _squash(form): meaning
        for table in FORMS.values()
        for meaning in meanings
        for form in table[meaning]
    }


_VOTE_FORMS = _meanings(VOTES)
_CHOICE_FORMS = _meanings(CHOICES)
_BET_FORMS = _meanings(BETS)
_RAISE_ALONE = _meanings(("raise", "bet"))
"""«рейз» (or «ставка») without its amount: read as a raise (a bet), so the refusal says how
much may be raised (or what is owed)."""
_DROP_ALONE = _meanings(("drop",))
"""«убираю» without its die: read as a drop, so the refusal says which dice may go."""
_ORDER_WORDS = _meanings(("order",))
"""«порядок 312»: the word may head an order; alone, or followed by numbers that are no
order («порядок 12»), it is read as an order the engine refuses, so the player learns how
to write one («порядок дня» stays chat)."""


def _numbered(meaning: str) -> re.Pattern[str]:
    """``<form> N`` for the forms of ``meaning`` («рейз 3», «raise3», «korotan 3»)."""
    forms = sorted({_clean(f) for t in FORMS.values() for f in t[meaning]}, key=len, reverse=True)
    return re.compile(rf"(?:{'|'.join(map(re.escape, forms))})\s*(\S.*)")


_RAISE = _numbered("raise")
_BET = _numbered("bet")
_CALL = _numbered("call")
_DROP = _numbered("drop")


def ordinal(word: str) -> int | None:
    """1–4 for an ordinal in any language and case («третью», «3rd», «kolmannen»)."""
    word = _clean(word)
    return next((n for stem, n in _ORDINAL_STEMS.items() if word.startswith(stem)), None)


def _position(word: str) -> int | None:
    """A throw position written as a digit («3», «3-ю») or an ordinal («третью»)."""
    if found := _NUMBERED_POSITION.fullmatch(word):
        return int(found[1])
    return ordinal(word)


def parse_draw_vote(text: str) -> dict[str, Any] | None:
    """«ничья» / «переброс» (draw, reroll; tasapeli, uusintaheitto) → a ``draw_vote``."""
    vote = _VOTE_FORMS.get(_squash(text))
    return None if vote is None else {"type": "draw_vote", "vote": vote}


def parse_choice(text: str) -> dict[str, Any] | None:
    """«атака» / «защита» (attack, defend; hyökkäys, puolustus) → an HP ``choose``."""
    choice = _CHOICE_FORMS.get(_squash(text))
    return None if choice is None else {"type": "choose", "choice": choice}


def parse_bet(text: str) -> dict[str, Any] | None:
    """«чек», «колл», «рейз N», «фолд», «олл-ин» and their forms → a ``bet``; «ставка N»,
    "bet N", «panos N», the poker word for a first bet, is the engine's ``bet`` (a raise
    while nothing is owed, refused with what is owed otherwise); also «колл N», a call as
    its button shows it (the engine checks that N is what is owed), and «рейз» without a
    whole number (a raise without its amount, refused with the amounts allowed)."""
    action = _BET_FORMS.get(_squash(text))
    if action is not None:
        return {"type": "bet", "action": action}
    for action, pattern in (("raise", _RAISE), ("bet", _BET), ("call", _CALL)):
        found = pattern.fullmatch(_clean(text))
        if found is not None and found[1].isdecimal():
            return {"type": "bet", "action": action, "amount": int(found[1])}
    words = _clean(text).split(maxsplit=1)
    if words and (alone := _RAISE_ALONE.get(_squash(words[0]))):  # «рейз», «рейз 5 фишек»:
        return {"type": "bet", "action": alone}  # the engine answers with the amounts it takes
    return None


def parse_order(text: str) -> dict[str, Any] | None:
    """«третья, первая, вторая», «3,1,2», «312», «3-я, 1-я, 2-я», "third, first and second",
    each may be headed by «порядок» (order, järjestys) → a ``declare``.

    Any three positions are read; the engine refuses what is not an order of
    1, 2 and 3 (``bad_order``).
    """
    cleaned = _clean(text)
    head, _, rest = cleaned.partition(" ")
    headed = _squash(head.rstrip(":")) in _ORDER_WORDS
    if headed:
        cleaned = rest.lstrip(": ")
    if found := _DIGITS.fullmatch(cleaned):
        return {"type": "declare", "order": [int(digit) for digit in found.groups()]}
    words = [
        word
        for word in _ORDER_SEPARATORS.split(cleaned)
        if word and word not in _CONNECTORS and word not in _DIGIT_ENDINGS
    ]
    positions = _three_positions(words)
    if positions is None:
        tried = headed and (not words or any(c.isdecimal() for c in cleaned))
        return {"type": "declare", "order": None} if tried else None
    return {"type": "declare", "order": positions}


def _three_positions(words: list[str]) -> list[int] | None:
    """The positions of exactly three ``words``, each naming one, else None. Counted first
    and read only up to the first word that names none: every text typed in a group is read
    for an order, and almost none is one (a bet, a darts visit, chatter)."""
    if len(words) != 3:
        return None
    positions = []
    for word in words:
        if (position := _position(word)) is None:
            return None
        positions.append(position)
    return positions


def parse_drop(text: str) -> dict[str, Any] | None:
    """«убираю 3» (drop 3, poistan 3), also «убираю 3-ю», «убираю третью» → a ``declare``;
    «убираю» alone is a drop without its die (refused with the dice that may go)."""
    if _squash(text) in _DROP_ALONE:
        return {"type": "declare", "drop": None}
    found = _DROP.fullmatch(_clean(text))
    if found is None:
        return None
    words = [w for w in found[1].split() if w not in _CONNECTORS]
    if len(words) != 1:
        return None
    position = int(words[0]) if words[0].isdecimal() else _position(words[0])
    return None if position is None else {"type": "declare", "drop": position}


PARSERS = (parse_draw_vote, parse_choice, parse_bet, parse_drop, parse_order)


def parse_word(text: str) -> dict[str, Any] | None:
    """Whichever Cup word ``text`` is, as an action without ``"player"``; None if none.

    No text reads as two kinds of word, so the order of :data:`PARSERS` does not matter.
    """
    return next((action for parse in PARSERS if (action := parse(text)) is not None), None)
