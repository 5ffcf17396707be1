#!/bin/bash
# Outputs of two sudokit checkouts, run on the same inputs and diffed (the proof that a
# restructuring left every output byte-identical). Each ROOT is a checkout whose C core is built
# in place (python setup.py build_ext --inplace); the runs use PYTHONPATH=ROOT/src. Not a timing
# harness: only the bytes count.
#
#   benchmarks/compare_outputs.sh OLD_ROOT NEW_ROOT WORKDIR [CASE...]
#
# Inputs: $SUDOKIT_DATA (default ../shared/data) and $SUDOKIT_RATED (default ../shared/rated,
# the first 1,000 puzzles of se_controlled_bias_dev.tsv are rated). Prints one line per case:
# "same" or "DIFF" for stdout, exit code and stderr (paths of WORKDIR masked), plus any output
# file a case writes.
set -u
OLD=$1; NEW=$2; WORK=$3; shift 3
HERE=$(cd "$(dirname "$0")/.." && pwd)
DATA=${SUDOKIT_DATA:-$HERE/../shared/data}
RATED=${SUDOKIT_RATED:-$HERE/../shared/rated}
# The cases, in the order they run: a name, then the sudokit arguments ($DATA and $WORK expand
# here; OUT/ stands for the directory the case writes into).
TABLE="\
solve-top95   solve $DATA/top95.txt
solve-hardest solve $DATA/forum_hardest_1106.txt --to jsonl
solve-kaggle  solve $DATA/kaggle_1k.txt --to csv
count-serg    count $DATA/serg.txt
check-top1465 check $DATA/top1465.txt
check-serg    check $DATA/serg.txt
count-17      count $DATA/17clue_49158.txt --limit 2
gen-default   generate -n 1000 --seed 1 --with-solution
gen-rot180    generate -n 1000 --seed 2 --symmetry rot180 --to jsonl
gen-mirror    generate -n 1000 --seed 22 --symmetry mirror-h --to jsonl
gen-minimal   generate -n 1000 --seed 3 --minimal --to jsonl
gen-nominimal generate -n 1000 --seed 33 --no-minimal
gen-clues     generate -n 1000 --seed 4 --clues 24-26
gen-x         generate -n 1000 --seed 66 --x
gen-6x6       generate -n 1000 --seed 67 --box 2x3 --symmetry rot180
gen-jigsaw    generate -n 1000 --seed 6 --jigsaw random --to jsonl
gen-lowclue   generate -n 200 --seed 44 --clues 20-22
gen-16        generate -n 100 --seed 7 --size 16
gen-pattern   generate -n 300 --seed 5 --pattern $WORK/pattern.txt
gen-diff      generate -n 100 --seed 8 --difficulty hard --to jsonl
dataset       dataset -n 300 --seed 9 --rate --augment 1 --dedupe -o OUT/dataset.csv
dataset-jsonl dataset -n 300 --seed 10 --symmetry rot180 --augment 2 -o OUT/dataset.jsonl
rate          rate $WORK/dev1000.txt --to json
rate-text     rate $WORK/dev1000.txt"
ALL=$(cut -d" " -f1 <<< "$TABLE")
CASES=${*:-$ALL}
mkdir -p "$WORK"
cut -f1 "$RATED/se_controlled_bias_dev.tsv" | sed -n 2,1001p > "$WORK/dev1000.txt"
printf '%s\n' x.x...x.x .x..x..x. x..x.x..x ..x...x.. .x.x.x.x. ..x...x.. x..x.x..x .x..x..x. \
    x.x...x.x > "$WORK/pattern.txt"

command_of() {  # the sudokit arguments of case $1 writing into directory $2
    local name args
    while read -r name args; do
        if [ "$name" = "$1" ]; then echo "${args//OUT\//$2/}"; return; fi
    done <<< "$TABLE"
}

for case in $CASES; do
    for side in old new; do
        root=$OLD; [ $side = new ] && root=$NEW
        out=$WORK/$side; mkdir -p "$out"
        # shellcheck disable=SC2046  # the command's words are split on purpose
        (cd "$out" && PYTHONPATH=$root/src python -m sudokit $(command_of "$case" "$out") \
            > "$case.out" 2> "$case.err"; echo $? > "$case.rc")
        sed -i "s#$out/#OUT/#g" "$out/$case.err"
    done
    verdict=""
    for f in "$case.out" "$case.rc" "$case.err"; do
        cmp -s "$WORK/old/$f" "$WORK/new/$f" && verdict+=" ${f#"$case".}:same" || verdict+=" ${f#"$case".}:DIFF"
    done
    for f in dataset.csv dataset.jsonl; do
        if [ "$case" = "${f/./-}" ] || { [ "$case" = dataset ] && [ $f = dataset.csv ]; }; then
            cmp -s "$WORK/old/$f" "$WORK/new/$f" && verdict+=" $f:same" || verdict+=" $f:DIFF"
        fi
    done
    echo "$case$verdict ($(wc -l < "$WORK/new/$case.out") lines)"
done
