"""Hidden input by DM and per-match clocks, in the sandbox, on the Cup's HP semi-finals
(match 7: Alice_Smith — Dave_Jones, match 8: Bob_Stone — Carol_King; Alice administers
the group and asked for copies of the choices)."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest
from aiogram.methods import SendMessage
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.features.keyboards import keyboard_of, press_button
from bot.play import clock
from bot.play.hidden import Pick, panels, pick_data
from bot.sandbox.runner import Sandbox
from storage.timefmt import from_db
from tests.bot.sandbox_run import opened, run_script, scenario_until
from tests.doubles import lines_at_once
from tests.sql_trace import sql_trace

SCENARIO = Path(__file__).resolve().parent.parent / "scenarios" / "hidden_input.txt"
SETUP = SCENARIO.read_text(encoding="utf-8").split("# Semi-finals")[0]


@pytest.fixture
async def sandbox(tmp_path: Path):
    output: list[str] = []
    box = Sandbox(seed=11, db_path=tmp_path / "hidden.sqlite3", language="ru",
                  emit=output.append)
    box.output = output
    await box.start()
    await box.run_lines(SETUP.splitlines())
    yield box
    await box.close()


async def _run(box: Sandbox, script: str) -> list[str]:
    start = len(box.output)
    await box.run_lines(script.splitlines())
    lines = box.output[start:]
    assert not [line for line in lines if line.startswith("!! error")]
    return lines


async def _rows(box: Sandbox, sql: str) -> list[tuple]:
    return [tuple(row) for row in await box.app.services.db.fetchall(sql)]


async def _late_jobs(box: Sandbox) -> list[tuple[str, str, dict]]:
    rows = await _rows(box, "SELECT status, run_at, payload FROM jobs WHERE kind = 'hidden_late'"
                            " ORDER BY id")
    return [(status, run_at, json.loads(payload)) for status, run_at, payload in rows]


def _reminded(lines: list[str]) -> list[str]:
    return [line.split(":")[0] for line in lines if "вы ещё не выбрали" in line]


async def test_the_semi_finals_start_one_late_clock_per_match(sandbox):
    jobs = await _late_jobs(sandbox)
    assert [(status, payload["match_id"], payload["seq"]) for status, _, payload in jobs] == [
        ("pending", 7, 0), ("pending", 8, 0)]


async def test_pause_freezes_the_reminders_with_their_time_left_and_resume_restarts_them(
        sandbox):
    clock = sandbox.app.services.clock
    dues = [from_db(run_at) for _, run_at, _ in await _late_jobs(sandbox)]
    await _run(sandbox, "! advance 2m\norg@cup: /pause")
    left = [due - clock.now() for due in dues]
    assert timedelta(minutes=2) < left[0] <= left[1] <= timedelta(minutes=3)
    assert [(status, payload["remaining"]) for status, _, payload in await _late_jobs(sandbox)
            ] == [("frozen", left[0].seconds), ("frozen", left[1].seconds)]
    assert _reminded(await _run(sandbox, "! advance 1h")) == []

    await _run(sandbox, "org@cup: /resume")
    resumed = clock.now()
    assert [(status, from_db(run_at)) for status, run_at, _ in await _late_jobs(sandbox)] == [
        ("pending", resumed + left[0]), ("pending", resumed + left[1])]
    assert _reminded(await _run(sandbox, f"! advance {left[0].seconds - 1}s")) == []
    both = ["→ bob@dm", "→ carol@dm"] if left[1] == left[0] else []  # started together
    assert _reminded(await _run(sandbox, "! advance 1s")) == ["→ alice@dm", "→ dave@dm", *both]
    await _run(sandbox, f"! advance {(left[1] - left[0]).seconds}s")
    assert [status for status, _, _ in await _late_jobs(sandbox)] == ["done", "done"]


async def test_a_clock_set_before_the_match_moved_on_does_nothing(sandbox):
    await _run(sandbox, "alice@dm: атака")
    jobs = await _late_jobs(sandbox)
    assert (jobs[0][0], jobs[0][2]["seq"]) == ("pending", 1)  # runs on for Dave, restamped
    services = sandbox.app.services
    tournament_id = (await services.repos.matches.get(7)).tournament_id
    await services.scheduler.add("hidden_late", services.clock.now() + timedelta(minutes=1),
                                 tournament_id, match_id=7, seq=0)  # a clock nobody cancelled
    assert _reminded(await _run(sandbox, "! advance 1m")) == []
    assert _reminded(await _run(sandbox, "! advance 4m")) == [
        "→ dave@dm", "→ bob@dm", "→ carol@dm"]


async def test_a_choice_and_its_late_clock_are_one_transaction(sandbox):
    """The first choice of a turn moves the late clock on (the other player still owes one)
    in the choice's own transaction; the only other write marks Erin's copy of it
    (/hostcopy) said."""
    db = sandbox.app.services.db
    await _run(sandbox, "! advance 1m")  # the group's rate window empties: its board is
    with sql_trace(db) as statements:   # edited at once (a wait would move the clocks on)
        await _run(sandbox, "alice@dm: атака")
    opened = [i for i, sql in enumerate(statements) if sql == "BEGIN IMMEDIATE"]
    assert len(opened) == 2, statements
    assert statements[opened[1] + 1].startswith("UPDATE jobs SET status = 'done'"), statements
    last = (await db.fetchone("SELECT max(seq) FROM match_actions WHERE match_id = 7"))[0]
    assert [(status, payload["seq"]) for status, _, payload in await _late_jobs(sandbox)
            if payload["match_id"] == 7] == [("pending", last)]


async def test_the_die_that_ends_a_round_starts_the_next_rounds_clock_with_itself(sandbox):
    """The second die resolves the round and opens the next turn of choices: its late clock
    is written in the die's own transaction (no write of its own after), and fires."""
    await _run(sandbox, "alice@dm: атака\ndave@dm: защита\nalice@cup: 🎲 4")
    db = sandbox.app.services.db
    with sql_trace(db) as statements:
        await _run(sandbox, "dave@cup: 🎲 3")
    opened = [i for i, sql in enumerate(statements) if sql.startswith("BEGIN")]
    die = next(i for i, sql in enumerate(statements) if "INSERT INTO match_actions" in sql)
    clock_added = next(i for i, sql in enumerate(statements)
                       if "INSERT INTO jobs" in sql and "hidden_late" in sql)
    assert max(i for i in opened if i < die) == max(i for i in opened if i < clock_added)
    assert not [sql for sql in statements[clock_added + 1:]  # the sandbox's scheduler may
                if "jobs" in sql and not sql.startswith("SELECT")], statements  # read them
    last = (await db.fetchone("SELECT max(seq) FROM match_actions WHERE match_id = 7"))[0]
    assert [(status, payload["seq"]) for status, _, payload in await _late_jobs(sandbox)
            if payload["match_id"] == 7] == [("cancelled", 1), ("pending", last)]
    assert "→ alice@dm" in _reminded(await _run(sandbox, "! advance 5m"))


