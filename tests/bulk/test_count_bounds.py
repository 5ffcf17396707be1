"""A search that runs out of guesses is never shown as an exact answer.

``count`` writes ``>=N`` (the N solutions found so far: a lower bound) with a message naming
the bound and exit code 1, ``!gave-up`` when it found none; ``check`` and ``solve`` write their
``gave-up`` markers. The same on every path: ``-p`` and standard input (records), files of 9x9
lines (the C core's bulk path), a bulk file with lines it hands back, ``--jobs 2``, the block
API, the library and the web API. Both backends: the expected counts come from the library
(``sudokit.solve`` with the same bound), which the engines fill differently.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

import sudokit
from sudokit import blocks
from sudokit.cli.app import cli

EMPTY9 = "." * 81
EMPTY4 = "." * 16
LIMIT = 100_000
#: Guesses that find some solutions of an empty grid but cannot finish counting them (both
#: engines: the C core finds 164 of the 9x9's, the Python reference 28).
GUESSES = 200


def run(*args: str, input: str | None = None) -> Result:
    result = CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False)
    assert "Traceback" not in result.output
    return result


def found(puzzle: str, guesses: int = GUESSES, limit: int = LIMIT) -> sudokit.SolveResult:
    """The library's answer for what ``count --limit limit --guesses guesses`` searches."""
    return sudokit.solve(puzzle, limit=limit + 1, budget=guesses)


def gave_up_line(where: str, number: int, r: sudokit.SolveResult) -> str:
    so_far = f" with {r.count} solution{'s' * (r.count != 1)} found so far" if r.count else ""
    return (
        f"sudokit: {where}: puzzle {number}: gave up after {r.guesses} guesses "
        f"(budget {GUESSES}){so_far}; raise the bound with --guesses N (0 = none)"
    )


def test_the_library_says_an_unfinished_count_is_unfinished() -> None:
    r = found(EMPTY9)
    assert not r.complete
    assert r.status is sudokit.Status.MULTIPLE
    assert 2 <= r.count <= LIMIT
    assert r.error == f"gave up after {r.guesses} guesses (budget {GUESSES})"


@pytest.fixture
def lines(tmp_path: Path) -> Path:
    """A file of two empty 9x9 lines around an empty 4x4 (which the bulk path hands back)."""
    path = tmp_path / "empty.txt"
    path.write_text(f"{EMPTY9}\n{EMPTY4}\n# a comment\n{EMPTY9}\n")
    return path


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("route", ["puzzle", "stdin", "file"])
def test_count_that_ran_out_of_guesses_is_a_lower_bound(route: str, jobs: str, lines: Path) -> None:
    """Old code: ``58`` (or ``164``) and exit 0, an exact-looking count."""
    if route == "puzzle":
        where, args = ["--puzzle:1", "--puzzle#2:1", "--puzzle#3:1"], []
        for p in (EMPTY9, EMPTY4, EMPTY9):
            args += ["-p", p]
        stdin = None
    elif route == "stdin":
        where, args, stdin = ["<stdin>:1", "<stdin>:2", "<stdin>:4"], ["-"], lines.read_text()
    else:
        where, args, stdin = [f"{lines}:{n}" for n in (1, 2, 4)], [str(lines)], None
    done = run(
        "count", "--limit", str(LIMIT), "--guesses", str(GUESSES), "-j", jobs, *args, input=stdin
    )
    want = [found(p) for p in (EMPTY9, EMPTY4, EMPTY9)]
    assert all(1 <= r.count <= LIMIT and not r.complete for r in want)
    assert done.stdout.splitlines() == [f">={r.count}" for r in want]
    assert done.stderr.splitlines() == [
        gave_up_line(w, k, r) for k, (w, r) in enumerate(zip(where, want, strict=True), 1)
    ]
    assert done.exit_code == 1


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_count_that_found_nothing_gave_up(jobs: str, lines: Path) -> None:
    done = run("count", "--guesses", "1", "-j", jobs, str(lines))
    assert done.stdout.splitlines() == ["!gave-up"] * 3
    assert [
        line.endswith("(budget 1); raise the bound with --guesses N (0 = none)")
        for line in done.stderr.splitlines()
    ] == [True] * 3
    assert done.exit_code == 1


