/* sk_human.h: the searches of the cheap human techniques of the rating path (in C because
 * they took 41% of the rating CPU of 1,000 random puzzles in Python).
 *
 * Singles, SE's "direct" techniques, intersections, naked and hidden subsets, basic fish and
 * XY/XYZ-Wings, searched over one candidate state.  Each search writes its *hits* (the few
 * integers that identify a step: a unit and a cell, a crossing and a digit, ...) in exactly the
 * order the Python finders of sudokit.logic (singles.py, intersections.py, subsets.py, fish.py,
 * wings.py) yield their steps; Python builds the Step (text, eliminations, highlights) of a
 * hit only when the path asks for it.  The Python searches are the specification
 * (tests/test_human_c.py holds the two equal).
 *
 * Pure C (no Python.h), reentrant: every function reads an immutable geometry and the state it
 * is given and writes only into the caller's hit buffer.  Nothing here validates indices: the
 * binding (sk_module.c, HumanShape) checks every table once when it builds the geometry.
 *
 * Data layout (all tables CSR: start[i] .. start[i + 1] indexes items):
 *
 *     units      ustart[nunits + 1], ucells[]   cells of each unit, in the shape's order
 *     kind[u]    an id per unit kind (row, column, box, ...); box[u] = 1 for a box or region
 *     peers      pstart[ncells + 1], peers[]    the shape's peers of each cell, in its order
 *     cell_units cstart[ncells + 1], cunits[]   the units holding each cell
 *     cross[p]   ncross[p] pairs (base, cover): p = 1 pointing (a box base), 0 claiming
 *
 *     masks[c]   bit d - 1 set when digit d is a candidate of cell c (0 for a solved cell)
 *     values[c]  the digit placed in c, 0 when empty (only the Full House reads it)
 */
#ifndef SK_HUMAN_H
#define SK_HUMAN_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    int n, ncells, nunits;
    const int32_t *ustart, *ucells;
    const int32_t *kind;
    const uint8_t *box;
    const int32_t *pstart, *peers;
    const int32_t *cstart, *cunits;
    int32_t ncross[2];
    const int32_t *cross[2];
} sk_human_geom;

/* A growable list of hits, `width` 64-bit fields each; `limit` > 0 stops a search once it
 * holds that many hits (0: every hit). */
typedef struct {
    uint64_t *v;
    size_t len, cap; /* in fields */
    int width;
    size_t limit;
} sk_hits;

/* The searches.  Each appends its hits to *out (whose width it sets) and returns 0, or -1 when
 * memory ran out or out->limit hits are held (the hits so far stay valid, the first ones of
 * the search; the caller frees out->v with free()).
 *
 *   sk_full_house      (unit, cell, digit)            units with one empty cell (SE 1.0)
 *   sk_hidden_singles  (unit, cell, digit)            boxes when `boxes`, else the other units
 *   sk_naked_singles   (cell, digit)
 *   sk_locks           (crossing, digit)              crossing: index into g->cross[pointing]
 *   sk_direct_locks    (crossing, digit, unit, cell)  the single the lock leaves in `unit`
 *   sk_naked_sets      (unit, digits, c1 .. ck)
 *   sk_hidden_sets     (unit, digits, c1 .. ck)       `direct`: SE's looser size condition
 *   sk_direct_hidden   (unit, digits, digit, cell, c1 .. ck)
 *   sk_fish            (digit, by_rows, base lines, cover lines)   line sets as bit masks
 *   sk_wings           (pivot, a, b, z)               XYZ-Wings when `xyz`, else XY-Wings
 *   sk_als_xz          (unit A, size A, A's 4 cells, unit B, size B, B's 4 cells, x, z)
 *                      two almost locked sets of up to 4 cells (cells past the size are 0),
 *                      x their restricted common, z the digit removed (als.py); only for
 *                      grids of at most SK_ALS_MAX_CELLS cells (the binding checks it)
 *   sk_finned_fish     (digit, by_rows, base lines, cover lines)   finned fish of size k
 *   sk_two_links       (digit, u1, a, b, u2, c, e)    strong links a=b in u1 and c=e in u2, b
 *                      seeing c: pattern 0 Skyscraper, 1 2-String Kite, 2 Turbot Fish
 *   sk_empty_rectangles (box, digit, row, column, end, end, link unit, target)
 *   sk_w_wings         (a, b, x, y, unit, end, end)
 *   sk_colouring       (digit, start, what): Simple Colouring, what 0 / 1 a wrap of colour
 *                      A / B, 2 a trap; or the one hit (0, 0, 0) (see sk_human.c)
 *
 * The last four (single_digit.py, wings.w_wing) are techniques SE lacks, searched for the
 * explanations; their rows, columns and boxes are units 0 .. 3n - 1 in Shape's order.
 *
 * k is 2..4 for the sets and fish (the binding checks it). */
int sk_full_house(const sk_human_geom *g, const uint64_t *masks, const uint8_t *values,
                  sk_hits *out);
int sk_hidden_singles(const sk_human_geom *g, const uint64_t *masks, int boxes, sk_hits *out);
int sk_naked_singles(const sk_human_geom *g, const uint64_t *masks, sk_hits *out);
int sk_locks(const sk_human_geom *g, const uint64_t *masks, int pointing, sk_hits *out);
int sk_direct_locks(const sk_human_geom *g, const uint64_t *masks, int pointing, sk_hits *out);
int sk_naked_sets(const sk_human_geom *g, const uint64_t *masks, int k, sk_hits *out);
int sk_hidden_sets(const sk_human_geom *g, const uint64_t *masks, int k, int direct,
                   sk_hits *out);
int sk_direct_hidden(const sk_human_geom *g, const uint64_t *masks, int k, sk_hits *out);
int sk_fish(const sk_human_geom *g, const uint64_t *masks, int k, sk_hits *out);
int sk_wings(const sk_human_geom *g, const uint64_t *masks, int xyz, sk_hits *out);

/* The largest grid (cells) sk_als_xz searches: its cell sets are a few fixed words (16x16). */
#define SK_ALS_MAX_CELLS 256
int sk_als_xz(const sk_human_geom *g, const uint64_t *masks, sk_hits *out);
int sk_finned_fish(const sk_human_geom *g, const uint64_t *masks, int k, sk_hits *out);
int sk_two_links(const sk_human_geom *g, const uint64_t *masks, int pattern, sk_hits *out);
int sk_empty_rectangles(const sk_human_geom *g, const uint64_t *masks, sk_hits *out);
int sk_w_wings(const sk_human_geom *g, const uint64_t *masks, sk_hits *out);
int sk_colouring(const sk_human_geom *g, const uint64_t *masks, sk_hits *out);

#endif
