"""Fuzz target for the parsers (atheris, coverage-guided): any bytes give a value or a
SudokuError, never another exception.

    python tests/fuzz_parsers.py --seconds 30      # a smoke run (CI)
    python tests/fuzz_parsers.py [libFuzzer args]  # a longer local session

Each input is read as a stream of records in a fuzzed format (``formats.read`` on the raw
bytes: every record is a grid or an error, never both), and its text is given to
``formats.sniff``, ``formats.parse``, ``Grid.parse`` (with and without a declared alphabet),
``formats.parse_candidates``, the bulk line reader (``blocks.solve_block``), the JSON puzzle
reader, the f-puzzles / SudokuPad link and object readers and the lz-string decoder (a
ValueError is its contract). The hypothesis properties in
``tests/formats/test_fuzz_parsers.py`` and ``tests/formats/test_variant_formats.py`` cover the
same entry points in every test run; this harness
is for longer, coverage-guided runs. Not collected by pytest (no ``test_`` prefix); atheris
is imported only when run.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import io
import json
import sys
import types

from sudokit import blocks, formats
from sudokit.errors import SudokuError
from sudokit.formats import fpuzzles, lzstring, sudokupad
from sudokit.formats import json as jsonfmt
from sudokit.grid import Grid

FORMATS = [None, *formats.FORMATS]


def _call(fn: object, *args: object, **kwargs: object) -> None:
    with contextlib.suppress(SudokuError):
        fn(*args, **kwargs)  # type: ignore[operator]


def one_input(data: bytes) -> None:
    """Check one fuzzed input (raises on a contract breach: atheris reports it)."""
    if not data:
        return
    fmt = FORMATS[data[0] % len(FORMATS)]
    body = data[1:]
    for record in formats.read(io.BytesIO(body), fmt):
        if (record.grid is None) == (record.error is None):
            raise AssertionError(f"record {record.index}: grid and error both set or unset")
    text = body.decode("utf-8", "replace")
    if formats.sniff(text) not in formats.FORMATS:
        raise AssertionError("sniff named no format")
    _call(formats.parse, text, fmt)
    _call(Grid.parse, text)
    _call(Grid.parse, text, symbols="0-9A-F")
    _call(formats.parse_candidates, text)
    blocks.solve_block(body, budget=1000)  # the bulk line reader never raises on any bytes
    _call(fpuzzles.parse_link, text)
    _call(sudokupad.from_text, text)
    with contextlib.suppress(ValueError):
        lzstring.decompress(text)
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return
    _call(jsonfmt.grid_from_value, value, None)
    _call(fpuzzles.from_object, value)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=int, default=0, help="stop after this many seconds")
    args, libfuzzer_args = parser.parse_known_args()
    import atheris  # type: ignore[import-not-found,unused-ignore]

    libfuzzer_args = [sys.argv[0], *libfuzzer_args]
    if args.seconds:
        libfuzzer_args.append(f"-max_total_time={args.seconds}")
    # Only sudokit's own functions: instrumenting every loaded function (NumPy's too) took
    # 24 s of CPU before the first input, more than a smoke run's fuzzing.
    for obj in gc.get_objects():
        if isinstance(obj, types.FunctionType) and (obj.__module__ or "").startswith("sudokit"):
            atheris.instrument_func(obj)
    atheris.Setup(libfuzzer_args, one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
