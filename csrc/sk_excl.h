/*
 * sk_excl.h -- Aligned Pair and Triple Exclusion (Sudoku Explainer 1.2.1, 6.2 and 7.5): the
 * search of the rating path, in C.
 *
 * Pure C (no Python.h, no globals, no I/O): reentrant; a geometry is read only after it is
 * built, and a search keeps all its state in memory of its own, freed before it returns.
 *
 * The Python code in src/sudokit/logic/exclusion.py (`_search`, `_removed`, `_allowed`,
 * `_twins`, `_candidates`) is the specification: this file tries the same sets of base cells
 * in the same order and finds the same removals, so the steps are identical (the Python
 * builds each Step from what is returned here; tests/test_exclusion_c.py holds both to that).
 *
 * The rule.  A *base* cell has at least two candidates, no peer with a single candidate and
 * at least one *excluder*: a peer with 2..degree candidates (degree 2: pairs, 3: triples).
 * Sets of base cells are walked as the Python walks them: pairs (a, b) of base cells in
 * ascending order, and for triples, at each pair, the third base cells c among the excluders
 * of a or b in ascending order, a set being tried once, at its first pair in that order.  A
 * set whose common excluders (peers of all its cells with 2..degree candidates) are fewer than
 * two is skipped.  A combination of candidates of the base cells is impossible when two base
 * cells that see each other take one digit, or when its digits cover every candidate of a
 * common excluder; a base candidate used by no possible combination is removed.
 *
 * Incremental search (logic/_delta.py): given the candidate masks `before` of a state on
 * which the same search found nothing, only the sets holding a cell whose mask changed, or
 * all seen by a changed cell that has (or had) 2..degree candidates, are tried: nothing else
 * decides what a set removes.  That holds only when no cell has a single candidate (base
 * cells depend on those); otherwise `before` is ignored and the whole grid is searched.
 */
#ifndef SK_EXCL_H
#define SK_EXCL_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Largest number of digits (candidate masks are uint64_t) and of cells. */
#define SK_EXCL_MAX_N 64
#define SK_EXCL_MAX_CELLS (SK_EXCL_MAX_N * SK_EXCL_MAX_N)

/* The peers of every cell, as cell bit sets: row c is peers[c * nwords .. (c + 1) * nwords),
 * bit (p % 64) of word (p / 64) set when p is a peer of c.  Built once per shape and only read
 * afterwards, so any number of searches may share it. */
typedef struct {
    int n, ncells, nwords;
    uint64_t *peers;
} sk_excl_geom;

/* Builds *g for an n-digit shape of ncells cells whose peers of cell c are
 * peer_cells[peer_start[c] .. peer_start[c + 1]).  Contract (checked by the binding): 1 <= n
 * <= SK_EXCL_MAX_N, 1 <= ncells <= SK_EXCL_MAX_CELLS, every listed peer in 0..ncells-1 and not c itself.
 * 0 on success; -1 when out of memory (then *g owns nothing). */
int sk_excl_geom_init(sk_excl_geom *g, int n, int ncells, const int32_t *peer_start,
                      const int32_t *peer_cells);

/* Frees what sk_excl_geom_init allocated (a zeroed or freed *g is fine). */
void sk_excl_geom_free(sk_excl_geom *g);

/* Most removals one step can have: every candidate of three base cells. */
#define SK_EXCL_MAX_ELIMS (3 * SK_EXCL_MAX_N)

/* One step: the base cells (ascending), their common excluders (ascending, in the caller's
 * buffer `excl` of at least ncells items), the removals (cell, digit 1..n) in the order of
 * the base cells then of the digits, and the cursor that resumes the search after it. */
typedef struct {
    int64_t cursor;
    int size; /* 2 or 3 base cells */
    int32_t cells[3];
    int32_t nexcl;
    int32_t *excl;
    int32_t nelim;
    int32_t elim_cell[SK_EXCL_MAX_ELIMS];
    int32_t elim_digit[SK_EXCL_MAX_ELIMS];
} sk_excl_step;

/* The next step of the search of `degree` (2 or 3) on the candidate masks `masks` (ncells
 * values, each below 2^n; 0 for a solved cell) after the step whose cursor is `cursor` (0:
 * from the start; otherwise a cursor this function returned for the same masks, degree and
 * before).  `before` is NULL (search everything) or the ncells masks of a state on which the
 * search found nothing (see above).  *local is set to 1 when no cell has a single candidate
 * (a state the caller may remember when the search finds nothing), else 0.
 * Returns 1 with *step filled in, 0 when there is no further step, -1 when out of memory. */
int sk_excl_next(const sk_excl_geom *g, const uint64_t *masks, const uint64_t *before,
                 int degree, int64_t cursor, sk_excl_step *step, int *local);

#ifdef __cplusplus
}
#endif

#endif /* SK_EXCL_H */
