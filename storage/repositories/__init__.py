"""Repositories: the only place that knows SQL. One module per aggregate."""
