"""Scheduling and starting a tournament (by /begin or by the scheduled job): the start's jobs
(the reminders and the check-in opening, said by ``notices``; the start; the opening that
announces it), the registry of the platform's jobs, and what a start refused says.

Once the roster is fixed the game's starter (``bot.games.Game.start``) creates the first
matches. Starting is idempotent, so a job repeated after a crash starts nothing
twice.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial

from aiogram.types import InlineKeyboardMarkup, Message

from bot.features.checkin import CHECKIN_OPENED, checkin_opens, checkin_opens_said
from bot.features.keyboards import checkin_keyboard
from bot.game_settings import settings_line
from bot.games import JobRunner, Opening, game_of, job_runner
from bot.i18n import Translator, lines
from bot.match_service import RESULT_OWED
from bot.play.board import board_owed, result_owed
from bot.play.perform import BOARD_OWED
from bot.play.said import SAID_JOB, said_owed
from bot.play.topics import topics_problem
from bot.registry import Registry
from bot.sending import each_logged, raise_failure, settled
from bot.services import Services
from storage.repositories.jobs import Job
from storage.repositories.tournaments import UNFINISHED, Entrant, Tournament
from storage.timefmt import to_db

START_JOBS = ("reminder", "checkin", "start")
MIN_PLAYERS = 2


APPROVED_WORDED = frozenset({"begin.too_few", "begin.none_at_time", "players.list",
                             "reminder.text"})
"""Texts that count or name entrants as approved: each has a ``_entered`` twin that says
entered, for a tournament where nobody approves applications (:func:`counted_as`)."""


def counted_as(tournament: Tournament, key: str) -> str:
    """``key`` in the words of ``tournament``'s entries: as it is where organisers approve
    each application, its ``_entered`` twin where registering enters the player (nobody
    approved anything)."""
    return f"{key}_entered" if key in APPROVED_WORDED and not tournament.needs_approval \
        else key


def minimum_players(tournament: Tournament) -> int:
    rule = game_of(tournament.game).min_players
    return max(MIN_PLAYERS, rule(tournament.settings) if rule else MIN_PLAYERS)


def called_off(tr: Translator, tournament: Tournament) -> str | None:
    """What every command, link and button of a cancelled tournament answers (``/cancel``);
    None for any other."""
    if tournament.status != "cancelled":
        return None
    return tr("tournament.cancelled", title=tournament.title, id=tournament.id)


def note_for(tr: Translator, tournament: Tournament) -> str | None:
    note = game_of(tournament.game).setup_note
    return note(tr, tournament.settings) if note else None


def checkin_reply(services: Services, tr: Translator, tournament: Tournament,
                  scheduled: Scheduled) -> tuple[str | None, InlineKeyboardMarkup | None]:
    """What a start (or check-in) just set says of check-in: that it opened now (with the
    Check-in button), that switched off once open its check-ins no longer count, when it
    opens, or that it stays open."""
    if scheduled.checkin_now:
        return tr("checkin.open_with_reminder"), checkin_keyboard(tr, tournament)
    if scheduled.checkin_closed:
        return tr("checkin.closed"), None
    if opens := checkin_opens(services, tr, tournament):
        return tr("schedule.checkin_opens", time=opens), None
    return (tr("schedule.checkin_stays_open") if CHECKIN_OPENED in tournament.state
            else None), None


@dataclass(frozen=True)
class Scheduled:
    """What :func:`schedule_start` set: the reminder leads, whether check-in opened at
    once (the start falls inside its window: the caller's answer says so, no check-in
    job), and
    whether check-in that had opened was switched off (its check-ins dropped)."""

    leads: list[int]
    checkin_now: bool
    checkin_closed: bool = False


async def schedule_start(services: Services, tournament: Tournament) -> Scheduled:
    """(Re)create the reminders, the check-in opening (unless it opened already; at once,
    in this transaction, when its time is not ahead) and the start."""
    scheduler = services.scheduler
    await scheduler.cancel(tournament.id, START_JOBS)
    now, start = services.clock.now(), tournament.starts_at
    leads = [m for m in services.settings.reminders if start - timedelta(minutes=m) > now]
    closed = await _switched_off(services, tournament)
    checkin = 0 if CHECKIN_OPENED in tournament.state else tournament.settings.get("checkin", 0)
    for minutes in leads:
        if minutes != checkin:  # that reminder is said by the check-in's opening
            await scheduler.add("reminder", start - timedelta(minutes=minutes), tournament.id,
                                minutes=minutes)
    opens_now = bool(checkin) and start - timedelta(minutes=checkin) <= now
    if opens_now:
        await services.repos.tournaments.set_state(tournament.id, CHECKIN_OPENED, to_db(now))
    elif checkin:
        reminder = {"minutes": checkin} if checkin in leads else {}
        await scheduler.add("checkin", start - timedelta(minutes=checkin), tournament.id,
                            **reminder)
    await scheduler.add("start", start, tournament.id)
    return Scheduled(leads, opens_now, closed)


async def _switched_off(services: Services, tournament: Tournament) -> bool:
    """Whether check-in that had opened is now off: then it forgets that it had opened and
    its check-ins, so switched on again it opens anew and everyone checks in again."""
    if CHECKIN_OPENED not in tournament.state or tournament.settings.get("checkin", 0):
        return False
    await services.repos.tournaments.clear_state(tournament.id, CHECKIN_OPENED)
    entrants = await services.repos.entrants.list(tournament.id)
    await services.repos.entrants.update_many(
        tournament.id, {e.user_id: {"checked_in": 0} for e in entrants if e.checked_in},
        services.clock.now())
    return True


def checkin_moved(tournament: Tournament, settings: dict, now: datetime) -> bool:
    """Whether new ``settings`` change a scheduled start's check-in opening (then
    :func:`schedule_start` again): check-in switched on or off, or its minutes changed
    before it opened (once open, it stays open: no second opening)."""
    before, after = tournament.settings.get("checkin", 0), settings.get("checkin", 0)
    if tournament.starts_at is None or tournament.started or before == after:
        return False
    return not before or not after or now < tournament.starts_at - timedelta(minutes=before)


_job_kinds: Registry[JobRunner] = Registry()
job_kind = _job_kinds.register  # the platform's own jobs; games declare theirs (Game.jobs)
job_kind(RESULT_OWED)(result_owed)
job_kind(BOARD_OWED)(board_owed)
job_kind(SAID_JOB)(said_owed)


async def run_job(services: Services, job: Job) -> None:
    runner = _job_kinds.get(job.kind) or job_runner(job.kind)
    await runner(services, job)


async def not_started(services: Services, job: Job) -> tuple[Tournament, Translator] | None:
    """The job's tournament while it still waits for its start (else the job is moot)."""
    tournament = await services.repos.tournaments.get(job.tournament_id)
    if tournament is None or tournament.started or tournament.status == "cancelled":
        return None
    return tournament, await services.translator_for_chat(tournament.chat_id)


