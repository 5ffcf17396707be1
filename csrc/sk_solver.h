/*
 * sk_solver.h -- the generic search engine of sudokit's C core.
 *
 * Counts the solutions of a Sudoku of any shape up to 64x64 (rectangular boxes, Sudoku-X,
 * jigsaw, windoku: anything whose rules are "every unit holds every digit 1..n once"), plus
 * the variant rules attached with sk_geom_set_rules (killer cages, pairs that must differ,
 * per-cell allowed digits, binary relations), up to a limit, keeps the first solutions,
 * counts guesses and stops on a guess budget.  Standard 9x9 grids without rules are handed to
 * the specialised fast path (sk_fast9.h) when it is compiled in (SK_HAVE_FAST9) and at most
 * one solution is kept.
 *
 * Pure C99 plus two GCC/Clang builtins (ctz, popcount): no Python.h, no globals, no I/O.
 * Big searches restart in a random branching order (sk_solver.c, "Restarts") from a PRNG
 * seeded with a constant per search, and up to 36x36 without variant rules go to clause
 * learning (sk_cdcl.h) past 2000 + 20 x ncells guesses with no solution; results stay a
 * function of the input.  Reentrant: a geometry is immutable once built and may be shared by any
 * number of threads; a workspace (sk_work) holds all mutable search state and serves one
 * search at a time.
 *
 * Values: cells are numbered row * n + col from 0; a cell value is 0 (empty) or a digit
 * 1..n; digit d is bit (d - 1) of a uint64_t candidate mask.
 */
#ifndef SK_SOLVER_H
#define SK_SOLVER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Largest supported size n (digits per unit): one uint64_t candidate mask per cell. */
#define SK_MAX_N 64

/* Return codes. */
enum {
    SK_COMPLETE = 0, /* search finished: the count is exact up to the limit            */
    SK_GAVE_UP = 1,  /* the guess budget ran out: the count is a lower bound            */
    SK_STOPPED = 2,  /* the poll callback asked to stop: the count is a lower bound     */
    SK_EINVAL = -1,  /* invalid argument (bad geometry, a cell value > n, limit 0, ...) */
    SK_ENOMEM = -2   /* out of memory                                                   */
};

/*
 * A poll callback: called with its context every few thousand guesses of a search (never
 * by a search that makes fewer) and between the searches of sk_reduce; a nonzero return
 * stops the work with SK_STOPPED.  This is how a caller bounds a search in time or lets an
 * interrupt (Ctrl-C) through without this library knowing anything of signals or Python.
 * NULL means no polling.
 */
typedef int (*sk_poll_fn)(void *ctx);

/* Immutable geometry of one shape (opaque; see sk_solver.c for its layout). */
typedef struct sk_geom sk_geom;

/* Mutable scratch state for one search at a time on one geometry (opaque). */
typedef struct sk_work sk_work;

/*
 * sk_geom_new -- build the geometry of a shape from its units.
 *
 * n        size: digits 1..n, n*n cells; 1 <= n <= SK_MAX_N.
 * nunits   number of units, >= 1.
 * units    nunits * n cell indices, unit after unit: units[u * n + i] is the i-th cell of
 *          unit u.  Each unit must list n distinct cells in 0..n*n-1.  Which units exist
 *          is the caller's business (rows, columns, boxes, regions, diagonals, ...).
 * out      receives the new geometry (free it with sk_geom_free).
 *
 * Returns SK_COMPLETE (0) on success, SK_EINVAL for arguments outside the rules above,
 * SK_ENOMEM when allocation fails.  The units array is copied; the caller keeps ownership.
 */
int sk_geom_new(int n, int nunits, const uint16_t *units, sk_geom **out);

/* sk_geom_free -- release a geometry (NULL is a no-op).  No workspace may still use it. */
void sk_geom_free(sk_geom *g);

/* Size n, cell count n*n, unit count of a geometry (g not NULL). */
int sk_geom_n(const sk_geom *g);
int sk_geom_ncells(const sk_geom *g);
int sk_geom_nunits(const sk_geom *g);

/* 1 when g is exactly the standard 9x9 layout (rows, columns, 3x3 boxes in the order
 * row 0..8, column 0..8, box 0..8 with cells in row-major order), else 0. */
int sk_geom_is_standard9(const sk_geom *g);

/* The units of g (nunits * n cell indices, unit after unit, as given to sk_geom_new), and the
 * units of one cell (0 <= cell < ncells): *count unit numbers.  Both point into g. */
