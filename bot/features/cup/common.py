"""What every Cup match shares in the chat: finding the sender's match, its playbook for the
match-play module (:mod:`bot.play`: refusals, announcements, closing a finished match), and
its status message (:func:`post`).

Each match kind registers an announcer (what to say after an action) and, for the stage it
belongs to, what happens when a match ends (:func:`on_finish`).

A group allows a bot about 20 messages a minute, so a match says each thing once
(``docs/rules.md``, "Messages in the group"): what ends a round, opens a question or ends the
match is a new message; a die, a declaration or a choice that only moves a round on edits
the match's newest message in place, which therefore always names who acts next.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from aiogram.types import InlineKeyboardMarkup

from bot.games import BoardAgain, SettledBoard
from bot.i18n import Translator
from bot.match_service import Change, Clocks
from bot.middlewares.scope import Scope
from bot.play import hidden
from bot.play.board import show_board
from bot.play.context import LIVE, MatchContext, context_for, load_match
from bot.play.perform import Alongside, Playbook, error_params
from bot.play.perform import perform as perform_action
from bot.play.redraw import redraw_in_place
from bot.play.refusal import Refusal
from bot.registry import Registry
from bot.services import Services
from games.common.errors import IllegalAction
from games.dice_cup.third_place import ThirdPlaceChoice
from storage.db import Write, in_order
from storage.repositories.jobs import Job, insert_job
from storage.repositories.matches import MatchRow
from storage.repositories.tournaments import Tournament

Announcer = Callable[[MatchContext, Any, Any, dict], Awaitable[None]]
Finisher = Callable[[MatchContext, dict[str, Any]], Awaitable[None]]
"""What a finished match does to its stage, given the match (its row finished) and what
:func:`close_match` was told beyond the row (the 3rd-place vote's format)."""
CLOSED_JOB = "cup_match_closed"
"""A finished match moving its stage on: stored with its result, run right after the update."""
_announcers: Registry[Announcer] = Registry()
_finishers: Registry[Finisher] = Registry()
announcer = _announcers.register  # what to say after an action, per match kind
on_finish = _finishers.register  # what a finished match does to its stage


async def say_once(services: Services, tournament: Tournament, step: str, text: str) -> None:
    """Send a stage's message (``step``: a round opened, the playoff's pairings) to the
    Cup's group once: noted in the tournament's state when it went out, so the job that
    says it, run again after a later send failed or after a stop, does not say it twice."""
    key = f"said {step}"
    if (await services.repos.tournaments.get(tournament.id)).state.get(key):
        return
    await services.bot.send_message(tournament.chat_id, text)
    await services.repos.tournaments.set_state(tournament.id, key, True)


async def running_cup(services: Services, chat_id: int) -> Tournament | None:
    """The chat's running Cup tournament (a friendly Cup match is not one)."""
    for tournament in await services.repos.tournaments.active_in_chat(chat_id):
        if tournament.game == "cup" and tournament.status in LIVE \
                and not tournament.friendly:
            return tournament
    return None


async def my_play(services: Services, tr: Translator, chat_id: int, user_id: int
                  ) -> tuple[Tournament | None, MatchContext | None]:
    """The chat's running Cup and the sender's running match in it (either may be None);
    the sender's friendly Cup match when they have no match in a Cup tournament."""
    tournament = await running_cup(services, chat_id)
    match = None if tournament is None else \
        await services.repos.matches.current_for_player(tournament.id, user_id)
    if match is None and (live := await services.repos.matches.live_for_player_in_chat(
            chat_id, user_id, "cup")) is not None:
        owner = await services.repos.tournaments.get(live.tournament_id)
        if owner.friendly and owner.game == "cup":
            tournament, match = owner, live
    if match is None:
        return tournament, None
    return tournament, await context_for(services, tr, tournament, match)


async def sender_play(scope: Scope, tr: Translator) -> MatchContext | None:
    """The sender's live Cup match here (a tournament's or a friendly) that what they type
    is for: in a match's forum topic, that match or none (:meth:`Scope.live_matches`)."""
    match = await scope.live_match(of=("cup",))
    if match is None:
        return None
    tournament = await scope.services.repos.tournaments.get(match.tournament_id)
    return await context_for(scope.services, tr, tournament, match)


def _explain(tr: Translator, error: IllegalAction, match: MatchRow) -> str:
    params = error_params(error)
    if error.code == "bad_amount" and "amount" not in params:  # «рейз» alone: how to write it
        return tr("cup.raise_only" if params["min"] == params["max"] else "cup.raise_how_much",
                  low=params["min"], high=params["max"])  # as the raise button answers
    if error.code == "bad_amount" and params.get("min") == params.get("max"):
        return tr("cup.error.bad_amount_one", **params)  # not "a raise can be 1 to 1"
    return tr(f"cup.error.{error.code}", **params)


async def _announce(play: MatchContext, change: Change, actions: list[dict]) -> None:
    await _announcers[play.match.kind](play, change.before, change.after, actions[0])


async def _finish(play: MatchContext, state: Any, actor_id: int | None) -> None:
    if isinstance(state, ThirdPlaceChoice):  # a vote, no match: the picks, and what is played
        await close_match(play, None, {"picks": [state.pick_of(0), state.pick_of(1)],
                                       "format": state.result}, actor_id,
                          told={"format": state.result})
        return
    users = (play.match.player_a, play.match.player_b)
    winner = None if state.winner is None else users[state.winner]
    result = {"score": match_score(state)}
    if getattr(state, "points", None):
        result["points"] = list(state.points)
    await close_match(play, winner, result, actor_id)


async def _clocks(play: MatchContext) -> Clocks | None:
    """A die that opens the HP battle's next round starts its late clock with the die."""
    return hidden.turn_clocks(play.match.kind)


PLAYBOOK = Playbook(explain=_explain, announce=_announce, finish=_finish, clocks=_clocks)


async def perform(play: MatchContext, action: dict, actor_id: int, update_id: int | None,
                  wait: float = 0, alongside: Alongside = ()
                  ) -> bool:
    """Apply ``action`` through the match-play module; True when it was applied now.
    ``alongside``: said with the announcement once accepted (a pressed button answered)."""
    change = await perform_action(play, PLAYBOOK, [action], actor_id=actor_id,
                                  update_id=update_id, wait=wait, alongside=alongside)
    return change is not None


async def post(play: MatchContext, text: str, markup: InlineKeyboardMarkup | None = None, *,
               new: bool = True) -> None:
    """Show ``text`` as the match's status: a new message (``new``), else the match's newest
    message edited in place (sent when the match has none yet). Its id is kept on the match
    row, so a restart edits the same message; an earlier message keeps its buttons."""
    await show_board(play, text, markup, new=new, drop_old=False)


async def notice(play: MatchContext, text: str) -> None:
    """An organiser's notice about a live match (/reopen's, with its reason) in a message of
    its own: posted as the match's newest message, the next die, choice or bet would edit
    it into the board and take the notice away. The match's newest message is redrawn in
    place from the match's state (a round undone shows as undone there too)."""
    await play.say(text)
    await redraw_in_place(play)



Status = Callable[[MatchContext, Any], tuple[str, InlineKeyboardMarkup | None]]
"""A kind's newest message drawn from its state: text and buttons (rolling, the HP battle)."""


def closed_status(status: Status) -> SettledBoard:
    """How a match whose newest message ``status`` draws shows that it was closed outside
    its play (a disqualification, an organiser's result, a resignation): that message drawn
    again, ending in who won instead of who acts next, without buttons."""
    async def redraw(play: MatchContext, state: Any) -> None:
        await post(play, *status(play, state), new=False)
    return redraw


def status_board(status: Status) -> BoardAgain:
    """/board for a match whose newest message ``status`` draws (the rolls, the HP battle,
    the 3rd-place vote): that message posted again at the bottom of the chat, with its
    buttons; the old one loses them, and the match's next edits go to the new one."""
    async def again(play: MatchContext, state: Any) -> None:
        await show_board(play, *status(play, state), new=True)
    return again


def tried(play: MatchContext, event: dict) -> str:
    """A logged /try's outcome ("Alice: Success ✅"), said by what it decides."""
    return play.tr("try.success" if event["success"] else "try.failure",
                   name=play.names[event["player"]])


def match_score(state: Any) -> list[int]:
    """What the table shows as a finished match's score, whatever the format."""
    for attribute in ("score", "wins", "hp"):
        if hasattr(state, attribute):
            return list(getattr(state, attribute))
    return [0, 0]


async def close_match(play: MatchContext, winner: int | None, result: dict,
                      actor_id: int | None = None, *, told: dict[str, Any] | None = None,
                      update_id: int | None = None, logged: Write | None = None) -> None:
    """Record a finished match (played, or set by an organiser); its stage moves on right
    after the update (:data:`CLOSED_JOB`, stored with the result: a restart in between
    loses nothing), told ``told`` besides the finished row. ``update_id`` is claimed and
    ``logged`` (an organiser's entry) written in the result's transaction."""
    services, match = play.services, play.match
    now = services.clock.now()
    job = await services.repos.matches.settle(
        match.id, {"meta": "result", "winner": winner, "result": result}, actor_id, now,
        update_id, also=in_order(logged, lambda tx: insert_job(
            tx, CLOSED_JOB, now, play.tournament.id, {"match_id": match.id, **(told or {})})))
    services.scheduler.follow(job)


async def match_closed(services: Services, job: Job) -> None:
    """:data:`CLOSED_JOB`: the line that closed the match said, if any (an organiser's
    ``/setresult``, in the forum topic it was typed in: once, noted), then the finished
    match's stage goes on (tables, the next round or playoff match, a friendly's end)."""
    match = await services.repos.matches.get(job.payload["match_id"])
    tournament = await services.repos.tournaments.get(match.tournament_id)
    tr = await services.translator_for_chat(tournament.chat_id)
    async with services.lock(f"tournament-{tournament.id}"):
        if (said := job.payload.get("said")) and not job.payload.get("said_told"):
            await services.bot.send_message(tournament.chat_id, said,
                                            message_thread_id=job.payload.get("thread"))
            await services.repos.jobs.note(job.id, said_told=True)
        play = await context_for(services, tr, tournament, match)
        await _finishers[match.stage](play, job.payload)


async def button_play(services: Services, tr: Translator, query, match_id: int,
                      kinds: tuple[str, ...], *, players_only: bool = True
                      ) -> tuple[MatchContext, int | None]:
    """The match a button belongs to and the presser's seat in it. Refused when the button
    is stale (wrong kind, match over) or, with ``players_only``, not the presser's."""
    play = await load_match(services, tr, match_id, kinds)
    if play is None or play.match.status not in LIVE:
        raise Refusal("callback.stale")
    player = play.seat(query.from_user.id)
    if player is None and players_only:
        raise Refusal("cup.error.bad_player")
    return play, player
