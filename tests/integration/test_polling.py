"""The live path end to end: ``run_live`` long-polls a local stand-in for the Bot API.

Nothing here reaches the internet: ``BOT_API_URL`` points aiogram's own ``AiohttpSession``
at :class:`FakeBotAPI` on 127.0.0.1, so updates come in through real ``getUpdates`` calls
and every answer goes out as a real HTTP request through the session's middlewares (the
rate limiter and RetryAfter handling included).
"""

from __future__ import annotations

import asyncio
import signal
import sqlite3
from dataclasses import dataclass

import pytest

import bot.live
import bot.sending
from bot.app import App
from bot.config import load_settings
from tests.integration.fake_bot_api import BOT_USER, Call, FakeBotAPI, eventually

TOKEN = "123456:TEST-test-test-test-test-test"
GROUP = {"id": -1001234567890, "type": "supergroup", "title": "Darts Club"}
OTHER_GROUP = {"id": -1009876543210, "type": "supergroup", "title": "Dice Club"}
OLGA = {"id": 111, "is_bot": False, "first_name": "Olga", "username": "olga",
        "language_code": "ru"}
IVAN = {"id": 222, "is_bot": False, "first_name": "Ivan", "username": "ivan",
        "language_code": "ru"}
PETR = {**IVAN, "id": 333, "first_name": "Petr", "username": "petr"}
TOO_MANY = {"ok": False, "error_code": 429, "description": "Too Many Requests: retry after 1",
            "parameters": {"retry_after": 1}}


@dataclass
class Live:
    api: FakeBotAPI
    app: App
    task: asyncio.Task
    database: str

    async def answers(self, chat: dict, *, count: int = 1, timeout: float = 10.0,
                      **params) -> list[Call]:
        """Wait for ``count`` successful sendMessage calls to ``chat``."""
        return await self.api.wait_for(
            lambda c: (c.method == "sendMessage" and c.status == 200
                       and c.params.get("chat_id") == chat["id"]
                       and all(c.params.get(k) == v for k, v in params.items())),
            count=count, timeout=timeout, what=f"answers in {chat['id']}")

    def claimed(self, update_id: int) -> bool:
        """Whether the update is recorded as handled for good (it changed something)."""
        with sqlite3.connect(self.database, timeout=5) as connection:
            return connection.execute("SELECT 1 FROM processed_updates WHERE update_id = ?",
                                      (update_id,)).fetchone() is not None


async def _settled(live: Live, timeout: float = 5.0) -> None:
    """Wait until the dispatcher has no update handler running."""
    assert await live.app.dedupe.drain(timeout)


async def _polling_started(api: FakeBotAPI, task: asyncio.Task) -> None:
    waiting = asyncio.ensure_future(api.wait_for(lambda c: c.method == "getUpdates",
                                                 what="the first long poll", timeout=5))
    await asyncio.wait([waiting, task], return_when=asyncio.FIRST_COMPLETED)
    if not waiting.done():
        waiting.cancel()
        task.result()  # run_live ended before polling: raise what stopped it
        raise AssertionError("run_live returned before it started polling")
    waiting.result()


@pytest.fixture
async def live(tmp_path, monkeypatch):
    api = FakeBotAPI(TOKEN)
    api.creators[GROUP["id"]] = OLGA["id"]
    base_url = await api.start()
    built: list[App] = []
    real_build = bot.live.build

    async def build_and_keep(*args, **kwargs) -> App:
        app = await real_build(*args, **kwargs)
        built.append(app)
        return app

    monkeypatch.setattr(bot.live, "build", build_and_keep)
    database = tmp_path / "bot.sqlite3"
    settings = load_settings(bot_token=TOKEN, bot_api_url=base_url, database_path=database,
                             webhook_url=None, admin_ids=frozenset(), default_language="ru",
                             timezone="Europe/Moscow")
    task = asyncio.create_task(bot.live.run_live(settings), name="run_live")
    try:
        await _polling_started(api, task)
        assert built, "run_live did not go through bot.app.build"
        state = Live(api, built[0], task, str(database))
        yield state
        if not task.done():
            await _settled(state)
            await asyncio.wait_for(state.app.dispatcher.stop_polling(), 5)
        assert await asyncio.wait_for(task, 5) == 0
        assert api.unknown_methods == []
        assert not [c for c in api.calls if c.status == 401]
    finally:
        if not task.done():  # the bot did not stop when asked: cancel it
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
        await api.stop()
        leftovers = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
    assert leftovers == [], f"tasks left running: {leftovers}"


