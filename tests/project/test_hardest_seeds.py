"""``benchmarks/c/hardest_seeds.py``: the "hardest" set redrawn seed by seed, as bench_solve does.

The ratio to tdoku on 11 puzzles depends on the isomorphs drawn, so the
script redraws them for several seeds. Checked here on a small stand-in data directory (no
tdoku, no timing): every line drawn is an isomorph of its source puzzle (same canonical form),
a seed always gives the same draw and another seed another one; a missing tdoku is one line.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

import support
from sudokit import Grid, Shape
from sudokit.transform import canonical

# A benchmark of the C core (and canonical forms are slow on the pure-Python fallback).
pytestmark = pytest.mark.c_only

ROOT = support.REPO
NINE = Shape(3, 3)


@pytest.fixture(scope="module")
def seeds() -> Iterator[ModuleType]:
    spec = importlib.util.spec_from_file_location(
        "sudokit_hardest_seeds_test", ROOT / "benchmarks" / "c" / "hardest_seeds.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    yield module
    del sys.modules[spec.name]


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory, seeds: ModuleType) -> Path:
    """Every set bench_solve draws, three puzzles each (different ones per set)."""
    lines = (ROOT / "tests" / "data" / "logic_puzzles.txt").read_text().split()
    puzzles = [line for line in lines if len(line) == 81]
    out = tmp_path_factory.mktemp("data")
    for k, name in enumerate(seeds.bs.DEFAULT_ORDER):
        (out / f"{name}.txt").write_text("\n".join(puzzles[3 * k : 3 * k + 3]) + "\n")
    return out


def test_seed_list(seeds: ModuleType) -> None:
    assert seeds.seed_list("1-3,7") == [1, 2, 3, 7]
    assert seeds.seed_list("5") == [5]


@pytest.mark.slow
def test_draw_is_isomorphs_of_the_hardest_set(
    seeds: ModuleType, data: Path, tmp_path: Path
) -> None:
    small, many = seeds.draw(3, data, tmp_path / "a")
    sources = [Grid.parse(p, NINE) for p in (data / "hardest.txt").read_text().split()]
    drawn = small.read_text().split()
    companion = many.read_text().split()
    assert len(drawn) == 3
    assert len(companion) == 300
    for k, line in enumerate(drawn + companion):
        assert canonical(Grid.parse(line, NINE)) == canonical(sources[k % 3])
    assert len(set(companion)) == 300
    again = seeds.draw(3, data, tmp_path / "b")
    assert [p.read_text() for p in again] == [small.read_text(), many.read_text()]
    other = seeds.draw(4, data, tmp_path / "c")
    assert other[0].read_text() != small.read_text()


def test_missing_tdoku_is_one_line(
    seeds: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert seeds.main(["--seeds", "1", "--tdoku", str(tmp_path / "none")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert err[0].startswith("hardest_seeds: tdoku not found")
