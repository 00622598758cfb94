"""Hidden input by DM: every player's private panel of a match, for any game.

A match kind that takes hidden input (the Cup's HP battle, a hand of cards) registers a
:class:`HiddenInput`: which action types are hidden, how a typed word (or a panel button's
word) reads as an action, what the panel shows a player, and how an action is described to
the organisers who asked for copies (/hostcopy). The platform does the rest:

- each player's panel is a DM message whose id is stored; it is edited in place when the
  match changes, sent anew when it asks for something new (:func:`open_panels`) or when the
  player asks for it again (``/hand``, ``/start m-<match id>``: :func:`resend`);
- an action arrives from a panel button, a typed word in the DM, or an organiser's
  ``/enter`` on a player's behalf, and always goes through :func:`submit` (the match-play
  path, under the match's lock);
- a late player is reminded and the group told after ``late_minutes``, by a per-match clock
  (:mod:`bot.play.clock`) that /pause freezes.

The chat side (typed words, buttons, /enter, /hostcopy) is :mod:`bot.play.hidden_chat`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import timedelta
from enum import Enum
from functools import partial
from typing import Any

from aiogram.exceptions import TelegramBadRequest
from aiogram.filters.callback_data import CallbackData
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot import games
from bot.features.keyboards import keyboard_of, link_keyboard, packed, press_button
from bot.i18n import Translator, lines
from bot.match_service import Clocks
from bot.play import clock
from bot.play.context import LIVE, MatchContext, context_for, handles_of, own_text
from bot.play.perform import Alongside, owe_board, perform
from bot.play.redraw import redraw_in_place
from bot.play.refusal import Refusal, pause_line
from bot.play.said import Said
from bot.sending import at_once, each_logged, raise_failure, settled
from bot.services import Services
from storage.db import Write
from storage.repositories.jobs import Job
from storage.repositories.matches import MatchRow
from storage.repositories.panels import PanelsRepo
from storage.repositories.tournaments import Tournament

LATE = "hidden_late"  # the clock kind of a late hidden choice

Note = Callable[[Translator], str]
"""A line a panel adds for one occasion (why the player is asked again), in their language."""


@dataclass(frozen=True)
class Panel:
    """What a player's private panel shows: a text and buttons, each carrying a word."""

    text: str
    buttons: tuple[tuple[str, str], ...] = ()  # (label, word read by HiddenInput.parse)
    columns: int = 0
    """Buttons per keyboard row; 0: all in one row."""
    extra: tuple[tuple[InlineKeyboardButton, ...], ...] = ()
    """Rows of the game's own buttons below the words (a step with a confirmation)."""
    position: int | None = None
    """The match position the panel was drawn at (``HiddenInput.position``): its buttons
    count only while the match is still there, so an old press changes nothing."""
    prompt: str = ""
    """The panel's last line: what the player is to do now. While the match is paused, why
    it waits takes its place (said under the text when there is none), without buttons."""


@dataclass(frozen=True)
class HiddenInput:
    types: tuple[str, ...]
    """The engine's action types that are hidden (``choose``)."""
    parse: Callable[[str], dict[str, Any] | None]
    """A typed word (or a button's word) → an action without ``player``; None: not one."""
    panel: Callable[[MatchContext, int, Translator, Any], Panel]
    """The panel of a seat, in that player's language, for the current state."""
    describe: Callable[[Translator, dict[str, Any], Any], str]
    """An accepted action (and the state before it) in words, for the organisers' copy."""
    late_minutes: int | None = 5
    """After how long a player still awaited is reminded (the platform's late clock); None
    when the game keeps a late clock of its own (the armchair's, per turn), so the platform's
    is neither started nor moved."""
    resolve: Callable[[Any, int, dict[str, Any]], dict[str, Any]] | None = None
    """The parsed action of ``seat`` completed against the current state (a typed card
    becomes the bowl, the bat or the discard the match waits for); None: as parsed."""
    position: Callable[[Any], int] | None = None
    """The state's position for the panels' buttons (see :attr:`Panel.position`)."""
    held: Callable[[Translator, Any, int], str] | None = None
    """What ``seat`` holds now (a hand of cards) in words, for an organiser entering a move for
    that player (/enter shows it, in the organiser's DM only); None: nothing is held."""
    redrawn_by_announce: bool = False
    """The game's announcement redraws every stored panel after each action (the armchair
    hand): :func:`submit` then draws the actor's panel only when none is stored yet."""
    unread: Callable[[Translator, Any, int, str], str | None] | None = None
    """The answer to a word typed in private that is not one (``word``) while match
    ``match_id`` (its state given) waits for something done elsewhere, nothing to type yet
    (the armchair's toss and choice, on the score card in the group); None: the common
    answer (how a word is written)."""


