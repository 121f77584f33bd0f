"""The installed package must carry every subpackage and the shipped data files."""

import fnmatch
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_subpackage_is_listed_in_pyproject() -> None:
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {
        ".".join(p.parent.relative_to(ROOT).parts)
        for p in (ROOT / "gouji_rules").rglob("__init__.py")
        if "__pycache__" not in p.parts
    }
    assert found <= listed, f"add to [tool.setuptools] packages: {sorted(found - listed)}"


def test_every_data_file_in_the_package_is_listed_in_pyproject() -> None:
    """A template, stylesheet, script or weights file not matched by package-data would be missing
    from the wheel (`pip install .`) while the editable install, which the tests use, still has it."""
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    missing = []
    for p in (ROOT / "gouji_rules").rglob("*"):
        if not p.is_file() or p.suffix in (".py", ".pyc", ".so") or "__pycache__" in p.parts:
            continue
        rel = p.relative_to(ROOT)
        package = ".".join(rel.parent.parts)
        while package and not any(
            fnmatch.fnmatch(str(rel.relative_to(Path(*package.split(".")))), pattern)
            for pattern in data.get(package, [])
        ):
            package = package.rpartition(".")[0]
        if not package:
            missing.append(str(rel))
    assert missing == []
