/*
 * sk_gen.c -- the generator's hot loops: phase 1 (sk_fill, contract in sk_gen.h) and the
 * clue-removal pass (sk_reduce, contract in sk_solver.h).  Only the public sk_solver.h API is
 * used: every count comes from sk_search.
 *
 * Necessity witnesses (sk_reduce).  Most searches of a removal pass find a second solution
 * (a clue that must stay: 24 of 38 on random 9x9, at ~2.5 us each against ~1.5 us for a
 * removal that keeps the puzzle unique).  Many of those need no search: when the solution S
 * is known, any set D of cells whose digits can be permuted into another valid grid (an
 * "unavoidable set" of S) proves that a puzzle with no clue in D has a second solution.  Two
 * families are cheap to list and catch about half of the necessary clues of a 9x9 pass
 * (measured on 3,000 generated puzzles: 11.6 of 24.1):
 *   - digit pairs: for digits a, b, link the a-cell and the b-cell of every unit; swapping a
 *     and b on one connected component keeps every unit whole (any shape without rules);
 *   - row (column) pairs of one band (stack) of a standard 9x9: the columns where the two
 *     rows' digits map onto each other form cycles; swapping the two rows on one cycle keeps
 *     rows, columns and boxes whole.
 * So a group whose removal leaves some witness without a clue is restored without a search.
 * Phase 1 (sk_fill) uses the same sets the other way round: when the digits just placed agree
 * with the last solution found and one of its witnesses still has no clue, the puzzle has two
 * solutions at least and the search is skipped (9x9: ~9.7 of the ~17 searches that would find
 * two solutions; they are the cheap ones, so ~5% of the time).
 * Exact (a witness is a second solution, the search would have found one), so the pass
 * removes the same clues as without witnesses; used only for unbounded searches (budget 0,
 * where a search never gives up) and shapes of at most SK_WIT_CELLS cells without rules.
 * Rejected: searching with the removed clue's digit excluded (limit 1, one search per other
 * candidate digit) instead of limit 2: as slow in total (94 against 93 us a puzzle), and
 * witnesses from the solutions met in phase 1 (a grid other than S agreeing with the clues
 * but one): +1% of the necessary clues caught, not worth their bookkeeping.
 */
#include "sk_gen.h"

#include <string.h>

#include "sk_port.h"

/* ---------------------------------------------------------------------------------------- */
/* Necessity witnesses                                                                        */

#define SK_WIT_CELLS 128 /* cells of the shapes that get witnesses (two 64-bit words a set) */
#define SK_WIT_UNITS 64  /* and their most units */
#define SK_WIT_MAX 512   /* sets: digit pairs n(n-1)/2 * n/2 <= 275 for n <= 11, rows 144 */
#define SK_WIT_SIZE 12      /* the most cells of a set kept as a witness */

typedef struct {
    uint32_t count;
    uint64_t set[SK_WIT_MAX][2]; /* the cells of each witness */
} sk_witnesses;

static void wit_add(sk_witnesses *ws, const uint64_t set[2]) {
    /* Big sets almost never end up without a clue (on 9x9, sets of 4-10 cells catch 11.4 of
     * the 11.6 necessary clues a pass proves this way): not worth indexing.  The count bound
     * holds by the #defines above; the check keeps a miscount safe. */
    if (__builtin_popcountll(set[0]) + __builtin_popcountll(set[1]) > SK_WIT_SIZE) return;
    if (ws->count < SK_WIT_MAX) {
        ws->set[ws->count][0] = set[0];
        ws->set[ws->count][1] = set[1];
        ws->count++;
    }
}

/* The witnesses of the complete grid S (ncells <= SK_WIT_CELLS, nunits <= SK_WIT_UNITS, every
 * unit holding each digit once). */
