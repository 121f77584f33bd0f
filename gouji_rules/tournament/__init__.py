"""Tournaments under house rules: club events at real tables and bot events, in one SQLite file each.

Modules: ``storage`` (the file, its schema and migrations), ``variant_copy`` (the
rules an event keeps), ``schedule`` (who plays whom), ``event`` (creating and
opening an event), ``club`` (seating sheets and results from real tables),
``bots`` and ``run`` (bot events), ``standings`` and ``records`` (replay, verify).
See docs/tournaments.md and docs/bot-protocol.md.
"""

from __future__ import annotations

from .errors import EventError, InputError

__all__ = ["EventError", "InputError"]
