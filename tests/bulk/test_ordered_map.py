"""The process pools of :mod:`sudokit.batch`: :func:`~sudokit.batch.ordered_map` (``rate --jobs``,
``solve --jobs``) and :func:`~sudokit.batch.local_mapper` (``--resume``, ``dataset``).

Both must keep their promises whatever happens to the run: input order (ordered_map), no
worker left behind when the consumer stops early, fails, or is interrupted, and no worker left
waiting forever when the parent process is killed with SIGKILL.
"""

from __future__ import annotations

import contextlib
import functools
import multiprocessing
import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from sudokit.batch import local_mapper, ordered_map

needs_proc = pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs /proc")


def _ours() -> list[multiprocessing.process.BaseProcess]:
    """Child processes other than a web app's workers: a session fixture (the browser suite's
    server) may keep its own worker processes alive for the whole run."""
    return [p for p in multiprocessing.active_children() if p.name != "sudokit-web-worker"]


def _where(item: tuple[int, float]) -> tuple[int, int]:
    """A task that says which process ran it, after *item[1]* seconds (module level: it pickles)."""
    time.sleep(item[1])
    return item[0], os.getpid()


def _nap(seconds: float) -> int:
    time.sleep(seconds)
    return os.getpid()


def _fail_on(bad: int, k: int) -> int:
    if k == bad:
        raise ArithmeticError(f"task {k} failed")
    time.sleep(0.01)
    return k


def _gone(pid: int) -> bool:
    """True when process *pid* has ended (a zombie not yet reaped has ended too)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return True
    return "\nState:\tZ" in status


def _wait_until(check: Callable[[], bool], seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


# -- order and processes ------------------------------------------------------------------------


def test_keeps_input_order_when_later_tasks_finish_first() -> None:
    # Every fifth task is slow, so later ones finish before it on the other worker.
    tasks = [(f"k{k}", (k, 0.05 if k % 5 == 0 else 0.0)) for k in range(40)]
    pooled = list(ordered_map(_where, tasks, 2))
    assert [key for key, _ in pooled] == [key for key, _ in tasks]
    assert [v[0] for _, v in pooled] == list(range(40))
    pids = {pid for _, (_, pid) in pooled}
    assert os.getpid() not in pids  # the work ran elsewhere...
    assert len(pids) == 2  # ...on both workers
    assert _ours() == []  # and the pool is gone once done


def _pulled_tasks(count: int, pulled: list[int]) -> Iterator[tuple[int, tuple[int, float]]]:
    """*count* tasks for :func:`_where`, each noted in *pulled* when it is taken."""
    for k in range(count):
        pulled.append(k)
        yield k, (k, 0.0)


def test_one_job_runs_inline_and_reads_lazily() -> None:
    pulled: list[int] = []
    results = ordered_map(_where, _pulled_tasks(5, pulled), 1)
    assert pulled == []  # nothing read before the first result is asked for
    assert next(results) == (0, (0, os.getpid()))
    assert pulled == [0]
    assert list(results) == [(k, (k, os.getpid())) for k in range(1, 5)]


def test_bounded_window_reads_input_lazily() -> None:
    """At most 2 * jobs + 1 tasks are taken from the input ahead of the consumer."""
    pulled: list[int] = []
    results = ordered_map(_where, _pulled_tasks(1000, pulled), 2)
    assert next(results)[0] == 0
    assert len(pulled) == 2 * 2 + 1
    results.close()


def test_bad_arguments_are_refused_at_once() -> None:
    with pytest.raises(ValueError, match="jobs"):
        ordered_map(abs, [], -1)
    with pytest.raises(TypeError, match="must pickle"):
        ordered_map(lambda x: x, [(0, 1)], 2)  # before any task is read or process started
    with pytest.raises(TypeError, match="must pickle"):
        list(local_mapper(2)(lambda x: x, [(0, 1)]))
    assert _ours() == []


def test_no_tasks_starts_no_pool() -> None:
    assert list(ordered_map(_nap, [], 2)) == []
    assert list(local_mapper(2)(_nap, [])) == []
    assert _ours() == []


# -- stopping early -----------------------------------------------------------------------------


@needs_proc
def test_closed_early_terminates_the_workers_without_waiting() -> None:
    """Ctrl-C or a closed pipe must not wait for the chunks in flight (they can take minutes)."""
    tasks = [(0, 0.0)] + [(k, 60.0) for k in range(1, 9)]
    results = ordered_map(_nap, tasks, 2)
    _, pid = next(results)
    assert pid != os.getpid()
    started = time.monotonic()
    results.close()
    assert time.monotonic() - started < 10
    assert _ours() == []
    assert _gone(pid)


@needs_proc
def test_an_error_in_a_task_is_raised_in_order_and_ends_the_workers() -> None:
    tasks = [(k, k) for k in range(50)]
    got: list[tuple[int, int]] = []
    results = ordered_map(functools.partial(_fail_on, 7), tasks, 2)
    with pytest.raises(ArithmeticError, match="task 7 failed"):
        got.extend(results)
    assert got == [(k, k) for k in range(7)]  # every result before the failing one
    assert _ours() == []


@needs_proc
def test_local_mapper_interrupted_terminates_the_workers() -> None:
    """Issue: Ctrl-C during ``--resume`` waited for every shard in flight (51 s observed)."""
    run = local_mapper(2)(_nap, [(0, 0.0)] + [(k, 60.0) for k in range(1, 5)])
    _, pid = next(run)
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        run.throw(KeyboardInterrupt())  # what Ctrl-C does at the consumer's yield
    assert time.monotonic() - started < 10
    assert _ours() == []
    assert _gone(pid)


def test_local_mapper_finishes_every_shard() -> None:
    got = dict(local_mapper(2)(_where, [(c, (c, 0.0)) for c in range(20)]))
    assert {c: v[0] for c, v in got.items()} == {c: c for c in range(20)}
    assert _ours() == []


# -- a killed parent ----------------------------------------------------------------------------

_CHILD = """
import os, sys, time
from sudokit import batch

PIDS = sys.argv[2]

def work(k):
    with open(PIDS, "a") as f:
        f.write(f"{os.getpid()}\\n")
    time.sleep(60)
    return k

if __name__ == "__main__":
    tasks = [(k, k) for k in range(9)]
    if sys.argv[1] == "ordered_map":
        list(batch.ordered_map(work, tasks, 2))
    else:
        list(batch.local_mapper(2)(work, tasks))
"""


@needs_proc
@pytest.mark.parametrize("helper", ["ordered_map", "local_mapper"])
def test_workers_end_when_their_parent_is_killed(tmp_path: Path, helper: str) -> None:
    """A parent killed with SIGKILL leaves no worker behind, waiting forever for work."""
    script, pids_file = tmp_path / "child.py", tmp_path / "pids.txt"
    script.write_text(textwrap.dedent(_CHILD))
    proc = subprocess.Popen(
        [sys.executable, str(script), helper, str(pids_file)], start_new_session=True
    )
    try:

        def workers() -> set[int]:
            text = pids_file.read_text() if pids_file.exists() else ""
            return {int(line) for line in text.split()}

        _wait_until(lambda: len(workers()) == 2, 30, "the child's two workers never started")
        pids = workers()
        assert proc.pid not in pids
        assert not any(_gone(pid) for pid in pids)
        os.kill(proc.pid, signal.SIGKILL)  # the parent only, not its process group
        proc.wait()
        _wait_until(lambda: all(_gone(pid) for pid in pids), 5, "a worker outlived its parent")
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)  # whatever is left when the test fails
        proc.wait()
