"""Build of sudokit's C core, ``sudokit._core`` (everything else is in pyproject.toml).

Environment switches:

``SUDOKIT_BUILD_EXT``
    ``1``: the C core must build; a failure fails the install (CI sets this).
    ``0``: skip it; sudokit runs on the pure-Python reference.
    unset: try; when the build fails, say so loudly and install without it
    (``sudokit.BACKEND`` is then ``"python"`` and ``sudokit --version`` shows it).
``SUDOKIT_MARCH``
    The ``-march=`` value. Default ``native``: sudokit is built from source on the machine it
    runs on (``pip install`` / ``pip install -e .``), and the 9x9 fast path wants the CPU's
    bit instructions. A wheel meant for *other* machines must be built with
    ``SUDOKIT_MARCH=portable`` (no ``-march`` flag) or an explicit baseline such as
    ``x86-64-v2``; a ``native`` wheel may die with SIGILL elsewhere. Under cibuildwheel
    (``CIBUILDWHEEL=1``) the default is ``portable``. A value the compiler rejects is dropped
    with a message.
``SUDOKIT_STRICT=1`` or ``CI=true``
    Add ``-Werror`` to ``-Wall -Wextra``.
``SUDOKIT_SANITIZE=1``
    ASan + UBSan build (``-fsanitize=address,undefined``, ``-O1 -g``), used by
    ``tests/sanitize.sh``; load it with ``LD_PRELOAD`` of libasan. Portable (no ``-march``)
    unless ``SUDOKIT_MARCH`` is set.
``SUDOKIT_OPT``
    The optimisation level, ``0`` to ``3`` (default ``3``; the sanitizer build's is ``1``).
    ``tests/project/test_wheel.py`` builds its wheel at ``0``: it checks the package, not the
    speed, and ``-O3`` costs 7 s more CPU.

The compile flags are recorded in the core (``_core.BUILD_FLAGS``, with ``_core.COMPILER``
from the compiler's own macros, csrc/sk_port.h) and shown by ``sudokit --version``.

Asserts stay live in every build (``-UNDEBUG``). The 9x9 fast path (``csrc/sk_fast9.c``) is
compiled in, with ``-DSK_HAVE_FAST9``, when that file exists.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
CSRC = Path("csrc")


def _env_flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in ("1", "true", "yes", "on")


def _say(message: str) -> None:
    # Setuptools hides stdout of a successful build; stderr with a banner stays visible.
    print(f"\n*** sudokit: {message}\n", file=sys.stderr, flush=True)


BUILD_EXT = os.environ.get("SUDOKIT_BUILD_EXT", "").strip()
if BUILD_EXT not in ("", "0", "1"):
    raise SystemExit(f"SUDOKIT_BUILD_EXT must be 0, 1 or unset, got {BUILD_EXT!r}")
STRICT = _env_flag("SUDOKIT_STRICT") or _env_flag("CI")
SANITIZE = _env_flag("SUDOKIT_SANITIZE")
OPT = os.environ.get("SUDOKIT_OPT", "3").strip()
if OPT not in ("0", "1", "2", "3"):
    raise SystemExit(f"SUDOKIT_OPT must be 0, 1, 2 or 3, not {OPT!r}")
MARCH = os.environ.get("SUDOKIT_MARCH", "portable" if _env_flag("CIBUILDWHEEL") else "native")
MARCH = MARCH.strip()
HAVE_FAST9 = (HERE / CSRC / "sk_fast9.c").is_file() and (HERE / CSRC / "sk_fast9.h").is_file()

sources = [
    str(CSRC / "sk_module.c"),  # the module: state, init, types, constants (sk_py.h)
    str(CSRC / "sk_py.c"),  # the binding's argument and array helpers, the interrupt poll
    str(CSRC / "sk_py_geometry.c"),  # Geometry
    str(CSRC / "sk_py_sums.c"),  # Geometry's linear sums and groups
    str(CSRC / "sk_py_search.c"),  # search, search_batch, search_items, lines
    str(CSRC / "sk_py_gen.c"),  # reduce, fill, random_puzzle
    str(CSRC / "sk_py_canon.c"),  # canonical9
    str(CSRC / "sk_py_chain.c"),  # ChainMode, Chainer, ChainRun, InChain, unary_all
    str(CSRC / "sk_py_logic.c"),  # HumanShape, Exclusion, Uniq
    str(CSRC / "sk_solver.c"),
    str(CSRC / "sk_rules.c"),  # the variant-rule compiler (sk_rules.h)
    str(CSRC / "sk_props.c"),  # the linear sums' and groups' propagators (sk_props.h)
    str(CSRC / "sk_cdcl.c"),  # clause learning when the generic search stalls (sk_cdcl.h)
    str(CSRC / "sk_canon.c"),
    str(CSRC / "sk_chain.c"),
    str(CSRC / "sk_lines.c"),  # the bulk line path (sk_lines.h)
    str(CSRC / "sk_gen.c"),
    str(CSRC / "sk_human.c"),  # the cheap human techniques' searches (sk_human.h)
    str(CSRC / "sk_alt.c"),  # X-Chain, XY-Chain and AIC searches (sk_alt.h)
    str(CSRC / "sk_excl.c"),  # Aligned Pair / Triple Exclusion (sk_excl.h)
    str(CSRC / "sk_uniq.c"),  # unique rectangles / loops and BUG cells (sk_uniq.h)
    str(CSRC / "sk_nest.c"),  # the rules inside nested forcing chains (sk_nest.h)
]
macros: list[tuple[str, str | None]] = []
if HAVE_FAST9:
    sources.append(str(CSRC / "sk_fast9.c"))
    macros.append(("SK_HAVE_FAST9", "1"))

# -fno-wrapv undoes the -fwrapv of Python's own CFLAGS: the core never relies on signed
# overflow wrapping, the optimiser may then assume it does not happen (4-5% on the 9x9 batch),
# and UBSan (SUDOKIT_SANITIZE) checks signed overflow again (under -fwrapv it cannot).
cflags = ["-Wall", "-Wextra", "-UNDEBUG", "-fvisibility=hidden", "-fno-wrapv"]
ldflags = ["-pthread"]
if STRICT:
    cflags.append("-Werror")
if SANITIZE:
    san = ["-fsanitize=address,undefined", "-fno-sanitize-recover=undefined"]
    cflags += [*san, "-O1", "-g", "-fno-omit-frame-pointer"]
    ldflags += san
else:
    cflags.append(f"-O{OPT}")
if MARCH and MARCH != "portable" and (not SANITIZE or "SUDOKIT_MARCH" in os.environ):
    cflags.append(f"-march={MARCH}")
cflags.append("-pthread")


class BuildExt(build_ext):
    """build_ext that honours SUDOKIT_BUILD_EXT and drops flags the compiler rejects."""

    def _accepts(self, flag: str) -> bool:
        with tempfile.TemporaryDirectory() as tmp:
            src = Path(tmp) / "probe.c"
            src.write_text("int main(void) { return 0; }\n")
            try:
                self.compiler.compile([str(src)], output_dir=tmp, extra_postargs=[flag])
            except Exception:
                return False
        return True

    def build_extensions(self) -> None:
        if self.compiler.compiler_type == "msvc":
            for ext in self.extensions:  # the GCC/Clang flags above mean nothing to MSVC
                ext.extra_compile_args = ["/O2", "/UNDEBUG"]
                ext.extra_link_args = []
        else:
            for ext in self.extensions:
                for flag in [f for f in ext.extra_compile_args if f.startswith("-march=")]:
                    if not self._accepts(flag):
                        _say(f"compiler rejects {flag}; building without it")
                        ext.extra_compile_args.remove(flag)
        flags = " ".join(self.extensions[0].extra_compile_args)
        fast9 = "with" if HAVE_FAST9 else "without"
        _say(f"building the C core ({fast9} the 9x9 fast path): {flags}")
        self._write_build_info(flags)
        super().build_extensions()

    def _write_build_info(self, flags: str) -> None:
        """Record the compile flags in ``sk_build_info.h`` (in the build directory) for the
        core's ``BUILD_FLAGS`` constant, which ``sudokit --version`` shows; the compiler's
        own name and version come from its predefined macros (csrc/sk_port.h). When the flags
        differ from the last build in this build directory, everything is recompiled: an
        up-to-date check on file times alone would keep objects built with other flags (a
        ``native`` build left in ``build/`` would end up in a portable wheel)."""
        info_dir = Path(self.build_temp) / "sk_build_info"
        info_dir.mkdir(parents=True, exist_ok=True)
        literal = json.dumps(flags, ensure_ascii=True).replace("?", "\\?")  # a C string too
        header = info_dir / "sk_build_info.h"
        text = f"#define SK_BUILD_FLAGS {literal}\n"
        if not header.is_file() or header.read_text() != text:  # keep mtime: no needless rebuild
            header.write_text(text)
            self.force = True
        for ext in self.extensions:
            ext.include_dirs.append(str(info_dir))
            ext.define_macros.append(("SK_HAVE_BUILD_INFO", "1"))

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:
            if BUILD_EXT == "1":
                raise
            _say(
                f"the C core failed to build ({exc}); installing without it. sudokit will "
                "use the pure-Python fallback, which is much slower (sudokit.BACKEND == "
                "'python'). To get the C core, install a binary wheel (pip install "
                "--only-binary=sudokit sudokit), or install a C compiler and reinstall. "
                "Set SUDOKIT_BUILD_EXT=1 to make this an error."
            )


ext_modules = []
if BUILD_EXT == "0":
    _say("SUDOKIT_BUILD_EXT=0: skipping the C core; sudokit will use the pure-Python reference")
else:
    ext_modules.append(
        Extension(
            "sudokit._core",
            sources=sources,
            depends=[
                str(CSRC / "sk_abi.h"),
                str(CSRC / "sk_solver.h"),
                str(CSRC / "sk_py.h"),
                str(CSRC / "sk_rules.h"),
                str(CSRC / "sk_canon.h"),
                str(CSRC / "sk_lines.h"),
                str(CSRC / "sk_chain.h"),
                str(CSRC / "sk_uniq.h"),
                str(CSRC / "sk_human.h"),
                str(CSRC / "sk_excl.h"),
                str(CSRC / "sk_cdcl.h"),
                str(CSRC / "sk_gen.h"),
                str(CSRC / "sk_nest.h"),
                str(CSRC / "sk_port.h"),
                *([str(CSRC / "sk_fast9.h")] if HAVE_FAST9 else []),
            ],
            include_dirs=[str(CSRC)],
            define_macros=macros,
            extra_compile_args=cflags,
            extra_link_args=ldflags,
            optional=False,
        )
    )

setup(ext_modules=ext_modules, cmdclass={"build_ext": BuildExt})
