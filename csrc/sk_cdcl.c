/*
 * sk_cdcl.c -- conflict-driven clause learning over the one-hot model of a grid (sk_cdcl.h).
 *
 * Model.  One boolean variable per (cell, candidate digit): v = cell * n + (digit - 1), true
 * when the cell holds the digit.  The rules are not clauses but native propagators over those
 * variables, each with the clause it stands for as its reason (needed by conflict analysis):
 *
 *   cell AMO   v true -> every other digit of its cell false      reason (-v | -w), w the true one
 *   unit AMO   v true -> the digit leaves every other cell of     reason (-v | -w)
 *              each unit of v's cell
 *   cell ALO   one digit left in a cell -> it is true             reason: the cell's clause
 *                                                                 (x(c,1) | ... | x(c,n)) over
 *                                                                 its initial candidates
 *   unit ALO   one place left for a digit in a unit -> true       reason: (unit, digit)'s clause
 *   locked     the places of digit d in unit u all lie in u & v    reason (-x(q,d) | x(p,d) for
 *              (n <= SK_CDCL_LOCKED_MAX_N) -> d leaves the other   the initial places p of d in
 *              cells q of v                                        u outside v): ALO(u, d)
 *                                                                  resolved with AMO(v, d)
 *
 * Counters (candidates left per cell, places left per (unit, digit)) and candidate masks make
 * the ALO checks O(1) and the AMO scans skip what is already false, as in sk_solver.c; they
 * are restored on backtracking.  Learnt clauses use two watched literals with a blocker.
 *
 * Search (the textbook CDCL loop): unit propagation; on a conflict, first-UIP learning,
 * non-chronological backjump to the clause's second-highest level, VSIDS bump and decay;
 * decisions take the free variable of highest activity at its saved phase (first: false, i.e.
 * "not this digit here"); restarts follow Luby's sequence times SK_CDCL_LUBY conflicts, and at
 * each restart the learnt clauses beyond a growing cap lose their half with the largest LBD
 * (literal block distance: distinct decision levels in the clause; LBD <= 2 are kept).
 *
 * Counting.  After a solution, a blocking clause (not this assignment of the free cells) is
 * added permanently and the search goes on from level 0, until limit solutions or a conflict
 * at level 0 (no more: the count is exact).  Every step is sound and the model has exactly the
 * grid's solutions as its models, so counts and "no solution" answers are exact; a solution is
 * only reported after its cells are read back one by one (exactly one true variable each).
 *
 * Memory: per variable ~30 bytes plus its two watch lists; learnt clauses in one arena (offsets,
 * not pointers, so it may grow).  Everything is freed before returning.
 */
#include "sk_cdcl.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "sk_port.h"

#ifdef SK_CDCL_STATS /* development only: a summary on stderr at the end of each call */
#include <stdio.h>
#define STAT(x) x
#else
#define STAT(x)
#endif

/* The first phase of every variable: 0, a decision removes a candidate (as MiniSat and Glucose
 * start, all literals negative).  Measured on the 36x36 grids of bench_generic.py (48% givens,
 * CPU s, one build): seeds 0/1/2 in 20.2 / 33.7 / > 231 s starting from 1 (a decision places
 * a digit), 10.3 / 24.3 / 82.8 s starting from 0. */
#ifndef SK_CDCL_PHASE
#define SK_CDCL_PHASE 0
#endif
/* VSIDS: activities grow by 1 / decay a conflict.  Rejected (C harness, CPU, limit 2): 0.80 on
 * 25x25 at 45% givens took bench_generic's seeds 0-19 from 0.42 to 0.30-0.34 s in all, but
 * seeds 20-59 from 0.91-1.06 to 3.4-3.7 s (worst 2.1-2.3 s against 0.18-0.22 s), and 36x36
 * grid 1 from 5.4 to 40.4 s; Glucose's 0.80 raised by 0.01 every 5000 conflicts to 0.95 took
 * 36x36 grid 1 to 11.4 s and grid 2 past 150 s (102 s at 0.95). */
#ifndef SK_CDCL_DECAY
#define SK_CDCL_DECAY 0.95
#endif
/* Grids with fewer than this percentage of their cells placed at level 0 start at phase 1
 * instead: with few givens solutions are dense, and a phase-0 decision removes one candidate,
 * so filling an empty 16x16 takes thousands of decisions.  Measured on the generator's check of
 * random jigsaw maps (the empty grid, 50 x cells guesses; `generate --jigsaw random --size 16
 * -n 20`, seeds 1/2/3): phase 0 gave up on 53/59/38 of 75/83/60 maps, phase 1 on 41/38/38 of
 * 61/59/61, and the whole run took 8.43/9.69/8.48 s against 7.02/7.21/8.49 s CPU. */
#ifndef SK_CDCL_SPARSE
#define SK_CDCL_SPARSE 10u
#endif
#ifndef SK_CDCL_MRV
#define SK_CDCL_MRV 1
#endif
#ifndef SK_CDCL_MINIMIZE
#define SK_CDCL_MINIMIZE 1
#endif
/* Conflicts of the first restart interval (times Luby's 1 1 2 1 1 2 4 ...).  Re-measured with
 * locked candidates and run 0 capped at 1 x cells (sk_solver.c, "Measured, not kept"; 25x25
 * at 45%, seeds 0-59, guesses of the whole
 * search in all / median / max; 0-4 the bench grids): x 100 191,831 / 1,425 / 27,550, seed 2
 * 1,354; x 150 256,085 / 1,611 / 67,444; x 200 162,060 / 1,480 / 18,547 but seed 2 2,376; decay
 * 0.90: 186,612 / 1,613 / 23,645; 0.92: 190,779 / 1,334 / 49,282.  No robust gain: kept. */
#ifndef SK_CDCL_LUBY
#define SK_CDCL_LUBY 100u
#endif
/* Learnt clauses kept before the first reduction (plus ncells), and its growth per reduction. */
#define SK_CDCL_LEARNTS 4000u
#ifndef SK_CDCL_LEARNTS_STEP
#define SK_CDCL_LEARNTS_STEP 500u
#endif

