/*
 * sk_py_logic.c -- the C searches of the human techniques, one object per shape: HumanShape
 * (the cheap techniques, sk_human.h), Exclusion (Aligned Pair / Triple Exclusion, sk_excl.h)
 * and Uniq (unique rectangles / loops and BUG cells, sk_uniq.h).  Each checks its tables once
 * in __init__, so that the searches index them without checks.
 */
#include "sk_py.h"

#include "sk_alt.h"
#include "sk_excl.h"
#include "sk_human.h"
#include "sk_uniq.h"

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

static void HumanShape_release(HumanShapeObject *self) {
    HumanShape_clear(self);
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
    if (!sk_py_init_once(self->ready, "HumanShape")) return -1;
    if (n < 1 || n > SK_MAX_N) {
        PyErr_Format(PyExc_ValueError, "n must be in 1..%d, got %d", SK_MAX_N, n);
        return -1;
    }
    const int ncells = n * n;
    Py_ssize_t nunits = 0, count, ncross[2] = {0, 0};
    int32_t *kstart = NULL, *bstart = NULL, *bitems = NULL;
    int rc = -1;
    if (!sk_py_csr_arg(units, "units", -1, (uint64_t)ncells, &self->ustart, &self->ucells, &nunits))
        goto done;
    if (!sk_py_csr_arg(peers, "peers", ncells, (uint64_t)ncells, &self->pstart, &self->peers, &count))
        goto done;
    if (!sk_py_csr_arg(cell_units, "cell_units", ncells, (uint64_t)nunits, &self->cstart,
                 &self->cunits, &count))
        goto done;
    for (int p = 0; p < 2; p++) {
        const char *what = p ? "pointing" : "claiming";
        if (!sk_py_csr_arg(cross_obj[p], what, -1, (uint64_t)nunits, &self->cross_start[p],
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
        PyObject *t = sk_py_as_tuple(flat[j], j ? "boxes" : "kinds", -1);
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
    if (!sk_py_csr_arg(rows[0], "kinds", nunits, (uint64_t)INT32_MAX, &kstart, &self->kind, &count))
        goto rows_done;
    if (!sk_py_csr_arg(rows[1], "boxes", nunits, 2, &bstart, &bitems, &count)) goto rows_done;
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
            if (!sk_py_contains32(self->ucells, self->ustart[u], self->ustart[u + 1], cell) ||
                sk_py_contains32(self->cunits, self->cstart[cell], k, u)) {
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

static PyObject *HumanShape_find(HumanShapeObject *self, PyObject *const *args,
                                 Py_ssize_t nargs) {
    if (!sk_py_nargs(nargs, 4, 5, "find", "kind, k, masks, values[, limit]")) return NULL;
    if (!sk_py_ready(self->ready, "HumanShape")) return NULL;
    const long kind = PyLong_AsLong(args[0]);
    if (kind == -1 && PyErr_Occurred()) return NULL; /* before k's __index__ can run */
    const long k = PyLong_AsLong(args[1]);
    if (k == -1 && PyErr_Occurred()) return NULL;
    const int sets = (kind >= 5 && kind <= 8) || kind == 11;
    /* k of the other kinds: 0 .. top */
    const long top = kind == 12 || kind == 15 ? 2 : kind >= 13 ? 0 : 1; /* 13, 14, 16: 0 */
    if (kind < 0 || kind > 16 || (sets ? k < 2 || k > 4 : k < 0 || k > top)) {
        PyErr_Format(PyExc_ValueError, "find: no search (%ld, %ld)", kind, k);
        return NULL;
    }
    long limit = 0;
    if (nargs == 5) {
        limit = PyLong_AsLong(args[4]);
        if (limit == -1 && PyErr_Occurred()) return NULL;
        if (limit < 0) {
            PyErr_SetString(PyExc_ValueError, "find: limit must be >= 0");
            return NULL;
        }
    }
    const sk_human_geom *g = &self->g;
    if (kind == 10 && g->ncells > SK_ALS_MAX_CELLS) {
        PyErr_Format(PyExc_ValueError, "find: ALS-XZ needs at most %d cells", SK_ALS_MAX_CELLS);
        return NULL;
    }
    uint64_t small[256], *masks = small, *vals = NULL;
    uint8_t *values = NULL;
    PyObject *result = NULL;
    sk_hits hits = {NULL, 0, 0, 1, (size_t)limit};
    if (g->ncells > 128) {
        masks = PyMem_Malloc(2 * (size_t)g->ncells * sizeof *masks);
        if (masks == NULL) return PyErr_NoMemory();
    }
    vals = masks + g->ncells;
    const uint64_t bound = sk_py_mask_bound(g->n);
    if (!sk_py_masks(args[2], "masks", g->ncells, bound, masks)) goto done;
    int rc;
    switch (kind) {
    case 0:
        if (!sk_py_masks(args[3], "values", g->ncells, (uint64_t)g->n + 1, vals)) goto done;
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
    case 9: rc = sk_wings(g, masks, (int)k, &hits); break;
    case 10: rc = sk_als_xz(g, masks, &hits); break;
    case 11: rc = sk_finned_fish(g, masks, (int)k, &hits); break;
    case 12: rc = sk_two_links(g, masks, (int)k, &hits); break;
    case 13: rc = sk_empty_rectangles(g, masks, &hits); break;
    case 14: rc = sk_w_wings(g, masks, &hits); break;
    case 15: rc = sk_alt_chains(g, masks, (int)k, &hits); break;
    default: rc = sk_colouring(g, masks, &hits); break;
    }
    Py_ssize_t w = hits.width, count = (Py_ssize_t)hits.len / w;
    if (limit && count >= limit) count = limit; /* stopped there, not out of memory */
    else if (rc) {
        PyErr_NoMemory();
        goto done;
    }
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
     "find(kind, k, masks, values, limit=0, /)\n--\n\nThe hits of one search on the state "
     "(masks: ncells candidate masks; values:\nncells digits, read by kind 0 only), as a tuple "
     "of int tuples in the order\nthe Python finder yields its steps; only the first limit "
     "of them when limit > 0\n(the search stops there).  kind, k: 0 Full House; "
     "1 hidden singles\n(k = boxes); 2 naked singles; 3 locks, 4 direct locks (k = pointing); "
     "5 naked,\n6 hidden, 7 direct hidden sets, 8 basic fish (k = size 2..4); 9 wings (k = "
     "xyz);\n10 ALS-XZ (k = 0; at most 256 cells); 11 finned fish (k = size 2..4);\n12 two strong links (k = 0 Skyscraper, 1 2-String Kite, 2 Turbot Fish);\n13 empty rectangles, 14 W-Wings (k = 0);\n15 alternating chains (k = 0 X-Chain, 1 XY-Chain, 2 AIC);\n16 Simple Colouring (k = 0).\nThe fields of each hit: csrc/sk_human.h."},
    {NULL, NULL, 0, NULL},
};

PyDoc_STRVAR(HumanShape_doc,
             "HumanShape(n, units, kinds, boxes, peers, cell_units, claiming, pointing)\n--\n\n"
             "A shape's tables for the searches of the cheap human techniques\n(csrc/sk_human.h; "
             "the Python specification is sudokit.logic._human):\nunits (cell lists), a kind id "
             "and a box flag per unit, peers and units per\ncell, and the (base, cover) pairs "
             "of claiming and pointing.  Immutable.");

SK_PY_CLASS(HumanShape, {Py_tp_methods, (void *)HumanShape_methods});

/* ---------------------------------------------------------------------------------------- */
/* Exclusion: Aligned Pair / Triple Exclusion searches of one shape (sk_excl.h)               */

typedef struct {
    PyObject_HEAD
    sk_excl_geom geom;
    int ready;
} ExclusionObject;

static void Exclusion_release(ExclusionObject *self) {
    if (self->ready) sk_excl_geom_free(&self->geom);
}

/* Exclusion(n, peers): n digits, peers[c] the peers of cell c (SK_EXCL_MAX_CELLS at most). */
static int Exclusion_init(ExclusionObject *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"n", "peers", NULL};
    int n;
    PyObject *peers;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iO:Exclusion", kwlist, &n, &peers)) return -1;
    if (!sk_py_init_once(self->ready, "Exclusion")) return -1;
    if (n < 1 || n > SK_EXCL_MAX_N) {
        PyErr_Format(PyExc_ValueError, "n must be in 1..%d, got %d", SK_EXCL_MAX_N, n);
        return -1;
    }
    PyObject *pt = sk_py_as_tuple(peers, "peers", -1);
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
    if (!sk_py_csr_arg(pt, "peers", ncells, (uint64_t)ncells, &start, &items, &count)) goto done;
    for (int c = 0; c < (int)ncells; c++)
        if (sk_py_contains32(items, start[c], start[c + 1], c)) {
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

/* The step as (cursor, cells, excluders, ((cell, digit), ...)). */
static PyObject *excl_step_tuple(const sk_excl_step *st) {
    PyObject *cells = sk_py_int_tuple(st->cells, st->size), *excl = NULL, *elims = NULL, *out = NULL;
    if (cells != NULL) excl = sk_py_int_tuple(st->excl, st->nexcl);
    if (excl != NULL) elims = sk_py_pair_tuple(st->elim_cell, st->elim_digit, 1, st->nelim);
    if (elims != NULL) out = Py_BuildValue("(LOOO)", (long long)st->cursor, cells, excl, elims);
    Py_XDECREF(cells);
    Py_XDECREF(excl);
    Py_XDECREF(elims);
    return out;
}

/* Exclusion.find(masks, degree, before, cursor): sk_excl_next. */
static PyObject *Exclusion_find(ExclusionObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (!sk_py_nargs(nargs, 4, 4, "find", "masks, degree, before, cursor")) return NULL;
    if (!sk_py_ready(self->ready, "Exclusion")) return NULL;
    const sk_excl_geom *g = &self->geom;
    uint64_t degree, cursor;
    if (!sk_py_as_count(args[1], "degree", 2, &degree) || !sk_py_as_count(args[3], "cursor", 0, &cursor))
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
    const uint64_t bound = sk_py_mask_bound(g->n);
    if (!sk_py_masks(args[0], "masks", g->ncells, bound, masks) ||
        (before != NULL && !sk_py_masks(args[2], "before", g->ncells, bound, before)))
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

PyDoc_STRVAR(Exclusion_doc,
             "Exclusion(n, peers)\n--\n\nAligned Pair / Triple Exclusion searches on one "
             "shape (n digits, the peers of\neach cell); the Python specification is "
             "sudokit.logic.exclusion._search.\nImmutable once built.");

SK_PY_CLASS(Exclusion, {Py_tp_methods, (void *)Exclusion_methods});

/* ---------------------------------------------------------------------------------------- */
/* Uniq: unique rectangles / loops and the BUG cells on one shape (sk_uniq.h)                 */

typedef struct {
    PyObject_HEAD
    sk_uniq_geom g;
    int32_t *ustart, *ucells, *cstart, *cunits, *kind, *pstart, *pcells;
    int ready;
} UniqObject;

static void Uniq_release(UniqObject *self) {
    SK_FREE_ALL(PyMem_RawFree, self->ustart, self->ucells, self->cstart, self->cunits, self->kind,
                               self->pstart, self->pcells);
}

static int Uniq_init(UniqObject *self, PyObject *args, PyObject *kwds) {
    char *kwlist[] = {"n", "units", "cell_units", "kinds", "peers", NULL};
    int n;
    PyObject *units, *cell_units, *kinds, *peers;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iOOOO:Uniq", kwlist, &n, &units, &cell_units,
                                     &kinds, &peers))
        return -1;
    if (!sk_py_init_once(self->ready, "Uniq")) return -1;
    if (n < 1 || n > SK_UNIQ_MAX_N) {
        PyErr_Format(PyExc_ValueError, "n must be in 1..%d, got %d", SK_UNIQ_MAX_N, n);
        return -1;
    }
    const int ncells = n * n;
    Py_ssize_t nunits = 0, count = 0;
    int32_t *kstart = NULL;
    int rc = -1;
    if (!sk_py_csr_arg(units, "units", -1, (uint64_t)ncells, &self->ustart, &self->ucells, &nunits))
        goto done;
    if (!sk_py_csr_arg(cell_units, "cell_units", ncells, (uint64_t)nunits, &self->cstart,
                 &self->cunits, &count) ||
        !sk_py_csr_arg(peers, "peers", ncells, (uint64_t)ncells, &self->pstart, &self->pcells, &count))
        goto done;
    PyObject *one = PyTuple_Pack(1, kinds); /* kinds as one "row" of ints */
    if (one == NULL) goto done;
    const int ok = sk_py_csr_arg(one, "kinds", 1, (uint64_t)INT32_MAX, &kstart, &self->kind, &count);
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
            if (!sk_py_contains32(self->ucells, self->ustart[u], self->ustart[u + 1], cell)) {
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

/* One sk_uniq_find as (cells, pm, kind, hidden, bonus, unit, group, digits, elims). */
static PyObject *uniq_find_tuple(const sk_uniq_out *out, const sk_uniq_find *f) {
    const int32_t *e = out->ints + f->elim_at;
    PyObject *cells = sk_py_int_tuple(f->cells, f->len), *group = NULL, *elims = NULL;
    if (cells != NULL) group = sk_py_int_tuple(out->ints + f->group_at, f->ngroup);
    if (group != NULL) elims = sk_py_pair_tuple(e, e + 1, 2, f->nelim);
    if (elims == NULL) {
        Py_XDECREF(cells);
        Py_XDECREF(group);
        return NULL;
    }
    return Py_BuildValue("(NKiiiiNKN)", cells, (unsigned long long)f->pm, f->kind, f->hidden,
                         f->bonus, f->unit, group, (unsigned long long)f->digits, elims);
}

static PyObject *Uniq_steps(UniqObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (!sk_py_nargs(nargs, 3, 3, "steps", "masks, changed, before")) return NULL;
    const int nc = self->g.ncells;
    uint64_t *masks = PyMem_RawCalloc((size_t)(nc > 0 ? nc : 1), 2 * sizeof *masks);
    uint8_t *changed = NULL;
    sk_uniq_out out = {0};
    PyObject *res = NULL, *before = NULL;
    if (masks == NULL) return PyErr_NoMemory();
    if (!sk_py_ready(self->ready, "Uniq") ||
        !sk_py_masks(args[0], "masks", self->g.ncells, sk_py_mask_bound(self->g.n), masks))
        goto done;
    if (args[1] != Py_None) { /* delta.cells as little-endian bytes, delta.before */
        if (!PyBytes_Check(args[1]) || PyBytes_GET_SIZE(args[1]) != (nc + 7) / 8) {
            PyErr_Format(PyExc_ValueError, "changed must be None or %d bytes", (nc + 7) / 8);
            goto done;
        }
        const unsigned char *bits = (const unsigned char *)PyBytes_AS_STRING(args[1]);
        before = sk_py_as_tuple(args[2], "before", -1);
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
                !sk_py_rule_int(PyTuple_GET_ITEM(before, c), 0, "before", c, &masks[nc + c]))
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
    if (!sk_py_ready(self->ready, "Uniq") ||
        !sk_py_masks(arg, "masks", self->g.ncells, sk_py_mask_bound(self->g.n), masks))
        goto done;
    if (!sk_uniq_bug_extras(&self->g, masks, masks + nc)) {
        res = Py_NewRef(Py_None);
        goto done;
    }
    res = PyDict_New();
    for (int c = 0; res != NULL && c < nc; c++)
        if (masks[nc + c] && sk_py_dict_put(res, c, PyLong_FromUnsignedLongLong(masks[nc + c]), 0))
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

PyDoc_STRVAR(Uniq_doc,
             "Uniq(n, units, cell_units, kinds, peers)\n--\n\nThe uniqueness finders of one "
             "shape (units and per cell its units in the shape's\norder, a kind number per "
             "unit, per cell its peers ascending); the Python\nspecification is "
             "sudokit.logic.uniqueness. Reentrant: each call allocates its own state.");

SK_PY_CLASS(Uniq, {Py_tp_methods, (void *)Uniq_methods});
