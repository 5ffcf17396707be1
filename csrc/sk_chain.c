/*
 * sk_chain.c -- SE's "Forcing Chains & Cycles" searches over static links (see sk_chain.h).
 *
 * The specification is src/sudokit/logic/cycles.py; each function below names the Python
 * function it mirrors, and keeps its order of work, so the hints come out identical.
 *
 * Search nodes live in one arena per search (node_pot / node_parent); breadth-first levels
 * are contiguous ranges of it, so the arena is also the queue:
 *
 *     node:   0      1 .. a-1        a .. b-1         b .. nnodes-1
 *             root   level 1         level 2          level being built
 *
 * A node's ancestors are found by walking its parents (chains are short; a bit set per node
 * would cost 2 * ncells * n bits each, 64 KB per node on 64x64).
 *
 * Rejected: computing reachability bit sets per component as cycles._reach does.  They only
 * decide whether a forcing-chain search can succeed, which the breadth-first bound search
 * answers anyway (it returns INF exactly when the conjugate is unreachable), and they cost
 * npot^2 / 8 bytes (34 GB on 64x64).  Only the component sizes are kept (the cycle filter).
 */
#include "sk_chain.h"

#include <stdlib.h>
#include <string.h>

#include "sk_port.h"

/* A growable int32 vector (the CSR tables while they are built, and the output records). */
typedef sk_chain_out ivec;

static int ivec_push(ivec *a, int32_t x) {
    int32_t *v = sk_reserve(a->data, &a->cap, a->len + 1, sizeof *v, 256);
    if (v == NULL) return -1;
    a->data = v;
    a->data[a->len++] = x;
    return 0;
}

static int contains(const int32_t *v, size_t from, size_t to, int32_t x) {
    for (size_t i = from; i < to; i++)
        if (v[i] == x) return 1;
    return 0;
}

void sk_chain_mode_free(sk_chain_mode *m) {
    SK_FREE_ALL(free, m->oo_start, m->oo, m->fo_start, m->fo, m->sources, m->bounds, m->on_cycle,
                m->stamp, m->node_pot, m->node_parent, m->bits, m->masks, m->g_ustart, m->g_ucells,
                m->g_cstart, m->g_cunits, m->cstamp, m->lstamp, m->scratch.data, m->xp_start, m->xp);
    memset(m, 0, sizeof *m);
}

/* chaining.Links._r_table for candidate (cell, d) of the state masks: appends to *out the
 * pair relations' links not already in out[from ..): on->off (strong = 0, the related
 * cells' digits the relation rejects with d) or off->on (strong = 1, the one digit of a
 * related cell that the cell's other candidates still allow). */
static int relation_links(int n, const uint64_t *masks, const sk_chain_rel *rel, int32_t cell,
                          int d, int strong, ivec *out, size_t from) {
    const uint64_t rest = masks[cell] & ~((uint64_t)1 << d);
    if (strong && rest == 0) return 0;
    for (int32_t k = rel->start[cell]; k < rel->start[cell + 1]; k++) {
        const int32_t b = rel->b[k];
        const uint64_t there = masks[b], *ab = rel->ab + (size_t)k * n;
        uint64_t found;
        if (strong) {
            uint64_t allowed = 0;
            for (uint64_t g = rest; g; g &= g - 1) allowed |= ab[__builtin_ctzll(g)] & there;
            found = (allowed & (allowed - 1)) == 0 ? allowed : 0;
        } else {
            found = there & ~ab[d];
        }
        for (; found; found &= found - 1) {
            const int32_t q = 2 * (b * n + __builtin_ctzll(found)) + strong;
            if (!contains(out->data, from, out->len, q) && ivec_push(out, q)) return -1;
        }
    }
    return 0;
}

int sk_chain_rel_init(sk_chain_rel *r, int n, int ncells, const int64_t *rec, size_t nrec) {
    const size_t width = 2 + 2 * (size_t)n;
    r->start = calloc((size_t)ncells + 1, sizeof *r->start);
    r->b = malloc((nrec + 1) * sizeof *r->b);
    r->ab = malloc((nrec * (size_t)n + 1) * sizeof *r->ab);
    r->ba = malloc((nrec * (size_t)n + 1) * sizeof *r->ba);
    if (!r->start || !r->b || !r->ab || !r->ba) {
        sk_chain_rel_free(r);
        return -1;
    }
    for (size_t k = 0; k < nrec; k++) {
        const int64_t *x = rec + k * width;
        r->start[x[0] + 1]++;
        r->b[k] = (int32_t)x[1];
        for (int e = 0; e < n; e++) {
            r->ab[k * (size_t)n + (size_t)e] = (uint64_t)x[2 + e];
            r->ba[k * (size_t)n + (size_t)e] = (uint64_t)x[2 + n + e];
        }
    }
    for (int32_t cell = 0; cell < ncells; cell++) r->start[cell + 1] += r->start[cell];
    return 0;
}

void sk_chain_rel_free(sk_chain_rel *r) {
    SK_FREE_ALL(free, r->start, r->b, r->ab, r->ba);
    memset(r, 0, sizeof *r);
}

/* chaining.Links + Links.tables(y, x): the CSR link tables.  places[(u * n + d)] lists the
 * cells of unit u holding digit d, in the unit's order. */
static int build_links(sk_chain_mode *m, const sk_chain_geom *g, const uint64_t *masks,
                       const sk_chain_rel *rel) {
    const int related = rel != NULL && rel->start != NULL && m->y && m->x;
    const int n = g->n;
    const size_t nud = (size_t)g->nunits * (size_t)n;
    int32_t *pstart = calloc(nud + 1, sizeof *pstart);
    int32_t *pfill = calloc(nud + 1, sizeof *pfill);
    int32_t *pcells = NULL;
    ivec oo = {0}, fo = {0}, weak = {0}, strong = {0};
    int rc = -1;
    if (pstart == NULL || pfill == NULL) goto done;
    for (int u = 0; u < g->nunits; u++)
        for (int32_t i = g->unit_start[u]; i < g->unit_start[u + 1]; i++) {
            uint64_t mk = masks[g->unit_cells[i]];
            for (; mk; mk &= mk - 1) pstart[(size_t)u * n + (size_t)__builtin_ctzll(mk) + 1]++;
        }
    for (size_t k = 0; k < nud; k++) pstart[k + 1] += pstart[k];
    pcells = malloc(((size_t)pstart[nud] + 1) * sizeof *pcells);
    if (pcells == NULL) goto done;
    memcpy(pfill, pstart, nud * sizeof *pfill);
    for (int u = 0; u < g->nunits; u++)
        for (int32_t i = g->unit_start[u]; i < g->unit_start[u + 1]; i++) {
            const int32_t cell = g->unit_cells[i];
            uint64_t mk = masks[cell];
            for (; mk; mk &= mk - 1) pcells[pfill[(size_t)u * n + (size_t)__builtin_ctzll(mk)]++] = cell;
        }
    m->oo_start = malloc(((size_t)m->ncand + 1) * sizeof(int32_t));
    m->fo_start = malloc(((size_t)m->ncand + 1) * sizeof(int32_t));
    if (m->oo_start == NULL || m->fo_start == NULL) goto done;
    for (int cell = 0; cell < g->ncells; cell++) {
        const uint64_t cm = masks[cell];
        const int card = __builtin_popcountll(cm);
        for (int d = 0; d < n; d++) {
            const size_t c = (size_t)cell * (size_t)n + (size_t)d;
            m->oo_start[c] = (int32_t)oo.len;
            m->fo_start[c] = (int32_t)fo.len;
            if (!(cm >> d & 1)) continue;
            /* Links._x_links: weak (on->off) and strong (off->on) X links, units in order */
            weak.len = strong.len = 0;
            for (int32_t k = g->cell_start[cell]; k < g->cell_start[cell + 1]; k++) {
                const size_t key = (size_t)g->cell_units[k] * (size_t)n + (size_t)d;
                const int32_t *where = pcells + pstart[key];
                const int32_t count = pstart[key + 1] - pstart[key];
                for (int32_t j = 0; j < count; j++) {
                    if (where[j] == cell) continue;
                    const int32_t q = 2 * (where[j] * n + d);
                    if (!contains(weak.data, 0, weak.len, q) && ivec_push(&weak, q)) goto done;
                }
                if (count == 2) {
                    const int32_t r = 2 * ((where[0] + where[1] - cell) * n + d) + 1;
                    if (!contains(strong.data, 0, strong.len, r) && ivec_push(&strong, r)) goto done;
                }
            }
            if (m->y) /* Y on->off: the cell's other candidates, digits ascending */
                for (int e = 0; e < n; e++)
                    if (e != d && (cm >> e & 1) && ivec_push(&oo, 2 * (cell * n + e))) goto done;
            for (size_t j = 0; j < weak.len; j++)
                if (ivec_push(&oo, weak.data[j])) goto done;
            if (related && relation_links(n, masks, rel, cell, d, 0, &oo, (size_t)m->oo_start[c]))
                goto done;
            if (m->y && card == 2) { /* Y off->on: the other candidate of a bivalue cell */
                const int e = __builtin_ctzll(cm & ~((uint64_t)1 << d));
                if (ivec_push(&fo, 2 * (cell * n + e) + 1)) goto done;
            }
            if (m->x)
                for (size_t j = 0; j < strong.len; j++)
                    if (ivec_push(&fo, strong.data[j])) goto done;
            if (related && relation_links(n, masks, rel, cell, d, 1, &fo, (size_t)m->fo_start[c]))
                goto done;
        }
    }
    m->oo_start[m->ncand] = (int32_t)oo.len;
    m->fo_start[m->ncand] = (int32_t)fo.len;
    if ((oo.data == NULL && ivec_push(&oo, 0)) || (fo.data == NULL && ivec_push(&fo, 0))) goto done;
    m->oo = oo.data;
    m->fo = fo.data;
    oo.data = fo.data = NULL;
    rc = 0;
done:
    SK_FREE_ALL(free, pstart, pfill, pcells, oo.data, fo.data, weak.data, strong.data);
    return rc;
}