static void wit_build(const sk_geom *g, const uint8_t *S, sk_witnesses *ws) {
    const int n = sk_geom_n(g), ncells = sk_geom_ncells(g), nunits = sk_geom_nunits(g);
    const uint16_t *units = sk_geom_units(g);
    uint8_t upos[SK_WIT_UNITS][SK_MAX_N]; /* upos[u][d-1]: the cell of digit d in unit u */
    uint8_t row[SK_WIT_CELLS];            /* the unit among 0..n-1 (the rows) of each cell */
    ws->count = 0;
    memset(row, 0xFF, sizeof row);
    for (int u = 0; u < nunits; u++)
        for (int i = 0; i < n; i++) {
            const int c = units[u * n + i];
            upos[u][S[c] - 1] = (uint8_t)c;
            if (u < n) row[c] = (uint8_t)u;
        }
    /* Digit pairs.  Units 0..n-1 partition the cells (the rows, in every shape sudokit
     * builds; checked): each holds one a-cell and one b-cell, so the rows are the nodes, and
     * every other unit joins the row of its a-cell with the row of its b-cell. */
    int rows_partition = nunits >= n;
    for (int c = 0; c < ncells && rows_partition; c++) rows_partition = row[c] != 0xFF;
    for (int a = 0; a < n && rows_partition; a++)
        for (int b = a + 1; b < n; b++) {
            uint64_t adj[SK_MAX_N]; /* rows joined to each row (bit sets of rows) */
            for (int r = 0; r < n; r++) adj[r] = (uint64_t)1 << r;
            for (int u = n; u < nunits; u++) {
                const int x = row[upos[u][a]], y = row[upos[u][b]];
                adj[x] |= (uint64_t)1 << y;
                adj[y] |= (uint64_t)1 << x;
            }
            uint64_t left = n == 64 ? ~(uint64_t)0 : ((uint64_t)1 << n) - 1;
            while (left) {
                uint64_t comp = left & -left, prev = 0;
                while (comp != prev) { /* grow to the connected component */
                    prev = comp;
                    for (uint64_t m = prev; m; m &= m - 1) comp |= adj[__builtin_ctzll(m)];
                }
                left &= ~comp;
                if (2 * __builtin_popcountll(comp) > SK_WIT_SIZE) continue; /* see wit_add */
                uint64_t set[2] = {0, 0};
                for (uint64_t m = comp; m; m &= m - 1) {
                    const int r = __builtin_ctzll(m), ca = upos[r][a], cb = upos[r][b];
                    set[ca / 64] |= (uint64_t)1 << (ca % 64);
                    set[cb / 64] |= (uint64_t)1 << (cb % 64);
                }
                wit_add(ws, set);
            }
        }
    if (sk_geom_is_standard9(g)) {
        /* Row pairs of a band (t = 0) and column pairs of a stack (t = 1). */
        for (int t = 0; t < 2; t++)
            for (int r1 = 0; r1 < 9; r1++)
                for (int r2 = r1 + 1; r2 < (r1 / 3 + 1) * 3; r2++) {
                    int where[9], seen = 0; /* where[d]: the position of digit d+1 in line r1 */
                    for (int y = 0; y < 9; y++) where[S[t ? y * 9 + r1 : r1 * 9 + y] - 1] = y;
                    for (int x = 0; x < 9; x++) {
                        uint64_t set[2] = {0, 0};
                        int y = x;
                        if (seen >> x & 1) continue;
                        do {
                            const int c1 = t ? y * 9 + r1 : r1 * 9 + y;
                            const int c2 = t ? y * 9 + r2 : r2 * 9 + y;
                            seen |= 1 << y;
                            set[c1 / 64] |= (uint64_t)1 << (c1 % 64);
                            set[c2 / 64] |= (uint64_t)1 << (c2 % 64);
                            y = where[S[c2] - 1];
                        } while (y != x);
                        wit_add(ws, set);
                    }
                }
    }
}

