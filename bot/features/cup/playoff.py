"""The Cup's playoff: a single-elimination bracket of the group stage's best, each round in
its own format (1/8 order, 1/4 drop, 1/2 HP battle, final betting), and the 3rd-place match
in a format the two semi-final losers vote for.

The bracket is never stored: it is rebuilt from the seeds and the finished playoff matches
whenever it is needed, so it always agrees with the match log.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from babel import Locale
from babel.numbers import format_currency

from bot.features.cup.common import close_match, on_finish, say_once
from bot.game_settings import key_said
from bot.i18n import Markup, Translator, opening, paragraphs
from bot.play.context import MatchContext, context_for, names_of
from bot.play.perform import board_owed_after_faults
from bot.play.topics import open_topic
from bot.registry import Registry
from bot.services import Services
from games.dice_cup import (
    BettingFinal,
    DropMatch,
    GroupMatch,
    HPMatch,
    OrderMatch,
    ThirdPlaceChoice,
)
from games.tournament import Bracket, single_elimination
from storage.repositories.matches import MatchRow
from storage.repositories.tournaments import Tournament

STAGE = "playoff"
FORMAT_BY_FIELD = {16: "order", 8: "drop", 4: "hp", 2: "betting"}
THIRD_VOTE, THIRD = "3P-vote", "3P"
PRIZE_FUND = 20_000_000  # dollars, the initial prize fund of the Cup document

StartAnnouncer = Callable[[MatchContext], Awaitable[None]]
_start_announcers: Registry[StartAnnouncer] = Registry()
on_match_start = _start_announcers.register  # how a new playoff match of a kind is opened


def formats_played(field: int, formats: list[str] | None = None) -> list[str]:
    """The formats a 3rd-place vote may pick from: the group stage's and the playoff's."""
    played = [kind_for(field, n, formats) for n in range(1, field.bit_length())]
    return ["group"] + list(dict.fromkeys(played))


ENGINES = {
    "order": lambda settings: OrderMatch(),
    "drop": lambda settings: DropMatch(),
    "hp": lambda settings: HPMatch(hp=settings.get("hp", 20)),
    "betting": lambda settings: BettingFinal(chips=settings.get("chips", 20),
                                             payout=settings.get("payout", "multiplier")),
    "group3": lambda settings: GroupMatch(allow_draw=False),
    "third_choice": lambda settings: ThirdPlaceChoice(
        available=formats_played(len(settings["playoff_seeds"]), settings.get("formats"))),
}
"""The playoff's match kinds (the group stage's is in :mod:`bot.features.cup.stage`)."""


def round_title(tr: Translator, field: int, round_no: int, formats: list[str] | None) -> str:
    """A playoff round as players know it: its name in the bracket and its format."""
    return tr("cup.round_name", round=tr(f"cup.round.{field >> (round_no - 1)}"),
              format=tr(f"cup.format.{kind_for(field, round_no, formats)}"))


def stage_title(play: MatchContext) -> str:
    """How a playoff match is announced: its round and format, or the 3rd-place match, as
    the announcement begins with it (a capital first letter: «Финал «HP»: …»)."""
    return opening(match_title(play.tr, play.tournament, play.match))


def match_title(tr: Translator, tournament: Tournament, match: MatchRow) -> str:
    """:func:`stage_title` of any playoff ``match`` of ``tournament``, as a sentence names
    it: the 3rd-place match as the rounds are named («1/2 финала «HP»», «матч за 3-е место
    «HP»»), with no brackets of its own (it is said in brackets: «(матч за 3-е место «HP»)»)."""
    if match.slot == THIRD_VOTE:  # the format is still to be chosen
        return tr("cup.third_stage")
    if match.slot == THIRD:  # the group stage's rounds are said in words, not as a title
        return tr("cup.third_title_group") if match.kind == "group3" else \
            tr("cup.third_title", format=tr(f"cup.format.{match.kind}"))
    return round_title(tr, len(tournament.state["playoff_seeds"]), match.round,
                       tournament.settings.get("formats"))


def playoff_size(players: int, qualifiers: int) -> int:
    """The configured qualifiers, or the largest power of two the field can fill."""
    size = qualifiers
    while size > players:
        size //= 2
    return max(size, 2)


def kind_for(field: int, round_no: int, formats: list[str] | None = None) -> str:
    """The format of a playoff round: by the round's name (1/8 order … final betting), or
    the organiser's remap (``formats=…``, read from the final backwards)."""
    remaining = field >> (round_no - 1)
    if formats:
        from_final = remaining.bit_length() - 2  # 0 for the final, 1 for the semis …
        if from_final < len(formats):
            return formats[len(formats) - 1 - from_final]
    return FORMAT_BY_FIELD[remaining]


