"""/standings, /bracket and /match for the formats' tournaments: pictures, with the text as
the fallback when a picture cannot be drawn, and a player's current match with what to do
next. The Cup answers for its own tournaments (this router comes first and skips them)."""

from __future__ import annotations

import html
from collections.abc import Awaitable, Callable
from functools import partial

from aiogram.filters import Command, CommandObject
from aiogram.types import Message

from bot.features.access import target_tournament
from bot.features.formats.announcements import describe, placings_text, round_name
from bot.features.formats.common import open_match, stage_of
from bot.features.formats.state import BRACKETS, Run, load, names_of
from bot.features.formats.tables import post_tables
from bot.features.handlers import Handlers
from bot.features.mine import dm_answer, match_answer
from bot.games import game_of
from bot.i18n import Markup, Translator, lines
from bot.middlewares.filters import IN_GROUP, command_name, topic_of
from bot.play import hidden
from bot.play.context import LIVE, load_match, own_key, own_text
from bot.play.refusal import paused
from bot.render import Box, bracket_count, bracket_png
from bot.render.posting import post_pictures
from bot.services import Services
from games.tournament import Bracket, MatchView, Ref
from games.tournament.bracket import Slot
from storage.repositories.matches import MatchRow, forfeit_texts
from storage.repositories.tournaments import Tournament

router = Handlers("formats-status")


async def _run_here(message: Message, services: Services, tr: Translator, args: str | None,
                    not_yet: Callable[[Tournament], str]) -> Run | None:
    """The chat's tournament once it has started (with several, the one the sender plays);
    before its start, ``not_yet`` names what is said instead."""
    target = await target_tournament(services, message.chat.id, args, message.from_user.id,
                                     command_name(message.text), topic_of(message))
    if target.tournament is None:
        await message.reply(tr(target.error, **(target.error_params or {})))
        return None
    if not target.tournament.started:
        await message.answer(tr(not_yet(target.tournament)))
        return None
    return await load(services, target.tournament.id)


def _no_bracket_yet(tournament: Tournament) -> str:
    """What /bracket says before the start: a bracket format's is made at the start, the
    groups' playoff once the groups are played, and the other formats have none."""
    played = tournament.settings.get("format", "round_robin")
    if played in BRACKETS:
        return "bracket.not_started"
    return "bracket.none" if played == "groups_playoff" else "formats.no_bracket"


@router.message(Command("standings"), IN_GROUP)
async def standings_command(message: Message, command: CommandObject, services: Services,
                            tr: Translator) -> None:
    run = await _run_here(message, services, tr, command.args,
                          lambda _: "standings.none")
    if run is None:
        return
    await _standings(services, tr, run, message.chat.id, message.answer, topic_of(message))


async def _standings(services: Services, tr: Translator, run: Run, chat_id: int,
                     say: Callable[[str], Awaitable[object]],
                     thread_id: int | None = None) -> None:
    """Places so far (brackets) and the tables (round robin, Swiss, groups) in ``chat_id``
    (its forum topic ``thread_id``: where the command was sent), with the game's own line
    (its statistics) under the last of them."""
    title = run.tournament.title
    game = game_of(run.tournament.game)
    note = await game.note(services, tr, run.tournament)
    tables = run.format == "groups_playoff" or run.phase not in (*BRACKETS, "swiss_elim")
    if run.phase == "swiss_elim" and run.tournament.status != "finished":
        await say("\n\n".join(filter(None, [await _swiss_elim_so_far(services, tr, run),
                                             note])))
    elif run.phase in BRACKETS or run.phase == "swiss_elim":
        text = await placings_text(services, tr, run) or tr("formats.no_places_yet")
        key = "formats.final_placings" if run.tournament.status == "finished" \
            else "formats.placings_so_far"
        await say("\n\n".join(filter(None, [tr(key, title=title, placings=Markup(text)),
                                             None if tables else note])))
    if tables:
        caption = tr("formats.standings_caption", title=title)
        await post_tables(services, tr, run, lines(caption, note), chat_id,
                          thread_id=thread_id)


