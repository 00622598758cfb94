"""What the formats say in the group as a tournament goes on: the groups and the Swiss
warning at the start, each round's announcement (pairings, byes, rests, its deadline, the
bracket results heard only in forum topics), the players a corrected result put in a made
match, results in words, bracket rounds' names, and the end with the final placings."""

from __future__ import annotations

from bot.features.formats import progress
from bot.features.formats.deadline import set_deadline
from bot.features.formats.export import set_by_organiser
from bot.features.formats.state import BRACKETS, Run, left_walkover, names_of
from bot.features.formats.tables import GROUP_LETTERS, marked_names
from bot.games import game_of
from bot.i18n import Markup, Translator, lines
from bot.services import Services
from games.tournament import round_count
from storage.repositories.matches import MatchRow
from storage.repositories.tournaments import LIVE

MEDALS = {1: "🥇 ", 2: "🥈 ", 3: "🥉 "}
STAND = "stand"
"""The run record's ``corrected`` after a correction that left the final placings as said."""


async def groups_text(services: Services, tr: Translator, run: Run) -> str:
    label = await names_of(services, run.tournament.id)
    groups = [tr("formats.group_line", group=GROUP_LETTERS[i],
                 names=", ".join(label[p] for p in group))
              for i, group in enumerate(run.record["groups"])]
    return tr("formats.groups", groups=Markup("\n".join(groups)))


async def seeded_lines(services: Services, tr: Translator, run: Run) -> list[str]:
    """Why one of the players level at a group's qualifying line goes on and not another."""
    label = await names_of(services, run.tournament.id)
    many = len(run.record["groups"]) > 1

    def names(players: list[int]) -> str:
        return ", ".join(label[p] for p in players)
    return [tr("formats.seeded_at_the_line", group=GROUP_LETTERS[index] if many else "",
               tied=names(through + out), through=names(through), out=names(out))
            for index, through, out in progress.seeded_at_the_line(run)]


async def replaced_lines(services: Services, tr: Translator, run: Run,
                         replaced: list[progress.Replaced]) -> list[str]:
    """A line per made match a corrected result put another player in: who plays whom
    now, in whose place."""
    if not replaced:
        return []
    label = await names_of(services, run.tournament.id)
    return [tr("formats.replaced_in_next", stage=slot_label(tr, run, each.match),
               new=label[each.new], old=label[each.old],
               opponent=label[each.match.opponent(each.new)]) for each in replaced]


def slot_label(tr: Translator, run: Run, row: MatchRow) -> str:
    """A bracket match's name: round of the winners' or losers' bracket, final, 3rd place."""
    return round_name(tr, run, row.slot.split("-")[0], row.round)


def round_name(tr: Translator, run: Run, head: str, round_no: int) -> str:
    """The name of a bracket round (``head`` is its slots' prefix: W…, L…, 3P, GF, GF2),
    the same in the round's announcement, /match and the bracket picture."""
    if head in ("3P", "GF", "GF2"):
        return tr(f"formats.slot.{head}")
    section = "L" if head.startswith("L") else "W"
    if run.phase == "double_elim":
        return tr(f"formats.slot.{section}", round=round_no)
    from_final = round_count(len(run.seeds)) - round_no  # a bracket is not built for a name
    if from_final < 2:
        return tr("formats.slot.semi" if from_final else "formats.slot.final")
    return tr("formats.slot.round", round=round_no)


def _round_heading(tr: Translator, run: Run, row: MatchRow) -> str:
    if run.phase in BRACKETS:
        return tr("formats.matches_heading")
    if run.phase == "swiss":
        return tr("formats.round_of", number=row.round, total=progress.swiss_planned_rounds(run))
    if run.phase == "swiss_elim":
        return tr("formats.round", number=row.round)
    return tr("formats.round_of", number=progress.round_said(run, row.round),
              total=progress.round_robin_rounds(run))


def _rests_left(tr: Translator, run: Run, rows: list[MatchRow],
                label: dict[int, str]) -> list[str]:
    """A round robin's players of the round whose opponent has left the tournament (the
    match is void, or their walkover: :func:`left_walkover`): each rests this round, said
    so they are not left wondering."""
    if run.phase != "round_robin" or not rows:
        return []
    closed = [row for row in run.rows if row.round == rows[0].round
              and (row.status == "void" or left_walkover(run, row))]
    return [_placed(tr, run, row, tr("formats.rest_left", name=label[player]))
            for row in closed for player in row.players
            if player is not None and player not in run.removed]


def match_line(tr: Translator, run: Run, row: MatchRow, label: dict[int, str]) -> str:
    if row.player_b is None:  # a Swiss or bracket bye is a win; a round robin's is a rest
        line = tr("formats.bye" if row.winner else "formats.rest", name=label[row.player_a])
    else:
        line = tr("formats.pair", a=label[row.player_a], b=label[row.player_b])
    return _placed(tr, run, row, line)


def _placed(tr: Translator, run: Run, row: MatchRow, line: str) -> str:
    """``line`` about ``row`` as a list item, with its bracket round or group named."""
    if run.phase in BRACKETS:
        return f"• {slot_label(tr, run, row)}: {line}"
    if row.slot.startswith("G"):
        return f"• {GROUP_LETTERS[progress.group_of(row.slot)]}: {line}"
    return f"• {line}"


