/*
 * sk_solver.c -- the generic search engine: any shape up to 64x64, units as data.
 *
 * Method.  Constraint propagation on candidate masks plus depth-first search with an
 * explicit stack (no recursion, so 64x64 grids cannot overflow the C stack):
 *
 *   - naked single: a cell left with one candidate gets that digit;
 *   - hidden single: a digit left with one place in a unit goes there;
 *   - locked candidates: a digit whose places in unit u all lie in u & v leaves the rest of
 *     v (pointing / claiming, region / line, diagonal / box), run when singles stall;
 *   - contradiction: a cell with no candidate, or a digit with no place in a unit;
 *   - branching: the unsolved cell with the fewest candidates (minimum remaining values),
 *     or, when it is smaller, the (unit, digit) with the fewest places; alternatives are
 *     tried in ascending order (digit, or position in the unit).
 *
 * Hidden singles are found incrementally: place[u][d] counts the cells of unit u that still
 * have candidate d, and every elimination decrements the counters of the cell's units, so a
 * counter reaching 1 names a hidden single and 0 a contradiction, without rescanning units.
 *
 * Undo is a trail, not copies: every change to a candidate mask pushes (cell, old mask).
 * Backtracking pops entries back to the mark of the branch point, restoring masks and
 * re-incrementing the counters of the bits that come back (so counters are never trailed).
 * A 64x64 state is 36 KB, so copying it at every guess would cost more than the changes a
 * guess makes; the trail also bounds memory at ncells * (n + 1) entries, whatever the depth.
 *
 * Rejected so far (retry with measurements, not by intuition):
 *   - rescanning all units for hidden singles after every placement (the reference
 *     solver's way): O(units * n) per pass instead of O(units of a cell) per elimination
 *     (chosen by analysis, not measured);
 *   - branching on cells only (no (unit, digit) branch): 3x to over 400x more guesses on
 *     25x25 grids with 50-70% of their cells blank (one measurement per case);
 *   - building a full digit -> positions table per unit for locked candidates: about 1.5x
 *     the time of the per-digit scan filtered by the place counters (only digits with
 *     2..|u & v| places can be locked) on top1465, for the same eliminations (noisy machine).
 *
 * Locked candidates cut guesses 3x (top1465 through this path: 168 -> 54 per puzzle; 25x25
 * half-blank: 608 -> 82; a 9x9 jigsaw: 756 -> 0) at a higher cost per node, so the time
 * gain is smaller than the guess gain and on some sets (forum_hardest_1106) a loss;
 * compile with -DSK_LOCKED_MAX_N=0 to measure without it.
 *
 * Known limit: grids of 36x36 and more with about half their cells blank sit in the hard
 * region of Latin-square completion, where a deterministic depth-first search can thrash for
 * millions of guesses; callers bound such searches with a budget.
 */
#include "sk_solver.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "sk_port.h"

#ifdef SK_HAVE_FAST9
#include "sk_fast9.h"
#endif

/*
 * Geometry layout (all arrays owned by the struct, immutable after sk_geom_new):
 *
 *   units      [nunits * n]     cells of each unit          units[u*n + i]
 *   cu_start   [ncells + 1]     CSR index into cu           cell c's units are
 *   cu         [sum of sizes]   unit numbers                cu[cu_start[c] .. cu_start[c+1])
 *   peer_start [ncells + 1]     CSR index into peers        cell c's peers (cells sharing a
 *   peers      [sum of sizes]   cell numbers, ascending     unit with c, c excluded)
 *   ix_start   [nunits + 1]     CSR index into ix           unit u's intersections are
 *   ix         [sum of sizes]   (in_u, in_v, v)             ix[ix_start[u] .. ix_start[u+1])
 *   ix_most    [nunits]         largest |u & v| over u's intersections (0 when none)
 *
 *   e.g. 9x9, box 0 (unit 18) meets rows 0-2 and columns 0-2:
 *        ix for unit 18 = { in_u 0b000000111, v 0 (row 0), in_v 0b000000111 }, ...
 *
 *   e.g. standard 9x9, cell 10 (r2c2):   cu = {1, 10, 18}  (row 1, column 1, box 0)
 *                                        peers = 20 cells
 */
