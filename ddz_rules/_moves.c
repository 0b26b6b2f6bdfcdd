/* The optional compiled move lister: a hand's leads and answers from a play table flattened
 * into arrays (ddz_rules/moves.py builds them from ddz_rules/table.py's runs).
 *
 * It knows no rule. A body (a chain of ranks, so many cards each) is a packed card set; its
 * plays are either one play id or a list of kicker sets, each with a play id. Leads visit the
 * bodies slot by slot (lowest rank, then width), answers visit them in the table's run order,
 * skipping to the end of a run at the first body the hand lacks, exactly as table.py's
 * _collect does. Which bodies may answer a class is a mask Python computes from
 * Reading.beats and hands over with learn(); nothing here compares readings.
 *
 * Card sets are packed integers (ddz_rules/cards.py): a field of `bits` bits per rank whose
 * top bit is the guard, so a set lies within another when ((top - set) & guard) == guard,
 * top being the other with every guard bit set.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "_packed.h"


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
        PyErr_Format(PyExc_TypeError, "Lister(): %s must be bytes", name);
        return NULL;
    }
    Py_ssize_t length = PyBytes_GET_SIZE(data);
    if (length % (Py_ssize_t)size != 0 || (expect && length / (Py_ssize_t)size != *n)) {
        PyErr_Format(PyExc_ValueError, "Lister(): %s has the wrong length (%zd bytes)", name,
                     length);
        return NULL;
    }
    *n = length / (Py_ssize_t)size;
    if (*n > INT32_MAX - 1) {
        PyErr_Format(PyExc_ValueError, "Lister(): %s is too long", name);
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
            PyErr_Format(PyExc_ValueError, "Lister(): %s[%zd] = %d is outside [%zd, %zd)",
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
            PyErr_Format(PyExc_ValueError, "Lister(): %s skips from %zd to %d", name, i,
                         (int)skip[i]);
            return 0;
        }
        if (seen[bodies[i]]) {
            PyErr_Format(PyExc_ValueError, "Lister(): %s visits body %d twice", name,
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
    if (!(self->keys = copy_items(keys, sizeof(u128), &self->n_bodies, 0, "keys"))) {
        return -1;
    }
    n_body_offsets = self->n_bodies + 1;
    if (!(self->body_play = copy_items(body_play, 4, &self->n_bodies, 1, "body_play")) ||
        !(self->body_kicks = copy_items(body_kicks, 4, &n_body_offsets, 1, "body_kicks")) ||
        !(self->kick_keys = copy_items(kick_keys, sizeof(u128), &self->n_kicks, 0,
                                       "kick_keys")) ||
        !(self->kick_ids = copy_items(kick_ids, 4, &self->n_kicks, 1, "kick_ids")) ||
        !(self->lead_bodies = copy_items(lead_bodies, 4, &self->n_lead, 0, "lead_bodies")) ||
        !(self->lead_skip = copy_items(lead_skip, 4, &self->n_lead, 1, "lead_skip")) ||
        !(self->slots = copy_items(slots, 4, &n_offsets, 1, "slots")) ||
        !(self->answer_bodies = copy_items(answer_bodies, 4, &self->n_answer, 0,
                                           "answer_bodies")) ||
        !(self->answer_skip = copy_items(answer_skip, 4, &self->n_answer, 1, "answer_skip")) ||
        !(self->play_class = copy_items(play_class, 4, &self->n_plays, 1, "play_class"))) {
        return -1;
    }
    if (!all_within(self->body_play, self->n_bodies, -1, self->n_plays, "body_play") ||
        !all_within(self->body_kicks, n_body_offsets, 0, self->n_kicks + 1, "body_kicks") ||
        !all_within(self->kick_ids, self->n_kicks, 0, self->n_plays, "kick_ids") ||
        !all_within(self->lead_bodies, self->n_lead, 0, self->n_bodies, "lead_bodies") ||
        !all_within(self->slots, n_offsets, 0, self->n_lead + 1, "slots") ||
        !all_within(self->answer_bodies, self->n_answer, 0, self->n_bodies, "answer_bodies") ||
        !all_within(self->play_class, self->n_plays, 0, self->n_bodies, "play_class")) {
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
    int ok = walk_ok(self->lead_bodies, self->lead_skip, self->n_lead, seen, "lead order");
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
    int held = 0;
    for (int r = 0; r < self->ranks; r++) {
        held += (int)((*hand >> (self->bits * r)) & self->field);
    }
    return held > self->max_hand;
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
leads_of(Lister *self, PyObject *hand_obj, PyObject *items)
{
    u128 hand;
    int refused = hand_of(self, hand_obj, &hand);
    if (refused) {
        if (refused < 0) {
            return NULL;
        }
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
    return leads_of(self, hand, self->ids);
}

PyDoc_STRVAR(leads_doc, "leads(hand) -> list[Play]\n\nAs lead_ids, the plays themselves.");

static PyObject *
Lister_leads(Lister *self, PyObject *hand)
{
    return leads_of(self, hand, self->plays);
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
 * -2 where the hand is too large, the class is not learnt yet or the reading is not one of
 * the table's; -1 with an exception on bad arguments. */
static Py_ssize_t
list_answers(Lister *self, PyObject *const *args, Py_ssize_t nargs, enum answering by)
{
    u128 hand;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "answers take a hand and a class, a play id or a "
                        "reading");
        return -1;
    }
    int refused = hand_of(self, args[0], &hand);
    if (refused) {
        return refused < 0 ? -1 : -2;
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
        if (cls < 0 || cls >= (by == BY_PLAY ? self->n_plays : self->n_bodies)) {
            PyErr_Format(PyExc_ValueError, "no %s %zd in this table",
                         by == BY_PLAY ? "play" : "class", cls);
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
             "holds more than max_hand cards or the play's class is not\nlearnt yet (see "
             "learn).");

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

PyDoc_STRVAR(answers_to_doc, "answers_to(hand, reading) -> list[Play] | None\n\nThe plays of hand "
             "that beat reading, the reading of a play of the table (the\nvery object); None "
             "where it is not one, its class is not learnt yet, or hand\nholds more than "
             "max_hand cards.");

static PyObject *
Lister_answers_to(Lister *self, PyObject *const *args, Py_ssize_t nargs)
{
    return answered(self, args, nargs, BY_READING, self->plays);
}

static PyMethodDef Lister_methods[] = {
    {"answers_to", (PyCFunction)(void (*)(void))Lister_answers_to, METH_FASTCALL,
     answers_to_doc},
    {"lead_ids", (PyCFunction)Lister_lead_ids, METH_O, lead_ids_doc},
    {"leads", (PyCFunction)Lister_leads, METH_O, leads_doc},
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

static struct PyModuleDef moves_module = {
    PyModuleDef_HEAD_INIT,
    "_moves",
    "The optional compiled move lister: see ddz_rules/_moves.c.",
    -1,
    NULL,
    NULL,
    NULL,
    NULL,
    NULL,
};

PyMODINIT_FUNC
PyInit__moves(void)
{
    if (PyType_Ready(&ListerType) < 0) {
        return NULL;
    }
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
    return module;
}