def _inputs() -> dict[str, HiddenInput]:
    """Every match kind that takes hidden input, as its game declares (``Game.hidden``)."""
    return games.view(_collect_inputs)


def _collect_inputs() -> dict[str, HiddenInput]:
    return {kind: hidden for game in games.all_games() for kind, hidden in game.hidden.items()}


def input_of(kind: str) -> HiddenInput | None:
    return _inputs().get(kind)


async def unread_answer(services: Services, tr: Translator, match: MatchRow, word: str) -> str:
    """The answer to ``word``, typed in private and no move, by a player of ``match`` (a
    hidden-input match): what the match waits for when it is nothing to type, else how a
    word is written."""
    hidden = _inputs()[match.kind]
    if hidden.unread is not None and (said := hidden.unread(
            tr, await services.matches.current(match), match.id, word)) is not None:
        return said
    return own_text(tr, "play.hidden_unread", match.kind, word=word)


def read_word(text: str) -> dict[str, Any] | None:
    """The action some hidden-input kind reads in ``text`` (None: no such word)."""
    return next((action for hidden in _inputs().values()
                 if (action := hidden.parse(text)) is not None), None)


class Pick(CallbackData, prefix="hid"):
    """A panel button (``panel=1``: only on the newest panel) or an answer to "which
    match is this word for?" (``panel=0``)."""

    match_id: int
    word: str
    panel: int = 1
    at: int = -1  # the position the panel was drawn at (-1: any)
    play: int = -1  # the match's play it was drawn in (MatchService.play; -1: any)


def pick_data(match_id: int, word: str, at: int, play: int) -> str:
    """A panel button's data: ``Pick(...).pack()``, without the model."""
    return packed(Pick, match_id, word, 1, at, play)


def panels(services: Services) -> PanelsRepo:
    return PanelsRepo(services.db)


async def awaited(services: Services, match: MatchRow, seat: int) -> bool:
    """Whether ``seat`` owes the match a hidden action now."""
    hidden = input_of(match.kind)
    if hidden is None or match.status not in LIVE:
        return False
    return _owes(hidden, await services.matches.current(match), seat)


def _owes(hidden: HiddenInput, state: Any, seat: int) -> bool:
    return any(action["type"] in hidden.types for action in state.legal_actions(seat))


def _late_clock(hidden: HiddenInput, state: Any) -> clock.Onward:
    """The late clock runs on while a player still owes a choice, and stops once none does."""
    return clock.Onward((LATE,), keep=any(_owes(hidden, state, seat) for seat in (0, 1)))


def turn_clocks(kind: str) -> Clocks | None:
    """The late clock as the actions of a ``kind`` match that are not hidden choices move
    it (a die that resolves the HP battle's round): when the new state awaits a choice, a
    turn of hidden input has just opened and its clock starts, written with the action;
    otherwise the clocks stay as they are. None for a kind without the platform's clock."""
    hidden = input_of(kind)
    if hidden is None or hidden.late_minutes is None:
        return None
    opened = clock.Onward((LATE,), start=((LATE, timedelta(minutes=hidden.late_minutes), {}),))
    return lambda state: opened if any(_owes(hidden, state, seat) for seat in (0, 1)) else None


