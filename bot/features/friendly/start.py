"""Which games have friendly matches, and how one is created and launched.

A game played in the bot (``Game.launch``) plays its friendly exactly as a tournament match
of its ``match_kind``. The Cup has no single-match launch (its tournament opens whole
rounds), so its friendly is one group-stage match (kind ``group``: first to 3 round wins
with 🎲) opened here with the Cup's own status text.
"""

from __future__ import annotations

from typing import Any

from bot import games
from bot.features.game_names import game_named, games_of_word, meant, not_a_game
from bot.features.lifecycle import job_kind
from bot.game_settings import (
    FORMAT_SETTINGS,
    hints,
    parse_settings,
    refusal,
    refused_key,
    settings_line,
)
from bot.games import Game, MatchLauncher
from bot.i18n import Translator, clip, lines
from bot.play.context import in_its_chat
from bot.play.perform import board_owed_after_faults, bot_moves
from bot.play.refusal import Refusal
from bot.services import Services
from storage.repositories.jobs import Job
from storage.repositories.matches import MatchRow
from storage.repositories.tournaments import Tournament

STAGE = "friendly"


def match_plan(game: Game) -> tuple[str, MatchLauncher] | None:
    """The match kind and launcher of ``game``'s friendly; None if it is not played here."""
    if game.launch is not None and game.match_kind is not None:
        return game.match_kind, game.launch
    return None


def friendly_games(*, bot_player: bool = False) -> list[str]:
    return [game.key for game in games.all_games() if match_plan(game) is not None
            and (game.bot_player is not None or not bot_player)]


def pick_game(tr: Translator, key: str | None, *, usage: str,
              bot_player: bool = False) -> Game:
    """The game named in a command, refused when it is missing, unknown or not played here
    (``bot_player``: the games the bot itself plays, for /practice)."""
    played = friendly_games(bot_player=bot_player)
    names = ", ".join(played)
    if not key:
        raise Refusal(usage, games=names)
    game = game_named(key)
    if game is None:
        said = tr("friendly.unknown_practice_game" if bot_player else "friendly.unknown_game",
                  game=clip(key), games=names)
        said = not_a_game(tr, said, key, played, named_among=friendly_games())
        hints = _practice_hints(tr, key, played) if bot_player else []
        raise Refusal(text=lines(said, *hints))
    if match_plan(game) is None:
        raise Refusal("friendly.not_in_bot", game=tr(f"game.{game.key}"), games=names)
    return game


def _practice_hints(tr: Translator, key: str, played: list[str]) -> list[str]:
    """For a /practice word that names no one game: of the games it may mean, those the bot
    plays when it is a word of several (``kriketti``: /practice armchair), and those it
    does not ("darts": challenge a person)."""
    meant_keys = meant(key, friendly_games())
    ours = [meant_key for meant_key in meant_keys if meant_key in played]
    others = [meant_key for meant_key in meant_keys if meant_key not in played]
    several = len(games_of_word(key, friendly_games())) > 1  # else "did you mean" names it
    hints = [tr("friendly.meant_bot_player", games=", ".join(ours), code=ours[0])
             ] if ours and others and several else []
    if others:
        hints.append(tr("friendly.meant_no_bot_player", games=", ".join(others),
                        code=others[0]))
    return hints


def own_parsers(game: Game) -> dict[str, Any]:
    """The settings a friendly of ``game`` takes: the game's own, not the formats'."""
    return {key: parse for key, parse in game.parsers.items() if key not in FORMAT_SETTINGS}


def settings_for(tr: Translator, game: Game, pairs: list[str]) -> dict[str, Any]:
    """The game's defaults with ``key=value`` pairs applied; refused with the allowed keys."""
    parsers = own_parsers(game)
    try:
        settings = parse_settings(parsers, pairs, dict(game.defaults))
    except ValueError as error:
        raise Refusal(text=refusal(tr, parsers, error) + "\n"
                      + tr("friendly.settings_hint", game=tr(f"game.{game.key}"),
                           hints=hints(tr, parsers, refused_key(error)) or "—")) from None
    if not game.in_bot(settings):  # e.g. armchair with play=report: played at a table
        raise Refusal("friendly.reported_settings", game=tr(f"game.{game.key}"),
                      settings=described(tr, game, settings))
    return settings


def described(tr: Translator, game: Game, settings: dict[str, Any]) -> str:
    """The settings a challenge changed from the game's defaults, as ``key=value`` pairs in
    the chat's language (:func:`~bot.game_settings.settings_line`: «legit=3»)."""
    parsers = own_parsers(game)
    changed = {key: value for key, value in settings.items()
               if key in parsers and game.defaults.get(key) != value}
    return settings_line(tr, parsers, changed)


async def ensure_free(services: Services, chat_id: int, user_id: int, name: str,
                      refusal: str = "friendly.busy") -> None:
    """Refuse a friendly for someone already playing a match in this chat (``refusal``:
    the words for the one refused: a challenger, or the challenged pressing Accept)."""
    if await services.repos.matches.live_for_player_in_chat(chat_id, user_id) is not None:
        raise Refusal(refusal, name=name)


async def create(services: Services, chat_id: int, game: Game, title: str,
                 settings: dict[str, Any], players: tuple[int, int], status: str
                 ) -> Tournament:
    """The friendly's own row with the two players as entrants (the challenger first)."""
    now = services.clock.now()
    tournament = await services.repos.tournaments.create_friendly(
        chat_id, game.key, title, settings, players[0], status, now)
    for user_id in players:
        await services.repos.entrants.put(tournament.id, user_id, "approved", now)
    return tournament


PLAY_JOB = "friendly_play"
"""Held with the write that starts a friendly (an accepted challenge, a ``/practice``): the
update makes and launches its match (:func:`begin`), and a bot that stopped in between, or
could not reach Telegram, does it then (:func:`play_owed`). Without it an accepted
challenge could stay under way with no match to play."""


async def begin(services: Services, tournament: Tournament) -> None:
    """The friendly's match made and launched in the chat (:func:`play`), and the bot's own
    first move when it plays the match and moves first (``/practice``)."""
    match = await play(services, tournament)
    ctx = await in_its_chat(services, match)
    await bot_moves(ctx, games.game_of(tournament.game).playbook,
                    await services.matches.state(match))


async def play(services: Services, tournament: Tournament) -> MatchRow:
    """Create the friendly's one match and launch it in the chat; run again (its launch
    failed, or the bot stopped), the match made before is launched, once its board is out
    it is left as it is."""
    game = games.game_of(tournament.game)
    made = await services.repos.matches.for_tournament(tournament.id)
    if made and made[0].board_message_id is not None:
        return made[0]
    _, launch = match_plan(game)
    kind = game.kind_of(tournament.settings)
    players = [e.user_id for e in await services.repos.entrants.list(tournament.id)]
    match = made[0] if made else await services.repos.matches.create(
        tournament.id, STAGE, 1, "F", kind, players[0], players[1], services.clock.now())
    async with board_owed_after_faults(services, match):
        await launch(services, tournament, match)
    return await services.repos.matches.get(match.id)


@job_kind(PLAY_JOB)
async def play_owed(services: Services, job: Job) -> None:
    """:data:`PLAY_JOB` found pending at the start, or run after a launch that failed:
    the friendly, if still under way, gets its match."""
    tournament = await services.repos.tournaments.get(job.tournament_id)
    if tournament is not None and tournament.status == "running":
        await begin(services, tournament)
