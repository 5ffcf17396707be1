"""``sudokit dataset``: the command, and a run killed with SIGKILL then resumed."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sudokit import Grid
from sudokit.batch import read_rows
from sudokit.cli.app import main


def _run(*args: str) -> int:
    return main(["dataset", *args])


def test_cli_writes_verified_rows(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "d.jsonl"
    assert _run("-n", "12", "--out", str(out), "--seed", "3", "--jobs", "2", "--rate") == 0
    assert "wrote 12 rows" in capsys.readouterr().err
    rows = list(read_rows(out))
    assert len(rows) == 12
    assert list(rows[0]) == [
        "puzzle",
        "solution",
        "clues",
        "guesses",
        "symmetry",
        "seed",
        "rating",
        "level",
    ]
    for r in rows:
        assert Grid.parse(r["solution"]).is_solution(Grid.parse(r["puzzle"]))


def test_cli_shards_concatenate_to_the_whole(tmp_path: Path) -> None:
    whole = tmp_path / "w.csv"
    assert _run("-n", "9", "--size", "4", "--out", str(whole), "--shard-rows", "2") == 0
    lines: list[str] = []
    for i in (1, 2):
        part = tmp_path / f"p{i}.csv"
        assert _run("-n", "9", "--size", "4", "--out", str(part), "--shard", f"{i}/2") == 0
        lines += part.read_text().splitlines()[1:]
    assert lines == whole.read_text().splitlines()[1:]


def test_cli_usage_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = str(tmp_path / "x.csv")
    assert _run("-n", "3", "--size", "4", "--dedupe", "--out", out) == 2
    assert _run("-n", "3", "--out", out, "--shard", "3/2") == 2
    assert _run("-n", "3", "--out", out, "--rating", "hard") == 2
    err = capsys.readouterr().err
    assert "9x9" in err
    assert "3/2" in err
    assert "A-B" in err
    assert "Traceback" not in err
    assert not os.path.exists(out)
    assert _run("-n", "3", "--out", out, "--difficulty", "nope") == 2
    assert "unknown difficulty" in capsys.readouterr().err
    assert not os.path.exists(out + ".parts")  # nothing to resume: no work directory left


def _manifest_shards(parts: Path) -> int:
    try:
        text = (parts / "manifest.jsonl").read_text()
    except FileNotFoundError:
        return 0
    return text.count('"shard"')


@pytest.mark.c_only  # slow on the reference engine: the fallback pass leaves it to the C pass
def test_killed_run_resumes_without_losing_or_duplicating_rows(tmp_path: Path) -> None:
    args = ["-n", "400", "--size", "4", "--seed", "8", "--shard-rows", "5", "--augment", "1"]
    reference = tmp_path / "ref.csv"
    assert _run(*args, "--out", str(reference)) == 0

    out = tmp_path / "run.csv"
    parts = tmp_path / "run.csv.parts"
    cmd = [sys.executable, "-m", "sudokit", "dataset", *args, "--out", str(out)]
    env = {**os.environ, "SUDOKIT_NO_PROGRESS": "1"}
    proc = subprocess.Popen(cmd, env=env, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    try:
        while _manifest_shards(parts) < 5 and proc.poll() is None:
            assert time.monotonic() < deadline, "the run made no progress"
            time.sleep(0.02)
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.wait()
    if proc.returncode == 0:
        pytest.skip("the run finished before it could be killed")
    assert proc.returncode == -signal.SIGKILL
    assert not out.exists()
    done = _manifest_shards(parts)
    assert 5 <= done < 80
    manifest = (parts / "manifest.jsonl").read_text().splitlines()
    assert json.loads(manifest[0])["params"]["n"] == 400

    assert _run(*args, "--out", str(out), "--resume") == 0
    assert out.read_bytes() == reference.read_bytes()
    assert not parts.exists()
    rows = list(read_rows(out))
    assert len(rows) == 800
    assert len({(r["seed"], r["isomorph"]) for r in rows}) == 800


def test_resume_with_other_options_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    out = tmp_path / "r.csv"
    parts = tmp_path / "r.csv.parts"
    parts.mkdir()
    (parts / "manifest.jsonl").write_text(json.dumps({"params": {"n": 1}}) + "\n")
    assert _run("-n", "5", "--size", "4", "--out", str(out), "--resume") == 2
    assert "other options" in capsys.readouterr().err


_HUGE = """
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))  # 1 GiB: a plan of 10**9 shards fails
from sudokit.batch import DatasetSpec, dataset_chunks, write_dataset
spec = DatasetSpec(n=10**12, seed=0, size=4)
print(next(dataset_chunks(spec)))

def stop(rows):
    raise KeyboardInterrupt  # after the first shard: the run would take years

try:
    write_dataset(sys.argv[1], spec, shard_rows=100, progress=stop)
except KeyboardInterrupt:
    print("first shard written")
"""


def test_a_huge_dataset_is_planned_lazily(tmp_path: Path) -> None:
    """``dataset -n 10**12`` once reached 2.6 GB planning its shards before
    writing one; the plan is now made shard by shard (memory flat in -n)."""
    import subprocess
    import sys

    out = tmp_path / "huge.csv"
    done = subprocess.run(
        [sys.executable, "-c", _HUGE, str(out)], capture_output=True, timeout=120, text=True
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["(0, range(0, 1000))", "first shard written"]
    assert (tmp_path / "huge.csv.parts" / "part-0000000.jsonl").exists()


def test_jsonl_seeds_are_strings_like_generate(tmp_path: Path) -> None:
    """A 64-bit seed is not exact as a JSON number (2**53): JSONL writes it as a string, the
    same seed as the CSV column, and as `generate --to jsonl` writes it."""
    jsonl, csv_out = tmp_path / "d.jsonl", tmp_path / "d.csv"
    assert _run("-n", "3", "-o", str(jsonl), "--seed", "5") == 0
    assert _run("-n", "3", "-o", str(csv_out), "--seed", "5") == 0
    seeds = [json.loads(line)["seed"] for line in jsonl.read_text().splitlines()]
    assert all(isinstance(s, str) for s in seeds)
    assert any(int(s) >= 2**53 for s in seeds)
    assert seeds == [row["seed"] for row in read_rows(csv_out)]
