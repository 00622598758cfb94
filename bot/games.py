"""The one declaration of a game, and the list of games this bot runs.

A game is a package that builds one :class:`Game`: its key, its settings, the engines of its
matches, how a tournament of it starts and how each match is launched, its routers, jobs,
export sections and texts. The platform reads everything about a game from here and never
imports a game itself. ``docs/adding-a-game.md`` walks through adding one.

The built-in games are listed once, in :func:`bot.catalogue.builtin_games`; a test may
:func:`register` a game of its own before building the bot.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from bot.game_settings import COMMON_SETTINGS, parse_settings

if TYPE_CHECKING:
    from bot.features.handlers import Handlers
    from bot.i18n import Translator
    from bot.play.context import MatchContext
    from bot.play.hidden import HiddenInput
    from bot.play.perform import Playbook
    from bot.services import Services
    from games.common.match import ReplayableMatch
    from storage.repositories.jobs import Job
    from storage.repositories.matches import MatchRow
    from storage.repositories.tournaments import Entrant, Tournament

EngineFactory = Callable[[dict[str, Any]], "ReplayableMatch"]
GameStarter = Callable[["Services", "Tournament", "list[Entrant]", "Opening"], Awaitable[None]]
MatchLauncher = Callable[["Services", "Tournament", "MatchRow"], Awaitable[None]]
JobRunner = Callable[["Services", "Job"], Awaitable[None]]
Table = tuple[list[str], list[list]]  # an export's CSV: header, rows
ExportSection = Callable[["Services", "Tournament"], Awaitable[tuple[Any, Table | None]]]
StandingsNote = Callable[["Services", "Translator", "Tournament"], Awaitable[str | None]]
DiceAction = Callable[[int, int], dict[str, Any]]  # (seat, die value) → the engine's action
BoardAgain = Callable[["MatchContext", Any], Awaitable[None]]  # (match, its state)
SettledBoard = BoardAgain  # the same drawing, of a closed match
BotPlayer = Callable[[Any, int], "dict[str, Any] | None"]  # (state, seat) → the bot's action
MatchRecord = Callable[["MatchContext", str, str], Awaitable[None]]  # (match, lead, then)
BOT_ROLLS: dict[str, Any] = {"bot": "roll"}
"""What a :attr:`Game.bot_player` returns to roll a Telegram 🎲."""


@dataclass(frozen=True)
class Opening:
    """What a tournament's start says above its first round, in one message with it."""

    head: str
    """The roster (who plays, by seed, and who does not); "" once it has been said."""
    said: Callable[[], Awaitable[None]]
    """Awaited once the message with :attr:`head` went out, so a start run again (after a
    restart, or a failed send) does not say it twice."""


