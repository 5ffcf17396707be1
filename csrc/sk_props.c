/*
 * sk_props.c -- the propagators of the linear sums and groups (contracts in sk_props.h).
 *
 * Each function reads candidate masks (bit d - 1 = digit d) and narrows output masks; none
 * writes anything else, so they are pure and reentrant.  Sums are int64 (the inputs are
 * bounded so that nothing overflows: 4096 cells x 64 x SK_LINEAR_COEF_MAX < 2^39).
 */
#include "sk_props.h"

#include <assert.h>
#include <string.h>

#include "sk_port.h"
#include "sk_solver.h"

static inline int lowest(uint64_t m) { return __builtin_ctzll(m) + 1; }
static inline int highest(uint64_t m) { return 64 - __builtin_clzll(m); }
static inline uint64_t bit_of(int d) { return (uint64_t)1 << (d - 1); }

/* The digits lo..hi of 1..n as a mask (0 when the range is empty); any int64 bounds. */
static uint64_t digits_between(int64_t lo, int64_t hi, int n) {
    if (lo < 1) lo = 1;
    if (hi > n) hi = n;
    if (lo > hi) return 0;
    const uint64_t upto = hi >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << hi) - 1);
    return upto & ~(((uint64_t)1 << (lo - 1)) - 1);
}

/* Floor and ceiling of a / b (b != 0), for any signs. */
static int64_t floor_div(int64_t a, int64_t b) {
    int64_t q = a / b;
    if (a % b != 0 && ((a < 0) != (b < 0))) q--;
    return q;
}
static int64_t ceil_div(int64_t a, int64_t b) { return -floor_div(-a, b); }

/* ---------------------------------------------------------------------------------------- */
/* linear sums                                                                                */

/* The least and most coef * d over the digits d of m (m not 0). */
static inline void term_range(uint64_t m, int32_t coef, int64_t *least, int64_t *most) {
    const int64_t a = (int64_t)coef * lowest(m), b = (int64_t)coef * highest(m);
    *least = coef > 0 ? a : b;
    *most = coef > 0 ? b : a;
}

int sk_linear_bounds(const uint64_t *m, const uint16_t *cells, const int32_t *coefs,
                     uint32_t size, int64_t total, int64_t *low, int64_t *high) {
    int64_t lo = 0, hi = 0;
    for (uint32_t i = 0; i < size; i++) {
        const uint64_t mask = m[cells[i]];
        if (mask == 0) return 0;
        int64_t least, most;
        term_range(mask, coefs[i], &least, &most);
        lo += least;
        hi += most;
    }
    *low = lo;
    *high = hi;
    return lo <= total && total <= hi;
}

uint64_t sk_linear_keep(int n, uint64_t m, int32_t coef, int64_t total, int64_t low,
                        int64_t high) {
    if (m == 0) return 0;
    int64_t least, most;
    term_range(m, coef, &least, &most);
    /* coef * d must lie in [lo, hi]: the total minus the most and the least of the others. */
    const int64_t lo = total - (high - most), hi = total - (low - least);
    const int64_t dlo = coef > 0 ? ceil_div(lo, coef) : ceil_div(hi, coef);
    const int64_t dhi = coef > 0 ? floor_div(hi, coef) : floor_div(lo, coef);
    return m & digits_between(dlo, dhi, n);
}

/* Sets of partial sums as bit sets of SK_LINEAR_SPAN_MAX + 1 bits (two words): bit s = the
 * sum s above the least, shifted by 0 .. SK_LINEAR_SPAN_MAX (a term spans at most that). */
typedef struct {
    uint64_t lo, hi;
} span_set;

static inline span_set span_shl(span_set a, int k) {
    if (k == 0) return a;
    if (k >= 64) return (span_set){0, a.lo << (k - 64)};
    return (span_set){a.lo << k, (a.hi << k) | (a.lo >> (64 - k))};
}
static inline span_set span_shr(span_set a, int k) {
    if (k == 0) return a;
    if (k >= 64) return (span_set){a.hi >> (k - 64), 0};
    return (span_set){(a.lo >> k) | (a.hi << (64 - k)), a.hi >> k};
}
static inline span_set span_or(span_set a, span_set b) { return (span_set){a.lo | b.lo, a.hi | b.hi}; }
static inline int span_meets(span_set a, span_set b) { return ((a.lo & b.lo) | (a.hi & b.hi)) != 0; }

/* The term coef * d of digit d, above the term's least (0 .. its span). */
static inline int term_rel(int d, int32_t coef, int64_t least) { return (int)((int64_t)coef * d - least); }

