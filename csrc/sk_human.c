/* sk_human.c: the searches of the cheap human techniques (see sk_human.h for the contract).
 *
 * Every search walks the state in the order of its Python specification (named above each
 * function), so that the hits come out in the order the Python finder yields its steps: units
 * in the shape's order, digits ascending, subsets and fish bases in itertools.combinations
 * order, wing pincers in the pivot's peer order.  Only the *search* is here: whether a pattern
 * eliminates something is decided, what it eliminates and how it reads is left to Python.
 *
 * Rejected: keeping a per-state table of places (unit x digit -> cells) across calls.  The
 * binding reads the masks afresh on every call (under a microsecond on 9x9), the searches
 * themselves take about as long, and a cache would need the Python working copy to say when
 * it changed, which its callers do not.
 */
#include "sk_human.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "sk_port.h"

#define POP(m) __builtin_popcountll(m)
#define CTZ(m) __builtin_ctzll(m)
#define MAXK 4

/* Appends one hit of out->width fields; 0, or -1 without memory or once out->limit hits are
 * held (the search then stops as on a failure: the caller tells them apart by the count). */
static int push(sk_hits *out, const uint64_t *fields) {
    const size_t w = (size_t)out->width;
    uint64_t *grown = sk_reserve(out->v, &out->cap, out->len + w, sizeof *grown, 16 * w);
    if (grown == NULL) return -1;
    out->v = grown;
    memcpy(out->v + out->len, fields, w * sizeof *fields);
    out->len += w;
    return out->limit && out->len >= out->limit * w ? -1 : 0;
}

/* The next k-combination of 0..m-1 after idx (lexicographic, as itertools.combinations);
 * 0 when idx was the last. */
static int next_comb(int *idx, int k, int m) {
    int i = k - 1;
    while (i >= 0 && idx[i] == i + m - k) i--;
    if (i < 0) return 0;
    idx[i]++;
    for (int j = i + 1; j < k; j++) idx[j] = idx[j - 1] + 1;
    return 1;
}

/* The start of a search over k of the count sets: where gets the indices i of the sets[i]
 * with 2 to k members, idx the first k-combination of them (for k_union and next_comb); returns
 * how many there are (fewer than k: no combination). */
static int k_first(const uint64_t *sets, int count, int k, int *where, int *idx) {
    int m = 0;
    for (int i = 0; i < count; i++)
        if (POP(sets[i]) >= 2 && POP(sets[i]) <= k) where[m++] = i;
    for (int j = 0; j < k; j++) idx[j] = j;
    return m;
}

/* The union of sets[where[idx[j]]] over the k indices of idx; *taken gets bit where[idx[j]]
 * of each set taken. */
static uint64_t k_union(const uint64_t *sets, const int *where, const int *idx, int k,
                        uint64_t *taken) {
    uint64_t uni = 0, bits = 0;
    for (int j = 0; j < k; j++) {
        uni |= sets[where[idx[j]]];
        bits |= (uint64_t)1 << where[idx[j]];
    }
    *taken = bits;
    return uni;
}

/* True when cell lies in unit u (read from the cell's own unit list). */
static int in_unit(const sk_human_geom *g, int cell, int u) {
    for (int32_t i = g->cstart[cell]; i < g->cstart[cell + 1]; i++)
        if (g->cunits[i] == u) return 1;
    return 0;
}

/* True when t is one of the peers of cell. */
static int is_peer(const sk_human_geom *g, int cell, int t) {
    for (int32_t i = g->pstart[cell]; i < g->pstart[cell + 1]; i++)
        if (g->peers[i] == t) return 1;
    return 0;
}

static uint64_t all_digits(int n) { return n >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << n) - 1; }

/* singles.full_house */
int sk_full_house(const sk_human_geom *g, const uint64_t *masks, const uint8_t *values,
                  sk_hits *out) {
    out->width = 3;
    const uint64_t full = all_digits(g->n);
    for (int u = 0; u < g->nunits; u++) {
        const int32_t *cells = g->ucells + g->ustart[u];
        const int len = g->ustart[u + 1] - g->ustart[u];
        if (len <= 1) continue;
        int zeros = 0, empty = -1;
        uint64_t placed = 0;
        for (int i = 0; i < len; i++) {
            const int v = values[cells[i]];
            if (v == 0) {
                if (zeros++ == 0) empty = cells[i];
            } else {
                placed |= (uint64_t)1 << (v - 1);
            }
        }
        if (zeros != 1) continue;
        const uint64_t missing = full & ~placed;
        if (POP(missing) != 1 || !(masks[empty] & missing)) continue;
        const uint64_t hit[3] = {(uint64_t)u, (uint64_t)empty, (uint64_t)CTZ(missing) + 1};
        if (push(out, hit)) return -1;
    }
    return 0;
}

/* singles._hidden_singles */
int sk_hidden_singles(const sk_human_geom *g, const uint64_t *masks, int boxes, sk_hits *out) {
    out->width = 3;
    for (int u = 0; u < g->nunits; u++) {
        const int32_t *cells = g->ucells + g->ustart[u];
        const int len = g->ustart[u + 1] - g->ustart[u];
        if (len <= 1 || (g->box[u] != 0) != (boxes != 0)) continue;
        uint64_t once = 0, twice = 0;
        for (int i = 0; i < len; i++) {
            twice |= once & masks[cells[i]];
            once |= masks[cells[i]];
        }
        for (uint64_t single = once & ~twice; single; single &= single - 1) {
            const uint64_t low = single & -single;
            int i = 0;
            while (!(masks[cells[i]] & low)) i++;
            const uint64_t hit[3] = {(uint64_t)u, (uint64_t)cells[i], (uint64_t)CTZ(low) + 1};
            if (push(out, hit)) return -1;
        }
    }
    return 0;
}

