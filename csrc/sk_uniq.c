/*
 * sk_uniq.c -- unique rectangles / loops and the BUG cells (see sk_uniq.h for the contract).
 *
 * The Python in src/sudokit/logic/uniqueness.py is the specification; each function below
 * names the Python it mirrors and keeps its order (loops are met in the walk's order, the
 * steps of one loop in the order _ur_finds yields them), so that the output is identical.
 */
#include "sk_uniq.h"

#include <stdlib.h>
#include <string.h>

#include "sk_port.h"

static int popcount64(uint64_t x) { return __builtin_popcountll(x); }

/* A loop already met: its digits and its cells sorted (the Python's `found` key). */
typedef struct {
    uint64_t pm;
    int32_t len;
    int32_t cells[SK_UNIQ_MAX_LOOP];
} seen_loop;

/* The state of one sk_uniq_steps call (all of it allocated per call). */
typedef struct {
    const sk_uniq_geom *g;
    const uint64_t *masks;
    sk_uniq_out *out;
    const uint8_t *room; /* the cells the walk may visit (the current digits' room) */
    uint64_t pm;         /* the current digits */
    int32_t path[SK_UNIQ_MAX_LOOP];
    int len;
    seen_loop *seen;
    size_t nseen, seen_cap;
    uint8_t *unit_seen; /* nunits, zero between uses (_is_deadly) */
    uint8_t *on_path;   /* nunits: the parities (bit i & 1) of the path's cells in each unit */
    int32_t *count;     /* ncells, zero between uses (type 2's common peers) */
    int32_t *scratch;   /* 3 * ncells: empty / others / combo cells of a unit */
    int32_t *shared;    /* nunits: the units two extra cells share (types 3 and 4) */
} uniq_ctx;

/* ---- output --------------------------------------------------------------------------- */

/* Room for k more ints in out->ints (0 / -1 no memory). */
static int reserve_ints(sk_uniq_out *out, size_t k) {
    int32_t *grown = sk_reserve(out->ints, &out->icap, out->nints + k, sizeof *grown, 256);
    if (grown == NULL) return -1;
    out->ints = grown;
    return 0;
}

/* A new find for the current loop (cells, len) with the given fields; group and eliminations
 * are appended by the caller through add_int.  NULL when memory ran out. */
static sk_uniq_find *new_find(uniq_ctx *x, const int32_t *cells, int len, int kind, int hidden,
                              int bonus, int unit, uint64_t digits) {
    sk_uniq_out *out = x->out;
    sk_uniq_find *grown = sk_reserve(out->finds, &out->cap, out->nfinds + 1, sizeof *grown, 8);
    if (grown == NULL) return NULL;
    out->finds = grown;
    sk_uniq_find *f = &out->finds[out->nfinds++];
    memset(f, 0, sizeof *f);
    f->kind = kind;
    f->hidden = hidden;
    f->bonus = bonus;
    f->unit = unit;
    f->len = len;
    memcpy(f->cells, cells, (size_t)len * sizeof *cells);
    f->pm = x->pm;
    f->digits = digits;
    f->group_at = f->elim_at = out->nints;
    return f;
}

/* Appends a group of k cells to the last find (0 / -1). */
static int add_group(uniq_ctx *x, const int32_t *cells, int k) {
    sk_uniq_out *out = x->out;
    if (reserve_ints(out, (size_t)k)) return -1;
    sk_uniq_find *f = &out->finds[out->nfinds - 1];
    f->group_at = out->nints;
    f->ngroup = k;
    memcpy(out->ints + out->nints, cells, (size_t)k * sizeof *cells);
    out->nints += (size_t)k;
    f->elim_at = out->nints;
    return 0;
}

/* Appends the elimination (cell, digit 1-based) to the last find (0 / -1). */
static int add_elim(uniq_ctx *x, int32_t cell, int32_t digit) {
    sk_uniq_out *out = x->out;
    if (reserve_ints(out, 2)) return -1;
    out->ints[out->nints++] = cell;
    out->ints[out->nints++] = digit;
    out->finds[out->nfinds - 1].nelim++;
    return 0;
}

/* Drops the last find (it turned out to eliminate nothing). */
static void drop_find(uniq_ctx *x) {
    sk_uniq_out *out = x->out;
    out->nints = out->finds[out->nfinds - 1].group_at;
    out->nfinds--;
}

void sk_uniq_out_free(sk_uniq_out *out) {
    free(out->finds);
    free(out->ints);
    memset(out, 0, sizeof *out);
}

