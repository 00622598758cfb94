"""Recording results and removing players: every change of a running tournament that is not
a pairing goes through here, under the tournament's lock, and then the format advances.

``record_result`` is the contract games played inside the bot call when a match ends
(``bot.features.formats.contract``); the report/confirm flow and organisers' corrections
call it too.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from bot.features.formats.announcements import round_name
from bot.features.formats.progress import placed, round_robin_rounds, swiss_planned_rounds
from bot.features.formats.runner import ADVANCE_JOB, proceed, said_once
from bot.features.formats.state import (
    AHEAD,
    BRACKETS,
    Run,
    load,
    log_event,
    results_of,
    save_record,
)
from bot.games import MatchRecord, game_of
from bot.i18n import Markup, Translator, lines, mid_sentence
from bot.play import clock
from bot.play.board import closed_boards, retire_board
from bot.play.context import MatchContext
from bot.play.refusal import Refusal
from bot.registry import Registry
from bot.services import Services
from games.tournament import MatchView, Result, played_for_withdrawal
from storage.db import Write, in_order
from storage.repositories.jobs import Job, insert_job
from storage.repositories.matches import MatchRow
from storage.repositories.organiser_log import log_entry
from storage.repositories.tournaments import LIVE

log = logging.getLogger(__name__)
REMOVE_JOB = "formats_remove"
"""A withdrawn or disqualified player's matches closed and the format going on."""
PlayedElsewhere = Callable[[MatchContext, "int | None", "tuple[int, int] | None"],
                           Awaitable[None]]
_outside_formats: Registry[PlayedElsewhere] = Registry()
outside_formats = _outside_formats.register  # stage → how its played match closes


class ResultRefused(Refusal):
    """The result cannot be recorded; ``key`` is the catalog key of the reason. Raised out
    of a handler, the dispatcher's refusal handler answers it."""


def correction_problem(run: Run, match: MatchRow, winner: int | None, *,
                       next_begun: bool = False) -> str | None:
    """Why a result cannot be entered for ``match`` now (a catalog key), or None.

    A Swiss-with-elimination result that changes who went through cannot be undone once
    entered: later pairings were built on it (a walkover to a player who left says so
    instead); a bracket match's winner can while no later match was decided from it and
    none made from it has begun (``next_begun``: :func:`next_begun`; the match its players
    go on to still waits for its other player, or has both and nothing played:
    :meth:`~games.tournament.bracket.Bracket.correctable`; a final, a 3rd-place
    match also after the end, when its placings are said again:
    :data:`~bot.features.formats.runner.ADVANCE_JOB`), as can any result of a round robin
    or Swiss, whose tables only change. Draws need a format with a table and a game that
    has them (``Game.draws``).
    """
    if match.status not in (*LIVE, "finished") or match.player_b is None:
        return "formats.error.not_playable"
    if winner is None and (run.phase not in ("round_robin", "swiss")
                           or not game_of(run.tournament.game).draws):
        return "formats.error.no_draws"
    if match.status == "finished" and run.engine() is not None and winner != match.winner \
            and not (run.phase in BRACKETS and run.bracket().correctable(match.slot)
                     and not next_begun):
        if (left := _left_winner(run, match, winner)) is not None:
            return left
        if run.tournament.status == "finished":
            return "formats.error.over"
        return _built_on(run, match)
    return None


def _built_on(run: Run, match: MatchRow) -> str:
    """Why a decided result that later play was built on stays: a bracket match's next
    match has begun (or was decided), a group result's playoff was made, a Swiss with
    elimination paired the rounds after it."""
    if run.phase not in BRACKETS:
        return "formats.error.decided"
    if any(view.id == match.slot for view in run.bracket().matches):
        return "formats.error.next_begun"
    return "formats.error.built_on"


async def next_begun(services: Services, run: Run, match: MatchRow) -> bool:
    """Whether a bracket match made from the finished ``match`` has begun: a move logged
    in it (a settling entry, such as a player put in another's place, is none), or a
    result reported or recorded. Until then a corrected winner takes its place there."""
    if run.phase not in BRACKETS or match.status != "finished":
        return False
    fed = set(run.bracket().fed_by(match.slot))
    for row in run.rows:
        if row.slot in fed and (row.status not in LIVE or row.result or any(
                "meta" not in logged.payload
                for logged in await services.repos.matches.actions(row.id))):
            return True
    return False


