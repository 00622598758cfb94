"""Running against Telegram: long polling by default, a webhook server when WEBHOOK_URL is set.

SIGTERM and SIGINT stop the bot gracefully: polling finishes the updates in hand, the
scheduler stops, and the database is closed (every accepted action is already committed).
Either way an update is confirmed to Telegram only once it is handled (polling:
:mod:`bot.polling`; the webhook answers Telegram's request then), so Telegram delivers again
what a bot that died never finished.
"""

from __future__ import annotations

import asyncio
import logging
import signal

from aiogram.client.telegram import TelegramAPIServer

from bot import menu
from bot.app import App, build
from bot.config import Settings
from bot.telegram_session import TelegramSession

log = logging.getLogger(__name__)
WEBHOOK_PATH = "/telegram/webhook"


def make_session(settings: Settings) -> TelegramSession:
    if settings.bot_api_url:
        return TelegramSession(api=TelegramAPIServer.from_base(settings.bot_api_url))
    return TelegramSession()


async def run_live(settings: Settings) -> int:
    app = await build(settings, make_session(settings))
    await menu.publish(app.bot, settings.default_language)
    app.services.scheduler.start()
    log.info("bot @%s started (%s)", app.services.bot_username,
             "webhook" if settings.webhook_url else "polling")
    try:
        if settings.webhook_url:
            await _run_webhook(app, settings)
        else:
            await app.bot.delete_webhook(drop_pending_updates=False)
            await app.dispatcher.start_polling(app.bot, handle_signals=True,
                                               close_bot_session=False)
    finally:
        await app.close()
    return 0


async def _run_webhook(app: App, settings: Settings) -> None:
    from aiogram.webhook.aiohttp_server import SimpleRequestHandler, setup_application
    from aiohttp import web

    web_app = web.Application()
    # answered once handled: Telegram delivers again an update a stopped bot never finished
    SimpleRequestHandler(dispatcher=app.dispatcher, bot=app.bot, handle_in_background=False,
                         secret_token=settings.webhook_secret).register(web_app, WEBHOOK_PATH)
    setup_application(web_app, app.dispatcher, bot=app.bot)
    await app.bot.set_webhook(settings.webhook_url.rstrip("/") + WEBHOOK_PATH,
                              secret_token=settings.webhook_secret)
    runner = web.AppRunner(web_app)
    await runner.setup()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    try:
        await web.TCPSite(runner, settings.webhook_host, settings.webhook_port).start()
        for sig in (signal.SIGTERM, signal.SIGINT):  # installed once the server listens
            loop.add_signal_handler(sig, stop.set)
        await stop.wait()
    finally:
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.remove_signal_handler(sig)
        await runner.cleanup()
