/*
 * sk_chain.h -- the static chaining engine of SE's "Forcing Chains & Cycles" rule, in C.
 *
 * Pure C (no Python.h, no globals, no I/O): reentrant, all state in one sk_chain_mode per
 * candidate state and search mode.  The Python code in src/sudokit/logic/cycles.py
 * (`_Mode`, `_cycles`, `_forcing`, `_bounds`, `_reach`, `chaining.Links`) is the
 * specification; this file does the same steps in the same order, so the hints found, their
 * order and their chains are identical (tests/test_chain_c.py holds both to that).
 *
 * Potentials use the Python encoding: candidate c = cell * n + d (d 0-based), potential
 * p = 2 * c + on; p ^ 1 is its conjugate.
 *
 * Link tables, per candidate, in CSR layout (SE's order, as chaining.Links.tables(y, x)):
 *
 *     oo_start[c] .. oo_start[c + 1]   ->  oo[]   "off" potentials implied by c on
 *     fo_start[c] .. fo_start[c + 1]   ->  fo[]   "on" potentials implied by c off
 *
 * Y links first (the other candidates of the cell; the other candidate of a bivalue cell),
 * then X links (the digit in the peers, unit by unit in the cell's unit order, each once;
 * the other place of the digit in each unit where it has two places, each once).  With
 * y = 0 only X links; with x = 0, on->off still has both kinds and off->on only Y (as SE).
 */
#ifndef SK_CHAIN_H
#define SK_CHAIN_H

#include <stddef.h>
#include <stdint.h>

/* "No chain": the bound of a search that cannot find anything (Python's _INF). */
#define SK_CHAIN_INF (1 << 30)

/* Shape tables the caller owns (read only, must outlive the mode):
 *   units: nunits units, unit u is cells unit_cells[unit_start[u] .. unit_start[u + 1]);
 *   per cell, its units in SE's order (box, row, column, extra units):
 *   cell_units[cell_start[cell] .. cell_start[cell + 1]).
 * Not validated here: the binding checks every index is in range. */
typedef struct {
    int n, ncells, nunits;
    const int32_t *unit_start, *unit_cells;
    const int32_t *cell_start, *cell_units;
} sk_chain_geom;

/* A shape's pair relations (pairlinks.PairLinks.related), per cell a: relation k,
 * start[a] <= k < start[a + 1], joins it to cell b[k]; ab[k * n + x] is the mask of the
 * digits b[k] may hold when a holds digit x, ba[k * n + y] the other way round.  start ==
 * NULL: none.  Built by sk_chain_rel_init from nrec records rec[i * (2 + 2n) ..] = (a, b,
 * ab[0..n), ba[0..n)), a ascending (checked by the binding: cells in range, a != b, masks
 * below 2**n); 0, or -1 when out of memory (then empty). */
typedef struct {
    int32_t *start, *b;
    uint64_t *ab, *ba;
} sk_chain_rel;

int sk_chain_rel_init(sk_chain_rel *r, int n, int ncells, const int64_t *rec, size_t nrec);
void sk_chain_rel_free(sk_chain_rel *r);

/* Output of sk_chain_hints: a growable int32 buffer of records
 *     source index, kind (0 = cycle, 1 = forcing chain), length L, L potentials
 * (a cycle's potentials from its start to the "off" node that closes it; a forcing chain's
 * from its assumption to the conjugate of the assumption). */
typedef struct {
    int32_t *data;
    size_t len, cap;
} sk_chain_out;

/* One search mode (X, Y or X+Y) on one candidate state.  Built by sk_chain_mode_init,
 * released by sk_chain_mode_free; never shared between threads while searching (the
 * scratch arrays below are per mode). */
typedef struct {
    int n, ncells, ncand, npot, y, x;
    int32_t *oo_start, *oo, *fo_start, *fo;
    int32_t nsources;
    int32_t *sources; /* the "on" potentials searches start from, in SE's order */
    int32_t *bounds;  /* per source: cycle, forcing from it, from its conjugate (or INF) */
    uint8_t *on_cycle; /* per potential: its strongly connected component has >= 4 members */
    /* scratch */
    uint32_t *stamp; /* per potential: visited in the search numbered `gen` */
    uint32_t gen;
    int32_t *node_pot, *node_parent; /* search nodes: potential, parent node (-1: root) */
    size_t nnodes, node_cap;
    uint64_t *bits; /* 6 bit sets of npot bits for the bounds */
    size_t words;
    /* for sk_chain_best: copies of the state and of the geometry, and per cell stamps */
    uint64_t *masks;
    int32_t *g_ustart, *g_ucells, *g_cstart, *g_cunits;
    int32_t *xp_start, *xp; /* per cell its peers outside its units (NULL: none), copied */
    uint32_t *cstamp, *lstamp, cgen;
    sk_chain_out scratch;
} sk_chain_mode;

