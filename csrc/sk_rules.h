/*
 * sk_rules.h -- the variant-rule compiler of the generic search (internal to the C core).
 *
 * The search (sk_solver.c) knows five kinds of rule tables and one propagator each: peers
 * (naked-single eliminations), arcs (binary support tables kept arc-consistent), sum
 * constraints (digit sets, or sum bounds), linear sums (bounds) and groups (predicates over
 * ordered cells, sk_props.h).  This compiler turns the rule lists of sk_rules (sk_solver.h:
 * extra pairs, allowed digits, relations, cages, linear sums, groups) into those tables once per
 * geometry, so that the search only reads flat arrays.  A new constraint kind lands here: it
 * compiles to the tables that exist (a relation between two cells is an arc, a sum is a sum
 * constraint, an all-different set is extra peers), and only a kind that none of them can
 * express adds a table to sk_rule_tables, a watch bit, and its propagator in sk_solver.c.
 *
 * Contract.  sk_rules_compile reads a shape (sk_rules_shape, borrowed: never written, not kept)
 * and a rule set (borrowed: every array is copied), and allocates everything it returns.  It
 * is pure (no globals, no I/O) and reentrant: calls on different shapes, or on the same one,
 * may run concurrently.  The tables it returns are immutable afterwards; any number of
 * searches may read them at once.
 */
#ifndef SK_RULES_H
#define SK_RULES_H

#include <stdint.h>

#include "sk_solver.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The shape the rules are compiled for: the geometry's own arrays (sk_solver.c), borrowed. */
typedef struct {
    int n;                      /* digits per unit, 1..SK_MAX_N */
    int ncells;                 /* n * n */
    int nunits;                 /* >= 1 */
    const uint16_t *units;      /* [nunits * n]: cells of unit u are units[u*n .. u*n + n-1] */
    const uint32_t *peer_start; /* [ncells + 1]: CSR index into peers */
    const uint16_t *peers;      /* cell c's peers (sharing a unit with c, c excluded) */
} sk_rules_shape;

/* What a cell is watched by: when its mask changes the search queues it for these rules
 * (SK_WATCH_CAGE: the constraints of cell_sums, i.e. sum constraints, linear sums, groups). */
enum { SK_WATCH_ARCS = 1, SK_WATCH_CAGE = 2 };

/*
 * The compiled tables (all arrays owned by the struct, freed by sk_rules_free):
 *
 *   allowed    [ncells]          digits each cell may hold (full when the rule set has none)
 *   watch      [ncells]          SK_WATCH_ARCS: the cell has arcs; SK_WATCH_CAGE: it is in a
 *                                sum constraint (the search's dirty rings, sk_solver.c)
 *   arc_start  [ncells + 1]      CSR: cell a's arcs are arc_start[a] .. arc_start[a+1]-1
 *   arc_to     [narcs]           the other cell b of each arc
 *   arc_table  [narcs * n]       arc_table[k*n + x] = digits b may hold when a holds x + 1
 *                                (both directions stored, merged per ordered pair; arcs that
 *                                restrict nothing dropped)
 *   cage_start [ncages + 1]      CSR into cage_cells: the sum constraints, i.e. the summed
 *                                cages (a cage without a sum is only its cells' extra peers),
 *                                then the innies and outies of the units ("rule of 45")
 *   cage_sum   [ncages]          the sum
 *   combo_off, combo_len         constraint k's digit sets: combos[combo_off[k] ..] (len
 *              [ncages]          entries), shared by those of the same (size, sum); bounds[k]
 *                                = 1: sum bounds instead (too many sets, or digits that may
 *                                repeat: outies)
 *   lin_start  [nlinear + 1]     CSR into lin_cells / lin_coefs: the linear sums, as given
 *   lin_total  [nlinear]         their totals
 *   group_start [ngroups + 1]    CSR into group_cells / group_before: the groups, as given;
 *   group_kind [ngroups]         their SK_GROUP_* kinds and params (CSR param_start into
 *                                group_params); group_before[j] = the positions i < j of the
 *                                same group whose cells are peers of cell j (merged peers)
 *   group_scratch                the scratch words the largest group's propagator needs
 *   cell_sums_start [ncells + 1] CSR: the constraints of cell c are
 *   cell_sums                    cell_sums[cell_sums_start[c] .. cell_sums_start[c+1]-1], one
 *                                index space for the search's constraint ring: 0 .. ncages-1
 *                                the sum constraints, then the linear sums (ncages + k), then
 *                                the groups (ncages + nlinear + k); nconstraints in all
 *   imp_start  [ncells * n + 1]  CSR: what cell a holding digit x + 1 takes from other cells
 *   imp_to, imp_drop             through its arcs: imp_to[j] loses imp_drop[j] (the digits the
 *                                arc's table forbids), j in imp_start[a*n + x] ..; NULL unless
 *                                peer_bits and the rules have arcs (the search's locked places)
 *   seen_by    [ncells * words]  cell c's peers (after merging) as a bit set, for the search's
 *                                shared-peers test; NULL unless asked for and the rules add
 *                                peers
 *
 *   e.g. a 2-cell cage of sum 4 on 9x9: combos = { 0b0101 } (1 + 3), so both cells keep {1, 3}.
 */
typedef struct {
    uint64_t *allowed;
    uint8_t *watch;
    uint32_t *arc_start;
    uint16_t *arc_to;
    uint64_t *arc_table;
    uint32_t *cell_sums_start;
    uint32_t *cell_sums;
    uint32_t *imp_start;
    uint16_t *imp_to;
    uint64_t *imp_drop;
    uint64_t *seen_by;
    uint32_t words; /* 64-bit words per bit set of seen_by: (ncells + 63) / 64 */
    uint32_t ncages;
    uint32_t *cage_start;
    uint16_t *cage_cells;
    int32_t *cage_sum;
    uint32_t *combo_off;
    uint32_t *combo_len;
    uint8_t *bounds;
    uint64_t *combos;
    uint32_t nlinear;
    uint32_t *lin_start;
    uint16_t *lin_cells;
    int32_t *lin_coefs;
    int64_t *lin_total;
    uint32_t ngroups;
    uint8_t *group_kind;
    uint32_t *group_start;
    uint16_t *group_cells;
    uint64_t *group_before;
    uint32_t *param_start;
    int32_t *group_params;
    size_t group_scratch;
    uint32_t nconstraints; /* ncages + nlinear + ngroups */
} sk_rule_tables;

/*
 * sk_rules_compile -- compile rules (contract of sk_rules in sk_solver.h) for shape.
 *
 * peer_bits   nonzero: also build seen_by when the rules add peers (pairs or cages), and the
 *             implications of the arcs (imp_start ..) when there are arcs.
 * out         receives the tables (free with sk_rules_free).
 * peer_start, receive the shape's peers merged with the rules' extra pairs and cage mates, as
 * peers       a new CSR (each cell's own peers first, in their order, then the new partners,
 *             deduplicated); malloc'd, owned by the caller, meant to replace the shape's own.
 *
 * Returns SK_COMPLETE, SK_EINVAL (rules outside the contract of sk_geom_set_rules) or
 * SK_ENOMEM; on failure nothing is allocated and the outputs are untouched.
 */
int sk_rules_compile(const sk_rules_shape *shape, const sk_rules *rules, int peer_bits,
                     sk_rule_tables **out, uint32_t **peer_start, uint16_t **peers);

/* sk_rules_free -- release compiled tables (NULL is a no-op). */
void sk_rules_free(sk_rule_tables *t);

#ifdef __cplusplus
}
#endif

#endif /* SK_RULES_H */