int sk_linear_supports(const uint64_t *m, const uint16_t *cells, const int32_t *coefs,
                       uint32_t size, int64_t total, int64_t low, uint64_t *keep) {
    assert(size <= SK_LINEAR_SUPPORT_CELLS);
    span_set before[SK_LINEAR_SUPPORT_CELLS + 1]; /* before[i]: sums of terms 0 .. i-1 */
    int64_t least[SK_LINEAR_SUPPORT_CELLS];
    before[0] = (span_set){1, 0};
    for (uint32_t i = 0; i < size; i++) {
        int64_t most;
        term_range(m[cells[i]], coefs[i], &least[i], &most);
        span_set next = {0, 0};
        for (uint64_t r = m[cells[i]]; r; r &= r - 1)
            next = span_or(next, span_shl(before[i], term_rel(lowest(r), coefs[i], least[i])));
        before[i + 1] = next;
    }
    /* after: the sums the terms 0 .. i-1 must make for the rest (i .. size-1) to complete. */
    const int goal = (int)(total - low); /* 0 .. span (the caller checked the bounds) */
    span_set after = span_shl((span_set){1, 0}, goal);
    for (uint32_t i = size; i-- > 0;) {
        const uint64_t mask = m[cells[i]];
        uint64_t kept = 0;
        span_set prev = {0, 0};
        for (uint64_t r = mask; r; r &= r - 1) {
            const int d = lowest(r), v = term_rel(d, coefs[i], least[i]);
            if (span_meets(span_shl(before[i], v), after)) kept |= bit_of(d);
            prev = span_or(prev, span_shr(after, v));
        }
        if (kept == 0) return 0;
        keep[i] = kept;
        after = prev;
    }
    return 1;
}

/* ---------------------------------------------------------------------------------------- */
/* the meaning of a group on filled cells (group_holds)                                      */

int sk_group_holds(int n, int kind, const uint8_t *d, uint32_t size, const int32_t *params,
                   uint32_t nparams) {
    switch (kind) {
    case SK_GROUP_RENBAN: {
        uint64_t seen = 0;
        int lo = 65, hi = 0;
        for (uint32_t i = 0; i < size; i++) {
            if (seen & bit_of(d[i])) return 0;
            seen |= bit_of(d[i]);
            lo = d[i] < lo ? d[i] : lo;
            hi = d[i] > hi ? d[i] : hi;
        }
        return (uint32_t)(hi - lo) == size - 1;
    }
    case SK_GROUP_BETWEEN: {
        const int lo = d[0] < d[size - 1] ? d[0] : d[size - 1];
        const int hi = d[0] < d[size - 1] ? d[size - 1] : d[0];
        for (uint32_t i = 1; i + 1 < size; i++)
            if (!(lo < d[i] && d[i] < hi)) return 0;
        return 1;
    }
    case SK_GROUP_QUADRUPLE:
        for (uint32_t j = 0; j < nparams; j++) {
            uint32_t want = 0, have = 0;
            for (uint32_t k = 0; k < nparams; k++) want += params[k] == params[j];
            for (uint32_t i = 0; i < size; i++) have += d[i] == params[j];
            if (have < want) return 0;
        }
        return 1;
    case SK_GROUP_SANDWICH: {
        uint32_t one = size, top = size;
        for (uint32_t i = size; i-- > 0;) {
            if (d[i] == 1) one = i;
            if (d[i] == n) top = i;
        }
        if (one == size || top == size) return 0;
        const uint32_t a = one < top ? one : top, b = one < top ? top : one;
        int64_t sum = 0;
        for (uint32_t i = a + 1; i < b; i++) sum += d[i];
        return sum == params[0];
    }
    case SK_GROUP_XSUM: {
        if (d[0] > size) return 0;
        int64_t sum = 0;
        for (uint32_t i = 0; i < d[0]; i++) sum += d[i];
        return sum == params[0];
    }
    case SK_GROUP_SKYSCRAPER: {
        int64_t seen = 0;
        int top = 0;
        for (uint32_t i = 0; i < size; i++)
            if (d[i] > top) {
                seen++;
                top = d[i];
            }
        return seen == params[0];
    }
    case SK_GROUP_SUM_IN: {
        int64_t sum = 0;
        for (uint32_t i = 0; i < size; i++) sum += d[i];
        for (uint32_t j = 0; j < nparams; j++)
            if (sum == params[j]) return 1;
        return 0;
    }
    default:
        return 0;
    }
}

