"""``python -m bot`` that stops dead right after a chosen write of an update.

    STOP_AT_WRITE=K python -m tests.stopping_sandbox sandbox --script … --resume

The process exits at once (``os._exit``: nothing closed, nothing flushed, as a killed
process) right after the K-th write transaction an update's handling commits (the
database's tracked writes, :meth:`storage.db.Database.tracking_writes`), the messages sent
before it printed; with ``STOP_AT_WRITE=0`` it runs to the end and says on stderr each
write (``write: K U``, U telling apart the updates — and the jobs they run — whose
handling wrote it). ``python -m tests.stops`` drives it.
"""

from __future__ import annotations

import os
import sys

from bot.__main__ import main
from storage import db
from storage.db import Database

STOPPED = 137  # the exit code of a killed process


def _stopping(stop_at: int) -> None:
    """Patch :meth:`Database._end` to count the updates' committed writes, and stop at
    ``stop_at`` (0: never: each write said instead)."""
    counted = [0]
    end = Database._end

    def counting_end(self: Database, *, commit: bool) -> None:
        end(self, commit=commit)
        writes = db._TRACKED.get()
        if commit and writes is not None and writes.database is self:
            counted[0] += 1
            if counted[0] == stop_at:
                sys.stdout.flush()
                os._exit(STOPPED)
            if not stop_at:
                if not hasattr(writes, "writer"):  # numbered: an id() is used again
                    writes.writer = counted[0]
                print(f"write: {counted[0]} {writes.writer}", file=sys.stderr)

    Database._end = counting_end


if __name__ == "__main__":
    _stopping(int(os.environ.get("STOP_AT_WRITE", "0")))
    sys.exit(main())
