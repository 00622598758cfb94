"""The live session's lean requests, JSON bodies and multipart forms, send aiogram's own
forms, field for field, and its requests go out as the Bot API takes them
(bot/telegram_session.py)."""

import asyncio
import json
import re
from datetime import UTC, datetime, timedelta
from email import message_from_bytes
from email.policy import HTTP

import pytest
from aiogram import Bot
from aiogram.client.default import DefaultBotProperties
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.enums import ParseMode
from aiogram.exceptions import TelegramBadRequest, TelegramNetworkError
from aiogram.methods import (
    AnswerCallbackQuery,
    BanChatMember,
    CreateForumTopic,
    DeleteMessage,
    EditMessageCaption,
    EditMessageMedia,
    EditMessageReplyMarkup,
    EditMessageText,
    GetChatMember,
    SendDice,
    SendDocument,
    SendMediaGroup,
    SendMessage,
    SendPhoto,
    SetMyCommands,
    SetWebhook,
)
from aiogram.types import (
    BotCommand,
    BotCommandScopeChat,
    BufferedInputFile,
    ForceReply,
    FSInputFile,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputMediaPhoto,
    LinkPreviewOptions,
    ReplyParameters,
)
from aiohttp import BytesPayload, FormData, web
from aiohttp.helpers import content_disposition_header

from bot.api_answers import loads
from bot.config import Settings
from bot.live import make_session
from bot.telegram_session import TelegramSession, _disposition

KEYPAD = InlineKeyboardMarkup(inline_keyboard=[
    [InlineKeyboardButton(text=f"{m}{sector}", callback_data=f"dt:12:1.3.1:{m}{sector}")
     for m in "SDT"] for sector in (20, 19, 18)] + [[
        InlineKeyboardButton(text="Открыть чат", url="https://t.me/bot?start=reg-5"),
        InlineKeyboardButton(text="", callback_data="x")]])
PICTURE = BufferedInputFile(b"\x89PNG...", filename="board.png")

METHODS = [
    SendMessage(chat_id=-100, text="<b>Доска</b> &amp; ✅", reply_markup=KEYPAD),
    SendMessage(chat_id=5, text="plain", parse_mode=None, disable_notification=False,
                link_preview_options=LinkPreviewOptions(is_disabled=True),
                reply_parameters=ReplyParameters(message_id=3)),
    SendMessage(chat_id=-100, text="md", parse_mode=ParseMode.MARKDOWN_V2, message_thread_id=7),
    SendMessage(chat_id=5, text="Имя?", reply_markup=ForceReply(input_field_placeholder="Имя")),
    EditMessageText(chat_id=-100, message_id=9, text="board", reply_markup=KEYPAD),
    EditMessageReplyMarkup(chat_id=-100, message_id=9, reply_markup=None),
    EditMessageCaption(chat_id=-100, message_id=9, caption="<i>c</i>"),
    EditMessageMedia(chat_id=-100, message_id=9, reply_markup=KEYPAD,
                     media=InputMediaPhoto(media=PICTURE, caption="after 13/9 13/8")),
    SendPhoto(chat_id=-100, photo=PICTURE, caption="table", reply_markup=KEYPAD),
    SendDocument(chat_id=7, document=BufferedInputFile(b"a,b\n", filename="export.csv")),
    SendMediaGroup(chat_id=-100, media=[InputMediaPhoto(media=PICTURE),
                                        InputMediaPhoto(media="file-id-2", caption="2")]),
    SendDice(chat_id=-100, emoji="🎲"),
    AnswerCallbackQuery(callback_query_id="q", text="Not your turn", show_alert=True,
                        cache_time=0),
    DeleteMessage(chat_id=-100, message_id=9),
    GetChatMember(chat_id=-100, user_id=5),
    CreateForumTopic(chat_id=-100, name="Round 1", icon_color=7322096),
    SetMyCommands(commands=[BotCommand(command="roll", description="Бросить")],
                  scope=BotCommandScopeChat(chat_id=-100), language_code="ru"),
    SetWebhook(url="https://example.org/telegram/webhook", secret_token="s",
               allowed_updates=["message", "callback_query"]),
    BanChatMember(chat_id=-100, user_id=5, until_date=datetime(2026, 12, 3, tzinfo=UTC)),
]


