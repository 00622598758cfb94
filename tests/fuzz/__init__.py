"""A fuzzer for the bot: plausible random transcripts through the sandbox, in-process.

``python -m tests.fuzz --minutes N [--game G] [--seed S] [--out DIR]`` (README, "Tests and
benchmark"). Each transcript sets up a tournament of one game (an organiser creates it,
players register, ``/begin``) and then mostly plays it — dice, darts, results, the bot's own
buttons — mixed with every command of the README with valid, invalid, huge, unicode and HTML
arguments, forged buttons and ``! restart``/``! replay``/``! block``/``! advance``/``! remove``
and ``! add`` of the bot, an organiser posting as the group (``! anonymous``). It reports
the lines fed, the bot's unhandled errors, what Telegram would have refused (broken
limits), slow lines and lines that changed what they must not (:mod:`tests.fuzz.unchanged`),
each kind deduplicated, with a minimal transcript that reproduces it.
"""
