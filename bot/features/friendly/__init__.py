"""Friendly matches outside tournaments (SPEC §2 item 4): ``/challenge @user <game>`` invites a
player (Accept / Decline, expiring after ten minutes) and ``/practice <game>`` plays the bot.

A friendly match is stored as a tournament row of its own flagged ``friendly`` (invisible to
the chat's lists, targets and tables) with the two players as entrants and one match row of
stage ``friendly``; it is played through the same match-play module as any tournament match,
and its stage's closing hooks finish it (README, "Decisions").

- :mod:`.start` — which games have friendlies, creating and launching the match;
- :mod:`.invite` — /challenge, the answer buttons and the expiry job;
- :mod:`.practice` — /practice and the bot's own moves; :mod:`.players` — how the bot plays;
- :mod:`.closing` — the end of a friendly, /match and the chat's /export section.
"""
