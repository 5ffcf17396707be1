"""The C chainer against its Python specification (tests/logic/test_chain_c_forcing.py,
tests/logic/test_chain_c_relations.py): what SE's forcing-chain rule *rank* finds on one
candidate state, read so that two backends' findings compare equal only when every hint, every
run behind it (each potential in order, its ancestors and parents, the contradiction, why each
potential holds) and every step's text are."""

from __future__ import annotations

import pytest

import support
from sudokit.logic import forcing
from sudokit.logic.candidates import CandidateGrid
from sudokit.logic.chaining import geometry


def _run(out: forcing._Outcome) -> tuple[object, ...]:
    return (dict(out.anc), dict(out.parents), out.absurd, out.nest_bits, out.nested, out.causes)


def found(cg: CandidateGrid, rank: int, record: bool) -> list[object]:
    """The hints of rule *rank* on *cg* (*record*: as nested in a chain), their runs (each
    outcome once) and the rule's steps' texts."""
    forcing._LEVEL0.clear()
    hints = forcing._collect(geometry(cg.shape), cg.masks, rank, record=record)
    runs: dict[int, tuple[object, ...]] = {}  # each outcome compared once
    out: list[object] = []
    for h in hints:
        for _, o in h.chains:
            if id(o) not in runs:
                runs[id(o)] = _run(o)
        out.append((h.order(), h.kind, h.target, h.source, h.digit, [p for p, _ in h.chains]))
    out.append(list(runs.values()))
    out.append([s.text for s in forcing.forcing_hints(cg, rank, exhaustive=True)])
    return out


def both(monkeypatch: pytest.MonkeyPatch, cg: CandidateGrid, rank: int, record: bool) -> int:
    """Assert :func:`found` is the same with the C twins and without; the number of hints."""
    c = found(cg, rank, record)
    with monkeypatch.context() as m:
        support.python_twins(m)
        py = found(cg, rank, record)
    forcing._LEVEL0.clear()
    assert c == py
    return len(c) - 2
