"""The checks Telegram makes before it accepts a message, so the sandbox refuses what
Telegram would refuse, with Telegram's own error text.

The HTML rules follow Telegram's parser (the "HTML style" of the Bot API's formatting
options): a closed list of tags, every tag closed in order, only ``&lt; &gt; &amp; &quot;``
and numeric character references decoded (any other ``&`` stays as it is written).
"""

from __future__ import annotations

import re
from typing import Any

TEXT_LIMIT = 4096
CAPTION_LIMIT = 1024
CALLBACK_DATA_LIMIT = 64
TOAST_LIMIT = 200
TAGS = {"a", "b", "strong", "i", "em", "u", "ins", "s", "strike", "del", "span", "tg-spoiler",
        "tg-emoji", "code", "pre", "blockquote"}
_NAMED = {"lt": "<", "gt": ">", "amp": "&", "quot": '"'}
_ENTITY = re.compile(r"&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([a-zA-Z]+));")
_PLAIN = re.compile(r"[^&<]+")
_ATTRIBUTE = re.compile(r"""\s*([^\s=>]*)\s*(?:=\s*("[^"]*"|'[^']*'|[^\s>]*))?""")


class Refused(Exception):
    """What Telegram answers with 400 Bad Request; the text follows "Bad Request: "."""


def parse_html(text: str) -> str:
    """The text a reader sees of ``text`` (parse_mode HTML), or :class:`Refused`."""
    out: list[str] = []
    open_tags: list[str] = []
    i = 0
    while i < len(text):
        char = text[i]
        if char == "&":
            decoded, i = _entity(text, i)
            out.append(decoded)
        elif char != "<":
            plain = _PLAIN.match(text, i)  # a run of ordinary characters at once
            out.append(plain.group())
            i = plain.end()
        elif text.startswith("</", i):
            i = _end_tag(text, i, open_tags)
        else:
            i = _start_tag(text, i, open_tags)
    if open_tags:
        raise Refused("can't parse entities: Can't find end tag corresponding to start tag "
                      f'"{open_tags[-1]}"')
    return "".join(out)


def _offset(text: str, i: int) -> int:
    return len(text[:i].encode("utf-8"))


def _entity(text: str, i: int) -> tuple[str, int]:
    match = _ENTITY.match(text, i)
    if match is None:
        return "&", i + 1
    decimal, hexadecimal, name = match.groups()
    if name is not None:
        return (_NAMED[name], match.end()) if name in _NAMED else ("&", i + 1)
    code = int(decimal) if decimal is not None else int(hexadecimal, 16)
    if not 0 < code < 0x110000 or 0xD800 <= code < 0xE000:
        return "&", i + 1
    return chr(code), match.end()


def _start_tag(text: str, i: int, open_tags: list[str]) -> int:
    end = i + 1
    while end < len(text) and not text[end].isspace() and text[end] != ">":
        end += 1
    name = text[i + 1:end].lower()
    if end >= len(text):
        raise Refused(f"can't parse entities: Unclosed start tag at byte offset {_offset(text, i)}")
    if name not in TAGS:
        raise Refused(f'can\'t parse entities: Unsupported start tag "{name}" at byte offset '
                      f"{_offset(text, i)}")
    attributes, end = _attributes(text, end, i)
    if name == "span" and attributes.get("class") != "tg-spoiler":
        raise Refused('can\'t parse entities: Tag "span" must have class "tg-spoiler" at byte '
                      f"offset {_offset(text, i)}")
    open_tags.append(name)
    return end + 1


def _attributes(text: str, i: int, tag_start: int) -> tuple[dict[str, str], int]:
    found: dict[str, str] = {}
    while i < len(text) and text[i] != ">":
        match = _ATTRIBUTE.match(text, i)
        if not match.group(1):
            if match.end() < len(text) and text[match.end()] == ">":
                return found, match.end()
            raise Refused("can't parse entities: Empty attribute name in the tag at byte offset "
                          f"{_offset(text, tag_start)}")
        found[match.group(1).lower()] = (match.group(2) or "").strip("\"'")
        i = match.end()
    if i >= len(text):
        raise Refused("can't parse entities: Unclosed start tag at byte offset "
                      f"{_offset(text, tag_start)}")
    return found, i


