"""FinCricket against every rule of seed 004 (FinCricket · Täydelliset säännöt)."""

import pytest

from games.common.errors import IllegalAction
from games.common.match import replay
from games.darts.fincricket import MARK_SYMBOLS, NUMBERS, FinCricket, FinCricketMatch


def turn(game: FinCricket | FinCricketMatch, *darts: str) -> None:
    for dart in darts:
        game.apply({"type": "dart", "dart": dart})
    game.apply({"type": "end_visit"})


def code_of(action, *args) -> str:  # type: ignore[no-untyped-def]
    with pytest.raises(IllegalAction) as error:
        action(*args)
    return error.value.code


def test_sectors_in_play() -> None:
    # «Numeroidut sektorit 11, 12, … 20. Erikoissektorit Bull antaa 25 pistettä ja D-Bull 50.»
    game = FinCricket()
    for dart in ("S11", "D-Bull", "25"):
        game.throw(dart)
    game.end_turn()
    assert code_of(game.throw, "T10") == "sector_not_in_play"
    assert code_of(game.throw, "T25") == "no_t25"


def test_opening_counts_single_one_double_two_triple_three() -> None:
    # «Pelaaja avaa numeroidun sektorin keräämällä siihen kolme osumaa. Single lasketaan
    # yhdeksi, tupla kahdeksi ja tripla kolmeksi osumaksi.»
    game = FinCricket()
    game.throw("S20")
    assert game.marks(0, 20) == 1
    game.throw("D20")
    assert game.marks(0, 20) == 3 and game.scores == (0, 0)
    game.throw("T19")
    assert game.marks(0, 19) == 3 and game.scores == (0, 0)


def test_further_marks_score_sector_times_marks() -> None:
    # «Kun 20 on avattu kolmella osumalla, Single 20 antaa 20 pistettä ja Tripla 20 antaa
    # 60 pistettä niin kauan kuin sektori on käytettävissä.»
    game = FinCricket()
    turn(game, "T20", "S20", "T20")
    assert game.scores == (80, 0)
    # A dart that completes the opening scores its surplus marks: 2 marks + T20 → 40.
    turn(game, "D19", "T19")
    assert game.scores == (80, 19 * 2)
    assert game.marks(1, 19) == 3


def test_bulls_always_score_for_both_and_never_close() -> None:
    # «Bullia ja D-Bullia ei tarvitse avata. Kumpi tahansa pelaaja voi saada Bullista 25
    # pistettä tai D-Bullista 50 pistettä milloin tahansa ottelun aikana.»
    # «Bullit eivät koskaan sulkeudu, eivätkä ne vaikuta pelin päättymiseen.»
    game = FinCricket()
    turn(game, "25", "50", "50")
    turn(game, "25")
    assert game.scores == (125, 25)
    assert game.closed == frozenset() and not game.finished
    assert code_of(game.marks, 0, 25) == "sector_not_in_play"


def test_sector_closes_only_when_the_turn_ends() -> None:
    # «Sektori ei sulkeudu heti, kun toinen pelaaja saavuttaa kolmannen osuman. Hän voi saada
    # sektorista pisteitä nykyisen kolmen tikan vuoronsa loppuun asti. Sektori sulkeutuu
    # molemmilta vasta, kun Päätä vuoro -painiketta painetaan.»
    game = FinCricket()
    turn(game, "T20")
    game.throw("T20")  # player 1 now has three marks too
    assert 20 not in game.closed
    game.throw("T20")  # still scores during this turn
    game.throw("S20")
    assert game.scores == (0, 80)
    game.end_turn()
    assert game.closed == {20}
    # «Pysyvän sulkeutumisen jälkeen kumpikaan pelaaja ei voi saada numeroidusta sektorista
    # lisäpisteitä.»
    turn(game, "T20", "T20", "S20")
    turn(game, "T20")
    assert game.scores == (0, 80)


def test_sector_open_for_one_player_keeps_scoring() -> None:
    # «Numeroitu sektori voidaan sulkea pysyvästi, kun molemmilla pelaajilla on siinä vähintään
    # kolme osumaa.» — with only one player open it stays in play.
    game = FinCricket()
    turn(game, "T20")
    turn(game, "D20")
    turn(game, "T20")
    assert game.closed == frozenset() and game.scores == (60, 0)


def test_undo_only_in_the_active_turn() -> None:
    # «Voit kumota kirjattuja tapahtumia vain aktiivisen vuoron aikana. Päätä vuoro viimeistelee
    # kolme heittoa, minkä jälkeen niitä ei voi enää kumota.»
    game = FinCricket()
    game.throw("T20")
    game.throw("T20")
    assert game.scores == (60, 0)
    game.undo()
    assert game.scores == (0, 0) and game.marks(0, 20) == 3
    game.end_turn()
    assert code_of(game.undo) == "nothing_to_undo"
    assert game.marks(0, 20) == 3


