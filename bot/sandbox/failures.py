"""What goes wrong in a sandbox run, sorted by whose fault it is.

Every failure prints ``!! error: …`` in the transcript; the kind tells a reader (and the
fuzzer in ``tests/fuzz``) what it means:

- ``line``: the sandbox could not carry the line out (it cannot be read, no such button);
- ``unhandled``: the bot raised — a handler, or a scheduled job that the scheduler logged;
- ``refused``: the bot sent something Telegram refuses (too long, bad HTML, ...).
"""

from __future__ import annotations

import logging
import traceback
from collections.abc import Callable
from dataclasses import dataclass

LINE, UNHANDLED, REFUSED = "line", "unhandled", "refused"


@dataclass(frozen=True)
class Failure:
    kind: str
    message: str
    trace: str = ""  # the traceback of an unhandled error


def trace_of(error: BaseException) -> str:
    return "".join(traceback.format_exception(error))


class LoggedErrors(logging.Handler):
    """Turns an error the bot only logs (a failed job, a picture that could not be drawn)
    into a failure of the run, so that a transcript shows it."""

    def __init__(self, report: Callable[[str, str], None]) -> None:
        super().__init__(logging.ERROR)
        self.report = report

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info is None or record.exc_info[1] is None:
            return
        error = record.exc_info[1]
        self.report(f"{record.getMessage()}: {type(error).__name__}: {error}", trace_of(error))
