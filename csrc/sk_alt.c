/* sk_alt.c: X-Chain, XY-Chain and AIC searches (see sk_alt.h for the contract).
 *
 * The walk is chains._alt_found's, step for step: the start potentials in cell order, digits
 * ascending; each breadth-first level visits the frontier in order and each potential's links
 * in the order of chains._link_table (the cell's own link before the unit links, units in
 * chaining.Links' order); a potential is reached once, and never when its conjugate was.
 */
#include "sk_alt.h"

#include <stdlib.h>
#include <string.h>

#include "sk_port.h"

#define POP(m) __builtin_popcountll(m)
#define CTZ(m) __builtin_ctzll(m)

/* The X links of every candidate: on[c] the "off" potentials of its digit in its peers that
 * hold it, str[c] the "on" potential of the other place in each unit where it has two, both
 * CSR over candidates c = cell * n + d, units in SE's order (boxes, rows and columns, the
 * others), each potential once (chaining.Links._x_links). */
typedef struct {
    int32_t *wstart, *weak, *sstart, *strong;
} xlinks;

static void xlinks_free(xlinks *x) {
    free(x->wstart);
    free(x->weak);
    free(x->sstart);
    free(x->strong);
}

static int has32(const int32_t *v, int32_t from, int32_t to, int32_t q) {
    for (int32_t i = from; i < to; i++)
        if (v[i] == q) return 1;
    return 0;
}

/* The unit u is taken in pass 0 (boxes: units 2n .. 3n - 1), 1 (rows, columns) or 2 (the
 * others): Shape's unit order. */
static int unit_pass(int n, int u) { return u >= 2 * n && u < 3 * n ? 0 : u < 2 * n ? 1 : 2; }

static int xlinks_build(const sk_human_geom *g, const uint64_t *masks, xlinks *x) {
    const int n = g->n, cands = g->ncells * n;
    size_t wcap = 0, scap = 0, wlen = 0, slen = 0;
    memset(x, 0, sizeof *x);
    x->wstart = malloc(((size_t)cands + 1) * sizeof *x->wstart);
    x->sstart = malloc(((size_t)cands + 1) * sizeof *x->sstart);
    if (x->wstart == NULL || x->sstart == NULL) return -1;
    for (int cell = 0; cell < g->ncells; cell++)
        for (int d = 0; d < n; d++) {
            const int c = cell * n + d;
            x->wstart[c] = (int32_t)wlen;
            x->sstart[c] = (int32_t)slen;
            if (!(masks[cell] >> d & 1)) continue;
            for (int pass = 0; pass < 3; pass++)
                for (int32_t k = g->cstart[cell]; k < g->cstart[cell + 1]; k++) {
                    const int u = g->cunits[k];
                    if (unit_pass(n, u) != pass) continue;
                    int where = 0, other = -1;
                    for (int32_t i = g->ustart[u]; i < g->ustart[u + 1]; i++) {
                        const int o = g->ucells[i];
                        if (!(masks[o] >> d & 1)) continue;
                        where++;
                        if (o == cell) continue;
                        other = o;
                        const int32_t q = 2 * (o * n + d);
                        if (has32(x->weak, x->wstart[c], (int32_t)wlen, q)) continue;
                        int32_t *grown = sk_reserve(x->weak, &wcap, wlen + 1, sizeof *grown, 1024);
                        if (grown == NULL) return -1;
                        x->weak = grown;
                        x->weak[wlen++] = q;
                    }
                    if (where != 2) continue;
                    const int32_t r = 2 * (other * n + d) + 1;
                    if (has32(x->strong, x->sstart[c], (int32_t)slen, r)) continue;
                    int32_t *grown = sk_reserve(x->strong, &scap, slen + 1, sizeof *grown, 256);
                    if (grown == NULL) return -1;
                    x->strong = grown;
                    x->strong[slen++] = r;
                }
        }
    x->wstart[cands] = (int32_t)wlen;
    x->sstart[cands] = (int32_t)slen;
    return 0;
}

/* The chains kept so far: per entry its length in links, eliminations and path (offsets into
 * the pools), found by an open-addressing table over the eliminations. */
typedef struct {
    int32_t links, elim_at, nelim, path_at, npath;
} entry;

typedef struct {
    entry *e;
    size_t len, cap;
    int32_t *pool;
    size_t plen, pcap;
    int32_t *slots; /* entry index + 1, 0 empty */
    size_t nslots;
} kept;

static uint64_t elims_hash(const int32_t *v, int k) {
    uint64_t h = 1469598103934665603u;
    for (int i = 0; i < k; i++) h = (h ^ (uint64_t)(uint32_t)v[i]) * 1099511628211u;
    return h;
}

static int pool_add(kept *s, const int32_t *v, int k) {
    int32_t *grown = sk_reserve(s->pool, &s->pcap, s->plen + (size_t)k, sizeof *grown, 4096);
    if (grown == NULL) return -1;
    s->pool = grown;
    memcpy(s->pool + s->plen, v, (size_t)k * sizeof *v);
    s->plen += (size_t)k;
    return 0;
}

