"""What registration needs posted is written with a job held in its stead: a new
tournament's announcement (the Register button) and the card of an application that waits
for the organisers (Approve, Reject). Telegram out of reach when it is due, it is posted
once Telegram answers again, and it works; a bot stopped right after the application's write
posts the card at its next start, with what tells the applicant it went to the organisers."""

from __future__ import annotations

from pathlib import Path

import pytest
from aiogram.methods import EditMessageText, SendMessage

from bot.features.applications import CARD_JOB, DECISION_JOB
from bot.features.roster import REMOVED_JOB
from bot.scheduler import Scheduler
from storage.repositories.tournaments import EntrantsRepo
from tests.bot.conftest import Faults, Outage
from tests.bot.sandbox_run import (
    ProcessDied,
    died_in,
    dies_holding,
    opened,
    stopped_after,
    stops_before,
)


@pytest.mark.parametrize(("before", "cut_off", "posted", "press"), [
    ((), "org@reg: /new shanghai Spring Darts approval=off", "Spring Darts",
     "alice@reg: [📝 Register]"),
    (("org@reg: /new shanghai Spring Darts approval=on",), "alice@reg: /register",
     "Approve", "org@reg: [✅ Approve]"),
], ids=["announcement", "application card"])
async def test_what_telegram_did_not_take_is_posted_when_it_answers_again(
        tmp_path: Path, telegram_down: Outage, before: tuple[str, ...], cut_off: str,
        posted: str, press: str) -> None:
    output: list[str] = []
    async with opened(tmp_path, emit=output.append) as sandbox:
        await sandbox.run_lines(before)
        said = await telegram_down.cut_off(sandbox, output, cut_off)
        assert any(posted in line for line in said), said
        await sandbox.line(press)
        alice = await sandbox.app.services.repos.entrants.get(1, sandbox.world.user("alice").id)
    assert alice.status == "approved"


async def test_a_decision_whose_dm_fails_is_still_said_on_the_card(
        tmp_path: Path, faults: Faults) -> None:
    """Telegram out of reach for the applicant's DM: the card says the decision and loses
    its Approve and Reject buttons all the same (it kept them, as if undecided)."""
    output: list[str] = []
    async with opened(tmp_path, emit=output.append) as sandbox:
        await sandbox.run_lines(["org@reg: /new shanghai Spring Darts approval=on",
                                 "alice@dm: /start", "alice@reg: /register"])
        faults.fail(5, lambda method: isinstance(method, SendMessage) and method.chat_id > 0)
        decided = len(output)
        await sandbox.line("org@reg: [✅ Approve]")
    assert any(line.startswith("✎ reg#") and "approved by" in line
               for line in output[decided:]), output[decided:]


async def test_a_decision_whose_dm_telegram_did_not_take_is_told_when_it_answers_again(
        tmp_path: Path, telegram_down: Outage) -> None:
    """The applicant's DM is held as a job written with the decision
    (``applications.DECISION_JOB``): lost with the connection, it is told at the job's
    retry (it was never told: a second press only redrew the card)."""
    output: list[str] = []
    async with opened(tmp_path, emit=output.append) as sandbox:
        await sandbox.run_lines(["org@reg: /new shanghai Spring Darts approval=on",
                                 "alice@dm: /start", "alice@reg: /register"])
        said = await telegram_down.cut_off(sandbox, output, "org@reg: [✅ Approve]")
    told = [line for line in said if line.startswith("→ alice@dm")]
    assert len(told) == 1 and "Spring Darts" in told[0], said


@pytest.mark.parametrize("decision", ["✅ Approve", "❌ Reject"])
async def test_a_decision_written_right_before_a_stop_is_told_at_the_next_start(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, decision: str) -> None:
    """A bot that stops right after writing the decision leaves its job: the next start
    tells the applicant and draws the card decided (its buttons gone); a press on the card
    meanwhile changes nothing."""
    output: list[str] = []
    async with opened(tmp_path, emit=output.append) as sandbox:
        await sandbox.run_lines(["org@reg: /new shanghai Spring Darts approval=on",
                                 "alice@dm: /start", "alice@reg: /register"])
        with monkeypatch.context() as patch:
            patch.setattr(Scheduler, "stand_in", stops_before(DECISION_JOB))
            await sandbox.line(f"org@reg: [{decision}]")
        stopped = len(output)
        await sandbox.line("! restart")
        await sandbox.app.services.scheduler.run_following()  # as a live start does
        services = sandbox.app.services
        alice = await services.repos.entrants.get(1, sandbox.world.user("alice").id)
        card = sandbox.world.find(sandbox.world.group("reg").id, alice.application_message_id)
        assert sandbox.errors == 0 and await services.repos.jobs.pending() == []
    told = [line for line in output[stopped:] if line.startswith("→ alice@dm")]
    assert len(told) == 1 and alice.status in told[0], output[stopped:]
    assert f"{alice.status} by" in card.payload["text"]
    assert not card.payload.get("reply_markup")


