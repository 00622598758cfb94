"""Starting a tournament (by /begin or by the scheduled job) and the jobs around the start.

Once the roster is fixed the game's starter (``bot.games.Game.start``) creates the first
matches. Starting is idempotent, so a job repeated after a crash starts nothing
twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta, tzinfo
from functools import partial

from aiogram.types import InlineKeyboardMarkup

from bot.features.keyboards import checkin_keyboard, register_keyboard, stacked
from bot.game_settings import settings_line
from bot.games import JobRunner, Opening, game_of, job_runner
from bot.i18n import Translator, lines, paragraphs
from bot.play.topics import topics_problem
from bot.registry import Registry
from bot.services import Services
from bot.timeparse import parse_zone, zone_name
from storage.repositories.jobs import Job
from storage.repositories.tournaments import UNFINISHED, Entrant, Tournament
from storage.timefmt import from_db, to_db

START_JOBS = ("reminder", "checkin", "start")
CHECKIN_OPENED = "checkin_opened"
"""The tournament's state key of the moment its check-in opened: a start moved later
keeps it open (no second opening)."""
CHECKIN_STATUS = "checkin_status"
"""The tournament's state key of its check-in status: the newest reminder message counting
check-ins it is in — its id and the reminders it joins (``[tournament id, minutes, start]``
each) — redrawn in place at each check-in, change of the entrants, registration closed or
reopened and change of the settings (:func:`redraw_checkin_status`), after a restart too."""
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


def local_time(services: Services, tournament: Tournament, at: datetime | None = None) -> str:
    """``at`` (default: the start) as the tournament's zone shows it."""
    return (at or tournament.starts_at).astimezone(zone_of(services, tournament)).strftime(
        "%d.%m.%Y %H:%M")


def said_time(services: Services, tr: Translator, tournament: Tournament,
              at: datetime | None = None) -> str:
    """:func:`local_time`, naming the tournament's zone when it is not the one the chat reads
    a time without a zone in (``01.10.2026 20:00, Europe/London`` in a Russian group)."""
    zone = zone_name(zone_of(services, tournament, tr.language))
    time = local_time(services, tournament, at)
    if zone == zone_name(default_zone(services, tr.language)):
        return time
    return tr("time.zoned", time=time, zone=zone)


def _checkin_opening(tournament: Tournament) -> datetime | None:
    """When a scheduled start's check-in opens, or opened (None: no check-in, or no start
    set)."""
    minutes = tournament.settings.get("checkin", 0)
    if not minutes or tournament.starts_at is None:
        return None
    return (from_db(tournament.state.get(CHECKIN_OPENED))
            or tournament.starts_at - timedelta(minutes=minutes))


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


def checkin_ahead(services: Services, tournament: Tournament) -> datetime | None:
    """When a scheduled start's check-in opens, while that is still ahead."""
    opens = _checkin_opening(tournament)
    return None if opens is None or opens <= services.clock.now() else opens


def checkin_opens(services: Services, tr: Translator, tournament: Tournament) -> str | None:
    """:func:`checkin_ahead` as the chat reads it (:func:`said_time`)."""
    opens = checkin_ahead(services, tournament)
    return None if opens is None else said_time(services, tr, tournament, opens)


def checkin_open(services: Services, tournament: Tournament) -> bool:
    """Whether check-in is open now: on, and its start's opening has come (with no start
    set it is not: it opens with a start, its minutes before it)."""
    opens = _checkin_opening(tournament)
    return opens is not None and opens <= services.clock.now()


def _opens_with_start(tr: Translator, tournament: Tournament) -> str | None:
    """With check-in on and no start set, when it opens, in words: its minutes before the
    start, once one is set."""
    minutes = tournament.settings.get("checkin", 0)
    if not minutes or tournament.starts_at is not None:
        return None
    return tr("checkin.opens_unscheduled", left=duration(tr, minutes))


def checkin_opens_said(services: Services, tr: Translator, tournament: Tournament
                       ) -> str | None:
    """When check-in opens, while that is still ahead, in words: the time a scheduled
    start's opens, or, with no start set, its minutes before a start once one is set."""
    return _opens_with_start(tr, tournament) or checkin_opens(services, tr, tournament)


