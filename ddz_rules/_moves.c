/* The optional compiled move lister and hand runner. The lister gives a hand's leads and
 * answers from a play table flattened into arrays (ddz_rules/table.py's lister_arrays builds
 * them from its runs); the runner, further down, plays whole random hands with it from arrays
 * ddz_rules/runner.py builds.
 *
 * It knows no rule. A body (a chain of ranks, so many cards each) is a packed card set; its
 * plays are either one play id or a list of kicker sets, each with a play id. Leads visit the
 * bodies slot by slot (lowest rank, then width), answers visit them in the table's run order,
 * skipping to the end of a run at the first body the hand lacks, exactly as table.py's
 * _collect does. Which bodies may answer a class is a mask Python computes from
 * Reading.beats and hands over with learn(); nothing here compares readings. Served, near
 * the end, lets a compiled table's listing methods be the lister's own, with the table's
 * Python methods behind them for what the lister leaves to Python (it answers None).
 *
 * Card sets are packed integers (ddz_rules/cards.py): a field of `bits` bits per rank whose
 * top bit is the guard, so a set lies within another when ((top - set) & guard) == guard,
 * top being the other with every guard bit set.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stddef.h>
#include <string.h>
#include <stdlib.h>
#include <time.h>

#include "_packed.h"
#include "_split.h"


/* Candidate entries kept for answers over all classes before the cache starts again: bounds
 * the memory a table with many classes can take (8 bytes an entry, so 32 MB). */
#define ANSWER_BUDGET ((Py_ssize_t)1 << 22)

typedef struct {
    PyObject_HEAD
    int ranks, bits, max_width, max_hand;
    u128 guard, field, within;
    Py_ssize_t n_bodies, n_kicks, n_lead, n_answer, n_plays, n_slots, out_cap;
    u128 *keys;           /* n_bodies: each body's packed cards */
    int32_t *body_play;   /* n_bodies: its play id, or -1 where it takes kickers */
    int32_t *body_kicks;  /* n_bodies + 1: offsets into kick_keys and kick_ids */
    u128 *kick_keys;      /* n_kicks: a kicker set */
    int32_t *kick_ids;    /* n_kicks: the play id of its body with it */
    int32_t *lead_bodies; /* n_lead: bodies in lead order */
    int32_t *lead_skip;   /* n_lead: where the run of that body ends */
    int32_t *slots;       /* n_slots + 1: offsets into lead_bodies per (rank, width) */
    int32_t *answer_bodies, *answer_skip; /* n_answer: bodies in run order, run ends */
    int32_t **candidates; /* n_bodies: per previous class, its bodies then their skips */
    Py_ssize_t *candidate_len;
    Py_ssize_t candidate_total;
    int32_t *play_class;  /* n_plays: the class of each play (the index of its body) */
    int32_t *out;         /* out_cap: scratch for one listing */
    const void **reading_at; /* open addressing: each play's reading object, by address */
    int32_t *reading_class;  /* the class of the reading in the same slot */
    size_t reading_mask;     /* slots - 1 (a power of two, at least twice n_plays) */
    PyObject *plays;      /* tuple of n_plays plays */
    PyObject *ids;        /* tuple of the ints 0 .. n_plays - 1 */
} Lister;

/* Copy a bytes object of whole items of `size` bytes into fresh memory; its count in *n (or
 * checked against *n where expect is set). NULL with an exception on any mismatch. */