/* Largest n whose learning search propagates locked candidates (pointing / claiming, for every
 * pair of units sharing two cells or more: the model above).  sk_solver.c's depth-first search
 * has had them all along; the learning search had singles only.  Measured (C harness, limit 2,
 * budget 3M, the whole sk_search with the hand-over after 2 x cells; bench_generic's 25x25 at 45%
 * givens, seeds 0-59): guesses in all 308,183 -> 226,786, median 3,989 -> 2,050, seeds 0-4
 * 2855/4240/6912/3463/2235 -> 1456/1764/1979/1422/2020; on seed 2 (bench grid 3) learning made
 * 729 decisions instead of 5,662, and the whole search 50.1M instructions instead of 173.8M
 * (callgrind).  Worse on some (seed 56: 1,911 -> 28,175 guesses; 52: 3,534 -> 14,263).  On
 * 36x36 at 48% it lost: seed 0 took 907,434 guesses, 55.5 s, against 578,711, 13.3 s (same
 * load ~4; learnt clauses 182 literals on average against 95: the locked reasons are long),
 * so 36x36 keeps singles only. */
#ifndef SK_CDCL_LOCKED_MAX_N
#define SK_CDCL_LOCKED_MAX_N 25
#endif

enum { R_NONE = 0, R_AMO = 1, R_CELL = 2, R_UNIT = 3, R_CLAUSE = 4, R_LOCK = 5 };

/* An ordered pair of units (u, v) sharing at least two cells: when a digit's places in u all lie
 * in u & v, it leaves v's other cells.  mu, mv: the shared cells' positions in u and in v. */
typedef struct {
    uint64_t mu, mv;
    uint32_t u, v;
} upair;

typedef struct {
    uint32_t *w; /* watchers: (clause offset, blocker literal) pairs */
    uint32_t len, cap;
} wvec;

typedef struct {
    int n, ncells;
    const sk_cdcl_shape *sh;
    uint32_t nvars;
    int8_t *val;       /* [nvars] 0 free, 1 true, -1 false */
    uint32_t *level;   /* [nvars] decision level of the assignment */
    uint8_t *rkind;    /* [nvars] reason kind (R_*) */
    uint32_t *rdata;   /* [nvars] reason: the true var (AMO), cell, unit*n+d, clause offset */
    uint8_t *phase;    /* [nvars] last value (1 true) */
    uint8_t *seen;     /* [nvars] conflict analysis marks */
    double *act;       /* [nvars] VSIDS activity */
    uint32_t *heap;    /* binary max-heap of free variables by activity */
    int32_t *hpos;     /* [nvars] position in heap, -1 when absent */
    uint32_t hlen;
    uint32_t *trail, tlen, qhead; /* assigned variables in order; propagation front */
    uint32_t *lim, nlevels;       /* lim[k]: trail length when level k + 1 began */
    const uint64_t *init;         /* [ncells] initial candidates (the clauses' literals) */
    uint64_t *mask;               /* [ncells] candidates not false now */
    uint8_t *cleft;               /* [ncells] candidates not false now */
    uint64_t *place;              /* [nunits * n] (unit, digit): positions not false now */
    uint64_t *iplace;             /* [nunits * n] (unit, digit): initial positions */
    upair *pairs;                 /* locked candidates: pairs of unit u at pstart[u].. */
    uint32_t *pstart;             /* [nunits + 1] */
    uint8_t *pmax;                /* [nunits] largest intersection of unit u with a partner */
    uint32_t *plist, *plstart;    /* pairs of unit u whose u & v holds position i: plist from
                                     plstart[u * n + i] to plstart[u * n + i + 1] */
    uint8_t *cpos;                /* [cu_start[ncells]] position of the cell in unit cu[k] */
    uint32_t *cub;                /* [cu_start[ncells]] cu[k] * n: its row of place */
    uint64_t *cbit;               /* [cu_start[ncells]] 1 << cpos[k] */
    wvec *ws;                     /* [2 * nvars] watchers of each literal (visited when false) */
    uint32_t *arena;              /* clauses: size, lbd (0: permanent), literals */
    size_t alen, acap;
    uint32_t *learnts, nlearnts, lcap; /* offsets of the clauses in the arena */
    uint32_t *buf;                     /* [nvars + 2] a clause being built */
    uint32_t *stack, *clear, nclear;   /* [nvars] minimisation: walk, variables marked */
    uint32_t rbuf[SK_MAX_N];           /* literals of a native reason */
    uint32_t *stamp, stamp_now;        /* [nvars + 2] per level: LBD counting */
    double inc;
    int ck;                 /* conflict: kind, data, and (AMO) the second variable */
    uint32_t cd, cd2;
    int oom;
    /* The call: its bounds, its solutions so far, the search's counters. */
    uint64_t limit, keep, budget;
    uint8_t *solutions;
    sk_poll_fn poll;
    void *poll_ctx;
    uint64_t found, made, conflicts, restarts, restart_at, poll_at;
    uint32_t learnt_cap; /* learnt clauses kept before the next reduce_db */
    STAT(uint64_t props; uint64_t st_size; uint64_t st_lbd; uint64_t st_reduce;)
} cdcl;

/* ---------------------------------------------------------------------------------------- */
/* small helpers                                                                              */

static inline int lit_val(const cdcl *S, uint32_t lit) {
    const int v = S->val[lit >> 1];
    return (lit & 1) ? -v : v;
}

static int wpush(cdcl *S, uint32_t lit, uint32_t cref, uint32_t blocker) {
    wvec *wl = &S->ws[lit];
    if (wl->len + 2 > wl->cap) {
        const uint32_t cap = wl->cap ? 2 * wl->cap : 8;
        uint32_t *w = realloc(wl->w, (size_t)cap * sizeof *w);
        if (w == NULL) {
            S->oom = 1;
            return 0;
        }
        wl->w = w;
        wl->cap = cap;
    }
    wl->w[wl->len++] = cref;
    wl->w[wl->len++] = blocker;
    return 1;
}

/* The heap orders by activity, then by lower variable (so the order is a function of input). */
static inline int heap_before(const cdcl *S, uint32_t a, uint32_t b) {
    return S->act[a] > S->act[b] || (S->act[a] == S->act[b] && a < b);
}

/* Put variable v at heap slot i (and record the slot). */
static inline void heap_put(cdcl *S, uint32_t i, uint32_t v) {
    S->heap[i] = v;
    S->hpos[v] = (int32_t)i;
}