def checkin_waits_start(tr: Translator, tournament: Tournament) -> str | None:
    """What settings switching check-in on (or changing its minutes) with no start set
    say: it opens once a start is set, its minutes before it."""
    opens = _opens_with_start(tr, tournament)
    return tr("schedule.checkin_opens", time=opens) if opens else None


def with_checkin(services: Services, tr: Translator, tournament: Tournament,
                 said: str) -> tuple[str, InlineKeyboardMarkup | None]:
    """``said`` to an entrant just taken in (added, approved, registered): once check-in
    has opened, and the tournament has not started, with the line that they still have to
    check in and the Check-in button."""
    if not checkin_open(services, tournament) or tournament.started:
        return said, None
    return lines(said, tr("checkin.now_open")), checkin_keyboard(tr, tournament)


LANGUAGE_ZONES = {"fi": "Europe/Helsinki"}
"""The zone of a chat language spoken in one: a Finnish group's tournament is timed in
Helsinki until /schedule names another zone (elsewhere the bot's ``TIMEZONE``)."""


def zone_of(services: Services, tournament: Tournament, language: str = "") -> tzinfo:
    """The tournament's time zone: the one its start was scheduled in (or, before that, the
    one its group's last tournament had), else :func:`default_zone`."""
    return parse_zone(tournament.timezone) if tournament.timezone \
        else default_zone(services, language)


def default_zone(services: Services, language: str) -> tzinfo:
    """The zone a chat of ``language`` reads a time without a zone in: its language's
    (:data:`LANGUAGE_ZONES`), else the bot's."""
    return parse_zone(LANGUAGE_ZONES.get(language) or services.settings.timezone)


def duration(tr: Translator, minutes: int) -> str:
    """``2 hours`` when whole hours, else ``90 minutes``."""
    hours, rest = divmod(minutes, 60)
    return tr("time.hours", n=hours) if hours and not rest else tr("time.minutes", n=minutes)


@dataclass(frozen=True)
class Scheduled:
    """What :func:`schedule_start` set: the reminder leads, whether check-in opened at
    once (the start falls inside its window: the caller's reply says so, no job does), and
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


async def run_job(services: Services, job: Job) -> None:
    runner = _job_kinds.get(job.kind) or job_runner(job.kind)
    await runner(services, job)


async def _not_started(services: Services, job: Job) -> tuple[Tournament, Translator] | None:
    """The job's tournament while it still waits for its start (else the job is moot)."""
    tournament = await services.repos.tournaments.get(job.tournament_id)
    if tournament is None or tournament.started or tournament.status == "cancelled":
        return None
    return tournament, await services.translator_for_chat(tournament.chat_id)


NOTICES = ("reminder", "checkin")
"""The jobs that tell a group of a coming start: those of its tournaments due together are
said in one message."""


@job_kind(*NOTICES)
async def _notice_job(services: Services, job: Job) -> None:
    """A reminder or the opening of check-in, joined by the chat's other tournaments' due
    with it (within :data:`bot.scheduler.TOGETHER`): one message, a paragraph each, each
    one's buttons naming its tournament (several check-in openings say how to check in once,
    after them); a message of reminders only that counts check-ins is each one's check-in
    status."""
    if not (found := await _not_started(services, job)):
        return
    tournament, tr = found
    due = [(tournament, job)]
    for other in await services.scheduler.take_due(job, chat_id=tournament.chat_id,
                                                   kinds=NOTICES):
        if more := await _not_started(services, other):
            due.append((more[0], other))
    brief = sum(one.kind == "checkin" for _, one in due) > 1
    said = [await _notice(services, tr, each, one, named=len(due) > 1, brief=brief)
            for each, one in due]
    text, markup = _joined(said)
    message_id = await services.outbox.board(
        tournament.chat_id, None, paragraphs(text, tr("checkin.open_hint") if brief else None),
        markup)
    reminders = [(each, one.payload["minutes"]) for each, one in due if one.kind == "reminder"]
    if len(reminders) == len(due) and any(_counts_checkins(services, each, minutes)
                                          for each, minutes in reminders):
        status = {"message_id": message_id, "shows": [
            [each.id, minutes, to_db(each.starts_at)] for each, minutes in reminders]}
        for each, _ in reminders:
            await services.repos.tournaments.set_state(each.id, CHECKIN_STATUS, status)


