"""Extensions from installed packages: the ``gouji_rules.extensions`` entry-point group.

A club's package that adds a beat strategy, a tribute kind, a declaration or a phase names the
module that registers them in its metadata::

    [project.entry-points."gouji_rules.extensions"]
    qingdao = "gouji_qingdao.rules"

The first time any registry is read (:mod:`gouji_rules.parts.registry`), every entry point of the group
is loaded: its module is imported (and, for ``module:function``, the function is called), so the
classes it registers are known to ``gouji validate``, ``explain``, ``simulate``, ``compare``,
``event``, ``serve``, the web page and the library alike.  Only installed packages are loaded:
a variant file names a registered entry, never code to import.
"""

from __future__ import annotations

import inspect
import os
import sys

from ..errors import VariantError

GROUP = "gouji_rules.extensions"


class ExtensionError(VariantError):
    """An installed extension could not be loaded (its entry point and what went wrong)."""


_state: dict[str, list[str]] = {}
_failed: list[ExtensionError] = []


def may_have_extensions() -> bool:
    """False only when no distribution on ``sys.path`` names the group in its ``entry_points.txt``.

    ``importlib.metadata`` costs ``gouji validate`` a fifth of its start (it imports ``email``,
    ``zipfile`` and ``csv``), so it is imported only when this quick look finds the group's name, or
    a path entry that is not a folder (a zip) it cannot look into."""
    needle = f"[{GROUP}]".encode()
    for entry in sys.path:
        folder = entry or "."
        try:
            names = os.listdir(folder)
        except OSError:
            if os.path.exists(folder):
                return True
            continue
        for name in names:
            if name.endswith((".dist-info", ".egg-info")):
                try:
                    with open(os.path.join(folder, name, "entry_points.txt"), "rb") as f:
                        if needle in f.read():
                            return True
                except OSError:
                    continue
    return False


def load_installed() -> list[str]:
    """Load every installed extension once; the names of their entry points, in load order.

    Raises :class:`ExtensionError` naming the entry point whose module failed to import or run, and
    again on every later call: a broken install is refused alike by every command and registry."""
    if _failed:
        raise _failed[0]
    done = _state.get("loaded")
    if done is not None:
        return list(done)
    loaded: list[str] = []
    _state["loaded"] = loaded  # set first: an extension that reads a registry does not load again
    if not may_have_extensions():
        return []
    from importlib import metadata

    for ep in sorted(metadata.entry_points(group=GROUP), key=lambda e: e.name):
        try:
            target = ep.load()
            if ep.attr and callable(target) and not inspect.isclass(target):
                target()
        except (Exception, SystemExit) as e:  # whatever a package's code raises, named with its entry point
            error = ExtensionError(
                f"extension {ep.name!r} ({ep.value}, entry point group {GROUP}) failed to load: {_describe(e)}"
            )
            _failed.append(error)
            raise error from e
        loaded.append(ep.name)
    return list(loaded)


def _describe(e: BaseException) -> str:
    """``Type: message`` of what an extension raised, even when its ``__str__`` itself raises
    (the refusal must still be one line, never a second traceback)."""
    name = getattr(type(e), "__name__", "exception")
    try:
        text = str(e)
    except Exception:  # a package's exception whose __str__ fails: say so instead of what it holds
        return f"{name} (its message cannot be printed)"
    return f"{name}: {text}" if text else name
