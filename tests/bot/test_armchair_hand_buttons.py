"""A hand's card buttons and its line are remembered by the hand's value, kind and language:
read again they are what was written, and another card, turn or language writes anew."""

from types import SimpleNamespace

from bot.features.armchair.hand import _buttons, _hand_buttons
from bot.features.armchair.texts import _hand_line, card, hand_line
from bot.i18n import Translator
from games.armchair_cricket.cards import card_name
from games.armchair_cricket.legal import ToAct

HAND = (17, 3, 40, 3, 52)


def _game(hand: tuple[int, ...], kind: str | None) -> SimpleNamespace:
    turn = None if kind is None else ToAct(kind, 0)
    return SimpleNamespace(to_act=turn, state=SimpleNamespace(hands=(hand, (1, 2))))


def test_a_hands_buttons_follow_its_cards_turn_and_language() -> None:
    for language in ("ru", "en", "fi"):
        tr = Translator(language)
        for kind in ("discard", "bowl", "bat", "exchange", "choose", None):
            first = _buttons(tr, _game(HAND, kind), 0)
            assert _buttons(tr, _game(HAND, kind), 0) == first
            assert first == _hand_buttons.__wrapped__(language, HAND, kind)
        played = _buttons(tr, _game(HAND[1:], "bat"), 0)
        assert played == tuple((card(tr, code), card_name(code)) for code in sorted({*HAND[1:]}))
        assert (card(tr, 17), card_name(17)) not in played
    assert _buttons(Translator("ru"), _game(HAND, "bowl"), 0) != \
        _buttons(Translator("en"), _game(HAND, "bowl"), 0)
    assert _buttons(Translator("en"), _game(HAND, "bowl"), 1) == ()  # not its turn


def test_a_hands_line_follows_its_cards_and_language() -> None:
    for language in ("ru", "en", "fi"):
        tr = Translator(language)
        line = hand_line(tr, HAND)
        assert line == _hand_line.__wrapped__(language, HAND)
        assert line == " · ".join(card(tr, code) for code in HAND)
        assert hand_line(tr, HAND[1:]) == " · ".join(card(tr, code) for code in HAND[1:])
    assert hand_line(Translator("ru"), HAND) != hand_line(Translator("en"), HAND)
