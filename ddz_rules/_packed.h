/* A packed card set (ddz_rules/cards.py: a bit field per rank, under 128 bits) read from a
 * Python int, for the compiled modules _kernel.c and _moves.c. */
#ifndef DDZ_PACKED_H
#define DDZ_PACKED_H

#include <Python.h>

typedef unsigned __int128 u128;

/* The packed card set value as a 128-bit integer: 0, or -1 with an exception set where it is
 * not a non-negative int under 2**128. */
static int
as_u128(PyObject *value, u128 *out)
{
    unsigned char buf[16];
    if (!PyLong_Check(value)) {
        PyErr_Format(PyExc_TypeError, "a packed card set must be an int, not %.100s",
                     Py_TYPE(value)->tp_name);
        return -1;
    }
    if (_PyLong_Sign(value) < 0) {
        PyErr_SetString(PyExc_ValueError, "a packed card set may not be negative");
        return -1;
    }
#if PY_VERSION_HEX >= 0x030D0000
    Py_ssize_t need = PyLong_AsNativeBytes(
        value, buf, 16,
        Py_ASNATIVEBYTES_LITTLE_ENDIAN | Py_ASNATIVEBYTES_UNSIGNED_BUFFER |
            Py_ASNATIVEBYTES_REJECT_NEGATIVE);
    if (need < 0) {
        return -1;
    }
    if (need > 16) {
        PyErr_SetString(PyExc_OverflowError, "a packed card set wider than 128 bits");
        return -1;
    }
#else
    if (_PyLong_AsByteArray((PyLongObject *)value, buf, 16, 1, 0) < 0) {
        return -1;
    }
#endif
    u128 x = 0;
    for (int i = 15; i >= 0; i--) {
        x = (x << 8) | buf[i];
    }
    *out = x;
    return 0;
}

#endif