/* Builds the links, sources, components and bounds of the state *masks* (ncells masks,
 * bit d = digit d + 1 is a candidate) for the link kinds y / x; with y and x, rel (NULL:
 * none) adds the pair relations' links after each candidate's own (chaining.Links.
 * on_off_r / off_on_r).  xp_start / xp (NULL: none; ncells + 1 offsets into xp, cells in
 * range, checked by the binding) are each cell's peers outside its units (the different
 * pairs: Shape.peers), which a cycle's eliminations also see.  Returns 0, or -1 when out
 * of memory (the mode is then freed).  masks must hold only bits below n. */
int sk_chain_mode_init(sk_chain_mode *m, const sk_chain_geom *g, const uint64_t *masks, int y,
                       int x, const sk_chain_rel *rel, const int32_t *xp_start,
                       const int32_t *xp);
void sk_chain_mode_free(sk_chain_mode *m);


/* The hints of the mode with at most *cap* potentials, in SE's discovery order (as
 * cycles._Mode.hints): per source, its cycles, then the forcing chain from it, then the one
 * from its conjugate, each searched only when its bound is <= cap.  Appends to *out*;
 * returns 0, or -1 when out of memory. */
int sk_chain_hints(sk_chain_mode *m, int64_t cap, sk_chain_out *out);

/* The one hint of sk_chain_hints(m, cap) that SE's rule takes from this mode
 * (cycles._Mode.best): the least by (rating, complexity, discovery order) among those that
 * change the grid (every forcing chain; a cycle when a candidate outside its cells sees an
 * "on" and an "off" node of its digit in the loop).  A hint's complexity is its number of
 * distinct potentials, its rating in tenths base10[kind] + the number of thresholds[0..nthr)
 * (ascending) that complexity - 2 exceeds.  Sets *out to the record
 *     source index, kind, k (its rank among the hints of its source), length L, L potentials
 * or empties it when there is none.  0, or -1 when out of memory. */
int sk_chain_best(sk_chain_mode *m, int64_t cap, const int32_t base10[2],
                  const int32_t *thresholds, int nthr, sk_chain_out *out);

/* ---------------------------------------------------------------------------------------- */
/* The chainer of SE's forcing chains (src/sudokit/logic/forcing.py, _Chainer / _Run at
 * nesting level 0): one candidate state, runs from one potential at a time.
 *
 * A static chainer (dynamic = 0) follows the X+Y links of the state (the tables above with
 * y = x = 1); a dynamic one derives them from a working copy of the candidates and counts
 * of places per (unit, digit), removing each candidate that goes off, and a link's parents
 * gain the removals it relied on.  A run reaches potentials in slots 0, 1, ... (the order
 * the Python's `anc` dict has), each with its ancestor set (a bit set of npot bits: `words`
 * words per slot), its parents and why it holds (for an "on" potential derived by a dynamic
 * run: -1 = last candidate of its cell, else the unit where it is the last place). */

#define SK_CHAIN_NO_CAUSE (-3)

typedef struct {
    int n, ncells, ncand, npot, nunits, y, dynamic;
    size_t words;
    uint64_t *masks0;              /* the state (ncells masks) */
    int32_t *pl_start, *pl_cells;  /* per (unit * n + digit): its places in the state */
    int32_t *counts0;              /* per (unit * n + digit): how many */
    int32_t *peer_start, *peers;   /* per candidate: the peers holding its digit, SE's order */
    int32_t *cell_start, *cell_units; /* per cell: its units in SE's order (copied) */
    sk_chain_mode links;           /* static chainer: the X+Y link tables */
    /* one run */
    uint64_t *masks;
    int32_t *counts;
    uint32_t *stamp, gen;          /* per potential: reached in run `gen`, at slot[p] */
    int32_t *slot;
    int32_t nslots;
    int32_t *order, *cause, *par_start;
    uint64_t *anc;                 /* nslots * words */
    sk_chain_out par;              /* parents of slot s: par.data[par_start[s] ..
                                    * par_start[s + 1]) */
    int32_t *pend_on, *pend_off;   /* queues of potentials */
    /* the contradiction, when absurd: ((on, on_bits), (off, off_bits), new, prs) */
    int absurd;
    int32_t ab_on, ab_off, ab_new, ab_cause;
    uint64_t *ab_on_bits, *ab_off_bits;
    sk_chain_out ab_prs;
    sk_chain_out derived;          /* scratch of one "off" potential's derivations */
    /* sk_chainer_best: per start potential its run, summarised: rs_at[p] the offset in rs of
     * its (potential, ancestor count) pairs in the order reached (-1: not run yet), rs_n[p]
     * how many, rs_absurd[p] its contradiction's complexity (-1: none) */
    int32_t *rs_at, *rs_n, *rs_absurd;
    sk_chain_out rs;
    uint32_t *mark, mgen;          /* per potential: reached by the branch marked mgen, */
    int32_t *mval;                 /* with this ancestor count */
    sk_chain_out shared;           /* (potential, summed count) common to the branches */
    sk_chain_rel rel;              /* the pair relations (sk_chainer_relate) */
} sk_chainer;