/* singles.naked_single */
int sk_naked_singles(const sk_human_geom *g, const uint64_t *masks, sk_hits *out) {
    out->width = 2;
    for (int c = 0; c < g->ncells; c++) {
        const uint64_t m = masks[c];
        if (m && !(m & (m - 1))) {
            const uint64_t hit[2] = {(uint64_t)c, (uint64_t)CTZ(m) + 1};
            if (push(out, hit)) return -1;
        }
    }
    return 0;
}

/* The digits (a mask) locked in crossing i of kind `pointing` with something to remove
 * (intersections.locks, for every crossing). */
static uint64_t locked_digits(const sk_human_geom *g, const uint64_t *masks, int pointing,
                              int32_t i) {
    const int base = g->cross[pointing][2 * i], cover = g->cross[pointing][2 * i + 1];
    uint64_t once = 0, twice = 0, outside = 0, removable = 0;
    for (int32_t j = g->ustart[cover]; j < g->ustart[cover + 1]; j++) {
        const int c = g->ucells[j];
        if (in_unit(g, c, base)) {
            twice |= once & masks[c];
            once |= masks[c];
        } else {
            removable |= masks[c];
        }
    }
    if (!twice) return 0;
    for (int32_t j = g->ustart[base]; j < g->ustart[base + 1]; j++)
        if (!in_unit(g, g->ucells[j], cover)) outside |= masks[g->ucells[j]];
    return twice & ~outside & removable;
}

/* intersections.locks (near = every cell) */
int sk_locks(const sk_human_geom *g, const uint64_t *masks, int pointing, sk_hits *out) {
    out->width = 2;
    for (int32_t i = 0; i < g->ncross[pointing]; i++)
        for (uint64_t locked = locked_digits(g, masks, pointing, i); locked;
             locked &= locked - 1) {
            const uint64_t hit[2] = {(uint64_t)i, (uint64_t)CTZ(locked) + 1};
            if (push(out, hit)) return -1;
        }
    return 0;
}

/* singles._direct_locks: for each lock, the units u of the base's kind (ascending, not base
 * or cover) holding a removed cell, where the digit has >= 2 places, exactly one outside the
 * cover, and a place among the removed cells. */
int sk_direct_locks(const sk_human_geom *g, const uint64_t *masks, int pointing, sk_hits *out) {
    out->width = 4;
    uint8_t *seen = calloc((size_t)g->nunits + 1, 1);
    if (seen == NULL) return -1;
    int rc = 0;
    for (int32_t i = 0; i < g->ncross[pointing] && rc == 0; i++) {
        const int base = g->cross[pointing][2 * i], cover = g->cross[pointing][2 * i + 1];
        for (uint64_t locked = locked_digits(g, masks, pointing, i); locked && rc == 0;
             locked &= locked - 1) {
            const uint64_t bit = locked & -locked;
            for (int32_t j = g->ustart[cover]; j < g->ustart[cover + 1]; j++) {
                const int c = g->ucells[j];
                if (!(masks[c] & bit) || in_unit(g, c, base)) continue; /* not removed */
                for (int32_t k = g->cstart[c]; k < g->cstart[c + 1]; k++) seen[g->cunits[k]] = 1;
            }
            for (int u = 0; u < g->nunits && rc == 0; u++) {
                if (!seen[u]) continue;
                seen[u] = 0;
                if (u == base || u == cover || g->kind[u] != g->kind[base]) continue;
                int pos = 0, left = 0, cell = -1, hits_removed = 0;
                for (int32_t j = g->ustart[u]; j < g->ustart[u + 1]; j++) {
                    const int c = g->ucells[j];
                    if (!(masks[c] & bit)) continue;
                    pos++;
                    if (!in_unit(g, c, cover)) {
                        left++;
                        cell = c;
                    } else if (!in_unit(g, c, base)) {
                        hits_removed = 1;
                    }
                }
                if (pos < 2 || left != 1 || !hits_removed) continue;
                const uint64_t hit[4] = {(uint64_t)i, (uint64_t)CTZ(bit) + 1, (uint64_t)u,
                                         (uint64_t)cell};
                rc = push(out, hit);
            }
        }
    }
    free(seen);
    return rc;
}

/* subsets.naked_sets */
int sk_naked_sets(const sk_human_geom *g, const uint64_t *masks, int k, sk_hits *out) {
    out->width = 2 + k;
    for (int u = 0; u < g->nunits; u++) {
        const int32_t *cells = g->ucells + g->ustart[u];
        const int len = g->ustart[u + 1] - g->ustart[u];
        int nempty = 0, nelig = 0, elig[64];
        for (int i = 0; i < len; i++) {
            const uint64_t m = masks[cells[i]];
            if (!m) continue;
            nempty++;
            if (POP(m) >= 2 && POP(m) <= k) elig[nelig++] = cells[i];
        }
        if (nempty < 2 * k || nelig < k) continue;
        int idx[MAXK];
        for (int j = 0; j < k; j++) idx[j] = j;
        do {
            uint64_t uni = 0;
            for (int j = 0; j < k; j++) uni |= masks[elig[idx[j]]];
            if (POP(uni) != k) continue;
            int elims = 0;
            for (int i = 0; i < len && !elims; i++) {
                const int c = cells[i];
                if (!(masks[c] & uni)) continue;
                int inside = 0;
                for (int j = 0; j < k; j++) inside |= elig[idx[j]] == c;
                elims = !inside;
            }
            if (!elims) continue;
            uint64_t hit[2 + MAXK] = {(uint64_t)u, uni};
            for (int j = 0; j < k; j++) hit[2 + j] = (uint64_t)elig[idx[j]];
            if (push(out, hit)) return -1;
        } while (next_comb(idx, k, nelig));
    }
    return 0;
}

/* The hidden sets of size k in unit u (subsets.hidden_sets for one unit), each passed to
 * emit(cells, ncells = k, digits) when it eliminates something; stops at emit's first
 * nonzero return and returns it. */
