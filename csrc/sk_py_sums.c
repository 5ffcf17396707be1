/*
 * sk_py_sums.c -- binding: the linear sums and groups of Geometry (linear=, groups=), read
 * from Python sequences into the flat CSR arrays of sk_rules (sk_solver.h), each entry checked
 * with a message naming it ("linear sum 3: cell 99 is outside 0..80", "group 2: unknown kind
 * 9").  Every sequence is copied into a tuple before it is read, and only exact ints are read
 * (no __index__), so no Python code runs while the arrays fill.
 */
#include "sk_py.h"

static const char *const kind_names[SK_GROUP_KINDS + 1] = {
    "", "RENBAN", "BETWEEN", "QUADRUPLE", "SANDWICH", "XSUM", "SKYSCRAPER", "SUM_IN"};

void sk_py_sums_free(sk_py_sums *s) {
    SK_FREE_ALL(PyMem_RawFree, s->lin_ends, s->lin_cells, s->lin_coefs, s->lin_totals,
                               s->group_kinds, s->group_cell_ends, s->group_cells,
                               s->group_param_ends, s->group_params);
    memset(s, 0, sizeof *s);
}

/* Room for need items of size bytes in *buf (capacity *cap items, doubled as needed). */
static int grow(void **buf, size_t *cap, size_t need, size_t size) {
    if (need <= *cap) return 1;
    size_t c = *cap ? *cap : 64;
    while (c < need) c *= 2;
    void *b = PyMem_RawRealloc(*buf, c * size);
    if (b == NULL) {
        PyErr_NoMemory();
        return 0;
    }
    *buf = b;
    *cap = c;
    return 1;
}

/* An exact int (bools refused) in lo..hi into *out: 1; 0 with a TypeError ("<what> <k>: <item>
 * must be an int, not ...") or, out of range, a ValueError ("<what> <k>: <item> <v> is outside
 * lo..hi"). */
static int int_in(PyObject *obj, long long lo, long long hi, const char *what, Py_ssize_t k,
                  const char *item, long long *out) {
    if (!PyLong_Check(obj) || PyBool_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s %zd: %s must be an int, not %.100s", what, k, item,
                     Py_TYPE(obj)->tp_name);
        return 0;
    }
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(obj, &overflow);
    if (v == -1 && PyErr_Occurred()) return 0;
    if (overflow || v < lo || v > hi) {
        PyErr_Format(PyExc_ValueError, "%s %zd: %s %S is outside %lld..%lld", what, k, item, obj,
                     lo, hi);
        return 0;
    }
    *out = v;
    return 1;
}

/* Item k of a rule list as a tuple of `items` entries (what: "linear sum", "group"). */
static PyObject *entry(PyObject *list, Py_ssize_t k, const char *what, Py_ssize_t items,
                       const char *form) {
    PyObject *obj = PyTuple_GET_ITEM(list, k);
    if (!PySequence_Check(obj) || PyUnicode_Check(obj) || PyBytes_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s %zd must be a sequence %s, not %.100s", what, k, form,
                     Py_TYPE(obj)->tp_name);
        return NULL;
    }
    PyObject *t = PySequence_Tuple(obj);
    if (t != NULL && PyTuple_GET_SIZE(t) != items) {
        PyErr_Format(PyExc_ValueError, "%s %zd must be %s, got %zd items", what, k, form,
                     PyTuple_GET_SIZE(t));
        Py_CLEAR(t);
    }
    return t;
}

/* Part `part` of entry k (a sequence) as a tuple. */
static PyObject *part_tuple(PyObject *obj, const char *what, Py_ssize_t k, const char *part) {
    if (!PySequence_Check(obj) || PyUnicode_Check(obj) || PyBytes_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s %zd: %s must be a sequence, not %.100s", what, k, part,
                     Py_TYPE(obj)->tp_name);
        return NULL;
    }
    return PySequence_Tuple(obj);
}

/* The cells of entry k (a tuple, 1..most of them, distinct, in 0..ncells-1) appended to
 * (*cells)[*used ..]; stamp marks the cells of this entry with tag. */
static int read_cells(PyObject *t, const char *what, Py_ssize_t k, Py_ssize_t most, int ncells,
                      uint32_t *stamp, uint32_t tag, uint16_t **cells, size_t *cap,
                      size_t *used) {
    const Py_ssize_t size = PyTuple_GET_SIZE(t);
    if (size < 1 || size > most) {
        PyErr_Format(PyExc_ValueError, "%s %zd has %zd cells, expected 1..%zd", what, k, size,
                     most);
        return 0;
    }
    if (!grow((void **)cells, cap, *used + (size_t)size, sizeof **cells)) return 0;
    for (Py_ssize_t j = 0; j < size; j++) {
        long long c;
        if (!int_in(PyTuple_GET_ITEM(t, j), 0, ncells - 1, what, k, "cell", &c)) return 0;
        if (stamp[c] == tag) {
            PyErr_Format(PyExc_ValueError, "%s %zd: cell %lld is listed twice", what, k, c);
            return 0;
        }
        stamp[c] = tag;
        (*cells)[(*used)++] = (uint16_t)c;
    }
    return 1;
}

