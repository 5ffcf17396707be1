"""The C core as a module of its own (csrc/sk_module.c): multi-phase init, its types heap
types kept in the module's state, as immutable and final as the static types they replaced.
"""

from __future__ import annotations

import importlib.util

import pytest

from sudokit.shape import Shape

_core = pytest.importorskip("sudokit._core", reason="the C core is not built")

HEAPTYPE = 1 << 9  # Py_TPFLAGS_HEAPTYPE
TYPES = (
    "Geometry",
    "ChainMode",
    "Chainer",
    "ChainRun",
    "InChain",
    "HumanShape",
    "Exclusion",
    "Uniq",
)


@pytest.mark.parametrize("name", TYPES)
def test_types_are_immutable_final_heap_types(name: str) -> None:
    cls = getattr(_core, name)
    assert cls.__flags__ & HEAPTYPE
    assert (cls.__module__, cls.__qualname__) == ("sudokit._core", name)
    with pytest.raises(TypeError, match="immutable"):
        cls.extra = 1
    with pytest.raises(TypeError, match="not an acceptable base type"):
        type("Sub", (cls,), {})


def test_chain_run_is_made_only_by_chainer_run() -> None:
    with pytest.raises(TypeError, match="cannot create"):
        _core.ChainRun()


def test_a_second_module_instance_has_its_own_types() -> None:
    """Each module object made from the extension (PEP 489) has its own types in its state:
    the argument checks of one instance look at its own Geometry type."""
    spec = importlib.util.find_spec("sudokit._core")
    assert spec is not None
    assert spec.loader is not None
    other = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(other)
    assert other is not _core
    assert other.Geometry is not _core.Geometry
    units = Shape(2, 2).units
    assert other.search(other.Geometry(4, units), bytes(16), 1, 0, 0)[0] == 1
    with pytest.raises(TypeError, match=r"geometry must be a sudokit\._core\.Geometry"):
        other.search(_core.Geometry(4, units), bytes(16), 1, 0, 0)