/* The successors of potential p: on->off links of an "on" potential, off->on of an "off". */
static inline const int32_t *succ(const sk_chain_mode *m, int32_t p, int32_t *count) {
    const int32_t c = p >> 1;
    if (p & 1) {
        *count = m->oo_start[c + 1] - m->oo_start[c];
        return m->oo + m->oo_start[c];
    }
    *count = m->fo_start[c + 1] - m->fo_start[c];
    return m->fo + m->fo_start[c];
}

/* cycles._reach, the part kept: on_cycle[p] = 1 when p's strongly connected component (of
 * the graph reachable from the sources and their conjugates) has >= 4 potentials.
 * Iterative Tarjan, the same walk as the Python. */
static int find_components(sk_chain_mode *m) {
    const size_t np = (size_t)m->npot;
    int32_t *index = malloc(np * sizeof *index), *low = malloc(np * sizeof *low);
    int32_t *stack = malloc(np * sizeof *stack);
    int32_t *work_v = malloc((np + 1) * sizeof *work_v), *work_i = malloc((np + 1) * sizeof *work_i);
    uint8_t *on_stack = calloc(np, 1);
    int rc = -1;
    if (!index || !low || !stack || !work_v || !work_i || !on_stack) goto done;
    for (size_t p = 0; p < np; p++) index[p] = -1;
    int32_t counter = 0;
    size_t sp = 0;
    for (int32_t s = 0; s < 2 * m->nsources; s++) {
        const int32_t root = m->sources[s >> 1] ^ (s & 1);
        if (index[root] >= 0) continue;
        size_t wp = 0;
        work_v[wp] = root;
        work_i[wp++] = 0;
        while (wp) {
            wp--;
            const int32_t v = work_v[wp];
            int32_t i = work_i[wp];
            if (i == 0) {
                index[v] = low[v] = counter++;
                stack[sp++] = v;
                on_stack[v] = 1;
            }
            int32_t count;
            const int32_t *nxt = succ(m, v, &count);
            int descended = 0;
            while (i < count) {
                const int32_t w = nxt[i++];
                if (index[w] < 0) {
                    work_v[wp] = v;
                    work_i[wp++] = i;
                    work_v[wp] = w;
                    work_i[wp++] = 0;
                    descended = 1;
                    break;
                }
                if (on_stack[w] && index[w] < low[v]) low[v] = index[w];
            }
            if (descended) continue;
            if (low[v] == index[v]) {
                size_t top = sp;
                do {
                    sp--;
                    on_stack[stack[sp]] = 0;
                } while (stack[sp] != v);
                if (top - sp >= 4)
                    for (size_t k = sp; k < top; k++) m->on_cycle[stack[k]] = 1;
            }
            if (wp) {
                const int32_t parent = work_v[wp - 1];
                if (low[v] < low[parent]) low[parent] = low[v];
            }
        }
    }
    rc = 0;
done:
    SK_FREE_ALL(free, index, low, stack, work_v, work_i, on_stack);
    return rc;
}

/* cycles._next_bits: out = the potentials one link away from the set in (links of each
 * potential's candidate in the table oo (on_links) or fo). */
static void next_bits(const sk_chain_mode *m, const uint64_t *in, int on_links, uint64_t *out) {
    const int32_t *start = on_links ? m->oo_start : m->fo_start;
    const int32_t *to = on_links ? m->oo : m->fo;
    memset(out, 0, m->words * sizeof *out);
    for (size_t w = 0; w < m->words; w++)
        for (uint64_t b = in[w]; b; b &= b - 1) {
            const int32_t c = (int32_t)((w * 64 + (size_t)__builtin_ctzll(b)) >> 1);
            for (int32_t k = start[c]; k < start[c + 1]; k++)
                out[to[k] >> 6] |= (uint64_t)1 << (to[k] & 63);
        }
}

static int any_bits(const uint64_t *a, size_t words) {
    for (size_t w = 0; w < words; w++)
        if (a[w]) return 1;
    return 0;
}

static int any_and(const uint64_t *a, const uint64_t *b, size_t words) {
    for (size_t w = 0; w < words; w++)
        if (a[w] & b[w]) return 1;
    return 0;
}

#define HAS(set, p) ((set)[(p) >> 6] >> ((p) & 63) & 1)
#define ADD(set, p) ((set)[(p) >> 6] |= (uint64_t)1 << ((p) & 63))

/* Sets the bit set a (words words) to {p}. */
static void only(uint64_t *a, size_t words, int32_t p) {
    memset(a, 0, words * sizeof *a);
    ADD(a, p);
}

/* cycles._bounds for source src: out[0] a lower bound on its cycles' complexity, out[1] and
 * out[2] the exact complexity of the forcing chains from src and from its conjugate. */
static void bounds(sk_chain_mode *m, int32_t src, int want_cycle, int want_on, int want_off,
                   int32_t *out) {
    const size_t W = m->words;
    uint64_t *frontier = m->bits, *offs = m->bits + W, *seen = m->bits + 2 * W;
    uint64_t *pred = m->bits + 3 * W, *nxt = m->bits + 4 * W;
    int32_t cyc = SK_CHAIN_INF, fon = SK_CHAIN_INF, foff = SK_CHAIN_INF;
    if (want_cycle || want_on) {
        memset(pred, 0, W * sizeof *pred);
        const int32_t c = src >> 1;
        for (int32_t k = m->fo_start[c]; k < m->fo_start[c + 1]; k++) ADD(pred, m->fo[k] ^ 1);
        const int32_t target = src ^ 1;
        only(seen, W, src);
        only(frontier, W, src);
        int32_t depth = 1;
        while (any_bits(frontier, W) &&
               ((want_cycle && cyc == SK_CHAIN_INF) || (want_on && fon == SK_CHAIN_INF))) {
            next_bits(m, frontier, 1, offs);
            depth++;
            if (want_on && fon == SK_CHAIN_INF && HAS(offs, target)) fon = depth;
            if (want_cycle && cyc == SK_CHAIN_INF && depth >= 4 && any_and(offs, pred, W))
                cyc = depth;
            next_bits(m, offs, 0, frontier);
            for (size_t w = 0; w < W; w++) {
                frontier[w] &= ~seen[w];
                seen[w] |= frontier[w];
            }
            depth++;
        }
    }
    if (want_off) {
        only(seen, W, src ^ 1);
        only(frontier, W, src ^ 1);
        int is_on = 0;
        int32_t depth = 1;
        while (any_bits(frontier, W)) {
            next_bits(m, frontier, is_on, nxt);
            depth++;
            if (HAS(nxt, src)) {
                foff = depth;
                break;
            }
            for (size_t w = 0; w < W; w++) {
                frontier[w] = nxt[w] & ~seen[w];
                seen[w] |= frontier[w];
            }
            is_on = !is_on;
        }
    }
    out[0] = cyc;
    out[1] = fon;
    out[2] = foff;
}