def _multipart(content_type: str, body: bytes) -> list[tuple[str, str | None, str, bytes]]:
    """A multipart body parsed back: each part's name, file name, content type and bytes."""
    parsed = message_from_bytes(f"Content-Type: {content_type}\r\n\r\n".encode() + body,
                                policy=HTTP)
    assert parsed.is_multipart() and not parsed.defects
    return [(part.get_param("name", header="content-disposition"), part.get_filename(),
             part["content-type"], part.get_payload(decode=True))
            for part in parsed.iter_parts()]


class _Sink:
    """Where aiohttp writes a request's body."""

    def __init__(self) -> None:
        self.body = bytearray()

    async def write(self, chunk: bytes) -> None:
        self.body += chunk


async def _posted(request: BytesPayload | FormData) -> tuple[str, bytes]:
    """The content type and body aiohttp posts for ``request``."""
    payload = request() if isinstance(request, FormData) else request
    sink = _Sink()
    await payload.write(sink)
    return payload.content_type if isinstance(request, BytesPayload) else payload.headers[
        "Content-Type"], bytes(sink.body)


def _form(request: BytesPayload | FormData) -> list[tuple]:
    """The form fields a request stands for: the Bot API reads each field of a JSON body as
    a form field, a text as it is and any other value as its JSON."""
    if isinstance(request, FormData):
        return request._fields
    if request.content_type.startswith("multipart/form-data"):
        return [({"name": name} | ({} if filename is None else {"filename": filename}), {},
                 data if filename else data.decode())
                for name, filename, _kind, data in _multipart(request.content_type,
                                                              request._value)]
    assert request.content_type == "application/json"
    return [({"name": name}, {}, value if isinstance(value, str) else json.dumps(value))
            for name, value in json.loads(request._value).items()]


def _fields(request: BytesPayload | FormData) -> list[tuple]:
    """A request's fields by name (their order means nothing to the Bot API: the lean
    request puts the keyboard last), with each file's random attach name replaced by its
    order."""
    names: dict[str, str] = {}

    def same(text: str) -> str:
        return re.sub(r"attach://([\w-]+)",
                      lambda m: "attach://" + names.setdefault(m[1], str(len(names))), text)
    fields = []
    for options, _headers, value in _form(request):
        if "filename" in options:  # a file's field is named by its attach name
            fields.append((names[options["name"]], "file", options["filename"]))
        elif value[:1] in ("{", "["):  # JSON: the same data, whatever the spacing
            fields.append((options["name"], json.loads(same(value))))
        else:
            fields.append((options["name"], same(value)))
    return sorted(fields, key=lambda field: field[0])


DEFAULTS = {"none": DefaultBotProperties(parse_mode=None),
            "html": DefaultBotProperties(parse_mode="HTML"),
            "live": DefaultBotProperties(parse_mode="HTML", link_preview_is_disabled=True)}
"""The bot's defaults: none, a parse mode, and the live bot's own (``bot/app.py``)."""


@pytest.mark.parametrize("method", METHODS, ids=lambda m: type(m).__name__)
@pytest.mark.parametrize("defaults", DEFAULTS)
async def test_the_lean_request_is_aiograms_form(method, defaults):
    bot = Bot("1:a", default=DEFAULTS[defaults])
    stock, lean = AiohttpSession(), TelegramSession()
    try:
        assert _fields(lean.build_request(bot, method)) == _fields(
            stock.build_form_data(bot, method))
        assert _fields(lean.build_request(bot, method)) == _fields(  # defaults prepared once
            stock.build_form_data(bot, method))
    finally:
        await stock.close()
        await lean.close()


FILED = [method for method in METHODS if type(method) in (
    EditMessageMedia, SendPhoto, SendDocument, SendMediaGroup)]


