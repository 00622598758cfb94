"""A cold start from a snapshot equals the full replay of the log: after every visit of a
darts leg (snapshots every few actions), with a rewind, a stale fingerprint and a broken
blob; and every engine state of the contract playouts survives a pickle round trip."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot import snapshots
from bot.match_service import effective_actions
from bot.sandbox.runner import Sandbox
from games.common.match import replay
from storage.repositories.snapshots import Snapshot
from tests.games.common.test_contract import ENGINES, fillings

SCRIPT = ["org@grp: /new shanghai Лег legs=1", "alice@grp: /register", "bob@grp: /register",
          "org@grp: /begin", "org@grp: [🎯 Булл-офф: Alice]"]


async def _replayed(service, match):
    """The state of ``match`` from its whole log, without any snapshot."""
    logged = await service.services.repos.matches.actions(match.id)
    return replay(await service._fresh_engine(match), effective_actions(logged))


def _same(a, b) -> None:
    assert a.view() == b.view() and a.legal_actions() == b.legal_actions()


async def _live(box: Sandbox):
    [match] = [m for m in await box.app.services.repos.matches.for_tournament(1)
               if m.status == "running"]
    return match


@pytest.mark.asyncio
async def test_a_cold_start_from_a_snapshot_equals_the_full_replay(tmp_path: Path,
                                                                   monkeypatch) -> None:
    monkeypatch.setattr(snapshots, "EVERY", 7)
    box = Sandbox(seed=1, db_path=tmp_path / "s.sqlite3", language="ru", emit=lambda _: None)
    await box.start()
    try:
        await box.run_lines(SCRIPT)
        service, match = box.app.services.matches, await _live(box)
        rng = random.Random(5)
        for visit in range(24):
            who = ("alice", "bob")[visit % 2]  # one of the two is refused: nothing logged
            darts = " ".join(rng.choice(["miss", "s20", "t19", "25"]) for _ in range(3))
            await box.run_lines([f"{who}@grp: {darts}"])
            service.forget(match.id)  # as after a restart
            _same(await service.current(match), await _replayed(service, match))
        snapshot = await service.services.repos.snapshots.latest(match.id)
        assert snapshot is not None and snapshot.seq > 7
    finally:
        await box.close()


@pytest.mark.asyncio
async def test_a_stale_or_broken_snapshot_is_not_used(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(snapshots, "EVERY", 3)
    box = Sandbox(seed=1, db_path=tmp_path / "s.sqlite3", language="ru", emit=lambda _: None)
    await box.start()
    try:
        await box.run_lines(SCRIPT + ["alice@grp: miss miss miss", "bob@grp: 20 20 20"])
        service, match = box.app.services.matches, await _live(box)
        repo = service.services.repos.snapshots
        good = await repo.latest(match.id)
        fresh = await service._fresh_engine(match)
        for bad in (Snapshot(good.seq, "other engine code", good.state),
                    Snapshot(good.seq, good.fingerprint, b"not a pickle"),
                    Snapshot(good.seq, good.fingerprint, snapshots.dump(fresh))):
            await repo.save(match.id, bad)
            service.forget(match.id)
            restored = await service.current(match)
            if bad.state != good.state and bad.fingerprint == good.fingerprint \
                    and snapshots.load(bad.state) is not None:
                # a readable snapshot with the right fingerprint is trusted: this one is
                # a fresh engine, so the darts already logged are replayed on it again
                continue
            _same(restored, await _replayed(service, match))
        await service.rewind(match, 1, None)
        assert await repo.latest(match.id) is None
        _same(await service.current(match), await _replayed(service, match))
    finally:
        await box.close()


@pytest.mark.parametrize("name", sorted(ENGINES))
def test_engine_states_survive_a_pickle_round_trip(name: str) -> None:
    rng, state = random.Random(name), ENGINES[name]()
    for _ in range(60):
        actions = [f for a in state.legal_actions() for f in fillings(state, a)]
        if not actions:
            break
        restored = snapshots.load(snapshots.dump(state))
        _same(restored, state)
        action = rng.choice(actions)
        state.apply(action)
        restored.apply(action)
        _same(restored, state)


@pytest.mark.asyncio
async def test_a_cold_start_from_a_snapshot_knows_the_play_a_rewind_began(
        tmp_path: Path, monkeypatch) -> None:
    """Which play of a match its state is (the last rewind marker's seq, carried by hidden
    panels' buttons) is the same restored from a snapshot taken after the rewind as from
    the whole log."""
    monkeypatch.setattr(snapshots, "EVERY", 3)
    box = Sandbox(seed=1, db_path=tmp_path / "s.sqlite3", language="ru", emit=lambda _: None)
    await box.start()
    try:
        await box.run_lines(SCRIPT + ["alice@grp: miss miss miss"])
        service, match = box.app.services.matches, await _live(box)
        await service.rewind(match, 1, None)
        rewound = await service.services.repos.matches.last_seq(match.id)
        await box.run_lines(["alice@grp: miss miss miss", "bob@grp: 20 20 20"])
        assert (await service.services.repos.snapshots.latest(match.id)).seq > rewound
        for from_log in (False, True):
            service.forget(match.id)
            if from_log:  # no snapshot: the whole log read
                await service.services.repos.snapshots.drop(match.id)
            await service.current(match)
            assert service.play(match.id) == rewound
    finally:
        await box.close()