async def _swiss_elim_so_far(services: Services, tr: Translator, run: Run) -> str:
    """A running Swiss with elimination: the players still in, fewest losses first (then
    most wins, then seed), each with their wins and losses; then the places of those out."""
    engine, label = run.swiss_elim(), await names_of(services, run.tournament.id)
    still_in = sorted(engine.active, key=lambda p: (engine.losses(p), -engine.wins(p)))
    text = tr("formats.swiss_elim_so_far", title=run.tournament.title, round=engine.round,
              count=engine.max_losses, players=Markup("\n".join(
                  tr("formats.still_in_line", name=label[p], wins=engine.wins(p),
                     losses=engine.losses(p)) for p in still_in)))
    out = await placings_text(services, tr, run)
    return lines(text, tr("formats.out_so_far", placings=Markup(out)) if out else None)


def _score_of(view: MatchView, row: MatchRow | None) -> tuple[str, str] | None:
    """The match's score as the bracket shows it: its row's, or "+"/"−" for a walkover
    the bracket decided without one (a player who left before the match was made)."""
    texts = None if row is None else row.score_texts()
    if texts is None and view.status == "done" and view.forfeit:
        return forfeit_texts(view.winner == view.slots[0])
    return texts


def _rounds(tr: Translator, run: Run, bracket: Bracket, label: dict[int, str],
            *sections: str) -> list[tuple[str, list[Box]]]:
    """The rounds of the sections, one after another as one picture's columns, named as
    everywhere else, each match with its score, its name (once made, its number as the chat
    gives it) and the boxes of the column before whose winners take its places."""
    rows = {row.slot: row for row in run.rows}

    def name(slot: Slot) -> str:
        return _slot_name(tr, bracket, rows, label, slot)
    rounds, before = [], []
    for here in _columns(bracket, sections):
        matches = [Box(name(v.slots[0]), name(v.slots[1]),
                       label.get(v.winner) if v.winner else None, _score_of(v, rows.get(v.id)),
                       _box_label(tr, bracket, rows.get(v.id), v), _pending(v),
                       _feeds(bracket, v, before)) for v in here]
        rounds.append((html.unescape(_round_title(tr, run, here[0])), matches))
        before = [v.id for v in here]
    return rounds


def _columns(bracket: Bracket, sections: tuple[str, ...]) -> list[list[MatchView]]:
    """The matches to draw of each round of the sections, in order (a void one is not)."""
    views = [v for v in bracket.matches if v.status != "void"]
    return [here for section in sections
            for number in sorted({v.round for v in views if v.section == section})
            if (here := [v for v in views if v.section == section and v.round == number])]


def _feeds(bracket: Bracket, view: MatchView, before: list[str]) -> tuple[int | None, ...]:
    """For each place of the match, the box of the column before whose winner takes it."""
    return tuple(before.index(match) if match in before else None
                 for match in bracket.winners_into(view.id))


def _box_label(tr: Translator, bracket: Bracket, row: MatchRow | None, view: MatchView) -> str:
    """A match's name on its box: its number as the chat gives it once made («#5»); before,
    a double elimination's upper match, whose loser a lower place waits for, by its round
    and place in the round («W2-1»); else nothing."""
    if row is not None:
        return tr.plain("formats.bracket.match_number", number=row.id)
    if bracket.kind == "double" and view.section == "W":
        return tr.plain("formats.bracket.upper_place", round=view.round,
                        place=view.id.rsplit("-", 1)[1])
    return ""


def _pending(view: MatchView) -> tuple[bool, bool]:
    """Which of a match's places hold no player yet (one still to come, a bye); both while
    the match is a reset played only if needed."""
    if _if_needed(view):
        return True, True
    return view.unfilled


def _if_needed(view: MatchView) -> bool:
    """The grand final's reset while the grand final is not decided."""
    return view.id == "GF2" and view.status == "waiting"


def _round_title(tr: Translator, run: Run, view: MatchView) -> str:
    """A round's name over its column; the grand final's reset, drawn while the grand final
    is not decided, is marked as played only if needed (once decided it is played, or void
    and not drawn)."""
    if _if_needed(view):
        return tr("formats.slot.GF2_if_needed")
    return round_name(tr, run, view.id.split("-")[0], view.round)