/* The slot of elims in s->slots: its entry's, or the empty one where it goes. */
static size_t kept_slot(const kept *s, const int32_t *elims, int k) {
    size_t i = (size_t)elims_hash(elims, k) & (s->nslots - 1);
    for (;; i = (i + 1) & (s->nslots - 1)) {
        const int32_t at = s->slots[i];
        if (at == 0) return i;
        const entry *e = &s->e[at - 1];
        if (e->nelim == k && !memcmp(s->pool + e->elim_at, elims, (size_t)k * sizeof *elims))
            return i;
    }
}

static int kept_grow(kept *s) {
    const size_t nslots = s->nslots ? 2 * s->nslots : 256;
    int32_t *slots = calloc(nslots, sizeof *slots);
    if (slots == NULL) return -1;
    free(s->slots);
    s->slots = slots;
    s->nslots = nslots;
    for (size_t j = 0; j < s->len; j++) {
        const entry *e = &s->e[j];
        s->slots[kept_slot(s, s->pool + e->elim_at, e->nelim)] = (int32_t)j + 1;
    }
    return 0;
}

/* Keeps the chain (links, path) for elims when none of them is kept or the kept one is longer
 * (chains._alt_search); 0, or -1 without memory. */
static int keep(kept *s, const int32_t *elims, int k, int32_t links, const int32_t *path,
                int npath) {
    if (2 * (s->len + 1) > s->nslots && kept_grow(s)) return -1;
    const size_t i = kept_slot(s, elims, k);
    entry *e;
    if (s->slots[i]) {
        e = &s->e[s->slots[i] - 1];
        if (e->links <= links) return 0;
    } else {
        entry *grown = sk_reserve(s->e, &s->cap, s->len + 1, sizeof *grown, 64);
        if (grown == NULL) return -1;
        s->e = grown;
        e = &s->e[s->len];
        e->elim_at = (int32_t)s->plen;
        e->nelim = k;
        if (pool_add(s, elims, k)) return -1;
        s->slots[i] = (int32_t)++s->len;
    }
    e->links = links;
    e->path_at = (int32_t)s->plen;
    e->npath = npath;
    return pool_add(s, path, npath);
}

/* chains._alt_eliminations of "a is false" or "b is true", 0-based (cell * n + d), ascending,
 * into out; their count.  mark: ncells zero bytes (left zero). */
static int alt_elims(const sk_human_geom *g, const uint64_t *masks, int a, int b, uint8_t *mark,
                     int32_t *out) {
    const int n = g->n, ca = (a >> 1) / n, da = (a >> 1) % n, cb = (b >> 1) / n, db = (b >> 1) % n;
    int k = 0;
    if (ca == cb) {
        if (da == db) return 0;
        for (uint64_t m = masks[ca]; m; m &= m - 1)
            if (CTZ(m) != da && CTZ(m) != db) out[k++] = ca * n + CTZ(m);
        return k;
    }
    for (int32_t i = g->pstart[cb]; i < g->pstart[cb + 1]; i++) mark[g->peers[i]] = 1;
    if (da == db) {
        for (int32_t i = g->pstart[ca]; i < g->pstart[ca + 1]; i++) {
            const int c = g->peers[i];
            if (mark[c] && (masks[c] >> da & 1)) out[k++] = c * n + da;
        }
    } else if (mark[ca]) {
        if (masks[cb] >> da & 1) out[k++] = cb * n + da;
        if (masks[ca] >> db & 1) out[k++] = ca * n + db;
    }
    for (int32_t i = g->pstart[cb]; i < g->pstart[cb + 1]; i++) mark[g->peers[i]] = 0;
    for (int i = 1; i < k; i++) /* ascending (the peer lists need not be sorted) */
        for (int j = i; j > 0 && out[j - 1] > out[j]; j--) {
            const int32_t t = out[j];
            out[j] = out[j - 1];
            out[j - 1] = t;
        }
    return k;
}

/* One breadth-first level (chains._alt_step): the potentials one link from frontier[0 .. len)
 * not reached yet (nor their conjugates) into next, noting their parent; their count.  strong:
 * off -> on links (the cell's other candidate when it is bivalue, then the unit links), else
 * on -> off (the cell's other candidates, then the unit links); y, x: which of them. */
