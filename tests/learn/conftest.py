"""Helpers shared by the learned agent's tests."""

from __future__ import annotations

import sys
from pathlib import Path


def train_cmd(out: Path, *extra: str) -> list[str]:
    """``gouji train`` as a process: a tiny net, small batches, no evaluation, a checkpoint every 0.3 s."""
    return [
        sys.executable, "-m", "gouji_rules.cli", "train", "--out", str(out), "--seed", "5", "--hidden", "16,8,8",
        "--batch", "32", "--hands-per-unit", "1", "--eval-pairs", "1", "--eval-every", "100000",
        "--checkpoint-seconds", "0.3", *extra,
    ]  # fmt: skip
