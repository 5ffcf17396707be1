/*
 * sk_rules.c -- the variant-rule compiler: sk_rules lists into the search's tables (sk_rules.h).
 *
 * Each step builds one table from the rule lists, with two passes (count, then fill) where the
 * size is not known up front: the merged peers (pairs, cage mates), the arcs (relations, merged
 * per ordered pair), the sum constraints (summed cages, plus the innies and outies that the
 * units imply) with the digit sets of each (size, sum), the linear sums and groups (copied,
 * each group with its peer positions), and the cells' constraints (one CSR over sums, linear
 * sums and groups, the search's constraint ring).  Nothing here runs during a search.
 */
#include "sk_rules.h"

#include <stdlib.h>
#include <string.h>

#include "sk_port.h"
#include "sk_props.h"

static uint64_t full_mask(int n) { return n >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << n) - 1); }

void sk_rules_free(sk_rule_tables *r) {
    if (r == NULL) return;
    SK_FREE_ALL(free, r->allowed, r->watch, r->arc_start, r->arc_to, r->arc_table,
                      r->cell_sums_start, r->cell_sums, r->imp_start, r->imp_to, r->imp_drop, r->seen_by, r->cage_start, r->cage_cells,
                      r->cage_sum, r->combo_off, r->combo_len, r->bounds, r->combos,
                      r->lin_start, r->lin_cells, r->lin_coefs, r->lin_total, r->group_kind,
                      r->group_start, r->group_cells, r->group_before, r->param_start,
                      r->group_params, r);
}

/* Appends to out[*count] every set of `left` distinct digits in smallest..n adding up to rest
 * (each or'ed with mask), stopping with 0 once more than cap sets exist.  A branch is entered
 * only when some set completes it (sums of k distinct digits of a range fill an interval), so
 * the cost is about the number of sets times size * n.  Recursion depth <= size <= 64. */
static int cage_sets(int n, int smallest, int left, int rest, uint64_t mask, uint64_t *out,
                     uint32_t *count, uint32_t cap) {
    if (left == 0) {
        if (rest != 0) return 1;
        if (*count >= cap) return 0;
        out[(*count)++] = mask;
        return 1;
    }
    /* The largest sum of left - 1 distinct digits of 1..n: the top left - 1 of them. */
    const int top = (left - 1) * (2 * n - left + 2) / 2;
    for (int d = smallest; d <= n; d++) {
        if (d * left + left * (left - 1) / 2 > rest) break; /* d and the next ones: too much */
        if (d + top < rest) continue;                        /* even the largest: too little */
        if (!cage_sets(n, d + 1, left - 1, rest - d, mask | (uint64_t)1 << (d - 1), out, count,
                       cap))
            return 0;
    }
    return 1;
}

/* The transpose of a support table: bit x of out[y] is bit y of t[x]. */
static void transpose_table(int n, const uint64_t *t, uint64_t *out) {
    for (int y = 0; y < n; y++) out[y] = 0;
    for (int x = 0; x < n; x++) {
        uint64_t m = t[x];
        while (m) {
            const int y = __builtin_ctzll(m);
            m &= m - 1;
            out[y] |= (uint64_t)1 << x;
        }
    }
}

/* 1 when the cells list[0 .. size-1] are each below ncells and distinct (stamp: ncells
 * entries, marked with tag and left marked), else 0. */
static int distinct_cells(const uint16_t *list, uint32_t size, int ncells, uint32_t *stamp,
                          uint32_t tag) {
    for (uint32_t j = 0; j < size; j++) {
        if (list[j] >= ncells || stamp[list[j]] == tag) return 0;
        stamp[list[j]] = tag;
    }
    return 1;
}