@dataclass(frozen=True)
class Game:
    key: str
    """What organisers type in ``/new <key>``; also the tournament's ``game`` column."""
    defaults: dict[str, Any]
    parsers: Mapping[str, Callable[[str], Any]] = field(default_factory=dict)
    """The settings this game adds to :data:`~bot.game_settings.COMMON_SETTINGS`."""
    needs_name_and_photo: bool = False
    """Registration asks for ``Имя_Фамилия`` and a ``/stats`` screenshot (the Cup's form)."""
    engines: Mapping[str, EngineFactory] = field(default_factory=dict)
    """Match kind → a fresh engine for the tournament's settings."""
    start: GameStarter | None = None
    """Creates the first matches once the roster is fixed and announces them under the
    :class:`Opening`'s head. Safe to run again: a start cut short (a restart, a failed
    send) is run again and must neither create its matches twice nor lose their
    announcement or their boards."""
    min_players: Callable[[dict[str, Any]], int] | None = None
    setup_note: Callable[[Any, dict[str, Any]], str | None] | None = None
    """What the game says about its settings at /new and /settings (a Translator, settings)."""
    match_kind: str | None = None
    """The engine kind of the matches the tournament formats create for this game."""
    kind_for: Callable[[dict[str, Any]], str] | None = None
    """The match kind by the tournament's settings, when it depends on them (backgammon:
    ``play=bot`` or ``play=board``); None: always :attr:`match_kind`."""
    launch: MatchLauncher | None = None
    """How a single match starts in the chat (a formats pairing, a friendly); None: the
    game is played elsewhere and reported."""
    playbook: Playbook | None = None
    """What is said and done around an accepted action (see :mod:`bot.play.perform`)."""
    dice: DiceAction | None = None
    """The action a 🎲 (or /roll) of a player makes; None: the game takes no dice."""
    bot_player: BotPlayer | None = None
    """The bot's move in a match against it (/practice): the action it takes in ``state``
    from ``seat``, or None when it is not the bot's turn; :data:`BOT_ROLLS` asks for a die
    the bot sends, its value played as ``dice(seat, value)``. None: no practice."""
    routers: tuple[Handlers, ...] = ()
    jobs: Mapping[str, JobRunner] = field(default_factory=dict)
    export_sections: Mapping[str, ExportSection] = field(default_factory=dict)
    standings_note: StandingsNote | None = None
    """A line the game adds to /standings and to the tournament's end (armchair: the leading
    run scorers), or None; read through :meth:`note`."""
    catalogs: Path | None = None
    """A folder of ``<lang>/<domain>.po`` catalogs with the game's own texts."""
    tiebreaks: tuple[str, ...] | None = None
    """The formats' tie-break order when the organiser sets none (``tiebreaks=…``)."""
    check_score: Callable[[dict[str, Any], int, int], tuple[str, dict] | None] | None = None
    """Why a final score (winner's, loser's) reported or set by an organiser cannot be, as
    a catalog key and its parameters, or None."""
    winning_score: Callable[[dict[str, Any]], int] | None = None
    """The score that wins a match with the tournament's settings (darts: the legs of a best
    of ``legs``; backgammon: the ``length``): a walkover (a withdrawal's, a /dq's, an
    organiser's ``+:-``) counts as that against 0 in the tables' score tie-breaks. None: a
    match has no such score (armchair's runs) and a walkover counts none."""
    set_score_note: str | None = None
    """The catalog key said under an organiser's /setresult of a match played in the bot
    when the game's tables take scores from play only (armchair's runs): a score typed is
    dropped and the result counts no score, as a walkover's. None: the score set counts."""
    hidden: Mapping[str, HiddenInput] = field(default_factory=dict)
    """Match kind → the secret input its players give by DM (``bot/play/hidden.py``)."""
    draws: bool = True
    """False: no match of this game may end drawn, however entered (backgammon)."""
    match_hint: str = "formats.match.in_bot"
    """The catalog key /match uses to say where a match played in the bot is played."""
    match_now: Callable[[Any, Any], str] | None = None
    """What /match says of a match played in the bot before its hint: the score, whose
    turn it is, the report awaited (from its MatchContext and engine state); None: the
    hint alone."""
    reported_when: Callable[[dict[str, Any]], bool] | None = None
    """For a game played in the bot that may also be played away from it: whether a
    tournament's settings say its matches are played elsewhere and reported (``play=report``)."""
    rules: str | None = None
    """The catalog key of the game's /rules text when it is not ``rules.<key>``."""
    settled_boards: Mapping[str, SettledBoard] = field(default_factory=dict)
    """Match kind → how its board is drawn once the match was closed outside its play (a
    walkover, a result an organiser set, a resignation), from the closed match (its
    :attr:`~bot.play.context.MatchContext.closed` true, its winner known) and its state:
    who won instead of whose move it is, no buttons; kinds absent here have their board's
    buttons taken off (``bot/play/board.py``, ``retire_board``). A live match's board is
    redrawn in place by it too, as it stands (the Cup's, under an organiser's notice)."""
    paused_boards: Mapping[str, BoardAgain] = field(default_factory=dict)
    """Match kind → how its live board is drawn in place when its tournament is paused or
    resumed, for kinds whose board says the match is paused (``bot/play/board.py``,
    ``redraw_paused``); the others' boards do not change."""
    boards: Mapping[str, BoardAgain] = field(default_factory=dict)
    """Match kind → how /board posts its live board again at the bottom of the chat, drawn
    from the match's state (the old one loses its buttons); kinds absent here have no board
    (``bot/play/board.py``)."""
    waits: Callable[[Any, int], bool] | None = None
    """Whether a live match's engine state waits for the player in a seat (their throw,
    roll or move), read through :meth:`waits_for`; None: whether that seat has a legal
    action (a game whose engine lists an action any seat may take at any time, such as a
    resignation, declares its own)."""
    unseen: Mapping[str, str] = field(default_factory=dict)
    """Match kind → the catalog key of what its players type in the group that the bot
    cannot see with privacy mode on (typed visits, moves, 🎲): the privacy warning names it;
    kinds absent here (matches reported with /result) get the general ``new.rights_unseen``."""
    records: Mapping[str, MatchRecord] = field(default_factory=dict)
    """Match kind → how the file a match of it leaves is sent to its place (backgammon
    played in the bot: its ``.mat`` record), captioned with ``lead`` (the words of its end)
    and ``then`` (what its tournament says next) below when they fit a caption, else
    ``then`` in a message after it: the file sent at the match's end heads what the result
    makes in one message (:func:`bot.features.formats.results.record_played`)."""

    @property
    def played_in_bot(self) -> bool:
        return self.launch is not None

    def in_bot(self, settings: dict[str, Any]) -> bool:
        """Whether a tournament with ``settings`` plays its matches in the bot."""
        return self.played_in_bot and not (self.reported_when and self.reported_when(settings))

    def kind_of(self, settings: dict[str, Any]) -> str | None:
        """The kind of the matches of a tournament of this game with ``settings``; None when
        they are played away from the bot and reported."""
        if not self.in_bot(settings):
            return None
        return self.kind_for(settings) if self.kind_for is not None else self.match_kind

    def waits_for(self, state: Any, seat: int) -> bool:
        """Whether the match in ``state`` waits for the player in ``seat``: what decides
        which of a player's live matches here a move is for when the place does not
        (:meth:`bot.middlewares.scope.Scope.live_match`)."""
        return self.waits(state, seat) if self.waits else bool(state.legal_actions(seat))

    async def note(self, services: Services, tr: Translator,
                   tournament: Tournament) -> str | None:
        """The game's :attr:`standings_note` for ``tournament``, or None."""
        if self.standings_note is None:
            return None
        return await self.standings_note(services, tr, tournament)

    @property
    def rules_key(self) -> str:
        """The catalog key of the game's /rules text."""
        return self.rules or f"rules.{self.key}"

    def all_parsers(self) -> dict[str, Callable[[str], Any]]:
        return COMMON_SETTINGS | dict(self.parsers)

    def parse_settings(self, pairs: list[str], current: dict[str, Any]) -> dict[str, Any]:
        """Apply ``key=value`` pairs to ``current``; :class:`bot.game_settings.Refused` if
        wrong (:func:`bot.game_settings.parse_settings`)."""
        return parse_settings(self.all_parsers(), pairs, current)


