"""The match for 3rd place: both semi-final losers pick a format already played; the same
pick is played, different picks go to the higher seed's /try; with a pick missing at the
deadline an organiser chooses. Also /try inside a match (the betting final's ties)."""

from __future__ import annotations

from datetime import timedelta

from aiogram.filters import Command
from aiogram.filters.callback_data import CallbackData
from aiogram.types import (
    CallbackQuery,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
    Update,
)

from bot.features.access import is_organiser
from bot.features.cup.common import announcer, button_play, perform, post, sender_play, tried
from bot.features.cup.playoff import on_match_start
from bot.features.handlers import Handlers
from bot.i18n import Translator, lines
from bot.middlewares.filters import IN_GROUP
from bot.middlewares.scope import Scope
from bot.play import clock
from bot.play.context import MatchContext, context_for
from bot.play.refusal import Refusal
from bot.services import Services
from storage.repositories.jobs import Job

router = Handlers("cup-third")
VOTE_MINUTES = 10
VOTE_DEADLINE = "third_deadline"
clock.register(VOTE_DEADLINE)  # /pause freezes the vote's ten minutes with the match clocks


class Pick(CallbackData, prefix="tp"):
    match_id: int
    format: str
    organiser: bool = False


def _keyboard(tr: Translator, match_id: int, formats: list[str],
              organiser: bool = False) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(inline_keyboard=[[InlineKeyboardButton(
        text=tr(f"cup.format.{f}"), callback_data=Pick(match_id=match_id, format=f,
                                                       organiser=organiser).pack())]
        for f in formats])


@on_match_start("third_choice")
async def start_vote(play: MatchContext) -> None:
    await post(play, *vote_status(play, await play.services.matches.state(play.match)))
    await play.services.scheduler.add(
        VOTE_DEADLINE, play.services.clock.now() + timedelta(minutes=VOTE_MINUTES),
        play.tournament.id, match_id=play.match.id)


def vote_status(play: MatchContext, state) -> tuple[str, InlineKeyboardMarkup | None]:
    """The vote's newest message, as the match stands: the question with a button per
    format and who has picked; when the picks differ, that both picked and the higher
    seed's /try under it, without buttons; once the deadline closed the vote, the
    organiser's question with their buttons; once decided, how; closed outside the vote,
    who won instead of the buttons. (Drawn again in place and by /board: after the
    deadline that is the organiser's question, whose buttons must stay.)"""
    if state.finished:
        return _decided(play, state), None
    if state.needs_try:
        return _tries(play, state), None
    if play.closed:  # closed outside the vote (a walkover): who won, no buttons
        return lines(_asked(play, state), play.closed_line()), None
    if state.closed:  # the organiser's own message asks them now
        return (lines(play.tr("cup.third_organiser"), *_picks_shown(play, state)),
                _keyboard(play.tr, play.match.id, list(state.available), True))
    return _asked(play, state), _keyboard(play.tr, play.match.id, list(state.available))


def _asked(play: MatchContext, state) -> str:
    """The question to both players, with who has picked."""
    name = play.names
    return _question(play, *(play.tr("cup.third_picked", name=name[p], other=name[1 - p])
                             for p in (0, 1) if state.has_picked(p)))


def _tries(play: MatchContext, state) -> str:
    return lines(_question(play, play.tr("cup.third_both_picked")), _needs_try(play, state))


def _decided(play: MatchContext, state) -> str:
    """How the format was decided: by the higher seed's /try (under the picks it
    settled), by equal picks, or by the organiser."""
    if state.winner is not None:
        return lines(_tries(play, state),
                     tried(play, {"player": 0, "success": state.winner == 0}))
    how = "cup.third_same_pick" if state.outcome.how == "same_pick" \
        else "cup.third_organiser_picked"
    return play.tr(how, a=play.names[0], b=play.names[1],
                   format=play.tr(f"cup.format.{state.result}"))


def _question(play: MatchContext, *said: str) -> str:
    return lines(play.tr("cup.third_vote", a=play.names[0], b=play.names[1],
                         minutes=VOTE_MINUTES), *said)


