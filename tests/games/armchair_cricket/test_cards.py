from __future__ import annotations

from collections import Counter

import pytest

from games.armchair_cricket import CARDS, PACK, SUIT_WORDS, Card, Suit, parse_card
from games.armchair_cricket.cards import LANGUAGES, SHOWN, card_name, suit_of, value_of
from games.common.errors import IllegalAction


def test_the_pack_holds_two_decks_of_55() -> None:
    assert len(PACK) == 110
    faces = Counter(str(CARDS[code]) for code in PACK)
    assert len(faces) == 55 and set(faces.values()) == {2}
    assert {card.suit for card in CARDS} == set(Suit)
    assert {card.value for card in CARDS} == set(range(1, 12))


@pytest.mark.parametrize(
    "text",
    ["BAT 8", "bat8", "BAT8", "Bat-8", "  bat   8 ", "б8", "Б 8", "бита 8", "БИТА8", "maila 8"],
)
def test_typed_forms_of_bat_8(text: str) -> None:
    assert parse_card(text) == Card(Suit.BAT, 8)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("ball 11", "BALL 11"),
        ("мяч 1", "BALL 1"),
        ("pallo 3", "BALL 3"),
        ("stumps 2", "STUMPS 2"),
        ("стойки 4", "STUMPS 4"),
        ("с10", "STUMPS 10"),
        ("tolpat 5", "STUMPS 5"),
        ("gloves 6", "GLOVES 6"),
        ("перчатки 7", "GLOVES 7"),
        ("п7", "GLOVES 7"),
        ("hanskat 9", "GLOVES 9"),
        ("pads 3", "PADS 3"),
        ("щитки 5", "PADS 5"),
        ("щ11", "PADS 11"),
        ("suojat 2", "PADS 2"),
    ],
)
def test_suit_words_in_three_languages(text: str, expected: str) -> None:
    assert str(parse_card(text)) == expected


@pytest.mark.parametrize(
    "text", ["", "BAT", "8", "BAT 0", "BAT 12", "BAT 100", "CLUBS 3", "b8", "p 3", "BAT 8 9"]
)
def test_bad_cards_are_refused(text: str) -> None:
    with pytest.raises(IllegalAction) as caught:
        parse_card(text)
    assert caught.value.code == "bad_card"


def test_non_text_is_refused() -> None:
    with pytest.raises(IllegalAction):
        parse_card(8)


def test_every_word_names_one_suit() -> None:
    words = [
        word.lower()
        for by_language in SUIT_WORDS.values()
        for forms in by_language.values()
        for word in forms
    ]
    assert len(words) == len(set(words))
    assert all(set(by_language) == set(LANGUAGES) for by_language in SUIT_WORDS.values())


def test_canonical_text_round_trips() -> None:
    for code, card in enumerate(CARDS):
        assert parse_card(str(card)) == card
        assert card.code == code and Card.from_code(code) is card
        assert card_name(code) == str(card)
        assert (suit_of(code), value_of(code)) == (card.suit, card.value)
        for language in LANGUAGES:
            assert parse_card(card.display(language)) == card


def test_display_words() -> None:
    card = Card(Suit.PADS, 3)
    assert (card.display("ru"), card.display("fi"), card.display("en")) == (
        "щитки 3",
        "suojat 3",
        "PADS 3",
    )


def test_the_cards_words_written_once_are_each_cards_display() -> None:
    for language in LANGUAGES:
        assert SHOWN[language] == tuple(card.display(language) for card in CARDS)


@pytest.mark.parametrize(
    ("suit", "value"), [(Suit.BAT, 12), (Suit.BAT, 0), (7, 3), (Suit.PADS, "3")]
)
def test_a_card_out_of_range_is_refused(suit: Suit, value: int) -> None:
    with pytest.raises(IllegalAction) as caught:
        Card(suit, value)
    assert caught.value.code == "bad_card"