static int level(const sk_human_geom *g, const uint64_t *masks, const xlinks *x, int strong,
                 int y, int xs, const int32_t *frontier, int len, int32_t *parent, int32_t *next) {
    const int n = g->n;
    int out = 0;
#define REACH(q)                                                                                 \
    do {                                                                                         \
        const int32_t q_ = (q);                                                                  \
        if (parent[q_] == -2 && parent[q_ ^ 1] == -2) {                                          \
            parent[q_] = p;                                                                      \
            next[out++] = q_;                                                                    \
        }                                                                                        \
    } while (0)
    for (int i = 0; i < len; i++) {
        const int32_t p = frontier[i], c = p >> 1, cell = c / n, d = c % n;
        const uint64_t m = masks[cell];
        if (y) {
            if (strong) {
                if (POP(m) == 2) REACH(2 * (cell * n + CTZ(m & ~((uint64_t)1 << d))) + 1);
            } else {
                for (uint64_t r = m & ~((uint64_t)1 << d); r; r &= r - 1)
                    REACH(2 * (cell * n + CTZ(r)));
            }
        }
        if (xs) {
            const int32_t *v = strong ? x->strong : x->weak;
            const int32_t *start = strong ? x->sstart : x->wstart;
            for (int32_t j = start[c]; j < start[c + 1]; j++) REACH(v[j]);
        }
    }
#undef REACH
    return out;
}

int sk_alt_chains(const sk_human_geom *g, const uint64_t *masks, int kind, sk_hits *out) {
    /* chains._ALT_KINDS: (strong y, strong x, weak y, weak x); three strong links at least */
    static const int kinds[3][4] = {{0, 1, 0, 1}, {1, 0, 0, 1}, {1, 1, 1, 1}};
    const int *t = kinds[kind];
    const int n = g->n, pots = 2 * g->ncells * n, same_digit = kind != 2, min_strong = 3;
    xlinks x;
    kept s = {0};
    int32_t *parent = malloc((size_t)pots * sizeof *parent);
    int32_t *buf = malloc(2 * ((size_t)pots + 1) * sizeof *buf);
    int32_t *reach = malloc(((size_t)pots + 1) * sizeof *reach);
    int32_t *elims = malloc(((size_t)g->ncells + (size_t)n) * sizeof *elims);
    uint8_t *mark = calloc((size_t)g->ncells, 1);
    int rc = -1;
    if (xlinks_build(g, masks, &x) || !parent || !buf || !reach || !elims || !mark) goto done;
    for (int i = 0; i < pots; i++) parent[i] = -2;
    int32_t *frontier = buf, *ons = buf + pots + 1;
    for (int cell = 0; cell < g->ncells; cell++) {
        const uint64_t m = masks[cell];
        if (!(m & (m - 1))) continue;
        for (uint64_t ds = m; ds; ds &= ds - 1) {
            const int d = CTZ(ds);
            const int32_t start = 2 * (cell * n + d);
            int reached = 1, len = 1;
            parent[start] = -1;
            frontier[0] = start;
            int32_t *seen = reach; /* every potential reached from start */
            seen[0] = start;
            for (int strong = 0; len && strong < 2 * g->ncells;) {
                const int nons = level(g, masks, &x, 1, t[0], t[1], frontier, len, parent, ons);
                strong++;
                for (int i = 0; i < nons; i++) seen[reached++] = ons[i];
                for (int i = 0; i < nons && strong >= min_strong; i++) {
                    const int32_t r = ons[i];
                    if (same_digit && (r >> 1) % n != d) continue;
                    const int k = alt_elims(g, masks, start, r, mark, elims);
                    if (!k) continue;
                    /* the path start .. r, walked back over the parents (kept reversed) */
                    int npath = 0;
                    for (int32_t q = r; q != -1; q = parent[q]) npath++;
                    int32_t *p = malloc((size_t)npath * sizeof *p);
                    if (p == NULL) goto done;
                    int j = npath;
                    for (int32_t q = r; q != -1; q = parent[q]) p[--j] = q;
                    const int failed = keep(&s, elims, k, 2 * strong, p, npath);
                    free(p);
                    if (failed) goto done;
                }
                len = level(g, masks, &x, 0, t[2], t[3], ons, nons, parent, frontier);
                for (int i = 0; i < len; i++) seen[reached++] = frontier[i];
            }
            for (int i = 0; i < reached; i++) parent[seen[i]] = -2;
        }
    }
    int width = 2;
    for (size_t j = 0; j < s.len; j++)
        if (s.e[j].npath + 2 > width) width = s.e[j].npath + 2;
    out->width = width;
    rc = 0;
    for (size_t j = 0; j < s.len && rc == 0; j++) {
        const entry *e = &s.e[j];
        uint64_t *grown = sk_reserve(out->v, &out->cap, out->len + (size_t)width, sizeof *grown,
                                     16 * (size_t)width);
        if (grown == NULL) {
            rc = -1;
            break;
        }
        out->v = grown;
        uint64_t *hit = out->v + out->len;
        memset(hit, 0, (size_t)width * sizeof *hit);
        hit[0] = (uint64_t)e->links;
        hit[1] = (uint64_t)e->npath;
        for (int i = 0; i < e->npath; i++) hit[2 + i] = (uint64_t)s.pool[e->path_at + i];
        out->len += (size_t)width;
    }
done:
    xlinks_free(&x);
    free(parent);
    free(buf);
    free(reach);
    free(elims);
    free(mark);
    free(s.e);
    free(s.pool);
    free(s.slots);
    return rc;
}
