/*
 * sk_py.c -- the binding's shared helpers (contracts in sk_py.h): the init guards of its
 * types, the interrupt poll of the C searches, and the checks that turn Python arguments into
 * C arrays with a message naming the bad entry.
 */
#include "sk_py.h"

int sk_py_init_once(int ready, const char *name) {
    if (ready) PyErr_Format(PyExc_TypeError, "%s is already initialised", name);
    return !ready;
}

int sk_py_ready(int ready, const char *name) {
    if (!ready) PyErr_Format(PyExc_ValueError, "%s is not initialised", name);
    return ready;
}

/* ---------------------------------------------------------------------------------------- */
/* Interrupts: the poll callback of the C search (sk_poll_fn)                                 */

/* Only the main thread runs signal handlers, so only there is the GIL worth taking back: other
 * threads (a server's workers) would wait for it for nothing. */
void sk_py_poll_release(py_poll *p, const sk_state *st) {
    p->signals = st->main_thread != 0 && PyThread_get_thread_ident() == st->main_thread;
    p->raised = 0;
    p->stop = 0;
    p->save = PyEval_SaveThread();
}

void sk_py_poll_acquire(py_poll *p) { PyEval_RestoreThread(p->save); }

sk_work *sk_py_release_work(GeometryObject *g, py_poll *p, const sk_state *st) {
    sk_work *w = sk_py_work_take(g);
    Py_INCREF(g);
    sk_py_poll_release(p, st);
    return w != NULL ? w : sk_work_new(g->geom); /* a new one without the GIL */
}

void sk_py_acquire_work(GeometryObject *g, sk_work *w, py_poll *p) {
    sk_py_poll_acquire(p);
    sk_py_work_give(g, w);
    Py_DECREF(g);
}

int sk_py_poll(void *ctx) {
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

int sk_py_stop_flag(void *ctx) {
    return __atomic_load_n(&((py_poll *)ctx)->stop, __ATOMIC_RELAXED);
}

/* ---------------------------------------------------------------------------------------- */
/* Arguments and arrays                                                                       */

int sk_py_nargs(Py_ssize_t nargs, Py_ssize_t lo, Py_ssize_t hi, const char *name,
                const char *params) {
    if (nargs >= lo && nargs <= hi) return 1;
    if (lo == hi)
        PyErr_Format(PyExc_TypeError, "%s() takes %zd argument%s (%s), got %zd", name, lo,
                     lo == 1 ? "" : "s", params, nargs);
    else
        PyErr_Format(PyExc_TypeError, "%s() takes %zd or %zd arguments (%s), got %zd", name, lo,
                     hi, params, nargs);
    return 0;
}

PyObject *sk_py_as_tuple(PyObject *obj, const char *what, Py_ssize_t index) {
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

PyObject *sk_py_rule_list(PyObject *obj, const char *name, const char *items, Py_ssize_t most,
                          int n) {
    if (obj == Py_None) return NULL;
    PyObject *t = sk_py_as_tuple(obj, name, -1);
    if (t != NULL && PyTuple_GET_SIZE(t) > most) {
        PyErr_Format(PyExc_ValueError, "%s: %zd %s, at most %zd for size %d", name,
                     PyTuple_GET_SIZE(t), items, most, n);
        Py_CLEAR(t);
    }
    return t;
}

PyObject *sk_py_rule_entry(PyObject *list, Py_ssize_t i, const char *name, Py_ssize_t size,
                           const char *form) {
    PyObject *t = sk_py_as_tuple(PyTuple_GET_ITEM(list, i), name, i);
    if (t != NULL && PyTuple_GET_SIZE(t) != size) {
        PyErr_Format(PyExc_ValueError, "%s[%zd] must be (%s), got %zd items", name, i, form,
                     PyTuple_GET_SIZE(t));
        Py_CLEAR(t);
    }
    return t;
}

int sk_py_rule_int(PyObject *obj, uint64_t bound, const char *what, Py_ssize_t index,
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

int sk_py_as_count(PyObject *obj, const char *name, uint64_t minimum, uint64_t *out) {
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

int sk_py_cells_arg(PyObject *obj, const char *name, int ncells, int n, int single,
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

void *sk_py_index_array(PyObject *obj, const char *name, long bound, int wide, Py_ssize_t *len) {
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

int sk_py_csr_arg(PyObject *obj, const char *what, Py_ssize_t count, uint64_t bound,
                   int32_t **start, int32_t **items, Py_ssize_t *count_out) {
    *start = NULL;
    *items = NULL;
    PyObject *outer = sk_py_as_tuple(obj, what, -1);
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
        PyObject *inner = sk_py_as_tuple(PyTuple_GET_ITEM(outer, i), what, i);
        if (inner == NULL) goto done;
        for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(inner); j++) {
            uint64_t v;
            if (!sk_py_rule_int(PyTuple_GET_ITEM(inner, j), bound, what, i, &v)) {
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

int sk_py_contains32(const int32_t *v, int32_t from, int32_t to, int32_t x) {
    for (int32_t i = from; i < to; i++)
        if (v[i] == x) return 1;
    return 0;
}

PyObject *sk_py_int_tuple(const int32_t *v, Py_ssize_t len) {
    PyObject *t = PyTuple_New(len);
    for (Py_ssize_t j = 0; t != NULL && j < len; j++) {
        PyObject *x = PyLong_FromLong(v[j]);
        if (x == NULL) Py_CLEAR(t);
        else PyTuple_SET_ITEM(t, j, x);
    }
    return t;
}

PyObject *sk_py_pair_tuple(const int32_t *a, const int32_t *b, size_t step, Py_ssize_t n) {
    PyObject *t = PyTuple_New(n);
    for (Py_ssize_t i = 0; t != NULL && i < n; i++) {
        PyObject *pair = Py_BuildValue("(ii)", (int)a[(size_t)i * step], (int)b[(size_t)i * step]);
        if (pair == NULL) Py_CLEAR(t);
        else PyTuple_SET_ITEM(t, i, pair);
    }
    return t;
}

int sk_py_dict_put(PyObject *d, long key, PyObject *value, int setdefault) {
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

int sk_py_masks(PyObject *seq, const char *what, int ncells, uint64_t bound, uint64_t *out) {
    PyObject *fast = PyList_Check(seq) || PyTuple_Check(seq) ? Py_NewRef(seq)
                                                             : sk_py_as_tuple(seq, what, -1);
    if (fast == NULL) return 0;
    int ok = PySequence_Fast_GET_SIZE(fast) == ncells;
    if (!ok)
        PyErr_Format(PyExc_ValueError, "%s must hold %d items, got %zd", what, ncells,
                     PySequence_Fast_GET_SIZE(fast));
    PyObject **items = PySequence_Fast_ITEMS(fast);
    for (int i = 0; ok && i < ncells; i++) ok = sk_py_rule_int(items[i], bound, what, i, &out[i]);
    Py_DECREF(fast);
    return ok;
}
