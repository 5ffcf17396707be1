"""A ``--jobs`` worker process killed mid-run: one line saying so, exit code 2, and
``--resume`` still finishes byte for byte as a plain run.

Old code: ``sudokit: internal error: BrokenProcessPool: A process in the process pool was
terminated abruptly ...``. Real processes and a real SIGKILL: the run is a child process, and
the worker killed is the one busy with the one slow line of the input (a 64x64 search that
gives up after a bound of guesses; :func:`support.pigeonhole64`), found by its CPU time.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import sudokit
from support import cpu_seconds, pigeonhole64, shards_done

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="reads /proc for the workers")

#: Guesses that keep a worker on the slow line for about a second of CPU (engines differ).
GUESSES = "60000" if sudokit.BACKEND == "c" else "400"
#: CPU seconds the busy worker has used when it is killed (past any start-up and 4x4 work).
BUSY = 0.25
FOUR = "...43...2......1"
ENV = {**os.environ, "SUDOKIT_NO_PROGRESS": "1"}


def _file(path: Path, before: int, after: int) -> Path:
    """*before* 4x4 lines, the slow 64x64 line, then *after* more 4x4 lines."""
    slow = ",".join(map(str, pigeonhole64().cells))
    path.write_text("".join(f"{line}\n" for line in [FOUR] * before + [slow] + [FOUR] * after))
    return path


def _workers(pid: int) -> list[int]:
    """The child processes of *pid* (of any of its threads)."""
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        with_children = task / "children"
        if with_children.exists():
            found += [int(c) for c in with_children.read_text().split()]
    return found


def _kill_the_busy_worker(proc: subprocess.Popen[bytes], ready: Path | None = None) -> None:
    """SIGKILL the worker of *proc* that has used :data:`BUSY` CPU seconds (once *ready*'s
    work directory records a finished shard, when given); fail after 60 s."""
    deadline = time.monotonic() + 60
    while True:
        assert proc.poll() is None, "the run ended before a worker could be killed"
        assert time.monotonic() < deadline, "no worker got busy"
        if ready is None or shards_done(ready) >= 1:
            for pid in _workers(proc.pid):
                try:
                    if cpu_seconds(pid) >= BUSY:
                        os.kill(pid, signal.SIGKILL)
                        return
                except (FileNotFoundError, ProcessLookupError):
                    continue
        time.sleep(0.02)


def _sudokit(*args: str, stdin: Path | None = None) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "sudokit", *args],
        stdin=subprocess.DEVNULL if stdin is None else stdin.open("rb"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=ENV,
    )


def test_a_killed_worker_of_solve_jobs_names_the_puzzles_lost(tmp_path: Path) -> None:
    """Records through a pipe (standard input): chunks of 1024 on worker processes, the
    first record done here; the slow line is puzzle 2500, in the chunk of puzzles 2050-3073,
    which is lost with the last one (3074-3500), in flight too."""
    src = _file(tmp_path / "in.txt", 2499, 1000)
    proc = _sudokit("solve", "--jobs", "2", "--guesses", GUESSES, "-", stdin=src)
    try:
        _kill_the_busy_worker(proc)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
        proc.wait()
    assert proc.returncode == 2
    (line,) = err.decode().splitlines()
    assert re.fullmatch(
        r"sudokit: a worker process died \(pid \d+, killed by SIGKILL\) while solving puzzles "
        r"2050-3500 \(from <stdin>:2050\); nothing from puzzle 2050 on was written",
        line,
    ), line
    assert out.decode().splitlines() == ["1234341221434321"] * 2049


def test_a_killed_worker_of_a_resumable_run_keeps_its_shards(tmp_path: Path) -> None:
    """``solve --resume``: shards of 10,000 lines; the slow line is in the second."""
    src = _file(tmp_path / "in.txt", 10_500, 100)
    out = tmp_path / "out.txt"
    parts = tmp_path / "out.txt.parts"
    args = ["solve", str(src), "-o", str(out), "--guesses", GUESSES, "--jobs", "2", "--resume"]
    proc = _sudokit(*args)
    try:
        _kill_the_busy_worker(proc, parts)
        _, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
        proc.wait()
    assert proc.returncode == 2
    assert err.decode().splitlines() == [
        f"sudokit: a worker process died (pid {_pid(err)}, killed by SIGKILL) while computing "
        f"shard 1 in {parts}; the 1 finished shard is kept: run it again with --resume"
    ]
    assert not out.exists()
    assert shards_done(parts) == 1
    resumed = subprocess.run(
        [sys.executable, "-m", "sudokit", *args], capture_output=True, env=ENV, timeout=120
    )
    plain = tmp_path / "plain.txt"
    done = subprocess.run(
        [sys.executable, "-m", "sudokit", "solve", str(src), "-o", str(plain), "-j", "2",
         "--guesses", GUESSES],
        capture_output=True, env=ENV, timeout=120,
    )  # fmt: skip
    assert resumed.returncode == done.returncode == 1  # the slow line gave up: !gave-up
    assert out.read_bytes() == plain.read_bytes()
    assert out.read_text().splitlines()[10_500] == "!gave-up"
    assert not parts.exists()


def _pid(err: bytes) -> str:
    found = re.search(rb"\(pid (\d+),", err)
    assert found is not None, err
    return found.group(1).decode()


def _dies_on_one(x: int) -> int:
    """A worker's task: task 1 kills its own process (the others wait long enough for it)."""
    if x == 1:
        os.kill(os.getpid(), signal.SIGKILL)
    time.sleep(0.5)
    return x


@pytest.mark.parametrize("name", ["ordered_map", "unordered_map"])
def test_both_maps_name_the_death_and_the_tasks_lost(name: str) -> None:
    from sudokit import parallel

    run = getattr(parallel, name)
    with pytest.raises(parallel.WorkerDied) as died:
        list(run(_dies_on_one, [(f"task {k}", k) for k in range(3)], jobs=2))
    assert re.fullmatch(r"a worker process died \(pid \d+, killed by SIGKILL\)", str(died.value))
    assert "task 1" in died.value.keys
    assert isinstance(died.value, OSError)  # reported as one line by the CLI's guard


#: A run whose pool manager thread is stuck (as when a worker dies half-way through sending a
#: result: the manager waits for the rest forever) while the other worker is killed.
STUCK_MANAGER = """
import os, signal, sys, time
from sudokit import parallel

def stall():  # runs in this process's pool manager thread, unpickling task 0's result
    time.sleep(60)

class Stalls:
    def __reduce__(self):
        return (stall, ())

def task(x):
    if x == 0:
        time.sleep(0.3)  # task 1 is on the other worker by then
        return Stalls()
    time.sleep(1.0)  # task 0's result is being unpickled by then
    os.kill(os.getpid(), signal.SIGKILL)

try:
    list(parallel.ordered_map(task, [("first", 0), ("second", 1)], jobs=2))
except parallel.WorkerDied as exc:
    print(exc, exc.keys, flush=True)
    os._exit(0)  # the stuck manager thread would hold up the interpreter's exit
"""


def test_a_death_the_pool_does_not_notice_still_ends_the_map(tmp_path: Path) -> None:
    """Old code: waited for task 0's result forever (the pool's manager, which notices dead
    workers, was stuck); now the map looks at the workers itself while it waits."""
    script = tmp_path / "stuck.py"
    script.write_text(STUCK_MANAGER)
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=30, env=ENV
    )
    assert done.returncode == 0, done.stderr
    assert re.fullmatch(
        r"a worker process died \(pid \d+, killed by SIGKILL\) \['first', 'second'\]\n",
        done.stdout,
    )