/* The linear sums and groups of r (contract of sk_rules, sk_solver.h): 1 valid, 0 not. */
static int sums_and_groups_valid(const sk_rules_shape *g, const sk_rules *r, uint32_t *stamp) {
    const int n = g->n, ncells = g->ncells;
    if ((r->nlinear && (!r->lin_ends || !r->lin_cells || !r->lin_coefs || !r->lin_totals)) ||
        (r->ngroups && (!r->group_kinds || !r->group_cell_ends || !r->group_cells ||
                        !r->group_param_ends)))
        return 0;
    uint32_t tag = 0, start = 0;
    for (uint32_t k = 0; k < r->nlinear; start = r->lin_ends[k], k++) {
        const uint32_t end = r->lin_ends[k];
        if (end <= start || end - start > (uint32_t)ncells ||
            !distinct_cells(r->lin_cells + start, end - start, ncells, stamp, ++tag) ||
            r->lin_totals[k] < -SK_LINEAR_TOTAL_MAX || r->lin_totals[k] > SK_LINEAR_TOTAL_MAX)
            return 0;
        for (uint32_t j = start; j < end; j++)
            if (r->lin_coefs[j] == 0 || r->lin_coefs[j] < -SK_LINEAR_COEF_MAX ||
                r->lin_coefs[j] > SK_LINEAR_COEF_MAX)
                return 0;
    }
    uint32_t p0 = 0;
    start = 0;
    for (uint32_t k = 0; k < r->ngroups; start = r->group_cell_ends[k], p0 = r->group_param_ends[k], k++) {
        const uint32_t end = r->group_cell_ends[k], p1 = r->group_param_ends[k];
        const int kind = r->group_kinds[k];
        if (end <= start || end - start > SK_GROUP_MAX_CELLS || p1 < p0 ||
            !distinct_cells(r->group_cells + start, end - start, ncells, stamp, ++tag) ||
            kind < 1 || kind > SK_GROUP_KINDS || (p1 > p0 && r->group_params == NULL))
            return 0;
        const uint32_t np = p1 - p0;
        if (kind == SK_GROUP_RENBAN || kind == SK_GROUP_BETWEEN) {
            if (np != 0) return 0;
        } else if (kind == SK_GROUP_QUADRUPLE) {
            if (np < 1 || np > 4) return 0;
            for (uint32_t j = p0; j < p1; j++)
                if (r->group_params[j] < 1 || r->group_params[j] > n) return 0;
        } else if (kind == SK_GROUP_SUM_IN) {
            if (np < 1 || np > SK_GROUP_SUM_IN_MAX) return 0;
            for (uint32_t j = p0; j < p1; j++)
                if (r->group_params[j] < 0) return 0;
        } else if (np != 1 || r->group_params[p0] < 0) {
            return 0;
        }
    }
    return 1;
}

/* Checks every index and count of r against g (contract of sk_geom_set_rules, sk_solver.h);
 * 1 when valid, 0 when not, -1 when out of memory. */
static int rules_valid(const sk_rules_shape *g, const sk_rules *r) {
    const int n = g->n, ncells = g->ncells;
    if ((r->npairs && r->pairs == NULL) ||
        (r->nrelations && (r->rel_cells == NULL || r->rel_tables == NULL)) ||
        (r->ncages && (r->cage_ends == NULL || r->cage_sums == NULL)))
        return 0;
    for (uint64_t k = 0; k < 2 * (uint64_t)r->npairs; k += 2)
        if (r->pairs[k] >= ncells || r->pairs[k + 1] >= ncells || r->pairs[k] == r->pairs[k + 1])
            return 0;
    for (uint64_t k = 0; k < 2 * (uint64_t)r->nrelations; k += 2)
        if (r->rel_cells[k] >= ncells || r->rel_cells[k + 1] >= ncells ||
            r->rel_cells[k] == r->rel_cells[k + 1])
            return 0;
    if (r->nlinear || r->ngroups) {
        uint32_t *stamp = calloc((size_t)ncells, sizeof *stamp);
        if (stamp == NULL) return -1;
        const int ok = sums_and_groups_valid(g, r, stamp);
        free(stamp);
        if (!ok) return 0;
    }
    if (r->ncages == 0) return 1;
    if (r->cage_cells == NULL && r->cage_ends[r->ncages - 1] > 0) return 0;
    uint8_t *used = calloc((size_t)ncells, 1);
    if (used == NULL) return -1;
    uint32_t start = 0;
    int ok = 1;
    for (uint32_t k = 0; k < r->ncages && ok; start = r->cage_ends[k], k++) {
        const uint32_t end = r->cage_ends[k];
        ok = end > start && end - start <= (uint32_t)n && r->cage_sums[k] >= -1 &&
             r->cage_sums[k] <= n * (n + 1) / 2;
        for (uint32_t j = start; ok && j < end; j++) {
            const uint16_t c = r->cage_cells[j];
            ok = c < ncells && !used[c];
            if (ok) used[c] = 1;
        }
    }
    free(used);
    return ok;
}

