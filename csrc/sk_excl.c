/*
 * sk_excl.c -- Aligned Pair and Triple Exclusion, the search (see sk_excl.h for the rule and
 * the contracts; src/sudokit/logic/exclusion.py is the specification).
 *
 * Cell sets are bit sets of nwords 64-bit words.  One search allocates one block for its
 * tables and frees it before returning; nothing else is written but *step and *local.
 */
#include "sk_excl.h"

#include <stdlib.h>
#include <string.h>

#include "sk_port.h"

/* Bit i of the cell set s. */
#define HAS(s, i) ((int)((s)[(i) >> 6] >> ((i) & 63) & 1u))

int sk_excl_geom_init(sk_excl_geom *g, int n, int ncells, const int32_t *peer_start,
                      const int32_t *peer_cells) {
    memset(g, 0, sizeof *g);
    const int nwords = (ncells + 63) / 64;
    uint64_t *peers = calloc((size_t)ncells * (size_t)nwords, sizeof *peers);
    if (peers == NULL) return -1;
    for (int c = 0; c < ncells; c++) {
        uint64_t *row = peers + (size_t)c * (size_t)nwords;
        for (int32_t k = peer_start[c]; k < peer_start[c + 1]; k++) {
            const int32_t p = peer_cells[k];
            row[p >> 6] |= (uint64_t)1 << (p & 63);
        }
    }
    *g = (sk_excl_geom){n, ncells, nwords, peers};
    return 0;
}

void sk_excl_geom_free(sk_excl_geom *g) {
    free(g->peers);
    g->peers = NULL;
}

/* The state of one search: the grid's masks and the tables derived from them. */
typedef struct {
    const uint64_t *masks, *peers;
    int nw, degree;
    uint64_t *ex;   /* per base cell (by its index in cand): its excluders */
    uint64_t *use;  /* scratch: the masks of the excluders that matter for one set */
    int32_t *pos;   /* per cell: its index among the base cells, or -1 */
} search;

static int popcount64(uint64_t m) { return __builtin_popcountll(m); }

/* The digits x for which some mask of use[0..nuse) lies inside prefix | x (every digit when
 * one already lies inside prefix): exclusion.py's _kill. */
static uint64_t kill_of(uint64_t prefix, const uint64_t *use, int nuse) {
    uint64_t kill = 0;
    for (int i = 0; i < nuse; i++) {
        const uint64_t rest = use[i] & ~prefix;
        if (rest == 0) return ~(uint64_t)0;
        if ((rest & (rest - 1)) == 0) kill |= rest;
    }
    return kill;
}

/* Whether cell q is a peer of cell p. */
static int sees(const search *s, int p, int q) {
    return HAS(s->peers + (size_t)p * (size_t)s->nw, q);
}

/* For each of the k base cells (candidates full[]), the digits some possible combination
 * uses, into allowed[] (exclusion.py's _allowed): the digit of the last cell is left free, as
 * one mask per choice of the others. */
static void allowed_digits(const search *s, const int32_t *cells, int k, const uint64_t *full,
                           int nuse, uint64_t *allowed) {
    const uint64_t *use = s->use;
    if (k == 2) {
        const int s01 = sees(s, cells[0], cells[1]);
        uint64_t a0 = 0, a1 = 0;
        for (uint64_t r0 = full[0]; r0; r0 &= r0 - 1) {
            const uint64_t b0 = r0 & -r0;
            uint64_t kill = kill_of(b0, use, nuse);
            if (s01) kill |= b0;
            const uint64_t free_ = full[1] & ~kill;
            if (free_) {
                a0 |= b0;
                a1 |= free_;
                if (a0 == full[0] && a1 == full[1]) break;
            }
        }
        allowed[0] = a0;
        allowed[1] = a1;
        return;
    }
    const int s01 = sees(s, cells[0], cells[1]), s02 = sees(s, cells[0], cells[2]);
    const int s12 = sees(s, cells[1], cells[2]);
    uint64_t a0 = 0, a1 = 0, a2 = 0;
    for (uint64_t r0 = full[0]; r0; r0 &= r0 - 1) {
        const uint64_t b0 = r0 & -r0;
        for (uint64_t r1 = full[1]; r1; r1 &= r1 - 1) {
            /* the combinations left with this b0 can add nothing: on to the next one (the
             * answer is the union over every combination, so the order does not matter) */
            if ((a0 & b0) && a1 == full[1] && a2 == full[2]) break;
            const uint64_t b1 = r1 & -r1;
            if (b0 == b1 && s01) continue;
            uint64_t kill = kill_of(b0 | b1, use, nuse);
            if (s02) kill |= b0;
            if (s12) kill |= b1;
            const uint64_t free_ = full[2] & ~kill;
            if (free_) {
                a0 |= b0;
                a1 |= b1;
                a2 |= free_;
                if (a0 == full[0] && a1 == full[1] && a2 == full[2]) goto done;
            }
        }
    }
done:
    allowed[0] = a0;
    allowed[1] = a1;
    allowed[2] = a2;
}