/* An intersection of unit u with another unit v sharing 2..n-1 cells (box/line, region/line,
 * diagonal/box, ...): positions are indices into each unit's cell list. */
typedef struct {
    uint64_t in_u; /* positions i in u of the shared cells */
    uint64_t in_v; /* positions j in v of the shared cells */
    uint32_t v;
} sk_inter;

struct sk_geom {
    int n;          /* digits per unit, 1..64 */
    int ncells;     /* n * n */
    int nunits;     /* >= 1 */
    int standard9;  /* 1 when the layout is exactly the standard 9x9 one */
    uint64_t full;  /* mask of all n digits */
    uint16_t *units;
    uint32_t *cu_start;
    uint16_t *cu;
    uint32_t *peer_start;
    uint16_t *peers;
    uint32_t *ix_start; /* CSR index into ix: unit u's intersections */
    sk_inter *ix;
    uint8_t *ix_most;   /* per unit: the most cells it shares with one other unit */
};

/*
 * Workspace layout (one search at a time; sized for its geometry at sk_work_new):
 *
 *   cand   [ncells]          uint64  candidate mask of each cell (one bit once placed)
 *   val    [ncells]          uint8   placed digit, 0 while unplaced
 *   place  [nunits * n]      uint8   place[u*n + d-1] = cells of unit u with candidate d
 *   trail  [ncells*(n+1)]    (cell | PLACED flag, old mask)   undo log, grows upwards
 *   queue  [qcap]            (cell, digit) placements waiting to be propagated
 *   frames [ncells]          branch points: kind, cell or unit, digit, untried
 *                            alternatives (a mask), trail mark
 *
 *   trail:  | e0 | e1 | ... | e(mark) | ... | e(len-1) |
 *                            ^ frame k's mark: undo to here to retry frame k
 */
#define SK_PLACED_FLAG 0x80000000u

typedef struct {
    uint32_t cell; /* cell, with SK_PLACED_FLAG when the entry also placed a digit */
    uint64_t old;  /* the cell's mask before the change */
} sk_trail_entry;

typedef struct {
    uint32_t cell;
    uint32_t digit;
} sk_move;

enum { FRAME_CELL = 0, FRAME_UNIT = 1 };

typedef struct {
    uint64_t untried; /* digits (FRAME_CELL) or unit positions (FRAME_UNIT) not yet tried */
    size_t mark;      /* trail length when the frame was opened */
    uint32_t where;   /* cell (FRAME_CELL) or unit (FRAME_UNIT) */
    uint32_t digit;   /* FRAME_UNIT: the digit being placed */
    int kind;
} sk_frame;

struct sk_work {
    const sk_geom *g;
    uint64_t *cand;
    uint8_t *val;
    uint8_t *place;
    sk_trail_entry *trail;
    size_t tlen, tcap;
    sk_move *queue;
    size_t qhead, qlen, qcap;
    sk_frame *frames;
    size_t fcap;
    int nplaced;
};

/* ---------------------------------------------------------------------------------------- */
/* bit helpers                                                                                */

static inline int sk_ctz(uint64_t m) {
    assert(m != 0);
    return __builtin_ctzll(m);
}

static inline int sk_popcount(uint64_t m) { return __builtin_popcountll(m); }

static inline uint64_t sk_full_mask(int n) {
    return n >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << n) - 1);
}

/* ---------------------------------------------------------------------------------------- */
/* geometry                                                                                   */

/* Fills std[27 * 9] with the standard 9x9 units in Shape order (rows, columns, boxes). */
static void standard9_units(uint16_t *std) {
    for (int r = 0; r < 9; r++)
        for (int c = 0; c < 9; c++) std[r * 9 + c] = (uint16_t)(r * 9 + c);
    for (int c = 0; c < 9; c++)
        for (int r = 0; r < 9; r++) std[81 + c * 9 + r] = (uint16_t)(r * 9 + c);
    for (int b = 0; b < 9; b++)
        for (int i = 0; i < 9; i++) {
            int r = (b / 3) * 3 + i / 3, c = (b % 3) * 3 + i % 3;
            std[162 + b * 9 + i] = (uint16_t)(r * 9 + c);
        }
}