/* The cells' peers plus the rules' extra pairs and cage mates, as a new CSR (two passes, count
 * then fill, deduplicated with stamps as in sk_geom_new), into *peer_start_out and *peers_out
 * (untouched on SK_ENOMEM). */
static int merge_peers(const sk_rules_shape *g, const sk_rules *r, uint32_t **peer_start_out,
                       uint16_t **peers_out) {
    const int ncells = g->ncells;
    /* The extra partners of each cell, as CSR: pairs both ways, cage mates. */
    uint32_t *xs = calloc((size_t)ncells + 1, sizeof *xs);
    uint32_t *stamp = calloc((size_t)ncells, sizeof *stamp);
    uint32_t *fill = calloc((size_t)ncells, sizeof *fill);
    uint32_t *start = calloc((size_t)ncells + 1, sizeof *start);
    uint16_t *x = NULL, *peers = NULL;
    int rc = SK_ENOMEM;
    if (!xs || !stamp || !fill || !start) goto done;
    for (int pass = 0; pass < 2; pass++) {
        uint32_t cs = 0;
        for (uint32_t k = 0; k < r->npairs; k++) {
            const uint16_t a = r->pairs[2 * k], b = r->pairs[2 * k + 1];
            if (pass == 0) {
                xs[a + 1]++;
                xs[b + 1]++;
            } else {
                x[xs[a] + fill[a]++] = b;
                x[xs[b] + fill[b]++] = a;
            }
        }
        for (uint32_t k = 0; k < r->ncages; cs = r->cage_ends[k], k++) {
            const uint32_t ce = r->cage_ends[k];
            for (uint32_t i = cs; i < ce; i++) {
                const uint16_t a = r->cage_cells[i];
                if (pass == 0) {
                    xs[a + 1] += ce - cs - 1;
                    continue;
                }
                for (uint32_t j = cs; j < ce; j++)
                    if (j != i) x[xs[a] + fill[a]++] = r->cage_cells[j];
            }
        }
        if (pass == 0) {
            for (int c = 0; c < ncells; c++) xs[c + 1] += xs[c];
            x = malloc(((size_t)xs[ncells] + 1) * sizeof *x);
            if (x == NULL) goto done;
        }
    }
    for (int pass = 0; pass < 2; pass++) {
        uint32_t pos = 0;
        for (int c = 0; c < ncells; c++) {
            const uint32_t tag = (uint32_t)(pass * ncells + c) + 1;
            stamp[c] = tag;
            if (pass == 1) start[c] = pos;
            for (int from = 0; from < 2; from++) {
                const uint16_t *list = from ? x : g->peers;
                const uint32_t a = from ? xs[c] : g->peer_start[c];
                const uint32_t b = from ? xs[c + 1] : g->peer_start[c + 1];
                for (uint32_t k = a; k < b; k++) {
                    if (stamp[list[k]] == tag) continue;
                    stamp[list[k]] = tag;
                    if (pass == 1) peers[pos] = list[k];
                    pos++;
                }
            }
        }
        if (pass == 0) {
            peers = malloc(((size_t)pos + 1) * sizeof *peers);
            if (peers == NULL) goto done;
        } else {
            start[ncells] = pos;
        }
    }
    *peers_out = peers;
    *peer_start_out = start;
    peers = NULL;
    start = NULL;
    rc = SK_COMPLETE;
done:
    SK_FREE_ALL(free, xs, stamp, fill, start, x, peers);
    return rc;
}

/* The arcs of r's relations, both directions, merged (intersected) per ordered pair; arcs that
 * allow everything are dropped.  SK_ENOMEM on allocation failure. */
