"""Standard notation of a play: ``8/5 6/5``, ``bar/22 13/11*``, ``24/21*/18``, ``6/off(2)``.

Points are numbered from the side of the player who moves; ``bar`` and ``off`` name the bar
and bearing off. Single-die moves of one checker are joined (``24/18``); a point it passes is
written only where it hits (``24/21*/18``). Moves are listed from the highest source down, and
identical moves are written once with their count (``13/7(2)``).
"""

from __future__ import annotations

from collections.abc import Sequence

from games.backgammon.movegen import Move

POINT_NAMES = ("off", *(str(point) for point in range(1, 25)), "bar")


def format_play(moves: Sequence[Move]) -> str:
    """Notation of a sequence of single-die moves ``(source, target, hit)``."""
    if len(moves) == 2:
        return _format_two(moves[0], moves[1])
    chains: list[list[int]] = []
    for source, target, hit in moves:
        marked = -target if hit else target
        for chain in chains:
            if abs(chain[-1]) == source:
                chain.append(marked)
                break
        else:
            chains.append([source, marked])
    return _join(chains)


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


def _join(chains: list[list[int]]) -> str:
    """Chains hold the source then each landing point, negative where the landing hit.

    Chains written alike but for a hit mark are one group: ``24/21*(2)`` (the first checker
    to land hits).
    """
    chains.sort(key=lambda chain: (chain[0], abs(chain[-1])), reverse=True)
    groups: dict[str, list[str]] = {}
    for chain in chains:
        text = _chain_text(chain)
        groups.setdefault(text.replace("*", ""), []).append(text)
    parts = []
    for texts in groups.values():
        text = max(texts, key=lambda written: written.count("*"))
        parts.append(text if len(texts) == 1 else f"{text}({len(texts)})")
    return " ".join(parts)


def _chain_text(chain: list[int]) -> str:
    parts = [POINT_NAMES[chain[0]]]
    for landing in chain[1:-1]:
        if landing < 0:
            parts.append(POINT_NAMES[-landing] + "*")
    last = chain[-1]
    parts.append(POINT_NAMES[-last] + "*" if last < 0 else POINT_NAMES[last])
    return "/".join(parts)