typedef int (*hidden_emit)(const sk_human_geom *g, const uint64_t *masks, int u,
                           const int *cells, int k, uint64_t digits, sk_hits *out);

static int hidden_in_unit(const sk_human_geom *g, const uint64_t *masks, int u, int k,
                          int direct, hidden_emit emit, sk_hits *out) {
    const int32_t *ucells = g->ucells + g->ustart[u];
    const int len = g->ustart[u + 1] - g->ustart[u];
    int empty[64], nempty = 0;
    for (int i = 0; i < len; i++)
        if (masks[ucells[i]]) empty[nempty++] = ucells[i];
    if (nempty <= (direct ? k : 2 * k)) return 0;
    uint64_t pos[64] = {0}; /* per digit - 1: its places, bit j = empty[j] */
    for (int j = 0; j < nempty; j++)
        for (uint64_t m = masks[empty[j]]; m; m &= m - 1) pos[CTZ(m)] |= (uint64_t)1 << j;
    int where[64], idx[MAXK];
    const int nwhere = k_first(pos, g->n, k, where, idx);
    if (nwhere < k) return 0;
    do {
        uint64_t digits;
        const uint64_t uni = k_union(pos, where, idx, k, &digits);
        if (POP(uni) != k) continue;
        int cells[MAXK], nc = 0, elims = 0;
        for (uint64_t b = uni; b; b &= b - 1) {
            cells[nc] = empty[CTZ(b)];
            elims |= (masks[cells[nc]] & ~digits) != 0;
            nc++;
        }
        if (!elims) continue;
        const int rc = emit(g, masks, u, cells, k, digits, out);
        if (rc) return rc;
    } while (next_comb(idx, k, nwhere));
    return 0;
}

static int emit_hidden(const sk_human_geom *g, const uint64_t *masks, int u, const int *cells,
                       int k, uint64_t digits, sk_hits *out) {
    (void)g;
    (void)masks;
    uint64_t hit[2 + MAXK] = {(uint64_t)u, digits};
    for (int j = 0; j < k; j++) hit[2 + j] = (uint64_t)cells[j];
    return push(out, hit);
}

/* singles._direct_hidden for one hidden set: each eliminated digit (ascending) left with a
 * single place in the unit outside the set. */
static int emit_direct(const sk_human_geom *g, const uint64_t *masks, int u, const int *cells,
                       int k, uint64_t digits, sk_hits *out) {
    uint64_t others = 0;
    for (int j = 0; j < k; j++) others |= masks[cells[j]] & ~digits;
    for (; others; others &= others - 1) {
        const uint64_t bit = others & -others;
        int left = 0, cell = -1;
        for (int32_t i = g->ustart[u]; i < g->ustart[u + 1]; i++) {
            const int c = g->ucells[i];
            if (!(masks[c] & bit)) continue;
            int inside = 0;
            for (int j = 0; j < k; j++) inside |= cells[j] == c;
            if (!inside) {
                left++;
                cell = c;
            }
        }
        if (left != 1) continue;
        uint64_t hit[4 + MAXK] = {(uint64_t)u, digits, (uint64_t)CTZ(bit) + 1, (uint64_t)cell};
        for (int j = 0; j < k; j++) hit[4 + j] = (uint64_t)cells[j];
        if (push(out, hit)) return -1;
    }
    return 0;
}

int sk_hidden_sets(const sk_human_geom *g, const uint64_t *masks, int k, int direct,
                   sk_hits *out) {
    out->width = 2 + k;
    for (int u = 0; u < g->nunits; u++)
        if (hidden_in_unit(g, masks, u, k, direct, emit_hidden, out)) return -1;
    return 0;
}

int sk_direct_hidden(const sk_human_geom *g, const uint64_t *masks, int k, sk_hits *out) {
    out->width = 4 + k;
    for (int u = 0; u < g->nunits; u++)
        if (hidden_in_unit(g, masks, u, k, 1, emit_direct, out)) return -1;
    return 0;
}

/* fish._lines: for each row (by_rows) or column, the mask of columns (rows) where the digit
 * `bit` can go. */
static void digit_lines(int n, const uint64_t *masks, uint64_t bit, int by_rows,
                        uint64_t *lines) {
    memset(lines, 0, (size_t)n * sizeof *lines);
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++)
            if (masks[r * n + c] & bit) {
                if (by_rows) lines[r] |= (uint64_t)1 << c;
                else lines[c] |= (uint64_t)1 << r;
            }
}

/* fish._basic_search (every digit) */
int sk_fish(const sk_human_geom *g, const uint64_t *masks, int k, sk_hits *out) {
    out->width = 4;
    const int n = g->n;
    for (int d = 0; d < n; d++) {
        const uint64_t bit = (uint64_t)1 << d;
        for (int by_rows = 1; by_rows >= 0; by_rows--) {
            uint64_t lines[64];
            digit_lines(n, masks, bit, by_rows, lines);
            int elig[64], idx[MAXK];
            const int nelig = k_first(lines, n, k, elig, idx);
            if (nelig < k) continue;
            do {
                uint64_t base;
                const uint64_t uni = k_union(lines, elig, idx, k, &base);
                if (POP(uni) != k) continue;
                int elims = 0;
                for (int line = 0; line < n && !elims; line++)
                    if (!(base >> line & 1)) elims = (lines[line] & uni) != 0;
                if (!elims) continue;
                const uint64_t hit[4] = {(uint64_t)d + 1, (uint64_t)by_rows, base, uni};
                if (push(out, hit)) return -1;
            } while (next_comb(idx, k, nelig));
        }
    }
    return 0;
}

