"""score_visit against every worked case of seed 000 (NDL №50 «Крикет-Шанхай»)."""

import pytest

from games.common.errors import IllegalAction
from games.darts.shanghai import TARGETS, score_visit

EMPTY = dict.fromkeys(TARGETS, 0)


def after(darts: list[str], bull: str = "visit", **done: int) -> dict[str, int]:
    progress = dict(EMPTY)
    progress.update({key.removeprefix("s"): value for key, value in done.items()})
    return score_visit(progress, darts, bull)


def test_example_1_full_shanghai() -> None:
    # «Пример №1 — полный «Шанхай»: T20, S20, D20 … Сектор 20 полностью закрыт.
    # Фактический порядок T → S → D значения не имеет.»
    assert after(["T20", "S20", "D20"])["20"] == 3


def test_example_2_single_and_double_reversed() -> None:
    # «Пример №2: D18, S18, промах … S18 ✅ D18 ✅ T18 ⬜»
    assert after(["D18", "S18", "MISS"])["18"] == 2


def test_example_3_triple_and_single() -> None:
    # «Пример №3: T20, S20, промах … В подходе есть S и T, но отсутствует D.
    # S20 ✅ D20 ⬜ T20 не может быть засчитан ❌»
    assert after(["T20", "S20", "MISS"])["20"] == 1


def test_example_4_triple_and_double_without_single() -> None:
    # «Пример №4: T17, D17, промах … Ни один новый этап сектора 17 не закрыт.»
    assert after(["T17", "D17", "MISS"])["17"] == 0


def test_example_5_double_triple_single() -> None:
    # «Пример №5: D16, T16, S16 … Сектор 16 полностью закрыт. ✅»
    assert after(["D16", "T16", "S16"])["16"] == 3


@pytest.mark.parametrize(
    ("darts", "done"),
    [
        (["S20"], 1),  # «S → засчитывается S ✅»
        (["D20", "S20"], 2),  # «D + S → засчитываются S и D ✅✅»
        (["T20", "S20"], 1),  # «T + S → засчитывается только S ✅»
        (["D20", "T20"], 0),  # «D + T → ничего не засчитывается ❌»
        (["S20", "D20", "T20"], 3),  # «S + D + T в любом порядке → сектор закрыт полностью»
        (["T20", "D20", "S20"], 3),
        (["D20", "S20", "T20"], 3),
        (["S20", "T20"], 1),  # §8 «S + T без D не позволяет засчитать T. Засчитывается только S.»
    ],
)
def test_section_6_principle_from_open_sector(darts: list[str], done: int) -> None:
    # «6. ГЛАВНЫЙ ПРИНЦИП ЗАЧЁТА — Если сектор до подхода полностью открыт: …»
    assert after(darts)["20"] == done


def test_section_7_single_done_before() -> None:
    # «Если ранее выполнен S: … T19 → D19 → промах … S19 ✅ + D19 ✅ + T19 ✅ Сектор 19 закрыт.»
    assert after(["T19", "D19", "MISS"], s19=1)["19"] == 3


@pytest.mark.parametrize("darts", [["T19"], ["MISS", "MISS", "T19"], ["S19", "D19", "T19"]])
def test_section_7_single_and_double_done_before(darts: list[str]) -> None:
    # «Если ранее выполнены S и D: … Любое попадание в T соответствующего сектора закрывает его.»
    assert after(darts, s19=2)["19"] == 3


def test_section_10_three_darts_to_different_sectors() -> None:
    # «У игрока: 20 — S и D уже закрыты, 19 — S уже закрыт. Дротик 1 → T20 ✅, Дротик 2 → D19 ✅,
    # Дротик 3 → T19 ✅ … полностью закрыл сектор 20 и завершил закрытие сектора 19.»
    result = after(["T20", "D19", "T19"], s20=2, s19=1)
    assert (result["20"], result["19"]) == (3, 3)


