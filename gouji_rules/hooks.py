"""Moved to :mod:`gouji_rules.parts.hooks` (issue 31 item 4): this old path warns and will be removed.

A shim, not compiled: importing it warns ``DeprecationWarning`` once and hands over the moved
module itself, so ``gouji_rules.hooks is gouji_rules.parts.hooks`` and pickles naming it still load.
"""

from __future__ import annotations

import sys
import warnings
from typing import TYPE_CHECKING

from gouji_rules.parts import hooks as _moved

if TYPE_CHECKING:
    from gouji_rules.parts.hooks import *  # noqa: F403

warnings.warn(
    "gouji_rules.hooks moved to gouji_rules.parts.hooks; import it from there", DeprecationWarning, stacklevel=2
)
if __name__ == "__main__":  # ``python -m gouji_rules.hooks``, the command before the move, still prints
    print("gouji_rules.hooks moved: run python -m gouji_rules.parts.hooks", file=sys.stderr)
    _moved.main()
else:
    sys.modules[__name__] = _moved
