"""Jobs and the start under faults, in the sandbox: a failed send leaves the state whole, a
job that meets a passing fault is retried later, a group the bot can no longer write to
pauses its tournaments and tells the organisers, an update that met a passing fault before
it changed anything is answered so, and a blocked user is no error."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from aiogram.exceptions import TelegramForbiddenError, TelegramServerError
from aiogram.methods import (
    EditMessageMedia,
    EditMessageReplyMarkup,
    EditMessageText,
    GetChatMember,
    SendDice,
    SendMessage,
    SendPhoto,
    TelegramMethod,
)

from bot.clock import VirtualClock
from bot.sandbox.runner import Sandbox
from bot.sandbox.session import SandboxSession
from bot.scheduler import RETRY_DELAYS, VirtualScheduler
from storage.db import Database
from storage.repositories.jobs import Job, JobsRepo
from storage.repositories.tournaments import TournamentsRepo
from storage.repositories.users import ChatsRepo, UsersRepo
from tests.bot.sandbox_run import opened, scenario_until
from tests.bot.test_applied_once import die_after_commit

SETUP = """\
! now 2026-10-21T09:00+03:00
org@dm: /start
org@dice: /new shanghai Friday Darts
alice@dice: /register
bob@dice: /register
org@dice: /schedule 21.10.2026 20:00 Europe/Moscow
"""


@asynccontextmanager
async def _started(tmp_path: Path, language: str = "ru",
                   seed: int = 1) -> AsyncIterator[Sandbox]:
    """A started sandbox whose printed lines are kept in its ``output``."""
    output: list[str] = []
    async with opened(tmp_path, seed=seed, language=language, emit=output.append) as box:
        box.output = output
        yield box


@pytest.fixture
async def sandbox(tmp_path: Path):
    async with _started(tmp_path) as box:
        yield box


async def _run(box: Sandbox, script: str) -> list[str]:
    start = len(box.output)
    await box.run_lines(script.splitlines())
    return box.output[start:]


async def _rows(box: Sandbox, sql: str) -> list[tuple]:
    return [tuple(row) for row in await box.app.services.db.fetchall(sql)]


def _errors(lines: list[str]) -> list[str]:
    return [line for line in lines if line.startswith("!! error")]


def _announces_start(method: TelegramMethod) -> bool:
    return isinstance(method, SendMessage) and "начался" in method.text


async def test_a_start_whose_announcement_fails_is_retried_and_opens(sandbox, faults):
    await _run(sandbox, SETUP)
    faults.fail(5, _announces_start)  # more than the sending layer's quick retries
    failed = await _run(sandbox, "! now 2026-10-21T20:00+03:00")
    assert not _errors(failed) and not any("начался" in line for line in failed)
    assert await _rows(sandbox, "SELECT status FROM tournaments") == [("running",)]
    assert await _rows(sandbox, "SELECT kind, status FROM jobs WHERE kind = 'opening'") == [
        ("opening", "pending")]

    opened = await _run(sandbox, "! advance 2m")
    assert not _errors(opened)
    [started] = [i for i, line in enumerate(opened) if "начался" in line]
    assert "Тур 1" in "\n".join(opened[started:])  # the roster heads the first round
    assert sum("Тур 1" in line for line in opened) == 1
    assert await _rows(sandbox, "SELECT COUNT(*) FROM matches") == [(1,)]
    assert await _rows(sandbox, "SELECT status FROM jobs WHERE kind = 'opening'") == [("done",)]


async def test_a_cup_start_whose_announcement_fails_makes_its_matches_once(sandbox,
                                                                          faults):
    await _run(sandbox, "olga@klub: /new cup Битва костей\npetr@klub: hi\nanna@klub: hi\n"
                        "olga@klub: /add @petr Petr_Petrov\nolga@klub: /add @anna Anna_Ivanova")
    faults.fail(5, _announces_start)
    failed = await _run(sandbox, "olga@klub: /begin")
    assert not _errors(failed) and not any("начался" in line for line in failed)
    made = await _rows(sandbox, "SELECT id, status FROM matches")

    opened = await _run(sandbox, "! advance 2m")
    assert not _errors(opened)
    [started] = [i for i, line in enumerate(opened) if "начался" in line]
    assert "тур 1 из 1" in "\n".join(opened[started:])
    assert await _rows(sandbox, "SELECT id, status FROM matches") == made
    assert await _rows(sandbox, "SELECT status FROM jobs WHERE kind = 'opening'") == [("done",)]


async def test_a_retried_opening_posts_the_board_that_failed_once(sandbox, faults):
    await _run(sandbox, SETUP)
    faults.fail(5, lambda m: isinstance(m, SendMessage) and "матч #1" in m.text)
    first = await _run(sandbox, "! now 2026-10-21T20:00+03:00")
    assert sum("начался" in line for line in first) == 1
    assert not any("матч #1" in line for line in first)
    later = await _run(sandbox, "! advance 2m")
    assert not _errors(later) and not any("начался" in line for line in later)
    assert sum("матч #1" in line for line in later) == 1  # the board, never posted before
    assert await _rows(sandbox, "SELECT status FROM jobs WHERE kind = 'opening'") == [("done",)]
    assert await _rows(sandbox, "SELECT board_message_id IS NOT NULL FROM matches") == [(1,)]
    assert not any("матч #1" in line for line in await _run(sandbox, "! advance 20m"))


async def test_a_retried_move_on_posts_the_next_rounds_board_that_failed(sandbox,
                                                                         faults):
    await _run(sandbox, "org@dice: /new shanghai Cup Night format=single_elim\n"
                        + "".join(f"{name}@dice: /register\n"
                                  for name in ("alice", "bob", "carol", "dave"))
                        + "org@dice: /begin")
    faults.fail(5, lambda m: isinstance(m, SendMessage) and "матч #3" in m.text)
    said = await _run(sandbox, "org@dice: /setresult @alice @dave 2:0 ok\n"
                               "org@dice: /setresult @bob @carol 2:0 ok")
    assert any("Финал: Alice — Bob" in line for line in said)
    assert not any("матч #3" in line for line in said)
    retried = await _run(sandbox, "! advance 2m")
    assert sum("матч #3" in line for line in retried) == 1 and not _errors(retried)
    assert not any("Финал" in line for line in retried)  # the round is not said again


async def test_a_board_whose_edit_failed_is_drawn_again_and_its_buttons_work(sandbox,
                                                                             faults):
    """A dart's board edit does not reach Telegram: the board shows the visit before it, so
    its buttons would be refused as old; a minute later it is drawn again as the match
    stands, and the next dart pressed on it counts."""
    await _run(sandbox, "\n".join(scenario_until("darts_restart_mid_visit", "! restart")))
    faults.fail(5, lambda m: isinstance(m, EditMessageText))
    failed = await _run(sandbox, "alice@grp: [S20]")
    assert not any("S20 ·" in line for line in failed)
    redrawn = await _run(sandbox, "! advance 1m")
    assert sum("T20 · S20 · —" in line for line in redrawn) == 1 and not _errors(redrawn)
    pressed = await _run(sandbox, "alice@grp: [D20]")
    assert any("T20 · S20 · D20" in line for line in pressed) and not _errors(pressed)


async def test_a_pause_whose_message_failed_still_shows_on_the_board(tmp_path: Path,
                                                                   faults):
    """/pause is written, then its message meets Telegram out of reach: the board says the
    pause all the same (it kept its move buttons, each press answered with the pause), and
    the job held for them says the pause once Telegram takes it, without drawing the board
    again (``pause.SWITCHED_JOB``)."""
    async with _started(tmp_path, "en") as box:
        pause = "org@g: /pause lunch"
        await _run(box, "\n".join(scenario_until("backgammon_addtime_keeps_the_turn", pause)))
        faults.fail(5, lambda m: isinstance(m, SendMessage) and "is paused" in m.text)
        said = await _run(box, pause) + await _run(box, "! advance 1m")
        assert sum("The match is paused (lunch)" in line for line in said) == 1
        assert sum(line.startswith("→ g: ⏸") for line in said) == 1, said


async def test_board_posts_the_new_board_when_the_old_ones_buttons_stay(sandbox, faults):
    """/board takes the buttons off the old board first: Telegram out of reach for that
    leaves them (a press on them is checked as any) and the new board is posted."""
    await _run(sandbox, "\n".join(scenario_until("darts_restart_mid_visit", "! restart")))
    faults.fail(5, lambda m: isinstance(m, EditMessageReplyMarkup))
    said = await _run(sandbox, "alice@grp: /board")
    assert not _errors(said) and sum(line.startswith("→ grp: 🎯") for line in said) == 1
    assert any("T20 · S20" in line for line in await _run(sandbox, "alice@grp: [S20]"))


async def test_board_that_fails_to_post_leaves_the_old_boards_buttons(sandbox, faults):
    """/board posts the new board before it takes the old one's buttons off: when Telegram
    does not take the new one, the old board still plays."""
    await _run(sandbox, "\n".join(scenario_until("darts_restart_mid_visit", "! restart")))
    faults.fail(5, lambda m: isinstance(m, SendMessage) and m.text.startswith("🎯"))
    assert not any(line.startswith("✎") for line in await _run(sandbox, "alice@grp: /board"))
    assert any("T20 · S20" in line for line in await _run(sandbox, "alice@grp: [S20]"))


async def test_a_backgammon_board_whose_edit_failed_is_drawn_again(tmp_path: Path, faults):
    """A move's board (drawn once the bot has rolled what it rolls by itself) does not
    reach Telegram: a minute later it is drawn again, and its roll button works."""
    async with _started(tmp_path, seed=3) as box:
        move, roll = "a@g: б/24х 13/8", "b@g: [🎲 Бросок]"
        await _run(box, "\n".join(scenario_until("backgammon_live_russian_moves", move)))
        faults.fail(5, lambda m: isinstance(m, EditMessageMedia))
        assert _errors(await _run(box, move))  # Telegram out of reach, said as an error
        redrawn = await _run(box, "! advance 1m")
        assert sum("bar/24* 13/8" in line for line in redrawn) == 1 and not _errors(redrawn)
        rolled = await _run(box, roll)
        assert not _errors(rolled) and any("ходит B" in line for line in rolled)


async def test_a_cup_matchs_first_message_that_failed_is_posted_a_minute_later(tmp_path: Path,
                                                                              faults):
    """A Cup match's first roll is its first message: when Telegram does not take it, there
    is no message to draw again in place, so a minute later it is posted."""
    async with _started(tmp_path, "en", seed=11) as box:
        roll = "dave@cup: 🎲 1"
        await _run(box, "\n".join(scenario_until("cup_third_vote_walkover", roll)))
        faults.fail(5, lambda m: isinstance(m, SendMessage) and m.text.startswith("🎲 Dave"))
        assert _errors(await _run(box, roll))  # Telegram out of reach, said as an error
        later = await _run(box, "! advance 1m")
        assert later[:3] == ["→ cup: 🎲 Dave_Jones vs Alice_Smith", "  Dave_Jones: 1.",
                             "  Round 1: Alice_Smith to roll."], later
        assert not _errors(later)


async def test_a_hand_that_failed_at_the_match_start_is_sent_a_minute_later(tmp_path: Path,
                                                                          faults):
    """An armchair match opens with its score card out and Bob's hand meeting Telegram out
    of reach: a minute later the hand he never got is sent (he had no buttons to play)."""
    async with _started(tmp_path, "en") as box:
        begin = "org@g: /begin"
        await _run(box, "\n".join(scenario_until("armchair_two_matches_typed", begin)))
        faults.fail(5, lambda m: isinstance(m, SendMessage) and m.chat_id == box.world.users[
            "bob"].id and "Your hand" in m.text)
        assert not any(line.startswith("→ bob@dm: 🃏") for line in await _run(box, begin))
        later = await _run(box, "! advance 1m")
        assert sum(line.startswith("→ bob@dm: 🃏") for line in later) == 1, later


async def test_a_board_a_correction_could_not_redraw_is_drawn_a_minute_later(tmp_path: Path,
                                                                         faults):
    """A corrected semi-final puts Dave in the final, whose board's edit with his name does
    not reach Telegram: a minute later it is drawn again, and his bull-off button is there."""
    async with _started(tmp_path, "en") as box:
        correction = "org@g: /setresult @dave @alice 1:0 Dave won in fact"
        await _run(box, "\n".join(scenario_until("formats_bracket_correction_next_made",
                                                 correction)))
        faults.fail(5, lambda m: isinstance(m, EditMessageText) and "match #3" in m.text)
        await _run(box, correction)
        later = await _run(box, "! advance 1m") + await _run(box, "dave@g: [🎯 Bull-off: Dave]")
        assert not _errors(later) and any("Dave won the bull-off" in line for line in later)


async def test_the_bots_die_that_failed_is_rolled_a_minute_later(tmp_path: Path, faults):
    """In a practice match the bot's own 🎲 does not reach Telegram: it was never rolled,
    and nothing the player can do rolls it. A minute later the bot rolls it, and the round
    goes on."""
    async with _started(tmp_path, seed=5) as box:
        first = "alice@g: 🎲 5"
        await _run(box, "\n".join(scenario_until("friendly_practice", first)))
        faults.fail(5, lambda m: isinstance(m, SendDice))
        assert _errors(await _run(box, first))
        later = await _run(box, "! advance 1m")
        assert any(line.startswith("→ g: 🎲=") for line in later) and not _errors(later)
        again = await _run(box, "alice@g: 🎲 6")  # the round tied: hers, then the bot's
        assert not _errors(again) and any("Alice 6 — Tourney" in line for line in again)


@pytest.mark.parametrize(("name", "pressed", "method", "drawn", "next_press"), [
    ("backgammon_board_form_once", "alice@bg: [🏁 Gammon]", EditMessageText,
     "what was the cube?", "alice@bg: [×1]"),
    ("backgammon_live_picker_board", "bob@g: [24]", EditMessageReplyMarkup, "[24→20]",
     "bob@g: [24→20]"),
])
async def test_a_step_kept_in_memory_whose_buttons_failed_is_drawn_a_minute_later(
        tmp_path: Path, faults, name: str, pressed: str, method: type, drawn: str,
        next_press: str):
    """A step a player picked on a backgammon card or board, kept in memory (a report
    form's 🏁 Gammon, the point picker's checker on 24), whose new buttons do not reach
    Telegram: the old buttons cannot go on from it. A minute later the card or board is
    drawn with the step, and its next button works."""
    async with _started(tmp_path, "en", seed=1) as box:
        await _run(box, "\n".join(scenario_until(name, pressed)))
        faults.fail(5, lambda m: isinstance(m, method))
        assert _errors(await _run(box, pressed))
        later = await _run(box, "! advance 1m")
        assert any(drawn in line for line in later) and not _errors(later)
        assert not _errors(await _run(box, next_press))


async def test_a_board_that_failed_holds_its_clocks_until_it_is_drawn(tmp_path: Path,
                                                                       faults):
    """The first board of a backgammon match (30 s a move, a minute's bank) does not reach
    Telegram: B could not see the position for the minute until it is drawn again, so his
    clock waits as long. A move 95 s after the start is still in time."""
    async with _started(tmp_path, seed=3) as box:
        move = "b@g: 13/11 13/8"
        await _run(box, "\n".join(scenario_until("backgammon_live_double_on_time", move)[:-1]))
        faults.fail(5, lambda m: isinstance(m, SendPhoto))
        assert not any("photo" in line for line in await _run(box, "org@g: /begin"))
        later = await _run(box, "! advance 95s")
        assert any(line.startswith("→ g: photo") for line in later)  # the retried opening's
        moved = await _run(box, move)
        assert not _errors(moved) and any("↪ B 5-2: 13/11 13/8" in line for line in moved)


async def test_a_board_still_owed_after_its_minute_holds_its_clocks_until_the_next_try(
        tmp_path: Path, faults):
    """B's move is taken but its board does not reach Telegram, nor does the owed board a
    minute later: it is drawn at the next try, a minute after that. A could not see the
    position for those two minutes, so his clock (30 s a move, a minute's bank) waits as
    long: his double three minutes after B's move is still in time."""
    async with _started(tmp_path, seed=3) as box:
        move = "b@g: 13/11 13/8"
        await _run(box, "\n".join(scenario_until("backgammon_live_double_on_time", move)))
        faults.fail(10, lambda m: isinstance(m, EditMessageMedia))
        assert _errors(await _run(box, move))
        assert not any("13/11 13/8" in line for line in await _run(box, "! advance 1m"))
        later = await _run(box, "! advance 1m")
        assert sum("13/11 13/8" in line for line in later) == 1 and not _errors(later)
        doubled = await _run(box, "! advance 1m\na@g: [⬆️ Удвоить]")
        assert not any("время" in line for line in doubled), doubled
        assert any("удваивает" in line for line in doubled), doubled


_NIGHT = "org@g: /new shanghai Night\nalice@g: /register\nbob@g: /register"


@pytest.mark.parametrize(("setup", "method", "line", "answer", "done"), [
    (_NIGHT, GetChatMember, "org@g: /begin", "→ g: ⚠️ Telegram did not answer me in time",
     "“Night” has started"),
    ("org@g: /new backgammon Night approval=on\nbob@g: /register", GetChatMember,
     "org@g: [✅ Approve]", "⚑ org: ⚠️ Telegram did not answer me in time", "✅ Bob approved"),
    (_NIGHT + "\norg@g: /begin", SendPhoto, "alice@g: /standings",
     "→ g: ⚠️ Telegram did not answer me in time", "photo"),
    (_NIGHT, SendMessage, "newcomer@g: /players",
     "→ g: ⚠️ Telegram did not answer me in time", "2 entered"),
], ids=["command", "press", "picture", "newcomer"])
async def test_an_update_telegram_failed_before_it_changed_anything_is_answered_so(
        tmp_path: Path, faults, setup: str, method: type, line: str, answer: str, done: str):
    """Telegram does not answer (through the sending layer's retries) whether the organiser
    is an administrator, or takes no /standings picture or a newcomer's /players answer
    (their user record, written first, is not what they asked for): nothing was done, and
    the sender is told so and to try again instead of hearing nothing (the command was
    lost). Sent again, it is carried out."""
    async with _started(tmp_path, "en") as box:
        await _run(box, setup)
        faults.fail(5, lambda m: isinstance(m, method))
        refused = await _run(box, line)
        assert any(said.startswith(answer) for said in refused), refused
        assert not _errors(refused) and not any(done in said for said in refused)
        again = await _run(box, line)
        assert any(done in said for said in again), again


async def test_a_reopen_whose_board_failed_asks_the_players_again_a_minute_later(
        tmp_path: Path, faults):
    """/reopen takes an HP final back a round, and its board's edit does not reach
    Telegram: the panels asking again never went out (a press on the old ones is out of
    date). A minute later the board and the panels are drawn again, and Bob's choice on his
    panel counts."""
    async with _started(tmp_path, "en") as box:
        reopen = "org@cup: /reopen @alice mistake"
        await _run(box, "\n".join(scenario_until("cup_hp_stale_round_button", reopen)))
        faults.fail(5, lambda m: isinstance(m, EditMessageText) and "Final" in m.text)
        assert _errors(await _run(box, reopen))
        later = await _run(box, "! advance 1m")
        asked = later.index(next(line for line in later if line.startswith("✎ bob@dm")))
        assert later[asked + 1] == "  Attack or defend?"
        chosen = await _run(box, "bob@dm: [⚔️ Attack]")
        assert any("Bob_Stone has chosen" in line for line in chosen), chosen


async def test_a_grace_whose_card_edit_failed_is_logged_once(tmp_path: Path, faults):
    """The late-start grace runs out and the card's edit (the forfeit buttons) fails: the
    grace is logged, the card drawn again a minute later; the job's own retry finds the
    grace logged and does not log it again."""
    async with _started(tmp_path, "en") as box:
        await _run(box, "\n".join(scenario_until("backgammon_grace_form_kept",
                                                 "! advance 2m")))
        faults.fail(5, lambda m: isinstance(m, EditMessageText))
        assert not any("forfeit" in line for line in await _run(box, "! advance 2m"))
        later = await _run(box, "! advance 2m")
        assert sum("Award by forfeit" in line for line in later) == 1 and not _errors(later)
        assert await _rows(box, "SELECT count(*) FROM match_actions WHERE payload LIKE"
                                " '%grace_over%'") == [(1,)]


async def test_a_disqualification_that_ends_the_group_stage_opens_the_playoff_on_retry(
        sandbox, faults):
    """The /dq job voids the player's match of the round in play, then the end of the group
    stage fails to be said: its retry finds that match closed already, and still moves the
    stage on (it noted the round before closing), into the final."""
    dq = "org@cup: /dq @carol тоже ушла"
    await _run(sandbox, "\n".join(scenario_until("cup_two_disqualified", dq)))
    faults.fail(5, lambda m: isinstance(m, SendMessage) and "Групповой этап окончен" in m.text)
    failed = await _run(sandbox, dq)
    assert not any("Групповой этап окончен" in line for line in failed)
    retried = await _run(sandbox, "! advance 2m")
    assert sum("Групповой этап окончен" in line for line in retried) == 1 and not _errors(retried)
    assert await _rows(sandbox, "SELECT kind, status FROM matches WHERE stage = 'playoff'") == [
        ("betting", "running")]


async def test_the_third_place_votes_deadline_asks_the_organiser_on_retry(sandbox,
                                                                           faults):
    """The vote closes at its deadline (written), then the organiser's question fails to be
    posted: the job's retry finds the vote closed already and still posts the question,
    once, and the organiser's pick opens the match."""
    deadline = "! advance 11m"
    await _run(sandbox, "\n".join(scenario_until("cup_third_vote_deadline", deadline)))
    faults.fail(5, lambda m: isinstance(m, SendMessage) and "выберите формат" in m.text)
    said = await _run(sandbox, deadline) + await _run(sandbox, "! advance 3m")
    assert sum("выберите формат" in line for line in said) == 1 and not _errors(said)
    await _run(sandbox, "org@cup: [«HP»]")
    assert await _rows(sandbox, "SELECT kind FROM matches WHERE slot = '3P'") == [("hp",)]


async def test_a_third_place_match_whose_panel_failed_is_not_made_again_on_retry(sandbox,
                                                                              faults):
    """The /try decides the 3rd-place format: the HP match is made and announced, then a
    player's panel meets Telegram out of reach; the job's retry finds the match made and
    does not make it again (it raised on the slot taken, and the match lost its
    "open the chat" line)."""
    try_line = "vera@klub: /try"
    await _run(sandbox, "\n".join(scenario_until("cup_third_vote_try_outcomes", try_line)))
    faults.fail(5, lambda m: isinstance(m, SendMessage) and "Атака или защита" in m.text)
    said = await _run(sandbox, try_line) + await _run(sandbox, "! advance 2m")
    assert not _errors(said)
    assert await _rows(sandbox, "SELECT kind, status FROM matches WHERE slot = '3P'") == [
        ("hp", "running")]


async def test_a_retried_start_sets_its_rounds_deadline_once(sandbox, faults):
    await _run(sandbox, SETUP.replace("Friday Darts", "Friday Darts deadline=60"))
    faults.fail(5, _announces_start)  # the deadline is set before the round is said
    await _run(sandbox, "! now 2026-10-21T20:00+03:00")
    opened = await _run(sandbox, "! advance 2m")
    assert any("21.10 21:02" in line for line in opened)
    assert await _rows(sandbox, "SELECT run_at FROM jobs WHERE kind = 'formats_deadline'"
                                " AND status = 'pending'") == [("2026-10-21T18:02:00+00:00",)]


async def test_a_lost_group_pauses_the_tournament_and_tells_the_organiser(sandbox):
    await _run(sandbox, SETUP)
    group = sandbox.world.groups.pop("dice")  # the bot was removed: "chat not found"
    lost = await _run(sandbox, "! now 2026-10-21T20:00+03:00")
    assert not _errors(lost)
    assert [line for line in lost if line.startswith("→ org@dm:")] == [
        "→ org@dm: ⚠️ Я больше не могу писать в группу турнира «Friday Darts» (меня удалили"
        " из группы или группы больше нет). Турнир поставлен на паузу. Верните меня в группу"
        " и отправьте там /resume #1."]
    assert await _rows(sandbox, "SELECT status FROM tournaments") == [("paused",)]

    sandbox.world.groups["dice"] = group
    back = await _run(sandbox, "org@dice: /resume")
    assert not _errors(back)
    assert sum("начался" in line for line in back) == 1
    assert await _rows(sandbox, "SELECT COUNT(*) FROM matches") == [(1,)]


async def test_a_lost_group_pauses_every_tournament_even_when_a_dm_fails(sandbox,
                                                                          faults):
    """Two tournaments running in a group the bot was removed from: both are paused before
    any organiser is told, so a DM Telegram does not take leaves none of them running."""
    await _run(sandbox, "org@dm: /start\n" + "".join(
        f"org@dice: /new shanghai {title}\nalice@dice: /register\nbob@dice: /register\n"
        f"org@dice: /begin #{number}\n" for number, title in ((1, "One"), (2, "Two"))))
    faults.fail(5, lambda m: isinstance(m, SendMessage) and m.chat_id > 0)
    await _run(sandbox, "! remove bot@dice\nalice@dice: 🎯 T20")
    assert await _rows(sandbox, "SELECT status FROM tournaments") == [("paused",), ("paused",)]


async def test_a_resume_that_died_after_its_commit_still_opens(sandbox):
    """/resume makes the stopped opening pending again in its own transaction: a bot that
    died right after it opens the tournament at its next start."""
    await _run(sandbox, SETUP)
    group = sandbox.world.groups.pop("dice")
    await _run(sandbox, "! now 2026-10-21T20:00+03:00")
    sandbox.world.groups["dice"] = group
    die_after_commit(sandbox, "SELECT 1 FROM tournaments WHERE status = 'running'")
    died = await _run(sandbox, "org@dice: /resume")
    assert not any("начался" in line for line in died)
    back = await _run(sandbox, "! restart\n! replay")
    assert sum("начался" in line for line in back) == 1
    assert await _rows(sandbox, "SELECT COUNT(*) FROM matches") == [(1,)]


async def test_a_group_answer_refused_mid_tournament_pauses_it(sandbox, faults):
    await _run(sandbox, SETUP + "org@dice: /begin")
    faults.fail(1, lambda m: isinstance(m, SendMessage) and m.chat_id < 0,
                TelegramForbiddenError, "Forbidden: bot was kicked from the supergroup chat")
    lines = await _run(sandbox, "alice@dice: /help")
    assert not _errors(lines)
    assert [line.split(" (")[0] for line in lines] == [
        "→ org@dm: ⚠️ Я больше не могу писать в группу турнира «Friday Darts»"]
    assert await _rows(sandbox, "SELECT status FROM tournaments") == [("paused",)]
    assert await _rows(sandbox, "SELECT DISTINCT status FROM matches") == [("paused",)]


async def test_a_reminder_to_a_group_that_is_gone_is_no_error(sandbox):
    await _run(sandbox, SETUP)
    sandbox.world.groups.pop("dice")
    lines = await _run(sandbox, "! now 2026-10-21T19:55+03:00")
    assert not _errors(lines)
    assert await _rows(sandbox, "SELECT kind, status FROM jobs WHERE kind = 'reminder'") == [
        ("reminder", "done"), ("reminder", "done")]


async def test_check_in_opening_at_a_reminders_time_says_both_once(sandbox, faults):
    """``checkin=60`` opens check-in when the 1-hour reminder is due: no reminder job of its
    own, one message with both buttons; its send fails once and the retry says it once."""
    await _run(sandbox, SETUP.replace("/new shanghai Friday Darts",
                                      "/new shanghai Friday Darts checkin=60"))
    jobs = await _rows(sandbox, "SELECT kind, payload FROM jobs WHERE kind IN "
                                "('reminder', 'checkin') ORDER BY run_at")
    assert jobs == [("checkin", '{"minutes": 60}'), ("reminder", '{"minutes": 10}')]
    faults.fail(1, lambda method: isinstance(method, SendMessage) and "/checkin" in method.text)
    lines = await _run(sandbox, "! now 2026-10-21T19:05+03:00")
    assert faults.left == 0  # the opening's first send failed
    opening = [line for line in lines if "⏰" in line]
    assert len(opening) == 1 and "/checkin" in lines[lines.index(opening[0]) + 1]
    assert lines[lines.index(opening[0]) + 2:][:2] == [
        "  [📝 Зарегистрироваться]", "  [✅ Я на месте]"]


async def test_check_in_openings_said_together_are_all_said_by_the_retry(sandbox,
                                                                        faults):
    await _run(sandbox, "! now 2026-10-21T09:00+03:00\n"
                        "org@club: /new shanghai A checkin=30\n"
                        "org@club: /new fincricket B checkin=30\n"
                        "org@club: /schedule #1 21.10.2026 20:00 Europe/Moscow\n"
                        "org@club: /schedule #2 21.10.2026 20:00 Europe/Moscow\n"
                        "! now 2026-10-21T19:20+03:00")
    faults.fail(5, lambda m: isinstance(m, SendMessage) and "Открыта отметка" in m.text)
    failed = await _run(sandbox, "! now 2026-10-21T19:30+03:00")
    assert not any("Открыта отметка" in line for line in failed)
    retried = "\n".join(await _run(sandbox, "! advance 2m"))
    assert retried.count("Открыта отметка") == 2 and retried.count("→ club:") == 1
    assert "турнира «A»" in retried and "турнира «B»" in retried


async def test_answers_to_a_user_who_blocked_the_bot_are_no_error(sandbox, monkeypatch):
    """Bob blocks the bot while it is answering him (writing to a bot unblocks it, so the
    block has to come between his message and the answer)."""
    real = SandboxSession.make_request

    async def block_first(session, bot, method, timeout=None):
        if isinstance(method, SendMessage):
            sandbox.world.user("bob").blocked = True
        return await real(session, bot, method, timeout)

    lines = await _run(sandbox, "bob@dm: /start")
    monkeypatch.setattr(SandboxSession, "make_request", block_first)
    lines += await _run(sandbox, "bob@dm: /help\nbob@dm: /rules")
    assert not _errors(lines)
    assert [line for line in lines if line.startswith("→ bob@dm")] == [lines[0]]


async def test_pasted_text_is_not_echoed_whole(sandbox):
    lines = await _run(sandbox, "alice@dice: /rules " + "x" * 4000)  # Telegram allows 4096
    [answer] = lines
    assert "x" * 63 + "…" in answer and len(answer) < 400


async def test_five_hundred_players_are_listed_in_several_messages(sandbox, monkeypatch):
    sent: list[SendMessage] = []
    real = SandboxSession.make_request

    async def record(session, bot, method, timeout=None):
        if isinstance(method, SendMessage):
            sent.append(method)
        return await real(session, bot, method, timeout)

    await _run(sandbox, "org@dice: /new shanghai Big Night\norg@dice: /settings approval=off")
    script = "\n".join(f"player{n}@dice: /register" for n in range(500))
    await _run(sandbox, script)
    monkeypatch.setattr(SandboxSession, "make_request", record)
    lines = await _run(sandbox, "org@dice: /players")
    assert not _errors(lines) and len(sent) > 1
    assert all(len(m.text.encode("utf-16-le")) // 2 <= 4096 for m in sent)
    listed = "\n".join(lines)
    assert "player0" in listed.lower() and "player499" in listed.lower()


async def test_a_job_that_keeps_failing_is_retried_with_back_off_then_given_up(tmp_path):
    clock = VirtualClock(datetime(2026, 10, 21, tzinfo=UTC))
    db = await Database.open(tmp_path / "retry.sqlite3")
    tries: list[datetime] = []

    async def down(job: Job) -> None:
        tries.append(clock.now())
        raise TelegramServerError(method=SendMessage(chat_id=-1, text="x"), message="Down")

    scheduler = VirtualScheduler(JobsRepo(db), down, clock)
    try:
        await scheduler.add("reminder", clock.now(), minutes=10)
        await scheduler.advance_to(clock.now() + timedelta(days=2))
        gaps = [later - earlier for earlier, later in zip(tries, tries[1:], strict=False)]
        assert gaps == list(RETRY_DELAYS)
        assert await JobsRepo(db).pending() == []
    finally:
        await db.close()


async def test_a_job_set_again_by_its_key_replaces_the_one_set_before(tmp_path):
    clock = VirtualClock(datetime(2026, 10, 21, tzinfo=UTC))
    db = await Database.open(tmp_path / "keyed.sqlite3")
    runs: list[dict] = []

    async def run(job: Job) -> None:
        runs.append(job.payload)

    scheduler = VirtualScheduler(JobsRepo(db), run, clock)
    try:
        await UsersRepo(db).upsert(1, "org", "Org", "ru", clock.now())
        await ChatsRepo(db).upsert(-100, "supergroup", "g100", "ru")
        cup = await TournamentsRepo(db).create(-100, "cup", "Cup", {}, 1, clock.now())
        soon, later = clock.now() + timedelta(minutes=5), clock.now() + timedelta(minutes=7)
        await scheduler.replace("deadline", soon, cup.id, key="matches", matches=[1, 2])
        await scheduler.replace("deadline", soon, cup.id, key="matches", matches=[3])
        await scheduler.freeze(cup.id, ("deadline",))  # a frozen one is replaced too
        await scheduler.replace("deadline", later, cup.id, key="matches", matches=[1, 2])
        await scheduler.advance_to(later)
        assert runs == [{"matches": [1, 2]}]  # once, at its new time; [3] waits, frozen
        assert [job.payload for job in await JobsRepo(db).pending()] == []
    finally:
        await db.close()


async def test_a_playoff_match_whose_opening_failed_is_announced_on_retry(tmp_path,
                                                                         faults):
    """The Cup's 3rd-place vote is made when the semi-finals end; its question with the
    format buttons fails to be posted: the job's retry, finding the vote made, posts it
    (it used to find the match there and say nothing: no buttons, no deadline)."""
    name = "cup_third_place_named_as_a_round"
    semi = "org@club: /setresult @borya @gleb 4:0 semi at the bar"
    output: list[str] = []
    async with opened(tmp_path, emit=output.append) as box:
        box.output = output
        await _run(box, "\n".join(scenario_until(name, semi)))
        faults.fail(5, lambda m: isinstance(m, SendMessage) and "🥉" in m.text)
        await _run(box, semi)
        retried = await _run(box, "! advance 2m")
        assert sum("🥉" in line for line in retried) == 1 and not _errors(retried)
        assert await _rows(box, "SELECT COUNT(*) FROM jobs WHERE kind = 'third_deadline'"
                                " AND status = 'pending'") == [(1,)]


async def test_a_removal_whose_private_message_fails_still_closes_the_card(tmp_path: Path,
                                                                          faults):
    """An organiser removes Alice's application while Telegram does not take her private
    message: the removal stands, her card loses its Approve and Reject and the group is
    told, naming her (she was not told in private); only then is the failure raised. The
    card used to keep its buttons, and the organiser heard nothing."""
    async with _started(tmp_path, "en") as box:
        await _run(box, "\n".join(scenario_until("application_removed", "org@g: /remove @alice")))
        faults.fail(5, lambda m: isinstance(m, SendMessage) and "removed you" in m.text)
        said = await _run(box, "org@g: /remove @alice")
        assert "✎ g#8: Alice (@alice) removed from “Night”." in said, said
        assert "→ g: Alice (@alice) removed from “Night”." in said, said
        assert _errors(said)


async def test_a_cancellation_tells_every_entrant_whatever_one_private_message_meets(
        tmp_path: Path, faults):
    """The organiser cancels a tournament of two entrants and Telegram does not take the
    first one's private message: the second is told all the same (the first failure is
    raised after). The entrants used to be told one after another, and the rest were not
    told once one failed."""
    async with _started(tmp_path, "en") as box:
        await _run(box, "\n".join([_NIGHT, "alice@dm: hi",
                                   "bob@dm: hi", "org@g: /cancel"]))
        alice = box.world.user("alice").id
        faults.fail(5, lambda m: isinstance(m, SendMessage) and m.chat_id == alice)
        said = await _run(box, "org@g: [❌ Cancel it]")
        assert any(line.startswith("→ bob@dm: ❌ “Night” was cancelled") for line in said), said
        assert _errors(said)


async def test_a_start_tells_each_lapsed_applicant_and_goes_on_whatever_one_meets(
        tmp_path: Path, faults):
    """Two applications wait for a decision at the start: Telegram does not take Carol's
    private message that hers is out; Dave is told all the same and the tournament starts at
    once (the failure is logged, not retried: the start used to wait a minute for it, and
    Dave was not told)."""
    async with _started(tmp_path, "en") as box:
        await _run(box, "\n".join([
            "org@g: /new shanghai Night approval=on", "alice@g: /register",
            "org@g: [✅ Approve]", "bob@g: /register", "org@g: [✅ Approve]", "carol@dm: hi",
            "dave@dm: hi", "carol@g: /register", "dave@g: /register", "org@g: /begin"]))
        carol = box.world.user("carol").id
        faults.fail(5, lambda m: isinstance(m, SendMessage) and m.chat_id == carol)
        said = await _run(box, "org@g: [▶️ Start now]")
        assert any(line.startswith("→ dave@dm: ⏳ “Night” has started") for line in said), said
        assert any("“Night” has started! Entrants (2)" in line for line in said), said
        later = await _run(box, "! advance 2m")  # not tried again: Dave is told once
        assert not any(line.startswith("→ dave@dm") for line in later), later


async def test_a_replacement_whose_private_message_fails_still_redraws_the_board(
        tmp_path: Path, faults):
    """/replace puts Erin in Dave's place mid-battle and Telegram does not take the private
    message telling Dave: the battle's message is drawn again with Erin's name all the same
    (then the failure is raised). It used to keep Dave's name, and Erin had no board."""
    async with _started(tmp_path) as box:
        replace = "org@cup: /replace @dave @erin Erin_Moss уехал"
        await _run(box, "\n".join(scenario_until("cup_replace_mid_battle", replace)))
        faults.fail(5, lambda m: isinstance(m, SendMessage) and "Ваше место" in m.text)
        said = await _run(box, replace)
        assert any(line.startswith("✎ cup#28: ⚔️ 1/2 финала «HP»: Alice_Test — Erin_Moss")
                   for line in said), said
        assert _errors(said)


async def test_a_late_chooser_whose_reminder_fails_is_still_named_to_the_organisers(
        tmp_path: Path, faults):
    """The HP choice's late clock runs out and Telegram does not take Vera's reminder: the
    group's alert names her all the same, with the /enter that settles it (the reminder is
    not tried again). The alert used to wait a minute for the job's retry, which reminded
    her again."""
    async with _started(tmp_path, "en") as box:
        await _run(box, "\n".join(scenario_until("cup_hp_late_enter_handle", "! advance 6m")))
        vera = box.world.user("vera").id
        faults.fail(5, lambda m: isinstance(m, SendMessage) and m.chat_id == vera)
        said = await _run(box, "! advance 6m")
        assert any("Вера_Смирнова has not chosen in match #8" in line for line in said), said
        assert not _errors(said)


async def test_an_appeal_whose_private_message_fails_is_handed_on_once_telegram_takes_it(
        tmp_path: Path, faults):
    """Carol's appeal meets Telegram out of reach on its way to the organiser: it is logged
    all the same, reaches the organiser a minute later (the job held with it) and Carol is
    told once that it went; it used to stay in the log only, and Carol was told nothing."""
    appeal = "carol@bg: /appeal Alice's report in round 1 was false, I won that game"
    async with _started(tmp_path, language="en") as box:
        await _run(box, "\n".join(scenario_until("backgammon_appeal_past_match", appeal)))
        faults.fail(10, lambda m: isinstance(m, SendMessage) and m.chat_id > 0
                    and "appeal" in m.text.lower())  # the update's tries and the job's first
        said = len(box.output)
        await box.line(appeal)
        assert not any(line.startswith("→ org@dm") for line in box.output[said:])
        await box.line("! advance 2m")
        told = box.output[said:]
        assert sum(line.startswith("→ org@dm") for line in told) == 1
        assert sum("went to the organisers" in line for line in told) == 1, told
        entries = await box.app.services.repos.organiser_log.for_tournament(1)
        assert [entry["action"] for entry in entries].count("appeal") == 1


async def test_an_appeal_whose_answer_fails_is_not_sent_to_the_organiser_twice(
        tmp_path: Path, faults):
    """The organiser got Carol's appeal, then Telegram is out of reach for the answer to
    her: the job held with the appeal tells her later, without a second private message to
    the organiser; the appeal delivered again is not logged again."""
    appeal = "carol@bg: /appeal Alice's report in round 1 was false, I won that game"
    async with _started(tmp_path, language="en") as box:
        await _run(box, "\n".join(scenario_until("backgammon_appeal_past_match", appeal)))
        faults.fail(10, lambda m: isinstance(m, SendMessage) and "went to the" in m.text)
        said = len(box.output)
        await box.line(appeal)
        await box.line("! advance 2m")
        await box.line("! replay")  # Telegram delivers the appeal again: it is claimed
        told = box.output[said:]
        assert sum(line.startswith("→ org@dm") for line in told) == 1
        assert sum("went to the organisers" in line for line in told) == 1
        entries = await box.app.services.repos.organiser_log.for_tournament(1)
        assert [entry["action"] for entry in entries].count("appeal") == 1


async def test_a_registration_whose_private_question_fails_is_answered_in_the_group(
        tmp_path: Path, faults):
    """Alice opened the bot's chat, so /register asks her name there; Telegram is out of
    reach for that message: the group still answers her, with the button that goes on with
    the form in private (it used to answer nothing), and a /register again asks her."""
    async with _started(tmp_path, language="en") as box:
        await _run(box, "alice@dm: /start\norg@cup: /new cup Autumn Cup")
        faults.fail(5, lambda m: isinstance(m, SendMessage) and m.chat_id > 0)
        said = len(box.output)
        await box.line("alice@cup: /register")
        told = box.output[said:]
        assert any(line.startswith("→ cup:") for line in told), told
        assert not any(line.startswith("→ alice@dm") for line in told)
        await box.line("alice@cup: /register")
        assert any(line.startswith("→ alice@dm") for line in box.output[said:])
