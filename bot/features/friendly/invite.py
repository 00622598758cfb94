"""/challenge @user <game> [key=value …]: an invitation to a friendly match that only the
challenged user answers (Accept / Decline) and that expires after ten minutes.

The friendly's row exists from the invitation on (status ``invited``), so the buttons and
the expiry job carry only its id; every answer is checked under the row's lock, so a second
press, or a press after the expiry, changes nothing and says why.
"""

from __future__ import annotations

import contextlib
from datetime import timedelta

from aiogram import F
from aiogram.exceptions import TelegramBadRequest
from aiogram.filters import Command, CommandObject
from aiogram.filters.callback_data import CallbackData
from aiogram.types import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Message

from bot.features.friendly import start
from bot.features.handlers import Handlers
from bot.features.keyboards import add_to_group_keyboard
from bot.features.lifecycle import answer_where_asked, job_kind
from bot.games import game_of
from bot.i18n import Translator
from bot.middlewares.filters import topic_of
from bot.play.refusal import Refusal
from bot.sending import at_once
from bot.services import Services
from storage.repositories.jobs import Job
from storage.repositories.tournaments import Tournament
from storage.repositories.users import User

router = Handlers("friendly-invite")
EXPIRY_JOB = "friendly_expiry"
ANSWER_MINUTES = 10
_ANSWERED = {"running": "accepted", "paused": "accepted", "finished": "accepted",
             "declined": "declined", "expired": "expired"}


class Answer(CallbackData, prefix="fr"):
    friendly: int
    accept: int  # 1 Accept, 0 Decline


@router.message(Command("challenge"))
async def challenge(message: Message, command: CommandObject, services: Services,
                    tr: Translator) -> None:
    if message.chat.type == "private":
        raise Refusal("friendly.group_only", buttons=add_to_group_keyboard)
    words = (command.args or "").split()
    challenged, words = await opponent(message, services, words)
    game = start.pick_game(tr, words[0] if words else None, usage="friendly.usage_challenge")
    settings = start.settings_for(tr, game, words[1:])
    me = message.from_user
    if challenged.id == me.id:
        raise Refusal("friendly.self")
    chat_id = message.chat.id
    await start.ensure_free(services, chat_id, me.id, me.first_name)
    await start.ensure_free(services, chat_id, challenged.id, challenged.first_name)
    title = tr.plain("friendly.title", a=me.first_name, b=challenged.first_name)
    now = services.clock.now()
    async with services.db.together():  # the challenge, its lapse and its invitation owed
        friendly = await start.create(services, chat_id, game, title, settings,
                                      (me.id, challenged.id), "invited")
        await services.scheduler.add(EXPIRY_JOB, now + timedelta(minutes=ANSWER_MINUTES),
                                     friendly.id)
        held = await services.repos.jobs.add(INVITED_JOB, now, friendly.id,
                                             thread=topic_of(message))
    await services.scheduler.stand_in(held, _invite(services, held))


INVITED_JOB = "friendly_invited"
"""Written with a challenge: its invitation posted, with Accept and Decline, and its id
saved, the job held in their stead (a challenge written right before a stop was never
shown: nobody could accept it, and it lapsed unanswered ten minutes on)."""


@job_kind(INVITED_JOB)
async def _invite(services: Services, held: Job) -> None:
    """Post the invitation of a challenge still waiting for it, where it was typed."""
    friendly = await services.repos.tournaments.get(held.tournament_id)
    if friendly.status != "invited" or "invitation" in friendly.settings:
        return
    tr = await services.translator_for_chat(friendly.chat_id)
    challenger, challenged = [await services.repos.users.get(entrant.user_id)
                              for entrant in await _players(services, friendly)]
    extra = start.described(tr, game_of(friendly.game), friendly.settings)
    sent = await answer_where_asked(services, friendly.chat_id, held)(
        tr("friendly.invitation", a=challenger.first_name, b=challenged.mention,
           game=tr(f"game.{friendly.game}"), settings=f" ({extra})" if extra else "",
           minutes=ANSWER_MINUTES),
        reply_markup=_buttons(tr, friendly.id))
    await services.repos.tournaments.set_settings(
        friendly.id, friendly.settings | {"invitation": sent.message_id})


async def opponent(message: Message, services: Services,
                    words: list[str]) -> tuple[User, list[str]]:
    """The challenged user: ``@handle`` first, or the author of the replied-to message."""
    if words and words[0].startswith("@"):
        handle, words = words[0].lstrip("@"), words[1:]
        if handle.lower() == services.bot_username.lower():
            raise Refusal("friendly.no_bots")
        user = await services.repos.users.by_username(handle)
        if user is None:
            raise Refusal("friendly.unknown_user", name=f"@{handle}",
                          link=services.deep_link())
        return user, words
    replied = message.reply_to_message
    if replied is None or replied.from_user is None:
        raise Refusal("friendly.usage_challenge", games=", ".join(start.friendly_games()))
    if replied.from_user.is_bot:
        raise Refusal("friendly.no_bots")
    user = await services.repos.users.get(replied.from_user.id)
    if user is None:
        raise Refusal("friendly.unknown_user", name=replied.from_user.first_name,
                      link=services.deep_link())
    return user, words