static int build_arcs(const sk_rules_shape *g, const sk_rules *r, sk_rule_tables *out) {
    const int n = g->n, ncells = g->ncells;
    const uint64_t full = full_mask(n);
    const size_t nraw = 2 * (size_t)r->nrelations;
    /* Raw arcs grouped by their first cell: (relation k, direction) in raw[rs[a] ..]. */
    uint32_t *rs = calloc((size_t)ncells + 1, sizeof *rs);
    uint32_t *fill = calloc((size_t)ncells, sizeof *fill);
    uint32_t *raw = malloc((nraw + 1) * sizeof *raw);
    int32_t *slot = malloc((size_t)ncells * sizeof *slot);
    uint64_t *tbuf = malloc((size_t)n * sizeof *tbuf);
    out->arc_start = calloc((size_t)ncells + 1, sizeof *out->arc_start);
    out->arc_to = malloc((nraw + 1) * sizeof *out->arc_to);
    out->arc_table = malloc((nraw * (size_t)n + 1) * sizeof *out->arc_table);
    int rc = SK_ENOMEM;
    if (!rs || !fill || !raw || !slot || !tbuf || !out->arc_start || !out->arc_to ||
        !out->arc_table)
        goto done;
    for (size_t k = 0; k < nraw; k++) rs[r->rel_cells[k] + 1]++;
    for (int c = 0; c < ncells; c++) rs[c + 1] += rs[c];
    for (size_t k = 0; k < nraw; k++) {
        const uint16_t a = r->rel_cells[k];
        raw[rs[a] + fill[a]++] = (uint32_t)k; /* k = 2 * relation + (0: a -> b, 1: b -> a) */
    }
    for (int c = 0; c < ncells; c++) slot[c] = -1;
    uint32_t narcs = 0;
    for (int a = 0; a < ncells; a++) {
        out->arc_start[a] = narcs;
        for (uint32_t j = rs[a]; j < rs[a + 1]; j++) {
            const uint32_t k = raw[j], rel = k / 2;
            const uint16_t b = r->rel_cells[k ^ 1];
            const uint64_t *t = r->rel_tables + (size_t)rel * n;
            if (k & 1) {
                transpose_table(n, t, tbuf);
                t = tbuf;
            }
            if (slot[b] < 0) {
                slot[b] = (int32_t)narcs;
                out->arc_to[narcs] = b;
                for (int d = 0; d < n; d++) out->arc_table[(size_t)narcs * n + d] = full;
                narcs++;
            }
            uint64_t *dst = out->arc_table + (size_t)slot[b] * n;
            for (int d = 0; d < n; d++) dst[d] &= t[d];
        }
        /* Reset the slots and drop the arcs of a that restrict nothing. */
        uint32_t kept = out->arc_start[a];
        for (uint32_t i = out->arc_start[a]; i < narcs; i++) {
            const uint64_t *t = out->arc_table + (size_t)i * n;
            slot[out->arc_to[i]] = -1;
            int any = 0;
            for (int d = 0; d < n && !any; d++) any = t[d] != full;
            if (!any) continue;
            if (kept != i) {
                out->arc_to[kept] = out->arc_to[i];
                memmove(out->arc_table + (size_t)kept * n, t, (size_t)n * sizeof *t);
            }
            kept++;
        }
        narcs = kept;
    }
    out->arc_start[ncells] = narcs;
    rc = SK_COMPLETE;
done:
    SK_FREE_ALL(free, rs, fill, raw, slot, tbuf);
    return rc;
}

/* A growing list of sum constraints (cells, sum, distinct digits or not) while they are
 * collected; cells of constraint k are cells[start[k] .. start[k+1]-1]. */
typedef struct {
    uint16_t *cells;
    uint32_t *start;
    int32_t *sum;
    uint8_t *distinct;
    uint32_t count, ncells, cap_count, cap_cells;
} sum_list;

static int sum_list_add(sum_list *l, const uint16_t *cells, uint32_t size, int32_t sum,
                        int distinct) {
    if (l->count + 1 >= l->cap_count) {
        const uint32_t cap = l->cap_count ? 2 * l->cap_count : 64;
        uint32_t *st = realloc(l->start, ((size_t)cap + 1) * sizeof *st);
        if (st != NULL) l->start = st;
        int32_t *su = realloc(l->sum, (size_t)cap * sizeof *su);
        if (su != NULL) l->sum = su;
        uint8_t *di = realloc(l->distinct, (size_t)cap);
        if (di != NULL) l->distinct = di;
        if (st == NULL || su == NULL || di == NULL) return 0;
        if (l->count == 0) l->start[0] = 0;
        l->cap_count = cap;
    }
    if (l->ncells + size > l->cap_cells) {
        uint32_t cap = l->cap_cells ? l->cap_cells : 256;
        while (l->ncells + size > cap) cap *= 2;
        uint16_t *ce = realloc(l->cells, (size_t)cap * sizeof *ce);
        if (ce == NULL) return 0;
        l->cells = ce;
        l->cap_cells = cap;
    }
    memcpy(l->cells + l->ncells, cells, size * sizeof *cells);
    l->ncells += size;
    l->sum[l->count] = sum;
    l->distinct[l->count] = (uint8_t)distinct;
    l->start[++l->count] = l->ncells;
    return 1;
}