def _left_winner(run: Run, match: MatchRow, winner: int | None) -> str | None:
    """Why a walkover cannot go to the player whose leaving gave it to the opponent (a
    bracket's final that a finalist withdrew from): they withdrew, or are disqualified."""
    if winner not in run.removed or not match.result.get("forfeit"):
        return None
    withdrew = winner in run.record.get("withdrawn", [])
    return "formats.error.winner_withdrew" if withdrew else "formats.error.winner_disqualified"


async def record_result(services: Services, match_id: int, winner: int | None,
                        score: tuple[int, int] | None, *, forfeit: bool = False,
                        actor_id: int | None = None, reason: str | None = None,
                        stat: list[list[int]] | None = None, tie: bool = False,
                        update_id: int | None = None, actions: Sequence[dict] = (),
                        said: str | None = None, record: bool = False) -> None:
    """Finish (or, with a ``reason``, correct) a match; the tournament goes on from it right
    after the update (:data:`~bot.features.formats.runner.ADVANCE_JOB`, stored with the
    result, so a restart in between loses nothing).

    ``winner`` is a user id, or None for a draw (``tie``: a game completed with equal
    sides, scored as a draw and counted in a column of its own); ``score`` is (player_a's,
    player_b's); ``stat`` is each side's [numerator, denominator] of the game's own tie-break
    statistic (darts: [marks, visits]), kept when an organiser corrects the result.
    An organiser's entry or correction names ``actor_id`` and ``reason`` and is logged, in
    the result's transaction.
    ``actions`` (a player's answer that settles the match: a confirmation) are logged by
    ``actor_id`` in the result's own transaction, claiming ``update_id``. ``said`` (the
    result in words) is stored with the job and heads what the format says next (the next
    matches, the table): one group message where there were two; with ``record`` it is
    said on the match's record, a file its game sends (:attr:`~bot.games.Game.records`).
    Raises :class:`ResultRefused` when the result cannot be taken, and
    :class:`~storage.repositories.matches.DuplicateUpdate` when ``update_id`` was applied.
    """
    match = await services.repos.matches.get(match_id)
    async with services.lock(f"tournament-{match.tournament_id}"):
        run = await load(services, match.tournament_id)
        match = next(row for row in run.rows if row.id == match_id)
        if problem := correction_problem(run, match, winner,
                                         next_begun=await next_begun(services, run, match)):
            raise ResultRefused(problem)
        now = services.clock.now()
        logged = None if reason is None else log_entry(
            actor_id, "setresult", now, tournament_id=run.tournament.id,
            chat_id=run.tournament.chat_id, reason=reason, match_id=match.id,
            winner=winner, score=list(score) if score else None, forfeit=forfeit,
            before={"status": match.status, "winner": match.winner, **match.result})
        result: dict[str, Any] = {"score": list(score) if score and not forfeit else None,
                                  "forfeit": forfeit}
        if (stat := stat or match.result.get("stat")) and not forfeit:
            result["stat"] = stat
        if tie and winner is None:
            result["tie"] = True
        result |= _ahead(match)
        onward: dict[str, Any] = {"match_id": match.id}
        if said:
            onward["said"] = said
            if record:
                onward["record"] = True
        if (event := _engine_event(run, match, winner, score, forfeit)) is not None:
            onward["event"] = event
        if run.tournament.status == "finished":  # the placings said, to tell if they move
            onward["after_end"] = True
            onward["placed"] = placed(run)
        job = await services.repos.matches.settle(match.id, {
            "meta": "result", "winner": winner, "reason": reason, "result": result},
            actor_id, now, update_id, actions, also=in_order(
                logged, lambda tx: insert_job(tx, ADVANCE_JOB, now, run.tournament.id, onward)))
    services.scheduler.follow(job)


def _engine_event(run: Run, match: MatchRow, winner: int | None,
                  score: tuple[int, int] | None, forfeit: bool) -> dict[str, Any] | None:
    """What a format that keeps an engine's log (brackets, Swiss with elimination) is told
    of a match's first result, or of a bracket's corrected winner; None for the others and
    for a correction that keeps the winner. The job that moves the tournament on logs it,
    so the result and the event are stored together."""
    if match.status == "finished":
        if run.phase not in BRACKETS or winner == match.winner:
            return None
        return {"type": "correct", "match": match.slot, "winner": winner, "forfeit": forfeit}
    if run.phase in BRACKETS:
        return {"type": "result", "match": match.slot, "winner": winner, "forfeit": forfeit}
    if run.phase == "swiss_elim":
        result = Result(match.player_a, match.player_b, winner,
                        None if forfeit else score, forfeit, match.round)
        return {"type": "result", **result.to_dict()}
    return None