async def open_panels(ctx: MatchContext, *, clock_started: bool = False,
                      tell: bool = True, note: Note | None = None) -> list[int]:
    """A new turn of hidden input: each player it awaits gets a fresh panel (``note``: a
    line on it, in the player's language, of why they are asked), and the late clock starts
    (unless the game keeps its own, or the action that opened the turn started it:
    :func:`turn_clocks`). The seats the bot cannot write to, as :func:`show`'s."""
    seats = [seat for seat in (0, 1) if await awaited(ctx.services, ctx.match, seat)]
    if not seats:
        return []
    minutes = _inputs()[ctx.match.kind].late_minutes
    if minutes is not None and not clock_started:
        await clock.start(ctx, LATE, timedelta(minutes=minutes))
    return await show(ctx, *seats, fresh=True, tell=tell, note=note)


async def redraw_live(services: Services, tournament: Tournament) -> None:
    """The stored panels of ``tournament``'s live matches redrawn once it is paused (why the
    match waits in place of the prompt, no buttons) or resumed (the prompt and the buttons
    back)."""
    tr = await services.translator_for_chat(tournament.chat_id)
    for match in await services.repos.matches.for_tournament(tournament.id):
        if input_of(match.kind) is not None and match.status in LIVE:
            await redraw_panels(await context_for(services, tr, tournament, match))


async def owe_unnoted_panels(services: Services) -> None:
    """At start-up: a live match whose board is out while a player it can reach has no
    panel (the process stopped in the middle of the match's opening, before it sent that
    panel or before it noted it) is drawn again at once, the panel sent
    (:func:`~bot.play.perform.owe_board`). A panel sent and not noted stays where it is: a
    press on it is answered as old, the new one is below it."""
    me = (await services.bot.me()).id
    for match_id in await panels(services).owed(list(_inputs()), me):
        await owe_board(services, await services.repos.matches.get(match_id), timedelta(0))


async def redraw_panels(ctx: MatchContext, *, missing: bool = False,
                        reached: int | None = None) -> None:
    """The match's panels redrawn in place, as it stands, where the players have one: a
    match closed outside its play (each game's panel then says who won,
    :meth:`MatchContext.closed_line`, without buttons), a paused or resumed one, one whose
    last action may not have been shown (delivered again after a restart). ``missing``: a
    live match also sends their panel to each player who never got one (the send met
    Telegram out of reach, or the process stopped before it) and holds a hand or owes a
    choice (not a player put in by ``/replace`` whose entry's choice stands), unless the bot
    cannot write to them (the group was told how to open the chat) or plays the seat
    itself. ``reached``: a player who wrote to the bot in private since, whose panel is
    sent even so (their first card typed there, delivered again after a stop before
    their panel went out)."""
    match = ctx.match
    if (hidden := input_of(match.kind)) is None:
        return
    stored = panels(ctx.services)
    owed = missing and match.status in LIVE
    unreached = await stored.unreached(match.id) if owed else frozenset()
    me = (await ctx.services.bot.me()).id if owed else None
    seats = [seat for seat, user_id in enumerate(match.players)
             if await stored.get(match.id, user_id) is not None
             or owed and (user_id not in unreached or user_id == reached) and user_id != me
             and (hidden.held is not None or await awaited(ctx.services, match, seat))]
    if seats:
        await show(ctx, *seats)


async def show(ctx: MatchContext, *seats: int, fresh: bool = False,
               tell: bool = True, note: Note | None = None) -> list[int]:
    """Show each of ``seats`` their panel: edit the stored one in place, or (``fresh``, or
    none yet) send a new one; return the seats the bot cannot DM, whom the group is told of
    in one message with a deep link (``tell=False``: the caller says it on the match's own
    message, :func:`unreached_line`). The players' DMs are written at once
    (:func:`~bot.sending.settled`); the new panels are stored in one write, also when another
    seat's send failed. ``note``: a line on each panel, above what to do."""
    drawn = await settled(*(_draw(ctx, seat, fresh=fresh, note=note) for seat in seats))
    unreached = [seat for seat, panel in zip(seats, drawn, strict=True)
                 if panel is Resent.UNDELIVERED]
    reached = [seat for seat, panel in zip(seats, drawn, strict=True)
               if panel is None or isinstance(panel, tuple)]
    players = ctx.match.players
    await panels(ctx.services).put_many(
        ctx.match.id, [panel for panel in drawn if isinstance(panel, tuple)],
        reached=frozenset(players[seat] for seat in reached),
        unreached=frozenset(players[seat] for seat in unreached))
    if tell and unreached:
        await _tell_unreachable(ctx, unreached)
    raise_failure(drawn)
    return unreached


