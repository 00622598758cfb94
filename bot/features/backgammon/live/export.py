"""The ``.mat`` records of the matches played in the bot in /export (section
``backgammon_mat``): per finished match its round, players, result, file name and the whole
``.mat`` text, the same as the file sent at the end of the match and by ``/mat``. A match
still being played is left out: its record would be a half-made ``.mat`` that reads like a
final one.

A match an organiser's /setresult closed is in, with the result that was set, marked
``set_by_organiser`` (who and why), and ``played_out`` false when the board never decided
it. Its ``.mat`` holds the games really played, the one broken off as far as it went (no
``Wins`` line), as ``/mat`` sends a match in progress: GNU Backgammon imports that as a match
not played to its end, to look at or analyse. The result that was set is not written as a
resignation: the record would show a win nobody played. With no move played there is no
record (``file`` and ``mat`` null)."""

from __future__ import annotations

from typing import Any

from bot.features.backgammon.live.record import match_mat
from bot.features.backgammon.settings import LIVE_KIND
from bot.features.formats.export import result_text, set_by_organiser
from bot.games import Table
from bot.play.context import names_of
from bot.services import Services
from games.backgammon.session import LiveMatch
from storage.repositories.matches import MatchRow
from storage.repositories.tournaments import Tournament


async def backgammon_mat(services: Services, tournament: Tournament
                         ) -> tuple[Any, Table | None]:
    label = await names_of(services, tournament.id)
    length = tournament.settings.get("length", 5)
    records = []
    for match in await services.repos.matches.for_tournament(tournament.id):
        if match.kind != LIVE_KIND or None in match.players:
            continue
        state = await services.matches.state(match)
        settled = await set_by_organiser(services, match)
        if not state.finished and settled is None:
            continue
        names = (label.get(match.player_a, "?"), label.get(match.player_b, "?"))
        records.append({"match_id": match.id, "round": match.round,
                        "players": list(match.players), "result": result_text(match),
                        "set_by_organiser": settled, "played_out": state.finished,
                        **await _record(services, match, state, names, length)})
    return records, None


async def _record(services: Services, match: MatchRow, state: LiveMatch,
                  names: tuple[str, str], length: int) -> dict[str, str | None]:
    """The record's file name and ``.mat`` text; None for both when no move was played."""
    if state.moves == 0 and not state.games:
        return {"file": None, "mat": None}
    return {"file": f"match-{match.id}.mat",
            "mat": await match_mat(services, match.id, names, length)}