/* Two of the three cells see each other and have the same two candidates (exclusion.py's
 * _twins): the only way the base cells alone can rule a candidate out. */
static int twins(const search *s, const int32_t *cells) {
    static const int pairs[3][2] = {{0, 1}, {0, 2}, {1, 2}};
    for (int t = 0; t < 3; t++) {
        const int p = cells[pairs[t][0]], q = cells[pairs[t][1]];
        const uint64_t m = s->masks[p];
        if (m == s->masks[q] && popcount64(m) == 2 && sees(s, p, q)) return 1;
    }
    return 0;
}

/* What the set of k base cells (ascending) with the common excluders `common` removes
 * (exclusion.py's loop body over `sets` and _removed): 1 with *st filled in (not its cursor)
 * when it removes something, else 0.  Only an excluder whose candidates all belong to the
 * base cells can rule a combination out. */
static int try_set(const search *s, const int32_t *cells, int k, const uint64_t *common,
                   sk_excl_step *st) {
    const uint64_t *masks = s->masks;
    uint64_t full[3], allowed[3], uni = 0;
    for (int i = 0; i < k; i++) uni |= full[i] = masks[cells[i]];
    int nuse = 0;
    for (int w = 0; w < s->nw; w++)
        for (uint64_t r = common[w]; r; r &= r - 1) {
            const uint64_t m = masks[w * 64 + __builtin_ctzll(r)];
            if ((m & ~uni) == 0) s->use[nuse++] = m;
        }
    if (nuse == 0 && (k < 3 || !twins(s, cells))) return 0;
    allowed_digits(s, cells, k, full, nuse, allowed);
    int same = 1;
    for (int i = 0; i < k; i++) same &= allowed[i] == full[i];
    if (same) return 0;
    st->size = k;
    st->nexcl = st->nelim = 0;
    for (int i = 0; i < k; i++) {
        st->cells[i] = cells[i];
        for (uint64_t r = full[i] & ~allowed[i]; r; r &= r - 1) {
            st->elim_cell[st->nelim] = cells[i];
            st->elim_digit[st->nelim++] = __builtin_ctzll(r) + 1;
        }
    }
    for (int w = 0; w < s->nw; w++)
        for (uint64_t r = common[w]; r; r &= r - 1) st->excl[st->nexcl++] = w * 64 + __builtin_ctzll(r);
    return 1;
}

/* The cursor after the set (a, b, c) tried at the pair (a, b) (c = -1 for pairs): resuming
 * skips every set up to it in the search order. */
static int64_t cursor_of(int ncells, int a, int b, int c) {
    return ((int64_t)a * ncells + b) * (ncells + 1) + (c + 1) + 1;
}