def bracket_note(tr: Translator, settings: dict) -> str:
    """Which playoff rounds will be played, said when the Cup is set up."""
    size = settings.get("qualifiers", 8)
    rounds = [round_title(tr, size, n, settings.get("formats"))
              for n in range(1, size.bit_length())]
    if size == 16:
        return tr("cup.setup_all_rounds", qualifiers=size, rounds=", ".join(rounds))
    return tr("cup.setup_skipped_rounds", qualifiers=size, rounds=", ".join(rounds),
              qualifiers_key=key_said(tr, "qualifiers"), formats_key=key_said(tr, "formats"))


async def start_playoff(services: Services, tr: Translator, tournament: Tournament,
                        ranking: list[int], tables: str = "") -> None:
    """Seed and open the playoff, its pairings said under ``tables`` (the group stage's
    final tables) in one message; with fewer than two players left (disqualifications) the
    Cup ends here: the one player left is its champion."""
    if len(ranking) < 2:
        await _end_without_playoff(services, tr, tournament, ranking, tables)
        return
    seeds = ranking[:playoff_size(len(ranking), tournament.settings.get("qualifiers", 8))]
    await services.repos.tournaments.set_state(tournament.id, "playoff_seeds", seeds)
    tournament = await services.repos.tournaments.get(tournament.id)
    label = await names_of(services, tournament.id)
    lines = [tr("cup.playoff_pair", a=label[a], sa=seeds.index(a) + 1, b=label[b],
                sb=seeds.index(b) + 1)
             for a, b in single_elimination(seeds).first_round]
    await say_once(services, tournament, "playoff", paragraphs(tables, tr(
        "cup.groups_done", size=len(seeds),
        stage=round_title(tr, len(seeds), 1, tournament.settings.get("formats")),
        pairs=Markup("\n".join(lines)))))
    await open_ready(services, tr, tournament)


async def _end_without_playoff(services: Services, tr: Translator, tournament: Tournament,
                               ranking: list[int], tables: str) -> None:
    await services.repos.tournaments.set_status(tournament.id, "finished", services.clock.now())
    if not ranking:
        await services.bot.send_message(tournament.chat_id, paragraphs(tables, tr(
            "cup.nobody_left", title=tournament.title)))
        return
    label = await names_of(services, tournament.id)
    await services.bot.send_message(tournament.chat_id, paragraphs(tables, tr(
        "cup.champion", title=tournament.title,
        places=Markup(tr("cup.place_1", name=label[ranking[0]])), fund=prize_fund(tr.language))))


def bracket_of(tournament: Tournament, matches: list[MatchRow]) -> Bracket:
    """The playoff bracket from its seeds and its finished matches; a winner replaced since
    (/replace between rounds) is recorded as the entry's new player."""
    bracket, holder = single_elimination(tournament.state["playoff_seeds"]), holders(tournament)
    for match in sorted(matches, key=lambda m: m.id):
        if match.status == "finished" and match.slot.startswith("W"):
            bracket.record(match.slot, holder(match.winner))
    return bracket


def holders(tournament: Tournament) -> Callable[[int], int]:
    """Who holds each entry now: a player replaced by /replace (twice, too) → the new one."""
    replaced = {int(old): new for old, new in tournament.state.get("replaced", {}).items()}

    def holder(player: int) -> int:
        seen = {player}
        while player in replaced and replaced[player] not in seen:  # (a loop ends, too)
            player = replaced[player]
            seen.add(player)
        return player
    return holder


