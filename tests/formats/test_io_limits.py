"""Every read is bounded: memory stays flat in the input size (``/dev/zero`` once took 21.7 GB).

Each command that reads input runs in a child process on ``/dev/zero``, a file with one
100 MB line and a 60 MB JSON document; the child's peak RSS (``getrusage`` of the children of
a small wrapper process, so that only that command is measured) stays under a fixed bound,
and the answer is one clear error line, no traceback. Before: ``generate --pattern
/dev/zero`` grew to 21.7 GB, ``hint`` on a 100 MB file peaked at 603 MB, a 60 MB JSON at
1.07 GB. The full command matrix is marked slow; one fast case per input runs by default.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from sudokit import formats
from sudokit.errors import SudokuError

#: Peak RSS allowed to one command, in MiB: the interpreter with sudokit and click imported
#: takes ~60 MB; reading whole inputs took 600 MB to 21 GB.
BOUND_MB = 250

_MEASURE = """
import resource, subprocess, sys
done = subprocess.run(sys.argv[1:], capture_output=True, timeout=300)
sys.stdout.write(f"{resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}\\n")
sys.stdout.write(f"{done.returncode}\\n")
sys.stdout.write(done.stderr.decode(errors="replace"))
"""


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    d = tmp_path_factory.mktemp("big")
    line = d / "line.txt"
    with open(line, "wb") as f:
        chunk = b"1" * (1 << 20)
        for _ in range(100):  # one 100 MB line (no line feed before the end)
            f.write(chunk)
        f.write(b"\n")
    doc = d / "big.json"
    with open(doc, "w") as f:
        f.write("[\n")
        puzzle = json.dumps({"puzzle": "." * 81}) + ",\n"
        for _ in range(60_000_000 // len(puzzle)):
            f.write(puzzle)
        f.write(json.dumps({"puzzle": "." * 81}) + "\n]\n")
    return {"zero": "/dev/zero", "line": str(line), "json": str(doc)}


COMMANDS = {
    "solve": ["solve", "{}"],
    "count": ["count", "{}"],
    "check": ["check", "{}"],
    "rate": ["rate", "{}"],
    "hint": ["hint", "{}"],
    "explain": ["explain", "{}"],
    "render": ["render", "{}"],
    "convert": ["convert", "{}"],
    "generate": ["generate", "--pattern", "{}"],
    "hint-stdin": ["hint", "-"],
}


def _measure(command: list[str], source: str) -> tuple[float, int, str]:
    args = [a.format(source) for a in command]
    stdin = open(source, "rb") if command[-1] == "-" else subprocess.DEVNULL  # noqa: SIM115
    try:
        done = subprocess.run(
            [sys.executable, "-c", _MEASURE, sys.executable, "-m", "sudokit", *args],
            stdin=stdin,
            capture_output=True,
            timeout=360,
        )
    finally:
        if stdin is not subprocess.DEVNULL:
            stdin.close()
    rss, code, *err = done.stdout.decode().split("\n", 2)
    return int(rss) / 1024, int(code), "".join(err)


def _check(command: str, kind: str, inputs: dict[str, str]) -> None:
    peak, code, err = _measure(COMMANDS[command], inputs[kind])
    assert peak < BOUND_MB, f"{command} on {kind}: {peak:.0f} MB"
    assert "Traceback" not in err
    assert code in (1, 2)  # refused or a bad record: never 0, never a crash
    assert err.startswith("sudokit: ")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("command", "kind"),
    [("solve", "line"), ("hint-stdin", "zero"), ("convert", "json"), ("generate", "zero")],
)
def test_bounded_reads(command: str, kind: str, inputs: dict[str, str]) -> None:
    _check(command, kind, inputs)


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["zero", "line", "json"])
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_bounded_reads_every_command(command: str, kind: str, inputs: dict[str, str]) -> None:
    _check(command, kind, inputs)


def test_read_text_limited_refuses_an_endless_input() -> None:
    with pytest.raises(SudokuError, match="larger than 100 bytes"):
        formats.read_text_limited("/dev/zero", 100, "--pattern")


def test_a_line_without_end_stops_the_input(monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from sudokit.formats import _base

    monkeypatch.setattr(_base, "MAX_SKIP", 4 << 20)
    endless = io.BytesIO(b"1" * (6 << 20))  # stands for a device that never sends a line feed
    got = list(formats.read(endless, "line"))
    assert len(got) == 1
    assert got[0].error is not None
    assert "the rest of the input is not read" in got[0].error.message


def test_a_big_json_document_is_refused_with_its_size(tmp_path: Path) -> None:
    doc = tmp_path / "big.json"
    entry = '"' + "." * 81 + '"'
    doc.write_text("[\n" + (entry + ",\n") * 200_000 + entry + "\n]\n")  # 17 MB
    got = list(formats.read(doc))
    assert got[-1].error is not None
    assert "larger than 8 MiB" in got[-1].error.message