async def _card_pressed_after(tmp_path: Path, closing: str) -> tuple[list[str], object]:
    """An application, ``closing`` (whose card's edit the caller makes miss), then a press
    on Approve: what the press said, and the card as it ends."""
    output: list[str] = []
    async with opened(tmp_path, emit=output.append) as sandbox:
        await sandbox.run_lines(["org@reg: /new shanghai Spring Darts approval=on",
                                 "alice@reg: /register Alice", closing])
        pressed = len(output)
        await sandbox.line("org@reg: [✅ Approve]")
        alice = await sandbox.app.services.repos.entrants.get(1, sandbox.world.user("alice").id)
        card = sandbox.world.find(sandbox.world.group("reg").id, alice.application_message_id)
    return output[pressed:], card


async def test_a_withdrawn_card_whose_edit_failed_says_it_when_pressed(
        tmp_path: Path, faults: Faults) -> None:
    """An application withdrawn while its card's edit met Telegram out of reach kept its
    Approve and Reject: a press on it says so and draws the card closed (it lost only its
    buttons)."""
    faults.fail(5, lambda method: isinstance(method, EditMessageText))
    said, card = await _card_pressed_after(tmp_path, "alice@reg: /withdraw")
    assert any(line.startswith("⚑ org: Alice withdrew the application") for line in said), said
    assert card.payload["text"] == "Alice has withdrawn from “Spring Darts”."
    assert not card.payload.get("reply_markup")


