"""An organiser's command whose process died after its action was written, before its answer
went out, is applied once when Telegram delivers the update again, and its organiser-log
entry is there exactly once (SPEC §8): the action, the entry and the update's claim are
written in one transaction (a start's with the job that opens the tournament, a
disqualification's with the job that closes the player's matches)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from aiogram.methods import EditMessageMedia, EditMessageText, SendMessage, TelegramMethod

from bot.sandbox.runner import Sandbox
from tests.bot.sandbox_run import scenario_until


@asynccontextmanager
async def _sandbox(tmp_path: Path, seed: int = 1, language: str = "en"
                   ) -> AsyncIterator[tuple[Sandbox, list[str]]]:
    """A started sandbox on a file of its own, and the lines it printed."""
    output: list[str] = []
    sandbox = Sandbox(seed=seed, db_path=tmp_path / "once.sqlite3", language=language,
                      emit=output.append)
    await sandbox.start()
    try:
        yield sandbox, output
    finally:
        await sandbox.close()


def _fail_next(sandbox: Sandbox, kind: type[TelegramMethod]) -> None:
    """The bot's next call of ``kind`` fails as if the process had died making it."""
    session = sandbox.app.bot.session
    real = session.make_request

    async def dying(bot, method, timeout=None):
        if not isinstance(method, kind):
            return await real(bot, method, timeout)
        del session.make_request
        raise ConnectionResetError("the process died before its answer went out")
    session.make_request = dying


async def _count(sandbox: Sandbox, sql: str) -> int:
    return (await sandbox.app.services.db.fetchone(sql))[0]


async def _matches_of(sandbox: Sandbox, username: str, status: str) -> int:
    """How many of the user's matches have ``status``."""
    return await _count(sandbox, "SELECT count(*) FROM matches m JOIN users u ON u.id IN"
                                 f" (m.player_a, m.player_b) WHERE u.username = '{username}'"
                                 f" AND m.status = '{status}'")


async def _counts(sandbox: Sandbox) -> tuple[int, int]:
    return (await _count(sandbox, "SELECT count(*) FROM tournaments"),
            await _count(sandbox, "SELECT count(*) FROM organiser_log"))


async def test_a_new_tournament_is_made_once_when_its_update_comes_again(tmp_path: Path):
    async with _sandbox(tmp_path) as (sandbox, output):
        await sandbox.run_lines(["org@grp: /help"])
        _fail_next(sandbox, SendMessage)
        await sandbox.run_lines(["org@grp: /new cup Spring"])
        assert any("ConnectionResetError" in line for line in output)
        assert await _counts(sandbox) == (1, 1)  # written before the answer failed
        await sandbox.run_lines(["! restart", "! replay"])
        assert await _counts(sandbox) == (1, 1)
        await sandbox.run_lines(["org@grp: /settings hp=30"])
        assert await _counts(sandbox) == (1, 2)


async def test_a_corrected_visit_is_logged_once_when_its_update_comes_again(tmp_path: Path):
    """The correction is a match action: its log entry is written with it, so a process
    that died while redrawing the board (after the action, before the entry used to be
    written) leaves both, and the redelivered update neither."""
    async with _sandbox(tmp_path, language="ru") as (sandbox, output):
        await sandbox.run_lines([
            "org@grp: /new shanghai Cup legs=1", "alice@grp: /register", "bob@grp: /register",
            "org@grp: /begin", "alice@grp: [🎯 Булл-офф: Bob]", "bob@grp: S20 S20 S20",
            "bob@grp: [✅ Конец подхода]"])
        _fail_next(sandbox, EditMessageText)
        await sandbox.run_lines(["org@grp: /correct 1 1 S20 D20 T20 typed S20 three times"])
        assert any("ConnectionResetError" in line for line in output)
        await sandbox.run_lines(["! restart", "! replay"])
        corrections = await _count(sandbox, "SELECT count(*) FROM match_actions"
                                            " WHERE payload LIKE '%\"correct\"%'")
        logged = await _count(sandbox, "SELECT count(*) FROM organiser_log"
                                       " WHERE action = 'correct'")
        assert (corrections, logged) == (1, 1)