async def test_a_choice_whose_clock_cannot_be_written_is_not_taken(sandbox, monkeypatch):
    """The action and its clock commit together or not at all: a choice is never logged
    with its turn's late clock left at a position it can no longer fire at."""
    async def broken(*args, **kwargs) -> None:
        raise OSError("disk I/O error")

    monkeypatch.setattr(clock, "move_match_jobs", broken)
    lines = await _run_allowing_errors(sandbox, "alice@dm: атака")
    assert any(line.startswith("!! error") for line in lines)
    assert await _rows(sandbox, "SELECT count(*) FROM match_actions WHERE match_id = 7") == [(0,)]
    monkeypatch.undo()
    await _run(sandbox, "alice@dm: атака\ndave@dm: защита")  # taken now, from the same state
    assert await _rows(sandbox, "SELECT count(*) FROM match_actions WHERE match_id = 7"
                       " AND actor_id IS NOT NULL") == [(2,)]


async def _run_allowing_errors(box: Sandbox, script: str) -> list[str]:
    start = len(box.output)
    await box.run_lines(script.splitlines())
    return box.output[start:]


async def test_a_clock_is_cancelled_when_both_have_chosen(sandbox):
    await _run(sandbox, "alice@dm: атака\ndave@dm: защита")
    assert (await _late_jobs(sandbox))[0][0] == "cancelled"
    assert _reminded(await _run(sandbox, "! advance 10m")) == ["→ bob@dm", "→ carol@dm"]


