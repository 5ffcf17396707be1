/*
 * sk_py_search.c -- the searches of the binding: search (one puzzle), search_batch (many, on
 * native threads), search_items (one chunk of solve_many, lines read and results built here)
 * and lines (the bulk line path, sk_lines.h).  The GIL is released while they search.
 *
 * Batch layout: puzzles is one bytes object of k * ncells cell values, puzzle after puzzle
 * (explicit length, no terminator); first_solutions has the same layout, all zeros for a
 * puzzle without a solution.  threads > 1 splits the batch over native threads (pthreads)
 * that take puzzles from a shared atomic counter, so hard puzzles do not leave one thread
 * idle; threads = 0 means one per online CPU.
 */
#include "sk_py.h"

#ifndef _WIN32
#include <pthread.h>
#include <unistd.h>
#define SK_HAVE_PTHREADS 1
#endif

#include "sk_lines.h"
#include "sk_port.h"

/* ---------------------------------------------------------------------------------------- */
/* search                                                                                     */

PyDoc_STRVAR(search_doc,
             "search(geometry, cells, limit, keep, budget, /)\n--\n\n"
             "Count the solutions of one puzzle up to limit (>= 1), keeping the first keep.\n\n"
             "cells: bytes of ncells values 0..n.  budget: maximum guesses (0 = unbounded).\n"
             "Returns (count, solutions, guesses, complete); complete is False when the budget\n"
             "ran out, and count is then a lower bound.  The GIL is released while searching.");

static PyObject *core_search(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    const sk_state *st = sk_state_of(module);
    Py_ssize_t len;
    const uint8_t *cells;
    GeometryObject *g = sk_py_geometry_cells(module, args, nargs, 5, 5, "search",
                                             "geometry, cells, limit, keep, budget", "cells", 1,
                                             &cells, &len);
    if (g == NULL) return NULL;
    uint64_t limit, keep, budget;
    if (!sk_py_as_count(args[2], "limit", 1, &limit) || !sk_py_as_count(args[3], "keep", 0, &keep) ||
        !sk_py_as_count(args[4], "budget", 0, &budget))
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
    uint64_t count = 0, guesses = 0;
    int rc = SK_ENOMEM;
    py_poll poll;
    sk_work *w = sk_py_release_work(g, &poll, st);
    if (w != NULL)
        rc = sk_search(g->geom, w, cells, limit, keep, sols, budget, &count, &guesses, sk_py_poll,
                       &poll);
    sk_py_acquire_work(g, w, &poll);
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
    sk_poll_fn poll = caller ? sk_py_poll : sk_py_stop_flag;
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
            if (sk_py_poll(job->poll)) break;
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
static int search_all(const sk_state *st, GeometryObject *g, const uint8_t *puzzles,
                      Py_ssize_t k, uint64_t limit, uint64_t budget, uint64_t threads,
                      uint8_t *solutions, uint64_t *counts, uint64_t *guesses, uint8_t *complete) {
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
        .mine = sk_py_work_take(g), /* a one-puzzle call costs no workspace allocation */
    };
    py_poll poll;
    job.poll = &poll;
    Py_INCREF(g);
    sk_py_poll_release(&poll, st);
    run_batch(&job, nthreads);
    sk_py_poll_acquire(&poll);
    sk_py_work_give(g, job.mine);
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
    const sk_state *st = sk_state_of(module);
    Py_ssize_t len;
    const uint8_t *puzzles;
    GeometryObject *g = sk_py_geometry_cells(module, args, nargs, 5, 5, "search_batch",
                                             "geometry, puzzles, limit, budget, threads", "puzzles",
                                             0, &puzzles, &len);
    if (g == NULL) return NULL;
    uint64_t limit, budget, threads;
    if (!sk_py_as_count(args[2], "limit", 1, &limit) || !sk_py_as_count(args[3], "budget", 0, &budget) ||
        !sk_py_as_count(args[4], "threads", 0, &threads))
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
    int ok = search_all(st, g, puzzles, k, limit, budget, threads, (uint8_t *)PyBytes_AS_STRING(sols),
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
             "Read, search and build the results of one chunk of solve_many (see sk_py_search.c).\n\n"
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
    const sk_state *st = sk_state_of(module);
    GeometryObject *g = sk_py_geometry_call(
        module, args, nargs, 9, 9, "search_items",
        "geometry, shape, items, table, grid_type, limit, budget, threads, record");
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
    if (!sk_py_as_count(args[5], "limit", 1, &limit) || !sk_py_as_count(args[6], "budget", 0, &budget) ||
        !sk_py_as_count(args[7], "threads", 0, &threads))
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
    if (!search_all(st, g, buf, m, limit, budget, threads, sols, counts, guesses, complete))
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
    return sk_py_poll(l->poll);
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
    const sk_state *st = sk_state_of(module);
    GeometryObject *g = sk_py_geometry_call(
        module, args, nargs, 8, 9, "lines", "geometry, data, start, mode, unique, limit, shown, budget[, stop]");
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
    if (!sk_py_as_count(args[2], "start", 0, &start) || !sk_py_as_count(args[3], "mode", 0, &mode) ||
        !sk_py_as_count(args[4], "unique", 0, &unique) || !sk_py_as_count(args[5], "limit", 2, &limit) ||
        !sk_py_as_count(args[6], "shown", 0, &shown) || !sk_py_as_count(args[7], "budget", 0, &budget))
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
    Py_INCREF(args[1]); /* keep the data alive while the GIL is released */
    size_t out_len = 0, nnotes = 0, consumed = 0;
    uint64_t nlines = 0, records = 0;
    int rc = SK_ENOMEM;
    py_poll poll;
    lines_poll lpoll = {&poll, stop.obj != NULL ? (const uint8_t *)stop.buf : NULL};
    sk_work *w = sk_py_release_work(g, &poll, st);
    if (w != NULL)
        rc = skl_run(g->geom, w, (const uint8_t *)PyBytes_AS_STRING(args[1]) + start, len, &opts,
                     (uint8_t *)PyBytes_AS_STRING(out), cap, &out_len, notes, SK_LINES_NOTES,
                     &nnotes, &consumed, &nlines, &records, lines_poll_fn, &lpoll);
    sk_py_acquire_work(g, w, &poll);
    Py_DECREF(args[1]);
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

PyMethodDef sk_py_search_functions[] = {
    {"search", (PyCFunction)(void (*)(void))core_search, METH_FASTCALL, search_doc},
    {"search_batch", (PyCFunction)(void (*)(void))core_search_batch, METH_FASTCALL,
     search_batch_doc},
    {"search_items", (PyCFunction)(void (*)(void))core_search_items, METH_FASTCALL,
     search_items_doc},
    {"lines", (PyCFunction)(void (*)(void))core_lines, METH_FASTCALL, lines_doc},
    {NULL, NULL, 0, NULL},
};
