"""Who holds a Cup entry after /replace: the newest player of a chain, and a player replaced
before who comes back holds it again (a loop in old data ends instead of hanging)."""

from __future__ import annotations

from bot.features.cup.playoff import holders
from storage.repositories.tournaments import Tournament


def _cup(replaced: dict[str, int]) -> Tournament:
    return Tournament(1, -1, "cup", "Cup", "running", {}, None, None, 0,
                      {"replaced": replaced})


def test_the_newest_of_a_chain_holds_the_entry() -> None:
    holder = holders(_cup({"1": 2, "2": 3}))
    assert [holder(1), holder(2), holder(3), holder(4)] == [3, 3, 3, 4]


def test_a_loop_left_by_old_data_ends() -> None:
    holder = holders(_cup({"1": 2, "2": 1}))
    assert holder(1) in (1, 2) and holder(2) in (1, 2)
    assert (holder(1), holder(2)) == (2, 1)  # each stops before going round again