/* Forget the witnesses that hold a cell of (m0, m1). */
static void wit_drop_cells(sk_witnesses *ws, uint64_t m0, uint64_t m1) {
    for (uint32_t k = 0; k < ws->count;) {
        if ((ws->set[k][0] & m0) || (ws->set[k][1] & m1)) {
            ws->count--;
            ws->set[k][0] = ws->set[ws->count][0];
            ws->set[k][1] = ws->set[ws->count][1];
        } else {
            k++;
        }
    }
}

/* Forget the witnesses that hold one of the clues just kept (clues minus left): a kept clue
 * stays, so they can never be without a clue again. */
static void wit_drop(sk_witnesses *ws, const uint64_t clues[2], const uint64_t left[2]) {
    const uint64_t kept0 = clues[0] & ~left[0], kept1 = clues[1] & ~left[1];
    wit_drop_cells(ws, kept0, kept1);
}

/* 1 when a witness has no clue left in clues (the puzzle has a second solution).  A plain
 * scan: 9x9 keeps ~56 witnesses of up to SK_WIT_SIZE cells (indexing them by cell cost more
 * than it saved). */
static int wit_proves(const sk_witnesses *ws, const uint64_t clues[2]) {
    for (uint32_t k = 0; k < ws->count; k++)
        if (!(ws->set[k][0] & clues[0]) && !(ws->set[k][1] & clues[1])) return 1;
    return 0;
}

/* ---------------------------------------------------------------------------------------- */
/* Clue removal (contract in sk_solver.h)                                                     */

/* Passes with fewer groups than this skip the witnesses (their setup costs one search). */
#define SK_WIT_MIN_GROUPS 8

int sk_reduce(const sk_geom *g, sk_work *w, uint8_t *cells, const uint16_t *order,
              const uint32_t *group_ends, uint32_t ngroups, uint64_t budget,
              uint64_t max_searches, uint64_t *searches, int *decided, sk_poll_fn poll,
              void *poll_ctx) {
    if (g == NULL || w == NULL || cells == NULL || searches == NULL || decided == NULL)
        return SK_EINVAL;
    if (ngroups > 0 && (order == NULL || group_ends == NULL)) return SK_EINVAL;
    const int n = sk_geom_n(g), ncells = sk_geom_ncells(g);
    for (int c = 0; c < ncells; c++)
        if (cells[c] > n) return SK_EINVAL;
    uint32_t prev = 0;
    for (uint32_t k = 0; k < ngroups; k++) {
        if (group_ends[k] < prev) return SK_EINVAL;
        for (uint32_t j = prev; j < group_ends[k]; j++)
            if (order[j] >= ncells) return SK_EINVAL;
        prev = group_ends[k];
    }
    *searches = 0;
    *decided = 1;
    /* Witnesses: only where a search never gives up, so a witness decides exactly as the
     * search would (see the head of this file). */
    sk_witnesses ws;
    ws.count = 0;
    uint64_t clues[2] = {0, 0};
    int witnesses = 0;
    if (budget == 0 && ngroups >= SK_WIT_MIN_GROUPS && ncells <= SK_WIT_CELLS &&
        sk_geom_nunits(g) <= SK_WIT_UNITS && !sk_geom_has_rules(g)) {
        uint8_t S[SK_WIT_CELLS];
        uint64_t count = 0;
        const int rc = sk_search(g, w, cells, 2, 1, S, 0, &count, NULL, poll, poll_ctx);
        if (rc == SK_STOPPED) return rc;
        if (rc == SK_COMPLETE && count == 1) {
            wit_build(g, S, &ws);
            witnesses = 1;
            for (int c = 0; c < ncells; c++)
                if (cells[c]) clues[c / 64] |= (uint64_t)1 << (c % 64);
        }
    }
    /* The cells cleared in the current group and their digits.  A cell listed twice in a
     * group is cleared (and saved) once, so at most ncells entries are ever used. */
    uint16_t cleared[SK_MAX_N * SK_MAX_N];
    uint8_t digits[SK_MAX_N * SK_MAX_N];
    uint32_t start = 0;
    for (uint32_t k = 0; k < ngroups; start = group_ends[k], k++) {
        int any = 0;
        for (uint32_t j = start; j < group_ends[k] && !any; j++) any = cells[order[j]] != 0;
        if (!any) continue;
        /* Out of searches: stop before touching this group, so the puzzle stays as the
         * groups before it left it (and unique when it was unique). */
        if (*searches == max_searches) return SK_GAVE_UP;
        /* Many short searches never reach a search's own poll point: poll between them. */
        if (poll && *searches % SK_REDUCE_POLL_EVERY == SK_REDUCE_POLL_EVERY - 1 &&
            poll(poll_ctx))
            return SK_STOPPED;
        uint32_t ncleared = 0;
        for (uint32_t j = start; j < group_ends[k]; j++) {
            const uint16_t c = order[j];
            if (cells[c]) {
                cleared[ncleared] = c;
                digits[ncleared++] = cells[c];
                cells[c] = 0;
            }
        }
        uint64_t left[2] = {clues[0], clues[1]};
        for (uint32_t i = 0; i < ncleared && witnesses; i++)
            left[cleared[i] / 64] &= ~((uint64_t)1 << (cleared[i] % 64));
        if (witnesses && wit_proves(&ws, left)) {
            /* a second solution is known: exactly what the search would have found */
            for (uint32_t i = 0; i < ncleared; i++) cells[cleared[i]] = digits[i];
            ++*searches;
            wit_drop(&ws, clues, left);
            continue;
        }
        uint64_t count = 0;
        const int rc = sk_search(g, w, cells, 2, 0, NULL, budget, &count, NULL, poll, poll_ctx);
        if (rc == SK_COMPLETE && count == 1) {
            ++*searches;
            clues[0] = left[0];
            clues[1] = left[1];
            continue; /* still unique: the group stays out */
        }
        for (uint32_t i = 0; i < ncleared; i++) cells[cleared[i]] = digits[i];
        if (rc == SK_STOPPED) return rc; /* that search does not count: its group is as it was */
        ++*searches;
        if (witnesses) wit_drop(&ws, clues, left);
        if (rc == SK_GAVE_UP)
            *decided = 0;
        else if (rc != SK_COMPLETE)
            return rc; /* cannot happen after the checks above; the puzzle is restored */
    }
    return SK_COMPLETE;
}

