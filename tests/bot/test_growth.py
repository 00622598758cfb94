"""The growth benchmark as a test: a typed darts visit at 5,000 logged actions costs about
what it costs at 10 (``python -m bench.growth`` reports the real figures; the bound here is
generous, for a loaded machine, but a cost that grows with the log — a scan of the history
per action, a deep copy, the whole log read — breaks it), and a cold start at 5,000 actions
loads a snapshot instead of replaying the whole log."""

from __future__ import annotations

import pytest

from bench.growth import measure, ratio

SIZES = [10, 5000]


@pytest.mark.asyncio
async def test_a_visit_costs_the_same_at_10_and_5000_logged_actions() -> None:
    bench = await measure(SIZES, samples=15)
    assert ratio(bench, SIZES) <= 2.0
    assert bench.samples["cold"][0] < 0.1  # the whole log replayed took 140+ ms
    assert not any(bench.failed.get(f"at {size}") for size in SIZES)
