"""Two presses of one button at the same moment record one action (SPEC §8), through the
real dispatcher: the match lock serializes them and the second finds the board moved on."""

from __future__ import annotations

import asyncio

from bot.sandbox.runner import Sandbox


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