async def record_played(ctx: MatchContext, winner: int | None, score: tuple[int, int] | None,
                        actor_id: int | None, stat: list[list[int]] | None = None, *,
                        tie: bool = False, said: str | None = None, forfeit: bool = False,
                        reason: str | None = None) -> None:
    """A match played in the bot has ended (``winner`` a seat, None for a draw): its result
    into the tournament (``forfeit`` and ``reason``: a walkover an organiser awarded, logged
    with its reason). A result the format cannot take (a draw in a bracket) is logged.
    A match of another stage than the formats' (a friendly) closes through its stage's hook.
    ``said`` (the result in the game's words) heads what the format says next, the next
    matches, in one group message (:func:`record_result`), in the caption of the match's
    record when its game leaves one (:attr:`~bot.games.Game.records`); a match played in a
    forum topic, a friendly or a result refused has it said in the match's place at once."""
    closing = _outside_formats.get(ctx.match.stage)
    record = game_of(ctx.tournament.game).records.get(ctx.match.kind)
    if said is not None and (closing is not None or ctx.match.thread_id is not None):
        await _said_now(ctx, said, record)
        said = None
    if closing is not None:
        await closing(ctx, winner, score)
        return
    users = ctx.match.players
    try:
        await record_result(ctx.services, ctx.match.id,
                            None if winner is None else users[winner], score, forfeit=forfeit,
                            actor_id=actor_id, reason=reason, stat=stat, tie=tie, said=said,
                            record=record is not None)
    except ResultRefused as refused:
        log.warning("result of match %s refused: %s", ctx.match.id, refused.key)
        if said is not None:
            await _said_now(ctx, said, record)


async def _said_now(ctx: MatchContext, said: str, record: MatchRecord | None) -> None:
    """A match's end said in its place at once: on the match's ``record`` when its game
    leaves one, else in a message."""
    if record is not None:
        await record(ctx, said, "")
    else:
        await ctx.say(said)


async def finish_from_state(ctx: MatchContext, state: Any, actor_id: int | None) -> None:
    """The playbook's ``finish`` for a finished engine: its ``outcome`` into the tournament
    (a tie or a draw has no winner)."""
    await record_played(ctx, state.outcome.winner, tuple(state.outcome.score), actor_id,
                        tie=state.outcome.result == "tie")


def half_played(run: Run, player: int) -> bool:
    """In a round robin: has the player results in at least half of their matches (a
    walkover from a withdrawn opponent's unplayed match not counted: the table's rule)?"""
    group = next(g for g in run.record["groups"] if player in g)
    played = played_for_withdrawal(player, results_of(run.rows), run.record.get("withdrawn", []))
    return 2 * played >= len(group) - 1


async def remove_player(services: Services, tournament_id: int, player: int, how: str, *,
                        said: str, logged: Write | None = None,
                        question: int | None = None) -> None:
    """Withdraw (``how`` "withdraw") or disqualify ("disqualify") a player mid-tournament.

    The player's status is written with ``logged`` (an organiser's entry) and the
    :data:`REMOVE_JOB` that makes their open matches walkovers for the opponents (void in a
    round robin where the player's results leave the table: see :func:`walkover_winners`)
    and lets the format go on: a bot that
    dies right after the write does the rest at its next start (the redelivered command
    finds the player out). ``said`` (who is out, and what becomes of their results) is
    stored with the job and heads what the format says next, as a result's words do; a
    withdrawal asked first (``question``: the question's message in the tournament's chat)
    has its question edited into them instead.
    """
    async with services.lock(f"tournament-{tournament_id}"):
        run, now = await load(services, tournament_id), services.clock.now()
        status = "withdrawn" if how == "withdraw" else "disqualified"
        async with services.db.together():
            await services.repos.entrants.update(tournament_id, player, now, status=status)
            await save_record(services, run, **{status: [*run.record.get(status, []), player]})
            if logged is not None:
                await services.db.write(logged)
            job = await services.repos.jobs.add(REMOVE_JOB, now, tournament_id, player=player,
                                                how=how, said=said, question=question)
    await services.scheduler.run(job.id)