def answer_where_asked(services: Services, chat_id: int,
                       job: Job) -> Callable[..., Awaitable[Message]]:
    """How a job held in a command's stead answers the command after a stop: in ``chat_id``,
    in the forum topic it was typed in (``thread`` in the job's payload, ``topic_of`` the
    command), as the command's own ``message.answer`` would have."""
    return partial(services.bot.send_message, chat_id,
                   message_thread_id=job.payload.get("thread"))


async def tell_each_owed(services: Services, job: Job, key: str,
                         tell: Callable[[int], Awaitable[object]]) -> None:
    """Tell each user of a held ``job``'s ``key`` list (each tried, whatever another's
    private message meets); those Telegram did not take are noted as the list still owed,
    for the job's retry, which so tells nobody twice, and the first failure is raised."""
    owed = job.payload[key]
    told = await settled(*map(tell, owed))
    if failed := [user_id for user_id, result in zip(owed, told, strict=True)
                  if isinstance(result, Exception)]:
        await services.repos.jobs.note(job.id, **{key: failed})
    raise_failure(told)


@job_kind("start")
async def _start_job(services: Services, job: Job) -> None:
    if await not_started(services, job):
        await start_tournament(services, job.tournament_id, actor_id=None)


@dataclass(frozen=True)
class NotStarted:
    """Why a tournament cannot start, in the group's words, and the buttons that help (the
    Check-in button when entrants have not checked in)."""

    text: str
    markup: InlineKeyboardMarkup | None = None