int sk_chain_mode_init(sk_chain_mode *m, const sk_chain_geom *g, const uint64_t *masks, int y,
                       int x, const sk_chain_rel *rel, const int32_t *xp_start,
                       const int32_t *xp) {
    memset(m, 0, sizeof *m);
    m->n = g->n;
    m->ncells = g->ncells;
    m->ncand = g->ncells * g->n;
    m->npot = 2 * m->ncand;
    m->y = y;
    m->x = x;
    m->words = ((size_t)m->npot + 63) / 64;
    if (build_links(m, g, masks, rel)) goto fail;
    if (xp_start != NULL) {
        const size_t nc = (size_t)g->ncells, nx = (size_t)xp_start[nc];
        m->xp_start = malloc((nc + 1) * sizeof *m->xp_start);
        m->xp = malloc((nx + 1) * sizeof *m->xp);
        if (!m->xp_start || !m->xp) goto fail;
        memcpy(m->xp_start, xp_start, (nc + 1) * sizeof *m->xp_start);
        memcpy(m->xp, xp, nx * sizeof *m->xp);
    }
    m->sources = malloc(((size_t)m->ncand + 1) * sizeof *m->sources);
    m->on_cycle = calloc((size_t)m->npot, 1);
    m->stamp = calloc((size_t)m->npot, sizeof *m->stamp);
    m->bits = malloc(5 * m->words * sizeof *m->bits);
    if (!m->sources || !m->on_cycle || !m->stamp || !m->bits) goto fail;
    for (int cell = 0; cell < g->ncells; cell++) { /* _Mode.__init__: the sources */
        const uint64_t cm = masks[cell];
        if ((cm & (cm - 1)) == 0) continue;
        if (!x && __builtin_popcountll(cm) != 2) continue; /* Y-cycles start from bivalue cells */
        for (uint64_t b = cm; b; b &= b - 1)
            m->sources[m->nsources++] = 2 * (cell * g->n + __builtin_ctzll(b)) + 1;
    }
    m->bounds = malloc(((size_t)m->nsources * 3 + 1) * sizeof *m->bounds);
    if (m->bounds == NULL || find_components(m)) goto fail;
    { /* copies for sk_chain_best (the caller's tables need not outlive the mode) */
        const size_t nu = (size_t)g->nunits, nc = (size_t)g->ncells;
        const size_t nuc = (size_t)g->unit_start[nu], ncu = (size_t)g->cell_start[nc];
        m->masks = malloc(nc * sizeof *m->masks);
        m->g_ustart = malloc((nu + 1) * sizeof(int32_t));
        m->g_ucells = malloc((nuc + 1) * sizeof(int32_t));
        m->g_cstart = malloc((nc + 1) * sizeof(int32_t));
        m->g_cunits = malloc((ncu + 1) * sizeof(int32_t));
        m->cstamp = calloc(nc, sizeof *m->cstamp);
        m->lstamp = calloc(nc, sizeof *m->lstamp);
        if (!m->masks || !m->g_ustart || !m->g_ucells || !m->g_cstart || !m->g_cunits ||
            !m->cstamp || !m->lstamp)
            goto fail;
        memcpy(m->masks, masks, nc * sizeof *m->masks);
        memcpy(m->g_ustart, g->unit_start, (nu + 1) * sizeof(int32_t));
        memcpy(m->g_ucells, g->unit_cells, nuc * sizeof(int32_t));
        memcpy(m->g_cstart, g->cell_start, (nc + 1) * sizeof(int32_t));
        memcpy(m->g_cunits, g->cell_units, ncu * sizeof(int32_t));
    }
    for (int32_t i = 0; i < m->nsources; i++) {
        const int32_t src = m->sources[i];
        bounds(m, src, m->on_cycle[src], x, x, m->bounds + 3 * i);
    }
    return 0;
fail:
    sk_chain_mode_free(m);
    return -1;
}


/* A new node (potential p, parent node); its index, or -1 when out of memory. */
static int32_t add_node(sk_chain_mode *m, int32_t p, int32_t parent) {
    if (m->nnodes == m->node_cap) {
        const size_t cap = m->node_cap ? 2 * m->node_cap : 1024;
        if (cap > (size_t)INT32_MAX) return -1;
        int32_t *pot = realloc(m->node_pot, cap * sizeof *pot);
        if (pot == NULL) return -1;
        m->node_pot = pot;
        int32_t *par = realloc(m->node_parent, cap * sizeof *par);
        if (par == NULL) return -1;
        m->node_parent = par;
        m->node_cap = cap;
    }
    m->node_pot[m->nnodes] = p;
    m->node_parent[m->nnodes] = parent;
    return (int32_t)m->nnodes++;
}

/* Appends the record (source, kind, length, potentials root..node) of search node `node`. */
static int emit(sk_chain_mode *m, sk_chain_out *o, int32_t source, int32_t kind, int32_t node) {
    int32_t len = 0;
    for (int32_t v = node; v >= 0; v = m->node_parent[v]) len++;
    if (ivec_push(o, source) || ivec_push(o, kind) || ivec_push(o, len)) return -1;
    const size_t at = o->len;
    for (int32_t k = 0; k < len; k++)
        if (ivec_push(o, 0)) return -1;
    size_t k = at + (size_t)len;
    for (int32_t v = node; v >= 0; v = m->node_parent[v]) o->data[--k] = m->node_pot[v];
    return 0;
}

/* A new search from src: nothing visited but src, which is the root node 0.  -1 when out of
 * memory. */
static int new_search(sk_chain_mode *m, int32_t src) {
    m->nnodes = 0;
    if (++m->gen == 0) {
        memset(m->stamp, 0, (size_t)m->npot * sizeof *m->stamp);
        m->gen = 1;
    }
    m->stamp[src] = m->gen;
    return add_node(m, src, -1) < 0 ? -1 : 0;
}

/* True when potential q is node v or one of its ancestors. */
static int is_ancestor(const sk_chain_mode *m, int32_t v, int32_t q) {
    for (; v >= 0; v = m->node_parent[v])
        if (m->node_pot[v] == q) return 1;
    return 0;
}

/* cycles._cycles: the cycles through the "on" potential src of at most cap potentials. */
static int cycles(sk_chain_mode *m, int32_t src, int64_t cap, int32_t source,
                  sk_chain_out *out) {
    if (new_search(m, src)) return -1;
    size_t on_from = 0, on_to = 1;
    int64_t depth = 1;
    while (on_from < on_to && depth + 1 <= cap) {
        for (size_t v = on_from; v < on_to; v++) {
            const int32_t c = m->node_pot[v] >> 1;
            for (int32_t k = m->oo_start[c]; k < m->oo_start[c + 1]; k++) {
                const int32_t q = m->oo[k];
                if (!is_ancestor(m, (int32_t)v, q) && add_node(m, q, (int32_t)v) < 0) return -1;
            }
        }
        depth++;
        const size_t off_from = on_to, off_to = m->nnodes;
        for (size_t v = off_from; v < off_to; v++) {
            const int32_t c = m->node_pot[v] >> 1;
            for (int32_t k = m->fo_start[c]; k < m->fo_start[c + 1]; k++) {
                const int32_t r = m->fo[k];
                if (r == src && depth >= 4 && emit(m, out, source, 0, (int32_t)v)) return -1;
                if (m->stamp[r] != m->gen) {
                    m->stamp[r] = m->gen;
                    if (add_node(m, r, (int32_t)v) < 0) return -1;
                }
            }
        }
        on_from = off_to;
        on_to = m->nnodes;
        depth++;
    }
    return 0;
}

/* cycles._forcing: the first forcing chain from src (on or off) to its conjugate. */
static int forcing(sk_chain_mode *m, int32_t src, int64_t cap, int32_t source,
                   sk_chain_out *out) {
    if (new_search(m, src)) return -1;
    const int32_t target = src ^ 1;
    int is_on = src & 1;
    size_t from = 0, to = 1;
    int64_t depth = 1;
    while (from < to && depth < cap) {
        const int32_t *start = is_on ? m->oo_start : m->fo_start;
        const int32_t *links = is_on ? m->oo : m->fo;
        for (size_t v = from; v < to; v++) {
            const int32_t c = m->node_pot[v] >> 1;
            for (int32_t k = start[c]; k < start[c + 1]; k++) {
                const int32_t q = links[k];
                if (q == target) {
                    const int32_t t = add_node(m, q, (int32_t)v);
                    return t < 0 ? -1 : emit(m, out, source, 1, t);
                }
                if (m->stamp[q] != m->gen) {
                    m->stamp[q] = m->gen;
                    if (add_node(m, q, (int32_t)v) < 0) return -1;
                }
            }
        }
        from = to;
        to = m->nnodes;
        is_on = !is_on;
        depth++;
    }
    return 0;
}