async def test_time_given_back_is_logged_once_with_its_reason(tmp_path: Path):
    """Live backgammon's /addtime (a match action of its own flow): the same, its entry
    with the organiser's reason."""
    async with _sandbox(tmp_path, seed=11) as (sandbox, output):
        await sandbox.run_lines([
            "org@g: /new backgammon Evening format=swiss rounds=1 length=3 clock=30+2",
            "alice@g: /register", "bob@g: /register", "org@g: /begin"])
        _fail_next(sandbox, EditMessageMedia)  # the board's picture, redrawn
        await sandbox.run_lines(["org@g: /addtime @bob 1m lost connection"])
        assert any("ConnectionResetError" in line for line in output)
        await sandbox.run_lines(["! restart", "! replay"])
        given = await _count(sandbox, "SELECT count(*) FROM match_actions"
                                      " WHERE payload LIKE '%\"addtime\"%'")
        logged = await sandbox.app.services.db.fetchall(
            "SELECT reason FROM organiser_log WHERE action = 'addtime'")
        assert given == 1 and [row["reason"] for row in logged] == ["lost connection"]


def die_after_commit(sandbox: Sandbox, done: str) -> None:
    """The process dies right after the first commit after which ``done`` (a query) finds
    a row."""
    db = sandbox.app.services.db
    real_end = db._end

    def end(*, commit: bool) -> None:
        real_end(commit=commit)
        if commit and db.connection.raw.execute(done).fetchone() is not None:
            del db._end
            raise ConnectionResetError("the process died right after the commit")
    db._end = end


async def _dies_after(sandbox: Sandbox, output: list[str], line: str, done: str) -> None:
    """``line`` sent, and the process dies right after the commit after which ``done`` finds
    a row (see :func:`die_after_commit`)."""
    die_after_commit(sandbox, done)
    await sandbox.run_lines([line])
    assert any("ConnectionResetError" in printed for printed in output)


async def test_a_start_that_died_after_its_commit_opens_at_the_next_start(tmp_path: Path):
    """/begin writes the roster, the status and the opening job in one transaction: a
    process that died right after it opens the tournament (announcement, first matches)
    when it starts again, and the redelivered /begin changes nothing."""
    async with _sandbox(tmp_path) as (sandbox, output):
        await sandbox.run_lines(["org@grp: /new shanghai Cup legs=1", "alice@grp: /register",
                                 "bob@grp: /register"])
        await _dies_after(sandbox, output, "org@grp: /begin",
                          "SELECT 1 FROM tournaments WHERE status = 'running'")
        assert await _count(sandbox, "SELECT count(*) FROM matches") == 0
        await sandbox.run_lines(["! restart", "! replay"])
        assert await _count(sandbox, "SELECT count(*) FROM matches") == 1
        assert await _count(sandbox, "SELECT count(*) FROM organiser_log"
                                     " WHERE action = 'begin'") == 1
        assert sum("has started" in line for line in output) == 1


async def test_a_pause_that_died_after_its_commit_is_logged_once(tmp_path: Path):
    """/pause writes the paused matches, the status, the frozen clocks and its entry in one
    transaction: a process that died right after it keeps the entry, and the redelivered
    /pause changes nothing."""
    async with _sandbox(tmp_path) as (sandbox, output):
        await sandbox.run_lines(["org@grp: /new shanghai Cup legs=1", "alice@grp: /register",
                                 "bob@grp: /register", "org@grp: /begin"])
        await _dies_after(sandbox, output, "org@grp: /pause tea break",
                          "SELECT 1 FROM tournaments WHERE status = 'paused'")
        await sandbox.run_lines(["! restart", "! replay"])
        assert await _count(sandbox, "SELECT count(*) FROM matches"
                                     " WHERE status = 'paused'") == 1
        logged = await sandbox.app.services.db.fetchall(
            "SELECT reason FROM organiser_log WHERE action = 'pause'")
        assert [row["reason"] for row in logged] == ["tea break"]


