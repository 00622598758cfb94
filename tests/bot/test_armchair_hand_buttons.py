"""A hand's card buttons and its line are remembered by the hand's value, kind and language:
read again they are what was written, and another card, turn or language writes anew."""

from bot.features.armchair.hand import _buttons, _kind_for
from bot.features.armchair.texts import _hand_line, card, hand_line
from bot.i18n import Translator
from games.armchair_cricket import ToAct
from games.armchair_cricket.cards import card_name

HAND = (17, 3, 40, 3, 52)


def test_a_hands_buttons_follow_its_cards_turn_and_language() -> None:
    for language in ("ru", "en", "fi"):
        tr = Translator(language)
        for kind in ("discard", "bowl", "bat", "exchange", "choose", None):
            first = _buttons(language, HAND, kind)
            assert _buttons(language, HAND, kind) == first
            assert first == _buttons.__wrapped__(language, HAND, kind)
        played = _buttons(language, HAND[1:], "bat")
        assert played == tuple((card(tr, code), card_name(code)) for code in sorted({*HAND[1:]}))
        assert (card(tr, 17), card_name(17)) not in played
        assert _buttons(language, HAND, "exchange")[-1] == (tr("armchair.keep_button"), "keep")
    assert _buttons("ru", HAND, "bowl") != _buttons("en", HAND, "bowl")
    assert _buttons("en", HAND, None) == ()


def test_a_seat_is_asked_only_on_its_own_turn() -> None:
    assert _kind_for(ToAct("bowl", 0), 0) == "bowl"
    assert _kind_for(ToAct("bowl", 0), 1) is None
    assert _kind_for(ToAct("toss", None), 0) is None
    assert _kind_for(None, 0) is None


def test_a_hands_line_follows_its_cards_and_language() -> None:
    for language in ("ru", "en", "fi"):
        tr = Translator(language)
        line = hand_line(tr, HAND)
        assert line == _hand_line.__wrapped__(language, HAND)
        assert line == " · ".join(card(tr, code) for code in HAND)
        assert hand_line(tr, HAND[1:]) == " · ".join(card(tr, code) for code in HAND[1:])
    assert hand_line(Translator("ru"), HAND) != hand_line(Translator("en"), HAND)
