"""The record of a match played in the bot (``docs/backgammon.md``): the whole match in the
Jellyfish ``.mat`` text format that GNU Backgammon and XG import, written from the match log
(:func:`games.backgammon.mat.write_mat`), sent when the match ends (heading, in its caption,
what the tournament says next) and on ``/mat``."""

from __future__ import annotations

from aiogram.filters import Command
from aiogram.types import BufferedInputFile, Message

from bot.features.backgammon.settings import GAME, LIVE_KIND
from bot.features.formats.announcements import describe
from bot.features.formats.export import set_by_organiser
from bot.features.handlers import Handlers
from bot.i18n import Translator, lines
from bot.match_service import effective_actions
from bot.middlewares.filters import IN_GROUP
from bot.middlewares.limits import CAPTION_LIMIT, size
from bot.middlewares.scope import Scope
from bot.play.context import MatchContext, load_match
from bot.play.refusal import Refusal
from bot.play.topics import other_match_topic
from bot.services import Services
from games.backgammon.mat import write_mat

router = Handlers("backgammon-live-record")


async def match_mat(services: Services, match_id: int, names: tuple[str, str],
                    length: int) -> str:
    """The ``.mat`` text of match ``match_id`` from its log, as far as it has been played."""
    logged = effective_actions(await services.repos.matches.actions(match_id))
    return write_mat(names, length, logged)


async def mat_text(ctx: MatchContext) -> str:
    return await match_mat(ctx.services, ctx.match.id, ctx.names,
                           ctx.tournament.settings.get("length", 5))


async def send_record(ctx: MatchContext, lead: str = "", then: str = "") -> None:
    """Send the match's ``.mat`` file to the match's place; ``lead``: said above its caption
    (the match's end), ``then``: below it (what the tournament says next: the next matches,
    the final placings), in a message after it when the whole does not fit a caption."""
    head = lines(lead, ctx.tr("backgammon.live.record", match=ctx.match.id))
    whole = lines(head, then)
    fits = size(whole) <= CAPTION_LIMIT
    await ctx.services.bot.send_document(
        ctx.tournament.chat_id,
        BufferedInputFile((await mat_text(ctx)).encode(), f"match-{ctx.match.id}.mat"),
        caption=whole if fits else head, message_thread_id=ctx.match.thread_id)
    if then and not fits:
        await ctx.say(then)


async def sender_last_match(scope: Scope, tr: Translator) -> MatchContext:
    """The sender's backgammon match played in the bot in this chat to look back at
    (/mat, /position): the live one (in a match's forum topic: that match; refused, saying
    whose topic it is, in the topic of a live match they do not play), else their last one
    there, over too; else refused."""
    match = await scope.live_match(of=(GAME,))
    if match is None and (answer := await other_match_topic(scope, tr)):
        raise Refusal(text=answer)
    match = match or await scope.services.repos.matches.last_for_player_in_chat(
        scope.chat.id, scope.user.id)
    if match is None or match.kind != LIVE_KIND:
        raise Refusal("backgammon.live.error.no_match")
    return await load_match(scope.services, tr, match.id)


async def result_set(ctx: MatchContext) -> str:
    """For a match whose result an organiser set (``/setresult``): the result set and why,
    heading its record's caption (the record holds only what was played); else ""."""
    match = ctx.match
    if (settled := await set_by_organiser(ctx.services, match)) is None:
        return ""
    result = describe(ctx.tr, dict(zip(match.players, ctx.names, strict=True)), match,
                      match.winner, match.result.get("score"), bool(match.result.get("forfeit")))
    return ctx.tr("backgammon.live.record_set", result=result, reason=settled["reason"])


@router.message(Command("mat"), IN_GROUP)
async def mat(message: Message, scope: Scope, tr: Translator) -> None:
    """The sender's match record: their live match played in the bot, so far; with none
    live, their last match in the chat (a finished one's whole record, as sent at its end;
    one an organiser closed says the result set and why)."""
    ctx = await sender_last_match(scope, tr)
    await send_record(ctx, await result_set(ctx))
