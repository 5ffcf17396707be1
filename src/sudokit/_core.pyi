"""Type stub of the C core ``sudokit._core`` (csrc/sk_module.c); tests keep it in sync."""

from collections.abc import Callable, Sequence
from typing import Any, Final, Literal, overload

ABI_VERSION: Final[int]
MAX_SIZE: Final[int]
MAX_BATCH: Final[int]
FAST9: Final[bool]
COMPILER: Final[str]
BUILD_FLAGS: Final[str]

class Geometry:
    """Immutable geometry of a shape: n in 1..64, its units and its variant rules."""

    @property
    def n(self) -> int: ...
    @property
    def ncells(self) -> int: ...
    @property
    def nunits(self) -> int: ...
    @property
    def standard9(self) -> bool: ...
    @property
    def rules(self) -> bool: ...
    def __init__(
        self,
        n: int,
        units: Sequence[Sequence[int]],
        *,
        generic: bool = False,
        different: Sequence[Sequence[int]] | None = None,
        allowed: Sequence[int] | None = None,
        relations: Sequence[tuple[int, int, Sequence[int]]] | None = None,
        cages: Sequence[tuple[Sequence[int], int | None]] | None = None,
        linear: Sequence[tuple[Sequence[int], Sequence[int], int]] | None = None,
        groups: Sequence[tuple[int, Sequence[int], Sequence[int]]] | None = None,
    ) -> None: ...

def search(
    geometry: Geometry, cells: bytes, limit: int, keep: int, budget: int, /
) -> tuple[int, tuple[bytes, ...], int, bool]: ...
def search_batch(
    geometry: Geometry, puzzles: bytes, limit: int, budget: int, threads: int, /
) -> tuple[list[int], bytes, list[int], list[bool]]: ...
def search_items(
    geometry: Geometry,
    shape: object,
    items: tuple[object, ...],
    table: bytes | None,
    grid_type: type | None,
    limit: int,
    budget: int,
    threads: int,
    record: tuple[type, tuple[str, ...], tuple[object, ...]],
    /,
) -> tuple[list[Any], list[tuple[int, Any, int, bytes | None, int, bool]], list[int]]: ...
def reduce(
    geometry: Geometry,
    cells: bytes,
    order: Sequence[int],
    group_ends: Sequence[int],
    budget: int,
    max_searches: int | None = None,
    /,
) -> tuple[bytes, int, bool, bool]: ...
def fill(
    geometry: Geometry,
    order: Sequence[int],
    ends: Sequence[int] | None,
    draw: Callable[[], float],
    budget: int,
    max_searches: int | None = None,
    /,
) -> tuple[bytes | None, bytes | None, int, bool]: ...
def random_puzzle(
    geometry: Geometry,
    cells: Sequence[int],
    ends: Sequence[int],
    complete_orbits: bool,
    draw: Callable[[], float],
    budget: int,
    max_searches: int | None = None,
    /,
) -> tuple[bytes | None, bytes | None, list[int], int, bool, bool]: ...
def canonical9(cells: bytes, /) -> bytes: ...
def lines(
    geometry: Geometry,
    data: bytes,
    start: int,
    mode: int,
    unique: int,
    limit: int,
    shown: int,
    budget: int,
    stop: bytearray | None = None,
    /,
) -> tuple[bytes, tuple[tuple[int, int, int, int, int, int, int, int], ...], int, int, int]: ...

class ChainMode:
    """SE's "Forcing Chains & Cycles" searches of one mode on one candidate state
    (csrc/sk_chain.c; the specification is sudokit.logic.cycles._Mode)."""

    def __init__(
        self,
        n: int,
        units: Sequence[Sequence[int]],
        unit_order: Sequence[Sequence[int]],
        masks: Sequence[int],
        y: bool,
        x: bool,
        *,
        relations: bytes | None = None,
        peers: Sequence[Sequence[int]] | None = None,
    ) -> None: ...
    @property
    def sources(self) -> tuple[int, ...]: ...
    @property
    def bounds(self) -> tuple[tuple[int, int, int], ...]: ...
    def hints(self, cap: int, /) -> list[tuple[int, int, tuple[int, ...]]]: ...
    def best(
        self, cap: int, base_cycle: int, base_chain: int, thresholds: Sequence[int], /
    ) -> tuple[int, int, int, tuple[int, ...]] | None: ...

class ChainRun:
    """The outcome of one :meth:`Chainer.run`: the potentials reached, in order, with their
    ancestor sets and parents; the contradiction; why each potential holds; where a dynamic
    run without contradiction stopped (the specification is sudokit.logic.forcing._Run)."""

    @property
    def index(self) -> dict[int, int]: ...
    @property
    def absurd(self) -> tuple[tuple[int, int], tuple[int, int], int, tuple[int, ...]] | None: ...
    def causes(self) -> dict[int, int]: ...
    def end(self) -> tuple[list[int], list[int]] | None: ...
    def anc_at(self, slot: int, /) -> int: ...
    def size_at(self, slot: int, /) -> int: ...
    def parents_at(self, slot: int, /) -> tuple[int, ...]: ...