/*
 * The sum constraints a search propagates: the summed cages, then what each unit (holding
 * 1..n once, so adding up to n(n+1)/2) says about them, the killer solver's "rule of 45":
 *
 *   innies   the cells of a unit outside the cages that lie wholly inside it add up to
 *            n(n+1)/2 minus those cages' sums (distinct digits: one unit);
 *   outies   when cages cover a unit, the cells of those cages outside the unit add up to
 *            their sums minus n(n+1)/2 (not necessarily distinct: propagated by bounds).
 *
 * Both hold in every solution, so they cut the search without changing any count.
 */
static int collect_sums(const sk_rules_shape *g, const sk_rules *r, sum_list *l) {
    const int n = g->n, ncells = g->ncells, maxsum = n * (n + 1) / 2;
    int32_t *owner = malloc((size_t)ncells * sizeof *owner);  /* summed cage of a cell, or -1 */
    uint32_t *inside = calloc((size_t)r->ncages + 1, sizeof *inside); /* its cells in the unit */
    uint16_t *rest = malloc(((size_t)ncells + 1) * sizeof *rest);
    uint16_t *out = malloc(((size_t)ncells + 1) * sizeof *out);
    int ok = owner && inside && rest && out;
    uint32_t start = 0;
    if (ok)
        for (int c = 0; c < ncells; c++) owner[c] = -1;
    for (uint32_t k = 0; ok && k < r->ncages; start = r->cage_ends[k], k++) {
        if (r->cage_sums[k] < 0) continue;
        for (uint32_t j = start; j < r->cage_ends[k]; j++) owner[r->cage_cells[j]] = (int32_t)k;
        ok = sum_list_add(l, r->cage_cells + start, r->cage_ends[k] - start, r->cage_sums[k], 1);
    }
    const uint32_t nuser = l->count;
    for (int u = 0; ok && nuser && u < g->nunits; u++) {
        const uint16_t *unit = g->units + (size_t)u * n;
        int covered = 1;
        for (int i = 0; i < n; i++) {
            if (owner[unit[i]] < 0)
                covered = 0;
            else
                inside[owner[unit[i]]]++;
        }
        int32_t whole = 0, touched = 0;
        uint32_t nrest = 0, nout = 0, nwhole = 0;
        for (int i = 0; i < n; i++) {
            const int32_t k = owner[unit[i]];
            if (k < 0) {
                rest[nrest++] = unit[i];
                continue;
            }
            const uint32_t k0 = k ? r->cage_ends[k - 1] : 0, size = r->cage_ends[k] - k0;
            if (inside[k] == 0) continue; /* this cage was already counted for this unit */
            touched += r->cage_sums[k];
            if (inside[k] == size) {
                whole += r->cage_sums[k];
                nwhole++;
            } else {
                for (uint32_t j = k0; j < r->cage_ends[k]; j++) {
                    const uint16_t c = r->cage_cells[j];
                    int in_unit = 0;
                    for (int t = 0; t < n && !in_unit; t++) in_unit = unit[t] == c;
                    if (in_unit)
                        rest[nrest++] = c;
                    else
                        out[nout++] = c;
                }
            }
            inside[k] = 0;
        }
        if (nwhole && nrest) ok = sum_list_add(l, rest, nrest, maxsum - whole, 1);
        if (ok && covered && nout) ok = sum_list_add(l, out, nout, touched - maxsum, 0);
    }
    SK_FREE_ALL(free, owner, inside, rest, out);
    return ok;
}

/* The sum constraints (collect_sums) and the digit sets of the distinct ones (one list per
 * (size, sum), shared); the others, and those with too many sets, propagate sum bounds. */