/* wings._wings */
int sk_wings(const sk_human_geom *g, const uint64_t *masks, int xyz, sk_hits *out) {
    out->width = 4;
    const int want = xyz ? 3 : 2;
    int maxdeg = 0;
    for (int c = 0; c < g->ncells; c++)
        if (g->pstart[c + 1] - g->pstart[c] > maxdeg) maxdeg = g->pstart[c + 1] - g->pstart[c];
    int *wings = malloc(((size_t)maxdeg + 1) * sizeof *wings);
    if (wings == NULL) return -1;
    int rc = 0;
    for (int pivot = 0; pivot < g->ncells && rc == 0; pivot++) {
        const uint64_t pm = masks[pivot];
        if (POP(pm) != want) continue;
        int nw = 0;
        for (int32_t i = g->pstart[pivot]; i < g->pstart[pivot + 1]; i++) {
            const int c = g->peers[i];
            if (POP(masks[c]) == 2 && (masks[c] & pm)) wings[nw++] = c;
        }
        for (int i = 0; i < nw && rc == 0; i++) {
            const int a = wings[i];
            const uint64_t am = masks[a];
            for (int j = i + 1; j < nw && rc == 0; j++) {
                const int b = wings[j];
                const uint64_t bm = masks[b];
                uint64_t z;
                if (xyz) {
                    if ((am | bm) != pm || am == bm) continue;
                    z = am & bm;
                } else {
                    const uint64_t ax = am & pm, bx = bm & pm;
                    if (POP(ax) != 1 || POP(bx) != 1 || ax == bx) continue;
                    z = am & ~pm;
                    if (z != (bm & ~pm)) continue;
                }
                if (POP(z) != 1) continue;
                int elims = 0;
                for (int32_t t = g->pstart[a]; t < g->pstart[a + 1] && !elims; t++) {
                    const int c = g->peers[t];
                    if (c == pivot || c == b || !(masks[c] & z)) continue;
                    elims = is_peer(g, b, c) && (!xyz || is_peer(g, pivot, c));
                }
                if (!elims) continue;
                const uint64_t hit[4] = {(uint64_t)pivot, (uint64_t)a, (uint64_t)b,
                                         (uint64_t)CTZ(z) + 1};
                rc = push(out, hit);
            }
        }
    }
    free(wings);
    return rc;
}

/* ---------------------------------------------------------------------------------------- */
/* als.als_xz: ALS-XZ (not an SE rule; searched by hints and explanations).                  */

/* A cell set of a grid of at most SK_ALS_MAX_CELLS cells. */
typedef struct {
    uint64_t w[SK_ALS_MAX_CELLS / 64];
} cellset;

/* An almost locked set: its unit, cells (in the unit's order), digits, cell set, and for each
 * of its digits (slot s: digit ds[s], 0-based; the slots follow the digits up) the cells
 * holding it, the cells seeing all of those, and of these the ones outside the set that hold
 * the digit (where an elimination of it can be). */
typedef struct {
    int unit, size;
    int cells[4];
    uint64_t digits;
    cellset set;
    int nd;
    int ds[5];
    cellset where[5], seen[5], reach[5];
} als;

static int set_any(const cellset *a, int words) {
    for (int i = 0; i < words; i++)
        if (a->w[i]) return 1;
    return 0;
}

/* The slot of digit d (0-based) in a, which holds it: the digits of a below d. */
static int slot(const als *a, int d) { return POP(a->digits & (((uint64_t)1 << d) - 1)); }

/* Position of cell in unit u, or -1. */
static int unit_pos(const sk_human_geom *g, int u, int cell) {
    for (int32_t i = g->ustart[u]; i < g->ustart[u + 1]; i++)
        if (g->ucells[i] == cell) return (int)(i - g->ustart[u]);
    return -1;
}

/* True when the cells (in unit u's order) were already taken from an earlier unit: als.py's
 * find_als keeps each tuple of cells once, from the first unit that enumerates it (a unit
 * holding them in the same order with enough empty cells for that size). */
static int als_seen(const sk_human_geom *g, const int *empty_count, int u, const int *cells,
                    int size) {
    for (int32_t k = g->cstart[cells[0]]; k < g->cstart[cells[0] + 1]; k++) {
        const int v = g->cunits[k];
        if (v >= u || size > 4 || size > empty_count[v] - 1) continue;
        int last = -1, ok = 1;
        for (int i = 0; i < size && ok; i++) {
            const int p = unit_pos(g, v, cells[i]);
            ok = p > last;
            last = p;
        }
        if (ok) return 1;
    }
    return 0;
}

/* Appends the ALS of cells to *list (growing it); 0, or -1 without memory.  peers: the cell
 * sets of sk_als_xz (each cell's peers, then the cells of each digit). */
static int als_push(als **list, size_t *len, size_t *cap, const sk_human_geom *g,
                    const uint64_t *masks, const cellset *peers, int words, int u,
                    const int *cells, int size, uint64_t digits) {
    const cellset *has = peers + g->ncells; /* has[d]: the cells holding digit d */
    als *grown = sk_reserve(*list, cap, *len + 1, sizeof **list, 256);
    if (grown == NULL) return -1;
    *list = grown;
    als *a = &grown[(*len)++];
    memset(a, 0, sizeof *a);
    a->unit = u;
    a->size = size;
    a->digits = digits;
    for (int i = 0; i < size; i++) {
        a->cells[i] = cells[i];
        a->set.w[cells[i] >> 6] |= (uint64_t)1 << (cells[i] & 63);
    }
    for (uint64_t m = digits; m; m &= m - 1) {
        const int d = CTZ(m), s = a->nd++;
        a->ds[s] = d;
        for (int i = 0; i < words; i++) a->seen[s].w[i] = ~(uint64_t)0;
        for (int i = 0; i < size; i++)
            if (masks[cells[i]] >> d & 1) {
                a->where[s].w[cells[i] >> 6] |= (uint64_t)1 << (cells[i] & 63);
                for (int j = 0; j < words; j++) a->seen[s].w[j] &= peers[cells[i]].w[j];
            }
        for (int i = 0; i < words; i++)
            a->reach[s].w[i] = a->seen[s].w[i] & has[d].w[i] & ~a->set.w[i];
    }
    return 0;
}