def _slot_name(tr: Translator, bracket: Bracket, rows: dict[str, MatchRow],
               label: dict[int, str], slot: Slot) -> str:
    """What a bracket box says for one of its places: the player, a bye, or where a player
    still to come drops in from: the loser of the match named as its box is («#5»; a double
    elimination's upper match not made yet «W2-1»), else «?» (a single elimination's
    3rd-place match before the semi-finals are made)."""
    if slot is None:
        return tr.plain("formats.bye_slot")
    if isinstance(slot, int):
        return label.get(slot, "?")
    if not isinstance(slot, Ref) or slot.kind != "loser":
        return "?"
    where = _box_label(tr, bracket, rows.get(slot.match), bracket.match(slot.match))
    return tr.plain("formats.bracket.loser_of", match=where) if where else "?"


@router.message(Command("bracket"), IN_GROUP)
async def bracket_command(message: Message, command: CommandObject, services: Services,
                          tr: Translator) -> None:
    run = await _run_here(message, services, tr, command.args, _no_bracket_yet)
    if run is None:
        return
    await _bracket(services, tr, run, message.chat.id, message.answer, topic_of(message))


async def _bracket(services: Services, tr: Translator, run: Run, chat_id: int,
                   say: Callable[[str], Awaitable[object]],
                   thread_id: int | None = None) -> None:
    """The bracket(s) of ``run`` in ``chat_id`` (its forum topic ``thread_id``), or why
    there is none."""
    if run.phase not in BRACKETS:
        await say(tr("bracket.none" if run.format == "groups_playoff"
                     else "formats.no_bracket"))
        return
    bracket, label = run.bracket(), await names_of(services, run.tournament.id)
    third = next(iter(_rounds(tr, run, bracket, label, "3P")), None)
    extra = None if third is None or not third[1] else (third[0], third[1][0])
    if run.phase == "double_elim":
        sections = _double_elim_sections(tr, run, bracket, label)
    else:
        sections = [("formats.bracket.whole", _rounds(tr, run, bracket, label, "W"), extra)]
    sections = [section for section in sections if section[1]]
    title = run.tournament.title
    calls, captions = _bracket_pictures(tr, title, sections)
    parts = [rounds for _, rounds, _ in sections] + ([[third]] if third else [])
    await post_pictures(services, chat_id, calls, captions,
                        lambda: _text_bracket(tr, title, parts),
                        name=f"{run.tournament.game}-bracket", thread_id=thread_id)


def _double_elim_sections(tr: Translator, run: Run, bracket: Bracket,
                          label: dict[int, str]) -> list:
    """A double elimination's pictures: the upper bracket with the grand final where they
    fit one picture (a small field: one group message fewer), else each on its own so the
    grand final is not drawn twice; then the lower bracket."""
    together, lower = (_rounds(tr, run, bracket, label, *sections)
                       for sections in (("W", "GF"), ("L",)))
    if bracket_count(run.tournament.title, together) == 1:
        return [("formats.bracket.upper_final", together, None),
                ("formats.bracket.lower", lower, None)]
    upper, final = (_rounds(tr, run, bracket, label, section) for section in ("W", "GF"))
    return [("formats.bracket.upper", upper, None), ("formats.bracket.lower", lower, None),
            ("formats.bracket.final", final, None)]


def _bracket_pictures(tr: Translator, title: str, sections: list) -> tuple[list, list[str]]:
    """The drawing calls of a bracket's sections (the key of its name, its rounds, the
    3rd-place match under it), their pictures numbered through all of them, and each
    picture's caption: the tournament, and the section and number when there are several."""
    several = len(sections) > 1
    headed = [(key, f"{title} — {tr.plain(key)}" if several else title, rounds, extra)
              for key, rounds, extra in sections]
    counts = [bracket_count(heading, rounds) for _, heading, rounds, _ in headed]
    total = sum(counts)
    if total == 1:
        return [(bracket_png, headed[0][1:])], [tr("formats.bracket_caption", title=title)]
    calls, captions = [], []
    for (key, heading, rounds, extra), count in zip(headed, counts, strict=True):
        first = len(captions) + 1
        calls.append((bracket_png, (heading, rounds, extra, (first, total))))
        captions += [tr("formats.bracket_caption_numbered", title=title, part=tr.plain(key),
                        number=number, total=total) for number in range(first, first + count)]
    return calls, captions