async def opened_with_panels(ctx: MatchContext, panels_sent: Callable[[], Awaitable[list[int]]],
                             message: Callable[..., Awaitable[None]]) -> None:
    """A turn of hidden input opened: the players' panels (``panels_sent``, with
    ``tell=False``: the seats it could not reach) and the match's group message
    (``message(new=True)`` posts it, ``new=False`` edits it), which asks the players the
    bot cannot write to to open its chat (:func:`unreached_line`). When every player is
    expected to be reached
    (:func:`_expected_reached`), both go out at once, so their waits for Telegram overlap,
    and the message is drawn again in place should one not be reached after all. Otherwise
    the panels go first and the message says it as it is first posted: an edit of it would
    cost the group's minute another message (the message goes out even when a panel's
    send fails). Called under the match's lock, so a player opening the chat meanwhile
    gets their panel (:func:`resend`) before or after, never in between."""
    if await _expected_reached(ctx):
        _, unreached = await at_once(message(new=True), panels_sent())
        if unreached:
            await message(new=False)
        return
    try:
        await panels_sent()
    finally:
        await message(new=True)


async def _expected_reached(ctx: MatchContext) -> bool:
    """Whether the bot expects to write to each human player of the match: each has opened
    its private chat (the bot cannot write first to anyone else) and was not found out of
    reach in this match since."""
    services, match = ctx.services, ctx.match
    me = (await services.bot.me()).id
    unreached = await panels(services).unreached(match.id)
    for user_id in match.players:
        if user_id is None or user_id == me:
            continue
        if user_id in unreached or not await services.opened_private_chat(user_id):
            return False
    return True


def chat_button(services: Services, tr: Translator, match: MatchRow) -> InlineKeyboardMarkup:
    """The button that opens the bot's chat at ``match``'s panel (``/start m-<match>``),
    labelled in the match kind's own words (the HP battle's «Choose in private»)."""
    return link_keyboard(own_text(tr, "dm.open_button", match.kind),
                         services.deep_link(f"m-{match.id}"))


async def _tell_unreachable(ctx: MatchContext, seats: list[int]) -> None:
    """Ask the players of ``seats``, whom the bot cannot write to, to open its chat: one
    group message for both when neither can be reached."""
    await ctx.services.outbox.open_chat_notice(
        ctx.tournament.chat_id, unreached_line(ctx, seats),
        button_text=ctx.tr("dm.open_button"), payload=f"m-{ctx.match.id}",
        thread_id=ctx.match.thread_id)


async def still_unreached(ctx: MatchContext) -> list[int]:
    """The seats whose panel the bot could not send and has not sent since (the player has
    not opened its chat): the match's own message keeps asking them (:func:`unreached_line`)."""
    unreached = await panels(ctx.services).unreached(ctx.match.id)
    return [seat for seat, user_id in enumerate(ctx.match.players) if user_id in unreached]


async def open_chat_button(services: Services, tr: Translator, matches: list[MatchRow],
                           user_id: int) -> InlineKeyboardMarkup | None:
    """The button to the private chat for ``user_id`` when the bot could not send them their
    panel of one of ``matches`` and has not since (what tells them of the match asks them
    to open the chat first)."""
    for match in matches:
        if user_id in await panels(services).unreached(match.id):
            return chat_button(services, tr, match)
    return None


def unreached_line(ctx: MatchContext, seats: list[int]) -> str:
    """The players of ``seats``, whom the bot cannot write to, asked to open its chat (by
    the deep-link button of the message that says it), in one line naming both when neither
    can be reached (a new group's first match)."""
    return _naming(ctx, "play.hidden_cannot_dm", seats)


