"""A run folder is data, and a run survives what is done to it: links, FIFOs, killed workers, a
killed parent, a full disk, NaN.  Each case runs ``gouji train`` as a user would and checks the
one-line error, the exit code, what is left on disk and that no process outlives the run."""

import json
import os
import resource
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from gouji_rules.learn.checkpoint import load
from gouji_rules.learn.train import NonFiniteUpdate, TrainConfig, Trainer, export

from .conftest import train_cmd

TINY = (16, 8, 8)
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc, FIFOs and RLIMIT_FSIZE")


def _run(out, *extra: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run(train_cmd(out, *extra), capture_output=True, text=True, timeout=120, **kw)


def _one_line_error(r: subprocess.CompletedProcess) -> str:
    lines = [x for x in r.stderr.splitlines() if x.strip()]
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    return lines[-1]


def _children(pid: int) -> list[int]:
    kids = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat") as fh:
                    fields = fh.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid and fields[0] != "Z":
                kids.append(int(name))
    return kids


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _workers(pid: int) -> list[int]:
    """The run's self-play workers: its children but multiprocessing's resource tracker."""
    found = []
    for kid in _children(pid):
        try:
            with open(f"/proc/{kid}/cmdline", "rb") as fh:
                if b"resource_tracker" not in fh.read():
                    found.append(kid)
        except OSError:
            pass
    return found


def _start(out, *extra: str) -> tuple[subprocess.Popen, list[int]]:
    """A run with two workers, once its first checkpoint is written and both workers are up."""
    proc = subprocess.Popen(train_cmd(out, "--workers", "2", "--seconds", "300", *extra), stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        workers = _workers(proc.pid)
        if len(workers) == 2 and (out / "checkpoint.npz").exists():
            return proc, workers
        assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
        time.sleep(0.2)
    proc.kill()
    raise AssertionError("the run did not start two workers and a checkpoint in 120 s")


def _gone(pids: list[int], seconds: float = 10) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and any(_alive(p) for p in pids):
        time.sleep(0.1)
    return not any(_alive(p) for p in pids)


def test_a_killed_worker_ends_the_run_within_seconds_keeping_its_checkpoint_and_it_resumes(tmp_path) -> None:
    out = tmp_path / "run"
    proc, workers = _start(out)
    os.kill(workers[0], signal.SIGKILL)
    try:
        _, err = proc.communicate(timeout=15)  # the old pool hung here past --seconds and a kill
        orphans = not _gone(workers)  # the other worker too
    finally:
        proc.kill()
        for pid in workers:  # a failing run's orphans are not left behind on the machine
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
    lines = [x for x in err.decode().splitlines() if x.strip()]
    assert proc.returncode == 1 and "Traceback" not in err.decode(), err.decode()
    assert f"self-play worker {workers[0]} was killed by SIGKILL" in lines[-1]
    assert f"checkpoint kept in {out} (" in lines[-1]
    assert not orphans, "a worker outlived the run"
    saved = load(out / "checkpoint.npz")[1]
    r = _run(out, "--decisions", str(saved["decisions"] + 200))
    assert r.returncode == 0 and f"resuming {out}: {saved['decisions']:,} decisions" in r.stderr, r.stderr


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_no_worker_outlives_a_killed_run(tmp_path, sig) -> None:
    proc, workers = _start(tmp_path / "run")
    proc.send_signal(sig)
    try:
        _, err = proc.communicate(timeout=60)
        assert _gone(workers), "a worker outlived the run"
    finally:
        for pid in workers:  # a failing run's orphans are not left behind on the machine
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
        proc.kill()
    if sig == signal.SIGTERM:
        assert proc.returncode == 130 and b"checkpoint kept in" in err


def test_a_fifo_in_the_run_folder_is_refused_without_hanging(tmp_path) -> None:
    for name in ("checkpoint.npz", "log.jsonl", "best.npz"):
        out = tmp_path / name.split(".")[0]
        out.mkdir()
        os.mkfifo(out / name)
        line = _one_line_error(_run(out, "--decisions", "100"))
        assert line == f"error: {out / name}: is a pipe (FIFO), not a file; a run folder holds only its own files"


def test_a_link_in_the_run_folder_is_refused_and_what_it_names_is_untouched(tmp_path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("mine\n")
    for name in ("log.jsonl", "checkpoint.npz", "best.npz"):
        out = tmp_path / name.split(".")[0]
        out.mkdir()
        (out / name).symlink_to(victim)
        line = _one_line_error(_run(out, "--decisions", "100"))
        assert line == f"error: {out / name}: is a symbolic link; a run folder's files are never links (remove it)"
    assert victim.read_text() == "mine\n"


def test_the_log_is_appended_only_to_a_file_of_the_folder(tmp_path) -> None:
    """A link planted while the run is going (after its start was checked) is still not followed."""
    t = Trainer(_config(tmp_path, eval_every=5))
    victim = tmp_path / "victim.txt"
    victim.write_text("mine\n")
    (tmp_path / "log.jsonl").symlink_to(victim)
    from gouji_rules.learn.runfiles import RunFileError

    with pytest.raises(RunFileError, match="is a symbolic link"):
        t.run(max_decisions=1500)
    assert victim.read_text() == "mine\n"


def _config(out, **kw) -> TrainConfig:
    base = dict(
        variant="dagang", out=str(out), seed=3, hands_per_unit=1, batch=32, buffer=2000, hidden=TINY,
        eval_every=100000, eval_pairs=1, checkpoint_seconds=0.5,
    )  # fmt: skip
    base.update(kw)
    return TrainConfig(**base)


def test_a_full_disk_names_the_file_and_keeps_the_checkpoint_before(tmp_path) -> None:
    out = tmp_path / "run"
    assert _run(out, "--decisions", "200").returncode == 0
    before = (out / "checkpoint.npz").read_bytes()

    def small_files() -> None:  # a file-size limit: writes past it fail with EFBIG, "File too large"
        resource.setrlimit(resource.RLIMIT_FSIZE, (20_000, 20_000))

    r = subprocess.run(
        train_cmd(out, "--decisions", "600"), capture_output=True, text=True, timeout=120, preexec_fn=small_files
    )
    line = _one_line_error(r)
    assert line.startswith(f"error: {out / 'checkpoint.npz'}: cannot be written (File too large)"), r.stderr
    assert (out / "checkpoint.npz").read_bytes() == before
    assert sorted(p.name for p in out.iterdir()) == ["checkpoint.npz"]  # no temporary file left


def test_a_non_finite_update_stops_the_run_and_writes_nothing_of_it(tmp_path) -> None:
    t = Trainer(_config(tmp_path))
    t.run(max_decisions=300)
    good = (tmp_path / "checkpoint.npz").read_bytes()
    t = Trainer(_config(tmp_path, lr=1e39))  # one Adam step of this size overflows float32
    with pytest.raises(NonFiniteUpdate, match=r"made .* non-finite \(NaN or inf; try a smaller --lr\)"):
        t.run(max_decisions=5000)
    assert (tmp_path / "checkpoint.npz").read_bytes() == good
    r = _run(tmp_path / "new", "--lr", "1e39", "--decisions", "5000")
    line = _one_line_error(r)
    assert "non-finite" in line and line.endswith(f"no checkpoint was written in {tmp_path / 'new'} yet")
    assert "checkpoint kept" not in r.stderr


def test_resuming_a_checkpoint_of_nan_exits_1_naming_it(tmp_path) -> None:
    out = tmp_path / "run"
    assert _run(out, "--decisions", "200").returncode == 0
    with np.load(out / "checkpoint.npz") as z:
        arrays = {k: z[k] for k in z.files}
    np.savez(
        out / "checkpoint.npz",
        **{k: (np.full_like(v, np.nan) if v.dtype.kind == "f" else v) for k, v in arrays.items()},
    )
    line = _one_line_error(_run(out, "--decisions", "400"))
    assert line.startswith(f"error: {out / 'checkpoint.npz'}: ") and "not finite" in line


def test_export_never_opens_a_path_found_in_the_run(tmp_path) -> None:
    t = Trainer(_config(tmp_path / "run"))
    t.checkpoint()
    secret = tmp_path / "secret.txt"
    secret.write_text("password: hunter2\n")
    with np.load(tmp_path / "run" / "checkpoint.npz") as z:
        arrays = {k: z[k] for k in z.files}
    meta = json.loads(str(arrays["meta"]))
    for variant in ("club", "dagang"):  # a foreign club run, and one that names a shipped variant
        meta.update(variant=variant, variant_source=str(secret))
        meta.pop("variant_hash", None)
        np.savez(tmp_path / "run" / "best.npz", **{**arrays, "meta": np.array(json.dumps(meta))})
        r = _run(tmp_path / "run", "--export", str(tmp_path / "w.npz"), "--margins", "0")
        assert "hunter2" not in r.stdout + r.stderr
        if variant == "club":
            assert "not a shipped variant: give its file with --variant" in _one_line_error(r)
        else:
            assert r.returncode == 0, r.stderr
    club = tmp_path / "club.yaml"
    club.write_text("extends: dagang\nname: club\n", encoding="utf-8")
    meta.update(variant="club")
    np.savez(tmp_path / "run" / "best.npz", **{**arrays, "meta": np.array(json.dumps(meta))})
    got = export(tmp_path / "run", tmp_path / "w2.npz", margins=(0.0,), pairs=1, variant=str(club))
    assert got["margin"] == 0.0 and "margin_choice" in got


def test_a_second_run_in_the_same_folder_is_refused_while_the_first_runs(tmp_path) -> None:
    from gouji_rules.learn.runfiles import RunFileError, folder_lock

    first = Trainer(_config(tmp_path))
    first.checkpoint()
    before = (tmp_path / "checkpoint.npz").read_bytes()
    second = Trainer(_config(tmp_path))
    with folder_lock(tmp_path), pytest.raises(RunFileError, match="another gouji train is running in this folder"):
        second.run(max_decisions=300)  # while the first run holds the folder
    assert (tmp_path / "checkpoint.npz").read_bytes() == before
    assert Trainer(_config(tmp_path)).run(max_decisions=300).decisions >= 300  # free again


def test_a_run_whose_folder_was_moved_writes_nothing_into_the_new_folder_at_its_path(tmp_path) -> None:
    """A run folder moved aside while its run goes on, and a new run started at the same path: the
    first run stops at its next write instead of overwriting the second's checkpoint and log."""
    from gouji_rules.learn.runfiles import RunFileError, folder_lock

    run, aside = tmp_path / "run", tmp_path / "aside"
    first = Trainer(_config(run))
    moved = []

    def move(_p) -> None:  # type: ignore[no-untyped-def]
        if not moved:
            run.rename(aside)
            run.mkdir()
            (run / "log.jsonl").write_text("the new run's\n", encoding="utf-8")
            moved.append(True)

    with pytest.raises(RunFileError, match="moved or replaced"):
        first.run(max_decisions=300, progress=move)
    assert sorted(p.name for p in run.iterdir()) == ["log.jsonl"]
    assert (run / "log.jsonl").read_text(encoding="utf-8") == "the new run's\n"
    with folder_lock(run) as held:  # the new folder is free, and held where it is
        assert held()