static void heap_up(cdcl *S, uint32_t i) {
    const uint32_t v = S->heap[i];
    for (uint32_t p; i > 0 && heap_before(S, v, S->heap[p = (i - 1) / 2]); i = p)
        heap_put(S, i, S->heap[p]);
    heap_put(S, i, v);
}

static void heap_down(cdcl *S, uint32_t i) {
    const uint32_t v = S->heap[i];
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= S->hlen) break;
        if (c + 1 < S->hlen && heap_before(S, S->heap[c + 1], S->heap[c])) c++;
        if (!heap_before(S, S->heap[c], v)) break;
        heap_put(S, i, S->heap[c]);
        i = c;
    }
    heap_put(S, i, v);
}

static void heap_insert(cdcl *S, uint32_t v) {
    if (S->hpos[v] >= 0) return;
    heap_put(S, S->hlen, v);
    heap_up(S, S->hlen++);
}

static uint32_t heap_pop(cdcl *S) {
    const uint32_t v = S->heap[0];
    S->hpos[v] = -1;
    if (--S->hlen > 0) {
        heap_put(S, 0, S->heap[S->hlen]);
        heap_down(S, 0);
    }
    return v;
}

static void bump(cdcl *S, uint32_t v) {
    if ((S->act[v] += S->inc) > 1e100) {
        for (uint32_t k = 0; k < S->nvars; k++) S->act[k] *= 1e-100;
        S->inc *= 1e-100;
    }
    if (S->hpos[v] >= 0) heap_up(S, (uint32_t)S->hpos[v]);
}

/* ---------------------------------------------------------------------------------------- */
/* assignment and propagation                                                                 */

/* Makes literal lit true at the current level with the given reason (lit's variable free). */
static void enqueue(cdcl *S, uint32_t lit, int kind, uint32_t data) {
    const uint32_t v = lit >> 1;
    assert(S->val[v] == 0);
    S->val[v] = (lit & 1) ? -1 : 1;
    S->level[v] = S->nlevels;
    S->rkind[v] = (uint8_t)kind;
    S->rdata[v] = data;
    S->trail[S->tlen++] = v;
    STAT(S->props++;)
    if (lit & 1) { /* false: one candidate and one place fewer */
        const int n = S->n;
        const uint32_t c = v / (uint32_t)n, d = v % (uint32_t)n;
        S->mask[c] &= ~((uint64_t)1 << d);
        S->cleft[c]--;
        for (uint32_t k = S->sh->cu_start[c]; k < S->sh->cu_start[c + 1]; k++)
            S->place[S->cub[k] + d] &= ~S->cbit[k];
    }
}

static inline void conflict(cdcl *S, int kind, uint32_t data, uint32_t data2) {
    S->ck = kind;
    S->cd = data;
    S->cd2 = data2;
}

/* Visits the learnt clauses watching literal L, which just became false; 0 on a conflict. */
static int watch(cdcl *S, uint32_t L) {
    wvec *wl = &S->ws[L];
    uint32_t i = 0, j = 0;
    const uint32_t len = wl->len;
    while (i < len) {
        const uint32_t cref = wl->w[i], blocker = wl->w[i + 1];
        i += 2;
        if (lit_val(S, blocker) == 1) {
            wl->w[j++] = cref;
            wl->w[j++] = blocker;
            continue;
        }
        uint32_t *cl = S->arena + cref;
        const uint32_t size = cl[0];
        uint32_t *lits = cl + 2;
        if (lits[0] == L) {
            lits[0] = lits[1];
            lits[1] = L;
        }
        const uint32_t first = lits[0];
        if (first != blocker && lit_val(S, first) == 1) {
            wl->w[j++] = cref;
            wl->w[j++] = first;
            continue;
        }
        uint32_t k = 2;
        while (k < size && lit_val(S, lits[k]) == -1) k++;
        if (k < size) { /* a new literal to watch */
            lits[1] = lits[k];
            lits[k] = L;
            if (!wpush(S, lits[1], cref, first)) return 1; /* S->oom: the caller stops */
            continue;
        }
        wl->w[j++] = cref;
        wl->w[j++] = first;
        if (lit_val(S, first) == -1) {
            while (i < len) wl->w[j++] = wl->w[i++];
            wl->len = j;
            conflict(S, R_CLAUSE, cref, 0);
            return 0;
        }
        enqueue(S, first, R_CLAUSE, cref);
    }
    wl->len = j;
    return 1;
}

/* Unit propagation of the trail from qhead; 1 when consistent, 0 on a conflict (S->ck ...). */
static int propagate(cdcl *S) {
    const int n = S->n;
    const sk_cdcl_shape *sh = S->sh;
    while (S->qhead < S->tlen) {
        const uint32_t v = S->trail[S->qhead++];
        const uint32_t c = v / (uint32_t)n, d = v % (uint32_t)n;
        const uint64_t bit = (uint64_t)1 << d;
        if (S->val[v] == 1) {
            /* cell AMO */
            for (uint64_t m = S->mask[c] & ~bit; m; m &= m - 1) {
                const uint32_t w = c * (uint32_t)n + (uint32_t)__builtin_ctzll(m);
                if (S->val[w] == 1) {
                    conflict(S, R_AMO, v, w);
                    return 0;
                }
                if (S->val[w] == 0) enqueue(S, 2 * w + 1, R_AMO, v);
            }
            /* unit AMO: the other places of d in each unit of c, in unit order */
            for (uint32_t k = sh->cu_start[c]; k < sh->cu_start[c + 1]; k++) {
                const uint32_t u = sh->cu[k];
                const uint16_t *unit = sh->units + (size_t)u * n;
                for (uint64_t m = S->place[S->cub[k] + d] & ~S->cbit[k]; m;
                     m &= m - 1) {
                    const uint32_t w = unit[__builtin_ctzll(m)] * (uint32_t)n + d;
                    if (S->val[w] == 1) {
                        conflict(S, R_AMO, v, w);
                        return 0;
                    }
                    if (S->val[w] == 0) enqueue(S, 2 * w + 1, R_AMO, v);
                }
            }
            if (!watch(S, 2 * v + 1)) return 0;
        } else {
            /* cell ALO */
            if (S->cleft[c] == 0) {
                conflict(S, R_CELL, c, 0);
                return 0;
            }
            if (S->cleft[c] == 1) {
                const uint32_t w = c * (uint32_t)n + (uint32_t)__builtin_ctzll(S->mask[c]);
                if (S->val[w] == 0) enqueue(S, 2 * w, R_CELL, c);
            }
            /* unit ALO */
            for (uint32_t k = sh->cu_start[c]; k < sh->cu_start[c + 1]; k++) {
                const uint32_t u = sh->cu[k], ud = u * (uint32_t)n + d;
                const uint64_t m = S->place[ud];
                if (m == 0) {
                    conflict(S, R_UNIT, ud, 0);
                    return 0;
                }
                if ((m & (m - 1)) == 0) {
                    const uint32_t w = sh->units[(size_t)ud - d + (size_t)__builtin_ctzll(m)] *
                                           (uint32_t)n +
                                       d;
                    if (S->val[w] == 0) enqueue(S, 2 * w, R_UNIT, ud);
                } else if (__builtin_popcountll(m) <= S->pmax[u]) { /* pmax 0: none */
                    /* locked candidates: d's places in u all in u & v leave v's others */
                    const uint32_t *pl = S->plist, ui = ud - d + (uint32_t)__builtin_ctzll(m);
                    for (uint32_t t = S->plstart[ui]; t < S->plstart[ui + 1]; t++) {
                        const uint32_t j = pl[t];
                        const upair *pr = S->pairs + j;
                        if (m & ~pr->mu) continue;
                        const uint16_t *vu = sh->units + (size_t)pr->v * n;
                        for (uint64_t r = S->place[(size_t)pr->v * n + d] & ~pr->mv; r;
                             r &= r - 1) {
                            const uint32_t w = vu[__builtin_ctzll(r)] * (uint32_t)n + d;
                            if (S->val[w] == 1) {
                                conflict(S, R_LOCK, j * (uint32_t)n + d, w);
                                return 0;
                            }
                            if (S->val[w] == 0) enqueue(S, 2 * w + 1, R_LOCK, j * (uint32_t)n + d);
                        }
                    }
                }
            }
            if (!watch(S, 2 * v)) return 0;
        }
        if (S->oom) return 1;
    }
    return 1;
}