static void *
copy_items(PyObject *data, size_t size, Py_ssize_t *n, int expect, const char *name)
{
    if (!PyBytes_Check(data)) {
        PyErr_Format(PyExc_TypeError, "%s must be bytes", name);
        return NULL;
    }
    Py_ssize_t length = PyBytes_GET_SIZE(data);
    if (length % (Py_ssize_t)size != 0 || (expect && length / (Py_ssize_t)size != *n)) {
        PyErr_Format(PyExc_ValueError, "%s has the wrong length (%zd bytes)", name,
                     length);
        return NULL;
    }
    *n = length / (Py_ssize_t)size;
    if (*n > INT32_MAX - 1) {
        PyErr_Format(PyExc_ValueError, "%s is too long", name);
        return NULL;
    }
    void *copy = PyMem_Malloc(length ? (size_t)length : 1);
    if (copy == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    memcpy(copy, PyBytes_AS_STRING(data), (size_t)length);
    return copy;
}

/* Whether every value of values[0 .. n) lies in [low, high): else a ValueError naming it. */
static int
all_within(const int32_t *values, Py_ssize_t n, Py_ssize_t low, Py_ssize_t high,
           const char *name)
{
    for (Py_ssize_t i = 0; i < n; i++) {
        if (values[i] < low || values[i] >= high) {
            PyErr_Format(PyExc_ValueError, "%s[%zd] = %d is outside [%zd, %zd)",
                         name, i, (int)values[i], low, high);
            return 0;
        }
    }
    return 1;
}

/* Whether skip sends each position of a walk of n forward, to at most n, and each body of
 * bodies appears once at most (seen: n_bodies zeroed bytes, marked here). */
static int
walk_ok(const int32_t *bodies, const int32_t *skip, Py_ssize_t n, char *seen, const char *name)
{
    for (Py_ssize_t i = 0; i < n; i++) {
        if (skip[i] <= i || skip[i] > n) {
            PyErr_Format(PyExc_ValueError, "%s skips from %zd to %d", name, i,
                         (int)skip[i]);
            return 0;
        }
        if (seen[bodies[i]]) {
            PyErr_Format(PyExc_ValueError, "%s visits body %d twice", name,
                         (int)bodies[i]);
            return 0;
        }
        seen[bodies[i]] = 1;
    }
    return 1;
}

static void
forget_candidates(Lister *self)
{
    if (self->candidates != NULL) {
        for (Py_ssize_t c = 0; c < self->n_bodies; c++) {
            PyMem_Free(self->candidates[c]);
            self->candidates[c] = NULL;
            self->candidate_len[c] = 0;
        }
    }
    self->candidate_total = 0;
}

/* The slot of a reading's address in the table reading_at: where it is, or the empty slot
 * where it would go. */
static size_t
reading_slot(const Lister *self, const void *reading)
{
    size_t at = (((size_t)reading >> 4) * (size_t)0x9E3779B97F4A7C15ULL) & self->reading_mask;
    while (self->reading_at[at] != NULL && self->reading_at[at] != reading) {
        at = (at + 1) & self->reading_mask;
    }
    return at;
}

static void
Lister_dealloc(Lister *self)
{
    forget_candidates(self);
    PyMem_Free(self->candidates);
    PyMem_Free(self->candidate_len);
    PyMem_Free(self->keys);
    PyMem_Free(self->body_play);
    PyMem_Free(self->body_kicks);
    PyMem_Free(self->kick_keys);
    PyMem_Free(self->kick_ids);
    PyMem_Free(self->lead_bodies);
    PyMem_Free(self->lead_skip);
    PyMem_Free(self->slots);
    PyMem_Free(self->answer_bodies);
    PyMem_Free(self->answer_skip);
    PyMem_Free(self->out);
    PyMem_Free(self->play_class);
    PyMem_Free(self->reading_at);
    PyMem_Free(self->reading_class);
    Py_XDECREF(self->plays);
    Py_XDECREF(self->ids);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int
Lister_init(Lister *self, PyObject *args, PyObject *kwargs)
{
    static char *names[] = {"ranks", "bits", "max_width", "max_hand", "keys", "body_play", "body_kicks",
                            "kick_keys", "kick_ids", "lead_bodies", "lead_skip", "slots",
                            "answer_bodies", "answer_skip", "play_class", "plays", NULL};
    int ranks, bits, max_width, max_hand;
    PyObject *keys, *body_play, *body_kicks, *kick_keys, *kick_ids, *lead_bodies, *lead_skip;
    PyObject *slots, *answer_bodies, *answer_skip, *play_class, *plays;
    if (self->keys != NULL) {
        PyErr_SetString(PyExc_TypeError, "Lister(): already made");
        return -1;
    }
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "iiiiSSSSSSSSSSSO!:Lister", names, &ranks,
                                     &bits, &max_width, &max_hand, &keys, &body_play,
                                     &body_kicks, &kick_keys, &kick_ids, &lead_bodies,
                                     &lead_skip, &slots, &answer_bodies, &answer_skip,
                                     &play_class, &PyTuple_Type, &plays)) {
        return -1;
    }
    if (ranks < 1 || bits < 2 || max_width < 1 || max_width > 64 || ranks * bits > 128) {
        PyErr_SetString(PyExc_ValueError, "Lister(): ranks x bits must fit in 128 bits");
        return -1;
    }
    self->ranks = ranks;
    self->bits = bits;
    self->max_width = max_width;
    self->max_hand = max_hand;
    self->field = ((u128)1 << bits) - 1;
    self->guard = 0;
    for (int r = 0; r < ranks; r++) {
        self->guard |= (u128)1 << (bits * r + bits - 1);
    }
    self->within = ranks * bits == 128 ? ~(u128)0 : (((u128)1 << (ranks * bits)) - 1);
    self->n_plays = PyTuple_GET_SIZE(plays);
    self->n_slots = (Py_ssize_t)ranks * (max_width + 1);
    Py_ssize_t n_offsets = self->n_slots + 1, n_body_offsets;
    if (!(self->keys = copy_items(keys, sizeof(u128), &self->n_bodies, 0, "Lister(): keys"))) {
        return -1;
    }
    n_body_offsets = self->n_bodies + 1;
    if (!(self->body_play = copy_items(body_play, 4, &self->n_bodies, 1, "Lister(): body_play")) ||
        !(self->body_kicks = copy_items(body_kicks, 4, &n_body_offsets, 1, "Lister(): body_kicks")) ||
        !(self->kick_keys = copy_items(kick_keys, sizeof(u128), &self->n_kicks, 0,
                                       "Lister(): kick_keys")) ||
        !(self->kick_ids = copy_items(kick_ids, 4, &self->n_kicks, 1, "Lister(): kick_ids")) ||
        !(self->lead_bodies = copy_items(lead_bodies, 4, &self->n_lead, 0, "Lister(): lead_bodies")) ||
        !(self->lead_skip = copy_items(lead_skip, 4, &self->n_lead, 1, "Lister(): lead_skip")) ||
        !(self->slots = copy_items(slots, 4, &n_offsets, 1, "Lister(): slots")) ||
        !(self->answer_bodies = copy_items(answer_bodies, 4, &self->n_answer, 0,
                                           "Lister(): answer_bodies")) ||
        !(self->answer_skip = copy_items(answer_skip, 4, &self->n_answer, 1, "Lister(): answer_skip")) ||
        !(self->play_class = copy_items(play_class, 4, &self->n_plays, 1, "Lister(): play_class"))) {
        return -1;
    }
    if (!all_within(self->body_play, self->n_bodies, -1, self->n_plays, "Lister(): body_play") ||
        !all_within(self->body_kicks, n_body_offsets, 0, self->n_kicks + 1, "Lister(): body_kicks") ||
        !all_within(self->kick_ids, self->n_kicks, 0, self->n_plays, "Lister(): kick_ids") ||
        !all_within(self->lead_bodies, self->n_lead, 0, self->n_bodies, "Lister(): lead_bodies") ||
        !all_within(self->slots, n_offsets, 0, self->n_lead + 1, "Lister(): slots") ||
        !all_within(self->answer_bodies, self->n_answer, 0, self->n_bodies, "Lister(): answer_bodies") ||
        !all_within(self->play_class, self->n_plays, 0, self->n_bodies, "Lister(): play_class")) {
        return -1;
    }
    for (Py_ssize_t b = 0; b < self->n_bodies; b++) {
        if (self->body_kicks[b] > self->body_kicks[b + 1] ||
            (self->body_play[b] >= 0 && self->body_kicks[b] != self->body_kicks[b + 1])) {
            PyErr_Format(PyExc_ValueError, "Lister(): body %zd's kicker sets are misplaced", b);
            return -1;
        }
        if ((self->keys[b] & ~self->within) || (self->keys[b] & self->guard)) {
            PyErr_Format(PyExc_ValueError, "Lister(): body %zd is not a packed card set", b);
            return -1;
        }
    }
    for (Py_ssize_t k = 0; k < self->n_kicks; k++) {
        if ((self->kick_keys[k] & ~self->within) || (self->kick_keys[k] & self->guard)) {
            PyErr_Format(PyExc_ValueError, "Lister(): kicker set %zd is not packed", k);
            return -1;
        }
    }
    if (self->slots[0] != 0 || self->slots[self->n_slots] != self->n_lead) {
        PyErr_SetString(PyExc_ValueError, "Lister(): slots do not cover lead_bodies");
        return -1;
    }
    for (Py_ssize_t s = 0; s < self->n_slots; s++) {
        if (self->slots[s] > self->slots[s + 1]) {
            PyErr_SetString(PyExc_ValueError, "Lister(): slots go backwards");
            return -1;
        }
        for (Py_ssize_t i = self->slots[s]; i < self->slots[s + 1]; i++) {
            if (self->lead_skip[i] > self->slots[s + 1]) {
                PyErr_Format(PyExc_ValueError, "Lister(): lead_skip[%zd] leaves its slot", i);
                return -1;
            }
        }
    }
    char *seen = PyMem_Calloc((size_t)self->n_bodies + 1, 1);
    if (seen == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    int ok = walk_ok(self->lead_bodies, self->lead_skip, self->n_lead, seen, "Lister(): lead order");
    if (ok) {
        memset(seen, 0, (size_t)self->n_bodies + 1);
        ok = walk_ok(self->answer_bodies, self->answer_skip, self->n_answer, seen,
                     "answer order");
    }
    PyMem_Free(seen);
    if (!ok) {
        return -1;
    }
    /* Each body is visited once a listing at most, so a listing holds at most this many. */
    self->out_cap = 0;
    for (Py_ssize_t b = 0; b < self->n_bodies; b++) {
        self->out_cap += self->body_play[b] >= 0 ? 1 : self->body_kicks[b + 1] - self->body_kicks[b];
    }
    self->out = PyMem_Malloc(sizeof(int32_t) * (size_t)(self->out_cap + 1));
    self->candidates = PyMem_Calloc((size_t)self->n_bodies + 1, sizeof(int32_t *));
    self->candidate_len = PyMem_Calloc((size_t)self->n_bodies + 1, sizeof(Py_ssize_t));
    if (self->out == NULL || self->candidates == NULL || self->candidate_len == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    self->ids = PyTuple_New(self->n_plays);
    if (self->ids == NULL) {
        return -1;
    }
    for (Py_ssize_t i = 0; i < self->n_plays; i++) {
        PyObject *id = PyLong_FromSsize_t(i);
        if (id == NULL) {
            return -1;
        }
        PyTuple_SET_ITEM(self->ids, i, id);
    }
    /* Each play's reading (a Play is a tuple: cards, reading) by its address, so that an
     * answer to a reading of the table finds its class without hashing it in Python. The
     * tuple plays keeps every reading alive, so no other object can have its address. */
    size_t reading_slots = 2;
    while (reading_slots < 2 * (size_t)self->n_plays + 2) {
        reading_slots *= 2;
    }
    self->reading_mask = reading_slots - 1;
    self->reading_at = PyMem_Calloc(reading_slots, sizeof(void *));
    self->reading_class = PyMem_Calloc(reading_slots, sizeof(int32_t));
    if (self->reading_at == NULL || self->reading_class == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < self->n_plays; i++) {
        PyObject *play = PyTuple_GET_ITEM(plays, i);
        if (!PyTuple_Check(play) || PyTuple_GET_SIZE(play) != 2) {
            PyErr_Format(PyExc_TypeError, "Lister(): plays[%zd] is not a (cards, reading) "
                         "pair", i);
            return -1;
        }
        const void *reading = PyTuple_GET_ITEM(play, 1);
        size_t at = reading_slot(self, reading);
        self->reading_at[at] = reading;
        self->reading_class[at] = self->play_class[i];
    }
    Py_INCREF(plays);
    self->plays = plays;
    return 0;
}

/* The sum of the twelve 5-bit fields of x's low 60 bits (each at most 15): fields added in
 * pairs into 10-bit lanes, then the lanes by one multiplication. */
static inline int
fields5(uint64_t x)
{
    const uint64_t even = 0x07C1F07C1F07C1FULL; /* fields 0, 2, 4, ...: 5 bits every 10 */
    uint64_t pairs = (x & even) + ((x >> 5) & even); /* six lanes of at most 30 */
    return (int)(((pairs * 0x0040100401004010ULL >> 4) >> 50) & 0x3FF);
}

/* How many cards a packed set holds. */
static int
held(const Lister *lister, u128 hand)
{
    if (lister->bits == 5 && lister->ranks <= 24) {
        return fields5((uint64_t)hand & 0x0FFFFFFFFFFFFFFFULL) + fields5((uint64_t)(hand >> 60));
    }
    int n = 0;
    for (int r = 0; r < lister->ranks; r++) {
        n += (int)((hand >> (lister->bits * r)) & lister->field);
    }
    return n;
}

/* Whether every card of set lies in hand. */
static int
contains(const Lister *lister, u128 hand, u128 set)
{
    return (((hand | lister->guard) - set) & lister->guard) == lister->guard;
}

/* A hand as a packed set this lister can compare: 0, or 1 where it holds more than max_hand
 * cards (the caller says so in its words), -1 with an exception where it is not a set. */
static int
hand_of(Lister *self, PyObject *value, u128 *hand)
{
    if (as_u128(value, hand) < 0) {
        return -1;
    }
    if ((*hand & ~self->within) || (*hand & self->guard)) {
        PyErr_SetString(PyExc_ValueError, "a hand must be a packed card set");
        return -1;
    }
    return held(self, *hand) > self->max_hand;
}

/* Whether the listing of hand must be left to Python for the wild ranks `wild` (the table's
 * wild path, table.py): where hand holds a card of one of them, or `wild` is not a tuple of
 * this table's ranks (Python then says what is wrong with it). */
static int
wild_held(const Lister *self, u128 hand, PyObject *wild)
{
    if (!PyTuple_Check(wild)) {
        return 1;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(wild); i++) {
        PyObject *item = PyTuple_GET_ITEM(wild, i);
        long rank = PyLong_Check(item) ? PyLong_AsLong(item) : -1;
        if (rank == -1 && PyErr_Occurred()) {
            PyErr_Clear();
        }
        if (rank < 0 || rank >= self->ranks || ((hand >> (self->bits * rank)) & self->field)) {
            return 1;
        }
    }
    return 0;
}

/* Append to self->out, from position n, the play ids of the walk bodies/skip over [i, end)
 * that the hand holds; the new count. */
static Py_ssize_t
walk(Lister *self, u128 hand, const int32_t *bodies, const int32_t *skip, Py_ssize_t i,
     Py_ssize_t end, Py_ssize_t n)
{
    const u128 guard = self->guard, top = hand | guard;
    while (i < end) {
        int32_t b = bodies[i];
        u128 key = self->keys[b];
        if (((top - key) & guard) != guard) {
            i = skip[i];
            continue;
        }
        if (self->body_play[b] >= 0) {
            self->out[n++] = self->body_play[b];
        } else {
            u128 rest = (hand - key) | guard;
            for (int32_t k = self->body_kicks[b]; k < self->body_kicks[b + 1]; k++) {
                if (((rest - self->kick_keys[k]) & guard) == guard) {
                    self->out[n++] = self->kick_ids[k];
                }
            }
        }
        i++;
    }
    return n;
}

static Py_ssize_t
list_leads(Lister *self, u128 hand)
{
    Py_ssize_t n = 0;
    for (int r = 0; r < self->ranks; r++) {
        int held = (int)((hand >> (self->bits * r)) & self->field);
        int widest = held < self->max_width ? held : self->max_width;
        for (int w = 1; w <= widest; w++) {
            Py_ssize_t slot = (Py_ssize_t)r * (self->max_width + 1) + w;
            n = walk(self, hand, self->lead_bodies, self->lead_skip, self->slots[slot],
                     self->slots[slot + 1], n);
        }
    }
    return n;
}

/* The list of items[out[0 .. n)] (items: the plays, or the ids). */
static PyObject *
listed(Lister *self, Py_ssize_t n, PyObject *items)
{
    PyObject *list = PyList_New(n);
    if (list == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PyTuple_GET_ITEM(items, self->out[i]);
        Py_INCREF(item);
        PyList_SET_ITEM(list, i, item);
    }
    return list;
}

static PyObject *
leads_of(Lister *self, PyObject *hand_obj, PyObject *wild, PyObject *items)
{
    u128 hand;
    int refused = hand_of(self, hand_obj, &hand);
    if (refused) {
        if (refused < 0) {
            return NULL;
        }
        Py_RETURN_NONE;
    }
    if (wild != NULL && wild_held(self, hand, wild)) {
        Py_RETURN_NONE;
    }
    return listed(self, list_leads(self, hand), items);
}

PyDoc_STRVAR(lead_ids_doc, "lead_ids(hand) -> list[int] | None\n\nThe ids of the plays hand may "
             "lead, in the order table.py lists them;\nNone where it holds more than max_hand "
             "cards.");

static PyObject *
Lister_lead_ids(Lister *self, PyObject *hand)
{
    return leads_of(self, hand, NULL, self->ids);
}

PyDoc_STRVAR(leads_doc, "leads(hand, wild=()) -> list[Play] | None\n\nAs lead_ids, the plays "
             "themselves; also None where hand holds a card of the\nwild ranks (a tuple) "
             "given.");

static PyObject *
Lister_leads(Lister *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs < 1 || nargs > 2) {
        PyErr_SetString(PyExc_TypeError, "leads() takes a hand and, optionally, wild ranks");
        return NULL;
    }
    return leads_of(self, args[0], nargs == 2 ? args[1] : NULL, self->plays);
}

/* The walk (bodies, then skips) of the bodies whose class bit is set in mask, in answer order, with
 * each skip sent to the first candidate at or after the old run's end. */
static int
learn_class(Lister *self, Py_ssize_t cls, const char *mask)
{
    Py_ssize_t n = 0;
    for (Py_ssize_t i = 0; i < self->n_answer; i++) {
        n += mask[self->answer_bodies[i]] != 0;
    }
    if (self->candidate_total + n > ANSWER_BUDGET) {
        forget_candidates(self);
    }
    int32_t *pairs = PyMem_Malloc(sizeof(int32_t) * 2 * (size_t)(n + 1));
    int32_t *before = PyMem_Malloc(sizeof(int32_t) * (size_t)(self->n_answer + 1));
    if (pairs == NULL || before == NULL) {
        PyMem_Free(pairs);
        PyMem_Free(before);
        PyErr_NoMemory();
        return -1;
    }
    int32_t *skips = pairs + n;
    Py_ssize_t j = 0;
    for (Py_ssize_t i = 0; i < self->n_answer; i++) {
        before[i] = (int32_t)j; /* candidates before old position i */
        if (mask[self->answer_bodies[i]]) {
            pairs[j] = self->answer_bodies[i];
            skips[j] = self->answer_skip[i]; /* old; mapped below */
            j++;
        }
    }
    before[self->n_answer] = (int32_t)j;
    for (Py_ssize_t c = 0; c < n; c++) {
        skips[c] = before[skips[c]];
    }
    PyMem_Free(before);
    PyMem_Free(self->candidates[cls]);
    self->candidates[cls] = pairs;
    self->candidate_len[cls] = n;
    self->candidate_total += n;
    return 0;
}

PyDoc_STRVAR(learn_doc, "learn(cls, mask) -> None\n\nTake mask (a byte per body, set where the "
             "body's plays beat the class cls) as the\nbodies that may answer cls.");

static PyObject *
Lister_learn(Lister *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2 || !PyLong_Check(args[0]) || !PyBytes_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "learn() takes a class and bytes");
        return NULL;
    }
    Py_ssize_t cls = PyLong_AsSsize_t(args[0]);
    if (cls == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (cls < 0 || cls >= self->n_bodies || PyBytes_GET_SIZE(args[1]) != self->n_bodies) {
        PyErr_SetString(PyExc_ValueError, "learn(): a class of this table and a byte a body");
        return NULL;
    }
    if (learn_class(self, cls, PyBytes_AS_STRING(args[1])) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

/* What an answer is asked to beat: a class, a play id (its class), or a reading object of
 * one of the table's plays (its class, found by its address). */
enum answering { BY_CLASS, BY_PLAY, BY_READING };

/* The answers to what args[1] names (see enum answering) listed in self->out: their count;
 * -2 where the hand is too large, the class is not learnt yet, the reading is not one of
 * the table's, the play id is not one of the table's, or the hand holds a card of the wild
 * ranks args[2] (a reading's answers only); -1 with an exception on bad arguments. */
static Py_ssize_t
list_answers(Lister *self, PyObject *const *args, Py_ssize_t nargs, enum answering by)
{
    u128 hand;
    if (nargs != 2 && !(nargs == 3 && by == BY_READING)) {
        PyErr_SetString(PyExc_TypeError, "answers take a hand and a class, a play id or a "
                        "reading (and, with a reading, optionally wild ranks)");
        return -1;
    }
    int refused = hand_of(self, args[0], &hand);
    if (refused) {
        return refused < 0 ? -1 : -2;
    }
    if (nargs == 3 && wild_held(self, hand, args[2])) {
        return -2;
    }
    Py_ssize_t cls;
    if (by == BY_READING) {
        size_t at = reading_slot(self, args[1]);
        if (self->reading_at[at] == NULL) {
            return -2;
        }
        cls = self->reading_class[at];
    } else {
        cls = PyLong_AsSsize_t(args[1]);
        if (cls == -1 && PyErr_Occurred()) {
            return -1;
        }
        if (by == BY_PLAY && (cls < 0 || cls >= self->n_plays)) {
            return -2; /* not a play of this table: Python says so in its words */
        }
        if (by == BY_CLASS && (cls < 0 || cls >= self->n_bodies)) {
            PyErr_Format(PyExc_ValueError, "no class %zd in this table", cls);
            return -1;
        }
        if (by == BY_PLAY) {
            cls = self->play_class[cls];
        }
    }
    int32_t *pairs = self->candidates[cls];
    if (pairs == NULL) {
        return -2;
    }
    Py_ssize_t len = self->candidate_len[cls];
    return walk(self, hand, pairs, pairs + len, 0, len, 0);
}

/* The list of the answers (items: the plays, or the ids), or None (list_answers gave -2). */
static PyObject *
answered(Lister *self, PyObject *const *args, Py_ssize_t nargs, enum answering by,
         PyObject *items)
{
    Py_ssize_t n = list_answers(self, args, nargs, by);
    if (n == -2) {
        Py_RETURN_NONE;
    }
    return n < 0 ? NULL : listed(self, n, items);
}

PyDoc_STRVAR(answer_ids_doc, "answer_ids(hand, play) -> list[int] | None\n\nThe ids of the plays "
             "of hand that beat the play of id play, in table.py's order;\nNone where hand "
             "holds more than max_hand cards, play is not an id of the table,\nor the play's "
             "class is not learnt yet (see learn).");

static PyObject *
Lister_answer_ids(Lister *self, PyObject *const *args, Py_ssize_t nargs)
{
    return answered(self, args, nargs, BY_PLAY, self->ids);
}

PyDoc_STRVAR(answers_doc, "answers(hand, cls) -> list[Play] | None\n\nThe plays of hand that beat "
             "the class cls, as answer_ids.");

static PyObject *
Lister_answers(Lister *self, PyObject *const *args, Py_ssize_t nargs)
{
    return answered(self, args, nargs, BY_CLASS, self->plays);
}

PyDoc_STRVAR(answers_to_doc, "answers_to(hand, reading, wild=()) -> list[Play] | None\n\nThe plays "
             "of hand that beat reading, the reading of a play of the table (the\nvery "
             "object); None where it is not one, its class is not learnt yet, hand\nholds more "
             "than max_hand cards, or it holds a card of the wild ranks given.");

static PyObject *
Lister_answers_to(Lister *self, PyObject *const *args, Py_ssize_t nargs)
{
    return answered(self, args, nargs, BY_READING, self->plays);
}

static PyMethodDef Lister_methods[] = {
    {"answers_to", (PyCFunction)(void (*)(void))Lister_answers_to, METH_FASTCALL,
     answers_to_doc},
    {"lead_ids", (PyCFunction)Lister_lead_ids, METH_O, lead_ids_doc},
    {"leads", (PyCFunction)(void (*)(void))Lister_leads, METH_FASTCALL, leads_doc},
    {"answer_ids", (PyCFunction)(void (*)(void))Lister_answer_ids, METH_FASTCALL,
     answer_ids_doc},
    {"answers", (PyCFunction)(void (*)(void))Lister_answers, METH_FASTCALL, answers_doc},
    {"learn", (PyCFunction)(void (*)(void))Lister_learn, METH_FASTCALL, learn_doc},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject ListerType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ddz_rules._moves.Lister",
    .tp_doc = PyDoc_STR("A play table flattened for listing a hand's leads and answers."),
    .tp_basicsize = sizeof(Lister),
    .tp_itemsize = 0,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Lister_init,
    .tp_dealloc = (destructor)Lister_dealloc,
    .tp_methods = Lister_methods,
};

/* ------------------------------------------------------------------------ the hand runner
 *
 * A whole hand played with uniformly random choices, as ddz_rules/runner.py's Python loop
 * plays it: the same deal and the same choices from the same seeds, drawn from a twin of
 * CPython's random.Random (MT19937 seeded by init_by_array, _randbelow by getrandbits, shuffle
 * and choice as Lib/random.py writes them). It knows no rule either: ddz_rules/runner.py
 * hands it the deck, who bids first, the auction's state graph, each play's multiplier, the
 * closing and dealt-hand multipliers and the cap, all computed by the Python functions that
 * give them meaning; the loop is game.py's, and a differential test proves the two equal.
 */

#define MT_N 624
#define MT_M 397

typedef struct {
    uint32_t state[MT_N];
    int index; /* the next word to give */
    int made;  /* the words of this generation twisted so far: made as they are asked for,
                * since a deal asks for a few dozen of the 624 */
} Twister;

static void
twister_init(Twister *t, uint32_t seed)
{
    t->state[0] = seed;
    for (int i = 1; i < MT_N; i++) {
        t->state[i] = 1812433253U * (t->state[i - 1] ^ (t->state[i - 1] >> 30)) + (uint32_t)i;
    }
    t->index = t->made = MT_N;
}

/* random.Random(seed) for 0 <= seed < 2**64: init_by_array over its 32-bit words. */
static void
twister_seed(Twister *t, uint64_t seed)
{
    static Twister start; /* init_genrand(19650218), the same for every seed: made once */
    uint32_t key[2] = {(uint32_t)seed, (uint32_t)(seed >> 32)};
    size_t length = key[1] ? 2 : 1;
    uint32_t *mt = t->state;
    if (start.index != MT_N) {
        twister_init(&start, 19650218U);
    }
    memcpy(t, &start, sizeof(*t));
    size_t i = 1, j = 0;
    for (size_t k = MT_N > length ? MT_N : length; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525U)) + key[j] + (uint32_t)j;
        i++;
        j++;
        if (i >= MT_N) {
            mt[0] = mt[MT_N - 1];
            i = 1;
        }
        if (j >= length) {
            j = 0;
        }
    }
    for (size_t k = MT_N - 1; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941U)) - (uint32_t)i;
        i++;
        if (i >= MT_N) {
            mt[0] = mt[MT_N - 1];
            i = 1;
        }
    }
    mt[0] = 0x80000000U;
}

/* Twist the words of the generation up to `upto`: each word, in order, from itself, the next
 * and the one MT_M on (the next and that one not yet twisted, or twisted already where they
 * wrap round), exactly as the whole generation is twisted at once. */