async def open_ready(services: Services, tr: Translator, tournament: Tournament) -> None:
    """Create and announce every playoff match whose players are now known; a match made
    before whose announcement never went out (Telegram out of reach, or a stop: the job
    that runs this again) is announced first."""
    seeds = tournament.state["playoff_seeds"]
    matches = await services.repos.matches.for_tournament(tournament.id, STAGE)
    await _announce_unshown(services, tr, tournament, matches)
    existing = {m.slot for m in matches}
    bracket = bracket_of(tournament, matches)
    out = await _disqualified(services, tournament)
    for view in bracket.ready():
        if view.id not in existing:
            a, b = sorted(view.slots, key=seeds.index)
            kind = kind_for(len(seeds), view.round, tournament.settings.get("formats"))
            if {a, b} & out:  # disqualified between rounds: no match to play
                await _walkover(services, tr, tournament, view.round, view.id, kind, (a, b), out)
                continue
            await _open(services, tr, tournament, view.round, view.id, kind, a, b)
    semis = [v for v in bracket.matches if v.round == bracket.rounds - 1]
    if len(seeds) >= 4 and THIRD_VOTE not in existing and all(v.status == "done" for v in semis):
        losers = sorted((v.loser for v in semis), key=seeds.index)
        if any(player in out for player in losers):  # no vote with a player who is out
            await _third_without_match(services, tr, tournament, bracket.rounds, losers, out)
            return
        await _open(services, tr, tournament, bracket.rounds, THIRD_VOTE, "third_choice",
                    *losers)


async def _walkover(services: Services, tr: Translator, tournament: Tournament, round_no: int,
                    slot: str, kind: str, pair: tuple[int, int], out: set[int]) -> None:
    """A playoff match one of whose players was disqualified before it opened: the other
    goes through without playing, said once; the bracket goes on after it (its closing job)."""
    match = await services.repos.matches.create(tournament.id, STAGE, round_no, slot, kind,
                                                *pair, services.clock.now(), status="running")
    ctx = await context_for(services, tr, tournament, match)
    winner = next((p for p in pair if p not in out), pair[0])
    await ctx.say(tr("cup.walkover_out", winner=ctx.names[ctx.seat(winner)],
                     loser=ctx.names[1 - ctx.seat(winner)],
                     stage=opening(match_title(tr, tournament, match))))
    await close_match(ctx, winner, {"score": [0, 0], "walkover": True})


async def _open(services: Services, tr: Translator, tournament: Tournament, round_no: int,
                slot: str, kind: str, a: int, b: int) -> None:
    match = await services.repos.matches.create(tournament.id, STAGE, round_no, slot, kind, a, b,
                                                services.clock.now(),
                                                status=tournament.opening_status)
    await _announce(services, tr, tournament, match)


async def _open_once(services: Services, tr: Translator, tournament: Tournament,
                     round_no: int, slot: str, kind: str, a: int, b: int) -> None:
    """:func:`_open`, unless the match was made before (the job that runs this, run again
    after a send failed, or after a stop): then only announced if that never went out."""
    matches = await services.repos.matches.for_tournament(tournament.id, STAGE)
    made = next((match for match in matches if match.slot == slot), None)
    if made is None:
        await _open(services, tr, tournament, round_no, slot, kind, a, b)
    else:
        await _announce_unshown(services, tr, tournament, [made])


async def _announce_unshown(services: Services, tr: Translator, tournament: Tournament,
                            matches: list[MatchRow]) -> None:
    """Announce each of ``matches`` made before whose announcement never went out
    (Telegram out of reach, or a stop: the job that made it runs again)."""
    for match in matches:
        if match.status == "running" and match.board_message_id is None:
            await _announce(services, tr, tournament, match)


async def _announce(services: Services, tr: Translator, tournament: Tournament,
                    match: MatchRow) -> None:
    """A new playoff match's opening: its topic, if the chat has them, and its kind's
    first message (:data:`on_match_start`)."""
    ctx = await context_for(services, tr, tournament, match)
    ctx.match = await open_topic(services, tournament, ctx.match, ctx.names)
    async with board_owed_after_faults(services, ctx.match):
        await _start_announcers[match.kind](ctx)


