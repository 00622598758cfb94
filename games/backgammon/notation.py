"""Standard notation of a play: ``8/5 6/5``, ``bar/22 13/11*``, ``24/21*/18``, ``6/off(2)``.

Points are numbered from the side of the player who moves; ``bar`` and ``off`` name the bar
and bearing off. Single-die moves of one checker are joined (``24/18``); a point it passes is
written only where it hits (``24/21*/18``). Moves are listed from the highest source down, and
identical moves are written once with their count (``13/7(2)``).
"""

from __future__ import annotations

from collections.abc import Sequence

from games.backgammon.keys import Move

POINT_NAMES = ("off", *(str(point) for point in range(1, 25)), "bar")

# Notation is a pure function of the moves, and doubles repeat the same moves in many
# positions; the cache is emptied when it grows past the limit.
_PLAYS_LIMIT = 100_000
_PLAYS: dict[tuple[Move, ...], str] = {}


def format_play(moves: Sequence[Move]) -> str:
    """Notation of a sequence of single-die moves ``(source, target, hit)``."""
    if len(moves) == 2:
        return _format_two(moves[0], moves[1])
    if not moves:
        return ""
    text = _PLAYS.get(moves)
    if text is None:
        if len(_PLAYS) >= _PLAYS_LIMIT:
            _PLAYS.clear()
        text = _PLAYS[tuple(moves)] = _format_chains(moves)
    return text


def _format_chains(moves: Sequence[Move]) -> str:
    """Join each checker's moves (a move from where another ended continues it), then write."""
    starts: list[int] = []
    ends: list[int] = []
    written: list[str] = []  # the chain up to its newest landing, hit points included
    hits: list[bool] = []
    for source, target, hit in moves:
        if source in ends:
            index = ends.index(source)
            if hits[index]:
                written[index] += f"/{POINT_NAMES[source]}*"
            ends[index] = target
            hits[index] = hit
        else:
            starts.append(source)
            ends.append(target)
            written.append(POINT_NAMES[source])
            hits.append(hit)
    chains = [
        (start, end, f"{text}/{POINT_NAMES[end]}{'*' if hit else ''}")
        for start, end, text, hit in zip(starts, ends, written, hits, strict=True)
    ]
    chains.sort(reverse=True)
    return _group([text for _, _, text in chains])


def _format_two(first: Move, second: Move) -> str:
    """The common non-double case, without building chains."""
    source1, target1, hit1 = first
    source2, target2, hit2 = second
    if target1 == source2 and target1:
        middle = POINT_NAMES[target1] + "*/" if hit1 else ""
        return f"{POINT_NAMES[source1]}/{middle}{POINT_NAMES[target2]}{'*' if hit2 else ''}"
    if target2 == source1 and target2:
        middle = POINT_NAMES[target2] + "*/" if hit2 else ""
        return f"{POINT_NAMES[source2]}/{middle}{POINT_NAMES[target1]}{'*' if hit1 else ''}"
    one = f"{POINT_NAMES[source1]}/{POINT_NAMES[target1]}{'*' if hit1 else ''}"
    two = f"{POINT_NAMES[source2]}/{POINT_NAMES[target2]}{'*' if hit2 else ''}"
    if one == two:
        return one + "(2)"
    if (source1, target1) < (source2, target2):
        one, two = two, one
    return f"{one} {two}"


def _group(texts: list[str]) -> str:
    """Write identical moves once with their count; a hit mark on one of them marks the group
    (``24/21*(2)``: the first checker to land hits)."""
    parts: list[str] = []
    plain_before = ""
    count = 0
    for text in texts:
        plain = text.replace("*", "")
        if count and plain == plain_before:
            count += 1
            continue
        if count > 1:
            parts[-1] += f"({count})"
        parts.append(text)
        plain_before, count = plain, 1
    if count > 1:
        parts[-1] += f"({count})"
    return " ".join(parts)
