"""Name the input columns of a format-1 weights file or checkpoint (give it format 2).

Usage: python training/name_columns.py OLD.npz NEW.npz [OLD2.npz NEW2.npz ...]

Format 1 (every file written before the layout was by name) read its columns by position: the
layout of the package when its phases were the shipped ten.  That layout is written out here, once,
as history (the fourteen decision kinds and the words of the hand-kept table, in their order), and
the file is written again with the very same arrays and a meta that names each column
(``net.obs_columns``, ``net.act_columns``) and the kinds the trainer taught it
(``learned_kinds``: the modes of play).  Nothing is fitted here: a file is fitted to the layout of
the code that reads it, by name, when it is loaded (``learn.checkpoint.fit_columns``).

Refused, with the file's name and why, exit status 1: a file that is not a format-1 weights file or
checkpoint, or whose sizes are not format 1's (313 and 80 numbers).
"""

from __future__ import annotations

import json
import sys
from typing import Any

import numpy as np

from gouji_rules.env import features as ef
from gouji_rules.env.encoding import FIRST_ORDER
from gouji_rules.errors import GoujiError
from gouji_rules.learn.checkpoint import check_play_meta
from gouji_rules.learn.features import PLAY_MODES
from gouji_rules.learn.runfiles import read_npz, write_npz
from gouji_rules.parts.catalogue import PLAY_MODES as MODES_OF_PLAY

FORMAT1_KINDS = [
    "yudian",
    "xuandian",
    "geming",
    "head",
    "mingdian",
    "choose_last",
    "buy4",
    "waive",
    "point_call",
    "give",
    "accept",
    "chongdian",
    "chong_set",
    "chong_answer",
]
"""The decision kinds format 1 gave a mode column, in column order (the catalogue's pin of then)."""


def format1_columns() -> tuple[list[str], list[str]]:
    """The names of format 1's observation and action columns, in their order."""
    obs = list(ef.columns(MODES_OF_PLAY + tuple(FORMAT1_KINDS)))
    act = [f"spend.{r}" for r in ef.RANKS] + ["kind.play", "kind.burn", "kind.word"]
    act += [f"word.{w}" for w in FIRST_ORDER]
    act += [f"after.{r}" for r in ef.RANKS]
    act += ["after.cards", "after.groups", "after.jokers", "after.only_3s", "after.out", "greedy"]
    return obs, act


def convert(old: str, new: str) -> None:
    """Write ``old`` (format 1) to ``new`` with its columns named; GoujiError if it is not format 1."""
    arrays: dict[str, Any] = read_npz(old, run_file=False)
    try:
        meta = json.loads(str(arrays["meta"]))
        net = meta["net"]
        fmt, sizes = net["format"], (net["obs_size"], net["act_size"])
    except (KeyError, TypeError, ValueError):
        raise GoujiError(f"{old}: not a weights file or checkpoint of gouji train") from None
    obs, act = format1_columns()
    if fmt != 1:
        raise GoujiError(f"{old}: format {fmt!r}, not 1: nothing to convert")
    if sizes != (len(obs), len(act)):
        raise GoujiError(f"{old}: {sizes[0]} and {sizes[1]} columns, not format 1's {len(obs)} and {len(act)}")
    meta["net"] = {**net, "format": 2, "obs_columns": obs, "act_columns": act}
    meta.setdefault("learned_kinds", sorted(PLAY_MODES))
    check_play_meta(new, meta)
    arrays["meta"] = np.array(json.dumps(meta, ensure_ascii=False))
    write_npz(new, arrays, run_file=False)


def main(argv: list[str]) -> int:
    if not argv or len(argv) % 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    try:
        for old, new in zip(argv[::2], argv[1::2], strict=True):
            convert(old, new)
            print(f"{new}: format 2, columns named")
    except GoujiError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