async def test_startup_talks_to_the_stand_in(live: Live) -> None:
    methods = [c.method for c in live.api.calls]
    menus = live.api.calls_to("setMyCommands")  # each scope, in each language and by default
    assert methods[:2 + len(menus)] == ["getMe", *["setMyCommands"] * 12, "deleteWebhook"]
    assert {(call.params["scope"]["type"], call.params.get("language_code"))
            for call in menus} \
        == {(scope, language) for scope in ("all_group_chats", "all_chat_administrators",
                                            "all_private_chats")
            for language in (None, "ru", "en", "fi")}
    assert live.api.calls_to("deleteWebhook")[0].params.get("drop_pending_updates") is False
    assert live.app.services.bot_username == BOT_USER["username"]
    polls = live.api.calls_to("getUpdates")
    assert "message" in polls[0].params["allowed_updates"]
    assert "callback_query" in polls[0].params["allowed_updates"]


async def test_try_in_a_group(live: Live) -> None:
    update = live.api.message_update(GROUP, IVAN, "/try")
    live.api.feed(update)
    [answer] = await live.answers(GROUP)
    text = answer.params["text"]
    assert "Удачно" in text or "Неудачно" in text
    assert "Ivan" in text
    assert answer.params["reply_parameters"]["message_id"] == update["message"]["message_id"]
    assert answer.params["parse_mode"] == "HTML"


async def test_help_in_private(live: Live) -> None:
    live.api.feed(live.api.message_update({"id": IVAN["id"], "type": "private",
                                           "first_name": "Ivan"}, IVAN, "/help"))
    [answer] = await live.answers({"id": IVAN["id"]})
    assert "/new" in answer.params["text"]



def _private(user: dict) -> dict:
    return {"id": user["id"], "type": "private", "first_name": user["first_name"],
            "username": user["username"]}


def _replies_to(update: dict):
    message_id = update["message"]["message_id"]
    return lambda c: (c.method == "sendMessage" and c.status == 200
                      and (c.params.get("reply_parameters") or {}).get("message_id") == message_id)


def _served(api: FakeBotAPI, update_id: int) -> int:
    """How many times getUpdates handed out the update with this id."""
    return sum(u["update_id"] == update_id
               for c in api.calls_to("getUpdates") for u in c.result or [])


def _send_sigint() -> None:
    """SIGINT to this process, as Ctrl+C would; only while asyncio's handler is installed."""
    handler = signal.getsignal(signal.SIGINT)
    assert handler not in (signal.default_int_handler, signal.SIG_DFL, signal.SIG_IGN, None), \
        "start_polling(handle_signals=True) should have installed a SIGINT handler"
    signal.raise_signal(signal.SIGINT)


