"""The Cable News Cup «Битва костей» in the chat (``docs/rules.md``): the group stage, the
playoff in four formats and the 3rd-place match — declared as one :class:`~bot.games.Game`."""

from functools import partial

from bot.features.cup import betting, corrections, hp, reopen, replace, rolling, status, third
from bot.features.cup.common import CLOSED_JOB, PLAYBOOK, closed_status, match_closed, status_board
from bot.features.cup.playoff import ENGINES, bracket_note
from bot.features.cup.stage import group_engine, start_group_stage, two_per_group
from bot.features.friendly.players import cup_player
from bot.game_settings import choice, format_list, int_choice, int_range
from bot.games import Game
from bot.play import hidden, hidden_chat

GAME = Game(
    "cup",
    {"max_players": 0, "approval": "on", "checkin": 0, "qualifiers": 8,
     "payout": "multiplier", "chips": 20, "hp": 20},
    {"qualifiers": int_choice(2, 4, 8, 16), "groups": int_range(1, 8),
     "formats": format_list("order", "drop", "hp", "betting"),
     "payout": choice("multiplier", "pot"), "chips": int_range(3, 1000),
     "hp": int_range(1, 100)},
    needs_name_and_photo=True,
    engines={"group": group_engine, **ENGINES},
    start=start_group_stage,
    min_players=two_per_group,
    setup_note=bracket_note,
    playbook=PLAYBOOK,
    dice=lambda seat, value: {"type": "roll", "player": seat, "value": value},
    bot_player=cup_player,
    match_kind="group", unseen={"group": "cup.rights_unseen"},  # a Cup match outside its stages: the group stage's (a friendly)
    launch=rolling.launch_single_match,
    routers=tuple(module.router for module in (corrections, replace, reopen, third, status,
                                               rolling, hidden_chat, betting)),
    hidden={"hp": hp.HP_INPUT},
    jobs={hidden.LATE: hidden.late_clock, third.VOTE_DEADLINE: third.vote_deadline,
          CLOSED_JOB: match_closed, corrections.DQ_JOB: corrections.close_disqualified,
          replace.REPLACED_JOB: replace.replaced_owed,
          reopen.REOPENED_JOB: reopen.reopened_owed},
    export_sections={"cup_standings": status.standings_export,
                     "cup_placings": status.placings_export},
    boards={"betting": partial(betting.show_final_board, new=True),
            "hp": hp.board_again, "third_choice": status_board(third.vote_status),
            **{kind: status_board(rolling.status) for kind in rolling.KINDS}},
    settled_boards={"betting": betting.show_final_board, "hp": hp.redraw,
                    "third_choice": closed_status(third.vote_status),
                    **{kind: closed_status(rolling.status) for kind in rolling.KINDS}},
    rules="cup.rules",  # the Cup's own catalog: its typed words in the chat's language
)
