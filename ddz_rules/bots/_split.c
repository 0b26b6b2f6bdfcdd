/* The planning measure of the rule-based bots, compiled: how many plays a hand needs.
 *
 * ddz_rules/bots/split.py is the reference and says what the count means (a greedy split:
 * rocket and bombs, airplanes, pair chains, then trios carrying singles or pairs and what is
 * left, with and without straights, the smaller count winning). This is the same function
 * written over 128-bit packed card sets, so that `medium` can score every candidate play of a
 * decision in one call; tests/test_split.py proves the two equal. It knows no rule of any
 * ruleset: only the card layout of ddz_rules/cards.py, which it exports as LAYOUT and which
 * split.py checks before using it.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "../_packed.h"

/* ddz_rules/cards.py: a field of FIELD_BITS per rank, ranks 3..2 at 0..TWO, the jokers
 * after; chains run over 3..A. */
#define FIELD_BITS 5
#define FIELD_MASK ((1u << FIELD_BITS) - 1u)
#define ACE 11
#define TWO 12
#define SMALL_JOKER 13
#define BIG_JOKER 14
#define CHAIN_RANKS ((1u << (ACE + 1)) - 1u)

/* The first longest run of set bits of each chain mask: its lowest bit and its length. */
static signed char longest_start[CHAIN_RANKS + 1];
static unsigned char longest_len[CHAIN_RANKS + 1];

static void
fill_longest(void)
{
    for (unsigned mask = 0; mask <= CHAIN_RANKS; mask++) {
        int best_start = -1, best_len = 0;
        for (int start = 0; start <= ACE;) {
            if (mask >> start & 1u) {
                int end = start;
                while (end + 1 <= ACE && (mask >> (end + 1) & 1u)) {
                    end++;
                }
                if (end - start + 1 > best_len) {
                    best_start = start;
                    best_len = end - start + 1;
                }
                start = end + 1;
            }
            else {
                start++;
            }
        }
        longest_start[mask] = (signed char)best_start;
        longest_len[mask] = (unsigned char)best_len;
    }
}

static unsigned
field(u128 key, int rank)
{
    return (unsigned)(key >> (FIELD_BITS * rank)) & FIELD_MASK;
}

/* Plays for what is left once chains are taken: split.py's _rest. */
static long
rest(unsigned one, unsigned two, unsigned three, long jokers, long wings)
{
    long trios = __builtin_popcount(three);
    long pairs = __builtin_popcount(two & ~three);
    long singles = __builtin_popcount(one & ~two) + jokers;
    long carried = trios + wings < singles + pairs ? trios + wings : singles + pairs;
    return trios + pairs + singles - carried;
}

/* The first longest run of the chain ranks set in `mask`, as bits, where it is at least
 * `least` long (its length in `length`); else 0. */
static unsigned
longest_run(unsigned mask, int least, int *length)
{
    mask &= CHAIN_RANKS;
    *length = longest_len[mask];
    return *length < least ? 0u : ((1u << *length) - 1u) << longest_start[mask];
}

/* split.py's moves_of, step for step. */
static long
moves_of(u128 key)
{
    long n = 0;
    unsigned small = field(key, SMALL_JOKER), big = field(key, BIG_JOKER);
    long jokers = (long)small + (long)big;
    if (small && big) {
        n = 1;
        jokers = 0;
    }
    unsigned one = 0, two = 0, three = 0;
    for (int r = 0; r <= TWO; r++) {
        unsigned k = field(key, r), bit = 1u << r;
        if (k >= 4) {
            n++;
        }
        else if (k) {
            one |= bit;
            if (k >= 2) {
                two |= bit;
                if (k == 3) {
                    three |= bit;
                }
            }
        }
    }
    long wings = 0;
    int length;
    for (unsigned run; (run = longest_run(three, 2, &length));) { /* airplanes */
        one &= ~run;
        two &= ~run;
        three &= ~run;
        n++;
        wings += length;
    }
    for (unsigned run; (run = longest_run(two, 3, &length));) { /* pair chains */
        one &= ~(run & ~three);
        two &= ~run;
        three &= ~run;
        n++;
    }
    long without = rest(one, two, three, jokers, wings);
    long straights = 0;
    for (unsigned run; (run = longest_run(one, 5, &length));) { /* straights */
        one &= ~(run & ~two);
        two &= ~(run & ~three);
        three &= ~run;
        straights++;
    }
    if (!straights) {
        return n + without;
    }
    long with = straights + rest(one, two, three, jokers, wings);
    return n + (with < without ? with : without);
}

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
"The plays the greedy split finds for a packed card set (ddz_rules.bots.split.moves_of).");

static PyObject *
split_moves_of(PyObject *Py_UNUSED(module), PyObject *arg)
{
    u128 key;
    if (card_set(arg, &key) < 0) {
        return NULL;
    }
    return PyLong_FromLong(moves_of(key));
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
        PyObject *moves = PyLong_FromLong(moves_of(hand - play));
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
    fill_longest();
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
    "The bots' planning measure, compiled: see ddz_rules/bots/_split.c.",
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