static int build_cages(const sk_rules_shape *g, const sk_rules *r, sk_rule_tables *out) {
    const int n = g->n, maxsum = n * (n + 1) / 2;
    sum_list l;
    memset(&l, 0, sizeof l);
    int rc = SK_ENOMEM;
    uint32_t *seen = NULL;
    uint64_t *buf = NULL;
    if (!collect_sums(g, r, &l)) goto done;
    const uint32_t ncages = l.count;
    out->ncages = ncages;
    out->cage_start = calloc((size_t)ncages + 1, sizeof *out->cage_start);
    out->cage_cells = malloc(((size_t)l.ncells + 1) * sizeof *out->cage_cells);
    out->cage_sum = calloc((size_t)ncages + 1, sizeof *out->cage_sum);
    out->combo_off = calloc((size_t)ncages + 1, sizeof *out->combo_off);
    out->combo_len = calloc((size_t)ncages + 1, sizeof *out->combo_len);
    out->bounds = calloc((size_t)ncages + 1, 1);
    /* Which earlier cage already has the sets of (size, sum): index + 1, 0 when none. */
    seen = calloc((size_t)(n + 1) * (size_t)(maxsum + 1), sizeof *seen);
    buf = malloc(SK_CAGE_COMBOS_MAX * sizeof *buf);
    size_t pool_cap = 64, pool_len = 0;
    out->combos = malloc(pool_cap * sizeof *out->combos);
    if (!out->cage_start || !out->cage_cells || !out->cage_sum || !out->combo_off ||
        !out->combo_len || !out->bounds || !seen || !buf || !out->combos)
        goto done;
    if (ncages) memcpy(out->cage_start, l.start, ((size_t)ncages + 1) * sizeof *l.start);
    if (l.ncells) memcpy(out->cage_cells, l.cells, (size_t)l.ncells * sizeof *l.cells);
    for (uint32_t k = 0; k < ncages; k++) {
        const int32_t sum = l.sum[k];
        const uint32_t size = l.start[k + 1] - l.start[k];
        out->cage_sum[k] = sum;
        if (!l.distinct[k] || sum < 0 || sum > maxsum || size > (uint32_t)n) {
            /* Not distinct (outies), or impossible for distinct digits: bounds decide. */
            out->bounds[k] = 1;
            continue;
        }
        uint32_t *known = &seen[(size_t)size * (size_t)(maxsum + 1) + (size_t)sum];
        if (*known) {
            const uint32_t other = *known - 1;
            out->combo_off[k] = out->combo_off[other];
            out->combo_len[k] = out->combo_len[other];
            out->bounds[k] = out->bounds[other];
            continue;
        }
        uint32_t count = 0;
        if (!cage_sets(n, 1, (int)size, sum, 0, buf, &count, SK_CAGE_COMBOS_MAX)) {
            out->bounds[k] = 1; /* too many sets: sum bounds instead */
            count = 0;
        }
        if (pool_len + count > pool_cap) {
            while (pool_len + count > pool_cap) pool_cap *= 2;
            uint64_t *grown = realloc(out->combos, pool_cap * sizeof *grown);
            if (grown == NULL) goto done;
            out->combos = grown;
        }
        memcpy(out->combos + pool_len, buf, count * sizeof *buf);
        out->combo_off[k] = (uint32_t)pool_len;
        out->combo_len[k] = count;
        pool_len += count;
        *known = k + 1;
    }
    rc = SK_COMPLETE;
done:
    SK_FREE_ALL(free, l.cells, l.start, l.sum, l.distinct, seen, buf);
    return rc;
}

/* A copy of count items of size bytes (at least one byte allocated, so NULL means no memory). */
static void *copy_of(const void *src, size_t count, size_t size) {
    void *out = malloc(count * size + 1);
    if (out != NULL && count) memcpy(out, src, count * size);
    return out;
}

/* The CSR starts of ends[0 .. count-1] (count + 1 entries, from 0). */
static uint32_t *starts_of(const uint32_t *ends, uint32_t count) {
    uint32_t *out = malloc(((size_t)count + 1) * sizeof *out);
    if (out == NULL) return NULL;
    out[0] = 0;
    if (count) memcpy(out + 1, ends, (size_t)count * sizeof *ends);
    return out;
}

/* The linear sums and groups, copied as given; each group's peer positions (group_before,
 * from the merged peers start / peers) and the scratch its propagator needs. */
