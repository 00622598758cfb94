"""Армчер-крикет played in the bot (``bot/features/armchair``), through the sandbox: hands
never reach the group or the export of an unfinished match, a double press plays one card,
a delivery shows on the score card (not in a message of its own), /practice plays a whole
match against the bot player, and a drawn bracket match is dealt again
(``docs/armchair.md``)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bot import match_service
from bot.features.armchair import GAME
from bot.features.armchair.hand import describe
from bot.features.armchair.settings import PARSERS
from bot.features.armchair.stats import LEADERS, leading_scorers, top_scorers
from bot.features.formats import progress, tables
from bot.features.formats.results import record_result
from bot.features.formats.state import load, names_of
from bot.game_settings import parse_settings
from bot.i18n import Translator
from bot.sandbox.runner import Sandbox
from games.armchair_cricket import SUIT_WORDS, choose_action
from games.armchair_cricket.cards import LANGUAGES
from tests.bot.sandbox_run import said
from tests.bot.test_scenarios import run_scenario
from tests.sql_trace import sql_trace

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"
SETUP = """\
org@g: /new armchair Test Night {options}
! admin bot@g
alice@g: /register
bob@g: /register
alice@dm: /start
bob@dm: /start
org@g: /begin
"""

FIRST_BALL = SETUP.format(options="") + """\
bob@g: [🪙 Toss]
alice@g: [🏏 Alice bats first]
bob@dm: [BALL 5]
"""
"""The match under way: Bob has bowled the first ball, Alice is to answer it."""


def _script_lines(name: str) -> list[str]:
    return (SCENARIOS / f"{name}.txt").read_text(encoding="utf-8").splitlines()


def _messages(output: list[str]) -> list[tuple[str, str]]:
    """(chat, whole text) of every message sent or edited, continuation lines joined."""
    found: list[tuple[str, str]] = []
    for message in said(output):
        if head := re.match(r"^[→✎] ([a-z0-9_]+)(?:@dm)?[#:/]", message):
            found.append(("dm" if "@dm" in message.split(":")[0] else head.group(1), message))
    return found


async def _sandbox(tmp_path: Path, seed: int, output: list[str]) -> Sandbox:
    sandbox = Sandbox(seed=seed, db_path=tmp_path / "db.sqlite3", language="en",
                      out_dir=tmp_path / "out", emit=output.append)
    await sandbox.start()
    return sandbox


async def _play_on(sandbox: Sandbox, match_id: int, *, human: int | None = None,
                   limit: int = 600) -> None:
    """Feed each player's move as they would (typed cards, 🪙, the choice buttons), chosen
    by the bot player from that player's own view, until the match ends (or is dealt
    again)."""
    for _ in range(limit):
        services = sandbox.app.services
        match = await services.repos.matches.get(match_id)
        game = await services.matches.state(match)
        logged = await services.repos.matches.actions(match_id)
        if match.status != "running" or game.finished \
                or any(a.payload.get("type") == "rewind" for a in logged):
            return
        turn = game.to_act
        users = [await services.repos.users.get(u) for u in match.players]
        if turn.kind == "toss":
            await sandbox.line(f"{users[0 if human is None else human].username}@g: [🪙 Toss]")
            continue
        if human is not None and turn.seat != human:
            raise AssertionError(f"the bot did not move: {turn}")
        action = choose_action(game.state, turn.seat)
        who = users[turn.seat]
        if turn.kind == "choose":
            word = "bats" if action["bat_first"] == turn.seat else "bowls"
            button = "🏏" if word == "bats" else "🎯"
            await sandbox.line(f"{who.username}@g: [{button} {who.first_name} {word} first]")
        elif action["type"] == "exchange":
            await sandbox.line(f"{who.username}@dm: swap {' '.join(action['cards'])}"
                               if action["cards"] else f"{who.username}@dm: keep")
        elif action["type"] == "declare":
            await sandbox.line(f"{who.username}@dm: [🏳 Declare the innings closed]")
            await sandbox.line(f"{who.username}@dm: [✅ Yes, declare]")
        else:
            await sandbox.line(f"{who.username}@dm: {action['card'].lower()}")
    raise AssertionError("the match did not end")


async def test_hands_never_reach_the_group_or_an_unfinished_export(tmp_path: Path) -> None:
    output: list[str] = []
    sandbox = await _sandbox(tmp_path, 5, output)
    try:
        await sandbox.run_lines(_script_lines("armchair_bad_input"))
        services = sandbox.app.services
        match = await services.repos.matches.get(1)
        game = await services.matches.state(match)
        hands = [game.view(seat)["hand"] for seat in (0, 1)]
    finally:
        await sandbox.close()
    messages = _messages(output)
    shown = {m.group(1) for chat, text in messages if chat == "dm"
             for m in re.finditer(r"Your hand: ([^\n]+)", text)}
    assert len(shown) > 5
    group = "\n".join(text for chat, text in messages if chat == "g")
    assert "Your hand" not in group and "Ball to answer" not in group
    assert not any(hand in group for hand in shown)
    data = json.loads(next(p for p in (tmp_path / "out").iterdir()
                           if p.name.endswith("tournament-1.json")).read_text())
    exported = data["matches"][0]
    assert exported["status"] == "running" and exported["actions"] == []
    assert exported["view"]["hand"] is None and "pile" not in exported["view"]
    text = json.dumps(data)
    assert '"order"' not in text and '"hands"' not in text
    assert all(" · ".join(hand) not in text for hand in hands)
    stats = data["armchair_stats"][0]
    assert stats["innings"][0]["balls"] == 2 and stats["deck"] == 1


async def test_enter_shows_the_organiser_the_players_cards_and_never_the_group(
        tmp_path: Path) -> None:
    """An organiser entering a card for late Anya sees her cards in private (with no card
    typed, and with a card she does not hold, refused naming her); /enter in the group shows
    nothing of them. The organiser's own /enter is confirmed once, not copied to him too."""
    output = await run_scenario(SCENARIOS / "armchair_enter_lists_hand.txt",
                                tmp_path / "db.sqlite3")
    messages = _messages(output)
    shown = [m.group(1) for chat, text in messages if chat == "dm"
             for m in re.finditer(r"Ваши карты: ([^\n]+)", text)]
    held = [text for chat, text in messages if text.startswith("→ org@dm: ")
            and "Anya (матч #1), на руках: " in text]
    assert len(held) == 2 and all(f": {shown[0]}." in text for text in held)
    assert "Anya: карты бита 5 нет в руке." in held[1]
    group = "\n".join(text for chat, text in messages if chat == "klub")
    assert "на руках" not in group and shown[0] not in group
    copies = [text for _, text in messages if "Копия для организатора" in text]
    assert [text.split(":")[0] for text in copies] == ["→ vera@dm"]