/* Undoes every level above lvl (saving phases, restoring counters and the heap). */
static void cancel_until(cdcl *S, uint32_t lvl) {
    if (S->nlevels <= lvl) return;
    const int n = S->n;
    const uint32_t stop = S->lim[lvl];
    for (uint32_t i = S->tlen; i-- > stop;) {
        const uint32_t v = S->trail[i];
        if (S->val[v] < 0) {
            const uint32_t c = v / (uint32_t)n, d = v % (uint32_t)n;
            S->mask[c] |= (uint64_t)1 << d;
            S->cleft[c]++;
            for (uint32_t k = S->sh->cu_start[c]; k < S->sh->cu_start[c + 1]; k++)
                S->place[S->cub[k] + d] |= S->cbit[k];
        }
        S->phase[v] = S->val[v] > 0;
        S->val[v] = 0;
        heap_insert(S, v);
    }
    S->tlen = S->qhead = stop;
    S->nlevels = lvl;
}

/* ---------------------------------------------------------------------------------------- */
/* clauses                                                                                    */

/* The literals of a reason or conflict (kind, data, data2 as in cdcl): *lits, returned count. */
static uint32_t reason_lits(cdcl *S, int kind, uint32_t data, uint32_t data2,
                            const uint32_t **lits) {
    const int n = S->n;
    uint32_t k = 0;
    switch (kind) {
    case R_AMO:
        S->rbuf[0] = 2 * data + 1;
        S->rbuf[1] = 2 * data2 + 1;
        k = 2;
        break;
    case R_CELL:
        for (uint64_t m = S->init[data]; m; m &= m - 1)
            S->rbuf[k++] = 2 * (data * (uint32_t)n + (uint32_t)__builtin_ctzll(m));
        break;
    case R_UNIT: {
        const uint32_t u = data / (uint32_t)n, d = data % (uint32_t)n;
        const uint16_t *unit = S->sh->units + (size_t)u * n;
        for (uint64_t m = S->iplace[data]; m; m &= m - 1)
            S->rbuf[k++] = 2 * (unit[__builtin_ctzll(m)] * (uint32_t)n + d);
        break;
    }
    case R_LOCK: { /* -x(q, d) | the places of d in u outside v (data2 = q's variable) */
        const upair *pr = S->pairs + data / (uint32_t)n;
        const uint32_t d = data % (uint32_t)n;
        const uint16_t *unit = S->sh->units + (size_t)pr->u * n;
        S->rbuf[k++] = 2 * data2 + 1;
        for (uint64_t m = S->iplace[(size_t)pr->u * n + d] & ~pr->mu; m; m &= m - 1)
            S->rbuf[k++] = 2 * (unit[__builtin_ctzll(m)] * (uint32_t)n + d);
        break;
    }
    default: /* R_CLAUSE */
        *lits = S->arena + data + 2;
        return S->arena[data];
    }
    *lits = S->rbuf;
    return k;
}

/* Appends a clause of size >= 2 to the arena and watches its first two literals; its offset,
 * or UINT32_MAX when out of memory. */
static uint32_t add_clause(cdcl *S, const uint32_t *lits, uint32_t size, uint32_t lbd) {
    if (S->alen + size + 2 > S->acap) {
        size_t cap = S->acap ? S->acap : 1024;
        while (S->alen + size + 2 > cap) cap *= 2;
        uint32_t *a = realloc(S->arena, cap * sizeof *a);
        if (a == NULL) return UINT32_MAX;
        S->arena = a;
        S->acap = cap;
    }
    if (S->alen + size + 2 > UINT32_MAX / 2) return UINT32_MAX;
    if (S->nlearnts == S->lcap) {
        const uint32_t cap = S->lcap ? 2 * S->lcap : 256;
        uint32_t *l = realloc(S->learnts, (size_t)cap * sizeof *l);
        if (l == NULL) return UINT32_MAX;
        S->learnts = l;
        S->lcap = cap;
    }
    const uint32_t cref = (uint32_t)S->alen;
    S->arena[S->alen++] = size;
    S->arena[S->alen++] = lbd;
    memcpy(S->arena + S->alen, lits, size * sizeof *lits);
    S->alen += size;
    S->learnts[S->nlearnts++] = cref;
    if (!wpush(S, lits[0], cref, lits[1]) || !wpush(S, lits[1], cref, lits[0])) return UINT32_MAX;
    return cref;
}