/* ---------------------------------------------------------------------------------------- */
/* Phase 1 (contract in sk_gen.h; specification: generator/fill.py's _fill, not guided)      */

/* The digit (0-based) for cell i: one of the digits of `open` (ascending) chosen by a draw;
 * -1 when open is empty (no draw then), -2 when the draw callback stopped or misbehaved. */
static int fill_pick(uint64_t open, sk_draw_fn draw, void *ctx) {
    if (!open) return -1;
    const double r = draw(ctx);
    if (!(r >= 0.0 && r < 1.0)) return -2;
    /* Python: options[int(random() * len(options))], the same IEEE double product. */
    int index = (int)(r * (double)__builtin_popcountll(open));
    while (index-- > 0) open &= open - 1;
    return __builtin_ctzll(open);
}

int sk_fill(const sk_geom *g, sk_work *w, const uint16_t *order, const uint32_t *ends,
            uint32_t norder, const sk_gen_opts *opts, uint8_t *puzzle, uint8_t *solution,
            sk_gen_result *result) {
    if (g == NULL || w == NULL || (norder > 0 && order == NULL) || opts == NULL ||
        opts->draw == NULL || puzzle == NULL || solution == NULL || result == NULL)
        return SK_EINVAL;
    const sk_draw_fn draw = opts->draw;
    void *const draw_ctx = opts->draw_ctx, *const poll_ctx = opts->poll_ctx;
    const sk_poll_fn poll = opts->poll;
    const uint64_t budget = opts->budget, max_searches = opts->max_searches;
    uint64_t *const searches = &result->searches;
    int *const outcome = &result->outcome;
    const int n = sk_geom_n(g), ncells = sk_geom_ncells(g), nunits = sk_geom_nunits(g);
    if (nunits > SK_FILL_MAX_UNITS || norder > (uint32_t)ncells) return SK_EINVAL;
    uint64_t used[SK_FILL_MAX_UNITS];        /* digits placed in each unit (bit d-1) */
    uint64_t banned[SK_MAX_N * SK_MAX_N];    /* digits refuted in each cell */
    const uint64_t full = n == 64 ? ~(uint64_t)0 : ((uint64_t)1 << n) - 1;
    memset(puzzle, 0, (size_t)ncells);
    for (uint32_t j = 0; j < norder; j++) {
        if (order[j] >= ncells || puzzle[order[j]]) return SK_EINVAL; /* distinct cells */
        if (ends && (ends[j] <= j || ends[j] > norder)) return SK_EINVAL;
        puzzle[order[j]] = 1;
    }
    memset(puzzle, 0, (size_t)ncells);
    memset(used, 0, sizeof(uint64_t) * (size_t)nunits);
    memset(banned, 0, sizeof(uint64_t) * (size_t)ncells);
    *searches = 0;
    *outcome = SK_FILL_FULL;
    /* Batch sizes of the random (not guided) fill: a fifth of the grid, then tenths. */
    uint32_t step = ncells / 5 > 1 ? (uint32_t)(ncells / 5) : 1;
    const uint32_t cap = ncells / 10 > 1 ? (uint32_t)(ncells / 10) : 1;
    uint32_t k = 0; /* order[0 .. k-1] hold digits, and that puzzle has a solution */
    /* Witnesses of the last solution found (known): only for exact searches, as in
     * sk_reduce. */
    const int witnesses = budget == 0 && ncells <= SK_WIT_CELLS && nunits <= SK_WIT_UNITS &&
                          !sk_geom_has_rules(g);
    uint8_t known[SK_WIT_CELLS];
    int have_known = 0, ws_built = 0;
    uint64_t clues[2] = {0, 0};
    sk_witnesses ws;
    ws.count = 0;
    while (k < norder) {
        const uint32_t batch = step < norder - k ? step : norder - k;
        uint32_t placed = 0;
        int dead = 0;
        for (; placed < batch; placed++) {
            const int i = order[k + placed];
            int nu;
            const uint16_t *cu = sk_geom_cell_units(g, i, &nu);
            uint64_t taken = banned[i];
            for (int u = 0; u < nu; u++) taken |= used[cu[u]];
            const int d = fill_pick(full & ~taken, draw, draw_ctx);
            if (d == -2) return SK_STOPPED;
            if (d < 0) {
                dead = 1;
                break;
            }
            puzzle[i] = (uint8_t)(d + 1);
            /* A single digit joins its units only once it is kept (fill.py's one-digit path);
             * a batch's digits join at once, so the next picks of the batch see them. */
            if (step > 1)
                for (int u = 0; u < nu; u++) used[cu[u]] |= (uint64_t)1 << d;
        }
        int64_t count = 0;
        if (!dead) {
            if (*searches == max_searches) return SK_GAVE_UP;
            /* The last solution found still fits and one of its witnesses has no clue: two
             * solutions at least, exactly what the search would say (see the head of this
             * file), without it. */
            int agree = have_known;
            uint64_t with[2] = {clues[0], clues[1]};
            for (uint32_t j = 0; j < placed && agree; j++) {
                const int i = order[k + j];
                agree = known[i] == puzzle[i];
                with[i / 64] |= (uint64_t)1 << (i % 64);
            }
            if (agree) {
                if (!ws_built) {
                    wit_build(g, known, &ws);
                    wit_drop_cells(&ws, clues[0], clues[1]);
                    ws_built = 1;
                }
                if (wit_proves(&ws, with)) {
                    ++*searches;
                    count = 2;
                    goto decided;
                }
            }
            uint64_t found = 0;
            const int rc = sk_search(g, w, puzzle, 2, 1, solution, budget, &found, NULL, poll,
                                     poll_ctx);
            if (rc == SK_STOPPED || rc == SK_EINVAL || rc == SK_ENOMEM) return rc;
            ++*searches;
            count = rc == SK_COMPLETE ? (int64_t)found : -1;
            if (count >= 2 && witnesses) {
                memcpy(known, solution, (size_t)ncells);
                have_known = 1;
                ws_built = 0;
            }
        }
    decided:
        if (count >= 1) {
            if (step == 1) {
                const int i = order[k];
                int nu;
                const uint16_t *cu = sk_geom_cell_units(g, i, &nu);
                for (int u = 0; u < nu; u++) used[cu[u]] |= (uint64_t)1 << (puzzle[i] - 1);
            }
            for (uint32_t j = 0; j < placed && witnesses; j++) {
                const int i = order[k + j];
                clues[i / 64] |= (uint64_t)1 << (i % 64);
                if (ws_built) wit_drop_cells(&ws, i < 64 ? (uint64_t)1 << i : 0,
                                             i < 64 ? 0 : (uint64_t)1 << (i - 64));
            }
            k += placed;
            if (count == 1) {
                if (ends)
                    for (uint32_t j = k; j < ends[k - 1]; j++)
                        puzzle[order[j]] = solution[order[j]];
                *outcome = SK_FILL_UNIQUE;
                return SK_COMPLETE;
            }
            step = step < cap ? step : cap;
            continue;
        }
        /* No solution (or undecided within the guess bound): undo the batch. */
        uint64_t bit = 0;
        for (uint32_t j = 0; j < placed; j++) {
            const int i = order[k + j];
            bit = (uint64_t)1 << (puzzle[i] - 1);
            puzzle[i] = 0;
            if (step > 1) {
                int nu;
                const uint16_t *cu = sk_geom_cell_units(g, i, &nu);
                for (int u = 0; u < nu; u++) used[cu[u]] &= ~bit;
            }
        }
        if (step > 1)
            step = step / 2 > 1 ? step / 2 : 1;
        else if (dead) {
            *outcome = SK_FILL_DEAD;
            return SK_COMPLETE;
        } else
            banned[order[k]] |= bit;
    }
    return SK_COMPLETE; /* every cell holds a digit and the puzzle still has several solutions */
}