def _text_bracket(tr: Translator, title: str, parts: list) -> str:
    rows = [f"{name}: {box.a} — {box.b}" + (f" {box.score[0]}:{box.score[1]}" if box.score
                                             else "")
            + (f" → {box.winner}" if box.winner else "")
            for rounds in parts for name, matches in rounds for box in matches]
    return tr("formats.table", title=title, rows="\n".join(rows))


@router.message(Command("match"), IN_GROUP)
async def match_command(message: Message, command: CommandObject, services: Services,
                        tr: Translator) -> None:
    """The sender's current match: the opponent, the report waiting for confirmation and
    what to do next."""
    target = await target_tournament(services, message.chat.id, command.args,
                                     message.from_user.id, command.command, topic_of(message))
    if target.tournament is None:
        await message.reply(tr(target.error, **(target.error_params or {})))
        return
    if target.tournament.status == "finished":
        await message.reply(tr("match.finished", title=target.tournament.title))
        return
    if target.tournament.status not in LIVE:
        await message.reply(tr("formats.error.not_running"))
        return
    run = await load(services, target.tournament.id)
    await message.reply(await match_text(services, tr, run, message.from_user.id))


@match_answer(router)
async def _match_of(services: Services, tr: Translator, tournament: Tournament,
                    user_id: int) -> str:
    return await match_text(services, tr, await load(services, tournament.id), user_id)


async def match_text(services: Services, tr: Translator, run: Run, user: int) -> str:
    row = open_match(tr, run, user)
    if isinstance(row, str):
        return row
    label = await names_of(services, run.tournament.id)
    head = tr("formats.match.yours", stage=stage_of(tr, run, row), a=label[row.player_a],
              b=label[row.player_b])
    return head + "\n" + await _next_step(services, tr, run, row, user, label)


async def _next_step(services: Services, tr: Translator, run: Run, row: MatchRow, user: int,
                     label: dict[int, str]) -> str:
    """What the player does now: play on the board, report, confirm or wait."""
    if row.status == "paused":
        return (await paused(services, run.tournament.id, "formats.error.paused")).render(tr)
    game = game_of(run.tournament.game)
    if game.in_bot(run.tournament.settings):
        unreached = user in await hidden.panels(services).unreached(row.id)
        hint = _hint(tr, game.match_hint, row, unreached=unreached)
        if game.match_now is None:
            return hint
        ctx = await load_match(services, tr, row.id)
        return lines(game.match_now(ctx, await services.matches.state(ctx.match)), hint)
    report = row.result.get("report")
    if row.result.get("dispute"):
        return tr("formats.match.disputed")
    if report is None:
        return tr("formats.match.report")
    opponent = label[row.opponent(user)]
    score = tuple(report["score"]) if report["score"] else None
    result = describe(tr, label, row, report["winner"], score)
    if report["by"] == user:
        return tr("formats.match.wait_confirm", result=result, opponent=opponent)
    return tr("formats.match.confirm", result=result, opponent=opponent)


def _hint(tr: Translator, key: str, row: MatchRow, *, unreached: bool = False) -> str:
    """Where and how the match is played (``key``, in its kind's own words): to a player
    the bot could not send their private panel, the text saying to open the chat first
    (``key`` + ``_unreached``) where there is one; of a match played in its forum topic, the
    text saying so (``key`` + ``_topic``) where there is one (its board is there, not in
    the general chat)."""
    if unreached and tr.has(own_key(tr, f"{key}_unreached", row.kind)):
        key = f"{key}_unreached"
    topic = f"{key}_topic"
    if row.thread_id is not None and tr.has(own_key(tr, topic, row.kind)):
        key = topic
    return own_text(tr, key, row.kind)


Show = Callable[[Services, Translator, Run, int, Callable[[str], Awaitable[object]]],
                Awaitable[None]]


def _in_dm(show: Show) -> Callable[..., Awaitable[None]]:
    """The DM answer of a command that shows ``show`` of a tournament (``bot/features/mine.py``)."""
    async def answer(services: Services, tr: Translator, tournament: Tournament,
                     user_id: int, chat_id: int) -> None:
        await show(services, tr, await load(services, tournament.id), chat_id,
                   partial(services.bot.send_message, chat_id))
    return answer


dm_answer(router, "standings")(_in_dm(_standings))
dm_answer(router, "bracket")(_in_dm(_bracket))
