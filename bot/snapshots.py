"""Snapshots of engine states, so a cold start replays only the tail of a match's log.

Every :data:`EVERY` logged actions the match service pickles the state it has just reached
(``storage.repositories.snapshots``). A snapshot is only a cache, and it must never make a
state differ from the full replay of the log, so it carries a **fingerprint**: a hash of
the engine code (the ``games`` package and the package of the game that builds the engine),
of the Python version and of the fresh engine the match's settings build. A snapshot is used
only when the fingerprint of the match's fresh engine is the same now (no code or setting
that could change the replay changed since), and when no rewind after it goes back before
it; otherwise the match is replayed from its first action, as without snapshots.
"""

from __future__ import annotations

import copy
import hashlib
import importlib
import logging
import pickle
import sys
from functools import cache
from pathlib import Path

from games.common.match import ReplayableMatch

log = logging.getLogger(__name__)
EVERY = 100
"""A snapshot is written when a change takes the log past a multiple of this many actions:
a cold start then replays at most this many."""
ENGINE_CODE = "games"


def due(seqs: list[int]) -> bool:
    """Whether the actions just logged as ``seqs`` cross a multiple of :data:`EVERY`."""
    return bool(seqs) and seqs[-1] // EVERY > (seqs[0] - 1) // EVERY


def fingerprint(fresh: ReplayableMatch, *modules: str) -> str | None:
    """What a snapshot of a match whose fresh engine is ``fresh`` must carry to be used:
    the code of the engine packages (``games`` and the packages of ``modules``, e.g. the
    engine factory's) and ``fresh`` itself. None when the engine cannot be pickled."""
    packages = sorted({ENGINE_CODE, *(_package(module) for module in modules),
                       _package(type(fresh).__module__)})
    built = dump(fresh)
    if built is None:
        return None
    digest = hashlib.sha256(_code_hash(tuple(packages)).encode())
    digest.update(built)
    return digest.hexdigest()


def dump(state: ReplayableMatch) -> bytes | None:
    """The pickled state, or None when it cannot be pickled (then there is no snapshot)."""
    try:
        return pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, TypeError, AttributeError) as error:
        log.debug("no snapshot of a %s: %s", type(state).__name__, error)
        return None


def replica(state: ReplayableMatch) -> ReplayableMatch:
    """An independent copy of ``state``: a pickle round trip, several times faster than
    ``copy.deepcopy`` on a long match (deepcopy for an engine that cannot be pickled)."""
    blob = dump(state)
    return copy.deepcopy(state) if blob is None else pickle.loads(blob)


def tried(state: ReplayableMatch, *actions: dict) -> ReplayableMatch:
    """What ``actions`` would make of ``state``, tried on a :func:`replica` (``state`` is left
    as it is): a refusal, or words said of the state after, before the actions are taken.
    The rules' refusal (``IllegalAction``) is raised."""
    trial = replica(state)
    for action in actions:
        trial.apply(action)
    return trial


def load(blob: bytes) -> ReplayableMatch | None:
    """The state in a snapshot written by :func:`dump` (this process's own database), or
    None when it cannot be read any more."""
    try:
        return pickle.loads(blob)
    except Exception as error:  # a stale cache is replaced by the full replay
        log.warning("unreadable match snapshot: %s", error)
        return None


def _package(module: str) -> str:
    """The top package of ``games.…`` modules, else the package holding ``module``."""
    if module == ENGINE_CODE or module.startswith(ENGINE_CODE + "."):
        return ENGINE_CODE
    loaded = importlib.import_module(module)
    return module if hasattr(loaded, "__path__") else module.rpartition(".")[0]


@cache
def _code_hash(packages: tuple[str, ...]) -> str:
    """A hash of the Python version and of every source file of ``packages``."""
    digest = hashlib.sha256(f"{sys.version_info[:2]}".encode())
    for package in packages:
        folder = Path(importlib.import_module(package).__path__[0])
        for source in sorted(folder.rglob("*.py")):
            digest.update(str(source.relative_to(folder)).encode())
            digest.update(source.read_bytes())
    return digest.hexdigest()
