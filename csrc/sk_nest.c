/*
 * sk_nest.c -- SE's basic rules inside a stuck dynamic forcing chain (see sk_nest.h).
 *
 * The specification is src/sudokit/logic/inchain.py; each function below names the Python
 * function it mirrors and keeps its order of work, so the removals and their parents come out
 * identical.  Cells of a unit are addressed by their position k in it (0 .. n-1), so the
 * places of a digit in a unit are one 64-bit mask (r->pos, rebuilt per call).
 */
#include "sk_nest.h"

#include <stdlib.h>
#include <string.h>

#include "sk_port.h"

/* Room for one pattern's parents and removals: at most 2n of either (n <= 64). */
#define SK_NEST_ROOM 128

void sk_inchain_free(sk_inchain *r) {
    free(r->ucells);
    free(r->lock);
    free(r->lock_in);
    free(r->se);
    free(r->rows);
    free(r->cols);
    free(r->pos);
    memset(r, 0, sizeof *r);
}

static int32_t *copy32(const int32_t *src, size_t count) {
    int32_t *v = malloc((count ? count : 1) * sizeof *v);
    if (v != NULL && count) memcpy(v, src, count * sizeof *v);
    return v;
}

/* True when cell is one of the n cells of unit u. */
static int in_unit(const sk_inchain *r, int32_t u, int32_t cell) {
    const int32_t *cells = r->ucells + (size_t)u * r->n;
    for (int k = 0; k < r->n; k++)
        if (cells[k] == cell) return 1;
    return 0;
}

int sk_inchain_init(sk_inchain *r, const sk_inchain_geom *g) {
    memset(r, 0, sizeof *r);
    const int n = g->n;
    r->n = n;
    r->ncells = g->ncells;
    r->nunits = g->nunits;
    r->nlock = g->nlock;
    r->nse = g->nse;
    r->ucells = malloc((size_t)g->nunits * n * sizeof *r->ucells + 1);
    r->lock = copy32(g->lock, 2 * (size_t)g->nlock);
    r->lock_in = malloc((2 * (size_t)g->nlock + 1) * sizeof *r->lock_in);
    r->se = copy32(g->se, (size_t)g->nse);
    r->rows = copy32(g->rows, (size_t)n);
    r->cols = copy32(g->cols, (size_t)n);
    r->pos = malloc(((size_t)g->nunits * n + 1) * sizeof *r->pos);
    if (!r->ucells || !r->lock || !r->lock_in || !r->se || !r->rows || !r->cols || !r->pos) {
        sk_inchain_free(r);
        return -1;
    }
    for (int u = 0; u < g->nunits; u++)
        for (int k = 0; k < n; k++)
            r->ucells[(size_t)u * n + k] = g->unit_cells[g->unit_start[u] + k];
    for (int i = 0; i < g->nlock; i++) { /* positions of u inside v, of v inside u */
        const int32_t u = r->lock[2 * i], v = r->lock[2 * i + 1];
        uint64_t uin = 0, vin = 0;
        for (int k = 0; k < n; k++) {
            if (in_unit(r, v, r->ucells[(size_t)u * n + k])) uin |= (uint64_t)1 << k;
            if (in_unit(r, u, r->ucells[(size_t)v * n + k])) vin |= (uint64_t)1 << k;
        }
        r->lock_in[2 * i] = uin;
        r->lock_in[2 * i + 1] = vin;
    }
    return 0;
}

static inline int32_t off_pot(int n, int32_t cell, int d) { return 2 * (cell * n + d); }

/* One record per removal of one pattern: q, np, prs[0 .. np).  0, or -1 out of memory. */
static int emit(sk_chain_out *out, const int32_t *qs, int nq, const int32_t *prs, int np) {
    for (int i = 0; i < nq; i++) {
        if (sk_chain_out_push(out, qs[i]) || sk_chain_out_push(out, np)) return -1;
        for (int j = 0; j < np; j++)
            if (sk_chain_out_push(out, prs[j])) return -1;
    }
    return 0;
}

