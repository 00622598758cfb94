"""/pause and /resume, and a group the bot lost: the whole tournament waits, or goes on.

A pause freezes every match under way with the time its clocks had left (actions are
refused meanwhile, and the boards and private panels say so); a resume runs the clocks on
from there. A group the bot can no longer write to (removed from it, or the group is gone)
pauses its running tournaments at once, so that no clock runs out while nobody can play,
and their organisers are told in private how to go on: each tournament's pause is written
with a :data:`LOST_JOB` held in the stead of those messages, so a bot that stops right
after the pause still tells them at its next start.
"""

from __future__ import annotations

import contextlib
from functools import partial

from aiogram.filters import Command, CommandObject
from aiogram.types import Message

from bot.features.access import Target, Targeted
from bot.features.handlers import Handlers
from bot.features.lifecycle import answer_where_asked, job_kind, revive_opening, tell_each_owed
from bot.i18n import Translator, clip, lines
from bot.middlewares.filters import topic_of
from bot.play import clock
from bot.play.board import redraw_paused
from bot.sending import at_once, raise_failure, settled
from bot.services import Services
from storage.db import Write
from storage.repositories.jobs import Job
from storage.repositories.organiser_log import log_entry
from storage.repositories.tournaments import Tournament

router = Handlers("pause")


@router.message(Command("pause", "resume"), Targeted(organiser=True))
async def pause_or_resume(message: Message, command: CommandObject, services: Services,
                          tr: Translator, target: Target) -> None:
    """Stop or restart play: every match under way waits (actions are refused) until resumed;
    the players' private panels say so meanwhile, without buttons. Typed in a match's topic:
    that match's tournament, announced in the general chat too (the whole tournament waits)."""
    tournament, pausing = target.tournament, command.command == "pause"
    switchable = "running" if pausing else "paused"
    if tournament.status != switchable and not target.named:
        others = [t for t in await services.repos.tournaments.active_in_chat(message.chat.id)
                  if t.status == switchable]  # the newest was not meant: the one that can be
        if len(others) > 1:
            await message.answer(tr("pause.which", command=command.command, tournaments=", ".join(
                f"#{t.id} {t.title}" for t in others)))
            return
        tournament = others[0] if others else tournament
    if tournament.status != switchable:
        await message.answer(tr(_not_switched(tournament, pausing), title=tournament.title))
        return
    reason = " ".join(target.words) or None
    now = services.clock.now()
    logged = log_entry(message.from_user.id, command.command, now,
                       tournament_id=tournament.id, chat_id=message.chat.id, reason=reason)
    async with services.lock(f"tournament-{tournament.id}"), services.db.together():
        opening, thawed = await _switch(services, tournament, pausing, logged)
        held = await services.repos.jobs.add(
            SWITCHED_JOB, now, tournament.id, pausing=pausing, reason=reason,
            organiser=message.from_user.first_name, thread=topic_of(message),
            thawed=[job.id for job in thawed])
    try:
        await services.scheduler.stand_in(held, _say_switched(services, tournament, held))
    finally:  # the opening is run whatever the message met
        if opening is not None:
            await services.scheduler.run(opening)


SWITCHED_JOB = "play_switched"
"""Written with a pause or a resume: the group told, and the boards and private panels
redrawn waiting or playing, the job held in their stead (a /resume written right before a
stop left every board saying its match waits while the clocks ran on: a player lost on
time without a word)."""


async def _say_switched(services: Services, tournament: Tournament, held: Job) -> None:
    """The group told of the pause or resume, and each live board and private panel
    redrawn saying the pause, or not: each tried whatever the other meets, and the one
    done noted when the other failed, so the job's retry does only what is still owed."""
    owed = {step: work for step, work in (
        ("told", partial(_tell_switched, services, tournament, held)),
        ("drawn", partial(redraw_paused, services, tournament)))
        if not held.payload.get(step)}
    results = await settled(*(work() for work in owed.values()))
    done = {step: True for step, result in zip(owed, results, strict=True)
            if not isinstance(result, Exception)}
    if len(done) < len(owed):
        await services.repos.jobs.note(held.id, **done)
    raise_failure(results)


async def _tell_switched(services: Services, tournament: Tournament, held: Job) -> None:
    """The pause or resume said in the group (typed in a match's topic: there and in the
    general chat, as the whole tournament waits or goes on), with the deadlines the resume
    restarted."""
    said = held.payload
    tr = await services.translator_for_chat(tournament.chat_id)
    key = ("pause.paused" if said["pausing"] else "pause.resumed") + \
        ("_why" if said["reason"] else "")
    thawed = await services.repos.jobs.of_ids(said["thawed"])
    text = lines(tr(key, title=tournament.title, reason=clip(said["reason"] or ""),
                    organiser=said["organiser"]),
                 *await clock.resumed_lines(services, tr, tournament, thawed))
    await answer_where_asked(services, tournament.chat_id, held)(text)
    if said["thread"] is not None:
        await services.bot.send_message(tournament.chat_id, text)