T = TypeVar("T")
_games: dict[str, Game] = {}
_views: dict[Callable[[], Any], Any] = {}


def register(game: Game) -> None:
    """Make ``game`` available to /new and to everything that plays it (again: replaced)."""
    from bot import i18n

    _games[game.key] = game
    _views.clear()
    if game.catalogs is not None:
        i18n.add_catalogs(game.catalogs)


def unregister(key: str) -> None:
    _games.pop(key, None)
    _views.clear()


def view(build: Callable[[], T]) -> T:
    """What ``build`` makes of the registered games (every kind's hidden input, the dice
    games …): built once, again after a game is registered or unregistered. Updates ask
    for such views several times each; the games change only at start-up and in tests."""
    if build not in _views:
        _views[build] = build()
    return _views[build]


def get(key: str) -> Game | None:
    return _games.get(key)


def game_of(key: str) -> Game:
    """The game of an existing tournament (it was registered when the tournament was made)."""
    return _games[key]


def keys() -> list[str]:
    return list(_games)


def all_games() -> Iterator[Game]:
    return iter(list(_games.values()))


def job_runner(kind: str) -> JobRunner | None:
    """The runner of a scheduled job of ``kind`` that some game declared."""
    for game in all_games():
        if kind in game.jobs:
            return game.jobs[kind]
    return None
