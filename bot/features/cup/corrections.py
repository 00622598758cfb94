"""Organisers correct the Cup: /setresult and /dq (and /replace and /reopen, in
``bot.features.cup.replace`` and ``bot.features.cup.reopen``), each with a reason, each
written to the organiser log.
Commands for other games fall through to their own handlers."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

from aiogram.filters import Command, CommandObject
from aiogram.types import Message, Update

from bot.features.access import Target, command_target
from bot.features.cup.common import close_match, match_score
from bot.features.cup.playoff import THIRD_VOTE, match_title
from bot.features.cup.stage import STAGE as GROUPS
from bot.features.cup.stage import advance_groups
from bot.features.handlers import Handlers
from bot.i18n import Translator, clip, lines
from bot.middlewares.filters import topic_of
from bot.play.board import closed_boards, retire_board
from bot.play.context import LIVE, context_for, names_of
from bot.play.refusal import Refusal
from bot.services import Services
from games.dice_cup.hp_match import LOWEST_HP
from storage.repositories.jobs import Job
from storage.repositories.matches import MatchRow
from storage.repositories.organiser_log import log_entry
from storage.repositories.tournaments import Tournament
from storage.repositories.users import User
from storage.timefmt import from_db

router = Handlers("cup-corrections")
_SCORE = re.compile(r"^(-?\d+):(-?\d+)$")
_OUTCOME = {"win": 1, "победа": 1, "voitto": 1, "loss": -1, "поражение": -1, "tappio": -1,
            "draw": 0, "ничья": 0, "tasapeli": 0}
OPEN = ("pending", "running", "paused")
DQ_JOB = "cup_dq"  # closes a disqualified player's matches
SENT_AGAIN = timedelta(minutes=10)
"""How soon a ``/setresult @player`` that repeats the last one is taken as sent twice."""


async def cup_command(message: Message, command: CommandObject, services: Services,
                       tr: Translator) -> tuple[Target, User, list[str]] | None:
    """Organiser, Cup, a named player and a reason — or a clear answer and None."""
    target = await command_target(message, services, command.args, organiser=True)
    words = target.words
    if not words or not words[0].startswith("@"):
        await message.answer(tr(f"correction.usage_{command.command}"))
        return None
    user = await services.repos.users.by_username(words[0])
    if user is None:
        raise Refusal("access.not_entrant", name=clip(words[0]),
                      title=target.tournament.title)
    return target, user, words[1:]


async def player_and_reason(message: Message, command: CommandObject, services: Services,
                             tr: Translator):
    """For commands of the form ``/cmd @player reason``: (tournament, player, reason)."""
    found = await cup_command(message, command, services, tr)
    if found is None:
        return None
    target, user, words = found
    reason = await needs_reason(message, tr, words)
    return None if reason is None else (target.tournament, user, reason)


async def log_correction(services: Services, message: Message, action: str, tournament_id: int,
               reason: str, **details) -> None:
    await services.repos.organiser_log.record(
        message.from_user.id, action, services.clock.now(), tournament_id=tournament_id,
        chat_id=message.chat.id, reason=reason, **details)


async def needs_reason(message: Message, tr: Translator, words: list[str]) -> str | None:
    if not words:
        await message.answer(tr("correction.reason_required"))
        return None
    return " ".join(words)


@router.message(Command("setresult"))
async def set_result(message: Message, command: CommandObject, event_update: Update,
                     services: Services, tr: Translator) -> None:
    """A match's result set by an organiser, written with its log entry and the update's
    claim (a redelivered /setresult finds the match closed)."""
    found = await cup_command(message, command, services, tr)
    if found is None:
        return
    target, user, words = found
    named = None
    if words and words[0].startswith("@"):  # "/setresult @a @b 3:1 …" as for other games
        named = await services.repos.users.by_username(words[0])
        words = words[1:]
    outcome = _parse_outcome(words[0]) if words else None
    if outcome is None:
        await message.answer(tr("correction.usage_setresult"))
        return
    reason = await needs_reason(message, tr, words[1:])
    if reason is None:
        return
    match = await services.repos.matches.current_for_player(target.tournament.id, user.id)
    if match is None or match.kind == "third_choice" or \
            (named is not None and named.id not in match.players):
        match = await _finished_to_set(services, tr, target.tournament, user, named)
    mine, theirs = outcome
    if mine == theirs and match.stage != GROUPS:
        await message.answer(tr("correction.no_draw"))
        return
    play = await context_for(services, tr, target.tournament, match)
    me, state = play.seat(user.id), await services.matches.current(match)
    winner = None if mine == theirs else (user.id if mine > theirs else
                                          (match.player_b if me == 0 else match.player_a))
    mine, theirs = _possible(tr, state, me, words[0], mine, theirs)
    typed = _said(words[0], outcome)
    if named is None:
        await _not_said_again(services, tr, target.tournament, match, user, typed, reason)
    score = [mine, theirs] if me == 0 else [theirs, mine]
    before = match.score_texts() if match.status == "finished" else None
    if before is not None and (match.winner, before) == (winner, tuple(map(str, score))):
        raise Refusal("formats.setresult_same")
    result = {"score": score, "set_by": message.from_user.id}
    if match.stage == GROUPS:
        result["points"] = [1, 1] if winner is None else \
            [3, 0] if winner == match.player_a else [0, 3]
    said = {"a": play.names[0], "b": play.names[1], "sa": score[0], "sb": score[1],
            "reason": reason, "where": match_where(tr, target.tournament, match)}
    text = tr("correction.result_replaced", oa=before[0], ob=before[1], **said) if before \
        else tr("correction.result_set", **said) if state.final_scores() else \
        tr("correction.result_set_hp", winner=play.names[play.seat(winner)], **said)
    actor_id = message.from_user.id
    # the line is said by the job that moves the stage on, where the command was typed
    await close_match(play, winner, result, actor_id=actor_id, update_id=event_update.update_id,
                      told={"said": text, "thread": topic_of(message)},
                      logged=log_entry(actor_id, "setresult", services.clock.now(),
                                       tournament_id=target.tournament.id,
                                       chat_id=message.chat.id, reason=reason,
                                       match_id=match.id, score=score, winner=winner,
                                       player=user.id, said=typed, before=before))
    await retire_board(services, target.tournament, match, corrected=before is not None)


async def _finished_to_set(services: Services, tr: Translator, tournament: Tournament,
                           user: User, named: User | None) -> MatchRow:
    """The finished match ``/setresult`` names (the player's last when one player is named)
    when an organiser set its result and nothing was built on it: that result is replaced.
    Else refused saying why: the pair meet in a group round not begun (the player named
    alone: their next match, when they have played none or rest this round), said as every
    format says it; a result played out — with /reopen when that can still replay its last
    round, else why it can no longer change; or that the player has no such match."""
    named_matches = [m for m in await services.repos.matches.for_tournament(tournament.id)
                     if user.id in m.players and m.slot != THIRD_VOTE
                     and (named is None or named.id in m.players)]
    done = [m for m in named_matches if m.status == "finished"]
    coming = [m for m in named_matches if m.status == "pending"]
    label = await names_of(services, tournament.id)
    if coming and (named is not None or not done):
        first = min(coming, key=lambda m: m.round)
        raise Refusal("formats.error.meet_later", a=label[first.player_a],
                      b=label[first.player_b], round=first.round)
    if not done:
        raise Refusal("correction.no_match", user=user.mention)
    last = max(done, key=lambda m: m.id)
    why = await built_on(services, tr, tournament, last)
    if why is None and last.result.get("set_by") is not None:
        return last
    if why is None and not await services.matches.round_starts(last):
        why = tr("correction.why_no_round")
    sa, sb = last.score_texts() or ("?", "?")
    raise Refusal("correction.recorded_reopen" if why is None else "correction.recorded",
                  a=label[last.player_a], b=label[last.player_b], sa=sa, sb=sb,
                  user=user.mention, where=match_where(tr, tournament, last), why=why)


def match_where(tr: Translator, tournament: Tournament, match: MatchRow) -> str:
    """The match's round of the group stage or its playoff title, said with a result set."""
    return tr("correction.where_group", round=match.round) if match.stage == GROUPS \
        else match_title(tr, tournament, match)


async def _not_said_again(services: Services, tr: Translator, tournament: Tournament,
                          match: MatchRow, user: User, said: str, reason: str) -> None:
    """Refused when ``/setresult @player`` repeats the tournament's last one within
    :data:`SENT_AGAIN` (the same player, what was typed for them, :func:`_said`, and reason)
    and the player's match is no longer the one it set: sent twice, it would set the next
    match too (a bare ``win`` sets another score in another format). Naming both players
    sets that one."""
    last = await services.repos.organiser_log.last(tournament.id, "setresult")
    if last is None or last["details"].get("player") != user.id or \
            last["details"].get("said") != said or \
            last["reason"] != reason or last["details"]["match_id"] == match.id or \
            services.clock.now() - from_db(last["created_at"]) > SENT_AGAIN:
        return
    earlier = await services.repos.matches.get(last["details"]["match_id"])
    raise Refusal("correction.result_already_set", user=user.mention,
                  where=match_where(tr, tournament, earlier))


def _possible(tr: Translator, state: Any, me: int, word: str, mine: int,
              theirs: int) -> tuple[int, int]:
    """The score to record from the player's side: a typed score when the match can end
    so (else a Refusal naming those it can), a bare ``win``/``loss``/``draw`` as the match
    would end from where it stands (a win of a match to 3 at 1:2 is 3:1; an HP battle's
    score is the HP left, kept as they stand)."""
    possible = state.final_scores()
    if possible is None:
        now = match_score(state)
        if word.lower() in _OUTCOME:
            return now[me], now[1 - me]
        if not state.can_end(max(mine, theirs), min(mine, theirs)):
            raise Refusal("correction.impossible_hp", score=f"{mine}:{theirs}",
                          hp=state.start_hp, lowest=LOWEST_HP)
        return mine, theirs
    if word.lower() in _OUTCOME:
        if mine == theirs:
            return next(((a, b) for a, b in possible if a == b), (mine, theirs))
        now = match_score(state)
        won, lost = _awarded(possible, now[1 - me] if mine > theirs else now[me])
        return (won, lost) if mine > theirs else (lost, won)
    if (max(mine, theirs), min(mine, theirs)) not in possible:
        won, lost = [(a, b) for a, b in possible if a > b][-1]
        raise Refusal("correction.impossible_score", score=f"{mine}:{theirs}",
                      scores=", ".join(f"{a}:{b}" for a, b in possible), example=f"{lost}:{won}")
    return mine, theirs


def _awarded(possible: tuple[tuple[int, int], ...], loser_now: int) -> tuple[int, int]:
    """The win an organiser's bare ``win`` records: the winner's full score, the loser's
    as it stands (at most what a loser can have)."""
    top = max(a for a, b in possible if a > b)
    return top, max((b for a, b in possible if a == top and b <= loser_now), default=0)


def _said(word: str, outcome: tuple[int, int]) -> str:
    """What a /setresult typed for its player (``word``, read as ``outcome``), in any
    language: ``win``, ``loss``, ``draw`` or the score from their side (``3:1``)."""
    sign = _OUTCOME.get(word.lower())
    return f"{outcome[0]}:{outcome[1]}" if sign is None else \
        {1: "win", -1: "loss", 0: "draw"}[sign]


def _parse_outcome(word: str) -> tuple[int, int] | None:
    if match := _SCORE.match(word):
        return int(match.group(1)), int(match.group(2))
    if (sign := _OUTCOME.get(word.lower())) is not None:
        return {1: (1, 0), -1: (0, 1), 0: (0, 0)}[sign]
    return None


@router.message(Command("dq"))
async def disqualify(message: Message, command: CommandObject, services: Services,
                     tr: Translator) -> None:
    """Group stage: the player's results are annulled and their matches not played;
    playoff: the opponent goes through by walkover. The status, the log entry and the job
    that closes the player's matches are written together (a bot that died right after
    closes them when it starts again: the redelivered /dq finds the player out)."""
    found = await player_and_reason(message, command, services, tr)
    if found is None:
        return
    tournament, user, reason = found
    entry = await services.repos.entrants.get(tournament.id, user.id)
    if entry is None or entry.status != "approved" or not tournament.started:
        await message.answer(tr("correction.not_playing", user=user.mention))
        return
    now = services.clock.now()
    async with services.db.together():
        await services.repos.entrants.update(tournament.id, user.id, now, status="disqualified")
        await log_correction(services, message, "dq", tournament.id, reason, user_id=user.id)
        job = await services.repos.jobs.add(
            DQ_JOB, now, tournament.id, user_id=user.id, actor_id=message.from_user.id,
            chat_id=message.chat.id, name=entry.label, reason=reason,
            thread_id=topic_of(message))
    await services.scheduler.run(job.id)


async def close_disqualified(services: Services, job: Job) -> None:
    """The job of a /dq: the disqualification said where the command was given (once, even
    when the job runs again), the player's open matches closed (voided in the group stage,
    a walkover in the playoff), then the group stage goes on. Run again (after a restart,
    or a send that failed), it closes what is still open and moves the stage on from the
    round it noted the first time, and retires the boards it noted before closing them (a stop
    right after the closing left them asking, a player's panel too)."""
    tournament = await services.repos.tournaments.get(job.tournament_id)
    payload = job.payload
    user_id, actor_id = payload["user_id"], payload["actor_id"]
    closed = [match for match in await services.repos.matches.for_tournament(tournament.id)
              if user_id in match.players and (match.status in OPEN or match.status == "bye"
                                               and match.stage == GROUPS)]
    # (a group-stage rest of the player is closed too: not announced as resting)
    if (boards := [match.id for match in closed if match.status in LIVE]) \
            and "boards" not in payload:  # noted before closing: a rerun finds them closed
        await services.repos.jobs.note(job.id, boards=boards)
    if not payload.get("told"):
        told = await services.translator_for_chat(payload["chat_id"])
        await services.bot.send_message(payload["chat_id"], lines(
            told("correction.disqualified", name=payload["name"], reason=payload["reason"]),
            await _walkovers_said(services, told, tournament, user_id, closed)),
            message_thread_id=payload["thread_id"])
        await services.repos.jobs.note(job.id, told=True)
    tr = await services.translator_for_chat(tournament.chat_id)
    now = services.clock.now()
    # a round goes on only when a match of it being played is closed here (an earlier
    # round's voided or finished matches are not reopened: the round in play is the one);
    # noted before closing, as a retry finds those matches closed already
    if (current := payload.get("round")) is None and (live := sorted(
            {m.round for m in closed if m.stage == GROUPS and m.status in LIVE})):
        current = live[0]
        await services.repos.jobs.note(job.id, round=current)
    for match in closed:
        if match.stage == GROUPS:
            await services.repos.matches.settle(match.id, {"meta": "void"}, actor_id, now)
            continue
        play = await context_for(services, tr, tournament, match)
        await close_match(play, match.opponent(user_id), {"score": [0, 0], "walkover": True},
                          actor_id=actor_id, told={"third_said": match.slot == THIRD_VOTE})
    if current is not None:
        await advance_groups(services, tr, tournament, current)
    for match in await closed_boards(services, closed, payload.get("boards", [])):
        await retire_board(services, tournament, match)


async def _walkovers_said(services: Services, tr: Translator, tournament: Tournament,
                          player: int, matches: list[MatchRow]) -> str | None:
    """Who wins the disqualified ``player``'s open playoff ``matches`` by walkover, named as
    every format names them (the group stage's are void: nobody wins them); the 3rd-place
    vote's walkover is said as what it is, the opponent's 3rd place, not said again when
    the vote closes."""
    label = await names_of(services, tournament.id)
    winners = [match.opponent(player) for match in matches
               if match.stage != GROUPS and match.slot != THIRD_VOTE]
    third = [tr("cup.third_walkover", winner=label[match.opponent(player)],
                loser=label[player]) for match in matches if match.slot == THIRD_VOTE]
    return lines(tr("formats.walkover_to", names=", ".join(label[p] for p in winners))
                 if winners else None, *third) or None


async def built_on(services: Services, tr: Translator, tournament: Tournament,
                    match: MatchRow) -> str | None:
    """Why a finished match's result can no longer change, or None while nothing is built
    on it: the Cup is over; its group round is over (the next rounds and the tables follow
    from it); a later playoff match (the next round's, the 3rd-place vote) has one of its
    players."""
    if tournament.status == "finished":
        return tr("correction.why_ended")
    matches = await services.repos.matches.for_tournament(tournament.id)
    if match.stage == GROUPS:
        if any(m.stage == GROUPS and m.round == match.round and m.status in LIVE
               for m in matches):
            return None
        return tr("correction.why_round_over", round=match.round)
    later = next((m for m in matches if m.id > match.id and m.stage != GROUPS
                  and set(m.players) & set(match.players)), None)
    return None if later is None else \
        tr("correction.why_next_made", where=match_title(tr, tournament, later))