@job_kind(SWITCHED_JOB)
async def _switch_owed(services: Services, job: Job) -> None:
    """:data:`SWITCHED_JOB`, left by a bot that stopped (or could not reach Telegram) after
    writing a pause or resume; said only while the tournament stands as it left it."""
    tournament = await services.repos.tournaments.get(job.tournament_id)
    if tournament is not None and tournament.status == (
            "paused" if job.payload["pausing"] else "running"):
        await _say_switched(services, tournament, job)


def _not_switched(tournament: Tournament, pausing: bool) -> str:
    """Why /pause or /resume changes nothing: paused already, not running, over (a last
    withdrawal during a pause may end it), or not paused."""
    if tournament.status == "finished":
        return "pause.finished"
    if pausing:
        return "pause.already" if tournament.status == "paused" else "pause.not_running"
    return "pause.not_paused"


async def _switch(services: Services, tournament: Tournament, pausing: bool,
                  logged: Write | None = None) -> tuple[int | None, list[Job]]:
    """Pause a running tournament (every match under way waits, its clocks frozen with the
    time they had left) or resume a paused one (the clocks run on from there), in one
    transaction with ``logged`` (the organiser's log entry) and, when resuming, the opening
    made pending again if it had stopped (:func:`revive_opening`), under the tournament's
    lock (the caller's). Returns the opening's job id, to run, and the clocks restarted."""
    wanted, current = ("paused", "running") if pausing else ("running", "paused")
    now = services.clock.now()
    async with services.db.together():
        for match in await services.repos.matches.for_tournament(tournament.id):
            if match.status == current:
                await services.repos.matches.update(match.id, now, status=wanted)
        await services.repos.tournaments.set_status(tournament.id, wanted, now)
        if logged is not None:
            await services.db.write(logged)
        if pausing:
            await clock.pause(services, tournament.id)
            return None, []
        thawed = await clock.resume(services, tournament.id)
        return await revive_opening(services, tournament.id), thawed


LOST_JOB = "group_lost"
"""Written with each tournament a lost group pauses: its organisers told in private, the
job held in their stead (a bot that stopped right after the pause told nobody, and the
update that said the group was lost, delivered again, found itself handled)."""


async def group_lost(services: Services, chat_id: int) -> None:
    """The bot can no longer write to a group (removed from it, or the group is gone):
    pause its running tournaments, then tell their organisers in a DM (every one of them
    is paused whatever Telegram answers the DMs)."""
    running = [tournament for tournament in
               await services.repos.tournaments.active_in_chat(chat_id)
               if tournament.status == "running"]
    held = await _pause_lost(services, running)
    await at_once(*(services.scheduler.stand_in(job, _tell_paused(services, tournament, job))
                    for tournament, job in held))


async def _pause_lost(services: Services, running: list[Tournament]
                      ) -> list[tuple[Tournament, Job]]:
    """Pause the ``running`` tournaments, each with the :data:`LOST_JOB` that tells its
    organisers, in one write (a stop after the first left the others running for good: the
    update that said the group was lost, delivered again, found itself handled); those
    that stopped running meanwhile (another update that found the group lost paused them)
    are left out. Their locks are taken in the order of their ids, as any other taker's."""
    organisers = {tournament.id: await _organisers(services, tournament)
                  for tournament in running}
    held = []
    async with contextlib.AsyncExitStack() as locked:
        for tournament in sorted(running, key=lambda tournament: tournament.id):
            await locked.enter_async_context(services.lock(f"tournament-{tournament.id}"))
        async with services.db.together():
            for tournament in running:
                if (await services.repos.tournaments.get(tournament.id)).status == "running":
                    await _switch(services, tournament, pausing=True)
                    held.append((tournament, await services.repos.jobs.add(
                        LOST_JOB, services.clock.now(), tournament.id,
                        organisers=organisers[tournament.id])))
    return held


async def _tell_paused(services: Services, tournament: Tournament, held: Job) -> None:
    async def tell(user_id: int) -> None:
        tr = await services.translator_for_chat(user_id)
        await services.outbox.dm(user_id, tr("group_lost.paused", title=tournament.title,
                                             id=tournament.id))
    await tell_each_owed(services, held, "organisers", tell)


@job_kind(LOST_JOB)
async def _lost_told_owed(services: Services, job: Job) -> None:
    """:data:`LOST_JOB`, left by a bot that stopped (or could not reach Telegram) after
    pausing the tournament; said only while it is still paused."""
    tournament = await services.repos.tournaments.get(job.tournament_id)
    if tournament is not None and tournament.status == "paused":
        await _tell_paused(services, tournament, job)


async def _organisers(services: Services, tournament: Tournament) -> list[int]:
    """Who runs a tournament, as far as the bot knows without asking the group: its creator,
    the organisers who acted on it, and the bot's administrators."""
    acted = [row["actor_id"] for row in
             await services.repos.organiser_log.for_tournament(tournament.id)]
    return list(dict.fromkeys([tournament.created_by, *acted,
                               *sorted(services.settings.admin_ids)]))