async def _reminders(services: Services, tr: Translator,
                     reminders: list[tuple[Tournament, int]]
                     ) -> tuple[str, InlineKeyboardMarkup | None]:
    """One message of the chat's reminders (each a tournament and its minutes before the
    start): a paragraph each, several naming their tournament on their buttons."""
    return _joined([await _reminder(services, tr, each, minutes, named=len(reminders) > 1)
                    for each, minutes in reminders])


def _joined(said: list[tuple[str, InlineKeyboardMarkup | None]]
            ) -> tuple[str, InlineKeyboardMarkup | None]:
    """Notices as one message: their texts a paragraph each, their buttons stacked."""
    markups = [markup for _, markup in said if markup is not None]
    return paragraphs(*(text for text, _ in said)), stacked(*markups) if markups else None


async def redraw_checkin_status(services: Services, *tournaments: Tournament) -> None:
    """Redraw in place the check-in status (:data:`CHECKIN_STATUS`) of ``tournaments``
    whose check-ins, entrants, registration or settings changed: each message once, whole
    (its Register button follows registration and the entry limit) — every reminder it
    joins whose tournament still waits for the start it was sent for; with none left (all
    called off or moved), its buttons are taken off."""
    statuses = {status["message_id"]: (tournament.chat_id, status) for tournament in tournaments
                if (status := tournament.state.get(CHECKIN_STATUS))}
    for message_id, (chat_id, status) in statuses.items():
        reminders = []
        for tournament_id, minutes, start in status["shows"]:
            tournament = await services.repos.tournaments.get(tournament_id)
            if _waits_for(tournament, from_db(start)):
                reminders.append((tournament, minutes))
        if not reminders:
            await services.outbox.drop_buttons(chat_id, message_id)
            continue
        text, markup = await _reminders(
            services, await services.translator_for_chat(chat_id), reminders)
        await services.outbox.board(chat_id, message_id, text, markup, resend=False)


def _waits_for(tournament: Tournament | None, start: datetime | None) -> bool:
    """Whether ``tournament`` still waits for ``start``: not started, cancelled or moved."""
    return (tournament is not None and not tournament.started
            and tournament.status != "cancelled" and tournament.starts_at == start)


async def _notice(services: Services, tr: Translator, tournament: Tournament, job: Job,
                  named: bool, brief: bool) -> tuple[str, InlineKeyboardMarkup | None]:
    """What the notice ``job`` says of ``tournament``, and its buttons (``brief``: see
    :func:`_open_checkin`)."""
    if job.kind == "reminder":
        return await _reminder(services, tr, tournament, job.payload["minutes"], named)
    return await _open_checkin(services, tr, tournament, job.payload.get("minutes"), named,
                               brief)


async def _open_checkin(services: Services, tr: Translator, tournament: Tournament,
                        minutes: int | None, named: bool, brief: bool
                        ) -> tuple[str, InlineKeyboardMarkup | None]:
    """Open check-in; when a reminder falls at the same time (``minutes``), it heads the
    text, and the Register button joins the Check-in one while registration is open.
    ``brief``: one opening of several in a message, which says how to check in once."""
    await services.repos.tournaments.set_state(tournament.id, CHECKIN_OPENED,
                                               to_db(services.clock.now()))
    markup = checkin_keyboard(tr, tournament, named)
    suffix = "_brief" if brief else ""
    if minutes is None:
        return tr(f"checkin.open{suffix}", title=tournament.title,
                  time=said_time(services, tr, tournament)), markup
    reminder, register = await _reminder(services, tr, tournament, minutes, named)
    return lines(reminder, tr(f"checkin.open_with_reminder{suffix}")), stacked(register, markup)


@job_kind("start")
async def _start_job(services: Services, job: Job) -> None:
    if await _not_started(services, job):
        await start_tournament(services, job.tournament_id, actor_id=None)


