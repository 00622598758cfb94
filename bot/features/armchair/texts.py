"""The words of a match (``docs/armchair.md``): cards in the reader's language, the score
card the group sees (with the last delivery), the end of an innings and of the match. Built
only from what everyone may see, except :func:`hand_line` (a player's own DM)."""

from __future__ import annotations

from functools import lru_cache

from bot.i18n import Markup, Translator
from games.armchair_cricket import CARDS, Card, Delivery, Innings
from games.armchair_cricket.cards import SHOWN
from games.armchair_cricket.contract import ArmchairGame

ORDINAL_KEYS = ("armchair.innings_1", "armchair.innings_2", "armchair.innings_3",
                "armchair.innings_4")


def card(tr: Translator, value: Card | int | str) -> str:
    """A card in ``tr``'s language: ``бита 8``, ``maila 8``, ``BAT 8``."""
    if isinstance(value, int):
        return SHOWN.get(tr.language, SHOWN["en"])[value]
    if isinstance(value, str):
        suit, number = value.split()
        value = next(c for c in CARDS if c.suit.name == suit and c.value == int(number))
    return value.display(tr.language)


def innings_line(tr: Translator, names: tuple[str, str], innings: Innings) -> str:
    """An innings' score line, as the score card and the hands show it."""
    return _innings_line(tr.language, names, innings)


@lru_cache(maxsize=1024)
def _innings_line(language: str, names: tuple[str, str], innings: Innings) -> str:
    """Remembered by its innings' value: after each action the score card writes every
    innings again and both hands the current one, and a line changes only with its innings."""
    tr = Translator(language)
    key = "armchair.card_innings_declared" if innings.declared else "armchair.card_innings"
    line = tr(key, number=tr(ORDINAL_KEYS[innings.number - 1]), name=names[innings.batting],
              runs=innings.runs, wickets=innings.wickets, balls=innings.balls,
              overs=innings.overs)
    if innings.target is not None:
        line += tr("armchair.card_target", target=innings.target,
                   left=max(innings.target - innings.runs, 0))
    return line


def score_card(tr: Translator, match_id: int, names: tuple[str, str], game: ArmchairGame,
               last: str | None = None, note: str | None = None, *,
               bot_seat: int | None = None) -> str:
    """The match's one score card in the group (public view only); ``note`` (an exchange,
    a new deck) comes above whose move it is, and ``last`` takes its place: how a match
    closed before it was played out ended, or a result that the match's replay follows;
    ``bot_seat``: the seat the bot plays (``/practice``), so only its opponent tosses."""
    state = game.state
    lines = [tr("armchair.card_head", match=match_id, a=names[0], b=names[1], deck=state.deck,
                limit=state.settings.deck_limit, pile=len(state.pile))]
    if state.toss_winner is not None:
        lines.append(_toss_line(tr, names, state.toss_winner, state.side_a))
    lines.extend(innings_line(tr, names, innings) for innings in state.innings)
    if len(state.innings) > 1:
        lines.append(tr("armchair.card_totals", a=names[0], b=names[1], ra=state.totals[0],
                        rb=state.totals[1]))
    if state.last is not None and state.last.innings == len(state.innings):
        lines.append(last_ball_line(tr, names, game))  # of this innings only
    if note:
        lines.append(note)
    lines.append(last or turn_line(tr, names, game, bot_seat=bot_seat))
    return "\n".join(lines)


def _toss_line(tr: Translator, names: tuple[str, str], winner: int, side_a: int | None) -> str:
    if side_a is None:
        return tr("armchair.card_toss_won", name=names[winner])
    return tr("armchair.card_toss_bats", name=names[winner], first=names[side_a])


def turn_line(tr: Translator, names: tuple[str, str], game: ArmchairGame, *,
              bot_seat: int | None = None) -> str:
    """Who is to act and what for. A delivery (the bowler's card, then the batter's) and the
    discards (the bowler's, then the batter's) are one line each, true of both halves: the
    card is edited once they are complete (``bot.features.armchair.play.halfway``)."""
    state, turn = game.state, game.to_act
    if state.outcome is not None:
        return result_line(tr, names, game)
    if turn is None or turn.seat is None:
        if bot_seat is not None:
            return tr("armchair.turn_toss_against_bot", name=names[1 - bot_seat])
        return tr("armchair.turn_toss")
    if turn.kind in PAIRED:
        return tr(PAIRED[turn.kind], bowler=names[state.bowler], batter=names[state.batter])
    return tr(f"armchair.turn_{turn.kind}", name=names[turn.seat])


