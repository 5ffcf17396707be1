"""The layering of ARCHITECTURE.md section 3, checked with ``ast`` on every module of src/sudokit.

Every import of a sudokit module (at the top or inside a function, under ``TYPE_CHECKING``
too) must go to a strictly lower layer. Refinements of the table, stated here:

* modules inside one subpackage (formats, logic, render, generator, cli, web) may import each
  other;
* inside layer 6 the order is generator < dataset < batch < dask (datasets are generated
  puzzles; ``batch`` re-exports the bulk rooms; ``sudokit.dask`` runs shards on a cluster);
* inside layer 1 the order is constraints < shape < grid < marks; the compiled C core
  ``_core`` imports nothing and sits just below layer 2, and ``_native`` (which decides
  whether it serves and hands it out typed) just above it, so that every room with a C twin
  from layer 2 up asks ``_native`` (the search itself is reached only through ``_backend``);
  inside layer 3 the C
  adapter ``_cengine`` implements the protocol of ``_backend`` (``_backend`` < ``_cengine``);
* cli and web (layer 8) import only the public API: the package ``sudokit`` itself (names in
  ``sudokit.__all__``, including the public subpackages listed there, e.g. ``formats``),
  ``sudokit.errors`` and their own subpackage; and cli may import web (``sudokit serve``
  starts the web app).

Documented exceptions (lazy imports inside one named function, never at module level):

* ``Grid._repr_svg_`` in grid.py imports :mod:`sudokit.render` (notebook display);
* ``_backend._load`` / ``_backend.get_engine`` import ``_cengine``, the engine they choose at
  run time (the adapter itself depends on ``_backend``'s outcome types).

A new module must be added to ``LAYERS`` (and to ARCHITECTURE.md) before this test passes.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import sudokit
import support
from support.imports import SRC, Import, imports_of, is_module, module_name

# module or package (prefix) -> layer
LAYERS: dict[str, float] = {
    "sudokit.errors": 0,
    "sudokit._record": 0,
    "sudokit._config": 0,
    "sudokit._version": 0,
    "sudokit.parallel": 0,  # process maps: stdlib only
    "sudokit.rules": 0.8,  # layer 1: the rule kinds, one value class each, and their primitives
    "sudokit.constraints": 0.9,  # layer 1: the variant rules a Shape carries
    "sudokit.shape": 1.0,
    "sudokit.grid": 1.1,
    "sudokit.marks": 1.2,
    "sudokit.transform": 2,
    "sudokit.formats": 2,
    "sudokit.logic": 2,
    "sudokit._reference": 2,
    "sudokit._buildinfo": 2,  # build facts of the C core, and the message when it is missing
    "sudokit._core": 1.9,  # the compiled C core: a leaf, below transform (canonical form)
    "sudokit._native": 1.95,  # whether the C core serves (once), its typed names, the twins
    "sudokit._backend": 3.0,
    "sudokit._cengine": 3.1,
    "sudokit.render": 3,
    "sudokit.shards": 3,  # shards, parts, manifests; files through formats.output_bytes
    "sudokit.solver": 4,
    "sudokit.truecands": 4.2,  # true candidates: many bounded searches over _backend
    "sudokit.blocks": 4.5,  # the block API: lines as bytes through the C core (csrc/sk_lines.c)
    "sudokit.rating": 5,
    "sudokit.generator": 6,  # a package of rooms (options, search, fill, reduce, ...)
    "sudokit.dataset": 6.3,
    "sudokit.batch": 6.5,
    "sudokit.dask": 6.6,
    "sudokit": 7,
    "sudokit.cli": 8,
    "sudokit.web": 8,
    "sudokit.__main__": 9,
}
PACKAGES = (
    "sudokit.rules",
    "sudokit.formats",
    "sudokit.logic",
    "sudokit.render",
    "sudokit.generator",
    "sudokit.cli",
    "sudokit.web",
)
FRONT_ENDS = ("sudokit.cli", "sudokit.web")
# Violations found when this test was written, each to be fixed by its owner: the test is
# expected to fail for them (strict xfail), so fixing one turns it into an error that asks
# for the entry to be removed here, and any new violation fails at once.
KNOWN_VIOLATIONS: dict[str, str] = {}
# (importing module, function it happens in, imported module): the allowed upward imports
EXCEPTIONS = {
    ("sudokit.grid", "_repr_svg_", "sudokit.render"),
    ("sudokit._backend", "_load", "sudokit._cengine"),
    ("sudokit._backend", "get_engine", "sudokit._cengine"),
}


def layer_of(module: str) -> tuple[float, str]:
    """The layer of *module* and the table entry that gives it (longest matching prefix)."""
    best = ""
    for key in LAYERS:
        if (module == key or module.startswith(key + ".")) and len(key) > len(best):
            best = key
    if not best:
        raise KeyError(module)
    return LAYERS[best], best


def package_of(module: str) -> str | None:
    return next((p for p in PACKAGES if module == p or module.startswith(p + ".")), None)


def violation(imp: Import) -> str | None:
    """Why *imp* breaks the layering, or None when it is allowed."""
    where = f"{imp.source} line {imp.line} imports {imp.target}"
    if (imp.source, imp.function, imp.target) in EXCEPTIONS:
        return None
    own = package_of(imp.source)
    if own is not None and package_of(imp.target) == own:
        return None
    front = next((f for f in FRONT_ENDS if imp.source.startswith(f)), None)
    if front is not None:
        public = set(sudokit.__all__)
        if imp.target == "sudokit" and (imp.name is None or imp.name in public):
            return None
        if imp.target == "sudokit.errors":
            return None
        if front == "sudokit.cli" and package_of(imp.target) == "sudokit.web":
            return None
        head = imp.target.split(".")[1] if imp.target.count(".") >= 1 else ""
        if head in public and is_module(f"sudokit.{head}"):
            return None  # a public subpackage such as sudokit.formats
        return f"{where}: cli and web use only the public API (sudokit, sudokit.errors)"
    try:
        src_layer, _ = layer_of(imp.source)
    except KeyError:
        return f"{imp.source} is not in the layer table"
    try:
        dst_layer, _ = layer_of(imp.target)
    except KeyError:
        return f"{where}: {imp.target} is not in the layer table"
    if dst_layer < src_layer:
        return None
    return f"{where} (layer {dst_layer:g} is not below layer {src_layer:g})"


MODULES = sorted(SRC.joinpath("sudokit").rglob("*.py"))
MODULE_PARAMS = [
    pytest.param(
        path,
        id=module_name(path),
        marks=[pytest.mark.xfail(reason=KNOWN_VIOLATIONS[module_name(path)], strict=True)]
        if module_name(path) in KNOWN_VIOLATIONS
        else [],
    )
    for path in MODULES
]


@pytest.mark.parametrize("path", MODULE_PARAMS)
def test_module_imports_only_lower_layers(path: Path) -> None:
    name = module_name(path)
    assert layer_of(name), f"{name} is not in the layer table"
    found = [v for imp in imports_of(path) if (v := violation(imp)) is not None]
    problems = list(dict.fromkeys(found))
    assert not problems, "\n".join(problems)


def test_the_checker_catches_violations(tmp_path: Path) -> None:
    """The rules fire on made-up imports (a layering test that cannot fail is a defect)."""
    bad = [
        Import("sudokit.shape", "sudokit.grid", None, None, 1),  # same layer, wrong order
        Import("sudokit.grid", "sudokit.solver", None, "parse", 1),  # upward, lazy
        Import("sudokit.solver", "sudokit.rating", None, None, 1),
        Import("sudokit.transform", "sudokit._backend", None, None, 1),
        Import("sudokit.cli.solve", "sudokit.solver", None, None, 1),
        Import("sudokit.web.app", "sudokit.grid", None, None, 1),
        Import("sudokit.cli.solve", "sudokit", "_backend", None, 1),
        Import("sudokit.grid", "sudokit.render", None, None, 1),  # the exception is lazy only
        Import("sudokit.formats.line", "sudokit.logic.candidates", None, None, 1),
        Import("sudokit.web.app", "sudokit.cli.common", None, None, 1),
    ]
    for imp in bad:
        assert violation(imp) is not None, imp
    good = [
        Import("sudokit.grid", "sudokit.shape", None, None, 1),
        Import("sudokit.solver", "sudokit._backend", None, None, 1),
        Import("sudokit.cli.solve", "sudokit", "solve", None, 1),
        Import("sudokit.cli.solve", "sudokit.errors", None, None, 1),
        Import("sudokit.cli.solve", "sudokit.cli.common", None, None, 1),
        Import("sudokit.grid", "sudokit.render", None, "_repr_svg_", 1),
        Import("sudokit.logic.path", "sudokit.logic.registry", None, None, 1),
        Import("sudokit.cli.serve", "sudokit.web.app", None, "serve", 1),
    ]
    for imp in good:
        assert violation(imp) is None, imp
    # imports inside functions are found, relative ones resolved
    probe = SRC / "sudokit" / "grid.py"
    lazy = [i for i in imports_of(probe) if i.function is not None]
    assert all(i.target.startswith("sudokit") for i in lazy)
    assert any(i.target == "sudokit.shape" for i in imports_of(probe))


def test_every_documented_exception_is_still_needed() -> None:
    used = {
        (imp.source, imp.function, imp.target)
        for path in MODULES
        for imp in imports_of(path)
        if (imp.source, imp.function, imp.target) in EXCEPTIONS
    }
    stale = EXCEPTIONS - used
    assert not stale, f"exceptions no longer used (remove them): {sorted(stale)}"


def _documented_rows() -> dict[int, str]:
    """The rows of ARCHITECTURE.md section 3's layer table: layer number -> the row's text."""
    doc = support.REPO / "docs" / "ARCHITECTURE.md"
    if not doc.is_file():
        pytest.skip("docs/ARCHITECTURE.md is not in this checkout")
    rows = {}
    for line in doc.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.split("|")]
        if len(cells) == 4 and cells[1].isdigit():
            rows[int(cells[1])] = cells[2]
    return rows


def test_the_documented_table_names_every_layered_module() -> None:
    """Each entry of LAYERS is named in the ARCHITECTURE.md row of its layer (a fractional
    layer such as 0.9 or 1.9 may be written in either neighbouring row)."""
    rows = _documented_rows()
    missing = []
    for module, layer in LAYERS.items():
        name = {"sudokit": "sudokit/__init__", "sudokit.__main__": "sudokit/__main__"}.get(
            module, module.removeprefix("sudokit.")
        )
        pattern = re.compile(rf"(?<![\w.]){re.escape(name)}(?!\w)")
        near = [text for number, text in rows.items() if abs(number - layer) < 1]
        if not any(pattern.search(text) for text in near):
            missing.append((module, layer))
    assert not missing, f"modules missing from ARCHITECTURE.md's layer table: {missing}"


# A private name (``_x``) is its module's own: another module imports it only here, with the
# reason. Private *modules* (``from . import _base``) are a package's own and not listed.
PRIVATE_IMPORTS_ALLOWED: dict[tuple[str, str], str] = {
    # (importing module or package prefix, module the name comes from): why
    ("sudokit", "sudokit._record"): "_Record, the one freezing base of library values, is "
    "the library's own and not public API (ARCHITECTURE section 9.3)",
    ("sudokit.formats._base", "sudokit.formats"): "the package's format table, looked up lazily",
    ("sudokit.generator", "sudokit.generator"): "the generator's rooms share their steps "
    "(ARCHITECTURE section 2: a room per job, importing each other)",
}


def private_import(imp: Import) -> str | None:
    """Why *imp* takes a private name across modules, or None when it does not (or may)."""
    if imp.name is None or not imp.name.startswith("_") or imp.name.startswith("__"):
        return None
    for (source, target), _why in PRIVATE_IMPORTS_ALLOWED.items():
        inside = imp.source == source or imp.source.startswith(source + ".")
        if inside and (imp.target == target or imp.target.startswith(target + ".")):
            return None
    return f"{imp.source} line {imp.line} imports the private {imp.target}.{imp.name}"


def test_no_module_imports_another_modules_private_names() -> None:
    """``from .step import _THRESHOLDS`` in cycles.py was such a case: a name other modules
    need gets a public, self-explaining name in the module that defines it."""
    found = [p for path in MODULES for imp in imports_of(path) if (p := private_import(imp))]
    assert not found, "\n".join(found)


def test_the_private_import_rule_fires() -> None:
    """The rule catches made-up cases and lets the allowed ones through."""
    bad = [
        Import("sudokit.logic.cycles", "sudokit.logic.step", "_THRESHOLDS", None, 1),
        Import("sudokit.blocks", "sudokit.solver", "_result", "f", 1),
        Import("sudokit.formats.picture", "sudokit.grid", "_SEPARATORS", None, 1),
    ]
    assert all(private_import(imp) is not None for imp in bad)
    good = [
        Import("sudokit.logic.cycles", "sudokit.logic.step", "LENGTH_BONUS_THRESHOLDS", None, 1),
        Import("sudokit.generator.puzzle", "sudokit.generator.fill", "_fill", None, 1),
        Import("sudokit.formats._base", "sudokit.formats", "_module", "__new__", 1),
        Import("sudokit.formats.csv", "sudokit.formats._base", None, None, 1),  # a module
        Import("sudokit", "sudokit._version", "__version__", None, 1),
    ]
    assert all(private_import(imp) is None for imp in good)
