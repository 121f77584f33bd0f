"""libyaml's reading of a variant file, wherever it is surely pure PyYAML's.

Pure PyYAML, which :mod:`gouji_rules.dsl.yamlpos` reads every file with, is some ten times
slower than libyaml (PyYAML's ``CSafeLoader``).  :func:`compose` gives libyaml's node graph only
where the two read alike: never for a file with a tab, a carriage return, a byte-order mark inside
the text or a character pure PyYAML refuses, nor where an event shows an empty value or a ``?`` or
``:`` inside a flow collection, nor where libyaml fails or a limit is exceeded.  There it raises
:class:`Unsure`, and pure PyYAML reads the file again and words any error.
``tests/dsl/test_cold_start.py`` holds the two readings to each other.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator

import yaml

from ..errors import VariantErrors

try:
    from yaml import CSafeLoader
except ImportError:  # pragma: no cover - PyYAML built without libyaml
    CSafeLoader = None  # type: ignore[assignment, misc]

PURE_ONLY = re.compile("[\t\r\x85\u2028\u2029\ufeff]")
"""Characters libyaml and pure PyYAML read differently (pure PyYAML refuses tabs that libyaml
accepts; they disagree on a byte-order mark inside the text): a file with one is read by pure PyYAML."""
FLOW_PURE_ONLY = frozenset("?:#,[]{}")
"""Characters in a plain value inside ``[…]`` or ``{…}`` on which the two parsers disagree."""


class Unsure(Exception):
    """libyaml's reading might differ from pure PyYAML's here: read the file with pure PyYAML."""


def compose(text: str, check: Callable[[Iterable[yaml.Event]], None]) -> yaml.Node | None:
    """The document's node graph (aliases not expanded) as libyaml reads it, once ``check`` has passed
    its events (the checks pure PyYAML's are put through); raises :class:`Unsure` instead of any error."""
    if CSafeLoader is None or PURE_ONLY.search(text) or yaml.reader.Reader.NON_PRINTABLE.search(text):
        raise Unsure
    try:
        check(_vouched(yaml.parse(text, Loader=CSafeLoader)))
        node: yaml.Node | None = yaml.compose(text, Loader=CSafeLoader)
    except (yaml.YAMLError, VariantErrors, Unsure):
        raise Unsure from None
    return node


def _vouched(events: Iterable[yaml.Event]) -> Iterator[yaml.Event]:
    """The events, up to one that libyaml may place or accept otherwise than pure PyYAML (:class:`Unsure`)."""
    flows: list[bool] = []
    for ev in events:
        if isinstance(ev, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            flows.append(bool(ev.flow_style) or bool(flows and flows[-1]))
        elif isinstance(ev, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            flows.pop()
        elif isinstance(ev, yaml.ScalarEvent) and not ev.style:
            in_flow = bool(flows and flows[-1])
            if ev.value == "" or (in_flow and not FLOW_PURE_ONLY.isdisjoint(ev.value)):
                raise Unsure
        yield ev
