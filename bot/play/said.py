"""Words said with a match's action, after its announcement: an organiser's decision with
its reason (a penalty, a game entered, time given back, a darts starter or correction, a
move entered for a player: to the organiser and to the player), a dispute's hint to the
organisers, an organiser's copy of a hidden action (/hostcopy). The match's board
shows the action itself, and is drawn again when a bot that stopped right after the write
is given the update again; these words are not on it, so they are written with the action
as a :data:`SAID_JOB` each, said by the update and, when that did not happen, by the job
(:mod:`bot.play.held`)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import datetime

from aiogram.types import Message, ReplyParameters

from bot.play.context import MatchContext
from bot.play.held import Held
from bot.services import Services
from storage.repositories.jobs import Job

SAID_JOB = "match_said"
"""Written with an action whose words go after its announcement (:class:`Said`)."""


@dataclass(frozen=True)
class Said:
    """``text`` to post in chat ``chat_id`` (its forum topic ``thread_id``), as a reply to
    message ``reply_to`` when set."""
    text: str
    chat_id: int
    thread_id: int | None = None
    reply_to: int | None = None

    @classmethod
    def in_match(cls, ctx: MatchContext, text: str) -> Said:
        """Said in the match's place: its forum topic, else the group (as ``ctx.say``)."""
        return cls(text, ctx.tournament.chat_id, ctx.match.thread_id)

    @classmethod
    def answering(cls, message: Message, text: str, *, reply: bool = False) -> Said:
        """Said where ``message`` was typed (as ``message.answer``, or ``reply``)."""
        return cls(text, message.chat.id,
                   message.message_thread_id if message.is_topic_message else None,
                   message.message_id if reply else None)


def held(said: Said, tournament_id: int, now: datetime) -> Held:
    """``said``'s :data:`SAID_JOB`, to write with the action."""
    return Held(SAID_JOB, tournament_id, now, asdict(said))


async def say(services: Services, said: Said) -> None:
    reply = None if said.reply_to is None else ReplyParameters(
        message_id=said.reply_to, allow_sending_without_reply=True)
    await services.bot.send_message(said.chat_id, said.text, message_thread_id=said.thread_id,
                                    reply_parameters=reply)


async def said_owed(services: Services, job: Job) -> None:
    """:data:`SAID_JOB`, found pending at start-up or run after the update's words failed."""
    await say(services, Said(**job.payload))