async def test_hostcopy_never_sends_an_organiser_the_choices_of_their_own_match(sandbox):
    lines = await _run(sandbox, "dave@dm: атака\nbob@dm: защита\ncarol@dm: атака")
    copies = [line for line in lines if "Копия для ведущего" in line]
    assert [line for line in copies if line.startswith("→ alice@dm")] == [
        "→ alice@dm: 🔒 Копия для ведущего: Bob_Stone, раунд 1 — 🛡 Защита.",
        "→ alice@dm: 🔒 Копия для ведущего: Carol_King, раунд 1 — ⚔️ Атака."]
    # Erin, an organiser who plays in neither match, gets Alice's opponent's choice too
    assert "→ erin@dm: 🔒 Копия для ведущего: Dave_Jones, раунд 1 — ⚔️ Атака." in copies


async def test_an_organiser_enters_a_choice_logged_with_the_reason_and_as_its_actor(sandbox):
    lines = await _run(sandbox, "org@dm: /enter 8 @carol защита сказала по телефону")
    taken = lines.index("✎ carol@dm#5: ⚔️ Матч #8: битва HP, раунд 1, соперник: Bob_Stone")
    assert lines[taken + 1] == "  Принято: 🛡 защита. Соперник узнает после раунда."
    org = (await _rows(sandbox, "SELECT id FROM users WHERE username = 'org'"))[0][0]
    carol = (await _rows(sandbox, "SELECT id FROM users WHERE username = 'carol'"))[0][0]
    assert await _rows(sandbox, "SELECT actor_id, payload FROM match_actions WHERE match_id = 8"
                       ) == [(org, json.dumps({"type": "choose", "choice": "defend",
                                               "player": 1}))]
    logged = await _rows(sandbox, "SELECT actor_id, action, reason, details FROM organiser_log"
                                  " WHERE action = 'enter'")
    assert [(actor, action, reason, json.loads(details)["player"])
            for actor, action, reason, details in logged] == [
        (org, "enter", "сказала по телефону", carol)]


@pytest.mark.parametrize("line, answer", [
    ("org@dm: /enter 8 @carol защита", "Как: /enter"),
    ("org@dm: /enter 8 @alice защита по телефону", "@alice не играет в матче #8"),
    ("org@dm: /enter 99 @carol защита по телефону", "Матч 99 не идёт"),
    ("bob@dm: /enter 7 @dave атака он попросил", "только организаторы"),
])
async def test_enter_refusals(sandbox, line, answer):
    lines = await _run(sandbox, line)
    assert len(lines) == 1 and answer in lines[0]
    assert await _rows(sandbox, "SELECT COUNT(*) FROM match_actions WHERE match_id IN (7, 8)"
                       ) == [(0,)]


async def test_enter_typed_in_the_group_is_deleted_and_not_applied(sandbox):
    lines = await _run(sandbox, "org@cup: /enter 8 @carol защита по телефону")
    assert lines[0].startswith("✗ cup#")
    assert "только в личке" in lines[1]
    assert await _rows(sandbox, "SELECT COUNT(*) FROM match_actions WHERE match_id = 8") == [(0,)]


async def test_the_deep_link_of_a_match_not_ones_own_shows_no_panel(sandbox):
    lines = await _run(sandbox, "bob@dm: /start m-7")
    assert lines[:2] == ["→ bob@dm: Вы не играете в матче #7: панель в личке есть только у его игроков.",
                         "  Привет, Bob! Я провожу турниры в группах. Здесь, в личке, вы "
                         "заполняете заявки, делаете тайные ходы и видите свои карты. "
                         "/help — все команды."]
    assert lines[2] == "  [➕ Добавить меня в группу]"  # the welcome's button
    # no panel of match 7; his own match's panel, awaiting his choice, follows as on /start
    assert lines[3:5] == ["→ bob@dm: ⚔️ Матч #8: битва HP, раунд 1, соперник: Carol_King",
                          "  Атака или защита?"]
    lines = await _run(sandbox, "bob@dm: /start m-8")
    assert lines[:2] == ["→ bob@dm: ⚔️ Матч #8: битва HP, раунд 1, соперник: Carol_King",
                         "  Атака или защита?"]
    assert lines[-1].startswith("✗ bob@dm#")  # the old copy of the panel is removed