int sk_excl_next(const sk_excl_geom *g, const uint64_t *masks, const uint64_t *before,
                 int degree, int64_t cursor, sk_excl_step *step, int *local) {
    const int ncells = g->ncells, nw = g->nwords;
    const uint64_t *peers = g->peers;
    /* where to resume: after the set (a0, b0, c0) */
    int a0 = -1, b0 = -1, c0 = -1;
    if (cursor > 0) {
        int64_t v = cursor - 1;
        c0 = (int)(v % (ncells + 1)) - 1;
        v /= ncells + 1;
        b0 = (int)(v % ncells);
        v /= ncells;
        a0 = v < ncells ? (int)v : ncells;
    }
    /* one block: 9 cell sets, the excluders of each base cell, the excluder masks, pos, cand */
    const size_t words = (size_t)(9 + ncells) * (size_t)nw + (size_t)ncells;
    uint64_t *block = malloc(words * sizeof *block + 2 * (size_t)ncells * sizeof(int32_t));
    if (block == NULL) return -1;
    uint64_t *exc = block, *base = exc + nw, *singles = base + nw, *changed = singles + nw;
    uint64_t *excluding = changed + nw, *both = excluding + nw, *near = both + nw;
    uint64_t *thirds = near + nw, *common = thirds + nw;
    search s = {masks, peers, nw, degree, common + nw, NULL, NULL};
    s.use = s.ex + (size_t)ncells * (size_t)nw;
    s.pos = (int32_t *)(s.use + ncells);
    int32_t *cand = s.pos + ncells;
    memset(block, 0, 5 * (size_t)nw * sizeof *block);

    /* would-be excluders (2..degree candidates) and cells with a single candidate */
    for (int c = 0; c < ncells; c++) {
        const int k = popcount64(masks[c]);
        if (k == 1) singles[c >> 6] |= (uint64_t)1 << (c & 63);
        if (k >= 2 && k <= degree) exc[c >> 6] |= (uint64_t)1 << (c & 63);
    }
    int single = 0;
    for (int w = 0; w < nw; w++) single |= singles[w] != 0;
    *local = !single;
    int restrict_ = 0, found = 0;
    if (before != NULL && !single) {
        int any = 0;
        for (int c = 0; c < ncells; c++) {
            if (masks[c] == before[c]) continue;
            any = 1;
            changed[c >> 6] |= (uint64_t)1 << (c & 63);
            const int k = popcount64(masks[c]), kb = popcount64(before[c]);
            if ((k >= 2 && k <= degree) || (kb >= 2 && kb <= degree))
                excluding[c >> 6] |= (uint64_t)1 << (c & 63);
        }
        if (!any) goto out;
        restrict_ = 1;
    }
    /* base cells: >= 2 candidates, no peer with a single one, some excluder */
    int ncand = 0;
    for (int c = 0; c < ncells; c++) {
        s.pos[c] = -1;
        if (popcount64(masks[c]) < 2) continue;
        const uint64_t *pc = peers + (size_t)c * (size_t)nw;
        uint64_t *ex = s.ex + (size_t)ncand * (size_t)nw, hit = 0, any = 0;
        for (int w = 0; w < nw; w++) {
            hit |= pc[w] & singles[w];
            any |= ex[w] = pc[w] & exc[w];
        }
        if (hit || !any) continue;
        base[c >> 6] |= (uint64_t)1 << (c & 63);
        s.pos[c] = ncand;
        cand[ncand++] = c;
    }

    for (int i = 0; i < ncand && !found; i++) {
        const int a = cand[i];
        if (a < a0) continue;
        const uint64_t *exa = s.ex + (size_t)i * (size_t)nw;
        const uint64_t *pa = peers + (size_t)a * (size_t)nw;
        const int a_changed = restrict_ && HAS(changed, a);
        for (int j = i + 1; j < ncand; j++) {
            const int b = cand[j];
            int cmin = 0; /* the least third cell to try */
            if (a == a0) {
                if (b < b0) continue;
                if (b == b0) {
                    if (degree == 2) continue;
                    cmin = c0 + 1;
                }
            }
            const uint64_t *exb = s.ex + (size_t)j * (size_t)nw;
            int nboth = 0;
            for (int w = 0; w < nw; w++) nboth += popcount64(both[w] = exa[w] & exb[w]);
            if (nboth < 2) continue;
            /* incremental: a set is tried when it holds a changed cell or a changed
             * would-be excluder sees all its cells; near: the third cells allowed */
            int limited = 0;
            if (restrict_ && !a_changed && !HAS(changed, b)) {
                const uint64_t *pb = peers + (size_t)b * (size_t)nw;
                int via_any = 0;
                if (degree == 3) memcpy(near, changed, (size_t)nw * sizeof *near);
                for (int w = 0; w < nw && !(via_any && degree == 2); w++)
                    for (uint64_t r = pa[w] & pb[w] & excluding[w]; r; r &= r - 1) {
                        via_any = 1;
                        if (degree == 2) break;
                        const uint64_t *pe = peers + (size_t)(w * 64 + __builtin_ctzll(r)) * nw;
                        for (int u = 0; u < nw; u++) near[u] |= pe[u];
                    }
                if (degree == 2 && !via_any) continue;
                limited = 1;
            }
            if (degree == 2) {
                const int32_t cells[2] = {a, b};
                if (try_set(&s, cells, 2, both, step)) {
                    step->cursor = cursor_of(ncells, a, b, -1);
                    found = 1;
                    break;
                }
                continue;
            }
            for (int w = 0; w < nw; w++) {
                thirds[w] = (exa[w] | exb[w]) & base[w];
                if (limited) thirds[w] &= near[w];
            }
            thirds[a >> 6] &= ~((uint64_t)1 << (a & 63));
            thirds[b >> 6] &= ~((uint64_t)1 << (b & 63));
            for (int w = cmin >> 6; w < nw && !found; w++) {
                uint64_t r = thirds[w];
                if (w == cmin >> 6) r &= ~(uint64_t)0 << (cmin & 63);
                for (; r; r &= r - 1) {
                    const int c = w * 64 + __builtin_ctzll(r);
                    const uint64_t *exc_c = s.ex + (size_t)s.pos[c] * (size_t)nw;
                    /* tried at its first pair in the search order only */
                    if (c < b) {
                        if (HAS(exa, b) || HAS(exc_c, b)) continue;
                        if (c < a && (HAS(exc_c, a) || HAS(exb, a))) continue;
                    }
                    int ncommon = 0;
                    for (int u = 0; u < nw; u++) ncommon += popcount64(common[u] = both[u] & exc_c[u]);
                    if (ncommon < 2) continue;
                    int32_t cells[3] = {a, b, c};
                    if (c < a) {
                        cells[0] = c, cells[1] = a, cells[2] = b;
                    } else if (c < b) {
                        cells[1] = c, cells[2] = b;
                    }
                    if (try_set(&s, cells, 3, common, step)) {
                        step->cursor = cursor_of(ncells, a, b, c);
                        found = 1;
                        break;
                    }
                }
            }
            if (found) break;
        }
    }
out:
    free(block);
    return found;
}