int sk_als_xz(const sk_human_geom *g, const uint64_t *masks, sk_hits *out) {
    assert(g->ncells <= SK_ALS_MAX_CELLS); /* the cell sets' fixed words */
    out->width = 14;
    const int words = (g->ncells + 63) / 64;
    cellset *peers = calloc((size_t)g->ncells + (size_t)g->n, sizeof *peers);
    int *empty_count = malloc((size_t)g->nunits * sizeof *empty_count);
    als *list = NULL;
    size_t len = 0, cap = 0;
    int *order = NULL;
    uint64_t *digits = NULL, *words_of = NULL;
    int rc = -1;
    if (peers == NULL || empty_count == NULL) goto done;
    cellset *has = peers + g->ncells; /* has[d]: the cells holding digit d */
    for (int c = 0; c < g->ncells; c++) {
        for (int32_t i = g->pstart[c]; i < g->pstart[c + 1]; i++)
            peers[c].w[g->peers[i] >> 6] |= (uint64_t)1 << (g->peers[i] & 63);
        for (uint64_t m = masks[c]; m; m &= m - 1)
            has[CTZ(m)].w[c >> 6] |= (uint64_t)1 << (c & 63);
    }
    for (int u = 0; u < g->nunits; u++) {
        int count = 0;
        for (int32_t i = g->ustart[u]; i < g->ustart[u + 1]; i++) count += masks[g->ucells[i]] != 0;
        empty_count[u] = count;
    }
    /* find_als: per unit, its empty cells' combinations of 1 .. min(4, empty - 1) cells */
    for (int u = 0; u < g->nunits; u++) {
        int empty[64], m = 0;
        for (int32_t i = g->ustart[u]; i < g->ustart[u + 1]; i++)
            if (masks[g->ucells[i]]) empty[m++] = g->ucells[i];
        for (int size = 1; size <= 4 && size <= m - 1; size++) {
            int idx[4], cells[4];
            for (int j = 0; j < size; j++) idx[j] = j;
            do {
                uint64_t digits = 0;
                for (int j = 0; j < size; j++) {
                    cells[j] = empty[idx[j]];
                    digits |= masks[cells[j]];
                }
                if (POP(digits) != size + 1 || als_seen(g, empty_count, u, cells, size)) continue;
                if (als_push(&list, &len, &cap, g, masks, peers, words, u, cells, size, digits))
                    goto done;
            } while (next_comb(idx, size, m));
        }
    }
    /* smaller sets first, each size in the order found (Python's stable sort) */
    order = malloc((len ? len : 1) * sizeof *order);
    /* the digits and cell words of the sets in that order, packed: the pair loop reads them
     * for every pair (and the rest of a set only for the few pairs that pass) */
    digits = malloc((len ? len : 1) * sizeof *digits);
    words_of = malloc((len ? len : 1) * (size_t)words * sizeof *words_of);
    if (order == NULL || digits == NULL || words_of == NULL) goto done;
    size_t k = 0;
    for (int size = 1; size <= 4; size++)
        for (size_t i = 0; i < len; i++)
            if (list[i].size == size) {
                digits[k] = list[i].digits;
                memcpy(words_of + k * (size_t)words, list[i].set.w,
                       (size_t)words * sizeof *words_of);
                order[k++] = (int)i;
            }
    rc = 0;
    for (size_t i = 0; i < len && rc == 0; i++) {
        const als *a = &list[order[i]];
        const uint64_t *acells = words_of + i * (size_t)words;
        for (size_t j = i + 1; j < len && rc == 0; j++) {
            const uint64_t common = digits[i] & digits[j];
            if (POP(common) < 2) continue;
            const uint64_t *bcells = words_of + j * (size_t)words;
            int overlap = 0;
            for (int t = 0; t < words; t++) overlap |= (acells[t] & bcells[t]) != 0;
            if (overlap) continue;
            const als *b = &list[order[j]];
            for (uint64_t xs = common; xs && rc == 0; xs &= xs - 1) {
                const int x = CTZ(xs);
                const int ax = slot(a, x), bx = slot(b, x);
                cellset off; /* the x cells of b that do not see every x of a */
                for (int t = 0; t < words; t++)
                    off.w[t] = b->where[bx].w[t] & ~a->seen[ax].w[t];
                if (set_any(&off, words)) continue;
                for (uint64_t zs = common & ~((uint64_t)1 << x); zs && rc == 0; zs &= zs - 1) {
                    const int z = CTZ(zs);
                    const int az = slot(a, z), bz = slot(b, z);
                    cellset target;
                    for (int t = 0; t < words; t++)
                        target.w[t] = a->reach[az].w[t] & b->reach[bz].w[t];
                    if (!set_any(&target, words)) continue;
                    uint64_t hit[14] = {0};
                    hit[0] = (uint64_t)a->unit;
                    hit[1] = (uint64_t)a->size;
                    hit[6] = (uint64_t)b->unit;
                    hit[7] = (uint64_t)b->size;
                    for (int c = 0; c < 4; c++) {
                        hit[2 + c] = c < a->size ? (uint64_t)a->cells[c] : 0;
                        hit[8 + c] = c < b->size ? (uint64_t)b->cells[c] : 0;
                    }
                    hit[12] = (uint64_t)x + 1;
                    hit[13] = (uint64_t)z + 1;
                    rc = push(out, hit);
                }
            }
        }
    }
done:
    free(peers);
    free(empty_count);
    free(list);
    free(order);
    free(digits);
    free(words_of);
    return rc;
}

/* The box (0 .. n - 1) of each cell, malloc'd (NULL without memory): the boxes are units
 * 2n .. 3n - 1 (Shape's order: rows, columns, boxes); a cell of none has box -1. */
