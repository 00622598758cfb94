"""Playing a match in the chat, the same way for every game played in the bot.

- :mod:`bot.play.context` — the match, its players and the sender's seat, loaded once;
- :mod:`bot.play.perform` — one action (or a typed line of several) applied under the match's
  lock: state before, the engine's check, the append to the log, state after and what is
  said about it, as if every update of a match were handled one after the other;
- :mod:`bot.play.refusal` — every refusal (an illegal move, a stale button, a paused match)
  is raised once and answered by one error handler in the language of the chat.

How a game plugs in is described in ``docs/adding-a-game.md``.
"""