/* Fills g->ix_start / g->ix with every pair of units sharing 2..n-1 cells, in two passes
 * (count, then fill).  O(nunits^2 * n), once per shape. */
static int build_intersections(sk_geom *g) {
    const int n = g->n, nunits = g->nunits;
    int16_t *pos = malloc((size_t)g->ncells * sizeof *pos); /* position of a cell in unit u */
    g->ix_start = calloc((size_t)nunits + 1, sizeof *g->ix_start);
    g->ix_most = calloc((size_t)nunits, sizeof *g->ix_most);
    if (pos == NULL || g->ix_start == NULL || g->ix_most == NULL) {
        free(pos);
        return SK_ENOMEM;
    }
    for (int pass = 0; pass < 2; pass++) {
        uint32_t total = 0;
        for (int u = 0; u < nunits; u++) {
            const uint16_t *cu = g->units + (size_t)u * n;
            memset(pos, -1, (size_t)g->ncells * sizeof *pos);
            for (int i = 0; i < n; i++) pos[cu[i]] = (int16_t)i;
            if (pass == 1) g->ix_start[u] = total;
            for (int v = 0; v < nunits; v++) {
                if (v == u) continue;
                const uint16_t *cv = g->units + (size_t)v * n;
                uint64_t in_u = 0, in_v = 0;
                for (int j = 0; j < n; j++) {
                    if (pos[cv[j]] >= 0) {
                        in_u |= (uint64_t)1 << pos[cv[j]];
                        in_v |= (uint64_t)1 << j;
                    }
                }
                const int shared = sk_popcount(in_u);
                if (shared < 2 || shared >= n) continue;
                if (shared > g->ix_most[u]) g->ix_most[u] = (uint8_t)shared;
                if (pass == 1) {
                    g->ix[total].in_u = in_u;
                    g->ix[total].in_v = in_v;
                    g->ix[total].v = (uint32_t)v;
                }
                total++;
            }
        }
        if (pass == 0) {
            g->ix = malloc(((size_t)total + 1) * sizeof *g->ix);
            if (g->ix == NULL) {
                free(pos);
                return SK_ENOMEM;
            }
        } else {
            g->ix_start[nunits] = total;
        }
    }
    free(pos);
    return SK_COMPLETE;
}