def test_a_turn_is_exactly_three_darts() -> None:
    # «Kumpikin pelaaja heittää tasan kolme tikkaa. Kirjaa ohiheitto, kun tikka ei tuota tulosta.»
    game = FinCricket()
    for dart in ("ohi", "S20", "MISS"):
        game.throw(dart)
    assert code_of(game.throw, "S20") == "visit_full"
    game.end_turn()
    game.end_turn()  # nothing entered: three misses
    assert game.current == 0 and game.stats(1).darts == 3


def close_everything(game: FinCricket | FinCricketMatch, bonus: tuple[str, ...] = ()) -> None:
    """Both players open 11-20 with a triple each, player to throw first adding ``bonus``."""
    for number in NUMBERS:
        turn(game, f"T{number}", *bonus)
        turn(game, f"T{number}")


def test_game_ends_when_all_sectors_are_closed_and_higher_score_wins() -> None:
    # «Peli päättyy automaattisesti, kun molemmilla pelaajilla on vähintään kolme osumaa
    # kaikissa numeroiduissa sektoreissa 11–20 ja sektorit on suljettu pysyvästi.»
    # «Eniten pisteitä kerännyt pelaaja voittaa.»
    game = FinCricket()
    for number in NUMBERS[:-1]:
        turn(game, f"T{number}")
        turn(game, f"T{number}", "25")
    turn(game, "T20")
    assert not game.finished
    game.throw("T20")
    game.throw("T20")  # the last sector is still open during this turn
    assert game.scores == (0, 9 * 25 + 60)
    game.end_turn()
    assert game.closed == frozenset(NUMBERS)
    assert game.finished and game.winner == 1
    assert code_of(game.throw, "25") == "finished"


def test_equal_scores_are_a_draw() -> None:
    # «Jos pistemäärät ovat samat, peli päättyy tasapeliin.»
    game = FinCricket()
    close_everything(game)
    assert game.finished and game.winner is None and game.scores == (0, 0)


def test_bull_does_not_affect_the_end() -> None:
    # «Bull ei vaikuta päättymisehtoon.»
    game = FinCricket()
    for _ in range(20):
        turn(game, "50", "50", "50")
    assert not game.finished


def test_marks_per_round() -> None:
    game = FinCricket()
    turn(game, "T20", "S20", "25")  # 3 + 1 + 1 marks
    turn(game, "T20", "MISS")  # 3
    turn(game, "T20")  # 20 is closed: no mark counts
    assert game.stats(0).marks == 5 and game.stats(0).visits == 2
    assert game.stats(0).per_visit == 2.5
    assert game.stats(1).per_visit == 3.0


def test_mark_symbols() -> None:
    # SPEC §5: «Show marks as /, X, Ⓧ per sector»
    assert MARK_SYMBOLS[1:] == ("/", "X", "Ⓧ")


def test_replay_and_correction() -> None:
    actions = [
        {"type": "dart", "dart": "T20", "player": 0},
        {"type": "end_visit", "player": 0},
        {"type": "dart", "dart": "T20", "player": 1},
        {"type": "end_visit", "player": 1},
    ]
    game = replay(FinCricket(), actions)
    assert game.closed == {20}
    game.apply({"type": "correct", "visit": 1, "darts": ["D20", "MISS", "MISS"]})
    assert game.closed == frozenset() and game.marks(1, 20) == 2
    turn(game, "S20", "S20")
    assert game.scores == (40, 0)


def test_match_best_of_three_with_a_draw() -> None:
    match = FinCricketMatch(legs=3, starter=1)
    close_everything(match)  # draw: counts for nobody
    assert match.legs_won == (0, 0) and len(match.legs) == 2 and match.current == 0
    close_everything(match, ("25",))  # player 0 throws first in leg 2 and wins
    assert match.legs_won == (1, 0) and match.current == 1
    close_everything(match, ("25",))
    close_everything(match)
    assert match.legs_won == (1, 1) and match.current == 1
    close_everything(match, ("50",))
    assert match.finished and match.winner == 1 and match.legs_won == (1, 2)
    assert match.stats(0).visits == 50


def test_match_correction_cannot_decide_the_match_before_a_played_leg() -> None:
    match = FinCricketMatch(legs=3)
    close_everything(match, ("25",))  # leg 0: player 0
    close_everything(match)  # leg 1: a draw
    turn(match, "S20")  # leg 2 under way
    # Leg 1 starts with player 1. A bull for player 0 there would have won the match 2-0
    # before leg 2.
    with pytest.raises(IllegalAction) as error:
        match.apply({"type": "correct", "leg": 1, "visit": 1, "darts": ["T11", "25"]})
    assert error.value.code == "correction_conflict"
    assert match.legs_won == (1, 0)
    match.apply({"type": "correct", "leg": 1, "visit": 0, "darts": ["T11", "25"]})
    assert match.legs_won == (1, 1) and len(match.legs) == 3
