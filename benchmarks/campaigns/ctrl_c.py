"""Ctrl-C campaign: SIGINT at random moments into long sudokit runs, each checked for a clean end.

    PYTHONPATH=src python benchmarks/campaigns/ctrl_c.py [--signals 32] [--seed 1] [--window 3]

Each run starts one command in its own process group and, after a uniformly random delay in
``[0, --window)`` seconds of wall time, sends SIGINT to the whole group, as a terminal's
Ctrl-C does (the ``--jobs`` workers get it too). The commands, taken in turn:

* ``sudokit solve|count|check --guesses 0`` of the 64x64 pigeonhole grid (``tests/support``'s
  ``pigeonhole64_file``: an unbounded search that never ends by itself);
* ``sudokit solve --jobs 2`` of a large file of 9x9 lines (the files of ``--data``
  concatenated ``--repeat`` times), written to ``-o`` so that no pipe fills.

A run passes when the command exits with code 130, its stderr is exactly the one line
``sudokit: interrupted`` (no traceback), it exits within ``--max-exit`` seconds of the signal
(wall time) and no process of its process group is left ``--settle`` seconds after it
exited (an orphaned ``--jobs`` worker). A run that ended before its signal is reported and
counted apart (not a failure, not a signal). Prints one line per run and a summary; the exit
code is 1 when any run failed. This is a campaign tool, not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests"))

from support import pigeonhole64_file  # type: ignore[import-not-found,unused-ignore]

ROOT = Path(__file__).resolve().parents[2]
#: The benchmark puzzle files: ``$SUDOKIT_DATA``, else ``shared/data`` next to the checkout
#: (or next to the folder of worktrees that holds it).
DATA = Path(
    os.environ.get("SUDOKIT_DATA")
    or next(
        (p for p in (ROOT.parent / "shared" / "data", ROOT.parents[1] / "shared" / "data")
         if p.is_dir()),
        ROOT.parent / "shared" / "data",
    )
)  # fmt: skip
EXPECTED_STDERR = "sudokit: interrupted\n"


def sudokit_command() -> list[str]:
    """The console script next to this interpreter (no pyenv shim in front of it: a signal
    would otherwise hit the shim's shell), else ``python -m sudokit``."""
    script = Path(sys.executable).with_name("sudokit")
    return [str(script)] if script.exists() else [sys.executable, "-m", "sudokit"]


def group_members(pgid: int) -> list[int]:
    """Pids of the live (non-zombie) processes whose process group is *pgid*."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        state, group = fields[0], int(fields[2])
        if group == pgid and state != "Z":
            found.append(int(entry.name))
    return found


def nine_lines(data: Path) -> bytes:
    """The 9x9 line files (``*.txt``) of *data*, concatenated."""
    files = sorted(data.glob("*.txt"))
    if not files:
        raise SystemExit(f"no puzzle files (*.txt) in {data}: give --data or $SUDOKIT_DATA")
    return b"".join(p.read_bytes() for p in files)


def in_start_up(rc: int, stderr: str) -> bool:
    """Whether a failed run was interrupted before sudokit's command line was running: killed
    by the signal before Python set its handler (-2, nothing said), or a KeyboardInterrupt
    raised while Python imported its site module or the console script imported the
    package (the script's own ``from sudokit.cli import main`` line, before any handler of
    sudokit's exists)."""
    if rc == -signal.SIGINT and not stderr:
        return True
    if "init_import_site" in stderr:
        return True
    return stderr.startswith("Traceback") and "from sudokit.cli import main" in stderr


def big_nine_file(data: Path, repeat: int, into: Path) -> Path:
    """The 9x9 line files of *data* concatenated *repeat* times, written to *into*."""
    text = nine_lines(data)
    into.write_bytes(text * repeat)
    return into


def one_run(argv: list[str], delay: float, max_exit: float, settle: float) -> dict[str, Any]:
    """Start *argv*, SIGINT its process group after *delay* s; what happened, as a dict."""
    with tempfile.TemporaryFile() as err_file:
        child = subprocess.Popen(
            argv,
            stdout=subprocess.DEVNULL,
            stderr=err_file,
            start_new_session=True,  # its own process group, which the signal goes to
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )
        time.sleep(delay)
        if child.poll() is not None:
            child.wait()
            return {"ended_early": True, "rc": child.returncode}
        os.killpg(child.pid, signal.SIGINT)
        sent = time.monotonic()
        try:
            rc = child.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(child.pid, signal.SIGKILL)
            rc = child.wait()
            exit_s = float("inf")
        else:
            exit_s = time.monotonic() - sent
        at_exit = group_members(child.pid)
        time.sleep(settle)
        left = group_members(child.pid)
        for pid in left:  # leave nothing behind for the next run
            os.kill(pid, signal.SIGKILL)
        err_file.seek(0)
        stderr = err_file.read().decode("utf-8", "replace")
    problems = []
    if rc != 130:
        problems.append(f"exit {rc}")
    if stderr != EXPECTED_STDERR:
        problems.append(f"stderr {stderr!r}")
    if exit_s > max_exit:
        problems.append(f"exit {exit_s:.2f} s after the signal")
    if left:
        problems.append(f"{len(left)} process(es) of its group left: {left}")
    return {
        "ended_early": False,
        "rc": rc,
        "exit_s": exit_s,
        "group_at_exit": len(at_exit),
        "left": len(left),
        "traceback": "Traceback" in stderr,
        "start_up": bool(problems) and in_start_up(rc, stderr),
        "problems": problems,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--signals", type=int, default=32, help="runs (signals) in all")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--window", type=float, default=3.0, help="delays uniform in [0, W) s")
    parser.add_argument("--max-exit", type=float, default=2.0, help="seconds to exit allowed")
    parser.add_argument("--settle", type=float, default=0.5, help="seconds before orphan check")
    parser.add_argument("--data", type=Path, default=DATA, help="folder of 9x9 .txt files")
    parser.add_argument("--repeat", type=int, default=3, help="copies of the 9x9 files")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    sk = sudokit_command()
    with tempfile.TemporaryDirectory(prefix="sudokit-ctrl-c-") as tmp:
        work = Path(tmp)
        big64 = str(pigeonhole64_file(work / "pigeonhole64.txt"))
        nines = big_nine_file(args.data, args.repeat, work / "nines.txt")
        lines = nines.read_bytes().count(b"\n")
        targets = {
            "solve 64x64": [*sk, "solve", "--guesses", "0", big64],
            "count 64x64": [*sk, "count", "--guesses", "0", big64],
            "check 64x64": [*sk, "check", "--guesses", "0", big64],
            f"solve --jobs 2 ({lines} lines)": [
                *sk, "solve", "--jobs", "2", str(nines), "-o", str(work / "out.txt"),
            ],
        }  # fmt: skip
        names = list(targets)
        tally: dict[str, dict[str, Any]] = {
            name: {"signals": 0, "failures": 0, "start_up": 0, "early": 0, "worst_s": 0.0}
            for name in names
        }
        for i in range(args.signals):
            name = names[i % len(names)]
            delay = rng.uniform(0, args.window)
            got = one_run(targets[name], delay, args.max_exit, args.settle)
            row = tally[name]
            if got["ended_early"]:
                row["early"] += 1
                rc = got["rc"]
                print(f"{i + 1:3d} {name}: ended before the signal at {delay:.2f} s (rc {rc})")
                continue
            row["signals"] += 1
            row["failures"] += bool(got["problems"])
            row["start_up"] += got["start_up"]
            row["worst_s"] = max(row["worst_s"], got["exit_s"])
            verdict = "FAIL " + "; ".join(got["problems"]) if got["problems"] else "ok"
            if got["start_up"]:
                verdict += " [in start-up, before sudokit's handler]"
            print(
                f"{i + 1:3d} {name}: SIGINT at {delay:.2f} s, rc {got['rc']}, exit "
                f"{got['exit_s']:.2f} s after, group at exit {got['group_at_exit']}, "
                f"left {got['left']}: {verdict}",
                flush=True,
            )
    print("\ncommand | signals | failures | of them in start-up | ended early | slowest exit (s)")
    for name, row in tally.items():
        counts = f"{row['signals']} | {row['failures']} | {row['start_up']} | {row['early']}"
        print(f"{name} | {counts} | {row['worst_s']:.2f}")
    failures = sum(int(row["failures"]) for row in tally.values())
    signals = sum(int(row["signals"]) for row in tally.values())
    start_up = sum(int(row["start_up"]) for row in tally.values())
    print(f"total | {signals} | {failures} | {start_up}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