async def start_tournament(services: Services, tournament_id: int, actor_id: int | None,
                           question: tuple[int, int] | None = None) -> NotStarted | None:
    """Start now. Returns None when started, or why it cannot start (said in the group by
    the bot itself when the start is its own, at the scheduled time).

    The roster, the status, the cancelled countdown and the "opening" job are committed
    together before anything is said (a bot that dies right after runs the opening at its
    next start); the announcement and the game's first matches are that job, run at once
    and retried like any job when a send fails (see :func:`_opening_job`), and so is the
    edit of ``question`` (chat id, message id: the ``/begin`` question whose press started
    it) into what was done.
    """
    async with services.lock(f"tournament-{tournament_id}"):
        repos, now = services.repos, services.clock.now()
        tournament = await repos.tournaments.get(tournament_id)  # never deleted
        tr = await services.translator_for_chat(tournament.chat_id)
        if said := called_off(tr, tournament):
            return NotStarted(said)
        if tournament.started:
            return NotStarted(tr("begin.already_started"))
        approved = await repos.entrants.list(tournament.id, ("approved",))
        checkin = bool(tournament.settings.get("checkin"))
        players = [e for e in approved if e.checked_in or not checkin]
        waiting = await repos.entrants.list(tournament.id, ("pending", *UNFINISHED))
        pending = pending_applications(waiting)
        if len(players) < minimum_players(tournament):
            problem = _too_few(tr, tournament, approved, players, waiting,
                               at_time=actor_id is None,
                               opens=checkin_opens_said(services, tr, tournament))
            if actor_id is None:
                await services.bot.send_message(tournament.chat_id, problem.text,
                                                reply_markup=problem.markup)
            return problem
        async with services.db.together():
            await repos.entrants.update_many(tournament.id, {
                **{entrant.user_id: {"status": "noshow"} for entrant in approved
                   if entrant not in players},
                **{entrant.user_id: {"status": "lapsed"} for entrant in pending},
                **{entrant.user_id: {"seed": seed}
                   for seed, entrant in enumerate(players, start=1)},
            }, now)
            await repos.tournaments.set_status(tournament.id, "running", now)
            await services.scheduler.cancel(tournament.id, START_JOBS)
            if actor_id is not None:
                await repos.organiser_log.record(actor_id, "begin", now,
                                                 tournament_id=tournament.id,
                                                 chat_id=tournament.chat_id)
            opening = await repos.jobs.add("opening", now, tournament.id, question=question)
    await services.scheduler.run(opening.id)
    return None


def _too_few(tr: Translator, tournament: Tournament, approved: list[Entrant],
             players: list[Entrant], waiting: list[Entrant], *, at_time: bool,
             opens: str | None) -> NotStarted:
    """Too few players to start: too few entrants (none at all, at the start time, is said
    so), or too few of them checked in (those who have not are named, so the organiser knows
    whom to wait for, and the Check-in button goes with it — or, before a scheduled
    check-in has opened (``opens``), when it opens and how to start without it); of the
    entrants still ``waiting``, applications nobody has approved yet are named (an organiser
    who forgot them sees why the list is short), and registration forms never finished, by
    the step still to do (the reminders' lines)."""
    absent = [entrant.label for entrant in approved if entrant not in players]
    if absent:
        key = "begin.too_few_checked_in" if players else "begin.none_checked_in"
    else:
        key = "begin.too_few"
    if at_time:
        key = "begin.none_at_time" if not approved else key + "_at_time"
    problem = tr(counted_as(tournament, key), title=tournament.title, count=len(players),
                 min=minimum_players(tournament), names=", ".join(absent))
    unapproved = applications_waiting(tr, pending_applications(waiting))
    unfinished = unfinished_forms(tr, waiting)
    if absent and opens:
        without = settings_line(tr, game_of(tournament.game).all_parsers(), {"checkin": 0})
        return NotStarted(lines(problem, tr("begin.checkin_not_open", time=opens,
                                            setting=without), unapproved, unfinished))
    return NotStarted(lines(problem, unapproved, unfinished),
                      checkin_keyboard(tr, tournament) if absent else None)


def pending_applications(entrants: list[Entrant]) -> list[Entrant]:
    """The applications among ``entrants`` that wait for an organiser's decision."""
    return [entrant for entrant in entrants if entrant.status == "pending"]


def unfinished_forms(tr: Translator, entrants: list[Entrant]) -> str | None:
    """The lines naming those who began the registration form and never sent it (they are
    not entered, and may think they are), by the step each is at, with what is still to do
    (the name, then the screenshot), if any."""
    return lines(*(_unfinished_at(tr, entrants, step) for step in UNFINISHED)) or None


def _unfinished_at(tr: Translator, entrants: list[Entrant], step: str) -> str | None:
    names = [entrant.label for entrant in entrants if entrant.status == step]
    return tr(f"registration.unfinished_{step}", names=", ".join(names)) if names else None


def applications_waiting(tr: Translator, pending: list[Entrant]) -> str | None:
    """The line naming the applications that wait for an organiser's decision, if any."""
    return tr("begin.applications_waiting", count=len(pending),
              names=", ".join(entrant.label for entrant in pending)) if pending else None


async def rights_problem(services: Services, chat_id: int, tr: Translator,
                         tournament: Tournament | None = None) -> str | None:
    """What the organiser must fix so the bot sees the plain messages the group's players
    type: what ``tournament``'s game needs (its typed moves, 🎲), else the general text."""
    me = await services.bot.get_me()  # fresh: privacy mode may have changed since start-up
    member = await services.bot.get_chat_member(chat_id, me.id)
    if member.status == "administrator" or me.can_read_all_group_messages:
        return None
    return tr("new.rights_warning", bot=services.bot_username,
              unseen=tr(_unseen(tournament)))