class Chainer:
    """SE's forcing-chain runs at nesting level 0 on one candidate state (csrc/sk_chain.c)."""

    def __init__(
        self,
        n: int,
        units: Sequence[Sequence[int]],
        unit_order: Sequence[Sequence[int]],
        masks: Sequence[int],
        y: bool,
        dynamic: bool,
    ) -> None: ...
    def relate(self, records: bytes, /) -> None: ...
    def run(self, start: int, /) -> ChainRun: ...
    def nested(
        self, multiple: bool, sort_keys: Sequence[int], save: Sequence[int], shape: InChain, /
    ) -> list[tuple[int, tuple[int, ...], tuple[int, ...], tuple[tuple[int, ...], ...]]]: ...
    def best(
        self,
        nishio: bool,
        multiple: bool,
        base10: int,
        thresholds: Sequence[int],
        sort_keys: Sequence[int],
        /,
    ) -> tuple[int, int, int, int, int, int] | None: ...

class HumanShape:
    """A shape's tables for the searches of the cheap human techniques (csrc/sk_human.c; the
    specification is the ``*_hits`` searches of sudokit.logic, see sudokit.logic._human)."""

    def __init__(
        self,
        n: int,
        units: Sequence[Sequence[int]],
        kinds: Sequence[int],
        boxes: Sequence[int],
        peers: Sequence[Sequence[int]],
        cell_units: Sequence[Sequence[int]],
        claiming: Sequence[Sequence[int]],
        pointing: Sequence[Sequence[int]],
    ) -> None: ...
    # The hits' layout depends on the kind (sudokit.logic._human lists it): full house and
    # hidden singles (unit, cell, digit); naked singles and locks (cell or crossing, digit);
    # direct locks (crossing, digit, unit, cell) and wings (pivot, a, b, z); the others vary.
    @overload
    def find(
        self,
        kind: Literal[0, 1],
        k: int,
        masks: Sequence[int],
        values: Sequence[int],
        limit: int = 0,
        /,
    ) -> tuple[tuple[int, int, int], ...]: ...
    @overload
    def find(
        self,
        kind: Literal[2, 3],
        k: int,
        masks: Sequence[int],
        values: Sequence[int],
        limit: int = 0,
        /,
    ) -> tuple[tuple[int, int], ...]: ...
    @overload
    def find(
        self,
        kind: Literal[4, 9],
        k: int,
        masks: Sequence[int],
        values: Sequence[int],
        limit: int = 0,
        /,
    ) -> tuple[tuple[int, int, int, int], ...]: ...
    @overload
    def find(
        self,
        kind: int,
        k: int,
        masks: Sequence[int],
        values: Sequence[int],
        limit: int = 0,
        /,
    ) -> tuple[tuple[int, ...], ...]: ...

class Exclusion:
    """Aligned Pair / Triple Exclusion searches on one shape (csrc/sk_excl.c; the
    specification is sudokit.logic.exclusion._search)."""

    def __init__(self, n: int, peers: Sequence[Sequence[int]]) -> None: ...
    def find(
        self, masks: Sequence[int], degree: int, before: Sequence[int] | None, cursor: int, /
    ) -> tuple[int, tuple[int, ...], tuple[int, ...], tuple[tuple[int, int], ...]] | bool: ...

class Uniq:
    """Unique rectangles / loops and the BUG cells of one shape (csrc/sk_uniq.c; the Python
    specification is sudokit.logic.uniqueness)."""

    def __init__(
        self,
        n: int,
        units: Sequence[Sequence[int]],
        cell_units: Sequence[Sequence[int]],
        kinds: Sequence[int],
        peers: Sequence[Sequence[int]],
    ) -> None: ...
    def steps(
        self, masks: Sequence[int], changed: bytes | None, before: Sequence[int] | None, /
    ) -> list[
        tuple[
            tuple[int, ...],
            int,
            int,
            int,
            int,
            int,
            tuple[int, ...],
            int,
            tuple[tuple[int, int], ...],
        ]
    ]: ...
    def bug_extras(self, masks: Sequence[int], /) -> dict[int, int] | None: ...

class InChain:
    """SE's basic rules inside a stuck dynamic forcing chain, per shape (csrc/sk_nest.c)."""

    def __init__(
        self,
        n: int,
        units: Sequence[Sequence[int]],
        lock_pairs: Sequence[tuple[int, int]],
        lines: tuple[Sequence[int], Sequence[int], Sequence[int]],
    ) -> None: ...
    def find(
        self, save: Sequence[int], masks: Sequence[int], first: int = 0, /
    ) -> list[tuple[int, tuple[int, ...]]]: ...

def unary_all(
    modes: tuple[ChainMode, ChainMode, ChainMode],
    base10: Sequence[int],
    sort_keys: Sequence[int],
    thresholds: Sequence[int],
    cap: int,
    /,
) -> list[tuple[int, int, tuple[int, ...], tuple[int, ...]]]: ...