int sk_geom_new(int n, int nunits, const uint16_t *units, sk_geom **out) {
    if (out == NULL) return SK_EINVAL;
    *out = NULL;
    if (n < 1 || n > SK_MAX_N || nunits < 1 || units == NULL) return SK_EINVAL;
    /* A cell can be in at most ncells units only if units repeat; cap at a sane bound so the
     * CSR arrays stay small: 4 * n units covers rows, columns, boxes, diagonals twice. */
    if (nunits > 8 * n + 8) return SK_EINVAL;
    const int ncells = n * n;
    const size_t usize = (size_t)nunits * (size_t)n;

    /* Validate: cell indices in range, distinct within each unit. */
    uint32_t *stamp = calloc((size_t)ncells, sizeof *stamp);
    if (stamp == NULL) return SK_ENOMEM;
    for (int u = 0; u < nunits; u++) {
        for (int i = 0; i < n; i++) {
            uint16_t c = units[(size_t)u * n + i];
            if (c >= ncells || stamp[c] == (uint32_t)u + 1) {
                free(stamp);
                return SK_EINVAL;
            }
            stamp[c] = (uint32_t)u + 1;
        }
    }

    sk_geom *g = calloc(1, sizeof *g);
    if (g == NULL) {
        free(stamp);
        return SK_ENOMEM;
    }
    g->n = n;
    g->ncells = ncells;
    g->nunits = nunits;
    g->full = sk_full_mask(n);
    g->units = malloc(usize * sizeof *g->units);
    g->cu_start = calloc((size_t)ncells + 1, sizeof *g->cu_start);
    g->cu = malloc(usize * sizeof *g->cu);
    g->peer_start = calloc((size_t)ncells + 1, sizeof *g->peer_start);
    if (!g->units || !g->cu_start || !g->cu || !g->peer_start) goto nomem;
    memcpy(g->units, units, usize * sizeof *g->units);

    /* cell -> units, as CSR: count, prefix sums, fill. */
    for (size_t k = 0; k < usize; k++) g->cu_start[units[k] + 1]++;
    for (int c = 0; c < ncells; c++) g->cu_start[c + 1] += g->cu_start[c];
    {
        uint32_t *fill = calloc((size_t)ncells, sizeof *fill);
        if (fill == NULL) goto nomem;
        for (int u = 0; u < nunits; u++)
            for (int i = 0; i < n; i++) {
                uint16_t c = units[(size_t)u * n + i];
                g->cu[g->cu_start[c] + fill[c]++] = (uint16_t)u;
            }
        free(fill);
    }

    /* cell -> peers, as CSR: two passes (count, then fill), deduplicated with stamps. */
    memset(stamp, 0, (size_t)ncells * sizeof *stamp);
    for (int pass = 0; pass < 2; pass++) {
        uint32_t pos = 0;
        for (int c = 0; c < ncells; c++) {
            const uint32_t tag = (uint32_t)(pass * ncells + c) + 1;
            stamp[c] = tag;
            if (pass == 1) g->peer_start[c] = pos;
            for (uint32_t k = g->cu_start[c]; k < g->cu_start[c + 1]; k++) {
                const uint16_t *unit = g->units + (size_t)g->cu[k] * n;
                for (int i = 0; i < n; i++) {
                    if (stamp[unit[i]] != tag) {
                        stamp[unit[i]] = tag;
                        if (pass == 1) g->peers[pos] = unit[i];
                        pos++;
                    }
                }
            }
        }
        if (pass == 0) {
            g->peers = malloc(((size_t)pos + 1) * sizeof *g->peers);
            if (g->peers == NULL) goto nomem;
        } else {
            g->peer_start[ncells] = pos;
        }
    }
    free(stamp);
    stamp = NULL;

    if (build_intersections(g) != SK_COMPLETE) goto nomem;
    if (n == 9 && nunits == 27) {
        uint16_t std[27 * 9];
        standard9_units(std);
        g->standard9 = memcmp(std, g->units, sizeof std) == 0;
    }
    *out = g;
    return SK_COMPLETE;

nomem:
    free(stamp);
    sk_geom_free(g);
    return SK_ENOMEM;
}

void sk_geom_free(sk_geom *g) {
    if (g == NULL) return;
    free(g->units);
    free(g->cu_start);
    free(g->cu);
    free(g->peer_start);
    free(g->peers);
    free(g->ix_start);
    free(g->ix);
    free(g->ix_most);
    free(g);
}

int sk_geom_n(const sk_geom *g) { return g->n; }
int sk_geom_ncells(const sk_geom *g) { return g->ncells; }
int sk_geom_nunits(const sk_geom *g) { return g->nunits; }
int sk_geom_is_standard9(const sk_geom *g) { return g->standard9; }

void sk_geom_disable_fast(sk_geom *g) { g->standard9 = 0; }

/* ---------------------------------------------------------------------------------------- */
/* workspace                                                                                  */

sk_work *sk_work_new(const sk_geom *g) {
    if (g == NULL) return NULL;
    sk_work *w = calloc(1, sizeof *w);
    if (w == NULL) return NULL;
    const size_t ncells = (size_t)g->ncells, n = (size_t)g->n;
    const size_t nplaces = (size_t)g->nunits * n;
    w->g = g;
    /* Trail bound: per path, each cell loses each of its n bits at most once, and is
     * placed at most once. */
    w->tcap = ncells * (n + 1);
    /* Queue bound per propagation: a naked single per cell (a mask becomes single once),
     * a hidden single per (unit, digit) (a counter reaches 1 once), the guess itself. */
    w->qcap = ncells + nplaces + 1;
    w->fcap = ncells;
    w->cand = malloc(ncells * sizeof *w->cand);
    w->val = malloc(ncells * sizeof *w->val);
    w->place = malloc(nplaces * sizeof *w->place);
    w->trail = malloc(w->tcap * sizeof *w->trail);
    w->queue = malloc(w->qcap * sizeof *w->queue);
    w->frames = malloc(w->fcap * sizeof *w->frames);
    if (!w->cand || !w->val || !w->place || !w->trail || !w->queue || !w->frames) {
        sk_work_free(w);
        return NULL;
    }
    return w;
}