/* Builds a chainer on the state masks (g and masks are copied).  0, or -1 when out of
 * memory (then freed). */
int sk_chainer_init(sk_chainer *c, const sk_chain_geom *g, const uint64_t *masks, int y,
                    int dynamic);
void sk_chainer_free(sk_chainer *c);

/* Gives the chainer the shape's pair relations (forcing._Run follows them when dynamic and
 * y; a static chainer's X+Y tables gain their links, chaining.Links.on_off_r / off_on_r):
 * nrec records as sk_chain_rel_init reads them, those of one cell in the order of
 * PairLinks.related[a].  Call once, before the first run.  0, or -1 when out of memory (the chainer
 * keeps no relations then and must not be run). */
int sk_chainer_relate(sk_chainer *c, const int64_t *rec, size_t nrec);

/* One run from potential start (0 <= start < npot, not validated): fills the run fields
 * above.  0, or -1 when out of memory. */
int sk_chainer_run(sk_chainer *c, int32_t start);

/* What forcing._collect + forcing_hints take on the chainer's state, without building the
 * other hints: of every hint of SE's rule (Nishio: nishio = 1, on a chainer with y = 0 and
 * dynamic = 1; Multiple: multiple = 1, y = 1, dynamic = 0; Dynamic: multiple = 1, y = 1,
 * dynamic = 1), in SE's discovery order (contradictions and double chains of each candidate
 * when dynamic, region chains, cell chains), the least by (rating, complexity, sort key,
 * discovery) among those that change the state.  A hint's complexity is the sum of its
 * branches' ancestor counts of its target (a contradiction's: of both sides), its rating in
 * tenths base10 + the number of thresholds[0..nthr) it exceeds by complexity - 2;
 * sort_keys[kind] for kind 0 = double, 1 = cell, 2 = region, 3 = contradiction.
 * *found = 0 when there is none, else 1 and out[0..6) = kind, target, source (the
 * assumption, the cell or the unit), digit (1-based, region chains; else 0), complexity,
 * discovery index.  Runs are cached in the chainer across calls.  0, -1 when out of memory,
 * -2 when a unit has more than 64 cells. */
int sk_chainer_best(sk_chainer *c, int nishio, int multiple, int32_t base10,
                    const int32_t *thresholds, int nthr, const int32_t sort_keys[4],
                    int *found, int32_t out[6]);

/* Every hint sk_chainer_best chooses from (the same walk; no rating is needed), sorted as SE
 * sorts them (by complexity, which orders the rating, then sort key, then discovery), keeping
 * the first of each distinct set of removals it makes on the chainer's state (forcing.
 * _nested_rule: an "off" target removes itself, an "on" one the other candidates of its cell;
 * none: skipped).  Appends to *out per hint kept: kind, target, source, digit, complexity,
 * discovery index (as sk_chainer_best's out).  0, -1 when out of memory, -2 when a unit has
 * more than 64 cells. */
int sk_chainer_all(sk_chainer *c, int nishio, int multiple, const int32_t sort_keys[4],
                   sk_chain_out *out);

/* "Forcing Chains & Cycles" nested inside a chain (cycles.unary_all, then forcing.
 * _nested_unary's walk): every hint of the three modes of one state (X, Y, X+Y, in that
 * order, built on the same masks; each with at most cap potentials), sorted as SE sorts them
 * (rating in tenths base10[mode][kind] + the thresholds complexity - 2 exceeds, complexity,
 * sort_keys[mode], discovery), those that change nothing dropped (a cycle without
 * eliminations, a placement in a solved cell), and of the rest only the first of each
 * distinct set of removals.  Appends to *out per hint kept:
 *     kind (0 cycle, 1 forcing chain), complexity, k, its k removals ("off" potentials,
 *     ascending), L, its search path of L potentials (as sk_chain_hints)
 * 0, or -1 when out of memory. */
int sk_chain_unary_all(sk_chain_mode *const modes[3], const int32_t base10[3][2],
                       const int32_t sort_keys[3], const int32_t *thresholds, int nthr,
                       int64_t cap, sk_chain_out *out);

/* Appends x to *o (grown with realloc; free o->data when done).  0, or -1 when out of
 * memory (then *o is unchanged). */
int sk_chain_out_push(sk_chain_out *o, int32_t x);

#endif