async def test_a_word_typed_in_the_group_by_someone_without_a_match_is_left_alone(sandbox):
    assert await _run(sandbox, "org@cup: атака") == []


async def test_a_new_turns_panels_are_stored_and_one_sent_before_a_failed_send_is_kept(
        sandbox, monkeypatch):
    from bot.i18n import Translator
    from bot.play import hidden
    from bot.play.context import load_match

    panels = "SELECT match_id, user_id, message_id FROM match_panels ORDER BY match_id, user_id"
    before = await _rows(sandbox, panels)
    assert [match_id for match_id, _, _ in before] == [7, 7, 8, 8]
    draw, drawn = hidden._draw, []

    async def second_send_fails(ctx, seat, **drawing):
        if drawn:
            raise RuntimeError("the second panel could not be sent")
        drawn.append(await draw(ctx, seat, **drawing))
        return drawn[-1]
    monkeypatch.setattr(hidden, "_draw", second_send_fails)
    ctx = await load_match(sandbox.app.services, Translator("ru"), 7)
    with pytest.raises(RuntimeError):
        await hidden.open_panels(ctx)
    after = await _rows(sandbox, panels)
    user_id, message_id = drawn[0]
    assert len(after) == len(before)
    assert set(after) - set(before) == {(7, user_id, message_id)}  # the new panel, stored


async def test_both_players_the_bot_cannot_write_to_are_asked_on_their_match(tmp_path: Path):
    """Neither semi-finalist of match 8 can get a DM when the semi-finals open (both blocked
    the bot, and Telegram told it so): one line of the battle's own message names both,
    above its button that opens the bot's chat, as it is first posted — no group message of
    its own, no edit."""
    output: list[str] = []
    lines = SETUP.splitlines()
    box = Sandbox(seed=11, db_path=tmp_path / "both.sqlite3", language="ru",
                  emit=output.append)
    await box.start()
    try:
        await box.run_lines(lines[:-1] + ["! block bob", "! block carol"])
        start = len(output)
        await box.run_lines(lines[-1:])
    finally:
        await box.close()
    said = output[start:]
    asked = [at for at, line in enumerate(said) if "не могу написать" in line]
    assert len(asked) == 1
    at = asked[0]
    assert said[at:at + 2] == [
        "  Bob_Stone, Carol_King: я не могу написать вам в личку: откройте чат со мной (кнопка)"
        " и выберите «атака» или «защита».", "  [💬 Выбрать в личке]"]
    head = next(line for line in reversed(said[:at]) if not line.startswith("  "))
    assert head.startswith("→ cup: ⚔️")  # the battle's message, not one of its own
    assert not any(line.startswith("✎ cup#") for line in said)


async def test_a_button_of_another_round_is_refused_and_not_counted(tmp_path: Path):
    """An HP panel's buttons carry their round: pressed in round 2 (on the newest panel, as a
    panel Telegram would not delete stays pressable), a round 1 button is out of date and
    nothing is chosen; the round's own button is taken."""
    setup = scenario_until("cup_hp_stale_round_button", "alice@dm: callback hid:2:defend:1:1:0")
    output = await run_script(tmp_path, "\n".join([
        *setup, "alice@dm: callback hid:2:defend:1:1:0", "alice@dm: callback hid:2:defend:1:2:0"]))
    pressed = output[output.index("⚑ alice: This button is out of date."):]
    assert [line for line in pressed if "has chosen" in line] == ["  Alice_Smith has chosen."]
    assert "  Taken: 🛡 defend. Your opponent learns it after the round." in pressed


