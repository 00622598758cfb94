"""The formats in the chat: the start of every non-Cup game, each round's announcement
(pairings, byes, the deadline), launching matches played inside the bot, the deadline job
and the final placings."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from bot.features.formats import progress
from bot.features.formats.export import set_by_organiser
from bot.features.formats.state import (
    BRACKETS,
    TABLES,
    Run,
    left_walkover,
    load,
    log_event,
    names_of,
    save_record,
)
from bot.features.formats.tables import GROUP_LETTERS, marked_names, post_tables
from bot.features.lifecycle import duration, zone_of
from bot.game_settings import SWISS_ROUNDS
from bot.games import Game, Opening, game_of
from bot.i18n import Markup, Translator, lines, paragraphs
from bot.play import clock
from bot.play.context import context_for, load_match
from bot.play.redraw import redraw_in_place
from bot.services import Services
from bot.timeparse import zone_name
from games.tournament import round_count, swiss_rounds_warning
from storage.repositories.jobs import Job
from storage.repositories.matches import MatchRow
from storage.repositories.tournaments import LIVE, Entrant, Tournament

DEADLINE_JOB = "formats_deadline"
ADVANCE_JOB = "formats_advance"
"""The format moving on after a result: stored with the result, run right after its update."""
MEDALS = {1: "🥇 ", 2: "🥈 ", 3: "🥉 "}
STAND = "stand"
"""The run record's ``corrected`` after a correction that left the final placings as said."""
Carrier = Callable[[str, str], Awaitable[None]]
"""How a first message is sent that is not a text: (the lead, what follows it)."""


async def start_format(services: Services, tournament: Tournament,
                       entrants: list[Entrant], opening: Opening) -> None:
    """Seed the field, open the first round: its announcement begins with the start's
    roster, then the format (and a Swiss warning, the groups) — one group message. Run
    again after a stop, it seeds nothing twice, and announces a first round made before
    the stop and not said (one said already, with the roster, is left as it is but for the
    boards of its matches that never went out: :func:`proceed` posts them)."""
    if not opening.head:  # the roster went out with the first round
        await proceed(services, tournament.id)
        return
    players = [e.user_id for e in sorted(entrants, key=lambda e: e.seed or 0)]
    tr = await services.translator_for_chat(tournament.chat_id)
    run = await load(services, tournament.id)
    if "players" not in run.record:
        run = await progress.begin(services, run, players)
    made = [row for row in run.rows if row.status != "pending"]  # a start cut short
    lead = [tr("formats.started", format=tr(f"formats.name.{run.format}"))]
    if run.format == "swiss":
        rounds = run.settings.get("rounds", SWISS_ROUNDS)
        if warning := swiss_rounds_warning(len(players), rounds):
            lead.append(tr(
                f"formats.warn.{warning}", rounds=Markup(tr("formats.n_rounds", count=rounds)),
                players=Markup(tr("formats.n_players", count=len(players))),
                most=Markup(tr("formats.n_rounds", count=progress.swiss_planned_rounds(run)))))
    if len(run.record["groups"]) > 1:
        lead.append(await _groups_text(services, tr, run))
    await proceed(services, tournament.id, lead=[paragraphs(opening.head, lines(*lead))],
                  lead_said=opening.said, made=made)


async def _say(services: Services, tournament: Tournament, text: str, **kwargs) -> None:
    await services.bot.send_message(tournament.chat_id, text, **kwargs)


async def _groups_text(services: Services, tr: Translator, run: Run) -> str:
    label = await names_of(services, run.tournament.id)
    groups = [tr("formats.group_line", group=GROUP_LETTERS[i],
                 names=", ".join(label[p] for p in group))
              for i, group in enumerate(run.record["groups"])]
    return tr("formats.groups", groups=Markup("\n".join(groups)))


