/*
 * sk_canon.c - the canonical (minlex) form of a standard 9x9 grid. See sk_canon.h for the
 * contract; the specification is sudokit.transform.canonical, which this file follows step
 * for step (tests compare the two on random puzzles, isomorphs, complete and empty grids).
 *
 * Method (the usual row-by-row minlex search)
 * -------------------------------------------
 * The form is built one output row at a time. A candidate is a partial map: an orientation
 * (as given or transposed), the source rows used so far (only the set matters, plus which
 * band is half used), an order of the source columns, and the labels given to the source
 * digits met so far. At each level every candidate tries every source row that may come next
 * (the rest of the current band, or any row of an unused band), and the smallest relabelled
 * form of that row is computed; only the candidates whose row equals the smallest one of the
 * level survive, so the output is the concatenation of the nine level minima.
 *
 * Column orders are lazy: columns that have been blank in every row so far are "tied" (any
 * order of them gives the same output so far) and stay one group; a group never leaves its
 * stack, so it has at most 3 columns. The stack order is fixed at level 0 (6 candidates per
 * orientation). For a new row, the smallest arrangement of each group is: its blanks (still
 * tied), then its known digits in label order, then its new digits, which take the next free
 * labels in the order they are placed; that order is the only real branch (up to 3! per
 * group), and every order becomes a candidate of the next level.
 *
 * Candidates with the same orientation, unused rows, columns and labels have the same future,
 * so each level keeps one of them (an open-addressing hash set, cleared in O(1) with a
 * generation stamp). The next free label is the same for all survivors of a level: one more
 * than the largest value output so far.
 *
 * Grids with conflicts: a digit met twice in one row counts as new both times (labels are
 * looked up as they were before the row) and keeps the label of its last position, exactly as
 * the Python code does; known digits with equal labels keep their group order (a stable sort).
 */
#include "sk_canon.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "sk_port.h"

/* One candidate: 24 bytes without padding, hashed and compared as bytes. */
typedef struct {
    uint8_t col[9];  /* source column shown at output position p                        */
    uint8_t lab[10]; /* label of source digit v so far, 0 = not met yet (lab[0] unused)   */
    uint8_t k;       /* orientation: 0 as given, 1 transposed                              */
    uint16_t ends;   /* bit p: output position p closes a group of tied columns           */
    uint16_t rest;   /* bit r: source row r not used yet                                   */
} cand;

typedef char sk_cand_is_24_bytes[sizeof(cand) == 24 ? 1 : -1];

typedef struct {
    uint32_t gen, idx;
} slot;

/* The candidates of one level: an array and a hash set over it. */
typedef struct {
    cand *v;
    uint32_t n, cap;
    slot *tab;
    uint32_t mask, gen; /* table size - 1; entries with another gen are free */
} cset;

/* Beyond this many candidates in one level the search reports out of memory (no real grid
 * comes near: a complete grid peaks at 23,328). */
#define SK_CANON_MAX_CANDS ((uint32_t)1 << 24)

