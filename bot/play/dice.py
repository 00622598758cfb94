"""Dice input, once for every game that takes Telegram dice (``Game.dice``).

A player sends 🎲 in the group (its value is read from the message) or types /roll (the bot
sends the die). Refused: a forwarded die, another emoji, a roll by someone with no match in
a running tournament of the chat, and — before the bot rolls for /roll — a roll the engine
would refuse (so no die is sent that could not count). The die's value is committed first;
the announcement waits for the dice animation.
"""

from __future__ import annotations

from aiogram import F
from aiogram.filters import Command
from aiogram.types import Message, Update

from bot import games
from bot.features.handlers import Handlers
from bot.features.mine import why_no_match
from bot.i18n import Translator
from bot.middlewares.filters import IN_GROUP
from bot.middlewares.scope import Scope, game_commands
from bot.play.context import LIVE, MatchContext, context_for
from bot.play.perform import DICE_ANIMATION_SECONDS, perform, refused
from bot.play.refusal import Refusal, unless_paused
from bot.play.topics import other_match_topic
from bot.services import Services
from games.common.errors import IllegalAction
from storage.repositories.tournaments import Tournament

router = Handlers("play-dice")


def dice_games() -> tuple[str, ...]:
    return games.view(_collect_dice_games)


def _collect_dice_games() -> tuple[str, ...]:
    return tuple(game.key for game in games.all_games() if game.dice is not None)


async def _dice_tournaments(services: Services, chat_id: int) -> list[Tournament]:
    """The chat's running (or paused) tournaments of games that take 🎲."""
    dice_keys = dice_games()
    return [t for t in await services.repos.tournaments.active_in_chat(chat_id)
            if t.game in dice_keys and t.status in LIVE]


async def _sender_match(scope: Scope, tr: Translator,
                        running: list[Tournament]) -> MatchContext | None:
    """The sender's live match among the chat's dice games (``running``; in a match's forum
    topic: that match — :meth:`Scope.live_matches`); None when none runs here (the message
    is ordinary chat); refused when one runs but the sender has no match (there), told why
    as /match tells it (resting this round)."""
    match = await scope.live_match(of=dice_games())
    if match is not None:
        tournament = await scope.services.repos.tournaments.get(match.tournament_id)
        return await context_for(scope.services, tr, tournament, match)
    if running:
        told = await other_match_topic(scope, tr, dice_games())
        raise Refusal(text=told or await why_no_match(scope.services, tr, running,
                                                      scope.user.id))
    return None


async def _in_a_dice_game(message: Message, services: Services, scope: Scope) -> dict | bool:
    """Filter: a game that takes 🎲 is under way in this chat and the 🎲 is for it: the
    sender has a match of one, where they sent the 🎲 or elsewhere (to be pointed to), or
    no match where they sent it, or is entered in one outside the topic of their match of
    another game (told why: resting this round). A 🎲 of anyone else goes on to the game of
    their match (backgammon's bot rolls both dice itself, which it says) or is chat."""
    running = await _dice_tournaments(services, message.chat.id)
    if not running:
        return False
    mine = await scope.live_matches(of=dice_games()) or await scope.elsewhere(dice_games())
    told = mine or not await scope.live_matches() or (
        await scope.topic_match() is None and await _entered(scope, running))
    return {"running": running} if told else False


async def _entered(scope: Scope, running: list[Tournament]) -> bool:
    return any([await scope.services.repos.entrants.get(tournament.id, scope.user.id)
                for tournament in running])


async def _rolls_here(scope: Scope) -> bool:
    """Whether a /roll is for a game that takes 🎲: the sender's match it is for, among
    those of the games that roll (backgammon's /roll draws both dice in the bot; refused
    when nothing decides which — :meth:`Scope.live_match`), is a dice game's; or, with
    none where they typed, they have one elsewhere to be pointed to."""
    match = await scope.live_match(of=_rolling_games())
    if match is not None:
        return match in await scope.live_matches(of=dice_games())
    return bool(await scope.elsewhere(dice_games()))


def _rolling_games() -> tuple[str, ...]:
    return games.view(_collect_rolling_games)


def _collect_rolling_games() -> tuple[str, ...]:
    return tuple(game.key for game in games.all_games() if "roll" in game_commands(game.key))


async def _roll(ctx: MatchContext, message: Message, value: int, update_id: int) -> None:
    game = games.game_of(ctx.tournament.game)
    action = game.dice(ctx.seat(message.from_user.id), value)
    await perform(ctx, game.playbook, [action], actor_id=message.from_user.id,
                  update_id=update_id, wait=DICE_ANIMATION_SECONDS)


@router.message(F.dice, IN_GROUP, _in_a_dice_game)
async def dice(message: Message, running: list[Tournament], event_update: Update,
               scope: Scope, tr: Translator) -> None:
    ctx = await _sender_match(scope, tr, running)
    if message.forward_origin is not None:
        raise Refusal("play.forwarded")
    if message.dice.emoji != "🎲":
        raise Refusal("play.wrong_emoji", emoji=message.dice.emoji)
    await _roll(ctx, message, message.dice.value, event_update.update_id)


async def _for_a_dice_game(message: Message, scope: Scope) -> bool:
    """Filter: /roll for a game that takes 🎲 (:func:`_rolls_here`), else of the chat's
    game when it takes 🎲, or in a chat with no game (to say so). Any other game's /roll is
    its own (backgammon in the bot draws both dice) or, where the game has none, answered
    as every command a game does not use."""
    if await _rolls_here(scope):
        return True
    game = await scope.game()
    return game is None or game.dice is not None


@router.message(Command("roll"), IN_GROUP, _for_a_dice_game)
async def roll_command(message: Message, event_update: Update, scope: Scope,
                       services: Services, tr: Translator) -> None:
    ctx = await _sender_match(scope, tr, await _dice_tournaments(services, message.chat.id))
    if ctx is None:  # no dice game runs here: say what the chat has instead
        target = await scope.target()
        raise Refusal(target.error or "play.not_in_match", **(target.error_params or {}))
    await unless_paused(services, ctx.match)  # before the bot rolls a die that could not count
    game = games.game_of(ctx.tournament.game)
    trial = await services.matches.state(ctx.match)
    try:  # refuse before the bot rolls a die that could not count
        trial.apply(game.dice(ctx.seat(message.from_user.id), 1))
    except IllegalAction as error:
        raise refused(ctx, game.playbook, error) from None
    sent = await services.bot.send_dice(  # where the match is played (its forum topic)
        message.chat.id, emoji="🎲",
        message_thread_id=ctx.match.thread_id or message.message_thread_id)
    await _roll(ctx, message, sent.dice.value, event_update.update_id)