@pytest.mark.parametrize("method", FILED, ids=lambda m: type(m).__name__)
async def test_a_form_posts_the_parts_aiogram_posts(method):
    """The body posted for a call with files, parsed back as multipart, has aiogram's form's
    parts: the same names, texts (JSON the same data, whatever the spacing), file names,
    content types and file bytes (its random attach names replaced by their order)."""
    bot = Bot("1:a", default=DEFAULTS["live"])
    stock, lean = AiohttpSession(), TelegramSession()
    mine = await _posted(lean.build_request(bot, method))
    theirs = await _posted(stock.build_form_data(bot, method))
    assert not isinstance(lean.build_request(bot, method), FormData)

    def parts(posted: tuple[str, bytes]) -> list[tuple]:
        names: dict[str, str] = {}

        def same(data: bytes) -> str:
            text = re.sub(r"attach://([\w-]+)", lambda m: "attach://" + names.setdefault(
                m[1], str(len(names))), data.decode())
            return json.loads(text) if text[:1] in ("{", "[") else text
        texts = [(name, filename, kind, same(data)) for name, filename, kind, data
                 in _multipart(*posted) if filename is None]
        files = [(names[name], filename, kind, data) for name, filename, kind, data
                 in _multipart(*posted) if filename is not None]
        return sorted(texts, key=lambda part: part[0]) + sorted(files)
    assert parts(mine) == parts(theirs)
    assert any(data == PICTURE.data or data == b"a,b\n" for *_, data in parts(mine))
    await stock.close()
    await lean.close()


@pytest.mark.parametrize("name, filename", [("chat_id", None), ("a1B-_", "board.png"),
                                            ('say "hi"\\', 'x\\"y.png'), ("имя", "файл.csv")])
def test_a_parts_disposition_is_aiohttps(name, filename):
    names = {"name": name} | ({} if filename is None else {"filename": filename})
    header = content_disposition_header("form-data", quote_fields=False, **names)
    assert _disposition(name, filename) == f"Content-Disposition: {header}\r\n\r\n".encode()


async def test_a_file_read_from_elsewhere_is_posted_as_aiogram_reads_it(tmp_path):
    """Only files held in memory are written into the body at once; any other is left in
    aiogram's form, which reads it as it is posted."""
    (tmp_path / "export.csv").write_bytes(b"a,b\n")
    bot = Bot("1:a")
    stock, lean = AiohttpSession(), TelegramSession()
    method = SendDocument(chat_id=7, document=FSInputFile(tmp_path / "export.csv"))
    form = lean.build_request(bot, method)
    assert isinstance(form, FormData)
    assert _fields(form) == _fields(stock.build_form_data(bot, method))
    await stock.close()
    await lean.close()


async def test_bots_sharing_the_session_each_send_their_own_defaults():
    lean, stock = TelegramSession(), AiohttpSession()
    method = SendMessage(chat_id=5, text="hi")
    try:
        for _ in range(2):
            for defaults in DEFAULTS.values():
                bot = Bot("1:a", default=defaults, session=lean)
                assert _fields(lean.build_request(bot, method)) == _fields(
                    stock.build_form_data(bot, method))
    finally:
        await stock.close()
        await lean.close()


async def test_a_timedelta_is_sent_as_the_moment_it_points_to():
    bot = Bot("1:a")
    session = TelegramSession()
    method = BanChatMember(chat_id=-100, user_id=5, until_date=timedelta(seconds=60))
    sent = {options["name"]: value for options, _h, value
            in _form(session.build_request(bot, method))}
    assert abs(int(sent["until_date"]) - datetime.now().timestamp() - 60) < 5
    await session.close()


async def test_the_live_session_is_lean_both_ways():
    session = make_session(Settings(bot_token=None))
    assert isinstance(session, TelegramSession)
    assert session.json_loads is loads
    await session.close()


