"""Sandbox promises the transcripts cannot show: files saved under --out, and the wait for
the dice animation running on the virtual clock."""

from __future__ import annotations

from datetime import timedelta

from PIL import Image

from bot.sandbox.runner import Sandbox

CUP_OF_TWO = ("org@cup: /new cup Test approval=off", "alice@cup: hi", "bob@cup: hi",
              "org@cup: /add @alice Alice_Smith", "org@cup: /add @bob Bob_Stone",
              "org@cup: /begin")


async def _run(tmp_path, lines, **options) -> tuple[Sandbox, list[str]]:
    output: list[str] = []
    sandbox = Sandbox(seed=1, db_path=tmp_path / "s.sqlite3", emit=output.append, **options)
    await sandbox.start()
    for line in lines:
        await sandbox.line(line)
    return sandbox, output


async def test_pictures_and_files_are_saved_under_out(tmp_path) -> None:
    out = tmp_path / "out"
    sandbox, output = await _run(tmp_path, (*CUP_OF_TWO, "org@cup: /standings",
                                            "org@cup: /export",
                                            "org@cup: [📦 Получить выгрузку]"), out_dir=out)
    await sandbox.close()
    assert any(line.startswith('→ cup: photo "') for line in output)
    [png] = out.glob("*.png")
    assert Image.open(png).size[0] >= 800
    assert sorted(p.suffix for p in out.glob("*tournament-1*")) == [".csv", ".csv", ".json"]


async def test_a_roll_is_announced_after_the_dice_animation(tmp_path) -> None:
    sandbox, output = await _run(tmp_path, CUP_OF_TWO)
    first = next(line for line in output if "бросает" in line).split("бросает ")[-1]
    handle = "alice" if first.startswith("Alice") else "bob"
    before, printed = sandbox.clock.now(), len(output)
    await sandbox.line(f"{handle}@cup: 🎲 5")
    waited = sandbox.clock.now() - before
    await sandbox.close()
    assert waited >= timedelta(seconds=4)
    assert output[printed].startswith("→ cup: ") and output[printed + 1].endswith(": 5.")


async def test_the_sandboxs_own_telegram_is_not_the_updates_write(tmp_path) -> None:
    """The sandbox keeps its Telegram (the messages sent) in the same file through another
    connection; those writes are not the update's, so a command that only answers is
    remembered in memory, as the deployed bot does, instead of claimed in a transaction."""
    from tests.sql_trace import sql_trace

    sandbox, output = await _run(tmp_path, ("org@g: /new shanghai Test",))
    before = len(output)
    try:
        with sql_trace(sandbox.app.services.db) as statements:
            await sandbox.line("org@g: /help")
    finally:
        await sandbox.close()
    assert len(output) > before  # it answered
    assert "BEGIN IMMEDIATE" not in statements, statements


async def test_a_group_migrates_once_and_keeps_its_new_id_after_a_restart(tmp_path) -> None:
    sandbox, output = await _run(tmp_path, ("org@cup: hi", "! migrate cup", "! restart",
                                            "! migrate cup"))
    try:
        old_id, new_id = next(iter(sandbox.world.migrated.items()))
        assert sandbox.world.group("cup").id == new_id != old_id
        assert output == ["!! error: cup is a supergroup already: Telegram migrates a group once"]
    finally:
        await sandbox.close()


async def test_a_line_it_cannot_read_says_what_a_line_looks_like(tmp_path) -> None:
    """A newcomer typing ``help`` at the interactive prompt is shown the line forms."""
    sandbox, output = await _run(tmp_path, ("help",))
    await sandbox.close()
    [said] = output
    assert said.startswith("!! error: cannot read line: help (a line is `user@group: text`")
    assert "! directive" in said


async def test_a_name_in_another_alphabet_is_told_the_names_the_sandbox_reads(tmp_path) -> None:
    """``аня@клуб: /register`` (a Russian newcomer's first line) names the letters to use."""
    sandbox, output = await _run(tmp_path, ("аня@клуб: /register",))
    await sandbox.close()
    [said] = output
    assert "small Latin letters, digits and _" in said


async def test_adding_the_bot_to_a_group_nobody_wrote_in_says_how(tmp_path) -> None:
    sandbox, output = await _run(tmp_path, ("! add bot@klub",))
    await sandbox.close()
    assert output == ["!! error: nobody has written in group klub yet: its first writer is its"
                      " creator, who adds the bot (a line such as `org@klub: hi` first)"]


async def test_a_job_due_while_a_line_waited_for_room_runs_after_that_line(tmp_path) -> None:
    """A line whose message waits for the group's window (a rate limit's wait moves the
    virtual clock) lets the start scheduled within that wait begin right after the line, as
    a live scheduler starts it at its time, not at the next clock move or restart."""
    from bot.sending import rate_limiter

    sandbox, output = await _run(tmp_path, (
        "org@g: /new shanghai Test", "alice@g: /register", "bob@g: /register",
        "org@g: /schedule in 1 minute"), language="en")
    group = sandbox.world.group("g").id
    rate_limiter(sandbox.app.bot.session).group_windows[group].closed_until = \
        (sandbox.clock.now() + timedelta(seconds=90)).timestamp()
    printed = len(output)
    await sandbox.line("org@g: /players")
    tournament = await sandbox.app.services.repos.tournaments.get(1)
    await sandbox.close()
    assert tournament.status == "running", output[printed:]


async def test_a_message_is_printed_once_the_world_has_saved_it(tmp_path) -> None:
    """Telegram keeps a message it sent: a run killed once the bot's message is printed
    (``python -m tests.kills`` kills there) resumes with it in its chat, its buttons there
    to press (the invitation printed before it was saved was lost with the process)."""
    import sqlite3
    from contextlib import closing

    path, saved_when_printed = tmp_path / "s.sqlite3", []

    def printed(line: str) -> None:
        if line.startswith("→ g:"):
            with closing(sqlite3.connect(path)) as db:
                saved_when_printed.append(db.execute(
                    "SELECT count(*) FROM sandbox_messages WHERE from_bot = 1").fetchone()[0])

    sandbox = Sandbox(seed=1, db_path=path, language="en", emit=printed)
    await sandbox.start()
    for line in ("alice@g: hi", "bob@g: hi", "alice@g: /challenge @bob cup", "alice@g: /help"):
        await sandbox.line(line)
    await sandbox.close()
    assert saved_when_printed == [1, 2], saved_when_printed
