"""Friendly matches: the Cup's bot player, the friendlies in /export (the files' contents),
a friendly that touches no tournament of the chat, and any game with a ``launch`` (one
declared in a test) played as a friendly to its end."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from types import SimpleNamespace

import pytest
from aiogram.methods import EditMessageText
from aiogram.types import Message

from bot import catalogue
from bot.features.friendly import invite
from bot.features.friendly.closing import RESIGNED_JOB
from bot.features.friendly.invite import ACCEPTED_JOB, INVITED_JOB, opponent
from bot.features.friendly.players import cup_player
from bot.features.friendly.start import PLAY_JOB, described
from bot.games import BOT_ROLLS, game_of
from bot.i18n import Translator
from bot.play.refusal import Refusal
from bot.sandbox.world import BOT_ID
from bot.scheduler import Scheduler
from games.dice_cup import GroupMatch
from storage.repositories.matches import MatchesRepo
from storage.repositories.users import User
from tests.bot.conftest import Faults, Outage
from tests.bot.sandbox_run import (
    ProcessDied,
    died_in,
    opened,
    run_script,
    stopped_after,
    stops_before,
)


def _roll(state: GroupMatch, seat: int, value: int) -> None:
    state.apply({"type": "roll", "player": seat, "value": value})


def test_the_cup_bot_rolls_on_its_turn_only() -> None:
    state = GroupMatch()
    assert cup_player(state, 1) is None  # round 1: player A rolls first
    _roll(state, 0, 4)
    assert cup_player(state, 1) == BOT_ROLLS
    assert cup_player(state, 0) is None


def test_the_cup_bot_votes_for_the_draw_at_a_tied_decider() -> None:
    state = GroupMatch()
    for a, b in ((6, 1), (1, 6), (6, 1), (1, 6), (3, 3)):  # 2:2, then a tied 5th round
        first = state.roller
        _roll(state, first, a if first == 0 else b)
        _roll(state, 1 - first, b if first == 0 else a)
    assert state.voting
    assert cup_player(state, 1) == {"type": "draw_vote", "player": 1, "vote": "draw"}
    state.apply({"type": "draw_vote", "player": 1, "vote": "draw"})
    assert cup_player(state, 1) is None  # voted: the human decides


PLAYERS_REPLY = "→ fx: No applications for “Autumn Cup” yet."
SCRIPT = """\
org@fx: /new cup Autumn Cup
alice@fx: hi
bob@fx: hi
alice@fx: /challenge @bob cup
bob@fx: [✅ Accept]
alice@fx: 🎲 6
bob@fx: 🎲 1
bob@fx: 🎲 2
alice@fx: 🎲 5
alice@fx: 🎲 4
bob@fx: 🎲 3
carol@fx: /practice cup
carol@fx: 🎲 6
org@fx: /players
org@fx: /export
org@fx: [📦 Get the export]
"""


async def test_friendlies_are_in_the_export_and_not_in_the_tournament(tmp_path: Path) -> None:
    output = await run_script(tmp_path, SCRIPT, seed=2, files=True)
    text = "\n".join(output)
    assert "!! error" not in text, text
    assert PLAYERS_REPLY in output  # /players is about the Cup, not a friendly
    files = {path.name.split("-", 2)[-1]: path for path in (tmp_path / "out").iterdir()}
    data = json.loads(files["tournament-1.json"].read_text())
    assert data["matches"] == [] and data["entrants"] == []  # the Cup tournament is untouched
    challenge, practice = data["friendlies"]
    assert challenge["tournament"]["title"] == "Friendly: Alice vs Bob"
    assert [e["name"] for e in challenge["entrants"]] == ["Alice", "Bob"]
    (match,) = challenge["matches"]
    assert match["stage"] == "friendly" and match["status"] == "finished"
    assert match["winner"] == match["players"][0] and match["result"]["score"] == [3, 0]
    rolls = [a["action"]["value"] for a in match["actions"] if "meta" not in a["action"]]
    assert rolls == [6, 1, 2, 5, 4, 3]
    assert match["actions"][-1]["action"]["meta"] == "result"  # the result is in the log too
    assert practice["entrants"][1]["user_id"] == BOT_ID
    bot_rolls = [a for a in practice["matches"][0]["actions"] if a["actor"] is None]
    # the bot answered Carol's 6 and then opened round 2: two rolls, logged like any other
    assert [a["action"]["player"] for a in bot_rolls] == [1, 1]
    rows = list(csv.DictReader(files["tournament-1-friendlies.csv"].open()))
    assert len(rows) == 10 and {row["game"] for row in rows} == {"cup"}  # 9 actions, 1 result
    assert [row["actor"] for row in rows[-3:]] == [str(practice["entrants"][0]["user_id"]), "", ""]



HIGH_CARD = """\
alice@hc: hi
bob@hc: hi
alice@hc: /practice highcard
alice@hc: /challenge @bob highcard
bob@hc: [✅ Accept]
bob@hc: /match
alice@hc: 🎲 5
bob@hc: 🎲 2
bob@hc: 🎲 6
alice@hc: 🎲 3
alice@hc: 🎲 4
bob@hc: 🎲 1
bob@hc: 🎲 6
"""


@pytest.mark.usefixtures("high_card_game")
async def test_a_game_with_a_launch_plays_a_friendly(tmp_path: Path) -> None:
    output = await run_script(tmp_path, HIGH_CARD, seed=1)
    text = "\n".join(output)
    assert "!! error" not in text, text
    assert "I cannot play High card myself" in text  # no bot player declared
    assert "→ hc: 🎯 Match 1: Alice — Bob." in output  # the game's own launch
    assert "The match is played in the bot: the result is recorded when it ends." in text  # /match
    assert "Alice 3 : 6 Bob — 1:1" in text
    # the friendly is over, said once by the game: Bob's last 🎲 is only a 🎲 in a chat with
    # nothing running
    assert output[-1] == "→ hc: Alice 4 : 1 Bob — 2:1"


def _message(replied_to: dict | None) -> Message:
    chat = {"id": -5, "type": "supergroup", "title": "g"}
    sender = {"id": 1, "is_bot": False, "first_name": "Alice"}
    data = {"message_id": 9, "date": 0, "chat": chat, "from": sender, "text": "/challenge cup"}
    if replied_to is not None:
        data["reply_to_message"] = {"message_id": 8, "date": 0, "chat": chat,
                                    "from": replied_to, "text": "hi"}
    return Message.model_validate(data)


class _Users:
    def __init__(self, *known: User) -> None:
        self.known = {user.id: user for user in known}

    async def get(self, user_id: int) -> User | None:
        return self.known.get(user_id)

    async def by_username(self, handle: str) -> User | None:
        return next((u for u in self.known.values() if u.username == handle), None)


def _services(*known: User) -> SimpleNamespace:
    return SimpleNamespace(bot_username="the_bot", repos=SimpleNamespace(users=_Users(*known)),
                           deep_link=lambda payload="": "https://t.me/the_bot")


async def test_the_challenged_player_by_reply_or_handle() -> None:
    bob = User(2, "bob", "Bob", "en", None, False)
    reply_to_bob = _message({"id": 2, "is_bot": False, "first_name": "Bob"})
    assert await opponent(reply_to_bob, _services(bob), ["cup"]) == (bob, ["cup"])
    assert await opponent(_message(None), _services(bob), ["@bob", "cup"]) == (bob, ["cup"])
    refusals = [
        (reply_to_bob, _services(), ["cup"], "friendly.unknown_user"),
        (_message({"id": 7, "is_bot": True, "first_name": "Other"}), _services(), ["cup"],
         "friendly.no_bots"),
        (_message(None), _services(bob), ["@The_Bot", "cup"], "friendly.no_bots"),
        (_message(None), _services(bob), ["cup"], "friendly.usage_challenge"),
    ]
    for message, services, words, key in refusals:
        with pytest.raises(Refusal) as refused:
            await opponent(message, services, words)
        assert refused.value.key == key
        if key == "friendly.unknown_user":  # the group is told how to open the bot's chat
            assert refused.value.params["link"] == "https://t.me/the_bot"


async def test_another_games_command_in_a_friendly_says_the_friendlys_game(
        tmp_path: Path) -> None:
    """A darts command beside a friendly backgammon match (no tournament in the chat) says
    it is not used in backgammon, not that there is no tournament here."""
    output = await run_script(tmp_path, "ann@club: hi\nann@dm: /start\n"
                              "ann@club: /practice backgammon\nann@club: /starter\n", seed=4)
    assert output[-1] == "→ club: /starter is not used in Backgammon."


def test_a_challenge_names_its_changed_settings_in_the_chats_language() -> None:
    """/challenge @matti fincricket legs=3 said «(legs=3)», a raw key, in a Finnish group."""
    catalogue.install()
    fincricket, backgammon = game_of("fincricket"), game_of("backgammon")
    assert described(Translator("fi"), fincricket, fincricket.defaults | {"legs": 3}) == \
        "legit=3"
    assert described(Translator("ru"), fincricket, fincricket.defaults | {"legs": 3}) == \
        "леги=3"
    assert described(Translator("fi"), fincricket, fincricket.defaults) == ""
    assert described(Translator("en"), backgammon, backgammon.defaults | {
        "length": 3, "clock": "10+2"}) == "length=3, clock=10+2"


@pytest.mark.parametrize(("start", "owed"), [
    (("alice@g: hi", "bob@g: hi", "alice@g: /challenge @bob cup", "bob@g: [✅ Accept]"),
     ACCEPTED_JOB),
    (("alice@g: /practice cup",), PLAY_JOB),
], ids=["accepted challenge", "practice"])
async def test_a_friendly_started_before_a_stop_gets_its_match_at_the_next_start(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, start: tuple[str, ...],
        owed: str) -> None:
    """The write that starts a friendly holds its match owed (``start.PLAY_JOB``; an
    accepted challenge's ``invite.ACCEPTED_JOB`` also says the invitation accepted): a
    process that stops before making it leaves the job, and the next start makes the match
    and posts its board, which plays."""
    async with opened(tmp_path) as sandbox:
        services = sandbox.app.services
        with monkeypatch.context() as patch:
            patch.setattr(Scheduler, "stand_in", stops_before(owed))
            await sandbox.run_lines(start)
        assert await services.repos.matches.for_tournament(1) == []
        await sandbox.line("! restart")
        await sandbox.app.services.scheduler.run_following()  # as a live start does
        [match] = await sandbox.app.services.repos.matches.for_tournament(1)
        assert match.board_message_id is not None
        await sandbox.line("alice@g: 🎲 5")
        logged = await sandbox.app.services.repos.matches.actions(match.id)
        assert sandbox.errors == 0 and {"type": "roll", "player": 0, "value": 5} in [
            action.payload for action in logged]


async def test_a_resignation_written_right_before_a_stop_is_said_at_the_next_start(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A friendly's /resign writes the result and the friendly's end together, holding what
    it says (``closing.RESIGNED_JOB``): stopped right after the write, the next start says
    who gave up, once, and draws the board closed (the friendly used to stay under way, its
    end never said)."""
    output: list[str] = []
    async with opened(tmp_path, emit=output.append) as sandbox:
        await sandbox.run_lines(["alice@g: hi", "alice@dm: /start",
                                 "alice@g: /practice armchair"])
        stopped = await stopped_after(sandbox, monkeypatch, output, RESIGNED_JOB,
                                      "alice@g: /resign")
        services = sandbox.app.services
        friendly = await services.repos.tournaments.get(1)
        [match] = await services.repos.matches.for_tournament(1)
        card = sandbox.world.find(sandbox.world.group("g").id, match.board_message_id)
        pending = [job.kind for job in await services.repos.jobs.pending()]
        assert sandbox.errors == 0 and RESIGNED_JOB not in pending
    resigned = [line for line in output if "Alice resigned" in line]
    assert not any("Alice resigned" in line for line in output[:stopped])
    assert len(resigned) == 1, output[stopped:]
    assert friendly.status == "finished" and match.status == "finished"
    assert "Tourney wins" in card.payload["text"] and not card.payload.get("reply_markup")


async def test_a_darts_friendly_whose_result_is_written_right_before_a_stop_ends(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A darts friendly's result and the friendly's end are one write: a process that dies
    right after its result's write leaves neither, and the next start's result job writes
    both (the friendly used to stay under way for good: the job found its match closed)."""
    settle = MatchesRepo.settle

    async def dying(repo: MatchesRepo, *args, **kwargs) -> None:
        await settle(repo, *args, **kwargs)
        raise ProcessDied

    shanghai = ["T20 S20 D20", "S20 D20 miss", "S19 D19 T19"] + [
        visit for number in (18, 17, 16, 15)
        for visit in ("miss miss miss", f"S{number} D{number} T{number}")] + ["miss miss miss"]
    output: list[str] = []
    async with opened(tmp_path, emit=output.append) as sandbox:
        await sandbox.run_lines(["alice@g: hi", "bob@g: hi",
                                 "alice@g: /challenge @bob shanghai legs=1",
                                 "bob@g: [✅ Accept]", "bob@g: [🎯 Bull-off: Alice]",
                                 *(f"{('alice', 'bob')[turn % 2]}@g: {visit}"
                                   for turn, visit in enumerate(shanghai))])
        await died_in(sandbox, monkeypatch, output, "alice@g: 25 25 50", MatchesRepo,
                      "settle", dying)
        await sandbox.app.services.scheduler.run_following()  # as a live start does
        services = sandbox.app.services
        [match] = await services.repos.matches.for_tournament(1)
        friendly = await services.repos.tournaments.get(1)
        assert sandbox.errors == 0
    assert match.status == "finished" and friendly.status == "finished"


async def test_an_acceptance_written_right_before_a_stop_closes_its_invitation_next_time(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Stopped after the acceptance's write, before its invitation was edited: the next
    start says the invitation accepted, without its buttons, and makes the match (before,
    the match came and the invitation still asked)."""
    close = invite._close_invitation
    died: list[bool] = []

    async def die_once(*args, **kwargs) -> None:
        if not died:
            died.append(True)
            raise ProcessDied
        await close(*args, **kwargs)

    output: list[str] = []
    async with opened(tmp_path, emit=output.append) as sandbox:
        await sandbox.run_lines(["alice@g: hi", "bob@g: hi", "alice@g: /challenge @bob cup"])
        friendly = await sandbox.app.services.repos.tournaments.get(1)
        await died_in(sandbox, monkeypatch, output, "bob@g: [✅ Accept]", invite,
                      "_close_invitation", die_once)
        invitation = sandbox.world.find(sandbox.world.group("g").id,
                                        friendly.settings["invitation"])
        assert len(await sandbox.app.services.repos.matches.for_tournament(1)) == 1
    assert "accepted" in invitation.payload["text"] and not invitation.payload.get(
        "reply_markup"), invitation.payload


async def test_a_challenge_written_right_before_a_stop_is_posted_at_the_next_start(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The challenge's write holds its invitation owed (``invite.INVITED_JOB``): the next
    start posts it, once, and its Accept plays (before, nobody saw it, and it lapsed)."""
    output: list[str] = []
    async with opened(tmp_path, emit=output.append) as sandbox:
        await sandbox.run_lines(["alice@g: hi", "bob@g: hi"])
        stopped = await stopped_after(sandbox, monkeypatch, output, INVITED_JOB,
                                      "alice@g: /challenge @bob cup")
        await sandbox.line("! restart")
        await sandbox.line("bob@g: [✅ Accept]")
        friendly = await sandbox.app.services.repos.tournaments.get(1)
        assert sandbox.errors == 0 and friendly.status == "running"
    invited = [line for line in output if "challenges @bob" in line]
    assert len(invited) == 1 and output.index(invited[0]) >= stopped, output


async def test_a_challenge_whose_invitation_was_not_posted_lapses(
        tmp_path: Path, telegram_down: Outage) -> None:
    """Written with its lapse (``EXPIRY_JOB``) in one go: a challenge whose invitation
    Telegram did not take expires after its ten minutes instead of waiting for good."""
    output: list[str] = []
    async with opened(tmp_path, emit=output.append) as sandbox:
        await sandbox.run_lines(["alice@g: hi", "bob@g: hi"])
        await telegram_down.cut_off(sandbox, output, "alice@g: /challenge @bob cup")
        await sandbox.line("! advance 10m")
        friendly = await sandbox.app.services.repos.tournaments.get(1)
    assert friendly.status == "expired" and sandbox.errors == 1  # the /challenge's own send


async def test_an_accept_whose_invitation_cannot_be_edited_still_makes_the_match(
        tmp_path: Path, faults: Faults) -> None:
    """Telegram out of reach for the edit that closes the invitation (after the accept was
    written): the friendly's match is made right after the update all the same."""
    async with opened(tmp_path) as sandbox:
        await sandbox.run_lines(["alice@g: hi", "bob@g: hi", "alice@g: /challenge @bob cup"])
        faults.fail(5, lambda method: isinstance(method, EditMessageText))
        await sandbox.line("bob@g: [✅ Accept]")
        [match] = await sandbox.app.services.repos.matches.for_tournament(1)
    assert match.board_message_id is not None


async def test_a_declined_invitation_whose_id_was_not_saved_says_so_on_it(
        tmp_path: Path) -> None:
    """A bot stopped between posting the invitation and saving its id: the press on it
    closes the invitation pressed (its buttons would stay, answered "declined already")."""
    output: list[str] = []
    async with opened(tmp_path, emit=output.append) as sandbox:
        await sandbox.run_lines(["alice@g: hi", "bob@g: hi", "alice@g: /challenge @bob cup"])
        repos = sandbox.app.services.repos
        friendly = await repos.tournaments.get(1)
        invitation = friendly.settings.pop("invitation")
        await repos.tournaments.set_settings(friendly.id, friendly.settings)
        printed = len(output)
        await sandbox.line("bob@g: [❌ Decline]")
        saved = (await repos.tournaments.get(1)).settings.get("invitation")
    assert output[printed].startswith(f"✎ g#{invitation}: 🤝 Bob declined"), output[printed:]
    assert saved == invitation  # saved with the answer, as the challenge would have