int sk_chain_hints(sk_chain_mode *m, int64_t cap, sk_chain_out *out) {
    for (int32_t i = 0; i < m->nsources; i++) {
        const int32_t src = m->sources[i];
        const int32_t *b = m->bounds + 3 * i;
        if (b[0] > cap && b[1] > cap && b[2] > cap) continue;
        if (b[0] <= cap && cycles(m, src, cap, i, out)) return -1;
        if (b[1] <= cap && forcing(m, src, cap, i, out)) return -1;
        if (b[2] <= cap && forcing(m, src ^ 1, cap, i, out)) return -1;
    }
    return 0;
}

/* ---------------------------------------------------------------------------------------- */
/* The chainer (forcing._Chainer / forcing._Run at level 0)                                  */

void sk_chainer_free(sk_chainer *c) {
    SK_FREE_ALL(free, c->masks0, c->pl_start, c->pl_cells, c->counts0, c->peer_start, c->peers,
                c->cell_start, c->cell_units);
    sk_chain_mode_free(&c->links);
    SK_FREE_ALL(free, c->masks, c->counts, c->stamp, c->slot, c->order, c->cause, c->par_start,
                c->anc, c->par.data, c->pend_on, c->pend_off, c->ab_on_bits, c->ab_off_bits,
                c->ab_prs.data, c->derived.data, c->rs_at, c->rs_n, c->rs_absurd, c->rs.data,
                c->mark, c->mval, c->shared.data);
    sk_chain_rel_free(&c->rel);
    memset(c, 0, sizeof *c);
}

int sk_chainer_init(sk_chainer *c, const sk_chain_geom *g, const uint64_t *masks, int y,
                    int dynamic) {
    memset(c, 0, sizeof *c);
    const int n = g->n;
    c->n = n;
    c->ncells = g->ncells;
    c->ncand = g->ncells * n;
    c->npot = 2 * c->ncand;
    c->nunits = g->nunits;
    c->y = y;
    c->dynamic = dynamic;
    c->words = ((size_t)c->npot + 63) / 64;
    const size_t nud = (size_t)g->nunits * (size_t)n, np = (size_t)c->npot;
    const size_t ncl = (size_t)g->cell_start[g->ncells];
    c->masks0 = malloc((size_t)g->ncells * sizeof *c->masks0);
    c->cell_start = malloc(((size_t)g->ncells + 1) * sizeof *c->cell_start);
    c->cell_units = malloc((ncl + 1) * sizeof *c->cell_units);
    c->pl_start = calloc(nud + 1, sizeof *c->pl_start);
    c->counts0 = malloc((nud + 1) * sizeof *c->counts0);
    c->peer_start = malloc(((size_t)c->ncand + 1) * sizeof *c->peer_start);
    c->masks = malloc((size_t)g->ncells * sizeof *c->masks);
    c->counts = malloc((nud + 1) * sizeof *c->counts);
    c->stamp = calloc(np, sizeof *c->stamp);
    c->slot = malloc(np * sizeof *c->slot);
    c->order = malloc(np * sizeof *c->order);
    c->cause = malloc(np * sizeof *c->cause);
    c->par_start = malloc((np + 1) * sizeof *c->par_start);
    c->anc = malloc(np * c->words * sizeof *c->anc);
    c->pend_on = malloc(np * sizeof *c->pend_on);
    c->pend_off = malloc(np * sizeof *c->pend_off);
    c->ab_on_bits = malloc(c->words * sizeof *c->ab_on_bits);
    c->ab_off_bits = malloc(c->words * sizeof *c->ab_off_bits);
    uint32_t *seen = calloc((size_t)g->ncells, sizeof *seen);
    ivec peers = {0};
    if (!c->masks0 || !c->cell_start || !c->cell_units || !c->pl_start || !c->counts0 ||
        !c->peer_start || !c->masks || !c->counts || !c->stamp || !c->slot || !c->order ||
        !c->cause || !c->par_start || !c->anc || !c->pend_on || !c->pend_off ||
        !c->ab_on_bits || !c->ab_off_bits || !seen)
        goto fail;
    memcpy(c->masks0, masks, (size_t)g->ncells * sizeof *masks);
    memcpy(c->cell_start, g->cell_start, ((size_t)g->ncells + 1) * sizeof *c->cell_start);
    memcpy(c->cell_units, g->cell_units, ncl * sizeof *c->cell_units);
    /* places and counts per (unit, digit), in the unit's order */
    for (int u = 0; u < g->nunits; u++)
        for (int32_t i = g->unit_start[u]; i < g->unit_start[u + 1]; i++)
            for (uint64_t mk = masks[g->unit_cells[i]]; mk; mk &= mk - 1)
                c->pl_start[(size_t)u * n + (size_t)__builtin_ctzll(mk) + 1]++;
    for (size_t k = 0; k < nud; k++) {
        c->counts0[k] = c->pl_start[k + 1];
        c->pl_start[k + 1] += c->pl_start[k];
    }
    c->pl_cells = malloc(((size_t)c->pl_start[nud] + 1) * sizeof *c->pl_cells);
    if (c->pl_cells == NULL) goto fail;
    memset(c->counts, 0, nud * sizeof *c->counts); /* fill positions */
    for (int u = 0; u < g->nunits; u++)
        for (int32_t i = g->unit_start[u]; i < g->unit_start[u + 1]; i++)
            for (uint64_t mk = masks[g->unit_cells[i]]; mk; mk &= mk - 1) {
                const size_t k = (size_t)u * n + (size_t)__builtin_ctzll(mk);
                c->pl_cells[c->pl_start[k] + c->counts[k]++] = g->unit_cells[i];
            }
    /* per candidate: the peers holding its digit, in SE's peer order (units in the cell's
     * order, each peer once: geometry.peer_order) */
    uint32_t mark = 0;
    for (int cell = 0; cell < g->ncells; cell++)
        for (int d = 0; d < n; d++) {
            const size_t cand = (size_t)cell * (size_t)n + (size_t)d;
            c->peer_start[cand] = (int32_t)peers.len;
            if (!(masks[cell] >> d & 1)) continue;
            mark++;
            seen[cell] = mark;
            for (int32_t k = g->cell_start[cell]; k < g->cell_start[cell + 1]; k++) {
                const int32_t u = g->cell_units[k];
                for (int32_t i = g->unit_start[u]; i < g->unit_start[u + 1]; i++) {
                    const int32_t o = g->unit_cells[i];
                    if (seen[o] == mark) continue;
                    seen[o] = mark;
                    if ((masks[o] >> d & 1) && ivec_push(&peers, o)) goto fail;
                }
            }
        }
    c->peer_start[c->ncand] = (int32_t)peers.len;
    if (peers.data == NULL && ivec_push(&peers, 0)) goto fail;
    c->peers = peers.data;
    peers.data = NULL;
    if (!dynamic) {
        c->links.n = n;
        c->links.ncells = g->ncells;
        c->links.ncand = c->ncand;
        c->links.npot = c->npot;
        c->links.y = c->links.x = 1;
        if (build_links(&c->links, g, masks, NULL)) goto fail;
    }
    free(seen);
    return 0;
fail:
    free(seen);
    free(peers.data);
    sk_chainer_free(c);
    return -1;
}

/* Adds potential p to the run with its ancestor set (bits) and parents prs[0..nprs); the
 * new slot, or -1 when out of memory. */
static int32_t reach(sk_chainer *c, int32_t p, const uint64_t *bits, const int32_t *prs,
                     int32_t nprs, int32_t why) {
    const int32_t s = c->nslots++;
    c->stamp[p] = c->gen;
    c->slot[p] = s;
    c->order[s] = p;
    c->cause[s] = why;
    memcpy(c->anc + (size_t)s * c->words, bits, c->words * sizeof *bits);
    for (int32_t i = 0; i < nprs; i++)
        if (ivec_push(&c->par, prs[i])) return -1;
    c->par_start[s + 1] = (int32_t)c->par.len;
    return s;
}

static inline int reached(const sk_chainer *c, int32_t p) { return c->stamp[p] == c->gen; }

static inline const uint64_t *anc_of(const sk_chainer *c, int32_t p) {
    return c->anc + (size_t)c->slot[p] * c->words;
}

/* The contradiction: on / off potentials with their ancestor sets, the new one and its
 * parents. */
static int set_absurd(sk_chainer *c, int32_t on, const uint64_t *on_bits, int32_t off,
                      const uint64_t *off_bits, int32_t new_p, const int32_t *prs, int32_t nprs,
                      int32_t why) {
    c->absurd = 1;
    c->ab_on = on;
    c->ab_off = off;
    c->ab_new = new_p;
    c->ab_cause = why;
    memmove(c->ab_on_bits, on_bits, c->words * sizeof *on_bits);
    memmove(c->ab_off_bits, off_bits, c->words * sizeof *off_bits);
    c->ab_prs.len = 0;
    for (int32_t i = 0; i < nprs; i++)
        if (ivec_push(&c->ab_prs, prs[i])) return -1;
    return 0;
}

