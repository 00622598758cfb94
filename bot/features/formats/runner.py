"""The formats going on in the chat: the start of every non-Cup game, then the loop that
advances a format until something waits for play (:func:`proceed`), saying each step (what
it says is built in :mod:`~bot.features.formats.announcements`), the tables after a round,
launching the matches played inside the bot, the job that goes on after a result, and the
tournament's finish."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from functools import partial
from typing import Any

from bot.features.formats import progress
from bot.features.formats.announcements import (
    STAND,
    announcement,
    ending_text,
    groups_text,
    replaced_lines,
    seeded_lines,
)
from bot.features.formats.deadline import DEADLINE_JOB
from bot.features.formats.state import (
    TABLES,
    Run,
    left_walkover,
    load,
    log_event,
    save_record,
)
from bot.features.formats.tables import post_tables
from bot.game_settings import SWISS_ROUNDS
from bot.games import Opening, game_of
from bot.i18n import Markup, Translator, lines, paragraphs
from bot.play import clock
from bot.play.context import context_for, load_match
from bot.play.perform import board_owed_after_faults, owe_board
from bot.play.redraw import redraw_in_place
from bot.scheduler import PASSING_FAULTS
from bot.services import Services
from games.tournament import swiss_rounds_warning
from storage.repositories.jobs import Job
from storage.repositories.matches import MatchRow
from storage.repositories.tournaments import LIVE, Entrant, Tournament

ADVANCE_JOB = "formats_advance"
"""The format moving on after a result: stored with the result, run right after its update."""
Carrier = Callable[[str, str], Awaitable[None]]
"""How a first message is sent that is not a text: (the lead, what follows it)."""


async def start_format(services: Services, tournament: Tournament,
                       entrants: list[Entrant], opening: Opening) -> None:
    """Seed the field, open the first round: its announcement begins with the start's
    roster, then the format (and a Swiss warning, the groups) — one group message. Run
    again after a stop, it seeds nothing twice, and announces a first round made before
    the stop and not said (one said already, with the roster, is left as it is but for the
    boards of its matches that never went out: :func:`proceed` posts them)."""
    if not opening.head:  # the roster went out with the first round
        await proceed(services, tournament.id)
        return
    players = [e.user_id for e in sorted(entrants, key=lambda e: e.seed or 0)]
    tr = await services.translator_for_chat(tournament.chat_id)
    run = await load(services, tournament.id)
    if "players" not in run.record:
        run = await progress.begin(services, run, players)
    made = [row for row in run.rows if row.status != "pending"]  # a start cut short
    lead = [tr("formats.started", format=tr(f"formats.name.{run.format}"))]
    if run.format == "swiss":
        rounds = run.settings.get("rounds", SWISS_ROUNDS)
        if warning := swiss_rounds_warning(len(players), rounds):
            lead.append(tr(
                f"formats.warn.{warning}", rounds=Markup(tr("formats.n_rounds", count=rounds)),
                players=Markup(tr("formats.n_players", count=len(players))),
                most=Markup(tr("formats.n_rounds", count=progress.swiss_planned_rounds(run)))))
    if len(run.record["groups"]) > 1:
        lead.append(await groups_text(services, tr, run))
    await proceed(services, tournament.id, lead=[paragraphs(opening.head, lines(*lead))],
                  lead_said=opening.said, made=made)


async def _say(services: Services, tournament: Tournament, text: str, **kwargs) -> None:
    await services.bot.send_message(tournament.chat_id, text, **kwargs)


async def proceed(services: Services, tournament_id: int, *, lead: Sequence[str] = (),
                  lead_said: Callable[[], Awaitable[None]] | None = None,
                  about: int | None = None, lead_with: Carrier | None = None,
                  made: Sequence[MatchRow] = ()) -> None:
    """Advance the format until something waits for play, announcing every step
    (the caller holds the tournament's lock); ``lead``: lines said at the head of the
    first message (the format at the start, a result after it), then ``lead_said`` is
    awaited (the caller notes it, so a retry does not say it twice); ``about``: the match
    whose result ``lead`` says (not said again among the results a round was made from);
    ``lead_with``: how that first message is sent, ``lead`` and what follows it (a match's
    record: a file they caption), when not as a text; a round's table then comes after it;
    ``made``: matches opened before a stop and never announced (a start run again),
    announced first. The boards of matches announced before whose launch failed (a send
    that failed for good: the job is retried) are posted first."""
    run = await load(services, tournament_id)
    if not made and (waiting := run.record.get(UNANNOUNCED)):  # opened before a stop
        made = [row for row in run.rows if row.id in waiting]
    unannounced = {row.id for row in made}
    await _launch(services, run, [row for row in run.open_rows() if row.board_message_id
                                  is None and row.id not in unannounced])
    tr = await services.translator_for_chat(run.tournament.chat_id)
    held = list(lead)

    replacing = False  # what is held says players put in made matches (progress.REPLACING)

    async def said() -> None:
        nonlocal replacing
        if held and lead_said is not None:
            await lead_said()
        if replacing:
            await progress.replacements_said(services, tournament_id)
            replacing = False
        held.clear()

    async def say(text: str) -> None:
        if held and lead_with is not None:
            await lead_with("\n".join(held), text)
        else:
            await _say(services, run.tournament, "\n".join(part for part in (*held, text) if part))
        await said()

    for _ in range(64):  # each pass opens a round or ends; byes-only rounds go on at once
        step = progress.Step(run, list(made)) if made else await _advanced(services, run)
        before = _before_opening(run, made) if made else run  # the run the round ended in
        made = ()
        held += await replaced_lines(services, tr, step.run, step.replaced)
        replacing = replacing or bool(step.replaced)
        await _hand_over(services, tr, step.run, step.replaced)
        texts = [tr(step.note, **step.note_params)] if step.note else []
        if step.note == "formats.playoff_started":
            texts = [lines(*texts, *await seeded_lines(services, tr, step.run))]
        if step.opened and (text := await announcement(services, tr, step.run, step.opened,
                                                       about)):
            texts.append(text)
        if step.finished and not step.run.record.get("ended"):
            texts.append(await ending_text(services, tr, step.run, about))
        # a round of rests only (after withdrawals) leaves the table to the next pass, so
        # it goes out with the round after it or the final placings
        rests_only = step.opened and not texts and not step.run.open_rows()
        if (step.opened and not rests_only) or step.finished:
            step.run, texts = await _table_after_round(
                services, tr, before, step.run, texts, held, said,
                noted=({"ended": True} if step.finished else {})
                | ({UNANNOUNCED: []} if step.opened else {}),
                lead_alone=None if lead_with is None else partial(say, ""))
        for text in texts:
            await say(text)
        if step.opened:
            if step.run.record.get(UNANNOUNCED):  # said: a board that fails is posted apart
                step.run = await save_record(services, step.run, **{UNANNOUNCED: []})
            await _launch(services, step.run, step.opened)
        if step.finished:
            if held:
                await say("")  # a tournament over at once (byes only) still says its format
            await finish(services, step.run)
            return
        if not step.opened or step.run.open_rows():
            break
        run = step.run
    if held:
        await say("")


UNANNOUNCED = "unannounced"
"""The run record's matches opened and not yet announced: noted in the write that opens
them, cleared once they are said, so a stop (or a send that failed) in between has the next
:func:`proceed` announce them (it found them open and said nothing: a Swiss round made by a
``/dq``'s job that stopped there was never announced)."""


async def _advanced(services: Services, run: Run) -> progress.Step:
    """One pass of the format, the matches it opens noted :data:`UNANNOUNCED` in its write."""
    async with services.db.together():
        step = await progress.advance(services, run)
        if step.opened:
            step.run = await save_record(services, step.run,
                                         **{UNANNOUNCED: [row.id for row in step.opened]})
    return step


def _before_opening(run: Run, opened: Sequence[MatchRow]) -> Run:
    """``run`` as the pass that opened ``opened`` (before a stop) found it: those matches
    pending, so the table after the round before counts none of them (a bye opened with
    the next Swiss round is a win already)."""
    ids = {row.id for row in opened}
    return Run(run.tournament, [replace(row, status="pending") if row.id in ids else row
                                for row in run.rows])


async def _hand_over(services: Services, tr: Translator, run: Run,
                     replaced: list[progress.Replaced]) -> None:
    """A match played in the bot that got another player: its clocks run on from the
    settling entry that put them in (one set before it would never fire), and its board,
    if shown, is drawn again in place with the new name, before anything is said of it (a
    bot stopped after the words, the step done, never drew it), whatever Telegram answers
    (a board it did not take is drawn a minute later)."""
    if not game_of(run.tournament.game).in_bot(run.tournament.settings):
        return
    for each in replaced:
        ctx = await load_match(services, tr, each.match.id)
        await clock.keep(ctx)
        try:
            await redraw_in_place(ctx)
        except PASSING_FAULTS:  # what is said goes on; the board is drawn a minute later
            await owe_board(services, ctx.match)


async def advance_after_result(services: Services, job: Job) -> None:
    """:data:`ADVANCE_JOB`: the tournament goes on from the result stored with the job: the
    format's engine told of it (its ``event``, once), then the round's table, the next round,
    the final placings. It runs once the update that recorded the result has answered; run
    again after a restart, it finds what is already done and goes on."""
    async with services.lock(f"tournament-{job.tournament_id}"):
        job = await services.repos.jobs.get(job.id) or job  # another may have said its words
        if (event := job.payload.get("event")) is not None:
            if event["type"] == "correct":  # a pair's winner may be corrected back and forth
                event = event | {"job": job.id}
            run = await load(services, job.tournament_id)
            if event not in run.record.get("log", []):
                await log_event(services, run, event)
        if job.payload.get("after_end") and not job.payload.get("reopened"):
            await _say_the_end_again(services, job)
        await proceed(services, job.tournament_id, **await _said_together(services, job))


async def _say_the_end_again(services: Services, job: Job) -> None:
    """A result corrected after the end: the last table and the final placings are said
    again, corrected; when the placings are the ones said before (a score alone corrected),
    only a line that they stand, under the result (once: noted in the job)."""
    run = await load(services, job.tournament_id)
    if progress.placed(run) == job.payload.get("placed"):
        await save_record(services, run, ended=False, corrected=STAND)
    else:
        await save_record(services, run, ended=False, tabled=0, corrected=True)
    await services.repos.jobs.note(job.id, reopened=True)


def said_once(services: Services, job: Job) -> dict[str, Any]:
    """:func:`proceed`'s ``lead`` and ``lead_said`` for a job that carries words to say
    (``said``: a result, a player's removal): said at the head of what comes next, then
    noted in the job (``told``), so a retried job does not say them again."""
    said = job.payload.get("said")
    return {"lead": [said] if said and not job.payload.get("told") else [],
            "lead_said": partial(services.repos.jobs.note, job.id, told=True),
            "about": job.payload.get("match_id") if said else None,
            "lead_with": partial(_on_record, services, job.payload["match_id"])
            if job.payload.get("record") else None}


async def _said_together(services: Services, job: Job) -> dict[str, Any]:
    """:func:`said_once` for :data:`ADVANCE_JOB`, with the words of the tournament's other
    results still to move it on (matches that ended together: clocks run out at once), so
    that none is said under the round made from it: words in text all head what comes next,
    in the order they came; words said on a match's record each go on their own, those
    before the last sent at once, the last heading what comes next. Each job is noted as
    said once its words are."""
    untold = sorted([one for one in [job, *await services.repos.jobs.waiting(
        job.tournament_id, ADVANCE_JOB, job.id)] if _untold(one)], key=lambda one: one.id)
    if len(untold) < 2:
        return said_once(services, job)
    last = untold[-1]
    if last.payload.get("record"):
        for one in untold[:-1]:
            await _on_record(services, one.payload["match_id"], one.payload["said"], "")
            await services.repos.jobs.note(one.id, told=True)
        return said_once(services, last)
    return {"lead": [one.payload["said"] for one in untold],
            "lead_said": partial(_note_told, services, untold),
            "about": job.payload.get("match_id")}


def _untold(job: Job) -> bool:
    return bool(job.payload.get("said")) and not job.payload.get("told")


async def _note_told(services: Services, jobs: list[Job]) -> None:
    for one in jobs:
        await services.repos.jobs.note(one.id, told=True)


async def _on_record(services: Services, match_id: int, lead: str, then: str) -> None:
    """A result's words said on its match's record, the file its game sends
    (:attr:`~bot.games.Game.records`), what the format says next under them."""
    match = await services.repos.matches.get(match_id)
    tournament = await services.repos.tournaments.get(match.tournament_id)
    tr = await services.translator_for_chat(tournament.chat_id)
    await game_of(tournament.game).records[match.kind](
        await context_for(services, tr, tournament, match), lead, then)


async def _table_after_round(services: Services, tr: Translator, before: Run, after: Run,
                             then: list[str], lead: list[str],
                             lead_said: Callable[[], Awaitable[None]],
                             noted: dict[str, Any],
                             lead_alone: Callable[[], Awaitable[None]] | None = None
                             ) -> tuple[Run, list[str]]:
    """Round robin and Swiss: post the table once after each completed round (``before``
    is the run as the round ended, ``after`` as the step left it), with ``lead`` (the
    result that ended the round) above it and ``then`` (the step's note, the next round or
    the final placings) below it in its caption when they fit, ``lead_said`` awaited at once
    when they were (a fault after it must not have the result said again) and ``noted``
    saved in the run's record with the table (what ``then`` said, so a retry does not say it
    again); the run, and what of ``then`` is still to be said. ``lead_alone``: the lead
    said in a message of its own before the table (a match's record carries it)."""
    if before.phase not in TABLES:
        return after, then
    last = max((row.round for row in before.rows if _round_played(before, row)), default=0)
    if last <= after.record.get("tabled", 0):
        return after, then
    if lead and lead_alone is not None:
        await lead_alone()
    carried = await post_tables(services, tr, before, tr(
        "formats.standings_after_round", title=before.tournament.title,
        round=progress.round_said(before, last)),
        lead=lead, then=then)
    if carried:
        await lead_said()
    saved = await save_record(services, after, tabled=last, **(noted if carried else {}))
    return saved, [] if carried else then


def _round_played(run: Run, row: MatchRow) -> bool:
    """Whether ``row`` has its round tabled: a match finished (not a withdrawal's walkover,
    maybe decided ahead of its round)."""
    return row.status == "finished" and row.player_b is not None \
        and not left_walkover(run, row)



async def _launch(services: Services, run: Run, rows: list[MatchRow]) -> None:
    game = game_of(run.tournament.game)
    if not game.in_bot(run.tournament.settings):
        return
    launcher = game.launch
    for row in rows:  # one opened during a pause too: its board waits for /resume
        if row.status in LIVE and row.player_b is not None:
            async with board_owed_after_faults(services, row):
                await launcher(services, run.tournament, row)


async def finish(services: Services, run: Run) -> None:
    """The tournament over, once its end was said
    (:func:`~bot.features.formats.announcements.ending_text`)."""
    tournament = run.tournament
    await services.repos.tournaments.set_status(tournament.id, "finished", services.clock.now())
    await services.scheduler.cancel(tournament.id, (DEADLINE_JOB,))