static void
twister_make(Twister *t, int upto)
{
    static const uint32_t mag01[2] = {0x0U, 0x9908b0dfU};
    uint32_t *mt = t->state;
    for (int k = t->made; k < upto; k++) {
        uint32_t y = (mt[k] & 0x80000000U) | (mt[k + 1 < MT_N ? k + 1 : 0] & 0x7fffffffU);
        mt[k] = mt[k + MT_M < MT_N ? k + MT_M : k + MT_M - MT_N] ^ (y >> 1) ^ mag01[y & 1U];
    }
    t->made = upto;
}

static uint32_t
twister_next(Twister *t)
{
    if (t->index >= MT_N) {
        t->index = t->made = 0;
    }
    if (t->index >= t->made) {
        twister_make(t, t->index + 64 < MT_N ? t->index + 64 : MT_N);
    }
    uint32_t y = t->state[t->index++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= y >> 18;
    return y;
}

/* Random._randbelow_with_getrandbits(n) for 0 < n < 2**31. */
static uint32_t
twister_below(Twister *t, uint32_t n)
{
    int k = 0;
    while (k < 32 && (n >> k)) {
        k++;
    }
    uint32_t r;
    do {
        r = twister_next(t) >> (32 - k);
    } while (r >= n);
    return r;
}

PyDoc_STRVAR(draws_doc, "draws(seed, bounds) -> list[int]\n\nrandom.Random(seed).randrange(b) "
             "for each b of bounds in turn, by the\ntwister the hand runner draws from (0 <= "
             "seed < 2**64, 0 < b < 2**31): its test.");

static PyObject *
moves_draws(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2 || !PyLong_Check(args[0]) || !PyList_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "draws() takes a seed and a list of bounds");
        return NULL;
    }
    unsigned long long seed = PyLong_AsUnsignedLongLong(args[0]);
    if (seed == (unsigned long long)-1 && PyErr_Occurred()) {
        return NULL;
    }
    Twister t;
    twister_seed(&t, seed);
    Py_ssize_t n = PyList_GET_SIZE(args[1]);
    PyObject *out = PyList_New(n);
    if (out == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long bound = PyLong_AsLong(PyList_GET_ITEM(args[1], i));
        if (bound <= 0 || bound > INT32_MAX) {
            Py_DECREF(out);
            if (!PyErr_Occurred()) {
                PyErr_SetString(PyExc_ValueError, "draws(): each bound in (0, 2**31)");
            }
            return NULL;
        }
        PyObject *drawn = PyLong_FromUnsignedLong(twister_below(&t, (uint32_t)bound));
        if (drawn == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, drawn);
    }
    return out;
}

typedef struct {
    PyObject_HEAD
    Lister *lister;       /* lists each seat's leads and answers */
    PyObject *teach;      /* teach(cls): the lister learns which bodies answer class cls */
    int players, hand_size, kitty, deck_len, draw;
    uint8_t *deck;        /* deck_len: each card's rank, in the deck's order before shuffling */
    int32_t *first;       /* who bids first, by dealer, then draw, then the top card's rank */
    Py_ssize_t n_nodes, n_edges, max_trace;
    int32_t *node_edges;  /* n_nodes + 1: offsets into edge_child; none: an ending node */
    int32_t *edge_child;  /* n_edges: the node each legal word leads to, in legal() order */
    int32_t *roots;       /* players: the auction's first node, by first bidder */
    int32_t *landlord;    /* n_nodes: an ending's landlord, -1 for a redeal */
    int32_t *goal;        /* n_nodes: cards at which a peasant wins (-1: his hand empty) */
    int64_t *base;        /* n_nodes: an ending's base */
    int64_t *factor;      /* n_nodes: what the auction's robs and grabs multiply by */
    Py_ssize_t n_calls;
    int32_t *calls;       /* n_calls: the ranks the landlord may call, -1 for alone; or none */
    u128 *play_key;       /* each play's cards */
    int64_t *play_factor; /* each play's multiplier (1: none) */
    int64_t spring, anti_spring, cap; /* cap -1: none */
    Py_ssize_t n_bonuses;
    u128 *bonus_key;      /* n_bonuses: cards a dealt hand holds to earn the bonus */
    int64_t *bonus_amount;
    uint8_t *bonus_paid;  /* 1: paid by every other seat; 0: a multiplier */
    Py_ssize_t n_priority;
    int32_t *priority;    /* cards (indices into deck) whose holder leads first; or none */
    int alone;            /* no landlord: an auction without one plays on, settled by cards */
    uint8_t *last_only;   /* each play: it may only empty its player's hand */
    int64_t *play_paid;   /* each play: what every other seat pays its player at once */
    int bound;            /* whether any play duty applies; then which */
    int must_beat, warns_single, first_holds;
    int64_t per_card, shut_out; /* cards-left settlement: per card, times for a seat shut out */
    int liable_pays;      /* the seat that let the winner out pays for all */
    int liable_causal;    /* ... only where its highest single would have held the winner */
    int last_card_free;   /* a loser holding one card pays nothing */
    int paid_on_win;      /* a play is paid once it wins its trick, not when it is played */
    Py_ssize_t n_pool, n_drawn;
    uint8_t *wild_pool;   /* n_pool: the ranks the deal may draw wild (Random.sample's pool) */
    uint8_t *wild_before; /* n_drawn: each drawn rank is wild from the deal on, else past the
                           * auction */
    PyObject *wild_turn;  /* wild_turn(hand, play to beat or None, wild) -> list of plays */
    PyObject *facts;      /* facts(play) -> (cards, id or -1, multiplier, payment) */
    int32_t *trace;       /* max_trace: the choices of the hand being played */
} Runner;

