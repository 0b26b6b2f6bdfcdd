/* The optional compiled kernel of the play table: the one loop of listing a hand's plays with
 * wild cards that is too hot for Python (ddz_rules/table.py, _wild_kicker_plays).
 *
 * It knows no rule. Given the ways a body is made (fills), the kicker sets its type may carry
 * from the whole hand (keys, in order) and the reading the body has with each (readings), it
 * appends, fill by fill and in the order of keys, a play for every kicker set the cards a fill
 * leaves contain; and for a body without kickers, a play per fill. table.py decides everything
 * else and does the same in Python where this module was not built; tests/test_kernel.py
 * checks the two agree play for play. hatch_build.py builds it at install (install again after
 * editing this file).
 *
 * Card sets are packed integers (ddz_rules/cards.py): a bit field per rank, under 128 bits.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#include "_packed.h"


/* Whether type_obj is a tuple type, as a play is (ddz_rules.table.Play). */
static int
is_tuple_type(PyObject *type_obj)
{
    return PyType_Check(type_obj) && PyType_IsSubtype((PyTypeObject *)type_obj, &PyTuple_Type);
}

/* Append play_type((key, reading)) to the list out, taking over the references to key and
 * reading; -1 with an exception set where that fails. */
static int
append_play(PyTypeObject *play_type, PyObject *out, PyObject *key, PyObject *reading)
{
    PyObject *play = play_type->tp_alloc(play_type, 2);
    if (play == NULL) {
        Py_DECREF(key);
        Py_DECREF(reading);
        return -1;
    }
    PyTuple_SET_ITEM(play, 0, key);
    PyTuple_SET_ITEM(play, 1, reading);
    int failed = PyList_Append(out, play);
    Py_DECREF(play);
    return failed;
}

/* Take back what a failing call appended to out since start, keeping its exception: NULL. */
static PyObject *
undo(PyObject *out, Py_ssize_t start)
{
#if PY_VERSION_HEX >= 0x030C0000
    PyObject *raised = PyErr_GetRaisedException();
    PyList_SetSlice(out, start, PyList_GET_SIZE(out), NULL);
    PyErr_SetRaisedException(raised);
#else
    PyObject *type, *value, *traceback;
    PyErr_Fetch(&type, &value, &traceback);
    PyList_SetSlice(out, start, PyList_GET_SIZE(out), NULL);
    PyErr_Restore(type, value, traceback);
#endif
    return NULL;
}

PyDoc_STRVAR(pack_doc,
"pack(keys) -> bytes\n\n"
"The packed card sets of the list keys as 128-bit integers, for kicker_plays.");

static PyObject *
pack(PyObject *module, PyObject *keys)
{
    (void)module;
    if (!PyList_Check(keys)) {
        PyErr_SetString(PyExc_TypeError, "pack() takes a list of packed card sets");
        return NULL;
    }
    Py_ssize_t n = PyList_GET_SIZE(keys);
    PyObject *packed = PyBytes_FromStringAndSize(NULL, n * (Py_ssize_t)sizeof(u128));
    if (packed == NULL) {
        return NULL;
    }
    char *at = PyBytes_AS_STRING(packed);
    for (Py_ssize_t i = 0; i < n; i++) {
        u128 k;
        if (as_u128(PyList_GET_ITEM(keys, i), &k) < 0) {
            Py_DECREF(packed);
            return NULL;
        }
        memcpy(at + i * sizeof(u128), &k, sizeof(u128));
    }
    return packed;
}

PyDoc_STRVAR(kicker_plays_doc,
"kicker_plays(play_type, fills, hand, fields, guard, keys, packed, readings, out) -> None\n\n"
"Append to the list out, for each fill of the list fills in order and each kicker set k of\n"
"the list keys in order (packed: pack(keys)) that the cards hand - fill hold in the bit\n"
"fields fields contain (guard: the top bit of every field), the play play_type((fill + k,\n"
"readings[k])), skipping a kicker set whose reading is None. Raises KeyError, with out as it\n"
"was, for a kicker set readings does not hold.");

