"""A JSON record nested too deeply to decode is one bad record wherever it stands in the
document: the records after it are still read (it lost every one of them when it came
first, or first after the ones before it)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from sudokit import formats
from sudokit.cli.app import main

GOOD = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
SOLVED = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"
DEEP = '{"puzzle": "................", "x": ' + "[" * 1000 + "]" * 1000 + "}"
BRACKETS_IN_TEXT = (
    '{"puzzle": "................", "note": "]]}}", "x": ' + "[" * 1000 + "]" * 1000 + "}"
)


@pytest.mark.parametrize(
    ("text", "bad_line"),
    [
        (f'{DEEP}\n"{GOOD}"\n', 1),  # first: every record after it was lost
        (f'"{GOOD}"\n{DEEP}\n"{GOOD}"\n', 2),  # between two good ones
        (f'[\n{DEEP},\n"{GOOD}"\n]\n', 2),  # first in a list of puzzles
        (f'[\n"{GOOD}",\n{BRACKETS_IN_TEXT},\n"{GOOD}"\n]\n', 3),  # brackets inside strings
    ],
)
def test_a_too_deep_record_costs_only_itself(text: str, bad_line: int) -> None:
    records = list(formats.read(io.BytesIO(text.encode()), "json"))
    bad = [r for r in records if r.error is not None]
    good = [r for r in records if r.grid is not None]
    assert [r.line for r in bad] == [bad_line]
    assert bad[0].error is not None
    assert "nested too deeply" in str(bad[0].error)
    assert len(good) == text.count(GOOD)
    assert all(str(r.grid) == GOOD for r in good)


def test_the_cli_solves_the_record_after_a_too_deep_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "deep.json"
    path.write_text(f'{DEEP}\n"{GOOD}"\n')
    code = main(["solve", str(path)])
    out, err = capsys.readouterr()
    assert out.splitlines() == ["!invalid", SOLVED]
    assert err.splitlines() == [
        f"sudokit: {path}:1: puzzle 1: column 1: bad JSON: nested too deeply"
    ]
    assert code == 2  # unreadable input, as every bad record