async def close_removed(services: Services, job: Job) -> None:
    """:data:`REMOVE_JOB`: a removed player's open matches closed and the format's engine
    told (once), with the boards of the live ones noted as owed, in one write; the tournament
    goes on, and those boards are drawn closed. Run again after a restart, it does what is
    left (the boards too: a stop after the closing left them live for good)."""
    player, how = job.payload["player"], job.payload["how"]
    async with services.lock(f"tournament-{job.tournament_id}"):
        run = await load(services, job.tournament_id)
        async with services.db.together():
            closed = await _close_open_matches(services, run, player, how)
            if boards := [row.id for row in closed if row.status in LIVE]:
                await services.repos.jobs.note(job.id, boards=boards)
            await _tell_engine(services, run, player, how)
        told = await _said_in_question(services, run, job)
        await proceed(services, job.tournament_id, **({} if told else said_once(services, job)))
    # the tournament has gone on whatever Telegram answers these
    for row in await closed_boards(services, closed, job.payload.get("boards", [])):
        await retire_board(services, run.tournament, row)


async def _tell_engine(services: Services, run: Run, player: int, how: str) -> None:
    """Log a removal in the engine of a bracket or a Swiss with elimination, once (a player
    the playoff left out is not in its bracket)."""
    event = {"type": how, "player": player}
    if run.phase in BRACKETS and player in run.seeds and event not in run.record.get("log", []):
        await log_event(services, run, event)
    elif run.phase == "swiss_elim" and player in run.swiss_elim().active:
        await log_event(services, run, {"type": "withdraw", "player": player})


async def _said_in_question(services: Services, run: Run, job: Job) -> bool:
    """Whether the removal's words go in the question that asked it (a withdrawal): the
    question edited into them, once (noted, so a retry does not edit it again)."""
    question = job.payload.get("question")
    if question is None:
        return False
    if not job.payload.get("told"):
        await services.outbox.board(run.tournament.chat_id, question, job.payload["said"])
        await services.repos.jobs.note(job.id, told=True)
    return True


def outcome_key(run: Run, player: int, how: str, *, asked: bool = False) -> str:
    """The catalog key that explains what happens to a leaving player's results (SPEC §6):
    in a round robin under half played → removed, otherwise unplayed matches are losses;
    Swiss and elimination → out, played results kept, and a walkover said only when the
    removal gives one (a player whose match is already decided has none); a
    disqualification annuls them (in a round robin its open matches are void, elsewhere
    walkovers). ``asked``: said to the player who asks to withdraw ("your matches"), not
    about them."""
    if how == "disqualify":
        return "formats.dq.removed" if run.phase == "round_robin" else "formats.dq.annulled"
    stem = "formats.withdraw.yours." if asked else "formats.withdrawn."
    if run.phase != "round_robin":
        return stem + ("out" if walkover_winners(run, player, how) else "out_played")
    return stem + ("losses" if half_played(run, player) else "removed")


def removal_said(tr: Translator, run: Run, label: dict[int, str], player: int, how: str,
                 head: str) -> str:
    """What the group is told of a player leaving mid-tournament (every format, a
    withdrawal or a disqualification): ``head`` (who is out), what becomes of their results
    and who gets a walkover from their open matches, named."""
    return lines(head, tr(outcome_key(run, player, how)),
                 _walkovers_said(tr, run, label, player, how), _fewer_rounds(tr, run, player))


def _walkovers_said(tr: Translator, run: Run, label: dict[int, str], player: int,
                    how: str) -> str | None:
    """Who wins the removed ``player``'s matches by walkover: named together, or in a
    double elimination, where one removal decides matches in both brackets, a line per
    match naming it (its number once it is made, and its round)."""
    if run.phase != "double_elim":
        winners = walkover_winners(run, player, how)
        return tr("formats.walkover_to", names=", ".join(label[p] for p in winners)) \
            if winners else None
    rows = {row.slot: row for row in run.rows}
    return lines(*(tr("formats.walkover_in", match=_match_named(tr, run, view, rows.get(view.id)),
                      name=label[view.winner])
                   for view in _bracket_walkovers(run, player, how)))


def _match_named(tr: Translator, run: Run, view: MatchView, row: MatchRow | None) -> str:
    stage = round_name(tr, run, view.id.split("-")[0], view.round)
    if row is None:
        return stage
    return tr("formats.match_numbered", number=row.id, stage=mid_sentence(stage))


