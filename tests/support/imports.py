"""The imports of sudokit modules that a Python file makes, read with ``ast`` (at the top or
inside a function, under ``TYPE_CHECKING`` too): the layering rules (tests/project/test_layers.py)
and the fallback pass's rule (tests/project/test_tiers.py) read them."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import sudokit

#: The folder that holds the package ``sudokit``.
SRC = Path(sudokit.__file__).resolve().parent.parent


@dataclass(frozen=True)
class Import:
    """One import of a sudokit module."""

    source: str  # importing module
    target: str  # imported sudokit module
    name: str | None  # for ``from sudokit import name``: the name
    function: str | None  # the innermost enclosing function, None at module level
    line: int


def module_name(path: Path) -> str:
    """The dotted name of the module of src/sudokit at *path*."""
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def is_module(dotted: str) -> bool:
    """Whether *dotted* names a module of src/sudokit (not a name inside one)."""
    base = SRC.joinpath(*dotted.split("."))
    return (
        base.with_suffix(".py").is_file()
        or (base / "__init__.py").is_file()
        or base.with_suffix(".pyi").is_file()
    )


@cache
def imports_of(path: Path, source: str | None = None) -> list[Import]:
    """The imports of sudokit modules in *path*, a module of src/sudokit (or any file, named
    *source*)."""
    source = source or module_name(path)
    package = source if path.name == "__init__.py" else source.rpartition(".")[0]
    tree = ast.parse(path.read_text(), str(path))
    found: list[Import] = []

    def visit(node: ast.AST, function: str | None) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                visit(child, child.name)
                continue
            if isinstance(child, ast.Import):
                for alias in child.names:
                    if alias.name.split(".")[0] == "sudokit":
                        found.append(Import(source, alias.name, None, function, child.lineno))
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base = package.split(".")
                    base = base[: len(base) - (child.level - 1)]
                    module = ".".join(base + ([child.module] if child.module else []))
                else:
                    module = child.module or ""
                if module.split(".")[0] != "sudokit":
                    continue
                for alias in child.names:
                    sub = f"{module}.{alias.name}"
                    if is_module(sub):
                        found.append(Import(source, sub, None, function, child.lineno))
                    else:
                        found.append(Import(source, module, alias.name, function, child.lineno))
            visit(child, function)

    visit(tree, None)
    return found
