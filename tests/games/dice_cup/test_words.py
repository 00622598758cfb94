"""Every typed Cup word in ru, en and fi reads as the engine action the bot applies."""

from __future__ import annotations

import pytest

from games.dice_cup import BettingFinal, DropMatch, GroupMatch, HPMatch, OrderMatch
from games.dice_cup.words import (
    FORMS,
    LANGUAGES,
    PARSERS,
    WORDS,
    ordinal,
    parse_bet,
    parse_choice,
    parse_draw_vote,
    parse_drop,
    parse_order,
    parse_word,
)


def forms(meaning: str) -> list[str]:
    return [form for lang in LANGUAGES for form in FORMS[lang][meaning]]


def test_every_language_has_every_word() -> None:
    assert set(FORMS) == set(LANGUAGES) == set(WORDS)
    for lang in LANGUAGES:
        assert FORMS[lang].keys() == FORMS["ru"].keys()
        assert all(FORMS[lang][meaning] for meaning in FORMS[lang])


def test_prompt_words() -> None:
    assert WORDS["en"]["attack"] == "attack"
    assert WORDS["ru"]["attack"] == "атака" and WORDS["fi"]["attack"] == "hyökkäys"
    assert [WORDS["ru"][m] for m in ("check", "call", "raise", "fold", "allin")] == [
        "чек", "колл", "рейз", "фолд", "олл-ин"]
    assert [WORDS["en"][m] for m in ("draw", "reroll", "drop")] == ["draw", "reroll", "drop"]
    assert [WORDS["fi"][m] for m in ("draw", "reroll")] == ["tasapeli", "uusintaheitto"]
    assert [WORDS["ru"][m] for m in ("third", "first", "second")] == [
        "третья", "первая", "вторая"]


@pytest.mark.parametrize("vote", ["draw", "reroll"])
def test_draw_votes(vote: str) -> None:
    for form in forms(vote):
        for typed in (form, form.upper(), f"  {form.capitalize()}! "):
            assert parse_draw_vote(typed) == {"type": "draw_vote", "vote": vote}, typed


@pytest.mark.parametrize("typed", ["Ничья", "ничья!", "re-roll", "Re roll", "TASAPELI",
                                   "uusintaheitto", "переброс."])
def test_draw_vote_spellings(typed: str) -> None:
    assert parse_draw_vote(typed) is not None


@pytest.mark.parametrize("choice", ["attack", "defend"])
def test_hp_choices(choice: str) -> None:
    for form in forms(choice):
        assert parse_choice(form) == {"type": "choose", "choice": choice}, form
        assert parse_choice(form.upper()) == {"type": "choose", "choice": choice}, form


@pytest.mark.parametrize("typed", ["атакую", "Защищаюсь", "defence", "defense", "HYÖKKÄYS",
                                   "puolustus"])
def test_hp_words_the_bot_accepted(typed: str) -> None:
    assert parse_choice(typed) is not None


@pytest.mark.parametrize("action", ["check", "call", "fold", "allin"])
def test_bets(action: str) -> None:
    for form in forms(action):
        assert parse_bet(form) == {"type": "bet", "action": action}, form


@pytest.mark.parametrize("typed", ["олл ин", "оллин", "ОЛЛ-ИН", "all in", "allin", "All-In!",
                                   "ва-банк", "вабанк"])
def test_all_in_spellings(typed: str) -> None:
    assert parse_bet(typed) == {"type": "bet", "action": "allin"}


def test_raise_with_every_form() -> None:
    for form in forms("raise"):
        for typed, amount in [(f"{form} 3", 3), (f"{form.upper()}  12", 12), (f"{form}5", 5)]:
            assert parse_bet(typed) == {"type": "bet", "action": "raise", "amount": amount}


@pytest.mark.parametrize("typed", ["рейз", "Raise!", "raise three", "raise 3 4", "korotan -2",
                                   "рейз 3.5", "рейз 5 фишек"])
def test_a_raise_without_a_whole_amount_is_a_raise_the_engine_refuses(typed: str) -> None:
    """Not ignored: the player meant to raise, and the refusal says what may be raised."""
    assert parse_bet(typed) == {"type": "bet", "action": "raise"}