_CUP_PLAYERS = ("alice", "Alice_Smith"), ("bob", "Bob_Stone"), ("carol", "Carol_King"), \
    ("dave", "Dave_Jones")


async def _cup_started(sandbox: Sandbox) -> None:
    """A Cup of four under way in the group stage (the sandbox speaks Russian)."""
    await sandbox.run_lines(
        ["org@cup: /new cup Кубок approval=off qualifiers=2"]
        + [line for user, name in _CUP_PLAYERS for line in (
            f"{user}@cup: /register {name}", f"{user}@cup: [📝 Зарегистрироваться]",
            f"{user}@dm: photo:")] + ["org@cup: /begin"])


async def test_a_reopen_that_died_after_its_rewind_takes_the_match_back_once(tmp_path: Path):
    """The Cup's /reopen writes its rewind with its log entry and the update's claim: a
    process that died right after it keeps both, and the redelivered /reopen does not take
    the match back one round more."""
    async with _sandbox(tmp_path, language="ru") as (sandbox, output):
        await _cup_started(sandbox)
        await sandbox.run_lines(["dave@cup: 🎲 6", "alice@cup: 🎲 1", "alice@cup: 🎲 2",
                                 "dave@cup: 🎲 5"])
        await _dies_after(sandbox, output, "org@cup: /reopen @dave кубик улетел",
                          "SELECT 1 FROM match_actions WHERE payload LIKE '%rewind%'")
        await sandbox.run_lines(["! restart", "! replay"])
        rewinds = await sandbox.app.services.db.fetchall(
            "SELECT payload FROM match_actions WHERE payload LIKE '%rewind%'")
        assert len(rewinds) == 1
        logged = await sandbox.app.services.db.fetchall(
            "SELECT reason FROM organiser_log WHERE action = 'reopen'")
        assert [row["reason"] for row in logged] == ["кубик улетел"]


async def test_a_result_set_by_an_organiser_is_logged_once(tmp_path: Path):
    """The Cup's /setresult writes its entry with the result, its job and the update's
    claim: a process that died right after the entry keeps one entry and the result (the
    entry used to be written first, and the redelivered command wrote it again)."""
    async with _sandbox(tmp_path, language="ru") as (sandbox, output):
        await _cup_started(sandbox)
        await _dies_after(sandbox, output, "org@cup: /setresult @alice 3:0 соперник не явился",
                          "SELECT 1 FROM organiser_log WHERE action = 'setresult'")
        await sandbox.run_lines(["! restart", "! replay"])
        assert await _count(sandbox, "SELECT count(*) FROM organiser_log"
                                     " WHERE action = 'setresult'") == 1
        assert await _count(sandbox, "SELECT count(*) FROM matches WHERE status = 'finished'"
                                     " AND result LIKE '%set_by%'") == 1


async def test_a_formats_result_set_that_died_after_its_commit_is_not_answered_again(
        tmp_path: Path):
    """A bracket or league /setresult claims its update with the result: a process that
    died right after it (before the board was redrawn) finds the redelivered command done,
    and draws the match again instead of answering "that is the result already"."""
    async with _sandbox(tmp_path) as (sandbox, output):
        await sandbox.run_lines(["org@pub: /new shanghai Tue format=round_robin legs=1",
                                 "alice@pub: /register", "bob@pub: /register",
                                 "carol@pub: /register", "org@pub: /begin"])
        await _dies_after(sandbox, output, "org@pub: /setresult @bob @carol 1:0 paper",
                          "SELECT 1 FROM organiser_log WHERE action = 'setresult'")
        replayed = len(output)
        await sandbox.run_lines(["! restart", "! replay"])
        assert not any("already" in line for line in output[replayed:])
        assert await _count(sandbox, "SELECT count(*) FROM organiser_log"
                                     " WHERE action = 'setresult'") == 1


