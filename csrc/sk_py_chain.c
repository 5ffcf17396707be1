/*
 * sk_py_chain.c -- SE's chaining engines: ChainMode ("Forcing Chains & Cycles" of one mode on
 * one state), Chainer and ChainRun (forcing-chain runs at nesting level 0, sk_chain.h), InChain
 * (the basic rules inside a stuck dynamic chain, sk_nest.h, with Chainer.nested) and
 * unary_all.  These objects keep scratch space: not thread-safe, the GIL is held throughout.
 */
#include "sk_py.h"

#include "sk_chain.h"
#include "sk_nest.h"

/* ---------------------------------------------------------------------------------------- */

/* ChainMode: SE's "Forcing Chains & Cycles" searches of one mode on one state (sk_chain.h)   */

/* The geometry and state arguments shared by ChainMode and Chainer: n, units, unit_order,
 * masks, checked and flattened into *g (arrays PyMem_Raw-allocated: geom_args_free) and
 * *masks.  0 with an exception on error. */
typedef struct {
    int32_t *ustart, *ucells, *cstart, *cunits;
    uint64_t *masks;
} geom_args;

static void geom_args_free(geom_args *a) {
    SK_FREE_ALL(PyMem_RawFree, a->ustart, a->ucells, a->cstart, a->cunits, a->masks);
}

static int chain_geom_args(int n, PyObject *units, PyObject *order, PyObject *masks_obj,
                           geom_args *a, sk_chain_geom *g);

typedef struct {
    PyObject_HEAD
    sk_chain_mode mode;
    int ready;
} ChainModeObject;

static void ChainMode_release(ChainModeObject *self) {
    if (self->ready) sk_chain_mode_free(&self->mode);
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
    if (!sk_py_csr_arg(units, "units", -1, (uint64_t)ncells, &a->ustart, &a->ucells, &nunits)) goto done;
    if (nunits > INT32_MAX / 64 || a->ustart[nunits] > INT32_MAX / 2) {
        PyErr_SetString(PyExc_ValueError, "units: too many");
        goto done;
    }
    if (!sk_py_csr_arg(order, "unit_order", ncells, (uint64_t)nunits, &a->cstart, &a->cunits, &nlisted))
        goto done;
    for (int cell = 0; cell < ncells; cell++) /* each cell must be in each unit it lists */
        for (int32_t k = a->cstart[cell]; k < a->cstart[cell + 1]; k++) {
            const int32_t u = a->cunits[k];
            if (!sk_py_contains32(a->ucells, a->ustart[u], a->ustart[u + 1], cell)) {
                PyErr_Format(PyExc_ValueError, "unit_order[%d] lists unit %d, which does not "
                                               "hold cell %d", cell, (int)u, cell);
                goto done;
            }
        }
    mt = sk_py_as_tuple(masks_obj, "masks", -1);
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
    const uint64_t bound = sk_py_mask_bound(n);
    for (int i = 0; i < ncells; i++)
        if (!sk_py_rule_int(PyTuple_GET_ITEM(mt, i), bound, "masks", i, &a->masks[i])) goto done;
    *g = (sk_chain_geom){n, ncells, (int)nunits, a->ustart, a->ucells, a->cstart, a->cunits};
    ok = 1;
done:
    Py_XDECREF(mt);
    return ok;
}

/* The pair relations' records (a buffer of int64 records a, b, ab[0..n), ba[0..n), as
 * sk_chain_rel_init reads them) checked: cells in range and distinct, a ascending, masks
 * below 2**n.  1 with *view held (release it) and *nrec set, else 0 with an exception. */
static int relation_records(PyObject *obj, int n, int ncells, Py_buffer *view, size_t *nrec) {
    if (PyObject_GetBuffer(obj, view, PyBUF_SIMPLE) < 0) return 0;
    const size_t width = 2 + 2 * (size_t)n, len = (size_t)view->len;
    const int64_t *rec = view->buf;
    if (len % (width * sizeof *rec) != 0) {
        PyErr_Format(PyExc_ValueError, "relations: records of %zu int64 each", width);
        PyBuffer_Release(view);
        return 0;
    }
    *nrec = len / (width * sizeof *rec);
    const uint64_t bound = sk_py_mask_bound(n); /* 0: any 64-bit mask */
    for (size_t k = 0; k < *nrec; k++) {
        const int64_t *r = rec + k * width;
        int ok = r[0] >= 0 && r[0] < ncells && r[1] >= 0 && r[1] < ncells && r[0] != r[1] &&
                 (k == 0 || r[0] >= rec[(k - 1) * width]);
        for (size_t x = 2; ok && x < width; x++) ok = bound == 0 || (uint64_t)r[x] < bound;
        if (!ok) {
            PyErr_Format(PyExc_ValueError, "relations: record %zu is out of range or order", k);
            PyBuffer_Release(view);
            return 0;
        }
    }
    return 1;
}

