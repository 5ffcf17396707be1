/*
 * sk_py_gen.c -- the generator's calls: reduce (the clue-removal pass, sk_solver.h), fill
 * (phase 1) and random_puzzle (one attempt, phases 1 and 2, sk_gen.h).  fill and random_puzzle
 * hold the GIL: their random numbers come from a Python callable, in the order the Python
 * generator draws them, so both produce the same puzzles.
 */
#include "sk_py.h"

#include "sk_gen.h"

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

static PyObject *core_reduce(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    const sk_state *st = sk_state_of(module);
    Py_ssize_t len;
    const uint8_t *given;
    GeometryObject *g = sk_py_geometry_cells(
        module, args, nargs, 5, 6, "reduce",
        "geometry, cells, order, group_ends, budget[, max_searches]", "cells", 1, &given, &len);
    if (g == NULL) return NULL;
    uint64_t budget, max_searches = UINT64_MAX;
    if (!sk_py_as_count(args[4], "budget", 0, &budget)) return NULL;
    if (nargs == 6 && args[5] != Py_None && !sk_py_as_count(args[5], "max_searches", 0, &max_searches))
        return NULL;
    Py_ssize_t norder = 0, ngroups = 0;
    uint16_t *order = sk_py_index_array(args[2], "order", g->ncells, 0, &norder);
    if (order == NULL) return NULL;
    uint32_t *ends = sk_py_index_array(args[3], "group_ends", (long)norder + 1, 1, &ngroups);
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
    uint64_t searches = 0;
    int decided = 1, rc = SK_ENOMEM;
    py_poll poll;
    sk_work *w = sk_py_release_work(g, &poll, st);
    if (w != NULL)
        rc = sk_reduce(g->geom, w, cells, order, ends, (uint32_t)ngroups, budget, max_searches,
                       &searches, &decided, sk_py_poll, &poll);
    sk_py_acquire_work(g, w, &poll);
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

/* A workspace of g for a call that holds the GIL: from g's pool, else a new one; NULL with
 * MemoryError. */
static sk_work *held_work(GeometryObject *g) {
    sk_work *w = sk_py_work_take(g);
    if (w == NULL) w = sk_work_new(g->geom);
    if (w == NULL) PyErr_NoMemory();
    return w;
}

/* Poll callback with the GIL held: the signal handlers (a no-op off the main thread). */
static int gil_poll_fn(void *ctx) {
    (void)ctx;
    return PyErr_CheckSignals() != 0;
}

/* The settings fill and random_puzzle share, into *opts: args[first] the draw callable (into
 * *draw, which must outlive the call), args[first + 1] the guess budget and, when given and not
 * None, args[first + 2] max_searches; the poll runs the signal handlers (the GIL is held).  0
 * with an exception on error. */
static int gen_opts(PyObject *const *args, Py_ssize_t nargs, Py_ssize_t first, py_draw *draw,
                    sk_gen_opts *opts) {
    if (!PyCallable_Check(args[first])) {
        PyErr_Format(PyExc_TypeError, "draw must be callable, not %.100s",
                     Py_TYPE(args[first])->tp_name);
        return 0;
    }
    *opts = (sk_gen_opts)SK_GEN_OPTS_DEFAULT;
    draw->draw = args[first];
    opts->draw = py_draw_fn;
    opts->draw_ctx = draw;
    opts->poll = gil_poll_fn;
    if (!sk_py_as_count(args[first + 1], "budget", 0, &opts->budget)) return 0;
    return nargs <= first + 2 || args[first + 2] == Py_None ||
           sk_py_as_count(args[first + 2], "max_searches", 0, &opts->max_searches);
}

/* The end of fill and random_puzzle: w back to g's pool, then the outcome rc of the call
 * named name (sk_fill or sk_random_puzzle) with *res and buf (the puzzle, then the solution)
 * into *puzzle and *solution, new references: the puzzle as bytes, None when a cell had no
 * digit left or max_searches stopped the call; the solution as bytes when the puzzle is
 * unique, else None.  0 with an exception set when the call failed (draw() or a signal
 * handler raised, or invalid arguments) or the bytes could not be made. */
static int gen_grids(GeometryObject *g, sk_work *w, int rc, const sk_gen_result *res,
                     const uint8_t *buf, const char *name, PyObject **puzzle,
                     PyObject **solution) {
    sk_py_work_give(g, w);
    if (rc == SK_STOPPED) return 0; /* draw() or a signal handler raised: it is set */
    if (rc != SK_COMPLETE && rc != SK_GAVE_UP) {
        if (!PyErr_Occurred()) PyErr_Format(PyExc_ValueError, "invalid %s arguments", name);
        return 0;
    }
    const int complete = rc == SK_COMPLETE;
    *puzzle = complete && res->outcome != SK_FILL_DEAD
                  ? PyBytes_FromStringAndSize((const char *)buf, g->ncells)
                  : Py_NewRef(Py_None);
    if (*puzzle == NULL) return 0;
    *solution = complete && res->outcome == SK_FILL_UNIQUE
                    ? PyBytes_FromStringAndSize((const char *)buf + g->ncells, g->ncells)
                    : Py_NewRef(Py_None);
    if (*solution != NULL) return 1;
    Py_CLEAR(*puzzle);
    return 0;
}

static PyObject *core_fill(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    GeometryObject *g = sk_py_geometry_call(module, args, nargs, 5, 6, "fill",
                                            "geometry, order, ends, draw, budget[, max_searches]");
    py_draw draw;
    sk_gen_opts opts;
    if (g == NULL || !gen_opts(args, nargs, 3, &draw, &opts)) return NULL;
    Py_ssize_t norder = 0, nends = 0;
    uint16_t *order = sk_py_index_array(args[1], "order", g->ncells, 0, &norder);
    if (order == NULL) return NULL;
    uint32_t *ends = NULL;
    uint8_t *buf = NULL;
    PyObject *result = NULL;
    if (args[2] != Py_None) {
        ends = sk_py_index_array(args[2], "ends", (long)norder + 1, 1, &nends);
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
    sk_work *w = held_work(g);
    if (w == NULL) goto done;
    sk_gen_result res = {0, SK_FILL_FULL, 1};
    /* The GIL stays held: draw() is Python code (and g cannot go away meanwhile). */
    const int rc = sk_fill(g->geom, w, order, ends, (uint32_t)norder, &opts, buf, buf + g->ncells,
                           &res);
    PyObject *puzzle, *solution;
    if (!gen_grids(g, w, rc, &res, buf, "fill", &puzzle, &solution)) goto done;
    result = Py_BuildValue("(NNKO)", puzzle, solution, (unsigned long long)res.searches,
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
    GeometryObject *g = sk_py_geometry_call(
        module, args, nargs, 6, 7, "random_puzzle",
        "geometry, cells, ends, complete_orbits, draw, budget[, max_searches]");
    if (g == NULL) return NULL;
    const int complete_orbits = PyObject_IsTrue(args[3]);
    py_draw draw;
    sk_gen_opts opts;
    if (complete_orbits < 0 || !gen_opts(args, nargs, 4, &draw, &opts)) return NULL;
    opts.complete_orbits = complete_orbits;
    Py_ssize_t ncells_in = 0, norbits = 0;
    uint16_t *cells = sk_py_index_array(args[1], "cells", g->ncells, 0, &ncells_in);
    if (cells == NULL) return NULL;
    uint32_t *ends = sk_py_index_array(args[2], "ends", (long)ncells_in + 1, 1, &norbits);
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
    sk_work *w = held_work(g);
    if (w == NULL) goto done;
    sk_gen_result res = {0, SK_FILL_FULL, 1};
    const int rc = sk_random_puzzle(g->geom, w, cells, ends, (uint32_t)norbits, &opts, perm, buf,
                                    buf + g->ncells, &res);
    PyObject *puzzle, *solution;
    if (!gen_grids(g, w, rc, &res, buf, "random_puzzle", &puzzle, &solution)) goto done;
    PyObject *order = PyList_New(norbits);
    for (Py_ssize_t k = 0; order != NULL && k < norbits; k++) {
        PyObject *v = PyLong_FromUnsignedLong(perm[k]);
        if (v == NULL) Py_CLEAR(order);
        else PyList_SET_ITEM(order, k, v);
    }
    if (order == NULL) {
        Py_DECREF(puzzle);
        Py_DECREF(solution);
        goto done;
    }
    result = Py_BuildValue("(NNNKOO)", puzzle, solution, order, (unsigned long long)res.searches,
                           res.decided ? Py_True : Py_False,
                           rc == SK_COMPLETE ? Py_True : Py_False);
done:
    PyMem_RawFree(cells);
    PyMem_RawFree(ends);
    PyMem_RawFree(perm);
    PyMem_RawFree(buf);
    return result;
}

PyMethodDef sk_py_gen_functions[] = {
    {"reduce", (PyCFunction)(void (*)(void))core_reduce, METH_FASTCALL, reduce_doc},
    {"fill", (PyCFunction)(void (*)(void))core_fill, METH_FASTCALL, fill_doc},
    {"random_puzzle", (PyCFunction)(void (*)(void))core_random_puzzle, METH_FASTCALL,
     random_puzzle_doc},
    {NULL, NULL, 0, NULL},
};
