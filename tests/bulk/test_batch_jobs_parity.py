"""``generate --jobs``, ``solve --jobs`` and ``rate --jobs`` behave the same by construction.

All three (and ``--resume`` and ``dataset``) run their worker processes through
:mod:`sudokit.parallel`, so they share its rules: a pool starts only for several jobs, the
output is the bytes of one job (the same order, the same bad-record messages and exit code),
Ctrl-C ends the run and its workers at once, and workers end when their parent is killed.
These tests check each rule on each command, from the outside (CLI runs in-process with
click's CliRunner, or in a child process for signals).
"""

from __future__ import annotations

import contextlib
import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from sudokit import Grid, generate, parallel
from sudokit.cli.app import cli
from sudokit.transform import random_isomorph

needs_proc = pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs /proc")

EASTER_MONSTER = "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"
#: Bad records of every kind, spread through the input: unreadable, conflicting givens, no
#: solution, several solutions, a byte that is not UTF-8, a comment and a blank line.
BAD = ["not a puzzle", "11..............", "......34...23...", "..34..1...4..3.1", "\udcff bad"]


def _run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


@pytest.fixture
def pools(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The worker count of every process pool started (all of them start in parallel's one
    pool set-up, whichever command asks)."""
    started: list[int] = []
    real = parallel._worker_pool

    @contextlib.contextmanager
    def spy(workers: int) -> Iterator[Any]:
        started.append(workers)
        with real(workers) as pool:
            yield pool

    monkeypatch.setattr(parallel, "_worker_pool", spy)
    return started


def _puzzle_file(tmp_path: Path, count: int) -> Path:
    """*count* 4x4 puzzle lines (isomorphs of generated puzzles) with :data:`BAD` records, a
    comment and a blank line among them."""
    rng = random.Random(5)
    base = [generate(size=4, seed=s).puzzle for s in range(10)]
    lines = [str(random_isomorph(rng.choice(base), rng)) for _ in range(count)]
    for k, bad in enumerate([*BAD, "# a comment", ""]):
        lines.insert((k + 1) * count // 9, bad)
    path = tmp_path / "in.txt"
    path.write_bytes("\n".join(lines).encode("utf-8", "surrogateescape") + b"\n")
    return path


#: command -> (its arguments for an input file or none, records enough for several chunks)
COMMANDS: dict[str, Callable[[Path], list[str]]] = {
    "solve": lambda src: ["solve", str(src), "--unique"],
    "solve-csv": lambda src: ["solve", str(src), "--to", "csv"],
    "rate": lambda src: ["rate", str(src)],
    "rate-json": lambda src: ["rate", str(src), "--to", "json"],
    "generate": lambda src: ["generate", "-n", "40", "--size", "4", "--seed", "3"],
    "generate-shard": lambda src: ["generate", "-n", "60", "--size", "4", "--shard", "2/3"],
}
#: Records per command: solve hands out chunks of 1024 records, rate of 16.
RECORDS = {"solve": 2600, "rate": 60, "generate": 0}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_two_jobs_give_the_bytes_of_one(tmp_path: Path, pools: list[int], name: str) -> None:
    """Same output, same order, same messages about bad records, same exit code -- and the
    two-job run really ran on a pool of two workers."""
    command = name.split("-")[0]
    src = _puzzle_file(tmp_path, RECORDS[command] or 10)
    args = COMMANDS[name](src)
    one = _run(*args, "--jobs", "1")
    assert pools == []  # one job: no pool at all
    two = _run(*args, "--jobs", "2")
    assert pools == [2]
    assert (two.exit_code, two.stdout, two.stderr) == (one.exit_code, one.stdout, one.stderr)
    if command != "generate":
        assert one.exit_code == 2  # the unreadable records ...
        assert "not a puzzle" in one.stderr or "puzzle " in one.stderr  # ... each reported
        assert len(one.stderr.splitlines()) >= 3


@pytest.mark.parametrize("command", ["solve", "rate"])
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_resume_gives_the_rows_and_messages_of_a_plain_run(
    tmp_path: Path, command: str, jobs: str
) -> None:
    """``--resume`` (shards on ``parallel.unordered_map``) writes what a plain run writes and
    reports each bad record once, whatever ``--jobs``."""
    src = _puzzle_file(tmp_path, 500)
    # (solve --resume does not warn about a first-of-several solution: --unique marks it)
    to = ["--to", "json"] if command == "rate" else ["--unique"]
    plain = _run(command, str(src), *to)
    out = tmp_path / "out.txt"
    resumed = _run(command, str(src), *to, "--resume", "--jobs", jobs, "-o", str(out))
    if command == "rate":  # one object per line in both modes; the rows of unreadable
        # records differ (--resume keeps the line's text as "puzzle"), the ratings may not
        rows, expected = out.read_text().splitlines(), plain.stdout.splitlines()
        assert len(rows) == len(expected)
        for row, want in zip(rows, expected, strict=True):
            assert row == want or ('"error": ' in row and '"error": ' in want)
    else:
        assert out.read_text() == plain.stdout
    assert resumed.exit_code == plain.exit_code == 2
    assert sorted(_bad_numbers(resumed.stderr)) == sorted(_bad_numbers(plain.stderr))
    assert not list(tmp_path.glob("*.parts"))  # the work directory is gone once complete


def _bad_numbers(stderr: str) -> list[str]:
    """The puzzle numbers named by the stderr lines (``puzzle 12: ...``)."""
    lines = [line for line in stderr.splitlines() if "puzzle " in line]
    return [line.split("puzzle ", 1)[1].split(":")[0] for line in lines]


def _children(pid: int) -> list[int]:
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except FileNotFoundError:
        return []


def _alive(pid: int) -> bool:
    try:
        return "\nState:\tZ" not in Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return False


def _slow_input(tmp_path: Path, command: str) -> list[str]:
    """Arguments for a run that keeps two workers busy for many seconds."""
    if command == "generate":
        return ["generate", "-n", "400", "--difficulty", "extreme", "--seed", "1"]
    rng = random.Random(3)
    hard = Grid.parse(EASTER_MONSTER)
    count = 40 if command == "rate" else 12000
    # 40 isomorphs repeated: drawing 12,000 took 5 s of CPU, more than the run it feeds
    # (the engine caches nothing between lines, so repeats keep the workers as busy).
    lines = [f"{random_isomorph(hard, rng)}\n" for _ in range(40)]
    src = tmp_path / "in.txt"
    src.write_text("".join(lines[i % len(lines)] for i in range(count)))
    return [command, str(src)]


@pytest.mark.slow
@needs_proc
@pytest.mark.parametrize(
    ("command", "resume"),
    [("generate", False), ("solve", False), ("solve", True), ("rate", False), ("rate", True)],
)
def test_ctrl_c_ends_the_run_and_its_workers_at_once(
    tmp_path: Path, command: str, resume: bool
) -> None:
    """Ctrl-C while two workers are busy (in order, or on the shards of ``--resume``): exit
    code 130, one line, no traceback, no wait for the work in flight, no worker left behind
    (5 s bounds: generous for a loaded machine)."""
    args = [*_slow_input(tmp_path, command), "--jobs", "2", "-o", str(tmp_path / "out")]
    if resume:
        args += ["--resume", *(["--to", "json"] if command == "rate" else [])]
    elif command == "solve":  # line output goes the bulk path (threads, tests/test_lines_fast)
        args += ["--to", "jsonl"]  # ... this checks the record path's worker processes
    proc = subprocess.Popen(
        [sys.executable, "-m", "sudokit", *args],
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # as in a terminal
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while len(workers := _children(proc.pid)) < 2:
            assert time.monotonic() < deadline, "the workers never started"
            assert proc.poll() is None, "the run ended before its workers started"
            time.sleep(0.02)
        time.sleep(0.3)  # now busy with their first task
        proc.send_signal(signal.SIGINT)
        started = time.monotonic()
        _, err = proc.communicate(timeout=30)
        assert time.monotonic() - started < 5, "Ctrl-C waited for the work in flight"
        assert proc.returncode == 130, err
        assert "Traceback" not in err
        assert err.strip().splitlines()[-1] == "sudokit: interrupted"
        deadline = time.monotonic() + 5
        while any(_alive(pid) for pid in workers):
            assert time.monotonic() < deadline, "a worker outlived the interrupted run"
            time.sleep(0.05)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


_GENERATE_CHILD = """
import os, sys, time
from sudokit import generate_many

PIDS = sys.argv[1]

def render(puzzles, offset):
    with open(PIDS, "a") as f:
        f.write(f"{os.getpid()}\\n")
    time.sleep(60)
    return len(puzzles)

if __name__ == "__main__":
    list(generate_many(40, size=4, seed=1, jobs=2).chunks(render))
"""


@needs_proc
def test_generate_workers_end_when_their_parent_is_killed(tmp_path: Path) -> None:
    """``generate_many(jobs=2)`` killed with SIGKILL leaves no worker behind (the rule of
    every process map: see test_ordered_map for the maps themselves)."""
    script, pids_file = tmp_path / "child.py", tmp_path / "pids.txt"
    script.write_text(textwrap.dedent(_GENERATE_CHILD))
    proc = subprocess.Popen([sys.executable, str(script), str(pids_file)], start_new_session=True)
    try:

        def workers() -> set[int]:
            text = pids_file.read_text() if pids_file.exists() else ""
            return {int(line) for line in text.split()}

        deadline = time.monotonic() + 60
        while len(workers()) < 2:
            assert time.monotonic() < deadline, "the child's two workers never started"
            time.sleep(0.05)
        pids = workers()
        assert proc.pid not in pids
        os.kill(proc.pid, signal.SIGKILL)  # the parent only, not its process group
        proc.wait()
        deadline = time.monotonic() + 5
        while any(_alive(pid) for pid in pids):
            assert time.monotonic() < deadline, "a worker outlived its parent"
            time.sleep(0.05)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)  # whatever is left when the test fails
        proc.wait()
