"""Darts rules engines: Cricket-Shanghai (``shanghai``) and FinCricket (``fincricket``).

Shared mechanics live in ``notation`` (what a dart is and how it is typed), ``turn`` (a
three-dart visit, undo inside it, alternating players, corrections, statistics) and
``match`` (best-of-N legs).
"""
