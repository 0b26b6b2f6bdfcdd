/* Many tables of self-play stepped at once (ddz_rules/env/vector.py's VectorTables, whose
 * Python stepping is this code's twin, proved equal by tests/test_env_vector.py).
 *
 * Included by _moves.c: each table is a HandState of a Runner, moved one action at a time by
 * the hand functions the runner's random play uses. Besides, this file keeps what a seat's
 * observation needs that the hand does not (each seat's cards played, the current trick,
 * the last auction word of each seat, the base and multiplier shown, each seat's last plays)
 * and writes observations in the layout of ddz_rules/env/observation.py's Encoder, from
 * offsets Python computes with Layout. It knows no rule: the words, calls and plays are action
 * ids Python maps (env/actions.py's ActionSpace), every value is read from arrays.
 *
 * Deals follow the environments: each table's deal seeds are numpy's
 * Generator(PCG64).integers(2**63 - 1), drawn here from the PCG64 state Python hands over
 * (numpy's algorithm: a 128-bit LCG with the XSL-RR output, and Lemire's bounded draw).
 */

/* The most copies of a rank, and the deepest history, that observations are written for. */
#define TABLES_COPIES 8
#define TABLES_HISTORY 32

/* What numpy's PCG64 bit generator holds. */
typedef struct {
    u128 state, inc;
} Pcg64;

static uint64_t
pcg64_next(Pcg64 *p)
{
    const u128 mult = ((u128)2549297995355413924ULL << 64) | 4865540595714422341ULL;
    p->state = p->state * mult + p->inc;
    uint64_t x = (uint64_t)(p->state >> 64) ^ (uint64_t)p->state;
    unsigned rot = (unsigned)(p->state >> 122);
    return (x >> rot) | (x << ((-rot) & 63));
}

/* Generator.integers(2**63 - 1) (aec.py's SEED_LIMIT): a deal's seed. */
static uint64_t
pcg64_seed(Pcg64 *p)
{
    const uint64_t range = ((uint64_t)1 << 63) - 2, excl = range + 1;
    u128 m = (u128)pcg64_next(p) * excl;
    uint64_t left = (uint64_t)m;
    if (left < excl) {
        const uint64_t threshold = (UINT64_MAX - range) % excl;
        while (left < threshold) {
            m = (u128)pcg64_next(p) * excl;
            left = (uint64_t)m;
        }
    }
    return (uint64_t)(m >> 64);
}

/* One table: its hand, its deals, and what observations need beyond the hand. */
typedef struct {
    HandState h;
    Pcg64 rng;
    int dealer, redeals;
    u128 played[16];      /* each seat's cards played this hand */
    u128 trick[16];       /* each seat's last play in the current trick (0: none or a pass) */
    uint32_t passed;      /* bit per seat: its last action in the trick was a pass */
    int8_t word[16];      /* each seat's last auction word (its id), -1 for none */
    int words, call_said;
    int64_t base;         /* the base the auction shows */
    int64_t mult;         /* the plays' multiplier events' product (the auction's aside) */
    u128 beat_key;        /* the play to beat: its cards, its type's index, chain length */
    int beat_type, beat_length;
    PyObject *turn;       /* a turn with wild cards: {id: (play, type, length)}, else NULL */
} Table;

/* The thermometer flags of a rank held `count` times, for each count up to the most copies:
 * the k-th flag set where more than k are held. */
static const float THERMOMETER[TABLES_COPIES + 1][TABLES_COPIES] = {
    {0, 0, 0, 0, 0, 0, 0, 0}, {1, 0, 0, 0, 0, 0, 0, 0}, {1, 1, 0, 0, 0, 0, 0, 0},
    {1, 1, 1, 0, 0, 0, 0, 0}, {1, 1, 1, 1, 0, 0, 0, 0}, {1, 1, 1, 1, 1, 0, 0, 0},
    {1, 1, 1, 1, 1, 1, 0, 0}, {1, 1, 1, 1, 1, 1, 1, 0}, {1, 1, 1, 1, 1, 1, 1, 1}};

/* For one deck's 5-bit fields: the flags of two ranks at once, by the ten bits that hold
 * them (eight floats, so that a block is written eight ranks a time in 32-byte copies). */
static float PAIRS[1024][8];

static void
pairs_made(void)
{
    for (int both = 0; both < 1024; both++) {
        for (int half = 0; half < 2; half++) {
            int count = (both >> (5 * half)) & 31;
            memcpy(PAIRS[both] + 4 * half, THERMOMETER[count < 4 ? count : 4], 16);
        }
    }
}

/* Where each feature of the observation starts (Layout.offsets), in this order. */
enum {
    AT_PASS, AT_TYPE, AT_LENGTH, AT_BEAT_SEAT, AT_LEADS, AT_AUCTION, AT_WORDS, AT_BASE,
    AT_MULTIPLIER, AT_LEFT, AT_ROLE, AT_PHASE, AT_TO_ACT, AT_FIRST, AT_DEALER, AT_CALLED,
    AT_ADVANTAGE, AT_UNDEALT, AT_MARKED, AT_TURNED, AT_HISTORY, AT_HISTORY_PASS, AT_WILD,
    N_AT
};

