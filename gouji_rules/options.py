"""Moved to :mod:`gouji_rules.parts.options` (issue 31 item 4): this old path warns and will be removed.

A shim, not compiled: importing it warns ``DeprecationWarning`` once and hands over the moved
module itself, so ``gouji_rules.options is gouji_rules.parts.options`` and pickles naming it still load.
"""

from __future__ import annotations

import sys
import warnings
from typing import TYPE_CHECKING

from gouji_rules.parts import options as _moved

if TYPE_CHECKING:
    from gouji_rules.parts.options import *  # noqa: F403

warnings.warn(
    "gouji_rules.options moved to gouji_rules.parts.options; import it from there", DeprecationWarning, stacklevel=2
)
if __name__ == "__main__":  # ``python -m gouji_rules.options``, the command before the move, still prints
    print("gouji_rules.options moved: run python -m gouji_rules.parts.options", file=sys.stderr)
    _moved.main()
else:
    sys.modules[__name__] = _moved
