"""Which SQL statements a piece of work runs: for tests that count transactions and reads."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from storage.db import Database


@contextmanager
def sql_trace(db: Database) -> Iterator[list[str]]:
    """The statements ``db``'s connection runs inside the block, in order."""
    statements: list[str] = []
    db.connection.raw.set_trace_callback(statements.append)
    try:
        yield statements
    finally:
        db.connection.raw.set_trace_callback(None)