@router.callback_query(Pick.filter())
async def pick(query: CallbackQuery, callback_data: Pick, event_update: Update,
               services: Services, tr: Translator) -> None:
    play, player = await button_play(services, tr, query, callback_data.match_id,
                                     ("third_choice",), players_only=not callback_data.organiser)
    if callback_data.organiser:
        if not await is_organiser(services, play.tournament.chat_id, query.from_user.id):
            raise Refusal("access.organisers_only")
        action = {"type": "organiser_pick", "format": callback_data.format}
    else:
        action = {"type": "pick", "player": player, "format": callback_data.format}
    await perform(play, action, query.from_user.id, event_update.update_id,
                  alongside=[query.answer])


@announcer("third_choice")
async def announce_vote(play: MatchContext, before, after, event: dict) -> None:
    """Each step edits the vote's newest message (:func:`vote_status`): a first pick (its
    buttons stay for the other player), different picks (the higher seed's /try asked in
    the same edit), the /try's outcome under it, a format decided by equal picks or by the
    organiser in place of the question. The deadline closes the vote (its buttons go) and
    asks the organiser in a new message, which says the pick made."""
    if event["type"] == "deadline":
        await post(play, lines(_asked(play, after), play.tr("cup.third_closed")), None,
                   new=False)
        await _ask_organiser(play, after)
    else:
        await post(play, *vote_status(play, after), new=False)


async def _ask_organiser(play: MatchContext, state) -> None:
    """The vote closed at its deadline: the organiser's question, with their buttons."""
    await post(play, *vote_status(play, state))


def _picks_shown(play: MatchContext, state) -> list[str]:
    """The pick made before the vote closed, told the organiser who chooses now (secret
    only while the vote runs)."""
    return [play.tr("cup.third_pick_shown", name=play.names[p], other=play.names[1 - p],
                    format=play.tr(f"cup.format.{state.pick_of(p)}"))
            for p in (0, 1) if state.has_picked(p)]


def _needs_try(play: MatchContext, state) -> str:
    tr = play.tr
    return tr("cup.third_needs_try", name=play.names[0], a=tr(f"cup.format.{state.pick_of(0)}"),
              b=tr(f"cup.format.{state.pick_of(1)}"))  # the higher seed's pick, the other's


async def vote_deadline(services: Services, job: Job) -> None:
    """The time to pick is up with a pick missing: the vote closes to the players (a late
    press is refused) and the organiser is asked; once, whatever restarts come between. Run
    again with the vote closed (its question to the organiser failed to be posted, or the
    process stopped before it was), the question is posted then."""
    match = await services.repos.matches.get(job.payload["match_id"])
    if match is None or match.status != "running":
        return
    state = await services.matches.state(match)
    if not state.needs_organiser_pick or state.closed and job.payload.get("asked"):
        return
    tournament = await services.repos.tournaments.get(match.tournament_id)
    tr = await services.translator_for_chat(tournament.chat_id)
    play = await context_for(services, tr, tournament, match)
    if state.closed:
        await _ask_organiser(play, state)
    else:
        await perform(play, {"type": "deadline"}, None, None)
    await services.repos.jobs.note(job.id, asked=True)


async def _try_awaited(message: Message, scope: Scope, services: Services, tr: Translator
                       ) -> dict | bool:
    """Filter: the sender's match waits for a /try, theirs or their opponent's (else it is
    the plain /try); the engine refuses the opponent's, naming whose it is."""
    play = await sender_play(scope, tr)
    if play is None:
        return False
    state = await services.matches.current(play.match)
    awaited = next((seat for seat, kind in state.expecting if kind == "try"), None)
    if awaited is None:
        return False
    return {"play": play, "player": play.seat(message.from_user.id), "awaited": awaited}


@router.message(Command("try"), IN_GROUP, _try_awaited)
async def try_in_match(message: Message, play: MatchContext, player: int, awaited: int,
                       services: Services, tr: Translator, event_update) -> None:
    """/try decides a tie the sender's match waits for; its outcome is said with what it
    decides, once logged (see the announcers). The opponent's /try is refused."""
    if player != awaited:
        raise Refusal("cup.error.try_not_yours", name=play.names[awaited])
    success = services.rng.random() < 0.5
    await perform(play, {"type": "try", "player": player, "success": success},
                  message.from_user.id, event_update.update_id)
