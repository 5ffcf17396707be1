"""Difficulty targeting of the generator: every puzzle re-rated independently by
:func:`sudokit.rate` lies in the asked window, needs the required techniques, is unique (checked
by the other engine), reproducible; impossible requests fail clearly."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

import sudokit
from sudokit import _backend
from sudokit.cli.app import cli
from sudokit.errors import BudgetExceededError, SudokuError
from sudokit.generator import GeneratedPuzzle, generate, generate_many, is_minimal, is_symmetric
from sudokit.grid import Grid


def _other_engine() -> str:
    if _backend.engine().name == "c":
        return "python"
    try:
        _backend.get_engine("c")
    except ImportError:
        return "python"
    return "c"


CHECKING = _other_engine()


def unique(p: GeneratedPuzzle) -> bool:
    """One solution, the generator's, by the engine that did not generate (when both exist)."""
    found = _backend.get_engine(CHECKING).search(p.shape, p.puzzle.cells, 2, 1, 0)
    return found.count == 1 and found.complete and found.solutions[0] == p.solution.cells


def check(puzzles: list[GeneratedPuzzle], lo: float, hi: float) -> list[sudokit.Rating]:
    ratings = []
    for p in puzzles:
        assert unique(p), p.puzzle
        assert p.solution.is_solution(p.puzzle)
        r = sudokit.rate(p.puzzle)
        assert r.complete
        assert lo <= r.se <= hi, (str(p.puzzle), r.se)
        if p.se is not None:
            assert p.se == r.se  # the generator's early-stopping walk agrees with rate()
        ratings.append(r)
    return ratings


@pytest.mark.c_only  # slow on the reference engine: the fallback pass leaves it to the C pass
@pytest.mark.parametrize(
    ("level", "lo", "hi", "count"),
    [
        ("easy", 1.0, 2.3, 4),
        ("medium", 2.4, 3.9, 15),  # many: 2.3 (easy) once slipped through
        ("hard", 4.0, 6.0, 6),
        ("expert", 6.2, 7.5, 3),
    ],
)
def test_levels(level: str, lo: float, hi: float, count: int) -> None:
    puzzles = list(generate_many(count, seed=11, difficulty=level))
    ratings = check(puzzles, lo, hi)
    assert {r.level for r in ratings} == {level}


@pytest.mark.c_only  # slow on the reference engine: the fallback pass leaves it to the C pass
def test_rating_window() -> None:
    check(list(generate_many(4, seed=5, rating=(4.4, 6.0))), 4.4, 6.0)


def test_level_and_rating_intersect() -> None:
    check(list(generate_many(2, seed=6, difficulty="expert", rating=(7.0, 9.0))), 7.0, 7.5)


@pytest.mark.c_only  # slow on the reference engine: the fallback pass leaves it to the C pass
@pytest.mark.parametrize(
    ("require", "kwargs"),
    [
        ("X-Wing", {}),
        ("Naked Pair", {"difficulty": "medium"}),
        ("XY-Wing", {"rating": (4.0, 6.0)}),
    ],
)
def test_require_a_technique(require: str, kwargs: dict[str, object]) -> None:
    puzzles = list(generate_many(3, seed=2, require=require, **kwargs))  # type: ignore[arg-type]
    for p in puzzles:
        assert unique(p)
        assert require in sudokit.rate(p.puzzle).techniques, str(p.puzzle)


@pytest.mark.c_only  # slow on the reference engine: the fallback pass leaves it to the C pass
def test_require_by_registry_name_or_first_words() -> None:
    # The steps of "Forcing Chains & Cycles" are called "Forcing Chain", "Bidirectional
    # Cycle", ...; "Unique Rectangle" covers the steps "Unique Rectangle type 1", ... .
    for p in generate_many(2, seed=7, rating=(6.2, 7.5), require="Forcing Chains & Cycles"):
        assert sudokit.rate(p.puzzle).families.get("chains", 0) > 0
    for p in generate_many(2, seed=7, require="Unique Rectangle"):
        names = sudokit.rate(p.puzzle).techniques
        assert any(n.startswith(("Unique Rectangle", "Unique Loop")) for n in names), names


def test_require_a_family() -> None:
    puzzles = list(generate_many(3, seed=3, require="wings", difficulty="hard"))
    for r in check(puzzles, 4.0, 6.0):
        assert r.families.get("wings", 0) > 0


