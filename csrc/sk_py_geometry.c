/*
 * sk_py_geometry.c -- the Geometry type: a shape's units and variant rules, checked with a
 * message naming the bad entry, built once into an immutable sk_geom (sk_solver.h) that any
 * number of threads may search at once, plus a small pool of search workspaces.
 */
#include "sk_py.h"

static void Geometry_release(GeometryObject *self) {
    for (int i = 0; i < self->npool; i++) sk_work_free(self->pool[i]);
    sk_geom_free(self->geom);
}

/* ---------------------------------------------------------------------------------------- */
/* Variant rules: Python sequences into the flat arrays of sk_rules                           */

/* The parsed rules; every array is PyMem_Raw memory owned here (NULL when empty). */
typedef struct {
    sk_rules r;
    uint16_t *pairs, *rel_cells, *cage_cells;
    uint64_t *allowed, *rel_tables;
    uint32_t *cage_ends;
    int32_t *cage_sums;
    sk_py_sums sums; /* linear sums and groups (sk_py_sums.c) */
    int any;         /* some rule argument was given (not None / empty) */
} rules_buf;

static void rules_buf_free(rules_buf *b) {
    SK_FREE_ALL(PyMem_RawFree, b->pairs, b->rel_cells, b->cage_cells, b->allowed, b->rel_tables,
                               b->cage_ends, b->cage_sums);
    sk_py_sums_free(&b->sums);
}

