"""The bot protocol's versions: which one a bot speaks, agreed at hello, and how each writes its frames.

A JSON number is read as a double by JavaScript and by many other JSON readers, so an integer beyond
2^53 - 1 reaches them changed, without a word (the hand's seed, up to 2^64 - 1, almost always is).
Protocol 2, the first with a hello, sends such integers as numbers; changing that would break the bots
written for it.  So the runner offers the versions it speaks in its hello (``"protocols": [2, 3]``),
and a bot answers the one it chooses: protocol 3 sends every integer that can pass 2^53 - 1 as a
decimal string.  A bot whose answer names no version is a protocol 2 bot and gets protocol 2's frames,
byte for byte as before.  docs/bot-protocol.md lists every integer field and its range.
"""

from __future__ import annotations

import json
from typing import Any

PROTOCOL_VERSION = 2
"""The version of a bot whose hello answer names none (every bot written before versions were agreed)."""

PROTOCOLS = (2, 3)
"""The versions this runner speaks, offered in its hello."""

EXACT = 2**53 - 1
"""The largest integer every JSON reader reads exactly (a double's 53-bit significand)."""


_DIGITS = bytes(0x30 if 0x30 <= b <= 0x39 else 0x78 for b in range(256))  # bytes.translate: digits to "0", else "x"
_RUN = b"0" * 16  # 2^53 has 16 digits: an integer of fewer is exact


def may_be_wide(data: bytes) -> bool:
    """Whether a message's JSON (UTF-8) may hold an integer beyond ±(2^53 - 1), which :func:`exact` then finds.

    A look in C at the bytes already made (translate, then find), a tenth of a walk over an act's few
    kilobytes.  A number follows ``: ``, ``[``, ``, `` or ``-``; the digits of a hand's text
    (``"3344445666677789TT"``) follow a quote or a card, and are passed over.  A string that holds
    ``, 1234567890123456`` only costs the walk."""
    marks = data.translate(_DIGITS)
    at = marks.find(_RUN)
    while at > 0:
        if data[at - 1] in b" [-":
            return True
        end = marks.find(b"x", at)
        at = -1 if end < 0 else marks.find(_RUN, end)
    return False


class VersionRefused(ValueError):
    """A hello answer asking for a version this runner does not speak; the message says what it asked."""


def agree(answer: dict[str, Any]) -> int:
    """The version a bot's hello answer chooses: its ``protocol``, or :data:`PROTOCOL_VERSION` if it names none.

    JSON has one kind of number, so ``3.0`` is 3 (JSON Schema's ``const`` agrees); ``"3"``, ``true``, a list,
    ``NaN`` or a version not spoken is refused rather than guessed at."""
    if "protocol" not in answer:
        return PROTOCOL_VERSION
    asked = answer["protocol"]
    if not isinstance(asked, bool) and isinstance(asked, int | float) and asked in PROTOCOLS:
        return int(asked)
    shown = json.dumps(asked)
    if len(shown) > 40:
        shown = f"{shown[:40]}… ({len(shown):,} characters)"
    spoken = " or ".join(str(v) for v in PROTOCOLS)
    plain = asked is None or (isinstance(asked, int | float) and not isinstance(asked, bool))
    kind = "" if plain else f" ({_json_kind(asked)})"
    raise VersionRefused(
        f"the hello answer asks for protocol {shown}{kind}; this runner speaks protocol {spoken}: "
        f'answer with "protocol": {PROTOCOLS[-1]} (a number), or name none for {PROTOCOL_VERSION}'
    )


def _json_kind(value: object) -> str:
    """What a JSON value that is not a number or null is, in JSON's words."""
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    return "an object" if isinstance(value, dict) else type(value).__name__


def hello() -> dict[str, Any]:
    """The runner's hello: the version it uses unless the bot chooses (``protocol``), and every one it speaks."""
    return {"type": "hello", "protocol": PROTOCOL_VERSION, "protocols": list(PROTOCOLS)}


def start_hand(version: int, seed: int, seat: int, info: dict[str, Any]) -> dict[str, Any]:
    """A hand begins.  Protocol 2 sends the seed as a number and again as ``seed_str``; 3 only as a string."""
    if version == 2:
        return {"type": "start_hand", "protocol": 2, "seed": seed, "seed_str": str(seed), "seat": seat, **info}
    return {"type": "start_hand", "protocol": version, "seed": str(seed), "seat": seat, **info}


def end(version: int, result: dict[str, Any]) -> dict[str, Any]:
    """The run is over.  In protocol 3 the standing's ``hand_points`` (a sum of hook scores) is a string."""
    standing = result.get("standing")
    if version >= 3 and isinstance(standing, dict) and "hand_points" in standing:
        result = {**result, "standing": {**standing, "hand_points": str(standing["hand_points"])}}
    return {"type": "end", "protocol": version, **result}


def exact(value: Any) -> Any:
    """``value`` with every integer beyond ±(2^53 - 1) as a decimal string; what holds none comes back as is.

    Protocol 3's last line: the fields that can be that large are strings by design (:func:`start_hand`,
    :func:`end`), but an event's ``value`` or seat comes from phases and tribute kinds that an installed
    extension may add, and a number a bot would read changed must never go out as one."""
    if isinstance(value, int):
        return value if -EXACT <= value <= EXACT else str(value)
    if isinstance(value, dict):
        for k, v in value.items():
            if exact(v) is not v:
                return {k: exact(v) for k, v in value.items()}
        return value
    if isinstance(value, list):
        for v in value:
            if exact(v) is not v:
                return [exact(v) for v in value]
        return value
    return value
