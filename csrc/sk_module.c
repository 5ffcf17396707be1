/*
 * sk_module.c -- the CPython binding `sudokit._core`: argument checks, GIL release, threads.
 *
 * Everything about Sudoku lives in sk_solver.c (and sk_fast9.c, sk_canon.c); this file only
 * turns Python objects into checked C arguments, runs the C code with the GIL released, and
 * turns the results back into Python objects.  Errors map to ValueError / TypeError /
 * MemoryError with a message that names the argument; nothing here can crash on malformed
 * input.
 *
 *   Geometry(n, units, *, generic, different, allowed, relations, cages)
 *                                                   immutable shape tables and variant rules
 *                                                   (build once per shape, share freely,
 *                                                   thread-safe)
 *   search(geometry, cells, limit, keep, budget)    -> (count, solutions, guesses, complete)
 *   search_batch(geometry, puzzles, limit, budget, threads)
 *                                                   -> (counts, first_solutions, guesses,
 *                                                       complete)
 *   search_items(geometry, shape, items, table, grid_type, limit, budget, threads, record)
 *                                                   -> (results, rest, pending): one chunk of
 *                                                   solve_many, lines read and results built
 *                                                   here (see its section)
 *   reduce(geometry, cells, order, group_ends, budget[, max_searches])
 *                                                   -> (puzzle, searches, decided, complete)
 *                                                   the generator's clue-removal pass
 *   fill(geometry, order, ends, draw, budget[, max_searches])
 *                                                   -> (puzzle, solution, searches, complete)
 *                                                   the generator's phase 1 (sk_gen.h)
 *   random_puzzle(geometry, cells, ends, complete_orbits, draw, budget[, max_searches])
 *                                                   -> (puzzle, solution, order, searches,
 *                                                       decided, complete): one attempt,
 *                                                   phases 1 and 2 (sk_gen.h)
 *   canonical9(cells)                               -> bytes: the minlex form of a standard
 *                                                   9x9 grid (sk_canon.h)
 *   lines(geometry, data, start, mode, unique, limit, shown, budget[, stop])
 *                                                   -> (out, notes, consumed, lines, records):
 *                                                   the bulk line path (sk_lines.h)
 *   ChainMode(n, units, unit_order, masks, y, x)    SE's cycle and forcing-chain searches of
 *                                                   one mode on one candidate state
 *                                                   (sk_chain.h): .sources, .bounds, .hints(cap)
 *   Chainer(n, units, unit_order, masks, y, dynamic) SE's forcing-chain runs at nesting level
 *                                                   0 (sk_chain.h): .run(start) -> ChainRun
 *   InChain(n, units, lock_pairs, lines)            SE's basic rules inside a stuck dynamic
 *                                                   chain (sk_nest.h): .find(save, masks)
 *   Exclusion(n, peers)                             Aligned Pair / Triple Exclusion on one
 *                                                   shape (sk_excl.h): .find(masks, degree,
 *                                                   before, cursor) -> the next step
 *
 * Batch layout: puzzles is one bytes object of k * ncells cell values, puzzle after puzzle
 * (explicit length, no terminator); first_solutions has the same layout, all zeros for a
 * puzzle without a solution.  threads > 1 splits the batch over native threads (pthreads)
 * that take puzzles from a shared atomic counter, so hard puzzles do not leave one thread
 * idle; threads = 0 means one per online CPU.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

#include <stdint.h>
#include <string.h>

#ifndef _WIN32
#include <pthread.h>
#include <unistd.h>
#define SK_HAVE_PTHREADS 1
#endif

#include "sk_abi.h"
#include "sk_canon.h"
#include "sk_gen.h"
#include "sk_lines.h"
#include "sk_chain.h"
#include "sk_nest.h"
#include "sk_human.h"
#include "sk_excl.h"
#include "sk_port.h"
#include "sk_solver.h"
#include "sk_uniq.h"

/* Largest batch (puzzles per call) and largest kept-solution buffer accepted. */
#define SK_MAX_BATCH ((Py_ssize_t)1 << 24)
#define SK_MAX_KEEP_BYTES ((uint64_t)1 << 30)
#define SK_MAX_THREADS 64
/* Workspaces cached per geometry for the per-call API (taken and returned under the GIL). */
#define SK_POOL 4

/* ---------------------------------------------------------------------------------------- */
/* Geometry type                                                                              */

typedef struct {
    PyObject_HEAD
    sk_geom *geom;
    int n, ncells, nunits, standard9, rules;
    int npool;
    sk_work *pool[SK_POOL];
} GeometryObject;

static PyTypeObject Geometry_Type;

static void Geometry_dealloc(GeometryObject *self) {
    for (int i = 0; i < self->npool; i++) sk_work_free(self->pool[i]);
    sk_geom_free(self->geom);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* The geometry keeps up to SK_POOL search workspaces for reuse. Both helpers need the GIL
 * (the pool is shared by every thread calling into this geometry); a NULL from work_take means
 * "allocate one" (done with the GIL released), and work_give(NULL) is a no-op. */
static sk_work *work_take(GeometryObject *g) { return g->npool ? g->pool[--g->npool] : NULL; }

static void work_give(GeometryObject *g, sk_work *w) {
    if (w == NULL) return;
    if (g->npool < SK_POOL)
        g->pool[g->npool++] = w;
    else
        sk_work_free(w);
}

/* ---------------------------------------------------------------------------------------- */
/* Interrupts: the poll callback of the C search (sk_poll_fn)                                 */

/* The calling thread's state while the GIL is released around a search.  The C search calls
 * py_poll every few thousand guesses: it takes the GIL back for a moment and runs the signal
 * handlers (PyErr_CheckSignals: only the main thread runs them, so elsewhere this is a cheap
 * no-op), and asks the search to stop when one raised (Ctrl-C: KeyboardInterrupt, which stays
 * set on this thread for the caller to return).  Batch worker threads that are not Python
 * threads only read `stop`, which the calling thread sets. */
typedef struct {
    PyThreadState *save; /* the caller's thread state while the GIL is released */
    int signals;         /* the caller is the main thread: it runs the signal handlers */
    int raised;          /* a signal handler raised: the exception is set on this thread */
    int stop;            /* shared with batch workers (atomic): stop now */
} py_poll;

/* The ident of the main thread (threading.main_thread()), read at import; 0 if unknown.
 * Only that thread runs signal handlers, so only there is the GIL worth taking back: other
 * threads (a server's workers) would wait for it for nothing. */
static unsigned long main_thread_ident;

static void poll_release(py_poll *p) {
    p->signals = main_thread_ident != 0 && PyThread_get_thread_ident() == main_thread_ident;
    p->raised = 0;
    p->stop = 0;
    p->save = PyEval_SaveThread();
}

static void poll_acquire(py_poll *p) { PyEval_RestoreThread(p->save); }

static int py_poll_fn(void *ctx) {
    py_poll *p = ctx;
    if (__atomic_load_n(&p->stop, __ATOMIC_RELAXED)) return 1;
    if (!p->signals) return 0;
    PyEval_RestoreThread(p->save);
    const int rc = PyErr_CheckSignals();
    p->save = PyEval_SaveThread();
    if (rc != 0) {
        p->raised = 1;
        __atomic_store_n(&p->stop, 1, __ATOMIC_RELAXED);
    }
    return rc != 0;
}

/* For batch workers other than the calling thread: only the shared stop flag. */
static int stop_flag_fn(void *ctx) {
    return __atomic_load_n(&((py_poll *)ctx)->stop, __ATOMIC_RELAXED);
}

/* ---------------------------------------------------------------------------------------- */
/* Geometry construction                                                                      */

/* ---------------------------------------------------------------------------------------- */
/* Variant rules: Python sequences into the flat arrays of sk_rules                           */

/* The parsed rules; every array is PyMem_Raw memory owned here (NULL when empty). */
typedef struct {
    sk_rules r;
    uint16_t *pairs, *rel_cells, *cage_cells;
    uint64_t *allowed, *rel_tables;
    uint32_t *cage_ends;
    int32_t *cage_sums;
    int any; /* some rule argument was given (not None / empty) */
} rules_buf;

static void rules_buf_free(rules_buf *b) {
    PyMem_RawFree(b->pairs);
    PyMem_RawFree(b->rel_cells);
    PyMem_RawFree(b->cage_cells);
    PyMem_RawFree(b->allowed);
    PyMem_RawFree(b->rel_tables);
    PyMem_RawFree(b->cage_ends);
    PyMem_RawFree(b->cage_sums);
}

/* A new tuple of the items of obj (a sequence; str and bytes refused), or NULL with a
 * TypeError naming what.  Copying first means later __index__ calls cannot change what
 * is read. */
static PyObject *as_tuple(PyObject *obj, const char *what, Py_ssize_t index) {
    if (!PySequence_Check(obj) || PyUnicode_Check(obj) || PyBytes_Check(obj)) {
        if (index >= 0)
            PyErr_Format(PyExc_TypeError, "%s[%zd] must be a sequence, not %.100s", what, index,
                         Py_TYPE(obj)->tp_name);
        else
            PyErr_Format(PyExc_TypeError, "%s must be a sequence, not %.100s", what,
                         Py_TYPE(obj)->tp_name);
        return NULL;
    }
    return PySequence_Tuple(obj);
}

/* An int (bools refused) in 0..bound-1 as an unsigned 64-bit value; names what and index. */
static int rule_int(PyObject *obj, uint64_t bound, const char *what, Py_ssize_t index,
                    uint64_t *out) {
    if (!PyLong_Check(obj) || PyBool_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s[%zd] must be an int, not %.100s", what, index,
                     Py_TYPE(obj)->tp_name);
        return 0;
    }
    const unsigned long long v = PyLong_AsUnsignedLongLong(obj);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "%s[%zd] must be in 0..%llu, got %S", what, index,
                     (unsigned long long)(bound - 1), obj);
        return 0;
    }
    if (bound && v >= bound) {
        PyErr_Format(PyExc_ValueError, "%s[%zd] must be in 0..%llu, got %S", what, index,
                     (unsigned long long)(bound - 1), obj);
        return 0;
    }
    *out = v;
    return 1;
}

/* A pair of distinct cell indices (a sequence of two ints in 0..ncells-1) into out[0..1]. */
static int cell_pair(PyObject *obj, int ncells, const char *what, Py_ssize_t k, uint16_t *out) {
    PyObject *t = as_tuple(obj, what, k);
    if (t == NULL) return 0;
    int ok = PyTuple_GET_SIZE(t) == 2;
    if (!ok)
        PyErr_Format(PyExc_ValueError, "%s[%zd] must be a pair of cells, got %zd items", what, k,
                     PyTuple_GET_SIZE(t));
    for (int i = 0; ok && i < 2; i++) {
        uint64_t c = 0;
        ok = rule_int(PyTuple_GET_ITEM(t, i), (uint64_t)ncells, what, k, &c);
        out[i] = (uint16_t)c;
    }
    if (ok && out[0] == out[1]) {
        PyErr_Format(PyExc_ValueError, "%s[%zd] pairs cell %d with itself", what, k, (int)out[0]);
        ok = 0;
    }
    Py_DECREF(t);
    return ok;
}

/* different: pairs of cells that must differ (None or a sequence of pairs). */
static int parse_different(PyObject *obj, int ncells, rules_buf *b) {
    if (obj == Py_None) return 1;
    PyObject *t = as_tuple(obj, "different", -1);
    if (t == NULL) return 0;
    const Py_ssize_t k = PyTuple_GET_SIZE(t);
    int ok = 1;
    if (k > SK_MAX_BATCH) {
        PyErr_Format(PyExc_ValueError, "different: too many pairs (%zd)", k);
        ok = 0;
    } else if (k > 0) {
        b->pairs = PyMem_RawMalloc((size_t)k * 2 * sizeof *b->pairs);
        if (b->pairs == NULL) {
            PyErr_NoMemory();
            ok = 0;
        }
        for (Py_ssize_t i = 0; ok && i < k; i++)
            ok = cell_pair(PyTuple_GET_ITEM(t, i), ncells, "different", i, b->pairs + 2 * i);
        b->r.npairs = (uint32_t)k;
        b->r.pairs = b->pairs;
        b->any = 1;
    }
    Py_DECREF(t);
    return ok;
}

/* allowed: None, or ncells masks (ints below 2**n). */
static int parse_allowed(PyObject *obj, int n, int ncells, rules_buf *b) {
    if (obj == Py_None) return 1;
    PyObject *t = as_tuple(obj, "allowed", -1);
    if (t == NULL) return 0;
    int ok = PyTuple_GET_SIZE(t) == ncells;
    if (!ok)
        PyErr_Format(PyExc_ValueError, "allowed must hold %d masks, got %zd", ncells,
                     PyTuple_GET_SIZE(t));
    if (ok) {
        b->allowed = PyMem_RawMalloc((size_t)ncells * sizeof *b->allowed);
        if (b->allowed == NULL) {
            PyErr_NoMemory();
            ok = 0;
        }
    }
    const uint64_t bound = n >= 64 ? 0 : (uint64_t)1 << n; /* 0: the whole uint64 range */
    for (int i = 0; ok && i < ncells; i++)
        ok = rule_int(PyTuple_GET_ITEM(t, i), bound, "allowed", i, &b->allowed[i]);
    if (ok) {
        b->r.allowed = b->allowed;
        b->any = 1;
    }
    Py_DECREF(t);
    return ok;
}

/* relations: (a, b, table) triples, table n masks below 2**n; at most 16 * ncells. */
static int parse_relations(PyObject *obj, int n, int ncells, rules_buf *b) {
    if (obj == Py_None) return 1;
    PyObject *t = as_tuple(obj, "relations", -1);
    if (t == NULL) return 0;
    const Py_ssize_t k = PyTuple_GET_SIZE(t);
    int ok = 1;
    if (k > 16 * (Py_ssize_t)ncells) {
        PyErr_Format(PyExc_ValueError, "relations: %zd relations, at most %zd for size %d", k,
                     16 * (Py_ssize_t)ncells, n);
        ok = 0;
    } else if (k > 0) {
        b->rel_cells = PyMem_RawMalloc((size_t)k * 2 * sizeof *b->rel_cells);
        b->rel_tables = PyMem_RawMalloc((size_t)k * (size_t)n * sizeof *b->rel_tables);
        if (b->rel_cells == NULL || b->rel_tables == NULL) {
            PyErr_NoMemory();
            ok = 0;
        }
        const uint64_t bound = n >= 64 ? 0 : (uint64_t)1 << n;
        for (Py_ssize_t i = 0; ok && i < k; i++) {
            PyObject *rel = as_tuple(PyTuple_GET_ITEM(t, i), "relations", i);
            if (rel == NULL) {
                ok = 0;
                break;
            }
            if (PyTuple_GET_SIZE(rel) != 3) {
                PyErr_Format(PyExc_ValueError, "relations[%zd] must be (a, b, table), got %zd items",
                             i, PyTuple_GET_SIZE(rel));
                ok = 0;
            }
            PyObject *pair = ok ? PyTuple_GetSlice(rel, 0, 2) : NULL;
            if (ok && pair == NULL) ok = 0;
            if (ok) ok = cell_pair(pair, ncells, "relations", i, b->rel_cells + 2 * i);
            Py_XDECREF(pair);
            PyObject *table = ok ? as_tuple(PyTuple_GET_ITEM(rel, 2), "relations", i) : NULL;
            if (ok && table == NULL) ok = 0;
            if (ok && PyTuple_GET_SIZE(table) != n) {
                PyErr_Format(PyExc_ValueError, "relations[%zd]: the table must hold %d masks, got "
                                               "%zd", i, n, PyTuple_GET_SIZE(table));
                ok = 0;
            }
            for (int d = 0; ok && d < n; d++)
                ok = rule_int(PyTuple_GET_ITEM(table, d), bound, "relations", i,
                              &b->rel_tables[(size_t)i * n + d]);
            Py_XDECREF(table);
            Py_DECREF(rel);
        }
        b->r.nrelations = (uint32_t)k;
        b->r.rel_cells = b->rel_cells;
        b->r.rel_tables = b->rel_tables;
        b->any = 1;
    }
    Py_DECREF(t);
    return ok;
}

/* cages: (cells, total) pairs, total None or 0..n(n+1)/2; 1..n cells, none in two cages. */
static int parse_cages(PyObject *obj, int n, int ncells, rules_buf *b) {
    if (obj == Py_None) return 1;
    PyObject *t = as_tuple(obj, "cages", -1);
    if (t == NULL) return 0;
    const Py_ssize_t k = PyTuple_GET_SIZE(t);
    int ok = 1;
    uint8_t *used = NULL;
    if (k > ncells) {
        PyErr_Format(PyExc_ValueError, "cages: %zd cages, at most %d for size %d", k, ncells, n);
        ok = 0;
    } else if (k > 0) {
        b->cage_cells = PyMem_RawMalloc((size_t)ncells * sizeof *b->cage_cells);
        b->cage_ends = PyMem_RawMalloc((size_t)k * sizeof *b->cage_ends);
        b->cage_sums = PyMem_RawMalloc((size_t)k * sizeof *b->cage_sums);
        used = PyMem_RawCalloc((size_t)ncells, 1);
        if (!b->cage_cells || !b->cage_ends || !b->cage_sums || !used) {
            PyErr_NoMemory();
            ok = 0;
        }
        uint32_t pos = 0;
        for (Py_ssize_t i = 0; ok && i < k; i++) {
            PyObject *cage = as_tuple(PyTuple_GET_ITEM(t, i), "cages", i);
            if (cage == NULL) {
                ok = 0;
                break;
            }
            if (PyTuple_GET_SIZE(cage) != 2) {
                PyErr_Format(PyExc_ValueError, "cages[%zd] must be (cells, total), got %zd items",
                             i, PyTuple_GET_SIZE(cage));
                ok = 0;
            }
            PyObject *cells = ok ? as_tuple(PyTuple_GET_ITEM(cage, 0), "cages", i) : NULL;
            if (ok && cells == NULL) ok = 0;
            const Py_ssize_t size = cells ? PyTuple_GET_SIZE(cells) : 0;
            if (ok && (size < 1 || size > n)) {
                PyErr_Format(PyExc_ValueError, "cages[%zd] has %zd cells, expected 1..%d", i, size,
                             n);
                ok = 0;
            }
            for (Py_ssize_t j = 0; ok && j < size; j++) {
                uint64_t c = 0;
                ok = rule_int(PyTuple_GET_ITEM(cells, j), (uint64_t)ncells, "cages", i, &c);
                if (ok && used[c]) {
                    PyErr_Format(PyExc_ValueError, "cages[%zd]: cell %d is already in a cage", i,
                                 (int)c);
                    ok = 0;
                }
                if (ok) {
                    used[c] = 1;
                    b->cage_cells[pos++] = (uint16_t)c;
                }
            }
            Py_XDECREF(cells);
            if (ok) {
                PyObject *total = PyTuple_GET_ITEM(cage, 1);
                uint64_t sum = 0;
                if (total == Py_None)
                    b->cage_sums[i] = -1;
                else if ((ok = rule_int(total, (uint64_t)(n * (n + 1) / 2) + 1, "cages", i, &sum)))
                    b->cage_sums[i] = (int32_t)sum;
                b->cage_ends[i] = pos;
            }
            Py_DECREF(cage);
        }
        b->r.ncages = (uint32_t)k;
        b->r.cage_ends = b->cage_ends;
        b->r.cage_cells = b->cage_cells;
        b->r.cage_sums = b->cage_sums;
        b->any = 1;
    }
    PyMem_RawFree(used);
    Py_DECREF(t);
    return ok;
}

/* Geometry(n, units, *, generic=False, different=None, allowed=None, relations=None,
 * cages=None): n in 1..64; units a sequence of sequences of n distinct cell indices;
 * generic=True never uses the 9x9 fast path; the rest are the variant rules (sk_rules in
 * sk_solver.h), each checked here with a message naming the bad entry. */