async def test_new_tournament_and_registration_over_http(live: Live) -> None:
    api = live.api
    api.feed(api.message_update(GROUP, IVAN, "/new cup Sneaky"))
    [refusal] = await live.answers(GROUP)
    assert refusal.params["text"].startswith("Это могут только организаторы")
    assert api.calls_to("getChatMember", chat_id=GROUP["id"], user_id=IVAN["id"])

    api.feed(api.message_update(GROUP, OLGA, "/new cup Test Cup"))
    # The refusal, then: created (with the note on the playoff rounds and the privacy warning).
    answers = await live.answers(GROUP, count=2)
    created = [c for c in answers if c.params.get("reply_markup")]
    assert len(created) == 1, answers
    assert "Test Cup" in created[0].params["text"]
    assert "Плей-офф на 8" in created[0].params["text"]
    [[button]] = created[0].params["reply_markup"]["inline_keyboard"]
    assert button["url"] == "https://t.me/tourney_test_bot?start=reg-1"
    # The bot is neither an administrator nor reading all messages: the organiser is warned.
    assert "режим приватности" in created[0].params["text"]
    assert api.calls_to("getChatMember", chat_id=GROUP["id"], user_id=BOT_USER["id"])

    # Ivan follows the deep link and fills in the form in the DM.
    dm = _private(IVAN)
    api.feed(api.message_update(dm, IVAN, "/start reg-1"))
    await live.answers(dm)
    api.feed(api.message_update(dm, IVAN, "Иван_Петров"))
    asked = await live.answers(dm, count=2)
    assert "Иван_Петров" in asked[-1].params["text"]
    api.feed(api.message_update(dm, IVAN, photo_file_id="stats-screenshot"))
    [application] = await api.wait_for(lambda c: c.method == "sendPhoto", what="the application")
    assert application.params["chat_id"] == GROUP["id"]
    assert application.params["photo"] == "stats-screenshot"
    buttons = application.params["reply_markup"]["inline_keyboard"][0]
    assert [b["callback_data"] for b in buttons] == [f"app:1:{IVAN['id']}:1",
                                                      f"app:1:{IVAN['id']}:0"]
    sent = await live.answers(dm, count=3)
    assert "отправлена организаторам" in sent[-1].params["text"]

    # Olga approves it with the button under the photo.
    press = api.callback_update(OLGA, buttons[0]["callback_data"], application.result)
    api.feed(press)
    [toast] = await api.wait_for(lambda c: c.method == "answerCallbackQuery",
                                 what="the approval toast")
    assert toast.params["callback_query_id"] == press["callback_query"]["id"]
    assert toast.params["text"] == "Заявка принята: Иван_Петров."
    [edit] = await api.wait_for(lambda c: c.method == "editMessageCaption", what="the verdict")
    assert edit.params["message_id"] == application.result["message_id"]
    assert edit.params["caption"].startswith("✅ Заявка принята: Иван_Петров")
    approved = await live.answers(dm, count=4)
    assert approved[-1].params["text"] == "✅ Ваша заявка на турнир «Test Cup» принята!"


async def test_forged_callback_is_answered(live: Live) -> None:
    old = {"message_id": 42, "date": 1_700_000_000, "chat": GROUP, "from": BOT_USER,
           "text": "📝 old application"}
    press = live.api.callback_update(OLGA, "app:99:1:1", old)
    live.api.feed(press)
    [answer] = await live.api.wait_for(lambda c: c.method == "answerCallbackQuery",
                                       what="answerCallbackQuery")
    assert answer.params["callback_query_id"] == press["callback_query"]["id"]
    assert answer.params["text"] == "Эта кнопка устарела."
    assert answer.params["show_alert"] is True
    await _settled(live)
    assert not [c for c in live.api.calls if c.method.startswith(("send", "edit"))]


def _new_tournament(live: Live) -> dict:
    """Olga's /new, fed: an update that writes, so it is claimed once handled."""
    update = live.api.message_update(GROUP, OLGA, "/new shanghai Friday Darts")
    live.api.feed(update)
    return update


def _tournament_made(call: Call) -> bool:
    return call.method == "sendMessage" and "Friday Darts" in call.params["text"]


