"""A match as the chat sees it: the row, its tournament, the players' names and seats.

Every game's handlers work on a :class:`MatchContext`, loaded once per update.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from bot.i18n import Translator
from bot.services import Services
from games.common.outcome import Outcome
from storage.repositories.matches import MatchRow
from storage.repositories.tournaments import LIVE, Tournament


@dataclass
class MatchContext:
    services: Services
    tr: Translator
    tournament: Tournament
    match: MatchRow
    names: tuple[str, str]
    early_picture: tuple[Any, asyncio.Future[bytes]] | None = None
    """A picture this update started drawing before its action was written (what it shows,
    and the drawing): a board is drawn while its move is written (``Playbook.preview``)."""
    held: str | None = None
    """A line held back until the game knows its board will not show it (backgammon: a move
    the bot played for a player), then said together with the next line, or dropped."""
    unseen: str | None = None
    """The board's line of the last move the bot played in this update (backgammon: for a
    player, or its own in ``/practice``): the board shows it, unless another move follows."""
    earlier: tuple[str, ...] = ()
    """Lines of moves the bot played that another move followed before any board showed
    them: the next board gives them above its last move (backgammon)."""

    @property
    def closed(self) -> bool:
        """The match's row is no longer live: played out, or, while its game is not over,
        closed outside its play (a walkover, a result an organiser set, a resignation) —
        then its board and panels end in :meth:`closed_line` instead of whose move it is."""
        return self.match.status not in LIVE

    def closed_line(self, tr: Translator | None = None) -> str:
        """The line a board or private panel (in ``tr``, its reader's language) of a
        :attr:`closed` match ends with: who won, when someone did, or that it was drawn."""
        tr, winner = tr or self.tr, self.match.winner
        if winner not in self.match.players:  # a result without a winner is a draw
            return tr("play.closed_drawn" if self.match.status == "finished" else "play.closed")
        return tr("play.closed_won", winner=self.names[self.match.players.index(winner)])

    def overruled_line(self, outcome: Outcome, tr: Translator | None = None) -> str | None:
        """For a match played out (``outcome``: how its play ended) whose row names another
        result (an organiser's ``/setresult`` set another winner, another score or a
        forfeit): the line its board and panels end with instead of the game's own end,
        naming the result set; None while the row agrees with the play (the board's header
        keeps the score played)."""
        tr, players, row_winner = tr or self.tr, self.match.players, self.match.winner
        if self.match.status != "finished" or self._as_played(outcome):
            return None
        if row_winner not in players:
            return tr("play.result_set_drawn")
        name, score = self.names[players.index(row_winner)], self.match.score_texts(row_winner)
        if score is None:
            return tr("play.result_set_won", winner=name)
        return tr("play.result_set_won_score", winner=name, score=":".join(score))

    def settled_line(self, outcome: Outcome | None) -> str | None:
        """The line that tells how a match no longer live ended on its board and panels,
        as its row stands (``outcome``: how its play ended, None when it was not played
        out): :meth:`overruled_line` (None: the game's own end), else :meth:`closed_line`."""
        return self.closed_line() if outcome is None else self.overruled_line(outcome)

    def _as_played(self, outcome: Outcome) -> bool:
        """Whether the match's row holds the result its play ended with (a forfeit its play
        ended in, backgammon's late start, is held as a forfeit with no score)."""
        winner = None if outcome.winner is None else self.match.players[outcome.winner]
        if outcome.how == "forfeit":
            return self.match.winner == winner and bool(self.match.result.get("forfeit"))
        return self.match.winner == winner and not self.match.walkover and \
            self.match.result.get("score") == list(outcome.score)

    def seat(self, user_id: int) -> int | None:
        """0 for player A, 1 for player B, None for anyone else."""
        players = self.match.players
        return players.index(user_id) if user_id in players else None

    def text(self, key: str, **params: Any) -> str:
        """``key`` in this match kind's own words (``key.<kind>``) when the catalogs have
        them, else the common text: FinCricket says "game" where Shanghai says "leg"."""
        return own_text(self.tr, key, self.match.kind, **params)

    async def say(self, text: str, **kwargs: Any) -> None:
        """Post to the match's place: its forum topic (``topics=on``), else the group."""
        await self.services.bot.send_message(self.tournament.chat_id, text,
                                             message_thread_id=self.match.thread_id, **kwargs)


def own_text(tr: Translator, key: str, kind: str, **params: Any) -> str:
    """``key`` in the match kind's own words (``key.<kind>``) when the catalogs have them."""
    return tr(own_key(tr, key, kind), **params)


def own_key(tr: Translator, key: str, kind: str) -> str:
    """``key.<kind>`` (a match kind's or a game's own words) when the catalogs have it, else
    ``key``."""
    return f"{key}.{kind}" if tr.has(f"{key}.{kind}") else key


async def names_of(services: Services, tournament_id: int) -> dict[int, str]:
    """Every entrant's shown name, by user id (remembered: read-only)."""
    return await services.repos.entrants.labels(tournament_id)


async def handles_of(services: Services, tournament_id: int) -> dict[int, str]:
    """@usernames (or names) to type in organiser commands."""
    return {e.user_id: f"@{e.username}" if e.username else e.label
            for e in await services.repos.entrants.list(tournament_id)}


async def context_for(services: Services, tr: Translator, tournament: Tournament,
                      match: MatchRow) -> MatchContext:
    label = await names_of(services, tournament.id)
    return MatchContext(services, tr, tournament, match,
                        (label.get(match.player_a, "?"), label.get(match.player_b, "?")))


async def in_its_chat(services: Services, match: MatchRow) -> MatchContext:
    """``match``'s context in its group's language: for work no update asked for (a job,
    an update delivered again), which has no sender's language to speak in."""
    tournament = await services.repos.tournaments.get(match.tournament_id)
    tr = await services.translator_for_chat(tournament.chat_id)
    return await context_for(services, tr, tournament, match)


async def load_match(services: Services, tr: Translator, match_id: int,
                     kinds: tuple[str, ...] | None = None) -> MatchContext | None:
    """Match ``match_id`` (of one of ``kinds``, when given), whatever its status."""
    match = await services.repos.matches.get(match_id)
    if match is None or (kinds is not None and match.kind not in kinds):
        return None
    tournament = await services.repos.tournaments.get(match.tournament_id)
    return await context_for(services, tr, tournament, match)