/* _Run._turn_off: the "off" potentials the "on" potential p implies (_Run._off_links). */
static int turn_off(sk_chainer *c, int32_t p, size_t *off_tail) {
    const int n = c->n;
    const int32_t cand = p >> 1, cell = cand / n, d = cand % n;
    const uint64_t bit = (uint64_t)1 << d;
    uint64_t *tmp = c->ab_off_bits; /* a | 1 << q, built in place */
    const uint64_t *a = anc_of(c, p);
    int32_t nout = 0;
    const int32_t *outs;
    c->derived.len = 0;
    if (!c->dynamic) {
        outs = c->links.oo + c->links.oo_start[cand];
        nout = c->links.oo_start[cand + 1] - c->links.oo_start[cand];
    } else {
        if (c->y)
            for (uint64_t b = c->masks[cell] & ~bit; b; b &= b - 1)
                if (ivec_push(&c->derived, 2 * (cell * n + __builtin_ctzll(b)))) return -1;
        for (int32_t k = c->peer_start[cand]; k < c->peer_start[cand + 1]; k++) {
            const int32_t o = c->peers[k];
            if ((c->masks[o] & bit) && ivec_push(&c->derived, 2 * (o * n + d))) return -1;
        }
        if (c->rel.start != NULL && c->y) /* the pair relations' weak links, each once */
            for (int32_t k = c->rel.start[cell]; k < c->rel.start[cell + 1]; k++) {
                const int32_t b = c->rel.b[k];
                for (uint64_t m = c->masks[b] & ~c->rel.ab[(size_t)k * n + d]; m; m &= m - 1) {
                    const int32_t q = 2 * (b * n + __builtin_ctzll(m));
                    if (!contains(c->derived.data, 0, c->derived.len, q) &&
                        ivec_push(&c->derived, q))
                        return -1;
                }
            }
        outs = c->derived.data;
        nout = (int32_t)c->derived.len;
    }
    for (int32_t i = 0; i < nout; i++) {
        const int32_t q = outs[i], on = q | 1;
        if (reached(c, on)) {
            memcpy(tmp, a, c->words * sizeof *tmp);
            ADD(tmp, q);
            return set_absurd(c, on, anc_of(c, on), q, tmp, q, &p, 1, SK_CHAIN_NO_CAUSE);
        }
        if (!reached(c, q)) {
            memcpy(tmp, a, c->words * sizeof *tmp);
            ADD(tmp, q);
            if (reach(c, q, tmp, &p, 1, SK_CHAIN_NO_CAUSE) < 0) return -1;
            c->pend_off[(*off_tail)++] = q;
        }
    }
    return 0;
}

/* _Run._turn_on, its second half (a dynamic run with y on a chainer with relations): the
 * "off" potentials of the candidates of the cells related to p's cell that no candidate
 * left there allows (_Run._unsupported), parents p then the other removed candidates of
 * p's cell that allowed them.  Runs after the singles removed p's candidate. */
static int unsupported(sk_chainer *c, int32_t p, size_t *off_tail) {
    const int n = c->n;
    const int32_t cand = p >> 1, cell = cand / n, d = cand % n;
    const uint64_t bit = (uint64_t)1 << d, left = c->masks[cell], start = c->masks0[cell];
    uint64_t *a = c->ab_off_bits; /* the new potential's ancestors, built in place */
    ivec *prs = &c->derived;
    for (int32_t k = c->rel.start[cell]; k < c->rel.start[cell + 1]; k++) {
        const int32_t b = c->rel.b[k];
        const uint64_t *ba = c->rel.ba + (size_t)k * n;
        for (uint64_t m = c->masks[b] & c->rel.ab[(size_t)k * n + d]; m; m &= m - 1) {
            const int e = __builtin_ctzll(m);
            const int32_t q = 2 * (b * n + e), on = q | 1;
            if ((left & ba[e]) || reached(c, q)) continue;
            prs->len = 0;
            if (ivec_push(prs, p)) return -1;
            for (uint64_t g = start & ba[e] & ~bit; g; g &= g - 1)
                if (ivec_push(prs, 2 * (cell * n + __builtin_ctzll(g)))) return -1;
            memset(a, 0, c->words * sizeof *a);
            ADD(a, q);
            for (size_t i = 0; i < prs->len; i++) {
                const uint64_t *pa = anc_of(c, prs->data[i]);
                for (size_t w = 0; w < c->words; w++) a[w] |= pa[w];
            }
            if (reached(c, on))
                return set_absurd(c, on, anc_of(c, on), q, a, q, prs->data, (int32_t)prs->len,
                                  SK_CHAIN_NO_CAUSE);
            if (reach(c, q, a, prs->data, (int32_t)prs->len, SK_CHAIN_NO_CAUSE) < 0) return -1;
            c->pend_off[(*off_tail)++] = q;
        }
    }
    return 0;
}

/* _Run._turn_on: the "on" potentials the "off" potential p implies (_Run._on_links), then
 * on a chainer with relations the unsupported candidates (above).
 * derived holds records (r, why, nprs, prs...). */
static int turn_on(sk_chainer *c, int32_t p, size_t *on_tail, size_t *off_tail) {
    const int n = c->n;
    const int32_t cand = p >> 1, cell = cand / n, d = cand % n;
    const uint64_t bit = (uint64_t)1 << d;
    ivec *dv = &c->derived;
    dv->len = 0;
    if (!c->dynamic) {
        for (int32_t k = c->links.fo_start[cand]; k < c->links.fo_start[cand + 1]; k++)
            if (ivec_push(dv, c->links.fo[k]) || ivec_push(dv, -1) || ivec_push(dv, 1) ||
                ivec_push(dv, p))
                return -1;
    } else {
        const uint64_t cm = c->masks[cell];
        if (c->y && __builtin_popcountll(cm) == 2) {
            const int e = 63 - __builtin_clzll(cm & ~bit);
            const uint64_t gone = c->masks0[cell] & ~cm;
            if (ivec_push(dv, 2 * (cell * n + e) + 1) || ivec_push(dv, -1) ||
                ivec_push(dv, 1 + __builtin_popcountll(gone)) || ivec_push(dv, p))
                return -1;
            for (uint64_t b = gone; b; b &= b - 1)
                if (ivec_push(dv, 2 * (cell * n + __builtin_ctzll(b)))) return -1;
        }
        for (int32_t k = c->cell_start[cell]; k < c->cell_start[cell + 1]; k++) {
            const int32_t u = c->cell_units[k];
            const size_t key = (size_t)u * (size_t)n + (size_t)d;
            if (c->counts[key] != 2) continue;
            const int32_t *where = c->pl_cells + c->pl_start[key];
            const int32_t nw = c->pl_start[key + 1] - c->pl_start[key];
            int32_t other = where[nw - 1];
            for (int32_t j = 0; j < nw; j++)
                if (where[j] != cell && (c->masks[where[j]] & bit)) {
                    other = where[j];
                    break;
                }
            const int32_t r = 2 * (other * n + d) + 1;
            int dup = 0;
            for (size_t j = 0; j < dv->len && !dup; j += 3 + (size_t)dv->data[j + 2])
                dup = dv->data[j] == r;
            if (dup) continue;
            int32_t np = 1;
            for (int32_t j = 0; j < nw; j++) np += !(c->masks[where[j]] & bit);
            if (ivec_push(dv, r) || ivec_push(dv, u) || ivec_push(dv, np) || ivec_push(dv, p))
                return -1;
            for (int32_t j = 0; j < nw; j++)
                if (!(c->masks[where[j]] & bit) && ivec_push(dv, 2 * (where[j] * n + d)))
                    return -1;
        }
        c->masks[cell] = cm & ~bit;
        for (int32_t k = c->cell_start[cell]; k < c->cell_start[cell + 1]; k++)
            c->counts[(size_t)c->cell_units[k] * (size_t)n + (size_t)d]--;
    }
    uint64_t *a = c->ab_on_bits; /* the new potential's ancestors, built in place */
    for (size_t j = 0; j < dv->len; j += 3 + (size_t)dv->data[j + 2]) {
        const int32_t r = dv->data[j], why = dv->data[j + 1], nprs = dv->data[j + 2];
        const int32_t *prs = dv->data + j + 3;
        memset(a, 0, c->words * sizeof *a);
        ADD(a, r);
        for (int32_t i = 0; i < nprs; i++) {
            const uint64_t *pa = anc_of(c, prs[i]);
            for (size_t w = 0; w < c->words; w++) a[w] |= pa[w];
        }
        const int32_t off = r ^ 1;
        if (reached(c, off)) return set_absurd(c, r, a, off, anc_of(c, off), r, prs, nprs, why);
        if (!reached(c, r)) {
            if (reach(c, r, a, prs, nprs, why) < 0) return -1;
            c->pend_on[(*on_tail)++] = r;
        }
    }
    if (c->dynamic && c->y && c->rel.start != NULL) return unsupported(c, p, off_tail);
    return 0;
}