/* ---------------------------------------------------------------------------------------- */
/* per-kind reasoning (each narrows keep[]; 0 when no filling is left)                       */

static int renban(int n, uint32_t size, uint64_t *keep) {
    if (size > (uint32_t)n) return 0;
    uint64_t any = 0, windows = 0, common = ~(uint64_t)0;
    for (uint32_t i = 0; i < size; i++) any |= keep[i];
    for (int lo = 1; lo + (int)size - 1 <= n; lo++) {
        const uint64_t w = digits_between(lo, lo + (int64_t)size - 1, n);
        if (w & ~any) continue; /* a digit of the window that no cell can hold */
        uint32_t i = 0;
        while (i < size && (keep[i] & w)) i++;
        if (i < size) continue;
        windows |= w;
        common &= w;
    }
    if (windows == 0) return 0;
    for (uint32_t i = 0; i < size; i++)
        if ((keep[i] &= windows) == 0) return 0;
    /* Every digit of the window is used (size distinct digits): one place left means there. */
    while (common) {
        const uint64_t b = common & (~common + 1);
        common &= common - 1;
        uint32_t where = 0, places = 0;
        for (uint32_t i = 0; i < size; i++)
            if (keep[i] & b) {
                where = i;
                places++;
            }
        if (places == 0) return 0;
        if (places == 1) keep[where] = b;
    }
    return 1;
}

static int between(int n, uint32_t size, uint64_t *keep) {
    if (size <= 2) return 1; /* no inner cell: it always holds */
    uint64_t first = 0, last = 0, inner = 0;
    for (uint64_t xs = keep[0]; xs; xs &= xs - 1) {
        const int x = __builtin_ctzll(xs) + 1;
        for (uint64_t ys = keep[size - 1]; ys; ys &= ys - 1) {
            const int y = __builtin_ctzll(ys) + 1;
            const uint64_t r = x < y ? digits_between(x + 1, y - 1, n)
                                     : digits_between(y + 1, x - 1, n);
            if (r == 0) continue;
            uint32_t i = 1;
            while (i + 1 < size && (keep[i] & r)) i++;
            if (i + 1 < size) continue;
            first |= bit_of(x);
            last |= bit_of(y);
            inner |= r;
        }
    }
    if (first == 0) return 0;
    keep[0] = first;
    keep[size - 1] = last;
    for (uint32_t i = 1; i + 1 < size; i++)
        if ((keep[i] &= inner) == 0) return 0;
    return 1;
}

static int quadruple(uint32_t size, const int32_t *params, uint32_t np, uint64_t *keep) {
    if (np > size) return 0;
    uint64_t wanted = 0;
    for (uint32_t j = 0; j < np; j++) wanted |= bit_of(params[j]);
    for (uint32_t j = 0; j < np; j++) {
        const uint64_t b = bit_of(params[j]);
        uint32_t want = 0, places = 0;
        for (uint32_t k = 0; k < np; k++) want += params[k] == params[j];
        for (uint32_t i = 0; i < size; i++) places += (keep[i] & b) != 0;
        if (places < want) return 0;
        if (places == want)
            for (uint32_t i = 0; i < size; i++)
                if (keep[i] & b) keep[i] = b;
    }
    if (np == size)
        for (uint32_t i = 0; i < size; i++)
            if ((keep[i] &= wanted) == 0) return 0;
    return 1;
}

/* Bit sets of sums 0..top in w words: the shifts of the sandwich programme. */
static void set_shl(uint64_t *dst, const uint64_t *src, int by, uint32_t w, int top) {
    const uint32_t words = (uint32_t)by / 64, bits = (uint32_t)by % 64;
    for (uint32_t k = w; k-- > 0;) {
        uint64_t v = 0;
        if (k >= words) {
            v = src[k - words] << bits;
            if (bits && k > words) v |= src[k - words - 1] >> (64 - bits);
        }
        dst[k] = v;
    }
    const uint32_t last = (uint32_t)top / 64, keep_bits = (uint32_t)top % 64 + 1;
    if (keep_bits < 64) dst[last] &= ((uint64_t)1 << keep_bits) - 1;
}
static void set_shr_or(uint64_t *dst, const uint64_t *src, int by, uint32_t w) {
    const uint32_t words = (uint32_t)by / 64, bits = (uint32_t)by % 64;
    for (uint32_t k = 0; k + words < w; k++) {
        uint64_t v = src[k + words] >> bits;
        if (bits && k + words + 1 < w) v |= src[k + words + 1] << (64 - bits);
        dst[k] |= v;
    }
}
static int set_meets(const uint64_t *a, const uint64_t *b, uint32_t w) {
    for (uint32_t k = 0; k < w; k++)
        if (a[k] & b[k]) return 1;
    return 0;
}
static inline int set_has(const uint64_t *a, int s) { return (int)(a[s / 64] >> (s % 64)) & 1; }