void sk_work_free(sk_work *w) {
    if (w == NULL) return;
    free(w->cand);
    free(w->val);
    free(w->place);
    free(w->trail);
    free(w->queue);
    free(w->frames);
    free(w);
}

/* ---------------------------------------------------------------------------------------- */
/* propagation                                                                                */

static inline void push_move(sk_work *w, uint32_t cell, uint32_t digit) {
    assert(w->qlen < w->qcap);
    w->queue[w->qlen].cell = cell;
    w->queue[w->qlen].digit = digit;
    w->qlen++;
}

static inline void push_trail(sk_work *w, uint32_t cell, uint64_t old) {
    assert(w->tlen < w->tcap);
    w->trail[w->tlen].cell = cell;
    w->trail[w->tlen].old = old;
    w->tlen++;
}

/*
 * Bits `removed` (digit bits, already cleared from cell's mask) leave the place counters of
 * every unit of the cell.  A counter reaching 1 queues the hidden single of that unit (unless
 * the one place left already holds the digit); 0 is a contradiction.  Every counter is
 * updated even after a contradiction so that undo, which re-adds by the same rule, stays exact.
 * Returns 1 when consistent, 0 on contradiction.
 */
static int drop_places(sk_work *w, uint32_t cell, uint64_t removed) {
    const sk_geom *g = w->g;
    const int n = g->n;
    const uint32_t u0 = g->cu_start[cell], u1 = g->cu_start[cell + 1];
    int ok = 1;
    while (removed) {
        const int d = sk_ctz(removed);
        const uint64_t bit = (uint64_t)1 << d;
        removed &= removed - 1;
        for (uint32_t k = u0; k < u1; k++) {
            const uint32_t u = g->cu[k];
            uint8_t *p = &w->place[(size_t)u * n + d];
            assert(*p > 0);
            const uint8_t left = --*p;
            if (left == 0) {
                ok = 0;
            } else if (left == 1 && ok) {
                const uint16_t *unit = g->units + (size_t)u * n;
                for (int i = 0; i < n; i++) {
                    const uint16_t c = unit[i];
                    if (w->cand[c] & bit) {
                        if (w->val[c] == 0) push_move(w, c, (uint32_t)d + 1);
                        break;
                    }
                }
            }
        }
    }
    return ok;
}

/* Removes candidate `bit` (digit d = index + 1) from cell; 0 on contradiction. */
static inline int eliminate(sk_work *w, uint32_t cell, uint64_t bit) {
    const uint64_t old = w->cand[cell];
    assert(old & bit);
    push_trail(w, cell, old);
    const uint64_t m = old & ~bit;
    w->cand[cell] = m;
    int ok = drop_places(w, cell, bit);
    if (m == 0) return 0;
    if ((m & (m - 1)) == 0 && ok) push_move(w, cell, (uint32_t)sk_ctz(m) + 1);
    return ok;
}

/* Places digit in cell and removes it from every peer; 0 on contradiction. */
static int assign(sk_work *w, uint32_t cell, uint32_t digit) {
    const sk_geom *g = w->g;
    if (w->val[cell]) return w->val[cell] == digit;
    const uint64_t bit = (uint64_t)1 << (digit - 1);
    const uint64_t old = w->cand[cell];
    if (!(old & bit)) return 0;
    push_trail(w, cell | SK_PLACED_FLAG, old);
    w->val[cell] = (uint8_t)digit;
    w->nplaced++;
    w->cand[cell] = bit;
    if (!drop_places(w, cell, old & ~bit)) return 0;
    for (uint32_t k = g->peer_start[cell]; k < g->peer_start[cell + 1]; k++) {
        const uint32_t p = g->peers[k];
        if ((w->cand[p] & bit) && !eliminate(w, p, bit)) return 0;
    }
    return 1;
}

/* Runs the queue to a fixpoint; 1 when consistent, 0 on contradiction (queue then dirty). */
static int propagate(sk_work *w) {
    while (w->qhead < w->qlen) {
        const sk_move mv = w->queue[w->qhead++];
        if (!assign(w, mv.cell, mv.digit)) return 0;
    }
    w->qhead = w->qlen = 0;
    return 1;
}

