"""The live Bot API session: aiogram's ``AiohttpSession`` with lean requests and answers.

A request: aiogram posts every call as a form built from ``method.model_dump()``, every field
of every nested object with its ``None``s (an inline button has fifteen), walking that tree
value by value (``prepare_value``: eight type checks each) to drop the ``None``s, put in the
bot's defaults and attach files: a darts board's edit, whose 23 keys make about 400 values,
took 0.44 ms of the event loop to build. Here the dump leaves the ``None`` fields out at once
and the walk passes plain values (text, numbers, booleans) as they are, handing every other
value to aiogram's own ``prepare_value``; the keyboard, most of such a request, is written as
JSON by pydantic in one call; the bot's defaults (parse mode, link preview options), which
aiogram resolves and prepares again for each request, are prepared once. A call that carries
no file (nearly all) is posted as a JSON body, which the Bot API takes as the form it stands
for (a string field as it is, any other value as its JSON), written by pydantic-core in one
call instead of a form filled field by field; a call with a file (a picture) is posted as
aiogram's multipart form, written into one body at once when its files are held in memory
(:func:`multipart`: aiohttp would build the form's writer and a payload for each field as
it posts, and read the picture through an async generator). Either way the same fields as
aiogram's form, field for field, and a form's parts the same as those aiohttp writes for
aiogram (``tests/bot/test_telegram_session.py`` compares them).

An answer is parsed without the keyboard Telegram echoes back, and a successful one's result
by its method's own result type (:mod:`bot.api_answers`); an error is aiogram's to read.
"""

from __future__ import annotations

from http import HTTPStatus
from secrets import token_hex
from typing import Any

from aiogram import Bot
from aiogram.client.default import Default, DefaultBotProperties
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.exceptions import TelegramNetworkError
from aiogram.methods import Response, TelegramMethod
from aiogram.methods.base import TelegramType
from aiogram.types import BufferedInputFile, InputFile
from aiohttp import BytesPayload, ClientError, FormData
from pydantic import BaseModel
from pydantic_core import to_json

from bot import api_answers
from bot.method_fields import field

_AS_IS = frozenset({str, int, float, bool})
_SUCCESSFUL = range(HTTPStatus.OK, HTTPStatus.IM_USED + 1)
"""The HTTP statuses aiogram takes for a success (read once, not through the enum per call)."""
_SUCCESS = {"ok", "result"}
"""The fields of a successful answer."""
_LEFT_OUT = (None, "")
"""Prepared values aiogram's form leaves out: nothing, or an empty text."""
KEYBOARD = "reply_markup"
"""A message's keyboard: buttons of texts, links and flags, never a default, a file or a
date, so pydantic writes its JSON at once (its biggest part, and the same JSON as aiogram's
but for the spacing)."""