async def announcement(services: Services, tr: Translator, run: Run,
                       rows: list[MatchRow], about: int | None = None) -> str | None:
    """The round's pairings (its deadline set), or None when it needs no announcement;
    under the results it was made from when the general chat did not hear them
    (:func:`_results_heard_in_topics`; ``about``: a match whose result heads it already)."""
    played = [row for row in rows if row.status in LIVE]
    if not played and run.phase == "round_robin":
        return None  # a round left with only rests (after withdrawals)
    label = await names_of(services, run.tournament.id)
    matches = [match_line(tr, run, row, label) for row in rows] + _rests_left(tr, run, rows, label)
    tail = []
    if played and not game_of(run.tournament.game).in_bot(run.tournament.settings):
        tail.append(tr("formats.how_to_report"))
    minutes = run.settings.get("deadline", 0)
    if played and minutes:
        tail.append(await set_deadline(services, tr, run, played, minutes))
    if played and run.tournament.status == "paused":  # opened by a result or a withdrawal
        tail.append(tr("formats.opened_paused"))
    return lines(*await _results_heard_in_topics(services, tr, run, rows, label, about),
                 tr("formats.announce", heading=_round_heading(tr, run, rows[0]),
                    lines=Markup("\n".join(matches + tail))))


async def _results_heard_in_topics(services: Services, tr: Translator, run: Run,
                                   rows: list[MatchRow] | None, label: dict[int, str],
                                   about: int | None) -> list[str]:
    """The results of the bracket matches ``rows`` were made from (``rows`` None, at the
    end: of the matches no other was made from, the final and the 3rd-place match), a line
    each, where they ended in play in their forum topics (``topics=on``: the general chat
    heard nothing of them; a walkover or a result an organiser set, the last one too, was
    said there)."""
    tournament = run.tournament
    if run.phase not in BRACKETS or not game_of(tournament.game).in_bot(tournament.settings):
        return []
    bracket, by_slot = run.bracket(), {row.slot: row for row in run.rows}
    if rows is None:  # a reset not needed (void) leaves the grand final the last match
        fed = {slot for view in bracket.matches if view.status != "void"
               for slot in bracket.feeders(view.id)}
        told = [by_slot[view.id] for view in bracket.matches
                if view.id not in fed and view.id in by_slot]
    else:
        told = list(dict.fromkeys(by_slot[slot] for row in rows
                                  for slot in bracket.feeders(row.slot) if slot in by_slot))
    return [tr("formats.decided_in_topic", stage=slot_label(tr, run, row),
               result=describe(tr, label, row, row.winner, row.result.get("score")))
            for row in told
            if row.thread_id is not None and row.status == "finished" and row.player_b
            is not None and not row.result.get("forfeit") and row.id != about and
            await set_by_organiser(services, row) is None]


def describe(tr: Translator, label: dict[int, str], match: MatchRow, winner: int | None,
             score: tuple[int, int] | list[int] | None, forfeit: bool = False) -> str:
    """A result in words: "A beats B 5:3", "A — B, draw 2:2", "A wins by forfeit"."""
    if winner is None:
        shown = f" {score[0]}:{score[1]}" if score else ""
        return tr("formats.outcome.draw", a=label[match.player_a], b=label[match.player_b],
                  score=shown)
    loser = match.opponent(winner)
    if forfeit:
        return tr("formats.outcome.forfeit", winner=label[winner], loser=label[loser])
    if score:
        won, lost = score if winner == match.player_a else (score[1], score[0])
        return tr("formats.outcome.score", winner=label[winner], loser=label[loser],
                  score=f"{won}:{lost}")
    return tr("formats.outcome.win", winner=label[winner], loser=label[loser])



async def ending_text(services: Services, tr: Translator, run: Run,
                      about: int | None = None) -> str:
    """"It is over" with the final placings and the game's line of statistics (as under
    /standings): below the last round's table when it fits the table's caption, else a
    message of its own; under the last results the general chat did not hear, played in
    their forum topics (the final's: ``about`` a match whose result heads it already)."""
    corrected = run.record.get("corrected")
    heard: list[str] = []
    if corrected == STAND:
        ended = tr("formats.finished_stand", title=run.tournament.title)
    else:
        ended = tr("formats.finished_corrected" if corrected else "formats.finished",
                   title=run.tournament.title,
                   placings=Markup(await placings_text(services, tr, run)))
        if not corrected:
            label = await names_of(services, run.tournament.id)
            heard = await _results_heard_in_topics(services, tr, run, None, label, about)
    note = await game_of(run.tournament.game).note(services, tr, run.tournament)
    return lines(*heard, ended, note)


async def placings_text(services: Services, tr: Translator, run: Run) -> str:
    """Final places; a round robin in several groups lists each group."""
    label = marked_names(tr, run, await names_of(services, run.tournament.id))
    if run.phase == "round_robin" and len(run.record["groups"]) > 1:
        return "\n".join(
            tr("formats.group_line", group=GROUP_LETTERS[index], names=", ".join(
                label[row.player] for row in table if row.place is not None))
            for index, table in progress.group_tables(run))
    places = progress.placings(run)
    seeding = [*run.seeds, *(p for p in run.players if p not in run.seeds)]
    order = sorted(places, key=lambda p: (places[p], seeding.index(p)))
    return "\n".join(tr("formats.place", medal=MEDALS.get(places[p], ""), place=places[p],
                        name=label[p]) for p in order)
