/*
 * sk_port.h -- the little the C core needs beyond C99 on compilers other than GCC and Clang.
 *
 * The core is written against GCC/Clang builtins (__builtin_ctz[ll], __builtin_popcount[ll],
 * __atomic_fetch_add / __atomic_store_n / __atomic_load_n).  MSVC has none of them, so for
 * MSVC (and, to test these fallbacks with GCC, when SK_PORT_FALLBACK is defined) this header
 * supplies them under the same names: ctz from _BitScanForward (MSVC) or a loop, popcount as plain SWAR C (the
 * POPCNT instruction is not in the x86-64 baseline and has no ARM64 intrinsic under MSVC),
 * and the atomics from the Interlocked intrinsics (64-bit Windows only: Py_ssize_t is
 * 64 bits there).  With GCC and Clang nothing is redefined.
 *
 * It also names the compiler for the module's COMPILER constant (``sudokit --version``), and
 * holds the two memory helpers every C file may use (SK_FREE_ALL, sk_reserve).
 */
#ifndef SK_PORT_H
#define SK_PORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#define SK_STR_(x) #x
#define SK_STR(x) SK_STR_(x)

#if defined(__clang__)
#define SK_COMPILER "clang " __clang_version__
#elif defined(__GNUC__)
#define SK_COMPILER "gcc " __VERSION__
#elif defined(_MSC_VER)
#define SK_COMPILER "MSVC " SK_STR(_MSC_FULL_VER)
#else
#define SK_COMPILER "unknown C compiler"
#endif

/* SK_BUILD_FLAGS: the flags the core was compiled with, in a header setup.py generates. */
#ifdef SK_HAVE_BUILD_INFO
#include "sk_build_info.h"
#endif
#ifndef SK_BUILD_FLAGS
#define SK_BUILD_FLAGS "unknown"
#endif

#if (defined(_MSC_VER) && !defined(__clang__)) || defined(SK_PORT_FALLBACK)

#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
#endif

static inline int sk_port_ctz64(uint64_t m) {
#if defined(_MSC_VER) && !defined(__clang__) && (defined(_M_X64) || defined(_M_ARM64))
    unsigned long i;
    _BitScanForward64(&i, m);
    return (int)i;
#else
    int i = 0;
    while (!(m & 1u)) {
        m >>= 1;
        i++;
    }
    return i;
#endif
}

static inline int sk_port_popcount64(uint64_t m) {
    m = m - ((m >> 1) & 0x5555555555555555u);
    m = (m & 0x3333333333333333u) + ((m >> 2) & 0x3333333333333333u);
    m = (m + (m >> 4)) & 0x0F0F0F0F0F0F0F0Fu;
    return (int)((m * 0x0101010101010101u) >> 56);
}

#undef __builtin_ctz
#undef __builtin_ctzll
#undef __builtin_popcount
#undef __builtin_popcountll
#define __builtin_ctz(x) sk_port_ctz64((uint64_t)(uint32_t)(x))
#define __builtin_ctzll(x) sk_port_ctz64((uint64_t)(x))
#define __builtin_popcount(x) sk_port_popcount64((uint64_t)(uint32_t)(x))
#define __builtin_popcountll(x) sk_port_popcount64((uint64_t)(x))

#if defined(_MSC_VER) && !defined(__clang__)
#if !defined(_WIN64)
#error "sudokit's C core needs a 64-bit target with MSVC (Py_ssize_t atomics)"
#endif
#define __atomic_fetch_add(p, v, order) \
    _InterlockedExchangeAdd64((volatile __int64 *)(p), (__int64)(v))
#define __atomic_store_n(p, v, order) _InterlockedExchange((volatile long *)(p), (long)(v))
#define __atomic_load_n(p, order) _InterlockedOr((volatile long *)(p), 0) /* int flags only */
#endif

#endif /* MSVC or SK_PORT_FALLBACK */

/* Frees every pointer of a list with fn (free, PyMem_RawFree): SK_FREE_ALL(free, a, b, c).
 * One statement, so it may follow a cleanup label. */
#define SK_FREE_ALL(fn, ...)                                                                     \
    do {                                                                                        \
        void *sk_owned_[] = {__VA_ARGS__};                                                      \
        for (size_t sk_i_ = 0; sk_i_ < sizeof sk_owned_ / sizeof *sk_owned_; sk_i_++)           \
            fn(sk_owned_[sk_i_]);                                                               \
    } while (0)

/* Room for need items of elem bytes in data, a realloc'd array of *cap items: data itself
 * when it has room, else data reallocated to the first capacity that does of first, 2 first,
 * ... (from 0) or 2 *cap, 4 *cap, ... (*cap updated); NULL when memory ran out (data and *cap
 * unchanged). */
static inline void *sk_reserve(void *data, size_t *cap, size_t need, size_t elem, size_t first) {
    if (need <= *cap) return data;
    size_t grown_cap = *cap ? 2 * *cap : first;
    while (grown_cap < need) grown_cap *= 2;
    void *grown = realloc(data, grown_cap * elem);
    if (grown != NULL) *cap = grown_cap;
    return grown;
}

#endif /* SK_PORT_H */
