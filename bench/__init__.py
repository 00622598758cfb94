"""Throughput and latency benchmark: the real bot against a bare aiogram echo bot.

Run with ``python -m bench.run``; see ``bench/README.md``.
"""