/*
 * Whether variable v (assigned, with a reason, its mark set: a literal of the clause being
 * learnt) is implied by the marked variables and level-0 facts: a depth-first walk of its
 * reasons that fails at a decision or at a level outside levels (a bit per level mod 32 of
 * the clause's literals: a variable from another level needs its own decision).  Variables
 * found implied stay marked (so later walks stop at them) and are listed in S->clear for the
 * caller to unmark; on failure the marks of this walk are undone.
 */
static int redundant(cdcl *S, uint32_t v, uint32_t levels) {
    const uint32_t top = S->nclear;
    uint32_t sp = 0;
    S->stack[sp++] = v;
    while (sp > 0) {
        const uint32_t x = S->stack[--sp];
        const uint32_t *lits;
        const uint32_t size = reason_lits(S, S->rkind[x], S->rdata[x], x, &lits);
        for (uint32_t i = 0; i < size; i++) {
            const uint32_t y = lits[i] >> 1;
            if (y == x || S->seen[y] || S->level[y] == 0) continue;
            if (S->rkind[y] == R_NONE || !(levels >> (S->level[y] & 31) & 1)) {
                for (uint32_t k = top; k < S->nclear; k++) S->seen[S->clear[k]] = 0;
                S->nclear = top;
                return 0;
            }
            S->seen[y] = 1;
            S->stack[sp++] = y;
            S->clear[S->nclear++] = y;
        }
    }
    return 1;
}

/* First-UIP analysis of the conflict in S->ck/cd/cd2 (at a level > 0).  Writes the learnt
 * clause to S->buf (buf[0] the asserting literal, buf[1] one of the highest level below) and
 * returns its size; *back gets the level to jump back to and *lbd its LBD. */
static uint32_t analyze(cdcl *S, uint32_t *back, uint32_t *lbd) {
    uint32_t *out = S->buf, olen = 1, pathc = 0, p = UINT32_MAX;
    uint32_t idx = S->tlen;
    int kind = S->ck;
    uint32_t data = S->cd, data2 = S->cd2;
    for (;;) {
        const uint32_t *lits;
        const uint32_t size = reason_lits(S, kind, data, data2, &lits);
        for (uint32_t k = 0; k < size; k++) {
            const uint32_t q = lits[k], v = q >> 1;
            if (p != UINT32_MAX && v == (p >> 1)) continue;
            if (S->seen[v] || S->level[v] == 0) continue;
            S->seen[v] = 1;
            bump(S, v);
            if (S->level[v] >= S->nlevels)
                pathc++;
            else
                out[olen++] = q;
        }
        do idx--;
        while (!S->seen[S->trail[idx]]);
        const uint32_t pv = S->trail[idx];
        p = S->val[pv] > 0 ? 2 * pv : 2 * pv + 1;
        S->seen[pv] = 0;
        if (--pathc == 0) break;
        kind = S->rkind[pv];
        data = S->rdata[pv];
        data2 = pv;
    }
    out[0] = p ^ 1;
    /* Minimisation (recursive): a literal goes when it is implied by the clause's other
     * literals and level-0 facts through the implication graph (redundant(), above).  Measured
     * against the one-step test it replaces (a literal whose reason's literals are all in the
     * clause), 36x36 seeds 0-3 (phase 0): mean learnt size 120-197 -> 95-166 literals, CPU per
     * decision up to 10% more (seed 3: 56.2 -> 61.9 s for 3M decisions, at load 8-10). */
    if (SK_CDCL_MINIMIZE) {
        uint32_t levels = 0;
        for (uint32_t k = 1; k < olen; k++) levels |= 1u << (S->level[out[k] >> 1] & 31);
        S->nclear = 0;
        uint32_t j = 1;
        for (uint32_t k = 1; k < olen; k++) {
            const uint32_t v = out[k] >> 1;
            if (S->rkind[v] == R_NONE || !redundant(S, v, levels))
                out[j++] = out[k];
            else /* stays marked until the end: the later walks may stop at it */
                S->clear[S->nclear++] = v;
        }
        for (uint32_t k = 0; k < S->nclear; k++) S->seen[S->clear[k]] = 0;
        olen = j;
    }
    /* The jump-back level: the highest below the conflict's, its literal moved to out[1]. */
    uint32_t bt = 0;
    for (uint32_t k = 1; k < olen; k++) {
        S->seen[out[k] >> 1] = 0;
        if (S->level[out[k] >> 1] > bt) {
            bt = S->level[out[k] >> 1];
            const uint32_t t = out[1];
            out[1] = out[k];
            out[k] = t;
        }
    }
    S->stamp_now++;
    uint32_t distinct = 0;
    for (uint32_t k = 0; k < olen; k++) {
        const uint32_t l = S->level[out[k] >> 1];
        if (S->stamp[l] != S->stamp_now) {
            S->stamp[l] = S->stamp_now;
            distinct++;
        }
    }
    *back = bt;
    *lbd = distinct;
    return olen;
}

/* Order of reduce_db: larger LBD first, then older (smaller offset) first. */
static int by_lbd_desc(const void *a, const void *b) {
    const uint32_t *x = a, *y = b;
    if (x[0] != y[0]) return x[0] > y[0] ? -1 : 1;
    return x[1] < y[1] ? -1 : (x[1] > y[1]);
}

/*
 * At level 0 only (after a restart): drops the learnt clauses beyond *cap (the half with the
 * largest LBD among those with LBD > 2; permanent clauses, LBD 0, stay), drops clauses satisfied
 * at level 0 and literals false there, compacts the arena and rebuilds every watch list.
 * Level-0 reasons are never read by analysis, so they are cleared.  0 when out of memory.
 */