async def test_a_disqualification_that_died_after_its_commit_closes_the_matches(
        tmp_path: Path):
    """The Cup's /dq writes the player's status, its entry and the job that says it and
    closes the player's matches in one transaction: a process that died right after it
    says it and voids his matches when it starts again, and the redelivered /dq changes
    nothing."""
    async with _sandbox(tmp_path, language="ru") as (sandbox, output):
        await _cup_started(sandbox)
        assert await _matches_of(sandbox, "bob", "running") == 1
        await _dies_after(sandbox, output, "org@cup: /dq @bob сговор",
                          "SELECT 1 FROM entrants WHERE status = 'disqualified'")
        assert not any("дисквалификация" in line for line in output)
        assert await _matches_of(sandbox, "bob", "running") == 1
        await sandbox.run_lines(["! restart", "! replay"])
        assert await _matches_of(sandbox, "bob", "running") == 0
        assert await _matches_of(sandbox, "bob", "void") == 3  # his whole group stage
        assert sum("Bob_Stone: дисквалификация" in line for line in output) == 1
        assert await _count(sandbox, "SELECT count(*) FROM organiser_log"
                                     " WHERE action = 'dq'") == 1


async def test_a_reentry_that_died_after_its_commit_is_logged_once(tmp_path: Path):
    """/reentry writes the bracket's event with its log entry and the update's claim: a
    process that died right after it keeps the entry (the redelivered command used to be
    refused, the player being back already, and the entry was never written)."""
    setup = scenario_until("formats_reentry", "alice@re: /reentry @dave")  # Dave knocked out
    async with _sandbox(tmp_path) as (sandbox, output):
        await sandbox.run_lines(setup)
        await _dies_after(sandbox, output, "org@re: /reentry @dave",
                          "SELECT 1 FROM tournament_state WHERE value LIKE '%reenter%'")
        await sandbox.run_lines(["! restart", "! replay"])
        assert await _count(sandbox, "SELECT count(*) FROM organiser_log"
                                     " WHERE action = 'reentry'") == 1
        assert not any("cannot" in line.lower() for line in output)


async def test_a_formats_disqualification_that_died_after_its_commit_closes_the_match(
        tmp_path: Path):
    """A formats /dq writes the player's status and its entry with the job that closes the
    player's matches: a process that died right after it closes the open match when it
    starts again, logged once (the entry used to be written first, and the redelivered
    command wrote it again)."""
    async with _sandbox(tmp_path) as (sandbox, output):
        await sandbox.run_lines(["org@dq: /new armchair Club Night format=swiss rounds=3"
                                 " play=report"]
                                + [f"{name}@dq: /register" for name in ("alice", "bob", "carol",
                                                                       "dave")]
                                + ["org@dq: /begin"])
        assert await _matches_of(sandbox, "carol", "running") == 1
        await _dies_after(sandbox, output, "org@dq: /dq @carol no-show twice",
                          "SELECT 1 FROM entrants WHERE status = 'disqualified'")
        await sandbox.run_lines(["! restart", "! replay"])
        assert await _matches_of(sandbox, "carol", "running") == 0
        assert await _count(sandbox, "SELECT count(*) FROM organiser_log"
                                     " WHERE action = 'dq'") == 1



async def test_an_application_that_died_after_its_commit_is_not_answered_again(
        tmp_path: Path):
    """A /register's application is written with the update's claim: when its answer fails,
    the redelivered update is dropped, not answered a second time."""
    async with _sandbox(tmp_path) as (sandbox, output):
        await sandbox.run_lines(["org@grp: /new cup Spring", "alice@grp: /help"])
        _fail_next(sandbox, SendMessage)
        await sandbox.run_lines(["alice@grp: /register"])
        assert await _count(sandbox, "SELECT count(*) FROM entrants") == 1
        replayed = len(output)
        await sandbox.run_lines(["! restart", "! replay"])
        assert not [line for line in output[replayed:] if line.startswith("→ grp")]
        assert await _count(sandbox, "SELECT count(*) FROM entrants") == 1