const uint16_t *sk_geom_units(const sk_geom *g);
const uint16_t *sk_geom_cell_units(const sk_geom *g, int cell, int *count);

/* sk_geom_disable_fast -- make sk_search use the generic path even for a standard 9x9
 * geometry (sk_geom_is_standard9 then returns 0).  Call before any search uses g. */
void sk_geom_disable_fast(sk_geom *g);

/*
 * Variant rules (killer cages, anti-knight/king, non-consecutive, kropki, XV, parity,
 * thermometers, arrows, renban, sandwiches, ...), in the primitive forms a search needs:
 * pairs, allowed digits, relations, cages, linear sums and groups.  Every array
 * is read during sk_geom_set_rules only (copied); the caller keeps ownership.  A count of 0
 * makes its arrays unused (they may then be NULL).
 *
 *   npairs, pairs     extra pairs of cells that must hold different digits (anti-knight,
 *                     anti-king, ...): pairs[2k] and pairs[2k + 1], two distinct cells.  They
 *                     join the cells' peers (naked-single eliminations); they are not units, so
 *                     no hidden single comes from them.  Duplicates and pairs that already share
 *                     a unit are harmless.
 *   allowed           NULL, or ncells masks: the digits each cell may hold (parity); bits above n
 *                     are ignored; a 0 mask means no solution.
 *   nrelations,       binary rules as support tables: relation k constrains cells
 *   rel_cells,        a = rel_cells[2k] and b = rel_cells[2k + 1] (a != b): when a holds digit x,
 *   rel_tables        b may hold only the digits of rel_tables[k * n + x - 1] (bits above n are
 *                     ignored).  One direction is enough: the core derives the other (the
 *                     transpose) and intersects every relation given for the same pair, so
 *                     listing both directions, or a pair twice, is harmless.  Propagation keeps
 *                     each pair arc-consistent (a digit of b with no support in a's candidates
 *                     leaves b, and the other way round).
 *   ncages,           cages: cage k is cage_cells[cage_ends[k-1] .. cage_ends[k] - 1] (cage 0
 *   cage_ends,        starts at 0), 1..n distinct cells, no cell in two cages.  Its digits
 *   cage_cells,       differ (the core adds the cage mates to the peers itself) and, when
 *   cage_sums         cage_sums[k] >= 0, add up to cage_sums[k] (-1: no sum).  Sums up to
 *                     n(n+1)/2 are accepted; an impossible sum means no solution.
 *
 *   nlinear,          linear sums: sum k is sum(lin_coefs[j] * digit(lin_cells[j])) ==
 *   lin_ends,         lin_totals[k] over j in lin_ends[k-1] .. lin_ends[k] - 1 (sum 0 starts at
 *   lin_cells,        0): 1..ncells cells, distinct within one sum (a cell may be in several
 *   lin_coefs,        sums), digits may repeat; coefs nonzero within +-SK_LINEAR_COEF_MAX
 *   lin_totals        (negative for a pill's digits), totals within +-SK_LINEAR_TOTAL_MAX.
 *                     Propagated by bounds: each cell keeps the digits d whose coef * d lies
 *                     between the total minus the most and minus the least the other terms
 *                     can add (a full sum that fails empties a cell).
 *   ngroups,          groups: predicates over ordered lists of cells (sudokit.rules.primitives,
 *   group_kinds,      group_holds: the SK_GROUP_* codes below); group k holds the cells
 *   group_cell_ends,  group_cells[group_cell_ends[k-1] .. group_cell_ends[k] - 1] (1 ..
 *   group_cells,      SK_GROUP_MAX_CELLS distinct cells, in order) and the params
 *   group_param_ends, group_params[group_param_ends[k-1] .. group_param_ends[k] - 1]: none
 *   group_params      for RENBAN and BETWEEN, 1..4 digits in 1..n for QUADRUPLE, exactly one
 *                     value >= 0 for SANDWICH, XSUM and SKYSCRAPER, 1..16 totals >= 0 for SUM_IN.  A propagator removes a
 *                     digit only when no filling of the group's cells from their candidates
 *                     that holds uses it there, and a filled group that fails is a
 *                     contradiction (sk_props.h says how each kind reasons).
 *
 * A cage's sum propagates through its digit combinations: every set of |cage| distinct digits
 * with that sum is listed once, when the rules are set (per (size, sum), shared by the cages
 * that have the same), and a search keeps the sets still compatible with the cage's
 * candidates: their union bounds every cell, and a digit in all of them with one place left in
 * the cage goes there.  When a (size, sum) has more than SK_CAGE_COMBOS_MAX sets (large cages
 * on large grids), the cage propagates sum bounds instead (each cell between the sum minus the
 * most and minus the least the other cells can add).  Units add up to n(n+1)/2, so the core
 * also derives the "rule of 45" constraints once: the cells of a unit outside the cages lying
 * wholly inside it add up to the rest (innies), and the cells outside a unit of the cages that
 * cover it add up to their surplus (outies, by bounds: their digits may repeat).  Either way, a
 * full assignment that breaks a rule is a contradiction, so counts stay exact.
 */
