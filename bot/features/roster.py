"""The entrants list: organisers' /add and /remove, players' /withdraw and /checkin, and
/players for everyone."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace

from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, Message

from bot.features.access import Target, Targeted, id_named
from bot.features.applications import close_application
from bot.features.checkin import checkin_open, checkin_opens_said, with_checkin
from bot.features.handlers import Handlers
from bot.features.keyboards import CheckIn
from bot.features.lifecycle import (
    answer_where_asked,
    called_off,
    counted_as,
    job_kind,
    not_started,
    unfinished_forms,
)
from bot.features.notices import redraw_checkin_status
from bot.features.registration import MAX_FREE_NAME, valid_name
from bot.games import game_of
from bot.i18n import Markup, Translator, clip, lines
from bot.middlewares.filters import topic_of
from bot.sending import at_once, raise_failure, settled
from bot.services import Services
from storage.repositories.jobs import Job
from storage.repositories.tournaments import ACTIVE_ENTRANT, UNFINISHED, Entrant, Tournament
from storage.repositories.users import User

router = Handlers("roster")


async def _person(services: Services, message: Message, words: list[str]
                  ) -> tuple[User | None, list[str], str | None]:
    """The user an organiser means: the replied-to author, else an @username word. With
    nobody found, also the catalog key saying why: an @username the bot has never seen, a
    first word without the @, or (None) no word at all."""
    reply = message.reply_to_message
    if reply and reply.from_user and not reply.from_user.is_bot:
        return await services.repos.users.get(reply.from_user.id), words, None
    if not words:
        return None, words, None
    if not words[0].startswith("@"):
        return None, words, "roster.no_at"
    user = await services.repos.users.by_username(words[0])
    return user, words[1:], None if user else "roster.unknown_user"


async def _nobody(message: Message, services: Services, tr: Translator, command: str,
                  words: list[str], problem: str | None) -> None:
    """Say why the command names no known user, and what to do instead."""
    if problem is None:
        await message.answer(tr(f"{command}.usage"))
        return
    await message.answer(tr(problem, word=clip(words[0]), command=command,
                            bot=services.bot_username))


@router.message(Command("add", "remove"), Targeted(organiser=True))
async def add_or_remove(message: Message, command: CommandObject, services: Services,
                        tr: Translator, target: Target) -> None:
    user, words, problem = await _person(services, message, target.words)
    if user is None:
        await _nobody(message, services, tr, command.command, target.words, problem)
        return
    tournament = target.tournament
    if tournament.started:
        await message.answer(tr("registration.already_started"))
        return
    if command.command == "remove":
        await _remove(services, tr, message, tournament, user)
        return
    await _add(services, tr, message, tournament, user, " ".join(words))


ADDED_JOB = "entrant_added"
"""Written with an organiser's /add: the group's line that mentions the player (their notice
that they are in), held in its stead, so a bot that stops or cannot reach Telegram right
after the write still says it."""
REMOVED_JOB = "entrant_removed"
"""Written with a removal: the removed player told (in private, else mentioned in the group)
and an application's card closed, the job held in their stead, so a bot that stops or
cannot reach Telegram right after the write still tells them (else they never heard, and
the organiser's second /remove found nobody to remove)."""


async def _remove(services: Services, tr: Translator, message: Message, tournament: Tournament,
                  user: User) -> None:
    """Take the entrant off the list and tell them (:func:`_tell_removed`)."""
    entry = await services.repos.entrants.get(tournament.id, user.id)
    if entry is None or entry.status not in ACTIVE_ENTRANT:
        await message.answer(tr("remove.not_entered", user=user.mention))
        return
    now = services.clock.now()
    async with services.db.together():
        await services.repos.entrants.update(tournament.id, user.id, now, status="removed")
        await services.repos.organiser_log.record(
            message.from_user.id, "remove", now, tournament_id=tournament.id,
            chat_id=message.chat.id, user_id=user.id)
        told = await services.repos.jobs.add(REMOVED_JOB, now, tournament.id, user_id=user.id,
                                             was=entry.status, thread=topic_of(message))
    await services.scheduler.stand_in(told, _tell_removed(services, tr, tournament, entry, user,
                                                          told, message.answer))


async def _tell_removed(services: Services, tr: Translator, tournament: Tournament,
                        entry: Entrant, user: User, held: Job,
                        answer: Callable[[str], Awaitable[object]]) -> None:
    """Tell a player removed (``entry`` as it was) in private when the bot can write to
    them, else ``answer`` the group with a line that mentions them (also when Telegram was
    out of reach for the private message: the group is told and the card closed all the
    same, then the failure is raised; the ``held`` job's retry tells them in private, and
    names them in the group only if it was not said yet)."""
    user_tr = await services.translator_for_chat(user.id)
    [told] = await settled(services.outbox.dm(user.id, user_tr("remove.dm",
                                                                title=tournament.title)))
    reached = told is not None and not isinstance(told, BaseException)
    key = "remove.done" if reached else "remove.done_mention"
    said = tr(key, name=entry.label, user=user.mention, title=tournament.title)
    # a waiting application's card says it; not told in private, they are also mentioned
    # in a message of its own (an edit notifies nobody)
    closed = await close_application(services, tournament, entry, said)
    if not held.payload.get("named") and (not closed or not reached):
        await answer(said)
        if isinstance(told, Exception):  # named: the retry only tries the private message
            await services.repos.jobs.note(held.id, named=True)
    await redraw_checkin_status(services, tournament)
    raise_failure([told])


@job_kind(REMOVED_JOB)
async def _removal_owed(services: Services, job: Job) -> None:
    """:data:`REMOVED_JOB`, left by a bot that stopped (or could not reach Telegram) after
    writing a removal: the player told, while the tournament waits for its start and they
    stay removed; the group's line goes where the /remove was typed."""
    if (waiting := await not_started(services, job)) is None:
        return
    (tournament, tr), user_id = waiting, job.payload["user_id"]
    entry = await services.repos.entrants.get(tournament.id, user_id)
    user = await services.repos.users.get(user_id)
    if entry is None or entry.status != "removed" or user is None:
        return
    await _tell_removed(services, tr, tournament, replace(entry, status=job.payload["was"]), user,
                        job, answer_where_asked(services, tournament.chat_id, job))


async def _add(services: Services, tr: Translator, message: Message, tournament: Tournament,
               user, name: str) -> None:
    entry = await services.repos.entrants.get(tournament.id, user.id)
    if entry and entry.status == "approved":
        await message.answer(tr("add.already", user=user.mention))
        return
    needs_form = game_of(tournament.game).needs_name_and_photo
    if needs_form and not name:
        await message.answer(tr("add.name_needed", user=user.mention))
        return
    if needs_form and not valid_name(name):
        await message.answer(tr("registration.bad_name", name=clip(name)))
        return
    name = (name or user.first_name)[:MAX_FREE_NAME]
    if await services.repos.entrants.name_taken(tournament.id, name, user.id):
        await message.answer(tr("registration.name_taken", name=name))
        return
    if tournament.full_with(await services.repos.entrants.count(tournament.id, ("approved",))):
        await message.answer(tr("registration.full", title=tournament.title,
                                max=tournament.max_players))
        return
    now = services.clock.now()
    async with services.db.together():
        await services.repos.entrants.put(tournament.id, user.id, "approved", now, name)
        await services.repos.organiser_log.record(
            message.from_user.id, "add", now, tournament_id=tournament.id,
            chat_id=message.chat.id, user_id=user.id, name=name)
        held = await services.repos.jobs.add(ADDED_JOB, now, tournament.id, user_id=user.id,
                                             thread=topic_of(message))
    await services.scheduler.stand_in(held, _say_added(services, tr, tournament, name, user,
                                                       message.answer))


async def _say_added(services: Services, tr: Translator, tournament: Tournament, name: str,
                     user: User, answer: Callable[..., Awaitable[object]]) -> None:
    """``answer`` the group that ``user`` is entered, mentioning them (with the Check-in
    button while check-in is open), and redraw the check-in status."""
    said, markup = with_checkin(services, tr, tournament, tr(
        "add.done", name=name, user=user.mention, title=tournament.title))
    await answer(said, reply_markup=markup)
    await redraw_checkin_status(services, tournament)


@job_kind(ADDED_JOB)
async def _addition_owed(services: Services, job: Job) -> None:
    """:data:`ADDED_JOB`, left by a bot that stopped (or could not reach Telegram) after
    writing an addition: said where the /add was typed while the tournament waits for its start and the
    player is still entered."""
    if (waiting := await not_started(services, job)) is None:
        return
    (tournament, tr), user_id = waiting, job.payload["user_id"]
    entry = await services.repos.entrants.get(tournament.id, user_id)
    user = await services.repos.users.get(user_id)
    if entry is not None and entry.status == "approved" and user is not None:
        await _say_added(services, tr, tournament, entry.label, user,
                         answer_where_asked(services, tournament.chat_id, job))


@router.message(Command("withdraw", "leave"), Targeted())
async def withdraw(message: Message, command: CommandObject, services: Services,
                   tr: Translator, target: Target) -> None:
    tournament = target.tournament
    entry = await services.repos.entrants.get(tournament.id, message.from_user.id)
    if entry is not None and entry.status == "withdrawn" and not tournament.started:
        # sent again, or delivered again after a stop: said again (an application's card
        # the stop left open closes at the organisers' next press on it)
        await message.reply(tr("withdraw.done", name=entry.label, title=tournament.title))
        return
    if entry is None or entry.status not in ACTIVE_ENTRANT + ("name",):
        await message.reply(tr("withdraw.not_entered"))
        return
    if tournament.started:
        await message.reply(tr("withdraw.after_start"))
        return
    if entry.status in UNFINISHED:  # a form never sent: nobody is listed
        await services.repos.entrants.forget_form(tournament.id, entry.user_id)
    else:
        await services.repos.entrants.update(tournament.id, entry.user_id,
                                             services.clock.now(), status="withdrawn")
    said = tr("withdraw.done", name=entry.label, title=tournament.title)
    if not await close_application(services, tournament, entry, said):
        await message.reply(said)  # (else the application's card says it)
    await redraw_checkin_status(services, tournament)


def _titles(tr: Translator, tournaments: list[Tournament]) -> Markup:
    """The tournaments' titles, quoted in the chat's language, oldest first."""
    ordered = sorted(tournaments, key=lambda tournament: tournament.id)
    return Markup(", ".join(tr("checkin.title_item", title=t.title) for t in ordered))


async def _open_checkins(services: Services, chat_id: int, user_id: int
                         ) -> list[tuple[Tournament, Entrant]]:
    """The group's tournaments whose check-in is open now and ``user_id`` is an approved
    entrant of, each with the entry."""
    found = []
    for tournament in await services.repos.tournaments.active_in_chat(chat_id):
        if tournament.friendly or tournament.started or not checkin_open(services, tournament):
            continue
        entry = await services.repos.entrants.get(tournament.id, user_id)
        if entry is not None and entry.status == "approved":
            found.append((tournament, entry))
    return found


async def _check_in_all(services: Services, tr: Translator,
                        entries: list[tuple[Tournament, Entrant]]
                        ) -> tuple[str, list[Tournament]]:
    """Check the entries not checked in yet in, naming the tournaments; with none left,
    say they all were already. And the tournaments checked in for now: the caller redraws
    their check-in statuses (:func:`redraw_checkin_status`), once it has said what it
    says at the same time (a press's answer does not wait for a busy group's window)."""
    missing = [(tournament, entry) for tournament, entry in entries if not entry.checked_in]
    now = services.clock.now()
    for tournament, entry in missing:
        await services.repos.entrants.update(tournament.id, entry.user_id, now, checked_in=1)
    if not missing:
        return tr("checkin.already", name=entries[0][1].label,
                  titles=_titles(tr, [tournament for tournament, _ in entries])), []
    checked = [tournament for tournament, _ in missing]
    return tr("checkin.done", name=missing[0][1].label, titles=_titles(tr, checked)), checked


async def _check_in(services: Services, tr: Translator, tournament: Tournament,
                    user_id: int, in_group: bool = True) -> tuple[str, list[Tournament]]:
    """Check ``user_id`` in for ``tournament``, or say why not; ``in_group``: asked in the
    group, where the opening of check-in is announced (else in private). What to say, and
    the tournaments whose check-in status is to be redrawn (:func:`_check_in_all`)."""
    if said := called_off(tr, tournament):
        return said, []
    if tournament.started:
        return tr("checkin.over", title=tournament.title), []
    if not tournament.settings.get("checkin"):
        return tr("checkin.none", title=tournament.title), []
    entry = await services.repos.entrants.get(tournament.id, user_id)
    if entry is not None and entry.status == "pending":
        return tr("checkin.pending", title=tournament.title), []
    if entry is None or entry.status != "approved":
        return tr("checkin.not_entered"), []
    opens = checkin_opens_said(services, tr, tournament)
    if opens and not entry.checked_in:  # a check-in days early says nothing
        key = "checkin.not_yet" if in_group else "checkin.not_yet_in_group"
        return tr(key, title=tournament.title, time=opens), []
    return await _check_in_all(services, tr, [(tournament, entry)])


@router.message(Command("checkin"), Targeted())
async def checkin(message: Message, command: CommandObject, services: Services,
                  tr: Translator, target: Target) -> None:
    """``/checkin #id`` checks in for that tournament; a bare one for every open check-in
    of the player's in the group (else it says why the newest of theirs takes none). A
    check-in the group's check-in status counts is answered by a 👍 on the command, not by
    a message of its own; so is a bare one from a player the status shows checked in
    already (a second /checkin, or the first delivered again after a restart)."""
    user_id = message.from_user.id
    entries = [] if id_named(command.args) is not None else await _open_checkins(
        services, message.chat.id, user_id)
    if entries:
        said, checked = await _check_in_all(services, tr, entries)
        showing = checked or [tournament for tournament, _ in entries]
        counted = await redraw_checkin_status(services, *showing)
        shown = all(tournament.id in counted for tournament in showing)
        if not (shown and await services.outbox.acknowledge(message)):
            await message.reply(said)
        return
    said, checked = await _check_in(services, tr, target.tournament, user_id)
    await redraw_checkin_status(services, *checked)
    await message.reply(said)


@router.callback_query(CheckIn.filter())
async def checkin_button(query: CallbackQuery, callback_data: CheckIn, services: Services,
                         tr: Translator) -> None:
    """Check in for the button's tournament, pressed in its group or in the player's
    private chat (the button sent with their entry); say which other open check-ins of the
    player's still miss them."""
    tournament = await services.repos.tournaments.get(callback_data.tournament_id)
    chat = query.message.chat.id if query.message else None
    if tournament is None or chat not in (tournament.chat_id, query.from_user.id):
        await query.answer(tr("callback.stale"), show_alert=True)
        return
    said, checked = await _check_in(services, tr, tournament, query.from_user.id,
                                    in_group=chat == tournament.chat_id)
    others = [other for other, entry in await _open_checkins(
        services, tournament.chat_id, query.from_user.id)
        if other.id != tournament.id and not entry.checked_in]
    missing = tr("checkin.still_missing", titles=_titles(tr, others)) if others else ""
    await at_once(redraw_checkin_status(services, *checked),
                  query.answer(f"{said} {missing}".rstrip()))  # a toast: one paragraph


def _status(tr: Translator, tournament: Tournament, entry: Entrant,
            everyone: list[Entrant]) -> str:
    """An entry's status as /players says it; an entry handed to another player (the Cup's
    /replace) names who replaced whom."""
    replaced = tournament.state.get("replaced", {})  # old player's id → new player's
    label = {e.user_id: e.label for e in everyone}
    if entry.status == "replaced" and replaced.get(str(entry.user_id)) in label:
        return tr("status.replaced_by", name=label[replaced[str(entry.user_id)]])
    before = next((int(old) for old, new in replaced.items() if new == entry.user_id), None)
    if entry.status == "approved" and before in label:
        return tr("status.in_place_of", name=label[before])
    return tr(f"status.{entry.status}")


@router.message(Command("players"), Targeted())
async def players(message: Message, command: CommandObject, services: Services,
                  tr: Translator, target: Target) -> None:
    tournament = target.tournament
    everyone = await services.repos.entrants.list(tournament.id)
    entrants = [e for e in everyone if e.status not in UNFINISHED]
    unfinished = None if tournament.started else unfinished_forms(tr, everyone)
    if not entrants:
        await message.answer(lines(tr("players.empty", title=tournament.title), unfinished))
        return
    checkin_on = bool(tournament.settings.get("checkin"))
    rows = [tr("players.line", n=n, name=e.label, status=_status(tr, tournament, e, everyone),
               checked=" ✅" if checkin_on and e.checked_in and e.status == "approved" else "")
            for n, e in enumerate(entrants, start=1)]
    approved = sum(e.status == "approved" for e in entrants)
    await message.answer(lines(tr(counted_as(tournament, "players.list"), title=tournament.title,
                                  approved=approved,
                                  lines=Markup("\n".join(rows))), unfinished))