@on_finish(STAGE)
async def after_playoff_match(play: MatchContext, told: dict) -> None:
    services, tr, tournament = play.services, play.tr, play.tournament
    if play.match.slot == THIRD_VOTE and "format" not in told:  # closed by a walkover
        row = play.match
        loser = row.opponent(row.winner)
        await _third_without_match(services, tr, tournament, row.round,
                                   [row.player_a, row.player_b], {loser},
                                   already_said=told.get("third_said", False))
        await _finish_if_done(services, tr, tournament)
        return
    if play.match.slot == THIRD_VOTE:
        chosen = told["format"]
        kind = "group3" if chosen == "group" else chosen  # its opening names it
        await _open_once(services, tr, tournament, play.match.round, THIRD, kind,
                         play.match.player_a, play.match.player_b)
        return
    await open_ready(services, tr, tournament)
    await _finish_if_done(services, tr, tournament)


async def _disqualified(services: Services, tournament: Tournament) -> set[int]:
    return {entry.user_id for entry in
            await services.repos.entrants.list(tournament.id, ("disqualified",))}


async def _third_without_match(services: Services, tr: Translator, tournament: Tournament,
                               round_no: int, pair: list[int], out: set[int], *,
                               already_said: bool = False) -> None:
    """3rd place when a semi-final loser is out (disqualified, or gone from the vote by a
    walkover): the other takes it without a match; with both out nobody does. Said once
    (run again after a restart, it finds the match it wrote; ``already_said``: the /dq that closed
    the vote said it); the caller ends the tournament if the final is over."""
    matches = await services.repos.matches.for_tournament(tournament.id, STAGE)
    third, now = next((m for m in matches if m.slot == THIRD), None), services.clock.now()
    if third is None:
        third = await services.repos.matches.create(
            tournament.id, STAGE, round_no, THIRD, "group3", *pair, now, status="running")
    if third.status not in ("finished", "void"):
        staying = [player for player in pair if player not in out]
        label = await names_of(services, tournament.id)
        if staying:
            await services.repos.matches.settle(third.id, {
                "meta": "result", "winner": staying[0],
                "result": {"score": [0, 0], "walkover": True}}, None, now)
            said = tr("cup.third_walkover", winner=label[staying[0]],
                      loser=label[next(p for p in pair if p != staying[0])])
        else:
            await services.repos.matches.settle(third.id, {"meta": "void"}, None, now)
            said = tr("cup.third_nobody", a=label[pair[0]], b=label[pair[1]])
        if not already_said:
            await services.bot.send_message(tournament.chat_id, said)


async def final_places(services: Services, tournament: Tournament
                       ) -> list[tuple[int, int]] | None:
    """The final placings, (place, player), once the final and the match for 3rd place are
    over (None before): the finalists, then the 3rd-place match's winner and loser; a
    disqualified player has no place."""
    matches = await services.repos.matches.for_tournament(tournament.id, STAGE)
    bracket = bracket_of(tournament, matches)
    third = next((m for m in matches if m.slot == THIRD), None)
    needs_third = len(tournament.state["playoff_seeds"]) >= 4
    if not bracket.finished or (needs_third and (
            third is None or third.status not in ("finished", "void"))):
        return None
    final = bracket.match(f"W{bracket.rounds}-1")
    podium = [final.winner, final.loser]
    if third is not None and third.status == "finished":
        podium += [third.winner, third.player_a if third.winner == third.player_b
                   else third.player_b]
    out = await _disqualified(services, tournament)
    return [(n, player) for n, player in enumerate(podium, 1) if player not in out]


async def _finish_if_done(services: Services, tr: Translator, tournament: Tournament) -> None:
    """The podium once the final and the match for 3rd place are over."""
    places = await final_places(services, tournament)
    if places is None:
        return
    label = await names_of(services, tournament.id)
    lines = [tr(f"cup.place_{n}", name=label[player]) for n, player in places]
    await services.repos.tournaments.set_status(tournament.id, "finished", services.clock.now())
    await services.bot.send_message(tournament.chat_id, tr(
        "cup.champion", title=tournament.title, places=Markup("\n".join(lines)),
        fund=prize_fund(tr.language)))


def prize_fund(language: str) -> str:
    """The Cup document's initial prize fund, written as the language writes money."""
    pattern = Locale.parse(language).currency_formats["standard"].pattern
    return format_currency(PRIZE_FUND, "USD", pattern.replace(".00", ""), locale=language,
                           currency_digits=False)
