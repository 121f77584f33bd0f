"""Build hook: compile the engine core with mypyc when a C compiler is at hand, else stay pure Python.

``pip install .`` compiles the modules in :data:`CORE` (the referee's hot path) with mypyc; the
compiled and pure builds play byte-identical games (``.ci/run`` checks).  Pure Python is installed
instead when ``GOUJI_PURE_PYTHON=1`` is set at build time, for an editable install (so edits to
the sources take effect), and whenever mypyc or the C compiler fails: a failed compile never fails
the install.  The CLI, the DSL, the phases and hooks stay interpreted.
"""

from __future__ import annotations

import os
import shutil
import sys
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

CORE = [
    *(f"game/{m}" for m in ("cards", "seats", "rng", "actions", "events", "legal")),
    "play/observe",
    "rules/beat",
    *(f"rules/{m}" for m in ("__init__", "base", "sets", "play", "burn", "points", "declare", "tribute", "scoring")),
    "play/engine",
    "play/agents",
    "sim",
]
"""The compiled modules, as paths below ``gouji_rules/`` without ``.py``."""


def _say(msg: str) -> None:
    print(f"gouji_rules build: {msg}", file=sys.stderr)


class OptionalBuildExt(build_ext):
    """build_ext that drops every compiled module (pure Python remains) when any fails to build."""

    def run(self) -> None:
        if getattr(self, "editable_mode", False) or self.inplace:
            _say("editable install: pure Python (the compiled core is built by `pip install .`)")
            return
        try:
            super().run()
        except Exception as e:  # a compiler error, a missing header: fall back, never fail the install
            _say(f"compiling failed ({e}); installing pure Python")
            for path in self.get_outputs():
                if os.path.exists(path):
                    os.remove(path)
            if self.build_temp and os.path.isdir(self.build_temp):
                shutil.rmtree(self.build_temp, ignore_errors=True)

    def get_outputs(self) -> list[str]:
        return [p for p in super().get_outputs() if os.path.exists(p)] if self.extensions else []


def ext_modules() -> list[Any]:
    if os.environ.get("GOUJI_PURE_PYTHON") == "1":
        _say("GOUJI_PURE_PYTHON=1: pure Python")
        return []
    if any(a in sys.argv for a in ("egg_info", "dist_info", "sdist", "editable_wheel")):
        return []
    try:
        from mypyc.build import mypycify

        # the build environment lacks lark, so its ignores in the (interpreted) DSL are unused there
        paths = [f"gouji_rules/{m}.py" for m in CORE]
        return list(mypycify(["--no-warn-unused-ignores", *paths], opt_level="3"))
    except BaseException as e:  # mypyc missing or the type check failed: pure Python
        _say(f"mypyc unavailable or refused the core ({e!r}); pure Python")
        return []


setup(ext_modules=ext_modules(), cmdclass={"build_ext": OptionalBuildExt})
