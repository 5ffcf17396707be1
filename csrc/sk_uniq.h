/*
 * sk_uniq.h -- the uniqueness finders of the rating path in C: Unique Rectangles / Loops
 * (types 1-4, type 3 with naked and hidden sets) and the BUG cells.
 *
 * Pure C (no Python.h, no globals, no I/O): reentrant, all state in the caller's arguments
 * and in memory allocated per call.  The Python code in src/sudokit/logic/uniqueness.py is
 * the specification (`loops`, `_room`, `_is_deadly`, `_ur_finds` and the type finders,
 * `_bug_extras`); this file does the same steps in the same order, so the steps found, their
 * order and their eliminations are identical (tests/test_uniqueness_c.py holds both to that).
 * Only what a found step needs is reported: Python builds its text.
 */
#ifndef SK_UNIQ_H
#define SK_UNIQ_H

#include <stddef.h>
#include <stdint.h>

/* Longest loop searched, in cells (uniqueness.MAX_LOOP). */
#define SK_UNIQ_MAX_LOOP 12
/* Most digits: candidate masks are 64-bit (bit d - 1 = digit d). */
#define SK_UNIQ_MAX_N 64

/* Shape tables the caller owns (read only, valid for the call), all in the Python shape's
 * order: unit u is cells unit_cells[unit_start[u] .. unit_start[u + 1]); a cell's units are
 * cell_units[cell_start[cell] .. cell_start[cell + 1]) (shape.cell_units); kind[u] >= 0 the
 * unit's kind (equal ints = equal shape.unit_kinds); a cell's peers, ascending, are
 * peer_cells[peer_start[cell] .. peer_start[cell + 1]) (shape.peers, the cell excluded).
 * Not validated here: the binding checks every index is in range, that no unit lists a cell
 * twice (so a unit has at most ncells cells: the per-call scratch is sized so), that a cell
 * lists only units holding it, and 1 <= n <= SK_UNIQ_MAX_N. */
typedef struct {
    int n, ncells, nunits;
    const int32_t *unit_start, *unit_cells;
    const int32_t *cell_start, *cell_units;
    const int32_t *kind;
    const int32_t *peer_start, *peer_cells;
} sk_uniq_geom;

/* One step found (uniqueness._Find): the loop's cells in loop order and its digits pm; kind
 * 1..4, hidden = 1 for a type 3 with a hidden set; bonus: tenths added to the loop's rating;
 * unit (types 3 and 4, else -1); the group (type 1: the extra cell; type 2: the extra cells;
 * type 3: the set's other cells; type 4: the two extra cells) and digits (type 2: the extra
 * digit; type 3: the set's digits; type 4: the digit kept) as in the Python; the
 * eliminations as nelim (cell, digit) pairs, digits 1-based.  group and elims are offsets
 * into sk_uniq_out.ints. */
typedef struct {
    int32_t kind, hidden, bonus, unit, len;
    int32_t cells[SK_UNIQ_MAX_LOOP];
    uint64_t pm, digits;
    size_t group_at, elim_at;
    int32_t ngroup, nelim;
} sk_uniq_find;

/* The steps of one call, in the Python's order (zero-initialise; free with sk_uniq_out_free). */
typedef struct {
    sk_uniq_find *finds;
    size_t nfinds, cap;
    int32_t *ints;
    size_t nints, icap;
} sk_uniq_out;

/* Every unique rectangle / loop step on the candidates masks (ncells masks, 0 = solved), as
 * uniqueness._ur_finds(cg, delta): with changed == NULL a full search; else changed[cell] != 0
 * marks delta.cells and before[cell] (read at those cells only) delta.before.  Appends to
 * *out.  Returns 0, or -1 when memory ran out (*out then holds a prefix; free it). */
int sk_uniq_steps(const sk_uniq_geom *g, const uint64_t *masks, const uint8_t *changed,
                  const uint64_t *before, sk_uniq_out *out);

void sk_uniq_out_free(sk_uniq_out *out);

/* The BUG cells (uniqueness._bug_extras): 1 when masks hold a BUG pattern, extra[cell] (ncells
 * entries, written) then the extra digits of each cell (0 = not a BUG cell); 0 when not. */
int sk_uniq_bug_extras(const sk_uniq_geom *g, const uint64_t *masks, uint64_t *extra);

#endif
