"""Whether the C core serves this process, decided once; its names typed; its twins (layer 1.95).

Every room with a C twin asks :func:`core` and nothing else: the search engine
(:mod:`sudokit._backend`), the logic's C searches, the canonical form, the bulk lines. The C
core serves when all three hold, checked once per process:

* ``SUDOKIT_BACKEND`` (:mod:`sudokit._config`) does not ask for ``python``;
* the compiled module ``sudokit._core`` imports;
* its build stamp ``_core.ABI_VERSION`` (csrc/sk_abi.h) equals :data:`ABI_VERSION`: an
  in-place build left from older sources would lack names or take other arguments.

Otherwise every room runs its Python code, the specification its C twin is tested against
(:data:`TWINS`), and a warning says why once; ``SUDOKIT_BACKEND=c`` makes it an
:class:`ImportError` instead. :func:`core` hands out the module typed as :class:`Core`, whose
names are typed by the stub ``_core.pyi``, so mypy checks every call into the C code.

>>> from sudokit import BACKEND
>>> (core() is not None) == (BACKEND == "c")
True
>>> why() == "" or why().startswith("the C core")
True
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING, Final, NamedTuple, Protocol

from ._config import requested_backend

if TYPE_CHECKING:
    from . import _core

__all__ = [
    "ABI_VERSION",
    "FACTS",
    "HOW_TO_GET_CORE",
    "TWINS",
    "WARNING_WIDTH",
    "Core",
    "Twin",
    "built",
    "core",
    "fallback_warning",
    "require",
    "stale",
    "why",
]

#: The build stamp these Python sources expect of the C core: csrc/sk_abi.h's SK_ABI_VERSION
#: (the rule for bumping it is there; a test holds the two equal).
ABI_VERSION: Final = 2

#: The two ways to get the C core that work today, for the messages about its absence.
HOW_TO_GET_CORE = (
    "to get it, install a C compiler (gcc or clang; MSVC on Windows) and reinstall from the "
    "source with SUDOKIT_BUILD_EXT=1 (a failed build is then an error), or build a wheel on a "
    "machine with a compiler and install that (the README's 'Install' paragraph has the recipe)"
)
#: The longest warning line: the details are behind ``sudokit --version``.
WARNING_WIDTH = 100


class Core(Protocol):
    """The names of ``sudokit._core`` that the rooms reach through :func:`core`, typed by the
    stub (mypy checks that the module is one: its constants and classes as attributes, its
    functions as methods). The search engine's own functions are called by its adapter,
    :mod:`sudokit._cengine`, which imports the module once :func:`require` has let it."""

    ABI_VERSION: int
    MAX_SIZE: int
    COMPILER: str
    BUILD_FLAGS: str
    Geometry: type[_core.Geometry]
    ChainMode: type[_core.ChainMode]
    Chainer: type[_core.Chainer]
    InChain: type[_core.InChain]
    HumanShape: type[_core.HumanShape]
    Exclusion: type[_core.Exclusion]
    Uniq: type[_core.Uniq]

    def canonical9(self, cells: bytes, /) -> bytes: ...
    def lines(
        self,
        geometry: _core.Geometry,
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
    def unary_all(
        self,
        modes: tuple[_core.ChainMode, _core.ChainMode, _core.ChainMode],
        base10: Sequence[int],
        sort_keys: Sequence[int],
        thresholds: Sequence[int],
        cap: int,
        /,
    ) -> list[tuple[int, int, tuple[int, ...], tuple[int, ...]]]: ...


class Twin(NamedTuple):
    """One room of the C core and its Python specification: the ``_core`` *names* it binds,
    its C *source*, the *python* code it is held equal to (``module:qualified name``), and the
    *tests* (paths in the repository) that hold them equal."""

    room: str
    names: tuple[str, ...]
    source: str
    python: tuple[str, ...]
    tests: tuple[str, ...]


#: Every C room and its Python twin (``sudokit --version`` shows which serves here).
TWINS: Final = (
    Twin(
        "search",
        ("Geometry", "search", "search_batch"),
        "csrc/sk_solver.c",
        (
            "sudokit._reference:search",
            "sudokit._backend:Engine.search_batch",
            "sudokit.rules.primitives:group_holds",
        ),
        ("tests/engine/test_engine.py", "tests/engine/test_rule_primitives.py"),
    ),
    Twin(
        "bulk solving",
        ("search_items",),
        "csrc/sk_py_search.c",
        ("sudokit.solver:_solve_parsed",),
        ("tests/bulk/test_solve_many_fast.py",),
    ),
    Twin(
        "generator",
        ("reduce", "fill", "random_puzzle"),
        "csrc/sk_gen.c",
        (
            "sudokit._backend:Engine.reduce",
            "sudokit.generator.fill:_fill",
            "sudokit.generator.puzzle:_attempt",
        ),
        ("tests/generator/test_generate_fast.py", "tests/engine/test_engine_reduce.py"),
    ),
    Twin(
        "bulk lines",
        ("lines",),
        "csrc/sk_lines.c",
        ("sudokit.blocks:read_line", "sudokit.blocks:line_text"),
        ("tests/bulk/test_lines_fast.py",),
    ),
    Twin(
        "canonical form",
        ("canonical9",),
        "csrc/sk_canon.c",
        ("sudokit.transform:_canonical_python",),
        ("tests/core/test_canonical_c.py",),
    ),
    Twin(
        "chains",
        ("ChainMode", "Chainer", "ChainRun"),
        "csrc/sk_chain.c",
        ("sudokit.logic.cycles:_Mode", "sudokit.logic.forcing:_Run"),
        (
            "tests/logic/test_chain_c.py",
            "tests/logic/test_chain_c_best.py",
            "tests/logic/test_chain_c_forcing.py",
        ),
    ),
    Twin(
        "nested chains",
        ("InChain", "unary_all"),
        "csrc/sk_nest.c",
        ("sudokit.logic.inchain:BASIC_RULES", "sudokit.logic.cycles:unary_all"),
        ("tests/logic/test_nest_c.py",),
    ),
    Twin(
        "human searches",
        ("HumanShape",),
        "csrc/sk_human.c",
        (
            "sudokit.logic.singles:_full_house_hits",
            "sudokit.logic.singles:_hidden_single_hits",
            "sudokit.logic.singles:_naked_single_hits",
            "sudokit.logic.singles:_direct_lock_hits",
            "sudokit.logic.singles:_direct_hidden_hits",
            "sudokit.logic.intersections:lock_hits",
            "sudokit.logic.subsets:naked_set_hits",
            "sudokit.logic.subsets:hidden_set_hits",
            "sudokit.logic.fish:_basic_hits",
            "sudokit.logic.wings:_wing_hits",
            "sudokit.logic.wings:_w_wing_hits",
            "sudokit.logic.single_digit:_two_link_hits",
            "sudokit.logic.single_digit:_er_hits",
            "sudokit.logic.single_digit:_colour_hits",
            "sudokit.logic.chains:_alt_found",
        ),
        ("tests/logic/test_human_c.py", "tests/logic/test_alt_c.py"),
    ),
    Twin(
        "exclusion",
        ("Exclusion",),
        "csrc/sk_excl.c",
        ("sudokit.logic.exclusion:_search",),
        ("tests/logic/test_exclusion_c.py",),
    ),
    Twin(
        "uniqueness",
        ("Uniq",),
        "csrc/sk_uniq.c",
        ("sudokit.logic.uniqueness:_ur_finds", "sudokit.logic.uniqueness:_bug_extras_py"),
        ("tests/logic/test_uniqueness_c.py",),
    ),
)

#: The module's names that are facts of the build, not rooms with a Python twin.
FACTS: Final = ("ABI_VERSION", "MAX_SIZE", "MAX_BATCH", "FAST9", "COMPILER", "BUILD_FLAGS")


#: How to bring an in-place build up to its sources.
_REBUILD = "rebuild with `pip install -e .`"


class _Found(NamedTuple):
    """What importing the C core gave: the module when its stamp is ours, else None, why not
    (a clause naming it) and the same in a few words (*short*); *stale* says what is wrong
    with a build whose stamp is not."""

    core: Core | None
    why: str = ""
    stale: str = ""
    short: str = ""


@cache
def _found() -> _Found:
    """The C core imported and its stamp checked, once."""
    try:
        from . import _core
    except ImportError as exc:
        why = _import_failure(exc)
        short = "C core not built" if "was not built" in why else "C core unusable"
        return _Found(None, why, short=short)
    # A build from before the stamp existed has none: it counts as stamp 0.
    stamp: int = getattr(_core, "ABI_VERSION", 0)
    if stamp != ABI_VERSION:
        age = "older" if stamp < ABI_VERSION else "newer"
        wrong = f"built from {age} sources (ABI {stamp}, expected {ABI_VERSION}): " + _REBUILD
        short = f"C core stale (ABI {stamp}, expected {ABI_VERSION})"
        return _Found(None, f"the C core ({_core.__file__}) was {wrong}", wrong, short)
    return _Found(_core)


def _import_failure(exc: ImportError) -> str:
    """Why the C core does not import, as a clause naming it.

    Python reports a submodule that was never built, imported while the package is still
    initialising, as "cannot import name '_core' from partially initialized module ...
    (most likely due to a circular import)": misleading, so the cause is looked up here.
    """
    try:
        spec = importlib.util.find_spec("sudokit._core")
    except (ImportError, ValueError):
        spec = None
    if spec is None:
        return "the C core (sudokit._core) was not built when sudokit was installed"
    return f"the C core ({spec.origin}) is installed but cannot be loaded: {exc}"


def built() -> Core | None:
    """The C core when it is built from these sources, whatever ``SUDOKIT_BACKEND`` asks
    (the parity tests run it beside the Python), else None."""
    return _found().core


def why() -> str:
    """Why the C core is not :func:`built` (a clause naming it), or "" when it is."""
    return _found().why


def stale() -> str:
    """What is wrong with a C core built from other sources than these (its stamp is not
    :data:`ABI_VERSION`), e.g. "built from older sources (ABI 0, expected 2): rebuild with
    `pip install -e .`"; "" when the core is built from these sources or not at all."""
    return _found().stale


