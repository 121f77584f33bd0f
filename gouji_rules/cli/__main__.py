"""``python -m gouji_rules.cli``: the ``gouji`` command without its script."""

from . import main

main()
