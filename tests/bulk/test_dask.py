"""The Dask path (``sudokit.dask``) gives the rows of the local path; skipped without dask.

Clusters are started in a child process (its own session) under a time limit, so a cluster
that fails to come up on a loaded machine fails the test instead of hanging the run.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from sudokit.batch import DatasetSpec, write_dataset

pytest.importorskip("distributed")

LIMIT_S = 180

_SCRIPT = textwrap.dedent(
    """
    import sys
    import distributed
    from sudokit import dask as sd
    from sudokit.batch import DatasetSpec, write_dataset
    from sudokit.cli.app import main

    api_out, cli_out = sys.argv[1:]
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster, distributed.Client(cluster) as client:
        spec = DatasetSpec(n=40, seed=6, augment=1, dedupe=True)
        write_dataset(api_out, spec, mapper=sd.mapper(client, window=3), shard_rows=6)
        args = ["dataset", "-n", "20", "--size", "6", "--seed", "2", "--shard-rows", "3"]
        sys.exit(main([*args, "--out", cli_out, "--scheduler", cluster.scheduler_address]))
    """
)


def _bounded(cmd: list[str]) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "SUDOKIT_NO_PROGRESS": "1"}
    proc = subprocess.Popen(
        cmd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        out, err = proc.communicate(timeout=LIMIT_S)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail(f"the Dask run did not finish within {LIMIT_S} s: {' '.join(cmd[:4])}")
    return subprocess.CompletedProcess(cmd, proc.returncode, out, err)


@pytest.mark.slow
def test_dask_rows_equal_local_rows(tmp_path: Path) -> None:
    api, cli = tmp_path / "api.csv", tmp_path / "cli.jsonl"
    done = _bounded([sys.executable, "-c", _SCRIPT, str(api), str(cli)])
    assert done.returncode == 0, done.stderr[-2000:]
    local = tmp_path / "local.csv"
    assert write_dataset(local, DatasetSpec(n=40, seed=6, augment=1, dedupe=True)) == 80
    assert api.read_bytes() == local.read_bytes()
    local_cli = tmp_path / "local.jsonl"
    write_dataset(local_cli, DatasetSpec(n=20, seed=2, size=6), fmt="jsonl")
    assert cli.read_bytes() == local_cli.read_bytes()


@pytest.mark.slow
def test_cli_local_cluster(tmp_path: Path) -> None:
    out = tmp_path / "d.csv"
    args = ["-n", "12", "--size", "4", "--seed", "5", "--shard-rows", "2"]
    cmd = [sys.executable, "-m", "sudokit", "dataset", *args, "--out", str(out)]
    done = _bounded([*cmd, "--scheduler", "local", "--jobs", "2"])
    assert done.returncode == 0, done.stderr[-2000:]
    local = tmp_path / "l.csv"
    write_dataset(local, DatasetSpec(n=12, seed=5, size=4))
    assert out.read_bytes() == local.read_bytes()


@pytest.mark.slow
def test_unreachable_scheduler_is_a_sudoku_error() -> None:
    from sudokit import dask as sd
    from sudokit.errors import SudokuError

    with (
        pytest.raises(SudokuError, match="cannot reach"),
        sd.client("tcp://127.0.0.1:9", timeout=2),
    ):
        pass