async def test_a_paused_hand_says_why_it_waits_without_buttons_until_resume(
        tmp_path: Path) -> None:
    """Alice is to discard when the organiser pauses: her hand (redrawn, and sent
    again by /hand) says the match is paused, with the reason, instead of what to do, and
    has no card buttons; /resume brings both back."""
    output: list[str] = []
    sandbox = await _sandbox(tmp_path, 5, output)
    try:
        await sandbox.run_lines(FIRST_BALL.splitlines())
        start = len(output)
        await sandbox.run_lines(["org@g: /pause lunch", "alice@dm: /hand"])
        paused = said(output[start:])
        start = len(output)
        await sandbox.line("org@g: /resume")
        resumed = said(output[start:])
    finally:
        await sandbox.close()
    hands = [message for message in paused if message.startswith(("✎ alice@dm", "→ alice@dm"))]
    assert len(hands) == 2
    for hand in hands:
        assert hand.endswith("\n  The match is paused (lunch): moves wait for an organiser's "
                             "/resume.") and "➡" not in hand
    alice = next(message for message in resumed if message.startswith("✎ alice@dm"))
    assert "\n  ➡ Discard one card" in alice and "\n  [BAT 3]" in alice


async def test_a_double_press_plays_one_card(tmp_path: Path) -> None:
    output: list[str] = []
    sandbox = await _sandbox(tmp_path, 5, output)
    try:
        await sandbox.run_lines((FIRST_BALL + "alice@dm: [GLOVES 1]\n").splitlines())
        services = sandbox.app.services
        match = await services.repos.matches.get(1)
        at = (await services.matches.state(match)).position
        play = services.matches.play(match.id)
        for _ in range(2):
            await sandbox.line(f"bob@dm: callback hid:1:STUMPS 10:1:{at}:{play}")
        logged = [a.payload for a in await services.repos.matches.actions(1)]
    finally:
        await sandbox.close()
    assert [a["type"] for a in logged].count("bowl") == 1
    assert output[-1] == "⚑ bob: This button is out of date."


