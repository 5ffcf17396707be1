/*
 * sk_props.h -- the propagators of the linear sums and groups (internal to the C core).
 *
 * The generic search (sk_solver.c) revises a linear sum or a group when one of its cells
 * changed; these functions say what each cell may keep, from the candidate masks alone, and
 * the search applies it.  They are pure (no globals, no allocation, no I/O) and reentrant:
 * every input is borrowed, every output and scratch buffer is the caller's.
 *
 * Contracts (the meaning is sudokit.rules.primitives: linear_holds, group_holds):
 *   - sound: a digit leaves a cell only when no filling of the constraint's cells from their
 *     candidates that obeys it uses that digit there;
 *   - complete on full cells: when every mask is a single digit, the result is "consistent"
 *     exactly when the filling obeys the constraint.
 * So a search that revises every constraint after each change counts exactly.
 */
#ifndef SK_PROPS_H
#define SK_PROPS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Linear sums, by bounds (as sudokit._reference._linear).  sk_linear_bounds sets *low and
 * *high to the least and the most sum(coefs[i] * digit) the masks m[cells[i]] allow (size
 * >= 1; |coef| <= SK_LINEAR_COEF_MAX) and returns 0 when total lies outside (or a mask is
 * empty: a contradiction), else 1.  sk_linear_keep is then the mask a cell of the sum with
 * mask m and coefficient coef keeps: its digits d with coef * d between total minus the most
 * and minus the least the other terms add (low and high from the masks before any change).
 */
int sk_linear_bounds(const uint64_t *m, const uint16_t *cells, const int32_t *coefs,
                     uint32_t size, int64_t total, int64_t *low, int64_t *high);
uint64_t sk_linear_keep(int n, uint64_t m, int32_t coef, int64_t total, int64_t low,
                        int64_t high);

/*
 * Linear sums, by supports (when bounds are not enough: digits may repeat, so a sum's digit
 * sets are not listed).  When the bounds of sk_linear_bounds span at most SK_LINEAR_SPAN_MAX
 * (high - low) and size <= SK_LINEAR_SUPPORT_CELLS, sk_linear_supports sets keep[i] to the
 * digits of cell i that some choice of the other cells' candidates completes to total
 * (exactly: the partial sums of the terms before i and after i as bit sets), and returns 0
 * when some cell keeps none (a contradiction), else 1.  Cells are taken as independent (two
 * cells that are peers may still be given the same digit here), so this is sound, and exact
 * for the sum alone.  Used by the search and sudokit._reference._linear alike.
 */
#define SK_LINEAR_SPAN_MAX 127
#define SK_LINEAR_SUPPORT_CELLS 64
int sk_linear_supports(const uint64_t *m, const uint16_t *cells, const int32_t *coefs,
                       uint32_t size, int64_t total, int64_t low, uint64_t *keep);

/* One group as the search holds it: kind SK_GROUP_*, size cells in order (1 ..
 * SK_GROUP_MAX_CELLS), its params, and before[i] = the positions j < i of the group whose
 * cells are peers of cell i (they never hold the same digit). */
typedef struct {
    int n;
    int kind;
    uint32_t size;
    uint32_t nparams;
    const int32_t *params;
    const uint64_t *before;
} sk_group;

/* Most fillings (the product of the cells' candidate counts) for which sk_group_keep lists
 * them all: the exact supports, peers included.  Above, only the kind's own reasoning. */
#define SK_GROUP_ENUM_MAX 8192

/*
 * sk_group_keep -- what each cell of a group keeps.  keep[0 .. size-1] holds the cells'
 * candidate masks on entry (in group order) and the masks they may keep on return (subsets).
 * The kind's own reasoning runs first, then, when the fillings left are at most
 * SK_GROUP_ENUM_MAX, their exact listing:
 *
 *   RENBAN      windows [lo, lo + size - 1] of consecutive digits that every cell can meet
 *               and whose every digit some cell holds: each cell keeps the digits of those
 *               windows; a digit in all of them with one place goes there.
 *   BETWEEN     the pairs of end digits for which every inner cell has a digit strictly
 *               between: the ends keep those digits, the inner cells what lies between.
 *   QUADRUPLE   a listed digit with as many places as it is listed goes to all of them; when
 *               the digits fill every cell, each cell keeps only them.
 *   SANDWICH    a dynamic programme along the line (state: before the first 1 or n, between
 *               them with the sum so far and, on a line of peers, the count of digits
 *               between, whose distinct digits must be able to make the sum; after them),
 *               forward and backward: a digit stays where some path through a consistent
 *               state uses it.
 *   XSUM        each first digit x that the next x - 1 cells can complete by bounds (on a
 *               line of peers, bounds of x - 1 distinct digits other than x): the first
 *               cell keeps those x, the cells inside their prefixes their bounds.
 *   SKYSCRAPER  the same programme over (tallest so far, count seen).
 *
 * scratch holds sk_group_scratch(...) words.  Returns 1 when consistent, 0 on contradiction
 * (no filling obeys the group; keep is then unspecified).
 */
int sk_group_keep(const sk_group *gr, uint64_t *keep, uint64_t *scratch);

/* The scratch words sk_group_keep needs for a group of this kind, size, params and peers
 * (before, as in sk_group). */
size_t sk_group_scratch(int n, int kind, uint32_t size, const int32_t *params,
                        uint32_t nparams, const uint64_t *before);

/* 1 when filled digits (1..n, size of them) obey the group, else 0 (group_holds). */
int sk_group_holds(int n, int kind, const uint8_t *digits, uint32_t size, const int32_t *params,
                   uint32_t nparams);

#ifdef __cplusplus
}
#endif

#endif /* SK_PROPS_H */
