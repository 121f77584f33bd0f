"""Actions in words a player reads (Chinese first), for the review's lines and the 提示 button.

A record writes an action in notation (``KKK2+SJ``, ``pass``, ``burn AA+BJ``); a player at a phone
reads 出/烧 and the card notation, and 过牌, 让牌 … for the words of play.  The English is for ``--lang en``.
"""

from __future__ import annotations

from ..game.actions import Action, Burn, Consent, Forfeit, Jiefeng, Kou, Pass, Play, Yield
from ..game.cards import format_set

WORDS: dict[type, tuple[str, str]] = {
    Pass: ("过牌", "pass"),
    Yield: ("让牌", "yield"),
    Kou: ("扣牌", "kou (concede the set)"),
    Jiefeng: ("要风", "ask to lead (jiefeng)"),
    Forfeit: ("错牌不出", "turn lost to a wrong play"),
}


def action_words(action: Action, lang: str = "zh", mode: str = "") -> str:
    """``action`` as a player says it: 出 KKK2+SJ, 烧 AA+BJ, 过牌 (``lang`` ``en``: play KKK2+SJ …);
    a pass when asked to burn (``mode`` ``burn``) is 不烧."""
    en = lang == "en"
    if mode == "burn" and isinstance(action, Pass):
        return "do not burn" if en else "不烧"
    if isinstance(action, Play):
        return ("play " if en else "出 ") + format_set(action.cards)
    if isinstance(action, Burn):
        return ("burn " if en else "烧 ") + format_set(action.cards)
    if isinstance(action, Consent):
        if en:
            return "agree" if action.agree else "refuse"
        return "同意" if action.agree else "不同意"
    pair = WORDS.get(type(action))
    if pair is None:
        return str(action)
    return pair[1] if en else pair[0]


__all__ = ["WORDS", "action_words"]