static void
Runner_dealloc(Runner *self)
{
    Py_XDECREF(self->lister);
    Py_XDECREF(self->teach);
    PyMem_Free(self->deck);
    PyMem_Free(self->first);
    PyMem_Free(self->node_edges);
    PyMem_Free(self->edge_child);
    PyMem_Free(self->roots);
    PyMem_Free(self->landlord);
    PyMem_Free(self->goal);
    PyMem_Free(self->base);
    PyMem_Free(self->factor);
    PyMem_Free(self->calls);
    PyMem_Free(self->play_key);
    PyMem_Free(self->play_factor);
    PyMem_Free(self->bonus_key);
    PyMem_Free(self->bonus_amount);
    PyMem_Free(self->bonus_paid);
    PyMem_Free(self->priority);
    PyMem_Free(self->wild_pool);
    PyMem_Free(self->wild_before);
    Py_XDECREF(self->wild_turn);
    Py_XDECREF(self->facts);
    PyMem_Free(self->last_only);
    PyMem_Free(self->play_paid);
    PyMem_Free(self->trace);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Whether each of values[0 .. n) is at least low: else a ValueError naming it. */
static int
all_at_least(const int64_t *values, Py_ssize_t n, int64_t low, const char *name)
{
    for (Py_ssize_t i = 0; i < n; i++) {
        if (values[i] < low) {
            PyErr_Format(PyExc_ValueError, "%s[%zd] is below %lld", name, i,
                         (long long)low);
            return 0;
        }
    }
    return 1;
}

static int
Runner_init(Runner *self, PyObject *args, PyObject *kwargs)
{
    static char *names[] = {"lister", "teach", "players", "hand_size", "kitty", "deck", "draw",
                            "first", "node_edges", "edge_child", "roots",
                            "landlord", "goal", "base", "factor", "calls", "play_key",
                            "play_factor", "spring", "anti_spring", "cap", "bonus_key",
                            "bonus_amount", "bonus_paid", "priority", "alone", "last_only",
                            "play_paid", "bound", "must_beat", "warns_single", "first_holds",
                            "per_card", "shut_out", "liable_pays", "last_card_free",
                            "liable_causal", "paid_on_win", "wild_pool",
                            "wild_before", "wild_turn", "facts", NULL};
    PyObject *lister, *teach, *deck, *first, *node_edges, *edge_child, *roots, *landlord, *goal;
    PyObject *base, *factor, *calls, *play_key, *play_factor, *bonus_key, *bonus_amount;
    PyObject *bonus_paid, *priority, *last_only, *play_paid, *wild_pool, *wild_before;
    PyObject *wild_turn, *facts;
    long long spring, anti_spring, cap, per_card, shut_out;
    if (self->lister != NULL) {
        PyErr_SetString(PyExc_TypeError, "Runner(): already made");
        return -1;
    }
    if (!PyArg_ParseTupleAndKeywords(
            args, kwargs, "O!OiiiSiSSSSSSSSSSSLLLSSSSpSSppppLLppppSSOO:Runner", names, &ListerType, &lister,
            &teach, &self->players, &self->hand_size, &self->kitty, &deck, &self->draw,
            &first, &node_edges, &edge_child, &roots, &landlord, &goal, &base,
            &factor, &calls, &play_key, &play_factor, &spring, &anti_spring, &cap, &bonus_key,
            &bonus_amount, &bonus_paid, &priority, &self->alone, &last_only, &play_paid,
            &self->bound, &self->must_beat, &self->warns_single, &self->first_holds, &per_card, &shut_out,
            &self->liable_pays, &self->last_card_free, &self->liable_causal, &self->paid_on_win,
            &wild_pool, &wild_before, &wild_turn, &facts)) {
        return -1;
    }
    Lister *with = (Lister *)lister;
    if (!PyCallable_Check(teach)) {
        PyErr_SetString(PyExc_TypeError, "Runner(): teach must be callable");
        return -1;
    }
    if (self->players < 2 || self->players > 16 || self->hand_size < 1 || self->kitty < 0 ||
        self->hand_size + self->kitty > with->max_hand) {
        PyErr_SetString(PyExc_ValueError, "Runner(): 2 to 16 players, and a landlord's hand "
                        "within the lister's largest");
        return -1;
    }
    Py_ssize_t n_players = self->players, n_plays = with->n_plays;
    Py_ssize_t deck_len;
    if (!(self->deck = copy_items(deck, 1, &deck_len, 0, "Runner(): deck"))) {
        return -1;
    }
    if (deck_len > 4096 ||
        (Py_ssize_t)self->players * self->hand_size + self->kitty > deck_len) {
        PyErr_SetString(PyExc_ValueError, "Runner(): the deck must hold every seat's cards and "
                        "the kitty, and at most 4096 cards");
        return -1;
    }
    self->deck_len = (int)deck_len;
    int counts[128] = {0};
    for (Py_ssize_t i = 0; i < self->deck_len; i++) {
        if (self->deck[i] >= with->ranks ||
            ++counts[self->deck[i]] >= (int)(with->field >> 1)) {
            PyErr_Format(PyExc_ValueError, "Runner(): deck card %zd does not fit the fields", i);
            return -1;
        }
    }
    if (self->draw < 0 || self->draw > self->deck_len) {
        PyErr_SetString(PyExc_ValueError, "Runner(): draw must be 0, or a bound within the "
                        "deck's size");
        return -1;
    }
    Py_ssize_t n_first = n_players * (self->draw ? self->draw : 1) * with->ranks;
    if (!(self->first = copy_items(first, 4, &n_first, 1, "Runner(): first")) ||
        !all_within(self->first, n_first, 0, n_players, "Runner(): first") ||
        !(self->node_edges = copy_items(node_edges, 4, &self->n_nodes, 0, "Runner(): node_edges"))) {
        return -1;
    }
    self->n_nodes -= 1;
    if (self->n_nodes < 1 || self->n_nodes > (1 << 20)) {
        PyErr_SetString(PyExc_ValueError, "Runner(): 1 to 2**20 auction nodes");
        return -1;
    }
    Py_ssize_t n_nodes = self->n_nodes;
    if (!(self->edge_child = copy_items(edge_child, 4, &self->n_edges, 0, "Runner(): edge_child")) ||
        !all_within(self->edge_child, self->n_edges, 0, n_nodes, "Runner(): edge_child") ||
        !all_within(self->node_edges, n_nodes + 1, 0, self->n_edges + 1, "Runner(): node_edges") ||
        !(self->roots = copy_items(roots, 4, &n_players, 1, "Runner(): roots")) ||
        !all_within(self->roots, n_players, 0, n_nodes, "Runner(): roots") ||
        !(self->landlord = copy_items(landlord, 4, &n_nodes, 1, "Runner(): landlord")) ||
        !all_within(self->landlord, n_nodes, -1, n_players, "Runner(): landlord") ||
        !(self->goal = copy_items(goal, 4, &n_nodes, 1, "Runner(): goal")) ||
        !all_within(self->goal, n_nodes, -1, self->deck_len + 1, "Runner(): goal") ||
        !(self->base = copy_items(base, 8, &n_nodes, 1, "Runner(): base")) ||
        !all_at_least(self->base, n_nodes, 0, "Runner(): base") ||
        !(self->factor = copy_items(factor, 8, &n_nodes, 1, "Runner(): factor")) ||
        !all_at_least(self->factor, n_nodes, 1, "Runner(): factor") ||
        !(self->calls = copy_items(calls, 4, &self->n_calls, 0, "Runner(): calls")) ||
        !all_within(self->calls, self->n_calls, -1, with->ranks, "Runner(): calls") ||
        !(self->play_key = copy_items(play_key, sizeof(u128), &n_plays, 1, "Runner(): play_key")) ||
        !(self->play_factor = copy_items(play_factor, 8, &n_plays, 1, "Runner(): play_factor")) ||
        !all_at_least(self->play_factor, n_plays, 1, "Runner(): play_factor") ||
        !(self->bonus_key = copy_items(bonus_key, sizeof(u128), &self->n_bonuses, 0,
                                       "Runner(): bonus_key")) ||
        !(self->bonus_amount = copy_items(bonus_amount, 8, &self->n_bonuses, 1,
                                          "Runner(): bonus_amount")) ||
        !all_at_least(self->bonus_amount, self->n_bonuses, 1, "Runner(): bonus_amount") ||
        !(self->bonus_paid = copy_items(bonus_paid, 1, &self->n_bonuses, 1, "Runner(): bonus_paid")) ||
        !(self->priority = copy_items(priority, 4, &self->n_priority, 0, "Runner(): priority")) ||
        !all_within(self->priority, self->n_priority, 0, deck_len, "Runner(): priority") ||
        !(self->last_only = copy_items(last_only, 1, &n_plays, 1, "Runner(): last_only")) ||
        !(self->play_paid = copy_items(play_paid, 8, &n_plays, 1, "Runner(): play_paid")) ||
        !all_at_least(self->play_paid, n_plays, 0, "Runner(): play_paid")) {
        return -1;
    }
    /* Amounts are bounded so that no sum of them over a hand leaves 64 bits; products are
     * checked as they are made. */
    for (Py_ssize_t i = 0; i < n_plays; i++) {
        if (self->play_paid[i] > ((int64_t)1 << 40)) {
            PyErr_SetString(PyExc_ValueError, "Runner(): a payment past 2**40");
            return -1;
        }
    }
    for (Py_ssize_t i = 0; i < self->n_bonuses; i++) {
        if (self->bonus_amount[i] > ((int64_t)1 << 40)) {
            PyErr_SetString(PyExc_ValueError, "Runner(): a bonus past 2**40");
            return -1;
        }
    }
    if (per_card < 0 || shut_out < 1) {
        PyErr_SetString(PyExc_ValueError, "Runner(): per_card at least 0, shut_out at least 1");
        return -1;
    }
    self->per_card = per_card;
    self->shut_out = shut_out;
    if (!(self->wild_pool = copy_items(wild_pool, 1, &self->n_pool, 0, "Runner(): wild_pool")) ||
        !(self->wild_before = copy_items(wild_before, 1, &self->n_drawn, 0,
                                         "Runner(): wild_before"))) {
        return -1;
    }
    /* Random.sample draws from a copy of a pool this small (21 or fewer). */
    if (self->n_pool > 21 || self->n_drawn > self->n_pool) {
        PyErr_SetString(PyExc_ValueError, "Runner(): at most 21 wild ranks to draw from, and "
                        "no more drawn");
        return -1;
    }
    for (Py_ssize_t i = 0; i < self->n_pool; i++) {
        if (self->wild_pool[i] >= with->ranks) {
            PyErr_Format(PyExc_ValueError, "Runner(): wild_pool[%zd] is not a rank", i);
            return -1;
        }
    }
    if (self->n_drawn && (!PyCallable_Check(wild_turn) || !PyCallable_Check(facts))) {
        PyErr_SetString(PyExc_TypeError, "Runner(): wild_turn and facts must be callable "
                        "where wild ranks are drawn");
        return -1;
    }
    Py_INCREF(wild_turn);
    self->wild_turn = wild_turn;
    Py_INCREF(facts);
    self->facts = facts;
    for (Py_ssize_t i = 0; i < n_plays; i++) {
        if (self->play_key[i] == 0 || (self->play_key[i] & ~with->within) ||
            (self->play_key[i] & with->guard)) {
            PyErr_Format(PyExc_ValueError, "Runner(): play %zd's cards are not a packed set",
                         i);
            return -1;
        }
    }
    for (Py_ssize_t i = 0; i < n_nodes; i++) {
        if (self->node_edges[i] > self->node_edges[i + 1]) {
            PyErr_SetString(PyExc_ValueError, "Runner(): node_edges go backwards");
            return -1;
        }
    }
    if (spring < 1 || anti_spring < 1 || cap < -1) {
        PyErr_SetString(PyExc_ValueError, "Runner(): spring factors of at least 1, a cap of -1 "
                        "(none) or more");
        return -1;
    }
    self->spring = spring;
    self->anti_spring = anti_spring;
    self->cap = cap;
    /* Every play takes a card and each seat passes once a play at most, so a hand's choices
     * are bounded by the auction's longest walk, the call and this. */
    self->max_trace = n_nodes + 1 + (Py_ssize_t)self->deck_len * self->players;
    self->trace = PyMem_Malloc(sizeof(int32_t) * (size_t)self->max_trace);
    if (self->trace == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    Py_INCREF(lister);
    self->lister = with;
    Py_INCREF(teach);
    self->teach = teach;
    return 0;
}

/* Multiply *stake by factor: 0, or -1 where the product leaves 64 bits (Python then plays). */
static int
times(int64_t *stake, int64_t factor)
{
    return __builtin_mul_overflow(*stake, factor, stake) ? -1 : 0;
}

/* The answers of hand to class cls in lister->out, the class taught first where it is not
 * (teach(cls), Python's Reading.beats): their count, or -1 with an exception. */
static Py_ssize_t
taught_answers(Lister *lister, PyObject *teach, u128 hand, int32_t cls)
{
    if (lister->candidates[cls] == NULL) {
        PyObject *done = PyObject_CallFunction(teach, "i", (int)cls);
        if (done == NULL) {
            return -1;
        }
        Py_DECREF(done);
        if (lister->candidates[cls] == NULL) {
            PyErr_Format(PyExc_RuntimeError, "teach(%d) taught nothing", (int)cls);
            return -1;
        }
    }
    int32_t *pairs = lister->candidates[cls];
    Py_ssize_t len = lister->candidate_len[cls];
    return walk(lister, hand, pairs, pairs + len, 0, len, 0);
}

static Py_ssize_t
runner_answers(Runner *self, u128 hand, int32_t cls)
{
    return taught_answers(self->lister, self->teach, hand, cls);
}

/* What one hand's play came to, for the caller to return. */
typedef struct {
    int64_t scores[16];
    int redeal;
    Py_ssize_t choices;
} Played;

/* The highest rank a hand holds, -1 for none. */
static int
highest(const Lister *lister, u128 hand)
{
    for (int r = lister->ranks - 1; r >= 0; r--) {
        if ((hand >> (lister->bits * r)) & lister->field) {
            return r;
        }
    }
    return -1;
}

/* Whether play, a single below the highest rank of hand, may let a player holding one card
 * out (duties.lets_out, given that the next player holds one card). */
static int
low_single(const Lister *lister, u128 key, u128 hand)
{
    return held(lister, key) == 1 && !((key >> (lister->bits * highest(lister, hand))) &
                                       lister->field);
}

/* Keep in plays[0 .. n) only the plays the duties allow this turn (duties.refusal): the
 * new count. play_key and last_only are per play id. */
static Py_ssize_t
keep_allowed(const Lister *lister, const u128 *play_key, const uint8_t *last_only,
             int warns_single, int32_t *plays, Py_ssize_t n, u128 hand, int next_cards,
             int must_hold)
{
    Py_ssize_t kept = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        int32_t play = plays[i];
        u128 key = play_key[play];
        if ((last_only[play] && key != hand) ||
            (must_hold >= 0 && !((key >> (lister->bits * must_hold)) & lister->field)) ||
            (warns_single && next_cards == 1 && low_single(lister, key, hand))) {
            continue;
        }
        plays[kept++] = play;
    }
    return kept;
}

static Py_ssize_t
allowed(Runner *self, Py_ssize_t n, u128 hand, int next_cards, int must_hold)
{
    return keep_allowed(self->lister, self->play_key, self->last_only, self->warns_single,
                        self->lister->out, n, hand, next_cards, must_hold);
}

/* Pay amount to seat from every other seat. */
static void
pay(int64_t *scores, int n, int seat, int64_t amount)
{
    for (int other = 0; other < n; other++) {
        scores[other] += other == seat ? amount * (n - 1) : -amount;
    }
}

/* scoring.settle_alone into scores: the first player out is paid for the cards left. 0, or 1
 * where a sum leaves 64 bits. */
static int
settle_alone(Runner *self, const u128 *hands, const int *plays, int winner, int liable,
             int64_t *scores)
{
    const int n = self->players;
    int64_t owed[16], total = 0;
    for (int s = 0; s < n; s++) {
        owed[s] = 0;
        if (s == winner || (self->last_card_free && held(self->lister, hands[s]) == 1)) {
            continue;
        }
        if (__builtin_mul_overflow((int64_t)held(self->lister, hands[s]), self->per_card,
                                   &owed[s]) ||
            (!plays[s] && times(&owed[s], self->shut_out) < 0)) {
            return 1;
        }
        if (self->cap >= 0 && owed[s] > self->cap) {
            owed[s] = self->cap;
        }
        if (__builtin_add_overflow(total, owed[s], &total)) {
            return 1;
        }
    }
    for (int s = 0; s < n; s++) {
        int64_t due = owed[s];
        if (self->liable_pays && liable >= 0) {
            due = s == liable ? total : 0;
        }
        scores[s] += s == winner ? total : -due;
    }
    return 0;
}

/* A packed card set as a Python int (only wild turns pay for it). */
static PyObject *
from_u128(u128 value)
{
    PyObject *high = PyLong_FromUnsignedLongLong((unsigned long long)(value >> 64));
    PyObject *low = PyLong_FromUnsignedLongLong((unsigned long long)value);
    PyObject *shift = PyLong_FromLong(64), *moved = NULL, *out = NULL;
    if (high != NULL && low != NULL && shift != NULL) {
        moved = PyNumber_Lshift(high, shift);
        if (moved != NULL) {
            out = PyNumber_Or(moved, low);
        }
    }
    Py_XDECREF(high);
    Py_XDECREF(low);
    Py_XDECREF(shift);
    Py_XDECREF(moved);
    return out;
}

/* The plays of a turn where wild cards are in play, listed by Python (a new list), or NULL
 * with an exception. */
static PyObject *
list_wild(Runner *self, u128 hand, PyObject *previous, PyObject *wild)
{
    PyObject *hand_obj = from_u128(hand);
    if (hand_obj == NULL) {
        return NULL;
    }
    PyObject *plays = PyObject_CallFunctionObjArgs(self->wild_turn, hand_obj, previous, wild,
                                                   NULL);
    Py_DECREF(hand_obj);
    if (plays != NULL && !PyList_Check(plays)) {
        PyErr_SetString(PyExc_TypeError, "Runner: wild_turn must return a list");
        Py_CLEAR(plays);
    }
    return plays;
}

/* The facts of a play listed by Python: its cards, table id (-1: none), multiplier and
 * payment. 0, or -1 with an exception. */
static int
play_facts(Runner *self, PyObject *play, u128 *key, int32_t *id, int64_t *factor,
           int64_t *paid)
{
    PyObject *facts = PyObject_CallOneArg(self->facts, play);
    if (facts == NULL) {
        return -1;
    }
    long long found_id = -2, found_factor = 0, found_paid = -1;
    int ok = PyTuple_Check(facts) && PyTuple_GET_SIZE(facts) == 4 &&
             as_u128(PyTuple_GET_ITEM(facts, 0), key) == 0;
    if (ok) {
        found_id = PyLong_AsLongLong(PyTuple_GET_ITEM(facts, 1));
        found_factor = PyLong_AsLongLong(PyTuple_GET_ITEM(facts, 2));
        found_paid = PyLong_AsLongLong(PyTuple_GET_ITEM(facts, 3));
    }
    Py_DECREF(facts);
    if (PyErr_Occurred()) {
        return -1;
    }
    if (!ok || found_id < -1 || found_id >= self->lister->n_plays || found_factor < 1 ||
        found_paid < 0 || found_paid > ((int64_t)1 << 40) || *key == 0 ||
        (*key & ~self->lister->within) || (*key & self->lister->guard)) {
        PyErr_SetString(PyExc_ValueError, "Runner: facts(play) must be (cards, id or -1, "
                        "multiplier >= 1, payment >= 0)");
        return -1;
    }
    *id = (int32_t)found_id;
    *factor = found_factor;
    *paid = found_paid;
    return 0;
}

/* A hand being played, one action at a time: Hand's loop (ddz_rules/game.py) as a state the
 * runner's random play and the stepped tables further down share. A hand moves through the
 * auction (a node of the auction's graph), the landlord's partner call, then the play, to
 * its end (HAND_OVER, with its scores, or dealt again). */
enum { HAND_AUCTION, HAND_CALL, HAND_PLAY, HAND_OVER };

typedef struct {
    u128 hands[16], dealt[16], kitty;
    int dealer, first, lead_rank, stage, redeal;
    int marked, turned;   /* the marked and the turned card's ranks, -1 where none */
    int32_t node;         /* the auction's state */
    int landlord, goal, called, partner;
    int64_t stake;
    int seat, beat_seat, passes, winner, letting_out, letting_high, liable, waiting_seat;
    int plays[16];
    int64_t waiting;      /* scoring.bomb_paid_when trick_won: the bomb leading the trick */
    int32_t beat;         /* the play to beat, by its table id, where it has one */
    PyObject *beat_obj;   /* the play to beat where Python listed it (wild cards) */
    PyObject *wild;       /* the wild ranks in play, a tuple, where any are */
    u128 wild_fields;     /* the fields of the ranks wild in the play */
    Py_ssize_t side_plays[2]; /* the opponents', the landlord side's */
    Py_ssize_t steps, play_starts;
    int64_t scores[16];
    uint8_t wild_ranks[21];
    PyObject *python;     /* the plays of this turn, where Python listed them */
    Py_ssize_t listed;    /* the plays of this turn (in lister->out, or python) */
    int may_pass;
} HandState;

static void
hand_clear(HandState *h)
{
    Py_CLEAR(h->beat_obj);
    Py_CLEAR(h->wild);
    Py_CLEAR(h->python);
}

static int hand_auction_over(Runner *self, HandState *h);

/* Deal the hand of seed from dealer (random.Random(seed) as game.deal shuffles): 0; 1 where
 * the stake leaves 64 bits; -1 with an exception. */
static int
hand_deal(Runner *self, HandState *h, uint64_t seed, int dealer)
{
    Lister *lister = self->lister;
    const int n = self->players;
    Twister rng;
    int16_t order[4096], at[4096];
    memset(h, 0, sizeof(*h));
    twister_seed(&rng, seed);
    for (int i = 0; i < self->deck_len; i++) {
        order[i] = (int16_t)i;
        at[i] = -1;
    }
    for (int i = self->deck_len - 1; i > 0; i--) {
        int j = (int)twister_below(&rng, (uint32_t)i + 1);
        int16_t swap = order[i];
        order[i] = order[j];
        order[j] = swap;
    }
    const int dealt_cards = n * self->hand_size;
    for (int i = 0; i < dealt_cards; i++) {
        h->hands[(dealer + 1 + i) % n] += (u128)1 << (lister->bits * self->deck[order[i]]);
        at[order[i]] = (int16_t)i;
    }
    for (int i = dealt_cards; i < dealt_cards + self->kitty; i++) {
        h->kitty += (u128)1 << (lister->bits * self->deck[order[i]]);
    }
    memcpy(h->dealt, h->hands, sizeof(h->dealt));
    int drawn = self->draw ? (int)twister_below(&rng, (uint32_t)self->draw) : 0;
    h->dealer = dealer;
    h->first = self->first[((Py_ssize_t)dealer * (self->draw ? self->draw : 1) + drawn) *
                           lister->ranks + self->deck[order[0]]];
    h->turned = self->deck[order[0]];
    h->marked = self->draw ? self->deck[order[drawn]] : -1;
    h->lead_rank = -1; /* the rank of the card that made its holder lead, where one did */
    if (self->n_priority) {
        Py_ssize_t k = 0;
        while (k < self->n_priority && at[self->priority[k]] < 0) {
            k++;
        }
        if (k == self->n_priority) {
            PyErr_SetString(PyExc_ValueError, "Runner: no card of priority is dealt");
            return -1;
        }
        h->first = (dealer + 1 + at[self->priority[k]]) % n;
        h->lead_rank = self->deck[self->priority[k]];
    }
    uint8_t pool[21];
    memcpy(pool, self->wild_pool, (size_t)self->n_pool);
    for (Py_ssize_t i = 0; i < self->n_drawn; i++) { /* Random.sample, by its pool */
        uint32_t j = twister_below(&rng, (uint32_t)(self->n_pool - i));
        h->wild_ranks[i] = pool[j];
        pool[j] = pool[self->n_pool - i - 1];
    }
    h->node = self->roots[h->first];
    h->stage = HAND_AUCTION;
    h->landlord = h->called = h->partner = h->beat_seat = h->winner = -1;
    h->letting_out = h->letting_high = h->liable = h->waiting_seat = -1;
    h->beat = -1;
    h->seat = h->first;
    return hand_auction_over(self, h); /* an auction of no words (nobody bids) */
}

/* The wild ranks in play once the auction is over, as a tuple and as fields: 0, or -1. */
static int
hand_wild(Runner *self, HandState *h)
{
    Py_ssize_t n_wild = 0;
    for (Py_ssize_t i = 0; i < self->n_drawn; i++) {
        n_wild += self->wild_before[i] || h->landlord >= 0;
    }
    if (!n_wild) {
        return 0;
    }
    if ((h->wild = PyTuple_New(n_wild)) == NULL) {
        return -1;
    }
    for (Py_ssize_t i = 0, k = 0; i < self->n_drawn; i++) {
        if (self->wild_before[i] || h->landlord >= 0) {
            PyObject *rank = PyLong_FromLong(h->wild_ranks[i]);
            if (rank == NULL) {
                return -1;
            }
            PyTuple_SET_ITEM(h->wild, k++, rank);
            h->wild_fields |= self->lister->field << (self->lister->bits * h->wild_ranks[i]);
        }
    }
    return 0;
}

/* Say the word of edge j of the auction's state: 0; 1 where the stake leaves 64 bits; -1
 * with an exception. */
static int
hand_say(Runner *self, HandState *h, Py_ssize_t j)
{
    if (h->steps >= self->n_nodes) {
        PyErr_SetString(PyExc_ValueError, "Runner: the auction's graph has a cycle");
        return -1;
    }
    h->steps++;
    h->node = self->edge_child[self->node_edges[h->node] + j];
    return hand_auction_over(self, h);
}

/* Where the auction's state ends it, the landlord takes the kitty (or the hand is over, to
 * be dealt again): 0; 1 where the stake leaves 64 bits; -1 with an exception. */
static int
hand_auction_over(Runner *self, HandState *h)
{
    int32_t node = h->node;
    if (self->node_edges[node] < self->node_edges[node + 1]) {
        return 0;
    }
    int landlord = h->landlord = self->landlord[node];
    if (landlord < 0 && !self->alone) {
        h->redeal = 1;
        h->stage = HAND_OVER;
        return 0;
    }
    h->stake = self->base[node];
    if (times(&h->stake, self->factor[node]) < 0) {
        return 1;
    }
    h->goal = self->goal[node];
    if (landlord >= 0) {
        h->hands[landlord] += h->kitty;
    }
    h->stage = landlord >= 0 && self->n_calls ? HAND_CALL : HAND_PLAY;
    h->seat = landlord >= 0 ? landlord : h->first;
    h->play_starts = h->steps;
    return hand_wild(self, h);
}

/* The landlord calls the rank calls[j] (-1: alone). */
static void
hand_call(Runner *self, HandState *h, Py_ssize_t j)
{
    h->steps++;
    h->called = self->calls[j];
    h->stage = HAND_PLAY;
    h->play_starts = h->steps;
}

/* List the actions of the turn: the auction's words, the calls, or the plays (in
 * lister->out, or h->python where Python lists them) and whether a pass is among them. The
 * count of actions, or -1 with an exception. */
static Py_ssize_t
hand_list(Runner *self, HandState *h)
{
    Lister *lister = self->lister;
    if (h->stage == HAND_AUCTION) {
        return self->node_edges[h->node + 1] - self->node_edges[h->node];
    }
    if (h->stage == HAND_CALL) {
        return self->n_calls;
    }
    u128 hand = h->hands[h->seat];
    Py_CLEAR(h->python);
    Py_ssize_t listed;
    if (h->wild_fields && ((hand & h->wild_fields) || h->beat_obj != NULL)) {
        PyObject *previous = h->beat_obj != NULL ? h->beat_obj
                             : h->beat >= 0 ? PyTuple_GET_ITEM(lister->plays, h->beat)
                                            : Py_None;
        if ((h->python = list_wild(self, hand, previous, h->wild)) == NULL) {
            return -1;
        }
        listed = PyList_GET_SIZE(h->python);
    } else {
        if (h->beat < 0) {
            listed = list_leads(lister, hand);
        } else if ((listed = runner_answers(self, hand, lister->play_class[h->beat])) < 0) {
            return -1;
        }
        if (self->bound) {
            int must_hold = self->first_holds && h->steps == h->play_starts ? h->lead_rank : -1;
            listed = allowed(self, listed, hand, held(lister, h->hands[(h->seat + 1) %
                                                                       self->players]),
                             must_hold);
        }
    }
    int to_beat = h->beat >= 0 || h->beat_obj != NULL;
    h->listed = listed;
    h->may_pass = to_beat && !(self->must_beat && listed > 0);
    return listed + h->may_pass;
}

/* The seat to act passes. */
static void
hand_pass(Runner *self, HandState *h)
{
    h->steps++;
    h->letting_out = -1;
    if (++h->passes == self->players - 1) {
        if (h->waiting) {
            pay(h->scores, self->players, h->waiting_seat, h->waiting);
            h->waiting = 0;
        }
        h->seat = h->beat_seat;
        h->beat = -1;
        Py_CLEAR(h->beat_obj);
        h->beat_seat = -1;
        h->passes = 0;
    } else {
        h->seat = (h->seat + 1) % self->players;
    }
}

/* Settle the hand its winner ended: 0; 1 where the stake leaves 64 bits. */
static int
hand_settle(Runner *self, HandState *h)
{
    const int n = self->players, winner = h->winner, landlord = h->landlord;
    h->stage = HAND_OVER;
    if (h->waiting) { /* the play that ended the hand wins its trick */
        pay(h->scores, n, winner, h->waiting);
    }
    if (landlord < 0) {
        return settle_alone(self, h->hands, h->plays, winner, h->liable, h->scores);
    }
    int won = winner == landlord || winner == h->partner;
    if (won ? h->side_plays[0] == 0 : h->side_plays[1] == 1) {
        if (times(&h->stake, won ? self->spring : self->anti_spring) < 0) {
            return 1;
        }
    }
    for (Py_ssize_t b = 0; b < self->n_bonuses; b++) {
        u128 want = self->bonus_key[b];
        for (int s = 0; s < n; s++) {
            if (!contains(self->lister, h->dealt[s], want)) {
                continue;
            }
            if (self->bonus_paid[b]) {
                pay(h->scores, n, s, self->bonus_amount[b]);
            } else if (times(&h->stake, self->bonus_amount[b]) < 0) {
                return 1;
            }
        }
    }
    int64_t stake = h->stake;
    if (self->cap >= 0 && stake > self->cap) {
        stake = self->cap;
    }
    int side = h->partner >= 0 ? 2 : 1;
    int64_t share;
    if (__builtin_mul_overflow(stake, (int64_t)(n - side), &share)) {
        return 1;
    }
    share /= side;
    for (int s = 0; s < n; s++) {
        int on_side = s == landlord || s == h->partner;
        int64_t gain = on_side ? share : -stake;
        h->scores[s] += won ? gain : -gain;
    }
    return 0;
}

/* The seat to act plays the cards key (table id id, or -1 with obj, a play Python listed),
 * which multiply the stake by factor and are paid paid: 0; 1 where the stake leaves 64
 * bits; -1 with an exception. */
static int
hand_play(Runner *self, HandState *h, int32_t id, PyObject *obj, u128 key, int64_t factor,
          int64_t paid)
{
    Lister *lister = self->lister;
    const int n = self->players, seat = h->seat;
    u128 hand = h->hands[seat];
    if (!contains(lister, hand, key)) {
        PyErr_SetString(PyExc_ValueError, "Runner: a play the hand does not hold");
        return -1;
    }
    h->steps++;
    Py_CLEAR(h->beat_obj);
    h->beat = id;
    if (id < 0) {
        Py_INCREF(obj);
        h->beat_obj = obj;
    }
    int next_cards = held(lister, h->hands[(seat + 1) % n]);
    h->liable = h->letting_out >= 0 &&
                (!self->liable_causal || highest(lister, key) <= h->letting_high)
                ? h->letting_out : -1;
    h->letting_out = self->bound && next_cards == 1 && low_single(lister, key, hand) ? seat : -1;
    h->letting_high = highest(lister, hand);
    h->hands[seat] -= key;
    h->plays[seat]++;
    if (h->called >= 0 && h->partner < 0 && seat != h->landlord &&
        ((key >> (lister->bits * h->called)) & lister->field)) {
        h->partner = seat;
    }
    if (h->landlord >= 0) {
        h->side_plays[seat == h->landlord || seat == h->partner]++;
        if (times(&h->stake, factor) < 0) {
            return 1;
        }
    }
    h->waiting = self->paid_on_win ? paid : 0;
    h->waiting_seat = seat;
    if (paid && !self->paid_on_win) {
        pay(h->scores, n, seat, paid);
    }
    h->beat_seat = seat;
    h->passes = 0;
    int left = held(lister, h->hands[seat]);
    if (left == 0 || (h->landlord >= 0 && seat != h->landlord && h->goal >= 0 &&
                      left <= h->goal)) {
        h->winner = seat;
        return hand_settle(self, h);
    }
    h->seat = (seat + 1) % n;
    return 0;
}

/* Take action j of the turn hand_list listed last: 0; 1 where the stake leaves 64 bits; -1
 * with an exception. */
static int
hand_choose(Runner *self, HandState *h, Py_ssize_t j)
{
    if (h->stage == HAND_AUCTION) {
        return hand_say(self, h, j);
    }
    if (h->stage == HAND_CALL) {
        hand_call(self, h, j);
        return 0;
    }
    if (j == h->listed) {
        Py_CLEAR(h->python);
        hand_pass(self, h);
        return 0;
    }
    if (h->python != NULL) {
        PyObject *chosen = PyList_GET_ITEM(h->python, j);
        u128 key;
        int32_t id;
        int64_t factor, paid;
        Py_INCREF(chosen);
        Py_CLEAR(h->python);
        int done = play_facts(self, chosen, &key, &id, &factor, &paid);
        if (done == 0) {
            done = hand_play(self, h, id, chosen, key, factor, paid);
        }
        Py_DECREF(chosen);
        return done;
    }
    int32_t id = self->lister->out[j];
    return hand_play(self, h, id, NULL, self->play_key[id], self->play_factor[id],
                     self->play_paid[id]);
}

/* Play the hand of seed and dealer into *out, every seat choosing at random: 0; 1 where its
 * stake leaves 64 bits (the caller plays it in Python); -1 with an exception. */
static int
run_hand(Runner *self, uint64_t seed, int dealer, Played *out)
{
    HandState h;
    Twister rng;
    int result = hand_deal(self, &h, seed, dealer);
    twister_seed(&rng, seed ^ 0x5EED);
    while (result == 0 && h.stage != HAND_OVER) {
        Py_ssize_t options = hand_list(self, &h);
        if (options < 0) {
            result = -1;
        } else if (options == 0 || h.steps >= self->max_trace) {
            if (options == 0) {
                PyErr_Format(PyExc_ValueError, "Runner: seat %d has no legal action", h.seat);
            } else {
                PyErr_SetString(PyExc_ValueError, "Runner: the hand outran its bound");
            }
            result = -1;
        } else {
            int32_t j = (int32_t)twister_below(&rng, (uint32_t)options);
            self->trace[h.steps] = j;
            result = hand_choose(self, &h, j);
        }
    }
    if (result == 0) {
        memcpy(out->scores, h.scores, sizeof(out->scores));
        out->redeal = h.redeal;
        out->choices = h.steps;
    }
    hand_clear(&h);
    return result;
}

PyDoc_STRVAR(play_doc, "play(seed, dealer, trace=False) -> (scores, redeal[, choices]) | None\n\n"
             "Deal with seed (0 <= seed < 2**64) from dealer and play the hand to its score, "
             "every\nseat choosing uniformly at random as runner.py's loop does: the scores, "
             "whether it\nis dealt again, and with trace each choice's index into the legal "
             "actions, as\nint32 bytes. None where the stake outgrows 64 bits (Python then "
             "plays it).");

static PyObject *
Runner_play(Runner *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs < 2 || nargs > 3 || !PyLong_Check(args[0]) || !PyLong_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "play() takes a seed, a dealer and trace");
        return NULL;
    }
    unsigned long long seed = PyLong_AsUnsignedLongLong(args[0]);
    if (seed == (unsigned long long)-1 && PyErr_Occurred()) {
        return NULL;
    }
    long dealer = PyLong_AsLong(args[1]);
    if (dealer == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (dealer < 0 || dealer >= self->players) {
        PyErr_Format(PyExc_ValueError, "play(): the dealer is a seat from 0 to %d",
                     self->players - 1);
        return NULL;
    }
    int trace = nargs == 3 ? PyObject_IsTrue(args[2]) : 0;
    if (trace < 0) {
        return NULL;
    }
    Played played;
    int done = run_hand(self, seed, (int)dealer, &played);
    if (done != 0) {
        if (done < 0) {
            return NULL;
        }
        Py_RETURN_NONE;
    }
    PyObject *scores = PyTuple_New(self->players);
    if (scores == NULL) {
        return NULL;
    }
    for (int s = 0; s < self->players; s++) {
        PyObject *score = PyLong_FromLongLong(played.scores[s]);
        if (score == NULL) {
            Py_DECREF(scores);
            return NULL;
        }
        PyTuple_SET_ITEM(scores, s, score);
    }
    if (!trace) {
        return Py_BuildValue("(NO)", scores, played.redeal ? Py_True : Py_False);
    }
    return Py_BuildValue("(NOy#)", scores, played.redeal ? Py_True : Py_False,
                         (const char *)self->trace, played.choices * (Py_ssize_t)sizeof(int32_t));
}

