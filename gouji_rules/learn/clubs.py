"""Club files drawn from the ranges real clubs use: rules to train one network over (issue 32, item 3).

A drawn club is a variant file that ``extends:`` a shipped base and changes some of the options
clubs are known to change, each to a value some club plays (the sources are the columns of
``/work/shared/research/variant-matrix.md``, section A; docs/rules.md cites the texts).  :data:`RANGES`
is the one table of them; docs/research.md prints it (a test keeps the two the same).

Why a table of ranges and not every option: an option no club changes (the deck of a region, the
beat relation) would teach the network rules nobody plays, and a combination the texts never pair
can fail ``gouji validate``.  Each option is changed with even odds, and then to a value drawn
uniformly from its range, so a draw differs from its base in about half the axes.

A draw is a pure function of ``(seed, index)``: the same seed gives the same file.  A draw whose rules
are those of a file in ``avoid`` (fingerprints: the held-out ``examples/clubs/``) is drawn again, so
training never sees the rules kept out to measure it.
"""

from __future__ import annotations

import json
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..game.rng import SplitMix64, derive
from ..variant import Variant

BASES: tuple[str, ...] = ("dagang", "dianshaomenla")
"""The shipped variants a drawn club extends."""


@dataclass(frozen=True)
class Range:
    """One option clubs change: its path in a variant file, the values clubs play, and who plays them."""

    path: str
    values: tuple[Any, ...]
    why: str


RANGES: tuple[Range, ...] = (
    Range("burn.needs_open_point", (True, False), "烧牌要不要先开点: S4, WDA, TS, TCO yes; S0, GO, DART no"),
    Range("burn.teammate", (True, False), "可以烧队友: S0, S4, TCO yes; TS no"),
    Range("burn.counter", ("anyone", "victim", "none"), "反烧: S0 anyone; TCO the victim; some houses none"),
    Range("scoring.points", ((4, 2, 0, 0, -2, -4), (2, 1, 0, 0, -1, -2)), "4/2/0 (S4, RLG) or 2/1/0 (S0, DART, KOR)"),
    Range("scoring.positive_only", (True, False), "只记正分 (S4) or both signs (S0)"),
    Range("scoring.sweep_multiplier", (1, 2), "串三户 doubles (S4) or not"),
    Range("declare.yudian", (True, False), "预点 (S4) on or off"),
    Range("declare.mingdian", (True, False), "明点 (S4) on or off"),
    Range("declare.xuandian", (True, False), "宣点 (S0) on or off"),
    Range("declare.fanche_multiplier", (1, 2), "翻车 doubled by agreement (S4) or not"),
    Range("tribute.point_when_neither", ("none", "both"), "neither opened: nobody pays (S0) or both (S4, TCO, DART)"),
    Range(
        "tribute.returned", (("place",), ("point", "burn", "men", "place")), "还贡 for 落贡 only (S4, GO) or all (TCO)"
    ),
    Range("tribute.sweep", ("opposite", "place"), "after 串三户: each pays his 对头 (S4, TCO) or place tribute"),
    Range("geming.enabled", (True, False), "革命 (S4, GO) on or off"),
    Range("chongdian.enabled", (False, True), "冲点 (S0) on or off"),
    Range(
        "jiefeng.policy", ("next_seat", "next_teammate", "by_consent"), "接风: 下家 (S0), teammate (DART), consent (S4)"
    ),
    Range("free_for_all.passers_return", (True, False), "四人乱缠: passers come back (S0) or not (TCY)"),
)
"""The options drawn clubs change and the values they take (one row per option)."""


def _value(v: Any) -> Any:
    return list(v) if isinstance(v, tuple) else v


def changes(seed: int, index: int) -> tuple[str, dict[str, dict[str, Any]]]:
    """The base and the changed options (``{section: {field: value}}``) of draw ``index`` of ``seed``."""
    rng = SplitMix64(derive(seed, 0xC1B0 + index))
    base = BASES[rng.below(len(BASES))]
    out: dict[str, dict[str, Any]] = {}
    for r in RANGES:
        if rng.below(2):
            section, _, field = r.path.partition(".")
            out.setdefault(section, {})[field] = _value(r.values[rng.below(len(r.values))])
    return base, out


def club_text(seed: int, index: int, attempt: int = 0) -> str:
    """The variant file of draw ``index`` of ``seed`` (``attempt`` > 0: a redraw), as YAML text."""
    base, changed = changes(seed, index + (attempt << 32))
    name = f"club_{seed}_{index}" + (f"_{attempt}" if attempt else "")
    lines = [
        "# 按俱乐部常见改法随机抽出的家规（gouji_rules.learn.clubs），供训练用",
        f"extends: {base}",
        f"name: {name}",
        f'title: "随机家规 {seed}/{index}"',
    ]
    lines += [f"{section}: {json.dumps(fields, ensure_ascii=False)}" for section, fields in changed.items()]
    return "\n".join(lines) + "\n"


def held_out_fingerprints(folder: Path | None = None) -> frozenset[str]:
    """The fingerprints of the held-out club files (``examples/clubs/``, installed with the package as
    ``gouji_rules.data.clubs``)."""
    from importlib import resources

    from ..catalog import resolve

    where = folder or Path(str(resources.files("gouji_rules.data.clubs")))
    return frozenset(resolve(str(f)).fingerprint() for f in sorted(where.glob("*.yaml")))


def draw(seed: int, index: int, avoid: Collection[str] = ()) -> tuple[str, Variant]:
    """Draw ``index`` of ``seed``: its file text and Variant, never of rules in ``avoid`` (fingerprints)."""
    from ..dsl import load_text

    for attempt in range(1000):
        text = club_text(seed, index, attempt)
        variant = load_text(text, f"club_{seed}_{index}.yaml")
        if variant.fingerprint() not in avoid:
            return text, variant
    raise AssertionError("1000 draws in a row were held out")  # pragma: no cover: the space is ~10^6


def draw_clubs(count: int, seed: int, avoid: Collection[str] | None = None) -> list[Variant]:
    """``count`` drawn clubs of ``seed``, none with the rules of a held-out file (``avoid``; default the
    held-out club files)."""
    keep = held_out_fingerprints() if avoid is None else avoid
    return [draw(seed, i, keep)[1] for i in range(count)]


def space(count: int, seed: int) -> dict[str, Any]:
    """What a weights file says it was trained over of the drawn clubs (``trained_over.clubs``)."""
    return {
        "count": count,
        "seed": seed,
        "bases": list(BASES),
        "ranges": {r.path: [_value(v) for v in r.values] for r in RANGES},
    }


def markdown_table() -> str:
    """:data:`RANGES` as the Markdown table docs/research.md prints."""
    rows = ["| option | values clubs play | who plays them |", "|---|---|---|"]
    for r in RANGES:
        values = ", ".join(json.dumps(_value(v), ensure_ascii=False) for v in r.values)
        rows.append(f"| `{r.path}` | {values} | {r.why} |")
    return "\n".join(rows) + "\n"


__all__ = ["BASES", "RANGES", "club_text", "draw", "draw_clubs", "held_out_fingerprints", "markdown_table", "space"]