async def test_redelivered_update_is_answered_once(live: Live) -> None:
    api = live.api
    update = _new_tournament(live)
    await api.wait_for(_tournament_made, what="the answer to /new")
    await eventually(lambda: live.claimed(update["update_id"]), "the update is recorded")

    # Telegram sends it again (its confirmation was lost), followed by a fresh update.
    api.redeliver(update)
    marker = api.message_update(GROUP, IVAN, "/help")
    api.feed(marker)
    await api.wait_for(lambda c: c.method == "sendMessage" and "/new" in c.params["text"],
                       what="the answer to the next update")
    await _settled(live)
    assert _served(api, update["update_id"]) >= 2  # (again while in hand: bot.polling)
    assert len([c for c in api.calls if _tournament_made(c)]) == 1


async def test_duplicate_in_one_batch_is_answered_once(live: Live) -> None:
    update = live.api.message_update(GROUP, IVAN, "/try")
    live.api.feed(update, update)
    await live.api.wait_for(_replies_to(update), what="the answer to /try")
    await _settled(live)
    assert _served(live.api, update["update_id"]) >= 2
    assert len([c for c in live.api.calls if _replies_to(update)(c)]) == 1


async def test_send_dice_goes_through_the_session(live: Live) -> None:
    dice = await live.app.bot.send_dice(GROUP["id"])
    darts = await live.app.bot.send_dice(GROUP["id"], emoji="🎯")
    assert dice.chat.id == GROUP["id"] and dice.dice.emoji == "🎲"
    assert 1 <= dice.dice.value <= 6 and 1 <= darts.dice.value <= 6
    calls = live.api.calls_to("sendDice", chat_id=GROUP["id"])
    assert [c.params.get("emoji") for c in calls] == [None, "🎯"]


async def test_retry_after_is_waited_out(live: Live) -> None:
    live.api.fail_next("sendMessage", 429, TOO_MANY)
    update = live.api.message_update(GROUP, IVAN, "/try")
    live.api.feed(update)
    await live.api.wait_for(_replies_to(update), what="the answer after RetryAfter")
    first, second = live.api.calls_to("sendMessage", chat_id=GROUP["id"])
    assert (first.status, second.status) == (429, 200)
    assert first.params["text"] == second.params["text"]
    assert second.at - first.at >= 0.9  # waited the retry_after second
    await _settled(live)
    assert live.app.services.repos.updates.handled_here(update["update_id"])


async def test_group_rate_limit_over_http(live: Live, monkeypatch) -> None:
    # Windows are made per chat on first use, so this applies to chats not yet written to.
    monkeypatch.setattr(bot.sending, "GROUP_LIMIT", (2, 0.8))
    api = live.api
    api.feed(*(api.message_update(OTHER_GROUP, IVAN, "/help") for _ in range(3)),
             api.message_update(GROUP, IVAN, "/help"))
    busy = await live.answers(OTHER_GROUP, count=3)
    [calm] = await live.answers(GROUP)
    times = sorted(c.at for c in busy)
    assert times[1] - times[0] < 0.5  # two fit in the window at once
    assert times[2] - times[0] >= 0.6  # the third waited for the window to slide
    assert calm.at - times[0] < 0.5  # another group is not held up


async def test_sigint_stops_the_bot_gracefully(live: Live) -> None:
    update = _new_tournament(live)
    await live.api.wait_for(_tournament_made, what="the answer to /new")
    await _settled(live)
    _send_sigint()
    assert await asyncio.wait_for(live.task, 5) == 0
    polls = len(live.api.calls_to("getUpdates"))
    await asyncio.sleep(0.2)
    assert len(live.api.calls_to("getUpdates")) == polls  # no more polling
    assert live.app.bot.session._session is None or live.app.bot.session._session.closed
    assert live.claimed(update["update_id"])


async def test_sigint_finishes_the_update_in_hand(live: Live) -> None:
    live.api.delay_next("sendMessage", 0.5)
    update = _new_tournament(live)
    await live.api.wait_for(lambda c: c.method == "sendMessage", what="the answer to start")
    _send_sigint()
    assert await asyncio.wait_for(live.task, 5) == 0
    await _settled(live)
    assert live.claimed(update["update_id"])


