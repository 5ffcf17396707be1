/*
 * sk_module.c -- the module `sudokit._core`: its state, its multi-phase init (PEP 489) and
 * its constants.  The calls and types live in the sk_py_*.c files (map in sk_py.h); here they
 * are made into the module: the functions of each file, and one heap type per spec
 * (PyType_FromModuleAndSpec), kept in the module state so that argument checks find them
 * without globals.
 */
#include "sk_py.h"

#include "sk_abi.h"
#include "sk_port.h"

/* Sets st->main_thread from threading.main_thread().ident (0, with no error, on failure). */
static void find_main_thread(sk_state *st) {
    PyObject *threading = PyImport_ImportModule("threading");
    PyObject *main = threading ? PyObject_CallMethod(threading, "main_thread", NULL) : NULL;
    PyObject *ident = main ? PyObject_GetAttrString(main, "ident") : NULL;
    if (ident != NULL && PyLong_Check(ident)) st->main_thread = PyLong_AsUnsignedLong(ident);
    if (PyErr_Occurred()) {
        PyErr_Clear();
        st->main_thread = 0;
    }
    Py_XDECREF(ident);
    Py_XDECREF(main);
    Py_XDECREF(threading);
}

/* The module's types: made from these specs and added under their names, in this order. */
static const struct {
    PyType_Spec *spec;
    size_t slot; /* where the type goes in sk_state */
} module_types[] = {
    {&Geometry_spec, offsetof(sk_state, Geometry)},
    {&ChainMode_spec, offsetof(sk_state, ChainMode)},
    {&Chainer_spec, offsetof(sk_state, Chainer)},
    {&ChainRun_spec, offsetof(sk_state, ChainRun)},
    {&InChain_spec, offsetof(sk_state, InChain)},
    {&HumanShape_spec, offsetof(sk_state, HumanShape)},
    {&Exclusion_spec, offsetof(sk_state, Exclusion)},
    {&Uniq_spec, offsetof(sk_state, Uniq)},
};
#define N_TYPES (sizeof module_types / sizeof module_types[0])

static PyTypeObject **type_slot(sk_state *st, size_t i) {
    return (PyTypeObject **)((char *)st + module_types[i].slot);
}

static int core_exec(PyObject *m) {
    sk_state *st = sk_state_of(m);
    PyMethodDef *functions[] = {sk_py_search_functions, sk_py_gen_functions,
                                sk_py_canon_functions, sk_py_chain_functions};
    for (size_t i = 0; i < sizeof functions / sizeof *functions; i++)
        if (PyModule_AddFunctions(m, functions[i]) < 0) return -1;
    for (size_t i = 0; i < N_TYPES; i++) {
        PyObject *type = PyType_FromModuleAndSpec(m, module_types[i].spec, NULL);
        if (type == NULL) return -1;
        *type_slot(st, i) = (PyTypeObject *)type; /* the state's reference */
        if (PyModule_AddType(m, (PyTypeObject *)type) < 0) return -1;
    }
    find_main_thread(st);

    /* ---- module constants: add new ones here ---- */
    if (PyModule_AddIntConstant(m, "ABI_VERSION", SK_ABI_VERSION) < 0) return -1;
    if (PyModule_AddIntConstant(m, "MAX_SIZE", SK_MAX_N) < 0) return -1;
    if (PyModule_AddIntConstant(m, "MAX_BATCH", (long)SK_MAX_BATCH) < 0) return -1;
    if (PyModule_AddStringConstant(m, "COMPILER", SK_COMPILER) < 0) return -1;
    if (PyModule_AddStringConstant(m, "BUILD_FLAGS", SK_BUILD_FLAGS) < 0) return -1;
#ifdef SK_HAVE_FAST9
    if (PyModule_AddObjectRef(m, "FAST9", Py_True) < 0) return -1;
#else
    if (PyModule_AddObjectRef(m, "FAST9", Py_False) < 0) return -1;
#endif
    /* ---- end of the module constants ---- */
    return 0;
}

static int core_traverse(PyObject *m, visitproc visit, void *arg) {
    sk_state *st = sk_state_of(m);
    for (size_t i = 0; st != NULL && i < N_TYPES; i++) Py_VISIT(*type_slot(st, i));
    return 0;
}

static int core_clear(PyObject *m) {
    sk_state *st = sk_state_of(m);
    for (size_t i = 0; st != NULL && i < N_TYPES; i++) Py_CLEAR(*type_slot(st, i));
    return 0;
}

static void core_free(void *m) { core_clear((PyObject *)m); }

static PyModuleDef_Slot core_slots[] = {
    {Py_mod_exec, (void *)core_exec},
    {0, NULL},
};

PyModuleDef sk_module_def = {
    PyModuleDef_HEAD_INIT,
    .m_name = "sudokit._core",
    .m_doc = "sudokit's C search core (see csrc/). Use it through sudokit._cengine.CEngine.",
    .m_size = sizeof(sk_state),
    .m_slots = core_slots,
    .m_traverse = core_traverse,
    .m_clear = core_clear,
    .m_free = core_free,
};

PyMODINIT_FUNC PyInit__core(void) { return PyModuleDef_Init(&sk_module_def); }
