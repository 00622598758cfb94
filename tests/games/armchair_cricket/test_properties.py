"""Property tests over random legal play: cards, hands, decks, refusals and replays."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games.armchair_cricket import CARDS, ArmchairMatch, ArmchairSettings
from games.common.errors import IllegalAction
from games.common.match import replay

from .helpers import accounted, play_out, random_action

SEEDS = st.integers(min_value=0, max_value=2**32)
LIMITS = st.sampled_from([1, 2, 3, 27])
PLAY_PHASES = ("bowl", "bat", "exchange", "over")


@settings(max_examples=80, deadline=None)
@given(seed=SEEDS, deck_limit=LIMITS, careful=st.booleans())
def test_random_play_keeps_every_card_and_ends_within_the_deck_limit(
    seed: int, deck_limit: int, careful: bool
) -> None:
    rng = random.Random(seed)
    match = ArmchairMatch(ArmchairSettings(deck_limit=deck_limit))
    log = []
    while not match.finished:
        action = random_action(match, rng, careful)
        match.apply(action)
        log.append(action)
        state = match.state
        assert accounted(state)
        if state.phase in PLAY_PHASES:
            assert max(len(hand) for hand in state.hands) <= 6
        assert state.deck <= deck_limit + 1
        if state.deck_limit_reached and state.phase in ("bowl", "exchange"):
            assert state.innings[-1].balls % 6  # no over ends once the limit is reached
        assert len(log) < 50_000
    outcome = match.outcome
    assert outcome is not None
    assert (outcome.result == "win") == (outcome.winner is not None)
    if outcome.result == "draw":
        assert match.state.deck_limit_reached and match.state.innings[-1].balls % 6 == 0
    assert replay(ArmchairMatch(ArmchairSettings(deck_limit=deck_limit)), log).state == match.state


def junk(rng: random.Random) -> Any:
    kind = rng.choice(["shuffle", "toss", "choose", "discard", "bowl", "bat", "exchange"])
    action: dict[str, Any] = {"type": rng.choice([kind, kind, "declare", "nope", None])}
    action["player"] = rng.choice([0, 1, 1, 2, -1, None, "0", True])
    card = str(rng.choice(CARDS)) if rng.random() < 0.8 else rng.choice(["BAT 12", "", 5])
    action["card"] = card
    action["cards"] = rng.choice([[card], [card, card], [card] * 3, [], "x"])
    action["winner"] = rng.choice([0, 1, 2])
    action["bat_first"] = rng.choice([0, 1, None])
    action["order"] = rng.choice([[], list(range(110)), [0] * 110, list(range(95))])
    return rng.choice([action, action, action, None, [], {"type": "bowl"}])


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS)
def test_a_refused_action_changes_nothing(seed: int) -> None:
    rng = random.Random(seed)
    match = ArmchairMatch(ArmchairSettings(deck_limit=2))
    for _ in range(600):
        if match.finished:
            break
        if rng.random() < 0.5:
            match.apply(random_action(match, rng))
            continue
        before = match.state
        try:
            match.apply(junk(rng))
        except IllegalAction:
            assert match.state is before


@settings(max_examples=30, deadline=None)
@given(seed=SEEDS)
def test_card_actions_are_accepted_exactly_when_listed(seed: int) -> None:
    rng = random.Random(seed)
    match = ArmchairMatch()
    for _ in range(rng.randrange(5, 120)):
        if match.finished:
            return
        match.apply(random_action(match, rng))
    turn = match.to_act
    if turn is None or turn.kind not in ("discard", "bowl", "bat"):
        return
    listed = {action["card"] for action in match.legal_actions()}
    for card in CARDS:
        action = {"type": turn.kind, "player": turn.seat, "card": str(card)}
        probe = ArmchairMatch.from_state(match.state)
        try:
            probe.apply(action)
            accepted = True
        except IllegalAction as refusal:
            assert refusal.code == "card_not_in_hand"
            accepted = False
        assert accepted == (str(card) in listed)


@settings(max_examples=20, deadline=None)
@given(seed=SEEDS)
def test_a_declaration_is_allowed_exactly_when_listed_and_accepted(seed: int) -> None:
    rng = random.Random(seed)
    match = ArmchairMatch()
    while not match.finished:
        for seat in (0, 1):
            listed = {"type": "declare", "player": seat} in match.legal_actions(seat)
            try:
                ArmchairMatch.from_state(match.state).apply({"type": "declare", "player": seat})
                accepted = True
            except IllegalAction:
                accepted = False
            assert match.may_declare(seat) == listed == accepted
        match.apply(random_action(match, rng))


@settings(max_examples=30, deadline=None)
@given(seed=SEEDS)
def test_views_show_one_hand_and_are_json(seed: int) -> None:
    rng = random.Random(seed)
    match = ArmchairMatch()
    play = rng.randrange(1, 200)
    for _ in range(play):
        if match.finished:
            break
        match.apply(random_action(match, rng))
    public = match.view().to_dict()
    assert public["hand"] is None and "pile" not in public
    json.dumps(public)
    for seat in (0, 1):
        own = match.view(seat).to_dict()
        assert sorted(own["hand"]) == sorted(str(CARDS[c]) for c in match.state.hands[seat])
        assert {key: value for key, value in own.items() if key not in ("hand", "seat")} == {
            key: value for key, value in public.items() if key not in ("hand", "seat")
        }


def test_the_same_log_replays_to_the_same_state() -> None:
    for seed in range(20):
        match = ArmchairMatch()
        log = play_out(match, random.Random(seed))
        again = replay(ArmchairMatch(), json.loads(json.dumps(log)))
        assert again.state == match.state and again.outcome == match.outcome