/* A pair of distinct cell indices (a sequence of two ints in 0..ncells-1) into out[0..1]. */
static int cell_pair(PyObject *obj, int ncells, const char *what, Py_ssize_t k, uint16_t *out) {
    PyObject *t = sk_py_as_tuple(obj, what, k);
    if (t == NULL) return 0;
    int ok = PyTuple_GET_SIZE(t) == 2;
    if (!ok)
        PyErr_Format(PyExc_ValueError, "%s[%zd] must be a pair of cells, got %zd items", what, k,
                     PyTuple_GET_SIZE(t));
    for (int i = 0; ok && i < 2; i++) {
        uint64_t c = 0;
        ok = sk_py_rule_int(PyTuple_GET_ITEM(t, i), (uint64_t)ncells, what, k, &c);
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
    PyObject *t = sk_py_as_tuple(obj, "different", -1);
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
    PyObject *t = sk_py_as_tuple(obj, "allowed", -1);
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
    const uint64_t bound = sk_py_mask_bound(n);
    for (int i = 0; ok && i < ncells; i++)
        ok = sk_py_rule_int(PyTuple_GET_ITEM(t, i), bound, "allowed", i, &b->allowed[i]);
    if (ok) {
        b->r.allowed = b->allowed;
        b->any = 1;
    }
    Py_DECREF(t);
    return ok;
}

/* relations: (a, b, table) triples, table n masks below 2**n; at most one per ordered pair of
 * cells, ncells * (ncells - 1) (a global rule such as self-taxicab relates most pairs). */
static int parse_relations(PyObject *obj, int n, int ncells, rules_buf *b) {
    const Py_ssize_t most = (Py_ssize_t)ncells * (ncells - 1);
    PyObject *t = sk_py_rule_list(obj, "relations", "relations", most, n);
    if (t == NULL) return !PyErr_Occurred();
    const Py_ssize_t k = PyTuple_GET_SIZE(t);
    int ok = 1;
    if (k > 0) {
        b->rel_cells = PyMem_RawMalloc((size_t)k * 2 * sizeof *b->rel_cells);
        b->rel_tables = PyMem_RawMalloc((size_t)k * (size_t)n * sizeof *b->rel_tables);
        if (b->rel_cells == NULL || b->rel_tables == NULL) {
            PyErr_NoMemory();
            ok = 0;
        }
        const uint64_t bound = sk_py_mask_bound(n);
        for (Py_ssize_t i = 0; ok && i < k; i++) {
            PyObject *rel = sk_py_rule_entry(t, i, "relations", 3, "a, b, table");
            if (rel == NULL) {
                ok = 0;
                break;
            }
            PyObject *pair = PyTuple_GetSlice(rel, 0, 2);
            ok = pair != NULL && cell_pair(pair, ncells, "relations", i, b->rel_cells + 2 * i);
            Py_XDECREF(pair);
            PyObject *table = ok ? sk_py_as_tuple(PyTuple_GET_ITEM(rel, 2), "relations", i) : NULL;
            if (ok && table == NULL) ok = 0;
            if (ok && PyTuple_GET_SIZE(table) != n) {
                PyErr_Format(PyExc_ValueError, "relations[%zd]: the table must hold %d masks, got "
                                               "%zd", i, n, PyTuple_GET_SIZE(table));
                ok = 0;
            }
            for (int d = 0; ok && d < n; d++)
                ok = sk_py_rule_int(PyTuple_GET_ITEM(table, d), bound, "relations", i,
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
    PyObject *t = sk_py_rule_list(obj, "cages", "cages", ncells, n);
    if (t == NULL) return !PyErr_Occurred();
    const Py_ssize_t k = PyTuple_GET_SIZE(t);
    int ok = 1;
    uint8_t *used = NULL;
    if (k > 0) {
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
            PyObject *cage = sk_py_rule_entry(t, i, "cages", 2, "cells, total");
            if (cage == NULL) {
                ok = 0;
                break;
            }
            PyObject *cells = sk_py_as_tuple(PyTuple_GET_ITEM(cage, 0), "cages", i);
            if (cells == NULL) ok = 0;
            const Py_ssize_t size = cells ? PyTuple_GET_SIZE(cells) : 0;
            if (ok && (size < 1 || size > n)) {
                PyErr_Format(PyExc_ValueError, "cages[%zd] has %zd cells, expected 1..%d", i, size,
                             n);
                ok = 0;
            }
            for (Py_ssize_t j = 0; ok && j < size; j++) {
                uint64_t c = 0;
                ok = sk_py_rule_int(PyTuple_GET_ITEM(cells, j), (uint64_t)ncells, "cages", i, &c);
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
                else if ((ok = sk_py_rule_int(total, (uint64_t)(n * (n + 1) / 2) + 1, "cages", i, &sum)))
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
 * cages=None, linear=None, groups=None): n in 1..64; units a sequence of sequences of n
 * distinct cell indices;
 * generic=True never uses the 9x9 fast path; the rest are the variant rules (sk_rules in
 * sk_solver.h), each checked here with a message naming the bad entry. */
static int Geometry_init(GeometryObject *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"n",         "units", "generic", "different", "allowed",
                             "relations", "cages", "linear",  "groups",    NULL};
    int n, generic = 0;
    PyObject *units, *different = Py_None, *allowed = Py_None, *relations = Py_None,
                     *cages = Py_None, *linear = Py_None, *groups = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iO|$pOOOOOO:Geometry", kwlist, &n, &units,
                                     &generic, &different, &allowed, &relations, &cages,
                                     &linear, &groups))
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
        !parse_relations(relations, n, ncells, &rb) || !parse_cages(cages, n, ncells, &rb) ||
        !sk_py_sums_parse(linear, groups, n, ncells, &rb.sums)) {
        rules_buf_free(&rb);
        goto fail;
    }
    sk_py_sums_attach(&rb.sums, &rb.r);
    if (rb.sums.nlinear || rb.sums.ngroups) rb.any = 1;
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
    {"n", Py_T_INT, offsetof(GeometryObject, n), Py_READONLY, "size: digits 1..n"},
    {"ncells", Py_T_INT, offsetof(GeometryObject, ncells), Py_READONLY, "cells: n * n"},
    {"nunits", Py_T_INT, offsetof(GeometryObject, nunits), Py_READONLY, "number of units"},
    {"standard9", Py_T_BOOL, offsetof(GeometryObject, standard9), Py_READONLY,
     "True when the 9x9 fast path may be used"},
    {"rules", Py_T_BOOL, offsetof(GeometryObject, rules), Py_READONLY,
     "True when variant rules are attached (different, allowed, relations, cages, linear, "
     "groups)"},
    {NULL, 0, 0, 0, NULL},
};

PyDoc_STRVAR(Geometry_doc,
             "Geometry(n, units, *, generic=False, different=None, allowed=None, "
             "relations=None, cages=None, linear=None, groups=None)\n--\n\nImmutable "
             "geometry of a shape: n in "
             "1..64 and its units (each a sequence of n distinct cell indices).\n"
             "generic=True keeps a standard 9x9 shape off the 9x9 fast path.\n"
             "Variant rules (any rule keeps the shape off the fast path):\n"
             "different: pairs (a, b) of cells that must differ;\n"
             "allowed: ncells masks, the digits each cell may hold (bit d-1 = digit d);\n"
             "relations: (a, b, table), table n masks: digits b may hold when a holds d\n"
             "  (table[d-1]); the reverse direction is derived;\n"
             "cages: (cells, total), 1..n distinct cells, total None (digits differ only)\n"
             "  or their sum; no cell in two cages;\n"
             "linear: (cells, coefs, total): sum(coef * digit) == total, distinct cells,\n"
             "  nonzero coefs, digits may repeat;\n"
             "groups: (kind, cells, params): a predicate over 1..64 ordered distinct cells,\n"
             "  kind 1..7 (RENBAN, BETWEEN, QUADRUPLE, SANDWICH, XSUM, SKYSCRAPER, SUM_IN:\n"
             "  sudokit.rules.primitives.group_holds).");

SK_PY_CLASS(Geometry, {Py_tp_repr, (void *)Geometry_repr}, {Py_tp_members, Geometry_members});

/* ---------------------------------------------------------------------------------------- */
/* Geometry arguments                                                                         */

GeometryObject *sk_py_as_geometry(const sk_state *st, PyObject *obj) {
    if (!PyObject_TypeCheck(obj, st->Geometry)) {
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

GeometryObject *sk_py_geometry_call(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
                                    Py_ssize_t lo, Py_ssize_t hi, const char *name,
                                    const char *params) {
    if (!sk_py_nargs(nargs, lo, hi, name, params)) return NULL;
    return sk_py_as_geometry(sk_state_of(module), args[0]);
}

GeometryObject *sk_py_geometry_cells(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
                                     Py_ssize_t lo, Py_ssize_t hi, const char *name,
                                     const char *params, const char *what, int single,
                                     const uint8_t **cells, Py_ssize_t *len) {
    GeometryObject *g = sk_py_geometry_call(module, args, nargs, lo, hi, name, params);
    if (g == NULL || !sk_py_cells_arg(args[1], what, g->ncells, g->n, single, cells, len))
        return NULL;
    return g;
}