/* Pops trail entries back to length mark, restoring masks, counters and placements. */
static void undo_to(sk_work *w, size_t mark) {
    const sk_geom *g = w->g;
    const int n = g->n;
    assert(mark <= w->tlen);
    while (w->tlen > mark) {
        const sk_trail_entry e = w->trail[--w->tlen];
        const uint32_t cell = e.cell & ~SK_PLACED_FLAG;
        uint64_t back = e.old & ~w->cand[cell];
        while (back) {
            const int d = sk_ctz(back);
            back &= back - 1;
            for (uint32_t k = g->cu_start[cell]; k < g->cu_start[cell + 1]; k++)
                w->place[(size_t)g->cu[k] * n + d]++;
        }
        w->cand[cell] = e.old;
        if (e.cell & SK_PLACED_FLAG) {
            w->val[cell] = 0;
            w->nplaced--;
        }
    }
    w->qhead = w->qlen = 0;
}

/*
 * Locked candidates, for any two units u and v that share some cells: when digit d's places in
 * u all lie in u & v, d leaves the cells of v outside u (pointing and claiming on standard
 * grids; region/line and diagonal interactions on the variants).  One pass over all units;
 * returns 1 when something was eliminated (the caller propagates and calls again), 0 when
 * nothing was, -1 on contradiction.  Cost per pass: the candidates of every unit plus
 * n digits per intersection.
 */
static int locked_candidates(sk_work *w) {
    const sk_geom *g = w->g;
    const int n = g->n;
    int changed = 0;
    for (int u = 0; u < g->nunits; u++) {
        const uint32_t x0 = g->ix_start[u], x1 = g->ix_start[u + 1];
        const int most = g->ix_most[u];
        const uint8_t *place = w->place + (size_t)u * n;
        const uint16_t *cu = g->units + (size_t)u * n;
        for (int d = 0; d < n; d++) {
            /* Only digits with 2..most places can fit in one intersection (1 is placed). */
            if (place[d] < 2 || place[d] > most) continue;
            const uint64_t bit = (uint64_t)1 << d;
            uint64_t where = 0;
            for (int i = 0; i < n; i++)
                if (w->cand[cu[i]] & bit) where |= (uint64_t)1 << i;
            for (uint32_t x = x0; x < x1; x++) {
                const sk_inter *it = &g->ix[x];
                if (where & ~it->in_u) continue;
                /* d is confined to u & v in u: clear it from the rest of v. */
                const uint16_t *cv = g->units + (size_t)it->v * n;
                uint64_t rest = ~it->in_v & g->full;
                while (rest) {
                    const uint16_t c = cv[sk_ctz(rest)];
                    rest &= rest - 1;
                    if (w->cand[c] & bit) {
                        if (!eliminate(w, c, bit)) return -1;
                        changed = 1;
                    }
                }
            }
        }
    }
    return changed;
}

/* Locked candidates run for sizes up to SK_LOCKED_MAX_N (0 disables them).  Above 16x16
 * they changed which branches the search takes for the worse on the measured cases: filling
 * an empty 36x36 grid took 58,826 guesses instead of 1,530, and an empty 49x49 did not finish
 * in 200,000 (15,711 without); both sides are luck-sensitive (heavy-tailed), so re-measure. */
#ifndef SK_LOCKED_MAX_N
#define SK_LOCKED_MAX_N 16
#endif

/* Propagation to a fixpoint of singles and locked candidates; 0 on contradiction. */
static int settle(sk_work *w) {
    if (!propagate(w)) return 0;
    if (w->g->n > SK_LOCKED_MAX_N) return 1;
    while (w->nplaced < w->g->ncells) {
        const int r = locked_candidates(w);
        if (r < 0) return 0;
        if (r == 0) break;
        if (!propagate(w)) return 0;
    }
    return 1;
}

/*
 * Picks the next branch point: the unplaced cell with the fewest candidates, or a (unit,
 * digit) with fewer places than that.  Called only after a successful propagation, when at
 * least one cell is unplaced (so every unplaced cell has >= 2 candidates and every counter
 * of an unplaced digit is >= 2).  Ties keep the first found: the lowest cell, or the lowest
 * (unit, digit), which makes the search deterministic.
 */
