#!/usr/bin/env bash
# Sanitizer run of the C core: build sudokit._core with ASan + UBSan into a temporary copy of
# the package (the installed build is untouched), then run the engine tests against it.
#
#   bash tests/sanitize.sh [extra pytest args]   # engine tests, then a fuzz smoke run
#   bash tests/sanitize.sh --fuzz-only            # only the fuzz smoke run
#
# SUDOKIT_FUZZ_SECONDS: length of the fuzz run (default 30; 0 skips it; needs atheris).
#
# The build is portable (no -march), so the 9x9 fast path's BMI2 / AVX-512 branches are left
# out of it. They are the only code that -march changes (csrc/sk_fast9.c), and .ci/run checks
# them under ASan + UBSan with the fast path's own self-test built both portable and with
# -march=native (exact counts against a plain DFS), which costs a second of CPU where a second
# build of the whole binding cost half a minute.
#
# Python itself is not instrumented, so libasan is preloaded; leak detection is off because
# the interpreter keeps memory alive at exit on purpose. UBSan findings abort the run
# (-fno-sanitize-recover), ASan findings always do. Needs gcc (or clang) with sanitizer runtimes.
set -euo pipefail
cd "$(dirname "$0")/.."

tmp="$(mktemp -d "${TMPDIR:-/tmp}/sudokit-asan.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

# build_core DIR: a copy of the package in DIR with sudokit._core built with ASan + UBSan,
# portable (no -march).
build_core() {
    mkdir -p "$1"
    cp -r src/sudokit "$1/sudokit"
    rm -rf "$1"/sudokit/_core*.so "$1"/sudokit/_core*.pyd
    find "$1/sudokit" -type d -name __pycache__ -prune -exec rm -rf {} +
    echo "== sanitize: building sudokit._core with -fsanitize=address,undefined"
    env SUDOKIT_SANITIZE=1 SUDOKIT_BUILD_EXT=1 SUDOKIT_STRICT=1 \
        python setup.py -q build_ext --build-lib "$1" --build-temp "$1.build" >"$1.log" 2>&1 \
        || { cat "$1.log"; exit 1; }
}

build_core "$tmp/lib"

cc="${CC:-gcc}"
asan="$("$cc" -print-file-name=libasan.so)"
[ -f "$asan" ] || { echo "sanitize: libasan.so not found via $cc" >&2; exit 1; }

export LD_PRELOAD="$asan"
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:halt_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
outer_path="${PYTHONPATH:-}"
export PYTHONPATH="$tmp/lib${outer_path:+:$outer_path}"
export SUDOKIT_BACKEND=c SUDOKIT_REQUIRE_C=1
export SUDOKIT_ENGINE_EXAMPLES="${SUDOKIT_ENGINE_EXAMPLES:-40}"

# Make sure the sanitized build in $1 is the one imported, not the installed one.
check_core() {
    python - "$@" <<'EOF'
import sys
from sudokit import _core
assert _core.__file__.startswith(sys.argv[1]), f"wrong _core imported: {_core.__file__}"
print(f"sanitize: using {_core.__file__} ({_core.BUILD_FLAGS})")
EOF
}
check_core "$tmp/lib"

if [ "${1:-}" != "--fuzz-only" ]; then
    echo "== sanitize: engine tests under ASan + UBSan"
    python -m pytest -q -p no:cacheprovider tests/engine/test_engine.py tests/engine/test_engine_binding.py \
        tests/engine/test_engine_reduce.py tests/core/test_canonical_c.py tests/bulk/test_lines_fast.py \
        tests/bulk/test_solve_many_fast.py tests/engine/test_search_items_hostile.py \
        tests/generator/test_generate_fast.py tests/logic/test_chain_c_relations.py \
        tests/logic/test_chain_c.py tests/logic/test_chain_c_best.py tests/engine/test_generic_tails.py \
        tests/logic/test_human_c.py tests/logic/test_alt_c.py tests/logic/test_exclusion_c.py \
        tests/logic/test_uniqueness_c.py \
        tests/logic/test_nest_c.py tests/engine/test_core_nomemory.py tests/logic/test_core_search_errors.py "$@"
    echo "== sanitize: variant rules (C engine only; OR-Tools is not run under libasan)"
    python -m pytest -q -p no:cacheprovider tests/engine/test_variants_engine.py \
        tests/engine/test_rule_primitives.py -k "not cpsat and not python" "$@"
fi

if [ "${SUDOKIT_FUZZ_SECONDS:-30}" != 0 ]; then
    echo "== sanitize: fuzz smoke run of the binding under ASan + UBSan"
    # Python-level instrumentation is pathologically slow under libasan: fuzz blind instead.
    # A failing input (or one slower than 30 s) is kept under test-artifacts/ (ignored by git).
    mkdir -p test-artifacts
    python tests/fuzz_core.py --no-instrument --seconds "${SUDOKIT_FUZZ_SECONDS:-30}" \
        -timeout=30 -artifact_prefix=test-artifacts/fuzz-core-
fi