/* One linear sum (cells, coefs, total), entry k, appended to s. */
static int read_linear(PyObject *t, Py_ssize_t k, int ncells, uint32_t *stamp, sk_py_sums *s,
                       size_t *cap_cells, size_t *cap_coefs) {
    const char *what = "linear sum";
    PyObject *cells = part_tuple(PyTuple_GET_ITEM(t, 0), what, k, "cells");
    PyObject *coefs = cells ? part_tuple(PyTuple_GET_ITEM(t, 1), what, k, "coefs") : NULL;
    const size_t at = s->ncells_linear;
    int ok = coefs != NULL;
    if (ok && PyTuple_GET_SIZE(cells) != PyTuple_GET_SIZE(coefs)) {
        PyErr_Format(PyExc_ValueError, "%s %zd has %zd cells and %zd coefs", what, k,
                     PyTuple_GET_SIZE(cells), PyTuple_GET_SIZE(coefs));
        ok = 0;
    }
    ok = ok && read_cells(cells, what, k, ncells, ncells, stamp, (uint32_t)k + 1, &s->lin_cells,
                          cap_cells, &s->ncells_linear);
    ok = ok && grow((void **)&s->lin_coefs, cap_coefs, s->ncells_linear, sizeof *s->lin_coefs);
    for (Py_ssize_t j = 0; ok && j < PyTuple_GET_SIZE(coefs); j++) {
        long long c;
        ok = int_in(PyTuple_GET_ITEM(coefs, j), -SK_LINEAR_COEF_MAX, SK_LINEAR_COEF_MAX, what, k,
                    "coef", &c);
        if (ok && c == 0) {
            PyErr_Format(PyExc_ValueError, "%s %zd: coef %zd is 0 (coefs are nonzero)", what, k,
                         j);
            ok = 0;
        }
        if (ok) s->lin_coefs[at + (size_t)j] = (int32_t)c;
    }
    long long total = 0;
    ok = ok && int_in(PyTuple_GET_ITEM(t, 2), -SK_LINEAR_TOTAL_MAX, SK_LINEAR_TOTAL_MAX, what, k,
                      "total", &total);
    if (ok) {
        s->lin_totals[k] = (int64_t)total;
        s->lin_ends[k] = (uint32_t)s->ncells_linear;
    }
    Py_XDECREF(cells);
    Py_XDECREF(coefs);
    return ok;
}

/* The params of group k of this kind (a tuple) appended to s: none for RENBAN and BETWEEN,
 * 1..4 digits in 1..n for QUADRUPLE, 1..16 totals in 0..2^31-1 for SUM_IN, exactly one value
 * in 0..2^31-1 for the others. */
static int read_params(PyObject *params, int kind, Py_ssize_t k, int n, sk_py_sums *s,
                       size_t *cap) {
    const char *what = "group", *name = kind_names[kind];
    const Py_ssize_t np = PyTuple_GET_SIZE(params);
    const int digits = kind == SK_GROUP_QUADRUPLE;
    const Py_ssize_t lo = kind == SK_GROUP_RENBAN || kind == SK_GROUP_BETWEEN ? 0 : 1;
    const int totals = kind == SK_GROUP_SUM_IN;
    const Py_ssize_t hi = digits ? 4 : totals ? SK_GROUP_SUM_IN_MAX : lo;
    if (np < lo || np > hi) {
        if (hi == 0)
            PyErr_Format(PyExc_ValueError, "%s %zd: %s takes no params, got %zd", what, k, name, np);
        else if (digits)
            PyErr_Format(PyExc_ValueError, "%s %zd: %s takes 1 to 4 digits, got %zd", what, k, name,
                         np);
        else if (totals)
            PyErr_Format(PyExc_ValueError, "%s %zd: %s takes 1 to %d totals, got %zd", what, k,
                         name, SK_GROUP_SUM_IN_MAX, np);
        else
            PyErr_Format(PyExc_ValueError, "%s %zd: %s takes exactly 1 param, got %zd", what, k,
                         name, np);
        return 0;
    }
    if (!grow((void **)&s->group_params, cap, s->nparams + (size_t)np + 1, sizeof *s->group_params))
        return 0;
    for (Py_ssize_t j = 0; j < np; j++) {
        long long v;
        if (!int_in(PyTuple_GET_ITEM(params, j), digits ? 1 : 0, digits ? n : INT32_MAX, what, k,
                    digits ? "digit" : "param", &v))
            return 0;
        s->group_params[s->nparams++] = (int32_t)v;
    }
    return 1;
}