async def _reminder(services: Services, tr: Translator, tournament: Tournament,
                    minutes: int, named: bool = False
                    ) -> tuple[str, InlineKeyboardMarkup | None]:
    """The reminder ``minutes`` before the start, and its Register button while registration
    is open and places are left; when check-in opens, or once it is open, how many have
    checked in (with the Check-in button); the last reminder names the applications still
    waiting. ``named``: the buttons name the tournament (one message of several)."""
    approved = await services.repos.entrants.list(tournament.id, ("approved",))
    markup = register_keyboard(services, tr, tournament, named) \
        if tournament.registration_open and not tournament.full_with(len(approved)) else None
    text = tr(counted_as(tournament, "reminder.text"), title=tournament.title,
              left=duration(tr, minutes), time=said_time(services, tr, tournament),
              count=len(approved))
    if opens := checkin_opens(services, tr, tournament):
        text += "\n" + tr("schedule.checkin_opens", time=opens)
    elif _counts_checkins(services, tournament, minutes):
        text += "\n" + tr("reminder.checked_in", total=len(approved),
                          count=sum(entrant.checked_in for entrant in approved))
        markup = stacked(markup, checkin_keyboard(tr, tournament, named))
    if minutes == min(services.settings.reminders):  # the last reminder
        waiting = await services.repos.entrants.list(tournament.id, ("pending", *UNFINISHED))
        if pending := _pending(waiting):
            text += "\n" + tr("reminder.pending", names=", ".join(e.label for e in pending))
        text = lines(text, unfinished_forms(tr, waiting))
    return text, markup


def _counts_checkins(services: Services, tournament: Tournament, minutes: int) -> bool:
    """Whether the reminder ``minutes`` before the start says how many have checked in:
    check-in opened before it."""
    checkin = tournament.settings.get("checkin", 0)
    return bool(checkin) and checkin_ahead(services, tournament) is None and (
        minutes < checkin or CHECKIN_OPENED in tournament.state)


@dataclass(frozen=True)
class NotStarted:
    """Why a tournament cannot start, in the group's words, and the buttons that help (the
    Check-in button when entrants have not checked in)."""

    text: str
    markup: InlineKeyboardMarkup | None = None


async def start_tournament(services: Services, tournament_id: int,
                           actor_id: int | None) -> NotStarted | None:
    """Start now. Returns None when started, or why it cannot start (said in the group by
    the bot itself when the start is its own, at the scheduled time).

    The roster, the status, the cancelled countdown and the "opening" job are committed
    together before anything is said (a bot that dies right after runs the opening at its
    next start); the announcement and the game's first matches are that job, run at once
    and retried like any job when a send fails (see :func:`_opening_job`).
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
        pending = _pending(waiting)
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
            opening = await repos.jobs.add("opening", now, tournament.id)
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
    unapproved = applications_waiting(tr, _pending(waiting))
    unfinished = unfinished_forms(tr, waiting)
    if absent and opens:
        without = settings_line(tr, game_of(tournament.game).all_parsers(), {"checkin": 0})
        return NotStarted(lines(problem, tr("begin.checkin_not_open", time=opens,
                                            setting=without), unapproved, unfinished))
    return NotStarted(lines(problem, unapproved, unfinished),
                      checkin_keyboard(tr, tournament) if absent else None)


def _pending(entrants: list[Entrant]) -> list[Entrant]:
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
    DM (when the bot may write to them); the group, in the start's announcement."""
    for entrant in lapsed:
        user_tr = await services.translator_for_chat(entrant.user_id)
        await services.outbox.dm(entrant.user_id,
                                 user_tr("registration.lapsed_dm", title=tournament.title))


async def revive_opening(services: Services, tournament_id: int) -> int | None:
    """Make the tournament's opening pending again if it stopped before the end (its group
    was lost and is back now); the job's id, for the caller to run once the transaction it
    is written in has committed (None when there is nothing to open)."""
    job = await services.repos.jobs.last_of(tournament_id, "opening")
    if job is None or job.payload.get("opened"):
        return None
    return job.id if await services.repos.jobs.revive(job.id, services.clock.now()) else None
