"""The benchmark's game mix does what each kind says: every measured update of a game kind
changes the database (a refusal changes nothing, so a mix that only measured refusals — as
``/result`` in a tournament played in the bot once did — fails here), every kind is measured,
and no update raises or is refused by Telegram."""

from __future__ import annotations

import pytest

from bench.games import KINDS, run_games


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