/* One group (kind, cells, params), entry k, appended to s. */
static int read_group(PyObject *t, Py_ssize_t k, int n, int ncells, uint32_t *stamp,
                      uint32_t tag, sk_py_sums *s, size_t *cap_cells, size_t *cap_params) {
    PyObject *kind_obj = PyTuple_GET_ITEM(t, 0);
    if (!PyLong_Check(kind_obj) || PyBool_Check(kind_obj)) {
        PyErr_Format(PyExc_TypeError, "group %zd: kind must be an int, not %.100s", k,
                     Py_TYPE(kind_obj)->tp_name);
        return 0;
    }
    int overflow = 0;
    const long long kind = PyLong_AsLongLongAndOverflow(kind_obj, &overflow);
    if (kind == -1 && PyErr_Occurred()) return 0;
    if (overflow || kind < 1 || kind > SK_GROUP_KINDS) {
        PyErr_Format(PyExc_ValueError, "group %zd: unknown kind %S", k, kind_obj);
        return 0;
    }
    PyObject *cells = part_tuple(PyTuple_GET_ITEM(t, 1), "group", k, "cells");
    PyObject *params = cells ? part_tuple(PyTuple_GET_ITEM(t, 2), "group", k, "params") : NULL;
    int ok = params != NULL &&
             read_cells(cells, "group", k, SK_GROUP_MAX_CELLS, ncells, stamp, tag,
                        &s->group_cells, cap_cells, &s->ncells_groups) &&
             read_params(params, (int)kind, k, n, s, cap_params);
    if (ok) {
        s->group_kinds[k] = (uint8_t)kind;
        s->group_cell_ends[k] = (uint32_t)s->ncells_groups;
        s->group_param_ends[k] = (uint32_t)s->nparams;
    }
    Py_XDECREF(cells);
    Py_XDECREF(params);
    return ok;
}

int sk_py_sums_parse(PyObject *linear, PyObject *groups, int n, int ncells, sk_py_sums *s) {
    memset(s, 0, sizeof *s);
    PyObject *lt = sk_py_rule_list(linear, "linear", "sums", 16 * (Py_ssize_t)ncells, n);
    if (lt == NULL && PyErr_Occurred()) return 0;
    PyObject *gt = sk_py_rule_list(groups, "groups", "groups", 16 * (Py_ssize_t)ncells, n);
    if (gt == NULL && PyErr_Occurred()) {
        Py_XDECREF(lt);
        return 0;
    }
    const Py_ssize_t nl = lt ? PyTuple_GET_SIZE(lt) : 0, ng = gt ? PyTuple_GET_SIZE(gt) : 0;
    const size_t most_cells = 64 * (size_t)ncells; /* in all the sums: bounds the memory */
    size_t cap_lc = 0, cap_lk = 0, cap_gc = 0, cap_gp = 0;
    uint32_t *stamp = PyMem_RawCalloc((size_t)ncells, sizeof *stamp);
    s->lin_ends = PyMem_RawMalloc(((size_t)nl + 1) * sizeof *s->lin_ends);
    s->lin_totals = PyMem_RawMalloc(((size_t)nl + 1) * sizeof *s->lin_totals);
    s->group_kinds = PyMem_RawMalloc((size_t)ng + 1);
    s->group_cell_ends = PyMem_RawMalloc(((size_t)ng + 1) * sizeof *s->group_cell_ends);
    s->group_param_ends = PyMem_RawMalloc(((size_t)ng + 1) * sizeof *s->group_param_ends);
    int ok = stamp && s->lin_ends && s->lin_totals && s->group_kinds && s->group_cell_ends &&
             s->group_param_ends;
    if (!ok) PyErr_NoMemory();
    for (Py_ssize_t k = 0; ok && k < nl; k++) {
        PyObject *t = entry(lt, k, "linear sum", 3, "(cells, coefs, total)");
        ok = t != NULL && read_linear(t, k, ncells, stamp, s, &cap_lc, &cap_lk);
        Py_XDECREF(t);
        if (ok && s->ncells_linear > most_cells) {
            PyErr_Format(PyExc_ValueError, "linear: more than %zu cells in all the sums for size %d",
                         most_cells, n);
            ok = 0;
        }
    }
    /* Tags continue past the sums' so that no stamp left by them can match. */
    for (Py_ssize_t k = 0; ok && k < ng; k++) {
        PyObject *t = entry(gt, k, "group", 3, "(kind, cells, params)");
        ok = t != NULL &&
             read_group(t, k, n, ncells, stamp, (uint32_t)(nl + k) + 1, s, &cap_gc, &cap_gp);
        Py_XDECREF(t);
    }
    PyMem_RawFree(stamp);
    Py_XDECREF(lt);
    Py_XDECREF(gt);
    if (!ok) {
        sk_py_sums_free(s);
        return 0;
    }
    s->nlinear = (uint32_t)nl;
    s->ngroups = (uint32_t)ng;
    return 1;
}

void sk_py_sums_attach(const sk_py_sums *s, sk_rules *r) {
    r->nlinear = s->nlinear;
    r->lin_ends = s->lin_ends;
    r->lin_cells = s->lin_cells;
    r->lin_coefs = s->lin_coefs;
    r->lin_totals = s->lin_totals;
    r->ngroups = s->ngroups;
    r->group_kinds = s->group_kinds;
    r->group_cell_ends = s->group_cell_ends;
    r->group_cells = s->group_cells;
    r->group_param_ends = s->group_param_ends;
    r->group_params = s->group_params;
}
