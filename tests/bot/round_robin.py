"""A report-played round robin in the sandbox: registered, begun, and its first round
reported and confirmed, for the tests that look at what those steps write or compute."""

from __future__ import annotations

from bot.sandbox.runner import Sandbox
from tests.sql_trace import sql_trace


def handles(players: int) -> list[str]:
    return [f"p{number}" for number in range(players)]


async def begin(sandbox: Sandbox, players: int) -> list[str]:
    """A report-played round robin of ``players`` registered: the statements of its /begin."""
    await sandbox.run_lines(["org@rr: /new armchair Round play=report",
                             *(f"{handle}@rr: /register" for handle in handles(players))])
    with sql_trace(sandbox.app.services.db) as statements:
        await sandbox.line("org@rr: /begin")
    return statements


async def end_round_one(sandbox: Sandbox) -> list[str]:
    """Every round 1 match reported and confirmed: the statements of the last /confirm."""
    services = sandbox.app.services
    handle = {sandbox.world.user(h).id: h for h in sandbox.world.users}
    first = [m for m in await services.repos.matches.for_tournament(1) if m.round == 1
             and m.player_b is not None]
    for match in first[:-1]:
        await sandbox.run_lines([f"{handle[match.player_a]}@rr: /result win",
                                 f"{handle[match.player_b]}@rr: /confirm"])
    last = first[-1]
    await sandbox.line(f"{handle[last.player_a]}@rr: /result win")
    with sql_trace(services.db) as statements:
        await sandbox.line(f"{handle[last.player_b]}@rr: /confirm")
    return statements