static int Geometry_init(GeometryObject *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"n",         "units",   "generic", "different",
                             "allowed",   "relations", "cages", NULL};
    int n, generic = 0;
    PyObject *units, *different = Py_None, *allowed = Py_None, *relations = Py_None,
                     *cages = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iO|$pOOOO:Geometry", kwlist, &n, &units,
                                     &generic, &different, &allowed, &relations, &cages))
        return -1;
    if (self->geom != NULL) {
        PyErr_SetString(PyExc_TypeError, "Geometry is immutable: already initialised");
        return -1;
    }
    if (n < 1 || n > SK_MAX_N) {
        PyErr_Format(PyExc_ValueError, "size n must be in 1..%d, got %d", SK_MAX_N, n);
        return -1;
    }
    /* Every input is copied into a tuple (owned references, immutable) before it is read:
     * PyLong_AsLong may run Python code (__index__) that mutates the caller's lists, and
     * borrowed items of a list being mutated may be freed under us. */
    PyObject *seq = PySequence_Check(units) ? PySequence_Tuple(units) : NULL;
    if (seq == NULL) {
        if (!PyErr_Occurred() || PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Clear();
            PyErr_SetString(PyExc_TypeError, "units must be a sequence of cell-index sequences");
        }
        return -1;
    }
    const Py_ssize_t nunits = PyTuple_GET_SIZE(seq);
    const int ncells = n * n;
    if (nunits < 1 || nunits > 8 * n + 8) {
        PyErr_Format(PyExc_ValueError, "expected 1..%d units for size %d, got %zd", 8 * n + 8, n,
                     nunits);
        Py_DECREF(seq);
        return -1;
    }
    uint16_t *flat = PyMem_Malloc((size_t)nunits * (size_t)n * sizeof *flat);
    if (flat == NULL) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t u = 0; u < nunits; u++) {
        PyObject *item = PyTuple_GET_ITEM(seq, u);
        PyObject *unit = PySequence_Check(item) ? PySequence_Tuple(item) : NULL;
        if (unit == NULL) {
            if (!PyErr_Occurred() || PyErr_ExceptionMatches(PyExc_TypeError)) {
                PyErr_Clear();
                PyErr_SetString(PyExc_TypeError, "each unit must be a sequence of cell indices");
            }
            goto fail;
        }
        if (PyTuple_GET_SIZE(unit) != n) {
            PyErr_Format(PyExc_ValueError, "unit %zd has %zd cells, expected %d", u,
                         PyTuple_GET_SIZE(unit), n);
            Py_DECREF(unit);
            goto fail;
        }
        for (int i = 0; i < n; i++) {
            long c = PyLong_AsLong(PyTuple_GET_ITEM(unit, i));
            if (c == -1 && PyErr_Occurred()) {
                Py_DECREF(unit);
                goto fail;
            }
            if (c < 0 || c >= ncells) {
                PyErr_Format(PyExc_ValueError, "unit %zd: cell index %ld is outside 0..%d", u, c,
                             ncells - 1);
                Py_DECREF(unit);
                goto fail;
            }
            flat[u * n + i] = (uint16_t)c;
        }
        Py_DECREF(unit);
    }
    Py_DECREF(seq);
    seq = NULL;
    rules_buf rb;
    memset(&rb, 0, sizeof rb);
    if (!parse_different(different, ncells, &rb) || !parse_allowed(allowed, n, ncells, &rb) ||
        !parse_relations(relations, n, ncells, &rb) || !parse_cages(cages, n, ncells, &rb)) {
        rules_buf_free(&rb);
        goto fail;
    }
    sk_geom *geom = NULL;
    int rc = sk_geom_new(n, (int)nunits, flat, &geom);
    PyMem_Free(flat);
    if (rc == SK_COMPLETE && rb.any) {
        rc = sk_geom_set_rules(geom, &rb.r);
        if (rc != SK_COMPLETE) {
            sk_geom_free(geom);
            geom = NULL;
            if (rc == SK_EINVAL) { /* every check above passed, so this cannot happen */
                rules_buf_free(&rb);
                PyErr_SetString(PyExc_ValueError, "invalid variant rules");
                return -1;
            }
        }
    }
    rules_buf_free(&rb);
    if (rc == SK_ENOMEM) {
        PyErr_NoMemory();
        return -1;
    }
    if (rc != SK_COMPLETE) {
        PyErr_SetString(PyExc_ValueError, "every unit must list n distinct cells");
        return -1;
    }
    if (self->geom != NULL) { /* __index__ above ran __init__ on this object again */
        sk_geom_free(geom);
        PyErr_SetString(PyExc_TypeError, "Geometry is immutable: already initialised");
        return -1;
    }
    self->geom = geom;
    self->n = n;
    self->ncells = ncells;
    self->nunits = (int)nunits;
    self->rules = sk_geom_has_rules(geom);
    /* generic=True keeps standard 9x9 grids off the fast path (tests compare the two). */
    self->standard9 = sk_geom_is_standard9(self->geom) && !generic;
    if (generic) sk_geom_disable_fast(self->geom);
    return 0;
fail:
    Py_XDECREF(seq);
    PyMem_Free(flat);
    return -1;
}

static PyObject *Geometry_repr(GeometryObject *self) {
    return PyUnicode_FromFormat("<sudokit._core.Geometry n=%d units=%d%s%s>", self->n,
                                self->nunits, self->standard9 ? " standard9" : "",
                                self->rules ? " rules" : "");
}

static PyMemberDef Geometry_members[] = {
    {"n", T_INT, offsetof(GeometryObject, n), READONLY, "size: digits 1..n"},
    {"ncells", T_INT, offsetof(GeometryObject, ncells), READONLY, "cells: n * n"},
    {"nunits", T_INT, offsetof(GeometryObject, nunits), READONLY, "number of units"},
    {"standard9", T_BOOL, offsetof(GeometryObject, standard9), READONLY,
     "True when the 9x9 fast path may be used"},
    {"rules", T_BOOL, offsetof(GeometryObject, rules), READONLY,
     "True when variant rules are attached (different, allowed, relations, cages)"},
    {NULL, 0, 0, 0, NULL},
};

static PyTypeObject Geometry_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sudokit._core.Geometry",
    .tp_basicsize = sizeof(GeometryObject),
    .tp_dealloc = (destructor)Geometry_dealloc,
    .tp_repr = (reprfunc)Geometry_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Geometry(n, units, *, generic=False, different=None, allowed=None, "
              "relations=None, cages=None)\n--\n\nImmutable geometry of a shape: n in "
              "1..64 and its units (each a sequence of n distinct cell indices).\n"
              "generic=True keeps a standard 9x9 shape off the 9x9 fast path.\n"
              "Variant rules (any rule keeps the shape off the fast path):\n"
              "different: pairs (a, b) of cells that must differ;\n"
              "allowed: ncells masks, the digits each cell may hold (bit d-1 = digit d);\n"
              "relations: (a, b, table), table n masks: digits b may hold when a holds d\n"
              "  (table[d-1]); the reverse direction is derived;\n"
              "cages: (cells, total), 1..n distinct cells, total None (digits differ only)\n"
              "  or their sum; no cell in two cages.",
    .tp_members = Geometry_members,
    .tp_init = (initproc)Geometry_init,
    .tp_new = PyType_GenericNew,
};

/* ---------------------------------------------------------------------------------------- */
/* argument helpers                                                                           */

static GeometryObject *as_geometry(PyObject *obj) {
    if (!PyObject_TypeCheck(obj, &Geometry_Type)) {
        PyErr_Format(PyExc_TypeError, "geometry must be a sudokit._core.Geometry, not %.100s",
                     Py_TYPE(obj)->tp_name);
        return NULL;
    }
    GeometryObject *g = (GeometryObject *)obj;
    if (g->geom == NULL) {
        PyErr_SetString(PyExc_ValueError, "geometry is not initialised");
        return NULL;
    }
    return g;
}

/* A non-negative Python int as uint64, >= minimum; name is used in messages.  0 on error. */
static int as_count(PyObject *obj, const char *name, uint64_t minimum, uint64_t *out) {
    if (!PyLong_Check(obj) || PyBool_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int, not %.100s", name, Py_TYPE(obj)->tp_name);
        return 0;
    }
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(obj, &overflow);
    if (v == -1 && PyErr_Occurred()) return 0;
    if (overflow > 0) {
        PyErr_Format(PyExc_ValueError, "%s is too large (at most %lld)", name, LLONG_MAX);
        return 0;
    }
    if (overflow < 0 || v < 0 || (uint64_t)v < minimum) {
        PyErr_Format(PyExc_ValueError, "%s must be >= %llu, got %S", name,
                     (unsigned long long)minimum, obj);
        return 0;
    }
    *out = (uint64_t)v;
    return 1;
}

/* Checks that buf holds bytes of values 0..n; names the first bad cell.  0 on error. */
static int check_values(const uint8_t *buf, Py_ssize_t len, int ncells, int n, const char *what) {
    /* A branch-free pass first (it vectorises: batches are checked whole), then the slow one
     * only to name the first bad cell. */
    uint8_t bad = 0;
    for (Py_ssize_t i = 0; i < len; i++) bad |= buf[i] > n;
    for (Py_ssize_t i = 0; bad && i < len; i++) {
        if (buf[i] > n) {
            if (len == ncells)
                PyErr_Format(PyExc_ValueError, "cell %zd has value %d, expected 0..%d", i,
                             (int)buf[i], n);
            else
                PyErr_Format(PyExc_ValueError, "%s: puzzle %zd, cell %zd has value %d, expected 0..%d",
                             what, i / ncells, i % ncells, (int)buf[i], n);
            return 0;
        }
    }
    return 1;
}

/* The cell-buffer argument `name`: bytes of exactly ncells values 0..n when `single`, else a
 * batch of whole puzzles of ncells values (at most SK_MAX_BATCH of them).  Sets *cells and
 * *len (the bytes object's own buffer: valid while obj lives).  0 with an exception on error. */
static int cells_arg(PyObject *obj, const char *name, int ncells, int n, int single,
                     const uint8_t **cells, Py_ssize_t *len) {
    if (!PyBytes_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s must be bytes, not %.100s", name, Py_TYPE(obj)->tp_name);
        return 0;
    }
    const Py_ssize_t size = PyBytes_GET_SIZE(obj);
    if (single && size != ncells) {
        PyErr_Format(PyExc_ValueError, "%s must hold %d values for size %d, got %zd", name, ncells,
                     n, size);
        return 0;
    }
    if (!single && size % ncells != 0) {
        PyErr_Format(PyExc_ValueError, "%s must hold a multiple of %d values (size %d), got %zd "
                                       "bytes", name, ncells, n, size);
        return 0;
    }
    if (!single && size / ncells > SK_MAX_BATCH) {
        PyErr_Format(PyExc_ValueError, "a batch of %zd puzzles is larger than the maximum %zd; "
                                       "split it", size / ncells, SK_MAX_BATCH);
        return 0;
    }
    *cells = (const uint8_t *)PyBytes_AS_STRING(obj);
    *len = size;
    return check_values(*cells, size, ncells, n, name);
}

/* The (geometry, cells) pair that starts search, search_batch and reduce: args[0] must be an
 * initialised Geometry and args[1] its cell buffer as cells_arg checks it.  NULL with an
 * exception on error. */
static GeometryObject *geometry_and_cells(PyObject *const *args, const char *name, int single,
                                          const uint8_t **cells, Py_ssize_t *len) {
    GeometryObject *g = as_geometry(args[0]);
    if (g == NULL || !cells_arg(args[1], name, g->ncells, g->n, single, cells, len)) return NULL;
    return g;
}

/* ---------------------------------------------------------------------------------------- */
/* search                                                                                     */

PyDoc_STRVAR(search_doc,
             "search(geometry, cells, limit, keep, budget, /)\n--\n\n"
             "Count the solutions of one puzzle up to limit (>= 1), keeping the first keep.\n\n"
             "cells: bytes of ncells values 0..n.  budget: maximum guesses (0 = unbounded).\n"
             "Returns (count, solutions, guesses, complete); complete is False when the budget\n"
             "ran out, and count is then a lower bound.  The GIL is released while searching.");

static PyObject *core_search(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    (void)module;
    if (nargs != 5) {
        PyErr_Format(PyExc_TypeError, "search() takes 5 arguments (geometry, cells, limit, keep, "
                                      "budget), got %zd", nargs);
        return NULL;
    }
    Py_ssize_t len;
    const uint8_t *cells;
    GeometryObject *g = geometry_and_cells(args, "cells", 1, &cells, &len);
    if (g == NULL) return NULL;
    uint64_t limit, keep, budget;
    if (!as_count(args[2], "limit", 1, &limit) || !as_count(args[3], "keep", 0, &keep) ||
        !as_count(args[4], "budget", 0, &budget))
        return NULL;
    if (keep > limit) keep = limit;
    if (keep > SK_MAX_KEEP_BYTES / (uint64_t)g->ncells) {
        PyErr_Format(PyExc_ValueError, "keep=%llu solutions of %d cells exceed the %llu-byte limit",
                     (unsigned long long)keep, g->ncells, (unsigned long long)SK_MAX_KEEP_BYTES);
        return NULL;
    }
    uint8_t *sols = NULL;
    if (keep) {
        sols = PyMem_RawMalloc((size_t)keep * (size_t)g->ncells);
        if (sols == NULL) return PyErr_NoMemory();
    }
    sk_work *w = work_take(g);
    /* Keep the geometry alive while the GIL is released (another thread could drop it). */
    Py_INCREF(g);
    uint64_t count = 0, guesses = 0;
    int rc = SK_ENOMEM;
    py_poll poll;
    poll_release(&poll);
    if (w == NULL) w = sk_work_new(g->geom);
    if (w != NULL)
        rc = sk_search(g->geom, w, cells, limit, keep, sols, budget, &count, &guesses, py_poll_fn,
                       &poll);
    poll_acquire(&poll);
    work_give(g, w);
    Py_DECREF(g);
    if (rc == SK_STOPPED) { /* a signal handler raised (KeyboardInterrupt): it is set */
        PyMem_RawFree(sols);
        return NULL;
    }
    if (rc == SK_ENOMEM) {
        PyMem_RawFree(sols);
        return PyErr_NoMemory();
    }
    if (rc != SK_COMPLETE && rc != SK_GAVE_UP) {
        PyMem_RawFree(sols);
        PyErr_SetString(PyExc_ValueError, "invalid search arguments");
        return NULL;
    }
    uint64_t nkept = count < keep ? count : keep;
    PyObject *tuple = PyTuple_New((Py_ssize_t)nkept);
    if (tuple == NULL) {
        PyMem_RawFree(sols);
        return NULL;
    }
    for (uint64_t i = 0; i < nkept; i++) {
        PyObject *b = PyBytes_FromStringAndSize((const char *)sols + i * (size_t)g->ncells,
                                                g->ncells);
        if (b == NULL) {
            Py_DECREF(tuple);
            PyMem_RawFree(sols);
            return NULL;
        }
        PyTuple_SET_ITEM(tuple, (Py_ssize_t)i, b);
    }
    PyMem_RawFree(sols);
    return Py_BuildValue("(KNKO)", (unsigned long long)count, tuple, (unsigned long long)guesses,
                         rc == SK_COMPLETE ? Py_True : Py_False);
}

/* ---------------------------------------------------------------------------------------- */
/* search_batch                                                                               */

typedef struct {
    const sk_geom *geom;
    const uint8_t *puzzles;
    uint8_t *solutions;
    uint64_t *counts, *guesses;
    uint8_t *complete;
    Py_ssize_t k;
    int ncells;
    uint64_t limit, budget;
    Py_ssize_t next; /* shared: next puzzle to take (atomic) */
    int failed;      /* shared: a worker ran out of memory (atomic) */
    py_poll *poll;   /* the calling thread's poll state; its stop flag is shared */
    sk_work *mine;   /* the calling thread's workspace: taken from the geometry's pool (NULL:
                        allocated by batch_work), given back by search_all; only it touches it */
} batch_job;

/* Puzzles the calling thread searches between two polls in a batch (one search polls on its
 * own only after thousands of guesses). */
#define SK_BATCH_POLL_EVERY 256

#define SK_BATCH_GRAIN 8

/* The loop of one batch thread; `caller` is 1 on the thread that holds the Python thread state
 * (it polls for signals), 0 on the others (they only watch the stop flag). */
static void batch_work(batch_job *job, int caller) {
    sk_poll_fn poll = caller ? py_poll_fn : stop_flag_fn;
    Py_ssize_t since_poll = 0;
    sk_work *w = caller && job->mine != NULL ? job->mine : sk_work_new(job->geom);
    if (w == NULL) {
        __atomic_store_n(&job->failed, 1, __ATOMIC_RELAXED);
        return;
    }
    if (caller) job->mine = w; /* search_all gives it back to the pool */
    const size_t nc = (size_t)job->ncells;
    for (;;) {
        if (__atomic_load_n(&job->poll->stop, __ATOMIC_RELAXED)) break;
        if (caller && (since_poll += SK_BATCH_GRAIN) >= SK_BATCH_POLL_EVERY) {
            since_poll = 0;
            if (py_poll_fn(job->poll)) break;
        }
        Py_ssize_t start = __atomic_fetch_add(&job->next, SK_BATCH_GRAIN, __ATOMIC_RELAXED);
        if (start >= job->k) break;
        Py_ssize_t stop = start + SK_BATCH_GRAIN < job->k ? start + SK_BATCH_GRAIN : job->k;
        for (Py_ssize_t i = start; i < stop; i++) {
            uint8_t *sol = job->solutions + (size_t)i * nc;
            memset(sol, 0, nc);
            uint64_t count = 0, guesses = 0;
            int rc = sk_search(job->geom, w, job->puzzles + (size_t)i * nc, job->limit, 1, sol,
                               job->budget, &count, &guesses, poll, job->poll);
            job->counts[i] = count;
            job->guesses[i] = guesses;
            job->complete[i] = rc == SK_COMPLETE;
        }
    }
    if (!caller) sk_work_free(w);
}

#ifdef SK_HAVE_PTHREADS
static void *batch_thread(void *arg) {
    batch_work((batch_job *)arg, 0);
    return NULL;
}
#endif

static int online_cpus(void) {
#ifdef SK_HAVE_PTHREADS
    long c = sysconf(_SC_NPROCESSORS_ONLN);
    return c < 1 ? 1 : (c > SK_MAX_THREADS ? SK_MAX_THREADS : (int)c);
#else
    return 1;
#endif
}

/* Runs the job on `threads` threads, this one included.  A thread that fails to start is
 * skipped: the threads that did start share its work. */
static void run_batch(batch_job *job, int threads) {
#ifdef SK_HAVE_PTHREADS
    pthread_t tids[SK_MAX_THREADS];
    int started = 0;
    for (int t = 1; t < threads; t++) {
        if (pthread_create(&tids[started], NULL, batch_thread, job) != 0) break;
        started++;
    }
    batch_work(job, 1);
    for (int t = 0; t < started; t++) pthread_join(tids[t], NULL);
#else
    (void)threads;
    batch_work(job, 1);
#endif
}

/* Searches the k puzzles of `puzzles` (k * ncells values 0..n, already checked) on `threads`
 * threads (0 = one per online CPU; never more than there are grains of work), keeping each
 * first solution in solutions[i * ncells ..] (zeros when none) and its count, guesses and
 * complete flag in the arrays (k entries each).  The GIL is released meanwhile: the caller
 * keeps every buffer alive and unshared.  1 on success; 0 with an exception set (a signal
 * handler raised, or no workspace could be allocated). */
static int search_all(GeometryObject *g, const uint8_t *puzzles, Py_ssize_t k, uint64_t limit,
                      uint64_t budget, uint64_t threads, uint8_t *solutions, uint64_t *counts,
                      uint64_t *guesses, uint8_t *complete) {
    if (k == 0) return 1;
    int nthreads = threads == 0 ? online_cpus()
                                : (threads > SK_MAX_THREADS ? SK_MAX_THREADS : (int)threads);
    if (nthreads > (k + SK_BATCH_GRAIN - 1) / SK_BATCH_GRAIN)
        nthreads = (int)((k + SK_BATCH_GRAIN - 1) / SK_BATCH_GRAIN);
    if (nthreads < 1) nthreads = 1;
    batch_job job = {
        .geom = g->geom,
        .puzzles = puzzles,
        .solutions = solutions,
        .counts = counts,
        .guesses = guesses,
        .complete = complete,
        .k = k,
        .ncells = g->ncells,
        .limit = limit,
        .budget = budget,
        .next = 0,
        .failed = 0,
        .mine = work_take(g), /* a one-puzzle call costs no workspace allocation */
    };
    py_poll poll;
    job.poll = &poll;
    Py_INCREF(g);
    poll_release(&poll);
    run_batch(&job, nthreads);
    poll_acquire(&poll);
    work_give(g, job.mine);
    Py_DECREF(g);
    if (poll.raised) return 0; /* a signal handler raised (KeyboardInterrupt): it is set */
    /* Every claimed puzzle is finished by its claimer, so next >= k means all are done; it
     * stays below k only when no worker could allocate its workspace. */
    if (job.next < k) {
        PyErr_NoMemory();
        return 0;
    }
    return 1;
}

PyDoc_STRVAR(search_batch_doc,
             "search_batch(geometry, puzzles, limit, budget, threads, /)\n--\n\n"
             "Search k puzzles held in one bytes object of k * ncells values (no terminator).\n\n"
             "Returns (counts, first_solutions, guesses, complete): lists of k ints / bools and\n"
             "one bytes object of k * ncells values (zeros where a puzzle has no solution).\n"
             "threads: worker threads (0 = one per online CPU); the GIL is released.");

