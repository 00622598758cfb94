"""The private chat's "Add me to a group" button, and the /start Telegram sends in the group
for whoever added the bot by it (transcript bot_added_by_link)."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from tests.bot.sandbox_run import opened, run_script, said


async def test_the_welcome_s_button_adds_the_bot_to_a_group_as_an_administrator(
        tmp_path: Path) -> None:
    async with opened(tmp_path) as box:
        await box.run_lines(["org@dm: /start"])
        welcome = box.world.messages[box.world.user("org").id][-1]  # after the /start
        username = box.app.services.bot_username
    [[button]] = welcome.payload["reply_markup"]["inline_keyboard"]
    link = urlsplit(button["url"])
    assert (link.netloc, link.path) == ("t.me", f"/{username}")
    assert parse_qs(link.query) == {"startgroup": ["added"],
                                    "admin": ["delete_messages manage_topics"]}


async def test_the_link_s_start_is_answered_once_the_greeting_is_a_minute_old(
        tmp_path: Path) -> None:
    """Right after the greeting the link's /start is left alone; a minute later (the bot
    greeted the group long before) it is answered as any /start."""
    output = said(await run_script(tmp_path, "\n".join([
        "org@club: hi", "! add bot@club", "org@club: /start added", "! advance 61s",
        "org@club: /start added"])))
    assert [line.split(":")[0] for line in output] == ["→ club", "→ club"]
    assert output[0].startswith("→ club: 👋 Hello!")
    assert output[1].startswith("→ club: 🎲 I run tournaments in this group")