/* inchain.locking: per crossing pair (u, v) in order, per digit. */
static int locking(const sk_inchain *r, const uint64_t *save, const uint64_t *masks,
                   sk_chain_out *out) {
    const int n = r->n;
    int32_t prs[SK_NEST_ROOM], qs[SK_NEST_ROOM];
    for (int i = 0; i < r->nlock; i++) {
        const int32_t u = r->lock[2 * i], v = r->lock[2 * i + 1];
        const uint64_t uin = r->lock_in[2 * i], vin = r->lock_in[2 * i + 1];
        const int32_t *ucells = r->ucells + (size_t)u * n, *vcells = r->ucells + (size_t)v * n;
        for (int d = 0; d < n; d++) {
            const uint64_t where = r->pos[(size_t)u * n + d];
            if (__builtin_popcountll(where) < 2 || (where & ~uin)) continue;
            uint64_t elims = r->pos[(size_t)v * n + d] & ~vin;
            if (!elims) continue;
            int np = 0, nq = 0;
            for (int k = 0; k < n; k++) { /* the chain's removals from u outside v */
                const int32_t c = ucells[k];
                if (!(uin >> k & 1) && (save[c] >> d & 1) && !(masks[c] >> d & 1))
                    prs[np++] = off_pot(n, c, d);
            }
            if (!np) continue;
            for (; elims; elims &= elims - 1) qs[nq++] = off_pot(n, vcells[__builtin_ctzll(elims)], d);
            if (emit(out, qs, nq, prs, np)) return -1;
        }
    }
    return 0;
}

/* The number of cells of unit u with candidates left in *save*. */
static int open_cells(const sk_inchain *r, int32_t u, const uint64_t *save) {
    int open = 0;
    for (int k = 0; k < r->n; k++) open += save[r->ucells[(size_t)u * r->n + k]] != 0;
    return open;
}

/* inchain.hidden_pairs: units in SE's order, digit pairs in colex order. */
static int hidden_pairs(const sk_inchain *r, const uint64_t *save, const uint64_t *masks,
                        sk_chain_out *out) {
    const int n = r->n;
    int32_t prs[SK_NEST_ROOM], qs[SK_NEST_ROOM];
    for (int s = 0; s < r->nse; s++) {
        const int32_t u = r->se[s];
        if (open_cells(r, u, save) <= 4) continue;
        const int32_t *cells = r->ucells + (size_t)u * n;
        const uint64_t *places = r->pos + (size_t)u * n;
        for (int d2 = 0; d2 < n; d2++)
            for (int d1 = 0; d1 < d2; d1++) {
                const uint64_t w = places[d1];
                /* both with >= 2 places and 2 together: the same 2 places */
                if (w != places[d2] || __builtin_popcountll(w) != 2) continue;
                const uint64_t pair = ((uint64_t)1 << d1) | ((uint64_t)1 << d2);
                int np = 0, nq = 0;
                for (uint64_t b = w; b; b &= b - 1) {
                    const int32_t c = cells[__builtin_ctzll(b)];
                    for (uint64_t e = masks[c] & ~pair; e; e &= e - 1)
                        qs[nq++] = off_pot(n, c, __builtin_ctzll(e));
                }
                if (!nq) continue;
                for (int k = 0; k < n; k++) {
                    if (w >> k & 1) continue;
                    const int32_t c = cells[k];
                    if (save[c] >> d1 & 1) prs[np++] = off_pot(n, c, d1);
                    if (save[c] >> d2 & 1) prs[np++] = off_pot(n, c, d2);
                }
                if (np && emit(out, qs, nq, prs, np)) return -1;
            }
    }
    return 0;
}

/* inchain.naked_pairs: units in SE's order, cell pairs in colex order. */
static int naked_pairs(const sk_inchain *r, const uint64_t *save, const uint64_t *masks,
                       sk_chain_out *out) {
    const int n = r->n;
    int32_t prs[SK_NEST_ROOM], qs[SK_NEST_ROOM];
    for (int s = 0; s < r->nse; s++) {
        const int32_t u = r->se[s];
        if (open_cells(r, u, save) < 4) continue;
        const int32_t *cells = r->ucells + (size_t)u * n;
        for (int j = 0; j < n; j++)
            for (int i = 0; i < j; i++) {
                const int32_t a = cells[i], b = cells[j];
                const uint64_t pair = masks[a];
                if (pair != masks[b] || __builtin_popcountll(pair) != 2) continue;
                int np = 0, nq = 0;
                for (int k = 0; k < n; k++) {
                    const int32_t c = cells[k];
                    if (c == a || c == b) continue;
                    for (uint64_t e = pair & masks[c]; e; e &= e - 1)
                        qs[nq++] = off_pot(n, c, __builtin_ctzll(e));
                }
                if (!nq) continue;
                for (uint64_t e = save[a] & ~pair; e; e &= e - 1) prs[np++] = off_pot(n, a, __builtin_ctzll(e));
                for (uint64_t e = save[b] & ~pair; e; e &= e - 1) prs[np++] = off_pot(n, b, __builtin_ctzll(e));
                if (np && emit(out, qs, nq, prs, np)) return -1;
            }
    }
    return 0;
}

