// tdoku's library generator as a measuring stick for benchmarks/bench_generate.py --tdoku:
// N minimal 9x9 puzzles, each TdokuConstrain on an empty grid then TdokuMinimize (not
// monotonic), as tdoku's README describes them.  Linked with tdoku built from
// ../shared/baselines/tdoku (its own flags); never part of the product.
// Prints "<puzzles> <cpu seconds> <mean clues>" (CPU time of the loop, clock()).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

#include "tdoku.h"

int main(int argc, char **argv) {
    const long n = argc > 1 ? atol(argv[1]) : 1000;
    char puzzle[82];
    long clues = 0;
    const clock_t start = clock();
    for (long i = 0; i < n; i++) {
        memset(puzzle, '.', 81);
        puzzle[81] = 0;
        if (!TdokuConstrain(false, puzzle)) {
            fprintf(stderr, "tdoku_generate: Constrain failed\n");
            return 1;
        }
        TdokuMinimize(false, false, puzzle);
        for (int c = 0; c < 81; c++) clues += puzzle[c] != '.';
    }
    const double seconds = (double)(clock() - start) / CLOCKS_PER_SEC;
    printf("%ld %.6f %.3f\n", n, seconds, n ? (double)clues / n : 0.0);
    return 0;
}