async def test_a_removed_card_left_open_says_it_when_pressed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A removal whose card was not closed (its job not yet run: the bot stopped): a press
    on the card says an organiser removed the applicant and closes it (it said "already
    decided" and only lost its buttons)."""
    monkeypatch.setattr(Scheduler, "stand_in", stops_before(REMOVED_JOB))
    said, card = await _card_pressed_after(tmp_path, "org@reg: /remove @alice")
    assert any(line.startswith("⚑ org: An organiser removed Alice") for line in said), said
    assert card.payload["text"] == "Alice removed from “Spring Darts”."
    assert not card.payload.get("reply_markup")


async def test_a_removed_card_whose_edit_failed_is_closed_by_the_removals_retry(
        tmp_path: Path, faults: Faults) -> None:
    faults.fail(5, lambda method: isinstance(method, EditMessageText))
    output: list[str] = []
    async with opened(tmp_path, emit=output.append) as sandbox:
        await sandbox.run_lines(["org@reg: /new shanghai Spring Darts approval=on",
                                 "alice@reg: /register Alice", "org@reg: /remove @alice",
                                 "! advance 2m"])
        alice = await sandbox.app.services.repos.entrants.get(1, sandbox.world.user("alice").id)
        card = sandbox.world.find(sandbox.world.group("reg").id, alice.application_message_id)
    assert card.payload["text"] == "Alice (@alice) removed from “Spring Darts”."
    assert not card.payload.get("reply_markup")


@pytest.mark.parametrize("where", ["reg", "reg/5"], ids=["general chat", "forum topic"])
async def test_a_card_posted_after_a_stop_answers_the_register_it_came_from(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str) -> None:
    """An application typed in the group and written right before a stop: the card the next
    start posts says the applicant's line and answers their ``/register`` where it was typed
    (in its topic), as the card posted at once does."""
    output: list[str] = []
    async with opened(tmp_path, emit=output.append) as sandbox:
        await sandbox.run_lines(["org@reg/1: hi",
                                 "org@reg: /new shanghai Spring Darts approval=on"])
        stopped = await stopped_after(sandbox, monkeypatch, output, CARD_JOB,
                                      f"alice@{where}: /register Alice")
        services, world = sandbox.app.services, sandbox.world
        alice = await services.repos.entrants.get(1, world.user("alice").id)
        card = world.find(world.group("reg").id, alice.application_message_id)
        assert sandbox.errors == 0 and await services.repos.jobs.pending() == []
    assert not any("Application" in line for line in output[:stopped]), output[stopped - 3:]
    posted = [line for line in output[stopped:] if line.startswith(f"→ {where}: 📝 Applicat")]
    assert len(posted) == 1, output[stopped:]
    assert "went to the organisers" in card.payload["text"]


@pytest.mark.parametrize("applying", [
    ["org@reg: /new cup Autumn approval=on", "alice@dm: /start", "alice@reg: /register",
     "alice@dm: Alice_Smith", "alice@dm: photo:"],
    ["org@reg: /new shanghai Autumn approval=on", "alice@dm: /start reg-1"],
], ids=["form's screenshot", "link to the bot"])
async def test_an_application_made_in_private_right_before_a_stop_is_told_there(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, applying: list[str]) -> None:
    """An application sent in private (the form's screenshot, or the link of a game without
    a form), written right before a stop: the next start posts its card and tells the
    applicant in private, once, that it went to the organisers (before, only the card)."""
    output: list[str] = []
    async with opened(tmp_path, emit=output.append) as sandbox:
        await sandbox.run_lines(applying[:-1])
        stopped = await died_in(sandbox, monkeypatch, output, applying[-1], Scheduler,
                                "stand_in", dies_holding(CARD_JOB))
        await sandbox.app.services.scheduler.run_following()  # as a live start does
        assert sandbox.errors == 0 and await sandbox.app.services.repos.jobs.pending() == []
    told = "→ alice@dm: 📨 Your application for “Autumn” went to the organisers."
    assert not any(line.startswith(told) or "📝 Application" in line
                   for line in output[:stopped]), output[:stopped]
    after = output[stopped:]
    assert [line for line in after if line.startswith(told)] == [
        f"{told} I will tell you their decision."], after
    assert sum(line.startswith("→ reg:") and "📝 Application" in line for line in after) == 1, after


async def test_a_cards_retry_after_its_private_line_failed_posts_no_second_card(
        tmp_path: Path, faults: Faults) -> None:
    """The applicant's line in private meets Telegram out of reach after the card went out:
    the job's retry tells them, and the card stays the one posted."""
    output: list[str] = []
    async with opened(tmp_path, emit=output.append) as sandbox:
        await sandbox.run_lines(["org@reg: /new shanghai Autumn approval=on"])
        alice = sandbox.world.user("alice").id
        faults.fail(5, lambda method: isinstance(method, SendMessage) and method.chat_id == alice
                    and "went to the organisers" in method.text)
        await sandbox.run_lines(["alice@dm: /start reg-1", "! advance 5m"])
        assert await sandbox.app.services.repos.jobs.pending() == []
    assert sum("📝 Application" in line for line in output) == 1, output
    assert sum(line.startswith("→ alice@dm: 📨 Your application") for line in output) == 1


async def test_a_card_whose_applicant_opened_the_chat_right_before_a_stop_asks_no_more(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An approved applicant the bot could not write to opens the chat: told the decision,
    noted as told, and the bot stops right there. Their card no longer asks them to open the
    chat (it is redrawn before the note; before, after it: never, once stopped)."""
    update = EntrantsRepo.update

    async def dies_once_noted(repo: EntrantsRepo, *args: object, **fields: object) -> None:
        await update(repo, *args, **fields)
        if fields.get("unreached") == 0:
            raise ProcessDied

    output: list[str] = []
    async with opened(tmp_path, emit=output.append) as sandbox:
        await sandbox.run_lines(["org@reg: /new shanghai Spring Darts approval=on",
                                 "alice@reg: /register", "org@reg: [✅ Approve]"])
        await died_in(sandbox, monkeypatch, output, "alice@dm: /start", EntrantsRepo,
                      "update", dies_once_noted)
        alice = await sandbox.app.services.repos.entrants.get(1, sandbox.world.user("alice").id)
        card = sandbox.world.find(sandbox.world.group("reg").id, alice.application_message_id)
    assert card.payload["text"] == "✅ Alice approved by Org", card.payload
    assert not card.payload.get("reply_markup")