def _buttons(tr: Translator, friendly_id: int) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(inline_keyboard=[[
        InlineKeyboardButton(text=tr("friendly.accept"),
                             callback_data=Answer(friendly=friendly_id, accept=1).pack()),
        InlineKeyboardButton(text=tr("friendly.decline"),
                             callback_data=Answer(friendly=friendly_id, accept=0).pack())]])


@router.callback_query(Answer.filter(), F.message)
async def answer(query: CallbackQuery, callback_data: Answer, services: Services,
                 tr: Translator) -> None:
    friendly = await services.repos.tournaments.get(callback_data.friendly)
    if friendly is None or not friendly.friendly or friendly.chat_id != query.message.chat.id:
        raise Refusal("callback.stale")
    challenger, opponent = await _players(services, friendly)
    if query.from_user.id != opponent.user_id:
        raise Refusal("friendly.not_yours", name=opponent.label)
    async with services.lock(f"tournament-{friendly.id}"):
        friendly = await services.repos.tournaments.get(friendly.id)
        if friendly.status != "invited":
            raise Refusal(f"friendly.answered.{_ANSWERED[friendly.status]}",
                          minutes=ANSWER_MINUTES)
        if callback_data.accept:
            await start.ensure_free(services, friendly.chat_id, challenger.user_id,
                                    challenger.label, "friendly.challenger_busy")
            await start.ensure_free(services, friendly.chat_id, opponent.user_id,
                                    opponent.label, "friendly.busy_accepting")
        status, now = "running" if callback_data.accept else "declined", services.clock.now()
        async with services.db.together():  # an accepted one with its match owed
            await services.repos.tournaments.set_status(friendly.id, status, now)
            if "invitation" not in friendly.settings:  # the bot stopped before saving it
                await services.repos.tournaments.set_settings(
                    friendly.id, friendly.settings | {"invitation": query.message.message_id})
            await services.scheduler.cancel(friendly.id, (EXPIRY_JOB,))
            held = await services.repos.jobs.add(ACCEPTED_JOB, now, friendly.id) \
                if callback_data.accept else None
    with services.scheduler.owing(held):  # the answer written: another press is refused
        await at_once(_close_invitation(services, tr, friendly, status,  # the one pressed:
                                        query.message.message_id),  # its id may be unsaved
                      query.answer(tr(f"friendly.{status}_toast")))
    if held is not None:
        await services.scheduler.stand_in(
            held, start.begin(services, await services.repos.tournaments.get(friendly.id)))


ACCEPTED_JOB = "friendly_accepted"
"""Written with an acceptance: the friendly's match owed (as :data:`~.start.PLAY_JOB`), and
its invitation said accepted, without buttons (a bot that stopped right after the write made
the match at its next start and left the invitation asking)."""


@job_kind(ACCEPTED_JOB)
async def _accepted_owed(services: Services, job: Job) -> None:
    """:data:`ACCEPTED_JOB` found pending at the start, or run after a launch that failed:
    the friendly, if still under way, gets its invitation closed and its match."""
    friendly = await services.repos.tournaments.get(job.tournament_id)
    if friendly is not None and friendly.status == "running":
        tr = await services.translator_for_chat(friendly.chat_id)
        await _close_invitation(services, tr, friendly, "running")
        await start.begin(services, friendly)


async def _players(services: Services, friendly: Tournament):
    entrants = await services.repos.entrants.list(friendly.id)
    return entrants[0], entrants[1]


async def _close_invitation(services: Services, tr: Translator, friendly: Tournament,
                            outcome: str, invitation: int | None = None) -> None:
    """Say on the invitation itself (``invitation``, else the one the challenge saved) how
    it ended (accepted, declined, expired); a challenge whose invitation never went out
    (Telegram out of reach), or whose id the bot stopped before saving, has none saved."""
    if (invitation := invitation or friendly.settings.get("invitation")) is None:
        return
    challenger, opponent = await _players(services, friendly)
    text = tr(f"friendly.invitation_{outcome}", a=challenger.label, b=opponent.label,
              game=tr(f"game.{friendly.game}"), minutes=ANSWER_MINUTES)
    with contextlib.suppress(TelegramBadRequest):  # the message may have been deleted
        await services.bot.edit_message_text(
            text, chat_id=friendly.chat_id, message_id=invitation,
            reply_markup=None)


@job_kind(EXPIRY_JOB)
async def expire(services: Services, job: Job) -> None:
    """Ten minutes without an answer: the invitation lapses (unless answered meanwhile)."""
    async with services.lock(f"tournament-{job.tournament_id}"):
        friendly = await services.repos.tournaments.get(job.tournament_id)
        if friendly is None or friendly.status != "invited":
            return
        await services.repos.tournaments.set_status(friendly.id, "expired",
                                                    services.clock.now())
        tr = await services.translator_for_chat(friendly.chat_id)
        await _close_invitation(services, tr, friendly, "expired")