/* ---------------------------------------------------------------------------------------- */
/* One attempt: shuffle, fill, shuffle, reduce (contract in sk_gen.h)                        */

/* perm[0..n-1] = 0..n-1 in a random order: one draw per entry, then a stable sort by the
 * draws (Python's sorted(range(n), key=keys.__getitem__)).  Doubles in [0, 1) compare as
 * their bit patterns.  0 when the draw callback stopped. */
static int shuffle(uint32_t *perm, uint32_t n, sk_draw_fn draw, void *ctx, uint64_t *keys,
                   uint32_t *tmp) {
    for (uint32_t i = 0; i < n; i++) {
        const double r = draw(ctx);
        if (!(r >= 0.0 && r < 1.0)) return 0;
        memcpy(&keys[i], &r, sizeof r);
        perm[i] = i;
    }
    /* bottom-up merge sort: stable, n log n */
    for (uint32_t width = 1; width < n; width *= 2) {
        for (uint32_t lo = 0; lo < n; lo += 2 * width) {
            const uint32_t mid = lo + width < n ? lo + width : n;
            const uint32_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            uint32_t a = lo, b = mid, o = lo;
            while (a < mid && b < hi) tmp[o++] = keys[perm[b]] < keys[perm[a]] ? perm[b++] : perm[a++];
            while (a < mid) tmp[o++] = perm[a++];
            while (b < hi) tmp[o++] = perm[b++];
        }
        memcpy(perm, tmp, sizeof *perm * n);
    }
    return 1;
}