async def _seeded_at_the_line(services: Services, tr: Translator, run: Run) -> list[str]:
    """Why one of the players level at a group's qualifying line goes on and not another."""
    label = await names_of(services, run.tournament.id)
    many = len(run.record["groups"]) > 1

    def names(players: list[int]) -> str:
        return ", ".join(label[p] for p in players)
    return [tr("formats.seeded_at_the_line", group=GROUP_LETTERS[index] if many else "",
               tied=names(through + out), through=names(through), out=names(out))
            for index, through, out in progress.seeded_at_the_line(run)]


async def proceed(services: Services, tournament_id: int, *, lead: Sequence[str] = (),
                  lead_said: Callable[[], Awaitable[None]] | None = None,
                  about: int | None = None, lead_with: Carrier | None = None,
                  made: Sequence[MatchRow] = ()) -> None:
    """Advance the format until something waits for play, announcing every step
    (the caller holds the tournament's lock); ``lead``: lines said at the head of the
    first message (the format at the start, a result after it), then ``lead_said`` is
    awaited (the caller notes it, so a retry does not say it twice); ``about``: the match
    whose result ``lead`` says (not said again among the results a round was made from);
    ``lead_with``: how that first message is sent, ``lead`` and what follows it (a match's
    record: a file they caption), when not as a text; a round's table then comes after it;
    ``made``: matches opened before a stop and never announced (a start run again),
    announced first. The boards of matches announced before whose launch failed (a send
    that failed for good: the job is retried) are posted first."""
    run = await load(services, tournament_id)
    unannounced = {row.id for row in made}
    await _launch(services, run, [row for row in run.open_rows() if row.board_message_id
                                  is None and row.id not in unannounced])
    tr = await services.translator_for_chat(run.tournament.chat_id)
    held = list(lead)
    replaced: list[progress.Replaced] = []

    async def said() -> None:
        if held and lead_said is not None:
            await lead_said()
        held.clear()

    async def say(text: str) -> None:
        if held and lead_with is not None:
            await lead_with("\n".join(held), text)
        else:
            await _say(services, run.tournament, "\n".join(part for part in (*held, text) if part))
        await said()

    for _ in range(64):  # each pass opens a round or ends; byes-only rounds go on at once
        step = progress.Step(run, list(made)) if made else await progress.advance(services, run)
        made = ()
        replaced += step.replaced
        held += await _replaced_lines(services, tr, step.run, step.replaced)
        texts = [tr(step.note, **step.note_params)] if step.note else []
        if step.note == "formats.playoff_started":
            texts = [lines(*texts, *await _seeded_at_the_line(services, tr, step.run))]
        if step.opened and (text := await _announcement(services, tr, step.run, step.opened,
                                                        about)):
            texts.append(text)
        if step.finished and not step.run.record.get("ended"):
            texts.append(await ending_text(services, tr, step.run, about))
        # a round of rests only (after withdrawals) leaves the table to the next pass, so
        # it goes out with the round after it or the final placings
        rests_only = step.opened and not texts and not step.run.open_rows()
        if (step.opened and not rests_only) or step.finished:
            step.run, texts = await _table_after_round(
                services, tr, run, step.run, texts, held, said,
                noted={"ended": True} if step.finished else {},
                lead_alone=None if lead_with is None else partial(say, ""))
        for text in texts:
            await say(text)
        if step.opened:
            await _launch(services, step.run, step.opened)
        if step.finished:
            if held:
                await say("")  # a tournament over at once (byes only) still says its format
            await finish(services, step.run)
            return
        if not step.opened or step.run.open_rows():
            break
        run = step.run
    if held:
        await say("")
    await _hand_over(services, tr, run, replaced)


async def _replaced_lines(services: Services, tr: Translator, run: Run,
                          replaced: list[progress.Replaced]) -> list[str]:
    """A line per made match a corrected result put another player in: who plays whom
    now, in whose place."""
    if not replaced:
        return []
    label = await names_of(services, run.tournament.id)
    return [tr("formats.replaced_in_next", stage=slot_label(tr, run, each.match),
               new=label[each.new], old=label[each.old],
               opponent=label[each.match.opponent(each.new)]) for each in replaced]