static PyObject *core_search_batch(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    (void)module;
    if (nargs != 5) {
        PyErr_Format(PyExc_TypeError, "search_batch() takes 5 arguments (geometry, puzzles, limit, "
                                      "budget, threads), got %zd", nargs);
        return NULL;
    }
    Py_ssize_t len;
    const uint8_t *puzzles;
    GeometryObject *g = geometry_and_cells(args, "puzzles", 0, &puzzles, &len);
    if (g == NULL) return NULL;
    uint64_t limit, budget, threads;
    if (!as_count(args[2], "limit", 1, &limit) || !as_count(args[3], "budget", 0, &budget) ||
        !as_count(args[4], "threads", 0, &threads))
        return NULL;
    const Py_ssize_t k = len / g->ncells;
    PyObject *sols = PyBytes_FromStringAndSize(NULL, len);
    uint64_t *counts = PyMem_RawMalloc(((size_t)k + 1) * sizeof *counts);
    uint64_t *guesses = PyMem_RawMalloc(((size_t)k + 1) * sizeof *guesses);
    uint8_t *complete = PyMem_RawMalloc((size_t)k + 1);
    PyObject *lcounts = NULL, *lguesses = NULL, *lcomplete = NULL;
    if (sols == NULL || counts == NULL || guesses == NULL || complete == NULL) {
        if (!PyErr_Occurred()) PyErr_NoMemory();
        goto done;
    }
    Py_INCREF(args[1]); /* keep the puzzles alive while the GIL is released */
    int ok = search_all(g, puzzles, k, limit, budget, threads, (uint8_t *)PyBytes_AS_STRING(sols),
                        counts, guesses, complete);
    Py_DECREF(args[1]);
    if (!ok) goto done;
    if ((lcounts = PyList_New(k)) == NULL || (lguesses = PyList_New(k)) == NULL ||
        (lcomplete = PyList_New(k)) == NULL)
        goto done;
    for (Py_ssize_t i = 0; i < k; i++) {
        PyObject *c = PyLong_FromUnsignedLongLong(counts[i]);
        PyObject *q = c == NULL ? NULL : PyLong_FromUnsignedLongLong(guesses[i]);
        if (q == NULL) {
            Py_XDECREF(c);
            goto done;
        }
        PyList_SET_ITEM(lcounts, i, c);
        PyList_SET_ITEM(lguesses, i, q);
        PyObject *b = complete[i] ? Py_True : Py_False;
        Py_INCREF(b);
        PyList_SET_ITEM(lcomplete, i, b);
    }
    PyMem_RawFree(counts);
    PyMem_RawFree(guesses);
    PyMem_RawFree(complete);
    return Py_BuildValue("(NNNN)", lcounts, sols, lguesses, lcomplete);

done:
    Py_XDECREF(lcounts);
    Py_XDECREF(lguesses);
    Py_XDECREF(lcomplete);
    Py_XDECREF(sols);
    PyMem_RawFree(counts);
    PyMem_RawFree(guesses);
    PyMem_RawFree(complete);
    return NULL;
}

/* ---------------------------------------------------------------------------------------- */
/* search_items: one chunk of solve_many, read, searched and turned into records in one call */

/*
 * solve_many's per-puzzle Python (parse a line, build a Grid for the puzzle and one for the
 * solution, build a SolveResult) cost more than the search of an easy 9x9 puzzle.  This call
 * does that bookkeeping for the common items of a chunk:
 *
 *   items   a tuple: str lines and Grids (anything else is left to the caller)
 *      |
 *      |  a plain line (exact str, ASCII, stripped of what str.strip() removes, ncells
 *      |  symbols that `table` maps to 0..n) or a Grid (exact grid_type, .shape == shape)
 *      v
 *   buf = k' * ncells cell values --search_all (GIL released, threads)--> first solutions,
 *      |                                                                 counts, guesses
 *      v
 *   results[i] = a record (cls, fields set directly) when the search completed with at least
 *                one solution; else None, and the item is in `rest` (searched: no solution or
 *                gave up, the caller names the status) or in `pending` (not read here).
 *
 * The line rule is sudokit.grid's fast line reader (`_parse_line_fast`) with the table it uses
 * (`_line_table(n)`), so a line taken here gives the cells Grid.parse gives; every other line
 * (separators, integers, bad symbols, other lengths, non-ASCII) is the caller's.
 *
 * Records are built without calling cls.__init__: tp_alloc, then each field (named by the
 * caller, in the order of the REC_ enum: a writable object slot of cls, checked once a call)
 * gets its value stored at the slot's offset, as its member descriptor would store it
 * (object.__setattr__), without a call per field.  They are then untracked by the cycle
 * collector: their values are bytes, ints, bools, None, the shape, a status and
 * exact-grid_type items, none of which can lead back to a record (the caller's contract), so
 * no cycle can pass through one, and a million kept results cost the collector nothing.
 */

/* The fields search_items sets, in the order of the `names` the caller passes. */
enum { REC_PUZZLE, REC_SOLUTION, REC_SHAPE, REC_STATUS, REC_COUNT, REC_GUESSES, REC_COMPLETE,
       REC_ERROR, REC_FIELDS };

typedef struct {
    PyTypeObject *cls;             /* borrowed, as by_count: the caller's record holds both */
    Py_ssize_t offset[REC_FIELDS]; /* where each field's object pointer sits in a record */
    PyObject *by_count;            /* tuple: the status of a complete search by count (>= 1) */
} record_spec;

/* record = (cls, names, by_count): cls a type, names REC_FIELDS strs naming distinct slots of
 * cls, by_count a tuple of at least 2 statuses (entry c for count c, the last for larger
 * counts; entry 0 unused).  0 with an exception on error.  r holds no references. */
static int record_spec_read(PyObject *record, record_spec *r) {
    memset(r, 0, sizeof *r);
    if (!PyTuple_Check(record) || PyTuple_GET_SIZE(record) != 3) {
        PyErr_SetString(PyExc_TypeError, "record must be a tuple (cls, names, by_count)");
        return 0;
    }
    PyObject *cls = PyTuple_GET_ITEM(record, 0), *names = PyTuple_GET_ITEM(record, 1);
    r->by_count = PyTuple_GET_ITEM(record, 2);
    if (!PyType_Check(cls) || ((PyTypeObject *)cls)->tp_alloc == NULL) {
        PyErr_SetString(PyExc_TypeError, "record[0] must be a class");
        return 0;
    }
    r->cls = (PyTypeObject *)cls;
    if (!PyTuple_Check(r->by_count) || PyTuple_GET_SIZE(r->by_count) < 2) {
        PyErr_SetString(PyExc_TypeError, "record[2] must be a tuple of at least 2 statuses");
        return 0;
    }
    if (!PyTuple_Check(names) || PyTuple_GET_SIZE(names) != REC_FIELDS) {
        PyErr_Format(PyExc_TypeError, "record[1] must be a tuple of %d field names", REC_FIELDS);
        return 0;
    }
    for (int f = 0; f < REC_FIELDS; f++) {
        PyObject *name = PyTuple_GET_ITEM(names, f);
        PyObject *d = PyUnicode_Check(name) ? PyObject_GetAttr(cls, name) : NULL;
        /* A writable object slot (what __slots__ makes) of cls or of a base of it (a slot
         * descriptor of another class, planted on cls, is refused: its offset is another
         * layout's): record_new writes its pointer directly, as the descriptor would. */
        const PyMemberDef *m =
            d != NULL && Py_IS_TYPE(d, &PyMemberDescr_Type) &&
                    PyType_IsSubtype((PyTypeObject *)cls, PyDescr_TYPE(d))
                ? ((PyMemberDescrObject *)d)->d_member
                : NULL;
        const int slot = m != NULL && m->type == T_OBJECT_EX && !(m->flags & READONLY);
        if (slot) r->offset[f] = m->offset; /* m is cls's (or a base's) member table: it lives */
        Py_XDECREF(d);                       /* as long as cls, which the caller holds */
        if (!slot) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "record field %R is not a slot of %R", name, cls);
            return 0;
        }
        /* Two fields in one slot: record_new would store twice and leak the first reference. */
        for (int e = 0; e < f; e++) {
            if (r->offset[e] == r->offset[f]) {
                PyErr_Format(PyExc_TypeError, "record fields %R and %R are the same slot of %R",
                             PyTuple_GET_ITEM(names, e), name, cls);
                return 0;
            }
        }
    }
    return 1;
}

/* A new record with values[f] in field f (references borrowed, none NULL); NULL with an
 * exception.  tp_alloc zeroes the slots, so each is set by storing a new reference, as the
 * slot's descriptor does (it would also check the record's type: it is cls here). */
static PyObject *record_new(const record_spec *r, PyObject *const values[REC_FIELDS]) {
    PyObject *obj = r->cls->tp_alloc(r->cls, 0);
    if (obj == NULL) return NULL;
    for (int f = 0; f < REC_FIELDS; f++)
        *(PyObject **)((char *)obj + r->offset[f]) = Py_NewRef(values[f]);
    if (PyObject_IS_GC(obj)) PyObject_GC_UnTrack(obj);
    return obj;
}

/* The bytes str.strip() removes from the ends of an ASCII line (Py_UNICODE_ISSPACE). */
static int ascii_space(uint8_t c) { return (c >= 9 && c <= 13) || (c >= 28 && c <= 32); }

/* Reads a plain line into cells (ncells values); 1 when taken, 0 when it is the caller's. */
static int read_line(PyObject *item, const uint8_t *table, int ncells, uint8_t *cells) {
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(item) < 0) {
        PyErr_Clear();
        return 0;
    }
#endif
    if (!PyUnicode_IS_ASCII(item)) return 0;
    const uint8_t *s = PyUnicode_1BYTE_DATA(item);
    Py_ssize_t start = 0, end = PyUnicode_GET_LENGTH(item);
    while (start < end && ascii_space(s[start])) start++;
    while (end > start && ascii_space(s[end - 1])) end--;
    if (end - start != ncells) return 0;
    for (Py_ssize_t i = 0; i < ncells; i++) {
        const uint8_t v = table[s[start + i]];
        if (v == 255) return 0;
        cells[i] = v;
    }
    return 1;
}

/* After a failed lookup or comparison of an item's attribute: an Exception is cleared and the
 * item left to the caller (0); anything else (KeyboardInterrupt, SystemExit) stays set and
 * stops the call (-1), since Ctrl-C must always stop. */
static int leave_to_caller(void) {
    if (!PyErr_ExceptionMatches(PyExc_Exception)) return -1;
    PyErr_Clear();
    return 0;
}

/* Copies the cells of a Grid item of `shape` (the same object, or an equal one) into cells; 1
 * when taken, 0 when it is the caller's (another shape, cells that are not bytes of ncells
 * values 0..n, or an Exception raised by its attributes or their comparison), -1 with the
 * error set when such code raised a BaseException that is not an Exception. */
static int read_grid(PyObject *item, PyObject *shape, PyObject *name_shape, PyObject *name_cells,
                     int ncells, int n, uint8_t *cells) {
    PyObject *s = PyObject_GetAttr(item, name_shape);
    if (s == NULL) return leave_to_caller();
    const int same = s == shape ? 1 : PyObject_RichCompareBool(s, shape, Py_EQ);
    Py_DECREF(s);
    if (same < 0) return leave_to_caller();
    if (same == 0) return 0;
    PyObject *c = PyObject_GetAttr(item, name_cells);
    if (c == NULL) return leave_to_caller();
    int ok = PyBytes_CheckExact(c) && PyBytes_GET_SIZE(c) == ncells;
    if (ok) {
        const uint8_t *src = (const uint8_t *)PyBytes_AS_STRING(c);
        for (int i = 0; i < ncells && ok; i++) ok = src[i] <= n;
        if (ok) memcpy(cells, src, (size_t)ncells);
    }
    Py_DECREF(c);
    return ok;
}

PyDoc_STRVAR(search_items_doc,
             "search_items(geometry, shape, items, table, grid_type, limit, budget, threads, "
             "record, /)\n--\n\n"
             "Read, search and build the results of one chunk of solve_many (see sk_module.c).\n\n"
             "items: a tuple.  Taken here: exact str lines of ncells symbols that table (256\n"
             "bytes, 255 = not a symbol; None: no lines) maps to 0..n once stripped, and items of\n"
             "exactly grid_type (None: none) whose .shape == shape.  record = (cls, names,\n"
             "by_count): the records built, their 8 slot names (puzzle, solution, shape, status,\n"
             "count, guesses, complete, error) and the status of a complete search by count.\n"
             "Returns (results, rest, pending): a list with a record where a search completed\n"
             "with a solution, else None; (index, puzzle, count, first, guesses, complete) of\n"
             "the other searched items (puzzle: the Grid item, or the cells read); the indices\n"
             "of the items not taken.  The GIL is released while searching.");

static PyObject *core_search_items(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    (void)module;
    if (nargs != 9) {
        PyErr_Format(PyExc_TypeError, "search_items() takes 9 arguments (geometry, shape, items, "
                                      "table, grid_type, limit, budget, threads, record), got %zd",
                     nargs);
        return NULL;
    }
    GeometryObject *g = as_geometry(args[0]);
    if (g == NULL) return NULL;
    PyObject *shape = args[1], *items = args[2], *table_obj = args[3], *grid_type = args[4];
    if (!PyTuple_Check(items)) {
        PyErr_Format(PyExc_TypeError, "items must be a tuple, not %.100s", Py_TYPE(items)->tp_name);
        return NULL;
    }
    const Py_ssize_t k = PyTuple_GET_SIZE(items);
    if (k > SK_MAX_BATCH) {
        PyErr_Format(PyExc_ValueError, "a batch of %zd items is larger than the maximum %zd; "
                                       "split it", k, SK_MAX_BATCH);
        return NULL;
    }
    const uint8_t *table = NULL;
    if (table_obj != Py_None) {
        if (!PyBytes_Check(table_obj) || PyBytes_GET_SIZE(table_obj) != 256) {
            PyErr_SetString(PyExc_TypeError, "table must be 256 bytes or None");
            return NULL;
        }
        table = (const uint8_t *)PyBytes_AS_STRING(table_obj);
        /* One byte compare per entry, no early exit, so that the loop vectorises (it runs on
         * every call): adding 1 maps 255 (not a symbol) to 0 and 0..n to 1..n+1 (n <= 64). */
        const uint8_t top = (uint8_t)(g->n + 1);
        uint8_t bad = 0;
        for (int c = 0; c < 256; c++) bad |= (uint8_t)(table[c] + 1) > top;
        for (int c = 0; bad && c < 256; c++) {
            if (table[c] != 255 && table[c] > g->n) {
                PyErr_Format(PyExc_ValueError, "table maps %d to %d, expected 0..%d or 255", c,
                             (int)table[c], g->n);
                return NULL;
            }
        }
    }
    if (grid_type != Py_None && !PyType_Check(grid_type)) {
        PyErr_SetString(PyExc_TypeError, "grid_type must be a class or None");
        return NULL;
    }
    uint64_t limit, budget, threads;
    if (!as_count(args[5], "limit", 1, &limit) || !as_count(args[6], "budget", 0, &budget) ||
        !as_count(args[7], "threads", 0, &threads))
        return NULL;
    record_spec rec;
    if (!record_spec_read(args[8], &rec)) return NULL;

    const size_t nc = (size_t)g->ncells;
    uint8_t *buf = PyMem_RawMalloc((size_t)k * nc + 1);
    uint8_t *sols = PyMem_RawMalloc((size_t)k * nc + 1);
    Py_ssize_t *where = PyMem_RawMalloc(((size_t)k + 1) * sizeof *where);
    uint64_t *counts = PyMem_RawMalloc(((size_t)k + 1) * sizeof *counts);
    uint64_t *guesses = PyMem_RawMalloc(((size_t)k + 1) * sizeof *guesses);
    uint8_t *complete = PyMem_RawMalloc((size_t)k + 1);
    PyObject *name_shape = NULL, *name_cells = NULL; /* made at the first Grid item */
    PyObject *results = NULL, *rest = NULL, *pending = NULL, *out = NULL;
    if (buf == NULL || sols == NULL || where == NULL || counts == NULL || guesses == NULL ||
        complete == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    if ((results = PyList_New(k)) == NULL || (rest = PyList_New(0)) == NULL ||
        (pending = PyList_New(0)) == NULL)
        goto done;
    /* Every entry None before any Python code runs (read_grid's attribute lookups and
     * comparisons): gc.get_objects() there could reach the list, and a NULL entry crashes. */
    for (Py_ssize_t i = 0; i < k; i++) PyList_SET_ITEM(results, i, Py_NewRef(Py_None));

    /* Read: the taken items' cells into buf, their indices into where. */
    Py_ssize_t m = 0;
    for (Py_ssize_t i = 0; i < k; i++) {
        PyObject *item = PyTuple_GET_ITEM(items, i);
        uint8_t *cells = buf + (size_t)m * nc;
        int taken = 0;
        if (PyUnicode_CheckExact(item))
            taken = table != NULL && read_line(item, table, g->ncells, cells);
        else if ((PyObject *)Py_TYPE(item) == grid_type) {
            if (name_shape == NULL && (name_shape = PyUnicode_InternFromString("shape")) == NULL)
                goto done;
            if (name_cells == NULL && (name_cells = PyUnicode_InternFromString("cells")) == NULL)
                goto done;
            taken = read_grid(item, shape, name_shape, name_cells, g->ncells, g->n, cells);
            if (taken < 0) goto done;
        }
        if (taken) {
            where[m++] = i;
            continue;
        }
        PyObject *index = PyLong_FromSsize_t(i);
        if (index == NULL || PyList_Append(pending, index) < 0) {
            Py_XDECREF(index);
            goto done;
        }
        Py_DECREF(index);
    }

    /* Search, with the GIL released (buf and the arrays are this call's own). */
    if (!search_all(g, buf, m, limit, budget, threads, sols, counts, guesses, complete))
        goto done;

    /* Results: a record where the search completed with a solution, else a `rest` entry. */
    const Py_ssize_t nby = PyTuple_GET_SIZE(rec.by_count);
    for (Py_ssize_t j = 0; j < m; j++) {
        const Py_ssize_t i = where[j];
        PyObject *item = PyTuple_GET_ITEM(items, i);
        const char *cells = (const char *)buf + (size_t)j * nc;
        const char *first = (const char *)sols + (size_t)j * nc;
        /* Each value made only while none failed (no object made with an error set). */
        PyObject *puzzle = NULL, *count = NULL, *guess = NULL, *solution = NULL;
        int ok = (puzzle = PyUnicode_CheckExact(item)
                               ? PyBytes_FromStringAndSize(cells, (Py_ssize_t)nc)
                               : Py_NewRef(item)) != NULL &&
                 (count = PyLong_FromUnsignedLongLong(counts[j])) != NULL &&
                 (guess = PyLong_FromUnsignedLongLong(guesses[j])) != NULL &&
                 (solution = counts[j] ? PyBytes_FromStringAndSize(first, (Py_ssize_t)nc)
                                       : Py_NewRef(Py_None)) != NULL;
        if (ok && complete[j] && counts[j] >= 1) {
            const Py_ssize_t c = counts[j] < (uint64_t)nby ? (Py_ssize_t)counts[j] : nby - 1;
            PyObject *const values[REC_FIELDS] = {
                puzzle, solution, shape, PyTuple_GET_ITEM(rec.by_count, c),
                count,  guess,    Py_True, Py_None,
            };
            PyObject *record = record_new(&rec, values);
            ok = record != NULL && PyList_SetItem(results, i, record) == 0; /* steals it */
        } else if (ok) {
            PyObject *entry = Py_BuildValue("(nOOOOO)", i, puzzle, count, solution, guess,
                                            complete[j] ? Py_True : Py_False);
            ok = entry != NULL && PyList_Append(rest, entry) == 0;
            Py_XDECREF(entry);
        }
        Py_XDECREF(puzzle);
        Py_XDECREF(count);
        Py_XDECREF(guess);
        Py_XDECREF(solution);
        if (!ok) goto done;
    }
    out = PyTuple_Pack(3, results, rest, pending);

done:
    Py_XDECREF(results);
    Py_XDECREF(rest);
    Py_XDECREF(pending);
    Py_XDECREF(name_shape);
    Py_XDECREF(name_cells);
    PyMem_RawFree(buf);
    PyMem_RawFree(sols);
    PyMem_RawFree(where);
    PyMem_RawFree(counts);
    PyMem_RawFree(guesses);
    PyMem_RawFree(complete);
    return out;
}

/* ---------------------------------------------------------------------------------------- */
/* reduce                                                                                     */

PyDoc_STRVAR(reduce_doc,
             "reduce(geometry, cells, order, group_ends, budget, max_searches=None, /)\n--\n\n"
             "The clue-removal pass of a generator in one call (see sk_reduce in sk_solver.h).\n\n"
             "For each group order[group_ends[k-1]:group_ends[k]] in turn: clear the cells of the\n"
             "group that hold a digit; keep them cleared when the puzzle still has exactly one\n"
             "solution (counted up to 2, budget guesses per search, 0 = unbounded), else restore\n"
             "them.  Groups without a digit cost no search.  group_ends must be non-decreasing\n"
             "and end at len(order).  max_searches caps the searches (None = no cap).\n"
             "Returns (puzzle, searches, decided, complete): decided is False when some search\n"
             "gave up on its budget; complete is False when max_searches stopped the pass\n"
             "before its end (later groups untouched).  The GIL is released while searching.");

/* A sequence of ints in 0..bound-1 (or 0..bound when inclusive) into a new PyMem_Raw array of
 * elem-byte entries; sets *len.  NULL with an exception on error. */
static void *index_array(PyObject *obj, const char *name, long bound, int wide, Py_ssize_t *len) {
    PyObject *seq = PySequence_Fast(obj, "");
    if (seq == NULL) {
        PyErr_Format(PyExc_TypeError, "%s must be a sequence of ints, not %.100s", name,
                     Py_TYPE(obj)->tp_name);
        return NULL;
    }
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > SK_MAX_BATCH) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "%s is too long (%zd entries)", name, n);
        return NULL;
    }
    void *out = PyMem_RawMalloc((size_t)(n ? n : 1) * (wide ? sizeof(uint32_t) : sizeof(uint16_t)));
    if (out == NULL) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return NULL;
    }
    PyObject **items = PySequence_Fast_ITEMS(seq);
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!PyLong_Check(items[i]) || PyBool_Check(items[i])) {
            PyErr_Format(PyExc_TypeError, "%s[%zd] must be an int, not %.100s", name, i,
                         Py_TYPE(items[i])->tp_name);
            goto fail;
        }
        const long v = PyLong_AsLong(items[i]);
        if (v == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            PyErr_Format(PyExc_ValueError, "%s[%zd] is out of range", name, i);
            goto fail;
        }
        if (v < 0 || v >= bound) {
            PyErr_Format(PyExc_ValueError, "%s[%zd] must be in 0..%ld, got %ld", name, i,
                         bound - 1, v);
            goto fail;
        }
        if (wide)
            ((uint32_t *)out)[i] = (uint32_t)v;
        else
            ((uint16_t *)out)[i] = (uint16_t)v;
    }
    Py_DECREF(seq);
    *len = n;
    return out;
