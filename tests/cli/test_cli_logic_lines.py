"""The text lines of ``hint``, ``explain`` and ``rate`` as a reader sees them: each step names
its technique once, and the technique table keeps its columns under long names."""

from __future__ import annotations

import io
import re

import pytest

from sudokit.cli.app import main
from sudokit.cli.logic import _Tally

#: Its path has an XY-Wing, an X-Wing and more (explained in about 0.1 s).
WINGS = "...92......68.3...19..7...623..4.1....1...7....8.3..297...8..91...5.72......64..."


def test_explain_names_each_technique_once(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "-p", WINGS]) == 0
    steps = [line for line in capsys.readouterr().out.splitlines() if line[3:5] == ". "]
    assert any(line[5:].startswith("XY-Wing (4.2): the pivot") for line in steps)
    for line in steps:
        name, _, text = line[5:].partition(": ")
        technique = re.sub(r" \(\d+\.\d\)$", "", name)
        assert not text.startswith(technique), line


def test_rate_table_aligns_long_technique_names() -> None:
    tally = _Tally()  # as a run that met SE's longest technique name leaves it
    long = "Dynamic Contradiction Forcing Chain (+ Forcing Chains)"
    for name, family in ((long, "forcing chains"), ("Hidden Single", "singles")):
        tally.rated += 1
        tally.puzzles[name] += 1
        tally.steps[name] += 12
        tally.cells[name] += 3
        tally.family_puzzles[family] += 1
        tally.family_steps[family] += 12
    out = io.StringIO()
    tally.write(out)
    families, techniques = out.getvalue().strip().split("\n\n")
    for table in (families, techniques.splitlines()[:-1]):
        rows = table.splitlines() if isinstance(table, str) else table
        assert len({len(row) for row in rows}) == 1, rows  # the columns end together
    assert any(row.startswith(long + " ") for row in techniques.splitlines())
