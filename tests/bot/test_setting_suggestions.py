"""A refused ``key=value`` is answered with the pair as it was probably meant."""

from __future__ import annotations

import pytest

from bot.game_settings import (
    COMMON_SETTINGS,
    FORMAT_SETTINGS,
    Refused,
    format_list,
    parse_settings,
    refused_key,
)

PARSERS = COMMON_SETTINGS | FORMAT_SETTINGS


def _refused(pair: str) -> ValueError:
    with pytest.raises(ValueError) as caught:
        parse_settings(PARSERS, [pair], {})
    return caught.value


@pytest.mark.parametrize(("pair", "meant"), [
    ("format=swis", "format=swiss"),
    ("format=Doubel_elim", "format=double_elim"),
    ("fromat=swiss", "format=swiss"),
    ("aproval=off", "approval=off"),
    ("aproval=of", "approval=off"),  # the key and its value both put right
    ("tiebreaks=buchholtz,wins", "tiebreaks=buchholz,wins"),
    ("third_place=of", "third_place=off"),
    ("формат=швейцарк", "format=swiss"),  # near a word of the value in Russian
    ("format=круговую", "format=round_robin"),
    ("формт=швейцарка", "format=swiss"),  # a key near its Russian word
    ("max_players=без_лимто", "max_players=0"),  # near the word for a 0 meaning none
])
def test_a_near_miss_is_put_right(pair: str, meant: str) -> None:
    error = _refused(pair)
    assert error.args[2] == meant
    assert refused_key(error) == meant.partition("=")[0]


@pytest.mark.parametrize("pair", [
    "format=ladder",  # no format is close
    "colour=red",  # no key is close
    "fromat=",  # a key put right, but no value to go with it
    "fromat=ladder",  # a key put right, but its value is no format
    "rounds=40",  # a number out of range: nothing to guess
    "tiebreaks=wins,chess",  # one word of the list is not close to any
])
def test_nothing_is_guessed_when_nothing_is_close(pair: str) -> None:
    error = _refused(pair)
    assert error.args[2] is None
    assert refused_key(error) == pair.partition("=")[0]


@pytest.mark.parametrize("pair", [
    "fromat=swiss",  # the Cup has formats (its rounds'), no format: formats=swiss is no pair
    "formats=order,drop,hp,beting,hp",  # words put right, but more formats than rounds
])
def test_only_a_pair_the_setting_takes_is_offered(pair: str) -> None:
    cup = COMMON_SETTINGS | {"formats": format_list("order", "drop", "hp", "betting")}
    with pytest.raises(ValueError) as caught:
        parse_settings(cup, [pair], {})
    assert caught.value.args[2] is None


@pytest.mark.parametrize(("pair", "setting"), [
    ("формат=швейцарка", {"format": "swiss"}),
    ("формат=круговая", {"format": "round_robin"}),
    ("format=олимпийка", {"format": "single_elim"}),
    ("туры=4", {"rounds": 4}),
    ("одобрение=нет", {"approval": "off"}),
    ("muoto=sarja", {"format": "round_robin"}),
    ("third_place=kyllä", {"third_place": "on"}),
    ("format=Swiss", {"format": "swiss"}),  # the key itself, as before
    ("макс_игроков=без_лимита", {"max_players": 0}),  # a 0 meaning none, said as a word
    ("max_players=unlimited", {"max_players": 0}),
    ("отметка=нет", {"checkin": 0}),
    ("deadline=off", {"deadline": 0}),
    ("paikallaolo=ei", {"checkin": 0}),
])
def test_a_key_or_value_in_the_bots_languages_is_taken(pair: str, setting: dict) -> None:
    assert parse_settings(PARSERS, [pair], {}) == setting


def test_a_word_in_another_language_is_still_refused_when_it_is_no_word_of_the_setting(
        ) -> None:
    error = _refused("формат=шахматы")
    assert error.args[:2] == ("settings.bad_choice", "format")


@pytest.mark.parametrize(("words", "setting"), [
    (["format", "swiss"], {"format": "swiss"}),
    (["muoto", "sveitsiläinen"], {"format": "swiss"}),  # the key in the bot's languages
    (["rounds", "3", "approval=on"], {"rounds": 3, "approval": "on"}),
    (["rounds", "3", "groups", "2"], {"rounds": 3, "groups": 2}),
])
def test_a_key_and_its_value_without_equals_are_the_pair(words: list[str],
                                                          setting: dict) -> None:
    assert parse_settings(PARSERS, words, {}) == setting


@pytest.mark.parametrize(("words", "current", "key", "now"), [
    (["rounds"], {"rounds": 4}, "rounds", "rounds=4"),
    (["раунды"], {"format": "swiss"}, "rounds", "rounds=5"),  # a Swiss default, as shown
    (["rounds", "groups=2"], {"rounds": 4}, "rounds", "rounds=4"),  # a pair is no value
    (["rounds", "groups", "2"], {"rounds": 4}, "rounds", "rounds=4"),  # nor is a key
    (["max_players"], {"max_players": 0}, "max_players", "max_players=0"),
    (["third_place"], {}, "third_place", None),  # left to the format's default
])
def test_a_key_alone_is_answered_with_the_value_set_now(words: list[str], current: dict,
                                                        key: str, now: str | None) -> None:
    with pytest.raises(ValueError) as caught:
        parse_settings(PARSERS, words, current)
    assert caught.value.args == ("settings.no_value", key, now)


@pytest.mark.parametrize(("words", "meant", "with_others"), [
    (["format", "round", "robin"], "format=round_robin", False),
    (["format", "double", "elim"], "format=double_elim", False),
    (["format=double", "elim"], "format=double_elim", False),
    (["legs=3", "format", "round", "robin"], "format=round_robin", True),
])
def test_a_value_said_in_words_is_answered_joined(words: list[str], meant: str,
                                                  with_others: bool) -> None:
    """«/settings format round robin» was answered that format is written with «=», the
    value it was given left unsaid: the pair meant is offered, its words joined."""
    with pytest.raises(Refused) as caught:
        parse_settings(PARSERS | {"legs": lambda value: int(value)}, words, {})
    assert caught.value.args == ("settings.value_apart", "format", meant)
    assert caught.value.with_others == with_others


@pytest.mark.parametrize(("words", "with_others"), [
    (["rounds", "7", "format"], True), (["format", "swiss", "rounds"], True),
    (["rounds=3", "format=bad"], True), (["format=bad"], False), (["format"], False),
])
def test_a_refusal_says_whether_other_settings_were_said_with_it(words: list[str],
                                                                 with_others: bool) -> None:
    """«/settings legs 7 format» saved nothing and said only that format lacks its value:
    the refusal says other settings came with it, so the answer says none was saved."""
    with pytest.raises(Refused) as caught:
        parse_settings(PARSERS, words, {})
    assert caught.value.with_others == with_others