static int build_sums_and_groups(const sk_rules_shape *g, const sk_rules *r, const uint32_t *start,
                                 const uint16_t *peers, sk_rule_tables *out) {
    const uint32_t nl = r->nlinear, ng = r->ngroups;
    const uint32_t lcells = nl ? r->lin_ends[nl - 1] : 0, gcells = ng ? r->group_cell_ends[ng - 1] : 0;
    const uint32_t nparams = ng ? r->group_param_ends[ng - 1] : 0;
    out->nlinear = nl;
    out->ngroups = ng;
    out->lin_start = starts_of(r->lin_ends, nl);
    out->lin_cells = copy_of(r->lin_cells, lcells, sizeof *r->lin_cells);
    out->lin_coefs = copy_of(r->lin_coefs, lcells, sizeof *r->lin_coefs);
    out->lin_total = copy_of(r->lin_totals, nl, sizeof *r->lin_totals);
    out->group_kind = copy_of(r->group_kinds, ng, sizeof *r->group_kinds);
    out->group_start = starts_of(r->group_cell_ends, ng);
    out->group_cells = copy_of(r->group_cells, gcells, sizeof *r->group_cells);
    out->group_before = calloc((size_t)gcells + 1, sizeof *out->group_before);
    out->param_start = starts_of(r->group_param_ends, ng);
    out->group_params = copy_of(r->group_params, nparams, sizeof *r->group_params);
    int32_t *pos = malloc(((size_t)g->ncells + 1) * sizeof *pos); /* cell -> position, or -1 */
    int rc = SK_ENOMEM;
    if (!out->lin_start || !out->lin_cells || !out->lin_coefs || !out->lin_total ||
        !out->group_kind || !out->group_start || !out->group_cells || !out->group_before ||
        !out->param_start || !out->group_params || !pos)
        goto done;
    for (int c = 0; c < g->ncells; c++) pos[c] = -1;
    for (uint32_t k = 0; k < ng; k++) {
        const uint32_t a = out->group_start[k], b = out->group_start[k + 1];
        const uint32_t p = out->param_start[k];
        for (uint32_t j = a; j < b; j++) pos[out->group_cells[j]] = (int32_t)(j - a);
        for (uint32_t j = a; j < b; j++) {
            const uint16_t c = out->group_cells[j];
            for (uint32_t q = start[c]; q < start[c + 1]; q++) {
                const int32_t i = pos[peers[q]];
                if (i >= 0 && (uint32_t)i < j - a) out->group_before[j] |= (uint64_t)1 << i;
            }
        }
        for (uint32_t j = a; j < b; j++) pos[out->group_cells[j]] = -1;
        const size_t words =
            sk_group_scratch(g->n, out->group_kind[k], b - a, out->group_params + p,
                             out->param_start[k + 1] - p, out->group_before + a);
        if (words > out->group_scratch) out->group_scratch = words;
    }
    rc = SK_COMPLETE;
done:
    free(pos);
    return rc;
}

/* cell -> its constraints (sum constraints, linear sums, groups: one index space), as CSR. */
static int build_cell_constraints(int ncells, sk_rule_tables *out) {
    const uint32_t ncages = out->ncages, nl = out->nlinear, ng = out->ngroups;
    const uint32_t total = out->cage_start[ncages] + out->lin_start[nl] + out->group_start[ng];
    out->nconstraints = ncages + nl + ng;
    out->cell_sums_start = calloc((size_t)ncells + 1, sizeof *out->cell_sums_start);
    out->cell_sums = malloc(((size_t)total + 1) * sizeof *out->cell_sums);
    uint32_t *fill = calloc((size_t)ncells + 1, sizeof *fill);
    int rc = SK_ENOMEM;
    if (!out->cell_sums_start || !out->cell_sums || !fill) goto done;
    for (int pass = 0; pass < 2; pass++) {
        for (int list = 0; list < 3; list++) {
            const uint32_t count = list == 0 ? ncages : list == 1 ? nl : ng;
            const uint32_t *st = list == 0 ? out->cage_start : list == 1 ? out->lin_start
                                                                         : out->group_start;
            const uint16_t *cells = list == 0 ? out->cage_cells : list == 1 ? out->lin_cells
                                                                            : out->group_cells;
            const uint32_t base = list == 0 ? 0 : list == 1 ? ncages : ncages + nl;
            for (uint32_t k = 0; k < count; k++)
                for (uint32_t j = st[k]; j < st[k + 1]; j++) {
                    const uint16_t c = cells[j];
                    if (pass == 0)
                        out->cell_sums_start[c + 1]++;
                    else
                        out->cell_sums[out->cell_sums_start[c] + fill[c]++] = base + k;
                }
        }
        if (pass == 0)
            for (int c = 0; c < ncells; c++) out->cell_sums_start[c + 1] += out->cell_sums_start[c];
    }
    rc = SK_COMPLETE;
done:
    free(fill);
    return rc;
}