typedef struct {
    PyObject_HEAD
    Runner *runner;
    PyObject *wild_ids;     /* wild_ids(plays, wild) -> {id: (play, type, length)}; or None */
    Py_ssize_t n, size, n_actions, n_words, first_call, first_play, pass_id, max_redeals;
    int copies, history, max_hand, undealt, kitty_shown, marked, turned;
    int whole;              /* one deck of 15 ranks in 5-bit fields: blocks written whole */
    int64_t base_none;      /* the base shown before any bid */
    double deck_size;
    u128 deck_key;
    Py_ssize_t at[N_AT];
    int32_t *edge_action;   /* each auction edge: its word's action id */
    int32_t *node_seat;     /* each auction state: the seat to say a word (-1: ended) */
    int64_t *word_base;     /* each word id: the base it shows once said (-1: as it was) */
    int32_t *next_dealer;   /* by dealer, then 1 where the deal was thrown in */
    int32_t *play_action;   /* each play id: its action id */
    int32_t *action_play;   /* each action id from first_play: its play id */
    int32_t *play_type, *play_length; /* each play id: its type's index, chain length */
    Table *tables;
    u128 *hist;             /* n * players * history: each seat's last plays, newest first */
    uint8_t *hist_pass;     /* the same, 1 for a pass */
    uint8_t *hist_len;      /* n * players: how many each seat has */
    int64_t *legal, *next_legal; /* the tables' legal ids, in turn; and where each starts */
    uint64_t *seen;         /* a bit per action id, all clear: long listings sorted by it */
    Py_ssize_t *legal_at, *next_at, legal_cap, next_cap;
    int ready;
} Tables;