/* ---- the type tests (uniqueness._ur_finds and the _ur_type* finders) --------------------- */

static int is_in(const int32_t *v, int k, int32_t c) {
    for (int i = 0; i < k; i++)
        if (v[i] == c) return 1;
    return 0;
}

/* Type 3 with a naked set in unit u (_ur_type3_naked): lexicographic combinations of the
 * others (others[0 .. nothers)) of size need, built in combo[0 .. depth); a combination
 * holding a cell with fewer than two candidates, or whose union with the extras already has
 * more than degree digits, is skipped with its extensions (they fail the same tests), which
 * keeps the order of the rest. */
static int naked_rec(uniq_ctx *x, const int32_t *loop, int len, int u, int degree,
                     const int32_t *others, int nothers, int32_t *combo, int depth, int need,
                     int start, uint64_t combo_union, uint64_t extra_union, uint64_t both_extra) {
    const uint64_t *masks = x->masks;
    if (depth == need) {
        const uint64_t uni = extra_union | combo_union;
        if (popcount64(uni) != degree || (both_extra | combo_union) != uni) return 0;
        if (new_find(x, loop, len, 3, 0, degree - 1, u, uni) == NULL) return -1;
        if (add_group(x, combo, need)) return -1;
        for (int i = 0; i < nothers; i++) {
            const int32_t c = others[i];
            if (is_in(combo, need, c)) continue;
            const uint64_t m = masks[c] & uni;
            for (int d = 0; d < x->g->n; d++)
                if (m >> d & 1 && add_elim(x, c, d + 1)) return -1;
        }
        if (x->out->finds[x->out->nfinds - 1].nelim == 0) drop_find(x);
        return 0;
    }
    for (int i = start; i <= nothers - (need - depth); i++) {
        const int32_t c = others[i];
        if (popcount64(masks[c]) < 2) continue;
        const uint64_t grown = combo_union | masks[c];
        if (popcount64(extra_union | grown) > degree) continue;
        combo[depth] = c;
        if (naked_rec(x, loop, len, u, degree, others, nothers, combo, depth + 1, need, i + 1,
                      grown, extra_union, both_extra))
            return -1;
    }
    return 0;
}

/* The empty cells of unit u (unit order) into empty[], the rest (without e1, e2) into
 * rest[]; returns the number of empty cells, *nrest the other count. */
static int unit_cells(const uniq_ctx *x, int u, int32_t e1, int32_t e2, int32_t *empty,
                      int32_t *rest, int *nrest) {
    const sk_uniq_geom *g = x->g;
    int ne = 0, nr = 0;
    for (int32_t k = g->unit_start[u]; k < g->unit_start[u + 1]; k++) {
        const int32_t c = g->unit_cells[k];
        if (!x->masks[c]) continue;
        empty[ne++] = c;
        if (c != e1 && c != e2) rest[nr++] = c;
    }
    *nrest = nr;
    return ne;
}

static int type3_naked(uniq_ctx *x, const int32_t *loop, int len, int32_t e1, int32_t e2,
                       uint64_t extra_union, int u) {
    const int32_t nc = x->g->ncells;
    int32_t *empty = x->scratch, *others = x->scratch + nc, *combo = x->scratch + 2 * nc;
    int nothers;
    const int nempty = unit_cells(x, u, e1, e2, empty, others, &nothers);
    const uint64_t both_extra = extra_union & x->masks[e1] & x->masks[e2];
    for (int degree = popcount64(extra_union); degree < x->g->n - 1; degree++) {
        if (2 * degree > nempty) break;
        if (naked_rec(x, loop, len, u, degree, others, nothers, combo, 0, degree - 1, 0, 0,
                      extra_union, both_extra))
            return -1;
    }
    return 0;
}

/* Type 3 with a hidden set in unit u (_ur_type3_hidden): lexicographic combinations of the
 * free digits (free[0 .. nfree), 0-based) of size need; a combination whose digits already
 * have more than degree - 1 places among rest is skipped with its extensions. */