/* A static chainer's X+Y tables (links.oo / links.fo, CSR per candidate) with each
 * candidate's relation links appended (chaining.Links.tables(True, True): Y, X, then R). */
static int add_relation_links(sk_chainer *c) {
    sk_chain_mode *m = &c->links;
    int32_t *starts[2] = {m->oo_start, m->fo_start}, *data[2] = {m->oo, m->fo};
    for (int strong = 0; strong < 2; strong++) {
        int32_t *start = starts[strong], *old = data[strong];
        ivec out = {0};
        for (int32_t cand = 0; cand < c->ncand; cand++) {
            const size_t from = (size_t)start[cand], to = (size_t)start[cand + 1];
            start[cand] = (int32_t)out.len;
            for (size_t i = from; i < to; i++)
                if (ivec_push(&out, old[i])) goto fail;
            const int32_t cell = cand / c->n;
            const int d = cand % c->n;
            if ((c->masks0[cell] >> d & 1) &&
                relation_links(c->n, c->masks0, &c->rel, cell, d, strong, &out, (size_t)start[cand]))
                goto fail;
        }
        start[c->ncand] = (int32_t)out.len;
        if (out.data == NULL && ivec_push(&out, 0)) goto fail;
        free(old);
        if (strong) m->fo = out.data;
        else m->oo = out.data;
        continue;
    fail:
        free(out.data);
        return -1;
    }
    return 0;
}

int sk_chainer_relate(sk_chainer *c, const int64_t *rec, size_t nrec) {
    if (sk_chain_rel_init(&c->rel, c->n, c->ncells, rec, nrec)) return -1;
    if (!c->dynamic && add_relation_links(c)) {
        sk_chain_rel_free(&c->rel);
        return -1;
    }
    return 0;
}

int sk_chainer_run(sk_chainer *c, int32_t start) {
    if (++c->gen == 0) {
        memset(c->stamp, 0, (size_t)c->npot * sizeof *c->stamp);
        c->gen = 1;
    }
    const size_t nud = (size_t)c->nunits * (size_t)c->n;
    memcpy(c->masks, c->masks0, (size_t)c->ncells * sizeof *c->masks);
    memcpy(c->counts, c->counts0, nud * sizeof *c->counts);
    c->nslots = 0;
    c->par.len = 0;
    c->par_start[0] = 0;
    c->absurd = 0;
    uint64_t *bits = c->ab_on_bits;
    memset(bits, 0, c->words * sizeof *bits);
    ADD(bits, start);
    if (reach(c, start, bits, NULL, 0, SK_CHAIN_NO_CAUSE) < 0) return -1;
    size_t on_head = 0, on_tail = 0, off_head = 0, off_tail = 0;
    if (start & 1) c->pend_on[on_tail++] = start;
    else c->pend_off[off_tail++] = start;
    while (!c->absurd && (on_head < on_tail || off_head < off_tail)) {
        if (on_head < on_tail) {
            if (turn_off(c, c->pend_on[on_head++], &off_tail)) return -1;
        } else if (turn_on(c, c->pend_off[off_head++], &on_tail, &off_tail)) {
            return -1;
        }
    }
    return 0;
}

/* A fresh stamp for the per-cell marks (cstamp and lstamp share the counter). */
static uint32_t next_cgen(sk_chain_mode *m) {
    if (++m->cgen == 0) {
        memset(m->cstamp, 0, (size_t)m->ncells * sizeof *m->cstamp);
        memset(m->lstamp, 0, (size_t)m->ncells * sizeof *m->lstamp);
        m->cgen = 1;
    }
    return m->cgen;
}

/* Marks with `mark` in stamp every cell sharing a unit with cell (itself included) and its
 * peers outside the units. */
static void mark_seen(sk_chain_mode *m, uint32_t *stamp, int32_t cell, uint32_t mark) {
    for (int32_t k = m->g_cstart[cell]; k < m->g_cstart[cell + 1]; k++) {
        const int32_t u = m->g_cunits[k];
        for (int32_t i = m->g_ustart[u]; i < m->g_ustart[u + 1]; i++) stamp[m->g_ucells[i]] = mark;
    }
    if (m->xp_start != NULL)
        for (int32_t k = m->xp_start[cell]; k < m->xp_start[cell + 1]; k++) stamp[m->xp[k]] = mark;
}

/* cycle_removes' test of cell o, seen by an "off" node of digit d: an elimination when an
 * "on" node of d sees it too (stamp fwd), outside the loop, holding d and not yet taken.
 * 1 when it is one (recorded in *el unless el == NULL), 0 when not, -1 out of memory. */
static int removes_at(sk_chain_mode *m, int32_t o, int d, uint32_t fwd, uint32_t loop,
                      uint32_t taken, ivec *el) {
    if (m->cstamp[o] != fwd || m->lstamp[o] == loop || !(m->masks[o] >> d & 1)) return 0;
    if (el == NULL) return 1;
    m->cstamp[o] = taken;
    return ivec_push(el, 2 * (o * m->n + d)) ? -1 : 1;
}

static int cmp_int32(const void *pa, const void *pb) {
    const int32_t a = *(const int32_t *)pa, b = *(const int32_t *)pb;
    return (a > b) - (a < b);
}

/* cycles._cycle_eliminations for the loop path[0..len): the candidates outside the loop's
 * cells that see an "on" and an "off" potential of their digit in it.  With el == NULL:
 * 1 when there is one, else 0.  Else their "off" potentials are put in *el, ascending, each
 * once (the Python's sorted list): 1 when there are any, 0 when none, -1 out of memory. */
static int cycle_removes(sk_chain_mode *m, const int32_t *path, int32_t len, ivec *el) {
    const int n = m->n;
    if (el != NULL) el->len = 0;
    const uint32_t loop = next_cgen(m);
    for (int32_t i = 0; i < len; i++) m->lstamp[(path[i] >> 1) / n] = loop;
    for (int32_t i = 0; i < len; i++) {
        if (!(path[i] & 1)) continue;
        const int32_t d = (path[i] >> 1) % n;
        int first = 1; /* digit d not seen on an earlier "on" potential */
        for (int32_t j = 0; j < i && first; j++) first = !((path[j] & 1) && (path[j] >> 1) % n == d);
        if (!first) continue;
        const uint32_t fwd = next_cgen(m);
        for (int32_t j = i; j < len; j++)
            if ((path[j] & 1) && (path[j] >> 1) % n == d) mark_seen(m, m->cstamp, (path[j] >> 1) / n, fwd);
        const uint32_t taken = next_cgen(m); /* cells already put in *el for d */
        for (int32_t j = 0; j < len; j++) {
            if ((path[j] & 1) || (path[j] >> 1) % n != d) continue;
            const int32_t cell = (path[j] >> 1) / n;
            int rc;
            for (int32_t k = m->g_cstart[cell]; k < m->g_cstart[cell + 1]; k++) {
                const int32_t u = m->g_cunits[k];
                for (int32_t x = m->g_ustart[u]; x < m->g_ustart[u + 1]; x++)
                    if ((rc = removes_at(m, m->g_ucells[x], d, fwd, loop, taken, el)) != 0 &&
                        (el == NULL || rc < 0))
                        return rc;
            }
            if (m->xp_start != NULL)
                for (int32_t k = m->xp_start[cell]; k < m->xp_start[cell + 1]; k++)
                    if ((rc = removes_at(m, m->xp[k], d, fwd, loop, taken, el)) != 0 &&
                        (el == NULL || rc < 0))
                        return rc;
        }
    }
    if (el == NULL) return 0;
    if (el->len > 1) qsort(el->data, el->len, sizeof *el->data, cmp_int32);
    return el->len > 0;
}

