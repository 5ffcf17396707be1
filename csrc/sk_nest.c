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

typedef sk_chain_out ivec;

/* Room for one pattern's parents and removals: at most 2n of either (n <= 64). */
#define SK_NEST_ROOM 128

void sk_inchain_free(sk_inchain *r) {
    SK_FREE_ALL(free, r->ucells, r->lock, r->lock_in, r->se, r->rows, r->cols, r->pos);
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

/* ---------------------------------------------------------------------------------------- */
/* Multiple / dynamic forcing chains nested in a chain (forcing._nested_rule)                 */

/* The parents of potential q in the chainer's last run (forcing._bfs_chain's view): with
 * use_new, the new potential of its contradiction has that one's parents (before its slot's,
 * as the Python's); else a reached potential its slot's; others none. */
static const int32_t *parents_of(const sk_chainer *c, int32_t q, int use_new, int32_t *count) {
    if (use_new && c->absurd && q == c->ab_new) {
        *count = (int32_t)c->ab_prs.len;
        return c->ab_prs.data;
    }
    if (c->stamp[q] == c->gen) {
        const int32_t s = c->slot[q];
        *count = c->par_start[s + 1] - c->par_start[s];
        return c->par.data + c->par_start[s];
    }
    *count = 0;
    return NULL;
}

/* forcing._bfs_chain over the last run (its contradiction's new potential with its parents):
 * target and its ancestors breadth first, each once.  Appends L, then the L potentials, to
 * *out; *queue is scratch.  0, or -1 when out of memory. */
static int bfs_chain(sk_chainer *c, int32_t target, int use_new, ivec *queue, ivec *out) {
    if (++c->mgen == 0) {
        memset(c->mark, 0, (size_t)c->npot * sizeof *c->mark);
        c->mgen = 1;
    }
    const size_t at = out->len;
    if (sk_chain_out_push(out, 0)) return -1;
    queue->len = 0;
    if (sk_chain_out_push(queue, target)) return -1;
    for (size_t i = 0; i < queue->len; i++) {
        const int32_t p = queue->data[i];
        if (c->mark[p] == c->mgen) continue;
        c->mark[p] = c->mgen;
        if (sk_chain_out_push(out, p)) return -1;
        int32_t k;
        const int32_t *prs = parents_of(c, p, use_new, &k);
        for (int32_t j = 0; j < k; j++)
            if (sk_chain_out_push(queue, prs[j])) return -1;
    }
    out->data[at] = (int32_t)(out->len - at - 1);
    return 0;
}

/* forcing._link_cause on the chainer's state: -1 when a and b share a cell, else the first
 * unit of a's cell (SE's order) holding b's cell, for an "off" a one where b's digit has
 * exactly two places. */
static int32_t link_cause(const sk_chainer *c, int32_t a, int32_t b) {
    const int n = c->n;
    const int32_t ca = (a >> 1) / n, cb = (b >> 1) / n, d = (b >> 1) % n;
    if (ca == cb) return -1;
    for (int32_t k = c->cell_start[ca]; k < c->cell_start[ca + 1]; k++) {
        const size_t key = (size_t)c->cell_units[k] * (size_t)n + (size_t)d;
        int in = 0; /* b's cell holds the digit, so it is in the unit when among its places */
        for (int32_t x = c->pl_start[key]; x < c->pl_start[key + 1] && !in; x++)
            in = c->pl_cells[x] == cb;
        if (in && ((a & 1) || c->counts0[key] == 2)) return c->cell_units[k];
    }
    return -1;
}

/* forcing._rule_parents for one "on" potential r with its cause: the candidates the outer
 * chain removed (save -> the chainer's state) from r's cell (cause < 0) or of r's digit from
 * the unit cause; appended to *prs unless marked already (mark: r->mgen is taken by the
 * caller for this hint). */
static int rule_parents(sk_chainer *c, const sk_inchain *shape, const uint64_t *save,
                        int32_t r, int32_t cause, uint32_t *seen, uint32_t mark, ivec *prs) {
    const int n = c->n;
    const int32_t cell = (r >> 1) / n, d = (r >> 1) % n;
    if (cause < 0) {
        for (uint64_t b = save[cell] & ~c->masks0[cell]; b; b &= b - 1) {
            const int32_t q = 2 * (cell * n + __builtin_ctzll(b));
            if (seen[q] != mark && ((seen[q] = mark), sk_chain_out_push(prs, q))) return -1;
        }
        return 0;
    }
    const int32_t *cells = shape->ucells + (size_t)cause * n;
    for (int k = 0; k < n; k++) {
        const int32_t o = cells[k];
        if (!(save[o] >> d & 1) || (c->masks0[o] >> d & 1)) continue;
        const int32_t q = 2 * (o * n + d);
        if (seen[q] != mark && ((seen[q] = mark), sk_chain_out_push(prs, q))) return -1;
    }
    return 0;
}

int sk_nest_rule(sk_chainer *c, const sk_inchain *shape, int multiple,
                 const int32_t sort_keys[4], const uint64_t *save, sk_chain_out *out) {
    const int n = c->n;
    ivec kept = {NULL, 0, 0}, queue = {NULL, 0, 0}, chains = {NULL, 0, 0}, prs = {NULL, 0, 0},
         rem = {NULL, 0, 0};
    uint32_t *seen = calloc((size_t)c->npot + 1, sizeof *seen);
    int rc = seen == NULL ? -1 : sk_chainer_all(c, 0, multiple, sort_keys, &kept);
    uint32_t mark = 0;
    int32_t starts[64];
    for (size_t h = 0; rc == 0 && h + 6 <= kept.len; h += 6) {
        const int32_t kind = kept.data[h], target = kept.data[h + 1], source = kept.data[h + 2];
        const int32_t digit = kept.data[h + 3], cx = kept.data[h + 4];
        int nstarts = 0; /* the branches, as forcing._c_hint reads them back */
        if (kind == 3) starts[nstarts++] = source;
        else if (kind == 0) {
            starts[nstarts++] = source;
            starts[nstarts++] = source ^ 1;
        } else if (kind == 1) {
            for (uint64_t b = c->masks0[source]; b; b &= b - 1)
                starts[nstarts++] = 2 * (source * n + __builtin_ctzll(b)) + 1;
        } else {
            const size_t key = (size_t)source * (size_t)n + (size_t)(digit - 1);
            for (int32_t x = c->pl_start[key]; x < c->pl_start[key + 1] && nstarts < 64; x++)
                starts[nstarts++] = 2 * (c->pl_cells[x] * n + digit - 1) + 1;
        }
        chains.len = prs.len = 0;
        int32_t nchains = 0;
        mark++; /* a fresh mark for this hint's rule parents (one per hint: < 2^32 hints) */
        for (int b = 0; b < nstarts && rc == 0; b++) {
            const int32_t p = starts[b];
            if ((rc = sk_chainer_run(c, p)) != 0) break;
            int32_t targets[2] = {target, -1}, nt = 1;
            if (kind == 3) {
                targets[0] = c->ab_on;
                targets[1] = c->ab_off;
                nt = 2;
            }
            for (int32_t t = 0; t < nt && rc == 0; t++) {
                const size_t at = chains.len;
                if ((rc = bfs_chain(c, targets[t], kind == 3, &queue, &chains)) != 0) break;
                nchains++;
                const int32_t len = chains.data[at];
                for (int32_t i = 0; i < len && rc == 0; i++) { /* forcing._hint_chains' ons */
                    const int32_t r = chains.data[at + 1 + i];
                    if (!(r & 1)) continue;
                    int32_t k0, k;
                    (void)parents_of(c, r, 0, &k0);
                    const int32_t *rp = parents_of(c, r, kind == 3, &k);
                    int32_t cause = SK_CHAIN_NO_CAUSE;
                    if (r == p && k0 == 0) { /* the assumption of a cell / region branch */
                        if (kind == 1) cause = -1;
                        else if (kind == 2) cause = source;
                    } else if (c->dynamic && c->stamp[r] == c->gen &&
                               c->cause[c->slot[r]] != SK_CHAIN_NO_CAUSE) {
                        cause = c->cause[c->slot[r]];
                    } else if (c->dynamic && c->absurd && r == c->ab_new &&
                               c->ab_cause != SK_CHAIN_NO_CAUSE) { /* causes.setdefault */
                        cause = c->ab_cause;
                    } else if (k > 0) {
                        cause = link_cause(c, rp[0], r);
                    }
                    if (cause != SK_CHAIN_NO_CAUSE)
                        rc = rule_parents(c, shape, save, r, cause, seen, mark, &prs);
                }
            }
        }
        if (rc || prs.len == 0) continue;
        rem.len = 0; /* forcing._removable */
        const int32_t cell = (target >> 1) / n, d = (target >> 1) % n;
        if (target & 1) {
            for (uint64_t b = c->masks0[cell] & ~((uint64_t)1 << d); b && rc == 0; b &= b - 1)
                rc = sk_chain_out_push(&rem, 2 * (cell * n + __builtin_ctzll(b)));
        } else
            rc = sk_chain_out_push(&rem, target);
        const int32_t head[2] = {cx, (int32_t)rem.len};
        for (int i = 0; i < 2 && rc == 0; i++) rc = sk_chain_out_push(out, head[i]);
        for (size_t i = 0; i < rem.len && rc == 0; i++) rc = sk_chain_out_push(out, rem.data[i]);
        if (rc == 0) rc = sk_chain_out_push(out, (int32_t)prs.len);
        for (size_t i = 0; i < prs.len && rc == 0; i++) rc = sk_chain_out_push(out, prs.data[i]);
        if (rc == 0) rc = sk_chain_out_push(out, nchains);
        for (size_t i = 0; i < chains.len && rc == 0; i++)
            rc = sk_chain_out_push(out, chains.data[i]);
    }
    SK_FREE_ALL(free, kept.data, queue.data, chains.data, prs.data, rem.data, seen);
    return rc;
}
