/*
 * sk_abi.h -- the build stamp of the CPython module `sudokit._core` (`_core.ABI_VERSION`).
 *
 * Rule: bump SK_ABI_VERSION whenever the module's Python-visible API changes (a function or a
 * type added, removed or renamed, a signature or a result's layout changed), and bump
 * `sudokit._native.ABI_VERSION` with it (a test holds the two equal).  An in-place build made
 * from older sources then reports an older number, and the Python side falls back to its
 * pure-Python code with a message saying so, instead of failing on a missing name later.
 */
#ifndef SK_ABI_H
#define SK_ABI_H

#define SK_ABI_VERSION 2

#endif /* SK_ABI_H */