@pytest.mark.parametrize("typed", ["bet 3", "Ставка 3", "ставлю 3", "panos 3", "panostan 3"])
def test_bet_n_is_the_poker_word(typed: str) -> None:
    """The poker word for a first bet, in each language: the engine's ``bet`` by N (a raise
    while nothing is owed)."""
    assert parse_bet(typed) == {"type": "bet", "action": "bet", "amount": 3}


@pytest.mark.parametrize("typed", ["ставка", "Bet!", "panos kolme"])
def test_a_bet_without_a_whole_amount_is_a_bet_the_engine_refuses(typed: str) -> None:
    assert parse_bet(typed) == {"type": "bet", "action": "bet"}


@pytest.mark.parametrize("typed", ["рейзы 3", "чек 3", "bets 3", "raised", "колл много"])
def test_not_a_bet(typed: str) -> None:
    assert parse_bet(typed) is None


@pytest.mark.parametrize("typed", ["колл 3", "Call 3", "maksa 3", "maksan3"])
def test_a_call_as_its_button_reads(typed: str) -> None:
    assert parse_bet(typed) == {"type": "bet", "action": "call", "amount": 3}


def test_raise_amount_is_left_for_the_engine_to_judge() -> None:
    assert parse_bet("рейз 0") == {"type": "bet", "action": "raise", "amount": 0}


@pytest.mark.parametrize(("typed", "order"), [
    ("третья, первая, вторая", [3, 1, 2]),
    ("Третья первая вторая", [3, 1, 2]),
    ("третью, первую и вторую", [3, 1, 2]),
    ("первый-второй-третий", [1, 2, 3]),
    ("третья, вторая, первая.", [3, 2, 1]),
    ("third, first, second", [3, 1, 2]),
    ("Third, first and second", [3, 1, 2]),
    ("the second, the third, the first", [2, 3, 1]),
    ("3rd 1st 2nd", [3, 1, 2]),
    ("kolmas, ensimmäinen, toinen", [3, 1, 2]),
    ("toinen, kolmas ja ensimmäinen", [2, 3, 1]),
    ("312", [3, 1, 2]),
    ("3,1,2", [3, 1, 2]),
    ("3, 1, 2", [3, 1, 2]),
    ("3-1-2", [3, 1, 2]),
    ("3 1 2", [3, 1, 2]),
    ("3-я, 1-я, 2-я", [3, 1, 2]),
    ("3-ю 1-ю 2-ю", [3, 1, 2]),
    ("112", [1, 1, 2]),  # read; the engine refuses it with bad_order
    ("порядок 312", [3, 1, 2]),
    ("Порядок: третья, первая, вторая", [3, 1, 2]),
    ("order 3rd 1st 2nd", [3, 1, 2]),
    ("järjestys 2, 3, 1", [2, 3, 1]),
])
def test_orders(typed: str, order: list[int]) -> None:
    assert parse_order(typed) == {"type": "declare", "order": order}


def test_every_ordinal_form() -> None:
    for meaning, number in [("first", 1), ("second", 2), ("third", 3), ("fourth", 4)]:
        for form in forms(meaning):
            assert ordinal(form) == number, form
            assert ordinal(form.upper()) == number, form


@pytest.mark.parametrize("typed", ["третья, первая", "first second third fourth", "31",
                                   "3124", "третья, первая, пятая",
                                   "10 20 30", "1, 2, 13", "hello there friend", ""])
def test_not_an_order(typed: str) -> None:
    assert parse_order(typed) is None


@pytest.mark.parametrize("typed", ["порядок", "Order:", "порядок 12", "order: 3, 1",
                                   "order: x, 1, 2"])
def test_the_order_word_without_an_order_is_an_order_to_refuse(typed: str) -> None:
    assert parse_order(typed) == {"type": "declare", "order": None}


@pytest.mark.parametrize("typed", ["порядок дня", "order pizza", "järjestys on hyvä"])
def test_the_order_word_in_chat_is_no_order(typed: str) -> None:
    assert parse_order(typed) is None