SERVER_ERROR = {"ok": False, "error_code": 502, "description": "Bad Gateway"}


def _sqlite(live: Live, sql: str, *params) -> list[tuple]:
    with sqlite3.connect(live.database, timeout=5) as connection:
        return connection.execute(sql, params).fetchall()


async def _tournament_with_two_players(live: Live) -> None:
    api = live.api
    _new_tournament(live)
    await api.wait_for(lambda c: _tournament_made(c) and c.params.get("reply_markup"),
                       what="the new tournament")
    for user in (OLGA, IVAN):
        api.feed(api.message_update(GROUP, user, "/register"))
        await api.wait_for(lambda c, name=user["first_name"]: (
            c.method == "sendMessage" and c.params["text"].startswith(f"✅ {name}")),
            what=f"{user['first_name']} registered")
    await _settled(live)


def _started(c: Call) -> bool:
    return c.method == "sendMessage" and "начался" in c.params.get("text", "")


async def test_automatic_start_survives_a_5xx_and_a_dropped_connection(live: Live) -> None:
    api = live.api
    await _tournament_with_two_players(live)
    api.fail_next("sendMessage", 502, SERVER_ERROR)
    api.drop_next("sendMessage")
    services = live.app.services
    await services.scheduler.add("start", services.clock.now(), 1)

    await api.wait_for(lambda c: _started(c) and c.status == 200, what="the start announced")
    assert [c.status for c in api.calls if _started(c)] == [0, 502, 200]  # dropped, 5xx, sent
    await api.wait_for(lambda c: c.method == "sendMessage" and "Тур 1" in c.params["text"],
                       what="the first round opened")
    assert _sqlite(live, "SELECT status FROM tournaments WHERE id = 1") == [("running",)]
    assert _sqlite(live, "SELECT COUNT(*) FROM matches WHERE tournament_id = 1") == [(1,)]
    await eventually(lambda: _sqlite(live, "SELECT kind, status FROM jobs ORDER BY id")[-2:] == [
        ("start", "cancelled"), ("opening", "done")], "the opening job is done")


async def test_begin_served_twice_in_one_poll_starts_once(live: Live) -> None:
    api = live.api
    await _tournament_with_two_players(live)
    begin = api.message_update(GROUP, OLGA, "/begin")
    api.feed(begin, begin)
    await api.wait_for(lambda c: _started(c) and c.status == 200, what="the start announced")
    await api.wait_for(lambda c: c.method == "sendMessage" and "Тур 1" in c.params["text"],
                       what="the first round opened")
    await _settled(live)
    assert _served(api, begin["update_id"]) >= 2
    assert len([c for c in api.calls if _started(c)]) == 1
    assert _sqlite(live, "SELECT COUNT(*) FROM matches WHERE tournament_id = 1") == [(1,)]
    assert not [c for c in api.calls if c.method == "sendMessage" and c.status != 200]


async def test_a_tournament_goes_on_after_its_last_result_over_http(live: Live) -> None:
    """A confirmed result is recorded by its update; the tournament then goes on in a job of
    its own (``formats_advance``) that the live scheduler runs right after it: one picture,
    the last round's table, captioned with the result above it and the final placings below."""
    api = live.api
    await _begun(live, "/new armchair Round play=report")
    await api.wait_for(lambda c: c.method == "sendMessage" and "/result" in c.params["text"],
                       what="the round")
    api.feed(api.message_update(GROUP, IVAN, "/result win"))
    await api.wait_for(lambda c: c.method == "sendMessage" and "/confirm" in c.params["text"],
                       what="the report")
    api.feed(api.message_update(GROUP, PETR, "/confirm"))
    [table] = await api.wait_for(
        lambda c: c.method == "sendPhoto" and "🥇" in c.params.get("caption", ""),
        what="the final placings")
    caption = table.params["caption"]
    assert caption.startswith("✅") and caption.index("📊") < caption.index("🥇")
    await _settled(live)
    with sqlite3.connect(live.database, timeout=5) as connection:
        jobs = connection.execute(
            "SELECT status FROM jobs WHERE kind = 'formats_advance'").fetchall()
    assert jobs == [("done",)]


