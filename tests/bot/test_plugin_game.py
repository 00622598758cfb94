"""A game is one declaration: a tiny game defined here, in the test, plays a round-robin
tournament through the sandbox without a line of its own in ``bot/``.

"High card": each player of a match sends 🎲 once per round, the higher die wins the round
(equal dice: the round is rolled again), first to two round wins takes the match.
"""

from __future__ import annotations

from pathlib import Path

from bot.features.formats.game import formats_game
from bot.features.formats.results import finish_from_state
from bot.match_service import Change
from bot.play.context import MatchContext
from bot.play.launch import announce_match
from bot.play.perform import Playbook, error_params
from games.common.errors import IllegalAction
from games.common.outcome import Outcome
from tests.bot.sandbox_run import run_script


class HighCard:
    """The whole engine: two dice per round, first to ``wins`` round wins."""

    def __init__(self, wins: int = 2) -> None:
        self.wins = wins
        self.score = [0, 0]
        self.dice: list[int | None] = [None, None]
        self.rounds: list[tuple[int, int]] = []

    @property
    def finished(self) -> bool:
        return max(self.score) >= self.wins

    @property
    def winner(self) -> int | None:
        return self.score.index(max(self.score)) if self.finished else None

    @property
    def outcome(self) -> Outcome | None:
        return Outcome.win(self.winner, tuple(self.score), "played") if self.finished else None

    def legal_actions(self, seat: int | None = None) -> list[dict]:
        """A roll (any value 1–6) of each seat that has not rolled this round."""
        seats = (0, 1) if seat is None else (seat,)
        return [] if self.finished else [{"player": s} for s in seats if self.dice[s] is None]

    def view(self, seat: int | None = None) -> dict:
        return {"score": list(self.score), "rounds": [list(r) for r in self.rounds]}

    def apply(self, action: dict) -> None:
        seat, value = action["player"], action["value"]
        if self.finished:
            raise IllegalAction("match_over")
        if self.dice[seat] is not None:
            raise IllegalAction("rolled_already", value=self.dice[seat])
        self.dice[seat] = value
        a, b = self.dice
        if a is not None and b is not None:
            self.rounds.append((a, b))
            self.dice = [None, None]
            if a != b:
                self.score[0 if a > b else 1] += 1


CATALOGS = {
    "en": {"game.highcard": "High card",
           "rules.highcard": "High card: send 🎲; the higher die wins the round; two rounds "
                             "win the match.",
           "highcard.round": "{a} {va} : {vb} {b} — {sa}:{sb}",
           "highcard.error.rolled_already": "You have rolled {value} this round already.",
           "highcard.error.match_over": "This match is over."},
    "ru": {"game.highcard": "Старшая кость",
           "rules.highcard": "Старшая кость: бросайте 🎲; старшая кость выигрывает раунд, два "
                             "раунда — матч.",
           "highcard.round": "{a} {va} : {vb} {b} — {sa}:{sb}",
           "highcard.error.rolled_already": "Вы уже выбросили {value} в этом раунде.",
           "highcard.error.match_over": "Матч окончен."},
}
"""Russian too: once registered the texts stay in the catalogs, which must keep their keys
alike in every language (``tests/bot/test_i18n.py``) whatever test runs next."""


def write_catalogs(folder: Path) -> Path:
    for language, texts in CATALOGS.items():
        (folder / language).mkdir(parents=True, exist_ok=True)
        entries = "".join(f'\nmsgid "{key}"\nmsgstr "{text}"\n' for key, text in texts.items())
        (folder / language / "highcard.po").write_text(
            'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=utf-8\\n"\n' + entries,
            encoding="utf-8")
    return folder


def _explain(tr, error: IllegalAction, match) -> str:
    return tr(f"highcard.error.{error.code}", **error_params(error))


async def _announce(ctx: MatchContext, change: Change, actions: list[dict]) -> None:
    before, after = change.before, change.after
    for a, b in after.rounds[len(before.rounds):]:
        await ctx.say(ctx.tr("highcard.round", a=ctx.names[0], b=ctx.names[1], va=a, vb=b,
                             sa=after.score[0], sb=after.score[1]))


def high_card(catalogs: Path):
    return formats_game(
        "highcard",
        {"max_players": 0, "approval": "off", "checkin": 0, "format": "round_robin"},
        engines={"highcard": lambda settings: HighCard()},
        match_kind="highcard",
        launch=announce_match,
        playbook=Playbook(explain=_explain, announce=_announce, finish=finish_from_state),
        dice=lambda seat, value: {"player": seat, "value": value},
        catalogs=write_catalogs(catalogs))


SCRIPT = """\
org@hc: /new highcard High Card Open
org@hc: /rules highcard
alice@hc: /register
bob@hc: /register
carol@hc: /register
org@hc: /begin
bob@hc: 🎲 2
bob@hc: 🎲 3
carol@hc: 🎲 5
bob@hc: 🎲 6
carol@hc: 🎲 6
alice@hc: 🎲 4
bob@hc: 🎲 1
carol@hc: 🎲 4
alice@hc: 🎲 6
bob@hc: 🎲 4
alice@hc: 🎲 5
bob@hc: 🎲 2
carol@hc: 🎲 2
alice@hc: 🎲 6
carol@hc: 🎲 1
alice@hc: 🎲 5
"""


async def test_a_game_declared_in_a_test_plays_a_round_robin(high_card_game,
                                                             tmp_path: Path) -> None:
    output = await run_script(tmp_path, SCRIPT, seed=1)
    text = "\n".join(output)
    assert "!! error" not in text, text
    assert "High card: send 🎲" in text  # the game's own catalog
    assert "You have rolled 2 this round already." in text  # the engine's refusal, localized
    assert "Bob 6 : 6 Carol — 0:1" in text  # equal dice: the round is rolled again
    assert "Round 1: you rest this round; your next match comes with the next round." in text
    assert "Carol 1 : 5 Alice — 0:2" in text
    placings = text[text.rindex("🏆"):]
    assert placings.index("Alice") < placings.index("Carol") < placings.index("Bob"), text
    assert output.count("→ hc: 🎯 Match 1: Bob — Carol.") == 1, text
