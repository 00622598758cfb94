"""The game mix: match actions, pictures, reports and a scheduled start, through the sandbox.

:class:`GameBench` is the sandbox (``bot.sandbox.runner``: the real bot from ``bot.app.build``,
a real SQLite file, :class:`~bot.sandbox.session.SandboxSession`) with each update's
``feed_update`` timed and filed under the kind of update it is. Tournaments are opened and
filled by ordinary transcript lines (``org@cup00: /new cup …``); what is played next is read
from the engines: for a live match, ``legal_actions()`` of its current state says who may do
what, and the kind's ``line`` turns one of those actions into what a player types or presses.

Adding a game is one :class:`Setup` (how a tournament of it is opened) and one :class:`Kind`
per kind of update it brings (see :data:`KINDS`; the armchair card game played in the chat
adds its own there).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import cProfile
import re
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import timedelta
from functools import partial
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from aiogram.types import Update

from bench.anatomy import Anatomy, workers_cpu
from bench.harness import CountingSession, EchoProbe, Options
from bot.app import build
from bot.config import load_settings
from bot.sandbox.runner import Sandbox
from bot.scheduler import VirtualScheduler
from bot.telegram_session import TelegramSession
from storage.repositories.matches import MatchRow

_KIND: contextvars.ContextVar[str] = contextvars.ContextVar("bench_kind", default="setup")
ONWARD = "onward"
"""Not an update: what an update left to run right after it (a tournament going on after a
result: the round's table, the next round and its matches), timed on its own."""
_NAMES = ("Anna_Ivanova", "Boris_Petrov", "Clara_Smith", "Denis_Orlov", "Elena_Popova",
          "Fedor_Laine", "Galina_Brown", "Hugo_Clark")
BET_WORDS = {"check": "чек", "call": "колл", "fold": "фолд", "allin": "олл-ин"}
HP_WORDS = {"attack": "атака", "defend": "защита"}


class GameBench(Sandbox):
    """The sandbox, silent, without a world file, timing each ``feed_update`` by kind."""

    jobs_due_in_waits = False
    """The mix's waits (every die's animation, every group's window) follow one another on
    its virtual clock, which so runs hours ahead of the minutes its updates would take live:
    the matches' clocks would run out. Jobs run where the mix moves the clock itself (its
    `! advance` lines: the scheduled starts)."""

    def __init__(self, *, seed: int, db_path: Path, render_processes: int = 1) -> None:
        super().__init__(seed=seed, db_path=db_path, language="ru", emit=lambda line: None,
                         render_processes=render_processes)
        self.samples: dict[str, list[float]] = defaultdict(list)
        self.failed: dict[str, int] = defaultdict(int)
        self.unchanged: dict[str, int] = defaultdict(int)
        """Updates of each kind that changed no row of the database (refused or read-only)."""
        self.tables: list[Table] = []
        self.profiler: cProfile.Profile | None = None
        """When set, profiles the measured ``feed_update`` calls (not set-up, not the driver)."""
        self.echo: EchoProbe | None = None
        """When set, fed one echo update after each update of the mix (not set-up)."""
        self.anatomy: Anatomy | None = None
        """When set, told each measured update's CPU (:mod:`bench.anatomy`)."""

    async def start(self) -> None:
        settings = load_settings(database_path=self.db_path, bot_token=None, webhook_url=None,
                                 render_processes=self.render_processes)
        session = CountingSession(self.world, emit=self.emit, refused=self._refused,
                                  wire=TelegramSession())
        self.app = await build(settings, session, clock=self.clock, rng=self.rng,
                               scheduler_factory=lambda jobs, run: VirtualScheduler(
                                   jobs, run, self.clock))

    def _refused(self, message: str) -> None:
        self.failed[_KIND.get()] += 1

    def _error(self, message: str, kind: str = "", trace: str = "") -> None:
        self.failed[_KIND.get()] += 1
        if trace and _KIND.get() != "setup":
            print(f"bench: {_KIND.get()}: {message}\n{trace}")

    async def _feed(self, update: dict[str, Any]) -> None:
        app = self.app
        self._last_update = update
        parsed = Update.model_validate(update, context={"bot": app.bot})
        profiler = self.profiler if _KIND.get() != "setup" else None
        if profiler:
            profiler.enable()
        changes = app.services.db.connection.raw.total_changes
        with self._timed(_KIND.get()):
            await app.dispatcher.feed_update(app.bot, parsed)
        if app.services.db.connection.raw.total_changes == changes:
            self.unchanged[_KIND.get()] += 1
        if profiler:
            profiler.disable()
        if self.echo is not None and _KIND.get() != "setup":
            await self.echo.probe()

    async def _follow_ups(self) -> None:
        """Time the follow-ups as :data:`ONWARD` (its calls and writes too), not as the update."""
        if not self.app.services.scheduler.following or _KIND.get() == "setup":
            await super()._follow_ups()
            return
        token = _KIND.set(ONWARD)
        try:
            with self._timed(ONWARD):
                await super()._follow_ups()
        finally:
            _KIND.reset(token)

    @contextlib.contextmanager
    def _timed(self, kind: str) -> Iterator[None]:
        """Time what runs inside as one update of ``kind``; while the anatomy is measuring,
        count its CPU too (the bot's process and the picture workers)."""
        measured = self.anatomy is not None and self.anatomy.measuring
        workers, cpu = workers_cpu() if measured else 0.0, time.process_time()
        started = time.perf_counter()
        try:
            yield
        finally:
            self.samples[kind].append(time.perf_counter() - started)
            if measured:
                self.anatomy.update_done(time.process_time() - cpu, workers_cpu() - workers)

    async def run(self, kind: str, lines: list[str]) -> None:
        token = _KIND.set(kind)
        try:
            for line in lines:
                await self.line(line)
        finally:
            _KIND.reset(token)

    async def timed_directive(self, kind: str, directive: str, count: int) -> None:
        """A directive (``! advance 2d``) whose jobs are ``count`` updates' worth of work."""
        started = time.perf_counter()
        await self.run(kind, [directive])
        share = (time.perf_counter() - started) / max(count, 1)
        self.samples[kind].extend([share] * count)


# -- tournaments -------------------------------------------------------------------------


@dataclass
class Table:
    """One bench tournament: its setup, group, organiser and players (sandbox handles)."""

    setup: str
    group: str
    organiser: str
    players: list[str]
    tournament_id: int = 0
    stuck: set[int] = field(default_factory=set)


@dataclass(frozen=True)
class Setup:
    """How a tournament of one game is opened and started by transcript lines."""

    game: str
    players: int
    open: Callable[[Table], list[str]]


def _cup_open(table: Table) -> list[str]:
    org, g = table.organiser, table.group
    lines = [f"{org}@{g}: /new cup Кубок {g} approval=off qualifiers=4"]
    for handle, name in zip(table.players, _NAMES, strict=False):
        lines += [f"{handle}@{g}: /register {name}", f"{handle}@{g}: [📝 Зарегистрироваться]",
                  f"{handle}@dm: photo:"]
    return [*lines, f"{org}@{g}: /begin"]


def _plain_open(new: str) -> Callable[[Table], list[str]]:
    def lines(table: Table) -> list[str]:
        g = table.group
        return [f"{table.organiser}@{g}: /new {new} {g}",
                *(f"{handle}@{g}: /register" for handle in table.players),
                f"{table.organiser}@{g}: /begin"]
    return lines


def _armchair_open(table: Table) -> list[str]:
    """An armchair tournament played in the chat: the bot is an admin, the players' DMs
    are open (their hands are dealt there)."""
    g = table.group
    return [f"{table.organiser}@{g}: /new armchair Кресло {g}", f"! admin bot@{g}",
            *(f"{handle}@{g}: /register" for handle in table.players),
            *(f"{handle}@dm: /start" for handle in table.players),
            f"{table.organiser}@{g}: /begin"]


SETUPS: dict[str, Setup] = {
    "cup": Setup("cup", 4, _cup_open),
    "shanghai": Setup("shanghai", 8, _plain_open("shanghai Дартс legs=3")),
    "rr": Setup("armchair", 6, _plain_open("armchair Круг play=report")),
    "se": Setup("armchair", 8, _plain_open("armchair Сетка format=single_elim play=report")),
    "two": Setup("shanghai", 2, _plain_open("shanghai Долгий лег legs=1")),
    "bg": Setup("backgammon", 2, _plain_open("backgammon Нарды length=15")),
    "ac": Setup("armchair", 2, _armchair_open),
}
"""Tournament setups by name; a new game adds its own."""


# -- kinds of update -----------------------------------------------------------------------

Line = Callable[["GameBench", Table, MatchRow, Any], "list[str] | None"]


@dataclass(frozen=True)
class Kind:
    """One kind of measured update: its share of the mix, the setup whose tournaments it
    plays in, and ``line``: the transcript line(s) of this kind for a live match (None when
    this match offers none now). ``match_kinds`` limits the matches it looks at; ``table``
    kinds (a command about the whole tournament) get no match."""

    name: str
    share: int
    setup: str
    line: Line
    match_kinds: tuple[str, ...] = ()
    table: bool = False


def _handle(bench: GameBench, user_id: int | None) -> str | None:
    user = bench.world.user_by_id(user_id) if user_id else None
    return user.handle if user else None


def _legal(state: Any, kind: str) -> list[dict[str, Any]]:
    return [a for a in state.legal_actions() if a["type"] == kind]


def cup_roll(bench: GameBench, table: Table, match: MatchRow, state: Any) -> list[str] | None:
    rolls = _legal(state, "roll")
    if not rolls:
        return None
    action = bench.rng.choice(rolls)
    who = _handle(bench, match.players[action["player"]])
    return [f"{who}@{table.group}: 🎲 {bench.rng.randint(1, 6)}"]


def hp_choice(bench: GameBench, table: Table, match: MatchRow, state: Any) -> list[str] | None:
    choices = _legal(state, "choose")
    if not choices:
        return None
    action = bench.rng.choice(choices)
    return [f"{_handle(bench, match.players[action['player']])}@dm: "
            f"{HP_WORDS[action['choice']]}"]


def bet(bench: GameBench, table: Table, match: MatchRow, state: Any) -> list[str] | None:
    bets = _legal(state, "bet")
    if not bets:
        return None
    calm = [a for a in bets if a["action"] in ("check", "call")]  # keep hands going
    action = bench.rng.choice(calm if calm and bench.rng.random() < 0.8 else bets)
    word = (f"рейз {action['amount']}" if action["action"] == "raise"
            else BET_WORDS[action["action"]])
    return [f"{_handle(bench, match.players[action['player']])}@{table.group}: {word}"]


_DART_LABEL = re.compile(r"^([SDT]\d+|25|50)$")


def board_buttons(bench: GameBench, table: Table, match: MatchRow) -> list[str]:
    """The labels on the match's live board (the darts keypad)."""
    group = bench.world.group(table.group)
    stored = bench.world.find(group.id, match.board_message_id or 0)
    rows = ((stored.payload.get("reply_markup") or {}).get("inline_keyboard", [])
            if stored else [])
    return [button["text"] for row in rows for button in row if "callback_data" in button]


def _darts_player(bench: GameBench, match: MatchRow, state: Any) -> str | None:
    darts = _legal(state, "dart")
    if not darts or not getattr(state, "started", True):
        return None
    return _handle(bench, match.players[darts[0]["player"]])


def darts_typed(bench: GameBench, table: Table, match: MatchRow,
                state: Any) -> list[str] | None:
    """A whole visit typed in one message (``S20 T20 miss``), at the start of a visit."""
    who = _darts_player(bench, match, state)
    labels = [b for b in board_buttons(bench, table, match) if _DART_LABEL.match(b)]
    if who is None or state.leg.pending or not labels:
        return None
    darts = [bench.rng.choice([*labels, "miss"]) for _ in range(3)]
    return [f"{who}@{table.group}: {' '.join(darts)}"]


def darts_keypad(bench: GameBench, table: Table, match: MatchRow,
                 state: Any) -> list[str] | None:
    """One press on the board's keypad: a dart, or «end of visit» after the third (before
    the first leg, the organiser presses who won the bull-off)."""
    labels = board_buttons(bench, table, match)
    board = match.board_message_id
    if not getattr(state, "started", True):
        starts = [b for b in labels if b.startswith("🎯")]
        return [f"{table.organiser}@{table.group}: [{starts[0]}]#{board}"] if starts else None
    who = _darts_player(bench, match, state)
    if who is None or not labels:
        return None
    if len(state.leg.pending) == 3:
        wanted = [b for b in labels if b.startswith("✅")]
    else:
        wanted = [b for b in labels if not b.startswith(("✅", "↩"))]
    if not wanted:
        return None
    return [f"{who}@{table.group}: [{bench.rng.choice(wanted)}]#{board}"]


def command(text: str, by_organiser: bool = False) -> Line:
    def line(bench: GameBench, table: Table, match: Any, state: Any) -> list[str]:
        who = table.organiser if by_organiser else bench.rng.choice(table.players)
        return [f"{who}@{table.group}: {text}"]
    return line


def report(bench: GameBench, table: Table, match: MatchRow, state: Any) -> list[str] | None:
    a, b = (_handle(bench, player) for player in match.players)
    if a is None or b is None:
        return None
    return [f"{a}@{table.group}: /result {bench.rng.choice(('win', 'loss', '2:1', '1:2'))}",
            f"{b}@{table.group}: /confirm"]


def backgammon_roll(bench: GameBench, table: Table, match: MatchRow,
                    state: Any) -> list[str] | None:
    """The player on roll types ``/roll`` (the bot rolls, and plays a forced move)."""
    rolls = _legal(state, "roll")
    if not rolls:
        return None
    return [f"{_handle(bench, match.players[rolls[0]['player']])}@{table.group}: /roll"]


def backgammon_move(bench: GameBench, table: Table, match: MatchRow,
                    state: Any) -> list[str] | None:
    """One of the legal plays of the roll, typed in notation (``24/18 13/11``)."""
    moves = _legal(state, "move")
    if not moves:
        return None
    action = bench.rng.choice(moves)
    return [f"{_handle(bench, match.players[action['player']])}@{table.group}: {action['play']}"]


def armchair_card(bench: GameBench, table: Table, match: MatchRow,
                  state: Any) -> list[str] | None:
    """A card typed in the DM by the seat to act (a discard, a ball or a bat: ``bat 7``)."""
    cards = [a for a in state.legal_actions() if "card" in a]
    if not cards:
        return None
    action = bench.rng.choice(cards)
    return [f"{_handle(bench, match.players[action['player']])}@dm: {action['card'].lower()}"]


def armchair_between(bench: GameBench, table: Table, match: MatchRow,
                     state: Any) -> list[str] | None:
    """What comes between deliveries: the toss (🪙 on the score card), the toss winner's
    choice (🏏) and the exchange after a wicket (``swap bat 2`` or ``keep``)."""
    turn = state.to_act
    if turn is None or turn.kind not in ("toss", "choose", "exchange"):
        return None
    if turn.kind == "exchange":
        action = bench.rng.choice(_legal(state, "exchange"))
        who = _handle(bench, match.players[action["player"]])
        swap = " ".join(card.lower() for card in action["cards"])
        return [f"{who}@dm: {'swap ' + swap if swap else 'keep'}"]
    mark = "🪙" if turn.kind == "toss" else "🏏"
    labels = [b for b in board_buttons(bench, table, match) if b.startswith(mark)]
    seat = 0 if turn.seat is None else turn.seat
    if not labels:
        return None
    return [f"{_handle(bench, match.players[seat])}@{table.group}: "
            f"[{bench.rng.choice(labels)}]#{match.board_message_id}"]


KINDS: tuple[Kind, ...] = (
    Kind("cup_roll", 24, "cup", cup_roll),
    Kind("hp_choice", 8, "cup", hp_choice, ("hp",)),
    Kind("bet", 8, "cup", bet, ("betting",)),
    Kind("darts_typed", 18, "shanghai", darts_typed),
    Kind("darts_keypad", 18, "shanghai", darts_keypad),
    Kind("result", 8, "rr", report),
    Kind("standings", 4, "rr", command("/standings"), table=True),
    Kind("bracket", 4, "se", command("/bracket"), table=True),
    Kind("backgammon_roll", 4, "bg", backgammon_roll),
    Kind("backgammon_move", 4, "bg", backgammon_move),
    Kind("armchair_card", 4, "ac", armchair_card),
    Kind("armchair_between", 1, "ac", armchair_between),
)
"""The measured mix: every kind, its share in percent of the game updates."""


# -- driving the mix -----------------------------------------------------------------------


async def open_tables(bench: GameBench, counts: dict[str, int]) -> None:
    """Open ``counts[setup]`` tournaments of each setup (unmeasured)."""
    for name, count in counts.items():
        setup = SETUPS[name]
        for number in range(count):
            group = f"{name}{number:03d}"
            table = Table(name, group, f"o{group}",
                          [f"{group}p{k}" for k in range(setup.players)])
            await bench.run("setup", setup.open(table))
            active = await bench.app.services.repos.tournaments.active_in_chat(
                bench.world.group(group).id)
            if not active:
                raise RuntimeError(f"bench: the {name} tournament in {group} did not open")
            table.tournament_id = active[0].id
            bench.tables.append(table)


async def live_matches(bench: GameBench, table: Table) -> list[MatchRow]:
    """The table's running matches. Found by a query of the driver's own, not through the
    bot's remembered match lists: the driver reading every table's whole list would fill
    the bot's read cache (``storage/cache.py``) with lists the bot itself does not read,
    half the cache's memory in ``bench.memory``, and warm it for the bot's measured updates."""
    found = await bench.app.services.db.fetchall(
        "SELECT id FROM matches WHERE tournament_id = ? AND status = 'running'"
        " ORDER BY round, id", (table.tournament_id,))
    return [await bench.app.services.repos.matches.get(row[0]) for row in found]


async def lines_for(bench: GameBench, kind: Kind, table: Table) -> list[str] | None:
    """Lines of ``kind`` in ``table`` now, or None when it offers none."""
    if kind.table:
        return kind.line(bench, table, None, None)
    matches = await live_matches(bench, table)
    bench.rng.shuffle(matches)
    for match in matches:
        if kind.match_kinds and match.kind not in kind.match_kinds:
            continue
        state = None if kind.setup in ENGINELESS else await bench.app.services.matches.current(
            match)
        lines = kind.line(bench, table, match, state)
        if lines:
            return lines
    return None


ENGINELESS = ("rr", "se")
"""Setups whose matches are reported, not played: their kinds see no engine state."""


async def step(bench: GameBench, kind: Kind, tables: list[Table]) -> bool:
    """One measured update (or pair) of ``kind`` in one of ``tables``; False when none can."""
    mine = [t for t in tables if t.setup == kind.setup]
    bench.rng.shuffle(mine)
    for table in mine:
        lines = await lines_for(bench, kind, table)
        if lines:
            if kind.table:  # a picture measured as drawn, not sent again by its file id
                bench.app.services.posted.ids.clear()
            await bench.run(kind.name, lines)
            return True
    return False


async def advance(bench: GameBench, table: Table, until: str, limit: int = 600) -> None:
    """Play ``table`` (unmeasured) until one of its live matches is of kind ``until``."""
    playing = [k for k in KINDS if k.setup == table.setup and not k.table]
    for _ in range(limit):
        if any(m.kind == until for m in await live_matches(bench, table)):
            return
        for kind in bench.rng.sample(playing, len(playing)):
            lines = await lines_for(bench, kind, table)
            if lines:
                await bench.run("setup", lines)
                break
        else:
            return


async def drive(bench: GameBench, updates: int, concurrency: int) -> float:
    """Run about ``updates`` measured steps from ``concurrency`` tasks, each on its own
    tables (two updates of one match are never in flight together); returns seconds."""
    kinds, weights = list(KINDS), [k.share for k in KINDS]
    share = [bench.tables[n::concurrency] for n in range(concurrency)]

    async def worker(tables: list[Table], count: int) -> None:
        for _ in range(count):
            for kind in bench.rng.choices(kinds, weights, k=8):
                if await step(bench, kind, tables):
                    break

    started = time.perf_counter()
    await asyncio.gather(*(worker(t, updates // concurrency) for t in share))
    return time.perf_counter() - started


async def scheduled_starts(bench: GameBench, count: int) -> None:
    """``count`` tournaments scheduled for the same minute; the advance that starts them
    is timed and shared between them (one sample each)."""
    moscow = bench.clock.now().astimezone(ZoneInfo("Europe/Moscow"))
    start = (moscow + timedelta(days=2)).replace(hour=20, minute=0, second=0, microsecond=0)
    when = start.strftime("%Y-%m-%d %H:%M")
    for number in range(count):
        group = f"sched{number:03d}"
        await bench.run("setup", [f"o{group}@{group}: /new shanghai Старт {group}",
                                  f"{group}a@{group}: /register", f"{group}b@{group}: /register",
                                  f"o{group}@{group}: /schedule {when} Europe/Moscow"])
    before = int((start - bench.clock.now()).total_seconds() // 60) - 5
    await bench.run("setup", [f"! advance {before}m"])  # the reminders go out first
    await bench.timed_directive("scheduled_start", "! advance 10m", count)


@dataclass
class GameRun:
    """The measured samples of one game-mix run, by kind (seconds per update)."""

    concurrency: int
    samples: dict[str, list[float]]
    seconds: float
    failed: dict[str, int]
    live: int
    echo: list[float] = field(default_factory=list)
    """The echo bot's latencies, one update after each of the mix's (:class:`EchoProbe`)."""
    unchanged: dict[str, int] = field(default_factory=dict)
    """By kind, the measured updates that changed no row of the database."""
    anatomy: Anatomy | None = None
    """Where each kind's time went (``anatomy=True``)."""


def table_counts(matches: int, updates: int) -> dict[str, int]:
    """Enough tournaments for the mix: ``matches`` live darts matches (4 per tournament of
    8), and reported matches for every ``/result`` the run will send."""
    reports = updates * sum(k.share for k in KINDS if k.name == "result") // 100
    return {"cup": 9, "shanghai": max(2, -(-matches // 4)), "rr": 2 + reports // 12, "se": 2,
            "bg": 2, "ac": 2}


async def run_games(*, seed: int, updates: int, warmup: int, concurrency: int,
                    matches: int, scheduled: int = 10, api_latency: float = 0.0,
                    profiler: cProfile.Profile | None = None, echo: bool = False,
                    anatomy: bool = False) -> GameRun:
    """A fresh database and world: set up, warm up, then ``updates`` measured steps (each
    Bot API call answered after ``api_latency`` seconds of the measured steps); with
    ``echo`` (concurrency 1 only), the echo bot is fed beside the warm-up and the measured
    steps, and its time is not counted in the mix's wall time; with ``anatomy``, the
    measured steps' Bot API calls and write transactions are timed (:mod:`bench.anatomy`)."""
    with tempfile.TemporaryDirectory(prefix="bench-games-") as folder:
        bench = GameBench(seed=seed, db_path=Path(folder) / "games.sqlite3")
        await bench.start()
        probe = EchoProbe(Options(seed=seed)) if echo and concurrency == 1 else None
        try:
            if probe is not None:
                await probe.start()
            await scheduled_starts(bench, scheduled)
            await open_tables(bench, table_counts(matches, updates + warmup))
            cups = [t for t in bench.tables if t.setup == "cup"]
            for table in cups[1::3]:
                await advance(bench, table, "hp")
            for table in cups[2::3]:
                await advance(bench, table, "betting", limit=3000)
            bench.echo = probe
            parts = _watch(bench, probe) if anatomy else None
            await drive(bench, warmup, concurrency)
            kept = {"scheduled_start": bench.samples.pop("scheduled_start", [])}
            bench.samples.clear()
            bench.failed.clear()
            bench.unchanged.clear()
            bench.profiler = profiler
            _set_latency(bench, probe, api_latency)
            if probe is not None:
                probe.samples.clear()
            if parts is not None:
                parts.measuring = True
            seconds = await drive(bench, updates, concurrency)
            if parts is not None:
                parts.measuring = False
            if probe is not None:  # the mix's own wall time (one task: the probes ran apart)
                seconds -= sum(probe.samples)
            _set_latency(bench, probe, 0.0)
            bench.profiler, bench.echo = None, None
            live = sum([len(await live_matches(bench, t)) for t in bench.tables])
            return GameRun(concurrency, dict(bench.samples) | kept, seconds,
                           dict(bench.failed), live, probe.samples if probe else [],
                           dict(bench.unchanged), parts)
        finally:
            if probe is not None:
                await probe.close()
            await bench.close()


def _watch(bench: GameBench, probe: EchoProbe | None) -> Anatomy:
    """An :class:`Anatomy` told of the bot's (and the echo probe's) calls and writes."""
    parts = Anatomy(kind=_KIND.get)
    bench.app.bot.session.on_call = parts.call_done
    parts.watch_writes(bench.app.services.db)
    bench.anatomy = parts
    if probe is not None:
        probe.target.session.on_call = partial(parts.call_done, kind="echo")
        probe.on_update = partial(parts.update_done, kind="echo")
    return parts


def _set_latency(bench: GameBench, probe: EchoProbe | None, seconds: float) -> None:
    bench.app.bot.session.latency = seconds
    if probe is not None:
        probe.target.session.latency = seconds