async def test_a_delivery_is_told_on_the_score_card_not_in_a_message_of_its_own(
        tmp_path: Path) -> None:
    output: list[str] = []
    sandbox = await _sandbox(tmp_path, 5, output)
    try:
        await sandbox.run_lines((FIRST_BALL + "alice@dm: [GLOVES 1]\nbob@dm: [STUMPS 10]\n"
                                 ).splitlines())
        answered_at = len(output)
        await sandbox.line("alice@dm: [BAT 8]")
    finally:
        await sandbox.close()
    group = [text for chat, text in _messages(output[answered_at:]) if chat == "g"]
    assert [text[0] for text in group] == ["✎"]  # the card edited, nothing new posted
    assert "\n  🏏 0.1 Bob bowls STUMPS 10, Alice plays BAT 8: WICKET · 0/1\n  ➡ " in group[0]


async def test_the_score_card_is_edited_once_a_delivery_and_once_for_the_discards(
        tmp_path: Path) -> None:
    """Telegram counts an edit against a group's 20 messages a minute: the first half of a
    pair of moves (the bowler's discard, the bowler's ball) edits only the two hands, and
    the card, naming both players for the pair, is edited when the batter completes it."""
    output: list[str] = []
    sandbox = await _sandbox(tmp_path, 5, output)
    chats: list[list[str]] = []
    try:
        await sandbox.run_lines(FIRST_BALL.splitlines()[:-1])
        for line in ("bob@dm: [STUMPS 10]", "alice@dm: [GLOVES 1]", "bob@dm: [BALL 5]",
                     "alice@dm: [BAT 8]"):
            before = len(output)
            await sandbox.line(line)
            chats.append(sorted(chat for chat, _ in _messages(output[before:])))
        card = [text for chat, text in _messages(output) if chat == "g"][-1]
    finally:
        await sandbox.close()
    assert chats == [["dm", "dm"], ["dm", "dm", "g"], ["dm", "dm"], ["dm", "dm", "g"]]
    assert card.endswith("\n  ➡ Bob bowls, Alice answers (in private).")


async def test_a_hand_that_could_not_be_sent_comes_with_a_plain_start(tmp_path: Path) -> None:
    """Bob never started the bot, so his cards could not be dealt to him; the group told him
    to open the chat. Opening it with a plain /start (not the group's deep link) brings his
    hand, also before it is his turn (the toss); Alice, whose hand reached her, gets no
    second copy from hers."""
    output: list[str] = []
    sandbox = await _sandbox(tmp_path, 5, output)
    try:
        await sandbox.run_lines(SETUP.format(options="").replace("bob@dm: /start\n", "")
                                .splitlines())
        assert "Bob, I cannot write to you in private" in "\n".join(output)
        started_at = len(output)
        await sandbox.run_lines(["bob@dm: /start", "alice@dm: /start"])
    finally:
        await sandbox.close()
    hands = [chat_text for chat_text in _messages(output[started_at:])
             if "Your hand: " in chat_text[1]]
    assert [text.split(":")[0] for _, text in hands] == ["→ bob@dm"]


