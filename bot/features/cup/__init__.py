"""The Cable News Cup «Битва костей» in the chat (seed 003, SPEC §3): the group stage,
the playoff in four formats and the 3rd-place match."""

from bot.features.cup import betting, corrections, hp, rolling, status, third

MODULES = (corrections, third, status, rolling, hp, betting)