fail:
    Py_DECREF(seq);
    PyMem_RawFree(out);
    return NULL;
}

static PyObject *core_reduce(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    (void)module;
    if (nargs != 5 && nargs != 6) {
        PyErr_Format(PyExc_TypeError, "reduce() takes 5 or 6 arguments (geometry, cells, order, "
                                      "group_ends, budget[, max_searches]), got %zd", nargs);
        return NULL;
    }
    Py_ssize_t len;
    const uint8_t *given;
    GeometryObject *g = geometry_and_cells(args, "cells", 1, &given, &len);
    if (g == NULL) return NULL;
    uint64_t budget, max_searches = UINT64_MAX;
    if (!as_count(args[4], "budget", 0, &budget)) return NULL;
    if (nargs == 6 && args[5] != Py_None && !as_count(args[5], "max_searches", 0, &max_searches))
        return NULL;
    Py_ssize_t norder = 0, ngroups = 0;
    uint16_t *order = index_array(args[2], "order", g->ncells, 0, &norder);
    if (order == NULL) return NULL;
    uint32_t *ends = index_array(args[3], "group_ends", (long)norder + 1, 1, &ngroups);
    if (ends == NULL) {
        PyMem_RawFree(order);
        return NULL;
    }
    for (Py_ssize_t k = 1; k < ngroups; k++) {
        if (ends[k] < ends[k - 1]) {
            PyErr_Format(PyExc_ValueError, "group_ends must be non-decreasing: group_ends[%zd] = "
                                           "%lu < group_ends[%zd] = %lu", k, (unsigned long)ends[k],
                         k - 1, (unsigned long)ends[k - 1]);
            goto fail;
        }
    }
    if ((ngroups ? (Py_ssize_t)ends[ngroups - 1] : 0) != norder) {
        PyErr_Format(PyExc_ValueError, "group_ends must end at len(order) = %zd", norder);
        goto fail;
    }
    /* The pass works on a private copy and the result is a new bytes object made from it:
     * writing into a bytes object, even a fresh one, is unsafe (CPython shares the 1-byte
     * ones: clearing a 1-cell grid once turned every b"\x01" of the process into b"\x00"). */
    uint8_t *cells = PyMem_RawMalloc((size_t)len);
    if (cells == NULL) {
        PyErr_NoMemory();
        goto fail;
    }
    memcpy(cells, given, (size_t)len);
    sk_work *w = work_take(g);
    Py_INCREF(g);
    uint64_t searches = 0;
    int decided = 1, rc = SK_ENOMEM;
    py_poll poll;
    poll_release(&poll);
    if (w == NULL) w = sk_work_new(g->geom);
    if (w != NULL)
        rc = sk_reduce(g->geom, w, cells, order, ends, (uint32_t)ngroups, budget, max_searches,
                       &searches, &decided, py_poll_fn, &poll);
    poll_acquire(&poll);
    work_give(g, w);
    Py_DECREF(g);
    PyMem_RawFree(order);
    PyMem_RawFree(ends);
    if (rc != SK_COMPLETE && rc != SK_GAVE_UP) {
        PyMem_RawFree(cells);
        if (rc == SK_STOPPED) return NULL; /* a signal handler raised: its exception is set */
        if (rc == SK_ENOMEM) return PyErr_NoMemory();
        PyErr_SetString(PyExc_ValueError, "invalid reduce arguments");
        return NULL;
    }
    PyObject *out = PyBytes_FromStringAndSize((const char *)cells, len);
    PyMem_RawFree(cells);
    if (out == NULL) return NULL;
    return Py_BuildValue("(NKOO)", out, (unsigned long long)searches,
                         decided ? Py_True : Py_False, rc == SK_COMPLETE ? Py_True : Py_False);
fail:
    PyMem_RawFree(order);
    PyMem_RawFree(ends);
    return NULL;
}

/* ---------------------------------------------------------------------------------------- */
/* fill                                                                                       */

PyDoc_STRVAR(fill_doc,
             "fill(geometry, order, ends, draw, budget, max_searches=None, /)\n--\n\n"
             "The generator's phase 1 in one call (see sk_fill in sk_gen.h): random digits on\n"
             "the cells of order (distinct cell indices), in order, until the puzzle has exactly\n"
             "one solution.  ends: None, or for each position of order the position just after\n"
             "its orbit (the orbit where uniqueness is reached is completed from the solution).\n"
             "draw: a callable returning floats in [0, 1) (random.Random.random), called once\n"
             "per digit drawn, in the order generator/fill.py draws them.  budget: guesses per\n"
             "search (0 = unbounded); max_searches caps the searches (None = no cap).\n"
             "Returns (puzzle, solution, searches, complete): puzzle None when a cell had no\n"
             "digit left; solution None unless the puzzle is unique; complete False when\n"
             "max_searches stopped the fill.  The GIL is held (draw is Python).");

typedef struct {
    PyObject *draw;
} py_draw;

/* Draw callback: draw() as a double in [0, 1); -1 with an exception set otherwise. */
static double py_draw_fn(void *ctx) {
    PyObject *r = PyObject_CallNoArgs(((py_draw *)ctx)->draw);
    if (r == NULL) return -1.0;
    const double v = PyFloat_AsDouble(r);
    if (v == -1.0 && PyErr_Occurred()) {
        Py_DECREF(r);
        return -1.0;
    }
    if (!(v >= 0.0 && v < 1.0)) {
        PyErr_Format(PyExc_ValueError, "draw() must return a float in [0, 1), got %R", r);
        Py_DECREF(r);
        return -1.0;
    }
    Py_DECREF(r);
    return v;
}

/* Poll callback with the GIL held: the signal handlers (a no-op off the main thread). */
static int gil_poll_fn(void *ctx) {
    (void)ctx;
    return PyErr_CheckSignals() != 0;
}

/* The arguments fill and random_puzzle share: args[first] the draw callable, args[first + 1]
 * the guess budget and, when given and not None, args[first + 2] max_searches (UINT64_MAX
 * otherwise).  0 with an exception on error. */
static int draw_args(PyObject *const *args, Py_ssize_t nargs, Py_ssize_t first, uint64_t *budget,
                     uint64_t *max_searches) {
    if (!PyCallable_Check(args[first])) {
        PyErr_Format(PyExc_TypeError, "draw must be callable, not %.100s",
                     Py_TYPE(args[first])->tp_name);
        return 0;
    }
    *max_searches = UINT64_MAX;
    if (!as_count(args[first + 1], "budget", 0, budget)) return 0;
    return nargs <= first + 2 || args[first + 2] == Py_None ||
           as_count(args[first + 2], "max_searches", 0, max_searches);
}

static PyObject *core_fill(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    (void)module;
    if (nargs != 5 && nargs != 6) {
        PyErr_Format(PyExc_TypeError, "fill() takes 5 or 6 arguments (geometry, order, ends, "
                                      "draw, budget[, max_searches]), got %zd", nargs);
        return NULL;
    }
    GeometryObject *g = as_geometry(args[0]);
    uint64_t budget, max_searches;
    if (g == NULL || !draw_args(args, nargs, 3, &budget, &max_searches)) return NULL;
    Py_ssize_t norder = 0, nends = 0;
    uint16_t *order = index_array(args[1], "order", g->ncells, 0, &norder);
    if (order == NULL) return NULL;
    uint32_t *ends = NULL;
    uint8_t *buf = NULL;
    PyObject *result = NULL;
    if (args[2] != Py_None) {
        ends = index_array(args[2], "ends", (long)norder + 1, 1, &nends);
        if (ends == NULL) goto done;
        if (nends != norder) {
            PyErr_Format(PyExc_ValueError, "ends must hold one entry per cell of order (%zd), "
                                           "got %zd", norder, nends);
            goto done;
        }
    }
    buf = PyMem_RawMalloc(2 * (size_t)g->ncells);
    if (buf == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    sk_work *w = work_take(g);
    if (w == NULL) w = sk_work_new(g->geom);
    if (w == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    uint64_t searches = 0;
    int outcome = SK_FILL_FULL;
    py_draw draw = {args[3]};
    /* The GIL stays held: draw() is Python code (and g cannot go away meanwhile). */
    const int rc = sk_fill(g->geom, w, order, ends, (uint32_t)norder, py_draw_fn, &draw, budget,
                           max_searches, buf, buf + g->ncells, &searches, &outcome, gil_poll_fn,
                           NULL);
    work_give(g, w);
    if (rc == SK_STOPPED) goto done; /* draw() or a signal handler raised: it is set */
    if (rc != SK_COMPLETE && rc != SK_GAVE_UP) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "invalid fill arguments");
        goto done;
    }
    PyObject *puzzle = Py_None, *solution = Py_None;
    Py_INCREF(puzzle);
    Py_INCREF(solution);
    if (rc == SK_COMPLETE && outcome != SK_FILL_DEAD) {
        Py_DECREF(puzzle);
        puzzle = PyBytes_FromStringAndSize((const char *)buf, g->ncells);
        if (puzzle == NULL) {
            Py_DECREF(solution);
            goto done;
        }
    }
    if (rc == SK_COMPLETE && outcome == SK_FILL_UNIQUE) {
        Py_DECREF(solution);
        solution = PyBytes_FromStringAndSize((const char *)buf + g->ncells, g->ncells);
        if (solution == NULL) {
            Py_DECREF(puzzle);
            goto done;
        }
    }
    result = Py_BuildValue("(NNKO)", puzzle, solution, (unsigned long long)searches,
                           rc == SK_COMPLETE ? Py_True : Py_False);
done:
    PyMem_RawFree(order);
    PyMem_RawFree(ends);
    PyMem_RawFree(buf);
    return result;
}

PyDoc_STRVAR(random_puzzle_doc,
             "random_puzzle(geometry, cells, ends, complete_orbits, draw, budget, "
             "max_searches=None, /)\n--\n\n"
             "One generation attempt in one call (see sk_random_puzzle in sk_gen.h): the orbits\n"
             "(orbit k is cells[ends[k-1]:ends[k]]) shuffled with one draw() each, phase 1 on\n"
             "their cells, the orbits holding digits shuffled again, the removal pass over them.\n"
             "Returns (puzzle, solution, order, searches, decided, complete): puzzle None when a\n"
             "cell had no digit left, solution None unless phase 1 reached a unique puzzle,\n"
             "order the orbit numbers in their shuffled order, complete False when max_searches\n"
             "stopped it.  The GIL is held (draw is Python).");

static PyObject *core_random_puzzle(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    (void)module;
    if (nargs != 6 && nargs != 7) {
        PyErr_Format(PyExc_TypeError, "random_puzzle() takes 6 or 7 arguments (geometry, cells, "
                                      "ends, complete_orbits, draw, budget[, max_searches]), got "
                                      "%zd", nargs);
        return NULL;
    }
    GeometryObject *g = as_geometry(args[0]);
    if (g == NULL) return NULL;
    const int complete_orbits = PyObject_IsTrue(args[3]);
    uint64_t budget, max_searches;
    if (complete_orbits < 0 || !draw_args(args, nargs, 4, &budget, &max_searches)) return NULL;
    Py_ssize_t ncells_in = 0, norbits = 0;
    uint16_t *cells = index_array(args[1], "cells", g->ncells, 0, &ncells_in);
    if (cells == NULL) return NULL;
    uint32_t *ends = index_array(args[2], "ends", (long)ncells_in + 1, 1, &norbits);
    uint32_t *perm = NULL;
    uint8_t *buf = NULL;
    PyObject *result = NULL;
    if (ends == NULL) goto done;
    if ((norbits > 0 ? (Py_ssize_t)ends[norbits - 1] : 0) != ncells_in) {
        PyErr_Format(PyExc_ValueError, "ends must end at len(cells) = %zd", ncells_in);
        goto done;
    }
    perm = PyMem_RawMalloc(sizeof *perm * (size_t)(norbits ? norbits : 1));
    buf = PyMem_RawMalloc(2 * (size_t)g->ncells);
    if (perm == NULL || buf == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    sk_work *w = work_take(g);
    if (w == NULL) w = sk_work_new(g->geom);
    if (w == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    uint64_t searches = 0;
    int outcome = SK_FILL_FULL, decided = 1;
    py_draw draw = {args[4]};
    const int rc = sk_random_puzzle(g->geom, w, cells, ends, (uint32_t)norbits, complete_orbits,
                                    py_draw_fn, &draw, budget, max_searches, perm, buf,
                                    buf + g->ncells, &searches, &outcome, &decided, gil_poll_fn,
                                    NULL);
    work_give(g, w);
    if (rc == SK_STOPPED) goto done; /* draw() or a signal handler raised: it is set */
    if (rc != SK_COMPLETE && rc != SK_GAVE_UP) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "invalid random_puzzle arguments");
        goto done;
    }
    PyObject *order = PyList_New(norbits);
    if (order == NULL) goto done;
    for (Py_ssize_t k = 0; k < norbits; k++) {
        PyObject *v = PyLong_FromUnsignedLong(perm[k]);
        if (v == NULL) {
            Py_DECREF(order);
            goto done;
        }
        PyList_SET_ITEM(order, k, v);
    }
    const int complete = rc == SK_COMPLETE;
    PyObject *puzzle = complete && outcome != SK_FILL_DEAD
                           ? PyBytes_FromStringAndSize((const char *)buf, g->ncells)
                           : Py_NewRef(Py_None);
    PyObject *solution = puzzle == NULL ? NULL /* nothing more made with the error set */
                         : complete && outcome == SK_FILL_UNIQUE
                             ? PyBytes_FromStringAndSize((const char *)buf + g->ncells, g->ncells)
                             : Py_NewRef(Py_None);
    if (solution == NULL) {
        Py_XDECREF(puzzle);
        Py_XDECREF(solution);
        Py_DECREF(order);
        goto done;
    }
    result = Py_BuildValue("(NNNKOO)", puzzle, solution, order, (unsigned long long)searches,
                           decided ? Py_True : Py_False, complete ? Py_True : Py_False);
done:
    PyMem_RawFree(cells);
    PyMem_RawFree(ends);
    PyMem_RawFree(perm);
    PyMem_RawFree(buf);
    return result;
}

/* ---------------------------------------------------------------------------------------- */
/* canonical9                                                                                 */

PyDoc_STRVAR(canonical9_doc,
             "canonical9(cells, /)\n--\n\n"
             "The canonical (minlex) form of a standard 9x9 grid, as sudokit.transform.canonical\n"
             "defines it (see csrc/sk_canon.h).\n\n"
             "cells: bytes of 81 values 0..9, row-major.  Returns bytes of 81 values (above 9\n"
             "only for a grid with a digit twice in a row).  The GIL is released while it runs.");

static PyObject *core_canonical9(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    (void)module;
    if (nargs != 1) {
        PyErr_Format(PyExc_TypeError, "canonical9() takes 1 argument (cells), got %zd", nargs);
        return NULL;
    }
    const uint8_t *cells;
    Py_ssize_t len;
    if (!cells_arg(args[0], "cells", 81, 9, 1, &cells, &len)) return NULL;
    uint8_t out[81];
    int rc;
    Py_INCREF(args[0]); /* keep the buffer alive while the GIL is released */
    Py_BEGIN_ALLOW_THREADS
    rc = sk_canon9(cells, out);
    Py_END_ALLOW_THREADS
    Py_DECREF(args[0]);
    if (rc == SK_CANON_ENOMEM) return PyErr_NoMemory();
    if (rc != SK_CANON_OK) {
        PyErr_SetString(PyExc_ValueError, "invalid canonical9 arguments");
        return NULL;
    }
    return PyBytes_FromStringAndSize((const char *)out, 81);
}

/* ---------------------------------------------------------------------------------------- */
/* lines: the bulk line path (sk_lines.h)                                                     */

/* Notes returned by one lines() call at most; the caller calls again from `consumed`. */
#define SK_LINES_NOTES 4096

/* The poll of a lines() call: the caller's stop byte (set by another thread to stop a call
 * running on a worker thread, where no signal handler runs), then the usual signal poll. */
typedef struct {
    py_poll *poll;
    const uint8_t *stop; /* NULL, or one byte of the caller's buffer: nonzero = stop */
} lines_poll;

static int lines_poll_fn(void *ctx) {
    lines_poll *l = ctx;
    if (l->stop != NULL && __atomic_load_n(l->stop, __ATOMIC_RELAXED)) return 1;
    return py_poll_fn(l->poll);
}

PyDoc_STRVAR(lines_doc,
             "lines(geometry, data, start, mode, unique, limit, shown, budget, stop=None, /)\n--\n\n"
             "Read, search and write the 9x9 puzzle lines of data[start:] (see csrc/sk_lines.h).\n\n"
             "geometry: the standard 9x9 Geometry.  mode: 0 solve, 1 check, 2 count.  limit >= 2\n"
             "(count: shown + 1).  budget: guesses per puzzle (0 = unbounded).\n"
             "Returns (out, notes, consumed, lines, records): the output bytes of the lines taken,\n"
             "a tuple of notes (start, end, out, line, record, guesses, count, code) for the lines\n"
             "that need the caller, the offset reached (a line end: call again from it when it is\n"
             "below len(data)), and the lines and records done.  The GIL is released.\n"
             "stop: None or a writable buffer whose first byte another thread sets to stop the\n"
             "call (InterruptedError), e.g. a worker thread's call when the caller is interrupted.");