async def _practise_to_the_end(sandbox: Sandbox) -> None:
    """Alice's /practice match against the bot (match 1), played to its end."""
    await sandbox.run_lines(["alice@g: hello", "alice@dm: /start",
                             "alice@g: /practice armchair wickets=1 deck_limit=2"])
    services = sandbox.app.services
    match = await services.repos.matches.get(1)
    robot = (await services.bot.me()).id
    await _play_on(sandbox, 1, human=next(seat for seat, user in enumerate(match.players)
                                           if user != robot))


async def test_practice_against_the_bot_plays_a_whole_match(tmp_path: Path) -> None:
    output: list[str] = []
    sandbox = await _sandbox(tmp_path, 3, output)
    try:
        await _practise_to_the_end(sandbox)
        services = sandbox.app.services
        logged = await services.repos.matches.actions(1)
        match = await services.repos.matches.get(1)
    finally:
        await sandbox.close()
    assert not any(line.startswith("!!") for line in output), output
    assert any(a.actor_id is None and a.payload.get("type") in ("bowl", "bat")
               for a in logged)  # the bot's own cards
    assert match.status == "finished"
    assert any("🏁 Match #1 is over." in line for line in output)
    assert not any("sandbox_tourney_bot@dm" in line for line in output)  # no panel for the bot


async def test_a_finished_match_is_not_read_back_into_the_state_cache(tmp_path: Path) -> None:
    """The action that ends a match moves its state from the live matches to the last
    finished ones, so nothing after it (the card game's check for a shuffle due, the hands'
    panels, the result) reads it back from the log: that replayed the whole match."""
    output: list[str] = []
    sandbox = await _sandbox(tmp_path, 3, output)
    try:
        services, line = sandbox.app.services, sandbox.line
        matches, load, loads = services.matches, services.matches._load, []
        live_at_end: list[bool] = []

        async def counted(row):
            loads.append(row.id)
            return await load(row)

        async def noting(raw: str) -> None:
            await line(raw)
            if not live_at_end and any("🏁 Match #1 is over." in said for said in output):
                live_at_end.append(1 in matches._states)
        matches._load, sandbox.line = counted, noting
        await _practise_to_the_end(sandbox)
    finally:
        await sandbox.close()
    assert live_at_end == [False]
    assert loads == [1]  # when it started: never replayed after its last action


async def test_a_drawn_bracket_match_is_dealt_again(tmp_path: Path) -> None:
    output: list[str] = []
    sandbox = await _sandbox(tmp_path, 1, output)
    try:
        await sandbox.run_lines(SETUP.format(options="deck_limit=1 format=single_elim")
                                .splitlines())
        await _play_on(sandbox, 1)
        services = sandbox.app.services
        match = await services.repos.matches.get(1)
        game = await services.matches.state(match)
        logged = [a.payload for a in await services.repos.matches.actions(1)]
    finally:
        await sandbox.close()
    text = "\n".join(output)
    assert "!! error" not in text
    replay = "🔁 A winner is needed: match #1 is played again with a new deal."
    told = [message for message in said(output) if "is played again" in message]
    # the old card, both old hands, and one group message with the draw and the replay
    assert [message.split(":")[0].split("#")[0] for message in told] == [
        "✎ g", "✎ alice@dm", "✎ bob@dm", "→ g"]
    assert all(replay in message for message in told)
    assert "Draw: the deck limit was reached" in told[-1] and "is over" not in told[-1]
    assert match.status == "running" and not game.finished and game.state.innings == ()
    rewind = logged.index({"type": "rewind", "to": 0})
    assert [a["type"] for a in logged[rewind + 1:]] == ["shuffle"]  # the new deal
    assert logged[rewind + 1]["order"] != logged[0]["order"]