static void
Tables_dealloc(Tables *self)
{
    if (self->tables != NULL) {
        for (Py_ssize_t i = 0; i < self->n; i++) {
            hand_clear(&self->tables[i].h);
            Py_CLEAR(self->tables[i].turn);
        }
    }
    Py_XDECREF(self->runner);
    Py_XDECREF(self->wild_ids);
    PyMem_Free(self->edge_action);
    PyMem_Free(self->node_seat);
    PyMem_Free(self->word_base);
    PyMem_Free(self->next_dealer);
    PyMem_Free(self->play_action);
    PyMem_Free(self->action_play);
    PyMem_Free(self->play_type);
    PyMem_Free(self->play_length);
    PyMem_Free(self->tables);
    PyMem_Free(self->hist);
    PyMem_Free(self->hist_pass);
    PyMem_Free(self->hist_len);
    PyMem_Free(self->legal);
    PyMem_Free(self->next_legal);
    PyMem_Free(self->seen);
    PyMem_Free(self->legal_at);
    PyMem_Free(self->next_at);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Copy int32 items of a bytes object, n of them, each within [low, high): or NULL. */
static int32_t *
int32_items(PyObject *data, Py_ssize_t n, int32_t low, int32_t high, const char *name)
{
    Py_ssize_t count = n;
    int32_t *out = copy_items(data, 4, &count, 1, name);
    if (out != NULL && !all_within(out, n, low, high, name)) {
        PyMem_Free(out);
        return NULL;
    }
    return out;
}

static int
Tables_init(Tables *self, PyObject *args, PyObject *kwargs)
{
    static char *names[] = {"runner", "n", "max_redeals", "n_actions", "n_words", "first_call",
                            "first_play", "pass_id", "edge_action", "node_seat", "word_base",
                            "next_dealer", "play_action", "play_type", "play_length", "size",
                            "at", "copies", "history", "max_hand", "undealt", "deck_size",
                            "deck_key", "kitty_shown", "marked", "turned", "base_none",
                            "wild_ids", NULL};
    PyObject *runner, *wild_ids, *edge_action, *node_seat, *word_base, *next_dealer, *play_action;
    PyObject *play_type, *play_length, *at, *deck_key;
    long long base_none;
    int deck_size;
    if (self->runner != NULL) {
        PyErr_SetString(PyExc_TypeError, "Tables(): already made");
        return -1;
    }
    if (!PyArg_ParseTupleAndKeywords(
            args, kwargs, "O!nnnnnnnSSSSSSSnSiiiiiOpppLO:Tables", names, &RunnerType, &runner,
            &self->n, &self->max_redeals, &self->n_actions, &self->n_words, &self->first_call,
            &self->first_play, &self->pass_id, &edge_action, &node_seat, &word_base,
            &next_dealer, &play_action, &play_type, &play_length, &self->size, &at,
            &self->copies, &self->history, &self->max_hand, &self->undealt, &deck_size,
            &deck_key, &self->kitty_shown, &self->marked, &self->turned, &base_none,
            &wild_ids)) {
        return -1;
    }
    Runner *with = (Runner *)runner;
    Lister *lister = with->lister;
    const int players = with->players, ranks = lister->ranks;
    const Py_ssize_t n_plays = lister->n_plays;
    if (self->n < 1 || self->n > (1 << 20) || self->max_redeals < 0 || self->copies < 1 ||
        self->copies > TABLES_COPIES || self->history < 0 || self->history > TABLES_HISTORY ||
        self->max_hand < 1 || self->undealt < 0 || deck_size < 1 || self->size < 1 ||
        self->n_words < 1 || self->pass_id < 0 || self->pass_id >= self->n_words ||
        self->n_actions < self->first_play + n_plays || self->n_actions > INT32_MAX ||
        self->first_call != self->n_words || self->first_play != self->first_call +
        with->n_calls || base_none < 0 || ranks > 15 ||
        with->n_nodes > INT32_MAX / 2) {
        PyErr_SetString(PyExc_ValueError, "Tables(): the sizes do not agree (words, then "
                        "calls, then plays; 1 to 2**20 tables)");
        return -1;
    }
    if (with->n_drawn && !PyCallable_Check(wild_ids)) {
        PyErr_SetString(PyExc_TypeError, "Tables(): wild_ids must be callable where wild ranks "
                        "are drawn");
        return -1;
    }
    self->base_none = base_none;
    self->deck_size = deck_size;
    if (!PyBytes_Check(deck_key) || PyBytes_GET_SIZE(deck_key) != 16) {
        PyErr_SetString(PyExc_ValueError, "Tables(): deck_key is 16 little-endian bytes");
        return -1;
    }
    memcpy(&self->deck_key, PyBytes_AS_STRING(deck_key), 16);
    int32_t *offsets;
    if (!(self->edge_action = int32_items(edge_action, with->n_edges, 0,
                                          (int32_t)self->n_words, "Tables(): edge_action")) ||
        !(self->node_seat = int32_items(node_seat, with->n_nodes, -1, players,
                                        "Tables(): node_seat")) ||
        !(self->next_dealer = int32_items(next_dealer, 2 * players, 0, players,
                                          "Tables(): next_dealer")) ||
        !(self->play_action = int32_items(play_action, n_plays, (int32_t)self->first_play,
                                          (int32_t)(self->first_play + n_plays),
                                          "Tables(): play_action")) ||
        !(self->play_type = int32_items(play_type, n_plays, 0, 256, "Tables(): play_type")) ||
        !(self->play_length = int32_items(play_length, n_plays, 0, INT32_MAX,
                                           "Tables(): play_length")) ||
        !(offsets = int32_items(at, N_AT, 0, (int32_t)self->size, "Tables(): at"))) {
        return -1;
    }
    for (int k = 0; k < N_AT; k++) {
        self->at[k] = offsets[k];
    }
    PyMem_Free(offsets);
    Py_ssize_t n_words = self->n_words;
    if (!(self->word_base = copy_items(word_base, 8, &n_words, 1, "Tables(): word_base")) ||
        !all_at_least(self->word_base, n_words, -1, "Tables(): word_base")) {
        return -1;
    }
    /* Every feature must lie within the observation, each as wide as written below. */
    int n_types = 0;
    for (Py_ssize_t p = 0; p < n_plays; p++) {
        n_types = self->play_type[p] >= n_types ? self->play_type[p] + 1 : n_types;
    }
    const Py_ssize_t block = (Py_ssize_t)ranks * self->copies, depth = self->history;
    const Py_ssize_t width[N_AT] = {
        players, n_types, 1, players, 1, players * n_words, 1, 1, 1, players, 3 * players, 4,
        players, players, players, ranks + 1, 1, 1, ranks, ranks, block * players * depth,
        players * depth, ranks};
    if ((2 * players + 4) * block > self->size) {
        PyErr_SetString(PyExc_ValueError, "Tables(): the card blocks outgrow the observation");
        return -1;
    }
    for (int k = 0; k < N_AT; k++) {
        if (self->at[k] + width[k] > self->size) {
            PyErr_Format(PyExc_ValueError, "Tables(): feature %d outgrows the observation", k);
            return -1;
        }
    }
    self->action_play = PyMem_Malloc(sizeof(int32_t) * (size_t)(n_plays ? n_plays : 1));
    if (self->action_play == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t p = 0; p < n_plays; p++) {
        self->action_play[p] = -1;
    }
    for (Py_ssize_t p = 0; p < n_plays; p++) {
        int32_t *slot = &self->action_play[self->play_action[p] - self->first_play];
        if (*slot >= 0) {
            PyErr_Format(PyExc_ValueError, "Tables(): two plays share action %d",
                         (int)self->play_action[p]);
            return -1;
        }
        *slot = (int32_t)p;
    }
    const size_t n = (size_t)self->n, seats = (size_t)players * n;
    self->tables = PyMem_Calloc(n, sizeof(Table));
    self->hist = PyMem_Calloc(seats * (size_t)(depth ? depth : 1), sizeof(u128));
    self->hist_pass = PyMem_Calloc(seats * (size_t)(depth ? depth : 1), 1);
    self->hist_len = PyMem_Calloc(seats, 1);
    self->legal_at = PyMem_Calloc(n + 1, sizeof(Py_ssize_t));
    self->next_at = PyMem_Calloc(n + 1, sizeof(Py_ssize_t));
    self->legal_cap = self->next_cap = 64 * (Py_ssize_t)n;
    self->legal = PyMem_Malloc(sizeof(int64_t) * (size_t)self->legal_cap);
    self->next_legal = PyMem_Malloc(sizeof(int64_t) * (size_t)self->next_cap);
    self->seen = PyMem_Calloc((size_t)(self->n_actions + 63) / 64, sizeof(uint64_t));
    if (!self->seen || !self->tables || !self->hist || !self->hist_pass || !self->hist_len ||
        !self->legal_at || !self->next_at || !self->legal || !self->next_legal) {
        PyErr_NoMemory();
        return -1;
    }
    if (PAIRS[1][0] == 0.0f) {
        pairs_made();
    }
    self->whole = self->copies == 4 && lister->bits == 5 && ranks == 15;
    Py_INCREF(runner);
    self->runner = with;
    Py_INCREF(wild_ids);
    self->wild_ids = wild_ids;
    return 0;
}

/* Make room for `more` ids after `used` in the next legal store: 0, or -1 (no memory). */
static int
tables_room(Tables *self, Py_ssize_t used, Py_ssize_t more)
{
    if (used + more <= self->next_cap) {
        return 0;
    }
    Py_ssize_t cap = self->next_cap;
    while (cap < used + more) {
        cap *= 2;
    }
    int64_t *grown = PyMem_Realloc(self->next_legal, sizeof(int64_t) * (size_t)cap);
    if (grown == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    self->next_legal = grown;
    self->next_cap = cap;
    return 0;
}

/* Sort ids[0 .. count), distinct action ids, ascending: by insertion where they are few, else
 * by a bit per id (self->seen, left clear), a pass over the bits being cheaper than
 * comparisons for a long listing (a leader's hundreds of plays). */
static void
tables_sort(Tables *self, int64_t *ids, Py_ssize_t count)
{
    if (count <= 24) {
        for (Py_ssize_t j = 1; j < count; j++) {
            int64_t id = ids[j];
            Py_ssize_t k = j;
            for (; k > 0 && ids[k - 1] > id; k--) {
                ids[k] = ids[k - 1];
            }
            ids[k] = id;
        }
        return;
    }
    int64_t low = ids[0], high = ids[0];
    for (Py_ssize_t j = 0; j < count; j++) {
        self->seen[ids[j] >> 6] |= (uint64_t)1 << (ids[j] & 63);
        low = ids[j] < low ? ids[j] : low;
        high = ids[j] > high ? ids[j] : high;
    }
    Py_ssize_t k = 0;
    for (int64_t word = low >> 6; word <= high >> 6; word++) {
        uint64_t bits = self->seen[word];
        self->seen[word] = 0;
        while (bits) {
            ids[k++] = (word << 6) + __builtin_ctzll(bits);
            bits &= bits - 1;
        }
    }
}

/* The seat to act at a table. */
static int
table_to_act(Tables *self, const Table *t)
{
    return t->h.stage == HAND_AUCTION ? self->node_seat[t->h.node] : t->h.seat;
}

/* Append table t's legal ids, ascending, to the next legal store from *used: 0, or -1. */
static int
tables_list(Tables *self, Table *t, Py_ssize_t *used)
{
    Runner *runner = self->runner;
    Py_ssize_t count = hand_list(runner, &t->h);
    if (count < 0 || tables_room(self, *used, count) < 0) {
        return -1;
    }
    if (count == 0) {
        PyErr_Format(PyExc_ValueError, "Tables: seat %d has no legal action", t->h.seat);
        return -1;
    }
    int64_t *out = self->next_legal + *used;
    if (t->h.stage == HAND_AUCTION) {
        const int32_t *edges = self->edge_action + runner->node_edges[t->h.node];
        for (Py_ssize_t j = 0; j < count; j++) {
            out[j] = edges[j];
        }
    } else if (t->h.stage == HAND_CALL) {
        for (Py_ssize_t j = 0; j < count; j++) {
            out[j] = self->first_call + j;
        }
    } else if (t->h.python != NULL) { /* wild cards: the ids Python gives the plays */
        Py_CLEAR(t->turn);
        t->turn = PyObject_CallFunctionObjArgs(self->wild_ids, t->h.python, t->h.wild, NULL);
        Py_CLEAR(t->h.python);
        if (t->turn == NULL) {
            return -1;
        }
        if (!PyDict_Check(t->turn) || PyDict_GET_SIZE(t->turn) > t->h.listed) {
            PyErr_SetString(PyExc_TypeError, "Tables: wild_ids must return a dict, an id for "
                            "each play at most");
            return -1;
        }
        PyObject *key, *value;
        Py_ssize_t pos = 0, j = 0;
        while (PyDict_Next(t->turn, &pos, &key, &value)) {
            long long id = PyLong_AsLongLong(key);
            if ((id == -1 && PyErr_Occurred()) || id < self->first_play ||
                id >= self->n_actions) {
                PyErr_Clear();
                PyErr_SetString(PyExc_ValueError, "Tables: wild_ids gave an id that is no "
                                "play's");
                return -1;
            }
            out[j++] = id;
        }
        if (t->h.may_pass) {
            out[j++] = self->pass_id;
        }
        count = j;
    } else {
        const int32_t *ids = runner->lister->out;
        for (Py_ssize_t j = 0; j < t->h.listed; j++) {
            out[j] = self->play_action[ids[j]];
        }
        if (t->h.may_pass) {
            out[t->h.listed] = self->pass_id;
        }
    }
    tables_sort(self, out, count);
    *used += count;
    return 0;
}

/* A stake past 64 bits at table i, as an OverflowError: NULL. */
static PyObject *
tables_overflow(Py_ssize_t i)
{
    PyErr_Format(PyExc_OverflowError, "Tables: table %zd's stake outgrew 64 bits; reset "
                 "before stepping again", i);
    return NULL;
}

/* Start a table's next deal: its seed drawn, the hand dealt, what observations keep
 * emptied. 0, or -1 with an exception (an OverflowError where the stake leaves 64 bits). */
static int
tables_deal(Tables *self, Py_ssize_t i)
{
    Table *t = &self->tables[i];
    const int players = self->runner->players;
    hand_clear(&t->h);
    Py_CLEAR(t->turn);
    uint64_t seed = pcg64_seed(&t->rng);
    memset(t->played, 0, sizeof(t->played));
    memset(t->trick, 0, sizeof(t->trick));
    memset(t->word, -1, sizeof(t->word));
    t->passed = 0;
    t->words = t->call_said = 0;
    t->base = self->base_none;
    t->mult = 1;
    memset(self->hist_len + i * players, 0, (size_t)players);
    int done = hand_deal(self->runner, &t->h, seed, t->dealer);
    if (done > 0) {
        tables_overflow(i);
        return -1;
    }
    return done;
}

/* What became of a table's hand: 0 playing on, 1 over with a result, 2 cut off past
 * max_redeals thrown-in deals (as aec.py's Game.advance); -1 with an exception. A thrown-in
 * deal is dealt again from the next dealer. */
enum { TABLE_ON, TABLE_OVER, TABLE_CUT };

static int
tables_advance(Tables *self, Py_ssize_t i)
{
    Table *t = &self->tables[i];
    while (t->h.stage == HAND_OVER) {
        t->dealer = self->next_dealer[2 * t->dealer + t->h.redeal];
        if (!t->h.redeal) {
            return TABLE_OVER;
        }
        if (t->redeals >= self->max_redeals) {
            return TABLE_CUT;
        }
        t->redeals++;
        if (tables_deal(self, i) < 0) {
            return -1;
        }
    }
    return TABLE_ON;
}

/* Deal a table afresh until a seat has a decision to make (as VectorTables._ready), then
 * append its legal ids to the next legal store from *used: 0, or -1 with an exception. */
static int
tables_fresh(Tables *self, Py_ssize_t i, Py_ssize_t *used)
{
    int tries = 0, done = TABLE_OVER;
    while (done != TABLE_ON) {
        if (tries++ == 1000) {
            PyErr_SetString(PyExc_ValueError, "Tables: a thousand deals in a row ended at once");
            return -1;
        }
        self->tables[i].redeals = 0;
        if (tables_deal(self, i) < 0 || (done = tables_advance(self, i)) < 0) {
            return -1;
        }
    }
    self->next_at[i] = *used;
    return tables_list(self, &self->tables[i], used);
}

/* Set a card block's flags of one set: copies flags per rank (Encoder.card_bytes). */
static void
tables_block(const Tables *self, float *out, u128 key)
{
    const Lister *lister = self->runner->lister;
    const int copies = self->copies, bits = lister->bits, ranks = lister->ranks;
    const u128 field = lister->field;
    if (self->whole) { /* one deck of 15 ranks: every rank written, two a copy */
        uint64_t half = (uint64_t)key & 0x0FFFFFFFFFFFFFFFULL; /* ranks 0 to 11 */
        for (int r = 0; r < 12; r += 2, half >>= 10) {
            memcpy(out + 4 * r, PAIRS[half & 1023], 32);
        }
        half = (uint64_t)(key >> 60); /* ranks 12 to 14 */
        memcpy(out + 48, PAIRS[half & 1023], 32);
        memcpy(out + 56, PAIRS[(half >> 10) & 31], 16);
        return;
    }
    /* Else the block is zeroed: the ranks above the set's highest are left as they are. */
    for (int r = 0; r < ranks && key; r++, key >>= bits, out += copies) {
        int count = (int)(key & field);
        memcpy(out, THERMOMETER[count < copies ? count : copies], sizeof(float) * (size_t)copies);
    }
}

/* The observation of the seat to act at table i into out (size floats): the Encoder's,
 * feature by feature. */
static void
tables_observe(Tables *self, Py_ssize_t i, float *out)
{
    const Table *t = &self->tables[i];
    const HandState *h = &t->h;
    const Runner *runner = self->runner;
    const int n = runner->players, me = table_to_act(self, t);
    const Py_ssize_t block = (Py_ssize_t)runner->lister->ranks * self->copies;
    const Py_ssize_t *at = self->at;
    int rel[16]; /* each seat's offset from the observer, without a division each time */
    for (int s = 0; s < n; s++) {
        rel[s] = s >= me ? s - me : s - me + n;
    }
    /* Each row zeroed while it is in cache; where every block is written whole, only what
     * follows the blocks. */
    const Py_ssize_t blocks = self->whole ? (2 * n + 4) * block : 0;
    memset(out + blocks, 0, sizeof(float) * (size_t)(self->size - blocks));
    u128 seen = h->hands[me];
    for (int s = 0; s < n; s++) {
        seen += t->played[s];
    }
    const int beat = h->beat >= 0 || h->beat_obj != NULL;
    float *cards = out;
    tables_block(self, cards, h->hands[me]);
    cards += block;
    for (int k = 0; k < n; k++, cards += block) {
        tables_block(self, cards, t->played[(me + k) % n]);
    }
    tables_block(self, cards, self->deck_key - seen);
    cards += block;
    const int kitty_known = h->landlord >= 0 && (self->kitty_shown || me == h->landlord);
    tables_block(self, cards, kitty_known ? h->kitty : 0);
    cards += block;
    for (int k = 0; k < n; k++, cards += block) {
        tables_block(self, cards, beat ? t->trick[(me + k) % n] : 0);
    }
    tables_block(self, cards, beat ? t->beat_key : 0);
    if (beat) {
        for (int s = 0; s < n; s++) {
            if ((t->passed >> s) & 1) {
                out[at[AT_PASS] + rel[s]] = 1.0f;
            }
        }
        int length = t->beat_length;
        out[at[AT_TYPE] + t->beat_type] = 1.0f;
        out[at[AT_LENGTH]] = (float)((length < 20 ? length : 20) / 20.0);
        out[at[AT_BEAT_SEAT] + rel[h->beat_seat]] = 1.0f;
    } else if (h->stage == HAND_PLAY) {
        out[at[AT_LEADS]] = 1.0f;
    }
    if (t->words) {
        for (int s = 0; s < n; s++) {
            if (t->word[s] >= 0) {
                out[at[AT_AUCTION] + self->n_words * rel[s] + t->word[s]] = 1.0f;
            }
        }
        out[at[AT_WORDS]] = (float)((t->words < 12 ? t->words : 12) / 12.0);
    }
    out[at[AT_BASE]] = (float)((t->base < 10 ? (double)t->base : 10.0) / 10.0);
    int64_t mult = t->mult; /* Hand.multiplier: the auction's events once it is over, then
                             * the plays' */
    if (h->stage != HAND_AUCTION &&
        __builtin_mul_overflow(mult, runner->factor[h->node], &mult)) {
        mult = INT64_MAX;
    }
    int log2 = 63 - __builtin_clzll((unsigned long long)mult);
    out[at[AT_MULTIPLIER]] = (float)((log2 < 16 ? log2 : 16) / 16.0);
    for (int s = 0; s < n; s++) {
        out[at[AT_LEFT] + rel[s]] = (float)((double)held(runner->lister, h->hands[s]) /
                                            self->max_hand);
    }
    if (h->landlord >= 0) {
        for (int s = 0; s < n; s++) {
            int role = s == h->landlord ? 0 : s == h->partner ? 1 : 2;
            out[at[AT_ROLE] + 3 * rel[s] + role] = 1.0f;
        }
    }
    out[at[AT_PHASE] + (h->stage == HAND_AUCTION ? 0 : h->stage == HAND_CALL ? 1 : 2)] = 1.0f;
    out[at[AT_TO_ACT]] = 1.0f;
    out[at[AT_FIRST] + rel[h->first]] = 1.0f;
    out[at[AT_DEALER] + rel[h->dealer]] = 1.0f;
    for (Py_ssize_t k = 0; k < runner->n_drawn; k++) { /* Hand.wild: the ranks wild now */
        if (runner->wild_before[k] || h->landlord >= 0) {
            out[at[AT_WILD] + h->wild_ranks[k]] = 1.0f;
        }
    }
    if (t->call_said) {
        out[at[AT_CALLED] + (h->called >= 0 ? h->called : runner->lister->ranks)] = 1.0f;
    }
    if (h->landlord >= 0 && h->goal >= 0) {
        out[at[AT_ADVANTAGE]] = (float)((h->goal < 20 ? h->goal : 20) / 20.0);
    }
    if (self->undealt) {
        out[at[AT_UNDEALT]] = (float)(self->undealt / self->deck_size);
    }
    if (self->marked) {
        out[at[AT_MARKED] + h->marked] = 1.0f;
    }
    if (self->turned) {
        out[at[AT_TURNED] + h->turned] = 1.0f;
    }
    const int depth = self->history;
    if (depth) {
        const size_t seats = (size_t)i * n;
        for (int s = 0; s < n; s++) {
            const u128 *keys = self->hist + (seats + s) * depth;
            const uint8_t *passes = self->hist_pass + (seats + s) * depth;
            const int k = rel[s];
            for (int j = 0; j < self->hist_len[seats + s]; j++) {
                if (passes[j]) {
                    out[at[AT_HISTORY_PASS] + depth * k + j] = 1.0f;
                } else {
                    tables_block(self, out + at[AT_HISTORY] + block * (n * j + k), keys[j]);
                }
            }
        }
    }
}

/* Note in a seat's history (newest first) a play's cards, or a pass (key 0). */
static void
tables_remember(Tables *self, Py_ssize_t i, int seat, u128 key)
{
    const int depth = self->history;
    if (!depth) {
        return;
    }
    const size_t at = (size_t)i * self->runner->players + seat;
    u128 *keys = self->hist + at * depth;
    uint8_t *passes = self->hist_pass + at * depth;
    memmove(keys + 1, keys, sizeof(u128) * (size_t)(depth - 1));
    memmove(passes + 1, passes, (size_t)(depth - 1));
    keys[0] = key;
    passes[0] = key == 0;
    if (self->hist_len[at] < depth) {
        self->hist_len[at]++;
    }
}

/* Play action id at table i, legal there: 0; 1 where the stake leaves 64 bits; -1. */
static int
tables_act(Tables *self, Py_ssize_t i, int64_t id)
{
    Table *t = &self->tables[i];
    HandState *h = &t->h;
    Runner *runner = self->runner;
    if (h->stage == HAND_AUCTION) {
        int seat = self->node_seat[h->node];
        Py_ssize_t first = runner->node_edges[h->node], last = runner->node_edges[h->node + 1];
        Py_ssize_t j = first;
        while (j < last && self->edge_action[j] != id) {
            j++;
        }
        t->word[seat] = (int8_t)id;
        t->words++;
        if (self->word_base[id] >= 0) {
            t->base = self->word_base[id];
        }
        return hand_say(runner, h, j - first);
    }
    if (h->stage == HAND_CALL) {
        t->call_said = 1;
        hand_call(runner, h, id - self->first_call);
        return 0;
    }
    const int seat = h->seat;
    PyObject *turn = t->turn; /* this turn's plays with wild cards, if any: taken over here */
    t->turn = NULL;
    if (id == self->pass_id) {
        Py_XDECREF(turn);
        tables_remember(self, i, seat, 0);
        t->trick[seat] = 0;
        t->passed |= (uint32_t)1 << seat;
        hand_pass(runner, h);
        if (h->passes == 0) { /* everyone else passed: a new trick */
            memset(t->trick, 0, sizeof(t->trick));
            t->passed = 0;
        }
        return 0;
    }
    int32_t play;
    u128 key;
    int64_t factor, paid;
    PyObject *chosen = NULL;
    if (turn != NULL) {
        PyObject *id_obj = PyLong_FromLongLong(id);
        PyObject *item = id_obj == NULL ? NULL : PyDict_GetItemWithError(turn, id_obj);
        Py_XDECREF(id_obj);
        long type = -1, length = -1;
        if (item != NULL && PyTuple_Check(item) && PyTuple_GET_SIZE(item) == 3) {
            chosen = PyTuple_GET_ITEM(item, 0);
            type = PyLong_AsLong(PyTuple_GET_ITEM(item, 1));
            length = PyLong_AsLong(PyTuple_GET_ITEM(item, 2));
        }
        if (chosen == NULL || type < 0 || type > 255 || length < 0) {
            if (!PyErr_Occurred()) {
                PyErr_SetString(PyExc_ValueError, "Tables: wild_ids gave no (play, type, "
                                "length) for a legal id");
            }
            Py_DECREF(turn);
            return -1;
        }
        Py_INCREF(chosen);
        Py_DECREF(turn);
        if (play_facts(runner, chosen, &key, &play, &factor, &paid) < 0) {
            Py_DECREF(chosen);
            return -1;
        }
        t->beat_type = (int)type;
        t->beat_length = (int)length;
    } else {
        play = self->action_play[id - self->first_play];
        key = runner->play_key[play];
        factor = runner->play_factor[play];
        paid = runner->play_paid[play];
        t->beat_type = self->play_type[play];
        t->beat_length = self->play_length[play];
    }
    t->beat_key = key;
    tables_remember(self, i, seat, key);
    t->played[seat] += key;
    t->trick[seat] = key;
    t->passed &= ~((uint32_t)1 << seat);
    if (__builtin_mul_overflow(t->mult, factor, &t->mult)) {
        t->mult = INT64_MAX;
    }
    int done = hand_play(runner, h, play, chosen, key, factor, paid);
    Py_XDECREF(chosen);
    return done;
}

/* Whether id is among the legal ids of table i (ascending in the legal store). */
static int
tables_legal(const Tables *self, Py_ssize_t i, int64_t id)
{
    Py_ssize_t low = self->legal_at[i], high = self->legal_at[i + 1];
    while (low < high) {
        Py_ssize_t mid = (low + high) / 2;
        if (self->legal[mid] < id) {
            low = mid + 1;
        } else {
            high = mid;
        }
    }
    return low < self->legal_at[i + 1] && self->legal[low] == id;
}

/* A writable C-contiguous buffer of exactly `length` bytes, or -1 with a ValueError. */
static int
tables_buffer(PyObject *obj, Py_buffer *view, Py_ssize_t length, const char *name)
{
    if (PyObject_GetBuffer(obj, view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) {
        return -1;
    }
    if (view->len != length) {
        PyErr_Format(PyExc_ValueError, "Tables: %s must be %zd bytes, not %zd", name, length,
                     view->len);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

/* Swap the legal stores, write each table's observation and the seat to act, and return
 * the legal ids as a bytearray (int64), their starts in offsets. */
static PyObject *
tables_out(Tables *self, Py_ssize_t used, float *obs, int64_t *offsets, int64_t *to_act)
{
    int64_t *ids = self->legal;
    Py_ssize_t *at = self->legal_at, cap = self->legal_cap;
    self->legal = self->next_legal;
    self->legal_at = self->next_at;
    self->legal_cap = self->next_cap;
    self->next_legal = ids;
    self->next_at = at;
    self->next_cap = cap;
    for (Py_ssize_t i = 0; i < self->n; i++) {
        tables_observe(self, i, obs + i * self->size);
        to_act[i] = table_to_act(self, &self->tables[i]);
    }
    for (Py_ssize_t i = 0; i <= self->n; i++) {
        offsets[i] = self->legal_at[i];
    }
    self->ready = 1;
    return PyByteArray_FromStringAndSize((const char *)self->legal,
                                         (Py_ssize_t)sizeof(int64_t) * used);
}

PyDoc_STRVAR(tables_reset_doc, "reset(states, obs, offsets, to_act) -> bytearray\n\n"
             "Deal every table afresh, table i from the PCG64 state states[i] (32 bytes: "
             "the state,\nthen the increment, each 16 little-endian bytes), seat 0 dealing "
             "first: the observations\ninto obs (float32, n x size), where each table's legal "
             "ids start into offsets (int64,\nn + 1) and the seat to act into to_act (int64, "
             "n). The legal ids, int64 bytes.");

static PyObject *
Tables_reset(Tables *self, PyObject *args)
{
    PyObject *states, *obs_obj, *offsets_obj, *to_act_obj;
    if (!PyArg_ParseTuple(args, "SOOO:reset", &states, &obs_obj, &offsets_obj, &to_act_obj)) {
        return NULL;
    }
    const Py_ssize_t n = self->n;
    if (PyBytes_GET_SIZE(states) != 32 * n) {
        PyErr_Format(PyExc_ValueError, "reset(): states must be %zd bytes", 32 * n);
        return NULL;
    }
    Py_buffer obs, offsets, to_act;
    if (tables_buffer(obs_obj, &obs, (Py_ssize_t)sizeof(float) * n * self->size, "obs") < 0) {
        return NULL;
    }
    if (tables_buffer(offsets_obj, &offsets, 8 * (n + 1), "offsets") < 0) {
        PyBuffer_Release(&obs);
        return NULL;
    }
    if (tables_buffer(to_act_obj, &to_act, 8 * n, "to_act") < 0) {
        PyBuffer_Release(&obs);
        PyBuffer_Release(&offsets);
        return NULL;
    }
    PyObject *result = NULL;
    Py_ssize_t used = 0;
    self->ready = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        Table *t = &self->tables[i];
        memcpy(&t->rng.state, PyBytes_AS_STRING(states) + 32 * i, 16);
        memcpy(&t->rng.inc, PyBytes_AS_STRING(states) + 32 * i + 16, 16);
        t->dealer = 0;
        if (tables_fresh(self, i, &used) < 0) {
            goto out;
        }
    }
    self->next_at[n] = used;
    result = tables_out(self, used, obs.buf, offsets.buf, to_act.buf);
out:
    PyBuffer_Release(&obs);
    PyBuffer_Release(&offsets);
    PyBuffer_Release(&to_act);
    return result;
}

PyDoc_STRVAR(tables_step_doc, "step(actions, obs, offsets, to_act, scores, stakes, done, "
             "cut, thrown) -> bytearray | int\n\n"
             "Play actions[i] (int64) at table i, every one legal there; else change nothing "
             "and return\nthe first table whose action is not. A finished table is dealt "
             "again at once. Writes\nwhat reset() writes, and each seat's score (int64, n x "
             "players), the stake (int64, n:\nbase times multiplier, uncapped), whether it "
             "ended (done, bool) or was cut off past "
             "max_redeals (cut, bool), only where a hand\nended: the caller passes these "
             "four zeroed. thrown (bool): where the action threw the\ndeal in (nobody bid) "
             "and the table was dealt again, or cut off.");

static PyObject *
Tables_step(Tables *self, PyObject *args)
{
    PyObject *objs[9];
    if (!PyArg_ParseTuple(args, "OOOOOOOOO:step", &objs[0], &objs[1], &objs[2], &objs[3],
                          &objs[4], &objs[5], &objs[6], &objs[7], &objs[8])) {
        return NULL;
    }
    if (!self->ready) {
        PyErr_SetString(PyExc_ValueError, "step(): reset first");
        return NULL;
    }
    const Py_ssize_t n = self->n, players = self->runner->players;
    const Py_ssize_t lengths[9] = {8 * n, (Py_ssize_t)sizeof(float) * n * self->size,
                                   8 * (n + 1), 8 * n, 8 * n * players, 8 * n, n, n, n};
    static const char *what[9] = {"actions", "obs", "offsets", "to_act", "scores", "stakes",
                                  "done", "cut", "thrown"};
    Py_buffer views[9];
    int got = 0;
    PyObject *result = NULL;
    for (; got < 9; got++) {
        if (tables_buffer(objs[got], &views[got], lengths[got], what[got]) < 0) {
            goto out;
        }
    }
    const int64_t *actions = views[0].buf;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!tables_legal(self, i, actions[i])) {
            result = PyLong_FromSsize_t(i);
            goto out;
        }
    }
    int64_t *scores = views[4].buf, *stakes = views[5].buf;
    char *done = views[6].buf, *cut = views[7].buf, *thrown = views[8].buf;
    Py_ssize_t used = 0;
    self->ready = 0; /* a failure past here leaves the tables to be reset */
    for (Py_ssize_t i = 0; i < n; i++) {
        Table *t = &self->tables[i];
        int moved = tables_act(self, i, actions[i]);
        if (moved != 0) {
            if (moved > 0) {
                tables_overflow(i);
            }
            goto out;
        }
        int redeals = t->redeals, became = tables_advance(self, i);
        thrown[i] = t->redeals != redeals || became == TABLE_CUT;
        if (became < 0) {
            goto out;
        }
        if (became != TABLE_ON) {
            done[i] = 1;
            cut[i] = became == TABLE_CUT;
            if (became == TABLE_OVER) {
                memcpy(scores + i * players, t->h.scores, sizeof(int64_t) * (size_t)players);
                stakes[i] = t->h.stake;
            }
            if (tables_fresh(self, i, &used) < 0) {
                goto out;
            }
            continue;
        }
        self->next_at[i] = used;
        if (tables_list(self, t, &used) < 0) {
            goto out;
        }
    }
    self->next_at[n] = used;
    result = tables_out(self, used, views[1].buf, views[2].buf, views[3].buf);
out:
    for (int k = 0; k < got; k++) {
        PyBuffer_Release(&views[k]);
    }
    return result;
}

static PyMethodDef Tables_methods[] = {
    {"reset", (PyCFunction)Tables_reset, METH_VARARGS, tables_reset_doc},
    {"step", (PyCFunction)Tables_step, METH_VARARGS, tables_step_doc},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject TablesType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ddz_rules._moves.Tables",
    .tp_doc = PyDoc_STR("Tables(runner, n, max_redeals, ...): n tables of self-play stepped "
                        "together\n(ddz_rules/env/vector.py builds one)."),
    .tp_basicsize = sizeof(Tables),
    .tp_itemsize = 0,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Tables_init,
    .tp_dealloc = (destructor)Tables_dealloc,
    .tp_methods = Tables_methods,
};