class TelegramSession(AiohttpSession):
    def __init__(self, **options: Any) -> None:
        super().__init__(**({"json_loads": api_answers.loads} | options))
        self._defaults: dict[tuple[str, bool], tuple[DefaultBotProperties, Any]] = {}

    async def make_request(self, bot: Bot, method: TelegramMethod[TelegramType],
                           timeout: int | None = None) -> TelegramType:
        """aiogram's ``make_request`` posting :meth:`build_request`'s body instead of a form
        always: the same timeout, network errors and checks of the answer."""
        session = await self.create_session()
        url = self.api.api_url(token=bot.token, method=method.__api_method__)
        try:
            async with session.post(url, data=self.build_request(bot, method),
                                    timeout=self.timeout if timeout is None else timeout) as resp:
                content = await resp.text()
        except TimeoutError as error:
            raise TelegramNetworkError(method=method, message="Request timeout error") from error
        except ClientError as error:
            raise TelegramNetworkError(
                method=method, message=f"{type(error).__name__}: {error}") from error
        return self.check_response(bot=bot, method=method, status_code=resp.status,
                                   content=content).result

    def check_response(self, bot: Bot, method: TelegramMethod[TelegramType], status_code: int,
                       content: str) -> Response[TelegramType]:
        """aiogram's check of an answer; a successful one read by :meth:`_success`, anything
        else (an error, an answer that does not parse) by aiogram, which raises."""
        if status_code in _SUCCESSFUL:
            try:
                return self._success(bot, method, self.json_loads(content))
            except (ValueError, LookupError):  # pydantic's ValidationError is a ValueError
                pass
        return super().check_response(bot=bot, method=method, status_code=status_code,
                                      content=content)

    def _success(self, bot: Bot, method: TelegramMethod[TelegramType], data: Any
                 ) -> Response[TelegramType]:
        """A successful answer (``ok`` and a result, nothing else) read by its method's result
        type (:func:`api_answers.result`); LookupError for any other."""
        if type(data) is not dict or data.keys() != _SUCCESS or data["ok"] is not True:
            raise LookupError("not a successful answer")
        return Response(ok=True, result=api_answers.result(bot, type(method), data["result"]))

    def build_request(self, bot: Bot, method: TelegramMethod) -> BytesPayload | FormData:
        """What a call posts: its fields as a JSON body, or as a multipart form when it
        carries a file."""
        files: dict[str, InputFile] = {}
        fields = self._fields(bot, method, files)
        keyboard: BaseModel | None = field(method, KEYBOARD)
        if files:
            return self._form(bot, fields, keyboard, files)
        if keyboard is not None:
            fields[KEYBOARD] = keyboard
        return BytesPayload(to_json(fields, exclude_none=True), content_type="application/json")

    def _fields(self, bot: Bot, method: TelegramMethod, files: dict[str, InputFile]
                ) -> dict[str, Any]:
        """The call's fields but its keyboard, prepared as plain values (a file is put in
        ``files``, its field names it) and without those aiogram's form leaves out."""
        dumped = method.model_dump(warnings=False, exclude_none=True, exclude={KEYBOARD})
        return {key: value for key, raw in dumped.items()
                if (value := self.prepare_value(raw, bot=bot, files=files, _dumps_json=False))
                not in _LEFT_OUT}

    def _form(self, bot: Bot, fields: dict[str, Any], keyboard: BaseModel | None,
              files: dict[str, InputFile]) -> BytesPayload | FormData:
        """aiogram's multipart form of a call with files: a field that is not a text is
        sent as its JSON, written by pydantic-core as a JSON body is (the standard library's
        encoder took a microsecond or two a field: a chat id, a message id, the media); files
        held in memory (all the bot's own) written into one body at once
        (:func:`multipart`), any other read by aiohttp as aiogram has it read."""
        texts = {key: value if type(value) is str else to_json(value).decode()
                 for key, value in fields.items()}
        if keyboard is not None:
            texts[KEYBOARD] = keyboard.model_dump_json(exclude_none=True)
        if all(type(file) is BufferedInputFile for file in files.values()):
            return multipart(texts, {key: (file.filename or key, file.data)
                                     for key, file in files.items()})
        form = FormData(quote_fields=False)
        for key, text in texts.items():
            form.add_field(key, text)
        for key, file in files.items():
            form.add_field(key, file.read(bot), filename=file.filename or key)
        return form

    def prepare_value(self, value: Any, bot: Bot, files: dict[str, Any],
                      _dumps_json: bool = True) -> Any:
        """aiogram's ``prepare_value`` (a field's value as sent), with texts, whole numbers
        and the plain values of a nested object or list taken as they are, and the bot's
        defaults prepared once."""
        kind = type(value)
        if kind is str:
            return value
        if kind is int:  # a field's number is sent as its JSON, which for an int is str()
            return str(value) if _dumps_json else value
        if kind is dict or kind is list:
            plain = self._plain(value, bot, files)
            return self.json_dumps(plain) if _dumps_json else plain
        if kind is Default:
            return self._default(value.name, bot, files, _dumps_json)
        return super().prepare_value(value, bot=bot, files=files, _dumps_json=_dumps_json)

    def _plain(self, value: Any, bot: Bot, files: dict[str, Any]) -> Any:
        """``value`` nested in a field: ``None``s dropped from dicts and lists, as aiogram
        drops them; defaults (kept, as a field's are), files, dates and enums as aiogram
        prepares them."""
        kind = type(value)
        if kind in _AS_IS:
            return value
        if kind is Default:
            return self._default(value.name, bot, files, False)
        if kind is dict:
            return {key: item for key, raw in value.items()
                    if (item := self._plain(raw, bot, files)) is not None}
        if kind is list:
            return [item for raw in value if (item := self._plain(raw, bot, files)) is not None]
        return super().prepare_value(value, bot=bot, files=files, _dumps_json=False)

    def _default(self, name: str, bot: Bot, files: dict[str, Any], dumps: bool) -> Any:
        """A bot default (a parse mode, the link preview options) as sent: aiogram resolves
        and prepares it again for every request, three of them in most (a dozen type checks,
        and for the link preview options a dump and a walk: about 5 µs); here it is prepared
        once per bot's defaults and kept, a dict too: a request's prepared fields are only
        written out (as its JSON body or its form's texts), never changed."""
        held = self._defaults.get((name, dumps))
        if held is not None and held[0] is bot.default:
            return held[1]
        prepared = super().prepare_value(bot.default[name], bot=bot, files=files,
                                         _dumps_json=dumps)
        self._defaults[name, dumps] = (bot.default, prepared)
        return prepared


_TEXT_PART = b"Content-Type: text/plain; charset=utf-8\r\n"
_FILE_PART = b"Content-Type: application/octet-stream\r\n"
"""The content types aiohttp's form gives a text field and a file given without one."""


def multipart(texts: dict[str, str], files: dict[str, tuple[str, bytes]]) -> BytesPayload:
    """The body aiohttp's ``FormData(quote_fields=False)`` writes for these texts and files
    (``{name: (filename, bytes)}``), the same parts with the same headers, written at once:
    a form builds a writer, then a payload and its headers for every field as it is posted,
    and reads each file through an async generator in chunks."""
    boundary = token_hex(16)  # aiohttp's: 32 random hex digits
    dash = f"--{boundary}\r\n".encode()
    chunks: list[bytes] = []
    for name, text in texts.items():
        chunks += (dash, _TEXT_PART, _disposition(name), text.encode(), b"\r\n")
    for name, (filename, data) in files.items():
        chunks += (dash, _FILE_PART, _disposition(name, filename), data, b"\r\n")
    chunks.append(f"--{boundary}--\r\n".encode())
    return BytesPayload(b"".join(chunks),
                        content_type=f"multipart/form-data; boundary={boundary}")


def _disposition(name: str, filename: str | None = None) -> bytes:
    """A part's Content-Disposition header line and the blank line that ends its headers, as
    aiohttp's ``content_disposition_header`` writes them unquoted (``quote_fields=False``)."""
    header = f'form-data; name="{_escaped(name)}"'
    if filename is not None:
        header += f'; filename="{_escaped(filename)}"'
    return f"Content-Disposition: {header}\r\n\r\n".encode()


def _escaped(value: str) -> str:
    """``value`` in a header's double quotes: its backslashes and quotes escaped."""
    return value.replace("\\", "\\\\").replace('"', '\\"')