async def test_a_tie_and_a_draw_score_half_a_point_in_columns_of_their_own(
        tmp_path: Path) -> None:
    output: list[str] = []
    sandbox = await _sandbox(tmp_path, 1, output)
    try:
        await sandbox.run_lines((SETUP.format(options="format=round_robin")
                                 .replace("bob@g: /register", "bob@g: /register\n"
                                          "carol@g: /register")).splitlines())
        services = sandbox.app.services
        rows = await services.repos.matches.for_tournament(1)
        first = next(row for row in rows if row.status == "running")
        await record_result(services, first.id, None, (12, 12), tie=True)
        await services.scheduler.run_following()  # the round goes on after the result
        rows = await services.repos.matches.for_tournament(1)
        second = next(row for row in rows if row.status == "running")
        await record_result(services, second.id, None, (3, 9))
        await sandbox.line("org@g: /export")
        await sandbox.line("org@g: [📦 Get the export]")
        tied = await services.repos.matches.get(first.id)
        drawn = await services.repos.matches.get(second.id)
        run, label = await load(services, 1), await names_of(services, 1)
        groups = progress.group_tables(run)
        cells = tables._cells(Translator("en"), groups[0][1], label, None, tables._ties(run, groups))
    finally:
        await sandbox.close()
    assert tied.result.get("tie") is True and "tie" not in drawn.result
    data = json.loads(next(p for p in (tmp_path / "out").iterdir()
                           if p.name.endswith("tournament-1.json")).read_text())
    by_player = {row["player"]: row for row in data["standings"]}
    tie_players, draw_players = set(tied.players), set(drawn.players)
    for player, row in by_player.items():
        assert row["ties"] == (player in tie_players)
        assert row["draws"] == (player in draw_players)
        assert row["points"] == 0.5 * ((player in tie_players) + (player in draw_players))
    # the standings picture: W-D-L without the ties, then the ties' own column
    player_of = {name: player for player, name in label.items()}
    for cell in cells:
        player = player_of[cell[1]]
        assert cell[3].split("-")[1] == str(int(player in draw_players)), cell
        assert cell[4] == str(int(player in tie_players)), cell



async def test_the_most_runs_count_no_match_the_table_removed(tmp_path: Path) -> None:
    """Carol withdraws after one of her three matches: the round robin removes her results,
    and the leading run scorers line then counts neither her runs nor Bob's in that match
    (it counted both, and named her though she has no place); the other match still
    counts."""
    output: list[str] = []
    sandbox = await _sandbox(tmp_path, 1, output)
    try:
        await sandbox.run_lines((SETUP.format(options="wickets=1").replace(
            "bob@g: /register", "bob@g: /register\ncarol@g: /register\ndave@g: /register\n"
            "carol@dm: /start\ndave@dm: /start")).splitlines())
        services = sandbox.app.services
        for row in [row for row in await services.repos.matches.for_tournament(1)
                    if row.status == "running"]:  # round 1
            await _play_on(sandbox, row.id)
        tournament, tr = await services.repos.tournaments.get(1), Translator("en")
        before = await leading_scorers(services, tr, tournament)
        await sandbox.run_lines(["carol@g: /withdraw", "carol@g: [🚪 Withdraw]"])
        after = await leading_scorers(services, tr, tournament)
    finally:
        await sandbox.close()
    assert before == ("🏏 Most runs: Alice 15 (2 inns, 2 out), Carol 9 (2 inns, 2 out), "
                      "Bob 7 (2 inns, 2 out), Dave 3 (2 inns, 2 out).")
    assert after == "🏏 Most runs: Alice 15 (2 inns, 2 out), Dave 3 (2 inns, 2 out)."