/* The words of a sum set of the sandwich programme for target t on a line of size cells. */
static uint32_t sandwich_words(int n, uint32_t size, int32_t t) {
    const int64_t most = (int64_t)size * n;
    return t < 0 || t > most ? 0 : (uint32_t)t / 64 + 1;
}

/* Most word operations one run of the sandwich programme may take (about cells x digits x
 * counts x words): above, it drops the counts, then the whole programme (the listing of
 * few fillings still judges the group).  64x64 rows took 99 s for 10 % blanks without it. */
#define SK_SANDWICH_WORK ((uint64_t)1 << 16)

/* The most digits the sandwich programme counts between the 1 and the n: on a line of
 * pairwise peers (distinct digits) up to n - 2 while the work allows, else not counted (0). */
static uint32_t sandwich_counted(int n, uint32_t size, int distinct, uint32_t w) {
    if (!distinct || size < 2 || n < 2) return 0;
    const uint32_t most = size - 2 < (uint32_t)n - 2 ? size - 2 : (uint32_t)n - 2;
    return (uint64_t)size * (uint64_t)n * (most + 1) * w <= SK_SANDWICH_WORK ? most : 0;
}

/* 1 when the sandwich programme runs at all (its work without counts within the bound). */
static int sandwich_runs(int n, uint32_t size, uint32_t w) {
    return (uint64_t)size * (uint64_t)n * w <= SK_SANDWICH_WORK;
}

/* 1 when every position's earlier cells are all its peers (a row, a column). */
static int all_peers(const uint64_t *before, uint32_t size) {
    for (uint32_t i = 0; i < size; i++)
        if (before[i] != (i ? ((uint64_t)1 << i) - 1 : 0) && i < 64) return 0;
    return 1;
}

/*
 * Sandwich by a programme over the line.  States: A (before both 1 and n), O (after the
 * first 1, before the first n: the sum so far and, on a line of distinct digits, how many
 * digits it holds), N (the same after the first n), Z (both seen).  A digit other than the
 * closer (n after a 1, 1 after an n) adds to the sum; closing needs the sum t and, with
 * distinct digits, a count k for which k distinct digits of 2..n-1 can make t (they fill the
 * interval from 2 + .. + (k+1) to the top k).  back*[i][k] = the sums from which cells i..
 * can complete; the forward sweep keeps a digit when a reachable state and a completing one
 * meet through it.
 */
