/* SPDX-License-Identifier: MIT */
/* CPython's utf_7 codec as a peer of utfdfa (`make bench`, built when
 * python3-config --embed links): PyUnicode_DecodeUTF7, the C function behind
 * bytes.decode("utf-7"), then the code points copied out as UTF-32 as every
 * utf7dec engine delivers them (PyUnicode_AsUCS4), in the bench's own
 * thread, timed like the others. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "bench.h"

int py_peer_open(void)
{
    if (!Py_IsInitialized())
        Py_InitializeEx(0);
    return Py_IsInitialized();
}

const char *py_peer_version(void)
{
    return Py_GetVersion();
}

size_t py_utf7dec(const struct job *j)
{
    PyObject *s = PyUnicode_DecodeUTF7((const char *)j->src, (Py_ssize_t)j->n, "strict");
    if (!s) {
        PyErr_Clear();
        return RUN_FAILED;
    }
    Py_ssize_t len = PyUnicode_GET_LENGTH(s);
    size_t r = (size_t)len <= j->cap && PyUnicode_AsUCS4(s, j->dst, (Py_ssize_t)j->cap, 0)
                   ? (size_t)len
                   : RUN_FAILED;
    if (r == RUN_FAILED)
        PyErr_Clear();
    Py_DECREF(s);
    return r;
}