static int hidden_rec(uniq_ctx *x, const int32_t *loop, int len, int u, int degree,
                      const int32_t *rest, int nrest, const int *free_d, int nfree, int depth,
                      int need, int start, uint64_t hidden, uint64_t added) {
    const uint64_t *masks = x->masks;
    int32_t *spots = x->scratch + 2 * x->g->ncells;
    int nspots = 0;
    for (int i = 0; i < nrest; i++)
        if (masks[rest[i]] & hidden) spots[nspots++] = rest[i];
    if (nspots > degree - 1) return 0;
    if (depth < need) {
        for (int i = start; i <= nfree - (need - depth); i++) {
            const uint64_t bit = (uint64_t)1 << free_d[i];
            if (hidden_rec(x, loop, len, u, degree, rest, nrest, free_d, nfree, depth + 1, need,
                           i + 1, hidden | bit, added | bit))
                return -1;
        }
        return 0;
    }
    if (nspots != degree - 1) return 0;
    uint64_t placed = 0;
    for (int i = 0; i < nspots; i++) placed |= masks[spots[i]];
    if (added & ~placed) return 0; /* an added digit with no place */
    if (new_find(x, loop, len, 3, 1, degree - 2, u, hidden) == NULL) return -1;
    if (add_group(x, spots, nspots)) return -1;
    for (int i = 0; i < nspots; i++) {
        const uint64_t m = masks[spots[i]] & ~hidden;
        for (int d = 0; d < x->g->n; d++)
            if (m >> d & 1 && add_elim(x, spots[i], d + 1)) return -1;
    }
    if (x->out->finds[x->out->nfinds - 1].nelim == 0) drop_find(x);
    return 0;
}

static int type3_hidden(uniq_ctx *x, const int32_t *loop, int len, int32_t e1, int32_t e2,
                        uint64_t extra_union, int u) {
    const int n = x->g->n;
    int32_t *empty = x->scratch, *rest = x->scratch + x->g->ncells;
    int nrest;
    const int nempty = unit_cells(x, u, e1, e2, empty, rest, &nrest);
    const uint64_t pm_extra = x->pm | extra_union;
    int free_d[SK_UNIQ_MAX_N], nfree = 0;
    for (int d = 0; d < n; d++)
        if (!(pm_extra >> d & 1)) free_d[nfree++] = d;
    for (int degree = popcount64(extra_union); degree < n - 1; degree++) {
        if (2 * degree >= nempty) break;
        if (degree - 2 > nfree) break; /* no combination of that size (nor larger) */
        if (hidden_rec(x, loop, len, u, degree, rest, nrest, free_d, nfree, 0, degree - 2, 0,
                       x->pm, 0))
            return -1;
    }
    return 0;
}

/* The steps of one deadly loop (the body of _ur_finds' loop). */
static int loop_steps(uniq_ctx *x, const int32_t *loop, int len) {
    const sk_uniq_geom *g = x->g;
    const uint64_t *masks = x->masks, pm = x->pm;
    int32_t extras[SK_UNIQ_MAX_LOOP];
    int nex = 0;
    uint64_t extra_union = 0;
    for (int i = 0; i < len; i++)
        if (masks[loop[i]] & ~pm) {
            extras[nex++] = loop[i];
            extra_union |= masks[loop[i]] & ~pm;
        }
    if (nex == 0) return 0;
    const int dx = __builtin_ctzll(pm), dy = 63 - __builtin_clzll(pm); /* x < y, 0-based */
    if (nex == 1) { /* type 1 */
        if (new_find(x, loop, len, 1, 0, 0, -1, 0) == NULL || add_group(x, extras, 1)) return -1;
        if (add_elim(x, extras[0], dx + 1) || add_elim(x, extras[0], dy + 1)) return -1;
        return 0;
    }
    if (popcount64(extra_union) == 1) { /* type 2: every extra cell's extra is this digit */
        const int z = __builtin_ctzll(extra_union);
        for (int i = 0; i < nex; i++)
            for (int32_t k = g->peer_start[extras[i]]; k < g->peer_start[extras[i] + 1]; k++)
                x->count[g->peer_cells[k]]++;
        int rc = 0, made = 0;
        for (int32_t c = 0; c < g->ncells && !rc; c++) {
            if (x->count[c] != nex || !(masks[c] & extra_union)) continue;
            if (!made) {
                made = 1;
                rc = new_find(x, loop, len, 2, 0, 0, -1, extra_union) == NULL ||
                     add_group(x, extras, nex);
            }
            if (!rc) rc = add_elim(x, c, z + 1);
        }
        for (int i = 0; i < nex; i++)
            for (int32_t k = g->peer_start[extras[i]]; k < g->peer_start[extras[i] + 1]; k++)
                x->count[g->peer_cells[k]] = 0;
        if (rc) return -1;
    }
    if (nex != 2) return 0;
    const int32_t e1 = extras[0], e2 = extras[1];
    int32_t *shared = x->shared; /* distinct units, so at most nunits of them */
    int nshared = 0;
    for (int32_t k = g->cell_start[e1]; k < g->cell_start[e1 + 1]; k++) {
        const int32_t u = g->cell_units[k];
        if (!is_in(g->cell_units + g->cell_start[e2], g->cell_start[e2 + 1] - g->cell_start[e2],
                   u) ||
            is_in(shared, nshared, u))
            continue;
        int i = nshared++; /* insertion, ascending */
        while (i > 0 && shared[i - 1] > u) {
            shared[i] = shared[i - 1];
            i--;
        }
        shared[i] = u;
    }
    for (int s = 0; s < nshared; s++) { /* type 4 */
        const int u = shared[s];
        const int keep_drop[2][2] = {{dx, dy}, {dy, dx}};
        for (int k = 0; k < 2; k++) {
            const uint64_t keep = (uint64_t)1 << keep_drop[k][0];
            int places = 0; /* e1 and e2 hold keep: the places must be exactly them */
            for (int32_t j = g->unit_start[u]; j < g->unit_start[u + 1]; j++)
                places += (masks[g->unit_cells[j]] & keep) != 0;
            if (places != 2) continue;
            const int drop = keep_drop[k][1] + 1;
            if (new_find(x, loop, len, 4, 0, 0, u, keep) == NULL || add_group(x, extras, 2) ||
                add_elim(x, e1, drop) || add_elim(x, e2, drop))
                return -1;
        }
    }
    if (popcount64(extra_union) < 2) return 0;
    for (int s = 0; s < nshared; s++)
        if (type3_naked(x, loop, len, e1, e2, extra_union, shared[s])) return -1;
    for (int s = 0; s < nshared; s++)
        if (type3_hidden(x, loop, len, e1, e2, extra_union, shared[s])) return -1;
    return 0;
}

