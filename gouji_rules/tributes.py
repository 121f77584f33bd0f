"""Moved to :mod:`gouji_rules.rules.tributes` (issue 31 item 4): this old path warns and will be removed.

A shim, not compiled: importing it warns ``DeprecationWarning`` once and hands over the moved
module itself, so ``gouji_rules.tributes is gouji_rules.rules.tributes`` and pickles naming it still load.
"""

from __future__ import annotations

import sys
import warnings
from typing import TYPE_CHECKING

from gouji_rules.rules import tributes as _moved

if TYPE_CHECKING:
    from gouji_rules.rules.tributes import *  # noqa: F403

warnings.warn(
    "gouji_rules.tributes moved to gouji_rules.rules.tributes; import it from there", DeprecationWarning, stacklevel=2
)
sys.modules[__name__] = _moved
