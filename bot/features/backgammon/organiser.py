"""The organisers' tools of the seed's §11 (``docs/backgammon.md``), each logged with a reason:
``/penalty @user warning|point|game reason``, the card's "award by forfeit" after a late start,
``/appeal text`` by a player (to the organisers by DM, the match named; in a match played in
the bot too: about the clocks, a lost connection, conduct) and ``/decide <match> text``
(logged and announced in the group)."""

from __future__ import annotations

from typing import Any

from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, Message, ReplyParameters, Update

from bot.features.backgammon.card import Forfeit
from bot.features.backgammon.play import (
    act,
    decision,
    load,
    log_decision,
    organiser_only,
)
from bot.features.backgammon.settings import GAME, KIND, LIVE_KIND
from bot.features.handlers import Handlers
from bot.i18n import Translator
from bot.middlewares.filters import IN_GROUP, topic_of
from bot.middlewares.scope import Scope
from bot.play.context import MatchContext, load_match
from bot.play.refusal import Refusal
from bot.play.said import Said
from bot.play.topics import named_player_match
from bot.sending import each_logged
from bot.services import Services
from games.backgammon.protocol import PENALTIES
from storage.db import in_order
from storage.repositories.jobs import Job, insert_job

router = Handlers("backgammon-organiser")


@router.message(Command("penalty"), IN_GROUP)
async def penalty(message: Message, command: CommandObject, scope: Scope,
                  services: Services, tr: Translator, event_update: Update) -> None:
    """A warning is noted; a penalty point goes to the opponent; a game penalty gives the
    opponent the current game (``cube N`` when the cube was turned)."""
    words = (command.args or "").split()
    if len(words) < 2 or not words[0].startswith("@") or words[1].lower() not in PENALTIES:
        raise Refusal("backgammon.penalty_usage")
    user, match = await named_player_match(scope, tr, words[0], GAME)
    if match is None:  # a match that is over is corrected as the tournament's result
        raise Refusal("backgammon.error.none_to_settle", name=words[0])
    if match.kind != KIND:
        raise Refusal("backgammon.error.no_such_match")
    ctx = await load(services, tr, match.id)
    await organiser_only(ctx, message.from_user.id)
    rest, cube = words[2:], 1
    if rest[:1] in (["cube"], ["куб"]) and len(rest) > 1 and rest[1].isdecimal():
        rest, cube = rest[2:], int(rest[1])
    if not rest:
        raise Refusal("formats.error.reason_required")
    kind, reason, seat = words[1].lower(), " ".join(rest), ctx.seat(user.id)
    action = {"type": "penalty", "player": seat, "kind": kind, "cube": cube}
    logged = decision(ctx, message.from_user.id, "penalty", reason, entry=action)
    await act(ctx, [action], message.from_user.id, event_update.update_id, logged=logged,
              said=[Said.in_match(ctx, tr(f"backgammon.penalty.{kind}", name=ctx.names[seat],
                                          opponent=ctx.names[1 - seat], reason=reason))])


@router.callback_query(Forfeit.filter())
async def forfeit_button(query: CallbackQuery, callback_data: Forfeit, services: Services,
                         tr: Translator, event_update: Update) -> None:
    """A late start: an organiser awards the match to the player who was there."""
    ctx = await load(services, tr, callback_data.match_id)
    await organiser_only(ctx, query.from_user.id)
    state = await services.matches.state(ctx.match)
    if not (state.late and state.silent):
        raise Refusal("callback.stale")
    reason = tr("backgammon.late_start_reason")
    logged = decision(ctx, query.from_user.id, "forfeit", reason,
                      winner=ctx.match.players[callback_data.seat])
    await act(ctx, [{"type": "forfeit", "winner": callback_data.seat}], query.from_user.id,
              event_update.update_id, logged=logged, alongside=[query.answer])


APPEAL_JOB = "backgammon_appeal_said"
"""An appeal handed on to the organiser (and the bot's admins), by the update, with a job
stored with the appeal's log entry in its stead (:meth:`~bot.scheduler.Scheduler.stand_in`):
an appeal whose private message meets Telegram out of reach is handed on once Telegram
takes it, not only logged."""


@router.message(Command("appeal"), IN_GROUP)
async def appeal(message: Message, command: CommandObject, scope: Scope,
                 services: Services, tr: Translator) -> None:
    """A player's appeal is logged and handed on to the tournament's organiser (and the
    bot's admins) by DM (:func:`hand_on`)."""
    text = (command.args or "").strip()
    if not text:
        raise Refusal("backgammon.appeal_usage")
    number, _, rest = text.partition(" ")
    if number.lstrip("#").isdecimal() and rest.strip():  # /appeal 3 …: a match named
        ctx, text = await _named(message, services, tr, int(number.lstrip("#"))), rest.strip()
    else:
        ctx = await _appealed(scope, tr)
    user, now = message.from_user.id, services.clock.now()
    async with services.db.together():  # with the update's claim: a copy logs nothing more
        job = await services.db.write(in_order(
            decision(ctx, user, "appeal", text),
            lambda tx: insert_job(tx, APPEAL_JOB, now, ctx.tournament.id, {
                "match_id": ctx.match.id, "by": user, "text": text,
                "reply_to": message.message_id, "topic": topic_of(message)})))
    await services.scheduler.stand_in(job, hand_on(services, job))


