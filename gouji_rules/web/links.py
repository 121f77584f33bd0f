"""Who may change what: one secret link per side of each table, and the organiser's token.

A table link carries a token derived from a secret kept in the event file
(``HMAC-SHA256(secret, "table:ROUND:TABLE:SIDE")``), so links survive a restart
of the server, a Swiss round paired later gets its links without anything being
stored, and printed QR codes stay valid all evening.  The two sides of a table
get different tokens, so a side's link opens only its own side: confirming an
entry takes the other side's link.  ``--new-links`` replaces the secret, which
invalidates every printed link at once (a leaked link); a server re-reads the
secret at each request, so one that was already running honours the revocation
too.  A secret too short to be unguessable is refused (storage.check_secret).
The organiser's token is drawn afresh at each start and kept only as a hash in
memory.  Tokens are compared in constant time.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
from dataclasses import dataclass

from ..tournament.errors import EventError
from ..tournament.event import Tournament
from ..tournament.storage import check_secret

SECRET_KEY = "web_secret"
TOKEN_CHARS = 32  # 192 bits of the HMAC, URL-safe


@dataclass(frozen=True)
class Seat:
    """Where a table link leads: one side (0: seats 0 2 4, 1: seats 1 3 5) of one table in one round."""

    round: int
    table: int
    side: int


def event_secret(event: Tournament, *, renew: bool = False) -> bytes:
    """The event's link secret, created on first use (or replaced with ``renew``) in one transaction.

    Called only once the server that uses it can listen, so a failed start changes no link.
    """
    with event.db.transaction() as con:
        row = con.execute("SELECT value FROM meta WHERE key = ?", (SECRET_KEY,)).fetchone()
        if row is None or renew:
            value = secrets.token_urlsafe(32)
            con.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (SECRET_KEY, json.dumps(value)))
        else:
            value = _stored(event, row[0])
    return value.encode()


def current_secret(event: Tournament) -> bytes:
    """The secret in the file now (another server's ``--new-links`` may have replaced it)."""
    row = event.db.con.execute("SELECT value FROM meta WHERE key = ?", (SECRET_KEY,)).fetchone()
    if row is None:
        raise EventError(f"{event.db.path}: the event file has no link secret; start 'gouji event serve' again")
    return _stored(event, row[0]).encode()


def _stored(event: Tournament, raw: object) -> str:
    try:
        value = json.loads(raw) if isinstance(raw, str) else raw
    except ValueError:
        value = None
    return check_secret(event.db.path, value)


def table_token(secret: bytes, seat: Seat) -> str:
    """The token of one side of one table, derived from the event's secret so that printed QR codes survive a restart
    and a round paired later needs nothing stored."""
    mac = hmac.new(secret, f"table:{seat.round}:{seat.table}:{seat.side}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac).decode().rstrip("=")[:TOKEN_CHARS]


class Links:
    """Checks tokens: the organiser's, and every seated table's two sides, against the event's current secret."""

    def __init__(self, admin_token: str | None = None) -> None:
        self.secret = b""
        self.admin_token = admin_token or secrets.token_urlsafe(24)
        self._admin_hash = hashlib.sha256(self.admin_token.encode()).digest()

    def refresh(self, event: Tournament) -> None:
        """Take the secret stored in the file now: a revocation by another server counts from this request on."""
        self.secret = current_secret(event)

    def is_admin(self, token: str) -> bool:
        """Whether ``token`` is the organiser's, compared by hash in constant time: a guesser learns nothing from
        how long a refusal takes."""
        return hmac.compare_digest(hashlib.sha256(token.encode()).digest(), self._admin_hash)

    def token(self, seat: Seat) -> str:
        """The token of ``seat`` under the secret last read: what its QR code and the organiser's page carry."""
        return table_token(self.secret, seat)

    def seat_of(self, event: Tournament, token: str) -> Seat | None:
        """The table side a token opens, or None.  Every seated table is tried (a club has a few dozen)."""
        if len(token) != TOKEN_CHARS or not token.isascii():  # compare_digest refuses non-ASCII text
            return None
        self.refresh(event)
        found = None
        for rnd, tbl in event.db.seating():
            for side in (0, 1):
                seat = Seat(rnd, tbl, side)
                if hmac.compare_digest(self.token(seat), token):
                    found = seat
        return found
