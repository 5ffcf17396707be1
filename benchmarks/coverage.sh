#!/usr/bin/env bash
# Line coverage of src/sudokit over the whole suite: the README's test command (python -m pytest)
# run under coverage.py, counting the Python processes the tests start too (CLI subprocesses,
# process-pool workers, the web servers). The settings are pyproject.toml's [tool.coverage].
#
#   benchmarks/coverage.sh [PYTEST_ARG...]      (run from anywhere; needs `pip install -e '.[dev]'`)
#
# Prints the modules below 100% (worst first, with their missed lines) and the total. Exit code:
# pytest's when tests fail, else 2 when the total is under $SUDOKIT_COV_FAIL_UNDER (default 96.1:
# the 96.61% measured at 48bdc38 minus 0.5), else 0. Not part of .ci/run: under coverage the
# suite takes about 3.5x its CPU time, and a few timing-bound tests fail on a loaded machine
# (benchmarks/results/coverage_2026-11-24_48bdc38.txt).
set -uo pipefail
cd "$(dirname "$0")/.."
fail_under=${SUDOKIT_COV_FAIL_UNDER:-96.1}
data=$(mktemp -d)
trap 'rm -rf "$data"' EXIT
export COVERAGE_FILE="$data/.coverage"  # absolute: processes started in other directories too

python -m coverage run -m pytest "$@"
tests=$?
python -m coverage combine -q "$data" || exit 2
python -m coverage report --precision=2 --skip-covered --show-missing \
    --fail-under="$fail_under"
covered=$?
if [ "$tests" -ne 0 ]; then exit "$tests"; fi
exit "$covered"