async def _hand_over(services: Services, tr: Translator, run: Run,
                     replaced: list[progress.Replaced]) -> None:
    """A match played in the bot that got another player: its clocks run on from the
    settling entry that put them in (one set before it would never fire), and its board,
    if shown, is drawn again in place with the new name."""
    if not game_of(run.tournament.game).in_bot(run.tournament.settings):
        return
    for each in replaced:
        ctx = await load_match(services, tr, each.match.id)
        await clock.keep(ctx)
        await redraw_in_place(ctx)


async def advance_after_result(services: Services, job: Job) -> None:
    """:data:`ADVANCE_JOB`: the tournament goes on from the result stored with the job: the
    format's engine told of it (its ``event``, once), then the round's table, the next round,
    the final placings. It runs once the update that recorded the result has answered; run
    again after a restart, it finds what is already done and goes on."""
    async with services.lock(f"tournament-{job.tournament_id}"):
        job = await services.repos.jobs.get(job.id) or job  # another may have said its words
        if (event := job.payload.get("event")) is not None:
            if event["type"] == "correct":  # a pair's winner may be corrected back and forth
                event = event | {"job": job.id}
            run = await load(services, job.tournament_id)
            if event not in run.record.get("log", []):
                await log_event(services, run, event)
        if job.payload.get("after_end") and not job.payload.get("reopened"):
            await _say_the_end_again(services, job)
        await proceed(services, job.tournament_id, **await _said_together(services, job))


async def _say_the_end_again(services: Services, job: Job) -> None:
    """A result corrected after the end: the last table and the final placings are said
    again, corrected; when the placings are the ones said before (a score alone corrected),
    only a line that they stand, under the result (once: noted in the job)."""
    run = await load(services, job.tournament_id)
    if progress.placed(run) == job.payload.get("placed"):
        await save_record(services, run, ended=False, corrected=STAND)
    else:
        await save_record(services, run, ended=False, tabled=0, corrected=True)
    await services.repos.jobs.note(job.id, reopened=True)


def said_once(services: Services, job: Job) -> dict[str, Any]:
    """:func:`proceed`'s ``lead`` and ``lead_said`` for a job that carries words to say
    (``said``: a result, a player's removal): said at the head of what comes next, then
    noted in the job (``told``), so a retried job does not say them again."""
    said = job.payload.get("said")
    return {"lead": [said] if said and not job.payload.get("told") else [],
            "lead_said": partial(services.repos.jobs.note, job.id, told=True),
            "about": job.payload.get("match_id") if said else None,
            "lead_with": partial(_on_record, services, job.payload["match_id"])
            if job.payload.get("record") else None}


async def _said_together(services: Services, job: Job) -> dict[str, Any]:
    """:func:`said_once` for :data:`ADVANCE_JOB`, with the words of the tournament's other
    results still to move it on (matches that ended together: clocks run out at once), so
    that none is said under the round made from it: words in text all head what comes next,
    in the order they came; words said on a match's record each go on their own, those
    before the last sent at once, the last heading what comes next. Each job is noted as
    said once its words are."""
    untold = sorted([one for one in [job, *await services.repos.jobs.waiting(
        job.tournament_id, ADVANCE_JOB, job.id)] if _untold(one)], key=lambda one: one.id)
    if len(untold) < 2:
        return said_once(services, job)
    last = untold[-1]
    if last.payload.get("record"):
        for one in untold[:-1]:
            await _on_record(services, one.payload["match_id"], one.payload["said"], "")
            await services.repos.jobs.note(one.id, told=True)
        return said_once(services, last)
    return {"lead": [one.payload["said"] for one in untold],
            "lead_said": partial(_note_told, services, untold),
            "about": job.payload.get("match_id")}


