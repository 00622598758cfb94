"""What the formats' chat commands share: finding the tournament and the sender's match,
reading a claimed result, and saying a result in words."""

from __future__ import annotations

import re
from dataclasses import dataclass

from aiogram.types import Message

from bot.features.access import command_target
from bot.features.formats.announcements import slot_label
from bot.features.formats.progress import round_said
from bot.features.formats.results import correction_problem, played_in_bot
from bot.features.formats.state import BRACKETS, Run, left_walkover, load
from bot.games import game_of
from bot.i18n import Translator, lines, mid_sentence
from bot.play.context import own_text
from bot.play.refusal import paused
from bot.services import Services
from storage.repositories.matches import MatchRow
from storage.repositories.tournaments import LIVE

WIN_WORDS = {"win", "won", "w", "победа", "выиграл", "выиграла", "voitto", "voitin"}
LOSS_WORDS = {"loss", "lost", "l", "поражение", "проиграл", "проиграла", "tappio", "hävisin"}
DRAW_WORDS = {"draw", "ничья", "tasapeli"}
_SCORE = re.compile(r"^(\d{1,3})\s*[:\-–—]\s*(\d{1,3})$")
"""``5:3``, also as phones and people write it: ``5-3``, ``5–3`` (a dash a keyboard made of
the hyphen), ``5 : 3``."""
_FORFEIT = {"+:-": True, "+:−": True, "-:+": False, "−:+": False}


@dataclass(frozen=True)
class Claim:
    """A result as one side states it: does the first-named side win, and the score
    from that side (None for a plain win or loss)."""

    outcome: str  # "win", "loss" or "draw" for the first-named side
    score: tuple[int, int] | None = None
    forfeit: bool = False

    def in_row_terms(self, match: MatchRow, side: int) -> tuple[int | None, tuple | None]:
        """(winner user id or None for a draw, score as (player_a's, player_b's))."""
        other = match.opponent(side)
        winner = {"win": side, "loss": other}.get(self.outcome)
        score = self.score
        if score is not None and side != match.player_a:
            score = (score[1], score[0])
        return winner, score


def parse_claim(word: str | None, *, forfeits: bool = False) -> Claim | None:
    """``5:3`` (:data:`_SCORE`), ``win``/``loss``/``draw`` (and their Russian and Finnish
    words); organisers may also give ``+:-`` or ``-:+`` (a forfeit)."""
    text = (word or "").strip().lower()
    if forfeits and text in _FORFEIT:
        return Claim("win" if _FORFEIT[text] else "loss", forfeit=True)
    if match := _SCORE.match(text):
        mine, theirs = int(match.group(1)), int(match.group(2))
        outcome = "win" if mine > theirs else "loss" if mine < theirs else "draw"
        return Claim(outcome, (mine, theirs))
    for words, outcome in ((WIN_WORDS, "win"), (LOSS_WORDS, "loss"), (DRAW_WORDS, "draw")):
        if text in words:
            return Claim(outcome)
    return None


def score_problem(tr: Translator, run: Run, winner: int | None,
                  score: tuple[int, int] | None, match: MatchRow) -> str | None:
    """Why the game cannot end with that score (``Game.check_score``), or None; in the
    game's own words when its catalogs have them (FinCricket's games, not legs). A tie
    (``winner`` None) is checked as the winner's: a best of 3 has no 1:1 to end on."""
    check = game_of(run.tournament.game).check_score
    if check is None or score is None:
        return None
    won, lost = score if winner in (None, match.player_a) else (score[1], score[0])
    problem = check(run.settings, won, lost)
    return None if problem is None else own_text(tr, problem[0], run.tournament.game,
                                                 **problem[1])


def result_problem(tr: Translator, run: Run, match: MatchRow, winner: int | None,
                   score: tuple[int, int] | None, *, next_begun: bool = False) -> str | None:
    """Why this result cannot be entered for ``match`` now (:func:`correction_problem`,
    ``next_begun`` as it takes it) or cannot be the game's score (:func:`score_problem`),
    said; None when it can. A tied score the game cannot end on is said as that, not as a
    draw the format refuses (a round robin has draws; a best of 3 has no 1:1)."""
    if winner is None and (said := score_problem(tr, run, winner, score, match)):
        return said
    if problem := correction_problem(run, match, winner, next_begun=next_begun):
        return tr(problem)
    return score_problem(tr, run, winner, score, match)


async def formats_tournament(message: Message, services: Services, tr: Translator,
                             args: str | None, *, organiser: bool = False, ended: bool = False
                             ) -> tuple[Run, list[str]] | None:
    """The running tournament a command is about (``#id`` first names another; ``ended``:
    a finished one too) and the command's other words; None after saying why there is
    none."""
    target = await command_target(message, services, args, organiser=organiser)
    if target.tournament.status not in (*LIVE, *(("finished",) if ended else ())):
        await message.reply(tr("formats.error.not_running"))
        return None
    return await load(services, target.tournament.id), target.words