async def test_a_button_of_a_round_undone_by_reopen_is_refused_when_it_is_played_again(
        tmp_path: Path):
    """After /reopen the replay is at round 1 again: a round 1 button of the first play
    (``play`` 0) was taken as a choice of the replayed round; it is out of date, and the
    new panel's buttons carry the play begun by /reopen (its rewind's log position), read
    again from the log after a restart."""
    setup = scenario_until("cup_hp_stale_round_button", "bob@dm: callback hid:2:attack:1:1:0")
    output: list[str] = []
    async with opened(tmp_path, emit=output.append) as box:
        await box.run_lines([*setup, "bob@dm: callback hid:2:attack:1:1:0"])
        assert output[-1] == "⚑ bob: This button is out of date."
        rewound = await box.app.services.db.fetchone(
            "SELECT max(seq) FROM match_actions WHERE match_id = 2"
            " AND json_extract(payload, '$.type') = 'rewind'")
        pressed = len(output)
        await box.run_lines(["! restart", f"bob@dm: callback hid:2:attack:1:1:{rewound[0]}"])
    assert "  Bob_Stone has chosen." in output[pressed:]


def test_a_panel_buttons_data_is_what_pick_packs_and_reads_back() -> None:
    """A panel's buttons format their data without the model: it must stay Pick's."""
    for match_id, word, at, play in ((7, "attack", 1, 0), (123, "swap 5h", -1, -1),
                                     (8, "keep", 40, 2)):
        data = pick_data(match_id, word, at, play)
        assert data == Pick(match_id=match_id, word=word, at=at, play=play).pack()
        assert Pick.unpack(data) == Pick(match_id=match_id, word=word, at=at, play=play)


def test_packed_data_is_refused_where_pack_refuses_it() -> None:
    """Data formatted without the model keeps ``pack``'s checks: a value holding the
    separator, or data over Telegram's 64 bytes, is refused, not sent."""
    with pytest.raises(ValueError):
        Pick(match_id=7, word="a:b").pack()
    with pytest.raises(ValueError):
        pick_data(7, "a:b", 1, 0)
    with pytest.raises(ValueError):
        pick_data(7, "x" * 60, 1, 0)


def test_a_press_button_is_the_validated_button_and_sent_as_one() -> None:
    """A copied button equals, and is sent as, the one built and validated from its fields;
    a copy made after it leaves it as it was."""
    copied = press_button("Атака", "hid:7:attack:1:1:0")
    built = InlineKeyboardButton(text="Атака", callback_data="hid:7:attack:1:1:0")
    assert copied == built and copied.model_fields_set == built.model_fields_set
    keyboard = InlineKeyboardMarkup(inline_keyboard=[[copied]])
    assert keyboard.model_dump_json(exclude_none=True) == InlineKeyboardMarkup(
        inline_keyboard=[[built]]).model_dump_json(exclude_none=True)
    assert press_button("Защита", "d") == InlineKeyboardButton(text="Защита", callback_data="d")
    assert copied.text == "Атака"


def test_a_keyboard_of_made_buttons_is_the_validated_keyboard_and_shares_nothing() -> None:
    """keyboard_of gives the markup a validation gives, sent alike; changing one copy (a
    row, the markup's rows, its bot, an extra field) changes no other copy, no row it was
    given, and not the next keyboard made. The buttons are the ones given, as a validation
    keeps them; changing one press_button's field changes no other button."""
    rows = [[press_button("Атака", "hid:7:attack:1:1:0"), press_button("Защита", "d")],
            (press_button("Хил", "h"),)]
    made, built = keyboard_of(rows), InlineKeyboardMarkup(inline_keyboard=rows)
    assert made == built and made.model_fields_set == built.model_fields_set
    assert made.inline_keyboard[1][0] is built.inline_keyboard[1][0] is rows[1][0]
    assert made.model_dump_json(exclude_none=True) == built.model_dump_json(exclude_none=True)
    other = keyboard_of(rows)
    made.inline_keyboard[0].append(press_button("x", "x"))
    made.inline_keyboard = [[press_button("y", "y")]]
    made.as_(object())  # type: ignore[arg-type]
    made.note = "extra"  # type: ignore[attr-defined]
    other.inline_keyboard[1][0].text = "Лечение"
    assert other.inline_keyboard[0][0] is not other.inline_keyboard[1][0]
    assert [len(row) for row in rows] == [2, 1] and rows[1][0].text == "Лечение"
    assert other == InlineKeyboardMarkup(inline_keyboard=rows) and other.bot is None
    assert keyboard_of(rows) == InlineKeyboardMarkup(inline_keyboard=rows)
    assert keyboard_of([]) == InlineKeyboardMarkup(inline_keyboard=[])
    assert keyboard_of([]).model_extra == {} and keyboard_of([]).bot is None
    first, second = press_button("a", "a"), press_button("b", "b")
    first.text = "c"
    first.url = "https://t.me/x"
    assert second == InlineKeyboardButton(text="b", callback_data="b")
    assert press_button("a", "a") == InlineKeyboardButton(text="a", callback_data="a")