async def test_a_call_without_a_file_is_a_json_body_with_its_keyboard_as_an_object():
    bot = Bot("1:a", default=DEFAULTS["live"])
    session = TelegramSession()
    request = session.build_request(bot, EditMessageText(chat_id=-100, message_id=9,
                                                         text="board", reply_markup=KEYPAD))
    assert isinstance(request, BytesPayload) and request.content_type == "application/json"
    assert json.loads(request._value) == {
        "chat_id": -100, "message_id": 9, "text": "board", "parse_mode": "HTML",
        "link_preview_options": {"is_disabled": True}, "disable_web_page_preview": True,
        "reply_markup": KEYPAD.model_dump(exclude_none=True)}
    await session.close()


async def test_a_call_with_a_file_is_a_multipart_form():
    bot = Bot("1:a")
    session = TelegramSession()
    form = session.build_request(bot, SendPhoto(chat_id=-100, photo=PICTURE, caption="t",
                                                reply_markup=KEYPAD))
    assert form.content_type.startswith("multipart/form-data; boundary=")
    sent = {options["name"]: options.get("filename", value)
            for options, _h, value in _form(form)}
    assert sent[sent["photo"].removeprefix("attach://")] == "board.png"
    assert json.loads(sent["reply_markup"]) == KEYPAD.model_dump(exclude_none=True)
    await session.close()


@pytest.fixture
async def telegram():
    """A local stand-in for the Bot API over HTTP: it keeps what each call posted and
    answers with ``answers`` (a JSON answer, or seconds to wait before answering)."""
    posted: list[tuple[str, str, dict]] = []
    answers: list = []

    async def call(request: web.Request) -> web.Response:
        if request.content_type == "application/json":
            posted.append((request.match_info["method"], request.content_type,
                           await request.json()))
        else:
            form = await request.post()
            posted.append((request.match_info["method"], request.content_type,
                           {name: getattr(value, "filename", value)
                            for name, value in form.items()}))
        answer = answers.pop(0)
        if isinstance(answer, float):
            await asyncio.sleep(answer)
            answer = {"ok": True, "result": True}
        return web.json_response(answer, status=200 if answer["ok"] else 400)

    app = web.Application()
    app.router.add_post("/bot{token}/{method}", call)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]
    session = TelegramSession(api=TelegramAPIServer.from_base(f"http://127.0.0.1:{port}"))
    yield Bot("1:a", session=session), posted, answers
    await session.close()
    await runner.cleanup()


MESSAGE = {"message_id": 9, "date": 1764720000, "chat": {"id": -100, "type": "group"},
           "text": "board", "reply_markup": KEYPAD.model_dump(exclude_none=True)}


async def test_the_live_session_posts_json_and_forms_and_reads_the_answers(telegram):
    bot, posted, answers = telegram
    answers += [{"ok": True, "result": MESSAGE}, {"ok": True, "result": MESSAGE | {
        "photo": [{"file_id": "f", "file_unique_id": "u", "width": 1, "height": 1}]}}]
    sent = await bot.send_message(-100, "board", reply_markup=KEYPAD)
    assert sent.message_id == 9 and sent.reply_markup is None  # the echoed keyboard unread
    await bot.send_photo(-100, PICTURE, reply_markup=KEYPAD)
    (method, kind, body), (photo, multipart, form) = posted
    assert (method, kind) == ("sendMessage", "application/json")
    assert body == {"chat_id": -100, "text": "board", "reply_markup": KEYPAD.model_dump(
        exclude_none=True)}
    assert (photo, multipart) == ("sendPhoto", "multipart/form-data")
    assert form[form["photo"].removeprefix("attach://")] == "board.png"


async def test_the_live_session_raises_telegrams_refusals_and_network_errors(telegram):
    bot, _posted, answers = telegram
    answers += [{"ok": False, "error_code": 400, "description": "Bad Request: no text"}, 0.5]
    with pytest.raises(TelegramBadRequest, match="no text"):
        await bot.send_message(-100, "x")
    with pytest.raises(TelegramNetworkError, match="timeout"):
        await bot.send_message(-100, "x", request_timeout=0.1)
