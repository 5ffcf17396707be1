"""Fuzz every parser entry point: any input gives a value or a SudokuError.

Hypothesis property tests over every format's reader (strings and raw bytes), ``sniff``,
``Grid.parse``, ``parse_candidates``, the JSON decoder and puzzle values, and the box and
region-map parsers. The default run is quick (``max_examples`` modest); set
``SUDOKIT_FUZZ_EXAMPLES`` (e.g. 20000) for a longer campaign. Inputs are built from the
characters parsers care about (digits, letters, separators, JSON punctuation, NUL, odd
Unicode digits such as ``²``) so that they reach deep into the parsers, not only their first
check. The C binding's fuzz harness is ``tests/fuzz_core.py``.

Shape's own constructors (``Shape.jigsaw`` with a region list) raise :class:`ValueError` by
contract for bad arguments; through the text parsers every such error is a ParseError.
"""

from __future__ import annotations

import contextlib
import io
import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sudokit import formats
from sudokit.errors import SudokuError
from sudokit.formats import json as jsonfmt
from sudokit.grid import Grid
from sudokit.shape import Shape
from support.tiers import examples

EXAMPLES = int(os.environ.get("SUDOKIT_FUZZ_EXAMPLES", "150"))
FUZZ = settings(
    max_examples=examples(EXAMPLES),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

_ALPHABET = "0123456789.ABCDEFGabcxyz-_*|+:!,; \t\n\r#[]{}\"'/\\\x00²٣Ⅻ\ufeff\u00e9"
texts = st.text(alphabet=_ALPHABET, max_size=400) | st.text(max_size=200)


def _puzzle_like(draw: st.DrawFn) -> str:
    n = draw(st.sampled_from([4, 6, 9, 16]))
    cells = draw(st.text(alphabet="0123456789.ABCDEFG", min_size=n * n, max_size=n * n))
    noise = draw(st.text(alphabet=_ALPHABET, max_size=8))
    at = draw(st.integers(0, len(cells)))
    return cells[:at] + noise + cells[at:]


puzzleish = st.composite(_puzzle_like)()
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(alphabet=_ALPHABET, max_size=90),
    lambda inner: (
        st.lists(inner, max_size=20)
        | st.dictionaries(
            st.sampled_from(["puzzle", "solution", "box", "regions", "diagonals", "puzzles", "x"]),
            inner,
            max_size=5,
        )
    ),
    max_leaves=60,
)


def _ok_or_sudoku_error(fn: object, *args: object) -> None:
    with contextlib.suppress(SudokuError):
        fn(*args)  # type: ignore[operator]


@pytest.mark.slow
@FUZZ
@given(text=texts | puzzleish, fmt=st.sampled_from([None, *formats.FORMATS]))
def test_parse_any_text(text: str, fmt: str | None) -> None:
    _ok_or_sudoku_error(formats.parse, text, fmt)


@FUZZ
@given(text=texts | puzzleish)
def test_sniff_always_names_a_format(text: str) -> None:
    assert formats.sniff(text) in formats.FORMATS


@FUZZ
@given(data=st.binary(max_size=600), fmt=st.sampled_from([None, *formats.FORMATS]))
def test_read_any_bytes_never_raises(data: bytes, fmt: str | None) -> None:
    for record in formats.read(io.BytesIO(data), fmt):
        assert (record.grid is None) != (record.error is None)


@FUZZ
@given(text=texts | puzzleish)
def test_grid_parse(text: str) -> None:
    _ok_or_sudoku_error(Grid.parse, text)


@FUZZ
@given(text=texts)
def test_parse_candidates(text: str) -> None:
    _ok_or_sudoku_error(formats.parse_candidates, text)


@pytest.mark.slow
@FUZZ
@given(value=json_values)
def test_json_puzzle_values(value: object) -> None:
    _ok_or_sudoku_error(jsonfmt.grid_from_value, value, None)
    text = json.dumps(value)  # Infinity and NaN are written as such: read them back too
    _ok_or_sudoku_error(formats.parse, text, "json")
    _ok_or_sudoku_error(formats.parse, text.replace("\n", " "), "jsonl")


@FUZZ
@given(depth=st.integers(1, 3000), head=st.sampled_from(['{"puzzle": ', "", '{"regions": ']))
def test_deep_json(depth: int, head: str) -> None:
    text = head + "[" * depth + "]" * depth + ("}" if head else "")
    _ok_or_sudoku_error(formats.parse, text, "json")


@FUZZ
@given(text=texts)
def test_box_spec(text: str) -> None:
    _ok_or_sudoku_error(Shape.parse_box, text)


@FUZZ
@given(text=st.text(alphabet="ABCDEFGHI0123456789 \n,", max_size=120))
def test_region_map_text(text: str) -> None:
    with contextlib.suppress(ValueError):  # its documented contract (ParseError is one too)
        Shape.jigsaw(text)


def test_known_crashers() -> None:
    """Inputs whose non-SudokuError exceptions once aborted bulk runs, each now a ParseError naming
    what is wrong."""
    with pytest.raises(SudokuError):
        Grid.parse("0,0,0,²")
    regions = "[" + ",".join(["Infinity"] * 16) + "]"
    with pytest.raises(SudokuError, match="bad shape"):
        formats.parse('{"puzzle": "' + "." * 16 + '", "regions": ' + regions + "}", "json")
    for depth in (900, 990, 1500):
        with pytest.raises(SudokuError):
            formats.parse('{"puzzle": ' + "[" * depth + "]" * depth + "}", "json")
