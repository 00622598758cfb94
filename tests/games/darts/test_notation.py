import pytest

from games.common.errors import IllegalAction
from games.darts.notation import MISS, Dart, darts_word, parse_dart, split_line


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("S20", "S20"),
        ("d18", "D18"),
        (" t 15 ", "T15"),
        ("T-1", "T1"),
        ("25", "25"),
        ("s25", "25"),
        ("bull", "25"),
        ("50", "50"),
        ("D25", "50"),
        ("D-Bull", "50"),
        ("MISS", "MISS"),
        ("miss", "MISS"),
        ("0", "MISS"),
        ("С20", "S20"),  # Cyrillic Es
        ("д18", "D18"),  # Cyrillic De
        ("Т15", "T15"),  # Cyrillic Te
        ("мимо", "MISS"),
        ("Промах", "MISS"),
        ("М", "MISS"),  # Cyrillic Em
        ("ohi", "MISS"),
        ("huti", "MISS"),
        ("SB", "25"),
        ("булл", "25"),
        ("bulli", "25"),
        ("DB", "50"),
        ("дбулл", "50"),  # Cyrillic De + булл: the bull's centre
        ("ДБ", "50"),
        ("сбулл", "25"),
        ("tuplabulli", "50"),  # Finnish: the double bull
        ("dbulli", "50"),
        ("Tupla-bull", "50"),
        ("tripla 20", "T20"),  # a ring as a word
        ("tupla 19", "D19"),
        ("treble 18", "T18"),
        ("double 16", "D16"),
        ("утроение 20", "T20"),
        ("удвоение 25", "50"),
        ("3x20", "T20"),  # a ring as a count of the sector
        ("2×20", "D20"),
        ("3х17", "T17"),  # Cyrillic Ha
        ("1x5", "S5"),
        ("дабл 16", "D16"),  # the Russian players' words for the rings
        ("дубль 16", "D16"),
        ("трипл 20", "T20"),
        ("требл 19", "T19"),
        ("тройное 20", "T20"),
        ("тройная 18", "T18"),
        ("удвоенная 16", "D16"),
        ("двойной булл", "50"),
        ("внешний булл", "25"),
        ("внутренний булл", "50"),
        ("bullseye", "50"),
        ("bull's eye", "50"),
        ("double bullseye", "50"),
        ("outer bull", "25"),
        ("inner bull", "50"),
        ("single 20", "S20"),
        ("3 x 20", "T20"),
    ],
)
def test_accepted_notation(text: str, canonical: str) -> None:
    assert str(parse_dart(text)) == canonical


def test_values() -> None:
    assert parse_dart("T20") == Dart(3, 20)
    assert parse_dart("T20").points == 60
    assert parse_dart("50").points == 50
    assert parse_dart("25").is_bull
    assert parse_dart("MISS") == MISS
    assert MISS.is_miss and MISS.points == 0


@pytest.mark.parametrize("text", ["T25", "t25", "Т25", "tripla bulli", "3x25"])
def test_t25_does_not_exist(text: str) -> None:
    with pytest.raises(IllegalAction) as error:
        parse_dart(text)
    assert error.value.code == "no_t25"


@pytest.mark.parametrize(
    "text", ["", "S21", "S0", "Q20", "T50", "D50", "20", "X", "S 2 0 0", "hello", "4x20",
             "tripla", "bullit", "tripla 21"]
)
def test_bad_notation(text: str) -> None:
    with pytest.raises(IllegalAction) as error:
        parse_dart(text)
    assert error.value.code == "bad_notation"


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("двойной булл", ["двойной булл"]),
        ("3 x 20, 3 х 19 2×18", ["3 x 20", "3 х 19", "2×18"]),
        ("outer bull double bullseye", ["outer bull", "double bullseye"]),
        ("double bull's eye T20", ["double bull's eye", "T20"]),
        ("T 18 tupla bulli!", ["T 18", "tupla bulli"]),
        ("тройка 20 трипл 19", ["тройка", "20", "трипл 19"]),  # «тройка» is the sector 3
        ("50 25 0", ["50", "25", "0"]),
    ],
)
def test_a_dart_in_several_words_is_one(line: str, words: list[str]) -> None:
    assert split_line(line) == words


@pytest.mark.parametrize(("word", "said"), [("double", True), ("трипл", True), ("булли", True),
                                            ("тройка", False), ("20", False), ("end", False)])
def test_darts_words(word: str, said: bool) -> None:
    assert darts_word(word) is said


@pytest.mark.parametrize("value", [None, 20, 3.0, ["T20"]])
def test_not_text(value: object) -> None:
    with pytest.raises(IllegalAction) as error:
        parse_dart(value)  # type: ignore[arg-type]
    assert error.value.code == "bad_notation"


def test_bad_notation_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        parse_dart("T25")


def test_sector_not_in_play_hints_a_miss() -> None:
    in_play = {15, 16, 17, 18, 19, 20, 25}
    with pytest.raises(IllegalAction) as error:
        parse_dart("S14", in_play)
    assert error.value.code == "sector_not_in_play"
    assert error.value.params == {"sector": 14, "hint": "MISS"}
    assert parse_dart("miss", in_play) == MISS
    assert parse_dart("50", in_play) == Dart(2, 25)
    with pytest.raises(IllegalAction) as error:
        parse_dart("25", set(range(11, 21)))
    assert error.value.code == "sector_not_in_play"


def test_dart_objects_are_checked_too() -> None:
    assert parse_dart(Dart(1, 20), {20}) == Dart(1, 20)
    with pytest.raises(IllegalAction) as error:
        parse_dart(Dart(1, 14), {20})
    assert error.value.code == "sector_not_in_play"


@pytest.mark.parametrize(
    ("multiplier", "sector", "code"),
    [(3, 25, "no_t25"), (4, 20, "bad_notation"), (1, 21, "bad_notation"), (0, 5, "bad_notation")],
)
def test_impossible_darts(multiplier: int, sector: int, code: str) -> None:
    with pytest.raises(IllegalAction) as error:
        Dart(multiplier, sector)
    assert error.value.code == code


def test_a_dart_read_again_is_the_same_and_a_bad_one_refused_again() -> None:
    assert parse_dart("t20") == parse_dart("t20") == Dart(3, 20)
    for _ in range(2):
        with pytest.raises(IllegalAction) as error:
            parse_dart("T21")
        assert error.value.code == "bad_notation"
    with pytest.raises(IllegalAction) as error:
        parse_dart("T20", {19})  # read before, still out of this game's sectors
    assert error.value.code == "sector_not_in_play"


def test_a_words_reading_is_the_same_from_the_cache() -> None:
    from games.darts.notation import written_as_dart

    words = ["T20", "t20", "T 20", "tripla", "20", "bull", "DBULL", "мимо", "hello", "3x"]
    first = [written_as_dart(word) for word in words]
    assert first == [written_as_dart.__wrapped__(word) for word in words]
    assert first == [written_as_dart(word) for word in words]
    assert first == [True, True, True, False, False, True, True, True, False, False]
