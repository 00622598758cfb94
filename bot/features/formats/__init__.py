"""Tournament formats in the chat for every game but the Cup (which runs its own stages):
pairings per round, results played in the bot or reported by the players, standings,
brackets and the end of the tournament. A game run by the formats is declared with
:func:`bot.features.formats.game.formats_game`."""