static int sandwich(int n, uint32_t size, int32_t t, int distinct, uint64_t *keep,
                    uint64_t *scratch) {
    if (n == 1) return t == 0;
    const uint32_t w = sandwich_words(n, size, t);
    if (w == 0) return 0;
    if (!sandwich_runs(n, size, w)) return 1; /* too wide: the listing decides, when small */
    const uint32_t kmax = sandwich_counted(n, size, distinct, w);
    const int counts = kmax > 0; /* else one count row: the sums alone */
    const uint32_t rows = kmax + 1;
    const size_t plane = (size_t)rows * w;
    const uint64_t one = 1, big = bit_of(n), others = ~(one | big);
    uint64_t *bo = scratch, *bn = bo + (size_t)(size + 1) * plane;
    uint64_t *fo = bn + (size_t)(size + 1) * plane, *fn = fo + plane, *no = fn + plane,
             *nn = no + plane, *tmp = nn + plane;
    uint8_t ba[SK_GROUP_MAX_CELLS + 1], fits[SK_GROUP_MAX_CELLS + 1];
    for (uint32_t k = 0; k <= kmax; k++) {
        const int64_t kk = k, least = kk * (kk + 3) / 2, most = kk * (n - 1) - kk * (kk - 1) / 2;
        fits[k] = (uint8_t)(!counts || (least <= t && t <= most));
    }
    const uint64_t tbit = (uint64_t)1 << (t % 64);
    memset(bo + (size_t)size * plane, 0, plane * sizeof *bo);
    memset(bn + (size_t)size * plane, 0, plane * sizeof *bn);
    ba[size] = 0;
    for (uint32_t i = size; i-- > 0;) {
        const uint64_t m = keep[i];
        uint64_t *o = bo + (size_t)i * plane, *nx = bn + (size_t)i * plane;
        const uint64_t *o1 = o + plane, *n1 = nx + plane;
        memset(o, 0, plane * sizeof *o);
        memset(nx, 0, plane * sizeof *nx);
        for (uint32_t k = 0; k <= kmax; k++) {
            const uint32_t next = counts ? k + 1 : 0;
            for (uint64_t ds = next <= kmax ? m : 0; ds; ds &= ds - 1) {
                const int d = __builtin_ctzll(ds) + 1;
                if (d != n) set_shr_or(o + k * w, o1 + next * w, d, w);
                if (d != 1) set_shr_or(nx + k * w, n1 + next * w, d, w);
            }
            if ((m & big) && fits[k]) o[k * w + (uint32_t)t / 64] |= tbit; /* closes: Z after */
            if ((m & one) && fits[k]) nx[k * w + (uint32_t)t / 64] |= tbit;
        }
        ba[i] = (uint8_t)(((m & others) && ba[i + 1]) || ((m & one) && (o1[0] & 1)) ||
                          ((m & big) && (n1[0] & 1)));
    }
    if (!ba[0]) return 0;
    int fa = 1, fz = 0;
    memset(fo, 0, 2 * plane * sizeof *fo);
    for (uint32_t i = 0; i < size; i++) {
        const uint64_t m = keep[i];
        const uint64_t *o1 = bo + (size_t)(i + 1) * plane, *n1 = bn + (size_t)(i + 1) * plane;
        uint64_t sup = fz ? m : 0;
        if (fa) {
            if (ba[i + 1]) sup |= m & others;
            if (o1[0] & 1) sup |= m & one;
            if (n1[0] & 1) sup |= m & big;
        }
        int closes = 0;
        for (uint32_t k = 0; k <= kmax; k++) {
            if (!fits[k]) continue;
            if (set_has(fo + k * w, t) && (m & big)) closes = 1, sup |= big;
            if (set_has(fn + k * w, t) && (m & one)) closes = 1, sup |= one;
        }
        memset(no, 0, 2 * plane * sizeof *no);
        for (uint64_t ds = m; ds; ds &= ds - 1) {
            const int d = __builtin_ctzll(ds) + 1;
            for (uint32_t k = 0; k <= kmax; k++) {
                const uint32_t next = counts ? k + 1 : 0;
                if (next > kmax) break;
                if (d != n) {
                    set_shl(tmp, fo + k * w, d, w, t);
                    if (!(sup & bit_of(d)) && set_meets(tmp, o1 + next * w, w)) sup |= bit_of(d);
                    for (uint32_t j = 0; j < w; j++) no[next * w + j] |= tmp[j];
                }
                if (d != 1) {
                    set_shl(tmp, fn + k * w, d, w, t);
                    if (!(sup & bit_of(d)) && set_meets(tmp, n1 + next * w, w)) sup |= bit_of(d);
                    for (uint32_t j = 0; j < w; j++) nn[next * w + j] |= tmp[j];
                }
            }
        }
        fz = fz || closes;
        if (fa && (m & one)) no[0] |= 1;
        if (fa && (m & big)) nn[0] |= 1;
        fa = fa && (m & others) != 0;
        memcpy(fo, no, 2 * plane * sizeof *fo);
        if ((keep[i] = sup) == 0) return 0;
    }
    return 1;
}

/* The k smallest digits of m (k <= its popcount) and their sum; *next = the (k+1)-th
 * smallest, or 0 when there is none.  The same from the top for largest_digits. */
static int64_t smallest_digits(uint64_t m, uint32_t k, int *next) {
    int64_t s = 0;
    for (uint32_t j = 0; j < k; j++, m &= m - 1) s += lowest(m);
    *next = m ? lowest(m) : 0;
    return s;
}
static int64_t largest_digits(uint64_t m, uint32_t k, int *next) {
    int64_t s = 0;
    for (uint32_t j = 0; j < k; j++) {
        const int h = highest(m);
        s += h;
        m &= ~bit_of(h);
    }
    *next = m ? highest(m) : 0;
    return s;
}

/*
 * X-sum: for each first digit x, bounds on the next x - 1 cells (they add up to t - x).  On
 * a line of peers (distinct) those cells hold x - 1 distinct digits other than x, so their
 * sum also lies between the x - 1 smallest and largest digits of their union; for a digit d
 * of one cell, the others' x - 2 come from the union without d.  (Without it, a total of 45
 * on a 9x9 row left every first digit open until the row filled: a generated x-sum puzzle
 * took the search 12 s.)
 */