typedef struct {
    uint32_t npairs;
    const uint16_t *pairs;
    const uint64_t *allowed;
    uint32_t nrelations;
    const uint16_t *rel_cells;
    const uint64_t *rel_tables;
    uint32_t ncages;
    const uint32_t *cage_ends;
    const uint16_t *cage_cells;
    const int32_t *cage_sums;
    uint32_t nlinear;
    const uint32_t *lin_ends;
    const uint16_t *lin_cells;
    const int32_t *lin_coefs;
    const int64_t *lin_totals;
    uint32_t ngroups;
    const uint8_t *group_kinds;
    const uint32_t *group_cell_ends;
    const uint16_t *group_cells;
    const uint32_t *group_param_ends;
    const int32_t *group_params;
} sk_rules;

/* The group kinds (the same codes as sudokit.rules.primitives.GroupKind). */
enum {
    SK_GROUP_RENBAN = 1,     /* distinct and consecutive, in any order (no params)          */
    SK_GROUP_BETWEEN = 2,    /* every inner cell strictly between the two ends (no params)  */
    SK_GROUP_QUADRUPLE = 3,  /* every listed digit appears, as often as listed (1-4 digits) */
    SK_GROUP_SANDWICH = 4,   /* the digits between the first 1 and the first n sum to p     */
    SK_GROUP_XSUM = 5,       /* the first x cells sum to p, x the first cell's digit        */
    SK_GROUP_SKYSCRAPER = 6, /* p cells are higher than every cell before them              */
    SK_GROUP_SUM_IN = 7,     /* the digits add up to one of the params (1-16 totals)        */
    SK_GROUP_KINDS = 7
};

/* Bounds of the linear sums' and groups' input (sk_geom_set_rules checks them). */
#define SK_LINEAR_COEF_MAX 1000000
#define SK_LINEAR_TOTAL_MAX ((int64_t)1 << 40)
#define SK_GROUP_MAX_CELLS 64
/* The most totals a SUM_IN group lists. */
#define SK_GROUP_SUM_IN_MAX 16

/* Most digit combinations listed for one (size, sum) of a cage; above, sum bounds are used. */
#define SK_CAGE_COMBOS_MAX 512

/*
 * sk_geom_set_rules -- attach variant rules to a geometry (see sk_rules), once, right after
 * sk_geom_new and before any workspace is made for g or any search uses it (the workspace is
 * sized for the rules).  The rules then hold in every sk_search and sk_reduce on g, and g
 * never takes the 9x9 fast path (sk_geom_is_standard9 returns 0).  An empty rule set (every
 * count 0, allowed NULL) is accepted and changes nothing but that.
 *
 * Returns SK_COMPLETE, SK_EINVAL (g or rules NULL, rules already set, a NULL array with a
 * nonzero count, a cell index >= ncells, a pair or relation of a cell with itself, an empty
 * cage or one of more than n cells, a cell twice in the cages, decreasing cage_ends, a sum
 * below -1 or above n(n+1)/2, a linear sum or group outside the contract above; g is then
 * unchanged) or SK_ENOMEM (g unchanged).
 */
int sk_geom_set_rules(sk_geom *g, const sk_rules *rules);

/* 1 when rules were attached to g (sk_geom_set_rules), else 0. */
int sk_geom_has_rules(const sk_geom *g);

/*
 * sk_work_new -- allocate a workspace for searches on geometry g (which must outlive it).
 * Memory is about ncells * (16 * n + 60) bytes (~4.5 MB for 64x64, ~80 KB for 16x16),
 * mostly the undo trail; it is touched only as deep as a search goes.
 * Returns NULL when out of memory.
 */
sk_work *sk_work_new(const sk_geom *g);

/* sk_work_free -- release a workspace (NULL is a no-op). */
void sk_work_free(sk_work *w);