static PyObject *core_lines(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    (void)module;
    if (nargs != 8 && nargs != 9) {
        PyErr_Format(PyExc_TypeError, "lines() takes 8 or 9 arguments (geometry, data, start, "
                                      "mode, unique, limit, shown, budget[, stop]), got %zd", nargs);
        return NULL;
    }
    GeometryObject *g = as_geometry(args[0]);
    if (g == NULL) return NULL;
    if (!g->standard9) {
        PyErr_SetString(PyExc_ValueError, "lines() needs the standard 9x9 geometry");
        return NULL;
    }
    if (!PyBytes_Check(args[1])) {
        PyErr_Format(PyExc_TypeError, "data must be bytes, not %.100s", Py_TYPE(args[1])->tp_name);
        return NULL;
    }
    const Py_ssize_t size = PyBytes_GET_SIZE(args[1]);
    uint64_t start, mode, unique, limit, shown, budget;
    if (!as_count(args[2], "start", 0, &start) || !as_count(args[3], "mode", 0, &mode) ||
        !as_count(args[4], "unique", 0, &unique) || !as_count(args[5], "limit", 2, &limit) ||
        !as_count(args[6], "shown", 0, &shown) || !as_count(args[7], "budget", 0, &budget))
        return NULL;
    if (start > (uint64_t)size) {
        PyErr_Format(PyExc_ValueError, "start %llu is past the end of data (%zd bytes)",
                     (unsigned long long)start, size);
        return NULL;
    }
    if (mode > SKL_COUNT) {
        PyErr_Format(PyExc_ValueError, "mode must be 0, 1 or 2, got %llu", (unsigned long long)mode);
        return NULL;
    }
    Py_buffer stop = {0};
    if (nargs == 9 && args[8] != Py_None) {
        if (PyObject_GetBuffer(args[8], &stop, PyBUF_WRITABLE) < 0) return NULL;
        if (stop.len < 1) {
            PyBuffer_Release(&stop);
            PyErr_SetString(PyExc_ValueError, "stop must hold at least one byte");
            return NULL;
        }
    }
    const size_t len = (size_t)size - (size_t)start;
    /* Every record takes at least 81 bytes of data and writes at most SKL_MAX_OUT_LINE. */
    const size_t cap = (len / 81 + 2) * SKL_MAX_OUT_LINE;
    const skl_opts opts = {(int)mode, unique != 0, limit, shown, budget};
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)cap);
    skl_note *notes = PyMem_RawMalloc(SK_LINES_NOTES * sizeof *notes);
    if (out == NULL || notes == NULL) {
        Py_XDECREF(out);
        PyMem_RawFree(notes);
        if (stop.obj != NULL) PyBuffer_Release(&stop);
        return PyErr_NoMemory();
    }
    sk_work *w = work_take(g);
    Py_INCREF(g);
    Py_INCREF(args[1]); /* keep the data alive while the GIL is released */
    size_t out_len = 0, nnotes = 0, consumed = 0;
    uint64_t nlines = 0, records = 0;
    int rc = SK_ENOMEM;
    py_poll poll;
    lines_poll lpoll = {&poll, stop.obj != NULL ? (const uint8_t *)stop.buf : NULL};
    poll_release(&poll);
    if (w == NULL) w = sk_work_new(g->geom);
    if (w != NULL)
        rc = skl_run(g->geom, w, (const uint8_t *)PyBytes_AS_STRING(args[1]) + start, len, &opts,
                     (uint8_t *)PyBytes_AS_STRING(out), cap, &out_len, notes, SK_LINES_NOTES,
                     &nnotes, &consumed, &nlines, &records, lines_poll_fn, &lpoll);
    poll_acquire(&poll);
    work_give(g, w);
    Py_DECREF(args[1]);
    Py_DECREF(g);
    if (stop.obj != NULL) PyBuffer_Release(&stop);
    PyObject *tuple = NULL;
    if (rc != SK_COMPLETE) {
        /* SK_STOPPED: a signal handler raised (KeyboardInterrupt, its error is set), or the
         * stop byte was set */
        if (rc == SK_ENOMEM)
            PyErr_NoMemory();
        else if (rc == SK_STOPPED && !PyErr_Occurred())
            PyErr_SetString(PyExc_InterruptedError, "lines() stopped by its stop byte");
        else if (rc != SK_STOPPED)
            PyErr_SetString(PyExc_ValueError, "invalid lines() arguments");
        goto fail;
    }
    if (_PyBytes_Resize(&out, (Py_ssize_t)out_len) < 0) goto fail; /* frees out on failure */
    tuple = PyTuple_New((Py_ssize_t)nnotes);
    if (tuple == NULL) goto fail;
    for (size_t i = 0; i < nnotes; i++) {
        const skl_note *n = &notes[i];
        PyObject *item = Py_BuildValue(
            "(KKKKKKKi)", (unsigned long long)(n->start + start), (unsigned long long)(n->end + start),
            (unsigned long long)n->out, (unsigned long long)n->line,
            (unsigned long long)n->record, (unsigned long long)n->guesses,
            (unsigned long long)n->count, n->code);
        if (item == NULL) goto fail;
        PyTuple_SET_ITEM(tuple, (Py_ssize_t)i, item);
    }
    PyMem_RawFree(notes);
    return Py_BuildValue("(NNKKK)", out, tuple, (unsigned long long)(consumed + start),
                         (unsigned long long)nlines, (unsigned long long)records);
fail:
    Py_XDECREF(tuple);
    Py_XDECREF(out);
    PyMem_RawFree(notes);
    return NULL;
}

/* ChainMode: SE's "Forcing Chains & Cycles" searches of one mode on one state (sk_chain.h)   */

/* The geometry and state arguments shared by ChainMode and Chainer: n, units, unit_order,
 * masks, checked and flattened into *g (arrays PyMem_Raw-allocated: geom_args_free) and
 * *masks.  0 with an exception on error. */
typedef struct {
    int32_t *ustart, *ucells, *cstart, *cunits;
    uint64_t *masks;
} geom_args;

static void geom_args_free(geom_args *a) {
    PyMem_RawFree(a->ustart);
    PyMem_RawFree(a->ucells);
    PyMem_RawFree(a->cstart);
    PyMem_RawFree(a->cunits);
    PyMem_RawFree(a->masks);
}

static int chain_geom_args(int n, PyObject *units, PyObject *order, PyObject *masks_obj,
                           geom_args *a, sk_chain_geom *g);

typedef struct {
    PyObject_HEAD
    sk_chain_mode mode;
    int ready;
} ChainModeObject;

static void ChainMode_dealloc(ChainModeObject *self) {
    if (self->ready) sk_chain_mode_free(&self->mode);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Flattens `what`, a sequence of `count` sequences of ints in 0..bound-1, into CSR arrays
 * (*start: count + 1 offsets, *items), PyMem_Raw-allocated.  0 with an exception on error. */
static int csr_arg(PyObject *obj, const char *what, Py_ssize_t count, uint64_t bound,
                   int32_t **start, int32_t **items, Py_ssize_t *count_out) {
    *start = NULL;
    *items = NULL;
    PyObject *outer = as_tuple(obj, what, -1);
    if (outer == NULL) return 0;
    int ok = 0;
    Py_ssize_t total = 0, cap = 64;
    if (count >= 0 && PyTuple_GET_SIZE(outer) != count) {
        PyErr_Format(PyExc_ValueError, "%s must hold %zd items, got %zd", what, count,
                     PyTuple_GET_SIZE(outer));
        goto done;
    }
    count = PyTuple_GET_SIZE(outer);
    *start = PyMem_RawMalloc((size_t)(count + 1) * sizeof(int32_t));
    *items = PyMem_RawMalloc((size_t)cap * sizeof(int32_t));
    if (*start == NULL || *items == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        (*start)[i] = (int32_t)total;
        PyObject *inner = as_tuple(PyTuple_GET_ITEM(outer, i), what, i);
        if (inner == NULL) goto done;
        for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(inner); j++) {
            uint64_t v;
            if (!rule_int(PyTuple_GET_ITEM(inner, j), bound, what, i, &v)) {
                Py_DECREF(inner);
                goto done;
            }
            if (total == cap) {
                cap *= 2;
                int32_t *grown = PyMem_RawRealloc(*items, (size_t)cap * sizeof(int32_t));
                if (grown == NULL) {
                    Py_DECREF(inner);
                    PyErr_NoMemory();
                    goto done;
                }
                *items = grown;
            }
            (*items)[total++] = (int32_t)v;
        }
        Py_DECREF(inner);
    }
    (*start)[count] = (int32_t)total;
    *count_out = count;
    ok = 1;
done:
    Py_DECREF(outer);
    if (!ok) {
        PyMem_RawFree(*start);
        PyMem_RawFree(*items);
        *start = *items = NULL;
    }
    return ok;
}

/* True when x is one of v[from .. to). */
static int contains32(const int32_t *v, int32_t from, int32_t to, int32_t x) {
    for (int32_t i = from; i < to; i++)
        if (v[i] == x) return 1;
    return 0;
}

static int chain_geom_args(int n, PyObject *units, PyObject *order, PyObject *masks_obj,
                           geom_args *a, sk_chain_geom *g) {
    if (n < 1 || n > SK_MAX_N) {
        PyErr_Format(PyExc_ValueError, "n must be in 1..%d, got %d", SK_MAX_N, n);
        return 0;
    }
    const int ncells = n * n;
    Py_ssize_t nunits = 0, nlisted = 0;
    PyObject *mt = NULL;
    int ok = 0;
    if (!csr_arg(units, "units", -1, (uint64_t)ncells, &a->ustart, &a->ucells, &nunits)) goto done;
    if (nunits > INT32_MAX / 64 || a->ustart[nunits] > INT32_MAX / 2) {
        PyErr_SetString(PyExc_ValueError, "units: too many");
        goto done;
    }
    if (!csr_arg(order, "unit_order", ncells, (uint64_t)nunits, &a->cstart, &a->cunits, &nlisted))
        goto done;
    for (int cell = 0; cell < ncells; cell++) /* each cell must be in each unit it lists */
        for (int32_t k = a->cstart[cell]; k < a->cstart[cell + 1]; k++) {
            const int32_t u = a->cunits[k];
            if (!contains32(a->ucells, a->ustart[u], a->ustart[u + 1], cell)) {
                PyErr_Format(PyExc_ValueError, "unit_order[%d] lists unit %d, which does not "
                                               "hold cell %d", cell, (int)u, cell);
                goto done;
            }
        }
    mt = as_tuple(masks_obj, "masks", -1);
    if (mt == NULL) goto done;
    if (PyTuple_GET_SIZE(mt) != ncells) {
        PyErr_Format(PyExc_ValueError, "masks must hold %d items, got %zd", ncells,
                     PyTuple_GET_SIZE(mt));
        goto done;
    }
    a->masks = PyMem_RawMalloc((size_t)ncells * sizeof *a->masks);
    if (a->masks == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    const uint64_t bound = n == 64 ? 0 : (uint64_t)1 << n; /* 0: every 64-bit value */
    for (int i = 0; i < ncells; i++)
        if (!rule_int(PyTuple_GET_ITEM(mt, i), bound, "masks", i, &a->masks[i])) goto done;
    *g = (sk_chain_geom){n, ncells, (int)nunits, a->ustart, a->ucells, a->cstart, a->cunits};
    ok = 1;
done:
    Py_XDECREF(mt);
    return ok;
}

/* The arguments of ChainMode and Chainer: (n, units, unit_order, masks, y, <flag>), parsed and
 * checked into *a / *g (free a with geom_args_free), *y and *flag.  0 with an exception on
 * error (also when the object is already initialised: *ready). */
static int chain_init_args(PyObject *args, PyObject *kwds, const char *what, char *flag_name,
                           int ready, geom_args *a, sk_chain_geom *g, int *y, int *flag) {
    char *kwlist[] = {"n", "units", "unit_order", "masks", "y", flag_name, NULL};
    char format[32];
    snprintf(format, sizeof format, "iOOOpp:%s", what);
    int n;
    PyObject *units, *order, *masks_obj;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, format, kwlist, &n, &units, &order, &masks_obj,
                                     y, flag))
        return 0;
    if (ready) {
        PyErr_Format(PyExc_TypeError, "%s is already initialised", what);
        return 0;
    }
    return chain_geom_args(n, units, order, masks_obj, a, g);
}

static int ChainMode_init(ChainModeObject *self, PyObject *args, PyObject *kwds) {
    geom_args a = {0};
    sk_chain_geom g;
    int y, x, rc = -1;
    if (!chain_init_args(args, kwds, "ChainMode", "x", self->ready, &a, &g, &y, &x)) goto done;
    if (!y && !x) {
        PyErr_SetString(PyExc_ValueError, "ChainMode needs y or x links");
        goto done;
    }
    if (sk_chain_mode_init(&self->mode, &g, a.masks, y, x)) {
        PyErr_NoMemory();
        goto done;
    }
    self->ready = 1;
    rc = 0;
done:
    geom_args_free(&a);
    return rc;
}

static int chain_ready(ChainModeObject *self) {
    if (!self->ready) PyErr_SetString(PyExc_ValueError, "ChainMode is not initialised");
    return self->ready;
}

static PyObject *int_tuple(const int32_t *v, Py_ssize_t len);

static PyObject *ChainMode_sources(ChainModeObject *self, void *closure) {
    (void)closure;
    if (!chain_ready(self)) return NULL;
    return int_tuple(self->mode.sources, self->mode.nsources);
}

static PyObject *ChainMode_bounds(ChainModeObject *self, void *closure) {
    (void)closure;
    if (!chain_ready(self)) return NULL;
    PyObject *t = PyTuple_New(self->mode.nsources);
    for (int32_t i = 0; t != NULL && i < self->mode.nsources; i++) {
        const int32_t *b = self->mode.bounds + 3 * i;
        PyObject *v = Py_BuildValue("(iii)", b[0], b[1], b[2]);
        if (v == NULL) Py_CLEAR(t);
        else PyTuple_SET_ITEM(t, i, v);
    }
    return t;
}

static PyObject *ChainMode_hints(ChainModeObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 1) {
        PyErr_Format(PyExc_TypeError, "hints() takes 1 argument (cap), got %zd", nargs);
        return NULL;
    }
    uint64_t cap;
    if (!chain_ready(self) || !as_count(args[0], "cap", 0, &cap)) return NULL;
    sk_chain_out out = {NULL, 0, 0};
    PyObject *list = NULL;
    if (sk_chain_hints(&self->mode, (int64_t)cap, &out)) {
        PyErr_NoMemory();
        goto done;
    }
    list = PyList_New(0);
    for (size_t k = 0; list != NULL && k < out.len;) {
        const int32_t len = out.data[k + 2];
        PyObject *path = int_tuple(out.data + k + 3, len);
        PyObject *rec = path ? Py_BuildValue("(iiN)", out.data[k], out.data[k + 1], path) : NULL;
        if (rec == NULL || PyList_Append(list, rec) < 0) Py_CLEAR(list);
        Py_XDECREF(rec);
        k += 3 + (size_t)len;
    }
done:
    free(out.data);
    return list;
}


/* ChainMode.best(cap, base_cycle, base_chain, thresholds): sk_chain_best. */
static PyObject *ChainMode_best(ChainModeObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4) {
        PyErr_Format(PyExc_TypeError,
                     "best() takes 4 arguments (cap, base_cycle, base_chain, thresholds), "
                     "got %zd", nargs);
        return NULL;
    }
    uint64_t cap, b0, b1;
    if (!chain_ready(self) || !as_count(args[0], "cap", 0, &cap) ||
        !rule_int(args[1], 1u << 20, "base_cycle", 0, &b0) ||
        !rule_int(args[2], 1u << 20, "base_chain", 0, &b1))
        return NULL;
    PyObject *tt = as_tuple(args[3], "thresholds", -1);
    if (tt == NULL) return NULL;
    int32_t thr[64];
    const Py_ssize_t nthr = PyTuple_GET_SIZE(tt);
    if (nthr > 64) {
        Py_DECREF(tt);
        PyErr_SetString(PyExc_ValueError, "thresholds: at most 64");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < nthr; i++) {
        uint64_t v;
        if (!rule_int(PyTuple_GET_ITEM(tt, i), 1u << 30, "thresholds", i, &v)) {
            Py_DECREF(tt);
            return NULL;
        }
        thr[i] = (int32_t)v;
    }
    Py_DECREF(tt);
    const int32_t base10[2] = {(int32_t)b0, (int32_t)b1};
    sk_chain_out out = {NULL, 0, 0};
    PyObject *res = NULL;
    if (sk_chain_best(&self->mode, (int64_t)cap, base10, thr, (int)nthr, &out)) {
        PyErr_NoMemory();
        goto done;
    }
    if (out.len == 0) {
        res = Py_NewRef(Py_None);
        goto done;
    }
    PyObject *path = int_tuple(out.data + 4, out.data[3]);
    if (path != NULL) res = Py_BuildValue("(iiiN)", out.data[0], out.data[1], out.data[2], path);
done:
    free(out.data);
    return res;
}