static int xsum(int n, uint32_t size, int32_t t, int distinct, uint64_t *keep) {
    uint64_t sup[SK_GROUP_MAX_CELLS], m[SK_GROUP_MAX_CELLS];
    memset(sup, 0, sizeof sup);
    uint32_t free_from = size; /* cells at or after the smallest fitting x are unconstrained */
    for (uint64_t xs = keep[0]; xs; xs &= xs - 1) {
        const uint32_t x = (uint32_t)__builtin_ctzll(xs) + 1, k = x - 1;
        if (x > size) break;
        const int64_t rest = (int64_t)t - x;
        int64_t lo = 0, hi = 0;
        uint64_t all = 0;
        int empty = 0;
        for (uint32_t i = 1; i < x; i++) {
            m[i] = distinct ? keep[i] & ~bit_of((int)x) : keep[i];
            if (m[i] == 0) {
                empty = 1;
                break;
            }
            lo += lowest(m[i]);
            hi += highest(m[i]);
            all |= m[i];
        }
        if (empty || rest < lo || rest > hi) continue;
        /* distinct: the k - 1 smallest (largest) of the union and the k-th, for the others of
         * a cell; the k smallest (largest) bound the whole prefix. */
        int64_t few = 0, many = 0;
        int kth_low = 0, kth_high = 0;
        if (distinct && k > 0) {
            if ((uint32_t)__builtin_popcountll(all) < k) continue;
            few = smallest_digits(all, k - 1, &kth_low);
            many = largest_digits(all, k - 1, &kth_high);
            if (rest < few + kth_low || rest > many + kth_high) continue;
        }
        sup[0] |= bit_of((int)x);
        if (x < free_from) free_from = x;
        for (uint32_t i = 1; i < x; i++) {
            const int64_t others_lo = lo - lowest(m[i]), others_hi = hi - highest(m[i]);
            uint64_t fits = m[i] & digits_between(rest - others_hi, rest - others_lo, n);
            if (distinct)
                for (uint64_t ds = fits; ds; ds &= ds - 1) {
                    const int d = __builtin_ctzll(ds) + 1;
                    const int64_t least = d < kth_low ? few - d + kth_low : few;
                    const int64_t most = d > kth_high ? many - d + kth_high : many;
                    if (rest - d < least || rest - d > most) fits &= ~bit_of(d);
                }
            sup[i] |= fits;
        }
    }
    if (sup[0] == 0) return 0;
    for (uint32_t i = 0; i < size; i++) {
        if (i >= free_from && i > 0) continue;
        if ((keep[i] = sup[i]) == 0) return 0;
    }
    return 1;
}

/*
 * Skyscraper: states (tallest so far m, seen k), seen kept as bit k - 1 of a word per m
 * (k >= 1 once the first cell is placed; t <= size <= 64).  back[i][m] = the counts from
 * which cells i.. reach t; forward the same as the sandwich.
 */
static int skyscraper(int n, uint32_t size, int32_t t, uint64_t *keep, uint64_t *scratch) {
    if (t < 1 || (uint32_t)t > size) return 0;
    const size_t row = (size_t)n + 1;
    uint64_t *back = scratch, *f = back + (size_t)(size + 1) * row, *nf = f + row;
    const uint64_t counts = t >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << t) - 1;
    for (int m = 0; m <= n; m++) back[(size_t)size * row + m] = (uint64_t)1 << (t - 1);
    for (uint32_t i = size; i-- > 1;) {
        const uint64_t mask = keep[i], *b1 = back + (size_t)(i + 1) * row;
        uint64_t *b = back + (size_t)i * row, higher = 0; /* from digits above m: one more */
        b[0] = 0;
        for (int m = n; m >= 1; m--) {
            b[m] = ((mask & digits_between(1, m, n)) ? b1[m] : 0) | higher;
            if (mask & bit_of(m)) higher |= b1[m] >> 1;
        }
    }
    /* The first cell: seen 1 (bit 0), tallest its digit. */
    const uint64_t *b1 = back + row;
    uint64_t sup = 0;
    for (uint64_t ds = keep[0]; ds; ds &= ds - 1) {
        const int d = __builtin_ctzll(ds) + 1;
        if (b1[d] & 1) sup |= bit_of(d);
    }
    if ((keep[0] = sup) == 0) return 0;
    memset(f, 0, row * sizeof *f);
    for (uint64_t ds = sup; ds; ds &= ds - 1) f[__builtin_ctzll(ds) + 1] = 1;
    for (uint32_t i = 1; i < size; i++) {
        const uint64_t mask = keep[i];
        b1 = back + (size_t)(i + 1) * row;
        /* below[d] = the counts of states whose tallest is below d; meet[m] = some state with
         * tallest >= m completes through a digit <= its tallest. */
        uint64_t below = 0;
        sup = 0;
        int meet_from = 0; /* largest m whose state completes staying at m (0: none) */
        for (int m = 1; m <= n; m++)
            if (f[m] & b1[m]) meet_from = m;
        memset(nf, 0, row * sizeof *nf);
        for (int d = 1; d <= n; d++) {
            const uint64_t b = bit_of(d);
            if (mask & b) {
                if ((below & (b1[d] >> 1)) || d <= meet_from) sup |= b;
                nf[d] |= (below << 1) & counts;
            }
            /* Staying at tallest d: some digit <= d. */
            if (mask & digits_between(1, d, n)) nf[d] |= f[d];
            below |= f[d];
        }
        memcpy(f, nf, row * sizeof *f);
        if ((keep[i] = sup) == 0) return 0;
    }
    return 1;
}

