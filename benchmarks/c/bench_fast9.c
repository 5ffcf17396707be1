/*
 * bench_fast9.c - standalone test and benchmark driver for csrc/sk_fast9.c (no Python needed).
 *
 * Build and run (see also benchmarks/c/Makefile):
 *     gcc -O3 -march=native -std=c99 -Wall -Wextra -I csrc -o /tmp/bench_fast9 \
 *         benchmarks/c/bench_fast9.c csrc/sk_fast9.c
 *     /tmp/bench_fast9 [-r RUNS] [-s SEED] [-c CHECKS] [-q] [FILE...]   (default: every set in
 *                                                            /work/shared/data, or $SUDOKIT_DATA)
 *     /tmp/bench_fast9 -t                                    self-test only
 *     /tmp/bench_fast9 -p FILE...     one validated pass, no timing (for valgrind/perf runs)
 *     /tmp/bench_fast9 -P ...         the files already hold random isomorphs: no permutation
 *                                     (bench_solve.py writes them, so every path it times sees
 *                                     the same puzzles)
 *     /tmp/bench_fast9 -F ENGINE FILE  a whole-process file solver: one output line a puzzle
 *                                     (the solution, or !invalid / !none), as `sudokit solve`
 *                                     prints for line files; ENGINE sk9 (ours) or tdoku
 *
 * Built with -DSK_WITH_TDOKU and linked with tdoku's objects (`make bench_tdoku`, only when
 * ../shared/baselines/tdoku exists; a measuring stick, never part of the product), it also has
 *     bench_fast9_tdoku -T [-P] [-r RUNS] FILE...   sk9 against tdoku, same process, same
 *                                     isomorphs, limit 1 and limit 2: one `cmp` line per set and
 *                                     limit (see compare_file), answers cross-checked
 *
 * What it does, per puzzle file (one 81-character puzzle a line):
 *  1. permutes every puzzle by a random validity-preserving transform (digit relabelling,
 *     row/column permutations inside bands/stacks, band/stack permutations, transposition),
 *     seeded, as tdoku's harness does, so no solver profits from the files' ordering;
 *  2. warm-up and validation: sk9_count(limit 2) on every puzzle; the first solution must be a
 *     valid grid that keeps the givens; the count is compared with an independent plain
 *     bitmask DFS (MRV, no band tricks) on up to CHECKS puzzles (default 2000, spread evenly;
 *     -c 0 = all);
 *  3. timing: RUNS passes over the whole set (median reported), plus the plain DFS on a sample
 *     of the same puzzles in the same run, as a machine-noise-independent reference ratio.
 * The self-test (-t, also run first by default) checks exact counting well past 2 against the
 * DFS on random under-constrained grids, the budget, and invalid inputs.
 *
 * Output: one table row per set: puzzles, fast9 µs/puzzle, puzzles/s, guesses/puzzle,
 * plain-DFS µs/puzzle and the speed ratio, and the ratio to tdoku's published figure.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sk_fast9.h"
#ifdef SK_WITH_TDOKU
#include "tdoku.h" /* from ../shared/baselines/tdoku, at build time only (make bench_tdoku) */
#endif

