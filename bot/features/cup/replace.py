"""/replace: an organiser hands a Cup entry to a new player, with a reason — their matches
to come and the seed, their results so far in the group tables — written to the organiser
log.

What the replacement owes the chats (the group told, the old player told in private, the
boards drawn with the new name and the new player's private panel) is written with a job
held in its stead (:data:`REPLACED_JOB`, :meth:`~bot.scheduler.Scheduler.stand_in`), so a bot
that stops or cannot reach Telegram right after the write still says it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from aiogram.filters import Command, CommandObject
from aiogram.types import Message

from bot.features.cup.corrections import OPEN, cup_command, log_correction, needs_reason
from bot.features.handlers import Handlers
from bot.features.lifecycle import answer_where_asked
from bot.features.registration import valid_name
from bot.i18n import Translator, clip
from bot.middlewares.filters import topic_of
from bot.play import hidden
from bot.play.context import LIVE, MatchContext, context_for
from bot.play.perform import board_owed_after_faults
from bot.play.redraw import redraw_in_place
from bot.sending import raise_failure, settled
from bot.services import Services
from storage.repositories.jobs import Job
from storage.repositories.tournaments import Tournament

router = Handlers("cup-replace")
REPLACED_JOB = "cup_replaced"
"""Written with a replacement: what it owes the chats, held in its stead (the module's
docstring); its payload says what to say, and what a retry no longer owes."""


@router.message(Command("replace"))
async def replace(message: Message, command: CommandObject, services: Services,
                  tr: Translator) -> None:
    """A new player takes over the entry: their matches to come and the seed."""
    found = await cup_command(message, command, services, tr)
    if found is None:
        return
    target, old, words = found
    new = await services.repos.users.by_username(words[0]) if words else None
    if new is None:
        await message.answer(tr("correction.unknown_new", word=clip(words[0]),
                                bot=services.bot_username)
                             if words and words[0].startswith("@")
                             else tr("correction.usage_replace"))
        return
    has_name = len(words) > 1 and valid_name(words[1])
    name = words[1] if has_name else new.first_name
    reason = await needs_reason(message, tr, words[2:] if has_name else words[1:])
    if reason is None:
        return
    tournament, repos = target.tournament, services.repos
    entry = await repos.entrants.get(tournament.id, old.id)
    taken = await repos.entrants.get(tournament.id, new.id)
    if entry is None or entry.status != "approved":
        await message.answer(tr("correction.not_playing", user=old.mention))
        return
    if taken is not None and taken.status == "approved":
        await message.answer(tr("add.already", user=new.mention))
        return
    async with services.db.together():
        await _take_over(services, message.from_user.id, tournament, old.id, new.id, name,
                         entry.seed)
        await log_correction(services, message, "replace", tournament.id, reason, old=old.id,
                             new=new.id)
        held = await repos.jobs.add(REPLACED_JOB, services.clock.now(), tournament.id,
                                    old=old.id, new=new.id, old_name=entry.label, name=name,
                                    reason=reason, thread=topic_of(message))
    await services.scheduler.stand_in(held, _say_replaced(services, tr, tournament, held,
                                                          message.answer))


async def _say_replaced(services: Services, tr: Translator, tournament: Tournament,
                        held: Job, answer: Callable[[str], Awaitable[object]]) -> None:
    """``answer`` the group with the replacement, tell the old player in private and show the
    new player in the entry's matches; the old player not told in private (Telegram out of
    reach), the boards are drawn first, the job notes what is done and its retry only tells
    them."""
    said = held.payload
    if not said.get("told_group"):
        await answer(tr("correction.replaced", old=said["old_name"], new=said["name"],
                        reason=said["reason"]))
    old_tr = await services.translator_for_chat(said["old"])
    [told] = await settled(services.outbox.dm(said["old"], old_tr(
        "correction.replaced_dm", title=tournament.title, new=said["name"],
        reason=said["reason"])))
    if not said.get("shown"):
        await _show_new_player(services, tr, tournament, said["old"], said["new"])
    if isinstance(told, Exception):
        await services.repos.jobs.note(held.id, told_group=True, shown=True)
    raise_failure([told])


async def replaced_owed(services: Services, job: Job) -> None:
    """:data:`REPLACED_JOB`, left by a bot that stopped (or could not reach Telegram) after
    writing a replacement: said while the tournament is played and the entry is still the
    new player's; the group's line goes where the /replace was typed."""
    tournament = await services.repos.tournaments.get(job.tournament_id)
    if tournament is None or tournament.status not in LIVE:
        return
    entry = await services.repos.entrants.get(tournament.id, job.payload["new"])
    if entry is None or entry.status != "approved":
        return
    tr = await services.translator_for_chat(tournament.chat_id)
    await _say_replaced(services, tr, tournament, job,
                        answer_where_asked(services, tournament.chat_id, job))


async def _show_new_player(services: Services, tr: Translator, tournament: Tournament,
                           old: int, user_id: int) -> None:
    """The entry's matches being played, with its new player: each board drawn again in
    place with the new name (the notice above says why: one group message), and the new
    player's private panel where the match awaits their hidden choice (one the bot cannot
    write to is asked in the group to open its chat; a choice the entry made this round
    stands, and the next round's panel comes as everyone's does). The old player's panel
    loses its buttons."""
    for match in await services.repos.matches.for_tournament(tournament.id):
        if match.status not in LIVE or user_id not in match.players:
            continue
        ctx = await context_for(services, tr, tournament, match)
        async with board_owed_after_faults(services, match):
            await _put_in(services, ctx, old, user_id)


async def _put_in(services: Services, ctx: MatchContext, old: int, user_id: int) -> None:
    """``user_id``, in ``old``'s place, shown on the match's board and given a panel."""
    match = ctx.match
    await redraw_in_place(ctx)
    if hidden.input_of(match.kind) is None:
        return
    if (left := await hidden.panels(services).get(match.id, old)) is not None:
        await services.outbox.drop_buttons(old, left)
    if await hidden.awaited(services, match, seat := ctx.seat(user_id)):
        await hidden.show(ctx, seat, fresh=True)


async def _take_over(services: Services, actor_id: int, tournament: Tournament, old: int,
                     new: int, name: str, seed: int | None) -> None:
    """The writes of /replace: the new player's entry with the old one's seed, the new
    player in the old one's open matches, rests and playoff seeds, and the entry's results
    so far theirs in the group tables (``replaced``: old → new, read by ``group_tables``)."""
    repos, now = services.repos, services.clock.now()
    await repos.entrants.update(tournament.id, old, now, status="replaced")
    await repos.entrants.put(tournament.id, new, "approved", now, name)
    await repos.entrants.update(tournament.id, new, now, seed=seed)
    for match in await repos.matches.for_tournament(tournament.id):
        if match.status in (*OPEN, "bye") and old in match.players:
            side = "player_a" if match.player_a == old else "player_b"
            await repos.matches.settle(match.id, {"meta": "replace", "side": side,
                                                  "old": old, "new": new}, actor_id, now)
    replaced = {**tournament.state.get("replaced", {}), str(old): new}
    replaced.pop(str(new), None)  # a player replaced before comes back: the chain ends here
    await repos.tournaments.set_state(tournament.id, "replaced", replaced)
    seeds = tournament.state.get("playoff_seeds")
    if seeds and old in seeds:
        await repos.tournaments.set_state(tournament.id, "playoff_seeds",
                                          [new if s == old else s for s in seeds])