/*
 * sk_search -- count the solutions of one puzzle up to a limit.
 *
 * g          geometry; w a workspace made for g (not used concurrently by another search).
 * cells      ncells values, each 0 (empty) or 1..n.  Values > n give SK_EINVAL.
 *            Conflicting givens are not an error: they give 0 solutions.
 * limit      stop after this many solutions; >= 1 (0 gives SK_EINVAL).
 * keep       how many of the first solutions to write; solutions must hold
 *            keep * ncells bytes (may be NULL when keep is 0).  Solutions are written in
 *            the order found, each as ncells digit values.
 * budget     maximum number of guesses (0 = unbounded).  A guess is one digit (or one
 *            cell) tried at a branching point, or one decision of the clause-learning
 *            search; the search gives up instead of making guess number budget + 1.
 * count      out: solutions found (<= limit); exact when SK_COMPLETE is returned and
 *            count < limit, and a lower bound when SK_GAVE_UP is returned.
 * guesses    out (may be NULL): guesses made.  A diagnostic: the fast 9x9 path counts
 *            its own way.
 * poll       NULL or a poll callback (see sk_poll_fn) called with poll_ctx.
 *
 * Returns SK_COMPLETE, SK_GAVE_UP, SK_STOPPED or SK_EINVAL.  Not validated: that w belongs to g and
 * that the buffers have the stated sizes.  Deterministic: the same input gives the same
 * result, solutions and guess count.
 */
int sk_search(const sk_geom *g, sk_work *w, const uint8_t *cells, uint64_t limit,
              uint64_t keep, uint8_t *solutions, uint64_t budget, uint64_t *count,
              uint64_t *guesses, sk_poll_fn poll, void *poll_ctx);

/*
 * sk_reduce -- the clue-removal pass of a generator, in one call.
 *
 * For each group k of cells, in order (group k is order[group_ends[k-1] .. group_ends[k]-1],
 * group 0 starts at 0): when no cell of the group holds a digit, skip it; otherwise clear
 * every cell of the group that holds a digit and count the solutions up to 2 with
 * sk_search (limit 2, the given guess budget).  Keep the group cleared when the search
 * completed with exactly 1 solution; otherwise restore its digits, and when the search
 * gave up, clear *decided.  No randomness: the caller chooses the order (groups are
 * typically the orbits of a symmetry, shuffled by a seeded RNG).
 *
 * g, w          as for sk_search (w not used concurrently by another call).
 * cells         in/out: ncells values 0..n, the puzzle; on return the reduced puzzle.
 *               When it had exactly one solution on entry, it has exactly that one on return.
 * order         group_ends[ngroups-1] cell indices (each < ncells; a cell may appear in
 *               several groups or twice in one); may be NULL when ngroups is 0.
 * group_ends    ngroups non-decreasing end offsets into order (an empty group is skipped).
 * budget        guess budget of each search (0 = unbounded), see sk_search.
 * max_searches  the most searches this call may make.  A group with a digit that would
 *               need search number max_searches + 1 stops the pass: SK_GAVE_UP is returned
 *               with that group and all later ones untouched.  Pass ngroups for no cap.
 * searches      out: searches made (each group with a digit costs exactly one).
 * decided       out: 1 when no search gave up, i.e. every group that was kept was proven
 *               necessary (unique count of 2 or 0 solutions); 0 otherwise.
 * poll          NULL or a poll callback, passed to every search and also called every
 *               SK_REDUCE_POLL_EVERY searches; when it stops a search, that group is
 *               restored and SK_STOPPED is returned (the puzzle is then as the groups before
 *               it left it).
 *
 * Returns SK_COMPLETE (every group visited), SK_GAVE_UP (max_searches reached; *searches ==
 * max_searches), SK_STOPPED or SK_EINVAL (a NULL pointer, a cell value > n, an order entry
 * >= ncells,
 * decreasing group_ends; cells is then unchanged).  Deterministic, reentrant, no allocation.
 */
int sk_reduce(const sk_geom *g, sk_work *w, uint8_t *cells, const uint16_t *order,
              const uint32_t *group_ends, uint32_t ngroups, uint64_t budget,
              uint64_t max_searches, uint64_t *searches, int *decided, sk_poll_fn poll,
              void *poll_ctx);

/* Searches of sk_reduce between two calls of its poll callback. */
#define SK_REDUCE_POLL_EVERY 64

#ifdef __cplusplus
}
#endif

#endif /* SK_SOLVER_H */