static int *boxes_of(const sk_human_geom *g) {
    const int n = g->n;
    int *box_of = malloc((size_t)g->ncells * sizeof *box_of);
    if (box_of == NULL) return NULL;
    for (int c = 0; c < g->ncells; c++) box_of[c] = -1;
    for (int b = 0; b < n && 2 * n + b < g->nunits; b++)
        for (int32_t i = g->ustart[2 * n + b]; i < g->ustart[2 * n + b + 1]; i++)
            box_of[g->ucells[i]] = b;
    return box_of;
}

/* fish._finned_hits (every digit): finned X-Wings, Swordfish and Jellyfish of size k.  The
 * boxes are those of boxes_of; a cell of none has box -1, so a fin there matches no other. */
int sk_finned_fish(const sk_human_geom *g, const uint64_t *masks, int k, sk_hits *out) {
    out->width = 4;
    const int n = g->n;
    int *box_of = boxes_of(g);
    if (box_of == NULL) return -1;
    int rc = 0;
    for (int d = 0; d < n && rc == 0; d++) {
        const uint64_t bit = (uint64_t)1 << d;
        for (int by_rows = 1; by_rows >= 0 && rc == 0; by_rows--) {
            uint64_t lines[64];
            digit_lines(n, masks, bit, by_rows, lines);
            int elig[64], nelig = 0, idx[MAXK];
            for (int i = 0; i < n; i++)
                if (lines[i] && POP(lines[i]) <= k + 2) elig[nelig++] = i;
            if (nelig < k) continue;
            for (int j = 0; j < k; j++) idx[j] = j;
            do {
                uint64_t base;
                const uint64_t uni = k_union(lines, elig, idx, k, &base);
                const int size = POP(uni);
                if (size <= k || size > k + 2) continue;
                int pos[MAXK + 2], np = 0, cov[MAXK];
                for (uint64_t m = uni; m; m &= m - 1) pos[np++] = CTZ(m);
                for (int j = 0; j < k; j++) cov[j] = j;
                do {
                    uint64_t cover = 0;
                    for (int j = 0; j < k; j++) cover |= (uint64_t)1 << pos[cov[j]];
                    int box = -2; /* -2: no fin yet */
                    for (int j = 0; j < k && box != -3; j++) {
                        const int line = elig[idx[j]];
                        for (uint64_t m = lines[line] & ~cover; m; m &= m - 1) {
                            const int x = CTZ(m);
                            const int b = box_of[by_rows ? line * n + x : x * n + line];
                            if (box == -2) box = b;
                            else if (b != box) {
                                box = -3; /* fins in two boxes */
                                break;
                            }
                        }
                    }
                    if (box < 0) continue;
                    int elims = 0;
                    const int u = 2 * n + box;
                    for (int32_t i = g->ustart[u]; i < g->ustart[u + 1] && !elims; i++) {
                        const int c = g->ucells[i];
                        const int line = by_rows ? c / n : c % n, x = by_rows ? c % n : c / n;
                        elims = (masks[c] & bit) && (cover >> x & 1) && !(base >> line & 1);
                    }
                    if (!elims) continue;
                    const uint64_t hit[4] = {(uint64_t)d + 1, (uint64_t)by_rows, base, cover};
                    rc = push(out, hit);
                } while (rc == 0 && next_comb(cov, k, np));
            } while (rc == 0 && next_comb(idx, k, nelig));
        }
    }
    free(box_of);
    return rc;
}

/* The places of digit bit in unit u (cells in the unit's order) into cells; their count. */
static int places(const sk_human_geom *g, const uint64_t *masks, int u, uint64_t bit, int *cells) {
    int m = 0;
    for (int32_t i = g->ustart[u]; i < g->ustart[u + 1]; i++)
        if (masks[g->ucells[i]] & bit) cells[m++] = g->ucells[i];
    return m;
}

/* single_digit._kind: 0 Skyscraper, 1 2-String Kite, 2 Turbot Fish, for the strong links in
 * units u1 and u2 joined by b seeing c.  Units 0 and n are a row and a column (Shape's order),
 * so their kind ids name "row" and "column". */
static int two_link_kind(const sk_human_geom *g, const int *box_of, int u1, int u2, int b, int c) {
    const int n = g->n;
    const int32_t row = g->kind[0], col = g->kind[n], k1 = g->kind[u1], k2 = g->kind[u2];
    const int parallel = (k1 == row && b % n == c % n) || (k1 == col && b / n == c / n);
    if (k1 == k2 && parallel) return 0;
    if (((k1 == row && k2 == col) || (k1 == col && k2 == row)) && box_of[b] == box_of[c]) return 1;
    return 2;
}

/* single_digit._two_link_hits (every digit): the Skyscrapers (pattern 0), 2-String Kites (1)
 * or Turbot Fish (2).  A pattern is kept once per digit by its key (the ends' and the joint's
 * cell pairs), noted before its eliminations are looked at, as the Python does. */