static PyMethodDef Runner_methods[] = {
    {"play", (PyCFunction)(void (*)(void))Runner_play, METH_FASTCALL, play_doc},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject RunnerType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ddz_rules._moves.Runner",
    .tp_doc = PyDoc_STR("Whole hands played at random over a flattened ruleset."),
    .tp_basicsize = sizeof(Runner),
    .tp_itemsize = 0,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Runner_init,
    .tp_dealloc = (destructor)Runner_dealloc,
    .tp_methods = Runner_methods,
};

#include "_tables.h"

/* ------------------------------------------------------------------ exact play (the solver) */

/* The twin of ddz_rules/solver.py's PythonSearch: does a side win a position with every hand
 * open? An AND-OR search over the play table's moves (leads, or answers and a pass), the
 * duties applied as the runner applies them, with a transposition table of a fixed size. It
 * knows no rule: the sides, each seat's goal (cards at which it has won) and the duties come
 * from Python, and which plays answer which from the lister. */

#define SOLVER_SEATS 4
#define QUICK_DEPTH 3
#define SOLVER_PROBE 8
/* The question's own moves are searched in rounds (solver.ROUNDS): each move not yet answered
 * within a budget of positions, the first round's, four times as many the next, up to the
 * last round's, then without one. A deal's tree is vast and its first moves unequal: the move
 * the order puts first may need a hundred million positions where a later one needs a
 * thousand. A search that ran out of its round's budget returns SOLVER_OVER, and answers
 * nothing to the table. */
#define SOLVER_ROUND_FIRST 100
#define SOLVER_ROUND_LAST 25600
#define SOLVER_ROUND_GROWTH 4
#define SOLVER_OVER (-2)

/* The play to beat of the hand's first lead where its first play must hold a rank
 * (play.first_play_holds_lead_card): a lead whose plays are kept to those holding
 * `must_hold`, and a position of its own in the table (the same cards later, were they
 * possible, would be a free lead). */
#define SOLVER_FIRST_LEAD (-2)

/* An entry of the table: the position's facts, then its hands, two words a seat (an entry
 * is as long as the players need: 40 bytes for two, 72 for four). Beside the entries, a word a slot
 * (SOLVER_MARK where taken, the position's tag, and the positions its answer took as a power
 * of two: what keeping it saves), so that a look at a window of slots reads one cache line,
 * and an entry is read only where its tag matches. */
typedef struct {
    int32_t beat;
    int8_t to_act, beat_seat, side, state; /* state: 1 the side loses, 2 it wins */
    uint64_t hands[]; /* low word, high word */
} SolverEntry;

#define SOLVER_MARK 0x80u
#define SOLVER_WORK 0x7fu
#define SOLVER_TAG(h) ((uint32_t)((h) >> 40) << 8)

/* What the search has learned of a hand's fewest leads to play it out, whoever may beat
 * them (lo <= fewest <= hi; hi 0 where not known): the quick win asks it first, since a hand
 * that needs more plays than the quick win has cannot win by it. A hand's count does not
 * depend on the other hands, and the same hands come back at a great many positions (on a
 * classic whole deal, 99.7% of the hands the quick win's last step listed had been listed
 * before, and 98% of them could not be played out in two plays). It settles nothing the
 * quick win would not: it only spares the asking (solver.fits is its twin, and neither
 * changes an answer or a count of positions). */
typedef struct {
    u128 hand;
    uint8_t lo, hi;
} SolverFit;

/* A hand's count is kept in a table of its own, an entry a slot (the last one asked wins),
 * of one slot for SOLVER_FIT_SHARE of the position table's. */
#define SOLVER_FIT_SHARE 16

typedef struct {
    PyObject_HEAD
    Lister *lister;
    PyObject *teach;
    int players;
    Py_ssize_t n_plays;
    u128 *play_key;
    uint8_t *last_only;
    uint8_t *play_level;
    int bound, must_beat, warns_single;
    u128 low; /* the lowest bit of every rank's field */
    char *table;
    uint32_t *marks; /* a word a slot: free (0), or taken, the tag and the work */
    size_t stride; /* bytes an entry */
    size_t mask;
    uint64_t positions;
    int8_t team[SOLVER_SEATS];
    int goal[SOLVER_SEATS];
    int must_hold; /* the rank the hand's first lead must hold (SOLVER_FIRST_LEAD) */
    int stop; /* 1: past the deadline, 3: a Python error, 4: past the positions */
    int used; /* whether the table holds anything (a fresh one is zero already) */
    double deadline;
    uint64_t last_position; /* where limited, the last position this question may search */
    int limited;
    int order; /* the order of moves of the question asked: an index of solver.ORDERS */
    int32_t *stack;
    Py_ssize_t stack_cap;
    /* the quick win (solver.quick_win): every play's key in a set, to ask whether a hand is
     * one play; each class's safety against the opponents' hands of the node asked, stamped */
    u128 *play_set;
    size_t play_set_mask;
    uint32_t *safe_stamp;
    uint8_t *safe_value;
    uint32_t stamp;
    SolverFit *fits;
    size_t fits_mask;
    u128 opponents[SOLVER_SEATS];
    int n_opponents;
    /* solver.Dominance, where looked up (dom_on): for each size of a lone group (up to
     * dom_groups) and rank, the smallest bodies with other ranks holding at most that many
     * cards of it (size k's, rank r's at [dom_from[i], dom_from[i + 1]), i = (k - 1) * ranks
     * + r), and whether such a group may be raised from a rank to another (at
     * ((k - 1) * ranks + low) * ranks + high) */
    int dom_on, dom_groups;
    u128 *dom_bodies;
    int32_t *dom_from;
    uint8_t *dom_raise;
    int8_t alone[SOLVER_SEATS]; /* whether the seat is alone on its side */
} Solver;

