"""The offline sandbox: the real bot with a local stand-in for Telegram (see shared/SANDBOX.md)."""
