"""Doctest collection of the package (``--doctest-modules``) passes over the modules whose optional
library is not installed: importing ``gouji_rules.env.openspiel`` needs ``open_spiel``; and over the
old flat paths (``gouji_rules.engine`` …), shims that only warn and hold no doctest."""

import importlib.util

from gouji_rules.parts.layers import MOVED

collect_ignore = [] if importlib.util.find_spec("pyspiel") else ["gouji_rules/env/openspiel.py"]
collect_ignore += [f"gouji_rules/{old}.py" for old in MOVED]