static int
Solver_traverse(Solver *self, visitproc visit, void *arg)
{
    Py_VISIT(self->lister);
    Py_VISIT(self->teach);
    return 0;
}

static int
Solver_clear(Solver *self)
{
    Py_CLEAR(self->lister);
    Py_CLEAR(self->teach);
    return 0;
}

static void
Solver_dealloc(Solver *self)
{
    PyObject_GC_UnTrack(self);
    Solver_clear(self);
    PyMem_Free(self->play_key);
    PyMem_Free(self->last_only);
    PyMem_Free(self->play_level);
    PyMem_Free(self->table);
    PyMem_Free(self->marks);
    PyMem_Free(self->stack);
    PyMem_Free(self->play_set);
    PyMem_Free(self->safe_stamp);
    PyMem_Free(self->safe_value);
    PyMem_Free(self->fits);
    PyMem_Free(self->dom_bodies);
    PyMem_Free(self->dom_from);
    PyMem_Free(self->dom_raise);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static uint64_t solver_mix(uint64_t h, uint64_t v);

static int
Solver_init(Solver *self, PyObject *args, PyObject *kwargs)
{
    static char *names[] = {"lister", "teach", "players", "play_key", "last_only",
                            "play_level", "bound", "must_beat", "warns_single", "memory",
                            "dominance", NULL};
    PyObject *lister, *teach, *play_key, *last_only, *play_level, *dominance = Py_None;
    Py_ssize_t memory;
    if (self->lister != NULL) {
        PyErr_SetString(PyExc_TypeError, "Solver(): already made");
        return -1;
    }
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O!OiSSSpppn|O:Solver", names, &ListerType,
                                     &lister, &teach, &self->players, &play_key, &last_only,
                                     &play_level, &self->bound, &self->must_beat,
                                     &self->warns_single, &memory, &dominance)) {
        return -1;
    }
    if (!PyCallable_Check(teach)) {
        PyErr_SetString(PyExc_TypeError, "Solver(): teach must be callable");
        return -1;
    }
    self->stride = sizeof(SolverEntry) + 2 * sizeof(uint64_t) * (size_t)self->players;
    if (self->players < 2 || self->players > SOLVER_SEATS || memory < (Py_ssize_t)self->stride) {
        PyErr_Format(PyExc_ValueError, "Solver(): 2 to %d players, and memory for an entry",
                     SOLVER_SEATS);
        return -1;
    }
    Lister *with = (Lister *)lister;
    if (dominance != Py_None) {
        PyObject *bodies, *from, *raise;
        Py_ssize_t n_bodies = 0, n_from = 0, n_raise = 0;
        if (!PyArg_ParseTuple(dominance, "SSS:Solver(): dominance", &bodies, &from, &raise) ||
            !(self->dom_bodies = copy_items(bodies, sizeof(u128), &n_bodies, 0,
                                            "Solver(): dominance bodies")) ||
            !(self->dom_from = copy_items(from, sizeof(int32_t), &n_from, 0,
                                          "Solver(): dominance starts"))) {
            return -1;
        }
        self->dom_groups = (int)((n_from - 1) / with->ranks);
        n_raise = (Py_ssize_t)self->dom_groups * with->ranks * with->ranks;
        if (self->dom_groups < 1 || self->dom_groups > 4 ||
            n_from != (Py_ssize_t)self->dom_groups * with->ranks + 1) {
            PyErr_SetString(PyExc_ValueError,
                            "Solver(): dominance starts: one to four sizes of every rank");
            return -1;
        }
        if (!(self->dom_raise = copy_items(raise, 1, &n_raise, 1,
                                           "Solver(): dominance raises")) ||
            all_within(self->dom_from, n_from, 0, n_bodies + 1, "Solver(): dominance starts") < 0) {
            return -1;
        }
        for (Py_ssize_t r = 0; r + 1 < n_from; r++) {
            if (self->dom_from[r] > self->dom_from[r + 1]) {
                PyErr_SetString(PyExc_ValueError, "Solver(): dominance starts out of order");
                return -1;
            }
        }
        self->dom_on = 1;
    }
    self->n_plays = with->n_plays;
    if (!(self->play_key = copy_items(play_key, sizeof(u128), &self->n_plays, 1,
                                      "Solver(): play_key")) ||
        !(self->last_only = copy_items(last_only, 1, &self->n_plays, 1,
                                       "Solver(): last_only")) ||
        !(self->play_level = copy_items(play_level, 1, &self->n_plays, 1,
                                        "Solver(): play_level"))) {
        return -1;
    }
    /* the most entries a power of two that fit in memory, with their word and their share
     * of the table of hands' counts */
    const size_t slot_bytes =
        self->stride + sizeof(uint32_t) + sizeof(SolverFit) / SOLVER_FIT_SHARE;
    size_t capacity = 1;
    while (capacity * 2 * slot_bytes <= (size_t)memory &&
           capacity < ((size_t)1 << 40)) {
        capacity *= 2;
    }
    self->table = PyMem_Calloc(capacity, self->stride);
    self->marks = PyMem_Calloc(capacity, sizeof(uint32_t));
    if (self->table == NULL || self->marks == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    self->mask = capacity - 1;
    size_t fit_slots = capacity / SOLVER_FIT_SHARE > 64 ? capacity / SOLVER_FIT_SHARE : 64;
    self->fits = PyMem_Calloc(fit_slots, sizeof(SolverFit));
    if (self->fits == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    self->fits_mask = fit_slots - 1;
    for (int r = 0; r < with->ranks; r++) {
        self->low |= (u128)1 << (with->bits * r);
    }
    size_t slots = 2;
    while (slots < 2 * (size_t)self->n_plays) {
        slots *= 2;
    }
    self->play_set = PyMem_Calloc(slots, sizeof(u128));
    self->safe_stamp = PyMem_Calloc((size_t)with->n_bodies + 1, sizeof(uint32_t));
    self->safe_value = PyMem_Calloc((size_t)with->n_bodies + 1, 1);
    if (self->play_set == NULL || self->safe_stamp == NULL || self->safe_value == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    self->play_set_mask = slots - 1;
    for (Py_ssize_t i = 0; i < self->n_plays; i++) {
        u128 key = self->play_key[i];
        size_t at = (size_t)solver_mix((uint64_t)key, (uint64_t)(key >> 64)) & self->play_set_mask;
        while (self->play_set[at] != 0 && self->play_set[at] != key) {
            at = (at + 1) & self->play_set_mask;
        }
        self->play_set[at] = key;
    }
    Py_INCREF(lister);
    self->lister = with;
    Py_INCREF(teach);
    self->teach = teach;
    return 0;
}

static double
solver_now(void)
{
    struct timespec at;
    clock_gettime(CLOCK_MONOTONIC, &at);
    return (double)at.tv_sec + (double)at.tv_nsec * 1e-9;
}

static uint64_t
solver_mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    h ^= h >> 31;
    h *= 0xbf58476d1ce4e5b9ULL;
    return h ^ (h >> 29);
}

/* What a position's hash starts from: the question's key besides the hands and the play. */
static uint64_t
solver_hash_seed(int to_act, int beat_seat, int side)
{
    return (uint64_t)(to_act + 8 * (beat_seat + 1) + 128 * side);
}

/* A position's hash, from h (its hands before seat `from` mixed in already). */
static uint64_t
solver_hash_from(const Solver *self, uint64_t h, const u128 *hands, int from, int32_t beat)
{
    for (int s = from; s < self->players; s++) {
        h = solver_mix(h, (uint64_t)hands[s]);
        h = solver_mix(h, (uint64_t)(hands[s] >> 64));
    }
    return solver_mix(h, (uint64_t)(uint32_t)beat);
}

static uint64_t
solver_hash(const Solver *self, const u128 *hands, int to_act, int32_t beat, int beat_seat,
            int side)
{
    return solver_hash_from(self, solver_hash_seed(to_act, beat_seat, side), hands, 0, beat);
}

static int
solver_same(const Solver *self, const SolverEntry *e, const u128 *hands, int to_act,
            int32_t beat, int beat_seat, int side)
{
    if (e->to_act != to_act || e->beat != beat || e->beat_seat != beat_seat ||
        e->side != side) {
        return 0;
    }
    for (int s = 0; s < self->players; s++) {
        if (e->hands[2 * s] != (uint64_t)hands[s] ||
            e->hands[2 * s + 1] != (uint64_t)(hands[s] >> 64)) {
            return 0;
        }
    }
    return 1;
}

/* The entry of a position: the one holding it, or where it goes: a free slot, else the
 * entry of its probe window whose answer took the fewest positions (the table is full there:
 * that answer is forgotten, and found again by search if it is asked again). An entry is
 * never emptied, and a position goes to the first free slot of its window: so the first free
 * slot met ends the look, the position being in none after it. */
static size_t
solver_slot(Solver *self, uint64_t h, const u128 *hands, int to_act, int32_t beat,
            int beat_seat, int side, int *found)
{
    const uint32_t tag = SOLVER_TAG(h);
    size_t cheapest = 0;
    uint32_t least = SOLVER_WORK + 1;
    for (size_t i = 0; i < SOLVER_PROBE; i++) {
        size_t at = (h + i) & self->mask;
        uint32_t mark = self->marks[at];
        if (mark == 0) {
            *found = 0;
            return at;
        }
        if ((mark & ~SOLVER_WORK & ~SOLVER_MARK) == tag &&
            solver_same(self, (SolverEntry *)(self->table + at * self->stride), hands, to_act,
                        beat, beat_seat, side)) {
            *found = 1;
            return at;
        }
        if ((mark & SOLVER_WORK) < least) {
            least = mark & SOLVER_WORK;
            cheapest = at;
        }
    }
    *found = 0;
    return cheapest;
}

/* Make room for n more move ids on the stack. */
static int
solver_reserve(Solver *self, Py_ssize_t top, Py_ssize_t n)
{
    if (top + n <= self->stack_cap) {
        return 0;
    }
    Py_ssize_t cap = self->stack_cap ? self->stack_cap : 4096;
    while (cap < top + n) {
        cap *= 2;
    }
    int32_t *grown = PyMem_Realloc(self->stack, sizeof(int32_t) * (size_t)cap);
    if (grown == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    self->stack = grown;
    self->stack_cap = cap;
    return 0;
}

/* A move's place in the order the search tries moves (solver.ordered): a play that wins at
 * once first, then (in the first order) the fewest plays the hand needs after it
 * (split_plays), the fewest ranks of a single card, the fewest ranks, then the most cards,
 * a weaker class first among as many cards, then the table's order (the caller's index). */
typedef struct {
    int32_t play;
    int32_t index; /* in the listing: the table's order */
    int32_t key;
} SolverMove;

static int
solver_by_key(const void *a, const void *b)
{
    const SolverMove *x = a, *y = b;
    return x->key != y->key ? (x->key < y->key ? -1 : 1)
                            : (x->index < y->index ? -1 : x->index > y->index);
}

static int
popcount128(u128 x)
{
    return __builtin_popcountll((unsigned long long)x) +
           __builtin_popcountll((unsigned long long)(x >> 64));
}

/* How many ranks of a hand hold a single card, then (second) how many ranks it holds cards
 * of: the order of moves after the plays the hand needs (solver.ordered). `low` has the
 * lowest bit of every rank's field set; the guard bit above each field is clear in a hand. */
static int
solver_ranks(const Lister *lister, u128 low, u128 hand)
{
    u128 upper = 0;
    for (int b = 1; b < lister->bits - 1; b++) {
        upper |= hand >> b;
    }
    upper &= low;
    return popcount128((hand & low) | upper) + 16 * popcount128(hand & low & ~upper);
}

/* ------------------------------------------------------------------ the quick win */

/* solver.quick_win's twin: does a seat go out by plays none of its opponents can beat, all but
 * the last? Such a play keeps the lead (its opponents pass, as they must; its partners may,
 * and do), so the seat's side wins whatever anyone does. Asked only where no duty binds (a
 * duty may force a partner to beat, or forbid a play of the chain). */

/* Whether key is one play of the table (a hand played out in one lead). */
static int
solver_is_play(const Solver *self, u128 key)
{
    size_t at = (size_t)solver_mix((uint64_t)key, (uint64_t)(key >> 64)) & self->play_set_mask;
    while (self->play_set[at] != 0) {
        if (self->play_set[at] == key) {
            return 1;
        }
        at = (at + 1) & self->play_set_mask;
    }
    return 0;
}

/* Whether no opponent of the node being asked holds an answer to the class of play: 1 or 0,
 * -1 with an exception (its class could not be taught). Overwrites the lister's scratch. */
static int
solver_safe(Solver *self, int32_t play)
{
    int32_t cls = self->lister->play_class[play];
    if (self->safe_stamp[cls] == self->stamp) {
        return self->safe_value[cls];
    }
    Lister *lister = self->lister;
    if (lister->candidates[cls] == NULL && taught_answers(lister, self->teach, 0, cls) < 0) {
        return -1; /* the class taught (an empty hand answers nothing) */
    }
    const int32_t *bodies = lister->candidates[cls];
    const Py_ssize_t len = lister->candidate_len[cls];
    const u128 guard = lister->guard;
    int safe = 1;
    for (int o = 0; o < self->n_opponents && safe; o++) {
        const u128 hand = self->opponents[o], top = hand | guard;
        for (Py_ssize_t i = 0; i < len && safe;) { /* walk(), up to the first answer held */
            int32_t b = bodies[i];
            u128 key = lister->keys[b];
            if (((top - key) & guard) != guard) {
                i = bodies[len + i];
                continue;
            }
            if (lister->body_play[b] >= 0) {
                safe = 0;
                break;
            }
            u128 rest = (hand - key) | guard;
            for (int32_t k = lister->body_kicks[b]; k < lister->body_kicks[b + 1]; k++) {
                if (((rest - lister->kick_keys[k]) & guard) == guard) {
                    safe = 0;
                    break;
                }
            }
            i++;
        }
    }
    self->safe_stamp[cls] = self->stamp;
    self->safe_value[cls] = (uint8_t)safe;
    return safe;
}

static int solver_quick(Solver *self, u128 hand, int goal, int depth, Py_ssize_t top);

/* Whether hand can be played out in at most k leads (k >= 1), whoever may beat them: 1 or
 * 0, -1 with an exception. Learned once a hand where it can be (self->fits): the leads of the
 * hand listed, and each rest asked for k - 1, on the stack from top. */
static int
solver_fits(Solver *self, u128 hand, int k, Py_ssize_t top)
{
    if (hand == 0) {
        return 1;
    }
    size_t at = (size_t)solver_mix((uint64_t)(hand >> 64) + 0x2545f4914f6cdd1dULL,
                                   (uint64_t)hand) & self->fits_mask;
    int lo = 1, hi = 0;
    if (self->fits[at].hand == hand) {
        lo = self->fits[at].lo;
        hi = self->fits[at].hi;
    }
    if (hi && hi <= k) {
        return 1;
    }
    if (lo > k) {
        return 0;
    }
    const int play = solver_is_play(self, hand);
    int found = play;
    if (!play && k > 1) {
        Py_ssize_t listed = list_leads(self->lister, hand);
        if (solver_reserve(self, top, listed) < 0) {
            return -1;
        }
        memcpy(self->stack + top, self->lister->out, sizeof(int32_t) * (size_t)listed);
        for (Py_ssize_t i = 0; i < listed && !found; i++) {
            found = solver_fits(self, hand - self->play_key[self->stack[top + i]], k - 1,
                                top + listed);
            if (found < 0) {
                return -1;
            }
        }
    }
    if (found) {
        hi = play ? 1 : k;
    } else {
        lo = k + 1;
    }
    self->fits[at].hand = hand; /* a deeper ask may have taken the slot: ours now */
    self->fits[at].lo = (uint8_t)lo;
    self->fits[at].hi = (uint8_t)hi;
    return found;
}

/* Whether a seat leading with hand may still win by the quick win with depth safe plays and
 * a last one: where it has no goal, only if the hand fits in depth + 1 leads (asked before
 * which plays are safe, the dearer question). 1 or 0, -1 with an exception. */
static int
solver_may_finish(Solver *self, u128 hand, int goal, int depth, Py_ssize_t top)
{
    return goal > 0 ? 1 : solver_fits(self, hand, depth + 1, top);
}

/* solver_quick over the leads of hand, listed on the stack at [at, at + n) (hand is not one
 * play); read from it by index, since a deeper call may move it. */
static int
solver_quick_over(Solver *self, u128 hand, int goal, int depth, Py_ssize_t at, Py_ssize_t n,
                  Py_ssize_t top)
{
    if (goal > 0) {
        for (Py_ssize_t i = 0; i < n; i++) {
            if (held(self->lister, hand - self->play_key[self->stack[at + i]]) <= goal) {
                return 1;
            }
        }
    }
    if (depth == 0) {
        return 0;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        int32_t play = self->stack[at + i];
        u128 rest = hand - self->play_key[play];
        int may = solver_may_finish(self, rest, goal, depth - 1, top);
        int safe = may > 0 ? solver_safe(self, play) : may;
        if (safe < 0) {
            return -1;
        }
        if (safe) {
            int won = solver_quick(self, rest, goal, depth - 1, top);
            if (won != 0) {
                return won;
            }
        }
    }
    return 0;
}

/* Whether a seat leading with hand goes out by at most depth safe plays and a last one (or
 * holds goal cards or fewer on the way): 1 or 0, -1 with an exception. */
static int
solver_quick(Solver *self, u128 hand, int goal, int depth, Py_ssize_t top)
{
    Lister *lister = self->lister;
    if (held(lister, hand) <= goal || (goal == 0 && solver_is_play(self, hand))) {
        return 1;
    }
    if (depth == 0 && goal == 0) {
        return 0;
    }
    Py_ssize_t listed = list_leads(lister, hand);
    if (solver_reserve(self, top, listed) < 0) {
        return -1;
    }
    memcpy(self->stack + top, lister->out, sizeof(int32_t) * (size_t)listed);
    return solver_quick_over(self, hand, goal, depth, top, listed, top + listed);
}

/* Whether the seat to act wins at once by the quick win: leading, from its hand; answering,
 * by a safe answer (or one that goes out) and the quick win after it. Its moves (leads, or
 * answers) are on the stack at [at, at + n). 1 or 0, -1 with an exception. */
static int
solver_quick_node(Solver *self, const u128 *hands, int to_act, int leading, Py_ssize_t at,
                  Py_ssize_t n, Py_ssize_t top)
{
    self->n_opponents = 0;
    for (int s = 0; s < self->players; s++) {
        if (self->team[s] != self->team[to_act]) {
            self->opponents[self->n_opponents++] = hands[s];
        }
    }
    if (++self->stamp == 0) {
        memset(self->safe_stamp, 0, sizeof(uint32_t) * ((size_t)self->lister->n_bodies + 1));
        self->stamp = 1;
    }
    u128 hand = hands[to_act];
    int goal = self->goal[to_act];
    if (leading) {
        if (held(self->lister, hand) <= goal || (goal == 0 && solver_is_play(self, hand))) {
            return 1;
        }
        int may = solver_may_finish(self, hand, goal, QUICK_DEPTH, top);
        return may > 0 ? solver_quick_over(self, hand, goal, QUICK_DEPTH, at, n, top) : may;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        int32_t play = self->stack[at + i];
        u128 rest = hand - self->play_key[play];
        if (held(self->lister, rest) <= goal) {
            return 1;
        }
        int may = solver_may_finish(self, rest, goal, QUICK_DEPTH - 1, top);
        int safe = may > 0 ? solver_safe(self, play) : may;
        if (safe < 0) {
            return -1;
        }
        if (safe) {
            int won = solver_quick(self, rest, goal, QUICK_DEPTH - 1, top);
            if (won != 0) {
                return won;
            }
        }
    }
    return 0;
}

/* Whether the table answers a position, whose hash is h, as `want`: not searched, so not
 * counted. */
static int
solver_known_at(Solver *self, uint64_t h, const u128 *hands, int to_act, int32_t beat,
                int beat_seat, int side, int want)
{
    int found;
    size_t at = solver_slot(self, h, hands, to_act, beat, beat_seat, side, &found);
    return found && (((SolverEntry *)(self->table + at * self->stride))->state == 2) == want;
}

static int
solver_known(Solver *self, const u128 *hands, int to_act, int32_t beat, int beat_seat,
             int side, int want)
{
    return solver_known_at(self, solver_hash(self, hands, to_act, beat, beat_seat, side), hands,
                           to_act, beat, beat_seat, side, want);
}

#define SOLVER_BATCH 16

/* Whether hand's cards of rank r, `size` of them, are in no body with other ranks it could
 * make (solver.Dominance.lone, asked where the hand holds that many). */
static int
solver_lone(const Solver *self, u128 hand, int r, int size)
{
    const u128 guard = self->lister->guard, top = hand | guard;
    const int at = (size - 1) * self->lister->ranks + r;
    for (int32_t i = self->dom_from[at]; i < self->dom_from[at + 1]; i++) {
        if (((top - self->dom_bodies[i]) & guard) == guard) {
            return 0;
        }
    }
    return 1;
}

/* The first of the n positions (seat's hand made stronger[i]) the table answers as lost for
 * that seat's side: whether `side` wins there, or -1. Their hashes are fetched first. */
static int
solver_stronger_known(Solver *self, u128 *hands, int to_act, int32_t beat, int beat_seat,
                      int side, const u128 *stronger, const int8_t *seat, int n)
{
    uint64_t hs[SOLVER_BATCH];
    /* the hash up to each seat's hand, which a variant of that seat's shares */
    uint64_t before[SOLVER_SEATS];
    before[0] = solver_hash_seed(to_act, beat_seat, side);
    for (int s = 1; s < self->players; s++) {
        before[s] = solver_mix(solver_mix(before[s - 1], (uint64_t)hands[s - 1]),
                               (uint64_t)(hands[s - 1] >> 64));
    }
    for (int i = 0; i < n; i++) {
        const u128 hand = hands[seat[i]];
        hands[seat[i]] = stronger[i];
        hs[i] = solver_hash_from(self, before[seat[i]], hands, seat[i], beat);
        hands[seat[i]] = hand;
        __builtin_prefetch(&self->marks[hs[i] & self->mask]);
    }
    for (int i = 0; i < n; i++) {
        const u128 hand = hands[seat[i]];
        const int wins = self->team[seat[i]] != side;
        hands[seat[i]] = stronger[i];
        int known = solver_known_at(self, hs[i], hands, to_act, beat, beat_seat, side, wins);
        hands[seat[i]] = hand;
        if (known) {
            return wins;
        }
    }
    return -1;
}

/* PythonSearch.dominated's twin: whether `side` wins by a position the table answers where
 * one seat's hand is one lone group stronger and that seat's side lost; -1 where none. */
static int
solver_dominated(Solver *self, u128 *hands, int to_act, int32_t beat, int beat_seat, int side)
{
    const int ranks = self->lister->ranks, bits = self->lister->bits;
    const u128 field = ((u128)1 << bits) - 1;
    u128 stronger[SOLVER_BATCH];
    int8_t seat[SOLVER_BATCH];
    int n = 0;
    for (int s = 0; s < self->players; s++) {
        const u128 hand = hands[s];
        for (int size = 1; size <= self->dom_groups; size++) {
            const uint8_t *raise = self->dom_raise + (size_t)(size - 1) * ranks * ranks;
            for (int low = 0; low < ranks; low++) {
                if (((hand >> (bits * low)) & field) != (u128)size ||
                    !solver_lone(self, hand, low, size)) {
                    continue;
                }
                for (int high = low + 1; high < ranks; high++) {
                    /* bit j of a raise: allowed where the hand holds j of the higher rank */
                    if (!((raise[low * ranks + high] >> (int)((hand >> (bits * high)) & field)) &
                          1)) {
                        continue;
                    }
                    stronger[n] = hand + (u128)size * (((u128)1 << (bits * high)) -
                                                       ((u128)1 << (bits * low)));
                    seat[n++] = (int8_t)s;
                    if (n == SOLVER_BATCH) {
                        int found = solver_stronger_known(self, hands, to_act, beat, beat_seat,
                                                          side, stronger, seat, n);
                        if (found >= 0) {
                            return found;
                        }
                        n = 0;
                    }
                }
            }
        }
    }
    return n ? solver_stronger_known(self, hands, to_act, beat, beat_seat, side, stronger, seat,
                                     n)
             : -1;
}

/* Whether one of a node's moves (its n ordered plays, and the pass where it may) leads to a
 * position the table answers as `want` (PythonSearch.known_move). */
static int
solver_known_move(Solver *self, u128 *hands, int to_act, int32_t beat, int beat_seat,
                  int side, int want, const int32_t *plays, Py_ssize_t n, int may_pass)
{
    const int next = (to_act + 1) % self->players;
    const u128 hand = hands[to_act];
    int known = 0;
    /* the looks go to memory in batches: every move's window is fetched before the first is
     * read, so the table's misses overlap rather than wait one after another */
    uint64_t hs[SOLVER_BATCH];
    for (Py_ssize_t from = 0; from < n && !known; from += SOLVER_BATCH) {
        Py_ssize_t upto = n - from < SOLVER_BATCH ? n : from + SOLVER_BATCH;
        for (Py_ssize_t i = from; i < upto; i++) {
            int32_t play = plays[i];
            hands[to_act] = hand - self->play_key[play];
            hs[i - from] = solver_hash(self, hands, next, play, to_act, side);
            __builtin_prefetch(&self->marks[hs[i - from] & self->mask]);
        }
        for (Py_ssize_t i = from; i < upto && !known; i++) {
            int32_t play = plays[i];
            hands[to_act] = hand - self->play_key[play];
            known = held(self->lister, hands[to_act]) > self->goal[to_act] &&
                    solver_known_at(self, hs[i - from], hands, next, play, to_act, side, want);
        }
    }
    hands[to_act] = hand;
    if (!known && may_pass) {
        known = next == beat_seat ? solver_known(self, hands, next, -1, -1, side, want)
                                  : solver_known(self, hands, next, beat, beat_seat, side, want);
    }
    return known;
}

/* Does `side` win from this position? 1 or 0; -1 where the search stopped (self->stop);
 * SOLVER_OVER past `budget` positions (this one included). The question's own position
 * (`question`) searches its moves in rounds. */
static int
solver_search(Solver *self, u128 *hands, int to_act, int32_t beat, int beat_seat, int side,
              Py_ssize_t top, uint64_t budget, int question)
{
    Lister *lister = self->lister;
    const uint64_t first = self->positions;
    if (++self->positions > self->last_position && self->limited) {
        self->stop = 4;
        return -1;
    }
    if ((self->positions & 4095) == 0) {
        if (PyErr_CheckSignals() < 0) { /* Ctrl-C: the interrupt is raised where wins() returns */
            self->stop = 3;
            return -1;
        }
        if (self->deadline > 0 && solver_now() > self->deadline) {
            self->stop = 1;
            return -1;
        }
    }
    uint64_t h = solver_hash(self, hands, to_act, beat, beat_seat, side);
    int found;
    size_t at = solver_slot(self, h, hands, to_act, beat, beat_seat, side, &found);
    if (found) {
        return ((SolverEntry *)(self->table + at * self->stride))->state == 2;
    }
    const int n = self->players;
    u128 hand = hands[to_act];
    Py_ssize_t listed = beat < 0 ? list_leads(lister, hand)
                                 : taught_answers(lister, self->teach, hand,
                                                  lister->play_class[beat]);
    if (listed < 0) {
        self->stop = 3;
        return -1;
    }
    if (self->bound) {
        listed = keep_allowed(lister, self->play_key, self->last_only, self->warns_single,
                              lister->out, listed, hand, held(lister, hands[(to_act + 1) % n]),
                              beat == SOLVER_FIRST_LEAD ? self->must_hold : -1);
    }
    int may_pass = beat >= 0 && !(self->must_beat && listed > 0);
    /* the moves, ordered, on the stack (the lister's scratch is reused below), and the
     * listing as it came after them */
    const Py_ssize_t words = 3 * listed + 3;
    if (solver_reserve(self, top, words + listed) < 0) {
        self->stop = 3;
        return -1;
    }
    memcpy(self->stack + top + words, lister->out, sizeof(int32_t) * (size_t)listed);
    Py_ssize_t next_top = top + words;
    const int mover = self->team[to_act];
    const int want = mover == side; /* the result that settles this node at once */
    int result = !want;
    int next = (to_act + 1) % n;
    int quick = 0;
    if (!self->bound) {
        quick = solver_quick_node(self, hands, to_act, beat < 0, top + words, listed,
                                  top + words + listed);
        if (quick < 0) {
            self->stop = 3;
            return -1;
        }
    }
    if (quick) {
        result = mover == side;
        listed = -1; /* settled: no move is searched */
    }
    SolverMove *order = (SolverMove *)(self->stack + top);
    const int32_t *raw = self->stack + top + words;
    /* a move whose position the table already answers as this node wants settles it with
     * no search (an enhanced transposition cutoff: a move often reaches, by another order of
     * plays, a position answered already); asked before the moves are ordered, which a
     * node settled so does not need */
    if (listed >= 0 && solver_known_move(self, hands, to_act, beat, beat_seat, side, want,
                                         raw, listed, may_pass)) {
        result = want;
        listed = -1;
    }
    /* a seat alone to act (every move of his would need refuting): the positions one lone
     * group stronger for a seat, looked up */
    if (listed >= 0 && self->dom_on && self->alone[to_act]) {
        int found = solver_dominated(self, hands, to_act, beat, beat_seat, side);
        if (found >= 0) {
            result = found;
            listed = -1;
        }
    }
    int count = held(lister, hand), goal = self->goal[to_act];
    for (Py_ssize_t i = 0; i < listed; i++) {
        int32_t play = raw[i];
        u128 key = self->play_key[play];
        int size = held(lister, key);
        order[i].play = play;
        order[i].index = (int32_t)i;
        /* the split only where there is an order to choose (it is the costliest key), and
         * in the first order only (solver.ORDERS) */
        int needs = listed > 1 && self->order == 0 ? (int)split_plays(hand - key) : 0;
        order[i].key = ((((count - size > goal) * 64 + needs) * 512
                         + solver_ranks(lister, self->low, hand - key)) * 64 + (63 - size)) * 256
                       + self->play_level[play];
    }
    if (listed > 0) {
        qsort(order, (size_t)listed, sizeof(SolverMove), solver_by_key);
    }
    /* a partner's play stands first: the pass is tried before any answer to it */
    int pass_first = may_pass && beat_seat >= 0 && self->team[beat_seat] == mover;
    /* each move's `key` now says whether it is answered (and not as wanted); the pass is
     * the move after the plays, answered where it may not be made */
    for (Py_ssize_t i = 0; i < listed; i++) {
        order[i].key = 0;
    }
    if (listed >= 0) {
        order[listed].key = !may_pass;
    }
    uint64_t round = question ? SOLVER_ROUND_FIRST : UINT64_MAX;
    while (listed >= 0) {
        int open = 0; /* a move not answered within the round */
        for (Py_ssize_t j = 0; j <= listed && listed >= 0; j++) {
            Py_ssize_t i = pass_first ? (j == 0 ? listed : j - 1) : j;
            /* the stack may have moved in a deeper search: read the move from it again */
            if (((SolverMove *)(self->stack + top))[i].key) {
                continue;
            }
            const uint64_t used = self->positions - first;
            if (used >= budget) {
                return SOLVER_OVER;
            }
            const uint64_t give = budget - used < round ? budget - used : round;
            int won;
            if (i == listed) { /* the pass, last (first where a partner made the play) */
                if (next == beat_seat) {
                    won = solver_search(self, hands, next, -1, -1, side, next_top, give, 0);
                } else {
                    won = solver_search(self, hands, next, beat, beat_seat, side, next_top, give,
                                        0);
                }
            } else {
                int32_t play = ((SolverMove *)(self->stack + top))[i].play;
                u128 key = self->play_key[play];
                hands[to_act] = hand - key;
                if (held(lister, hands[to_act]) <= goal) {
                    won = mover == side;
                } else {
                    won = solver_search(self, hands, next, play, to_act, side, next_top, give,
                                        0);
                }
                hands[to_act] = hand;
            }
            if (won == -1 || (won == SOLVER_OVER && give == budget - used)) {
                return won; /* stopped, or this position's own budget spent */
            }
            if (won == SOLVER_OVER) {
                open = 1;
            } else if (won == want) {
                result = want;
                listed = -1;
            } else {
                ((SolverMove *)(self->stack + top))[i].key = 1;
            }
        }
        if (!open) {
            break;
        }
        round = round <= SOLVER_ROUND_LAST / SOLVER_ROUND_GROWTH ? round * SOLVER_ROUND_GROWTH
                                                                  : UINT64_MAX;
    }
    /* the slot may have been taken meanwhile by a deeper position: find it again */
    at = solver_slot(self, h, hands, to_act, beat, beat_seat, side, &found);
    SolverEntry *slot = (SolverEntry *)(self->table + at * self->stride);
    uint64_t took = self->positions - first + 1;
    uint32_t work = 0;
    while (took > 1 && work < 63) {
        took >>= 1;
        work++;
    }
    self->marks[at] = SOLVER_TAG(h) | SOLVER_MARK | work;
    for (int s = 0; s < n; s++) {
        slot->hands[2 * s] = (uint64_t)hands[s];
        slot->hands[2 * s + 1] = (uint64_t)(hands[s] >> 64);
    }
    slot->to_act = (int8_t)to_act;
    slot->beat = beat;
    slot->beat_seat = (int8_t)beat_seat;
    slot->side = (int8_t)side;
    slot->state = (int8_t)(result ? 2 : 1);
    return result;
}

PyDoc_STRVAR(wins_doc, "wins(hands, to_act, beat, beat_seat, team, goal, side, seconds, "
             "positions=-1, must_hold=-1, order=0) -> int\n\n"
             "1 where side wins the position, 0 where it loses, -1 past the seconds (negative:\n"
             "none), -3 past the positions it may search (negative: any). A full table forgets\n"
             "the answer that took the fewest positions in the probe window of a new one.\n"
             "hands: one packed set a seat; beat: a play id or -1; team: a byte per seat, its\n"
             "side; goal: a byte per seat, the cards at which it has won. A change of team or\n"
             "goal empties the table. must_hold: the rank the hand's first play, this lead,\n"
             "must hold (play.first_play_holds_lead_card), or -1. order: the order of moves\n"
             "(solver.ORDERS): 0 by the plays a hand needs first, 1 without that key.");

/* A question's position as wins() and known() take it from Python, then as read: the hands
 * checked and packed, the play to beat SOLVER_FIRST_LEAD for the hand's first lead. */
typedef struct {
    PyObject *hands_obj;
    int to_act, beat_seat, side, must_hold;
    long beat;
    const char *team, *goal;
    Py_ssize_t n_team, n_goal;
    u128 hands[SOLVER_SEATS];
} SolverAsk;

/* Check and pack a question's position: 0, or -1 with an exception naming `caller`. */
static int
solver_read(Solver *self, const char *caller, SolverAsk *q)
{
    const int n = self->players;
    if (PyTuple_GET_SIZE(q->hands_obj) != n || q->n_team != n || q->n_goal != n ||
        q->to_act < 0 || q->to_act >= n || q->beat_seat < -1 || q->beat_seat >= n ||
        q->beat < -1 || q->beat >= self->n_plays || (q->beat < 0) != (q->beat_seat < 0) ||
        q->side < 0 || q->side > 1 || q->must_hold < -1 ||
        q->must_hold >= self->lister->ranks ||
        (q->must_hold >= 0 && (q->beat >= 0 || !self->bound))) {
        PyErr_Format(PyExc_ValueError, "%s(): a hand a seat, seats and a play in range, "
                     "and a rank to hold only on a lead, where duties bind", caller);
        return -1;
    }
    for (int s = 0; s < n; s++) {
        if (q->team[s] > 1) {
            PyErr_Format(PyExc_ValueError, "%s(): a side is 0 or 1", caller);
            return -1;
        }
        if (hand_of(self->lister, PyTuple_GET_ITEM(q->hands_obj, s), &q->hands[s]) < 0) {
            return -1;
        }
        if (held(self->lister, q->hands[s]) > self->lister->max_hand) {
            PyErr_Format(PyExc_ValueError, "%s(): a hand larger than the table's", caller);
            return -1;
        }
    }
    if (q->must_hold >= 0) {
        q->beat = SOLVER_FIRST_LEAD;
    }
    return 0;
}

/* Whether the table's answers are to questions of these sides and goals. */
static int
solver_same_sides(const Solver *self, const SolverAsk *q)
{
    for (int s = 0; s < self->players; s++) {
        if (self->team[s] != q->team[s] || self->goal[s] != q->goal[s]) {
            return 0;
        }
    }
    return 1;
}

static PyObject *
Solver_wins(Solver *self, PyObject *args)
{
    SolverAsk q = {.must_hold = -1};
    double seconds;
    long long limit = -1;
    int order = 0;
    if (!PyArg_ParseTuple(args, "O!iliy#y#id|Lii:wins", &PyTuple_Type, &q.hands_obj, &q.to_act,
                          &q.beat, &q.beat_seat, &q.team, &q.n_team, &q.goal, &q.n_goal,
                          &q.side, &seconds, &limit, &q.must_hold, &order) ||
        solver_read(self, "wins", &q) < 0) {
        return NULL;
    }
    if (order < 0 || order > 1) {
        PyErr_SetString(PyExc_ValueError, "wins(): order 0 or 1");
        return NULL;
    }
    self->order = order;
    if (q.must_hold >= 0) {
        self->must_hold = q.must_hold;
    }
    if (!solver_same_sides(self, &q)) {
        if (self->used) {
            memset(self->marks, 0, sizeof(uint32_t) * (self->mask + 1));
        }
        for (int s = 0; s < self->players; s++) {
            self->team[s] = (int8_t)q.team[s];
            self->goal[s] = (uint8_t)q.goal[s];
        }
    }
    for (int s = 0; s < self->players; s++) {
        int mates = 0;
        for (int t = 0; t < self->players; t++) {
            mates += self->team[t] == self->team[s];
        }
        self->alone[s] = mates == 1;
    }
    self->used = 1;
    self->stop = 0;
    self->deadline = seconds < 0 ? 0.0 : solver_now() + seconds;
    self->limited = limit >= 0;
    self->last_position = self->positions + (uint64_t)(limit < 0 ? 0 : limit);
    int found = solver_search(self, q.hands, q.to_act, (int32_t)q.beat, q.beat_seat, q.side, 0,
                              UINT64_MAX, 1);
    if (found < 0) {
        if (self->stop == 3) {
            return NULL;
        }
        return PyLong_FromLong(self->stop == 4 ? -3 : -1);
    }
    return PyLong_FromLong(found);
}

PyDoc_STRVAR(known_doc, "known(hands, to_act, beat, beat_seat, team, goal, side, "
             "must_hold=-1) -> int\n\n"
             "What the table holds of a position, searching nothing: 1 where side wins it, 0\n"
             "where it loses, -1 where the table holds no answer (never searched, forgotten,\n"
             "or the table answers questions of other sides or goals). The arguments are\n"
             "wins()'s, without its budgets.");

static PyObject *
Solver_known(Solver *self, PyObject *args)
{
    SolverAsk q = {.must_hold = -1};
    if (!PyArg_ParseTuple(args, "O!iliy#y#i|i:known", &PyTuple_Type, &q.hands_obj, &q.to_act,
                          &q.beat, &q.beat_seat, &q.team, &q.n_team, &q.goal, &q.n_goal,
                          &q.side, &q.must_hold) ||
        solver_read(self, "known", &q) < 0) {
        return NULL;
    }
    if (!self->used || !solver_same_sides(self, &q) ||
        (q.must_hold >= 0 && q.must_hold != self->must_hold)) {
        return PyLong_FromLong(-1);
    }
    int found;
    const int32_t beat = (int32_t)q.beat;
    uint64_t h = solver_hash(self, q.hands, q.to_act, beat, q.beat_seat, q.side);
    size_t at = solver_slot(self, h, q.hands, q.to_act, beat, q.beat_seat, q.side, &found);
    if (!found) {
        return PyLong_FromLong(-1);
    }
    return PyLong_FromLong(((SolverEntry *)(self->table + at * self->stride))->state == 2);
}

static PyObject *
Solver_get_positions(Solver *self, void *Py_UNUSED(closure))
{
    return PyLong_FromUnsignedLongLong(self->positions);
}

static PyMethodDef Solver_methods[] = {
    {"wins", (PyCFunction)Solver_wins, METH_VARARGS, wins_doc},
    {"known", (PyCFunction)Solver_known, METH_VARARGS, known_doc},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Solver_getset[] = {
    {"positions", (getter)Solver_get_positions, NULL, "Positions searched so far.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject SolverType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ddz_rules._moves.Solver",
    .tp_doc = PyDoc_STR("Solver(lister, teach, players, play_key, last_only, play_level, bound, "
                        "must_beat,\nwarns_single, memory): exact play with every hand open "
                        "(ddz_rules/solver.py)."),
    .tp_basicsize = sizeof(Solver),
    .tp_itemsize = 0,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Solver_init,
    .tp_traverse = (traverseproc)Solver_traverse,
    .tp_clear = (inquiry)Solver_clear,
    .tp_dealloc = (destructor)Solver_dealloc,
    .tp_methods = Solver_methods,
    .tp_getset = Solver_getset,
};

/* ------------------------------------------------------------------ a listing served */

/* A table's listing method answered by the lister: calling it calls `raw` (a lister method)
 * and, where that gives None (what the lister cannot list: wild cards held, a hand over the
 * largest, a class not learnt yet, a play not of the table) or a keyword is passed,
 * `fallback` (the table's own method, which says or does what is needed) with the same
 * arguments. So a listing the lister serves pays no Python frame. */
typedef struct {
    PyObject_HEAD
    PyObject *raw;
    PyObject *fallback;
    vectorcallfunc vectorcall;
} Served;

static PyObject *
Served_vectorcall(Served *self, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    if (self->raw == NULL || self->fallback == NULL) { /* cleared by the collector */
        PyErr_SetString(PyExc_ReferenceError, "this table's listing is gone");
        return NULL;
    }
    if (kwnames == NULL) {
        PyObject *found = PyObject_Vectorcall(self->raw, args, nargsf, NULL);
        if (found != Py_None) {
            return found; /* the listing, or NULL with the lister's exception */
        }
        Py_DECREF(found);
    }
    return PyObject_Vectorcall(self->fallback, args, nargsf, kwnames);
}

static PyObject *
Served_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    PyObject *raw, *fallback;
    if (!PyArg_ParseTuple(args, "OO:Served", &raw, &fallback)) {
        return NULL;
    }
    if ((kwargs != NULL && PyDict_GET_SIZE(kwargs)) || !PyCallable_Check(raw) ||
        !PyCallable_Check(fallback)) {
        PyErr_SetString(PyExc_TypeError, "Served(raw, fallback) takes two callables");
        return NULL;
    }
    Served *self = (Served *)type->tp_alloc(type, 0);
    if (self == NULL) {
        return NULL;
    }
    Py_INCREF(raw);
    self->raw = raw;
    Py_INCREF(fallback);
    self->fallback = fallback;
    self->vectorcall = (vectorcallfunc)Served_vectorcall;
    return (PyObject *)self;
}

static int
Served_traverse(Served *self, visitproc visit, void *arg)
{
    Py_VISIT(self->raw);
    Py_VISIT(self->fallback);
    return 0;
}

static int
Served_clear(Served *self)
{
    Py_CLEAR(self->raw);
    Py_CLEAR(self->fallback);
    return 0;
}

static void
Served_dealloc(Served *self)
{
    PyObject_GC_UnTrack(self);
    Served_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *
Served_get_fallback(Served *self, void *Py_UNUSED(closure))
{
    if (self->fallback == NULL) {
        Py_RETURN_NONE;
    }
    Py_INCREF(self->fallback);
    return self->fallback;
}

static PyGetSetDef Served_getset[] = {
    {"fallback", (getter)Served_get_fallback, NULL,
     "The table's own method, called where the lister gives None.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject ServedType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ddz_rules._moves.Served",
    .tp_doc = PyDoc_STR("Served(raw, fallback): a table's listing method answered by its "
                        "compiled lister (raw),\nfalling back on the table's own method "
                        "where raw gives None."),
    .tp_basicsize = sizeof(Served),
    .tp_itemsize = 0,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_new = Served_new,
    .tp_traverse = (traverseproc)Served_traverse,
    .tp_clear = (inquiry)Served_clear,
    .tp_dealloc = (destructor)Served_dealloc,
    .tp_vectorcall_offset = offsetof(Served, vectorcall),
    .tp_call = PyVectorcall_Call,
    .tp_getset = Served_getset,
};

static PyMethodDef module_functions[] = {
    {"draws", (PyCFunction)(void (*)(void))moves_draws, METH_FASTCALL, draws_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef moves_module = {
    PyModuleDef_HEAD_INIT,
    "_moves",
    "The optional compiled move lister and hand runner: see ddz_rules/_moves.c.",
    -1,
    module_functions,
    NULL,
    NULL,
    NULL,
    NULL,
};

PyMODINIT_FUNC
PyInit__moves(void)
{
    if (PyType_Ready(&ListerType) < 0 || PyType_Ready(&RunnerType) < 0 ||
        PyType_Ready(&ServedType) < 0 || PyType_Ready(&SolverType) < 0 ||
        PyType_Ready(&TablesType) < 0) {
        return NULL;
    }
    split_fill_longest(); /* the solver orders moves by the plays a hand needs */
    PyObject *module = PyModule_Create(&moves_module);
    if (module == NULL) {
        return NULL;
    }
    Py_INCREF(&ListerType);
    if (PyModule_AddObject(module, "Lister", (PyObject *)&ListerType) < 0) {
        Py_DECREF(&ListerType);
        Py_DECREF(module);
        return NULL;
    }
    Py_INCREF(&RunnerType);
    if (PyModule_AddObject(module, "Runner", (PyObject *)&RunnerType) < 0) {
        Py_DECREF(&RunnerType);
        Py_DECREF(module);
        return NULL;
    }
    Py_INCREF(&SolverType);
    if (PyModule_AddObject(module, "Solver", (PyObject *)&SolverType) < 0) {
        Py_DECREF(&SolverType);
        Py_DECREF(module);
        return NULL;
    }
    Py_INCREF(&ServedType);
    if (PyModule_AddObject(module, "Served", (PyObject *)&ServedType) < 0) {
        Py_DECREF(&ServedType);
        Py_DECREF(module);
        return NULL;
    }
    Py_INCREF(&TablesType);
    if (PyModule_AddObject(module, "Tables", (PyObject *)&TablesType) < 0) {
        Py_DECREF(&TablesType);
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