/* inchain.x_wings: columns as base lines first, line pairs in colex order, then digits. */
static int x_wings(const sk_inchain *r, const uint64_t *save, const uint64_t *masks,
                   sk_chain_out *out) {
    const int n = r->n;
    int32_t prs[SK_NEST_ROOM], qs[SK_NEST_ROOM];
    int placed[64];
    for (int d = 0; d < n; d++) { /* rows holding the digit nowhere: placed there */
        placed[d] = 0;
        for (int i = 0; i < n; i++) {
            uint64_t any = 0;
            for (int k = 0; k < n; k++) any |= save[r->ucells[(size_t)r->rows[i] * n + k]];
            placed[d] += !(any >> d & 1);
        }
    }
    for (int pass = 0; pass < 2; pass++) {
        const int32_t *base = pass ? r->rows : r->cols, *cover = pass ? r->cols : r->rows;
        for (int j = 0; j < n; j++)
            for (int i = 0; i < j; i++) {
                const int32_t l1 = base[i], l2 = base[j];
                for (int d = 0; d < n; d++) {
                    if (placed[d] + 4 > n) continue;
                    const uint64_t cross = r->pos[(size_t)l1 * n + d];
                    if (cross != r->pos[(size_t)l2 * n + d] || __builtin_popcountll(cross) != 2) continue;
                    int np = 0, nq = 0;
                    for (uint64_t b = cross; b; b &= b - 1) {
                        const int32_t *line = r->ucells + (size_t)cover[__builtin_ctzll(b)] * n;
                        for (int k = 0; k < n; k++) {
                            const int32_t c = line[k];
                            if ((masks[c] >> d & 1) && !in_unit(r, l1, c) && !in_unit(r, l2, c))
                                qs[nq++] = off_pot(n, c, d);
                        }
                    }
                    if (!nq) continue;
                    for (int side = 0; side < 2; side++) {
                        const int32_t *line = r->ucells + (size_t)(side ? l2 : l1) * n;
                        for (int k = 0; k < n; k++) {
                            const int32_t c = line[k];
                            if (!(save[c] >> d & 1) || (masks[c] >> d & 1)) continue;
                            int crossing = 0;
                            for (uint64_t b = cross; b && !crossing; b &= b - 1)
                                crossing = in_unit(r, cover[__builtin_ctzll(b)], c);
                            if (!crossing) prs[np++] = off_pot(n, c, d);
                        }
                    }
                    if (np && emit(out, qs, nq, prs, np)) return -1;
                }
            }
    }
    return 0;
}

int sk_inchain_find(sk_inchain *r, const uint64_t *save, const uint64_t *masks, int first,
                    sk_chain_out *out) {
    const int n = r->n;
    for (int u = 0; u < r->nunits; u++) { /* the places of each digit in each unit */
        uint64_t *places = r->pos + (size_t)u * n;
        memset(places, 0, (size_t)n * sizeof *places);
        for (int k = 0; k < n; k++)
            for (uint64_t e = masks[r->ucells[(size_t)u * n + k]]; e; e &= e - 1)
                places[__builtin_ctzll(e)] |= (uint64_t)1 << k;
    }
    int (*const rules[4])(const sk_inchain *, const uint64_t *, const uint64_t *,
                          sk_chain_out *) = {locking, hidden_pairs, naked_pairs, x_wings};
    const size_t before = out->len;
    for (int i = first < 0 ? 0 : first; i < 4; i++) {
        if (rules[i](r, save, masks, out)) return -2;
        if (out->len > before) return i;
    }
    return -1;
}