PAIRED = {"discard": "armchair.turn_discards", "bowl": "armchair.turn_delivery",
          "bat": "armchair.turn_delivery"}
"""The turns the score card names with both players, by the pair of moves they belong to."""


def last_ball_line(tr: Translator, names: tuple[str, str], game: ArmchairGame) -> str:
    """The match's last completed delivery and its innings' score. The score card shows it:
    a delivery is not a message of its own, so a match does not spend the group's message
    budget ball by ball."""
    ball = game.state.last
    return _last_ball_line(tr.language, names, ball, game.state.innings[ball.innings - 1])


@lru_cache(maxsize=1024)
def _last_ball_line(language: str, names: tuple[str, str], ball: Delivery,
                    innings: Innings) -> str:
    """Remembered by the delivery's and its innings' values: the score card writes the last
    ball again after every action, and it changes only with the next ball played."""
    tr = Translator(language)
    bowler = 1 - innings.batting
    over = f"{(ball.ball - 1) // 6}.{(ball.ball - 1) % 6 + 1}"
    return tr("armchair.delivery", over=over, bowler=names[bowler],
              batter=names[1 - bowler], bowled=card(tr, ball.bowled),
              played=card(tr, ball.played), result=ball_result(tr, ball),
              runs=innings.runs, wickets=innings.wickets)


@lru_cache(maxsize=1024)
def hand_ball_line(language: str, ball: Delivery) -> str:
    """The last delivery on a hand. Remembered by the delivery's value: both hands show it
    after every action, and it changes only with the next ball played."""
    tr = Translator(language)
    return tr("armchair.panel_last", bowled=card(tr, ball.bowled), played=card(tr, ball.played),
              result=ball_result(tr, ball))


def ball_result(tr: Translator, ball: Delivery) -> Markup:
    """What a delivery did: runs, safe or a wicket (markup of the catalog)."""
    if ball.result == "runs":
        return Markup(tr("armchair.ball_runs", runs=ball.runs))
    return Markup(tr(f"armchair.ball_{ball.result}"))


def innings_over(tr: Translator, names: tuple[str, str], game: ArmchairGame,
                 innings: Innings) -> str:
    """The end of an innings, and who bats next (with the target in the fourth)."""
    lines = [tr("armchair.innings_over", number=tr(ORDINAL_KEYS[innings.number - 1]),
                line=Markup(innings_line(tr, names, innings)))]
    state = game.state
    if state.outcome is None and len(state.innings) > innings.number:
        following = state.innings[innings.number]
        key = "armchair.next_target" if following.target is not None else "armchair.next_bats"
        lines.append(tr(key, name=names[following.batting], target=following.target or 0,
                        bowler=names[1 - following.batting]))
    return "\n".join(lines)


def result_line(tr: Translator, names: tuple[str, str], game: ArmchairGame,
                replay: int | None = None) -> str:
    """The match's result; ``replay``: the match's id when it is dealt again (a tie or a draw
    where the format needs a winner), said on the next line."""
    outcome = game.outcome
    ra, rb = outcome.score
    if outcome.result == "win":
        return tr(f"armchair.won_{outcome.how}", winner=names[outcome.winner],
                  loser=names[1 - outcome.winner], a=names[0], b=names[1], ra=ra, rb=rb)
    said = tr(f"armchair.result_{outcome.result}", a=names[0], b=names[1], ra=ra, rb=rb)
    return said if replay is None else f"{said}\n{tr('armchair.replay', match=replay)}"


def hand_line(tr: Translator, hand: tuple[int, ...]) -> str:
    """A player's own hand (their DM only)."""
    return _hand_line(tr.language, hand)


@lru_cache(maxsize=1024)
def _hand_line(language: str, hand: tuple[int, ...]) -> str:
    """Remembered by the hand's value: both hands are written again after every action,
    and a hand's line changes only with its cards."""
    shown = SHOWN.get(language, SHOWN["en"])
    return " · ".join(shown[code] for code in hand)
