"""Forum groups: with ``topics=on`` each match gets a topic of its own (createForumTopic).

The match's board, its announcements and its players' moves live in that topic
(``MatchContext.say`` and the live board post there); the general topic keeps the
tournament's announcements and tables. A group that is not a forum, or where the bot may not
manage topics, plays every match in the main chat, as with ``topics=off``.
"""

from __future__ import annotations

import logging
from collections.abc import Collection

from aiogram.exceptions import TelegramBadRequest
from aiogram.types import Chat, Message

from bot.games import game_of
from bot.i18n import Translator
from bot.middlewares.filters import topic_of
from bot.middlewares.scope import Scope
from bot.play.context import LIVE, context_for
from bot.play.refusal import Refusal
from bot.play.where import where_played
from bot.services import Services
from storage.repositories.matches import MatchRow
from storage.repositories.tournaments import Tournament
from storage.repositories.users import User

log = logging.getLogger(__name__)
TOPIC_NAME_LIMIT = 128  # Telegram's longest topic name



def typed_in_its_topic(message: Message, match: MatchRow) -> bool:
    """Whether an organiser's command about ``match`` was typed where the match is played
    (its forum topic; the group without topics): said there for its players. Typed
    elsewhere (a forum's general chat), it is answered where it was typed, its text naming
    the match, and the match's board in its topic shows the change."""
    return topic_of(message) == match.thread_id


def _topics_wanted(game: str, settings: dict) -> bool:
    """Whether a tournament of ``game`` with ``settings`` asks for a topic per match: played
    in the bot with ``topics=on`` (a match reported by /result has no board to put there)."""
    return settings.get("topics") == "on" and game_of(game).in_bot(settings)


def not_forum_line(tr: Translator, game: str, settings: dict, chat: Chat,
                   before: dict | None = None) -> str | None:
    """What ``/new`` (or ``/settings``, changing ``before``) asking for topics says in a
    group that is not a forum: its matches will be played in the main chat unless it is
    made one. Settings that asked for topics before say nothing again."""
    if chat.is_forum or not _topics_wanted(game, settings) or (
            before is not None and _topics_wanted(game, before)):
        return None
    return tr("topics.not_forum")


async def topics_problem(services: Services, tr: Translator,
                         tournament: Tournament) -> str | None:
    """When the tournament asks for topics, what the start says the organiser must fix for
    the matches to get them: the group made a forum, or the bot given the right to manage
    topics (else they are played in the main chat); None when nothing is to fix."""
    if not _topics_wanted(tournament.game, tournament.settings):
        return None
    bot = services.bot
    if not (await bot.get_chat(tournament.chat_id)).is_forum:
        return tr("topics.start_not_forum")
    member = await bot.get_chat_member(tournament.chat_id, (await bot.me()).id)
    if member.status == "creator" or getattr(member, "can_manage_topics", False):
        return None
    return tr("topics.start_no_rights")


async def open_topic(services: Services, tournament: Tournament, match: MatchRow,
                     names: tuple[str, str]) -> MatchRow:
    """The match with its own topic when the tournament asks for topics (once per match)."""
    if tournament.settings.get("topics") != "on" or match.thread_id is not None:
        return match
    tr = await services.translator_for_chat(tournament.chat_id)
    name = tr.plain("play.topic_name", match=match.id, a=names[0], b=names[1])
    try:
        topic = await services.bot.create_forum_topic(tournament.chat_id,
                                                      name[:TOPIC_NAME_LIMIT])
    except TelegramBadRequest as error:
        log.warning("match %s plays in the main chat: %s", match.id, error.message)
        return match
    await services.repos.matches.update(match.id, services.clock.now(),
                                        thread_id=topic.message_thread_id)
    return await services.repos.matches.get(match.id)


async def other_match_topic(scope: Scope, tr: Translator,
                            of: Collection[str] | None = None) -> str | None:
    """What is said to someone who wrote about their play (in a game of ``of``, when given)
    in a match's forum topic that has no live match of theirs for it: in a live match's
    topic they do not play, whose topic it is; in the topic of a match that is over, or of
    their match of another game, where they play now (:meth:`Scope.elsewhere`). None
    anywhere else."""
    topic = await scope.topic_match()
    if topic is None:
        return None
    if topic.status in LIVE and scope.user.id not in topic.players:
        return await _whose_topic(scope.services, tr, topic, "play.other_match_topic")
    elsewhere = await scope.elsewhere(of)
    if not elsewhere:
        return None
    head = tr("play.topic_over", match=topic.id) if topic.status not in LIVE else tr(
        "play.topic_other_game", match=topic.id, game=await _game_name(scope, tr, topic))
    return head + "\n" + await where_played(scope.services, tr, elsewhere)


async def _game_name(scope: Scope, tr: Translator, match: MatchRow) -> str:
    tournament = await scope.services.repos.tournaments.get(match.tournament_id)
    return tr(f"game.{tournament.game}")


async def _whose_topic(services: Services, tr: Translator, topic: MatchRow, key: str,
                       **params: str) -> str:
    """``key`` said of the topic's match: its number and its players' names."""
    tournament = await services.repos.tournaments.get(topic.tournament_id)
    ctx = await context_for(services, tr, tournament, topic)
    return tr(key, match=topic.id, a=ctx.names[0], b=ctx.names[1], **params)


async def named_player_match(scope: Scope, tr: Translator, name: str,
                             game: str) -> tuple[User | None, MatchRow | None]:
    """The player an organiser's command names (``@carol``) and their live match of ``game``
    it is about: in a match's forum topic, that match (refused, saying whose topic it is,
    when they do not play it: nothing typed there is about a match elsewhere); elsewhere
    their oldest live match of ``game`` in the chat."""
    services = scope.services
    user = await services.repos.users.by_username(name)
    if user is None:
        return None, None
    topic = await scope.topic_match()
    if topic is None:
        return user, await services.repos.matches.live_for_player_in_chat(scope.chat.id,
                                                                         user.id, game)
    if user.id not in topic.players:
        raise Refusal(text=await _whose_topic(services, tr, topic, "play.named_other_topic",
                                              name=name))
    return user, topic if topic.status in LIVE else None