int sk_random_puzzle(const sk_geom *g, sk_work *w, const uint16_t *cells, const uint32_t *ends,
                     uint32_t norbits, const sk_gen_opts *opts, uint32_t *perm, uint8_t *puzzle,
                     uint8_t *solution, sk_gen_result *result) {
    if (g == NULL || (norbits > 0 && (cells == NULL || ends == NULL || perm == NULL)) ||
        puzzle == NULL || result == NULL || opts == NULL || opts->draw == NULL)
        return SK_EINVAL;
    const sk_draw_fn draw = opts->draw;
    void *const draw_ctx = opts->draw_ctx;
    uint64_t *const searches = &result->searches;
    const int ncells = sk_geom_ncells(g);
    if (norbits > (uint32_t)ncells || (norbits > 0 && ends[norbits - 1] > (uint32_t)ncells))
        return SK_EINVAL;
    for (uint32_t k = 0; k < norbits; k++)
        if ((k > 0 && ends[k] <= ends[k - 1]) || (k == 0 && ends[0] == 0)) return SK_EINVAL;
    /* distinct cells, checked before any draw (puzzle as scratch) */
    memset(puzzle, 0, (size_t)ncells);
    for (uint32_t j = 0; j < (norbits ? ends[norbits - 1] : 0); j++) {
        if (cells[j] >= ncells || puzzle[cells[j]]) return SK_EINVAL;
        puzzle[cells[j]] = 1;
    }
    uint64_t keys[SK_MAX_N * SK_MAX_N];
    uint32_t tmp[SK_MAX_N * SK_MAX_N];
    uint16_t order[SK_MAX_N * SK_MAX_N];
    uint32_t oends[SK_MAX_N * SK_MAX_N];
    *searches = 0;
    result->decided = 1;
    if (!shuffle(perm, norbits, draw, draw_ctx, keys, tmp)) return SK_STOPPED;
    uint32_t norder = 0;
    for (uint32_t k = 0; k < norbits; k++) {
        const uint32_t o = perm[k], start = o ? ends[o - 1] : 0;
        for (uint32_t j = start; j < ends[o]; j++) order[norder++] = cells[j];
        for (uint32_t j = start; j < ends[o]; j++) oends[norder - ends[o] + j] = norder;
    }
    int rc = sk_fill(g, w, order, opts->complete_orbits ? oends : NULL, norder, opts, puzzle,
                     solution, result);
    const uint64_t filled = *searches;
    if (rc != SK_COMPLETE || result->outcome != SK_FILL_UNIQUE) return rc;
    /* the orbits that hold digits (their first cell), in the shuffled order, shuffled again */
    uint32_t present[SK_MAX_N * SK_MAX_N], npresent = 0;
    for (uint32_t k = 0; k < norbits; k++) {
        const uint32_t o = perm[k];
        if (puzzle[cells[o ? ends[o - 1] : 0]]) present[npresent++] = o;
    }
    uint32_t *again = (uint32_t *)oends; /* free again: reused for the second order */
    if (!shuffle(again, npresent, draw, draw_ctx, keys, tmp)) return SK_STOPPED;
    uint32_t ngroups = 0;
    norder = 0;
    for (uint32_t k = 0; k < npresent; k++) {
        const uint32_t o = present[again[k]], start = o ? ends[o - 1] : 0;
        for (uint32_t j = start; j < ends[o]; j++) order[norder++] = cells[j];
        tmp[ngroups++] = norder;
    }
    uint64_t removed = 0;
    const uint64_t max_searches = opts->max_searches;
    rc = sk_reduce(g, w, puzzle, order, tmp, ngroups, opts->budget,
                   max_searches == UINT64_MAX ? UINT64_MAX : max_searches - filled, &removed,
                   &result->decided, opts->poll, opts->poll_ctx);
    *searches = filled + removed;
    return rc;
}
