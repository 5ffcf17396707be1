/*
 * sk_py.h -- what the files of the CPython binding `sudokit._core` share (internal).
 *
 * The binding only turns Python objects into checked C arguments, runs the C code (with the
 * GIL released where it cannot call back into Python) and turns the results back into Python
 * objects.  Errors map to ValueError / TypeError / MemoryError with a message that names the
 * argument; nothing can crash on malformed input.  One file per job:
 *
 *   sk_module.c        the module: its state, multi-phase init, the types, the constants
 *   sk_py.c            the argument and array helpers below, the interrupt poll
 *   sk_py_geometry.c   Geometry (shape tables and variant rules, sk_solver.h)
 *   sk_py_search.c     search, search_batch (native threads), search_items, lines
 *   sk_py_gen.c        reduce, fill, random_puzzle (sk_solver.h, sk_gen.h)
 *   sk_py_canon.c      canonical9 (sk_canon.h)
 *   sk_py_chain.c      ChainMode, Chainer, ChainRun, InChain, unary_all (sk_chain.h, sk_nest.h)
 *   sk_py_logic.c      HumanShape, Exclusion, Uniq (sk_human.h, sk_excl.h, sk_uniq.h)
 *
 * No globals: the module's types and the main thread's ident live in its state (sk_state),
 * reached from a module function's `module` argument or from a method's type.  Every type is a
 * heap type made from a spec at module exec (SK_PY_TYPE below).  The helpers return 1 (or a
 * new object) on success and 0 (or NULL) with an exception set; their messages name `what`.
 */
#ifndef SK_PY_H
#define SK_PY_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <string.h>

#include "sk_port.h"
#include "sk_solver.h"

#if PY_VERSION_HEX < 0x030C0000 /* the Py_-prefixed member types came with 3.12 */
#include <structmember.h>
#define Py_T_INT T_INT
#define Py_T_BOOL T_BOOL
#define Py_T_OBJECT_EX T_OBJECT_EX
#define Py_READONLY READONLY
#endif

/* Largest batch (puzzles per call) and largest kept-solution buffer accepted. */
#define SK_MAX_BATCH ((Py_ssize_t)1 << 24)
#define SK_MAX_KEEP_BYTES ((uint64_t)1 << 30)
#define SK_MAX_THREADS 64
/* Workspaces cached per geometry for the per-call API (taken and returned under the GIL). */
#define SK_POOL 4

/* ---------------------------------------------------------------------------------------- */
/* module state and types                                                                     */

typedef struct {
    PyTypeObject *Geometry, *ChainMode, *Chainer, *ChainRun, *InChain, *HumanShape, *Exclusion,
        *Uniq;
    /* The ident of the main thread (threading.main_thread()), read at module exec; 0 if
     * unknown.  Only that thread runs signal handlers (sk_py_poll_release). */
    unsigned long main_thread;
} sk_state;

extern PyModuleDef sk_module_def;

static inline sk_state *sk_state_of(PyObject *module) { return PyModule_GetState(module); }

/* The state of the module that made type (a type of this module, or a subclass). */
static inline sk_state *sk_state_of_type(PyTypeObject *type) {
    return sk_state_of(PyType_GetModuleByDef(type, &sk_module_def));
}

/*
 * SK_PY_TYPE(Name, flags, slots...) defines the heap type of struct NameObject: Name_dealloc,
 * which calls Name_release(NameObject *) to free what the object owns (it must accept an object
 * whose __init__ never ran or failed: tp_alloc zeroed it), then frees the object and drops its
 * reference to its type; and Name_spec, "sudokit._core.Name", immutable and final, with the
 * given slots.  SK_PY_CLASS adds what a class built by Name(...) has: Name_doc, Name_init, the
 * generic tp_new.  sk_module.c makes the types from the specs.
 */
#define SK_PY_TYPE(Name, flags, ...)                                                            \
    static void Name##_dealloc(PyObject *self) {                                                \
        PyTypeObject *type = Py_TYPE(self);                                                     \
        Name##_release((Name##Object *)self);                                                   \
        type->tp_free(self);                                                                    \
        Py_DECREF(type);                                                                        \
    }                                                                                           \
    static PyType_Slot Name##_slots[] = {{Py_tp_dealloc, (void *)Name##_dealloc}, __VA_ARGS__,  \
                                         {0, NULL}};                                            \
    PyType_Spec Name##_spec = {"sudokit._core." #Name, sizeof(Name##Object), 0,                 \
                               Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE | (flags),         \
                               Name##_slots}