static PyObject *
kicker_plays(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 9) {
        PyErr_Format(PyExc_TypeError, "kicker_plays() takes 9 arguments (%zd given)", nargs);
        return NULL;
    }
    PyObject *type_obj = args[0], *fills = args[1], *keys = args[5], *packed = args[6];
    PyObject *readings = args[7], *out = args[8];
    if (!is_tuple_type(type_obj) ||
        !PyList_Check(fills) || !PyList_Check(keys) || !PyBytes_Check(packed) ||
        !PyDict_Check(readings) || !PyList_Check(out)) {
        PyErr_SetString(PyExc_TypeError,
                        "kicker_plays() takes a tuple type, a list, three ints, a list, "
                        "bytes, a dict and a list");
        return NULL;
    }
    PyTypeObject *play_type = (PyTypeObject *)type_obj;
    u128 hand, fields, guard;
    if (as_u128(args[2], &hand) < 0 || as_u128(args[3], &fields) < 0 ||
        as_u128(args[4], &guard) < 0) {
        return NULL;
    }
    Py_ssize_t n = PyList_GET_SIZE(keys);
    if (PyBytes_GET_SIZE(packed) != n * (Py_ssize_t)sizeof(u128)) {
        PyErr_SetString(PyExc_ValueError, "kicker_plays(): packed is not pack(keys)");
        return NULL;
    }
    const char *at = PyBytes_AS_STRING(packed);
    Py_ssize_t start = PyList_GET_SIZE(out);
    for (Py_ssize_t f = 0; f < PyList_GET_SIZE(fills); f++) {
        PyObject *fill = PyList_GET_ITEM(fills, f);
        u128 made;
        if (as_u128(fill, &made) < 0) {
            goto fail;
        }
        u128 top = ((hand - made) & fields) | guard;
        for (Py_ssize_t i = 0; i < n; i++) {
            u128 k;
            memcpy(&k, at + i * sizeof(u128), sizeof(u128));
            if (((top - k) & guard) != guard) {
                continue;
            }
            PyObject *kicker = PyList_GET_ITEM(keys, i);
            PyObject *reading = PyDict_GetItemWithError(readings, kicker); /* borrowed */
            if (reading == NULL) {
                if (!PyErr_Occurred()) {
                    PyErr_SetObject(PyExc_KeyError, kicker);
                }
                goto fail;
            }
            if (reading == Py_None) {
                continue;
            }
            Py_INCREF(reading); /* held before anything below can run a collection */
            PyObject *key = PyNumber_Add(fill, kicker);
            if (key == NULL) {
                Py_DECREF(reading);
                goto fail;
            }
            if (append_play(play_type, out, key, reading) < 0) {
                goto fail;
            }
        }
    }
    Py_RETURN_NONE;
fail:
    return undo(out, start);
}

PyDoc_STRVAR(plain_plays_doc,
"plain_plays(play_type, fills, reading, out) -> None\n\n"
"Append to the list out the play play_type((fill, reading)) for each fill of the list fills,\n"
"in order: the plays of a body without kickers.");

static PyObject *
plain_plays(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 4) {
        PyErr_Format(PyExc_TypeError, "plain_plays() takes 4 arguments (%zd given)", nargs);
        return NULL;
    }
    PyObject *type_obj = args[0], *fills = args[1], *reading = args[2], *out = args[3];
    if (!is_tuple_type(type_obj) || !PyList_Check(fills) || !PyList_Check(out)) {
        PyErr_SetString(PyExc_TypeError,
                        "plain_plays() takes a tuple type, a list, a reading and a list");
        return NULL;
    }
    PyTypeObject *play_type = (PyTypeObject *)type_obj;
    Py_ssize_t start = PyList_GET_SIZE(out);
    for (Py_ssize_t f = 0; f < PyList_GET_SIZE(fills); f++) {
        PyObject *fill = PyList_GET_ITEM(fills, f);
        Py_INCREF(fill);
        Py_INCREF(reading);
        if (append_play(play_type, out, fill, reading) < 0) {
            return undo(out, start);
        }
    }
    Py_RETURN_NONE;
}

static PyMethodDef kernel_methods[] = {
    {"pack", (PyCFunction)pack, METH_O, pack_doc},
    {"kicker_plays", (PyCFunction)(void (*)(void))kicker_plays, METH_FASTCALL,
     kicker_plays_doc},
    {"plain_plays", (PyCFunction)(void (*)(void))plain_plays, METH_FASTCALL, plain_plays_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef kernel_module = {
    PyModuleDef_HEAD_INIT,
    "_kernel",
    "The play table's optional compiled kernel: see ddz_rules/_kernel.c.",
    0,
    kernel_methods,
    NULL,
    NULL,
    NULL,
    NULL,
};

PyMODINIT_FUNC
PyInit__kernel(void)
{
    return PyModuleDef_Init(&kernel_module);
}
