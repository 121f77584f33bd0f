"""The output-path rule (issue 26 item 1): no command writes over what it must not.

Every option or argument of the ``gouji`` command tree whose type is ``OutputFile`` is found by
walking the tree, so a new output option is covered without a line here (a command that is new
needs its cheapest invocation in :data:`BASE`, and a test says so).  Each is given, in turn, each
kind of forbidden target: an input of the same command (the variant file and the file its
``extends:`` reads, or the event), another event file, any SQLite database, a WAL or journal, a
folder, a FIFO, a device, a socket, and links to those.  The command must exit 1 with one line
naming the path, leave the target exactly as it was, and leave no temporary file behind.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import socket
import sqlite3
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner

from gouji_rules.atomic import atomic_writer
from gouji_rules.cli import main
from gouji_rules.cli.common import SEED, FiniteFloat, OutputFile
from gouji_rules.outputs import OutputPathError, check_outputs, check_target

OUT, VARIANT, PARENT, EVENT, PLAYERS = "{OUT}", "{VARIANT}", "{PARENT}", "{EVENT}", "{PLAYERS}"

BASE: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "compare": (("compare", "dagang", VARIANT, "--hands", "1", "--quiet"), (VARIANT, PARENT)),
    "simulate": (("simulate", "--hands", "1", "--variant", VARIANT), (VARIANT, PARENT)),
    "review": (("review", PLAYERS, "--seat", "1", "--variant", VARIANT), (PLAYERS, VARIANT, PARENT)),  # refused first
    "train": (("train", "--out", "/nonexistent/gouji-run"), ()),  # --export: refused before the run is read
    "edit": (("edit", OUT), ()),  # the file it edits is its output: refused before anything is served
    "event standings": (("event", "standings", EVENT), (EVENT,)),
    "event export": (("event", "export", EVENT), (EVENT,)),
    "event new": (
        ("event", "new", OUT, "--name", "e", "--players", PLAYERS, "--variant", VARIANT),
        (PLAYERS, VARIANT, PARENT),
    ),
}
"""Each command that writes: its cheapest invocation, and the inputs it reads (forbidden as outputs)."""


def _walk(cmd: click.Command, ctx: click.Context, path: tuple[str, ...] = ()) -> Iterator[tuple[str, click.Command]]:
    if isinstance(cmd, click.Group):
        for name in cmd.list_commands(ctx):
            sub = cmd.get_command(ctx, name)
            assert sub is not None, name
            yield from _walk(sub, click.Context(sub, parent=ctx, info_name=name), (*path, name))
    else:
        yield " ".join(path), cmd


def commands() -> list[tuple[str, click.Command]]:
    return list(_walk(main, click.Context(main, info_name="gouji")))


def output_params() -> list[tuple[str, click.Parameter]]:
    return [(name, p) for name, cmd in commands() for p in cmd.params if isinstance(p.type, OutputFile)]


def test_every_command_that_writes_is_in_the_walk() -> None:
    found = {name for name, _ in output_params()}
    assert found == set(BASE), f"commands with an output option but no BASE invocation: {found - set(BASE)}"
    assert {"compare", "simulate", "event standings", "event export", "event new"} <= found


def test_every_option_that_writes_a_file_has_the_output_type() -> None:
    """An option whose help says it writes must be an OutputFile, or the rule would skip it."""
    for name, cmd in commands():
        for p in cmd.params:
            help_text = (getattr(p, "help", None) or "").lower()
            is_flag = getattr(p, "is_flag", False)
            says = help_text.startswith(("write", "save")) or any(w in help_text for w in (" write to ", " save to "))
            # a run folder (gouji train --out) is written file by file, atomically, inside the folder it names
            named = bool({"-o", "--output", "--out", "--save"} & set(p.opts)) and not help_text.startswith("run folder")
            if not is_flag and (says or named):
                assert isinstance(p.type, OutputFile), f"gouji {name} {p.opts}: writes a file but is not OUTPUT"


def test_every_float_option_is_finite_and_every_seed_is_64_bits() -> None:
    for name, cmd in commands():
        for p in cmd.params:
            if isinstance(p.type, (click.types.FloatParamType, click.FloatRange)):
                assert isinstance(p.type, FiniteFloat), f"gouji {name} {p.opts}: nan/inf would pass"
            if p.name == "seed":
                assert p.type is SEED, f"gouji {name} --seed: not the shared 0..2**64-1 seed"


# -- the forbidden targets -----------------------------------------------------------------------


def _event(path: Path, players: Path) -> None:
    r = CliRunner().invoke(main, ["event", "new", str(path), "--name", "e", "--players", str(players), "--hands", "1"])
    assert r.exit_code == 0, r.output


def _db(path: Path) -> None:
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE t (x)")
    con.commit()
    con.close()


@pytest.fixture(scope="module")
def place() -> Iterator[dict[str, Path]]:
    """Inputs and forbidden targets; a short folder, so that a socket's path fits in sun_path."""
    d = Path(tempfile.mkdtemp(prefix="gout", dir="/tmp" if os.path.isdir("/tmp") else None))
    k: dict[str, Path] = {}
    k["PARENT"] = d / "parent.yaml"
    k["PARENT"].write_text("extends: dagang\ntitle: parent\n", encoding="utf-8")
    k["VARIANT"] = d / "club.yaml"
    k["VARIANT"].write_text("extends: parent.yaml\ntitle: club\n", encoding="utf-8")
    k["PLAYERS"] = d / "players.csv"
    k["PLAYERS"].write_text("name\n" + "".join(f"p{i}\n" for i in range(6)), encoding="utf-8")
    k["EVENT"] = d / "event.sqlite"
    _event(k["EVENT"], k["PLAYERS"])
    k["other_event"] = d / "other.sqlite"
    _event(k["other_event"], k["PLAYERS"])
    k["database"] = d / "plain.db"
    _db(k["database"])
    k["wal"] = d / "copied-wal.bin"
    k["wal"].write_bytes(b"\x37\x7f\x06\x82" + bytes(28))
    k["journal"] = d / "copied.journal"
    k["journal"].write_bytes(b"\xd9\xd5\x05\xf9\x20\xa1\x63\xd7" + bytes(24))
    k["wal_beside"] = d / "plain.db-wal"
    k["wal_beside"].write_bytes(b"")  # a checkpointed WAL is empty: its name alone tells
    k["folder"] = d / "folder"
    k["folder"].mkdir()
    (k["folder"] / "kept").write_text("x", encoding="utf-8")
    k["fifo"] = d / "fifo"
    os.mkfifo(k["fifo"])
    k["device"] = d / "null"
    try:
        os.mknod(k["device"], 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    except (PermissionError, OSError):
        k["device"] = Path("/dev/null")  # not root: /dev cannot be written over either
    k["socket"] = d / "sock"
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.bind(str(k["socket"]))
    for target in ("folder", "fifo", "device", "socket", "other_event", "EVENT", "VARIANT"):
        link = d / f"link_to_{target}"
        link.symlink_to(k[target])
        k[f"link_to_{target}"] = link
    k["dangling"] = d / "dangling"
    k["dangling"].symlink_to(d / "nothing" / "here")
    k["too_long"] = d / ("n" * 300)
    k["no_folder"] = d / "no" / "such" / "out.csv"
    k["dev_stdout"] = Path("/dev/stdout")  # whatever stdout is: a pipe, a terminal, or a file it would replace
    k["proc_fd"] = Path(f"/proc/{os.getpid()}/fd/1")
    yield k
    s.close()
    shutil.rmtree(d)


FORBIDDEN = (
    "other_event",
    "database",
    "wal",
    "journal",
    "wal_beside",
    "folder",
    "fifo",
    "device",
    "socket",
    "link_to_folder",
    "link_to_fifo",
    "link_to_device",
    "link_to_socket",
    "link_to_other_event",
    "link_to_EVENT",
    "dangling",
    "too_long",
    "no_folder",
    "dev_stdout",
    "proc_fd",
)


def _state(p: Path) -> Any:
    """Everything about a path that a write could change."""
    try:
        st = os.lstat(p)
    except OSError:  # missing, or a name the system refuses: nothing there to change
        return None
    out: list[Any] = [stat.S_IFMT(st.st_mode), st.st_ino, st.st_rdev, st.st_mtime_ns]
    if stat.S_ISLNK(st.st_mode):
        out.append(os.readlink(p))
    elif stat.S_ISREG(st.st_mode):
        out.append(p.read_bytes())
    elif stat.S_ISDIR(st.st_mode):
        out.append(sorted(os.listdir(p)))
    return out


def _cases() -> Iterator[Any]:
    for name, param in output_params():
        opt = param.opts[0]
        inputs = BASE.get(name, ((), ()))[1]
        own = [f"input:{i.strip('{}')}" for i in inputs]
        if VARIANT in inputs:
            own.append("input:link_to_VARIANT")
        for kind in (*FORBIDDEN, *own):
            yield pytest.param(name, opt, kind, id=f"{name}-{opt}-{kind}")


@pytest.mark.parametrize(("command", "opt", "kind"), list(_cases()))
def test_an_output_is_never_a_forbidden_path(command: str, opt: str, kind: str, place: dict[str, Path]) -> None:
    target = place[kind.split(":", 1)[1]] if kind.startswith("input:") else place[kind]
    args, _ = BASE[command]
    params = {p.opts[0]: p for n, p in output_params() if n == command}
    subs = {VARIANT: place["VARIANT"], PARENT: place["PARENT"], EVENT: place["EVENT"], PLAYERS: place["PLAYERS"]}
    argv = [str(subs.get(a, a)) for a in args]
    if isinstance(params[opt], click.Argument):
        argv = [str(target) if a == OUT else a for a in argv]
    else:
        argv += [opt, str(target)]
    watched = [target, *subs.values(), target.parent]
    before = {str(p): _state(p) for p in watched}
    if os.path.islink(target):
        before["resolved"] = _state(Path(os.path.realpath(target)))
    r = CliRunner().invoke(main, argv)
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    assert r.exit_code == 1, f"gouji {' '.join(argv)}: exit {r.exit_code}\n{r.output}"
    message = [line for line in r.output.splitlines() if line.strip()]
    assert len(message) == 1 and str(target)[:40] in message[0], r.output
    assert "Traceback" not in r.output
    after = {str(p): _state(p) for p in watched}
    if os.path.islink(target):
        after["resolved"] = _state(Path(os.path.realpath(target)))
    assert after == before, f"gouji {' '.join(argv)} changed {target}"


# -- what may be written, and how ----------------------------------------------------------------


def test_an_output_through_a_link_writes_the_file_it_names_and_keeps_the_link(tmp_path: Path) -> None:
    real = tmp_path / "real.jsonl"
    real.write_text("old\n", encoding="utf-8")
    link = tmp_path / "link.jsonl"
    link.symlink_to(real)
    r = CliRunner().invoke(main, ["simulate", "--hands", "2", "--records", str(link)])
    assert r.exit_code == 0, r.output
    assert link.is_symlink() and os.readlink(link) == str(real)
    lines = real.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 3 and all("deal" in json.loads(line) for line in lines[1:])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.jsonl", "real.jsonl"]


def test_an_output_written_over_keeps_its_permissions(tmp_path: Path) -> None:
    out = tmp_path / "standings.txt"
    out.write_text("old", encoding="utf-8")
    out.chmod(0o600)
    with atomic_writer(out) as fh:
        fh.write("new")
    assert out.read_text(encoding="utf-8") == "new"
    assert stat.S_IMODE(out.stat().st_mode) == 0o600


def test_a_failed_write_leaves_the_old_file_and_no_temporary_file(tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    out.write_text("old report", encoding="utf-8")
    with pytest.raises(RuntimeError), atomic_writer(out) as fh:
        fh.write("half a new report")
        raise RuntimeError("the work failed")
    assert out.read_text(encoding="utf-8") == "old report"
    assert [p.name for p in tmp_path.iterdir()] == ["report.html"]


def test_a_full_disk_names_the_target_and_leaves_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "records.jsonl"
    out.write_text("old\n", encoding="utf-8")

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(OSError) as info, atomic_writer(out) as fh:
        fh.write("new\n")
    assert info.value.filename == str(out) and info.value.errno == errno.ENOSPC
    assert out.read_text(encoding="utf-8") == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["records.jsonl"]


@pytest.mark.parametrize("swap", ["database", "fifo", "folder", "link_to_database"])
def test_a_target_swapped_while_the_work_runs_is_refused_at_the_rename(tmp_path: Path, swap: str) -> None:
    """The race: the path is checked at the start, then becomes an event file (or a FIFO …) before the end."""
    out = tmp_path / "out.csv"
    elsewhere = tmp_path / "event.sqlite"
    _db(elsewhere)
    db_bytes = elsewhere.read_bytes()
    with pytest.raises(OutputPathError), atomic_writer(out) as fh:
        fh.write("a,b\n")
        if swap == "database":
            shutil.copy(elsewhere, out)
        elif swap == "fifo":
            os.mkfifo(out)
        elif swap == "folder":
            out.mkdir()
        else:
            out.symlink_to(elsewhere)
    assert elsewhere.read_bytes() == db_bytes
    if swap == "database":
        assert out.read_bytes() == db_bytes
    leftovers = {p.name for p in tmp_path.iterdir()} - {"out.csv", "event.sqlite"}
    assert not leftovers


def test_a_command_checks_its_outputs_before_any_work(tmp_path: Path) -> None:
    """compare --csv DB fails at once, not after playing every deal."""
    db = tmp_path / "event.sqlite"
    _db(db)
    r = CliRunner().invoke(main, ["compare", "dagang", "dianshaomenla", "--hands", "100000", "--csv", str(db)])
    assert r.exit_code == 1 and "SQLite database" in r.output


def test_two_options_naming_one_file_are_refused(tmp_path: Path, place: dict[str, Path]) -> None:
    out = tmp_path / "both.txt"
    r = CliRunner().invoke(main, ["event", "export", str(place["EVENT"]), "--results", str(out), "--audit", str(out)])
    assert r.exit_code == 1 and "named as an output twice" in r.output
    assert not out.exists()


def test_check_outputs_compares_by_file_identity(tmp_path: Path) -> None:
    src = tmp_path / "club.yaml"
    src.write_text("extends: dagang\n", encoding="utf-8")
    hard = tmp_path / "hard.yaml"
    os.link(src, hard)
    for alias in (hard, tmp_path / "." / "club.yaml", tmp_path / "sub" / ".." / "club.yaml"):
        (tmp_path / "sub").mkdir(exist_ok=True)
        with pytest.raises(OutputPathError, match="also an input"):
            check_outputs([alias], [src])
    assert check_target(tmp_path / "new.txt") == str(tmp_path / "new.txt")


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="making another user's link needs root")
def test_a_link_another_user_made_in_a_shared_folder_is_not_followed(tmp_path: Path) -> None:
    """/tmp's rule (the kernel's protected_symlinks): the link could aim the output at a file of its maker's choice."""
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o1777)
    victim = tmp_path / "victim.txt"
    victim.write_text("precious", encoding="utf-8")
    link = shared / "out.csv"
    link.symlink_to(victim)
    os.lchown(link, 12345, 12345)
    with pytest.raises(OutputPathError, match="another user"):
        check_target(link)
    assert victim.read_text(encoding="utf-8") == "precious"
    os.lchown(link, os.geteuid(), os.getegid())
    assert check_target(link) == str(victim)


def test_train_never_exports_over_the_runs_own_checkpoints(tmp_path: Path) -> None:
    run = tmp_path / "run"
    run.mkdir()
    for name in ("best.npz", "checkpoint.npz"):
        (run / name).write_bytes(b"weights")
        r = CliRunner().invoke(main, ["train", "--out", str(run), "--export", str(run / name)])
        assert r.exit_code == 1, r.output
        assert (run / name).read_bytes() == b"weights"