static int reduce_db(cdcl *S, uint32_t cap) {
    assert(S->nlevels == 0);
    uint32_t *pairs = NULL;
    uint32_t ndrop = 0;
    if (S->nlearnts > cap) {
        pairs = malloc(2 * (size_t)S->nlearnts * sizeof *pairs);
        if (pairs == NULL) return 0;
        uint32_t np = 0;
        for (uint32_t k = 0; k < S->nlearnts; k++) {
            const uint32_t lbd = S->arena[S->learnts[k] + 1];
            if (lbd > 2) {
                pairs[2 * np] = lbd;
                pairs[2 * np + 1] = S->learnts[k];
                np++;
            }
        }
        qsort(pairs, np, 2 * sizeof *pairs, by_lbd_desc);
        ndrop = np / 2;
        for (uint32_t k = 0; k < ndrop; k++) S->arena[pairs[2 * k + 1]] |= 0x80000000u;
    }
    free(pairs);
    for (uint32_t v = 0; v < S->tlen; v++) S->rkind[S->trail[v]] = R_NONE;
    for (uint32_t l = 0; l < 2 * S->nvars; l++) S->ws[l].len = 0;
    size_t to = 0;
    uint32_t kept = 0;
    for (uint32_t k = 0; k < S->nlearnts; k++) {
        const uint32_t cref = S->learnts[k];
        const uint32_t head = S->arena[cref], lbd = S->arena[cref + 1];
        if (head & 0x80000000u) continue;
        const uint32_t *lits = S->arena + cref + 2;
        uint32_t size = 0;
        int sat = 0;
        for (uint32_t i = 0; i < head && !sat; i++) {
            const int lv = lit_val(S, lits[i]);
            if (lv == 1) sat = 1;
            else if (lv == 0) S->buf[size++] = lits[i];
        }
        if (sat) continue;
        /* Propagation at level 0 is complete, so an unsatisfied clause has >= 2 free literals. */
        assert(size >= 2);
        if (size < 2) continue;
        S->arena[to] = size;
        S->arena[to + 1] = lbd;
        memcpy(S->arena + to + 2, S->buf, size * sizeof *S->buf);
        S->learnts[kept++] = (uint32_t)to;
        if (!wpush(S, S->buf[0], (uint32_t)to, S->buf[1]) ||
            !wpush(S, S->buf[1], (uint32_t)to, S->buf[0]))
            return 0;
        to += size + 2;
    }
    S->alen = to;
    S->nlearnts = kept;
    return 1;
}

uint64_t sk_luby(uint64_t k) {
    uint64_t size = 1;
    int seq = 0;
    while (size < k + 1 && seq < 40) {
        seq++;
        size = 2 * size + 1;
    }
    while (seq > 0 && size - 1 != k) {
        size = (size - 1) >> 1;
        seq--;
        k %= size;
    }
    return (uint64_t)1 << seq;
}

/* ---------------------------------------------------------------------------------------- */
/* setting up                                                                                 */

static void cdcl_free(cdcl *S) {
    SK_FREE_ALL(free, S->val, S->level, S->rkind, S->rdata, S->phase, S->seen, S->act, S->heap,
                S->hpos, S->trail, S->lim, S->mask, S->cleft, S->place, S->iplace, S->pairs,
                S->pstart, S->pmax, S->plist, S->plstart, S->cpos, S->cub, S->cbit);
    if (S->ws)
        for (uint32_t l = 0; l < 2 * S->nvars; l++) free(S->ws[l].w);
    SK_FREE_ALL(free, S->ws, S->arena, S->learnts, S->buf, S->stack, S->clear, S->stamp);
}

/* The arrays of a search on shape sh from candidates cand (S zeroed); 0 when out of memory
 * (cdcl_free releases what was allocated). */
static int cdcl_alloc(cdcl *S, const sk_cdcl_shape *sh, const uint64_t *cand) {
    const int n = sh->n, ncells = sh->ncells;
    const size_t nv = (size_t)ncells * (size_t)n, nplaces = (size_t)sh->nunits * (size_t)n;
    S->n = n;
    S->ncells = ncells;
    S->sh = sh;
    S->nvars = (uint32_t)nv;
    S->init = cand;
    S->inc = 1.0;
    S->val = calloc(nv, 1);
    S->level = calloc(nv, sizeof *S->level);
    S->rkind = calloc(nv, 1);
    S->rdata = calloc(nv, sizeof *S->rdata);
    S->phase = malloc(nv);
    S->seen = calloc(nv, 1);
    S->act = calloc(nv, sizeof *S->act);
    S->heap = malloc(nv * sizeof *S->heap);
    S->hpos = malloc(nv * sizeof *S->hpos);
    S->trail = malloc(nv * sizeof *S->trail);
    S->lim = malloc((nv + 1) * sizeof *S->lim);
    S->mask = malloc((size_t)ncells * sizeof *S->mask);
    S->cleft = malloc((size_t)ncells);
    S->place = calloc(nplaces, sizeof *S->place);
    S->cpos = malloc((size_t)sh->cu_start[ncells] + 1);
    S->cub = malloc(((size_t)sh->cu_start[ncells] + 1) * sizeof *S->cub);
    S->cbit = malloc(((size_t)sh->cu_start[ncells] + 1) * sizeof *S->cbit);
    S->iplace = malloc(nplaces * sizeof *S->iplace);
    S->pstart = calloc((size_t)sh->nunits + 1, sizeof *S->pstart);
    S->pmax = calloc((size_t)sh->nunits + 1, 1);
    S->ws = calloc(2 * nv, sizeof *S->ws);
    S->buf = malloc((nv + 2) * sizeof *S->buf);
    S->stack = malloc(nv * sizeof *S->stack);
    S->clear = malloc(nv * sizeof *S->clear);
    S->stamp = calloc(nv + 2, sizeof *S->stamp);
    if (!S->val || !S->level || !S->rkind || !S->rdata || !S->phase || !S->seen || !S->act ||
        !S->heap || !S->hpos || !S->trail || !S->lim || !S->mask || !S->cleft || !S->place ||
        !S->cpos || !S->cub || !S->cbit || !S->iplace || !S->pstart || !S->pmax || !S->ws ||
        !S->buf || !S->stack || !S->clear || !S->stamp)
        return 0;
    memset(S->phase, SK_CDCL_PHASE, nv);
    for (size_t v = 0; v < nv; v++) S->hpos[v] = -1;
    return 1;
}

/* Level 0 of the counters from the initial candidates (masks, candidates per cell, places per
 * (unit, digit), each cell's position in its units); 0 when a cell or a (unit, digit) has no
 * candidate left: no solution. */