/* SUM_IN by bounds: digit x stays in cell i when some total t has t - x within what the
 * other cells can add (their least to their most, repeats allowed: the distinct pairs are the
 * group's own different pairs); the listing then decides exactly. */
static int sum_in(int n, uint32_t size, const int32_t *totals, uint32_t ntotals,
                  uint64_t *keep) {
    int64_t low = 0, high = 0;
    for (uint32_t i = 0; i < size; i++) {
        low += __builtin_ctzll(keep[i]) + 1;
        high += 64 - __builtin_clzll(keep[i]);
    }
    for (uint32_t i = 0; i < size; i++) {
        const int64_t lo = low - (__builtin_ctzll(keep[i]) + 1);
        const int64_t hi = high - (64 - __builtin_clzll(keep[i]));
        uint64_t m = 0;
        for (uint32_t j = 0; j < ntotals; j++)
            m |= digits_between(totals[j] - hi, totals[j] - lo, n);
        if ((keep[i] &= m) == 0) return 0;
    }
    return 1;
}

/* ---------------------------------------------------------------------------------------- */
/* the exact listing, for groups with few fillings left                                     */

typedef struct {
    const sk_group *gr;
    const uint64_t *masks;
    uint64_t *sup;   /* fill_from: the digits each cell holds in some filling (ORed in) */
    uint64_t leaves; /* fill_one: the fillings tried so far (complete or not holding) */
    uint8_t digits[SK_GROUP_MAX_CELLS];
} fill_ctx;

/* Lists every filling of cells i.. (the earlier ones set in c->digits: each cell takes a
 * digit of its mask not held by an earlier peer) and ORs the digits of those that hold into
 * c->sup; recursion depth <= size <= 64. */
static void fill_from(fill_ctx *c, uint32_t i) {
    const sk_group *gr = c->gr;
    if (i == gr->size) {
        if (!sk_group_holds(gr->n, gr->kind, c->digits, gr->size, gr->params, gr->nparams))
            return;
        for (uint32_t j = 0; j < gr->size; j++) c->sup[j] |= bit_of(c->digits[j]);
        return;
    }
    uint64_t m = c->masks[i];
    for (uint64_t js = gr->before[i]; js; js &= js - 1) m &= ~bit_of(c->digits[__builtin_ctzll(js)]);
    for (; m; m &= m - 1) {
        c->digits[i] = (uint8_t)(__builtin_ctzll(m) + 1);
        fill_from(c, i + 1);
    }
}

/* As fill_from, but stops at the first filling that holds: 1 then (c->digits is it), 0 when
 * none does.  Counts the fillings it reaches in c->leaves. */
static int fill_one(fill_ctx *c, uint32_t i) {
    const sk_group *gr = c->gr;
    if (i == gr->size) {
        c->leaves++;
        return sk_group_holds(gr->n, gr->kind, c->digits, gr->size, gr->params, gr->nparams);
    }
    uint64_t m = c->masks[i];
    for (uint64_t js = gr->before[i]; js; js &= js - 1) m &= ~bit_of(c->digits[__builtin_ctzll(js)]);
    for (; m; m &= m - 1) {
        c->digits[i] = (uint8_t)(__builtin_ctzll(m) + 1);
        if (fill_one(c, i + 1)) return 1;
    }
    return 0;
}