async def test_a_pressed_card_writes_itself_and_the_next_turns_clock_in_one_transaction(
        tmp_path: Path) -> None:
    """A card pressed on the hand claims its update and sets the late clock of whoever acts
    next in the card's own transaction (the game keeps its own late clock, one per turn:
    the platform's hidden-input clock, which the armchair never sets, is not moved)."""
    output: list[str] = []
    sandbox = await _sandbox(tmp_path, 5, output)
    try:
        await sandbox.run_lines(FIRST_BALL.splitlines())
        db = sandbox.app.services.db
        with sql_trace(db) as statements:
            await sandbox.line("alice@dm: [GLOVES 1]")
        last = (await db.fetchone("SELECT max(seq) FROM match_actions WHERE match_id = 1"))[0]
        clocks = await db.fetchall("SELECT kind, payload FROM jobs WHERE status = 'pending'")
    finally:
        await sandbox.close()
    assert [(kind, json.loads(payload)) for kind, payload in clocks] == [
        ("armchair_late", {"match_id": 1, "seq": last, "seat": 0, "kind": "bowl"})]  # next
    assert statements.count("BEGIN IMMEDIATE") == 1, statements
    assert sum("processed_updates" in s for s in statements) == 1, statements


async def test_the_late_clock_stands_at_the_latest_position_through_a_reshuffle(
        tmp_path: Path) -> None:
    """Set with each action in its own transaction, the late clock must still be set, at
    the match's last seq, when the bot logs a reshuffle right after the action (the action
    alone left the bot, not a player, to act): line by line through a match whose first
    deck runs out."""
    script = (Path(__file__).resolve().parent.parent / "scenarios"
              / "armchair_deck_limit_draw.txt").read_text(encoding="utf-8")
    output: list[str] = []
    sandbox = await _sandbox(tmp_path, 1, output)
    reshuffled_at = []
    try:
        for line in script.splitlines():
            await sandbox.line(line)
            db = sandbox.app.services.db  # a new one after the script's restart
            last, kind = await db.fetchone(
                "SELECT seq, json_extract(payload, '$.type') FROM match_actions"
                " WHERE match_id = 1 ORDER BY seq DESC LIMIT 1") or (0, None)
            clocks = [json.loads(payload)["seq"] for (payload,) in await db.fetchall(
                "SELECT payload FROM jobs WHERE status = 'pending' AND kind = 'armchair_late'")]
            assert all(seq == last for seq in clocks), line
            if kind == "shuffle" and last > 1:  # not the deal: a reshuffle mid-match
                reshuffled_at.append(last)
                assert clocks == [last], line
        left = await sandbox.app.services.db.fetchall(
            "SELECT kind FROM jobs WHERE status = 'pending'")
        status = (await sandbox.app.services.repos.matches.get(1)).status
    finally:
        await sandbox.close()
    assert reshuffled_at  # the first deck ran out
    assert status == "finished" and left == []  # its last action stopped the late clock


async def test_a_match_closed_outside_its_play_leaves_the_live_states(tmp_path: Path) -> None:
    """A walkover (a /dq mid-match) ends no game, yet the match takes no more actions: its
    state leaves the live ones for the bounded finished ones, also when read again."""
    output: list[str] = []
    sandbox = await _sandbox(tmp_path, 5, output)
    try:
        await sandbox.run_lines([*FIRST_BALL.splitlines(), "org@g: /dq @bob left"])
        matches = sandbox.app.services.matches
        assert 1 not in matches._states and 1 in matches._finished
        matches.forget(1)  # as after a restart
        await matches.current(await sandbox.app.services.repos.matches.get(1))
        assert 1 not in matches._states and 1 in matches._finished
    finally:
        await sandbox.close()
    assert "!! error" not in "\n".join(output)


async def test_finished_matches_read_again_are_kept_a_bounded_number(tmp_path: Path,
                                                                     monkeypatch) -> None:
    """A finished match read for its record (the leading scorers under /standings) is kept
    apart from the live ones, the most recent few only; reading it again loads nothing."""
    monkeypatch.setattr(match_service, "FINISHED_REMEMBERED", 1)
    output: list[str] = []
    sandbox = await _sandbox(tmp_path, 3, output)
    try:
        await _practise_to_the_end(sandbox)
        services = sandbox.app.services
        matches = services.matches
        matches.forget(1)  # as after a restart
        loads, load = [], matches._load

        async def counted(row):
            loads.append(row.id)
            return await load(row)
        matches._load = counted
        finished = await services.repos.matches.get(1)
        for _ in range(2):
            assert (await matches.current(finished)).finished
        assert loads == [1] and 1 not in matches._states and matches.cached == 1
        matches._finished[2] = object()  # another finished match read since: 1 is dropped
        assert matches.cached == 1 and 1 not in matches._finished
    finally:
        await sandbox.close()