/* ---- the walk (uniqueness.loops) ---------------------------------------------------------- */

/* _is_deadly: each unit holds no cell of the loop or one of each parity. */
static int is_deadly(uniq_ctx *x, const int32_t *loop, int len) {
    const sk_uniq_geom *g = x->g;
    int ok = 1;
    for (int i = 0; i < len && ok; i++)
        for (int32_t k = g->cell_start[loop[i]]; k < g->cell_start[loop[i] + 1]; k++) {
            const uint8_t bit = (uint8_t)(1 << (i & 1));
            uint8_t *s = &x->unit_seen[g->cell_units[k]];
            if (*s & bit) {
                ok = 0;
                break;
            }
            *s |= bit;
        }
    for (int i = 0; i < len; i++)
        for (int32_t k = g->cell_start[loop[i]]; k < g->cell_start[loop[i] + 1]; k++) {
            uint8_t *s = &x->unit_seen[g->cell_units[k]];
            if (*s && *s != 3) ok = 0;
            *s = 0;
        }
    return ok;
}

/* A closed path of the walk: once per (cells, digits), if deadly, its steps. */
static int on_loop(uniq_ctx *x) {
    seen_loop key = {x->pm, x->len, {0}};
    for (int i = 0; i < x->len; i++) { /* sorted copy */
        int j = i;
        while (j > 0 && key.cells[j - 1] > x->path[i]) {
            key.cells[j] = key.cells[j - 1];
            j--;
        }
        key.cells[j] = x->path[i];
    }
    for (size_t s = 0; s < x->nseen; s++) {
        const seen_loop *o = &x->seen[s];
        if (o->pm == key.pm && o->len == key.len &&
            !memcmp(o->cells, key.cells, (size_t)key.len * sizeof *key.cells))
            return 0;
    }
    if (!is_deadly(x, x->path, x->len)) return 0;
    seen_loop *grown = sk_reserve(x->seen, &x->seen_cap, x->nseen + 1, sizeof *grown, 16);
    if (grown == NULL) return -1;
    x->seen = grown;
    x->seen[x->nseen++] = key;
    int32_t loop[SK_UNIQ_MAX_LOOP];
    memcpy(loop, x->path, (size_t)x->len * sizeof *loop);
    return loop_steps(x, loop, x->len);
}

/* Marks (set 1) or unmarks (set 0) the parity bit of path cell i in each of its units; with
 * set 1, returns 0 without marking anything when a unit already has that bit. */