async def my_open_match(message: Message, services: Services, run: Run, tr: Translator, *,
                        reporting: bool = True) -> MatchRow | None:
    """The sender's match waiting for a result, or None after saying why there is none."""
    user = message.from_user.id
    if reporting and game_of(run.tournament.game).in_bot(run.tournament.settings):
        match = open_match(tr, run, user)
        await message.reply(await played_in_bot(services, tr, match if isinstance(
            match, MatchRow) else None))
        return None
    found = open_match(tr, run, user, decided="formats.error.decided_already")
    if isinstance(found, str):
        await message.reply(found)
        return None
    if found.status == "paused":  # with the organiser's reason, as a move in a pause is
        refusal = await paused(services, run.tournament.id, "formats.error.paused")
        await message.reply(refusal.render(tr))
        return None
    return found


def open_match(tr: Translator, run: Run, user: int, *,
               decided: str = "formats.match.waiting") -> MatchRow | str:
    """``user``'s open match (one with an opponent), or why they have none, in words
    (``decided``: their match of the round is already played)."""
    if user not in run.players:
        return tr("formats.error.not_in_match")
    if user in run.removed:
        return tr("formats.error.you_are_out")
    mine = [row for row in run.rows if user in row.players and row.status != "void"]
    current = [row for row in mine if row.status in LIVE and row.player_b]
    if current:
        return current[0]
    # a bye into a later round has no row of its own yet: waiting, not decided
    if (why := without_match(tr, run, user)) is not None:
        return why
    waiting = tr(decided if mine else "formats.match.waiting")
    played = [row for row in mine if row.status == "finished" and row.player_b]
    if not played:
        return waiting
    last = max(played, key=lambda row: (row.round, row.id))
    return lines(_last_result(tr, run, last, user), waiting)


def _last_result(tr: Translator, run: Run, row: MatchRow, user: int) -> str:
    """``Your match (round 1) is over: won 2:1.`` — the player's own score first."""
    score = row.score_texts(user)
    shown = f" {score[0]}:{score[1]}" if score else ""
    key = "formats.match.last_won" if row.winner == user else \
        "formats.match.last_drawn" if row.winner is None else "formats.match.last_lost"
    return tr(key, stage=mid_sentence(stage_of(tr, run, row)), score=shown)


BRACKET_SLOTS = ("W", "L", "3P", "GF")
"""The slots of a bracket's matches (``W1-1``, ``L2-3``, ``3P``, ``GF``, ``GF2``); a table's
rounds are ``R…``/``G…``, a Swiss event's ``S…``/``E…``."""


def stage_of(tr: Translator, run: Run, row: MatchRow) -> str:
    """Where ``row`` is played: its bracket round's name, else its round's number (a group
    match of a tournament now in its playoff is still a group round)."""
    if run.phase in BRACKETS and row.slot.startswith(BRACKET_SLOTS):
        return slot_label(tr, run, row)
    return tr("formats.match.round", round=round_said(run, row.round))


def without_match(tr: Translator, run: Run, user: int) -> str | None:
    """Why ``user`` has no match to play now: knocked out (or left out of the playoff),
    resting (a round robin, also when this round's opponent left the tournament) or through
    on a bye in the round being played; else None (waiting for the next round, or the match
    already decided)."""
    engine = run.engine()
    if user not in run.seeds or (engine is not None and user in engine.placings()):
        return tr("formats.match.knocked_out")  # or not through to the playoff
    playing = {row.round for row in run.rows if row.status in LIVE}
    bye = next((row for row in run.rows if row.status == "bye" and row.player_a == user
                and row.round in playing), None)
    if bye is None and (left := next((row for row in run.rows if user in row.players
                                      and row.round in playing and (
                                          row.status == "void" or left_walkover(run, row))),
                                     None)) is not None:  # a round robin's opponent who left
        key = "formats.match.rest_left_last" if _last_round(run, user, left) \
            else "formats.match.rest_left"
        return tr(key, stage=stage_of(tr, run, left))
    if bye is None:
        return None
    rest = run.phase == "round_robin"  # a round robin's bye is a rest, not a win
    key = "formats.match.rest_last" if rest and _last_round(run, user, bye) \
        else "formats.match.rest" if rest else "formats.match.bye"
    return tr(key, stage=stage_of(tr, run, bye))


def _last_round(run: Run, user: int, row: MatchRow) -> bool:
    """Whether ``row``'s round is ``user``'s last: no match of theirs comes after it (one
    a withdrawal decided ahead, void or a walkover, does not)."""
    return not any(later.round > row.round and user in later.players
                   and later.status == "pending" for later in run.rows)