static void choose_branch(sk_work *w, sk_frame *f) {
    const sk_geom *g = w->g;
    const int n = g->n;
    int best = n + 1;
    uint32_t best_cell = 0;
    for (int c = 0; c < g->ncells; c++) {
        if (w->val[c]) continue;
        const int k = sk_popcount(w->cand[c]);
        if (k < best) {
            best = k;
            best_cell = (uint32_t)c;
            if (k <= 2) break;
        }
    }
    assert(best >= 2 && best <= n);
    f->kind = FRAME_CELL;
    f->where = best_cell;
    f->digit = 0;
    f->untried = w->cand[best_cell];
    if (best <= 2) return;
    /* A digit with fewer places in some unit than the best cell has candidates. */
    int best_u = -1, best_d = 0;
    const size_t nplaces = (size_t)g->nunits * n;
    for (size_t k = 0; k < nplaces; k++) {
        const int left = w->place[k];
        if (left >= 2 && left < best) {
            best = left;
            best_u = (int)(k / (size_t)n);
            best_d = (int)(k % (size_t)n);
            if (left == 2) break;
        }
    }
    if (best_u < 0) return;
    const uint64_t bit = (uint64_t)1 << best_d;
    const uint16_t *unit = g->units + (size_t)best_u * n;
    uint64_t where = 0;
    for (int i = 0; i < n; i++)
        if (w->cand[unit[i]] & bit) where |= (uint64_t)1 << i;
    assert(sk_popcount(where) == best);
    f->kind = FRAME_UNIT;
    f->where = (uint32_t)best_u;
    f->digit = (uint32_t)best_d + 1;
    f->untried = where;
}

/* ---------------------------------------------------------------------------------------- */
/* search                                                                                     */

/* Guesses of the generic path between two calls of the poll callback (~1-10 ms of search,
 * 9x9 to 64x64). */
#define SK_POLL_EVERY 1024u

/* The guess count at which generic_search next looks at its budget or poll (one compare a
 * guess on the hot path): the budget, or the next poll, whichever comes first. */
static uint64_t next_check(uint64_t tries, uint64_t budget, sk_poll_fn poll) {
    uint64_t at = poll ? tries + SK_POLL_EVERY : UINT64_MAX;
    return budget && budget < at ? budget : at;
}

static int generic_search(const sk_geom *g, sk_work *w, const uint8_t *cells, uint64_t limit,
                          uint64_t keep, uint8_t *solutions, uint64_t budget, uint64_t *count,
                          uint64_t *guesses, sk_poll_fn poll, void *poll_ctx) {
    assert(g->n >= 1 && g->n <= SK_MAX_N);
    const int n = g->n, ncells = g->ncells;
    const size_t nc = (size_t)n * (size_t)n, nplaces = (size_t)g->nunits * (size_t)n;
    uint64_t found = 0, tries = 0, check_at = next_check(0, budget, poll);
    size_t depth = 0;
    int status = SK_COMPLETE;

    for (size_t c = 0; c < nc; c++) w->cand[c] = g->full;
    memset(w->val, 0, nc);
    memset(w->place, n, nplaces);
    w->tlen = w->qhead = w->qlen = 0;
    w->nplaced = 0;

    int ok = 1;
    for (size_t c = 0; c < nc && ok; c++) {
        /* Singles are found when a mask or counter shrinks to 1; at n == 1 they start there. */
        if (cells[c] || n == 1) {
            push_move(w, (uint32_t)c, cells[c] ? cells[c] : 1);
            ok = propagate(w);
        }
    }
    if (ok) ok = settle(w);

    for (;;) {
        if (ok) {
            if (w->nplaced == ncells) {
                if (found < keep) memcpy(solutions + found * nc, w->val, nc);
                if (++found >= limit) break;
                ok = 0;
            } else {
                assert(depth < w->fcap);
                sk_frame *f = &w->frames[depth++];
                choose_branch(w, f);
                f->mark = w->tlen;
            }
        }
        if (!ok) {
            if (depth == 0) break;
            undo_to(w, w->frames[depth - 1].mark);
        }
        /* Try the next alternative of the innermost open frame. */
        sk_frame *f = &w->frames[depth - 1];
        assert(f->untried != 0);
        const int i = sk_ctz(f->untried);
        f->untried &= f->untried - 1;
        uint32_t cell, digit;
        if (f->kind == FRAME_CELL) {
            cell = f->where;
            digit = (uint32_t)i + 1;
        } else {
            cell = g->units[(size_t)f->where * n + i];
            digit = f->digit;
        }
        /* The last alternative needs no way back to this frame: close it now. */
        if (f->untried == 0) depth--;
        if (tries >= check_at) {
            if (budget && tries >= budget) {
                status = SK_GAVE_UP;
                break;
            }
            if (poll(poll_ctx)) { /* check_at < budget only when poll is set */
                status = SK_STOPPED;
                break;
            }
            check_at = next_check(tries, budget, poll);
        }
        tries++;
        push_move(w, cell, digit);
        ok = settle(w);
    }
    *count = found;
    if (guesses) *guesses = tries;
    return status;
}

