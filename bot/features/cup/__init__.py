"""The Cable News Cup «Битва костей» in the chat (seed 003, SPEC §3)."""

from bot.features.cup.play import router

__all__ = ["router"]
