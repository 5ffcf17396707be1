"""Generate the constant tables of csrc/sk_fast9.c (between its @@BEGIN/END TABLES@@ markers).

    python benchmarks/c/gen_fast9_tables.py            # print them
    python benchmarks/c/gen_fast9_tables.py --write    # rewrite them in csrc/sk_fast9.c

Layout (see sk_fast9.c): a band is 27 bits, bit ``r*9 + c`` for row r (0..2) and column c (0..8)
of the band. A *minirow* is the 3-cell intersection of a row and a box of the band; minirow
``r*3 + k`` covers bits ``r*9 + 3k .. r*9 + 3k + 2``.
"""

from __future__ import annotations

from itertools import permutations


def minirow_cells(j: int) -> int:
    r, k = divmod(j, 3)
    return 7 << (r * 9 + 3 * k)


def shrink(occ: int) -> int:
    """Cells of the minirows (of *occ*) that lie on some row->box permutation inside *occ*."""
    keep = 0
    for perm in permutations(range(3)):
        bits = [r * 3 + perm[r] for r in range(3)]
        if all(occ >> b & 1 for b in bits):
            for b in bits:
                keep |= minirow_cells(b)
    return keep


def locked(cols: int) -> int:
    """Columns that are the only column of their stack present in *cols*."""
    out = 0
    for k in range(3):
        g = cols >> (3 * k) & 7
        if g in (1, 2, 4):
            out |= g << (3 * k)
    return out


def emit(name: str, ctype: str, values: list[int], per_line: int, width: int) -> str:
    lines = [f"static const {ctype} {name}[{len(values)}] = {{"]
    for i in range(0, len(values), per_line):
        chunk = values[i : i + per_line]
        lines.append("    " + ", ".join(f"0x{v:0{width}x}u" for v in chunk) + ",")
    lines.append("};")
    return "\n".join(lines) + "\n"


def tables() -> str:
    return (
        "/* minirow set (bit r*3+k) -> cells of its minirows on a row->box permutation */\n"
        + emit("SHRINK", "uint32_t", [shrink(o) for o in range(512)], 8, 7)
        + "/* column set -> the columns that are alone in their stack */\n"
        + emit("LOCKED", "uint16_t", [locked(c) for c in range(512)], 12, 3)
    )


if __name__ == "__main__":
    import pathlib
    import re
    import sys

    text = tables()
    if "--write" in sys.argv[1:]:
        path = pathlib.Path(__file__).resolve().parents[2] / "csrc" / "sk_fast9.c"
        src = path.read_text()
        begin, end = "/* @@BEGIN TABLES@@ */\n", "/* @@END TABLES@@ */\n"
        pattern = re.escape(begin) + ".*?" + re.escape(end)
        new, n = re.subn(pattern, lambda _m: begin + text + end, src, flags=re.S)
        if n != 1:
            sys.exit("markers not found in " + str(path))
        path.write_text(new)
    else:
        sys.stdout.write(text)