def _remedy() -> str:
    """How to get a C core that serves: rebuild a stale one, else install one."""
    return "" if stale() else f"; {HOW_TO_GET_CORE}"


def require() -> Core:
    """The :func:`built` C core, or :class:`ImportError` saying why there is none and how to
    get one."""
    found = _found()
    if found.core is None:
        raise ImportError(found.why + _remedy())
    return found.core


@cache
def core() -> Core | None:
    """The C core when it serves this process, else None (every room then runs its Python).

    Decided at the first call (``import sudokit`` makes it): ``SUDOKIT_BACKEND=python`` gives
    None quietly; a core that is not :func:`built` gives None with a warning that says why,
    or, under ``SUDOKIT_BACKEND=c``, an :class:`ImportError`.
    """
    choice = requested_backend()
    if choice == "python":
        return None
    try:
        return require()
    except ImportError as exc:
        if choice == "c":
            raise ImportError(f"SUDOKIT_BACKEND=c but {exc}") from exc
    import logging  # only on this rare path: logging is slow to import

    logging.getLogger(__name__).warning("sudokit: %s", fallback_warning())
    return None


def fallback_warning() -> str:
    """The one short line (at most :data:`WARNING_WIDTH` with its ``sudokit: ``) every command
    says when the C core does not serve: the cause in a few words, that the slower fallback
    runs and the cure, with the details behind ``sudokit --version``; "" when it serves."""
    found = _found()
    if found.core is not None:
        return ""
    cure = "rebuild it" if found.stale else "install a C compiler or a wheel"
    return f"{found.short}: slow Python fallback; {cure} (sudokit --version)"