def _naming(ctx: MatchContext, key: str, seats: list[int], handles: Sequence[str] = (),
            **params: Any) -> str:
    """``key`` naming the player of one seat (``name``), or ``key``'s ``_both`` text naming
    both (``a``, ``b``), in the match kind's own words; given their ``handles`` (the
    @usernames, seat by seat), also ``handle`` or ``handle_a`` and ``handle_b``."""
    one = len(seats) == 1
    names = [ctx.names[seat] for seat in seats]
    named = {"name": names[0]} if one else {"a": names[0], "b": names[1]}
    handled = dict(zip(("handle",) if one else ("handle_a", "handle_b"), handles, strict=False))
    return own_text(ctx.tr, key if one else f"{key}_both", ctx.match.kind,
                    match=ctx.match.id, **named, **handled, **params)


async def _draw(ctx: MatchContext, seat: int, *, fresh: bool,
                note: Note | None = None) -> tuple[int, int] | Resent | None:
    """Draw ``seat``'s panel (see :func:`show`); the player and the message id to store when
    the panel is now another message than the stored one, :attr:`Resent.UNDELIVERED` when
    the bot cannot write to them, else None."""
    services, match = ctx.services, ctx.match
    user_id = match.players[seat]
    user_tr = await services.translator_for_chat(user_id)
    pause = await pause_line(services, match, user_tr)
    title = await _tournament_line(ctx, user_id, user_tr)
    # the cached state itself, not a copy: the panel is drawn from it before the next await
    panel = _inputs()[match.kind].panel(ctx, seat, user_tr, await services.matches.current(match))
    text = lines(title, panel.text, note and note(user_tr), pause or panel.prompt)
    markup = None if pause else _keyboard(match.id, panel, services.matches.play(match.id))
    stored = await panels(services).get(match.id, user_id)
    if stored is not None and not fresh:
        message_id = await services.outbox.board(user_id, stored, text, markup,
                                                 resend=not ctx.closed)
    else:
        sent = await services.outbox.dm(user_id, text, markup=markup)
        if sent is None:
            return Resent.UNDELIVERED
        message_id = sent.message_id
    return (user_id, message_id) if message_id != stored else None


async def _tournament_line(ctx: MatchContext, user_id: int, user_tr: Translator) -> str | None:
    """The tournament's title (a friendly match said as one: its title names the players
    the panel names), above the panel of a player whose live matches that take private
    input are in more than one tournament (two Cups: two panels alike but for the match's
    number); else None."""
    if len(await panels(ctx.services).live_matches(user_id)) < 2:
        return None  # one live match is one tournament: no match rows to read
    live = await live_hidden_matches(ctx.services, user_id)
    if len({row.tournament_id for row in live}) < 2:
        return None
    if ctx.tournament.friendly:
        return user_tr("play.hidden_panel_friendly")
    return user_tr("play.hidden_panel_tournament", title=ctx.tournament.title)


def _keyboard(match_id: int, panel: Panel, play: int) -> InlineKeyboardMarkup | None:
    """The panel's buttons, each carrying its position and the match's ``play``."""
    if not panel.buttons and not panel.extra:
        return None
    at = -1 if panel.position is None else panel.position
    buttons = [press_button(label, pick_data(match_id, word, at, play))
               for label, word in panel.buttons]
    width = panel.columns or len(buttons) or 1
    return keyboard_of([*(buttons[i:i + width] for i in range(0, len(buttons), width)),
                        *panel.extra])


def stale_position(hidden: HiddenInput, state: Any, at: int, play: int, now_play: int) -> bool:
    """Whether a panel drawn at position ``at`` in the match's ``play`` (-1 each: any) no
    longer matches the match, whose play is ``now_play`` (a rewind plays its positions
    again: an HP round after /reopen)."""
    return (at >= 0 and hidden.position is not None and hidden.position(state) != at) \
        or 0 <= play != now_play


class Resent(Enum):
    """What :func:`resend` did."""

    NO_MATCH = "no match"  # no match has that number
    NOT_THEIRS = "not theirs"  # a match they do not play in
    NO_PANEL = "no panel"  # theirs, of a kind without hidden input
    OVER = "over"  # theirs, and no longer played
    SENT = "sent"
    UNDELIVERED = "undelivered"  # the bot cannot write to them; the group was told why


