/*
 * sk_canon.h - the canonical (minlex) form of a standard 9x9 grid, for the C core.
 *
 * Pure C99 plus one GCC/Clang builtin (ctz): no Python.h, no writable globals, no I/O, no
 * RNG. Reentrant: every call allocates and frees its own workspace.
 *
 * The definition is the one of sudokit.transform.canonical (the Python code is the
 * specification; tests compare the two bit for bit): of all grids equivalent to the input
 * under transposition, band orders, row-in-band orders, stack orders and column-in-stack
 * orders, each with its digits relabelled 1, 2, 3, ... in order of first appearance, the one
 * whose 81 cells read row by row (an empty cell as 0) are lexicographically smallest.
 */
#ifndef SK_CANON_H
#define SK_CANON_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Return codes (the same values as the SK_* codes of sk_solver.h). */
enum {
    SK_CANON_OK = 0,      /* out holds the canonical form                      */
    SK_CANON_EINVAL = -1, /* cells or out is NULL, or a cell value exceeds 9   */
    SK_CANON_ENOMEM = -2  /* out of memory, or a level of more than 2^24
                             candidates (out is left untouched)               */
};

/*
 * sk_canon9 - the canonical form of one standard 9x9 grid.
 *
 * cells  81 values, row-major (cell = row * 9 + col), 0 = empty, 1..9 = digit. Any such
 *        array is accepted, also one with conflicting digits: the result is then what the
 *        Python specification computes for it (a digit repeated in a row takes a second,
 *        unused label, so values above 9 can appear; the Python wrapper rejects those).
 * out    81 bytes: receives the canonical form (values 0..81). May not overlap cells.
 *
 * Returns SK_CANON_OK, SK_CANON_EINVAL (nothing written) or SK_CANON_ENOMEM.
 * Not validated: that cells and out really hold 81 bytes (the length is the caller's).
 * Cost: tens of microseconds for a typical puzzle; complete grids and grids with very few
 * clues keep more candidates alive (up to a few milliseconds).
 */
int sk_canon9(const uint8_t *cells, uint8_t *out);

#ifdef __cplusplus
}
#endif

#endif /* SK_CANON_H */