int sk_two_links(const sk_human_geom *g, const uint64_t *masks, int pattern, sk_hits *out) {
    out->width = 7;
    int *box_of = boxes_of(g);
    int32_t *links = malloc(3 * ((size_t)g->nunits + 1) * sizeof *links);
    uint64_t *keys = NULL;
    size_t nkeys = 0, cap = 0;
    int rc = -1;
    if (box_of == NULL || links == NULL) goto done;
    rc = 0;
    for (int d = 0; d < g->n && rc == 0; d++) {
        const uint64_t bit = (uint64_t)1 << d;
        int nl = 0; /* strong_links: (unit, cell, cell) of the units with two places */
        for (int u = 0; u < g->nunits; u++) {
            int two[64];
            if (places(g, masks, u, bit, two) != 2) continue;
            links[3 * nl] = u;
            links[3 * nl + 1] = two[0];
            links[3 * nl + 2] = two[1];
            nl++;
        }
        nkeys = 0;
        for (int i = 0; i < nl && rc == 0; i++)
            for (int j = i + 1; j < nl && rc == 0; j++) {
                const int32_t *l1 = links + 3 * i, *l2 = links + 3 * j;
                if (l1[1] == l2[1] || l1[1] == l2[2] || l1[2] == l2[1] || l1[2] == l2[2]) continue;
                for (int s = 0; s < 2 && rc == 0; s++)
                    for (int t = 0; t < 2 && rc == 0; t++) {
                        const int a = l1[1 + s], b = l1[2 - s], c = l2[1 + t], e = l2[2 - t];
                        if (!is_peer(g, b, c)) continue;
                        if (two_link_kind(g, box_of, l1[0], l2[0], b, c) != pattern) continue;
                        const uint64_t key = (uint64_t)(a < e ? a : e) << 48 |
                                             (uint64_t)(a < e ? e : a) << 32 |
                                             (uint64_t)(b < c ? b : c) << 16 |
                                             (uint64_t)(b < c ? c : b);
                        size_t q = 0;
                        while (q < nkeys && keys[q] != key) q++;
                        if (q < nkeys) continue;
                        uint64_t *grown = sk_reserve(keys, &cap, nkeys + 1, sizeof *keys, 64);
                        if (grown == NULL) {
                            rc = -1;
                            break;
                        }
                        keys = grown;
                        keys[nkeys++] = key;
                        int elims = 0; /* a cell seeing a and e, not one of the four, holding d */
                        for (int32_t p = g->pstart[a]; p < g->pstart[a + 1] && !elims; p++) {
                            const int x = g->peers[p];
                            elims = x != a && x != b && x != c && x != e && (masks[x] & bit) &&
                                    is_peer(g, e, x);
                        }
                        if (!elims) continue;
                        const uint64_t hit[7] = {(uint64_t)d + 1, (uint64_t)l1[0], (uint64_t)a,
                                                 (uint64_t)b, (uint64_t)l2[0], (uint64_t)c,
                                                 (uint64_t)e};
                        rc = push(out, hit);
                    }
            }
    }
done:
    free(box_of);
    free(links);
    free(keys);
    return rc;
}

/* single_digit._er_links: the strong links of digit bit in a column (then a row) that make an
 * empty rectangle with the box's row r and column c; pushes (box, digit, r, c, the link's ends,
 * its unit, the target). */
static int er_links(const sk_human_geom *g, const uint64_t *masks, int box, int d, int r, int c,
                    sk_hits *out) {
    const int n = g->n;
    const uint64_t bit = (uint64_t)1 << d;
    for (int by_rows = 0; by_rows < 2; by_rows++)
        for (int x = 0; x < n; x++) {
            /* the line x: a column (unit n + x) first, then a row (unit x) */
            const int u = by_rows ? x : n + x;
            int two[64];
            if (places(g, masks, u, bit, two) != 2 || x == (by_rows ? r : c)) continue;
            for (int s = 0; s < 2; s++) {
                const int near = two[s], far = two[1 - s];
                int target;
                if (by_rows) {
                    if (near % n != c || in_unit(g, near, box) || far % n == c) continue;
                    target = r * n + far % n;
                } else {
                    if (near / n != r || in_unit(g, near, box) || far / n == r) continue;
                    target = (far / n) * n + c;
                }
                if (in_unit(g, target, box) || !(masks[target] & bit) || target == far) continue;
                const uint64_t hit[8] = {(uint64_t)box, (uint64_t)d + 1, (uint64_t)r, (uint64_t)c,
                                         (uint64_t)near, (uint64_t)far, (uint64_t)u,
                                         (uint64_t)target};
                if (push(out, hit)) return -1;
            }
        }
    return 0;
}

/* single_digit._er_hits (every digit): the empty rectangles, box by box, digits ascending, the
 * box's rows then columns ascending. */
int sk_empty_rectangles(const sk_human_geom *g, const uint64_t *masks, sk_hits *out) {
    out->width = 8;
    const int n = g->n;
    for (int b = 0; b < g->nunits; b++) {
        if (!g->box[b]) continue;
        for (int d = 0; d < n; d++) {
            int pos[64];
            const int np = places(g, masks, b, (uint64_t)1 << d, pos);
            if (np < 2) continue;
            uint64_t rows = 0, cols = 0;
            for (int i = 0; i < np; i++) {
                rows |= (uint64_t)1 << (pos[i] / n);
                cols |= (uint64_t)1 << (pos[i] % n);
            }
            if (POP(rows) == 1 || POP(cols) == 1) continue;
            for (uint64_t rs = rows; rs; rs &= rs - 1)
                for (uint64_t cs = cols; cs; cs &= cs - 1) {
                    const int r = CTZ(rs), c = CTZ(cs);
                    int off = 0; /* a place on neither line */
                    for (int i = 0; i < np && !off; i++) off = pos[i] / n != r && pos[i] % n != c;
                    if (!off && er_links(g, masks, b, d, r, c, out)) return -1;
                }
        }
    }
    return 0;
}

/* wings._w_wing_hits: pairs of bivalue cells a < b with the same two digits that do not see
 * each other, for each digit x of theirs (ascending) with y the other: when a cell seeing both
 * holds y, the first unit whose two places of x are neither cell and each see one of them. */
