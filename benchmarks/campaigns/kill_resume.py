"""kill -9 campaign: SIGKILL resumable bulk runs at random moments, resume them, compare outputs.

    PYTHONPATH=src python benchmarks/campaigns/kill_resume.py [--kills 16] [--rate-kills 4]

For ``sudokit solve --jobs 2 --resume FILE -o OUT`` (FILE: the 9x9 line files of ``--data``
concatenated) and ``sudokit rate --jobs 2 --to json --resume FILE -o OUT`` (FILE:
``kaggle_1k.txt`` ``--rate-repeat`` times: puzzles that singles solve, so that every rating
ends well inside the default time bound and does not depend on the machine's speed; eight
copies make eight shards of 1,000 rows):

1. a plain run (no ``--resume``) gives the reference output, exit code and stderr, and its
   wall time *T*;
2. each killed run starts afresh (no OUT, no ``OUT.parts``) in its own process group and
   gets SIGKILL after a uniformly random delay in ``[0, T)``: on odd runs the main process
   only (``kill -9 PID``: its workers must notice and end), on even runs the whole group;
3. the same command is then run again to its end (not killed) and OUT
   must be byte-identical to the plain run's output, with the same exit code; stderr is
   compared as well (reported, since the README promises the same messages).

Workers of the killed run still alive ``--settle`` seconds after the kill are counted (and
then killed, so that they cannot write into the resumed run). Prints one line per kill and a
summary; exit code 1 when any OUT differed. A campaign tool, not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from ctrl_c import DATA, group_members, nine_lines, sudokit_command


def clean(out: Path) -> None:
    """Remove *out* and its shard folder, if any."""
    out.unlink(missing_ok=True)
    shutil.rmtree(out.with_name(out.name + ".parts"), ignore_errors=True)


def run(argv: list[str]) -> tuple[int, bytes, float]:
    """Run *argv* to its end: (exit code, stderr, wall seconds)."""
    start = time.monotonic()
    done = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
    return done.returncode, done.stderr, time.monotonic() - start


def campaign(
    name: str, base: list[str], out: Path, kills: int, rng: random.Random, settle: float
) -> dict[str, int]:
    """The plain run of *base* (+ ``-o out``), then *kills* killed and resumed runs."""
    clean(out)
    plain_rc, plain_err, plain_s = run([*base, "-o", str(out)])
    reference = out.read_bytes()
    print(f"{name}: plain run rc {plain_rc}, {len(reference)} bytes, {plain_s:.2f} s", flush=True)
    resumable = [*base, "--resume", "-o", str(out)]
    tally = {"kills": 0, "differ": 0, "rc_differ": 0, "stderr_differ": 0, "orphans": 0}
    tally["finished_before_kill"] = 0
    for i in range(kills):
        clean(out)
        delay = rng.uniform(0, plain_s)
        whole_group = i % 2 == 1
        child = subprocess.Popen(
            resumable,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        time.sleep(delay)
        finished = child.poll() is not None
        if not finished:
            if whole_group:
                os.killpg(child.pid, signal.SIGKILL)
            else:
                os.kill(child.pid, signal.SIGKILL)
        child.wait()
        time.sleep(settle)
        orphans = group_members(child.pid)
        for pid in orphans:
            os.kill(pid, signal.SIGKILL)
        time.sleep(0.1 if orphans else 0)
        parts = out.with_name(out.name + ".parts")
        shards = len(list(parts.glob("*"))) if parts.exists() else 0
        rc, err, _ = run(resumable)  # resumed to the end (never killed)
        same = out.exists() and out.read_bytes() == reference
        tally["kills"] += 1
        tally["finished_before_kill"] += finished
        tally["differ"] += not same
        tally["rc_differ"] += rc != plain_rc
        tally["stderr_differ"] += err != plain_err
        tally["orphans"] += len(orphans)
        how = "group" if whole_group else "main pid"
        print(
            f"  {i + 1:2d} SIGKILL ({how}) at {delay:.2f} s"
            f"{' (had already finished)' if finished else ''}, {shards} entries in parts, "
            f"{len(orphans)} workers left; resumed rc {rc}: OUT "
            f"{'identical' if same else 'DIFFERS'}"
            f"{'' if err == plain_err else ', stderr differs: ' + repr(err[:300])}",
            flush=True,
        )
    clean(out)
    return tally


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--kills", type=int, default=16, help="killed solve runs")
    parser.add_argument("--rate-kills", type=int, default=4, help="killed rate runs")
    parser.add_argument("--rate-repeat", type=int, default=8, help="copies of kaggle_1k.txt")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--settle", type=float, default=2.0, help="seconds before orphan check")
    parser.add_argument("--data", type=Path, default=DATA, help="folder of 9x9 .txt files")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    sk = sudokit_command()
    results = {}
    with tempfile.TemporaryDirectory(prefix="sudokit-kill-") as tmp:
        work = Path(tmp)
        nines = work / "nines.txt"
        nines.write_bytes(nine_lines(args.data))
        lines = nines.read_bytes().count(b"\n")
        rated = work / "rated.txt"
        rated.write_bytes((args.data / "kaggle_1k.txt").read_bytes() * args.rate_repeat)
        rated_lines = rated.read_bytes().count(b"\n")
        if args.kills:
            results[f"solve --jobs 2 --resume ({lines} lines)"] = campaign(
                "solve", [*sk, "solve", "--jobs", "2", str(nines)], work / "solved.txt",
                args.kills, rng, args.settle,
            )  # fmt: skip
        if args.rate_kills:
            results[f"rate --jobs 2 --resume ({rated_lines} lines)"] = campaign(
                "rate", [*sk, "rate", "--jobs", "2", "--to", "json", str(rated)],
                work / "rated.jsonl", args.rate_kills, rng, args.settle,
            )  # fmt: skip
    print("\ncommand | kills | OUT differs | exit code differs | stderr differs | workers left")
    for name, t in results.items():
        print(
            f"{name} | {t['kills']} ({t['finished_before_kill']} finished first) | {t['differ']}"
            f" | {t['rc_differ']} | {t['stderr_differ']} | {t['orphans']}"
        )
    return 1 if any(t["differ"] or t["rc_differ"] for t in results.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
