"""A local stand-in for the Telegram Bot API, served by aiohttp on 127.0.0.1.

It speaks the Bot API's wire format (``POST /bot<token>/<method>`` with a form, multipart or
JSON body; answers ``{"ok": true, "result": ...}`` or ``{"ok": false, "error_code": ...}``),
so the bot under test talks to it through aiogram's real ``AiohttpSession``. Every call is
recorded in :attr:`FakeBotAPI.calls`, including failed ones and the long polls.

Updates are queued with :meth:`FakeBotAPI.feed` and served by ``getUpdates`` with Telegram's
offset semantics (an update is confirmed, and forgotten, once a later ``getUpdates`` asks for
a higher offset). :meth:`FakeBotAPI.redeliver` serves an update again whatever the offset,
which is what Telegram does when the confirming request never arrived.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import random
import re
import time
from collections import defaultdict, deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import web

BOT_USER = {
    "id": 123456, "is_bot": True, "first_name": "Tourney Test", "username": "tourney_test_bot",
    "can_join_groups": True, "can_read_all_group_messages": False,
    "supports_inline_queries": False,
}
LONG_POLL_CAP = 0.5  # seconds: the longest a getUpdates waits, whatever timeout it asks for

# Form fields are strings on the wire; these are decoded before handlers and tests see them.
_JSON_FIELDS = {"reply_markup", "allowed_updates", "entities", "caption_entities",
                "reply_parameters", "link_preview_options", "scope", "commands"}
_INT_FIELDS = {"chat_id", "user_id", "message_id", "offset", "limit", "timeout",
               "reply_to_message_id", "message_thread_id"}
_BOOL_FIELDS = {"show_alert", "drop_pending_updates", "disable_notification",
                "protect_content", "disable_web_page_preview", "allow_sending_without_reply"}
DICE_FACES = {"🎲": 6, "🎯": 6, "🎳": 6, "🏀": 5, "⚽": 5, "🎰": 64}
_TAG = re.compile(r"<[^>]+>")


@dataclass
class Call:
    method: str
    params: dict[str, Any]
    at: float  # loop.time() when the request arrived
    status: int = 200
    result: Any = None


def _decode(key: str, value: Any) -> Any:
    if not isinstance(value, str):
        return value
    if key in _JSON_FIELDS:
        return json.loads(value)
    if key in _INT_FIELDS and re.fullmatch(r"-?\d+", value):
        return int(value)
    if key in _BOOL_FIELDS:
        return value == "true"
    return value


class FakeBotAPI:
    def __init__(self, token: str, *, seed: int = 0) -> None:
        self.token = token
        self.calls: list[Call] = []
        self.creators: dict[int, int] = {}  # chat id -> the user who created the group
        self.chats: dict[int, dict] = {}  # chats seen in fed updates, echoed in results
        self._pending: list[dict] = []
        self._redeliver: list[dict] = []
        self._failures: defaultdict[str, deque[tuple[int, dict]]] = defaultdict(deque)
        self._delays: defaultdict[str, deque[float]] = defaultdict(deque)
        self._drops: defaultdict[str, int] = defaultdict(int)
        self._update_ids = itertools.count(1000)
        self._message_ids = itertools.count(5000)
        self._changed = asyncio.Event()
        self._closing = False
        self._rng = random.Random(seed)
        self._runner: web.AppRunner | None = None
        self.base_url = ""

    # ---- server lifetime -------------------------------------------------------------

    async def start(self) -> str:
        app = web.Application()
        app.router.add_post("/bot{token}/{method}", self._handle)
        self._runner = web.AppRunner(app, shutdown_timeout=1.0, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # the random free port picked
        self.base_url = f"http://127.0.0.1:{port}"
        return self.base_url

    async def stop(self) -> None:
        self._closing = True
        self._changed.set()  # a long poll in progress answers at once
        if self._runner is not None:
            await self._runner.cleanup()

    # ---- what tests use ----------------------------------------------------------------

    def feed(self, *updates: dict) -> None:
        self._pending.extend(updates)
        self._changed.set()

    def redeliver(self, update: dict) -> None:
        """Serve ``update`` once more on the next poll, even though its offset was confirmed."""
        self._redeliver.append(update)
        self._changed.set()

    def fail_next(self, method: str, status: int, body: dict) -> None:
        """Answer the next call of ``method`` with this HTTP status and JSON body."""
        self._failures[method].append((status, body))

    def drop_next(self, method: str) -> None:
        """Close the connection on the next call of ``method`` without answering it
        (recorded with status 0)."""
        self._drops[method] += 1

    def delay_next(self, method: str, seconds: float) -> None:
        """Hold the next call of ``method`` this long before answering it."""
        self._delays[method].append(seconds)

    def calls_to(self, method: str, **params: Any) -> list[Call]:
        return [c for c in self.calls if c.method == method
                and all(c.params.get(k) == v for k, v in params.items())]

    async def wait_for(self, predicate: Callable[[Call], bool], *, count: int = 1,
                       timeout: float = 10.0, what: str = "calls") -> list[Call]:
        """Wait (bounded) until at least ``count`` recorded calls match ``predicate``."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            found = [c for c in self.calls if predicate(c)]
            if len(found) >= count:
                return found
            if loop.time() > deadline:
                seen = [(c.method, c.status, c.params.get("chat_id"), c.params.get("text"))
                        for c in self.calls if c.method != "getUpdates"]
                raise AssertionError(f"timed out waiting for {count} {what}; got {found!r};"
                                     f" calls: {seen!r}")
            await asyncio.sleep(0.02)

    @property
    def unknown_methods(self) -> list[str]:
        return [c.method for c in self.calls if c.status == 404]

    # ---- building updates --------------------------------------------------------------

    def message_update(self, chat: dict, user: dict, text: str | None = None, *,
                       photo_file_id: str | None = None, update_id: int | None = None) -> dict:
        self.chats[chat["id"]] = chat
        message: dict[str, Any] = {"message_id": next(self._message_ids),
                                   "date": int(time.time()), "chat": chat, "from": user}
        if text is not None:
            message["text"] = text
            if text.startswith("/"):
                message["entities"] = [{"type": "bot_command", "offset": 0,
                                        "length": len(text.split()[0])}]
        if photo_file_id is not None:
            message["photo"] = [{"file_id": photo_file_id, "file_unique_id": "u" + photo_file_id,
                                 "width": 1280, "height": 720}]
        return {"update_id": update_id or next(self._update_ids), "message": message}

    def callback_update(self, user: dict, data: str, message: dict) -> dict:
        update_id = next(self._update_ids)
        return {"update_id": update_id, "callback_query": {
            "id": f"cbq-{update_id}", "from": user, "chat_instance": "ci-1", "data": data,
            "message": message}}

    # ---- the Bot API ---------------------------------------------------------------------

    async def _handle(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        params = await self._params(request)
        call = Call(method, params, asyncio.get_running_loop().time())
        self.calls.append(call)
        if request.match_info["token"] != self.token:
            return self._error(call, 401, "Unauthorized")
        if self._delays[method]:
            await asyncio.sleep(self._delays[method].popleft())
        if self._drops[method]:
            self._drops[method] -= 1
            call.status = 0
            request.transport.close()
            return web.Response()  # never written: the connection is gone
        if self._failures[method]:
            status, body = self._failures[method].popleft()
            call.status = status
            return web.json_response(body, status=status)
        handler = getattr(self, f"_api_{method}", None)
        if handler is None:
            return self._error(call, 404, "Not Found: method not found")
        result = await handler(params)
        call.result = result
        return web.json_response({"ok": True, "result": result})

    @staticmethod
    async def _params(request: web.Request) -> dict[str, Any]:
        if request.content_type == "application/json":
            raw = await request.json()
        elif request.can_read_body:
            form = await request.post()
            raw = {key: (value if isinstance(value, str) else f"<file {value.filename}>")
                   for key, value in form.items()}
        else:
            raw = dict(request.query)
        return {key: _decode(key, value) for key, value in raw.items()}

    @staticmethod
    def _error(call: Call, code: int, description: str) -> web.Response:
        call.status = code
        return web.json_response({"ok": False, "error_code": code, "description": description},
                                 status=code)

    def _chat(self, chat_id: int) -> dict:
        if chat_id in self.chats:
            return self.chats[chat_id]
        if chat_id > 0:
            return {"id": chat_id, "type": "private", "first_name": f"user{chat_id}"}
        return {"id": chat_id, "type": "supergroup", "title": f"group{chat_id}"}

    def _message(self, params: dict, **content: Any) -> dict:
        message = {"message_id": next(self._message_ids), "date": int(time.time()),
                   "chat": self._chat(params["chat_id"]), "from": BOT_USER, **content}
        if params.get("reply_markup"):
            message["reply_markup"] = params["reply_markup"]
        return message

    async def _api_getMe(self, params: dict) -> dict:
        return BOT_USER

    async def _api_deleteWebhook(self, params: dict) -> bool:
        return True

    async def _api_setWebhook(self, params: dict) -> bool:
        return True

    async def _api_setMyCommands(self, params: dict) -> bool:
        return True

    async def _api_getUpdates(self, params: dict) -> list[dict]:
        offset, limit = params.get("offset"), params.get("limit") or 100
        loop = asyncio.get_running_loop()
        deadline = loop.time() + min(params.get("timeout") or 0, LONG_POLL_CAP)
        while True:
            if offset is not None:  # a higher offset confirms everything below it
                self._pending = [u for u in self._pending if u["update_id"] >= offset]
            batch, self._redeliver = self._redeliver, []
            batch += self._pending[:max(limit - len(batch), 0)]
            left = deadline - loop.time()
            if batch or left <= 0 or self._closing:
                return batch
            self._changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), left)

    async def _api_sendMessage(self, params: dict) -> dict:
        return self._message(params, text=_TAG.sub("", params["text"]))

    async def _api_sendDice(self, params: dict) -> dict:
        emoji = params.get("emoji") or "🎲"
        return self._message(params, dice={"emoji": emoji,
                                           "value": self._rng.randint(1, DICE_FACES[emoji])})

    async def _api_sendPhoto(self, params: dict) -> dict:
        photo = params["photo"]
        content: dict[str, Any] = {"photo": [{"file_id": photo, "file_unique_id": "u" + photo,
                                              "width": 1280, "height": 720}]}
        if params.get("caption"):
            content["caption"] = _TAG.sub("", params["caption"])
        return self._message(params, **content)

    async def _api_editMessageText(self, params: dict) -> dict:
        message = self._message(params, text=_TAG.sub("", params["text"]))
        message["message_id"] = params["message_id"]
        return message

    async def _api_editMessageCaption(self, params: dict) -> dict:
        message = self._message(params, caption=_TAG.sub("", params.get("caption", "")))
        message["message_id"] = params["message_id"]
        return message

    async def _api_editMessageReplyMarkup(self, params: dict) -> dict:
        message = self._message(params)
        message["message_id"] = params["message_id"]
        return message

    async def _api_answerCallbackQuery(self, params: dict) -> bool:
        return True

    async def _api_getChatMember(self, params: dict) -> dict:
        chat_id, user_id = params["chat_id"], params["user_id"]
        if user_id == BOT_USER["id"]:
            user = BOT_USER
        else:
            user = {"id": user_id, "is_bot": False, "first_name": f"user{user_id}"}
        if self.creators.get(chat_id) == user_id:
            return {"status": "creator", "user": user, "is_anonymous": False}
        return {"status": "member", "user": user}


async def eventually(check, what: str, timeout: float = 5.0) -> None:
    """Wait (bounded) until ``check()`` is true."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not check():
        if loop.time() > deadline:
            raise AssertionError(f"timed out waiting until {what}")
        await asyncio.sleep(0.02)