/* The optional arguments of ChainMode: the pair relations (NULL: none) and each cell's
 * peers outside its units (NULL: none), checked. */
typedef struct {
    PyObject *relations, *peers;
} chain_extra;

/* What ChainMode and Chainer build from their checked arguments: 0, or -1 with an exception. */
typedef int (*chain_build_fn)(PyObject *self, const sk_chain_geom *g, const uint64_t *masks,
                              int y, int flag, const chain_extra *extra);

/* The __init__ of ChainMode and Chainer: (n, units, unit_order, masks, y, <flag_name>) parsed
 * and checked, then build; *ready is set when it succeeded.  0, or -1 with an exception (also
 * when the object is already initialised). */
static int chain_init(PyObject *self, PyObject *args, PyObject *kwds, const char *what,
                      char *flag_name, int *ready, chain_build_fn build) {
    char *kwlist[] = {"n", "units", "unit_order", "masks", "y", flag_name, "relations", "peers",
                      NULL};
    char format[32];
    snprintf(format, sizeof format, "iOOOpp|$OO:%s", what);
    int n, y, flag;
    PyObject *units, *order, *masks_obj;
    chain_extra extra = {NULL, NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, format, kwlist, &n, &units, &order, &masks_obj,
                                     &y, &flag, &extra.relations, &extra.peers) ||
        !sk_py_init_once(*ready, what))
        return -1;
    if (extra.relations == Py_None) extra.relations = NULL;
    if (extra.peers == Py_None) extra.peers = NULL;
    geom_args a = {0};
    sk_chain_geom g;
    const int ok = chain_geom_args(n, units, order, masks_obj, &a, &g) &&
                   build(self, &g, a.masks, y, flag, &extra) == 0;
    geom_args_free(&a);
    if (ok) *ready = 1;
    return ok ? 0 : -1;
}

static int build_mode(PyObject *self, const sk_chain_geom *g, const uint64_t *masks, int y,
                      int x, const chain_extra *extra) {
    if (!y && !x) {
        PyErr_SetString(PyExc_ValueError, "ChainMode needs y or x links");
        return -1;
    }
    sk_chain_rel rel = {0};
    int32_t *xp_start = NULL, *xp = NULL;
    Py_ssize_t ncsr = 0;
    int rc = -1;
    if (extra->relations != NULL) {
        Py_buffer view;
        size_t nrec;
        if (!relation_records(extra->relations, g->n, g->ncells, &view, &nrec)) goto done;
        const int bad = sk_chain_rel_init(&rel, g->n, g->ncells, view.buf, nrec);
        PyBuffer_Release(&view);
        if (bad) {
            PyErr_NoMemory();
            goto done;
        }
    }
    if (extra->peers != NULL &&
        !sk_py_csr_arg(extra->peers, "peers", g->ncells, (uint64_t)g->ncells, &xp_start, &xp, &ncsr))
        goto done;
    if (sk_chain_mode_init(&((ChainModeObject *)self)->mode, g, masks, y, x,
                           extra->relations != NULL ? &rel : NULL, xp_start, xp)) {
        PyErr_NoMemory();
        goto done;
    }
    rc = 0;
done:
    sk_chain_rel_free(&rel);
    SK_FREE_ALL(PyMem_RawFree, xp_start, xp);
    return rc;
}

static int ChainMode_init(ChainModeObject *self, PyObject *args, PyObject *kwds) {
    return chain_init((PyObject *)self, args, kwds, "ChainMode", "x", &self->ready, build_mode);
}

static int chain_ready(ChainModeObject *self) { return sk_py_ready(self->ready, "ChainMode"); }