static int load_counters(cdcl *S) {
    const sk_cdcl_shape *sh = S->sh;
    const int n = S->n, ncells = S->ncells;
    const size_t nplaces = (size_t)sh->nunits * (size_t)n;
    int ok = 1;
    for (int c = 0; c < ncells; c++) {
        const uint64_t m = S->init[c];
        S->mask[c] = m;
        S->cleft[c] = (uint8_t)__builtin_popcountll(m);
        if (m == 0) ok = 0;
        for (uint32_t k = sh->cu_start[c]; k < sh->cu_start[c + 1]; k++) {
            const uint16_t *unit = sh->units + (size_t)sh->cu[k] * n;
            int i = 0;
            while (unit[i] != c) i++; /* c is in its units (sk_geom_new's CSR) */
            S->cpos[k] = (uint8_t)i;
            S->cub[k] = sh->cu[k] * (uint32_t)n;
            S->cbit[k] = (uint64_t)1 << i;
            for (uint64_t b = m; b; b &= b - 1)
                S->place[(size_t)sh->cu[k] * n + __builtin_ctzll(b)] |= (uint64_t)1 << i;
        }
    }
    for (size_t k = 0; k < nplaces && ok; k++) ok = S->place[k] != 0;
    memcpy(S->iplace, S->place, nplaces * sizeof *S->place);
    return ok;
}

/* The pairs of units sharing two cells or more, for locked candidates (S->pairs by unit, and
 * by position in S->plist); 0 when out of memory. */
static int build_pairs(cdcl *S) {
    const sk_cdcl_shape *sh = S->sh;
    const int n = S->n, nu = sh->nunits;
    const size_t nplaces = (size_t)nu * (size_t)n;
    uint64_t *mu = calloc((size_t)nu, sizeof *mu), *mv = calloc((size_t)nu, sizeof *mv);
    uint32_t np = 0, cap = 0;
    if (mu == NULL || mv == NULL) S->oom = 1;
    for (int u = 0; u < nu && !S->oom; u++) {
        S->pstart[u] = np;
        S->pmax[u] = 0;
        const uint16_t *unit = sh->units + (size_t)u * n;
        for (int i = 0; i < n; i++)
            for (uint32_t k = sh->cu_start[unit[i]]; k < sh->cu_start[unit[i] + 1]; k++)
                if ((int)sh->cu[k] != u) {
                    mu[sh->cu[k]] |= (uint64_t)1 << i;
                    mv[sh->cu[k]] |= (uint64_t)1 << S->cpos[k];
                }
        for (int v = 0; v < nu; v++) {
            if (__builtin_popcountll(mu[v]) >= 2) {
                if (np == cap) {
                    cap = cap ? 2 * cap : 64;
                    upair *q = realloc(S->pairs, (size_t)cap * sizeof *q);
                    if (q == NULL) {
                        S->oom = 1;
                        break;
                    }
                    S->pairs = q;
                }
                S->pairs[np].u = (uint32_t)u;
                S->pairs[np].v = (uint32_t)v;
                S->pairs[np].mu = mu[v];
                S->pairs[np].mv = mv[v];
                np++;
                if (__builtin_popcountll(mu[v]) > S->pmax[u])
                    S->pmax[u] = (uint8_t)__builtin_popcountll(mu[v]);
            }
            mu[v] = mv[v] = 0;
        }
    }
    S->pstart[nu] = np;
    free(mu);
    free(mv);
    /* by position: the pairs of u holding it, in pair order */
    S->plstart = calloc(nplaces + 1, sizeof *S->plstart);
    S->plist = malloc(((size_t)np * (size_t)n + 1) * sizeof *S->plist);
    if (S->plstart == NULL || S->plist == NULL) S->oom = 1;
    uint32_t t = 0;
    for (int u = 0; u < nu && !S->oom; u++)
        for (int i = 0; i < n; i++) {
            S->plstart[(size_t)u * n + i] = t;
            for (uint32_t j = S->pstart[u]; j < S->pstart[u + 1]; j++)
                if (S->pairs[j].mu >> i & 1) S->plist[t++] = j;
        }
    if (!S->oom) S->plstart[nplaces] = t;
    return !S->oom;
}

/* The start of the search at level 0: the free variables into the heap (activity by fewest
 * candidates), the placed cells' variables set and propagated, the phase of a (nearly) empty
 * grid (SK_CDCL_SPARSE).  ok: what load_counters said; 0 on a contradiction. */
static int seed(cdcl *S, int ok) {
    const int n = S->n, ncells = S->ncells;
    for (int c = 0; c < ncells && ok; c++) {
        if (S->cleft[c] != 1) {
            for (uint64_t b = S->init[c]; b; b &= b - 1) {
                const uint32_t v = (uint32_t)c * (uint32_t)n + (uint32_t)__builtin_ctzll(b);
                if (SK_CDCL_MRV) S->act[v] = 1e-3 / S->cleft[c];
                heap_insert(S, v);
            }
            continue;
        }
        const uint32_t v = (uint32_t)c * (uint32_t)n + (uint32_t)__builtin_ctzll(S->init[c]);
        if (S->val[v] == 0) enqueue(S, 2 * v, R_NONE, 0);
        ok = propagate(S);
    }
    if (ok) ok = propagate(S);
    uint32_t placed = 0;
    for (int c = 0; c < ncells; c++) placed += S->cleft[c] == 1;
    if ((uint64_t)placed * 100 < (uint64_t)ncells * SK_CDCL_SPARSE) memset(S->phase, 1, S->nvars);
    return ok;
}

/* ---------------------------------------------------------------------------------------- */
/* the search                                                                                 */

/* After a conflict above level 0: the first-UIP clause (analyze), the backjump to its
 * second-highest level, the clause learnt (a unit is set at level 0) and its asserting
 * literal set, the activities decayed.  0 when out of memory. */
static int learn(cdcl *S) {
    uint32_t back, lbd;
    const uint32_t size = analyze(S, &back, &lbd);
    STAT(S->st_size += size; S->st_lbd += lbd;)
    cancel_until(S, back);
    if (size == 1) {
        enqueue(S, S->buf[0], R_NONE, 0);
    } else {
        const uint32_t cref = add_clause(S, S->buf, size, lbd);
        if (cref == UINT32_MAX) {
            S->oom = 1;
            return 0;
        }
        enqueue(S, S->buf[0], R_CLAUSE, cref);
    }
    S->inc /= SK_CDCL_DECAY;
    return 1;
}

/* A restart when the Luby interval's conflicts are reached: back to level 0 and propagate, and
 * trim the learnt clauses beyond the cap (reduce_db, then a larger cap).  0 when the search
 * ends: level 0 is contradictory (no more solutions) or memory ran out (S->oom). */
