/* sk_alt.h: the searches of the named alternating chains of explanations: X-Chain, XY-Chain
 * and AIC (sudokit.logic.chains, whose _alt_found is the specification; in C because they
 * were the largest part of what `explain` spends beyond `rate` on hard puzzles).
 *
 * From every "off" potential (a candidate assumed false) a breadth-first search alternates
 * strong links (off -> on) and weak links (on -> off) of the kind's link types; each chain of
 * at least three strong links whose ends remove something is kept, the shortest one for each
 * set of eliminations (the first found of equal length).  The links are built here from the
 * masks in SE's order (chaining.Links: a cell's boxes, then its rows and columns, then its
 * other units); the pair relations of variant rules are not (the binding's caller keeps the
 * Python search for an AIC on a shape that has them).
 *
 * Pure C (no Python.h), reentrant: reads the geometry and the state it is given, writes only
 * into the caller's hit list.  Grids of at most 64 digits (the masks' words).
 *
 * Potentials: p = 2 * (cell * n + d) + on, d the 0-based digit, on 1 for "is d", 0 for "is
 * not d" (chaining.py's encoding).
 */
#ifndef SK_ALT_H
#define SK_ALT_H

#include "sk_human.h"

/* sk_alt_chains: kind 0 X-Chain, 1 XY-Chain, 2 AIC.  Each kept chain is one hit of width
 * 2 + the longest path's potentials: (links, potentials, p0, p1, ..., 0 padding), p0 the start
 * ("A is false"), the last one "B is true", in the order the search kept them (the caller
 * sorts them by length and eliminations).  0, or -1 without memory (out->v may hold a partial
 * list; the caller frees it). */
int sk_alt_chains(const sk_human_geom *g, const uint64_t *masks, int kind, sk_hits *out);

#endif
