"""Two presses of one button at the same moment record one action (SPEC §8), through the
real dispatcher: the match lock serializes them and the second finds the board moved on."""

from __future__ import annotations

import asyncio

import pytest

from bot.sandbox.runner import Sandbox
from tests import doubles
from tests.bot.sandbox_run import opened


def _button(sandbox: Sandbox, chat: str, label: str):
    chat_id = sandbox.world.group(chat).id
    stored = sandbox._newest(chat_id, lambda m: any(
        b["text"] == label for row in (m.payload.get("reply_markup") or {}).get(
            "inline_keyboard", []) for b in row))
    data = next(b["callback_data"] for row in stored.payload["reply_markup"]["inline_keyboard"]
                for b in row if b["text"] == label)
    return chat_id, stored, data


async def test_two_simultaneous_presses_record_one_dart(tmp_path) -> None:
    output: list[str] = []
    sandbox = Sandbox(seed=1, db_path=tmp_path / "press.sqlite3", emit=output.append)
    await sandbox.start()
    try:
        for line in ("org@grp: /new shanghai Double legs=1", "bob@grp: /register",
                     "alice@grp: /register", "org@grp: /begin",
                     "bob@grp: [🎯 Булл-офф: Bob]"):
            await sandbox.line(line)
        chat_id, stored, data = _button(sandbox, "grp", "T20")
        bob = sandbox.world.user("bob")
        await asyncio.gather(*(sandbox._callback(bob, chat_id, data, stored) for _ in range(2)))
        services = sandbox.app.services
        [match] = await services.repos.matches.for_tournament(1)
        actions = [a.payload for a in await services.repos.matches.actions(match.id)]
        darts = [a["dart"] for a in actions if a.get("type") == "dart"]
        assert darts == ["T20"]
    finally:
        await sandbox.close()
    assert not any(line.startswith("!! error") for line in output)


@pytest.mark.parametrize("dm_waits", [False, True])
async def test_a_double_tap_on_approve_leaves_the_open_chat_button(tmp_path,
                                                                   dm_waits) -> None:
    """The second press of Approve finds the application decided: the card stays as the
    first drew it, with the button that opens the chat for an applicant the bot cannot
    write to (it used to take that button off); also when the second press comes while the
    first still waits for Telegram's answer to the applicant's message (``dm_waits``), before
    the first has noted that the applicant could not be told."""
    output: list[str] = []
    async with opened(tmp_path, seed=1, language="en", emit=output.append) as sandbox:
        await sandbox.run_lines(["org@grp: /new backgammon Night approval=on",
                                 "bob@grp: /register"])
        outbox = sandbox.app.services.outbox
        dm = outbox.dm

        async def dm_after_a_wait(*args, **kwargs):
            await asyncio.sleep(0.01)
            return await dm(*args, **kwargs)
        if dm_waits:
            outbox.dm = dm_after_a_wait
        chat_id, stored, data = _button(sandbox, "grp", "✅ Approve")
        org = sandbox.world.user("org")
        await asyncio.gather(*(sandbox._callback(org, chat_id, data, stored) for _ in range(2)))
        card = sandbox.world.find(chat_id, stored.payload["message_id"])
        [[button]] = card.payload["reply_markup"]["inline_keyboard"]
        assert button["url"].startswith("https://t.me/")
        assert sum("already decided" in line for line in output) == 1
        [entrant] = await sandbox.app.services.repos.entrants.list(1)
        assert entrant.status == "approved"
    drawn = [output[n + 1] for n, line in enumerate(output)
             if line.startswith("✎ grp#") and "approved by" in line]
    assert drawn and all("open the chat" in line for line in drawn)  # never drawn without
    assert not any(line.startswith("!! error") for line in output)


@pytest.mark.parametrize("name", [
    "first_hour_press",  # a Cup declaration tapped twice: logged once
    "blocked_user",  # Approve tapped twice: the card keeps its "Open the chat" button
    "friendly_resign",  # the darts coin tapped twice: tossed once, the later dice the same
    "armchair_late_together",  # the armchair toss tapped twice: the same
    "first_hour_dm",  # a bracket picked from the list in private tapped twice: shown once
])
async def test_every_press_of_a_transcript_made_twice_at_once_ends_the_same(name) -> None:
    """``python -m tests.doubles`` on a few transcripts: the tournaments end as in the
    plain run, and the chats are told and show the same but for the second presses'
    answers."""
    assert await doubles.one(name, copies=False) == []


async def test_an_action_that_waited_for_a_match_closed_meanwhile_is_refused(tmp_path) -> None:
    """Alice's visit waits for her match's lock (an action under way) while an organiser
    sets the match's result: once it gets the lock, it is refused, not logged on a match
    that is over (its darts used to be logged after the result)."""
    output: list[str] = []
    async with opened(tmp_path, seed=1, language="en", emit=output.append) as sandbox:
        await sandbox.run_lines(["org@grp: /new shanghai Closed legs=1", "bob@grp: /register",
                                 "alice@grp: /register", "org@grp: /begin",
                                 "bob@grp: [🎯 Bull-off: Alice]"])
        services = sandbox.app.services
        [match] = await services.repos.matches.for_tournament(1)
        logged = len(await services.repos.matches.actions(match.id))
        async with services.matches.lock(match.id):  # an action under way
            visit = asyncio.ensure_future(sandbox.line("alice@grp: T20 T20 T20"))
            await asyncio.sleep(0.1)  # it waits for the lock
            closing = asyncio.ensure_future(sandbox.line(
                "org@grp: /setresult @alice @bob 1:0 played on paper"))
            for _ in range(20):  # the result is written, its board waits for the lock
                await asyncio.sleep(0.05)
                if (await services.repos.matches.get(match.id)).status == "finished":
                    break
        await visit
        await closing
        actions = await services.repos.matches.actions(match.id)
        assert not [a for a in actions[logged:] if a.payload.get("type") == "dart"]
        assert any("is already over" in line for line in output)
