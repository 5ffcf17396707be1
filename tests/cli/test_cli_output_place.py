"""``-o FILE`` where no file can be written says what is wrong, not "No such file".

Old code: ``-o /proc/version`` (a kernel file in a directory that takes no new file) said
``/proc/version: No such file or directory`` -- the error of the temporary file the output is
written to first, though the file plainly exists.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sudokit.cli.app import main

PUZZLE = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."

needs_proc = pytest.mark.skipif(not Path("/proc/version").is_file(), reason="needs /proc")


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@needs_proc
@pytest.mark.parametrize(
    "argv",
    [["solve", "-p", PUZZLE], ["generate", "-n", "1"], ["render", "-p", PUZZLE, "--to", "svg"]],
    ids=lambda a: a[0],
)
def test_a_kernel_file_is_not_a_writable_file(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    code, out, err = _run(capsys, *argv, "-o", "/proc/version")
    assert (code, out) == (2, "")
    assert err == (
        "sudokit: /proc/version: not a writable regular file "
        "(no file can be created in /proc: No such file or directory)\n"
    )


@needs_proc
def test_a_new_file_where_none_can_be_made_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(capsys, "solve", "-p", PUZZLE, "-o", "/proc/sudokit-out.txt")
    assert code == 2
    assert err == (
        "sudokit: /proc/sudokit-out.txt: cannot be created in /proc (No such file or directory)\n"
    )


@needs_proc
def test_a_resumable_run_names_its_work_directory(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    src = tmp_path / "in.txt"
    src.write_text(PUZZLE + "\n")
    code, _, err = _run(capsys, "solve", str(src), "--resume", "-o", "/proc/version")
    assert code == 2
    assert err == (
        "sudokit: /proc/version.parts: cannot be created in /proc (No such file or directory)\n"
    )


def test_a_missing_directory_is_still_no_such_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    target = tmp_path / "nodir" / "out.txt"
    code, _, err = _run(capsys, "solve", "-p", PUZZLE, "-o", str(target))
    assert (code, err) == (2, f"sudokit: {target}: No such file or directory\n")
