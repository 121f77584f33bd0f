"""Do two installs of gouji play the same games?  (CI: the compiled build against the pure one.)

    python benchmarks/identity.py PURE_GOUJI COMPILED_GOUJI [--hands N]

For every shipped variant and both bots it runs ``gouji simulate --records`` and ``gouji compare
--json`` with each executable and compares the outputs byte for byte, timings stripped (keys
naming seconds or a rate).  Exit 0 when all are identical, 1 naming the first that differs.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

VARIANTS = ["dagang", "dagang_jifen", "dianshaomenla", "liufu_ying", "sha21"]
AGENTS = ["random", "greedy"]
TIMING = ("seconds", "per_second", "_ms", "elapsed", "measured_at")


def strip_timings(x: Any) -> Any:
    """The document without the keys that measure time (they differ between any two runs)."""
    if isinstance(x, dict):
        return {k: strip_timings(v) for k, v in x.items() if not any(t in k for t in TIMING)}
    if isinstance(x, list):
        return [strip_timings(v) for v in x]
    return x


def records(gouji: str, variant: str, agents: str, hands: int, out: Path) -> bytes:
    cmd = [gouji, "simulate", "--variant", variant, "--agents", agents, "--hands", str(hands)]
    subprocess.run([*cmd, "--quiet", "--records", str(out)], check=True, stdout=subprocess.DEVNULL)
    return out.read_bytes()


def compare(gouji: str, agents: str, hands: int) -> bytes:
    cmd = [gouji, "compare", *VARIANTS, "--agents", agents, "--hands", str(hands), "--json"]
    doc = json.loads(subprocess.run(cmd, check=True, capture_output=True).stdout)
    return json.dumps(strip_timings(doc), sort_keys=True).encode()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pure")
    ap.add_argument("compiled")
    ap.add_argument("--hands", type=int, default=10)
    a = ap.parse_args()
    checked = 0
    with tempfile.TemporaryDirectory() as tmp:
        for agents in AGENTS:
            for variant in VARIANTS:
                mine = records(a.pure, variant, agents, a.hands, Path(tmp, "pure.jsonl"))
                theirs = records(a.compiled, variant, agents, a.hands, Path(tmp, "compiled.jsonl"))
                if mine != theirs or not mine:
                    print(f"identity: simulate --records differs: {variant} {agents}", file=sys.stderr)
                    return 1
                checked += 1
            if compare(a.pure, agents, a.hands) != compare(a.compiled, agents, a.hands):
                print(f"identity: compare --json differs: {agents}", file=sys.stderr)
                return 1
            checked += 1
    print(f"identity: {checked} outputs byte-identical (timings stripped)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