async def resend(services: Services, user_id: int, match_id: int) -> Resent:
    """Send the user's panel of a live hidden-input match again, below everything else
    (the old copy is removed)."""
    match = await services.repos.matches.get(match_id)
    if match is None:
        return Resent.NO_MATCH
    if user_id not in match.players:
        return Resent.NOT_THEIRS
    if input_of(match.kind) is None:
        return Resent.NO_PANEL
    if match.status not in LIVE:
        return Resent.OVER
    tournament = await services.repos.tournaments.get(match.tournament_id)
    tr = await services.translator_for_chat(tournament.chat_id)
    # not while the match opens (:func:`opened_with_panels`): its "could not reach them"
    # would be written after this panel reached them, and its message ask them anyway
    async with services.matches.lock(match_id):
        ctx = await context_for(services, tr, tournament,
                                await services.repos.matches.get(match_id))
        seat, old = ctx.seat(user_id), await _stored(ctx)
        asked = seat in await still_unreached(ctx)
        await show(ctx, seat, fresh=True)
        # a fresh panel that reached them has a new message id
        if seat not in await _drop_replaced(ctx, old):
            return Resent.UNDELIVERED
        if asked:  # the match's message asked them to open the chat: no longer
            await redraw_in_place(ctx)
    return Resent.SENT


async def renew(ctx: MatchContext, why: Note) -> None:
    """A match taken back (an organiser's /reopen): each player it awaits now gets a fresh
    panel asking again, saying ``why`` (the late clock starts again), and the old one, whose
    choice or buttons belong to the play undone, is deleted; a panel not sent anew (a player
    not awaited, or out of reach) is redrawn in place."""
    if input_of(ctx.match.kind) is None:
        return
    old = await _stored(ctx)
    await open_panels(ctx, note=why)
    replaced = await _drop_replaced(ctx, old)
    await show(ctx, *[seat for seat in old if seat not in replaced])


async def _stored(ctx: MatchContext) -> dict[int, int]:
    """Each seat's stored panel message id, for the seats that have one."""
    stored = panels(ctx.services)
    found = {seat: await stored.get(ctx.match.id, user_id)
             for seat, user_id in enumerate(ctx.match.players)}
    return {seat: message_id for seat, message_id in found.items() if message_id is not None}


async def _drop_replaced(ctx: MatchContext, old: dict[int, int]) -> set[int]:
    """The seats whose panel is now another message than ``old``'s (sent anew); their old
    panel is deleted, its buttons gone with it."""
    new = await _stored(ctx)
    replaced = {seat for seat in new if new[seat] != old.get(seat)}
    for seat in replaced & old.keys():
        with contextlib.suppress(TelegramBadRequest):
            await ctx.services.bot.delete_message(ctx.match.players[seat], old[seat])
    return replaced


async def owed_on_opening(services: Services, match: MatchRow, user_id: int) -> bool:
    """Whether a user who opens the chat with the bot should get their panel of ``match``
    at once: it awaits their choice, or it never reached them (a hand dealt before they
    started the bot, which they want to see before it is their turn)."""
    return (await awaited(services, match, match.players.index(user_id))
            or await panels(services).get(match.id, user_id) is None)


async def live_hidden_matches(services: Services, user_id: int) -> list[MatchRow]:
    """The user's live matches of kinds that take hidden input, oldest first."""
    rows = [await services.repos.matches.get(i)
            for i in await panels(services).live_matches(user_id)]
    return [row for row in rows if input_of(row.kind) is not None]


