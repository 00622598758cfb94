"""A group's table is ranked once for the same results: a /standings asked again before the
next result, or a round's end that ranks the group to go on and again for the table it
posts, reuse it; a new result ranks the group anew."""

from __future__ import annotations

from pathlib import Path

from bot.features.formats import progress
from tests.bot import round_robin
from tests.bot.sandbox_run import opened


async def test_a_table_is_ranked_again_only_after_a_new_result(tmp_path: Path,
                                                               monkeypatch) -> None:
    ranked: list[int] = []
    rank = progress.standings

    def counted(*args, **kwargs):
        ranked.append(len(args[1]))
        return rank(*args, **kwargs)

    monkeypatch.setattr(progress, "standings", counted)
    progress._ranked.cache_clear()
    output: list[str] = []
    async with opened(tmp_path, emit=output.append) as sandbox:
        await round_robin.begin(sandbox, 4)
        await round_robin.end_round_one(sandbox)
        assert ranked == [2], ranked  # the round's end ranked once: to post the table
        start = len(output)
        await sandbox.run_lines(["p0@rr: /standings"] * 2)
        tables = [line for line in output[start:] if "photo" in line]
        assert ranked == [2] and len(tables) == 2, (ranked, output[start:])
        await sandbox.run_lines(["p0@rr: /result win", "p1@rr: /confirm",
                                 "p0@rr: /standings"])
    assert ranked[-1] == 3, ranked  # three results: ranked anew
