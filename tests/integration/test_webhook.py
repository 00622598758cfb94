"""The live path in webhook mode: ``run_live`` serves aiogram's webhook handler on 127.0.0.1.

The bot registers ``WEBHOOK_URL`` with the local Bot API stand-in (nothing connects to it);
the test then plays Telegram and POSTs updates straight to the bot's webhook server.
"""

from __future__ import annotations

import asyncio
import signal
import socket

import aiohttp

import bot.live
from bot.config import load_settings
from tests.integration.fake_bot_api import FakeBotAPI, eventually

TOKEN = "123456:TEST-test-test-test-test-test"
SECRET = "s3cret-token"
GROUP = {"id": -1001234567890, "type": "supergroup", "title": "Darts Club"}
IVAN = {"id": 222, "is_bot": False, "first_name": "Ivan", "username": "ivan",
        "language_code": "ru"}


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _sigterm_handled() -> bool:
    return signal.getsignal(signal.SIGTERM) not in (signal.SIG_DFL, signal.SIG_IGN, None)


async def test_webhook_end_to_end(tmp_path) -> None:
    api = FakeBotAPI(TOKEN)
    base_url = await api.start()
    port = _free_port()
    settings = load_settings(bot_token=TOKEN, bot_api_url=base_url,
                             database_path=tmp_path / "bot.sqlite3",
                             webhook_url="https://example.invalid", webhook_secret=SECRET,
                             webhook_host="127.0.0.1", webhook_port=port,
                             admin_ids=frozenset(), default_language="ru")
    assert not _sigterm_handled(), "a SIGTERM handler is already installed"
    task = asyncio.create_task(bot.live.run_live(settings), name="run_live")
    try:
        # _run_webhook installs its signal handlers once the server listens.
        await eventually(lambda: task.done() or _sigterm_handled(), "the webhook server is up")
        assert not task.done(), task.result()

        [registered] = api.calls_to("setWebhook")
        assert registered.params["url"] == "https://example.invalid/telegram/webhook"
        assert registered.params["secret_token"] == SECRET
        assert "deleteWebhook" not in [c.method for c in api.calls]

        hook = f"http://127.0.0.1:{port}{bot.live.WEBHOOK_PATH}"
        update = api.message_update(GROUP, IVAN, "/try")
        async with aiohttp.ClientSession() as client:
            for headers in ({"X-Telegram-Bot-Api-Secret-Token": "wrong-token"}, {}):
                async with client.post(hook, json=update, headers=headers) as response:
                    assert response.status == 401
            await asyncio.sleep(0.2)
            assert api.calls_to("sendMessage") == []

            async with client.post(hook, json=update,
                                   headers={"X-Telegram-Bot-Api-Secret-Token": SECRET}) as response:
                assert response.status == 200
            [answer] = await api.wait_for(
                lambda c: c.method == "sendMessage" and c.params.get("chat_id") == GROUP["id"],
                what="the answer to /try", timeout=5)
        text = answer.params["text"]
        assert "Удачно" in text or "Неудачно" in text
        assert answer.params["reply_parameters"]["message_id"] == update["message"]["message_id"]

        signal.raise_signal(signal.SIGTERM)
        assert await asyncio.wait_for(task, 5) == 0
        assert len(api.calls_to("sendMessage")) == 1
        assert api.unknown_methods == []
    finally:
        if not task.done():
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
        await api.stop()
    leftovers = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
    assert leftovers == [], f"tasks left running: {leftovers}"
