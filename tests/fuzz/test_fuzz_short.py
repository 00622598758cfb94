"""A short seeded fuzz run is part of the suite: for each game, transcripts in which
tournaments start and matches are played, with no unhandled error and nothing Telegram
would refuse. The long run is ``python -m tests.fuzz --minutes N`` (README)."""

from __future__ import annotations

import itertools
import logging
from pathlib import Path

import bot.features.armchair.hand as armchair_hand
import bot.features.armchair.play as armchair_play
import bot.sandbox.strict
from bot.sandbox.failures import REFUSED, UNHANDLED, Failure, trace_of
from storage.repositories.updates import ProcessedUpdatesRepo
from tests.bot.sandbox_run import opened
from tests.fuzz import engine
from tests.fuzz.__main__ import main, parse_args
from tests.fuzz.engine import Fuzzer, signature, write_findings
from tests.fuzz.generate import GAMES
from tests.fuzz.secret import fork_for, leaked
from tests.fuzz.unchanged import CHANGED

SEED = 3149
PLAYED = 10  # match actions each game's transcripts log together
FEWEST, MOST = 2, 6  # transcripts per game


def _budget(count: int):
    counter = itertools.count()
    return lambda: next(counter) < count


def _until_played(fuzzer: Fuzzer, game: str):
    """Go on until ``game``'s matches have logged PLAYED actions, within FEWEST to MOST
    transcripts: how far one transcript gets rests on its draws as much as on the bot (a
    withdrawal ends a tournament of two, a group made a supergroup unseen leaves the bot
    out), so a fixed count of transcripts holds only for a lucky seed."""
    report = fuzzer.report
    return lambda: report.transcripts < FEWEST or (
        report.actions.get(game, 0) < PLAYED and report.transcripts < MOST)


async def test_a_short_fuzz_run_finds_nothing_and_plays(tmp_path) -> None:
    lines_fed = 0
    for game in GAMES:
        fuzzer = Fuzzer(SEED, (game,))
        report = await fuzzer.run(_until_played(fuzzer, game))
        lines_fed += report.lines_fed
        assert report.started.get(game), game
        assert report.actions.get(game, 0) >= PLAYED, (game, report.actions)
        files = write_findings(report, tmp_path / game)
        assert not report.findings, "\n".join(path.read_text() for path in files)
    assert lines_fed > 1500


async def test_a_broken_limit_is_found_shrunk_and_written(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(bot.sandbox.strict, "TEXT_LIMIT", 200)
    report = await Fuzzer(SEED, ("armchair",), steps=20).run(_budget(1))
    refused = report.of_kind(REFUSED)
    assert refused and not report.of_kind(UNHANDLED)
    finding = refused[0]
    assert finding.signature.startswith("refused: sendMessage: message is too long")
    assert len(finding.lines) <= 3
    [path] = [p for p in write_findings(report, tmp_path) if finding.signature in p.read_text()]
    assert path.read_text().splitlines()[0] == f"# seed: {finding.seed}"


def test_errors_are_told_apart_by_where_they_happen() -> None:
    def fail(value: int) -> None:
        raise ValueError(f"bad {value}")

    traces = []
    for value in (1, 2):
        try:
            fail(value)
        except ValueError as error:
            traces.append(Failure(UNHANDLED, f"ValueError: bad {value}", trace_of(error)))
    assert signature(traces[0]) == signature(traces[1])
    assert signature(traces[0]).startswith("unhandled: ValueError at ")
    refused = [Failure(REFUSED, f"Telegram refuses sendMessage to g{n}: message is too long")
               for n in (1, 2)]
    assert signature(refused[0]) == signature(refused[1])


async def test_the_command_prints_its_figures(tmp_path, capsys) -> None:
    args = parse_args(["--minutes", "0.02", "--game", "armchair", "--seed", "3",
                       "--steps", "30", "--out", str(tmp_path)])
    loggers = logging.getLogger(), logging.getLogger("bot")
    levels = [logger.level for logger in loggers]
    try:
        assert await main(args) == 0
    finally:  # the command sets the levels for its process; this is the test's process
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)
    printed = capsys.readouterr().out.splitlines()
    assert printed[0].startswith("lines fed: ") and "armchair" in printed[1]
    assert printed[3:7] == ["unhandled errors: 0", "broken limits: 0", "slow lines: 0",
                            "changed what it must not: 0"]
    assert printed[7].startswith("private lines forked: ")
    assert printed[7].endswith(" compared), shown where they must not: 0")


