/*
 * sk_cdcl.h -- a complete clause-learning search for the generic path (internal to the core).
 *
 * sk_solver.c's depth-first search hands a grid over to sk_cdcl when its first run stalls
 * (sk_solver.c, "Restarts"): on under-constrained big grids (36x36 with half its cells blank)
 * a depth-first search commits early to a branch with no solution that propagation cannot
 * refute until ~100 decisions deeper, and then thrashes below it.  Clause learning records why
 * each dead end failed and jumps back to the decision that caused it.
 *
 * Pure C99 plus the ctz/popcount builtins (sk_port.h): no Python.h, no globals, no I/O; all
 * state lives in one allocation per call, so calls are reentrant and thread-safe.
 */
#ifndef SK_CDCL_H
#define SK_CDCL_H

#include <stdint.h>

#include "sk_solver.h"

/* What sk_cdcl needs of a geometry (pointers into it; see sk_solver.c's layout comment). */
typedef struct {
    int n;                   /* digits per unit, 2..SK_MAX_N */
    int ncells;              /* n * n */
    int nunits;
    const uint16_t *units;   /* nunits * n cells */
    const uint32_t *cu_start; /* CSR: cell c's units are cu[cu_start[c] .. cu_start[c+1]) */
    const uint16_t *cu;
} sk_cdcl_shape;

/*
 * sk_cdcl -- count the solutions of a grid up to limit, completely (no rules but the units').
 *
 * cand       ncells candidate masks (digit d is bit d - 1), consistent with the units as a
 *            propagation left them: a cell with one candidate is placed and no peer holds
 *            that digit.  (Any masks are accepted: the search is exact for "every cell one of
 *            its candidates, every unit all different"; stale masks only cost time.)
 * limit      >= 1; keep, solutions as for sk_search (keep * ncells bytes, in the order found).
 * budget     most decisions (0 = none): SK_GAVE_UP instead of decision budget + 1.
 * count      out: solutions found (exact when SK_COMPLETE and count < limit).
 * decisions  out: decisions made (a guess, as sk_search counts them).
 * poll       NULL or called with poll_ctx every SK_CDCL_POLL_EVERY decisions; nonzero stops.
 *
 * Returns SK_COMPLETE, SK_GAVE_UP, SK_STOPPED or SK_ENOMEM (count then 0).  Deterministic:
 * the same input gives the same solutions and decision count.
 */
int sk_cdcl(const sk_cdcl_shape *s, const uint64_t *cand, uint64_t limit, uint64_t keep,
            uint8_t *solutions, uint64_t budget, uint64_t *count, uint64_t *decisions,
            sk_poll_fn poll, void *poll_ctx);

#define SK_CDCL_POLL_EVERY 1024u

/* Luby's sequence, sk_luby(0), sk_luby(1), ... = 1 1 2 1 1 2 4 1 1 2 1 1 2 4 8 ... (capped at
 * 2^40): the restart intervals of both searches. */
uint64_t sk_luby(uint64_t k);

#endif /* SK_CDCL_H */