/*
 * The exact supports of keep into sup (zeroed by the caller): sup[i] = the digits cell i
 * holds in some filling that holds.  The same answer as listing every filling (fill_from),
 * found one (cell, digit) at a time: a digit that no filling found so far uses is tried alone
 * in its cell, and the filling found (if any) supports every digit it holds.  A search stops
 * at its first filling, so an open group, whose digits the first few fillings support, costs
 * a few short searches instead of thousands of leaves.  A digit that no filling uses costs the
 * listing with its cell fixed; once the searches have reached `fillings` leaves (the product
 * of the candidate counts) the plain listing finishes the job, so this never costs more than
 * about twice the listing.  Reentrant: all state on the stack.
 */
static void supports(const sk_group *gr, const uint64_t *keep, uint64_t fillings, uint64_t *sup) {
    uint64_t masks[SK_GROUP_MAX_CELLS];
    /* digits[] is written before it is read (cell i is set before cell i + 1 is tried); zeroed
     * so that compilers that cannot see it do not warn (the portable wheel build is -Werror). */
    fill_ctx c = {.gr = gr, .masks = masks, .sup = sup, .leaves = 0, .digits = {0}};
    memcpy(masks, keep, gr->size * sizeof *masks);
    for (uint32_t i = 0; i < gr->size; i++) {
        uint64_t tried = 0;
        for (;;) {
            const uint64_t open = keep[i] & ~sup[i] & ~tried;
            if (open == 0) break;
            if (c.leaves > fillings) { /* many unsupported digits: list them all instead */
                c.masks = keep;
                fill_from(&c, 0);
                return;
            }
            const uint64_t b = open & (~open + 1);
            tried |= b;
            masks[i] = b;
            if (fill_one(&c, 0))
                for (uint32_t j = 0; j < gr->size; j++) sup[j] |= bit_of(c.digits[j]);
        }
        masks[i] = keep[i];
    }
}

/* The fillings of keep (the product of the candidate counts, peers counted apart) when at
 * most SK_GROUP_ENUM_MAX, else 0 (keep has no empty mask: the product is at least 1). */
static uint64_t few_fillings(const uint64_t *keep, uint32_t size) {
    uint64_t product = 1;
    for (uint32_t i = 0; i < size; i++) {
        product *= (uint64_t)__builtin_popcountll(keep[i]);
        if (product > SK_GROUP_ENUM_MAX) return 0;
    }
    return product;
}

size_t sk_group_scratch(int n, int kind, uint32_t size, const int32_t *params,
                        uint32_t nparams, const uint64_t *before) {
    if (kind == SK_GROUP_SANDWICH && nparams == 1) {
        const uint32_t w = sandwich_words(n, size, params[0]);
        if (w == 0 || !sandwich_runs(n, size, w)) return 0;
        const size_t rows = sandwich_counted(n, size, all_peers(before, size), w) + 1;
        return ((2 * ((size_t)size + 1) + 4) * rows + 1) * w;
    }
    if (kind == SK_GROUP_SKYSCRAPER) return ((size_t)size + 3) * ((size_t)n + 1);
    return 0;
}

int sk_group_keep(const sk_group *gr, uint64_t *keep, uint64_t *scratch) {
    const uint32_t size = gr->size;
    for (uint32_t i = 0; i < size; i++)
        if (keep[i] == 0) return 0;
    int ok = 1;
    switch (gr->kind) {
    case SK_GROUP_RENBAN: ok = renban(gr->n, size, keep); break;
    case SK_GROUP_BETWEEN: ok = between(gr->n, size, keep); break;
    case SK_GROUP_QUADRUPLE: ok = quadruple(size, gr->params, gr->nparams, keep); break;
    case SK_GROUP_SANDWICH:
        ok = sandwich(gr->n, size, gr->params[0], all_peers(gr->before, size), keep, scratch);
        break;
    case SK_GROUP_XSUM:
        ok = xsum(gr->n, size, gr->params[0], all_peers(gr->before, size), keep);
        break;
    case SK_GROUP_SKYSCRAPER: ok = skyscraper(gr->n, size, gr->params[0], keep, scratch); break;
    case SK_GROUP_SUM_IN: ok = sum_in(gr->n, size, gr->params, gr->nparams, keep); break;
    default: return 0;
    }
    if (!ok) return 0;
    for (uint32_t i = 0; i < size; i++)
        if (keep[i] == 0) return 0;
    const uint64_t fillings = few_fillings(keep, size);
    if (fillings == 0) return 1;
    uint64_t sup[SK_GROUP_MAX_CELLS];
    memset(sup, 0, sizeof sup);
    supports(gr, keep, fillings, sup);
    for (uint32_t i = 0; i < size; i++)
        if ((keep[i] = sup[i]) == 0) return 0;
    return 1;
}
