"""The commands of the README, DEVELOP and the docs pages run as written, from a clone.

Every line of a ``console`` block that starts with ``$ sudokit`` or ``sudokit`` is run
in-process (``sudokit.cli.main``) in a temporary directory holding a copy of ``examples/``;
where the document shows output under a ``$`` command (the lines up to the next command or
the end of the block), standard output must be exactly that; elsewhere the command must exit
with 0 and print no traceback. The commands that need the network, a server or minutes of CPU
are skipped by name (:data:`SKIP`), and those that take more than about a second are marked
slow (:data:`SLOW`)."""

from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

import pytest

from sudokit.cli import main
from support import REPO

DOCUMENTS = [
    REPO / "README.md",
    REPO / "DEVELOP.md",
    REPO / "examples" / "README.md",
    *sorted((REPO / "docs").rglob("*.md")),
]
CONSOLE = re.compile(r"^```console\n(.*?)^```", re.MULTILINE | re.DOTALL)

#: Commands not run, each with the reason.
SKIP = {
    "sudokit dataset -n 1000000 --out train.csv --jobs 2 --seed 7": "a million rows: minutes",
    "sudokit dataset -n 100000 --out rated.parquet --rate --dedupe --augment 3": (
        "100,000 rated rows: minutes"
    ),
    "sudokit dataset -n 1000000 --out part2.jsonl --shard 2/8 --scheduler tcp://10.0.0.5:8786": (
        "needs a Dask scheduler on the network"
    ),
    "sudokit dataset -n 1000000 --out train.csv --jobs 2 --seed 7 --resume": (
        "resumes the million-row run above"
    ),
    "sudokit serve --open": "starts a server and a browser",
}
#: Commands that take more than about a second (they rate the two SE 10.5 puzzles).
SLOW = {
    "sudokit rate examples/puzzles.txt",
    "sudokit print examples/puzzles.txt -o book.pdf --answers --rate --title 'Sixty Puzzles'",
    "sudokit rate examples/puzzles.txt --to json -o rated.jsonl --jobs 0 --resume",
}


def _command(line: str) -> str | None:
    """The command of a console line (``$`` and a trailing ``# comment`` dropped), or None."""
    text = line[2:] if line.startswith("$ ") else line
    if not text.startswith("sudokit ") and text != "sudokit":
        return None
    return shlex.join(shlex.split(text, comments=True))


def _cases() -> list[tuple[str, str, str | None]]:
    """(where, command, shown output or None) for every command of the documents."""
    cases = []
    for doc in DOCUMENTS:
        text = doc.read_text(encoding="utf-8")
        for block in CONSOLE.finditer(text):
            lines = block[1].splitlines()
            line_no = text.count("\n", 0, block.start(1)) + 1
            for k, line in enumerate(lines):
                command = _command(line)
                if command is None:
                    continue
                shown = None
                if line.startswith("$ "):
                    after = []
                    for rest in lines[k + 1 :]:
                        if rest.startswith("$ "):
                            break
                        after.append(rest)
                    shown = "\n".join(after) + "\n" if after else None
                cases.append((f"{doc.relative_to(REPO)}:{line_no + k}", command, shown))
    return cases


CASES = _cases()


def _param(where: str, command: str, shown: str | None) -> object:
    marks = []
    if command in SKIP:
        marks.append(pytest.mark.skip(reason=SKIP[command]))
    if command in SLOW:
        marks.append(pytest.mark.slow)
    return pytest.param(command, shown, id=f"{where} {command}"[:120], marks=marks)


@pytest.mark.parametrize(("command", "shown"), [_param(*case) for case in CASES])
def test_command_runs_as_written(
    command: str,
    shown: str | None,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capfd: pytest.CaptureFixture[str],
) -> None:
    shutil.copytree(REPO / "examples", tmp_path / "examples")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SUDOKIT_NO_PROGRESS", "1")
    code = main(shlex.split(command)[1:])
    out, err = capfd.readouterr()
    assert "Traceback" not in out + err, err
    if shown is not None:
        assert out == shown, f"{command}: stdout differs from the document\n{err}"
    assert code == 0, f"{command}: exit code {code}\n{err}"


def test_every_skip_and_slow_entry_is_a_command_of_the_documents() -> None:
    commands = {command for _, command, _ in CASES}
    assert not (set(SKIP) | SLOW) - commands


def test_the_reader_finds_commands_and_their_output() -> None:
    assert _command("$ sudokit solve a.txt   # comment") == "sudokit solve a.txt"
    assert _command("python -m pip install .") is None
    assert _command('$ sudokit print p.txt --title "Two words"') == (
        "sudokit print p.txt --title 'Two words'"
    )
    assert any(shown for _, _, shown in CASES), "no document shows a command's output"