static int mark_parity(uniq_ctx *x, int32_t cell, int i, int set) {
    const sk_uniq_geom *g = x->g;
    const uint8_t bit = (uint8_t)(1 << (i & 1));
    if (!set) {
        for (int32_t k = g->cell_start[cell]; k < g->cell_start[cell + 1]; k++)
            x->on_path[g->cell_units[k]] &= (uint8_t)~bit;
        return 1;
    }
    for (int32_t k = g->cell_start[cell]; k < g->cell_start[cell + 1]; k++)
        if (x->on_path[g->cell_units[k]] & bit) return 0;
    for (int32_t k = g->cell_start[cell]; k < g->cell_start[cell + 1]; k++)
        x->on_path[g->cell_units[k]] |= bit;
    return 1;
}

/* The recursive walk of loops(): from the path's last cell through its units of another
 * kind than last (-1: none yet).  One pruning, exact: the walk does not extend the path with
 * a cell that shares a unit with a path cell of the same parity (position i & 1).  Every
 * closed path through it would fail _is_deadly (that unit would hold two cells of one
 * parity), and a closed path failing _is_deadly is dropped without a trace (it adds no
 * `found` key), so the loops met and their order are those of the unpruned walk. */
static int walk(uniq_ctx *x, int last, int allowed, uint64_t extra) {
    const sk_uniq_geom *g = x->g;
    const int32_t cell = x->path[x->len - 1];
    for (int32_t k = g->cell_start[cell]; k < g->cell_start[cell + 1]; k++) {
        const int32_t u = g->cell_units[k];
        if (g->kind[u] == last) continue;
        for (int32_t j = g->unit_start[u]; j < g->unit_start[u + 1]; j++) {
            const int32_t nxt = g->unit_cells[j];
            if (nxt == x->path[0] && x->len >= 4 && !(x->len & 1)) {
                if (on_loop(x)) return -1;
                continue;
            }
            if (!x->room[nxt] || x->len >= SK_UNIQ_MAX_LOOP || is_in(x->path, x->len, nxt))
                continue;
            const uint64_t more = x->masks[nxt] & ~x->pm, grown = extra | more;
            if (more && popcount64(grown) != 1 && allowed <= 0) continue;
            if (!mark_parity(x, nxt, x->len, 1)) continue;
            x->path[x->len++] = nxt;
            const int rc = walk(x, g->kind[u], allowed - (more ? 1 : 0), grown);
            x->len--;
            mark_parity(x, nxt, x->len, 0);
            if (rc) return -1;
        }
    }
    return 0;
}

/* _room: the cells of in (ncells flags) each of whose units holds another of them, in place. */
static void room_of(const sk_uniq_geom *g, uint8_t *in) {
    int dropped = 1;
    while (dropped) {
        dropped = 0;
        for (int32_t c = 0; c < g->ncells; c++) {
            if (!in[c]) continue;
            for (int32_t k = g->cell_start[c]; k < g->cell_start[c + 1]; k++) {
                const int32_t u = g->cell_units[k];
                int other = 0;
                for (int32_t j = g->unit_start[u]; j < g->unit_start[u + 1] && !other; j++)
                    other = g->unit_cells[j] != c && in[g->unit_cells[j]];
                if (!other) {
                    in[c] = 0;
                    dropped = 1;
                    break;
                }
            }
        }
    }
}