def _untold(job: Job) -> bool:
    return bool(job.payload.get("said")) and not job.payload.get("told")


async def _note_told(services: Services, jobs: list[Job]) -> None:
    for one in jobs:
        await services.repos.jobs.note(one.id, told=True)


async def _on_record(services: Services, match_id: int, lead: str, then: str) -> None:
    """A result's words said on its match's record, the file its game sends
    (:attr:`~bot.games.Game.records`), what the format says next under them."""
    match = await services.repos.matches.get(match_id)
    tournament = await services.repos.tournaments.get(match.tournament_id)
    tr = await services.translator_for_chat(tournament.chat_id)
    await game_of(tournament.game).records[match.kind](
        await context_for(services, tr, tournament, match), lead, then)


async def _table_after_round(services: Services, tr: Translator, before: Run, after: Run,
                             then: list[str], lead: list[str],
                             lead_said: Callable[[], Awaitable[None]],
                             noted: dict[str, Any],
                             lead_alone: Callable[[], Awaitable[None]] | None = None
                             ) -> tuple[Run, list[str]]:
    """Round robin and Swiss: post the table once after each completed round (``before``
    is the run as the round ended, ``after`` as the step left it), with ``lead`` (the
    result that ended the round) above it and ``then`` (the step's note, the next round or
    the final placings) below it in its caption when they fit, ``lead_said`` awaited at once
    when they were (a fault after it must not have the result said again) and ``noted``
    saved in the run's record with the table (what ``then`` said, so a retry does not say it
    again); the run, and what of ``then`` is still to be said. ``lead_alone``: the lead
    said in a message of its own before the table (a match's record carries it)."""
    if before.phase not in TABLES:
        return after, then
    last = max((row.round for row in before.rows if _round_played(before, row)), default=0)
    if last <= after.record.get("tabled", 0):
        return after, then
    if lead and lead_alone is not None:
        await lead_alone()
    carried = await post_tables(services, tr, before, tr(
        "formats.standings_after_round", title=before.tournament.title, round=last),
        lead=lead, then=then)
    if carried:
        await lead_said()
    saved = await save_record(services, after, tabled=last, **(noted if carried else {}))
    return saved, [] if carried else then


def _round_played(run: Run, row: MatchRow) -> bool:
    """Whether ``row`` has its round tabled: a match finished (not a withdrawal's walkover,
    maybe decided ahead of its round)."""
    return row.status == "finished" and row.player_b is not None \
        and not left_walkover(run, row)


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
    total = max(r.round for r in run.rows if r.slot[0] in "GR")
    return tr("formats.round_of", number=row.round, total=total)


def _rests_left(tr: Translator, run: Run, rows: list[MatchRow],
                label: dict[int, str]) -> list[str]:
    """A round robin's players of the round whose opponent has left the tournament (the
    match is void, or their walkover: :func:`left_walkover`): each rests this round, said so they are not left
    wondering."""
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


