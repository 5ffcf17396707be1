#!/usr/bin/env bash
# Sanitizer run of the C core: build sudokit._core with ASan + UBSan into a temporary copy of
# the package (the installed build is untouched), then run the engine tests against it.
#
#   bash tests/sanitize.sh [extra pytest args]   # engine tests, then a fuzz smoke run
#   bash tests/sanitize.sh --fuzz-only            # only the fuzz smoke run
#
# SUDOKIT_FUZZ_SECONDS: length of the fuzz run (default 30; 0 skips it; needs atheris).
#
# Python itself is not instrumented, so libasan is preloaded; leak detection is off because
# the interpreter keeps memory alive at exit on purpose. UBSan findings abort the run
# (-fno-sanitize-recover), ASan findings always do. Needs gcc (or clang) with sanitizer runtimes.
set -euo pipefail
cd "$(dirname "$0")/.."

tmp="$(mktemp -d "${TMPDIR:-/tmp}/sudokit-asan.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

mkdir -p "$tmp/lib"
cp -r src/sudokit "$tmp/lib/sudokit"
rm -rf "$tmp"/lib/sudokit/_core*.so "$tmp"/lib/sudokit/_core*.pyd
find "$tmp/lib/sudokit" -type d -name __pycache__ -prune -exec rm -rf {} +

echo "== sanitize: building sudokit._core with -fsanitize=address,undefined"
SUDOKIT_SANITIZE=1 SUDOKIT_BUILD_EXT=1 SUDOKIT_STRICT=1 \
    python setup.py -q build_ext --build-lib "$tmp/lib" --build-temp "$tmp/build" >"$tmp/build.log" 2>&1 \
    || { cat "$tmp/build.log"; exit 1; }

cc="${CC:-gcc}"
asan="$("$cc" -print-file-name=libasan.so)"
[ -f "$asan" ] || { echo "sanitize: libasan.so not found via $cc" >&2; exit 1; }

export LD_PRELOAD="$asan"
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:halt_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export PYTHONPATH="$tmp/lib${PYTHONPATH:+:$PYTHONPATH}"
export SUDOKIT_BACKEND=c SUDOKIT_REQUIRE_C=1
export SUDOKIT_ENGINE_EXAMPLES="${SUDOKIT_ENGINE_EXAMPLES:-40}"

# Make sure the sanitized build is the one imported, not the installed one.
python - "$tmp/lib" <<'EOF'
import sys
from sudokit import _core
assert _core.__file__.startswith(sys.argv[1]), f"wrong _core imported: {_core.__file__}"
print(f"sanitize: using {_core.__file__}")
EOF

if [ "${1:-}" != "--fuzz-only" ]; then
    echo "== sanitize: engine tests under ASan + UBSan"
    python -m pytest -q -p no:cacheprovider tests/test_engine.py tests/test_engine_binding.py \
        tests/test_engine_reduce.py tests/test_canonical_c.py tests/test_lines_fast.py \
        tests/test_solve_many_fast.py \
        tests/test_generate_fast.py \
        tests/test_chain_c.py tests/test_chain_c_best.py tests/test_generic_tails.py \
        tests/test_nest_c.py "$@"
    echo "== sanitize: variant rules (C engine only; OR-Tools is not run under libasan)"
    python -m pytest -q -p no:cacheprovider tests/test_variants_engine.py \
        -k "not cpsat and not python" "$@"
fi

if [ "${SUDOKIT_FUZZ_SECONDS:-30}" != 0 ]; then
    echo "== sanitize: fuzz smoke run of the binding under ASan + UBSan"
    # Python-level instrumentation is pathologically slow under libasan: fuzz blind instead.
    # A failing input (or one slower than 30 s) is kept under test-artifacts/ (ignored by git).
    mkdir -p test-artifacts
    python tests/fuzz_core.py --no-instrument --seconds "${SUDOKIT_FUZZ_SECONDS:-30}" \
        -timeout=30 -artifact_prefix=test-artifacts/fuzz-core-
fi