/* ---------------------------------------------------------------- small utilities */

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint64_t rng_next(void) { /* splitmix64 */
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static int rng_below(int n) { return (int)(rng_next() % (uint64_t)n); }

static void shuffle(int *a, int n) {
    int i;
    for (i = n - 1; i > 0; i--) {
        int j = rng_below(i + 1), t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts); /* CPU time: the machine is shared */
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* A random validity-preserving transform of one puzzle, in place. */
static void permute(uint8_t *g) {
    int digit[10], rows[9], cols[9], bands[3], stacks[3], i, r, c;
    int transpose = rng_below(2);
    uint8_t out[81];
    for (i = 0; i < 10; i++)
        digit[i] = i;
    shuffle(digit + 1, 9);
    for (i = 0; i < 3; i++)
        bands[i] = stacks[i] = i;
    shuffle(bands, 3);
    shuffle(stacks, 3);
    for (i = 0; i < 3; i++) {
        int inner_r[3] = {0, 1, 2}, inner_c[3] = {0, 1, 2}, k;
        shuffle(inner_r, 3);
        shuffle(inner_c, 3);
        for (k = 0; k < 3; k++) {
            rows[i * 3 + k] = bands[i] * 3 + inner_r[k];
            cols[i * 3 + k] = stacks[i] * 3 + inner_c[k];
        }
    }
    for (r = 0; r < 9; r++)
        for (c = 0; c < 9; c++) {
            int sr = rows[r], sc = cols[c];
            out[r * 9 + c] = (uint8_t)digit[transpose ? g[sc * 9 + sr] : g[sr * 9 + sc]];
        }
    memcpy(g, out, 81);
}

/* Independent check: a complete grid, every unit a permutation, givens kept. */
static int valid_solution(const uint8_t *puzzle, const uint8_t *sol) {
    int u, i;
    for (i = 0; i < 81; i++)
        if (sol[i] < 1 || sol[i] > 9 || (puzzle[i] && puzzle[i] != sol[i]))
            return 0;
    for (u = 0; u < 9; u++) {
        unsigned rm = 0, cm = 0, bm = 0;
        for (i = 0; i < 9; i++) {
            rm |= 1u << sol[u * 9 + i];
            cm |= 1u << sol[i * 9 + u];
            bm |= 1u << sol[(u / 3 * 3 + i / 3) * 9 + u % 3 * 3 + i % 3];
        }
        if (rm != 0x3FE || cm != 0x3FE || bm != 0x3FE)
            return 0;
    }
    return 1;
}

/* ---------------------------------------------------------------- plain reference DFS */
/* Cell bitmasks per row/column/box, minimum-remaining-values choice, no other deduction. */

typedef struct {
    uint8_t g[81];
    uint16_t row[9], col[9], box[9];
    uint32_t count, limit;
} Dfs;

static void dfs_rec(Dfs *s) {
    int best = -1, bestn = 10, i;
    uint16_t bestm = 0, m;
    for (i = 0; i < 81; i++) {
        if (!s->g[i]) {
            int r = i / 9, c = i % 9, b = r / 3 * 3 + c / 3, n;
            m = (uint16_t)(~(s->row[r] | s->col[c] | s->box[b]) & 0x3FE);
            n = __builtin_popcount(m);
            if (n < bestn) {
                bestn = n;
                best = i;
                bestm = m;
                if (n <= 1)
                    break;
            }
        }
    }
    if (best < 0) {
        s->count++;
        return;
    }
    {
        int r = best / 9, c = best % 9, b = r / 3 * 3 + c / 3;
        for (m = bestm; m && s->count < s->limit; m &= (uint16_t)(m - 1)) {
            uint16_t bit = m & (uint16_t)-m;
            s->g[best] = (uint8_t)__builtin_ctz(bit);
            s->row[r] |= bit;
            s->col[c] |= bit;
            s->box[b] |= bit;
            dfs_rec(s);
            s->row[r] &= (uint16_t)~bit;
            s->col[c] &= (uint16_t)~bit;
            s->box[b] &= (uint16_t)~bit;
        }
        s->g[best] = 0;
    }
}

/* Count solutions up to limit; 0 when the givens clash. */
static uint32_t dfs_count(const uint8_t *cells, uint32_t limit) {
    Dfs s;
    int i;
    memset(&s, 0, sizeof s);
    s.limit = limit;
    for (i = 0; i < 81; i++) {
        int v = cells[i], r = i / 9, c = i % 9, b = r / 3 * 3 + c / 3;
        uint16_t bit = (uint16_t)(1u << v);
        if (!v)
            continue;
        if ((s.row[r] | s.col[c] | s.box[b]) & bit)
            return 0;
        s.g[i] = (uint8_t)v;
        s.row[r] |= bit;
        s.col[c] |= bit;
        s.box[b] |= bit;
    }
    dfs_rec(&s);
    return s.count;
}

/* ---------------------------------------------------------------- self-test */

static int failures = 0;
#define CHECK(cond, ...)                                                                        \
    do {                                                                                        \
        if (!(cond)) {                                                                          \
            failures++;                                                                         \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                                \
            fprintf(stderr, __VA_ARGS__);                                                       \
            fputc('\n', stderr);                                                                \
        }                                                                                       \
    } while (0)

static void self_test(void) {
    static const char *base =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
    uint8_t sol[81], p[81], out[81];
    uint64_t guesses;
    int gave_up, i, t, n;
    for (i = 0; i < 81; i++)
        sol[i] = (uint8_t)(base[i] - '0');
    /* Invalid inputs. */
    memcpy(p, sol, 81);
    p[5] = 10;
    CHECK(sk9_count(p, 2, 0, NULL, NULL, NULL) == -1, "value 10 must give -1");
    CHECK(sk9_count(sol, 0, 0, NULL, NULL, NULL) == -1, "limit 0 must give -1");
    CHECK(sk9_count(NULL, 2, 0, NULL, NULL, NULL) == -1, "NULL must give -1");
    /* A solved grid: one solution, no guess. */
    n = sk9_count(sol, 2, 0, out, &guesses, &gave_up);
    CHECK(n == 1 && !memcmp(out, sol, 81) && guesses == 0 && !gave_up, "solved grid: %d", n);
    /* Duplicates in a row, a column, a box, a column across bands. */
    {
        static const int pairs[4][2] = {{0, 8}, {0, 72}, {0, 20}, {4, 76}};
        for (t = 0; t < 4; t++) {
            memset(p, 0, 81);
            p[pairs[t][0]] = p[pairs[t][1]] = 5;
            CHECK(sk9_count(p, 2, 0, NULL, NULL, NULL) == 0, "duplicate pair %d", t);
        }
    }
    /* Empty grid: counting goes exactly to the limit; the budget stops early. */
    memset(p, 0, 81);
    CHECK(sk9_count(p, 1000, 0, out, NULL, NULL) == 1000, "empty grid, limit 1000");
    CHECK(valid_solution(p, out), "empty grid solution");
    n = sk9_count(p, 1000000, 10, NULL, &guesses, &gave_up);
    CHECK(gave_up == 1 && guesses == 10 && n < 1000000, "budget: n=%d g=%llu", n,
          (unsigned long long)guesses);
    /* No solution: the first-solution buffer stays untouched. */
    memset(p, 0, 81);
    for (i = 1; i < 9; i++)
        p[i] = (uint8_t)i; /* r1c2..r1c9 = 1..8 leave 9 for r1c1, */
    p[9] = 9;              /* which r2c1 = 9 forbids: no solution, no repeated digit */
    memset(out, 0xEE, 81);
    n = sk9_count(p, 2, 0, out, &guesses, &gave_up);
    for (i = 0; i < 81 && out[i] == 0xEE; i++)
        ;
    CHECK(n == 0 && i == 81 && dfs_count(p, 2) == 0, "no solution: %d, buffer written: %d", n,
          i != 81);
    /* A generous budget changes nothing. */
    memset(p, 0, 81);
    for (i = 0; i < 81; i += 4)
        p[i] = sol[i];
    n = sk9_count(p, 50, 0, NULL, &guesses, &gave_up);
    {
        uint64_t g2;
        int n2 = sk9_count(p, 50, guesses + 1, NULL, &g2, &gave_up);
        CHECK(n2 == n && g2 == guesses && !gave_up, "budget above need: %d vs %d", n2, n);
    }
    /* Random under-constrained puzzles: exact counts up to 200 against the plain DFS. */
    for (t = 0; t < 3000; t++) {
        uint32_t want, limit = (uint32_t)(1 + rng_below(200));
        int keep = 18 + rng_below(14), k;
        int order[81];
        memcpy(p, sol, 81);
        permute(p);
        for (k = 0; k < 81; k++)
            order[k] = k;
        shuffle(order, 81);
        for (k = keep; k < 81; k++)
            p[order[k]] = 0;
        if (t % 10 == 0) /* sometimes a wrong given: usually no solution at all */
            p[order[rng_below(keep)]] = (uint8_t)(1 + rng_below(9));
        want = dfs_count(p, limit);
        memset(out, 0, 81);
        n = sk9_count(p, limit, 0, out, &guesses, &gave_up);
        CHECK(n == (int)want && !gave_up, "random %d: fast9 %d, dfs %u (limit %u)", t, n, want,
              limit);
        if (n > 0)
            CHECK(valid_solution(p, out), "random %d: invalid first solution", t);
    }
    printf("self-test: %s (%d failures)\n", failures ? "FAILED" : "ok", failures);
}

/* ---------------------------------------------------------------- benchmark */

typedef struct {
    const char *name;
    double tdoku_us;
} Anchor;

static const Anchor anchors[] = {
    {"17clue", 3.3}, {"top1465", 9.4}, {"forum_hardest_1905_11plus", 52.0},
    {"forum_hardest_1106", 82.0}, {"serg", 2.2}, {"top95", 8.8}, {"kaggle", 1.1},
};

static double anchor_for(const char *path) {
    size_t i;
    for (i = 0; i < sizeof anchors / sizeof anchors[0]; i++)
        if (strstr(path, anchors[i].name))
            return anchors[i].tdoku_us;
    return 0.0;
}

static uint8_t *load(const char *path, size_t *count) {
    FILE *fp = fopen(path, "r");
    char line[256];
    size_t cap = 1024, n = 0;
    uint8_t *buf;
    if (!fp)
        return NULL;
    buf = malloc(cap * 81);
    while (buf && fgets(line, sizeof line, fp)) {
        int i;
        if (strlen(line) < 81)
            continue;
        if (n == cap) {
            uint8_t *nb = realloc(buf, (cap *= 2) * 81);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
        }
        for (i = 0; i < 81; i++)
            buf[n * 81 + i] = (uint8_t)(line[i] >= '1' && line[i] <= '9' ? line[i] - '0' : 0);
        n++;
    }
    fclose(fp);
    *count = n;
    return buf;
}

static int profile_only = 0; /* -p: one validated pass, no timing, no DFS (for valgrind) */
static int no_permute = 0;   /* -P: the files already hold random isomorphs */

static int bench_file(const char *path, int runs, size_t checks) {
    size_t n = 0, i, checked = 0, multi = 0, sample;
    uint8_t *p = load(path, &n), sol[81];
    uint64_t total_guesses = 0, g;
    double *times, fast_us, dfs_us, t0, anchor;
    const char *base = strrchr(path, '/');
    int r, bad = 0, gave_up;
    base = base ? base + 1 : path;
    if (!p || !n) {
        fprintf(stderr, "cannot read %s\n", path);
        free(p);
        return 1;
    }
    for (i = 0; i < n && !no_permute; i++)
        permute(p + i * 81);
    /* Warm-up and validation. */
    for (i = 0; i < n; i++) {
        const uint8_t *q = p + i * 81;
        int cnt = sk9_count(q, 2, 0, sol, &g, &gave_up);
        total_guesses += g;
        if (cnt < 1 || !valid_solution(q, sol)) {
            if (bad++ < 5)
                fprintf(stderr, "%s #%zu: count %d or invalid solution\n", base, i, cnt);
            continue;
        }
        multi += cnt == 2;
        if (profile_only)
            continue;
        if (checks == 0 || n <= checks || i % (n / checks) == 0) {
            uint32_t want = dfs_count(q, 2);
            checked++;
            if ((uint32_t)cnt != want && bad++ < 5)
                fprintf(stderr, "%s #%zu: fast9 count %d, plain DFS %u\n", base, i, cnt, want);
        }
    }
    if (profile_only) {
        printf("%-32s %7zu guesses/puzzle %.2f multi %zu %s\n", base, n,
               (double)total_guesses / (double)n, multi, bad ? "ERRORS" : "ok");
        free(p);
        return bad != 0;
    }
    /* Timing: RUNS full passes, median. */
    times = malloc(sizeof(double) * (size_t)runs);
    for (r = 0; r < runs; r++) {
        volatile int sink = 0;
        t0 = now();
        for (i = 0; i < n; i++)
            sink += sk9_count(p + i * 81, 2, 0, sol, NULL, NULL);
        times[r] = now() - t0;
        (void)sink;
    }
    qsort(times, (size_t)runs, sizeof(double), cmp_double);
    fast_us = times[runs / 2] / (double)n * 1e6;
    /* The plain DFS on a sample, timed in the same run (noise-independent ratio). */
    sample = n < 200 ? n : 200;
    t0 = now();
    for (i = 0; i < sample; i++)
        (void)dfs_count(p + (i * (n / sample)) * 81, 2);
    dfs_us = (now() - t0) / (double)sample * 1e6;
    anchor = anchor_for(base);
    printf("%-32s %7zu %9.2f %11.0f %8.2f %10.1f %8.0fx %8s %6zu %6zu %s\n", base, n, fast_us,
           1e6 / fast_us, (double)total_guesses / (double)n, dfs_us, dfs_us / fast_us,
           anchor > 0 ? "" : "-", checked, multi, bad ? "ERRORS" : "ok");
    if (anchor > 0)
        printf("%-32s %*s vs tdoku %.1f us: %.2fx\n", "", 7, "", anchor, fast_us / anchor);
    free(times);
    free(p);
    return bad != 0;
}

/* ---------------------------------------------------------------- whole-process file driver */

/* One 81-character puzzle line (digits, '.' or '0' for a blank, then end of line) into cell
 * values and tdoku's text form ('.' blanks, NUL-terminated); 0 when the line is not one. */
static int parse_line(const char *line, uint8_t *cells, char *text) {
    int i;
    if (strcspn(line, "\r\n") != 81)
        return 0;
    for (i = 0; i < 81; i++) {
        const char ch = line[i];
        if (ch >= '1' && ch <= '9') {
            cells[i] = (uint8_t)(ch - '0');
            text[i] = ch;
        } else if (ch == '.' || ch == '0') {
            cells[i] = 0;
            text[i] = '.';
        } else
            return 0;
    }
    text[81] = '\0';
    return 1;
}

/*
 * -F ENGINE FILE: solve every line of FILE ("-" = standard input) at limit 2 and print one line
 * a puzzle, as `sudokit solve` does for a line file: the solution (the first one found; tdoku's
 * is the last one it found, which differs only for puzzles with several), !none, or !invalid
 * for a line that is not 81 puzzle characters. The whole process is what is timed (by
 * bench_solve.py), so reading and writing are plain buffered stdio. ENGINE:
 *   sk9     sk9_count at limit 2 (the count and the first solution in one call);
 *   tdoku   the same output from tdoku: it keeps a solution at limit 2 only when it finds a
 *           second one (configuration 1), so a unique puzzle costs a second call at limit 1;
 *   tdoku1  tdoku at limit 1 only: a solution without the proof of uniqueness (less work and
 *           less output than `sudokit solve`; the stricter yardstick, reported beside).
 */
static int solve_file(const char *engine, const char *path) {
    static char obuf[1 << 16];
    FILE *fp = strcmp(path, "-") ? fopen(path, "r") : stdin;
    char line[512], text[82], out[82];
    uint8_t cells[81], sol[81];
    const int tdoku = !strcmp(engine, "tdoku") ? 2 : !strcmp(engine, "tdoku1");
    if (!tdoku && strcmp(engine, "sk9")) {
        fprintf(stderr, "bench_fast9: -F takes sk9, tdoku or tdoku1, not %s\n", engine);
        return 2;
    }
#ifndef SK_WITH_TDOKU
    if (tdoku) {
        fprintf(stderr, "bench_fast9: built without tdoku (make bench_tdoku)\n");
        return 2;
    }
#endif
    if (!fp) {
        fprintf(stderr, "bench_fast9: cannot read %s\n", path);
        return 2;
    }
    setvbuf(stdout, obuf, _IOFBF, sizeof obuf);
    out[81] = '\n';
    while (fgets(line, sizeof line, fp)) {
        int i, n;
        if (!parse_line(line, cells, text)) {
            fputs("!invalid\n", stdout);
            continue;
        }
        if (tdoku) {
#ifdef SK_WITH_TDOKU
            size_t g;
            n = (int)TdokuSolverDpllTriadSimd(text, (size_t)tdoku, 1, out, &g);
            if (n == 1 && tdoku == 2)
                n = (int)TdokuSolverDpllTriadSimd(text, 1, 0, out, &g);
#else
            n = 0;
#endif
        } else {
            n = sk9_count(cells, 2, 0, sol, NULL, NULL);
            for (i = 0; i < 81 && n > 0; i++)
                out[i] = (char)('0' + sol[i]);
        }
        if (n > 0)
            fwrite(out, 1, 82, stdout);
        else
            fputs("!none\n", stdout);
    }
    if (fp != stdin)
        fclose(fp);
    return fflush(stdout) != 0;
}

#ifdef SK_WITH_TDOKU
/* ---------------------------------------------------------------- sk9 against tdoku */

/*
 * -T: for each set and for limit 1 then 2, both solvers on the same isomorphs in this process.
 * Validation first (also the warm-up): the counts of the two must agree on every puzzle, and
 * at limit 1 both solutions must be valid grids keeping the givens. Then RUNS rounds, each
 * timing one pass of sk9 and one of tdoku over the whole set (CPU time of the thread; which
 * goes first alternates), so both see the same machine load. Prints one line a set and limit:
 *     cmp SET PUZZLES LIMIT SK9_US SK9_GUESSES TDOKU_US TDOKU_GUESSES RATIO
 * (µs and guesses per puzzle; times are medians of the rounds, RATIO the median of the rounds'
 * sk9/tdoku ratios), or an error line on stderr and status 1 when an answer is wrong.
 */
static int compare_file(const char *path, int runs) {
    size_t n = 0, i;
    uint8_t *p = load(path, &n), sol[81], tsol[81];
    char *text, tout[81];
    const char *base = strrchr(path, '/');
    double *tsk, *ttd, *ratio;
    int limit, r, bad = 0;
    base = base ? base + 1 : path;
    if (!p || !n) {
        fprintf(stderr, "cannot read %s\n", path);
        free(p);
        return 1;
    }
    text = malloc(n * 82);
    tsk = malloc(sizeof(double) * (size_t)runs * 3);
    if (!text || !tsk) {
        fprintf(stderr, "out of memory\n");
        free(p);
        free(text);
        free(tsk);
        return 1;
    }
    ttd = tsk + runs;
    ratio = ttd + runs;
    for (i = 0; i < n; i++) {
        int k;
        if (!no_permute)
            permute(p + i * 81);
        for (k = 0; k < 81; k++)
            text[i * 82 + k] = p[i * 81 + k] ? (char)('0' + p[i * 81 + k]) : '.';
        text[i * 82 + 81] = '\0'; /* tdoku reads past 81 characters without it */
    }
    for (limit = 1; limit <= 2; limit++) {
        uint64_t sk_guesses = 0, g;
        size_t td_guesses = 0, tg;
        for (i = 0; i < n; i++) {
            const uint8_t *q = p + i * 81;
            int ns = sk9_count(q, (uint32_t)limit, 0, sol, &g, NULL), k;
            size_t nt = TdokuSolverDpllTriadSimd(text + i * 82, (size_t)limit, 0, tout, &tg);
            sk_guesses += g;
            td_guesses += tg;
            for (k = 0; k < 81; k++)
                tsol[k] = (uint8_t)(tout[k] - '0');
            if ((size_t)ns != nt || ns < 1 || !valid_solution(q, sol) ||
                (limit == 1 && !valid_solution(q, tsol))) {
                if (bad++ < 5)
                    fprintf(stderr, "%s #%zu limit %d: sk9 %d, tdoku %zu solutions%s\n", base, i,
                            limit, ns, nt, ns >= 1 ? " or an invalid solution" : "");
            }
        }
        for (r = 0; r < runs; r++) {
            int side;
            for (side = 0; side < 2; side++) {
                volatile size_t sink = 0;
                double t0 = now();
                if ((side + r) % 2 == 0) {
                    for (i = 0; i < n; i++)
                        sink += (size_t)sk9_count(p + i * 81, (uint32_t)limit, 0, sol, NULL, NULL);
                    tsk[r] = now() - t0;
                } else {
                    for (i = 0; i < n; i++)
                        sink += TdokuSolverDpllTriadSimd(text + i * 82, (size_t)limit, 0, tout, &tg);
                    ttd[r] = now() - t0;
                }
                (void)sink;
            }
            ratio[r] = tsk[r] / ttd[r];
        }
        qsort(tsk, (size_t)runs, sizeof(double), cmp_double);
        qsort(ttd, (size_t)runs, sizeof(double), cmp_double);
        qsort(ratio, (size_t)runs, sizeof(double), cmp_double);
        printf("cmp %s %zu %d %.4f %.4f %.4f %.4f %.4f\n", base, n, limit,
               tsk[runs / 2] / (double)n * 1e6, (double)sk_guesses / (double)n,
               ttd[runs / 2] / (double)n * 1e6, (double)td_guesses / (double)n, ratio[runs / 2]);
        fflush(stdout);
    }
    free(tsk);
    free(text);
    free(p);
    return bad != 0;
}
#endif

int main(int argc, char **argv) {
    static const char *sets[] = {"17clue_49158.txt", "top1465.txt",
                                 "forum_hardest_1905_11plus.txt", "forum_hardest_1106.txt",
                                 "serg.txt", "top95.txt", "kaggle_1k.txt"};
    int runs = 5, quick = 0, only_test = 0, i, status = 0, nfiles = 0, compare = 0;
    size_t checks = 2000;
    const char *files[64];
    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-r") && i + 1 < argc)
            runs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-s") && i + 1 < argc)
            rng_state = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "-c") && i + 1 < argc)
            checks = (size_t)strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "-q"))
            quick = 1;
        else if (!strcmp(argv[i], "-p"))
            profile_only = quick = 1;
        else if (!strcmp(argv[i], "-t"))
            only_test = 1;
        else if (!strcmp(argv[i], "-P"))
            no_permute = 1;
        else if (!strcmp(argv[i], "-F") && i + 2 < argc)
            return solve_file(argv[i + 1], argv[i + 2]);
        else if (!strcmp(argv[i], "-T"))
            compare = quick = 1;
        else if (nfiles < 64)
            files[nfiles++] = argv[i];
    }
    if (runs < 1)
        runs = 1;
    if (!quick || only_test)
        self_test();
    if (only_test)
        return failures != 0;
    if (!nfiles) {
        static char paths[7][512];
        const char *dir = getenv("SUDOKIT_DATA");
        if (!dir)
            dir = "/work/shared/data";
        for (i = 0; i < 7; i++) {
            snprintf(paths[i], sizeof paths[i], "%s/%s", dir, sets[i]);
            files[nfiles++] = paths[i];
        }
    }
    if (compare) {
#ifdef SK_WITH_TDOKU
        for (i = 0; i < nfiles; i++)
            status |= compare_file(files[i], runs);
        return status;
#else
        fprintf(stderr, "bench_fast9: built without tdoku (make bench_tdoku)\n");
        return 2;
#endif
    }
    printf("%-32s %7s %9s %11s %8s %10s %9s %8s %6s %6s\n", "set", "puzzles", "us/puz",
           "puzzles/s", "guess/p", "dfs us/p", "vs dfs", "", "dfschk", "multi");
    for (i = 0; i < nfiles; i++)
        status |= bench_file(files[i], runs, checks);
    return status || failures;
}
