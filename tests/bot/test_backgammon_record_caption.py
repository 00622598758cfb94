"""A match played in the bot that ends in a tournament sends its .mat record heading what the
result makes (tests/scenarios/backgammon_live_record_with_next_matches.txt): the next matches
in the record's caption, one group message; a caption over Telegram's limit leaves them to a
message after the record, and a restart between the result and the job that sends it loses
neither."""

from __future__ import annotations

from pathlib import Path

from bot.features.backgammon.live import record
from storage.repositories.matches import MatchesRepo
from tests.bot.sandbox_run import opened, run_script, said
from tests.bot.test_scenarios import SCENARIOS

SCRIPT = (SCENARIOS / "backgammon_live_record_with_next_matches.txt").read_text(encoding="utf-8")
SEMI_FINALS = SCRIPT.split("bob@g: /resign match")[0]
NEXT = "  ⚔️ Next matches:\n  • Final: Dave — Bob"


class Died(Exception):
    """The process ended right after the result's transaction committed."""


def _records(output: list[str]) -> list[str]:
    return [message for message in said(output) if message.startswith("→ g: document match-2")]


async def test_the_next_matches_are_the_records_caption(tmp_path: Path) -> None:
    messages = said(await run_script(tmp_path, SEMI_FINALS))
    caption = next(m for m in messages if m.startswith("→ g: document match-2.mat"))
    assert caption.endswith(f"(.mat for GNU Backgammon and XG).\n{NEXT}\"")
    assert not [m for m in messages if m.startswith("→ g: ⚔️ Next matches")]


async def test_a_caption_too_long_leaves_the_next_matches_to_a_message(
        tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(record, "CAPTION_LIMIT", 150)
    messages = said(await run_script(tmp_path, SEMI_FINALS))
    at = next(i for i, m in enumerate(messages) if m.startswith("→ g: document match-2.mat"))
    assert messages[at].endswith("(.mat for GNU Backgammon and XG).\"")
    assert messages[at + 1] == f"→ g: {NEXT.strip()}"


async def test_a_restart_after_the_result_sends_the_record_with_the_next_matches_once(
        tmp_path: Path, monkeypatch) -> None:
    settle = MatchesRepo.settle

    async def then_die(repo, match_id, entry, *args, **kwargs):
        written = await settle(repo, match_id, entry, *args, **kwargs)
        if entry.get("meta") == "result" and match_id == 2:
            raise Died
        return written

    output: list[str] = []
    async with opened(tmp_path, emit=output.append) as sandbox:
        monkeypatch.setattr(MatchesRepo, "settle", then_die)
        await sandbox.run_lines(SEMI_FINALS.splitlines())
        monkeypatch.setattr(MatchesRepo, "settle", settle)
        assert _records(output) == []
        await sandbox.line("! restart")
        await sandbox.line("! restart")  # the job ran once: nothing is said twice
    sent = _records(output)
    assert len(sent) == 1 and sent[0].endswith(f"{NEXT}\""), sent
    assert "Carol resigned the match: Bob gets the points needed" in sent[0]