int sk_chain_best(sk_chain_mode *m, int64_t cap, const int32_t base10[2],
                  const int32_t *thresholds, int nthr, sk_chain_out *out) {
    out->len = 0;
    m->scratch.len = 0;
    if (sk_chain_hints(m, cap, &m->scratch)) return -1;
    const int32_t *rec = m->scratch.data;
    int32_t best_rating = 0, best_cx = 0, best_k = 0, last = -1, k = 0;
    size_t best_at = 0;
    int found = 0;
    for (size_t at = 0; at < m->scratch.len; at += 3 + (size_t)rec[at + 2]) {
        const int32_t source = rec[at], kind = rec[at + 1], len = rec[at + 2];
        const int32_t *path = rec + at + 3;
        if (source != last) {
            last = source;
            k = 0;
        }
        k++;
        int32_t cx = 0; /* distinct potentials (the Python's ancestor bit count) */
        for (int32_t i = 0; i < len; i++) {
            int dup = 0;
            for (int32_t j = 0; j < i && !dup; j++) dup = path[j] == path[i];
            cx += !dup;
        }
        int32_t rating = base10[kind];
        for (int t = 0; t < nthr && cx - 2 > thresholds[t]; t++) rating++;
        if (found && (rating > best_rating || (rating == best_rating && cx >= best_cx))) continue;
        if (kind == 0 && !cycle_removes(m, path, len, NULL)) continue;
        found = 1;
        best_rating = rating;
        best_cx = cx;
        best_at = at;
        best_k = k - 1;
    }
    if (!found) return 0;
    const int32_t len = rec[best_at + 2];
    if (ivec_push(out, rec[best_at]) || ivec_push(out, rec[best_at + 1]) ||
        ivec_push(out, best_k) || ivec_push(out, len))
        return -1;
    for (int32_t i = 0; i < len; i++)
        if (ivec_push(out, rec[best_at + 3 + i])) return -1;
    return 0;
}

/* ---------------------------------------------------------------------------------------- */
/* SE's choice among the forcing-chain hints of one rule (forcing._collect / forcing_hints)   */

static int popcount_bits(const uint64_t *bits, size_t words) {
    int count = 0;
    for (size_t w = 0; w < words; w++) count += __builtin_popcountll(bits[w]);
    return count;
}

/* The run from start, summarised in c->rs (run once per chainer).  -1 when out of memory. */
static int summarise(sk_chainer *c, int32_t start) {
    if (c->rs_at[start] >= 0) return 0;
    if (sk_chainer_run(c, start)) return -1;
    c->rs_at[start] = (int32_t)c->rs.len;
    c->rs_n[start] = c->nslots;
    for (int32_t s = 0; s < c->nslots; s++)
        if (ivec_push(&c->rs, c->order[s]) ||
            ivec_push(&c->rs, popcount_bits(c->anc + (size_t)s * c->words, c->words)))
            return -1;
    c->rs_absurd[start] = c->absurd ? popcount_bits(c->ab_on_bits, c->words) +
                                          popcount_bits(c->ab_off_bits, c->words)
                                    : -1;
    return 0;
}

/* Marks the potentials of the run from start (summarised) with a new mark and their counts. */
static void mark_run(sk_chainer *c, int32_t start) {
    if (++c->mgen == 0) {
        memset(c->mark, 0, (size_t)c->npot * sizeof *c->mark);
        c->mgen = 1;
    }
    const int32_t *pairs = c->rs.data + c->rs_at[start];
    for (int32_t i = 0; i < c->rs_n[start]; i++) {
        c->mark[pairs[2 * i]] = c->mgen;
        c->mval[pairs[2 * i]] = pairs[2 * i + 1];
    }
}

/* The hints found so far and the best one (_Hints.add, then forcing_hints' sort); with
 * `all` set, every hint is appended to it instead (kind, target, source, digit, cx, seq). */
typedef struct {
    int32_t base10, nthr, seq;
    const int32_t *thresholds, *sort_keys;
    int found;
    int32_t rating, cx, key, hint[6];
    ivec *all;
    int oom;
} best_hint;

static void consider(const sk_chainer *c, best_hint *b, int32_t kind, int32_t target,
                     int32_t source, int32_t digit, int32_t cx) {
    const int32_t seq = b->seq++;
    if (b->all != NULL) {
        const int32_t h[6] = {kind, target, source, digit, cx, seq};
        for (int i = 0; i < 6; i++) b->oom |= ivec_push(b->all, h[i]);
        return;
    }
    int32_t rating = b->base10;
    for (int t = 0; t < b->nthr && cx - 2 > b->thresholds[t]; t++) rating++;
    const int32_t key = b->sort_keys[kind];
    if (b->found && (rating > b->rating || (rating == b->rating && (cx > b->cx ||
                                                                   (cx == b->cx && key >= b->key)))))
        return;
    /* forcing._effect: a placement of a cell with other candidates, or a removal */
    const int32_t cand = target >> 1, cell = cand / c->n, d = cand % c->n;
    const uint64_t cm = c->masks0[cell], bit = (uint64_t)1 << d;
    if ((target & 1) ? !(cm & ~bit) : !(cm & bit)) return;
    b->found = 1;
    b->rating = rating;
    b->cx = cx;
    b->key = key;
    const int32_t h[6] = {kind, target, source, digit, cx, seq};
    memcpy(b->hint, h, sizeof h);
}

/* _Hints.common: what every branch (runs from starts[0..k), summarised) implies, "on"
 * conclusions first, in the first branch's order.  -1 when out of memory. */
static int common(sk_chainer *c, best_hint *b, int32_t kind, int32_t source, int32_t digit,
                  const int32_t *starts, int k) {
    ivec *sh = &c->shared;
    sh->len = 0;
    const int32_t *first = c->rs.data + c->rs_at[starts[0]];
    for (int32_t i = 0; i < 2 * c->rs_n[starts[0]]; i++)
        if (ivec_push(sh, first[i])) return -1;
    for (int j = 1; j < k && sh->len; j++) {
        mark_run(c, starts[j]);
        size_t kept = 0;
        for (size_t i = 0; i < sh->len; i += 2) {
            const int32_t q = sh->data[i];
            if (c->mark[q] != c->mgen) continue;
            sh->data[kept++] = q;
            sh->data[kept++] = sh->data[i + 1] + c->mval[q];
        }
        sh->len = kept;
    }
    for (int want = 1; want >= 0; want--)
        for (size_t i = 0; i < sh->len; i += 2)
            if ((sh->data[i] & 1) == want)
                consider(c, b, kind, sh->data[i], source, digit, sh->data[i + 1]);
    return 0;
}

/* Every hint of the rule in discovery order, each passed to consider() (sk_chainer_best's
 * walk).  0, -1 when out of memory, -2 when a unit has more than 64 cells. */
static int scan_hints(sk_chainer *c, int nishio, int multiple, best_hint *b) {
    const int n = c->n;
    const size_t np = (size_t)c->npot;
    if (c->rs_at == NULL) {
        c->rs_at = malloc(np * sizeof *c->rs_at);
        c->rs_n = calloc(np, sizeof *c->rs_n);
        c->rs_absurd = malloc(np * sizeof *c->rs_absurd);
        c->mark = calloc(np, sizeof *c->mark);
        c->mval = calloc(np, sizeof *c->mval);
        if (!c->rs_at || !c->rs_n || !c->rs_absurd || !c->mark || !c->mval) return -1;
        for (size_t p = 0; p < np; p++) c->rs_at[p] = -1;
    }
    int32_t starts[64], where[64];
    for (int32_t cell = 0; cell < c->ncells; cell++) {
        const uint64_t cm = c->masks0[cell];
        const int card = __builtin_popcountll(cm);
        if (!(card > 2 || (card > 1 && c->dynamic))) continue;
        int nvals = 0;
        for (uint64_t bits = cm; bits; bits &= bits - 1) {
            const int32_t d = __builtin_ctzll(bits), p_on = 2 * (cell * n + d) + 1;
            if (summarise(c, p_on)) return -1;
            if (c->dynamic) {
                if (summarise(c, p_on ^ 1)) return -1;
                const int32_t pair[2] = {p_on, p_on ^ 1};
                for (int side = 0; side < 2; side++) /* _Hints.contradiction */
                    if (c->rs_absurd[pair[side]] >= 0)
                        consider(c, b, 3, pair[side] ^ 1, pair[side], 0, c->rs_absurd[pair[side]]);
                if (card >= 3 && !nishio) { /* _Hints.doubles */
                    mark_run(c, p_on ^ 1);
                    const int32_t *on = c->rs.data + c->rs_at[p_on];
                    for (int want = 1; want >= 0; want--)
                        for (int32_t i = 0; i < c->rs_n[p_on]; i++) {
                            const int32_t q = on[2 * i];
                            if ((q & 1) == want && c->mark[q] == c->mgen)
                                consider(c, b, 0, q, p_on, 0, on[2 * i + 1] + c->mval[q]);
                        }
                }
            }
            if (!nishio) /* _regions */
                for (int32_t k = c->cell_start[cell]; k < c->cell_start[cell + 1]; k++) {
                    const int32_t u = c->cell_units[k];
                    const size_t key = (size_t)u * (size_t)n + (size_t)d;
                    const int32_t *pl = c->pl_cells + c->pl_start[key];
                    const int32_t count = c->pl_start[key + 1] - c->pl_start[key];
                    if (!(count == 2 || (multiple && count > 2)) || pl[0] != cell) continue;
                    if (count > 64) return -2; /* units of more than 64 cells: not here */
                    for (int32_t j = 0; j < count; j++) {
                        where[j] = 2 * (pl[j] * n + d) + 1;
                        if (summarise(c, where[j])) return -1;
                    }
                    if (common(c, b, 2, u, d + 1, where, count)) return -1;
                }
            starts[nvals++] = p_on;
        }
        if (!nishio && (card == 2 || multiple) && common(c, b, 1, cell, 0, starts, nvals))
            return -1;
    }
    return b->oom ? -1 : 0;
}