def _unseen(tournament: Tournament | None) -> str:
    """The catalog key of what the bot cannot see in privacy mode of ``tournament``'s play."""
    if tournament is None:
        return "new.rights_unseen"
    game = game_of(tournament.game)
    return game.unseen.get(game.kind_of(tournament.settings), "new.rights_unseen")


@job_kind("opening")
async def _opening_job(services: Services, job: Job) -> None:
    """Announce the start and let the game create its first matches, in one message.

    The announcement (who plays, and what the organiser must still fix for the bot to see
    the players' dice and words: privacy mode on and the bot no administrator; with
    ``topics=on``, what the matches need to get topics of their own) heads the game's
    first round; the message that says it notes it in the job (``announced``), so a
    retry (after a failed send) or a resume (after the group was lost) goes on where it
    stopped. The game's starter is run again then: it creates nothing twice, and announces
    a first round it created before the stop (see :attr:`bot.games.Game.start`).
    """
    async with services.lock(f"tournament-{job.tournament_id}"):
        repos = services.repos
        tournament = await repos.tournaments.get(job.tournament_id)
        if tournament is None or tournament.status != "running":
            return
        tr = await services.translator_for_chat(tournament.chat_id)
        entrants = await repos.entrants.list(tournament.id)
        players = [e for e in entrants if e.status == "approved"]
        lapsed = [e for e in entrants if e.status == "lapsed"]
        if lapsed and not job.payload.get("lapsed"):
            await _tell_lapsed(services, tournament, lapsed)
            await repos.jobs.note(job.id, lapsed=True)
        head = "" if job.payload.get("announced") else lines(
            _started(tr, tournament, entrants),
            await rights_problem(services, tournament.chat_id, tr, tournament),
            await topics_problem(services, tr, tournament))
        opening = Opening(head, partial(repos.jobs.note, job.id, announced=True))
        if starter := game_of(tournament.game).start:
            await starter(services, tournament, players, opening)
        elif head:
            await services.bot.send_message(tournament.chat_id, head)
            await opening.said()
        await repos.jobs.note(job.id, opened=True)
        if question := job.payload.get("question"):
            await _question_answered(services, tournament, question, left_out=bool(lapsed))


async def _question_answered(services: Services, tournament: Tournament, question: list[int],
                             *, left_out: bool) -> None:
    """The ``/begin`` question whose press started the tournament (``begin.BeginAnyway``)
    edited into what was done, after the announcement, as the press would: one group
    message for the exchange, also when the bot stopped right after the start's write."""
    chat_id, message_id = question
    tr = await services.translator_for_chat(chat_id)
    await services.outbox.board(chat_id, message_id, tr(
        "begin.started_anyway" if left_out else "begin.started_all", title=tournament.title))


def _started(tr: Translator, tournament: Tournament, entrants: list[Entrant]) -> str:
    """The start's announcement: who plays, by seed, who did not check in, and whose
    application nobody approved in time (they are told in private too)."""
    players = sorted((e for e in entrants if e.status == "approved"), key=lambda e: e.seed)
    lines = [tr("begin.started", title=tournament.title, count=len(players),
                roster="\n".join(f"{e.seed}. {e.label}" for e in players))]
    if no_shows := [e.label for e in entrants if e.status == "noshow"]:
        lines.append(tr("begin.no_shows", names=", ".join(no_shows)))
    if lapsed := [e.label for e in entrants if e.status == "lapsed"]:
        lines.append(tr("begin.lapsed", names=", ".join(lapsed)))
    if unfinished := [e.label for e in entrants if e.status in UNFINISHED]:
        lines.append(tr("begin.unfinished", names=", ".join(unfinished)))
    return "\n".join(lines)


async def _tell_lapsed(services: Services, tournament: Tournament,
                       lapsed: list[Entrant]) -> None:
    """Applications nobody approved before the start are out: each applicant reads it in a
    DM (when the bot may write to them); the group, in the start's announcement. A DM
    Telegram does not take (out of reach through the sending layer's retries) is logged and
    not tried again: the start does not wait for it, and the others are told all the
    same."""
    async def tell(entrant: Entrant) -> None:
        user_tr = await services.translator_for_chat(entrant.user_id)
        await services.outbox.dm(entrant.user_id,
                                 user_tr("registration.lapsed_dm", title=tournament.title))

    await each_logged("lapsed application's notice to",
                      {entrant.user_id: tell(entrant) for entrant in lapsed})


async def revive_opening(services: Services, tournament_id: int) -> int | None:
    """Make the tournament's opening pending again if it stopped before the end (its group
    was lost and is back now); the job's id, for the caller to run once the transaction it
    is written in has committed (None when there is nothing to open)."""
    job = await services.repos.jobs.last_of(tournament_id, "opening")
    if job is None or job.payload.get("opened"):
        return None
    return job.id if await services.repos.jobs.revive(job.id, services.clock.now()) else None