int sk_uniq_steps(const sk_uniq_geom *g, const uint64_t *masks, const uint8_t *changed,
                  const uint64_t *before, sk_uniq_out *out) {
    const int n = g->n, nc = g->ncells;
    uniq_ctx x = {.g = g, .masks = masks, .out = out};
    /* per digit pair (x * n + y): offset + 1 of its room in rooms (0 = not computed yet) */
    size_t *room_at = calloc((size_t)n * (size_t)n, sizeof *room_at);
    uint8_t *near = calloc((size_t)nc, 1), *rooms = NULL;
    size_t nrooms = 0, rooms_cap = 0;
    x.unit_seen = calloc((size_t)g->nunits + 1, 1);
    x.on_path = calloc((size_t)g->nunits + 1, 1);
    x.count = calloc((size_t)nc, sizeof *x.count);
    x.scratch = malloc(3 * (size_t)nc * sizeof *x.scratch);
    x.shared = malloc(((size_t)g->nunits + 1) * sizeof *x.shared);
    int rc = -1;
    if (!room_at || !near || !x.unit_seen || !x.on_path || !x.count || !x.scratch || !x.shared)
        goto done;
    if (changed != NULL) /* the changed cells and their peers */
        for (int32_t c = 0; c < nc; c++)
            if (changed[c]) {
                near[c] = 1;
                for (int32_t k = g->peer_start[c]; k < g->peer_start[c + 1]; k++)
                    near[g->peer_cells[k]] = 1;
            }
    for (int32_t start = 0; start < nc; start++) {
        const uint64_t m = masks[start];
        if (popcount64(m) != 2) continue;
        const size_t pair = (size_t)__builtin_ctzll(m) * (size_t)n + (size_t)(63 - __builtin_clzll(m));
        if (room_at[pair] == 0) {
            uint8_t *grown =
                sk_reserve(rooms, &rooms_cap, nrooms + (size_t)nc, 1, 8 * (size_t)nc);
            if (grown == NULL) goto done;
            rooms = grown;
            uint8_t *r = rooms + nrooms;
            int touched = 0; /* a changed cell holding both digits, or one that held them */
            for (int32_t c = 0; c < nc; c++) {
                r[c] = (masks[c] & m) == m;
                if (changed != NULL && changed[c] && (r[c] || (before[c] & m) == m)) touched = 1;
            }
            room_of(g, r);
            if (changed != NULL && !touched) {
                int close = 0; /* a room cell near a change */
                for (int32_t c = 0; c < nc && !close; c++) close = r[c] && near[c];
                if (!close) memset(r, 0, (size_t)nc);
            }
            room_at[pair] = nrooms + 1;
            nrooms += (size_t)nc;
        }
        x.room = rooms + (room_at[pair] - 1);
        if (!x.room[start]) continue;
        x.pm = m;
        x.path[0] = start;
        x.len = 1;
        mark_parity(&x, start, 0, 1);
        const int walked = walk(&x, -1, 2, 0);
        mark_parity(&x, start, 0, 0);
        if (walked) goto done;
    }
    rc = 0;
done:
    SK_FREE_ALL(free, room_at, near, rooms, x.unit_seen, x.on_path, x.count, x.scratch, x.shared,
                x.seen);
    return rc;
}

/* ---- BUG (uniqueness._bug_extras) ----------------------------------------------------------- */

/* The digits of unit u (masks, less drop[cell] when drop is not NULL) that have neither zero
 * nor two places; with big / bigs not NULL also the digits with a place in a cell of three or
 * more candidates, and those with more than one such place. */
static uint64_t odd_digits(const sk_uniq_geom *g, int u, const uint64_t *masks,
                           const uint64_t *drop, uint64_t *big, uint64_t *bigs) {
    uint64_t once = 0, twice = 0, more = 0, b = 0, bs = 0;
    for (int32_t k = g->unit_start[u]; k < g->unit_start[u + 1]; k++) {
        const int32_t c = g->unit_cells[k];
        const uint64_t m = drop ? masks[c] & ~drop[c] : masks[c];
        more |= twice & m;
        twice |= once & m;
        once |= m;
        if (popcount64(m) >= 3) {
            bs |= b & m;
            b |= m;
        }
    }
    if (big) *big = b;
    if (bigs) *bigs = bs;
    return once & ~(twice & ~more);
}

int sk_uniq_bug_extras(const sk_uniq_geom *g, const uint64_t *masks, uint64_t *extra) {
    memset(extra, 0, (size_t)g->ncells * sizeof *extra);
    int any = 0;
    for (int u = 0; u < g->nunits; u++) {
        uint64_t big, bigs;
        const uint64_t odd = odd_digits(g, u, masks, NULL, &big, &bigs);
        if (odd & ~big) return 0; /* such a digit needs a big cell */
        uint64_t lone = odd & ~bigs;
        while (lone) {
            const uint64_t bit = lone & -lone;
            lone ^= bit;
            for (int32_t k = g->unit_start[u]; k < g->unit_start[u + 1]; k++) {
                const int32_t c = g->unit_cells[k];
                if (masks[c] & bit && popcount64(masks[c]) >= 3) {
                    extra[c] |= bit;
                    any = 1;
                    break;
                }
            }
        }
    }
    if (!any) return 0;
    for (int32_t c = 0; c < g->ncells; c++) {
        const uint64_t m = masks[c] & ~extra[c];
        if (m && popcount64(m) != 2) return 0;
    }
    for (int u = 0; u < g->nunits; u++)
        if (odd_digits(g, u, masks, extra, NULL, NULL)) return 0;
    return 1;
}