/* The implications of the arcs (sk_rules.h: imp_start, imp_to, imp_drop), from the merged arc
 * tables: cell a holding digit x + 1 takes from arc_to[k] the digits arc_table[k*n + x] forbids. */
static int build_implications(int n, int ncells, const uint64_t full, sk_rule_tables *out) {
    const size_t nkeys = (size_t)ncells * (size_t)n, narcs = out->arc_start[ncells];
    out->imp_start = calloc(nkeys + 1, sizeof *out->imp_start);
    out->imp_to = malloc((narcs * (size_t)n + 1) * sizeof *out->imp_to);
    out->imp_drop = malloc((narcs * (size_t)n + 1) * sizeof *out->imp_drop);
    if (!out->imp_start || !out->imp_to || !out->imp_drop) return SK_ENOMEM;
    uint32_t len = 0;
    for (int a = 0; a < ncells; a++)
        for (int x = 0; x < n; x++) {
            out->imp_start[(size_t)a * n + x] = len;
            for (uint32_t k = out->arc_start[a]; k < out->arc_start[a + 1]; k++) {
                const uint64_t drop = full & ~out->arc_table[(size_t)k * n + x];
                if (drop == 0) continue;
                out->imp_to[len] = out->arc_to[k];
                out->imp_drop[len++] = drop;
            }
        }
    out->imp_start[nkeys] = len;
    return SK_COMPLETE;
}

int sk_rules_compile(const sk_rules_shape *g, const sk_rules *r, int peer_bits,
                     sk_rule_tables **tables, uint32_t **peer_start, uint16_t **peers) {
    const int valid = rules_valid(g, r);
    if (valid < 0) return SK_ENOMEM;
    if (!valid) return SK_EINVAL;
    const int ncells = g->ncells;
    const uint64_t full = full_mask(g->n);
    sk_rule_tables *out = calloc(1, sizeof *out);
    uint32_t *start = NULL;
    uint16_t *merged = NULL;
    if (out == NULL) return SK_ENOMEM;
    out->allowed = malloc((size_t)ncells * sizeof *out->allowed);
    out->watch = calloc((size_t)ncells, 1);
    if (!out->allowed || !out->watch || build_arcs(g, r, out) != SK_COMPLETE ||
        build_cages(g, r, out) != SK_COMPLETE || merge_peers(g, r, &start, &merged) != SK_COMPLETE ||
        build_sums_and_groups(g, r, start, merged, out) != SK_COMPLETE ||
        build_cell_constraints(ncells, out) != SK_COMPLETE)
        goto nomem;
    for (int c = 0; c < ncells; c++) {
        out->allowed[c] = r->allowed ? r->allowed[c] & full : full;
        const int arcs = out->arc_start[c + 1] > out->arc_start[c];
        const int sums = out->cell_sums_start[c + 1] > out->cell_sums_start[c];
        out->watch[c] = (uint8_t)((arcs ? SK_WATCH_ARCS : 0) | (sums ? SK_WATCH_CAGE : 0));
    }
    /* Extra peers make "every place of a digit in a unit sees this cell" find more than locked
     * candidates do: the search may keep each cell's peers as a bit set for that test. */
    if (peer_bits && (r->npairs || r->ncages)) {
        out->words = (uint32_t)((ncells + 63) / 64);
        out->seen_by = calloc((size_t)ncells * out->words, sizeof *out->seen_by);
        if (out->seen_by == NULL) goto nomem;
        for (int c = 0; c < ncells; c++)
            for (uint32_t k = start[c]; k < start[c + 1]; k++)
                out->seen_by[(size_t)c * out->words + merged[k] / 64] |=
                    (uint64_t)1 << (merged[k] % 64);
    }
    if (peer_bits && out->arc_start[ncells] > 0 &&
        build_implications(g->n, ncells, full, out) != SK_COMPLETE)
        goto nomem;
    *tables = out;
    *peer_start = start;
    *peers = merged;
    return SK_COMPLETE;
nomem:
    sk_rules_free(out);
    free(start);
    free(merged);
    return SK_ENOMEM;
}