#define SK_PY_CLASS(Name, ...)                                                                  \
    SK_PY_TYPE(Name, 0, {Py_tp_doc, (void *)Name##_doc}, {Py_tp_init, (void *)Name##_init},     \
               {Py_tp_new, (void *)PyType_GenericNew}, __VA_ARGS__)

extern PyType_Spec Geometry_spec, ChainMode_spec, Chainer_spec, ChainRun_spec, InChain_spec,
    HumanShape_spec, Exclusion_spec, Uniq_spec;

/* The module functions of each file (sk_module.c adds them all). */
extern PyMethodDef sk_py_search_functions[], sk_py_gen_functions[], sk_py_canon_functions[],
    sk_py_chain_functions[];

/* The guards of a C object built once by __init__ and immutable afterwards (threads may share
 * it): at the top of __init__, TypeError "<name> is already initialised" when it was; in a
 * method, ValueError "<name> is not initialised" when __init__ never succeeded.  Return 1 when
 * the call may go on. */
int sk_py_init_once(int ready, const char *name);
int sk_py_ready(int ready, const char *name);

/* ---------------------------------------------------------------------------------------- */
/* Geometry (sk_py_geometry.c)                                                                */

typedef struct {
    PyObject_HEAD
    sk_geom *geom;
    int n, ncells, nunits, standard9, rules;
    int npool;
    sk_work *pool[SK_POOL];
} GeometryObject;

/* The geometry keeps up to SK_POOL search workspaces for reuse. Both helpers need the GIL
 * (the pool is shared by every thread calling into this geometry); a NULL from sk_py_work_take
 * means "allocate one" (done with the GIL released), and sk_py_work_give(NULL) is a no-op. */
static inline sk_work *sk_py_work_take(GeometryObject *g) {
    return g->npool ? g->pool[--g->npool] : NULL;
}

static inline void sk_py_work_give(GeometryObject *g, sk_work *w) {
    if (w == NULL) return;
    if (g->npool < SK_POOL)
        g->pool[g->npool++] = w;
    else
        sk_work_free(w);
}

/* obj as an initialised Geometry of this module, or NULL with TypeError / ValueError. */
GeometryObject *sk_py_as_geometry(const sk_state *st, PyObject *obj);

/* The start of a module function on a geometry: nargs in lo..hi (else sk_py_nargs's TypeError
 * naming name and params), args[0] an initialised Geometry of module's state
 * (sk_py_as_geometry). */
GeometryObject *sk_py_geometry_call(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
                                    Py_ssize_t lo, Py_ssize_t hi, const char *name,
                                    const char *params);

/* The same, with args[1] the geometry's cell buffer `what` as sk_py_cells_arg checks it: the
 * start of search, search_batch and reduce. */
GeometryObject *sk_py_geometry_cells(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
                                     Py_ssize_t lo, Py_ssize_t hi, const char *name,
                                     const char *params, const char *what, int single,
                                     const uint8_t **cells, Py_ssize_t *len);

/* ---------------------------------------------------------------------------------------- */
/* Interrupts: the poll callback of the C searches (sk_poll_fn), sk_py.c                      */

/* The calling thread's state while the GIL is released around a search.  The C search calls
 * sk_py_poll every few thousand guesses: it takes the GIL back for a moment and runs the signal
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

/* Releases the GIL (saving the thread state in p); sk_py_poll_acquire takes it back. */
void sk_py_poll_release(py_poll *p, const sk_state *st);
void sk_py_poll_acquire(py_poll *p);

/* Around one search on g with the GIL released (sk_py_poll as its poll, ctx p):
 * sk_py_release_work keeps g alive (another thread could drop it while the GIL is released),
 * releases the GIL and returns a workspace of g, from its pool or new (NULL: out of memory);
 * sk_py_acquire_work takes the GIL back, gives w (NULL: nothing) back to the pool, drops g. */
sk_work *sk_py_release_work(GeometryObject *g, py_poll *p, const sk_state *st);
void sk_py_acquire_work(GeometryObject *g, sk_work *w, py_poll *p);
/* The poll of the calling thread (ctx: its py_poll), and of the other batch workers (only the
 * shared stop flag). */
int sk_py_poll(void *ctx);
int sk_py_stop_flag(void *ctx);

/* ---------------------------------------------------------------------------------------- */
/* Arguments and arrays (sk_py.c)                                                             */

/* The argument count of a METH_FASTCALL call: lo..hi, else a TypeError such as "search() takes
 * 5 arguments (geometry, cells, limit, keep, budget), got 1" (name "search", params the list). */
int sk_py_nargs(Py_ssize_t nargs, Py_ssize_t lo, Py_ssize_t hi, const char *name,
                const char *params);

/* A new tuple of the items of obj (a sequence; str and bytes refused), or NULL with a
 * TypeError naming what (and index when >= 0).  Copying first means later __index__ calls
 * cannot change what is read. */
PyObject *sk_py_as_tuple(PyObject *obj, const char *what, Py_ssize_t index);

/* The list argument `name` of a rule (relations, cages, linear, groups): a new tuple of at
 * most `most` entries; None gives NULL with no exception set, and a bad list NULL with a
 * TypeError (not a sequence) or ValueError ("name: k items, at most most for size n"). */
PyObject *sk_py_rule_list(PyObject *obj, const char *name, const char *items, Py_ssize_t most,
                          int n);

/* Entry i of the tuple `list` of rule `name` as a new tuple of exactly `size` items, or NULL
 * with a TypeError (not a sequence) or ValueError ("name[i] must be (form), got k items"). */
PyObject *sk_py_rule_entry(PyObject *list, Py_ssize_t i, const char *name, Py_ssize_t size,
                           const char *form);

/* An int (bools refused) in 0..bound-1 (bound 0: any uint64) into *out; names what and index. */
int sk_py_rule_int(PyObject *obj, uint64_t bound, const char *what, Py_ssize_t index,
                uint64_t *out);

/* The bound of sk_py_rule_int for a candidate mask of n digits: 2^n (0, the whole range, at
 * n = 64). */
static inline uint64_t sk_py_mask_bound(int n) { return n >= 64 ? 0 : (uint64_t)1 << n; }

/* seq, a sequence of ncells ints each below bound (0: no bound), into out: a list or tuple
 * is read in place (sk_py_rule_int runs no Python code), anything else copied first. */
int sk_py_masks(PyObject *seq, const char *what, int ncells, uint64_t bound, uint64_t *out);

/* A non-negative Python int as uint64, >= minimum; name is used in messages. */
int sk_py_as_count(PyObject *obj, const char *name, uint64_t minimum, uint64_t *out);

/* The cell-buffer argument `name`: bytes of exactly ncells values 0..n when `single`, else a
 * batch of whole puzzles of ncells values (at most SK_MAX_BATCH of them).  Sets *cells and
 * *len (the bytes object's own buffer: valid while obj lives). */
int sk_py_cells_arg(PyObject *obj, const char *name, int ncells, int n, int single,
                 const uint8_t **cells, Py_ssize_t *len);

/* A sequence of ints in 0..bound-1 into a new PyMem_Raw array of uint32 (wide) or uint16
 * entries; sets *len.  NULL with an exception on error. */
void *sk_py_index_array(PyObject *obj, const char *name, long bound, int wide, Py_ssize_t *len);

/* Flattens `what`, a sequence of `count` (-1: any number) sequences of ints in 0..bound-1,
 * into CSR arrays (*start: count + 1 offsets, *items), PyMem_Raw-allocated; *count_out the
 * number of rows. */
int sk_py_csr_arg(PyObject *obj, const char *what, Py_ssize_t count, uint64_t bound,
               int32_t **start, int32_t **items, Py_ssize_t *count_out);

/* True when x is one of v[from .. to). */
int sk_py_contains32(const int32_t *v, int32_t from, int32_t to, int32_t x);

/* Builders of results: a new object, or NULL with the error set; after a failed allocation
 * they make nothing more (no Python call runs with an exception pending). */
PyObject *sk_py_int_tuple(const int32_t *v, Py_ssize_t len); /* (v[0], ..., v[len - 1]) */
PyObject *sk_py_pair_tuple(const int32_t *a, const int32_t *b, size_t step, Py_ssize_t n);
/*   ((a[0], b[0]), (a[step], b[step]), ...): n pairs */

/* d[key] = value (value a new reference, taken; NULL: an error already set); with setdefault,
 * d.setdefault(key, value).  0, or -1 with the error set. */
int sk_py_dict_put(PyObject *d, long key, PyObject *value, int setdefault);

/* The linear sums and groups of a Geometry (sk_py_sums.c): the CSR arrays of sk_rules,
 * PyMem_Raw memory owned here. */
typedef struct {
    uint32_t nlinear, ngroups;
    size_t ncells_linear, ncells_groups, nparams;
    uint32_t *lin_ends, *group_cell_ends, *group_param_ends;
    uint16_t *lin_cells, *group_cells;
    int32_t *lin_coefs, *group_params;
    int64_t *lin_totals;
    uint8_t *group_kinds;
} sk_py_sums;

/* linear: None or (cells, coefs, total) entries; groups: None or (kind, cells, params)
 * entries (sk_rules in sk_solver.h), each checked with a ValueError or TypeError naming the
 * entry ("linear sum 3: cell 99 is outside 0..80").  1, or 0 with the error set and s empty. */
int sk_py_sums_parse(PyObject *linear, PyObject *groups, int n, int ncells, sk_py_sums *s);
/* Points r's linear-sum and group fields at s's arrays (s must outlive the use of r). */
void sk_py_sums_attach(const sk_py_sums *s, sk_rules *r);
/* Releases s's arrays (and empties it). */
void sk_py_sums_free(sk_py_sums *s);

#endif /* SK_PY_H */