static PyGetSetDef ChainMode_getset[] = {
    {"sources", (getter)ChainMode_sources, NULL,
     "the \"on\" potentials the searches start from, in SE's order", NULL},
    {"bounds", (getter)ChainMode_bounds, NULL,
     "per source: (cycle, forcing from it, forcing from its conjugate) complexity bounds, "
     "1 << 30 = none", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMethodDef ChainMode_methods[] = {
    {"hints", (PyCFunction)(void (*)(void))ChainMode_hints, METH_FASTCALL,
     "hints(cap, /)\n--\n\nThe cycles and forcing chains of at most cap potentials, in SE's "
     "discovery order,\nas (source index, kind, path): kind 0 = cycle (path from its start to "
     "the\n\"off\" node closing it), 1 = forcing chain (from its assumption to the conjugate)."},
    {"best", (PyCFunction)(void (*)(void))ChainMode_best, METH_FASTCALL,
     "best(cap, base_cycle, base_chain, thresholds, /)\n--\n\nThe hint of hints(cap) SE "
     "takes from this mode: the least by (rating, complexity,\ndiscovery) of those that change "
     "the grid, as (source index, kind, k, path), k its\nrank among its source's hints, or "
     "None. base_cycle / base_chain: base ratings in\ntenths; thresholds: SE's length "
     "thresholds, ascending."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject ChainMode_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sudokit._core.ChainMode",
    .tp_basicsize = sizeof(ChainModeObject),
    .tp_dealloc = (destructor)ChainMode_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "ChainMode(n, units, unit_order, masks, y, x)\n--\n\nSE's \"Forcing Chains & "
              "Cycles\" searches of one mode (y / x: the link kinds)\non the candidates masks "
              "(ncells ints, bit d-1 = digit d); units: the shape's units\n(cell lists); "
              "unit_order: per cell its units in SE's order (box, row, column,\nextra). The "
              "Python specification is sudokit.logic.cycles._Mode. Not thread-safe:\n"
              "hints() uses the object's scratch space (the GIL is held throughout).",
    .tp_getset = ChainMode_getset,
    .tp_methods = ChainMode_methods,
    .tp_init = (initproc)ChainMode_init,
    .tp_new = PyType_GenericNew,
};

/* ---------------------------------------------------------------------------------------- */
/* Chainer / ChainRun: SE's forcing-chain runs at nesting level 0 (sk_chain.h)                */

typedef struct {
    PyObject_HEAD
    sk_chainer chainer;
    int ready;
} ChainerObject;

typedef struct {
    PyObject_HEAD
    int32_t nslots, words, npot;
    int32_t *order, *cause, *par_start, *par;
    uint64_t *anc;
    PyObject *index, *absurd;
    int32_t ab_new, ab_cause; /* the contradiction's new potential and its cause */
    int32_t ncells, nud;      /* a dynamic run without contradiction: where it stopped */
    uint64_t *end_masks;      /* (NULL otherwise) */
    int32_t *end_counts;
} ChainRunObject;

static PyTypeObject ChainRun_Type;

static void Chainer_dealloc(ChainerObject *self) {
    if (self->ready) sk_chainer_free(&self->chainer);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static void ChainRun_dealloc(ChainRunObject *self) {
    PyMem_RawFree(self->order);
    PyMem_RawFree(self->cause);
    PyMem_RawFree(self->par_start);
    PyMem_RawFree(self->par);
    PyMem_RawFree(self->anc);
    PyMem_RawFree(self->end_masks);
    PyMem_RawFree(self->end_counts);
    Py_XDECREF(self->index);
    Py_XDECREF(self->absurd);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* The bit set bits (words 64-bit words, bit i = potential i) as a Python int. */
static PyObject *bits_to_int(const uint64_t *bits, size_t words) {
    unsigned char *buf = PyMem_RawMalloc(words * 8 + 1);
    if (buf == NULL) return PyErr_NoMemory();
    for (size_t w = 0; w < words; w++)
        for (int b = 0; b < 8; b++) buf[w * 8 + (size_t)b] = (unsigned char)(bits[w] >> (8 * b));
#if PY_VERSION_HEX >= 0x030D0000
    PyObject *v = PyLong_FromUnsignedNativeBytes(buf, (Py_ssize_t)(words * 8),
                                                 Py_ASNATIVEBYTES_LITTLE_ENDIAN);
#else
    PyObject *v = _PyLong_FromByteArray(buf, words * 8, 1, 0);
#endif
    PyMem_RawFree(buf);
    return v;
}

/* The builders below return a new object, or NULL with the error set; after a failed
 * allocation they make nothing more (no Python call runs with an exception pending). */

/* (v[0], ..., v[len - 1]) */
static PyObject *int_tuple(const int32_t *v, Py_ssize_t len) {
    PyObject *t = PyTuple_New(len);
    for (Py_ssize_t j = 0; t != NULL && j < len; j++) {
        PyObject *x = PyLong_FromLong(v[j]);
        if (x == NULL) Py_CLEAR(t);
        else PyTuple_SET_ITEM(t, j, x);
    }
    return t;
}

/* ((a[0], b[0]), (a[step], b[step]), ...): n pairs. */
static PyObject *pair_tuple(const int32_t *a, const int32_t *b, size_t step, Py_ssize_t n) {
    PyObject *t = PyTuple_New(n);
    for (Py_ssize_t i = 0; t != NULL && i < n; i++) {
        PyObject *pair = Py_BuildValue("(ii)", (int)a[(size_t)i * step], (int)b[(size_t)i * step]);
        if (pair == NULL) Py_CLEAR(t);
        else PyTuple_SET_ITEM(t, i, pair);
    }
    return t;
}

/* d[key] = value (value a new reference, taken; NULL: an error already set); with setdefault,
 * d.setdefault(key, value).  0, or -1 with the error set. */
static int dict_put(PyObject *d, long key, PyObject *value, int setdefault) {
    if (value == NULL) return -1;
    PyObject *k = PyLong_FromLong(key);
    int rc = -1;
    if (k != NULL)
        rc = setdefault ? (PyDict_SetDefault(d, k, value) == NULL ? -1 : 0)
                        : PyDict_SetItem(d, k, value);
    Py_XDECREF(k);
    Py_DECREF(value);
    return rc;
}

static PyObject *int_list64(const void *v, Py_ssize_t len, int is64) {
    PyObject *t = PyList_New(len);
    for (Py_ssize_t j = 0; t != NULL && j < len; j++) {
        PyObject *x = is64 ? PyLong_FromUnsignedLongLong(((const uint64_t *)v)[j])
                           : PyLong_FromLong(((const int32_t *)v)[j]);
        if (x == NULL) Py_CLEAR(t);
        else PyList_SET_ITEM(t, j, x);
    }
    return t;
}

/* A ChainRun holding copies of the chainer's last run. */
static PyObject *chain_run_new(const sk_chainer *c) {
    ChainRunObject *r = PyObject_New(ChainRunObject, &ChainRun_Type);
    if (r == NULL) return NULL;
    const size_t k = (size_t)c->nslots, W = c->words, np = c->par.len;
    r->nslots = c->nslots;
    r->words = (int32_t)W;
    r->npot = c->npot;
    r->order = PyMem_RawMalloc(k * sizeof *r->order);
    r->cause = PyMem_RawMalloc(k * sizeof *r->cause);
    r->par_start = PyMem_RawMalloc((k + 1) * sizeof *r->par_start);
    r->par = PyMem_RawMalloc((np + 1) * sizeof *r->par);
    r->anc = PyMem_RawMalloc(k * W * sizeof *r->anc);
    r->index = r->absurd = NULL;
    r->ab_new = c->absurd ? c->ab_new : -1;
    r->ab_cause = c->absurd ? c->ab_cause : SK_CHAIN_NO_CAUSE;
    r->ncells = c->ncells;
    r->nud = c->nunits * c->n;
    r->end_masks = NULL;
    r->end_counts = NULL;
    if (!r->order || !r->cause || !r->par_start || !r->par || !r->anc) goto nomem;
    if (c->dynamic && !c->absurd) {
        r->end_masks = PyMem_RawMalloc((size_t)r->ncells * sizeof *r->end_masks);
        r->end_counts = PyMem_RawMalloc(((size_t)r->nud + 1) * sizeof *r->end_counts);
        if (!r->end_masks || !r->end_counts) goto nomem;
        memcpy(r->end_masks, c->masks, (size_t)r->ncells * sizeof *r->end_masks);
        memcpy(r->end_counts, c->counts, (size_t)r->nud * sizeof *r->end_counts);
    }
    memcpy(r->order, c->order, k * sizeof *r->order);
    memcpy(r->cause, c->cause, k * sizeof *r->cause);
    memcpy(r->par_start, c->par_start, (k + 1) * sizeof *r->par_start);
    if (np) memcpy(r->par, c->par.data, np * sizeof *r->par); /* data is NULL before a push */
    memcpy(r->anc, c->anc, k * W * sizeof *r->anc);
    r->index = PyDict_New();
    if (r->index == NULL) goto fail;
    for (size_t s = 0; s < k; s++)
        if (dict_put(r->index, c->order[s], PyLong_FromSsize_t((Py_ssize_t)s), 0)) goto fail;
    if (c->absurd) {
        PyObject *on_bits = bits_to_int(c->ab_on_bits, W), *off_bits = NULL, *prs = NULL;
        if (on_bits != NULL) off_bits = bits_to_int(c->ab_off_bits, W);
        if (off_bits != NULL) prs = int_tuple(c->ab_prs.data, (Py_ssize_t)c->ab_prs.len);
        if (prs != NULL)
            r->absurd = Py_BuildValue("((iO)(iO)iO)", c->ab_on, on_bits, c->ab_off, off_bits,
                                      c->ab_new, prs);
        Py_XDECREF(on_bits);
        Py_XDECREF(off_bits);
        Py_XDECREF(prs);
        if (r->absurd == NULL) goto fail;
    } else {
        r->absurd = Py_NewRef(Py_None);
    }
    return (PyObject *)r;
nomem:
    PyErr_NoMemory();
fail:
    Py_DECREF(r);
    return NULL;
}

static int Chainer_init(ChainerObject *self, PyObject *args, PyObject *kwds) {
    geom_args a = {0};
    sk_chain_geom g;
    int y, dynamic, rc = -1;
    if (!chain_init_args(args, kwds, "Chainer", "dynamic", self->ready, &a, &g, &y, &dynamic))
        goto done;
    if (sk_chainer_init(&self->chainer, &g, a.masks, y, dynamic)) {
        PyErr_NoMemory();
        goto done;
    }
    self->ready = 1;
    rc = 0;
done:
    geom_args_free(&a);
    return rc;
}

static PyObject *Chainer_run(ChainerObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 1) {
        PyErr_Format(PyExc_TypeError, "run() takes 1 argument (start), got %zd", nargs);
        return NULL;
    }
    if (!self->ready) {
        PyErr_SetString(PyExc_ValueError, "Chainer is not initialised");
        return NULL;
    }
    uint64_t start;
    if (!rule_int(args[0], (uint64_t)self->chainer.npot, "start", 0, &start)) return NULL;
    if (sk_chainer_run(&self->chainer, (int32_t)start)) return PyErr_NoMemory();
    return chain_run_new(&self->chainer);
}

/* A tuple of `count` ints below 2**30 into v[]: 0 with an exception on error. */
static int small_ints(PyObject *obj, const char *what, int32_t *v, Py_ssize_t max,
                      Py_ssize_t *count) {
    PyObject *t = as_tuple(obj, what, -1);
    if (t == NULL) return 0;
    *count = PyTuple_GET_SIZE(t);
    int ok = *count <= max;
    if (!ok) PyErr_Format(PyExc_ValueError, "%s: at most %zd items", what, max);
    for (Py_ssize_t i = 0; ok && i < *count; i++) {
        uint64_t x = 0;
        ok = rule_int(PyTuple_GET_ITEM(t, i), (uint64_t)1 << 30, what, i, &x);
        v[i] = (int32_t)x;
    }
    Py_DECREF(t);
    return ok;
}

/* The rule arguments of Chainer.best / Chainer.nested (nishio, multiple, sort_keys: 4 ints),
 * checked on a ready chainer.  0 with an exception on error. */
static int chainer_rule_args(ChainerObject *self, PyObject *nishio_obj, PyObject *multiple_obj,
                             PyObject *keys_obj, int *nishio, int *multiple, int32_t keys[4]) {
    if (!self->ready) {
        PyErr_SetString(PyExc_ValueError, "Chainer is not initialised");
        return 0;
    }
    *nishio = PyObject_IsTrue(nishio_obj);
    *multiple = PyObject_IsTrue(multiple_obj);
    if (*nishio < 0 || *multiple < 0) return 0;
    Py_ssize_t nkeys;
    if (!small_ints(keys_obj, "sort_keys", keys, 4, &nkeys)) return 0;
    if (nkeys != 4) {
        PyErr_SetString(PyExc_ValueError, "sort_keys must hold 4 items");
        return 0;
    }
    return 1;
}

/* Chainer.best(nishio, multiple, base10, thresholds, sort_keys): sk_chainer_best. */
static PyObject *Chainer_best(ChainerObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 5) {
        PyErr_Format(PyExc_TypeError, "best() takes 5 arguments (nishio, multiple, base10, "
                                      "thresholds, sort_keys), got %zd", nargs);
        return NULL;
    }
    int nishio, multiple;
    uint64_t base10;
    int32_t thr[64], keys[4];
    Py_ssize_t nthr;
    if (!chainer_rule_args(self, args[0], args[1], args[4], &nishio, &multiple, keys) ||
        !rule_int(args[2], (uint64_t)1 << 20, "base10", 0, &base10) ||
        !small_ints(args[3], "thresholds", thr, 64, &nthr))
        return NULL;
    int found;
    int32_t h[6];
    const int rc = sk_chainer_best(&self->chainer, nishio, multiple, (int32_t)base10, thr,
                                   (int)nthr, keys, &found, h);
    if (rc == -2) {
        PyErr_SetString(PyExc_ValueError, "best() needs units of at most 64 cells");
        return NULL;
    }
    if (rc) return PyErr_NoMemory();
    if (!found) Py_RETURN_NONE;
    return Py_BuildValue("(iiiiii)", h[0], h[1], h[2], h[3], h[4], h[5]);
}

/* The slot argument of a ChainRun method, or -1 with an exception. */
static Py_ssize_t run_slot(const ChainRunObject *self, PyObject *arg) {
    const Py_ssize_t s = PyLong_AsSsize_t(arg);
    if (s == -1 && PyErr_Occurred()) return -1;
    if (s < 0 || s >= self->nslots) {
        PyErr_Format(PyExc_IndexError, "slot %zd out of range", s);
        return -1;
    }
    return s;
}

static PyObject *ChainRun_anc_at(ChainRunObject *self, PyObject *arg) {
    const Py_ssize_t s = run_slot(self, arg);
    if (s < 0) return NULL;
    return bits_to_int(self->anc + (size_t)s * (size_t)self->words, (size_t)self->words);
}

static PyObject *ChainRun_size_at(ChainRunObject *self, PyObject *arg) {
    const Py_ssize_t s = run_slot(self, arg);
    if (s < 0) return NULL;
    const uint64_t *bits = self->anc + (size_t)s * (size_t)self->words;
    long count = 0;
    for (int32_t w = 0; w < self->words; w++) count += __builtin_popcountll(bits[w]);
    return PyLong_FromLong(count);
}

static PyObject *ChainRun_parents_at(ChainRunObject *self, PyObject *arg) {
    const Py_ssize_t s = run_slot(self, arg);
    if (s < 0) return NULL;
    return int_tuple(self->par + self->par_start[s], self->par_start[s + 1] - self->par_start[s]);
}

static PyObject *ChainRun_causes(ChainRunObject *self, PyObject *unused) {
    (void)unused;
    PyObject *causes = PyDict_New();
    for (int32_t s = 0; causes != NULL && s < self->nslots; s++)
        if (self->cause[s] != SK_CHAIN_NO_CAUSE &&
            dict_put(causes, self->order[s], PyLong_FromLong(self->cause[s]), 0))
            Py_CLEAR(causes);
    if (causes != NULL && self->ab_cause != SK_CHAIN_NO_CAUSE && /* causes.setdefault(r, why) */
        dict_put(causes, self->ab_new, PyLong_FromLong(self->ab_cause), 1))
        Py_CLEAR(causes);
    return causes;
}

static PyObject *ChainRun_end(ChainRunObject *self, PyObject *unused) {
    (void)unused;
    if (self->end_masks == NULL) Py_RETURN_NONE;
    PyObject *masks = int_list64(self->end_masks, self->ncells, 1);
    PyObject *counts = masks ? int_list64(self->end_counts, self->nud, 0) : NULL;
    PyObject *end = counts ? PyTuple_Pack(2, masks, counts) : NULL;
    Py_XDECREF(masks);
    Py_XDECREF(counts);
    return end;
}

static PyObject *Chainer_nested(ChainerObject *self, PyObject *const *args, Py_ssize_t nargs);

static PyMethodDef Chainer_methods[] = {
    {"run", (PyCFunction)(void (*)(void))Chainer_run, METH_FASTCALL,
     "run(start, /)\n--\n\nOne run from the potential start: a ChainRun."},
    {"nested", (PyCFunction)(void (*)(void))Chainer_nested, METH_FASTCALL,
     "nested(multiple, sort_keys, save, shape, /)\n--\n\nThe rule run nested in a chain that "
     "started from save (sk_nest.h sk_nest_rule;\nshape: the shape's InChain): per hint kept, "
     "(complexity, removals, rule parents,\nchains)."},
    {"best", (PyCFunction)(void (*)(void))Chainer_best, METH_FASTCALL,
     "best(nishio, multiple, base10, thresholds, sort_keys, /)\n--\n\nThe hint SE's rule "
     "takes on the chainer's state (sk_chainer_best): (kind,\ntarget, source, digit, "
     "complexity, discovery index), kind 0 = double, 1 = cell,\n2 = region, 3 = "
     "contradiction; None when no hint changes the state."},
    {NULL, NULL, 0, NULL},
};

static PyMethodDef ChainRun_methods[] = {
    {"anc_at", (PyCFunction)ChainRun_anc_at, METH_O,
     "anc_at(slot, /)\n--\n\nThe ancestor set (bit set of potentials) of the potential in slot."},
    {"causes", (PyCFunction)ChainRun_causes, METH_NOARGS,
     "causes()\n--\n\npotential -> why it holds (-1: last candidate of its cell, else the "
     "unit)."},
    {"end", (PyCFunction)ChainRun_end, METH_NOARGS,
     "end()\n--\n\nA dynamic run without contradiction: (masks, counts) where it stopped; "
     "else None."},
    {"size_at", (PyCFunction)ChainRun_size_at, METH_O,
     "size_at(slot, /)\n--\n\nThe number of potentials in the ancestor set of slot."},
    {"parents_at", (PyCFunction)ChainRun_parents_at, METH_O,
     "parents_at(slot, /)\n--\n\nThe parents (potentials) of the potential in slot."},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef ChainRun_members[] = {
    {"index", T_OBJECT, offsetof(ChainRunObject, index), READONLY,
     "potential -> slot, in the order reached"},
    {"absurd", T_OBJECT, offsetof(ChainRunObject, absurd), READONLY,
     "None, or the contradiction ((on, on_bits), (off, off_bits), new, parents)"},
    {NULL, 0, 0, 0, NULL},
};

static PyTypeObject Chainer_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sudokit._core.Chainer",
    .tp_basicsize = sizeof(ChainerObject),
    .tp_dealloc = (destructor)Chainer_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Chainer(n, units, unit_order, masks, y, dynamic)\n--\n\nSE's forcing-chain "
              "runs at nesting level 0 on the candidates masks (static\nX+Y links, or dynamic "
              "with y / X links only); the Python specification is\n"
              "sudokit.logic.forcing._Run.  Not thread-safe (the GIL is held).",
    .tp_methods = Chainer_methods,
    .tp_init = (initproc)Chainer_init,
    .tp_new = PyType_GenericNew,
};

static PyTypeObject ChainRun_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sudokit._core.ChainRun",
    .tp_basicsize = sizeof(ChainRunObject),
    .tp_dealloc = (destructor)ChainRun_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The outcome of one Chainer.run (made only by it).",
    .tp_methods = ChainRun_methods,
    .tp_members = ChainRun_members,
};

/* ---------------------------------------------------------------------------------------- */
/* HumanShape: the searches of the cheap human techniques (sk_human.h)                        */

typedef struct {
    PyObject_HEAD
    sk_human_geom g;
    int32_t *ustart, *ucells, *pstart, *peers, *cstart, *cunits, *kind, *cross_start[2],
        *cross[2];
    uint8_t *box;
    int ready;
} HumanShapeObject;

/* Frees the tables (all NULL afterwards, so a failed __init__ can be retried). */
static void HumanShape_clear(HumanShapeObject *self) {
    int32_t **tables[] = {&self->ustart, &self->ucells,         &self->pstart,
                          &self->peers,  &self->cstart,         &self->cunits,
                          &self->kind,   &self->cross_start[0], &self->cross[0],
                          &self->cross_start[1], &self->cross[1]};
    for (size_t i = 0; i < sizeof tables / sizeof *tables; i++) {
        PyMem_RawFree(*tables[i]);
        *tables[i] = NULL;
    }
    PyMem_RawFree(self->box);
    self->box = NULL;
}

static void HumanShape_dealloc(HumanShapeObject *self) {
    HumanShape_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* HumanShape(n, units, kinds, boxes, peers, cell_units, claiming, pointing): every table is
 * checked here once (cells, units and crossings in range, units of at most 64 cells, each
 * cell's unit list exactly the units holding it, crossings pairs of units), so that the
 * searches index them without checks. */
static int HumanShape_init(HumanShapeObject *self, PyObject *args, PyObject *kwds) {
    char *kwlist[] = {"n", "units", "kinds", "boxes", "peers", "cell_units", "claiming",
                      "pointing", NULL};
    int n;
    PyObject *units, *kinds, *boxes, *peers, *cell_units, *cross_obj[2];
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iOOOOOOO:HumanShape", kwlist, &n, &units,
                                     &kinds, &boxes, &peers, &cell_units, &cross_obj[0],
                                     &cross_obj[1]))
        return -1;
    if (self->ready) {
        PyErr_SetString(PyExc_TypeError, "HumanShape is already initialised");
        return -1;
    }
    if (n < 1 || n > SK_MAX_N) {
        PyErr_Format(PyExc_ValueError, "n must be in 1..%d, got %d", SK_MAX_N, n);
        return -1;
    }
    const int ncells = n * n;
    Py_ssize_t nunits = 0, count, ncross[2] = {0, 0};
    int32_t *kstart = NULL, *bstart = NULL, *bitems = NULL;
    int rc = -1;
    if (!csr_arg(units, "units", -1, (uint64_t)ncells, &self->ustart, &self->ucells, &nunits))
        goto done;
    if (!csr_arg(peers, "peers", ncells, (uint64_t)ncells, &self->pstart, &self->peers, &count))
        goto done;
    if (!csr_arg(cell_units, "cell_units", ncells, (uint64_t)nunits, &self->cstart,
                 &self->cunits, &count))
        goto done;
    for (int p = 0; p < 2; p++) {
        const char *what = p ? "pointing" : "claiming";
        if (!csr_arg(cross_obj[p], what, -1, (uint64_t)nunits, &self->cross_start[p],
                     &self->cross[p], &ncross[p]))
            goto done;
        for (Py_ssize_t i = 0; i < ncross[p]; i++)
            if (self->cross_start[p][i + 1] - self->cross_start[p][i] != 2) {
                PyErr_Format(PyExc_ValueError, "%s[%zd] must be a (base, cover) pair", what, i);
                goto done;
            }
    }
    /* kinds and boxes: one int per unit, read as a CSR of one-item rows */
    PyObject *rows[2] = {NULL, NULL};
    PyObject *flat[2] = {kinds, boxes};
    for (int j = 0; j < 2; j++) {
        PyObject *t = as_tuple(flat[j], j ? "boxes" : "kinds", -1);
        if (t == NULL) goto rows_done; /* rows[0] may be held already */
        rows[j] = PyTuple_New(PyTuple_GET_SIZE(t));
        for (Py_ssize_t i = 0; rows[j] != NULL && i < PyTuple_GET_SIZE(t); i++) {
            PyObject *row = PyTuple_Pack(1, PyTuple_GET_ITEM(t, i));
            if (row == NULL) Py_CLEAR(rows[j]); /* no more made with the error pending */
            else PyTuple_SET_ITEM(rows[j], i, row);
        }
        Py_DECREF(t);
        if (rows[j] == NULL) goto rows_done;
    }
    if (!csr_arg(rows[0], "kinds", nunits, (uint64_t)INT32_MAX, &kstart, &self->kind, &count))
        goto rows_done;
    if (!csr_arg(rows[1], "boxes", nunits, 2, &bstart, &bitems, &count)) goto rows_done;
    self->box = PyMem_RawMalloc((size_t)nunits + 1);
    if (self->box == NULL) {
        PyErr_NoMemory();
        goto rows_done;
    }
    for (Py_ssize_t u = 0; u < nunits; u++) self->box[u] = (uint8_t)bitems[u];
rows_done:
    Py_XDECREF(rows[0]);
    Py_XDECREF(rows[1]);
    if (self->box == NULL) goto done;
    Py_ssize_t members = 0;
    for (Py_ssize_t u = 0; u < nunits; u++) {
        const int32_t len = self->ustart[u + 1] - self->ustart[u];
        if (len > 64) {
            PyErr_Format(PyExc_ValueError, "units[%zd] has more than 64 cells", u);
            goto done;
        }
        members += len;
    }
    for (int cell = 0; cell < ncells; cell++)
        for (int32_t k = self->cstart[cell]; k < self->cstart[cell + 1]; k++) {
            const int32_t u = self->cunits[k];
            if (!contains32(self->ucells, self->ustart[u], self->ustart[u + 1], cell) ||
                contains32(self->cunits, self->cstart[cell], k, u)) {
                PyErr_Format(PyExc_ValueError, "cell_units[%d] must list the units holding "
                                               "cell %d, once each", cell, cell);
                goto done;
            }
        }
    if (self->cstart[ncells] != members) {
        PyErr_SetString(PyExc_ValueError, "cell_units must list every unit of every cell");
        goto done;
    }
    self->g = (sk_human_geom){n,           ncells,      (int)nunits,   self->ustart,
                              self->ucells, self->kind, self->box,     self->pstart,
                              self->peers, self->cstart, self->cunits, {0, 0},
                              {self->cross[0], self->cross[1]}};
    self->g.ncross[0] = (int32_t)ncross[0];
    self->g.ncross[1] = (int32_t)ncross[1];
    self->ready = 1;
    rc = 0;
done:
    PyMem_RawFree(kstart);
    PyMem_RawFree(bstart);
    PyMem_RawFree(bitems);
    if (rc) HumanShape_clear(self);
    return rc;
}

/* Reads seq (a sequence of ncells ints, each below bound, 0 = no bound) into out. */
static int read_state(PyObject *seq, const char *what, int ncells, uint64_t bound,
                      uint64_t *out) {
    PyObject *fast = PyList_Check(seq) || PyTuple_Check(seq) ? Py_NewRef(seq)
                                                             : as_tuple(seq, what, -1);
    if (fast == NULL) return 0;
    int ok = PySequence_Fast_GET_SIZE(fast) == ncells;
    if (!ok)
        PyErr_Format(PyExc_ValueError, "%s must hold %d items, got %zd", what, ncells,
                     PySequence_Fast_GET_SIZE(fast));
    PyObject **items = PySequence_Fast_ITEMS(fast);
    for (int i = 0; ok && i < ncells; i++) ok = rule_int(items[i], bound, what, i, &out[i]);
    Py_DECREF(fast);
    return ok;
}

static PyObject *HumanShape_find(HumanShapeObject *self, PyObject *const *args,
                                 Py_ssize_t nargs) {
    if (nargs != 4) {
        PyErr_Format(PyExc_TypeError, "find() takes 4 arguments (kind, k, masks, values), got %zd",
                     nargs);
        return NULL;
    }
    if (!self->ready) {
        PyErr_SetString(PyExc_ValueError, "HumanShape is not initialised");
        return NULL;
    }
    const long kind = PyLong_AsLong(args[0]);
    if (kind == -1 && PyErr_Occurred()) return NULL; /* before k's __index__ can run */
    const long k = PyLong_AsLong(args[1]);
    if (k == -1 && PyErr_Occurred()) return NULL;
    const int sets = kind >= 5 && kind <= 8;
    if (kind < 0 || kind > 9 || (sets ? k < 2 || k > 4 : k < 0 || k > 1)) {
        PyErr_Format(PyExc_ValueError, "find: no search (%ld, %ld)", kind, k);
        return NULL;
    }
    const sk_human_geom *g = &self->g;
    uint64_t small[256], *masks = small, *vals = NULL;
    uint8_t *values = NULL;
    PyObject *result = NULL;
    sk_hits hits = {NULL, 0, 0, 1};
    if (g->ncells > 128) {
        masks = PyMem_Malloc(2 * (size_t)g->ncells * sizeof *masks);
        if (masks == NULL) return PyErr_NoMemory();
    }
    vals = masks + g->ncells;
    const uint64_t bound = g->n == 64 ? 0 : (uint64_t)1 << g->n;
    if (!read_state(args[2], "masks", g->ncells, bound, masks)) goto done;
    int rc;
    switch (kind) {
    case 0:
        if (!read_state(args[3], "values", g->ncells, (uint64_t)g->n + 1, vals)) goto done;
        values = (uint8_t *)vals; /* narrowed in place: each value fits a byte */
        for (int i = 0; i < g->ncells; i++) values[i] = (uint8_t)vals[i];
        rc = sk_full_house(g, masks, values, &hits);
        break;
    case 1: rc = sk_hidden_singles(g, masks, (int)k, &hits); break;
    case 2: rc = sk_naked_singles(g, masks, &hits); break;
    case 3: rc = sk_locks(g, masks, (int)k, &hits); break;
    case 4: rc = sk_direct_locks(g, masks, (int)k, &hits); break;
    case 5: rc = sk_naked_sets(g, masks, (int)k, &hits); break;
    case 6: rc = sk_hidden_sets(g, masks, (int)k, 0, &hits); break;
    case 7: rc = sk_direct_hidden(g, masks, (int)k, &hits); break;
    case 8: rc = sk_fish(g, masks, (int)k, &hits); break;
    default: rc = sk_wings(g, masks, (int)k, &hits); break;
    }
    if (rc) {
        PyErr_NoMemory();
        goto done;
    }
    const Py_ssize_t w = hits.width, count = (Py_ssize_t)hits.len / w;
    result = PyTuple_New(count);
    for (Py_ssize_t i = 0; result != NULL && i < count; i++) {
        PyObject *hit = PyTuple_New(w);
        if (hit == NULL) {
            Py_CLEAR(result);
            break;
        }
        PyTuple_SET_ITEM(result, i, hit);
        for (Py_ssize_t j = 0; j < w; j++) {
            PyObject *v = PyLong_FromUnsignedLongLong(hits.v[i * w + j]);
            if (v == NULL) {
                Py_CLEAR(result);
                break;
            }
            PyTuple_SET_ITEM(hit, j, v);
        }
    }
done:
    free(hits.v);
    if (masks != small) PyMem_Free(masks);
    return result;
}

static PyMethodDef HumanShape_methods[] = {
    {"find", (PyCFunction)(void (*)(void))HumanShape_find, METH_FASTCALL,
     "find(kind, k, masks, values, /)\n--\n\nThe hits of one search on the state (masks: "
     "ncells candidate masks; values:\nncells digits, read by kind 0 only), as a tuple of "
     "int tuples in the order\nthe Python finder yields its steps.  kind, k: 0 Full House; "
     "1 hidden singles\n(k = boxes); 2 naked singles; 3 locks, 4 direct locks (k = pointing); "
     "5 naked,\n6 hidden, 7 direct hidden sets, 8 basic fish (k = size 2..4); 9 wings (k = "
     "xyz).\nThe fields of each hit: csrc/sk_human.h."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject HumanShape_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sudokit._core.HumanShape",
    .tp_basicsize = sizeof(HumanShapeObject),
    .tp_dealloc = (destructor)HumanShape_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "HumanShape(n, units, kinds, boxes, peers, cell_units, claiming, pointing)\n--\n\n"
              "A shape's tables for the searches of the cheap human techniques\n(csrc/sk_human.h; "
              "the Python specification is sudokit.logic._human):\nunits (cell lists), a kind id "
              "and a box flag per unit, peers and units per\ncell, and the (base, cover) pairs "
              "of claiming and pointing.  Immutable.",
    .tp_methods = HumanShape_methods,
    .tp_init = (initproc)HumanShape_init,
    .tp_new = PyType_GenericNew,
};

/* ---------------------------------------------------------------------------------------- */
/* Exclusion: Aligned Pair / Triple Exclusion searches of one shape (sk_excl.h)               */

typedef struct {
    PyObject_HEAD
    sk_excl_geom geom;
    int ready;
} ExclusionObject;

static void Exclusion_dealloc(ExclusionObject *self) {
    if (self->ready) sk_excl_geom_free(&self->geom);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Exclusion(n, peers): n digits, peers[c] the peers of cell c (SK_EXCL_MAX_CELLS at most). */
static int Exclusion_init(ExclusionObject *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"n", "peers", NULL};
    int n;
    PyObject *peers;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iO:Exclusion", kwlist, &n, &peers)) return -1;
    if (self->ready) {
        PyErr_SetString(PyExc_TypeError, "Exclusion is already initialised");
        return -1;
    }
    if (n < 1 || n > SK_EXCL_MAX_N) {
        PyErr_Format(PyExc_ValueError, "n must be in 1..%d, got %d", SK_EXCL_MAX_N, n);
        return -1;
    }
    PyObject *pt = as_tuple(peers, "peers", -1);
    if (pt == NULL) return -1;
    const Py_ssize_t ncells = PyTuple_GET_SIZE(pt);
    int32_t *start = NULL, *items = NULL;
    Py_ssize_t count = 0;
    int rc = -1;
    if (ncells < 1 || ncells > SK_EXCL_MAX_CELLS) {
        PyErr_Format(PyExc_ValueError, "peers must list 1..%d cells, got %zd",
                     SK_EXCL_MAX_CELLS, ncells);
        goto done;
    }
    if (!csr_arg(pt, "peers", ncells, (uint64_t)ncells, &start, &items, &count)) goto done;
    for (int c = 0; c < (int)ncells; c++)
        if (contains32(items, start[c], start[c + 1], c)) {
            PyErr_Format(PyExc_ValueError, "peers[%d] lists the cell itself", c);
            goto done;
        }
    if (sk_excl_geom_init(&self->geom, n, (int)ncells, start, items)) {
        PyErr_NoMemory();
        goto done;
    }
    self->ready = 1;
    rc = 0;
done:
    PyMem_RawFree(start);
    PyMem_RawFree(items);
    Py_DECREF(pt);
    return rc;
}

/* Reads the candidate masks obj (a sequence of ncells ints below 2^n) into out. */
static int excl_masks(PyObject *obj, const char *what, const sk_excl_geom *g, uint64_t *out) {
    PyObject *t = as_tuple(obj, what, -1);
    if (t == NULL) return 0;
    int ok = PyTuple_GET_SIZE(t) == g->ncells;
    if (!ok)
        PyErr_Format(PyExc_ValueError, "%s must hold %d items, got %zd", what, g->ncells,
                     PyTuple_GET_SIZE(t));
    const uint64_t bound = g->n == 64 ? 0 : (uint64_t)1 << g->n; /* 0: every 64-bit value */
    for (int i = 0; ok && i < g->ncells; i++)
        ok = rule_int(PyTuple_GET_ITEM(t, i), bound, what, i, &out[i]);
    Py_DECREF(t);
    return ok;
}

/* The step as (cursor, cells, excluders, ((cell, digit), ...)). */
static PyObject *excl_step_tuple(const sk_excl_step *st) {
    PyObject *cells = int_tuple(st->cells, st->size), *excl = NULL, *elims = NULL, *out = NULL;
    if (cells != NULL) excl = int_tuple(st->excl, st->nexcl);
    if (excl != NULL) elims = pair_tuple(st->elim_cell, st->elim_digit, 1, st->nelim);
    if (elims != NULL) out = Py_BuildValue("(LOOO)", (long long)st->cursor, cells, excl, elims);
    Py_XDECREF(cells);
    Py_XDECREF(excl);
    Py_XDECREF(elims);
    return out;
}

/* Exclusion.find(masks, degree, before, cursor): sk_excl_next. */
static PyObject *Exclusion_find(ExclusionObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4) {
        PyErr_Format(PyExc_TypeError,
                     "find() takes 4 arguments (masks, degree, before, cursor), got %zd", nargs);
        return NULL;
    }
    if (!self->ready) {
        PyErr_SetString(PyExc_ValueError, "Exclusion is not initialised");
        return NULL;
    }
    const sk_excl_geom *g = &self->geom;
    uint64_t degree, cursor;
    if (!as_count(args[1], "degree", 2, &degree) || !as_count(args[3], "cursor", 0, &cursor))
        return NULL;
    if (degree > 3) {
        PyErr_Format(PyExc_ValueError, "degree must be 2 or 3, got %llu",
                     (unsigned long long)degree);
        return NULL;
    }
    /* small grids (up to 16x16) keep their tables on the stack */
    uint64_t small_masks[2 * 256];
    int32_t small_excl[256];
    uint64_t *masks = small_masks;
    int32_t *excl = small_excl;
    if (g->ncells > 256) {
        masks = PyMem_RawMalloc(2 * (size_t)g->ncells * sizeof *masks);
        excl = PyMem_RawMalloc((size_t)g->ncells * sizeof *excl);
        if (masks == NULL || excl == NULL) {
            PyErr_NoMemory();
            goto fail;
        }
    }
    uint64_t *before = args[2] == Py_None ? NULL : masks + g->ncells;
    if (!excl_masks(args[0], "masks", g, masks) ||
        (before != NULL && !excl_masks(args[2], "before", g, before)))
        goto fail;
    sk_excl_step step;
    step.excl = excl;
    int local = 0;
    const int rc = sk_excl_next(g, masks, before, (int)degree, (int64_t)cursor, &step, &local);
    PyObject *out = NULL;
    if (rc < 0)
        PyErr_NoMemory();
    else if (rc == 0)
        out = PyBool_FromLong(local);
    else
        out = excl_step_tuple(&step);
    if (masks != small_masks) {
        PyMem_RawFree(masks);
        PyMem_RawFree(excl);
    }
    return out;
fail:
    if (masks != small_masks) {
        PyMem_RawFree(masks);
        PyMem_RawFree(excl);
    }
    return NULL;
}

static PyMethodDef Exclusion_methods[] = {
    {"find", (PyCFunction)(void (*)(void))Exclusion_find, METH_FASTCALL,
     "find(masks, degree, before, cursor, /)\n--\n\nThe next Aligned Pair (degree 2) or "
     "Triple (3) Exclusion step on the candidate\nmasks after the step of cursor (0: the "
     "first) as (cursor, cells, excluders,\n((cell, digit), ...)); when there is none, "
     "whether the state may be remembered\n(no cell has a single candidate).  before: None "
     "or the masks of a state on which\nthe search found nothing; only what changed since "
     "is searched (sk_excl.h)."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject Exclusion_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sudokit._core.Exclusion",
    .tp_basicsize = sizeof(ExclusionObject),
    .tp_dealloc = (destructor)Exclusion_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Exclusion(n, peers)\n--\n\nAligned Pair / Triple Exclusion searches on one "
              "shape (n digits, the peers of\neach cell); the Python specification is "
              "sudokit.logic.exclusion._search.\nImmutable once built.",
    .tp_methods = Exclusion_methods,
    .tp_init = (initproc)Exclusion_init,
    .tp_new = PyType_GenericNew,
};

/* ---------------------------------------------------------------------------------------- */
/* Uniq: unique rectangles / loops and the BUG cells on one shape (sk_uniq.h)                 */

typedef struct {
    PyObject_HEAD
    sk_uniq_geom g;
    int32_t *ustart, *ucells, *cstart, *cunits, *kind, *pstart, *pcells;
    int ready;
} UniqObject;

static void Uniq_dealloc(UniqObject *self) {
    PyMem_RawFree(self->ustart);
    PyMem_RawFree(self->ucells);
    PyMem_RawFree(self->cstart);
    PyMem_RawFree(self->cunits);
    PyMem_RawFree(self->kind);
    PyMem_RawFree(self->pstart);
    PyMem_RawFree(self->pcells);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int Uniq_init(UniqObject *self, PyObject *args, PyObject *kwds) {
    char *kwlist[] = {"n", "units", "cell_units", "kinds", "peers", NULL};
    int n;
    PyObject *units, *cell_units, *kinds, *peers;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iOOOO:Uniq", kwlist, &n, &units, &cell_units,
                                     &kinds, &peers))
        return -1;
    if (self->ready) {
        PyErr_SetString(PyExc_TypeError, "Uniq is already initialised");
        return -1;
    }
    if (n < 1 || n > SK_UNIQ_MAX_N) {
        PyErr_Format(PyExc_ValueError, "n must be in 1..%d, got %d", SK_UNIQ_MAX_N, n);
        return -1;
    }
    const int ncells = n * n;
    Py_ssize_t nunits = 0, count = 0;
    int32_t *kstart = NULL;
    int rc = -1;
    if (!csr_arg(units, "units", -1, (uint64_t)ncells, &self->ustart, &self->ucells, &nunits))
        goto done;
    if (!csr_arg(cell_units, "cell_units", ncells, (uint64_t)nunits, &self->cstart,
                 &self->cunits, &count) ||
        !csr_arg(peers, "peers", ncells, (uint64_t)ncells, &self->pstart, &self->pcells, &count))
        goto done;
    PyObject *one = PyTuple_Pack(1, kinds); /* kinds as one "row" of ints */
    if (one == NULL) goto done;
    const int ok = csr_arg(one, "kinds", 1, (uint64_t)INT32_MAX, &kstart, &self->kind, &count);
    Py_DECREF(one);
    if (!ok) goto done;
    if (kstart[1] != nunits) {
        PyErr_Format(PyExc_ValueError, "kinds must hold %zd items, got %d", nunits, kstart[1]);
        goto done;
    }
    /* no unit lists a cell twice (sk_uniq.c keeps a unit's cells in ncells-sized scratch) */
    int32_t *last = PyMem_RawMalloc((size_t)ncells * sizeof *last);
    if (last == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (int c = 0; c < ncells; c++) last[c] = -1;
    for (Py_ssize_t u = 0; u < nunits; u++)
        for (int32_t k = self->ustart[u]; k < self->ustart[u + 1]; k++) {
            if (last[self->ucells[k]] == (int32_t)u) {
                PyErr_Format(PyExc_ValueError, "units[%zd] lists cell %d twice", u,
                             (int)self->ucells[k]);
                PyMem_RawFree(last);
                goto done;
            }
            last[self->ucells[k]] = (int32_t)u;
        }
    PyMem_RawFree(last);
    for (int cell = 0; cell < ncells; cell++) { /* each cell in each unit it lists */
        for (int32_t k = self->cstart[cell]; k < self->cstart[cell + 1]; k++) {
            const int32_t u = self->cunits[k];
            if (!contains32(self->ucells, self->ustart[u], self->ustart[u + 1], cell)) {
                PyErr_Format(PyExc_ValueError, "cell_units[%d] lists unit %d, which does not "
                                               "hold cell %d", cell, (int)u, cell);
                goto done;
            }
        }
        for (int32_t k = self->pstart[cell]; k < self->pstart[cell + 1]; k++)
            if (self->pcells[k] == cell ||
                (k > self->pstart[cell] && self->pcells[k] <= self->pcells[k - 1])) {
                PyErr_Format(PyExc_ValueError, "peers[%d] must be ascending, without the "
                                               "cell itself", cell);
                goto done;
            }
    }
    self->g = (sk_uniq_geom){n,           ncells,      (int)nunits, self->ustart, self->ucells,
                             self->cstart, self->cunits, self->kind,  self->pstart, self->pcells};
    self->ready = 1;
    rc = 0;
done:
    PyMem_RawFree(kstart);
    if (rc) { /* nothing half-made stays (a later __init__ may try again) */
        int32_t **owned[] = {&self->ustart, &self->ucells, &self->cstart, &self->cunits,
                             &self->kind,   &self->pstart, &self->pcells};
        for (size_t i = 0; i < sizeof owned / sizeof *owned; i++) {
            PyMem_RawFree(*owned[i]);
            *owned[i] = NULL;
        }
    }
    return rc;
}

/* masks (a sequence of ncells ints in 0..2^n - 1) into out (ncells entries). */
static int uniq_masks(const UniqObject *self, PyObject *obj, uint64_t *out) {
    if (!self->ready) {
        PyErr_SetString(PyExc_ValueError, "Uniq is not initialised");
        return 0;
    }
    PyObject *t = as_tuple(obj, "masks", -1);
    if (t == NULL) return 0;
    int ok = PyTuple_GET_SIZE(t) == self->g.ncells;
    if (!ok)
        PyErr_Format(PyExc_ValueError, "masks must hold %d items, got %zd", self->g.ncells,
                     PyTuple_GET_SIZE(t));
    const uint64_t bound = self->g.n == 64 ? 0 : (uint64_t)1 << self->g.n;
    for (int i = 0; ok && i < self->g.ncells; i++)
        ok = rule_int(PyTuple_GET_ITEM(t, i), bound, "masks", i, &out[i]);
    Py_DECREF(t);
    return ok;
}

/* One sk_uniq_find as (cells, pm, kind, hidden, bonus, unit, group, digits, elims). */
static PyObject *uniq_find_tuple(const sk_uniq_out *out, const sk_uniq_find *f) {
    const int32_t *e = out->ints + f->elim_at;
    PyObject *cells = int_tuple(f->cells, f->len), *group = NULL, *elims = NULL;
    if (cells != NULL) group = int_tuple(out->ints + f->group_at, f->ngroup);
    if (group != NULL) elims = pair_tuple(e, e + 1, 2, f->nelim);
    if (elims == NULL) {
        Py_XDECREF(cells);
        Py_XDECREF(group);
        return NULL;
    }
    return Py_BuildValue("(NKiiiiNKN)", cells, (unsigned long long)f->pm, f->kind, f->hidden,
                         f->bonus, f->unit, group, (unsigned long long)f->digits, elims);
}

static PyObject *Uniq_steps(UniqObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3) {
        PyErr_Format(PyExc_TypeError, "steps() takes 3 arguments (masks, changed, before), got %zd",
                     nargs);
        return NULL;
    }
    const int nc = self->g.ncells;
    uint64_t *masks = PyMem_RawCalloc((size_t)(nc > 0 ? nc : 1), 2 * sizeof *masks);
    uint8_t *changed = NULL;
    sk_uniq_out out = {0};
    PyObject *res = NULL, *before = NULL;
    if (masks == NULL) return PyErr_NoMemory();
    if (!uniq_masks(self, args[0], masks)) goto done;
    if (args[1] != Py_None) { /* delta.cells as little-endian bytes, delta.before */
        if (!PyBytes_Check(args[1]) || PyBytes_GET_SIZE(args[1]) != (nc + 7) / 8) {
            PyErr_Format(PyExc_ValueError, "changed must be None or %d bytes", (nc + 7) / 8);
            goto done;
        }
        const unsigned char *bits = (const unsigned char *)PyBytes_AS_STRING(args[1]);
        before = as_tuple(args[2], "before", -1);
        changed = PyMem_RawCalloc((size_t)nc + 1, 1);
        if (before == NULL || changed == NULL) {
            if (changed == NULL) PyErr_NoMemory();
            goto done;
        }
        if (PyTuple_GET_SIZE(before) != nc) {
            PyErr_Format(PyExc_ValueError, "before must hold %d items", nc);
            goto done;
        }
        for (int c = 0; c < nc; c++) {
            changed[c] = bits[c >> 3] >> (c & 7) & 1;
            if (changed[c] &&
                !rule_int(PyTuple_GET_ITEM(before, c), 0, "before", c, &masks[nc + c]))
                goto done;
        }
    }
    if (sk_uniq_steps(&self->g, masks, changed, masks + nc, &out)) {
        PyErr_NoMemory();
        goto done;
    }
    res = PyList_New((Py_ssize_t)out.nfinds);
    for (size_t i = 0; res != NULL && i < out.nfinds; i++) {
        PyObject *t = uniq_find_tuple(&out, &out.finds[i]);
        if (t == NULL) Py_CLEAR(res);
        else PyList_SET_ITEM(res, (Py_ssize_t)i, t);
    }
done:
    sk_uniq_out_free(&out);
    PyMem_RawFree(masks);
    PyMem_RawFree(changed);
    Py_XDECREF(before);
    return res;
}

static PyObject *Uniq_bug_extras(UniqObject *self, PyObject *arg) {
    const int nc = self->g.ncells;
    uint64_t *masks = PyMem_RawMalloc((size_t)(nc > 0 ? nc : 1) * 2 * sizeof *masks);
    PyObject *res = NULL;
    if (masks == NULL) return PyErr_NoMemory();
    if (!uniq_masks(self, arg, masks)) goto done;
    if (!sk_uniq_bug_extras(&self->g, masks, masks + nc)) {
        res = Py_NewRef(Py_None);
        goto done;
    }
    res = PyDict_New();
    for (int c = 0; res != NULL && c < nc; c++)
        if (masks[nc + c] && dict_put(res, c, PyLong_FromUnsignedLongLong(masks[nc + c]), 0))
            Py_CLEAR(res);
done:
    PyMem_RawFree(masks);
    return res;
}

static PyMethodDef Uniq_methods[] = {
    {"steps", (PyCFunction)(void (*)(void))Uniq_steps, METH_FASTCALL,
     "steps(masks, changed, before, /)\n--\n\nThe unique rectangle / loop steps on masks "
     "(uniqueness._ur_finds), in its order,\nas (cells, pm, kind, hidden, bonus, unit, group, "
     "digits, elims) tuples; changed\n(None: a full search) is delta.cells as little-endian "
     "bytes, before delta.before."},
    {"bug_extras", (PyCFunction)Uniq_bug_extras, METH_O,
     "bug_extras(masks, /)\n--\n\nThe BUG cells and their extra digits (a dict), or None "
     "(uniqueness._bug_extras)."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject Uniq_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sudokit._core.Uniq",
    .tp_basicsize = sizeof(UniqObject),
    .tp_dealloc = (destructor)Uniq_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Uniq(n, units, cell_units, kinds, peers)\n--\n\nThe uniqueness finders of one "
              "shape (units and per cell its units in the shape's\norder, a kind number per "
              "unit, per cell its peers ascending); the Python\nspecification is "
              "sudokit.logic.uniqueness. Reentrant: each call allocates its own state.",
    .tp_methods = Uniq_methods,
    .tp_init = (initproc)Uniq_init,
    .tp_new = PyType_GenericNew,
};

/* ---------------------------------------------------------------------------------------- */
/* InChain: SE's basic rules inside a stuck dynamic forcing chain (sk_nest.h)                 */

static PyTypeObject InChain_Type;

typedef struct {
    PyObject_HEAD
    sk_inchain rules;
    uint64_t *save, *masks; /* the arguments of one find() */
    sk_chain_out out;
    int ready;
} InChainObject;

static void InChain_dealloc(InChainObject *self) {
    if (self->ready) sk_inchain_free(&self->rules);
    PyMem_RawFree(self->save);
    PyMem_RawFree(self->masks);
    free(self->out.data);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* InChain(n, units, lock_pairs, lines): every unit n cells; lock_pairs (u, v) unit pairs;
 * lines = (se_units, rows, cols), rows and cols n units each. */
static int InChain_init(InChainObject *self, PyObject *args, PyObject *kwds) {
    char *kwlist[] = {"n", "units", "lock_pairs", "lines", NULL};
    int n, rc = -1;
    PyObject *units, *lock_obj, *lines_obj;
    int32_t *ustart = NULL, *ucells = NULL, *lstart = NULL, *lock = NULL, *lnstart = NULL,
            *lines = NULL;
    Py_ssize_t nunits = 0, nlock = 0, nlines = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iOOO:InChain", kwlist, &n, &units, &lock_obj,
                                     &lines_obj))
        return -1;
    if (self->ready) {
        PyErr_SetString(PyExc_TypeError, "InChain is already initialised");
        return -1;
    }
    if (n < 1 || n > 64 || n > SK_MAX_N) {
        PyErr_Format(PyExc_ValueError, "n must be in 1..%d, got %d", n > 64 ? 64 : SK_MAX_N, n);
        return -1;
    }
    const int ncells = n * n;
    if (!csr_arg(units, "units", -1, (uint64_t)ncells, &ustart, &ucells, &nunits)) goto done;
    for (Py_ssize_t u = 0; u < nunits; u++)
        if (ustart[u + 1] - ustart[u] != n) {
            PyErr_Format(PyExc_ValueError, "units[%zd] must hold %d cells", u, n);
            goto done;
        }
    if (!csr_arg(lock_obj, "lock_pairs", -1, (uint64_t)nunits, &lstart, &lock, &nlock)) goto done;
    for (Py_ssize_t i = 0; i < nlock; i++)
        if (lstart[i + 1] - lstart[i] != 2) {
            PyErr_Format(PyExc_ValueError, "lock_pairs[%zd] must be a pair of units", i);
            goto done;
        }
    if (!csr_arg(lines_obj, "lines", 3, (uint64_t)nunits, &lnstart, &lines, &nlines)) goto done;
    if (lnstart[2] - lnstart[1] != n || lnstart[3] - lnstart[2] != n) {
        PyErr_Format(PyExc_ValueError, "lines: rows and cols must hold %d units each", n);
        goto done;
    }
    const sk_inchain_geom g = {n, ncells, (int)nunits, ustart, ucells, (int)nlock, lock,
                               (int)lnstart[1], lines, lines + lnstart[1], lines + lnstart[2]};
    self->save = PyMem_RawMalloc((size_t)ncells * sizeof *self->save);
    self->masks = PyMem_RawMalloc((size_t)ncells * sizeof *self->masks);
    if (self->save == NULL || self->masks == NULL || sk_inchain_init(&self->rules, &g)) {
        PyErr_NoMemory();
        goto done;
    }
    self->ready = 1;
    rc = 0;
done:
    PyMem_RawFree(ustart);
    PyMem_RawFree(ucells);
    PyMem_RawFree(lstart);
    PyMem_RawFree(lock);
    PyMem_RawFree(lnstart);
    PyMem_RawFree(lines);
    return rc;
}

/* ncells masks (ints in 0 .. 2^n - 1) from a sequence into buf.  0 with an exception. */
static int inchain_masks(PyObject *obj, const char *what, int ncells, int n, uint64_t *buf) {
    PyObject *seq = PySequence_Fast(obj, what);
    if (seq == NULL) return 0;
    int ok = PySequence_Fast_GET_SIZE(seq) == ncells;
    if (!ok)
        PyErr_Format(PyExc_ValueError, "%s must hold %d items, got %zd", what, ncells,
                     PySequence_Fast_GET_SIZE(seq));
    const uint64_t bound = n == 64 ? 0 : (uint64_t)1 << n;
    PyObject **items = PySequence_Fast_ITEMS(seq);
    for (int i = 0; ok && i < ncells; i++) ok = rule_int(items[i], bound, what, i, &buf[i]);
    Py_DECREF(seq);
    return ok;
}

/* InChain.find(save, masks[, first]): sk_inchain_find, as a list of (potential, parents)
 * (empty when no rule finds anything). */
static PyObject *InChain_find(InChainObject *self, PyObject *const *args, Py_ssize_t nargs) {
    uint64_t first = 0;
    if (nargs != 2 && nargs != 3) {
        PyErr_Format(PyExc_TypeError, "find() takes 2 or 3 arguments (save, masks[, first]), "
                                      "got %zd", nargs);
        return NULL;
    }
    if (nargs == 3 && !rule_int(args[2], 4, "first", 0, &first)) return NULL;
    if (!self->ready) {
        PyErr_SetString(PyExc_ValueError, "InChain is not initialised");
        return NULL;
    }
    const int ncells = self->rules.ncells, n = self->rules.n;
    if (!inchain_masks(args[0], "save", ncells, n, self->save) ||
        !inchain_masks(args[1], "masks", ncells, n, self->masks))
        return NULL;
    self->out.len = 0;
    if (sk_inchain_find(&self->rules, self->save, self->masks, (int)first, &self->out) == -2)
        return PyErr_NoMemory();
    PyObject *list = PyList_New(0);
    const int32_t *v = self->out.data;
    for (size_t i = 0; list != NULL && i < self->out.len; i += 2 + (size_t)v[i + 1]) {
        PyObject *prs = int_tuple(v + i + 2, v[i + 1]);
        PyObject *item = prs == NULL ? NULL : Py_BuildValue("(iN)", v[i], prs);
        if (item == NULL || PyList_Append(list, item) < 0) Py_CLEAR(list);
        Py_XDECREF(item);
    }
    return list;
}

/* Chainer.nested(multiple, sort_keys, save, shape): sk_nest_rule, as a list of
 * (complexity, removals, parents, chains). */
static PyObject *Chainer_nested(ChainerObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4) {
        PyErr_Format(PyExc_TypeError, "nested() takes 4 arguments (multiple, sort_keys, save, "
                                      "shape), got %zd", nargs);
        return NULL;
    }
    int nishio, multiple;
    int32_t keys[4];
    if (!chainer_rule_args(self, Py_False, args[0], args[1], &nishio, &multiple, keys))
        return NULL;
    if (!PyObject_TypeCheck(args[3], &InChain_Type) || !((InChainObject *)args[3])->ready) {
        PyErr_SetString(PyExc_TypeError, "shape must be a ready InChain");
        return NULL;
    }
    InChainObject *shape = (InChainObject *)args[3];
    const sk_chainer *c = &self->chainer;
    if (shape->rules.n != c->n || shape->rules.ncells != c->ncells ||
        shape->rules.nunits != c->nunits) {
        PyErr_SetString(PyExc_ValueError, "shape is not the chainer's shape");
        return NULL;
    }
    if (!inchain_masks(args[2], "save", c->ncells, c->n, shape->save)) return NULL;
    sk_chain_out out = {NULL, 0, 0};
    const int rc = sk_nest_rule(&self->chainer, &shape->rules, multiple, keys, shape->save, &out);
    if (rc) {
        free(out.data);
        if (rc == -2) PyErr_SetString(PyExc_ValueError, "nested() needs units of at most 64 cells");
        else PyErr_NoMemory();
        return NULL;
    }
    PyObject *list = PyList_New(0);
    const int32_t *v = out.data;
    for (size_t at = 0; list != NULL && at < out.len;) {
        const int32_t cx = v[at++];
        PyObject *parts[3] = {NULL, NULL, NULL}, *item = NULL;
        for (int part = 0; part < 2; part++) { /* removals, rule parents */
            const int32_t k = v[at++];
            parts[part] = part == 0 || parts[0] != NULL ? int_tuple(v + at, k) : NULL;
            at += (size_t)k;
        }
        const int32_t nchains = v[at++];
        if (parts[1] != NULL) parts[2] = PyTuple_New(nchains);
        for (int32_t j = 0; j < nchains; j++) { /* every chain's items are skipped over */
            const int32_t len = v[at++];
            PyObject *chain = parts[2] != NULL ? int_tuple(v + at, len) : NULL;
            at += (size_t)len;
            if (chain != NULL) PyTuple_SET_ITEM(parts[2], j, chain);
            else Py_CLEAR(parts[2]);
        }
        if (parts[2] != NULL) item = Py_BuildValue("(iOOO)", cx, parts[0], parts[1], parts[2]);
        for (int part = 0; part < 3; part++) Py_XDECREF(parts[part]);
        if (item == NULL || PyList_Append(list, item) < 0) Py_CLEAR(list);
        Py_XDECREF(item);
    }
    free(out.data);
    return list;
}

static PyMethodDef InChain_methods[] = {
    {"find", (PyCFunction)(void (*)(void))InChain_find, METH_FASTCALL,
     "find(save, masks, first=0, /)\n--\n\nThe removals (potential, parents) of the first "
     "basic rule from rule first on (0 locking, 1 hidden pairs, 2 naked pairs, 3 X-Wings) "
     "that finds any on the chain's candidates masks (started from save)."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject InChain_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sudokit._core.InChain",
    .tp_basicsize = sizeof(InChainObject),
    .tp_dealloc = (destructor)InChain_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "InChain(n, units, lock_pairs, lines)\n--\n\nSE's basic rules inside a stuck "
              "dynamic forcing chain (sk_nest.h): pointing/claiming over lock_pairs, hidden "
              "and naked pairs over lines[0], X-Wings over rows lines[1] and columns lines[2].",
    .tp_methods = InChain_methods,
    .tp_init = (initproc)InChain_init,
    .tp_new = PyType_GenericNew,
};

/* unary_all(modes, base10, sort_keys, thresholds, cap): sk_chain_unary_all on three ready
 * ChainMode objects of one state, as a list of (kind, complexity, removals, path). */
static PyObject *core_unary_all(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    (void)module;
    if (nargs != 5) {
        PyErr_Format(PyExc_TypeError, "unary_all() takes 5 arguments (modes, base10, "
                                      "sort_keys, thresholds, cap), got %zd", nargs);
        return NULL;
    }
    PyObject *mt = as_tuple(args[0], "modes", -1);
    if (mt == NULL) return NULL;
    sk_chain_mode *modes[3];
    int ok = PyTuple_GET_SIZE(mt) == 3;
    if (!ok) PyErr_SetString(PyExc_ValueError, "modes must hold 3 ChainMode objects");
    for (int i = 0; ok && i < 3; i++) {
        PyObject *o = PyTuple_GET_ITEM(mt, i);
        ok = PyObject_TypeCheck(o, &ChainMode_Type) && ((ChainModeObject *)o)->ready;
        if (!ok) PyErr_Format(PyExc_TypeError, "modes[%d] must be a ready ChainMode", i);
        else modes[i] = &((ChainModeObject *)o)->mode;
    }
    for (int i = 1; ok && i < 3; i++) {
        ok = modes[i]->n == modes[0]->n && modes[i]->ncells == modes[0]->ncells;
        if (!ok) PyErr_SetString(PyExc_ValueError, "modes must be of one shape");
    }
    Py_DECREF(mt);
    int32_t flat[6], keys[3], thr[64];
    Py_ssize_t nflat, nkeys, nthr;
    uint64_t cap;
    if (!ok || !small_ints(args[1], "base10", flat, 6, &nflat) ||
        !small_ints(args[2], "sort_keys", keys, 3, &nkeys) ||
        !small_ints(args[3], "thresholds", thr, 64, &nthr) || !as_count(args[4], "cap", 0, &cap))
        return NULL;
    if (nflat != 6 || nkeys != 3) {
        PyErr_SetString(PyExc_ValueError, "base10 must hold 6 items, sort_keys 3");
        return NULL;
    }
    const int32_t base10[3][2] = {{flat[0], flat[1]}, {flat[2], flat[3]}, {flat[4], flat[5]}};
    sk_chain_out out = {NULL, 0, 0};
    if (sk_chain_unary_all(modes, base10, keys, thr, (int)nthr,
                           cap > INT64_MAX ? INT64_MAX : (int64_t)cap, &out)) {
        free(out.data);
        return PyErr_NoMemory();
    }
    PyObject *list = PyList_New(0);
    const int32_t *v = out.data;
    for (size_t at = 0; list != NULL && at < out.len;) {
        const int32_t k = v[at + 2], len = v[at + 3 + k];
        PyObject *rem = int_tuple(v + at + 3, k), *path = NULL, *item = NULL;
        if (rem != NULL) path = int_tuple(v + at + 4 + k, len);
        if (path != NULL) item = Py_BuildValue("(iiOO)", v[at], v[at + 1], rem, path);
        Py_XDECREF(rem);
        Py_XDECREF(path);
        if (item == NULL || PyList_Append(list, item) < 0) Py_CLEAR(list);
        Py_XDECREF(item);
        at += 4 + (size_t)k + (size_t)len;
    }
    free(out.data);
    return list;
}

PyDoc_STRVAR(unary_all_doc,
             "unary_all(modes, base10, sort_keys, thresholds, cap, /)\n--\n\n\"Forcing Chains "
             "& Cycles\" nested in a chain (sk_chain.h sk_chain_unary_all):\nthe hints of the "
             "three ChainMode objects of one state (X, Y, X+Y) that\nchange it, SE's order, one "
             "per distinct set of removals, as (kind, complexity,\nremovals, path). base10: per "
             "mode (cycle, chain) base ratings in tenths.");

/* ---------------------------------------------------------------------------------------- */
/* module                                                                                     */

static PyMethodDef core_methods[] = {
    {"search", (PyCFunction)(void (*)(void))core_search, METH_FASTCALL, search_doc},
    {"search_batch", (PyCFunction)(void (*)(void))core_search_batch, METH_FASTCALL,
     search_batch_doc},
    {"search_items", (PyCFunction)(void (*)(void))core_search_items, METH_FASTCALL,
     search_items_doc},
    {"reduce", (PyCFunction)(void (*)(void))core_reduce, METH_FASTCALL, reduce_doc},
    {"fill", (PyCFunction)(void (*)(void))core_fill, METH_FASTCALL, fill_doc},
    {"random_puzzle", (PyCFunction)(void (*)(void))core_random_puzzle, METH_FASTCALL,
     random_puzzle_doc},
    {"canonical9", (PyCFunction)(void (*)(void))core_canonical9, METH_FASTCALL,
     canonical9_doc},
    {"lines", (PyCFunction)(void (*)(void))core_lines, METH_FASTCALL, lines_doc},
    {"unary_all", (PyCFunction)(void (*)(void))core_unary_all, METH_FASTCALL, unary_all_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "sudokit._core",
    .m_doc = "sudokit's C search core (see csrc/). Use it through sudokit._cengine.CEngine.",
    .m_size = -1,
    .m_methods = core_methods,
};

/* Sets main_thread_ident from threading.main_thread().ident (0 with no error on failure). */
static void find_main_thread(void) {
    PyObject *threading = PyImport_ImportModule("threading");
    PyObject *main = threading ? PyObject_CallMethod(threading, "main_thread", NULL) : NULL;
    PyObject *ident = main ? PyObject_GetAttrString(main, "ident") : NULL;
    if (ident != NULL && PyLong_Check(ident)) main_thread_ident = PyLong_AsUnsignedLong(ident);
    if (PyErr_Occurred()) {
        PyErr_Clear();
        main_thread_ident = 0;
    }
    Py_XDECREF(ident);
    Py_XDECREF(main);
    Py_XDECREF(threading);
}

/* The module's classes, readied and added under these names. */
static const struct {
    PyTypeObject *type;
    const char *name;
} module_types[] = {
    {&Geometry_Type, "Geometry"},   {&ChainMode_Type, "ChainMode"},
    {&Chainer_Type, "Chainer"},     {&ChainRun_Type, "ChainRun"},
    {&InChain_Type, "InChain"},     {&HumanShape_Type, "HumanShape"},
    {&Exclusion_Type, "Exclusion"}, {&Uniq_Type, "Uniq"},
};

PyMODINIT_FUNC PyInit__core(void) {
    size_t n_types = sizeof module_types / sizeof module_types[0];
    for (size_t i = 0; i < n_types; i++)
        if (PyType_Ready(module_types[i].type) < 0) return NULL;
    find_main_thread();
    PyObject *m = PyModule_Create(&core_module);
    if (m == NULL) return NULL;
    for (size_t i = 0; i < n_types; i++) {
        Py_INCREF(module_types[i].type);
        if (PyModule_AddObject(m, module_types[i].name, (PyObject *)module_types[i].type) < 0) {
            Py_DECREF(module_types[i].type);
            goto fail;
        }
    }
    if (PyModule_AddIntConstant(m, "ABI_VERSION", SK_ABI_VERSION) < 0) goto fail;
    if (PyModule_AddIntConstant(m, "MAX_SIZE", SK_MAX_N) < 0) goto fail;
    if (PyModule_AddIntConstant(m, "MAX_BATCH", (long)SK_MAX_BATCH) < 0) goto fail;
    if (PyModule_AddStringConstant(m, "COMPILER", SK_COMPILER) < 0) goto fail;
    if (PyModule_AddStringConstant(m, "BUILD_FLAGS", SK_BUILD_FLAGS) < 0) goto fail;
#ifdef SK_HAVE_FAST9
    if (PyModule_AddObject(m, "FAST9", Py_NewRef(Py_True)) < 0) goto fail;
#else
    if (PyModule_AddObject(m, "FAST9", Py_NewRef(Py_False)) < 0) goto fail;
#endif
    return m;
fail:
    Py_DECREF(m);
    return NULL;
}
