"""What an organiser's addition, removal, cancellation or Cup replacement or reopening owes the
players is written with a job held in its stead: a bot that stops right after the write tells
them at its next start.

An addition (``roster.ADDED_JOB``) mentions the player in the group's line. A removal
(``roster.REMOVED_JOB``) tells the removed player in private, or in the group naming them
when it cannot write to them, and an application's card loses its Approve and Reject; a
cancellation (``cancel.CANCELLED_JOB``) tells everyone who entered or applied, and its
question says it was cancelled; a Cup ``/replace`` (``cup.replace.REPLACED_JOB``) tells the
group and the old player, and the new player gets the board and the panel (none, after a
restart too, when the entry's choice of the round stands); a Cup ``/reopen``
says the round played again; a start pressed under ``/begin``'s question edits the question
into what was done (the opening job carries it); a group's ``/register`` or ``/settings``
delivered again after the stop redraws the check-in status. A retry
(Telegram out of reach) tells only whom it did not reach, and names nobody in the group
twice."""

from __future__ import annotations

from pathlib import Path

import pytest
from aiogram.methods import SendMessage

from bot.features import organiser, registration
from bot.features.cancel import CANCELLED_JOB
from bot.features.cup import corrections
from bot.features.cup.reopen import REOPENED_JOB
from bot.features.cup.replace import REPLACED_JOB
from bot.features.formats import runner
from bot.features.notices import CHECKIN_STATUS
from bot.features.organiser import REGISTRATION_JOB
from bot.features.roster import ADDED_JOB, REMOVED_JOB
from bot.features.schedule import SCHEDULED_JOB
from bot.play import hidden
from bot.scheduler import Scheduler
from tests.bot.conftest import Faults
from tests.bot.sandbox_run import (
    ProcessDied,
    died_in,
    opened,
    scenario_until,
    stopped_after,
)

_NIGHT = ["org@g: hi", "! add bot@g", "org@g: /new backgammon Night approval=on",
          "alice@dm: /start", "alice@g: /register", "bob@g: /register"]


async def _removed_before_a_stop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                 line: str) -> tuple[list[str], list[str], object]:
    """The transcript, ``line`` stopped right after its write, then a restart: what was said
    before the restart, after it, and the removed player's card as it ends."""
    output: list[str] = []
    async with opened(tmp_path, emit=output.append) as sandbox:
        await sandbox.run_lines(_NIGHT)
        stopped = await stopped_after(sandbox, monkeypatch, output, REMOVED_JOB, line)
        services, world = sandbox.app.services, sandbox.world
        handle = line.rsplit("@", 1)[1]
        entry = await services.repos.entrants.get(1, world.user(handle).id)
        card = world.find(world.group("g").id, entry.application_message_id)
        assert sandbox.errors == 0 and await services.repos.jobs.pending() == []
        assert entry.status == "removed"
    return output[:stopped], output[stopped:], card


