"""What an update is about — the chat's tournament, the sender's live match, whether the
sender organises — resolved once per update, when first asked, and injected as ``scope``.

Routers of a game receive group messages only when the update is about that game
(:class:`ForItsGame`), so commands several games answer (/match, /standings, /setresult …)
reach exactly one handler, whatever the order of the routers. A player in live matches of
two games here (two tournaments in one group) has text, and commands the first game does
not answer, shown to both games' routers (:meth:`Scope.games`).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from aiogram import BaseMiddleware
from aiogram.types import Chat, Message, TelegramObject, Update, User

from bot import games
from bot.features.access import Target, is_entrant, is_organiser, target_tournament
from bot.middlewares.filters import Gate, command_name, topic_of
from bot.play.refusal import GROUP_ONLY, Refusal
from bot.play.where import where_played
from bot.services import Services
from storage.repositories.matches import MatchRow
from storage.repositories.tournaments import LIVE, Tournament

_UNSET: Any = object()


class Scope:
    def __init__(self, services: Services, chat: Chat | None, user: User | None,
                 text: str | None, thread: int | None = None) -> None:
        self.services, self.chat, self.user, self.thread = services, chat, user, thread
        self.args = text.split(maxsplit=1)[1] if text and text.startswith("/") \
            and " " in text.strip() else None
        self.command = command_name(text)
        self._target: Target | None = None
        self._live: Any = _UNSET
        self._topic: Any = _UNSET
        self._game: Any = _UNSET
        self._games: Any = _UNSET
        self._tables: frozenset[object] | None = None
        self._organiser: bool | None = None

    @property
    def in_group(self) -> bool:
        return self.chat is not None and self.chat.type != "private"

    async def target(self) -> Target:
        """The tournament a command in this chat is about: ``#id`` as its first word, else
        the newest open one (a player's own command: theirs), else the newest finished one
        — as the command's handler picks it (:func:`target_tournament`)."""
        if self._target is None:
            self._target = await target_tournament(
                self.services, self.chat.id, self.args,
                self.user.id if self.user else None, self.command,
                self.thread) if self.in_group else Target(
                None, [], GROUP_ONLY)
        return self._target

    async def tournament(self) -> Tournament | None:
        return (await self.target()).tournament

    async def live_match(self, of: Collection[str] | None = None) -> MatchRow | None:
        """The sender's live match the message is for (of the games ``of``, when given): in
        a match's forum topic, that match or none; elsewhere the one :meth:`_decided` leaves,
        refused when nothing decides between several (never a guess), naming them and where
        each is played."""
        live = await self._decided(of)
        if len(live) > 1:
            tr = await self.services.translator_for_chat(self.chat.id)
            raise Refusal(text=tr("play.which_match") + "\n"
                          + await where_played(self.services, tr, live))
        return live[0][1] if live else None

    async def live_matches(self, of: Collection[str] | None = None) -> list[MatchRow]:
        """All of them, oldest first (a player may play in two tournaments here)."""
        return [match for _, match in await self._live_of(of)]

    async def elsewhere(self, of: Collection[str] | None = None) -> list[tuple[str, MatchRow]]:
        """In a match's forum topic that has no live match of the sender's (of ``of``) — the
        match is over, another game's, or another player's —, the sender's live matches
        (of ``of``) played elsewhere in the chat, each with its game; [] anywhere else."""
        if await self.topic_match() is None or await self._live_of(of):
            return []
        live = await self.services.repos.matches.live_in_chat(self.chat.id, self.user.id)
        return [(game, match) for game, match in live if of is None or game in of]

    async def topic_match(self) -> MatchRow | None:
        """The match played in the forum topic the message was sent in; None elsewhere."""
        if self._topic is _UNSET:
            self._topic = None if not self.in_group or self.thread is None else \
                await self.services.repos.matches.in_topic(self.chat.id, self.thread)
        return self._topic

    async def _live_of(self, of: Collection[str] | None) -> list[tuple[str, MatchRow]]:
        return [(game, match) for game, match in await self._live_matches()
                if of is None or game in of]

    async def _decided(self, of: Collection[str] | None) -> list[tuple[str, MatchRow]]:
        """The sender's live matches (of ``of``) narrowed down to the one a message is for,
        each with its game: with several, those played where it was typed (the chat
        itself; in a match's topic only that match is left), then those waiting for the
        sender (at the oche, to roll, to move: :meth:`~bot.games.Game.waits_for`). More
        than one left: nothing decides."""
        live = await self._live_of(of)
        if len(live) > 1:
            live = [found for found in live if found[1].thread_id is None] or live
        if len(live) > 1:
            live = [found for found in live if await self._waits_for_sender(*found)] or live
        return live

    async def _waits_for_sender(self, game: str, match: MatchRow) -> bool:
        if match.kind not in games.game_of(game).engines:  # played elsewhere, reported
            return False
        state = await self.services.matches.current(match)  # read at once, never changed
        return games.game_of(game).waits_for(state, match.players.index(self.user.id))

    async def _live_matches(self) -> list[tuple[str, MatchRow]]:
        """The sender's live matches here with their games, oldest first. The topic decides:
        what is typed in a match's forum topic is about that match, never the sender's match
        elsewhere (a player writing in another match's topic has no live match there)."""
        if self._live is _UNSET:
            self._live = []
            if self.in_group and self.user is not None:
                live = await self.services.repos.matches.live_in_chat(self.chat.id,
                                                                       self.user.id)
                topic = await self.topic_match()
                self._live = live if topic is None else \
                    [found for found in live if found[1].id == topic.id]
        return self._live

    async def game(self) -> games.Game | None:
        """The game the update is about: the sender's live match's (for a command its game
        has not, the chat's newest running tournament whose game has it, the sender's first,
        where there is one: a resting Cup player's /roll while he plays darts), else the command's
        tournament's (``#id``, or the match topic the command was sent in, names it), else —
        in a chat with no tournament of its own, or whose newest tournament's game has no
        such command — the game of the sender's last match here (a friendly that has ended:
        its game answers that the match is over, or sends its record), else of the chat's
        newest running tournament whose game has it (an organiser's /undo while darts and a
        Cup run). Found once per update: every game's handlers ask (:class:`ForItsGame`)."""
        if self._game is _UNSET:
            self._game = await self._find_game()
        return self._game

    async def _find_game(self) -> games.Game | None:
        decided = [] if self.args and self.args.startswith("#") else await self._decided(None)
        if decided:  # the first, when nothing decides: a game's handler refuses to guess
            running = None if self._answered_by(decided[0][0]) \
                else await self._running_answering(entered_only=True)
            return games.get(running.game if running else decided[0][0])
        target = await self.target()
        tournament = target.tournament
        if not target.named and (tournament is None or not self._answered_by(tournament.game)):
            tournament = await self._last_friendly() or await self._running_answering() \
                or tournament
        return None if tournament is None else games.get(tournament.game)

    async def games(self) -> tuple[games.Game, ...]:
        """The games the update may be about: :meth:`game`, and — for text, or a command
        that game does not answer — the games of the sender's other live matches here: a
        player in tournaments of two games in one group plays both, and a move typed for
        the newer one must reach its game (each game's handlers find their own match)."""
        if self._games is _UNSET:
            first = await self.game()
            found = [first]
            if not (self.args or "").startswith("#") and (
                    first is None or not self.command or not self._answered_by(first.key)):
                found += [games.get(key) for key, _ in await self._live_matches()]
            self._games = tuple({game.key: game for game in found if game is not None}
                                .values())
        return self._games

    async def tables(self) -> frozenset[object]:
        """The routers' tables of :meth:`games`: a game's handlers take the message only
        when their table is one of them (:class:`ForItsGame`)."""
        if self._tables is None:
            self._tables = frozenset(table for game in await self.games()
                                     for table in game.routers)
        return self._tables

    def _answered_by(self, game: str) -> bool:
        """Whether the message is not a game's command, or one that game ``game`` answers."""
        return self.command not in game_commands() or self.command in game_commands(game)

    async def _running_answering(self, *, entered_only: bool = False) -> Tournament | None:
        """The chat's newest running (or paused) tournament whose game answers the command,
        one the sender is entered in first (``entered_only``: only such: a player in a match
        of another game is not sent to a tournament they do not play in)."""
        if not self.in_group:
            return None
        running = [tournament for tournament in
                   await self.services.repos.tournaments.active_in_chat(self.chat.id)
                   if tournament.status in LIVE and not tournament.friendly
                   and self._answered_by(tournament.game)]
        entered = [tournament for tournament in running if self.user is not None
                   and await is_entrant(self.services, tournament, self.user.id)]
        return (entered or ([] if entered_only else running) or [None])[0]

    async def _last_friendly(self) -> Tournament | None:
        if not self.in_group or self.user is None or (self.args or "").startswith("#"):
            return None
        last = await self.services.repos.matches.last_for_player_in_chat(self.chat.id,
                                                                          self.user.id)
        return None if last is None else \
            await self.services.repos.tournaments.get(last.tournament_id)

    async def organiser(self) -> bool:
        if self._organiser is None:
            self._organiser = self.user is not None and self.chat is not None and \
                await is_organiser(self.services, self.chat.id, self.user.id)
        return self._organiser


def game_commands(key: str | None = None) -> frozenset[str]:
    """The commands game ``key`` has (every game's, when None): those its routers answer,
    and /roll for a game that takes 🎲 (answered once for all of them, bot/play/dice.py)."""
    return games.view(_commands_by_game).get(key, frozenset())


def _commands_by_game() -> dict[str | None, frozenset[str]]:
    """Built at the first update (the routers are complete once the bot is built) and again
    after a game is registered, like the other views of the registered games."""
    by_game: dict[str | None, frozenset[str]] = {
        game.key: frozenset(command for table in game.routers for command in table.commands())
        | ({"roll"} if game.dice is not None else set()) for game in games.all_games()}
    by_game[None] = frozenset().union(*by_game.values())
    return by_game


class ScopeMiddleware(BaseMiddleware):
    async def __call__(self, handler, event: Update, data: dict[str, Any]):
        message = event.message
        data["scope"] = Scope(data["services"], data.get("event_chat"),
                              data.get("event_from_user"), message.text if message else None,
                              topic_of(message) if message else None)
        return await handler(event, data)


class ForItsGame(Gate):
    """Guard on every message handler of a game's routers: its group messages reach them only
    when the update is about that game; private messages pass (their handlers find the match
    themselves). The routers' observers ask it before the handler's own filters."""

    def __init__(self, table: object) -> None:
        self.table = table

    async def opens(self, event: TelegramObject, data: dict[str, Any]) -> bool:
        if not isinstance(event, Message) or event.chat.type == "private":
            return True
        return self.table in await data["scope"].tables()
