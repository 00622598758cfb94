"""The offline sandbox: the real bot with a local stand-in for Telegram (README, "The sandbox")."""