int sk_search(const sk_geom *g, sk_work *w, const uint8_t *cells, uint64_t limit,
              uint64_t keep, uint8_t *solutions, uint64_t budget, uint64_t *count,
              uint64_t *guesses, sk_poll_fn poll, void *poll_ctx) {
    if (g == NULL || w == NULL || cells == NULL || count == NULL || limit == 0) return SK_EINVAL;
    if (keep > 0 && solutions == NULL) return SK_EINVAL;
    for (int c = 0; c < g->ncells; c++)
        if (cells[c] > g->n) return SK_EINVAL;
    *count = 0;
    if (guesses) *guesses = 0;
#ifdef SK_HAVE_FAST9
    /* 64-bit limits end to end: no clamp (a clamp once made a count of 2^31 - 1 look exact). */
    if (g->standard9 && keep <= 1) {
        uint64_t found = 0, tries = 0;
        const int rc = sk9_search(cells, limit, budget, keep ? solutions : NULL, &found, &tries,
                                  poll, poll_ctx);
        if (rc >= 0) {
            assert(found <= limit);
            *count = found;
            if (guesses) *guesses = tries;
            return rc == 0 ? SK_COMPLETE : (rc == 1 ? SK_GAVE_UP : SK_STOPPED);
        }
        /* -1: the fast path refused the input; the generic path decides. */
    }
#endif
    return generic_search(g, w, cells, limit, keep, solutions, budget, count, guesses, poll,
                          poll_ctx);
}

/* ---------------------------------------------------------------------------------------- */
/* Clue removal: the generator's removal pass in one call (contract in sk_solver.h).         */

int sk_reduce(const sk_geom *g, sk_work *w, uint8_t *cells, const uint16_t *order,
              const uint32_t *group_ends, uint32_t ngroups, uint64_t budget,
              uint64_t max_searches, uint64_t *searches, int *decided, sk_poll_fn poll,
              void *poll_ctx) {
    if (g == NULL || w == NULL || cells == NULL || searches == NULL || decided == NULL)
        return SK_EINVAL;
    if (ngroups > 0 && (order == NULL || group_ends == NULL)) return SK_EINVAL;
    for (int c = 0; c < g->ncells; c++)
        if (cells[c] > g->n) return SK_EINVAL;
    uint32_t prev = 0;
    for (uint32_t k = 0; k < ngroups; k++) {
        if (group_ends[k] < prev) return SK_EINVAL;
        for (uint32_t j = prev; j < group_ends[k]; j++)
            if (order[j] >= g->ncells) return SK_EINVAL;
        prev = group_ends[k];
    }
    *searches = 0;
    *decided = 1;
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
        uint64_t count = 0;
        const int rc = sk_search(g, w, cells, 2, 0, NULL, budget, &count, NULL, poll, poll_ctx);
        if (rc == SK_COMPLETE && count == 1) {
            ++*searches;
            continue; /* still unique: the group stays out */
        }
        for (uint32_t i = 0; i < ncleared; i++) cells[cleared[i]] = digits[i];
        if (rc == SK_STOPPED) return rc; /* that search does not count: its group is as it was */
        ++*searches;
        if (rc == SK_GAVE_UP)
            *decided = 0;
        else if (rc != SK_COMPLETE)
            return rc; /* cannot happen after the checks above; the puzzle is restored */
    }
    return SK_COMPLETE;
}