int sk_chainer_best(sk_chainer *c, int nishio, int multiple, int32_t base10,
                    const int32_t *thresholds, int nthr, const int32_t sort_keys[4],
                    int *found, int32_t out[6]) {
    best_hint b = {base10, nthr, 0, thresholds, sort_keys, 0, 0, 0, 0, {0}, NULL, 0};
    *found = 0;
    const int rc = scan_hints(c, nishio, multiple, &b);
    if (rc) return rc;
    *found = b.found;
    memcpy(out, b.hint, sizeof b.hint);
    return 0;
}

/* Orders sort records (complexity, sort key, discovery, kind, target, source, digit) as SE
 * sorts one rule's hints: by rating, which grows with the complexity, then complexity, sort
 * key, discovery (unique). */
static int cmp_sorted(const void *pa, const void *pb) {
    const int32_t *a = pa, *b = pb;
    for (int i = 0; i < 3; i++)
        if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
    return 0;
}

int sk_chainer_all(sk_chainer *c, int nishio, int multiple, const int32_t sort_keys[4],
                   sk_chain_out *out) {
    ivec all = {NULL, 0, 0};
    best_hint b = {0, 0, 0, NULL, sort_keys, 0, 0, 0, 0, {0}, &all, 0};
    int rc = scan_hints(c, nishio, multiple, &b);
    const size_t nh = all.len / 6;
    int32_t *rec = rc ? NULL : malloc((nh ? nh : 1) * 7 * sizeof *rec);
    if (rc || rec == NULL) {
        free(all.data);
        return rc ? rc : -1;
    }
    for (size_t i = 0; i < nh; i++) {
        const int32_t *h = all.data + 6 * i;
        const int32_t r[7] = {h[4], sort_keys[h[0]], h[5], h[0], h[1], h[2], h[3]};
        memcpy(rec + 7 * i, r, sizeof r);
    }
    free(all.data);
    if (nh > 1) qsort(rec, nh, 7 * sizeof *rec, cmp_sorted);
    if (++c->mgen == 0) { /* marks: the removals (as a key potential) already taken */
        memset(c->mark, 0, (size_t)c->npot * sizeof *c->mark);
        c->mgen = 1;
    }
    const int n = c->n;
    for (size_t i = 0; i < nh && !rc; i++) {
        const int32_t *r = rec + 7 * i, target = r[4];
        const int32_t cell = (target >> 1) / n, d = (target >> 1) % n;
        const uint64_t others = c->masks0[cell] & ~((uint64_t)1 << d);
        int32_t key = target; /* an "off" target removes itself */
        if (target & 1) {     /* an "on" one the cell's other candidates */
            if (!others) continue;
            if (!(others & (others - 1))) key = 2 * (cell * n + __builtin_ctzll(others));
        }
        if (c->mark[key] == c->mgen) continue;
        c->mark[key] = c->mgen;
        const int32_t h[6] = {r[3], r[4], r[5], r[6], r[0], r[2]};
        for (int k = 0; k < 6 && !rc; k++) rc = ivec_push(out, h[k]);
    }
    free(rec);
    return rc;
}

int sk_chain_out_push(sk_chain_out *o, int32_t x) { return ivec_push(o, x); }

/* ---------------------------------------------------------------------------------------- */
/* "Forcing Chains & Cycles" nested in a chain (cycles.unary_all, forcing._nested_unary)      */

/* Orders unary sort records (rating, complexity, sort key, mode, source index, rank, kind,
 * offset): SE's order (RankedHint.order; the discovery index is (mode, source, rank)). */
static int cmp_unary(const void *pa, const void *pb) {
    const int32_t *a = pa, *b = pb;
    for (int i = 0; i < 6; i++)
        if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
    return 0;
}

/* True when rem[0..k) equals one of the kept removal sets in *kept* (records k, k items). */
static int kept_before(const ivec *kept, const int32_t *rem, int32_t k) {
    for (size_t at = 0; at < kept->len; at += 1 + (size_t)kept->data[at])
        if (kept->data[at] == k && !memcmp(kept->data + at + 1, rem, (size_t)k * sizeof *rem))
            return 1;
    return 0;
}

int sk_chain_unary_all(sk_chain_mode *const modes[3], const int32_t base10[3][2],
                       const int32_t sort_keys[3], const int32_t *thresholds, int nthr,
                       int64_t cap, sk_chain_out *out) {
    ivec recs = {NULL, 0, 0}, rem = {NULL, 0, 0}, kept = {NULL, 0, 0};
    uint8_t *single = NULL;
    int rc = -1;
    for (int i = 0; i < 3; i++) { /* every hint of every mode, as a sort record */
        sk_chain_mode *m = modes[i];
        m->scratch.len = 0;
        if (sk_chain_hints(m, cap, &m->scratch)) goto done;
        const int32_t *rec = m->scratch.data;
        int32_t last = -1, k = 0;
        for (size_t at = 0; at < m->scratch.len; at += 3 + (size_t)rec[at + 2]) {
            const int32_t source = rec[at], kind = rec[at + 1], len = rec[at + 2];
            k = source == last ? k + 1 : 0;
            last = source;
            int32_t cx = 0; /* distinct potentials */
            for (int32_t a = 0; a < len; a++) {
                int dup = 0;
                for (int32_t b = 0; b < a && !dup; b++) dup = rec[at + 3 + b] == rec[at + 3 + a];
                cx += !dup;
            }
            int32_t rating = base10[i][kind];
            for (int t = 0; t < nthr && cx - 2 > thresholds[t]; t++) rating++;
            const int32_t r[8] = {rating, cx, sort_keys[i], i, source, k, kind, (int32_t)at};
            for (int f = 0; f < 8; f++)
                if (ivec_push(&recs, r[f])) goto done;
        }
    }
    const size_t nh = recs.len / 8;
    if (nh > 1) qsort(recs.data, nh, 8 * sizeof *recs.data, cmp_unary);
    single = calloc((size_t)modes[0]->npot + 1, 1); /* single removals already taken */
    if (single == NULL) goto done;
    const int n = modes[0]->n;
    for (size_t h = 0; h < nh; h++) {
        const int32_t *r = recs.data + 8 * h;
        sk_chain_mode *m = modes[r[3]];
        const int32_t *path = m->scratch.data + r[7] + 3, len = path[-1];
        rem.len = 0;
        if (r[6] == 0) { /* a cycle: its eliminations (none: it changes nothing) */
            const int any = cycle_removes(m, path, len, &rem);
            if (any < 0) goto done;
            if (!any) continue;
        } else { /* a forcing chain: its end is placed or removed */
            const int32_t p = path[len - 1], cell = (p >> 1) / n, d = (p >> 1) % n;
            if (!(p & 1)) {
                if (ivec_push(&rem, p)) goto done;
            } else
                for (uint64_t b = m->masks[cell] & ~((uint64_t)1 << d); b; b &= b - 1)
                    if (ivec_push(&rem, 2 * (cell * n + __builtin_ctzll(b)))) goto done;
            if (!rem.len) continue;
        }
        const int32_t k = (int32_t)rem.len;
        if (k == 1) {
            if (single[rem.data[0]]) continue;
            single[rem.data[0]] = 1;
        } else {
            if (kept_before(&kept, rem.data, k)) continue;
            if (ivec_push(&kept, k)) goto done;
            for (int32_t i = 0; i < k; i++)
                if (ivec_push(&kept, rem.data[i])) goto done;
        }
        const int32_t head[4] = {r[6], r[1], k, len};
        for (int f = 0; f < 3; f++)
            if (ivec_push(out, head[f])) goto done;
        for (int32_t i = 0; i < k; i++)
            if (ivec_push(out, rem.data[i])) goto done;
        if (ivec_push(out, len)) goto done;
        for (int32_t i = 0; i < len; i++)
            if (ivec_push(out, path[i])) goto done;
    }
    rc = 0;
done:
    SK_FREE_ALL(free, recs.data, rem.data, kept.data, single);
    return rc;
}
