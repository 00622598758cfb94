"""A picture posted before is posted again by its Telegram file id (bot/render/posting.py):
an unchanged /standings is neither drawn nor uploaded again, a changed one is (the table
after a round), /standings right after it shows that picture, and a file id Telegram no
longer knows makes the picture drawn and uploaded anew."""

from __future__ import annotations

from pathlib import Path

from aiogram.exceptions import TelegramBadRequest

from bot.render.pictures import bracket_png, standings_png
from bot.render.posting import post_pictures
from tests.bot.sandbox_run import opened
from tests.bot.test_formats_export_and_match import SCRIPT

SETUP = SCRIPT[:SCRIPT.index("bob@ex: /match")]  # a round robin of three, played at a table


def _uploads(tmp_path: Path) -> int:
    return sum(1 for path in (tmp_path / "out").iterdir() if path.name.endswith(".png"))


def _photos(output: list[str]) -> list[str]:
    return [line for line in output if ": photo " in line]


async def test_an_unchanged_table_is_sent_again_by_its_file_id(tmp_path: Path) -> None:
    output: list[str] = []
    async with opened(tmp_path, files=True, emit=output.append) as sandbox:
        await sandbox.run_lines([*SETUP.splitlines(), "alice@ex: /standings"])
        first = _uploads(tmp_path)
        await sandbox.run_lines(["bob@ex: /standings"])
        again = _uploads(tmp_path)
        await sandbox.run_lines(["bob@ex: /result 2:1", "carol@ex: /confirm"])
        after_result = _uploads(tmp_path)
        await sandbox.run_lines(["carol@ex: /standings"])
        changed = _uploads(tmp_path)
    assert len(_photos(output)) >= 3 and not any(line.startswith("!!") for line in output)
    assert first >= 1 and again == first  # shown, not drawn or uploaded again
    assert after_result == again + 1  # the round ended: its new table drawn and posted
    assert changed == after_result  # and /standings then shows that very picture


async def test_a_file_id_telegram_refuses_is_drawn_and_uploaded_again(tmp_path: Path,
                                                                      monkeypatch) -> None:
    output: list[str] = []
    refused: list[str] = []
    async with opened(tmp_path, files=True, emit=output.append) as sandbox:
        session = sandbox.app.bot.session
        send_photo = session._send_photo

        async def forgetful(method):
            if isinstance(method.photo, str):
                refused.append(method.photo)
                raise TelegramBadRequest(method=method,
                                         message="Bad Request: wrong file identifier")
            return await send_photo(method)
        monkeypatch.setattr(session, "_send_photo", forgetful)
        await sandbox.run_lines([*SETUP.splitlines(), "alice@ex: /standings",
                                 "alice@ex: /standings"])
    assert len(refused) == 1 and _uploads(tmp_path) == 2
    assert len(_photos(output)) == 2


async def test_an_album_posted_before_is_sent_again_by_its_file_ids(tmp_path: Path) -> None:
    """A bracket too big for one picture goes out as an album; asked again unchanged, the
    album is sent by the file ids of its photos, each caption where it was."""
    rounds, field = [], [f"P{n}" for n in range(32)]
    while len(field) > 1:
        pairs = [(field[k], field[k + 1], None) for k in range(0, len(field), 2)]
        rounds.append((f"R{len(rounds) + 1}", pairs))
        field = [f"W{len(rounds)}-{k}" for k in range(len(pairs))]
    calls = [(bracket_png, ("Big", rounds, None))]
    output: list[str] = []
    async with opened(tmp_path, files=True, emit=output.append) as sandbox:
        await sandbox.run_lines(SETUP.splitlines())
        for _ in range(2):
            await post_pictures(sandbox.app.services, sandbox.world.group("ex").id, calls,
                                "Bracket", lambda: "text", name="bracket")
    photos = _photos(output)
    assert len(photos) >= 4 and len(photos) % 2 == 0  # the same album twice
    assert photos[:len(photos) // 2] == photos[len(photos) // 2:]
    assert _uploads(tmp_path) == len(photos) // 2


async def test_more_pictures_than_an_album_holds_go_out_in_even_albums(tmp_path: Path) -> None:
    """Sixteen groups' tables: Telegram takes 2–10 pictures an album, so two of eight, the
    caption on the first picture only (the stand-in refuses an album of eleven or more)."""
    calls = [(standings_png, (f"Group {n}", ["#", "Player"], [["1", f"P{n}"]], 1, []))
             for n in range(16)]
    output: list[str] = []
    async with opened(tmp_path, emit=output.append) as sandbox:
        await sandbox.run_lines(SETUP.splitlines())
        start = len(output)
        await post_pictures(sandbox.app.services, sandbox.world.group("ex").id, calls,
                            "Tables", lambda: "text", name="tables")
    photos = _photos(output[start:])
    assert photos == ['→ ex: photo "Tables"'] + ['→ ex: photo ""'] * 15
    assert not any(line.startswith("!!") for line in output[start:])
