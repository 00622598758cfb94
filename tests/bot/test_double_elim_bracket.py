"""A double elimination's /bracket pictures: each made match carries its number as the chat
gives it; a lower-bracket place a player still to come drops into from the upper bracket
says where from (the loser of match #N, or of an upper match not made yet by the name its
box carries), and the player's name once known; places still to be filled are drawn muted;
the grand final's reset is marked as played only if needed until the grand final is
decided, then drawn to be played or not at all; each box is joined to the boxes whose
winners take its places. A single elimination's 3rd-place match waits for its semi-finals'
losers the same way."""

from __future__ import annotations

from pathlib import Path

from bot.features.formats import status
from tests.bot.sandbox_run import run_script

PLAYERS = ("alice", "bob", "carol", "dave", "erin", "frank", "gina", "hank")
START = "! admin org@bg\norg@bg: /new backgammon Club Cup play=board format=double_elim " \
    "length=3\n" + "".join(f"{name}@bg: /register\n" for name in PLAYERS) + "org@bg: /begin\n"


def _names(rounds: list) -> list[list[tuple[str, str]]]:
    """Each round's boxes as the two places' texts."""
    return [[(box.a, box.b) for box in boxes] for _, boxes in rounds]


def _results(*pairs: str) -> str:
    return "".join(f"org@bg: /setresult {pair} 3:1 paper\n" for pair in pairs)


async def _drawn(tmp_path: Path, monkeypatch, script: str, language: str = "en"
                 ) -> list[tuple]:
    """What each picture the script's last /bracket draws is drawn from: its title, its
    rounds, the 3rd-place match under it."""
    posted: list[list] = []

    async def capture(services, chat_id, calls, caption, fallback, **kwargs) -> None:
        posted.append([args for _, args in calls])
    monkeypatch.setattr(status, "post_pictures", capture)
    await run_script(tmp_path, script + "org@bg: /bracket\n", language=language)
    return posted[-1]


async def _sections(tmp_path: Path, monkeypatch, script: str, language: str = "en"
                    ) -> list[list]:
    """The rounds of each picture the script's last /bracket draws."""
    return [args[1] for args in await _drawn(tmp_path, monkeypatch, script, language)]


async def test_lower_bracket_says_where_players_drop_in_from(tmp_path: Path,
                                                             monkeypatch) -> None:
    script = START + _results("@alice @hank", "@dave @erin")  # #5 Alice v Dave is made
    _, lower, _ = await _sections(tmp_path, monkeypatch, script)
    assert _names(lower) == [
        [("Hank", "Erin"), ("loser of #3", "loser of #4")],
        [("?", "loser of W2-2"), ("?", "loser of #5")],
        [("?", "?")],
        [("?", "loser of W3-1")],
    ]
    pending = [[box.pending for box in boxes] for _, boxes in lower[:2]]
    assert pending == [[(False, False), (True, True)], [(True, True), (True, True)]]


async def test_each_made_match_carries_its_number(tmp_path: Path, monkeypatch) -> None:
    """«loser of #5» can be followed to the upper box marked #5; a match not made yet has
    no number (an upper one is named by its round and place instead)."""
    script = START + _results("@alice @hank", "@dave @erin")
    upper, lower, final = await _sections(tmp_path, monkeypatch, script)
    labels = [[box.label for box in boxes] for _, boxes in upper + lower + final]
    assert labels == [["#1", "#2", "#3", "#4"], ["#5", "W2-2"], ["W3-1"],
                      ["#6", ""], ["", ""], [""], [""], [""], [""]]
    assert _names(lower)[1][1][1] == "loser of #5"


async def test_places_waiting_for_unmade_upper_matches_name_their_boxes(
        tmp_path: Path, monkeypatch) -> None:
    """Two lower places waiting for upper round 2 are told apart, each by the name its
    upper box carries (its round and place in the round)."""
    upper, lower, _ = await _sections(tmp_path, monkeypatch, START, "ru")
    assert [box.label for box in upper[1][1]] == ["В2-1", "В2-2"]
    assert [box.b for box in lower[1][1]] == ["проигр. В2-2", "проигр. В2-1"]


async def test_each_box_is_joined_to_the_box_whose_winner_takes_its_place(
        tmp_path: Path, monkeypatch) -> None:
    """Lower round 1's winners go on into round 2's first places, round 3's into round 4's;
    the upper final's winner into the grand final's first place; the reset is played by
    the grand final's two players."""
    _, lower, final = await _sections(tmp_path, monkeypatch, TO_GRAND_FINAL)
    assert [[box.feeds for box in boxes] for _, boxes in lower] == [
        [(None, None), (None, None)], [(0, None), (1, None)], [(0, 1)], [(0, None)]]
    assert [[box.feeds for box in boxes] for _, boxes in final] == [[(None, None)], [(0, 0)]]
    together, _ = await _sections(tmp_path / "won", monkeypatch,
                                  TO_GRAND_FINAL + _results("@alice @bob"))
    assert [[box.feeds for box in boxes] for _, boxes in together[2:]] == [[(0, 1)], [(0, None)]]


async def test_a_dropped_in_player_is_named_once_known(tmp_path: Path, monkeypatch) -> None:
    script = START + _results("@alice @hank", "@dave @erin", "@bob @gina", "@carol @frank",
                              "@alice @dave")
    _, lower, _ = await _sections(tmp_path, monkeypatch, script)
    assert _names(lower)[1][1] == ("?", "Dave")


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
    assert _names(sections[-1])[-1] == [("Alice", "Bob")]
    grand_final, reset = (boxes[0] for _, boxes in sections[-1][-2:])
    assert (grand_final.pending, reset.pending) == ((False, False), (True, True))


async def test_the_reset_is_gone_when_the_upper_player_wins(tmp_path: Path,
                                                            monkeypatch) -> None:
    sections = await _sections(tmp_path, monkeypatch, TO_GRAND_FINAL + _results("@alice @bob"))
    assert _heads(sections) == ["Grand final"]
    assert len(sections) == 2  # the upper bracket and grand final, the lower bracket


async def test_the_reset_is_drawn_to_be_played_when_the_lower_player_wins(
        tmp_path: Path, monkeypatch) -> None:
    sections = await _sections(tmp_path, monkeypatch, TO_GRAND_FINAL + _results("@bob @alice"))
    assert _heads(sections) == ["Grand final", "Grand final, reset"]
    assert sections[-1][-1][1][0].pending == (False, False)


async def test_a_third_place_match_waits_for_semi_finals_not_made_yet(
        tmp_path: Path, monkeypatch) -> None:
    """Single elimination names no match before it is made: its 3rd-place match says «?»
    until a semi-final is made, then «loser of #5»."""
    single = START.replace("format=double_elim", "format=single_elim third_place=on")
    ((_, _, (_, third)),) = await _drawn(tmp_path, monkeypatch, single)
    assert (third.a, third.b) == ("?", "?")
    ((_, _, (_, third)),) = await _drawn(tmp_path / "made", monkeypatch,
                                         single + _results("@alice @hank", "@dave @erin"))
    assert (third.a, third.b) == ("loser of #5", "?")
