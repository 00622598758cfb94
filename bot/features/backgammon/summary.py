"""The picture that closes a backgammon match: every game and penalty point with the running
score, posted where the match is played (the card's text when a picture cannot be drawn)."""

from __future__ import annotations

import html

from bot.features.backgammon.card import card_text, game_words, points_of
from bot.play.context import MatchContext
from bot.render import standings_png
from bot.render.posting import post_pictures
from games.backgammon.protocol import BoardMatch


def summary_rows(ctx: MatchContext, state: BoardMatch) -> list[list[str]]:
    """One row per game (its number) or penalty point ("+"): who won it, how, the score."""
    rows, score, number = [], [0, 0], 0
    for entry in state.entries:
        winner = entry["winner"]
        score[winner] = min(state.length, score[winner] + points_of(entry))
        if entry["kind"] == "point":
            label, how = "+", ctx.tr.plain("backgammon.summary.point")
        else:
            number += 1
            label, how = str(number), html.unescape(game_words(ctx.tr, entry))
        rows.append([label, ctx.names[winner], how, f"{score[0]}:{score[1]}"])
    return rows


async def post_summary(ctx: MatchContext, state: BoardMatch, result: str) -> bool:
    """The record, captioned by ``result`` (who won): the match's end in one message.
    Whether it was posted: a match with no game on its record (a final score in one step)
    has no picture, its result left to be said with what follows it."""
    rows = summary_rows(ctx, state)
    if not rows:
        return False
    tr = ctx.tr
    title = tr.plain("backgammon.summary.title", match=ctx.match.id, a=ctx.names[0],
                     b=ctx.names[1], sa=state.score[0], sb=state.score[1])
    header = [tr.plain(f"backgammon.summary.{column}")
              for column in ("number", "winner", "how", "score")]
    await post_pictures(ctx.services, ctx.tournament.chat_id,
                        [(standings_png, (title, header, rows))],
                        f'{result}\n{tr("backgammon.summary.caption", match=ctx.match.id)}',
                        lambda: f"{result}\n{card_text(ctx, state)}",
                        thread_id=ctx.match.thread_id,
                        name=f"backgammon-match-{ctx.match.id}")
    return True