@pytest.mark.c_only  # slow on the reference engine: the fallback pass leaves it to the C pass
def test_reproducible() -> None:
    first = [str(p.puzzle) for p in generate_many(6, seed=9, difficulty="hard")]
    again = [str(p.puzzle) for p in generate_many(6, seed=9, difficulty="hard")]
    assert first == again
    assert len(set(first)) == 6
    one = generate(seed=123, rating=(6.2, 7.5), require="Forcing Chains & Cycles")
    assert one == generate(seed=123, rating=(6.2, 7.5), require="Forcing Chains & Cycles")


@pytest.mark.c_only  # slow on the reference engine: the fallback pass leaves it to the C pass
def test_same_puzzles_on_both_engines_and_in_worker_processes() -> None:
    serial = list(generate_many(3, seed=12, difficulty="hard"))
    assert list(generate_many(3, seed=12, difficulty="hard", jobs=2)) == serial
    if _backend.engine().name != CHECKING:
        assert list(generate_many(3, seed=12, difficulty="hard", backend=CHECKING)) == serial


@pytest.mark.c_only  # slow on the reference engine: the fallback pass leaves it to the C pass
def test_symmetry_and_minimal_kept() -> None:
    sym = list(generate_many(3, seed=4, difficulty="hard", symmetry="rot180"))
    check(sym, 4.0, 6.0)
    assert all(is_symmetric(p.puzzle, "rot180") for p in sym)
    mini = list(generate_many(3, seed=4, difficulty="hard", minimal=True))
    check(mini, 4.0, 6.0)
    assert all(p.minimal and is_minimal(p.puzzle, backend=CHECKING) for p in mini)


@pytest.mark.c_only  # slow on the reference engine: the fallback pass leaves it to the C pass
def test_other_shapes() -> None:
    p = generate(size=6, seed=1, difficulty="medium")
    check([p], 2.4, 3.9)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"rating": (12.0, 13.0)}, "no puzzle rates above 11.0"),
        ({"rating": (5.0, 4.0)}, "empty"),
        ({"rating": (0.0, 0.5)}, "at least 1.0"),
        ({"require": "Foo"}, "unknown technique 'Foo'"),
        ({"require": "Skyscraper"}, "not one of Sudoku Explainer's techniques"),
        ({"require": "XY-Wing", "difficulty": "easy"}, "rates at least 4.2"),
        ({"difficulty": "hard", "rating": (7.0, 8.0)}, "do not overlap"),
        ({"difficulty": "brutal"}, "unknown difficulty"),
        ({"difficulty": "hard", "ratings": 0}, "ratings must be"),
    ],
)
def test_impossible_requests(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(SudokuError, match=message):
        generate(seed=1, **kwargs)  # type: ignore[arg-type]


def test_unreached_window_says_what_it_saw() -> None:
    with pytest.raises(BudgetExceededError, match=r"difficulty SE 9.6-9.7 .*5 rating walks"):
        generate(seed=1, rating=(9.6, 9.7), ratings=5)


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["generate", *args], catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.c_only  # slow on the reference engine: the fallback pass leaves it to the C pass
def test_cli_rating_and_require() -> None:
    code, out, _ = run("-n", "3", "--seed", "8", "--rating", "4.0-6.0", "--require", "X-Wing")
    assert code == 0
    for line in out.split():
        r = sudokit.rate(Grid.parse(line))
        assert 4.0 <= r.se <= 6.0
        assert "X-Wing" in r.techniques


def test_cli_difficulty_csv_records_the_rating() -> None:
    code, out, _ = run("-n", "2", "--seed", "8", "--difficulty", "hard", "--to", "csv")
    assert code == 0
    rows = [line.split(",") for line in out.splitlines()]
    assert rows[0][-1] == "rating"
    for row in rows[1:]:
        assert float(row[-1]) == sudokit.rate(Grid.parse(row[0])).se


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--rating", "12.0-13.0"), "no puzzle rates above 11.0"),
        (("--rating", "hard"), "--rating must look like A-B"),
        (("--require", "Foo"), "unknown technique"),
        (("--rating", "9.6-9.7", "--ratings", "3", "--seed", "1"), "could not generate"),
    ],
)
def test_cli_errors(args: tuple[str, ...], message: str) -> None:
    code, _, err = run(*args)
    assert code == 2
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert message in lines[0]