def test_the_most_runs_name_only_players_who_scored() -> None:
    totals = {1: [0, 2, 3], 2: [12, 2, 1], 3: [5, 1, 3], 4: [0, 1, 1]}
    assert top_scorers(totals) == [(2, [12, 2, 1]), (3, [5, 1, 3])]
    assert top_scorers({1: [0, 1, 3], 2: [0, 1, 3]}) == []  # said by no line at all
    many = {player: [player, 1, 0] for player in range(1, LEADERS + 3)}
    assert [player for player, _ in top_scorers(many)] == list(range(LEADERS + 2, 2, -1))


def test_a_kept_hand_is_described_as_kept_not_as_an_exchange_of_nothing() -> None:
    """The organiser's copy (/hostcopy) and /enter's words: «Borya оставляет руку», as the
    group is told, not «Borya обменивает —»."""
    keep, swap = {"type": "exchange", "cards": []}, {"type": "exchange", "cards": ["BALL 2"]}
    assert describe(Translator("ru"), keep, None) == "оставляет руку"
    assert describe(Translator("en"), keep, None) == "keeps the hand"
    assert describe(Translator("fi"), keep, None) == "pitää kätensä"
    assert describe(Translator("ru"), swap, None) == "обменивает мяч 2"


@pytest.mark.parametrize("language, pair", [
    ("ru", "игра=отчёт"), ("en", "play=report"), ("fi", "pelataan=ilmoitus")])
def test_the_new_tournaments_note_names_play_report_as_settings_takes_it(
        language: str, pair: str) -> None:
    """The note under /new armchair says the setting in the chat's words, as the settings
    line above it does (the Russian note said ``play=report`` under «игра=в_боте»)."""
    note = GAME.setup_note(Translator(language), {})
    assert f"<code>{pair}</code>" in note
    assert parse_settings(PARSERS, [pair], {}) == {"play": "report"}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_rules_name_suits_and_results_as_the_match_does(language: str) -> None:
    """/rules armchair uses the words a match shows: each suit as a card is written, and
    each result by its headword («Ничья по счёту», not «tie»); no other language's suit
    words outside the typed examples (the Russian rules listed «BAT, BALL, STUMPS…»)."""
    tr = Translator(language)
    rules = tr("rules.armchair")
    told = re.sub(r"<[^>]+>", "", re.sub(r"<code>.*?</code>", "", rules)).lower()
    for suit, words in SUIT_WORDS.items():
        assert words[language][0].lower() in told, suit
        foreign = {w[0] for lang, w in words.items() if w[0] != words[language][0]}
        assert not any(re.search(rf"\b{w.lower()}\b", told) for w in foreign), suit
    for key in ("armchair.result_tie", "armchair.result_draw"):
        result = tr(key, a="A", b="B", ra=1, rb=1)
        headword = result.split(":")[0].split(" ", 1)[1]
        assert headword.lower() in told, (key, headword)


def test_declare_buttons_carry_what_their_model_packs() -> None:
    """The hand's declare button and its confirmation are packed without the model: their
    data is what ``Declare(...).pack()`` gives, and the model reads it back."""
    from bot.features.armchair.hand import confirm_rows
    from bot.features.armchair.keyboards import Declare

    tr = Translator("en")
    (yes, no), = confirm_rows(tr, 12, 34)
    assert yes.callback_data == Declare(match_id=12, at=34, step=1).pack()
    assert no.callback_data == Declare(match_id=12, at=34, step=2).pack()
    assert Declare.unpack(no.callback_data) == Declare(match_id=12, at=34, step=2)
    assert (yes.text, no.text) == (tr("armchair.declare_yes"), tr("armchair.declare_no"))