def test_a_count_past_its_limit_and_a_finished_one_are_as_before(lines: Path) -> None:
    done = run("count", "--limit", "10", "--guesses", "0", str(lines))
    assert (done.stdout, done.stderr, done.exit_code) == (">10\n>10\n>10\n", "", 0)
    done = run("count", "--limit", "300", "--guesses", "0", "-p", EMPTY4)
    assert (done.stdout, done.stderr, done.exit_code) == ("288\n", "", 0)


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize(
    ("command", "row"),
    [(["check"], "gave-up"), (["solve"], "!gave-up"), (["solve", "--unique"], "!gave-up")],
)
def test_check_and_solve_give_up_on_every_path(
    command: list[str], row: str, jobs: str, lines: Path
) -> None:
    """One guess finds no solution of an empty grid: the marker row on every path."""
    for args, stdin in (([str(lines)], None), (["-"], lines.read_text()), (["-p", EMPTY9], None)):
        done = run(*command, "--guesses", "1", "-j", jobs, *args, input=stdin)
        rows = done.stdout.splitlines()
        assert rows == [row] * len(rows), (args, done.stdout)
        assert len(rows) in (1, 3)
        messages = done.stderr.splitlines()
        assert len(messages) == len(rows)
        assert all(re.search(r"gave up after \d+ guesses \(budget 1\); raise", m) for m in messages)
        assert done.exit_code == 1


@pytest.mark.parametrize("command", ["solve", "check", "count"])
def test_many_records_on_two_jobs_give_up_too(command: str) -> None:
    """Past two chunks of records, ``solve --jobs 2`` works in worker processes (``check``
    and ``count`` search on threads): each puzzle still gets its marker row and message."""
    n = 2100
    done = run(command, "--guesses", "1", "-j", "2", "-", input=f"{EMPTY9}\n" * n)
    marker = "gave-up" if command == "check" else "!gave-up"
    assert done.stdout == f"{marker}\n" * n
    assert len(done.stderr.splitlines()) == n
    assert done.exit_code == 1


def test_solve_records_say_gave_up() -> None:
    done = run("solve", "--to", "jsonl", "--guesses", "1", "-p", EMPTY9)
    assert '"status": "gave-up"' in done.stdout
    assert done.exit_code == 1


def test_the_block_api_writes_the_lower_bound() -> None:
    data = f"{EMPTY9}\n{EMPTY4}\n".encode()
    out = blocks.solve_block(data, mode="count", limit=LIMIT, budget=GUESSES)
    assert out == f">={found(EMPTY9).count}\n>={found(EMPTY4).count}\n".encode()


def test_the_web_api_says_a_count_is_a_lower_bound() -> None:
    """Old code: ``"count": 58, "at_least": false`` beside ``"complete": false``."""
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from sudokit.web import create_app

    client = TestClient(create_app())  # no lifespan: 9x9 searches run on the cheap lane
    body = {"puzzle": EMPTY9, "limit": 1000, "budget": GUESSES}
    answer = client.post("/api/count", json=body).json()
    want = found(EMPTY9, limit=1000)
    assert (answer["count"], answer["complete"], answer["at_least"]) == (
        want.count,
        False,
        True,
    )
    done = client.post("/api/count", json={"puzzle": EMPTY9, "limit": 1000}).json()
    assert (done["count"], done["complete"], done["at_least"]) == (1000, True, True)
    exact = client.post("/api/count", json={"puzzle": EMPTY4, "limit": 1000}).json()
    assert (exact["count"], exact["complete"], exact["at_least"]) == (288, True, False)
    check = client.post("/api/check", json={"puzzle": EMPTY9, "budget": 1}).json()
    assert (check["status"], check["complete"], check["unique"]) == ("gave-up", False, False)


def test_a_dataset_row_never_takes_the_guesses_of_a_search_that_gave_up() -> None:
    """Old code: the re-solve of a generated puzzle that ran out of guesses was reported as
    "does not solve to its solution"; its guesses would be only a lower bound."""
    from sudokit.dataset import _checked_guesses

    made = sudokit.generate(size=4, seed=3)
    assert _checked_guesses(made.puzzle, made.solution, sudokit.solve(made.puzzle)) >= 0
    stopped = sudokit.solve(EMPTY9, budget=1)
    with pytest.raises(sudokit.SudokuError, match=r"gave up after .* guess count is not known"):
        _checked_guesses(made.puzzle, made.solution, stopped)
