"""A named pipe (FIFO) is read once: ``solve``, ``count`` and ``check`` of a FIFO that holds a
good and a bad record answer both and end (the bulk path's check opened the pipe first and
closed it, and the command then waited for a writer that was gone); ``--resume``, which reads
its input again, refuses a pipe in one line. Each run is a subprocess with a time-out, so a
regression fails instead of hanging the suite."""

from __future__ import annotations

import os
import select
import subprocess
import sys
import threading
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(
    not hasattr(os, "mkfifo") or not hasattr(select, "poll"), reason="no named pipes here"
)

GOOD = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
SOLVED = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"
DATA = f"{GOOD}\nbad\n".encode()
TIMEOUT = 20  # seconds; the commands take well under one


def _write_once(fifo: Path, data: bytes) -> threading.Thread:
    """A writer that opens the pipe once (waiting for a reader), writes *data* and closes it,
    as ``printf ... > fifo`` does. It first waits (up to half a second) for the reader to
    close the pipe again, the way a reader that only looked at it does: what it writes then
    goes nowhere, and a reader that opens the pipe again waits for a writer that is gone --
    the hang this file tests, made certain instead of left to a race."""

    def write() -> None:
        try:
            with open(fifo, "wb") as pipe:
                watch = select.poll()
                watch.register(pipe.fileno(), 0)  # POLLERR: no reader any more
                watch.poll(500)
                pipe.write(data)
        except BrokenPipeError:  # the reader had closed it (the bug)
            pass

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    return writer


def _run_on_fifo(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    fifo = tmp_path / "puzzles.txt"
    os.mkfifo(fifo)
    writer = _write_once(fifo, DATA)
    try:
        return subprocess.run(
            [sys.executable, "-m", "sudokit", *args, str(fifo)],
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
        )
    finally:
        if writer.is_alive():  # no reader came: open the pipe so the writer can end
            with open(fifo, "rb") as pipe:
                pipe.read()
        writer.join(TIMEOUT)


@pytest.mark.parametrize(
    ("command", "rows"),
    [
        ("solve", [SOLVED, "!invalid"]),
        ("count", ["1", "!invalid"]),
        ("check", ["unique", "invalid"]),
    ],
)
def test_a_fifo_with_a_bad_record_is_read_once(
    tmp_path: Path, command: str, rows: list[str]
) -> None:
    done = _run_on_fifo(tmp_path, command)
    assert done.stdout.splitlines() == rows
    assert done.stderr.splitlines() == [
        f"sudokit: {tmp_path / 'puzzles.txt'}:2: puzzle 2: expected a square number of cells "
        "(81 for 9x9, 16 for 4x4), got 3"
    ]
    assert done.returncode == 2


def test_resume_refuses_a_fifo_in_one_line(tmp_path: Path) -> None:
    done = _run_on_fifo(tmp_path, "solve", "--resume", "-o", str(tmp_path / "out.txt"))
    assert done.stdout == ""
    assert done.stderr.splitlines() == [
        f"sudokit: {tmp_path / 'puzzles.txt'}: --resume reads a regular file (again on resume), "
        "not a pipe or device"
    ]
    assert done.returncode == 2


def test_the_bulk_path_check_does_not_open_a_fifo(tmp_path: Path) -> None:
    """Deciding whether a file can go the bulk path never opens a pipe: opening one with no
    writer blocks (here: until the time-out)."""
    fifo = tmp_path / "no-writer"
    os.mkfifo(fifo)
    code = f"from sudokit.blocks import reads_as_lines; print(reads_as_lines({str(fifo)!r}))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=10)
    assert done.stdout == "False\n"