async def test_a_removal_written_right_before_a_stop_is_told_at_the_next_start(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    before, after, card = await _removed_before_a_stop(tmp_path, monkeypatch,
                                                       "org@g: /remove @alice")
    assert not any("removed" in line for line in before[-3:]), before[-3:]
    assert sum(line.startswith("→ alice@dm: An organiser removed you") for line in after) == 1
    assert card.payload["text"] == "Alice removed from “Night”."
    assert not card.payload.get("reply_markup")


async def test_a_player_the_bot_cannot_write_to_is_named_in_the_group_after_the_stop(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _, after, card = await _removed_before_a_stop(tmp_path, monkeypatch, "org@g: /remove @bob")
    assert "→ g: Bob (@bob) removed from “Night”." in after, after
    assert card.payload["text"] == "Bob (@bob) removed from “Night”."


async def test_a_cancellation_written_right_before_a_stop_is_told_at_the_next_start(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    output: list[str] = []
    async with opened(tmp_path, emit=output.append) as sandbox:
        await sandbox.run_lines([*_NIGHT, "org@g: [✅ Approve]", "org@g: /cancel"])
        stopped = await stopped_after(sandbox, monkeypatch, output, CANCELLED_JOB,
                                       "org@g: [❌ Cancel it]")
        tournament = await sandbox.app.services.repos.tournaments.get(1)
        assert sandbox.errors == 0 and await sandbox.app.services.repos.jobs.pending() == []
    after = output[stopped:]
    assert tournament.status == "cancelled"
    assert any(line.startswith("→ alice@dm: ❌ “Night” was cancelled") for line in after), after
    assert any(line.startswith("✎ g#") and line.endswith("“Night” is cancelled (Org).")
               for line in after), after


async def test_a_cancellations_retry_tells_only_whom_telegram_did_not_take(
        tmp_path: Path, faults: Faults) -> None:
    """One entrant's private message meets Telegram out of reach: the others are told once,
    and the job's retry tells only that one (it told everyone again)."""
    output: list[str] = []
    async with opened(tmp_path, emit=output.append) as sandbox:
        await sandbox.run_lines([*_NIGHT, "bob@dm: /start", "org@g: /cancel"])
        alice = sandbox.world.user("alice").id
        faults.fail(5, lambda method: isinstance(method, SendMessage) and method.chat_id == alice)
        await sandbox.run_lines(["org@g: [❌ Cancel it]", "! advance 5m"])
        assert await sandbox.app.services.repos.jobs.pending() == []
    told = [line.split(":")[0] for line in output if "was cancelled by the organisers" in line]
    assert sorted(told) == ["→ alice@dm", "→ bob@dm"], told


async def test_a_removals_retry_names_the_player_in_the_group_once(
        tmp_path: Path, faults: Faults) -> None:
    """An entrant's private message on their removal meets Telegram out of reach: the group
    is told, naming them, once; the job's retry tells them in private and says nothing more
    there (it said the removal again)."""
    output: list[str] = []
    async with opened(tmp_path, emit=output.append) as sandbox:
        await sandbox.run_lines([*_NIGHT, "org@g: [✅ Approve]", "org@g: [✅ Approve]"])
        faults.fail(5, lambda method: isinstance(method, SendMessage)
                    and "removed you" in method.text)
        await sandbox.run_lines(["org@g: /remove @alice", "! advance 5m"])
        assert await sandbox.app.services.repos.jobs.pending() == []
    assert sum(line.startswith("→ alice@dm: An organiser removed you") for line in output) == 1
    assert [line for line in output if line.startswith("→ g: ") and "removed from" in line] \
        == ["→ g: Alice (@alice) removed from “Night”."], output


async def test_a_cup_replacement_written_right_before_a_stop_is_said_at_the_next_start(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Bob, in an HP semi-final, is replaced by Erin right before a stop: at the next start
    the group hears it, Bob is told, the board names Erin and Erin gets her panel, with
    which she plays."""
    replacing = "org@cup: /replace @bob @erin Erin_Moss ill"
    output: list[str] = []
    async with opened(tmp_path, language="ru", seed=3, emit=output.append) as sandbox:
        await sandbox.run_lines(scenario_until("cup_replaced_panel", replacing))
        stopped = await stopped_after(sandbox, monkeypatch, output, REPLACED_JOB, replacing)
        await sandbox.line("erin@dm: атака")
        pending = await sandbox.app.services.repos.jobs.pending()
        assert sandbox.errors == 0 and REPLACED_JOB not in {job.kind for job in pending}
    after = output[stopped:]
    assert any(line.startswith("→ cup: 🔁 Замена: теперь играет Erin_Moss") for line in after)
    assert any(line.startswith("→ bob@dm: 🔁") for line in after), after
    assert any(line.startswith("✎ cup#") and "Alice_Smith — Erin_Moss" in line for line in after)
    assert any(line.startswith("→ erin@dm: ⚔️ Матч #7") for line in after), after
    assert any(line.startswith("✎ erin@dm#") for line in after), after  # her choice taken


async def test_a_restart_asks_no_choice_of_a_player_whose_entry_chose(tmp_path: Path) -> None:
    """Dave, in an HP semi-final, has chosen when Erin replaces him: his choice stands and
    Erin gets no panel. A restart, and the /replace delivered again after it, draw the match
    as it stands: neither sends Erin a panel nor, the bot unable to write to her, asks her in
    the group to open the chat and choose (they did: the missing panels went to every player
    without one, awaited or not)."""
    replacing = "org@cup: /replace @dave @erin Erin_Moss уехал"
    output: list[str] = []
    async with opened(tmp_path, language="ru", seed=3, emit=output.append) as sandbox:
        await sandbox.run_lines([*scenario_until("cup_replace_mid_battle", replacing),
                                 replacing])
        replaced = len(output)
        await sandbox.run_lines(["! restart", "! replay"])
        await sandbox.app.services.scheduler.run_following()
        assert sandbox.errors == 0
    assert not any(line.startswith(("→ cup:", "→ erin@dm:")) for line in output[replaced:]), \
        output[replaced:]


@pytest.mark.parametrize(("scenario", "language", "line", "announced"), [
    ("formats_withdrawal_walkover_named", "fi", "org@sw: /dq @cat no-show",
     "⚔️ Kierros 2/2:"),
    ("formats_swiss_fewer_rounds", "en", "org@bg: /setresult @carol @frank 1:0 club night",
     "⚔️ Round 2 of 5:"),
    ("darts_walkover_without_marks", "ru", "anna@club: [🚪 Сняться]",
     "делят место: 1 — Ivan, Olga; 3 — Petr, Anna (выход из турнира)."),
], ids=["a removal's job", "a result's job", "a withdrawal's job, the next round's bye"])
async def test_a_round_opened_right_before_a_stop_is_announced_at_the_next_start(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, scenario: str, language: str,
        line: str, announced: str) -> None:
    """The write that opens a Swiss round notes its matches as not yet announced: a bot that
    stops right after it announces the round, with the table, at its next start, once (it
    found the round open and said nothing: the players never heard their pairings). The
    table is the one the round before ended with: the bye the next round gives Petr is not
    counted in it (it was, ranking him above Anna, whom he shares 3rd place with)."""
    advanced = runner._advanced

    async def dying(*args: object) -> object:
        step = await advanced(*args)
        if step.opened:
            raise ProcessDied
        return step

    output: list[str] = []
    async with opened(tmp_path, language=language, emit=output.append) as sandbox:
        await sandbox.run_lines(scenario_until(scenario, line))
        stopped = await died_in(sandbox, monkeypatch, output, line, runner, "_advanced",
                                dying)
        await sandbox.app.services.scheduler.run_following()  # as a live start does
        assert sandbox.errors == 0
    assert not any(announced in said for said in output[:stopped])
    assert sum(announced in said for said in output[stopped:]) == 1, output[stopped:]


async def test_a_cup_disqualification_stopped_after_its_closing_retires_the_boards(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Alice, in an HP semi-final against Dave, is disqualified; the /dq's job closes the
    match and the bot stops before drawing it closed: at the next start the job, finding
    nothing open, still retires the board and Dave's panel it noted before closing (they
    went on asking Dave to choose)."""
    async def dies(*args: object, **kwargs: object) -> None:
        raise ProcessDied

    line = "org@cup: /dq @alice неспортивно"
    output: list[str] = []
    async with opened(tmp_path, language="ru", seed=1, emit=output.append) as sandbox:
        await sandbox.run_lines(scenario_until("cup_semi_finalist_disqualified", line))
        await died_in(sandbox, monkeypatch, output, line, corrections, "retire_board", dies)
        await sandbox.app.services.scheduler.run_following()  # as a live start does
        services, world = sandbox.app.services, sandbox.world
        semi = next(match for match in await services.repos.matches.for_tournament(1)
                    if world.user("alice").id in match.players and match.stage != "groups")
        board = world.find(world.group("cup").id, semi.board_message_id)
        dave = world.user("dave").id
        panel = world.find(dave, await hidden.panels(services).get(semi.id, dave))
        assert sandbox.errors == 0 and semi.status == "finished"
    assert "⏹" in board.payload["text"] and not board.payload.get("reply_markup")
    assert "⏹" in panel.payload["text"] and not panel.payload.get("reply_markup")


async def test_a_cup_replacements_retry_only_tells_the_old_player(
        tmp_path: Path, faults: Faults) -> None:
    """Bob's private message meets Telegram out of reach: the group hears of it and Erin gets
    her panel once; the job's retry tells Bob, and nothing else again."""
    replacing = "org@cup: /replace @bob @erin Erin_Moss ill"
    output: list[str] = []
    async with opened(tmp_path, language="ru", seed=3, emit=output.append) as sandbox:
        await sandbox.run_lines(scenario_until("cup_replaced_panel", replacing))
        replaced = len(output)
        bob = sandbox.world.user("bob").id
        faults.fail(5, lambda method: isinstance(method, SendMessage) and method.chat_id == bob)
        await sandbox.run_lines([replacing, "! advance 5m"])
    after = output[replaced:]
    assert sum(line.startswith("→ cup: 🔁 Замена") for line in after) == 1, after
    assert sum(line.startswith("→ erin@dm: ⚔️ Матч #7") for line in after) == 1, after
    assert sum(line.startswith("→ bob@dm: 🔁") for line in after) == 1, after


@pytest.mark.parametrize(("where", "said_in"), [("g", "g"), ("g/5", "g/5")],
                         ids=["general chat", "forum topic"])
async def test_an_addition_written_right_before_a_stop_is_said_at_the_next_start(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str, said_in: str) -> None:
    """Said where the /add was typed: in a forum topic, in that topic (the job keeps it)."""
    output: list[str] = []
    async with opened(tmp_path, emit=output.append) as sandbox:
        await sandbox.run_lines(["org@g/1: hi", "! add bot@g", "carol@g: hi",
                                 "org@g: /new backgammon Night"])
        stopped = await stopped_after(sandbox, monkeypatch, output, ADDED_JOB,
                                       f"org@{where}: /add @carol")
        pending = await sandbox.app.services.repos.jobs.pending()
        assert sandbox.errors == 0 and ADDED_JOB not in {job.kind for job in pending}
    assert not any("added to" in line for line in output[:stopped])
    assert [line for line in output[stopped:] if "added to" in line] \
        == [f"→ {said_in}: ✅ Carol (@carol) added to “Night”."], output[stopped:]



async def test_a_cup_reopen_written_right_before_a_stop_is_said_at_the_next_start(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Cup ``/reopen`` (``cup.reopen.REOPENED_JOB``): the round played again is said, with
    its reason, after the restart (before, the board showed the round back with no word)."""
    reopening = "org@cup: /reopen @alice Dave's die fell off the table"
    output: list[str] = []
    async with opened(tmp_path, emit=output.append) as sandbox:
        await sandbox.run_lines(scenario_until("cup_reopen_notice_kept", reopening))
        stopped = await stopped_after(sandbox, monkeypatch, output, REOPENED_JOB, reopening)
        assert await sandbox.app.services.repos.jobs.pending() == []
    said = [line for line in output if line.startswith("→ cup: ↩️ The last round")]
    assert len(said) == 1 and output.index(said[0]) >= stopped, output[stopped:]
    assert said[0].endswith("Reason: Dave's die fell off the table")


async def test_a_withdrawal_delivered_again_is_said_again(tmp_path: Path) -> None:
    """A ``/withdraw`` delivered again (a stop after its write, before its update was noted
    as handled) or typed again says the withdrawal, not that the sender never entered."""
    output: list[str] = []
    async with opened(tmp_path, emit=output.append) as sandbox:
        await sandbox.run_lines([*_NIGHT, "alice@g: /withdraw", "alice@g: /withdraw"])
    assert output[-1] == "→ g: Alice has withdrawn from “Night”.", output[-3:]


@pytest.mark.parametrize(("lines", "said"), [
    (["org@g: /closereg", "org@g: /openreg"], "→ g: 📝 Registration for “Night” is open."),
    (["org@g: /closereg"], "→ g: 🔒 Registration for “Night” is closed.")])
async def test_registration_opened_or_closed_right_before_a_stop_is_said_at_the_next_start(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lines: list[str], said: str) -> None:
    """``organiser.REGISTRATION_JOB``: an opening says so with the Register button after the
    restart (before, the players were told nothing, and a second /openreg only said it was
    open already)."""
    output: list[str] = []
    async with opened(tmp_path, emit=output.append) as sandbox:
        await sandbox.run_lines([*_NIGHT, *lines[:-1]])
        stopped = await stopped_after(sandbox, monkeypatch, output, REGISTRATION_JOB,
                                      lines[-1])
        assert await sandbox.app.services.repos.jobs.pending() == []
    assert said not in output[:stopped] and output[stopped:].count(said) == 1, output[stopped:]


async def test_a_start_scheduled_right_before_a_stop_is_said_at_the_next_start(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``schedule.SCHEDULED_JOB``: the start and the check-in it opened at once are said,
    with the Check-in button, after the restart (before, the players heard of neither)."""
    scheduling = "org@g: /schedule in 1 hour"
    output: list[str] = []
    async with opened(tmp_path, emit=output.append) as sandbox:
        await sandbox.run_lines(scenario_until("checkin_open_at_schedule", scheduling))
        stopped = await stopped_after(sandbox, monkeypatch, output, SCHEDULED_JOB, scheduling)
        assert await sandbox.app.services.repos.jobs.pending() != []  # the start's own
    said = [line for line in output if line.startswith("→ g: 🗓 “Friday” starts")]
    assert len(said) == 1 and output.index(said[0]) >= stopped, output
    at = output.index(said[0])
    assert output[at + 1].startswith("  📋 Check-in is open") and output[at + 2] == \
        "  [✅ Check in]", output[at:]


async def test_a_start_pressed_right_before_a_stop_answers_its_question_at_the_next_start(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """«Start now» under ``/begin``'s question (applications still wait), the bot stopped
    right after the start's write: the next start announces the tournament and edits the
    question into what was done, its buttons gone (the opening job carries it; before, the
    question went on asking)."""
    run = Scheduler.run

    async def dies_at_the_opening(scheduler: Scheduler, job_id: int) -> None:
        if (await scheduler.jobs.get(job_id)).kind == "opening":
            raise ProcessDied
        await run(scheduler, job_id)

    output: list[str] = []
    async with opened(tmp_path, language="ru", emit=output.append) as sandbox:
        begin = "olga@klub: /begin"
        await sandbox.run_lines([*scenario_until("begin_with_pending_application", begin), begin])
        stopped = await died_in(sandbox, monkeypatch, output, "olga@klub: [▶️ Начать сейчас]",
                                Scheduler, "run", dies_at_the_opening)
        await sandbox.app.services.scheduler.run_following()  # as a live start does
        answered = [line for line in output if line.startswith("✎ klub#")
                    and line.endswith("начат без заявок, ждавших решения.")]
        assert len(answered) == 1, output[stopped:]
        question = int(answered[0].split("#")[1].split(":")[0])
        card = sandbox.world.find(sandbox.world.group("klub").id, question)
        assert sandbox.errors == 0 and not card.payload.get("reply_markup")
    assert not any("Турнир «Битва костей» начался" in line for line in output[:stopped])
    started = [at for at, line in enumerate(output) if line.startswith("→ klub: 🏁 Турнир")]
    assert len(started) == 1 and stopped <= started[0] < output.index(answered[0]), output[stopped:]


@pytest.mark.parametrize(("line", "owner", "shown"), [
    ("dan@ck: /register", registration, "Entrants: 3."),
    ("org@ck: /settings title=Fin Open", organiser, "⏰ “Fin Open” starts in 10 min"),
], ids=["/register", "/settings"])
async def test_a_group_update_delivered_again_after_a_stop_redraws_the_checkin_status(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, line: str, owner: object,
        shown: str) -> None:
    """A ``/register`` or ``/settings`` written right before a stop, before the check-in
    status was redrawn, and delivered again after the restart (Telegram was not told it was
    handled): the copy changes nothing and posts nothing, and the status is drawn as the
    tournament now stands (before, it showed the old entrants or title until the next
    change)."""
    async def dies(*args: object) -> None:
        raise ProcessDied

    output: list[str] = []
    async with opened(tmp_path, emit=output.append) as sandbox:
        await sandbox.run_lines(scenario_until("checkin_status_registration_closed",
                                               "org@ck: /closereg"))
        stopped = await died_in(sandbox, monkeypatch, output, line, owner,
                                "redraw_checkin_status", dies)
        await sandbox.line("! replay")
        tournament = await sandbox.app.services.repos.tournaments.get(1)
        status = sandbox.world.find(tournament.chat_id,
                                    tournament.state[CHECKIN_STATUS]["message_id"])
        assert sandbox.errors == 0
    assert shown not in "\n".join(output[:stopped])
    assert shown in status.payload["text"], output[stopped:]
    assert not any(said.startswith("→ ") for said in output[stopped:]), output[stopped:]