def test_section_11_moving_on_to_another_sector() -> None:
    # «До подхода: 20: S ✅ D ✅ T ⬜. 1-й дротик → T20 ✅, 2-й → S18 ✅, 3-й → D18 ✅.
    # После подхода: 20 — полностью закрыт ✅, 18 — S и D закрыты ✅, остаётся T.»
    result = after(["T20", "S18", "D18"], s20=2)
    assert (result["20"], result["18"]) == (3, 2)


def test_section_12_bull_any_order() -> None:
    # «50 → 25 → 25 ➡️ BULL закрыт полностью. ✅»
    assert after(["50", "25", "25"])["BULL"] == 3


def test_section_12_bull_missing_second_25() -> None:
    # «25 → 50 → промах засчитывается только первый 25 … не хватает второго попадания в 25.»
    assert after(["25", "50", "MISS"])["BULL"] == 1


@pytest.mark.parametrize(
    ("darts", "before", "done"),
    [
        (["50", "25", "25"], 0, 2),  # the 50 came before two 25s: it does not count
        (["25", "25", "50"], 0, 3),
        (["25", "50", "25"], 0, 2),
        (["50"], 2, 3),
        (["50", "25"], 1, 2),
        (["25", "50"], 1, 3),
    ],
)
def test_section_12_strict_bull_variant(darts: list[str], before: int, done: int) -> None:
    # «Если организаторы хотят … требовать фактическую последовательность 25 → 25 → 50, это
    # необходимо отдельно объявить до начала турнира.» — setting bull=strict.
    assert after(darts, "strict", BULL=before)["BULL"] == done


def test_strict_bull_leaves_numbered_sectors_to_the_visit_rule() -> None:
    assert after(["T20", "D20", "S20"], "strict")["20"] == 3


def test_section_14_one_dart_one_element() -> None:
    # «Triple не даёт три отметки, а Double — две.» and SPEC: «a second dart on an element
    # already used does nothing».
    assert after(["T20"])["20"] == 0
    assert after(["D20"])["20"] == 0
    assert after(["S20", "S20", "D20"])["20"] == 2
    assert after(["25", "25", "25"])["BULL"] == 2


@pytest.mark.parametrize(
    ("darts", "before", "done"),
    [
        (["D17", "S17"], 0, 2),  # «D + S = S + D ✅»
        (["T17", "D17", "S17"], 0, 3),  # «T + D + S = S + D + T ✅ — сектор закрыт»
        (["T17", "S17"], 0, 1),  # «T + S = только S ✅»
        (["T17", "D17"], 0, 0),  # «T + D без S = ничего ❌»
        (["T17", "D17"], 1, 3),  # «Если S был закрыт ранее: T + D = D + T ✅ — сектор закрыт»
        (["T17"], 2, 3),  # «Если S и D закрыты ранее: T = сектор закрыт ✅»
    ],
)
def test_section_15_summary_table(darts: list[str], before: int, done: int) -> None:
    assert after(darts, s17=before)["17"] == done


def test_input_is_not_mutated_and_result_is_complete() -> None:
    progress = {"20": 1}
    result = score_visit(progress, ["d20"])
    assert progress == {"20": 1}
    assert result == {**EMPTY, "20": 2}
    assert score_visit({"bull": 1}, [])["BULL"] == 1


@pytest.mark.parametrize(
    ("darts", "code"),
    [
        (["T25"], "no_t25"),
        (["S14"], "sector_not_in_play"),
        (["X1"], "bad_notation"),
        (["S20"] * 4, "visit_full"),
    ],
)
def test_refused_visits(darts: list[str], code: str) -> None:
    with pytest.raises(ValueError) as error:
        score_visit(EMPTY, darts)
    assert isinstance(error.value, IllegalAction) and error.value.code == code


@pytest.mark.parametrize("progress", [{"14": 0}, {"20": 4}, {"20": -1}, {"20": "1"}, ["20"]])
def test_refused_progress(progress: object) -> None:
    with pytest.raises(IllegalAction) as error:
        score_visit(progress, [])  # type: ignore[arg-type]
    assert error.value.code == "bad_progress"


def test_refused_bull_setting() -> None:
    with pytest.raises(IllegalAction) as error:
        score_visit(EMPTY, [], bull="loose")
    assert error.value.code == "bad_setting"
