"""``gouji bench``: how fast the engine referees, measured, never asserted by a test."""

from __future__ import annotations

import os
import platform
import time
from typing import Any

from . import catalog
from .sim import simulate


def run_bench(variant_spec: str, hands: int, seed: int) -> dict[str, Any]:
    variant = catalog.resolve(variant_spec)
    variant.rules  # compile outside the timed part  # noqa: B018
    out = simulate(variant, hands, seed, "random")
    return {
        "schema_version": 1,
        "variant": variant.name,
        "agents": "random",
        "hands": hands,
        "seed": seed,
        "decisions": out["decisions"],
        "seconds": out["seconds"],
        "hands_per_second": out["hands_per_second"],
        "decisions_per_second": out["decisions_per_second"],
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "measured_at": time.strftime("%Y-%m-%d"),
    }
