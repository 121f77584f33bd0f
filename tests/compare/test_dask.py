"""The same work units on a Dask cluster give the same document as a local run."""

from __future__ import annotations

import json

import click
import pytest

from .conftest import run_json, without_timing


def test_dask_local_cluster_matches_local_run(gouji: click.Group) -> None:
    distributed = pytest.importorskip("distributed")
    local = run_json(gouji, "dagang", "dianshaomenla", "--hands", "30", "--seed", "7")
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, protocol="tcp", host="127.0.0.1", dashboard_address=None
    ) as cluster:
        remote = run_json(
            gouji, "dagang", "dianshaomenla", "--hands", "30", "--seed", "7", "--scheduler", cluster.scheduler_address
        )
    assert remote["timing"]["backend"] == "dask"
    assert json.dumps(without_timing(remote)) == json.dumps(without_timing(local))


def test_unreachable_scheduler_is_a_clear_error() -> None:
    pytest.importorskip("distributed")
    from gouji_rules.compare.backends import BackendError, DaskBackend

    # a loopback port nobody listens on; a short timeout keeps the test quick
    with pytest.raises(BackendError, match="cannot reach the Dask scheduler"):
        DaskBackend("tcp://127.0.0.1:9", timeout=1.0)
