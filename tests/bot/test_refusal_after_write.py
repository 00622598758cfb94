"""A refusal changes nothing: an update refused after it wrote something is logged as an
error by the middleware that claims updates, so the sandbox prints it and the fuzzer finds
it (no handler does so today; this keeps it that way)."""

from __future__ import annotations

import logging

import pytest
from aiogram.types import Update

from bot.middlewares.dedupe import DedupeMiddleware
from bot.play import clock
from bot.play.refusal import Refusal
from tests.bot.sandbox_run import opened


@pytest.mark.parametrize("before", ["nothing", "write", "stall"])
async def test_a_refusal_after_a_write_is_an_error(tmp_path, caplog, before: str) -> None:
    """A stall (the refusal's answer waited for the group's window, and the group's clocks
    were delayed by the wait) is the sending layer's bookkeeping, not the update's write."""
    async with opened(tmp_path) as sandbox:
        services = sandbox.app.services
        await sandbox.run_lines(["org@g: /new backgammon Night", "ann@g: /register",
                                 "bob@g: /register", "org@g: /begin"])  # a clock: its grace
        group = sandbox.world.group("g").id

        async def handler(event: Update, data: dict) -> None:
            if before == "write":
                await services.repos.organiser_log.record(1, "lang", services.clock.now(),
                                                          chat_id=-1, language="en")
            elif before == "stall":
                await clock.stalled(services, group, 30.0)  # the grace moved on
            raise Refusal("callback.stale")

        with caplog.at_level(logging.ERROR, logger="bot.middlewares.dedupe"), \
                pytest.raises(Refusal):
            await DedupeMiddleware()(handler, Update(update_id=7), {"services": services})
    logged = [record for record in caplog.records if record.name == "bot.middlewares.dedupe"]
    assert [record.getMessage() for record in logged] == (
        ["update 7 refused after it wrote"] if before == "write" else [])
