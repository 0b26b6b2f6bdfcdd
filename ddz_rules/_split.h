/* How many plays a hand needs (ddz_rules/split.py's moves_of, the reference), over 128-bit
 * packed card sets: shared by _split.c (the bots' planning measure) and _moves.c (the
 * solver's order of moves). It knows no rule of any ruleset, only the card layout of
 * ddz_rules/cards.py. A module that includes it calls split_fill_longest() once, when it is
 * loaded. */
#ifndef DDZ_SPLIT_H
#define DDZ_SPLIT_H

#include "_packed.h"

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
split_fill_longest(void)
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
split_rest(unsigned one, unsigned two, unsigned three, long jokers, long wings)
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

/* split.py's moves_of, step for step (split_fill_longest must have run). */
static long
split_plays(u128 key)
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
    long without = split_rest(one, two, three, jokers, wings);
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
    long with = straights + split_rest(one, two, three, jokers, wings);
    return n + (with < without ? with : without);
}


#endif