int sk_w_wings(const sk_human_geom *g, const uint64_t *masks, sk_hits *out) {
    out->width = 7;
    int *pairs = malloc(((size_t)g->ncells + 1) * sizeof *pairs), np = 0;
    if (pairs == NULL) return -1;
    for (int c = 0; c < g->ncells; c++)
        if (POP(masks[c]) == 2) pairs[np++] = c;
    int rc = 0;
    for (int i = 0; i < np && rc == 0; i++)
        for (int j = i + 1; j < np && rc == 0; j++) {
            const int a = pairs[i], b = pairs[j];
            if (masks[a] != masks[b] || is_peer(g, a, b)) continue;
            for (uint64_t xs = masks[a]; xs && rc == 0; xs &= xs - 1) {
                const uint64_t xbit = xs & -xs, ybit = masks[a] & ~xbit;
                int elims = 0;
                for (int32_t p = g->pstart[a]; p < g->pstart[a + 1] && !elims; p++)
                    elims = (masks[g->peers[p]] & ybit) && is_peer(g, b, g->peers[p]);
                if (!elims) continue;
                for (int u = 0; u < g->nunits; u++) {
                    int two[64];
                    if (places(g, masks, u, xbit, two) != 2) continue;
                    const int e1 = two[0], e2 = two[1];
                    if (e1 == a || e1 == b || e2 == a || e2 == b) continue;
                    if (!((is_peer(g, a, e1) && is_peer(g, b, e2)) ||
                          (is_peer(g, b, e1) && is_peer(g, a, e2))))
                        continue;
                    const uint64_t hit[7] = {(uint64_t)a, (uint64_t)b, (uint64_t)CTZ(xbit) + 1,
                                             (uint64_t)CTZ(ybit) + 1, (uint64_t)u, (uint64_t)e1,
                                             (uint64_t)e2};
                    rc = push(out, hit);
                    break;
                }
            }
        }
    free(pairs);
    return rc;
}

/* single_digit._colour_hits (every digit): Simple Colouring.  Per digit, the graph of its
 * strong links (units with two places) is coloured component by component, from its smallest
 * cell, in two alternating colours; a component of four cells or more gives (digit, start, 0
 * or 1) when two cells of colour A (then B) see each other, and (digit, start, 2) when a cell
 * outside it holding the digit sees a cell of each colour.  A graph that is not two-colourable
 * (an odd cycle of strong links: no solution has such a state) makes the search give the one
 * hit (0, 0, 0) instead, which sends the caller to the Python search: how Python colours such a
 * component depends on its sets' order. */
int sk_colouring(const sk_human_geom *g, const uint64_t *masks, sk_hits *out) {
    out->width = 3;
    const int nc = g->ncells;
    int32_t *adj = malloc(((size_t)g->cstart[nc] + 1) * sizeof *adj);
    int *deg = malloc((size_t)nc * sizeof *deg), *comp = malloc((size_t)nc * sizeof *comp);
    int *stack = malloc(((size_t)nc + 1) * sizeof *stack);
    int8_t *colour = malloc((size_t)nc + 1);
    int rc = -1;
    if (adj == NULL || deg == NULL || comp == NULL || stack == NULL || colour == NULL) goto done;
    rc = 0;
    for (int pass = 0; pass < 2 && rc == 0; pass++) /* 0: every graph two-colourable? 1: hits */
        for (int d = 0; d < g->n && rc == 0; d++) {
            const uint64_t bit = (uint64_t)1 << d;
            for (int c = 0; c < nc; c++) deg[c] = 0, comp[c] = -1;
            for (int u = 0; u < g->nunits; u++) {
                int two[64];
                if (places(g, masks, u, bit, two) != 2) continue;
                for (int s = 0; s < 2; s++) {
                    const int a = two[s];
                    adj[g->cstart[a] + deg[a]++] = two[1 - s];
                }
            }
            for (int start = 0; start < nc && rc == 0; start++) {
                if (!deg[start] || comp[start] >= 0) continue;
                int size = 0, top = 0;
                comp[start] = start;
                colour[start] = 0;
                stack[top++] = start;
                while (top) {
                    const int cell = stack[--top];
                    size++;
                    for (int i = 0; i < deg[cell]; i++) {
                        const int nxt = adj[g->cstart[cell] + i];
                        if (comp[nxt] < 0) {
                            comp[nxt] = start;
                            colour[nxt] = (int8_t)(1 - colour[cell]);
                            stack[top++] = nxt;
                        } else if (colour[nxt] == colour[cell]) {
                            /* odd cycle: only the Python search decides this state */
                            free(out->v);
                            out->v = NULL;
                            out->len = out->cap = 0;
                            const uint64_t punt[3] = {0, 0, 0};
                            rc = push(out, punt);
                            goto done;
                        }
                    }
                }
                if (pass == 0 || size < 4) continue;
                for (int k = 0; k < 2 && rc == 0; k++) { /* colour wrap: the first colour only */
                    int wrap = 0;
                    for (int a = start; a < nc && !wrap; a++) {
                        if (comp[a] != start || colour[a] != k) continue;
                        for (int32_t p = g->pstart[a]; p < g->pstart[a + 1] && !wrap; p++) {
                            const int b = g->peers[p];
                            wrap = comp[b] == start && colour[b] == k;
                        }
                    }
                    if (!wrap) continue;
                    const uint64_t hit[3] = {(uint64_t)d + 1, (uint64_t)start, (uint64_t)k};
                    rc = push(out, hit);
                    break;
                }
                int trap = 0; /* colour trap */
                for (int c = 0; c < nc && !trap && rc == 0; c++) {
                    if (!(masks[c] & bit) || comp[c] == start) continue;
                    int seen = 0;
                    for (int32_t p = g->pstart[c]; p < g->pstart[c + 1] && seen != 3; p++) {
                        const int q = g->peers[p];
                        if (comp[q] == start) seen |= 1 << colour[q];
                    }
                    trap = seen == 3;
                }
                if (trap && rc == 0) {
                    const uint64_t hit[3] = {(uint64_t)d + 1, (uint64_t)start, 2};
                    rc = push(out, hit);
                }
            }
        }
done:
    free(adj);
    free(deg);
    free(comp);
    free(stack);
    free(colour);
    return rc;
}
