"""Darts texts count in each language's plural forms (docs/rules.md, darts)."""

from __future__ import annotations

from bot.features.darts.kinds import _fincricket_stats, shanghai_leg_stats
from bot.i18n import Translator
from games.darts.turn import PlayerStats


class _Leg:
    """A stand-in leg with fixed statistics and no close."""

    def __init__(self, stats: PlayerStats) -> None:
        self._stats = stats

    def stats(self, player: int) -> PlayerStats:
        return self._stats

    def visits_to_close(self, player: int) -> None:
        return None


def test_fincricket_statistics_use_singular_and_plural_forms() -> None:
    one = PlayerStats(3, 1, 1)
    assert _fincricket_stats(Translator("en"), one, 1, "Ann") == (
        "📊 Ann: 1 point, 3 darts, 1 turn, 1 mark, 1.00 marks per round")
    assert _fincricket_stats(Translator("ru"), PlayerStats(22, 5, 2), 21, "Ann") == (
        "📊 Ann: 21 очко, 22 дротика, 5 подходов, 2 метки, меток за раунд 0,40")
    assert _fincricket_stats(Translator("fi"), one, 2, "Ann") == (
        "📊 Ann: 2 pistettä, 3 tikkaa, 1 vuoro, 1 osuma, 1,00 osumaa vuorossa")


def test_shanghai_statistics_count_elements() -> None:
    leg = _Leg(PlayerStats(3, 1, 1))
    assert shanghai_leg_stats(Translator("en"), leg, 0, "Bob") == (
        "📊 Bob: 3 darts, 1 visit, 1 element")
    assert shanghai_leg_stats(Translator("ru"), _Leg(PlayerStats(21, 7, 21)), 0, "Bob") == (
        "📊 Bob: 21 дротик, 7 подходов, 21 элемент")
