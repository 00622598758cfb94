"""The benchmark's game mix does what each kind says: every measured update of a game kind
changes the database (a refusal changes nothing, so a mix that only measured refusals — as
``/result`` in a tournament played in the bot once did — fails here), every kind is measured,
and no update raises or is refused by Telegram."""

from __future__ import annotations

import json
import random

import pytest
from aiogram import Bot
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.methods import SendMessage
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bench.anatomy import print_anatomy
from bench.games import KINDS, ONWARD, GameBench, live_matches, open_tables, run_games
from bench.harness import BotTarget, CountingSession, EchoTarget, Options, request_builder
from bot.app import SANDBOX_TOKEN
from bot.sandbox.world import World
from bot.telegram_session import TelegramSession
from storage.cache import MATCH_LISTS


@pytest.mark.asyncio
async def test_every_kind_of_the_mix_is_measured_and_does_its_work() -> None:
    run = await run_games(seed=1, updates=300, warmup=30, concurrency=1, matches=8,
                          scheduled=2)
    for kind in KINDS:
        measured = len(run.samples.get(kind.name, []))
        assert measured, f"{kind.name}: not measured"
        unchanged = run.unchanged.get(kind.name, 0)
        assert unchanged == (measured if kind.table else 0), f"{kind.name}: {unchanged} unchanged"
    assert not run.failed


@pytest.mark.asyncio
async def test_the_anatomy_files_each_call_and_write_under_its_kind(capsys) -> None:
    run = await run_games(seed=2, updates=200, warmup=20, concurrency=1, matches=8,
                          scheduled=2, echo=True, anatomy=True)
    parts = run.anatomy
    assert parts is not None and not parts.measuring
    assert parts.calls["echo"].count == len(run.echo)  # one answer per echo update
    for kind in KINDS:
        samples = run.samples[kind.name]
        calls, writes = parts.calls[kind.name], parts.writes[kind.name]
        assert calls.count >= len(samples), f"{kind.name}: an update that said nothing"
        assert (writes.count >= len(samples)) != kind.table, f"{kind.name}: {writes.count}"
        assert 0 < calls.seconds + writes.seconds < sum(samples)
        assert parts.cpu[kind.name].count == len(samples) and parts.cpu[kind.name].seconds > 0
        if kind.table:  # a picture: drawn by a worker process, its CPU counted beside
            assert parts.workers[kind.name].seconds > 0, kind.name
    assert parts.cpu["echo"].count == len(run.echo)
    print_anatomy(parts, run.samples, run.echo)
    lines = capsys.readouterr().out.splitlines()
    rows = lines[[set(line) for line in lines].index({"-"}) + 1:]
    assert rows[0].split()[:2] == ["echo", "(beside)"]
    # the tournaments going on after results: not an update, timed and filed on its own
    assert {row.split()[0] for row in rows[1:]} == {kind.name for kind in KINDS} | {ONWARD}
    assert len(run.samples[ONWARD]) > 0 and parts.writes[ONWARD].count > 0


class _Spy(TelegramSession):
    def __init__(self) -> None:
        super().__init__()
        self.built: list[str] = []
        self.answers: list[dict] = []

    def build_request(self, bot, method):
        self.built.append(type(method).__name__)
        return super().build_request(bot, method)

    def check_response(self, bot, method, status_code, content):
        self.answers.append(json.loads(content))
        return super().check_response(bot, method, status_code, content)


@pytest.mark.asyncio
async def test_a_call_costs_the_clients_work_of_a_live_call() -> None:
    """Each call's request is built by the target's live session as its ``make_request``
    builds it, and its answer parsed by it from JSON text (the keyboard Telegram echoes included, dropped by the lean loader)."""
    world = World(random.Random(1), "ru")
    group = world.group("g")
    wire = _Spy()
    bot = Bot(SANDBOX_TOKEN, session=CountingSession(world, wire=wire))
    keys = InlineKeyboardMarkup(inline_keyboard=[[
        InlineKeyboardButton(text="S20", callback_data="dt:1:1.0.0:S20")]])
    sent = await bot.send_message(group.id, "board", reply_markup=keys)
    assert wire.built == ["SendMessage"]
    assert wire.answers[0]["result"]["reply_markup"] == keys.model_dump(exclude_none=True)
    assert sent.text == "board" and sent.reply_markup is None
    await bot.session.close()


@pytest.mark.asyncio
async def test_the_echo_pays_aiograms_own_client_and_the_bot_its_own() -> None:
    echo, bot = EchoTarget(Options()), BotTarget(Options())
    await echo.start()
    await bot.start()
    try:
        assert type(echo.session.wire) is AiohttpSession
        assert type(bot.session.wire) is TelegramSession
    finally:
        await echo.close()
        await bot.close()


@pytest.mark.asyncio
async def test_the_driver_finds_running_matches_without_the_bots_read_cache(tmp_path) -> None:
    """The bench's driver reads the live matches of a table by a query of its own: the
    bot's remembered match lists hold only what the bot read (bench/README.md)."""
    bench = GameBench(seed=1, db_path=tmp_path / "driver.sqlite3")
    await bench.start()
    try:
        await open_tables(bench, {"shanghai": 1})
        table = bench.tables[0]
        reads = bench.app.services.db.reads
        before = reads.peek(MATCH_LISTS, (table.tournament_id, None))
        found = await live_matches(bench, table)
        assert reads.peek(MATCH_LISTS, (table.tournament_id, None)) is before is None
        every = await bench.app.services.repos.matches.for_tournament(table.tournament_id)
        assert found == [match for match in every if match.status == "running"] != []
    finally:
        await bench.close()


class _Offline:
    """An HTTP client session whose every post fails at once."""

    def post(self, *args, **kwargs):
        raise ConnectionRefusedError


@pytest.mark.asyncio
@pytest.mark.parametrize("wire", [AiohttpSession, TelegramSession])
async def test_the_bench_builds_the_request_the_live_session_builds(wire, monkeypatch) -> None:
    """The request the harness builds for a call is the one the target's own live
    ``make_request`` builds before it posts (bench/README.md)."""
    session, built = wire(), []
    name = request_builder(session).__name__
    build = getattr(session, name)
    monkeypatch.setattr(session, name, lambda bot, method: built.append(method)
                        or build(bot, method))

    async def offline():
        return _Offline()
    monkeypatch.setattr(session, "create_session", offline)
    method = SendMessage(chat_id=1, text="hi")
    with pytest.raises(ConnectionRefusedError):
        await session.make_request(Bot(SANDBOX_TOKEN), method)
    assert built == [method]