static int restart_if_due(cdcl *S) {
    if (S->conflicts < S->restart_at) return 1;
    S->restart_at = S->conflicts + SK_CDCL_LUBY * sk_luby(++S->restarts);
    cancel_until(S, 0);
    if (!propagate(S)) return 0;
    if (S->nlearnts > S->learnt_cap) {
        if (!reduce_db(S, S->learnt_cap)) {
            S->oom = 1;
            return 0;
        }
        S->learnt_cap += SK_CDCL_LEARNTS_STEP;
        STAT(S->st_reduce++;)
    }
    return 1;
}

/* The decision variable: the free variable of highest activity (assigned ones left in the heap
 * are dropped), UINT32_MAX when every variable is assigned. */
static uint32_t pick_branch(cdcl *S) {
    while (S->hlen > 0) {
        const uint32_t x = heap_pop(S);
        if (S->val[x] == 0) return x;
    }
    return UINT32_MAX;
}

/* Every variable assigned without conflict: a solution.  Kept (when fewer than keep are), then
 * blocked by a clause (some cell decided above level 0 must differ) from level 0.  1 to go on,
 * 0 when the search ends (limit reached, nothing left to block, or S->oom), -1 when the
 * assignment is not a grid (cannot happen: the propagators ensure one digit per cell). */
static int take_solution(cdcl *S) {
    const int n = S->n, ncells = S->ncells;
    /* Read it back, checked anyway: a wrong answer would be worse than an error. */
    int whole = 1;
    for (int c = 0; c < ncells && whole; c++) whole = __builtin_popcountll(S->mask[c]) == 1;
    assert(whole);
    if (!whole) return -1;
    if (S->found < S->keep)
        for (int c = 0; c < ncells; c++)
            S->solutions[S->found * (size_t)ncells + c] =
                (uint8_t)(__builtin_ctzll(S->mask[c]) + 1);
    if (++S->found >= S->limit) return 0;
    uint32_t size = 0;
    for (int c = 0; c < ncells; c++) {
        const uint32_t w = (uint32_t)c * (uint32_t)n + (uint32_t)__builtin_ctzll(S->mask[c]);
        if (S->level[w] > 0) S->buf[size++] = 2 * w + 1;
    }
    cancel_until(S, 0);
    if (size == 0) return 0;
    if (size == 1) {
        enqueue(S, S->buf[0], R_NONE, 0);
    } else if (add_clause(S, S->buf, size, 0) == UINT32_MAX) {
        S->oom = 1;
        return 0;
    }
    return 1;
}

/* Decision v at a new level, at its saved phase, unless the budget is spent (SK_GAVE_UP) or the
 * poll asks to stop (SK_STOPPED); v then goes back to the heap.  SK_COMPLETE when made. */
static int decide(cdcl *S, uint32_t v) {
    if (S->budget && S->made >= S->budget) {
        heap_insert(S, v);
        return SK_GAVE_UP;
    }
    if (S->poll && S->made >= S->poll_at) {
        S->poll_at = S->made + SK_CDCL_POLL_EVERY;
        if (S->poll(S->poll_ctx)) {
            heap_insert(S, v);
            return SK_STOPPED;
        }
    }
    S->made++;
    S->lim[S->nlevels++] = S->tlen;
    enqueue(S, S->phase[v] ? 2 * v : 2 * v + 1, R_NONE, 0);
    return SK_COMPLETE;
}

/* The CDCL loop from a propagated level 0 (ok: no contradiction there): propagate; on a
 * conflict learn and maybe restart, else decide or take a solution.  SK_COMPLETE (all
 * solutions up to the limit found), SK_GAVE_UP, SK_STOPPED or SK_EINVAL (see take_solution);
 * out of memory is S->oom. */
static int search(cdcl *S, int ok) {
    S->restart_at = SK_CDCL_LUBY;
    S->poll_at = SK_CDCL_POLL_EVERY;
    S->learnt_cap = SK_CDCL_LEARNTS + (uint32_t)S->ncells;
    while (ok && !S->oom) {
        if (!propagate(S)) {
            S->conflicts++;
            if (S->nlevels == 0) break; /* no (more) solutions */
            if (!learn(S) || !restart_if_due(S)) break;
            continue;
        }
        if (S->oom) break;
        const uint32_t v = pick_branch(S);
        if (v == UINT32_MAX) {
            const int more = take_solution(S);
            if (more < 0) return SK_EINVAL;
            if (!more) break;
            continue;
        }
        const int rc = decide(S, v);
        if (rc != SK_COMPLETE) return rc;
    }
    return SK_COMPLETE;
}

int sk_cdcl(const sk_cdcl_shape *sh, const uint64_t *cand, uint64_t limit, uint64_t keep,
            uint8_t *solutions, uint64_t budget, uint64_t *count, uint64_t *decisions,
            sk_poll_fn poll, void *poll_ctx) {
    cdcl S;
    memset(&S, 0, sizeof S);
    *count = 0;
    *decisions = 0;
    if (!cdcl_alloc(&S, sh, cand)) {
        cdcl_free(&S);
        return SK_ENOMEM;
    }
    const int ok = load_counters(&S);
    if (sh->n <= SK_CDCL_LOCKED_MAX_N && !build_pairs(&S)) {
        cdcl_free(&S);
        return SK_ENOMEM;
    }
    S.limit = limit;
    S.keep = keep;
    S.solutions = solutions;
    S.budget = budget;
    S.poll = poll;
    S.poll_ctx = poll_ctx;
    int rc = search(&S, seed(&S, ok));
    if (S.oom) rc = SK_ENOMEM;
    STAT(fprintf(stderr,
                 "cdcl: decisions %llu conflicts %llu restarts %llu reductions %llu learnts %u "
                 "mean size %.1f mean lbd %.1f props %llu\n",
                 (unsigned long long)S.made, (unsigned long long)S.conflicts,
                 (unsigned long long)S.restarts, (unsigned long long)S.st_reduce, S.nlearnts,
                 S.conflicts ? (double)S.st_size / (double)S.conflicts : 0.0,
                 S.conflicts ? (double)S.st_lbd / (double)S.conflicts : 0.0,
                 (unsigned long long)S.props);)
    *count = rc == SK_ENOMEM ? 0 : S.found;
    *decisions = S.made;
    cdcl_free(&S);
    return rc;
}
