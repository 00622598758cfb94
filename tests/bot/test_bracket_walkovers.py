"""A bracket match a withdrawal decides before it is made (the finalist who leaves while the
other semi-final is played) is drawn as every walkover is: "+" for the winner, "−" for the
player who left, in the picture and in its text; the Cup's walkovers too."""

from __future__ import annotations

from pathlib import Path

from bot.features.cup import status as cup_status
from bot.features.formats import status
from tests.bot.sandbox_run import run_script

SCRIPT = """\
org@se: /new armchair Four Cards format=single_elim play=report
ann@se: /register
ben@se: /register
cat@se: /register
dan@se: /register
org@se: /begin
ann@se: /result win
dan@se: /confirm
ann@se: /withdraw
ann@se: [🚪 Withdraw]
ben@se: /result win
cat@se: /confirm
org@se: /bracket
"""


async def test_a_final_left_before_it_was_made_is_a_walkover_in_the_bracket(
        tmp_path: Path, monkeypatch) -> None:
    posted: list[tuple] = []

    async def capture(services, chat_id, calls, caption, fallback, **kwargs) -> None:
        posted.append((calls, fallback()))
    monkeypatch.setattr(status, "post_pictures", capture)
    await run_script(tmp_path, SCRIPT)
    (calls, text), = posted
    (_, (_, rounds, _)), = calls
    name, (final,) = rounds[-1]
    assert (name, final[:4]) == ("Final", ("Ann", "Ben", "Ben", ("−", "+")))
    assert "Final: Ann — Ben −:+ → Ben" in text


CUP = """\
org@cup: /new cup Walkover Cup approval=off qualifiers=4
""" + "".join(f"""{user}@cup: /register {name}
{user}@cup: [📝 Register]
{user}@dm: photo:
""" for user, name in (("alice", "Alice_Smith"), ("bob", "Bob_Stone"), ("carol", "Carol_King"),
                       ("dave", "Dave_Jones"))) + """org@cup: /begin
org@cup: /setresult @alice @dave 3:0 r
org@cup: /setresult @bob @carol 3:0 r
org@cup: /setresult @alice 3:0 r
org@cup: /setresult @carol 3:0 r
org@cup: /setresult @alice 3:0 r
org@cup: /setresult @dave 3:0 r
org@cup: /dq @bob left the venue
org@cup: /setresult @carol win r
org@cup: /bracket
"""


async def test_a_cup_disqualification_is_a_walkover_in_the_bracket(
        tmp_path: Path, monkeypatch) -> None:
    """The Cup's walkovers (an HP semi-final too, whose hit points are never shown) are drawn
    "+"/"−", not as the 0:0 they are stored with."""
    posted: list[tuple] = []

    async def capture(services, chat_id, calls, caption, fallback, **kwargs) -> None:
        posted.append(calls)
    monkeypatch.setattr(cup_status, "post_pictures", capture)
    await run_script(tmp_path, CUP)
    ((_, (_, rounds, third)),), = posted
    assert rounds[0][1][0][:4] == ("Alice_Smith", "Bob_Stone", "Alice_Smith", ("+", "−"))
    assert third[1] == ("Dave_Jones", "Bob_Stone", "Dave_Jones", ("+", "−"))


async def test_the_cup_bracket_draws_places_still_to_be_filled_as_placeholders(
        tmp_path: Path, monkeypatch) -> None:
    """Before the semi-finals are decided, the final's places are «?» drawn as the formats'
    brackets draw places to be filled (muted), the semi-finals' players as names."""
    posted: list[tuple] = []

    async def capture(services, chat_id, calls, caption, fallback, **kwargs) -> None:
        posted.append(calls)
    monkeypatch.setattr(cup_status, "post_pictures", capture)
    before_semis = CUP.split("org@cup: /dq")[0] + "org@cup: /bracket\n"
    await run_script(tmp_path, before_semis)
    ((_, (_, rounds, _)),), = posted
    (semi, _), (final,) = rounds[0][1], rounds[1][1]
    assert semi.pending == (False, False)
    assert (final.a, final.b, final.pending) == ("?", "?", (True, True))
