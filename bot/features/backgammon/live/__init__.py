"""Backgammon played in the bot (``play=bot``, ``docs/backgammon.md``): the bot is the app of
the seed's §9 — it rolls, takes only legal moves, keeps the cube, the clocks and the score.

- :mod:`.board` — the board picture edited in place, its caption and buttons;
- :mod:`.flow` — the launch, the bot's own steps (dice, forced moves), the end of a match;
- :mod:`.clocks` — the per-move timer, the match time bank, reminders, inactivity;
- :mod:`.moves` — typed and pressed moves, the cube;
- :mod:`.resign` — ``/resign`` (the game or the match), asked first with what it costs;
- :mod:`.tools` — ``/position N`` and the organisers' ``/addtime``.
"""
