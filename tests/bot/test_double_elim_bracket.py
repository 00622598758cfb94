"""A double elimination's /bracket pictures: a lower-bracket place a player still to come
drops into from the upper bracket says where from (the loser of match #N, or of an upper
round whose match is not made yet), and the player's name once known; the grand final's
reset is marked as played only if needed until the grand final is decided, then drawn to be
played or not at all."""

from __future__ import annotations

from pathlib import Path

from bot.features.formats import status
from tests.bot.sandbox_run import run_script

PLAYERS = ("alice", "bob", "carol", "dave", "erin", "frank", "gina", "hank")
START = "! admin org@bg\norg@bg: /new backgammon Club Cup play=board format=double_elim " \
    "length=3\n" + "".join(f"{name}@bg: /register\n" for name in PLAYERS) + "org@bg: /begin\n"


def _results(*pairs: str) -> str:
    return "".join(f"org@bg: /setresult {pair} 3:1 paper\n" for pair in pairs)


async def _sections(tmp_path: Path, monkeypatch, script: str) -> list[list]:
    """The rounds of each picture the script's last /bracket draws."""
    posted: list[list] = []

    async def capture(services, chat_id, calls, caption, fallback, **kwargs) -> None:
        posted.append([args[1] for _, args in calls])
    monkeypatch.setattr(status, "post_pictures", capture)
    await run_script(tmp_path, script + "org@bg: /bracket\n")
    return posted[-1]


async def test_lower_bracket_says_where_players_drop_in_from(tmp_path: Path,
                                                             monkeypatch) -> None:
    script = START + _results("@alice @hank", "@dave @erin")  # #5 Alice v Dave is made
    _, lower, _ = await _sections(tmp_path, monkeypatch, script)
    assert [matches for _, matches in lower] == [
        [("Hank", "Erin", None, None), ("loser of #3", "loser of #4", None, None)],
        [("?", "loser, winners' r. 2", None, None), ("?", "loser of #5", None, None)],
        [("?", "?", None, None)],
        [("?", "loser, winners' r. 3", None, None)],
    ]


async def test_a_dropped_in_player_is_named_once_known(tmp_path: Path, monkeypatch) -> None:
    script = START + _results("@alice @hank", "@dave @erin", "@bob @gina", "@carol @frank",
                              "@alice @dave")
    _, lower, _ = await _sections(tmp_path, monkeypatch, script)
    assert lower[1][1][1] == ("?", "Dave", None, None)


TO_GRAND_FINAL = START + _results(
    "@alice @hank", "@dave @erin", "@bob @gina", "@carol @frank", "@alice @dave",
    "@hank @erin", "@gina @frank", "@bob @carol", "@gina @dave", "@hank @carol",
    "@gina @hank", "@alice @bob", "@bob @gina")  # the grand final: Alice (upper) v Bob


def _heads(sections: list[list]) -> list[str]:
    return [name for rounds in sections for name, _ in rounds
            if name.startswith("Grand final")]


async def test_the_reset_is_marked_if_needed_before_the_grand_final(
        tmp_path: Path, monkeypatch) -> None:
    sections = await _sections(tmp_path, monkeypatch, TO_GRAND_FINAL)
    assert _heads(sections) == ["Grand final", "Grand final reset, if needed"]
    assert sections[-1][-1][1] == [("Alice", "Bob", None, None)]


async def test_the_reset_is_gone_when_the_upper_player_wins(tmp_path: Path,
                                                            monkeypatch) -> None:
    sections = await _sections(tmp_path, monkeypatch, TO_GRAND_FINAL + _results("@alice @bob"))
    assert _heads(sections) == ["Grand final"]
    assert len(sections) == 2  # the upper bracket and grand final, the lower bracket


async def test_the_reset_is_drawn_to_be_played_when_the_lower_player_wins(
        tmp_path: Path, monkeypatch) -> None:
    sections = await _sections(tmp_path, monkeypatch, TO_GRAND_FINAL + _results("@bob @alice"))
    assert _heads(sections) == ["Grand final", "Grand final, reset"]