async def _begun(live: Live, new: str) -> None:
    """Olga's ``new`` (a /new command) in GROUP, Ivan and Petr registered, and /begin."""
    api = live.api
    api.feed(api.message_update(GROUP, OLGA, new))
    await live.answers(GROUP, count=1)
    for player in (IVAN, PETR):
        api.feed(api.message_update(GROUP, player, "/register"))
    await live.answers(GROUP, count=3)
    api.feed(api.message_update(GROUP, OLGA, "/begin"))


async def _darts_match_under_way(live: Live) -> None:
    """Ivan's and Petr's darts match in GROUP, its first thrower drawn by the coin."""
    api = live.api
    await _begun(live, "/new shanghai Night legs=1")
    [board] = await api.wait_for(lambda c: c.method == "sendMessage" and "· матч #1" in c.params[
        "text"], what="the board")
    [coin] = [button["callback_data"] for row in board.params["reply_markup"][
        "inline_keyboard"] for button in row if "🪙" in button["text"]]
    api.feed(api.callback_update(IVAN, coin, board.result))
    await api.wait_for(lambda c: c.method == "editMessageText", what="the coin on the board")
    await _settled(live)


def _group_busy_for(live: Live, seconds: float) -> None:
    """GROUP's minute full for ``seconds``: its next message waits as long."""
    limiter = bot.sending.rate_limiter(live.app.bot.session)
    limiter.group_windows[GROUP["id"]].closed_until = \
        live.app.services.clock.now().timestamp() + seconds


async def test_a_busy_groups_board_is_drawn_once_for_the_visits_meanwhile(live: Live) -> None:
    """While the group's window is full, three typed visits are all taken at once (the
    board's edit waits in the board queue, not in each visit's handler) and the board is
    then drawn once, with the last of them (bot/board_queue.py)."""
    api = live.api
    await _darts_match_under_way(live)
    _group_busy_for(live, 3)
    drawn = len(api.calls_to("editMessageText"))
    visits = [api.message_update(GROUP, player, visit) for player, visit in (
        (IVAN, "T20 T20 T20"), (PETR, "S19 S19 S19"), (IVAN, "T18 T18 T18"))]
    api.feed(*visits)
    await eventually(lambda: all(live.claimed(visit["update_id"]) for visit in visits),
                     "the three visits are taken", timeout=2.5)  # the window still full
    assert len(api.calls_to("editMessageText")) == drawn
    [*_, last] = await api.wait_for(lambda c: c.method == "editMessageText",
                                    count=drawn + 1, what="the board drawn again")
    assert "T18 · T18 · T18" in last.params["text"]
    await asyncio.sleep(0.5)
    assert len(api.calls_to("editMessageText")) == drawn + 1


async def test_a_board_queued_when_the_bot_stops_is_owed_to_the_next_start(live: Live) -> None:
    """A stop waits a few seconds for a busy group's queued board, then leaves it owed: a
    job the next start runs draws it (the container is killed soon after it is told)."""
    api = live.api
    await _darts_match_under_way(live)
    _group_busy_for(live, 60)
    visit = api.message_update(GROUP, IVAN, "T20 T20 T20")
    api.feed(visit)
    await eventually(lambda: live.claimed(visit["update_id"]), "the visit is taken")
    _send_sigint()
    assert await asyncio.wait_for(live.task, 10) == 0
    assert _sqlite(live, "SELECT status FROM jobs WHERE kind = 'match_board_owed'") == [
        ("pending",)]