static const uint8_t PERM2[2][2] = {{0, 1}, {1, 0}};
static const uint8_t PERM3[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
                                    {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};

static int cset_init(cset *s, uint32_t cap) {
    s->n = 0;
    s->cap = cap;
    s->mask = 2 * cap - 1;
    s->gen = 1;
    s->v = malloc(cap * sizeof *s->v);
    s->tab = calloc((size_t)s->mask + 1, sizeof *s->tab);
    return s->v != NULL && s->tab != NULL;
}

static void cset_free(cset *s) {
    free(s->v);
    free(s->tab);
}

static void cset_clear(cset *s) {
    s->n = 0;
    if (++s->gen == 0) { /* wrapped: every stamp could look current */
        memset(s->tab, 0, ((size_t)s->mask + 1) * sizeof *s->tab);
        s->gen = 1;
    }
}

static uint32_t cand_hash(const cand *c) {
    uint64_t w[3];
    memcpy(w, c, sizeof w);
    uint64_t h = w[0] * 0x9E3779B97F4A7C15u;
    h ^= w[1] * 0xC2B2AE3D27D4EB4Fu;
    h ^= w[2] * 0x165667B19E3779F9u;
    h ^= h >> 31;
    h *= 0xD6E8FEB86659FD93u;
    return (uint32_t)(h >> 32);
}

/* Enters candidate v[idx] in the table (no equal candidate is there). */
static void cset_place(cset *s, uint32_t idx) {
    uint32_t h = cand_hash(&s->v[idx]) & s->mask;
    while (s->tab[h].gen == s->gen) h = (h + 1) & s->mask;
    s->tab[h].gen = s->gen;
    s->tab[h].idx = idx;
}

/* Adds c unless an equal candidate is there. 0 when out of memory, else 1. */
static int cset_add(cset *s, const cand *c) {
    uint32_t h = cand_hash(c) & s->mask;
    while (s->tab[h].gen == s->gen) {
        if (memcmp(&s->v[s->tab[h].idx], c, sizeof *c) == 0) return 1;
        h = (h + 1) & s->mask;
    }
    if (s->n == s->cap) { /* grow the array and the table (load stays <= 1/2) */
        if (s->cap >= SK_CANON_MAX_CANDS) return 0;
        uint32_t cap = 2 * s->cap;
        cand *v = realloc(s->v, cap * sizeof *v);
        if (v == NULL) return 0;
        s->v = v;
        slot *tab = calloc(2 * (size_t)cap, sizeof *tab);
        if (tab == NULL) return 0;
        free(s->tab);
        s->tab = tab;
        s->cap = cap;
        s->mask = 2 * cap - 1;
        s->gen = 1;
        for (uint32_t i = 0; i < s->n; i++) cset_place(s, i);
        s->v[s->n] = *c;
        cset_place(s, s->n++);
        return 1;
    }
    s->v[s->n] = *c;
    s->tab[h].gen = s->gen;
    s->tab[h].idx = s->n++;
    return 1;
}

/* The source rows that may come after the rows used so far (the complement of rest) at
 * output row `level`: the rest of the half-used band, or any row of an unused band. */
static uint16_t next_rows(uint16_t rest, int level) {
    if (level % 3 == 0) return rest;
    for (int b = 0; b < 3; b++) {
        uint16_t m = (rest >> (3 * b)) & 7;
        if (m != 0 && m != 7) return (uint16_t)(m << (3 * b));
    }
    return 0;
}

/*
 * The smallest relabelled form of `row` that candidate s allows, written to key[0..8], and
 * how it compares with best: -1 smaller (or best is NULL), 0 equal, 1 larger. On 1 the key
 * is incomplete: the work stops at the first value above best's (most rows stop there).
 * A row is 10 bytes: the 9 cells of a source row, then 1 when they are all empty.
 */
static int row_key(const uint8_t *row, const cand *s, int nxt, const uint8_t *best,
                   uint8_t *key) {
    int order = best == NULL ? -1 : 0;
    if (row[9]) { /* an empty row (see the row layout in sk_canon9): zeros in any order */
        memset(key, 0, 9);
        for (int p = 0; order == 0 && p < 9; p++)
            if (best[p]) order = -1;
        return order;
    }
    int out = 0;
#define SK_EMIT(x)                                                                              \
    do {                                                                                        \
        int x_ = (x);                                                                           \
        if (order == 0) {                                                                       \
            if (x_ > best[out]) return 1;                                                       \
            if (x_ < best[out]) order = -1;                                                     \
        }                                                                                       \
        key[out++] = (uint8_t)x_;                                                               \
    } while (0)
    for (int p = 0; p < 9;) {
        const int q = p + __builtin_ctz((unsigned)(s->ends >> p));
        if (q == p) { /* a single column: the common case after the first rows */
            const int v = row[s->col[p]];
            SK_EMIT(v == 0 ? 0 : (s->lab[v] ? s->lab[v] : nxt++));
        } else { /* tied columns: blanks, known labels in order, then new labels */
            int blanks = 0, nknown = 0, nnew = 0;
            uint8_t known[9];
            for (int i = p; i <= q; i++) {
                const int v = row[s->col[i]];
                if (v == 0) {
                    blanks++;
                } else if (s->lab[v]) {
                    int j = nknown++;
                    for (; j > 0 && known[j - 1] > s->lab[v]; j--) known[j] = known[j - 1];
                    known[j] = s->lab[v];
                } else {
                    nnew++;
                }
            }
            for (int i = 0; i < blanks; i++) SK_EMIT(0);
            for (int i = 0; i < nknown; i++) SK_EMIT(known[i]);
            for (int i = 0; i < nnew; i++) SK_EMIT(nxt++);
        }
        p = q + 1;
    }
#undef SK_EMIT
    return order;
}

/*
 * Adds to `set` every candidate that follows s by taking source row r (10 bytes, as for
 * row_key) in its smallest form: one per order of the new digits of each group. 0 when out of
 * memory, else 1.
 */
static int expand(cset *set, const cand *s, const uint8_t *row, int r, int nxt) {
    cand base = *s;
    base.rest = (uint16_t)(s->rest & ~(1u << r));
    if (row[9]) return cset_add(set, &base); /* an empty row changes nothing else */
    uint16_t ends = 0, fresh_at = 0;
    int bpos[9], bsize[9], nb = 0; /* groups with >= 2 new digits: where, how many */
    for (int p = 0; p < 9;) {
        const int q = p + __builtin_ctz((unsigned)(s->ends >> p));
        assert(q - p < 3); /* groups never leave their stack: PERM2 / PERM3 cover them */
        uint8_t blanks[9], known[9], fresh[9];
        int nblank = 0, nknown = 0, nfresh = 0;
        for (int i = p; i <= q; i++) {
            const uint8_t c = s->col[i];
            const int v = row[c];
            if (v == 0) {
                blanks[nblank++] = c;
            } else if (s->lab[v]) { /* stable insertion by label */
                int j = nknown++;
                for (; j > 0 && s->lab[row[known[j - 1]]] > s->lab[v]; j--) known[j] = known[j - 1];
                known[j] = c;
            } else {
                fresh[nfresh++] = c;
            }
        }
        int o = p;
        for (int i = 0; i < nblank; i++) base.col[o++] = blanks[i];
        if (nblank) ends |= (uint16_t)(1u << (o - 1));
        for (int i = 0; i < nknown; i++) {
            ends |= (uint16_t)(1u << o);
            base.col[o++] = known[i];
        }
        if (nfresh >= 2) {
            bpos[nb] = o;
            bsize[nb++] = nfresh;
        }
        for (int i = 0; i < nfresh; i++) {
            ends |= (uint16_t)(1u << o);
            fresh_at |= (uint16_t)(1u << o);
            base.col[o++] = fresh[i];
        }
        p = q + 1;
    }
    base.ends = ends;
    int idx[9] = {0};
    for (;;) {
        cand c = base;
        for (int j = 0; j < nb; j++) {
            const uint8_t *perm = bsize[j] == 2 ? PERM2[idx[j]] : PERM3[idx[j]];
            for (int t = 0; t < bsize[j]; t++) c.col[bpos[j] + t] = base.col[bpos[j] + perm[t]];
        }
        int label = nxt;
        for (unsigned m = fresh_at; m; m &= m - 1)
            c.lab[row[c.col[__builtin_ctz(m)]]] = (uint8_t)label++;
        if (!cset_add(set, &c)) return 0;
        int j = 0; /* next combination of orders (an odometer) */
        for (; j < nb; j++) {
            if (++idx[j] < (bsize[j] == 2 ? 2 : 6)) break;
            idx[j] = 0;
        }
        if (j == nb) return 1;
    }
}

int sk_canon9(const uint8_t *cells, uint8_t *out) {
    if (cells == NULL || out == NULL) return SK_CANON_EINVAL;
    for (int i = 0; i < 81; i++)
        if (cells[i] > 9) return SK_CANON_EINVAL;
    /* The grid as given and transposed, a row of 10 bytes: 9 cells, then 1 if all are 0. */
    uint8_t grid[2][90];
    for (int r = 0; r < 9; r++) {
        int empty[2] = {1, 1};
        for (int c = 0; c < 9; c++) {
            grid[0][r * 10 + c] = cells[r * 9 + c];
            grid[1][r * 10 + c] = cells[c * 9 + r];
            empty[0] &= cells[r * 9 + c] == 0;
            empty[1] &= cells[c * 9 + r] == 0;
        }
        grid[0][r * 10 + 9] = (uint8_t)empty[0];
        grid[1][r * 10 + 9] = (uint8_t)empty[1];
    }
    const int orientations = memcmp(grid[0], grid[1], sizeof grid[0]) ? 2 : 1;

    cset cur, next;
    int rc = SK_CANON_ENOMEM;
    int ok_cur = cset_init(&cur, 64), ok_next = cset_init(&next, 64);
    if (!ok_cur || !ok_next) goto done;
    for (int k = 0; k < orientations; k++) {
        for (int s = 0; s < 6; s++) { /* level 0: each stack order, each stack one group */
            cand c;
            memset(&c, 0, sizeof c);
            c.k = (uint8_t)k;
            c.rest = 0x1ff;
            c.ends = (1u << 2) | (1u << 5) | (1u << 8);
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 3; j++) c.col[3 * i + j] = (uint8_t)(3 * PERM3[s][i] + j);
            if (!cset_add(&cur, &c)) goto done;
        }
    }
    uint8_t result[81];
    int nxt = 1; /* the next free label: the same for every candidate of a level */
    for (int level = 0; level < 9; level++) {
        uint8_t *best = result + 9 * level;
        int have_best = 0;
        cset_clear(&next);
        for (uint32_t i = 0; i < cur.n; i++) {
            const cand *s = &cur.v[i];
            for (unsigned rows = next_rows(s->rest, level); rows; rows &= rows - 1) {
                const int r = __builtin_ctz(rows);
                const uint8_t *row = grid[s->k] + 10 * r;
                uint8_t key[9];
                const int order = row_key(row, s, nxt, have_best ? best : NULL, key);
                if (order > 0) continue;
                if (order < 0) { /* a new minimum: the candidates kept so far lose */
                    memcpy(best, key, 9);
                    have_best = 1;
                    cset_clear(&next);
                }
                if (!expand(&next, s, row, r, nxt)) goto done;
            }
        }
        for (int p = 0; p < 9; p++)
            if (best[p] >= nxt) nxt = best[p] + 1;
        cset t = cur;
        cur = next;
        next = t;
    }
    memcpy(out, result, 81);
    rc = SK_CANON_OK;
done:
    cset_free(&cur);
    cset_free(&next);
    return rc;
}