_FEWER_ROUNDS = {"swiss": (swiss_planned_rounds, "formats.swiss_fewer_rounds"),
                 "round_robin": (round_robin_rounds, "formats.round_robin_fewer_rounds")}
"""A format whose rounds a removal can cut short: how it counts them, how the cut is said."""


def _fewer_rounds(tr: Translator, run: Run, player: int) -> str | None:
    """A Swiss event whose players left cannot be paired for all its planned rounds, a
    round robin whose last rounds have no match left: the rounds it plays now, said once,
    where the count shrinks (the headings then say it); nothing when fewer than two are
    left (the event ends with the round)."""
    left = set(run.seeds) - run.removed - {player}
    if run.phase not in _FEWER_ROUNDS or len(left) < 2:
        return None
    rounds, key = _FEWER_ROUNDS[run.phase]
    if (planned := rounds(run, player)) >= rounds(run):
        return None
    return tr(key, rounds=Markup(tr("formats.n_rounds", count=planned)))


def walkover_winners(run: Run, player: int, how: str) -> list[int]:
    """The opponents of the removed ``player``'s open matches who win them by walkover: in
    a round robin only those the unplayed matches count as losses for (else they are
    void: the opponent rests); in a bracket also those of the matches the removal decides
    beyond them (:func:`_bracket_walkovers`)."""
    if _voided(run, player, how):
        return []
    opponents = [opponent for row in _open_rows(run, player)
                 if (opponent := row.opponent(player)) is not None]
    return list(dict.fromkeys([*opponents, *(view.winner for view in
                                             _bracket_walkovers(run, player, how))]))


def _bracket_walkovers(run: Run, player: int, how: str) -> list[MatchView]:
    """The bracket matches the removal of ``player`` decides by walkover, as the bracket
    then stands: a double elimination's upper bracket player who leaves also leaves the
    place in the lower bracket the forfeit sends them to, the walkover of the player
    waiting there."""
    if run.phase not in BRACKETS or player not in run.seeds:
        return []
    bracket = run.bracket()
    forfeits = {view.id for view in bracket.matches if view.forfeit}
    bracket.apply({"type": how, "player": player})
    return [view for view in bracket.matches
            if view.forfeit and view.id not in forfeits and player in view.slots
            and view.winner not in (player, *run.removed)]


def _voided(run: Run, player: int, how: str) -> bool:
    """Whether the removed ``player``'s open matches close without a winner: in a round
    robin that removes their results (a disqualification, a withdrawal before half)."""
    return run.phase == "round_robin" and (how == "disqualify" or not half_played(run, player))


def _open_rows(run: Run, player: int) -> list[MatchRow]:
    return [row for row in run.rows
            if player in row.players and row.status in (*LIVE, "pending")]


async def _close_open_matches(services: Services, run: Run, player: int,
                              how: str) -> list[MatchRow]:
    """Close the removed ``player``'s matches not yet finished (void, or walkovers for the
    opponents: :func:`walkover_winners`); the rows as they were."""
    now, closed, voided = services.clock.now(), _open_rows(run, player), _voided(run, player, how)
    for row in closed:
        if voided:
            await services.repos.matches.settle(
                row.id, {"meta": "void", "result": row.result | _ahead(row)}, player, now)
        else:
            await services.repos.matches.settle(row.id, {
                "meta": "result", "winner": row.opponent(player),
                "result": {"score": None, "forfeit": True} | _ahead(row)}, player, now)
    return closed


def _ahead(row: MatchRow) -> dict[str, bool]:
    """The mark of a match decided or voided before its round opened (a round robin's coming
    round): kept when the result is corrected, so its round still says its player rests, and
    a round of such matches only is not counted (:func:`round_robin_rounds`)."""
    return {AHEAD: True} if row.status == "pending" or row.result.get(AHEAD) else {}


async def played_in_bot(services: Services, tr: Translator, match: MatchRow | None) -> str:
    """Why a player of a tournament the bot plays does not report a result (/result,
    /confirm): the bot records the match's end; one played elsewhere is an organiser's
    /setresult; the clock of ``match`` (the sender's live match), while it runs, runs on
    meanwhile."""
    ticking = match is not None and await clock.running(services, match.id)
    return tr("formats.error.played_in_bot_clock" if ticking else "formats.error.played_in_bot")
