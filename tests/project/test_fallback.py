"""The no-C fallback end to end: with ``SUDOKIT_BACKEND=python`` a fresh interpreter solves,
counts and generates (9x9, seeded) exactly as one on the C backend does, and both agree with the
corpus. The children are real processes so that the backend is chosen at import, as for a user.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import sudokit
from support import CORPUS, require_c_backend

#: what each child computes: solve (status, solution), exact counts, seeded 9x9 generation
CHILD = """
import json, sys
import sudokit

job = json.load(sys.stdin)
out = {"backend": sudokit.BACKEND, "solve": [], "count": [], "generate": []}
for puzzle in job["puzzles"]:
    r = sudokit.solve(puzzle)
    unique = r.status.value == "unique"  # which of several solutions comes first is open
    out["solve"].append([r.status.value, str(r.solution) if unique else None])
    out["count"].append(sudokit.count_solutions(puzzle, 10_000))
for seed in job["seeds"]:
    g = sudokit.generate(size=9, seed=seed)
    out["generate"].append([str(g.puzzle), str(g.solution)])
print(json.dumps(out))
"""

#: 9x9 corpus cases with a known count below the limit: unique, several and none
CASES = [c for c in CORPUS if c.shape.n == 9 and c.shape.variant == "standard" and c.count < 10_000]
CASES = [c for c in CASES if c.count == 1][:6] + [c for c in CASES if c.count != 1][:6]
SEEDS = [1, 2, 3]


def _child(backend: str) -> dict[str, Any]:
    """Run CHILD in a fresh interpreter with ``SUDOKIT_BACKEND=backend``."""
    job = {"puzzles": [str(c.puzzle) for c in CASES], "seeds": SEEDS}
    env = {**os.environ, "SUDOKIT_BACKEND": backend}
    done = subprocess.run(
        [sys.executable, "-c", CHILD],
        input=json.dumps(job),
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""  # forcing the fallback is not worth a warning
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def test_python_fallback_matches_the_corpus_and_the_c_backend() -> None:
    assert len(CASES) >= 8
    assert any(c.count > 1 for c in CASES)
    fallback = _child("python")
    assert fallback["backend"] == "python"
    assert fallback["count"] == [c.count for c in CASES]
    for case, (status, solution) in zip(CASES, fallback["solve"], strict=True):
        if case.solution is not None:
            assert (status, solution) == ("unique", str(case.solution))
        elif case.count == 0:
            assert (status, solution) in (("none", None), ("invalid", None))
        else:
            assert (status, solution) == ("multiple", None)
    for puzzle, solution in fallback["generate"]:
        assert puzzle.count(".") > 0
        assert str(sudokit.solution(puzzle)) == solution
    require_c_backend(in_process=False)
    native = _child("c")
    assert native["backend"] == "c"
    assert {k: v for k, v in fallback.items() if k != "backend"} == {
        k: v for k, v in native.items() if k != "backend"
    }
