/* The planning measure of the rule-based bots, compiled: how many plays a hand needs.
 *
 * ddz_rules/split.py is the reference and says what the count means (a greedy split:
 * rocket and bombs, airplanes, pair chains, then trios carrying singles or pairs and what is
 * left, with and without straights, the smaller count winning). This is the same function
 * written over 128-bit packed card sets (_split.h, which _moves.c shares for the solver's
 * order of moves), so that `medium` can score every candidate play of a decision in one
 * call; tests/test_split.py proves the two equal. It knows no rule of any
 * ruleset: only the card layout of ddz_rules/cards.py, which it exports as LAYOUT and which
 * split.py checks before using it.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "_packed.h"

#include "_split.h"

/* Whether every field of `part` is at most the same field of `whole`. */
static int
within(u128 whole, u128 part)
{
    for (int r = 0; r <= BIG_JOKER; r++) {
        if (field(part, r) > field(whole, r)) {
            return 0;
        }
    }
    return 1;
}

/* A card set of ranks 3 to the big joker only: what the split counts. */
static int
card_set(PyObject *value, u128 *out)
{
    if (as_u128(value, out) < 0) {
        return -1;
    }
    if (*out >> (FIELD_BITS * (BIG_JOKER + 1))) {
        PyErr_SetString(PyExc_ValueError, "a card set with bits above the big joker's field");
        return -1;
    }
    return 0;
}

PyDoc_STRVAR(split_moves_of_doc,
"moves_of(key)\n--\n\n"
"The plays the greedy split finds for a packed card set (ddz_rules.split.moves_of).");

static PyObject *
split_moves_of(PyObject *Py_UNUSED(module), PyObject *arg)
{
    u128 key;
    if (card_set(arg, &key) < 0) {
        return NULL;
    }
    return PyLong_FromLong(split_plays(key));
}

PyDoc_STRVAR(split_moves_after_doc,
"moves_after(hand, plays)\n--\n\n"
"[moves_of(hand - p) for p in plays]: the plays the rest of a hand needs after each\n"
"candidate. Every play must be within the hand (ValueError otherwise).");

static PyObject *
split_moves_after(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "moves_after(hand, plays) takes two arguments");
        return NULL;
    }
    u128 hand;
    if (card_set(args[0], &hand) < 0) {
        return NULL;
    }
    PyObject *seq = PySequence_Fast(args[1], "plays must be a sequence of packed card sets");
    if (seq == NULL) {
        return NULL;
    }
    Py_ssize_t count = PySequence_Fast_GET_SIZE(seq);
    PyObject **items = PySequence_Fast_ITEMS(seq);
    PyObject *out = PyList_New(count);
    if (out == NULL) {
        Py_DECREF(seq);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        u128 play;
        if (card_set(items[i], &play) < 0) {
            goto fail;
        }
        if (!within(hand, play)) {
            PyErr_Format(PyExc_ValueError, "play %zd holds cards the hand does not", i);
            goto fail;
        }
        PyObject *moves = PyLong_FromLong(split_plays(hand - play));
        if (moves == NULL) {
            goto fail;
        }
        PyList_SET_ITEM(out, i, moves);
    }
    Py_DECREF(seq);
    return out;
fail:
    Py_DECREF(seq);
    Py_DECREF(out);
    return NULL;
}

static PyMethodDef split_methods[] = {
    {"moves_of", (PyCFunction)split_moves_of, METH_O, split_moves_of_doc},
    {"moves_after", (PyCFunction)(void (*)(void))split_moves_after, METH_FASTCALL,
     split_moves_after_doc},
    {NULL, NULL, 0, NULL},
};

static int
split_exec(PyObject *module)
{
    split_fill_longest();
    PyObject *layout = Py_BuildValue("(iiiii)", FIELD_BITS, ACE, TWO, SMALL_JOKER, BIG_JOKER);
    if (layout == NULL) {
        return -1;
    }
    if (PyModule_AddObject(module, "LAYOUT", layout) < 0) {
        Py_DECREF(layout);
        return -1;
    }
    return 0;
}

static PyModuleDef_Slot split_slots[] = {
    {Py_mod_exec, split_exec},
    {0, NULL},
};

static struct PyModuleDef split_module = {
    PyModuleDef_HEAD_INIT,
    "_split",
    "The bots' planning measure, compiled: see ddz_rules/_split.c.",
    0,
    split_methods,
    split_slots,
    NULL,
    NULL,
    NULL,
};

PyMODINIT_FUNC
PyInit__split(void)
{
    return PyModuleDef_Init(&split_module);
}