async def _announcement(services: Services, tr: Translator, run: Run,
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
        tail.append(await _deadline(services, tr, run, played, minutes))
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


async def _deadline(services: Services, tr: Translator, run: Run, played: list[MatchRow],
                    minutes: int) -> str:
    """Set the round's deadline and say when it is; a round opened during a pause gets
    its minutes of play after /resume (the deadline is frozen with the match clocks). Said
    again (its announcement retried after a failed send or a stop), the round's deadline
    replaces the one set before: one deadline, the one said."""
    due = _whole_minute(services.clock.now() + timedelta(minutes=minutes))
    await services.scheduler.replace(DEADLINE_JOB, due, run.tournament.id, key="matches",
                                     matches=[row.id for row in played])
    if run.tournament.status == "paused":
        await services.scheduler.freeze(run.tournament.id, (DEADLINE_JOB,))
        return tr("formats.deadline_after_resume", left=duration(tr, minutes))
    return _deadline_at(services, tr, run.tournament, due, minutes)


def _deadline_at(services: Services, tr: Translator, tournament: Tournament, due: datetime,
                 minutes: int) -> str:
    zone = zone_of(services, tournament, tr.language)
    return tr("formats.deadline_at", time=due.astimezone(zone).strftime("%d.%m %H:%M"),
              zone=zone_name(zone), left=duration(tr, minutes))


async def _deadline_resumed(services: Services, tr: Translator, tournament: Tournament,
                            job: Job) -> str:
    """The round's deadline as /resume moved it on (by the time the pause lasted)."""
    due = _whole_minute(job.run_at)
    left = -(-(due - services.clock.now()) // timedelta(minutes=1))
    return _deadline_at(services, tr, tournament, due, left)


# /pause freezes a round's deadline with the match clocks; /resume says when it falls now
clock.register(DEADLINE_JOB, resumed=_deadline_resumed)


def _whole_minute(moment: datetime) -> datetime:
    """``moment`` rounded up to the minute it is shown as: matches whose deadlines are
    shown alike fall due together and are said in one message."""
    floor = moment.replace(second=0, microsecond=0)
    return floor if floor == moment else floor + timedelta(minutes=1)


async def _launch(services: Services, run: Run, rows: list[MatchRow]) -> None:
    game = game_of(run.tournament.game)
    if not game.in_bot(run.tournament.settings):
        return
    launcher = game.launch
    for row in rows:  # one opened during a pause too: its board waits for /resume
        if row.status in LIVE and row.player_b is not None:
            await launcher(services, run.tournament, row)


async def finish(services: Services, run: Run) -> None:
    """The tournament over, once its end was said (:func:`ending_text`)."""
    tournament = run.tournament
    await services.repos.tournaments.set_status(tournament.id, "finished", services.clock.now())
    await services.scheduler.cancel(tournament.id, (DEADLINE_JOB,))


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


async def deadline_passed(services: Services, job: Job) -> None:
    """Remind the players of matches still open and hand them to the organisers: those
    of every deadline of the tournament passed by now, in one message."""
    run = await load(services, job.tournament_id)
    if run.tournament is None or run.tournament.status != "running":
        return
    due = {match for taken in [job, *await services.scheduler.take_due(job)]
           for match in taken.payload["matches"]}
    late = [row for row in run.rows if row.id in due and row.status in LIVE]
    if not late:
        return
    tr = await services.translator_for_chat(run.tournament.chat_id)
    label = await names_of(services, run.tournament.id)
    game = game_of(run.tournament.game)
    in_bot = game.in_bot(run.tournament.settings)
    overdue = [await _overdue(services, tr, game, row, label, in_bot) for row in late]
    await _say(services, run.tournament, tr(
        "formats.deadline_passed_in_bot" if in_bot else "formats.deadline_passed",
        lines=Markup("\n".join(overdue))))


async def _overdue(services: Services, tr: Translator, game: Game, row: MatchRow,
                   label: dict[int, str], in_bot: bool) -> str:
    """A match open at the deadline, and where it stands: a game that tells its state
    (``Game.match_now``) says it (a report awaiting its confirmation, whose move it is)."""
    a, b = label[row.player_a], label[row.player_b]
    if in_bot and game.match_now is not None:
        ctx = await load_match(services, tr, row.id)
        now = game.match_now(ctx, await services.matches.state(ctx.match))
        return tr("formats.late.now", a=a, b=b, now=now.splitlines()[-1])
    return tr(f"formats.late.{_late_state(row, in_bot)}", a=a, b=b)


def _late_state(row: MatchRow, in_bot: bool) -> str:
    """Where a match open at the deadline stands: a match played in the bot is still being
    played (the bot records its result), a reported one is unreported, unconfirmed or
    disputed."""
    if in_bot:
        return "playing"
    if row.result.get("dispute"):
        return "disputed"
    return "unconfirmed" if row.result.get("report") else "unreported"