static PyObject *ChainMode_sources(ChainModeObject *self, void *closure) {
    (void)closure;
    if (!chain_ready(self)) return NULL;
    return sk_py_int_tuple(self->mode.sources, self->mode.nsources);
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
    if (!sk_py_nargs(nargs, 1, 1, "hints", "cap")) return NULL;
    uint64_t cap;
    if (!chain_ready(self) || !sk_py_as_count(args[0], "cap", 0, &cap)) return NULL;
    sk_chain_out out = {NULL, 0, 0};
    PyObject *list = NULL;
    if (sk_chain_hints(&self->mode, (int64_t)cap, &out)) {
        PyErr_NoMemory();
        goto done;
    }
    list = PyList_New(0);
    for (size_t k = 0; list != NULL && k < out.len;) {
        const int32_t len = out.data[k + 2];
        PyObject *path = sk_py_int_tuple(out.data + k + 3, len);
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
    if (!sk_py_nargs(nargs, 4, 4, "best", "cap, base_cycle, base_chain, thresholds")) return NULL;
    uint64_t cap, b0, b1;
    if (!chain_ready(self) || !sk_py_as_count(args[0], "cap", 0, &cap) ||
        !sk_py_rule_int(args[1], 1u << 20, "base_cycle", 0, &b0) ||
        !sk_py_rule_int(args[2], 1u << 20, "base_chain", 0, &b1))
        return NULL;
    PyObject *tt = sk_py_as_tuple(args[3], "thresholds", -1);
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
        if (!sk_py_rule_int(PyTuple_GET_ITEM(tt, i), 1u << 30, "thresholds", i, &v)) {
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
    PyObject *path = sk_py_int_tuple(out.data + 4, out.data[3]);
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

PyDoc_STRVAR(ChainMode_doc,
             "ChainMode(n, units, unit_order, masks, y, x)\n--\n\nSE's \"Forcing Chains & "
             "Cycles\" searches of one mode (y / x: the link kinds)\non the candidates masks "
             "(ncells ints, bit d-1 = digit d); units: the shape's units\n(cell lists); "
             "unit_order: per cell its units in SE's order (box, row, column,\nextra). The "
             "Python specification is sudokit.logic.cycles._Mode. Not thread-safe:\n"
             "hints() uses the object's scratch space (the GIL is held throughout).");

SK_PY_CLASS(ChainMode, {Py_tp_getset, (void *)ChainMode_getset},
            {Py_tp_methods, (void *)ChainMode_methods});

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

static void Chainer_release(ChainerObject *self) {
    if (self->ready) sk_chainer_free(&self->chainer);
}

static void ChainRun_release(ChainRunObject *self) {
    SK_FREE_ALL(PyMem_RawFree, self->order, self->cause, self->par_start, self->par, self->anc,
                               self->end_masks, self->end_counts);
    Py_XDECREF(self->index);
    Py_XDECREF(self->absurd);
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
static PyObject *chain_run_new(PyTypeObject *type, const sk_chainer *c) {
    ChainRunObject *r = PyObject_New(ChainRunObject, type);
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
        if (sk_py_dict_put(r->index, c->order[s], PyLong_FromSsize_t((Py_ssize_t)s), 0)) goto fail;
    if (c->absurd) {
        PyObject *on_bits = bits_to_int(c->ab_on_bits, W), *off_bits = NULL, *prs = NULL;
        if (on_bits != NULL) off_bits = bits_to_int(c->ab_off_bits, W);
        if (off_bits != NULL) prs = sk_py_int_tuple(c->ab_prs.data, (Py_ssize_t)c->ab_prs.len);
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

static int build_chainer(PyObject *self, const sk_chain_geom *g, const uint64_t *masks, int y,
                         int dynamic, const chain_extra *extra) {
    if (extra->relations != NULL || extra->peers != NULL) {
        PyErr_SetString(PyExc_TypeError, "Chainer takes its relations by relate()");
        return -1;
    }
    if (!sk_chainer_init(&((ChainerObject *)self)->chainer, g, masks, y, dynamic)) return 0;
    PyErr_NoMemory();
    return -1;
}

static int Chainer_init(ChainerObject *self, PyObject *args, PyObject *kwds) {
    return chain_init((PyObject *)self, args, kwds, "Chainer", "dynamic", &self->ready,
                      build_chainer);
}

static PyObject *Chainer_run(ChainerObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (!sk_py_nargs(nargs, 1, 1, "run", "start")) return NULL;
    if (!sk_py_ready(self->ready, "Chainer")) return NULL;
    uint64_t start;
    if (!sk_py_rule_int(args[0], (uint64_t)self->chainer.npot, "start", 0, &start)) return NULL;
    if (sk_chainer_run(&self->chainer, (int32_t)start)) return PyErr_NoMemory();
    return chain_run_new(sk_state_of_type(Py_TYPE(self))->ChainRun, &self->chainer);
}

/* A tuple of `count` ints below 2**30 into v[]: 0 with an exception on error. */
static int small_ints(PyObject *obj, const char *what, int32_t *v, Py_ssize_t max,
                      Py_ssize_t *count) {
    PyObject *t = sk_py_as_tuple(obj, what, -1);
    if (t == NULL) return 0;
    *count = PyTuple_GET_SIZE(t);
    int ok = *count <= max;
    if (!ok) PyErr_Format(PyExc_ValueError, "%s: at most %zd items", what, max);
    for (Py_ssize_t i = 0; ok && i < *count; i++) {
        uint64_t x = 0;
        ok = sk_py_rule_int(PyTuple_GET_ITEM(t, i), (uint64_t)1 << 30, what, i, &x);
        v[i] = (int32_t)x;
    }
    Py_DECREF(t);
    return ok;
}

/* The rule arguments of Chainer.best / Chainer.nested (nishio, multiple, sort_keys: 4 ints),
 * checked on a ready chainer.  0 with an exception on error. */
static int chainer_rule_args(ChainerObject *self, PyObject *nishio_obj, PyObject *multiple_obj,
                             PyObject *keys_obj, int *nishio, int *multiple, int32_t keys[4]) {
    if (!sk_py_ready(self->ready, "Chainer")) return 0;
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
    if (!sk_py_nargs(nargs, 5, 5, "best", "nishio, multiple, base10, thresholds, sort_keys"))
        return NULL;
    int nishio, multiple;
    uint64_t base10;
    int32_t thr[64], keys[4];
    Py_ssize_t nthr;
    if (!chainer_rule_args(self, args[0], args[1], args[4], &nishio, &multiple, keys) ||
        !sk_py_rule_int(args[2], (uint64_t)1 << 20, "base10", 0, &base10) ||
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
    return sk_py_int_tuple(self->par + self->par_start[s], self->par_start[s + 1] - self->par_start[s]);
}

static PyObject *ChainRun_causes(ChainRunObject *self, PyObject *unused) {
    (void)unused;
    PyObject *causes = PyDict_New();
    for (int32_t s = 0; causes != NULL && s < self->nslots; s++)
        if (self->cause[s] != SK_CHAIN_NO_CAUSE &&
            sk_py_dict_put(causes, self->order[s], PyLong_FromLong(self->cause[s]), 0))
            Py_CLEAR(causes);
    if (causes != NULL && self->ab_cause != SK_CHAIN_NO_CAUSE && /* causes.setdefault(r, why) */
        sk_py_dict_put(causes, self->ab_new, PyLong_FromLong(self->ab_cause), 1))
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

/* Chainer.relate(records): sk_chainer_relate on the records (relation_records); once,
 * before the first run. */
static PyObject *Chainer_relate(ChainerObject *self, PyObject *arg) {
    if (!sk_py_ready(self->ready, "Chainer")) return NULL;
    sk_chainer *c = &self->chainer;
    if (c->rel.start != NULL || c->gen != 0) {
        PyErr_SetString(PyExc_ValueError, "relate: once, before the first run");
        return NULL;
    }
    Py_buffer view;
    size_t nrec;
    if (!relation_records(arg, c->n, c->ncells, &view, &nrec)) return NULL;
    const int rc = sk_chainer_relate(c, view.buf, nrec);
    PyBuffer_Release(&view);
    if (rc) return PyErr_NoMemory();
    Py_RETURN_NONE;
}

static PyMethodDef Chainer_methods[] = {
    {"relate", (PyCFunction)Chainer_relate, METH_O,
     "relate(records, /)\n--\n\nThe shape's pair relations (a buffer of int64 records a, "
     "b, ab[0..n), ba[0..n):\npairlinks.PairLinks.related); once, before the first run."},
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
    {"index", Py_T_OBJECT_EX, offsetof(ChainRunObject, index), Py_READONLY,
     "potential -> slot, in the order reached"},
    {"absurd", Py_T_OBJECT_EX, offsetof(ChainRunObject, absurd), Py_READONLY,
     "None, or the contradiction ((on, on_bits), (off, off_bits), new, parents)"},
    {NULL, 0, 0, 0, NULL},
};

PyDoc_STRVAR(Chainer_doc,
             "Chainer(n, units, unit_order, masks, y, dynamic)\n--\n\nSE's forcing-chain "
             "runs at nesting level 0 on the candidates masks (static\nX+Y links, or dynamic "
             "with y / X links only); the Python specification is\n"
             "sudokit.logic.forcing._Run.  Not thread-safe (the GIL is held).");

SK_PY_CLASS(Chainer, {Py_tp_methods, (void *)Chainer_methods});

PyDoc_STRVAR(ChainRun_doc,
             "The outcome of one Chainer.run (made only by it).");

SK_PY_TYPE(ChainRun, Py_TPFLAGS_DISALLOW_INSTANTIATION,
           {Py_tp_doc, (void *)ChainRun_doc}, {Py_tp_methods, (void *)ChainRun_methods},
           {Py_tp_members, (void *)ChainRun_members});

/* ---------------------------------------------------------------------------------------- */
/* InChain: SE's basic rules inside a stuck dynamic forcing chain (sk_nest.h)                 */

typedef struct {
    PyObject_HEAD
    sk_inchain rules;
    uint64_t *save, *masks; /* the arguments of one find() */
    sk_chain_out out;
    int ready;
} InChainObject;

static void InChain_release(InChainObject *self) {
    if (self->ready) sk_inchain_free(&self->rules);
    PyMem_RawFree(self->save);
    PyMem_RawFree(self->masks);
    free(self->out.data);
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
    if (!sk_py_init_once(self->ready, "InChain")) return -1;
    if (n < 1 || n > 64 || n > SK_MAX_N) {
        PyErr_Format(PyExc_ValueError, "n must be in 1..%d, got %d", n > 64 ? 64 : SK_MAX_N, n);
        return -1;
    }
    const int ncells = n * n;
    if (!sk_py_csr_arg(units, "units", -1, (uint64_t)ncells, &ustart, &ucells, &nunits)) goto done;
    for (Py_ssize_t u = 0; u < nunits; u++)
        if (ustart[u + 1] - ustart[u] != n) {
            PyErr_Format(PyExc_ValueError, "units[%zd] must hold %d cells", u, n);
            goto done;
        }
    if (!sk_py_csr_arg(lock_obj, "lock_pairs", -1, (uint64_t)nunits, &lstart, &lock, &nlock)) goto done;
    for (Py_ssize_t i = 0; i < nlock; i++)
        if (lstart[i + 1] - lstart[i] != 2) {
            PyErr_Format(PyExc_ValueError, "lock_pairs[%zd] must be a pair of units", i);
            goto done;
        }
    if (!sk_py_csr_arg(lines_obj, "lines", 3, (uint64_t)nunits, &lnstart, &lines, &nlines)) goto done;
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
    SK_FREE_ALL(PyMem_RawFree, ustart, ucells, lstart, lock, lnstart, lines);
    return rc;
}

/* InChain.find(save, masks[, first]): sk_inchain_find, as a list of (potential, parents)
 * (empty when no rule finds anything). */
static PyObject *InChain_find(InChainObject *self, PyObject *const *args, Py_ssize_t nargs) {
    uint64_t first = 0;
    if (!sk_py_nargs(nargs, 2, 3, "find", "save, masks[, first]")) return NULL;
    if (nargs == 3 && !sk_py_rule_int(args[2], 4, "first", 0, &first)) return NULL;
    if (!sk_py_ready(self->ready, "InChain")) return NULL;
    const int ncells = self->rules.ncells, n = self->rules.n;
    if (!sk_py_masks(args[0], "save", ncells, sk_py_mask_bound(n), self->save) ||
        !sk_py_masks(args[1], "masks", ncells, sk_py_mask_bound(n), self->masks))
        return NULL;
    self->out.len = 0;
    if (sk_inchain_find(&self->rules, self->save, self->masks, (int)first, &self->out) == -2)
        return PyErr_NoMemory();
    PyObject *list = PyList_New(0);
    const int32_t *v = self->out.data;
    for (size_t i = 0; list != NULL && i < self->out.len; i += 2 + (size_t)v[i + 1]) {
        PyObject *prs = sk_py_int_tuple(v + i + 2, v[i + 1]);
        PyObject *item = prs == NULL ? NULL : Py_BuildValue("(iN)", v[i], prs);
        if (item == NULL || PyList_Append(list, item) < 0) Py_CLEAR(list);
        Py_XDECREF(item);
    }
    return list;
}

/* Chainer.nested(multiple, sort_keys, save, shape): sk_nest_rule, as a list of
 * (complexity, removals, parents, chains). */
static PyObject *Chainer_nested(ChainerObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (!sk_py_nargs(nargs, 4, 4, "nested", "multiple, sort_keys, save, shape")) return NULL;
    int nishio, multiple;
    int32_t keys[4];
    if (!chainer_rule_args(self, Py_False, args[0], args[1], &nishio, &multiple, keys))
        return NULL;
    PyTypeObject *in_chain = sk_state_of_type(Py_TYPE(self))->InChain;
    if (!PyObject_TypeCheck(args[3], in_chain) || !((InChainObject *)args[3])->ready) {
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
    if (c->rel.start != NULL) { /* sk_nest.c chains through the units' links only */
        PyErr_SetString(PyExc_ValueError, "nested: the chainer has pair relations");
        return NULL;
    }
    if (!sk_py_masks(args[2], "save", c->ncells, sk_py_mask_bound(c->n), shape->save)) return NULL;
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
            parts[part] = part == 0 || parts[0] != NULL ? sk_py_int_tuple(v + at, k) : NULL;
            at += (size_t)k;
        }
        const int32_t nchains = v[at++];
        if (parts[1] != NULL) parts[2] = PyTuple_New(nchains);
        for (int32_t j = 0; j < nchains; j++) { /* every chain's items are skipped over */
            const int32_t len = v[at++];
            PyObject *chain = parts[2] != NULL ? sk_py_int_tuple(v + at, len) : NULL;
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

PyDoc_STRVAR(InChain_doc,
             "InChain(n, units, lock_pairs, lines)\n--\n\nSE's basic rules inside a stuck "
             "dynamic forcing chain (sk_nest.h): pointing/claiming over lock_pairs, hidden "
             "and naked pairs over lines[0], X-Wings over rows lines[1] and columns lines[2].");

SK_PY_CLASS(InChain, {Py_tp_methods, (void *)InChain_methods});

/* unary_all(modes, base10, sort_keys, thresholds, cap): sk_chain_unary_all on three ready
 * ChainMode objects of one state, as a list of (kind, complexity, removals, path). */
static PyObject *core_unary_all(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    const sk_state *st = sk_state_of(module);
    if (!sk_py_nargs(nargs, 5, 5, "unary_all", "modes, base10, sort_keys, thresholds, cap"))
        return NULL;
    PyObject *mt = sk_py_as_tuple(args[0], "modes", -1);
    if (mt == NULL) return NULL;
    sk_chain_mode *modes[3];
    int ok = PyTuple_GET_SIZE(mt) == 3;
    if (!ok) PyErr_SetString(PyExc_ValueError, "modes must hold 3 ChainMode objects");
    for (int i = 0; ok && i < 3; i++) {
        PyObject *o = PyTuple_GET_ITEM(mt, i);
        ok = PyObject_TypeCheck(o, st->ChainMode) && ((ChainModeObject *)o)->ready;
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
        !small_ints(args[3], "thresholds", thr, 64, &nthr) || !sk_py_as_count(args[4], "cap", 0, &cap))
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
        PyObject *rem = sk_py_int_tuple(v + at + 3, k), *path = NULL, *item = NULL;
        if (rem != NULL) path = sk_py_int_tuple(v + at + 4 + k, len);
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

PyMethodDef sk_py_chain_functions[] = {
    {"unary_all", (PyCFunction)(void (*)(void))core_unary_all, METH_FASTCALL, unary_all_doc},
    {NULL, NULL, 0, NULL},
};