async def test_a_slow_line_is_a_finding_kept_whole(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(engine, "SLOW_SECONDS", -1.0)  # every line is "slow"
    report = await Fuzzer(SEED, ("armchair",), steps=5).run(_budget(1))
    slow = report.of_kind(engine.SLOW)
    assert slow and all(finding.message.split(" s: ")[1] in finding.lines for finding in slow)
    assert {finding.signature for finding in slow} >= {"slow: /new", "slow: /begin"}
    first = next(finding for finding in slow if finding.signature == "slow: /new")
    assert len(first.lines) == 1 and first.lines[0].split(": ")[1].startswith("/new")


async def _fed(fuzzer: Fuzzer, folder: Path, lines: list[str],
               organisers: tuple[str, ...] = ()) -> None:
    """Feed ``lines`` as the fuzzer feeds its own, each found as the last of those before;
    the bot takes the users ``organisers`` for organisers wherever they are (ADMIN_IDS)."""
    folder.mkdir(exist_ok=True)
    async with opened(folder) as sandbox:
        sandbox.app.services.settings.admin_ids = frozenset(
            sandbox.world.user(handle).id for handle in organisers)
        for number in range(1, len(lines) + 1):
            await fuzzer._feed(sandbox, lines[number - 1], 1, "en", lines[:number])


async def test_an_update_applied_again_by_its_replay_is_found_and_shrunk(tmp_path,
                                                                        monkeypatch) -> None:
    async def never_seen(self, update_id: int) -> bool:
        return False

    monkeypatch.setattr(ProcessedUpdatesRepo, "seen", never_seen)  # every update is new
    fuzzer = Fuzzer(SEED)
    await _fed(fuzzer, tmp_path, [
        "org@g: /new shanghai Night", "ann@g: hello", "! restart", "ann@g: /players",
        "! replay", "org@g: /new shanghai Day", "! replay"])
    [finding] = fuzzer.report.findings.values()  # the restart and the read-only replay: none
    assert (finding.kind, finding.signature) == (CHANGED, "changed: ! replay after /new")
    assert finding.message.startswith("export: ")  # a second tournament "Day"
    [new, replay] = await engine.shrink(finding, tmp_path)
    assert new.startswith("org@g: /new shanghai ") and replay == "! replay"


async def test_an_organisers_command_a_player_carries_out_is_found(tmp_path) -> None:
    lines = ["org@g: /new shanghai Night", "ann@g: /register", "ann@g: /closereg",
             "! admin bob@g", "bob@g: /openreg", "cat@h: hi", "cat@h: /closereg #1"]
    fuzzer = Fuzzer(SEED)
    await _fed(fuzzer, tmp_path / "0", lines)  # Ann is refused; Bob administers g; Cat h
    assert not fuzzer.report.findings
    await _fed(fuzzer, tmp_path / "1", lines, organisers=("ann",))  # but Telegram: not
    [finding] = fuzzer.report.findings.values()
    assert finding.signature == "changed: /closereg out of its writer's reach"


_DISCARD_DUE = ["org@g: /new armchair Night wickets=1", "! admin bot@g", "alice@g: /register",
                "bob@g: /register", "bob@dm: /start", "alice@dm: /start", "org@g: /begin",
                "bob@g: [🪙 Toss]", "alice@g: [🏏 Alice bats first]"]
"""An armchair match whose bowler, Bob, is to discard a card of his hand (seed 1)."""


async def _discard_forked(folder: Path) -> str | None:
    """Bob's first card of his panel discarded, forked with another of them."""
    async with opened(folder, seed=1) as sandbox:
        await sandbox.run_lines(_DISCARD_DUE)
        fork = fork_for(sandbox.world, "bob@dm: [GLOVES 2]", lambda labels: labels[0])
        assert fork is not None and fork.instead != fork.line
        return await leaked(sandbox, fork, "g", folder)


async def test_a_hand_the_group_never_sees_is_no_leak(tmp_path) -> None:
    assert await _discard_forked(tmp_path) == ""


async def test_a_score_card_that_shows_a_hand_is_a_leak(tmp_path, monkeypatch) -> None:
    real = armchair_play.score_card

    def with_hand(tr, match_id, names, game, *rest, **options):
        return real(tr, match_id, names, game, *rest, **options) + f"\n{game.state.hands}"

    monkeypatch.setattr(armchair_play, "score_card", with_hand)
    said = await _discard_forked(tmp_path)
    assert said.startswith("with 'bob@dm: [GLOVES 2]' g was shown "), said


async def test_a_secret_choice_of_the_hp_battle_is_compared_and_kept(tmp_path) -> None:
    """Dave's choice in an HP semi-final, forked with the other button of his panel: the
    public views stay alike (the choice is hidden until both are in), so the groups are
    compared, and shown the same."""
    script = (Path(__file__).parents[1] / "scenarios" / "cup_replace_mid_battle.txt")
    lines = [line for line in script.read_text(encoding="utf-8").splitlines()
             if line and not line.startswith("#")]
    due = lines[:lines.index("dave@dm: защита")]
    async with opened(tmp_path, seed=1, language="ru") as sandbox:
        await sandbox.run_lines(due)
        fork = fork_for(sandbox.world, "dave@dm: защита",
                        lambda labels: next(label for label in labels if "Атака" in label))
        assert fork is not None and fork.instead == "dave@dm: [⚔️ Атака]"
        assert await leaked(sandbox, fork, "cup", tmp_path) == ""


async def test_a_panel_that_shows_the_opponents_hand_is_a_leak(tmp_path, monkeypatch) -> None:
    """Bob's discard changes Alice's panel (it is her turn then); made to show both hands,
    it tells her Bob's card: found in her private chat, not in the group."""
    real = armchair_hand._ask

    def with_hands(tr, ctx, game, *rest):
        return real(tr, ctx, game, *rest) + f"\n{game.state.hands}"

    monkeypatch.setattr(armchair_hand, "_ask", with_hands)
    said = await _discard_forked(tmp_path)
    assert said.startswith("with 'bob@dm: [GLOVES 2]' alice@dm was shown "), said
