"""Issue 24 item 2: installed packages add extensions through the ``gouji_rules.extensions``
entry-point group, which ``gouji`` loads; a variant file only names what is registered.

The package here is real to ``importlib.metadata``: a module and a ``.dist-info`` folder with its
``entry_points.txt``, put on the path of a ``gouji`` run in a subprocess."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

PLUGIN = '''\
from gouji_rules.rules.beat import CardByCard, register_beat
from gouji_rules.parts.options import Option


class CardByRank:
    """card_by_card with an option of its own (to show one travels with the plugin).  It holds a
    CardByCard rather than subclassing it: the compiled core's classes cannot be subclassed."""

    name = "card_by_rank"
    zh = "逐张比大（俱乐部插件）"
    en = "card by card (a club's plugin)"
    reads = ()
    options = (Option("loud", bool, False, "大声报牌", "call each set aloud", legacy=False),)

    def __init__(self, rules, sets):
        self.inner = CardByCard(rules, sets)

    def beats(self, b, t):
        return self.inner.beats(b, t)

    def dead(self, t):
        return self.inner.dead(t)

    def followers(self, hand, t):
        return self.inner.followers(hand, t)


register_beat(CardByRank)
'''

CLUB = """\
extends: dagang
name: club
sets:
  beat: card_by_rank
  strategies:
    card_by_rank: {loud: true}
"""


def _install(root: Path, body: str = PLUGIN) -> Path:
    (root / "gouji_club_plugin").mkdir()
    (root / "gouji_club_plugin" / "__init__.py").write_text(body, encoding="utf-8")
    info = root / "gouji_club_plugin-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: gouji-club-plugin\nVersion: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("[gouji_rules.extensions]\nclub = gouji_club_plugin\n", encoding="utf-8")
    return root


def _gouji(*args: str, path: Path | None, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    if path is not None:
        env["PYTHONPATH"] = str(path)
    return subprocess.run(
        [sys.executable, "-m", "gouji_rules.cli", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=120,
        check=False,
    )


@pytest.fixture
def club(tmp_path: Path) -> Path:
    (tmp_path / "club.yaml").write_text(CLUB, encoding="utf-8")
    return tmp_path


def test_gouji_validate_knows_an_installed_plugins_strategy_and_its_option(club: Path, tmp_path: Path) -> None:
    (tmp_path / "site").mkdir()
    site = _install(tmp_path / "site")
    r = _gouji("validate", "club.yaml", path=site, cwd=club)
    assert r.returncode == 0, r.stderr
    r = _gouji("explain", "club.yaml", "--lang", "en", path=site, cwd=club)
    assert r.returncode == 0 and "call each set aloud: yes" in r.stdout, r.stderr
    r = _gouji("simulate", "--variant", "club.yaml", "--hands", "3", "--quiet", path=site, cwd=club)
    assert r.returncode == 0, r.stderr


def test_without_the_plugin_the_error_names_the_nearest_strategy(club: Path) -> None:
    r = _gouji("validate", "club.yaml", path=None, cwd=club)
    assert r.returncode == 1
    assert "card_by_rank" in r.stderr and "card_by_card" in r.stderr and "Traceback" not in r.stderr


def test_a_plugin_that_fails_to_load_is_named_without_a_traceback(club: Path, tmp_path: Path) -> None:
    (tmp_path / "site").mkdir()
    site = _install(tmp_path / "site", "raise RuntimeError('half-installed')\n")
    r = _gouji("validate", "club.yaml", path=site, cwd=club)
    assert r.returncode == 1
    assert "extension 'club'" in r.stderr and "half-installed" in r.stderr and "Traceback" not in r.stderr


def test_the_quick_look_for_extensions_agrees_with_importlib_metadata(tmp_path: Path) -> None:
    (tmp_path / "site").mkdir()
    site = _install(tmp_path / "site")
    code = (
        "from importlib import metadata\nfrom gouji_rules.parts.plugins import GROUP, may_have_extensions\n"
        "print(may_have_extensions(), bool(metadata.entry_points(group=GROUP)))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    for path, expected in ((None, "False False"), (site, "True True")):
        if path is not None:
            env["PYTHONPATH"] = str(path)
        r = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60, check=False
        )
        assert r.stdout.strip() == expected, r.stderr


def test_an_event_under_the_plugins_rules_is_played_verified_and_served(club: Path, tmp_path: Path) -> None:
    import socket
    import time
    import urllib.request

    (tmp_path / "site").mkdir()
    site = _install(tmp_path / "site")
    (club / "players.csv").write_text("name\n" + "".join(f"p{i}\n" for i in range(6)), encoding="utf-8")
    made = _gouji("event", "new", "ev.sqlite", "--name", "t", "--variant", "club.yaml", "--players", "players.csv",
                  "--rounds", "1", "--hands", "1", path=site, cwd=club)  # fmt: skip
    assert made.returncode == 0, made.stderr
    entered = _gouji("event", "record", "ev.sqlite", "--round", "1", "--table", "1", "--hand", "1",
                     "--finish", "0 1 2 3 4 5", path=site, cwd=club)  # fmt: skip
    assert entered.returncode == 0, entered.stderr
    verified = _gouji("verify", "ev.sqlite", path=site, cwd=club)
    assert verified.returncode == 0 and "1 verified" in verified.stdout + verified.stderr, verified.stderr
    refused = _gouji("verify", "ev.sqlite", path=None, cwd=club)  # the copy names a strategy nobody registered
    assert refused.returncode == 1 and "card_by_rank" in refused.stdout + refused.stderr
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"} | {"PYTHONPATH": str(site)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "gouji_rules.cli", "event", "serve", "ev.sqlite", "--port", str(port)],
        cwd=club, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        deadline, page = time.monotonic() + 60, ""
        while time.monotonic() < deadline and not page:
            try:
                page = urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2).read().decode()
            except OSError:
                assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
                time.sleep(0.2)
        assert "p0" in page
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_the_options_table_lists_an_installed_plugins_options(tmp_path: Path) -> None:
    (tmp_path / "site").mkdir()
    site = _install(tmp_path / "site")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"} | {"PYTHONPATH": str(site)}
    r = subprocess.run(
        [sys.executable, "-m", "gouji_rules.parts.options"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert r.returncode == 0, r.stderr
    assert (
        "| `sets.strategies.card_by_rank.loud` | bool | `False` | `False` | 大声报牌 | call each set aloud |"
        in r.stdout
    )


def test_a_plugin_that_imports_the_match_at_its_top_loads_after_the_package(club: Path, tmp_path: Path) -> None:
    """A phase's module imports ``Match`` at its top (docs/extending.md's walk-through does); the
    built-in phases read the registries while ``gouji_rules.play.match`` imports them, so the extension is
    loaded on the first read after the package's imports, never into a half-made module."""
    (tmp_path / "site").mkdir()
    site = _install(tmp_path / "site", "from gouji_rules.play.match import Match  # noqa: F401\n" + PLUGIN)
    r = _gouji(
        "simulate", "--variant", "club.yaml", "--hands", "4", "--match-hands", "2", "--quiet", path=site, cwd=club
    )
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    r = subprocess.run(
        [
            sys.executable,
            "-c",
            "import gouji_rules.play.match; from gouji_rules.parts.registry import BEAT_STRATEGIES as B; "
            "print('card_by_rank' in B)",
        ],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(site)},
        cwd=club,
        timeout=120,
        check=False,
    )
    assert r.returncode == 0 and r.stdout.strip() == "True", r.stderr
