"""The Dask path (``sudokit.dask``) gives the rows of the local path; skipped without dask."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sudokit.batch import DatasetSpec, write_dataset
from sudokit.cli.app import main

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as c:
        yield c


def test_dask_rows_equal_local_rows(cluster: Any, tmp_path: Path) -> None:
    from sudokit import dask as sd

    spec = DatasetSpec(n=40, seed=6, augment=1, dedupe=True)
    local = tmp_path / "local.csv"
    write_dataset(local, spec, shard_rows=6)
    remote = tmp_path / "remote.csv"
    with distributed.Client(cluster) as client:
        n = write_dataset(remote, spec, mapper=sd.mapper(client, window=3), shard_rows=6)
    assert n == 80
    assert remote.read_bytes() == local.read_bytes()


def test_cli_scheduler_address(cluster: Any, tmp_path: Path) -> None:
    args = ["dataset", "-n", "20", "--size", "6", "--seed", "2", "--shard-rows", "3"]
    local, remote = tmp_path / "l.jsonl", tmp_path / "r.jsonl"
    assert main([*args, "--out", str(local)]) == 0
    assert main([*args, "--out", str(remote), "--scheduler", cluster.scheduler_address]) == 0
    assert remote.read_bytes() == local.read_bytes()


def test_unreachable_scheduler_is_a_sudoku_error() -> None:
    from sudokit import dask as sd
    from sudokit.errors import SudokuError

    with (
        pytest.raises(SudokuError, match="cannot reach"),
        sd.client("tcp://127.0.0.1:9", timeout=2),
    ):
        pass