def _end_tag(text: str, i: int, open_tags: list[str]) -> int:
    end = text.find(">", i)
    if end < 0:
        raise Refused(f"can't parse entities: Unclosed end tag at byte offset {_offset(text, i)}")
    name = text[i + 2:end].strip().lower()
    if not open_tags:
        raise Refused(f"can't parse entities: Unexpected end tag at byte offset {_offset(text, i)}")
    if name != open_tags[-1]:
        raise Refused(f"can't parse entities: Unmatched end tag at byte offset "
                      f'{_offset(text, i)}, expected "</{open_tags[-1]}>", found "</{name}>"')
    open_tags.pop()
    return end + 1


def message_text(text: str | None, parse_mode: str | None) -> str:
    """The visible text of a message, checked as sendMessage/editMessageText check it."""
    shown = parse_html(text or "") if parse_mode == "HTML" else (text or "")
    if not shown.strip():
        raise Refused("message text is empty")
    if len(shown) > TEXT_LIMIT:
        raise Refused("message is too long")
    return shown


def caption_text(caption: str | None, parse_mode: str | None) -> str:
    shown = parse_html(caption or "") if parse_mode == "HTML" else (caption or "")
    if len(shown) > CAPTION_LIMIT:
        raise Refused("message caption is too long")
    return shown


def check_keyboard(markup: dict[str, Any] | None) -> None:
    for row in (markup or {}).get("inline_keyboard", []):
        for button in row:
            if not button.get("text", "").strip():
                raise Refused("BUTTON_TEXT_INVALID")
            data = button.get("callback_data")
            if data is not None and not 1 <= len(data.encode("utf-8")) <= CALLBACK_DATA_LIMIT:
                raise Refused("BUTTON_DATA_INVALID")


COMMAND = re.compile(r"[a-z0-9_]{1,32}")
MENU_LIMIT, DESCRIPTION_LIMIT = 100, 256


def check_commands(commands: list[Any]) -> None:
    """A command menu as ``setMyCommands`` takes it: at most 100 commands, each 1–32 small
    letters, digits or underscores, described in 1–256 characters."""
    if len(commands) > MENU_LIMIT:
        raise Refused("BOT_COMMANDS_TOO_MUCH")
    for command in commands:
        if not COMMAND.fullmatch(command.command):
            raise Refused("BOT_COMMAND_INVALID")
        if not 1 <= len(command.description) <= DESCRIPTION_LIMIT:
            raise Refused("BOT_COMMAND_DESCRIPTION_INVALID")


ALBUM_SIZES = range(2, 11)


def check_album(media: list[Any]) -> None:
    """``sendMediaGroup`` takes 2–10 pictures."""
    if len(media) not in ALBUM_SIZES:
        raise Refused("MEDIA_GROUP_INVALID: must include 2-10 items")


def check_toast(text: str | None) -> None:
    if text and len(text) > TOAST_LIMIT:
        raise Refused("MESSAGE_TOO_LONG")


REACTION_EMOJI = frozenset({
    "👍", "👎", "❤", "🔥", "🥰", "👏", "😁", "🤔", "🤯", "😱", "🤬",
    "😢", "🎉", "🤩", "🤮", "💩", "🙏", "👌", "🕊", "🤡", "🥱", "🥴",
    "😍", "🐳", "🌚", "🌭", "💯", "🤣", "⚡", "🍌", "🏆", "💔", "🤨",
    "😐", "🍓", "🍾", "💋", "🖕", "😈", "😴", "😭", "🤓", "👻", "👀",
    "🎃", "🙈", "😇", "😨", "🤝", "✍", "🤗", "🫡", "🎅", "🎄", "☃",
    "💅", "🤪", "🗿", "🆒", "💘", "🙉", "🦄", "😘", "💊", "🙊", "😎",
    "👾", "🤷", "😡", "❤\u200d🔥", "👨\u200d💻", "🤷\u200d♂",
    "🤷\u200d♀"})
"""The emoji Telegram takes as a message reaction (ReactionTypeEmoji)."""


def check_reaction(reaction: list[Any] | None) -> None:
    """A bot sets at most one reaction, an emoji of :data:`REACTION_EMOJI`."""
    reaction = reaction or []
    if len(reaction) > 1:
        raise Refused("REACTIONS_TOO_MANY")
    if any(getattr(each, "emoji", None) not in REACTION_EMOJI for each in reaction):
        raise Refused("REACTION_INVALID")
