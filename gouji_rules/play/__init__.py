"""The hand and the match as state machines, the observation a seat sees, the simple agents and a
table's result.

Above the compiled rules (``gouji_rules.rules``), which every decision here asks; below the
tools (records, simulation, envs, compare), which play it.  This ``__init__`` imports nothing:
each module is imported by its own path.
"""