async def submit(ctx: MatchContext, seat: int, action: dict[str, Any], *, actor_id: int,
                 update_id: int | None, at: int = -1, play: int = -1,
                 alongside: Alongside = (), logged: Write | None = None,
                 said: Sequence[Said] = ()) -> bool:
    """Apply a hidden action of ``seat`` (their own, or entered by an organiser); True when
    applied now. ``at`` and ``play``: the position and the play of the match the pressed
    panel was drawn at (refused once the match has moved on, or was taken back and played
    again: :meth:`~bot.match_service.MatchService.play`); ``alongside``, ``logged`` and
    ``said``: as :func:`~bot.play.perform.perform`'s. The panel is updated, the organisers'
    copies go out (written with the action, as ``said``), the late clock runs on for whoever
    is still awaited."""
    services = ctx.services
    game = games.game_of(ctx.tournament.game)
    hidden = _inputs()[ctx.match.kind]
    action = {**action, "player": seat}
    if hidden.resolve is not None:  # reads the cached state itself, before the next await
        action = hidden.resolve(await services.matches.current(ctx.match), seat, action)
    copies = await _host_copies(ctx, seat, action, actor_id)

    def check(state: Any) -> None:
        if stale_position(hidden, state, at, play, services.matches.play(ctx.match.id)):
            raise Refusal("callback.stale")

    stored = await panels(services).get(ctx.match.id, ctx.match.players[seat])
    redrawn = hidden.redrawn_by_announce and stored is not None
    # an organiser's /enter for a player the bot never reached: no panel to update, and
    # nothing to ask of them in the group
    unreached = actor_id != ctx.match.players[seat] and stored is None
    own_panel = () if redrawn or unreached else (partial(show, ctx, seat),)
    late = None if hidden.late_minutes is None else partial(_late_clock, hidden)
    change = await perform(ctx, game.playbook, [action], actor_id=actor_id,
                           update_id=update_id, check=check,
                           alongside=[*alongside, *own_panel], clocks=late, logged=logged,
                           said=[*copies, *said])
    return change is not None


def _hosts(ctx: MatchContext, actor_id: int) -> list[int]:
    """Organisers who opted in (/hostcopy) to get each hidden action as it is made — except
    the players of this very match (nobody learns an opponent's secret that way) and the
    organiser who entered it (/enter confirms it to them)."""
    return [host for host in ctx.tournament.state.get("host_copy", [])
            if host not in ctx.match.players and host != actor_id]


async def _host_copies(ctx: MatchContext, seat: int, action: dict[str, Any],
                       actor_id: int) -> list[Said]:
    """The copies of ``seat``'s hidden ``action`` for the organisers who asked for them
    (:func:`_hosts`), each in its reader's language, described from the state before it."""
    hosts = _hosts(ctx, actor_id)
    if not hosts:
        return []
    hidden = _inputs()[ctx.match.kind]
    readers = {host: await ctx.services.translator_for_chat(host) for host in hosts}
    before = await ctx.services.matches.current(ctx.match)  # read here, before any await
    return [Said(own_text(host_tr, "play.hidden_host_copy", ctx.match.kind,
                          name=ctx.names[seat], match=ctx.match.id,
                          choice=hidden.describe(host_tr, action, before)), host)
            for host, host_tr in readers.items()]


async def _late(ctx: MatchContext, job: Job) -> clock.Alert | None:
    """The late clock ran out: remind each player still awaited, and tell the group in one
    alert (where the organisers can act: /enter, with the @username of each late player,
    /setresult, /dq) — not in a friendly match, which has no organisers."""
    services, kind = ctx.services, ctx.match.kind
    state = await services.matches.state(ctx.match)
    late = [seat for seat in (0, 1) if await awaited(services, ctx.match, seat)]

    async def remind(seat: int) -> None:
        user_id = ctx.match.players[seat]
        user_tr = await services.translator_for_chat(user_id)
        await services.outbox.dm(user_id, own_text(
            user_tr, "play.hidden_reminder", kind, match=ctx.match.id,
            round=getattr(state, "round", "")))

    # a reminder Telegram does not take is not tried again: the group's alert goes on
    await each_logged(f"match {ctx.match.id}: the reminder to",
                      {ctx.match.players[seat]: remind(seat) for seat in late})
    if not late or ctx.tournament.friendly:
        return None
    handles = await handles_of(services, ctx.tournament.id)
    return clock.Alert(_naming(ctx, "play.hidden_late", late,  # a ready /enter for each
                               [handles[ctx.match.players[seat]] for seat in late],
                               minutes=_inputs()[kind].late_minutes))


late_clock = clock.timeout(LATE, _late)
"""The runner of the late clock, for the ``jobs`` of a game that takes hidden input."""
