"""tests/editor: node_modules holds the pinned yaml-language-server (npm ci), never tests."""

collect_ignore = ["node_modules"]