def test_drops_with_every_form() -> None:
    for form in forms("drop"):
        for typed, position in [(f"{form} 3", 3), (f"  {form.upper()}   2 ", 2),
                                (f"{form} 7", 7), (f"{form} 12", 12)]:
            assert parse_drop(typed) == {"type": "declare", "drop": position}, typed


@pytest.mark.parametrize(("typed", "position"), [
    ("убираю третью", 3), ("Убираю 4-ю", 4), ("убираю 2й", 2), ("drop the second", 2), ("drop first", 1),
    ("poistan neljännen", 4), ("remove 1", 1), ("уберу 1", 1), ("убрать 2", 2),
])
def test_drop_with_ordinals(typed: str, position: int | None) -> None:
    expected = None if position is None else {"type": "declare", "drop": position}
    assert parse_drop(typed) == expected


@pytest.mark.parametrize("typed", ["убираю 3 4", "drop it", "убираю все"])
def test_not_a_drop(typed: str) -> None:
    assert parse_drop(typed) is None


def test_the_drop_word_alone_is_a_drop_to_refuse() -> None:
    for form in forms("drop"):
        assert parse_drop(f" {form.upper()}! ") == {"type": "declare", "drop": None}, form


def every_example() -> list[str]:
    single = [f for m in ("draw", "reroll", "attack", "defend", "check", "call", "fold",
                          "allin") for f in forms(m)]
    numbered = [f"{f} 2" for f in forms("raise") + forms("drop")]
    return single + numbered + forms("drop") + forms("order") + [
        "третья, первая, вторая", "third, first, second", "312", "kolmas, ensimmäinen, toinen",
        "порядок 312", "order 1 2"]


def test_each_word_reads_as_exactly_one_kind() -> None:
    for typed in every_example():
        read = [action for parse in PARSERS if (action := parse(typed)) is not None]
        assert len(read) == 1, typed
        assert parse_word(typed) == read[0]


@pytest.mark.parametrize("typed", ["привет", "hello", "🎲", "ничья ничья", "attack!!!?", ""])
def test_other_text_is_no_word(typed: str) -> None:
    assert parse_word(typed) is None


def test_parsed_actions_are_accepted_by_the_engines() -> None:
    group = GroupMatch(wins_needed=1)
    for player in (0, 1):
        group.apply({"type": "roll", "player": player, "value": 3})
    group.apply(parse_word("ничья") | {"player": 0})
    group.apply(parse_word("tasapeli") | {"player": 1})
    assert group.draw

    order = OrderMatch()
    order.apply(parse_word("third, first, second") | {"player": 0})
    assert order.declarations == ((3, 1, 2), None)
    drop = DropMatch()
    drop.apply(parse_word("убираю 3") | {"player": 1})
    assert drop.declarations == (None, 3)

    hp = HPMatch()
    hp.apply(parse_word("hyökkäys") | {"player": 0})
    assert hp.choice_of(0) == "attack"

    final = BettingFinal()
    final.apply({"type": "roll", "player": 0, "value": 6})
    final.apply({"type": "roll", "player": 1, "value": 1})
    final.apply(parse_word("korotan 2") | {"player": 0})
    final.apply(parse_word("колл") | {"player": 1})
    assert final.stakes == (3, 3)


@pytest.mark.parametrize(("typed", "action"), [
    ("hyökkää", {"type": "choose", "choice": "attack"}),
    ("Puolusta!", {"type": "choose", "choice": "defend"}),
    ("maksa", {"type": "bet", "action": "call"}),
    ("kippaa", {"type": "bet", "action": "fold"}),
    ("korota 3", {"type": "bet", "action": "raise", "amount": 3}),
    ("sökötän", {"type": "bet", "action": "check"}),
])
def test_finnish_commands_as_the_buttons_say_them(typed: str, action: dict) -> None:
    """A Finnish player types the word a button shows («Kippaa», «Korota…»): the imperative."""
    assert (parse_choice(typed) or parse_bet(typed)) == action
