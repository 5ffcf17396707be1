/* sk_py_canon.c -- canonical9: the minlex form of a standard 9x9 grid (sk_canon.h). */
#include "sk_py.h"

#include "sk_canon.h"

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
    if (!sk_py_nargs(nargs, 1, 1, "canonical9", "cells")) return NULL;
    const uint8_t *cells;
    Py_ssize_t len;
    if (!sk_py_cells_arg(args[0], "cells", 81, 9, 1, &cells, &len)) return NULL;
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

PyMethodDef sk_py_canon_functions[] = {
    {"canonical9", (PyCFunction)(void (*)(void))core_canonical9, METH_FASTCALL,
     canonical9_doc},
    {NULL, NULL, 0, NULL},
};