async def test_a_card_that_asks_is_posted_once_even_when_a_hand_fails(tmp_path: Path, faults):
    """Alice never opened the bot's chat, so the armchair match opens with its hands first:
    the score card, posted after them, asks her at once (not in an edit of it). Bob's hand
    meets Telegram out of reach: the card goes out all the same, and his hand a minute
    later."""
    output: list[str] = []
    async with opened(tmp_path, seed=1, language="en", emit=output.append) as box:
        await box.run_lines(scenario_until("armchair_chase_declaration", "org@g: /begin"))
        faults.fail(5, lambda method: isinstance(method, SendMessage) and "Your hand" in method.text)
        said = len(output)
        await box.line("org@g: /begin")
        card = [at for at, line in enumerate(output[said:], said)
                if line.startswith(("→ g: 🏏 Match #1", "✎ g"))]
        assert len(card) == 1 and "Alice, I cannot write to you" in output[card[0] + 2]
        assert not any(line.startswith("→ bob@dm") for line in output[said:])
        said = len(output)
        await box.line("! advance 1m")
        assert any(line.startswith("→ bob@dm: 🃏 Match #1") for line in output[said:])


async def test_a_host_copy_goes_to_each_organiser_whatever_another_meets(tmp_path: Path,
                                                                        faults):
    """Alice and Erin asked for copies of the hidden choices (/hostcopy); Telegram does not
    take Alice's copy of Bob's choice: Erin gets hers all the same (the copies used to be
    sent one after another, and the rest were lost once one failed), and Alice gets hers
    once Telegram takes it, by its job (it used to be lost)."""
    output: list[str] = []
    async with opened(tmp_path, seed=11, language="ru", emit=output.append) as box:
        choice = "bob@dm: [⚔️ Атака]"
        await box.run_lines(scenario_until("hidden_input", choice))
        alice = box.world.user("alice").id
        faults.fail(5, lambda method: isinstance(method, SendMessage)
                    and method.chat_id == alice and "Копия" in method.text)
        said = len(output)
        await box.line(choice)
        assert "→ erin@dm: 🔒 Копия для ведущего: Bob_Stone, раунд 1 — ⚔️ Атака." \
            in output[said:], output[said:]
        await box.line("! advance 2m")
        assert output[said:].count(
            "→ alice@dm: 🔒 Копия для ведущего: Bob_Stone, раунд 1 — ⚔️ Атака.") == 1, \
            output[said:]


async def test_a_player_who_opens_the_chat_while_the_match_opens_is_not_asked_on_it(
        tmp_path: Path):
    """Bob opens the bot's chat at the very moment the organiser starts the tournament: his
    hand reaches him whichever comes first, and the score card does not ask him to open
    the chat (it used to: the opening's "could not reach Bob" was written after his /start
    had sent his hand, and the card, posted after, asked him until the toss)."""
    output: list[str] = []
    async with opened(tmp_path, seed=1, language="en", emit=output.append) as box:
        await box.run_lines(scenario_until("armchair_blocked_asked_on_card", "org@g: /begin"))
        await lines_at_once(box, "org@g: /begin", "bob@dm: /start")
        card = box._newest(box.world.group("g").id, lambda m: "Match #1" in
                           (m.payload.get("text") or ""))
        assert "Bob, I cannot write to you" not in card.payload["text"]
        assert any(line.startswith("→ bob@dm: 🃏 Match #1") for line in output)
        assert not await panels(box.app.services).unreached(1)
    assert not any(line.startswith("!! error") for line in output)
