"""How a match no longer live ends on its board and panels (:class:`MatchContext`)."""

from __future__ import annotations

from bot.i18n import Translator
from bot.play.context import MatchContext
from games.common.outcome import Outcome
from storage.repositories.matches import MatchRow


def _finished(result: dict, winner: int = 11) -> MatchContext:
    row = MatchRow(id=3, tournament_id=1, stage="swiss", round=1, slot="R1-1",
                   kind="backgammon", player_a=11, player_b=12, status="finished",
                   winner=winner, result=result, board_message_id=19)
    return MatchContext(services=None, tr=Translator("en"), tournament=None, match=row,
                        names=("Carol", "Frank"))


def test_a_forfeit_played_out_ends_as_the_game_says_it() -> None:
    """A late start's forfeit is held on the row as a forfeit: the card drawn again (after a
    restart) says the game's own "won by forfeit", not an organiser's result."""
    forfeit = Outcome(winner=0, result="win", score=(0, 0), how="forfeit")
    assert _finished({"score": None, "forfeit": True}).overruled_line(forfeit) is None
    assert _finished({"score": None, "forfeit": True}, winner=12).overruled_line(forfeit)


def test_a_result_set_over_a_played_match_is_named() -> None:
    played = Outcome(winner=0, result="win", score=(3, 1), how="points")
    assert _finished({"score": [3, 1]}).overruled_line(played) is None
    assert "3:0" in _finished({"score": [3, 0]}).overruled_line(played)