async def hand_on(services: Services, job: Job) -> None:
    """:data:`APPEAL_JOB`: the appeal in the organiser's DM — an organiser the bot cannot
    write to (who never opened the private chat) is named in the group instead, under a
    button that opens that chat (the outbox's fallback) — then in each admin's (one that
    fails is logged, not tried again), and the player told, in reply to the appeal, that it
    went to the organiser. A retry after the organiser's DM went out does not send it
    again."""
    payload = job.payload
    tournament = await services.repos.tournaments.get(job.tournament_id)
    tr = await services.translator_for_chat(tournament.chat_id)
    ctx = await load_match(services, tr, payload["match_id"], (KIND, LIVE_KIND))
    seat = ctx.seat(payload["by"])

    async def send(recipient: int, **fallback: Any) -> Message | None:
        recipient_tr = await services.translator_for_chat(recipient)
        return await services.outbox.dm(recipient, recipient_tr(
            "backgammon.appeal_dm", name=ctx.names[seat], match=ctx.match.id,
            a=ctx.names[0], b=ctx.names[1], title=tournament.title, text=payload["text"]),
            **fallback)

    organiser = tournament.created_by
    if "reached" not in payload:
        known = await services.repos.users.get(organiser)
        reached = await send(organiser, fallback_chat_id=tournament.chat_id, fallback_text=tr(
            "backgammon.appeal_here", match=ctx.match.id,
            organiser=known.mention if known else str(organiser)),
            button_text=tr("dm.open_button"), fallback_thread_id=ctx.match.thread_id)
        payload = {**payload, "reached": reached is not None}
        await services.repos.jobs.note(job.id, reached=payload["reached"])
        await each_logged(f"appeal {job.id}: the admin", {
            admin: send(admin) for admin in dict.fromkeys(services.settings.admin_ids)
            if admin != organiser})
    if payload["reached"]:
        await services.bot.send_message(
            tournament.chat_id, tr("backgammon.appeal_sent", match=ctx.match.id),
            message_thread_id=payload["topic"], reply_parameters=ReplyParameters(
                message_id=payload["reply_to"], allow_sending_without_reply=True))


async def _named(message: Message, services: Services, tr: Translator,
                 match_id: int) -> MatchContext:
    """The sender's backgammon match ``match_id`` of this chat's tournaments, over or not:
    a ruling may be appealed after the match ended."""
    ctx = await load_match(services, tr, match_id, (KIND, LIVE_KIND))
    if ctx is None or ctx.tournament.chat_id != message.chat.id or \
            message.from_user.id not in ctx.match.players:
        raise Refusal("backgammon.error.not_your_match", match=match_id)
    if ctx.tournament.friendly:
        raise Refusal("backgammon.appeal_friendly")
    return ctx


async def _appealed(scope: Scope, tr: Translator) -> MatchContext:
    """The sender's backgammon match in this chat (in a match's forum topic: that match),
    on a board or in the bot, in a tournament (a friendly match has no organiser to appeal
    to)."""
    match = await scope.live_match(of=(GAME,))
    ctx = None if match is None or match.kind not in (KIND, LIVE_KIND) else \
        await load_match(scope.services, tr, match.id)
    if ctx is None:
        raise Refusal("backgammon.appeal_no_match")
    if ctx.tournament.friendly:
        raise Refusal("backgammon.appeal_friendly")
    return ctx


@router.message(Command("decide"), IN_GROUP)
async def decide(message: Message, command: CommandObject, services: Services,
                 tr: Translator) -> None:
    """An organiser's decision on an appeal: ``/decide 7 text`` — logged and announced."""
    words = (command.args or "").split(maxsplit=1)
    if len(words) < 2 or not words[0].lstrip("#").isdecimal():
        raise Refusal("backgammon.decide_usage")
    ctx = await load_match(services, tr, int(words[0].lstrip("#")), (KIND, LIVE_KIND))
    if ctx is None or ctx.tournament.chat_id != message.chat.id:
        raise Refusal("backgammon.error.no_such_match")
    await organiser_only(ctx, message.from_user.id)
    await log_decision(ctx, message.from_user.id, "decide", words[1])
    await message.answer(tr("backgammon.decided", match=ctx.match.id, a=ctx.names[0],
                            b=ctx.names[1], text=words[1]))
