"""Who may change what: one secret link per side of each table, and the organiser's token.

A table link carries a token derived from a secret kept in the event file
(``HMAC-SHA256(secret, "table:ROUND:TABLE:SIDE")``), so links survive a restart
of the server, a Swiss round paired later gets its links without anything being
stored, and printed QR codes stay valid all evening.  ``--new-links`` replaces
the secret, which invalidates every printed link at once (a leaked link).  The
organiser's token is drawn afresh at each start and kept only as a hash in memory.
Tokens are compared in constant time.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from dataclasses import dataclass

from ..tournament.event import Tournament

SECRET_KEY = "web_secret"
TOKEN_CHARS = 32  # 192 bits of the HMAC, URL-safe


@dataclass(frozen=True)
class Seat:
    """Where a table link leads: one side (0: seats 0 2 4, 1: seats 1 3 5) of one table in one round."""

    round: int
    table: int
    side: int


def event_secret(event: Tournament, *, renew: bool = False) -> bytes:
    """The event's link secret, created on first use (or replaced with ``renew``) in one transaction."""
    with event.db.transaction() as con:
        row = con.execute("SELECT value FROM meta WHERE key = ?", (SECRET_KEY,)).fetchone()
        if row is None or renew:
            value = '"' + secrets.token_urlsafe(32) + '"'
            con.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (SECRET_KEY, value))
        else:
            value = str(row[0])
    return value.strip('"').encode()


def table_token(secret: bytes, seat: Seat) -> str:
    mac = hmac.new(secret, f"table:{seat.round}:{seat.table}:{seat.side}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac).decode().rstrip("=")[:TOKEN_CHARS]


class Links:
    """Checks tokens: the organiser's, and every seated table's two sides."""

    def __init__(self, event: Tournament, secret: bytes, admin_token: str | None = None) -> None:
        self.event = event
        self.secret = secret
        self.admin_token = admin_token or secrets.token_urlsafe(24)
        self._admin_hash = hashlib.sha256(self.admin_token.encode()).digest()

    def is_admin(self, token: str) -> bool:
        return hmac.compare_digest(hashlib.sha256(token.encode()).digest(), self._admin_hash)

    def token(self, seat: Seat) -> str:
        return table_token(self.secret, seat)

    def seat_of(self, token: str) -> Seat | None:
        """The table side a token opens, or None.  Every seated table is tried (a club has a few dozen)."""
        if len(token) != TOKEN_CHARS or not token.isascii():  # compare_digest refuses non-ASCII text
            return None
        found = None
        for rnd, tbl in self.event.db.seating():
            for side in (0, 1):
                seat = Seat(rnd, tbl, side)
                if hmac.compare_digest(self.token(seat), token):
                    found = seat
        return found
