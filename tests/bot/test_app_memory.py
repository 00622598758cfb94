"""Start-up freezes what it built out of garbage collections once per process (README,
"Performance"): a later build does not freeze, so an app built and closed after the first
is freed like any garbage (the sandbox's ``! restart``, the fuzzer's and the tests' apps)."""

from __future__ import annotations

import gc
import weakref
from pathlib import Path

from aiogram.types import Update

from bot.app import YOUNG_COLLECTION

from .sandbox_run import opened, run_script


async def test_an_app_closed_after_the_first_is_freed(tmp_path: Path) -> None:
    async with opened(tmp_path / "first"):
        pass  # the process's first build (unless an earlier test built one) is frozen
    frozen = gc.get_freeze_count()
    async with opened(tmp_path / "second") as sandbox:
        dispatcher = weakref.ref(sandbox.app.dispatcher)
    assert gc.get_freeze_count() == frozen  # the second build froze nothing
    del sandbox
    gc.collect()
    assert dispatcher() is None


async def test_start_up_collects_the_young_less_often(tmp_path: Path) -> None:
    async with opened(tmp_path / "first"):
        pass
    assert gc.get_threshold()[0] == YOUNG_COLLECTION


async def test_handled_updates_are_not_kept_by_their_type(tmp_path: Path) -> None:
    """aiogram's ``Update.event_type`` remembers updates whole; once handled they are
    forgotten (``bot.middlewares.context.forget_event_types``)."""
    output = await run_script(tmp_path, "ann@club: hi\nann@dm: /start\n")
    assert output  # the updates were handled
    assert Update.event_type.fget.cache_info().currsize == 0
