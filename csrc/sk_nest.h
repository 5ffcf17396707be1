/*
 * sk_nest.h -- the rules Sudoku Explainer applies inside a stuck dynamic forcing chain of
 * nesting level >= 1 ("(+)": pointing/claiming, hidden pairs, naked pairs, X-Wings), in C.
 *
 * Pure C (no Python.h, no globals, no I/O): reentrant, all state in one sk_inchain per shape
 * (its scratch arrays make one object usable by one thread at a time).  The Python code in
 * src/sudokit/logic/inchain.py (`locking`, `hidden_pairs`, `naked_pairs`, `x_wings`,
 * `BASIC_RULES`) is the specification: the same patterns in the same order with the same
 * parents (tests/test_nest_c.py holds both to that).
 *
 * Potentials use the Python encoding (sk_chain.h): an "off" potential of digit d (0-based) in
 * cell is 2 * (cell * n + d).
 */
#ifndef SK_NEST_H
#define SK_NEST_H

#include <stdint.h>

#include "sk_chain.h"

/* Shape tables, in SE's orders (copied by sk_inchain_init; not validated here: the binding
 * checks every index and that every unit holds exactly n cells, n <= 64):
 *   units: unit u is cells unit_cells[unit_start[u] .. unit_start[u] + n);
 *   lock: nlock (u, v) pairs of crossing units, pointing then claiming order
 *         (inchain._locking_pairs);
 *   se: nse units for hidden and naked pairs (inchain._se_units);
 *   rows, cols: the n row units and the n column units, top to bottom / left to right. */
typedef struct {
    int n, ncells, nunits;
    const int32_t *unit_start, *unit_cells;
    int nlock;
    const int32_t *lock;
    int nse;
    const int32_t *se;
    const int32_t *rows, *cols;
} sk_inchain_geom;

typedef struct {
    int n, ncells, nunits, nlock, nse;
    int32_t *ucells;   /* nunits * n cells */
    int32_t *lock;     /* 2 * nlock */
    uint64_t *lock_in; /* per pair: positions of u inside v, positions of v inside u */
    int32_t *se, *rows, *cols;
    uint64_t *pos;     /* scratch: per (unit, digit) the positions holding it */
} sk_inchain;

/* Copies the tables.  0, or -1 when out of memory (then nothing is held). */
int sk_inchain_init(sk_inchain *r, const sk_inchain_geom *g);
void sk_inchain_free(sk_inchain *r);

/* The removals of the first basic rule from rule *first* on that finds any
 * (inchain.BASIC_RULES: 0 = locking, 1 = hidden pairs, 2 = naked pairs, 3 = X-Wings) on the chain's candidates *masks* because
 * of removals the chain made from *save* (ncells masks each; masks[c] a subset of save[c]).
 * Appends to *out one record per removal, in the Python's order:
 *     "off" potential removed, k, its k parents (the chain's removals it relies on)
 * Returns the rule's index, -1 when none finds anything, -2 when out of memory. */
int sk_inchain_find(sk_inchain *r, const uint64_t *save, const uint64_t *masks, int first,
                    sk_chain_out *out);

/* forcing._nested_rule on chainer c (a record chainer of the state inside the outer chain:
 * multiple = 1 with y = 1, dynamic = 0 for multiple forcing chains, y = dynamic = 1 for
 * dynamic ones), the outer chain having started from *save*; shape: the shape's unit tables.
 * For each hint sk_chainer_all keeps (SE's order, one per distinct set of removals), its
 * branches are run again, their chains read back breadth first (forcing._hint_chains) and
 * their rule parents collected (forcing._rule_parents); a hint with none is dropped.
 * Appends to *out per hint kept:
 *     complexity, k, its k removals, np, its np rule parents, nchains, then per chain
 *     L and its L potentials (the nested chain's identity, forcing._FullChain)
 * 0, -1 when out of memory, -2 when a unit has more than 64 cells. */
int sk_nest_rule(sk_chainer *c, const sk_inchain *shape, int multiple,
                 const int32_t sort_keys[4], const uint64_t *save, sk_chain_out *out);

#endif
