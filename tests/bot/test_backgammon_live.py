"""Backgammon played in the bot: the .mat record the bot sends at the end of the 3-point
match of tests/scenarios/backgammon_live_match.txt is read back and every move replayed
through the engine to the match's final score (3:1 on time), through the positions the board
showed."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from types import SimpleNamespace

import pytest
from aiogram.methods import SendMessage

from bot.features.backgammon.live import board
from bot.features.backgammon.live.board import Press, game_number, pack_steps, press_data
from bot.features.backgammon.live.clocks import REMIND_CLOCK, onward
from bot.sandbox.runner import Sandbox
from games.backgammon import plays
from games.backgammon.game import OPENING
from games.backgammon.mat import read_mat
from games.backgammon.session import LiveMatch
from tests.bot.sandbox_run import opened, run_script, scenario_until
from tests.bot.test_scenarios import SCENARIOS, options_of
from tests.doubles import lines_at_once
from tests.games.backgammon.test_mat import _replay
from tests.sql_trace import sql_trace


async def test_the_match_record_replays_to_the_final_score(tmp_path: Path) -> None:
    script = (SCENARIOS / "backgammon_live_match.txt").read_text(encoding="utf-8")
    output = await run_script(tmp_path, script, seed=int(options_of(script)["seed"]),
                              files=True)
    assert not any(line.startswith("!! error") for line in output)
    records = sorted((tmp_path / "out").rglob("*.mat"))
    assert records, "the match ended without sending its record"
    record = read_mat(records[-1].read_text(encoding="utf-8"))
    assert record.names == ("Alice", "Bob") and record.length == 3
    match, ids = _replay(record)
    assert match.finished
    assert match.score == (1, 3)  # Alice lost on time after the Crawford game's start
    final = [line for line in output if line.startswith('→ g: document match-1.mat "🏆')]
    assert final and "Bob wins 3:1" in final[-1]  # the result heads the record's caption
    assert len(record.games) == 3
    boards = [line for line in output if line.startswith("  Position ID: ")]
    assert boards[-1] == f"  Position ID: {ids[-1]}"  # the record ends where the board did
    assert len(ids) > 20  # every move of every game was replayed


def _export(tmp_path: Path) -> dict:
    (path,) = [p for p in (tmp_path / "out").rglob("*") if p.name.endswith("tournament-1.json")]
    return json.loads(path.read_text(encoding="utf-8"))


async def test_export_holds_the_record_of_every_finished_match(tmp_path: Path) -> None:
    script = (SCENARIOS / "backgammon_live_swiss.txt").read_text(encoding="utf-8")
    output = await run_script(tmp_path, script, seed=int(options_of(script)["seed"]),
                              files=True)
    assert not any(line.startswith("!! error") for line in output)
    records = _export(tmp_path)["backgammon_mat"]
    assert [r["match_id"] for r in records] == [1, 2, 3, 4]
    assert [r["round"] for r in records] == [1, 1, 2, 2]
    sent = {p.name: p.read_text(encoding="utf-8") for p in (tmp_path / "out").rglob("*.mat")}
    for entry in records:
        (text,) = [t for name, t in sent.items() if name.endswith(entry["file"])]
        assert entry["mat"] == text  # the same record the match's end sent to the chat
        match, _ = _replay(read_mat(entry["mat"]))
        assert match.finished


async def test_export_lists_every_game_played_in_the_bot(tmp_path: Path) -> None:
    """``backgammon_games`` has a line per game of a match played in the bot (it had only
    games reported from a real board, so an in-bot tournament's table was empty), the same
    games as the match's record."""
    script = (SCENARIOS / "backgammon_live_swiss.txt").read_text(encoding="utf-8")
    await run_script(tmp_path, script, seed=int(options_of(script)["seed"]), files=True)
    export = _export(tmp_path)
    (table,) = [p for p in (tmp_path / "out").rglob("*backgammon_games.csv")]
    lines = table.read_text(encoding="utf-8").splitlines()[1:]
    for record, match in zip(export["backgammon_mat"], export["backgammon_games"], strict=True):
        assert match["match_id"] == record["match_id"] and match["played_in_bot"]
        games = read_mat(record["mat"]).games
        assert len(match["games"]) == len(games) > 0
        if match["outcome"]["how"] == "played":  # not lost whole on time; a gammon that
            # ends a match scores only the points the match still needed
            assert [min(match["length"], sum(g["points"] for g in match["games"]
                                             if g["winner"] == seat))
                    for seat in (0, 1)] == match["score"]
        assert sum(line.startswith(f"{match['match_id']},") for line in lines) >= len(games)


async def test_export_leaves_out_a_match_still_being_played(tmp_path: Path) -> None:
    script = "\n".join([
        "org@g: /new backgammon Evening length=1", "alice@g: /register", "bob@g: /register",
        "org@g: /begin", "org@g: /export", "org@g: [📦 Get the export]"])
    output = await run_script(tmp_path, script, seed=1, files=True)
    assert not any(line.startswith("!! error") for line in output)
    assert any("Match 1" in line for line in output)  # the match is under way
    assert _export(tmp_path)["backgammon_mat"] == []


def test_the_board_numbers_the_game_the_match_ended_in() -> None:
    resigned_at_once = LiveMatch(5)
    resigned_at_once.apply({"type": "resign_match", "player": 0})
    assert game_number(resigned_at_once) == 1  # not "game 0"
    one_game = LiveMatch(1)
    one_game.apply({"type": "opening_roll", "dice": [3, 1]})
    one_game.apply({"type": "resign", "player": 0})
    assert one_game.finished and game_number(one_game) == 1
    second_game = LiveMatch(3)
    second_game.apply({"type": "opening_roll", "dice": [3, 1]})
    second_game.apply({"type": "resign", "player": 0})  # a backgammon: 3 points, over
    assert second_game.finished and game_number(second_game) == 1
    running = LiveMatch(7)
    running.apply({"type": "opening_roll", "dice": [3, 1]})
    running.apply({"type": "resign", "player": 0})
    assert not running.finished and game_number(running) == 2
    running.apply({"type": "timeout", "player": 1})
    assert running.finished and game_number(running) == 2  # the game it ended in


async def test_a_move_writes_itself_and_the_next_turns_clocks_in_one_transaction(
        tmp_path: Path) -> None:
    """The clocks of the player who must act next (the turn clock and its reminder) replace
    the mover's in the move's own transaction."""
    script = (SCENARIOS / "backgammon_live_clocks.txt").read_text(encoding="utf-8")
    opening = script[:script.index("alice@g: 24/22 24/21")].splitlines()
    async with opened(tmp_path, seed=7) as sandbox:
        await sandbox.run_lines(opening)
        db = sandbox.app.services.db
        with sql_trace(db) as statements:
            await sandbox.line("alice@g: 24/22 24/21")
        clocks = await db.fetchall("SELECT kind, payload FROM jobs WHERE status = 'pending'"
                                   " ORDER BY id")
    assert [(kind, json.loads(payload)["seat"]) for kind, payload in clocks] == [
        ("bg_live_turn", 1), ("bg_live_remind", 1)]
    assert statements.count("BEGIN IMMEDIATE") == 1, statements


async def test_a_turn_generates_its_rolls_plays_once(tmp_path: Path, monkeypatch) -> None:
    """The plays of a roll are generated once per turn: the bot's roll (is the move forced?
    the board's buttons) and the typed move (which play is it? was it forced?) all ask for
    the same ones."""
    script = (SCENARIOS / "backgammon_live_clocks.txt").read_text(encoding="utf-8")
    opening = script[:script.index("alice@g: 24/22 24/21")].splitlines()
    generated = []
    generate = plays.generate

    def counted(*args):
        generated.append(args)
        return generate(*args)

    async with opened(tmp_path, seed=7) as sandbox:
        await sandbox.run_lines(opening)
        plays._plays_by_key.cache_clear()
        monkeypatch.setattr(plays, "generate", counted)
        await sandbox.line("alice@g: 24/22 24/21")
        assert len(generated) == 1
        generated.clear()
        await sandbox.line("bob@g: /roll")
        assert len(generated) == 1


async def test_a_moves_board_is_drawn_while_the_move_is_written(tmp_path: Path,
                                                               monkeypatch) -> None:
    """The board a move leaves is handed to the picture worker before the move is written
    (``Playbook.preview``) and that drawing is the one shown: nothing is drawn after."""
    script = (SCENARIOS / "backgammon_live_clocks.txt").read_text(encoding="utf-8")
    opening = script[:script.index("alice@g: 24/22 24/21")].splitlines()
    sandbox = Sandbox(seed=7, db_path=tmp_path / "db.sqlite3", language="en",
                      emit=lambda line: None, render_processes=1)  # a worker, as live
    await sandbox.start()
    try:
        await sandbox.run_lines(opening)
        services, events = sandbox.app.services, []
        renderer, write = services.renderer, services.db.write
        begin, picture = renderer.begin, renderer.picture

        def begun(function, *args):
            events.append("begin")
            return begin(function, *args)

        async def drawn(function, *args):
            events.append("picture")
            return await picture(function, *args)

        async def writing(work, touches=()):
            events.append("write")
            return await write(work, touches)
        renderer.begin, renderer.picture, services.db.write = begun, drawn, writing
        scene = board.scene

        def built(*args, **kwargs):
            events.append("scene")
            return scene(*args, **kwargs)
        monkeypatch.setattr(board, "scene", built)
        await sandbox.line("alice@g: 24/22 24/21")
    finally:
        await sandbox.close()
    assert events == ["scene", "begin", "write"], events  # the early scene is shown, not rebuilt


def test_an_early_scene_is_not_shown_for_a_state_that_moved_on() -> None:
    """The scene the preview built is the board's only for the very state at the very step
    it was built for: once the state moved on (the same object, a later step), it is built
    again, and the early drawing is not taken (its scene differs)."""
    state = LiveMatch(3, 60)
    state.apply({"type": "opening_roll", "dice": [3, 1]})
    ctx = SimpleNamespace(tr=SimpleNamespace(plain=str), names=("Alice", "Bob"), closed=False)
    early = board.scene(ctx, state)
    ctx.early_picture = (board._Early(state, state.steps, early), None)
    assert board._scene_now(ctx, state) is early
    state.apply({"type": "move", "player": state.to_act, "play": "8/5 6/5"})
    now = board._scene_now(ctx, state)
    assert now is not early and now != early


def _reminder(settings: dict, bank: int) -> tuple[int, int] | None:
    """When the reminder of the player to act in a match with ``bank`` left is due and the
    seconds it says are left, or None when none is set."""
    state = LiveMatch(3, bank)
    state.apply({"type": "opening_roll", "dice": [3, 1]})
    starts = {kind: (delay, payload) for kind, delay, payload in
              onward(None, settings, state).start}
    if REMIND_CLOCK not in starts:
        return None
    delay, payload = starts[REMIND_CLOCK]
    return int(delay.total_seconds()), payload["left"]


def test_a_bank_of_a_minute_or_less_is_reminded_of_once_as_it_starts() -> None:
    """A bank is reminded of once a match, as it comes down to its last minute; a bank of a
    minute or less (clock=60+1) is in it from the start: reminded as the move's timer runs
    out while the bank is still whole, not again once some of it is spent."""
    assert _reminder({"clock": "60+5"}, 300) == (300, 60)  # 60 s + 4 minutes of bank
    assert _reminder({"clock": "60+5"}, 60) is None  # reminded already
    assert _reminder({"clock": "60+1"}, 60) == (60, 60)  # as the bank starts
    assert _reminder({"clock": "60+1"}, 45) is None  # spent in part: reminded already
    assert _reminder({"clock": "60+0"}, 0) is None  # no bank, nothing to remind of


async def test_a_match_opened_in_a_pause_rolls_its_opening_after_a_restart(
        tmp_path: Path, monkeypatch) -> None:
    """The opening roll of a match opened in a pause waits on a clock /resume starts: a
    restart after the /resume, before that clock ran, makes the roll at start-up, once."""
    script = (SCENARIOS / "backgammon_live_opened_in_pause_fi.txt").read_text(encoding="utf-8")
    before = scenario_until("backgammon_live_opened_in_pause_fi", "org@lauta: /resume")
    output: list[str] = []
    async with opened(tmp_path, seed=int(options_of(script)["seed"]), language="fi",
                      emit=output.append) as sandbox:
        await sandbox.run_lines(before)
        with monkeypatch.context() as patched:  # the process stops before it runs the clock
            patched.setattr(Sandbox, "_follow_ups", _nothing)
            await sandbox.run_lines(["org@lauta: /resume"])
        assert not [line for line in output if "Aloitusheitto: Aino" in line]
        await sandbox.run_lines(["! restart", "eero@lauta: 8/5 6/5", "eero@lauta: /roll"])
    rolls = [line for line in output if "↪ Aloitusheitto: Aino" in line]
    assert rolls == ["  ↪ Aloitusheitto: Aino 1, Eero 3"]  # made once
    assert any("↪ Eero 3-1: 8/5 6/5" in line for line in output)
    assert not any("ensin aloitusheitto" in line for line in output)


async def _nothing(*_args) -> None:
    return None


def test_a_buttons_data_is_what_press_packs_and_reads_back() -> None:
    """The board's buttons format their data without the model: it must stay Press's."""
    for match_id, step, act, steps in ((1, 0, "roll", []), (123, 45, "d245", [(24, 3)]),
                                       (7, 3, "confirm", [(25, 6), (3, 3), (0, 3), (6, 3)])):
        data = press_data(match_id, step, act, steps)
        assert data == Press(match_id=match_id, step=step, act=act,
                             steps=pack_steps(steps)).pack()
        assert Press.unpack(data) == Press(match_id=match_id, step=step, act=act,
                                           steps=pack_steps(steps))


IDLE = SCENARIOS / "backgammon_live_idle_bank.txt"


@pytest.mark.parametrize(("setup", "options", "unsaid", "line"), [
    (["! admin org@g", "org@g: /new backgammon Night length=3", "alice@g: /register",
      "bob@g: /register", "org@g: /begin", "bob@g: 13/8 6/4", "alice@g: /double"],
     {"seed": "1", "lang": "en"}, "Game 1:", "bob@g: /pass"),
    (scenario_until(IDLE.stem, "! advance 2m"), options_of(IDLE.read_text(encoding="utf-8")),
     "бездействует", "! advance 2m"),
], ids=["a double passed", "the idle limit's job"])
async def test_a_game_whose_end_is_not_said_still_goes_on_to_the_next(
        tmp_path: Path, faults, setup: list[str], options: dict[str, str], unsaid: str,
        line: str) -> None:
    """Telegram out of reach for the line that ends game 1: the bot still rolls game 2's
    opening and shows the board, so the players can go on (the next game used to wait for
    an opening roll nobody could make)."""
    async with opened(tmp_path, seed=int(options.get("seed", 0)),
                      language=options.get("lang", "ru")) as sandbox:
        await sandbox.run_lines(setup)
        faults.fail(5, lambda method: isinstance(method, SendMessage) and unsaid in method.text)
        await sandbox.line(line)
        state = await sandbox.app.services.matches.current(
            await sandbox.app.services.repos.matches.get(1))
    assert len(state.games) == 1 and state.game.phase != OPENING  # game 2 under way


@pytest.mark.parametrize(("setup", "options", "line"), [
    (["! admin org@g", "org@g: /new backgammon Night length=3", "alice@g: /register",
      "bob@g: /register", "org@g: /begin", "bob@g: 13/8 6/4", "alice@g: /double"],
     {"seed": "1", "lang": "en"}, "bob@g: /pass"),
    (scenario_until(IDLE.stem, "! advance 2m"), options_of(IDLE.read_text(encoding="utf-8")),
     "! advance 2m"),
], ids=["a double passed", "the idle limit's job"])
async def test_a_game_ended_right_before_a_stop_gets_its_next_opening_roll(
        tmp_path: Path, monkeypatch, setup: list[str], options: dict[str, str],
        line: str) -> None:
    """The bot stopped after writing the action that ends game 1, before it rolled game 2's
    opening (nobody else can): the restart runs the clock of the bot's own step at once,
    which rolls it (the match used to wait for good, "the opening roll is under way")."""
    from bot.features.backgammon.live import flow

    async with opened(tmp_path, seed=int(options.get("seed", 0)),
                      language=options.get("lang", "ru")) as sandbox:
        await sandbox.run_lines(setup)
        with monkeypatch.context() as patched:  # the process stops before the bot moves on
            patched.setattr(flow, "advance", _nothing)
            await sandbox.line(line)
        repos = sandbox.app.services.repos
        ended = await sandbox.app.services.matches.current(await repos.matches.get(1))
        assert len(ended.games) == 1 and ended.game.phase == OPENING
        await sandbox.run_lines(["! restart"])
        services = sandbox.app.services  # the restarted bot's
        state = await services.matches.current(await services.repos.matches.get(1))
    assert len(state.games) == 1 and state.game.phase != OPENING  # game 2 under way


async def test_two_of_the_bots_own_steps_at_once_take_it_once(tmp_path: Path,
                                                               monkeypatch) -> None:
    """An action's own step and the clock that makes the bot act after a stop, fired while
    that action waited (in a busy group), both find game 2's opening roll to make: it is
    made once, and neither is refused."""
    from bot.features.backgammon.live import flow
    from bot.play.context import context_for

    async with opened(tmp_path, seed=1) as sandbox:
        await sandbox.run_lines(["! admin org@g", "org@g: /new backgammon Night length=3",
                                 "alice@g: /register", "bob@g: /register", "org@g: /begin",
                                 "bob@g: 13/8 6/4", "alice@g: /double"])
        with monkeypatch.context() as patched:
            patched.setattr(flow, "advance", _nothing)
            await sandbox.line("bob@g: /pass")
        services = sandbox.app.services
        tournament = await services.repos.tournaments.get(1)
        tr = await services.translator_for_chat(tournament.chat_id)
        contexts = [await context_for(services, tr, tournament,
                                      await services.repos.matches.get(1)) for _ in range(2)]
        automatic = flow.automatic

        async def read_together(ctx, state):  # each reads the step before either takes it
            action = await automatic(ctx, state)
            await asyncio.sleep(0)
            return action

        monkeypatch.setattr(flow, "automatic", read_together)
        await asyncio.gather(*(flow.advance(ctx) for ctx in contexts))
        logged = [action.payload for action in await services.repos.matches.actions(1)]
    assert [a["type"] for a in logged].count("opening_roll") == 2  # game 1's and game 2's


async def test_a_move_drawn_as_its_match_is_closed_does_not_draw_over_the_closed_board(
        tmp_path: Path, monkeypatch):
    """Dave's move and the organiser's /dq of Alice arrive together, and Dave's board takes
    longer to draw than the /dq to close the match: the board ends closed, without
    buttons (the move's drawing, made after the lock, used to come last and show a live
    board with Roll and Double on a match that was over)."""
    drawing = board._drawing

    async def slow(ctx, scene):
        if not ctx.closed:  # the live board's picture: a worker busy elsewhere
            await asyncio.sleep(0.2)
        return await drawing(ctx, scene)

    monkeypatch.setattr(board, "_drawing", slow)
    output: list[str] = []
    async with opened(tmp_path, seed=3, language="en", emit=output.append) as box:
        await box.run_lines(scenario_until("backgammon_live_closed", "dave@g: 13/11 13/8"))
        await lines_at_once(box, "dave@g: 13/11 13/8", "org@g: /dq @alice abusive language")
        [match] = [m for m in await box.app.services.repos.matches.for_tournament(1)
                   if m.id == 1]
        shown = box.world.find(box.world.group("g").id, match.board_message_id)
        assert "Match closed before it was played out" in shown.payload["caption"]
        assert not shown.payload.get("reply_markup")
