"""Doctest collection of the package (``--doctest-modules``) passes over the modules whose optional
library is not installed: importing ``gouji_rules.env.openspiel`` needs ``open_spiel``."""

import importlib.util

collect_ignore = [] if importlib.util.find_spec("pyspiel") else ["gouji_rules/env/openspiel.py"]
