"""Bulk machinery: shard ranges, the resumable manifest, dataset rows, de-duplication."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from sudokit import Grid, Shape, generate, rate
from sudokit._reference import search as reference_search
from sudokit.batch import (
    DatasetSpec,
    Manifest,
    canonical_key,
    chunk_ranges,
    dataset_chunks,
    dataset_rows,
    dataset_shard_rows,
    local_mapper,
    map_file,
    merge_rows,
    rate_lines,
    read_rows,
    run_shards,
    solve_lines,
    write_dataset,
)
from sudokit.errors import SudokuError
from sudokit.generator import derive_seed
from sudokit.rating import level_of
from sudokit.transform import canonical, random_isomorph

NINE = Shape(3, 3)


@pytest.mark.parametrize(("total", "size"), [(0, 3), (1, 1), (10, 3), (97, 10), (1000, 1000)])
@pytest.mark.parametrize("k", [1, 2, 3, 7])
def test_parts_in_order_cover_the_run_once(total: int, size: int, k: int) -> None:
    whole = [j for _, r in chunk_ranges(total, size) for j in r]
    assert whole == list(range(total))
    parts = [list(chunk_ranges(total, size, (i, k))) for i in range(1, k + 1)]
    assert [j for p in parts for _, r in p for j in r] == whole
    # a shard cut by a part boundary keeps its number (its rows depend on the index only)
    assert all(len(r) <= size and r.start // size == c for p in parts for c, r in p)


def test_manifest_resume_skips_finished_shards_and_ignores_a_torn_line(tmp_path: Path) -> None:
    calls: list[list[int]] = []

    def square(xs: list[int]) -> list[str]:
        calls.append(xs)
        return [str(x * x) for x in xs]

    tasks = [(c, list(range(3 * c, 3 * c + 3))) for c in range(4)]
    m = Manifest(tmp_path / "w", {"a": 1}, resume=False)
    run_shards(square, tasks[:2], m)  # "interrupted" after two shards
    with open(tmp_path / "w" / "manifest.jsonl", "a") as f:
        f.write('{"shard": 2, "ro')  # killed mid-write
    (tmp_path / "w" / "part-0000003.tmp").write_text("junk")
    calls.clear()
    seen: list[int] = []
    m2 = Manifest(tmp_path / "w", {"a": 1}, resume=True)
    assert sorted(m2.done) == [0, 1]
    assert not list((tmp_path / "w").glob("*.tmp"))
    run_shards(square, tasks, m2, progress=seen.append)
    assert calls == [tasks[2][1], tasks[3][1]]
    assert seen == [6, 3, 3]
    lines = [line for c in range(4) for line in m2.read(c)]
    assert lines == [str(x * x) for x in range(12)]
    with pytest.raises(SudokuError, match="other options"):
        Manifest(tmp_path / "w", {"a": 2}, resume=True)
    with pytest.raises(SudokuError, match="--resume, or discard them with --force"):
        Manifest(tmp_path / "w", {"a": 2}, resume=False)  # finished shards are not dropped
    assert sorted(Manifest(tmp_path / "w", {"a": 1}, resume=True).done) == [0, 1, 2, 3]
    fresh = Manifest(tmp_path / "w", {"a": 2}, resume=False, force=True)
    assert fresh.done == {}
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "keep.txt").write_text("not ours")
    with pytest.raises(SudokuError, match="not a sudokit work directory"):
        Manifest(tmp_path / "other", {}, resume=False)
    assert (tmp_path / "other" / "keep.txt").exists()


def test_local_pool_runs_every_shard_once() -> None:
    got = dict(local_mapper(2)(abs, [(c, -c) for c in range(20)]))
    assert got == {c: c for c in range(20)}


def _independently_unique(puzzle: Grid) -> bool:
    count, _, _, complete = reference_search(puzzle.shape, puzzle.cells, 2, 0, 0)
    return bool(complete and count == 1)


def test_dataset_rows_are_correct() -> None:
    spec = DatasetSpec(n=12, seed=42)
    rows = dataset_rows(spec, range(4, 12))
    assert len(rows) == 8
    for j, row in zip(range(4, 12), rows, strict=True):
        puzzle, solution = Grid.parse(row["puzzle"]), Grid.parse(row["solution"])
        assert puzzle.shape == NINE
        assert solution.is_solution(puzzle)
        assert _independently_unique(puzzle)
        assert row["clues"] == sum(1 for v in puzzle.cells if v) == puzzle.clues
        assert isinstance(row["guesses"], int)
        assert row["guesses"] >= 0
        assert row["symmetry"] == "none"
        assert row["seed"] == derive_seed(42, j)
        # the seed regenerates the row's puzzle on its own
        assert str(generate(seed=row["seed"]).puzzle) == row["puzzle"]
    assert len({r["puzzle"] for r in rows}) == len(rows)


def test_rated_rows_carry_rating_and_level() -> None:
    rows = dataset_rows(DatasetSpec(n=3, seed=5, rate=True), range(3))
    for row in rows:
        assert row["level"] == level_of(row["rating"])
        assert row["rating"] == round(rate(Grid.parse(row["puzzle"])).se, 1)


def test_augmented_rows_are_isomorphs_of_their_original() -> None:
    rows = dataset_rows(DatasetSpec(n=2, seed=9, augment=3, dedupe=True), range(2))
    assert [r["isomorph"] for r in rows] == [0, 1, 2, 3] * 2
    for group in (rows[:4], rows[4:]):
        forms = {str(canonical(Grid.parse(r["puzzle"]))) for r in group}
        assert len(forms) == 1
        assert len({r["puzzle"] for r in group}) == 4
        for r in group:
            assert Grid.parse(r["solution"]).is_solution(Grid.parse(r["puzzle"]))
            assert r["clues"] == group[0]["clues"]
            assert r["seed"] == group[0]["seed"]
    assert rows[0]["_key"] != rows[4]["_key"]


def test_canonical_key_collapses_isomorphs_only() -> None:
    rng = random.Random(3)
    puzzles = [generate(seed=s).puzzle for s in range(4)]
    keys = [canonical_key(p) for p in puzzles]
    assert len(set(keys)) == 4  # distinct puzzles stay distinct
    for p, k in zip(puzzles, keys, strict=True):
        assert canonical_key(random_isomorph(p, rng)) == k
    # one clue changed is a different puzzle
    cells = bytearray(puzzles[0].cells)
    i = cells.index(0)
    cells[i] = next(d for d in range(1, 10) if not Grid(bytes(cells), NINE).conflicts())
    assert canonical_key(Grid(bytes(cells), NINE)) != keys[0]


def test_merge_drops_later_equivalent_puzzles(tmp_path: Path) -> None:
    rng = random.Random(1)
    a, b = generate(seed=1).puzzle, generate(seed=2).puzzle

    def row(g: Grid, iso: int | None = None) -> str:
        r: dict[str, object] = {"puzzle": str(g), "_key": canonical_key(g)}
        if iso is not None:
            r["isomorph"] = iso
        return json.dumps(r)

    m = Manifest(tmp_path / "w", {}, resume=False)
    twin = random_isomorph(a, rng)
    m.write(0, [row(a), row(b)])
    m.write(1, [row(twin), row(b), row(random_isomorph(b, rng))])
    kept = [r["puzzle"] for r in merge_rows(m, [0, 1], dedupe=True)]
    assert kept == [str(a), str(b)]
    assert len(list(merge_rows(m, [0, 1], dedupe=False))) == 5
    # with augmentation an original's isomorphs are kept with it, a later duplicate's dropped
    m.write(2, [row(a, 0), row(twin, 1), row(b, 0), row(twin, 0), row(a, 1)])
    kept = [r["puzzle"] for r in merge_rows(m, [2], dedupe=True)]
    assert kept == [str(a), str(twin), str(b)]


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def test_write_dataset_same_rows_whatever_jobs_and_parts(tmp_path: Path) -> None:
    spec = DatasetSpec(n=30, seed=11, size=4, augment=1)
    one = tmp_path / "one.csv"
    assert write_dataset(one, spec, shard_rows=4) == 60
    two = tmp_path / "two.csv"
    write_dataset(two, spec, jobs=2, shard_rows=4)
    assert _text(one) == _text(two)
    assert not (tmp_path / "one.csv.parts").exists()
    body: list[str] = []
    for i in (1, 2, 3):
        p = tmp_path / f"p{i}.csv"
        write_dataset(p, spec, part=(i, 3), shard_rows=4)
        body += _text(p).splitlines()[1:]
    assert body == _text(one).splitlines()[1:]
    other_size = tmp_path / "s.csv"
    write_dataset(other_size, spec, shard_rows=7)
    assert _text(other_size) == _text(one)


def test_jsonl_matches_csv(tmp_path: Path) -> None:
    spec = DatasetSpec(n=6, seed=2, size=4)
    write_dataset(tmp_path / "a.csv", spec)
    write_dataset(tmp_path / "a.jsonl", spec, fmt="jsonl")
    csv_rows = list(read_rows(tmp_path / "a.csv"))
    json_rows = list(read_rows(tmp_path / "a.jsonl"))
    assert [{k: str(v) for k, v in r.items()} for r in json_rows] == csv_rows
    assert list(json_rows[0]) == list(spec.columns())


def test_parquet_matches_jsonl(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    spec = DatasetSpec(n=8, seed=4, rate=True)
    write_dataset(tmp_path / "a.jsonl", spec, fmt="jsonl", shard_rows=3)
    write_dataset(tmp_path / "a.parquet", spec, fmt="parquet", shard_rows=3)
    parquet_rows = list(read_rows(tmp_path / "a.parquet"))
    assert all(isinstance(r["seed"], int) for r in parquet_rows)  # parquet has uint64
    # JSON numbers are exact only to 2**53, so JSONL carries the 64-bit seed as a string
    assert [{**r, "seed": str(r["seed"])} for r in parquet_rows] == list(
        read_rows(tmp_path / "a.jsonl")
    )


def test_bad_requests_are_refused(tmp_path: Path) -> None:
    with pytest.raises(SudokuError, match="9x9"):
        write_dataset(tmp_path / "x.csv", DatasetSpec(n=2, seed=1, size=4, dedupe=True))
    with pytest.raises(SudokuError, match="format"):
        write_dataset(tmp_path / "x.xml", DatasetSpec(n=2, seed=1), fmt="xml")
    with pytest.raises(SudokuError, match="shard"):
        dataset_chunks(DatasetSpec(n=2, seed=1), (3, 2))


# -- bulk solving and rating of files -------------------------------------------------------

_STOP_AT: list[int] = []


def _solve_or_stop(lines: list[str]) -> list[str]:
    """solve_lines, but raising on the shard starting at line _STOP_AT[0] (an "interruption")."""
    if _STOP_AT and lines and lines[0] == _STOP_AT[0]:
        raise KeyboardInterrupt
    return solve_lines(lines)


def _puzzle_file(tmp_path: Path, count: int) -> tuple[Path, list[str]]:
    rng = random.Random(5)
    lines = [str(generate(size=4, seed=s).puzzle) for s in range(count)]
    lines[3] = "1" * 16  # conflicting givens
    lines[7] = "not a puzzle"
    lines.insert(9, "")
    lines += [str(random_isomorph(Grid.parse(lines[0]), rng))]
    path = tmp_path / "in.txt"
    path.write_text("\n".join(lines) + "\n")
    return path, lines


def test_map_file_solves_each_line_in_order(tmp_path: Path) -> None:
    src, lines = _puzzle_file(tmp_path, 40)
    out = tmp_path / "out.txt"
    assert map_file(solve_lines, src, out, shard_rows=6) == 41  # the blank line gives none
    got = out.read_text().splitlines()
    puzzles = [line for line in lines if line]
    for puzzle, answer in zip(puzzles, got, strict=True):
        if answer.startswith("!"):
            assert answer == "!invalid"
            assert puzzle in ("1" * 16, "not a puzzle")
        else:
            assert Grid.parse(answer).is_solution(Grid.parse(puzzle))
    assert got.count("!invalid") == 2
    two = tmp_path / "two.txt"
    map_file(solve_lines, src, two, shard_rows=4, jobs=2)
    assert two.read_text() == out.read_text()


def test_map_file_resumes_after_an_interruption(tmp_path: Path) -> None:
    src, lines = _puzzle_file(tmp_path, 30)
    ref = tmp_path / "ref.txt"
    map_file(solve_lines, src, ref, shard_rows=5)
    out = tmp_path / "out.txt"
    _STOP_AT[:] = [lines[20]]
    try:
        with pytest.raises(KeyboardInterrupt):
            map_file(_solve_or_stop, src, out, shard_rows=5)
    finally:
        _STOP_AT.clear()
    assert not out.exists()
    seen: list[int] = []
    map_file(_solve_or_stop, src, out, shard_rows=5, resume=True, progress=seen.append)
    assert seen == [19, 5, 5, 2]  # four shards (one blank line) done before, then the rest
    assert out.read_text() == ref.read_text()
    src.write_text("".join(f"{line}\n" for line in lines[:5]))  # the input changed
    map_file(_solve_or_stop, src, out, shard_rows=5)
    out.with_name("out.txt.parts").mkdir()
    (out.with_name("out.txt.parts") / "manifest.jsonl").write_text('{"params": {}}\n')
    with pytest.raises(SudokuError, match="other options"):
        map_file(_solve_or_stop, src, out, shard_rows=5, resume=True)


def test_rate_lines_gives_json_per_puzzle() -> None:
    puzzle = str(generate(seed=3).puzzle)
    got = [json.loads(line) for line in rate_lines([puzzle, "", "zz"])]
    assert got[0]["puzzle"] == puzzle
    assert got[0]["rating"] == rate(Grid.parse(puzzle)).se
    assert "error" in got[1]
    assert len(got) == 2


def test_map_file_reads_lines_as_a_text_file_does(tmp_path: Path) -> None:
    # shards are cut as bytes and decoded by the workers: CRLF, a lone CR, text that is not
    # ASCII and a last line without a line feed must come out as line-by-line reading gives them
    src = tmp_path / "in.txt"
    src.write_bytes("a\r\nb\rc\n\nd\u00e9\u2028x\n\r\nlast".encode())
    with open(src, encoding="utf-8") as f:
        expected = [line.rstrip("\n") for line in f]
    assert expected == ["a", "b", "c", "", "d\u00e9\u2028x", "", "last"]
    for rows, jobs in ((1, 1), (2, 2), (100, 1)):
        out = tmp_path / f"out{rows}.txt"
        assert map_file(_echo, src, out, shard_rows=rows, jobs=jobs) == len(expected)
        assert out.read_text(encoding="utf-8").split("\n")[:-1] == [f"<{e}>" for e in expected]


def _echo(lines: list[str]) -> list[str]:
    return [f"<{line}>" for line in lines]


def test_solve_file_counts_marker_lines_across_blocks(tmp_path: Path) -> None:
    from sudokit.batch import _count_markers

    path = tmp_path / "out.txt"
    lines = ["!none", "123", "!x", "!", "4!", "", "!invalid"]
    path.write_text("".join(f"{line}\n" for line in lines))
    for size in (1, 2, 3, 5, 1 << 20):
        assert _count_markers(path, size) == sum(line.startswith("!") for line in lines)


def test_manifest_takes_a_shard_as_one_text(tmp_path: Path) -> None:
    m = Manifest(tmp_path / "w", {}, resume=False)
    assert m.write(0, "a\nb\n") == 2
    assert m.write(1, ["c"]) == 1
    assert m.write(2, "") == 0
    with pytest.raises(ValueError, match="line feed"):
        m.write(3, "d")
    assert [line for c in (0, 1, 2) for line in m.read(c)] == ["a", "b", "c"]
    with open(tmp_path / "all.txt", "wb") as f:
        assert m.copy([0, 1, 2], f) == 3
    assert (tmp_path / "all.txt").read_text() == "a\nb\nc\n"


def test_text_shards_drop_the_same_duplicates_as_json_shards(tmp_path: Path) -> None:
    # csv/jsonl shards carry the key as a prefix and are merged without parsing the rows;
    # they must keep exactly the rows merge_rows keeps from JSON shards
    from sudokit.dataset import _copy_kept

    rng = random.Random(4)
    a, b = generate(seed=1).puzzle, generate(seed=2).puzzle
    twin = random_isomorph(a, rng)
    rows = [(a, 0), (twin, 1), (b, 0), (twin, 0), (a, 1), (random_isomorph(b, rng), 0)]
    rows += [(a, 0)]
    as_json, as_text = Manifest(tmp_path / "j", {}, resume=False), []
    records = [{"puzzle": str(g), "isomorph": k, "_key": canonical_key(g)} for g, k in rows]
    as_json.write(0, [json.dumps(r) for r in records[:4]])
    as_json.write(1, [json.dumps(r) for r in records[4:]])
    kept = [r["puzzle"] for r in merge_rows(as_json, [0, 1], dedupe=True)]
    assert kept == [str(a), str(twin), str(b)]
    for r in records:
        as_text.append(f"{r['_key'] if r['isomorph'] == 0 else ''}\t{r['puzzle']},{r['isomorph']}")
    m = Manifest(tmp_path / "t", {}, resume=False)
    m.write(0, as_text[:3])
    m.write(1, as_text[3:])
    with open(tmp_path / "out.csv", "wb") as f:
        assert _copy_kept(m, [0, 1], f) == 3
    assert [line.split(",")[0] for line in (tmp_path / "out.csv").read_text().split()] == kept


def test_default_shard_size_gives_the_same_file(tmp_path: Path) -> None:
    spec = DatasetSpec(n=150, seed=6, size=4, augment=1, dedupe=False)
    assert dataset_shard_rows(150) == 100
    assert len(list(dataset_chunks(spec))) == 2
    write_dataset(tmp_path / "a.jsonl", spec, fmt="jsonl", jobs=2)
    write_dataset(tmp_path / "b.jsonl", spec, fmt="jsonl", shard_rows=7)
    assert _text(tmp_path / "a.jsonl") == _text(tmp_path / "b.jsonl")
    rows = list(read_rows(tmp_path / "a.jsonl"))
    assert len(rows) == 300
    assert all(Grid.parse(r["solution"]).is_solution(Grid.parse(r["puzzle"])) for r in rows)
