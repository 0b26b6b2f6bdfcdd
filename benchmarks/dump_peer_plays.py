#!/usr/bin/env python3
"""Dump the play sets of three peer Dou Dizhu engines as test fixtures.

Usage::

    python benchmarks/dump_peer_plays.py OUTDIR [--openspiel-actions FILE]

Writes three gzip text files into OUTDIR, one play per line, sorted by
(number of cards, string).  A play is the multiset of its ranks written in our
canonical notation: ranks low->high ``3456789TJQKA2BR`` (T=10, B=black/small
joker, R=red/big joker), suits ignored.  Pass is never listed.

``rlcard-1.2.0-plays.txt.gz``
    The RLCard 1.2.0 Dou Dizhu action space (``jsondata/action_space.txt``
    shipped inside ``rlcard/games/doudizhu/jsondata.zip``), minus ``pass``.
    The script also checks that the judger, run on the whole 54-card deck,
    yields exactly the same set (27,471 plays).

``douzero-1.1.0-plays.txt.gz``
    Everything ``douzero.env.move_generator.MovesGener`` can yield for some
    hand of at most 20 cards.  Every generator only looks at which ranks are
    present and how often, so a play is generated from some hand iff it is
    generated from itself, iff it is generated from the full deck; hence the
    set is the full-deck output restricted to <= 20 cards (29,984 plays).
    Chain-with-kicker moves are generated per chain length (``repeat_num``)
    so that no chain longer than 20 cards is expanded.

``openspiel-2.0.2-plays.txt.gz``
    Lines ``CARDS<TAB>N``: each distinct card multiset among OpenSpiel's
    ``dou_dizhu`` play actions (decoded with ``State.action_to_string``) and
    the number N of action ids that map to it (25,661 sets; 383 have N > 1).
    With ``--openspiel-actions FILE`` the full table
    ``CARDS<TAB>ACTION_ID<TAB>TYPE<TAB>OPENSPIEL_STRING`` is written too
    (gzip if FILE ends in ``.gz``).

The peers are imported only inside the functions below, so this module can be
imported without them installed.
"""

from __future__ import annotations

import argparse
import collections
import gzip
import os
import sys
from collections.abc import Iterable

RANKS = "3456789TJQKA2BR"
_RANK_INDEX = {r: i for i, r in enumerate(RANKS)}
MAX_PLAY_CARDS = 20


def canonical(cards: Iterable[str]) -> str:
    """Sort rank characters low->high into our canonical play string."""
    return "".join(sorted(cards, key=_RANK_INDEX.__getitem__))


def sort_key(play: str) -> tuple[int, str]:
    """Fixture ordering: number of cards, then the string itself."""
    return (len(play), play)


# --------------------------------------------------------------------------
# RLCard
# --------------------------------------------------------------------------

def rlcard_plays() -> list[str]:
    """RLCard 1.2.0 Dou Dizhu action space without ``pass``.

    Cross-checked against ``DoudizhuJudger.playable_cards_from_hand`` applied
    to the full deck (every action must be producible, nothing else).
    """
    from rlcard.games.doudizhu import utils as rl_utils
    from rlcard.games.doudizhu.judger import DoudizhuJudger

    plays = {a for a in rl_utils.ID_2_ACTION if a != "pass"}
    for p in plays:
        if canonical(p) != p:
            raise AssertionError(f"RLCard action {p!r} is not canonical")
    deck = "".join(r * 4 for r in RANKS[:13]) + "BR"
    judged = {p for p in DoudizhuJudger.playable_cards_from_hand(deck)
              if len(p) <= MAX_PLAY_CARDS}
    if judged != plays:
        raise AssertionError(
            f"RLCard judger on full deck ({len(judged)}) != action space "
            f"({len(plays)})")
    return sorted(plays, key=sort_key)


# --------------------------------------------------------------------------
# DouZero
# --------------------------------------------------------------------------

#: DouZero's integer card codes -> our rank characters.
DOUZERO_TO_RANK = dict(zip([3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 20, 30],
                           RANKS, strict=False))


def douzero_plays() -> list[str]:
    """Every play DouZero 1.1.0's ``MovesGener`` yields, <= 20 cards."""
    from douzero.env.move_generator import MovesGener

    deck = [c for c in DOUZERO_TO_RANK if c < 20 for _ in range(4)] + [20, 30]
    mg = MovesGener(deck)
    moves: list[list[int]] = []
    moves += mg.gen_type_1_single() + mg.gen_type_2_pair()
    moves += mg.gen_type_3_triple() + mg.gen_type_4_bomb()
    moves += mg.gen_type_5_king_bomb()
    moves += mg.gen_type_6_3_1() + mg.gen_type_7_3_2()
    moves += mg.gen_type_8_serial_single() + mg.gen_type_9_serial_pair()
    moves += mg.gen_type_10_serial_triple()
    # 4 * chain_len cards: chains of 2..5 trios fit in 20 cards.
    for chain_len in range(2, 6):
        moves += mg.gen_type_11_serial_3_1(repeat_num=chain_len)
    # 5 * chain_len cards: chains of 2..4 trios fit in 20 cards.
    for chain_len in range(2, 5):
        moves += mg.gen_type_12_serial_3_2(repeat_num=chain_len)
    moves += mg.gen_type_13_4_2() + mg.gen_type_14_4_22()
    plays = {canonical(DOUZERO_TO_RANK[c] for c in m)
             for m in moves if len(m) <= MAX_PLAY_CARDS}
    return sorted(plays, key=sort_key)


# --------------------------------------------------------------------------
# OpenSpiel
# --------------------------------------------------------------------------

#: Play-action categories of OpenSpiel's dou_dizhu, in action-id order, with
#: their sizes (from open_spiel/games/dou_dizhu/dou_dizhu_utils.h).
OPENSPIEL_LAYOUT = [
    ("solo", 15), ("solo_chain", 36), ("pair", 13), ("pair_chain", 52),
    ("trio", 13), ("trio_solo", 182), ("trio_pair", 156),
    ("airplane", 45), ("airplane_solo", 22588), ("airplane_pair", 2939),
    ("bomb", 13), ("rocket", 1),
]


def openspiel_string_to_cards(text: str) -> str:
    """Convert an OpenSpiel play string (e.g. ``333444-5(CJ)``) to ours."""
    text = text.replace("(BWJ)", "B").replace("(CJ)", "R").replace("-", "")
    return canonical(text)


def openspiel_actions() -> list[tuple[int, str, str, str]]:
    """All OpenSpiel dou_dizhu play actions as (id, type, os_string, cards)."""
    import pyspiel

    game = pyspiel.load_game("dou_dizhu")
    state = game.new_initial_state()
    num = game.num_distinct_actions()
    names = [state.action_to_string(0, a) for a in range(num)]
    base = next(a for a, s in enumerate(names)
                if s != "Pass" and not s.startswith("Bid "))
    if base + sum(n for _, n in OPENSPIEL_LAYOUT) != num:
        raise AssertionError("unexpected OpenSpiel action layout")
    out = []
    a = base
    for kind, n in OPENSPIEL_LAYOUT:
        for _ in range(n):
            out.append((a, kind, names[a], openspiel_string_to_cards(names[a])))
            a += 1
    # Sanity checks on the layout boundaries.
    assert out[0][3] == "3" and out[-1][3] == "BR"
    assert next(o for o in out if o[1] == "bomb")[3] == "3333"
    return out


def openspiel_play_counts(actions: list[tuple[int, str, str, str]]
                          ) -> dict[str, int]:
    """Number of OpenSpiel action ids per distinct card multiset."""
    return dict(collections.Counter(cards for _, _, _, cards in actions))


# --------------------------------------------------------------------------
# Output
# --------------------------------------------------------------------------

def _write_lines(path: str, lines: Iterable[str]) -> None:
    """Write lines; gzip (reproducibly: no name, mtime 0) if path ends .gz."""
    data = "".join(line + "\n" for line in lines).encode("ascii")
    with open(path, "wb") as raw:
        if path.endswith(".gz"):
            with gzip.GzipFile(filename="", mode="wb", fileobj=raw,
                               mtime=0) as gz:
                gz.write(data)
        else:
            raw.write(data)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("outdir", help="directory for the three fixture files")
    parser.add_argument("--openspiel-actions", metavar="FILE",
                        help="also write the per-action OpenSpiel table")
    args = parser.parse_args(argv)
    os.makedirs(args.outdir, exist_ok=True)

    rl = rlcard_plays()
    _write_lines(os.path.join(args.outdir, "rlcard-1.2.0-plays.txt.gz"), rl)
    print(f"rlcard 1.2.0: {len(rl)} plays")

    dz = douzero_plays()
    _write_lines(os.path.join(args.outdir, "douzero-1.1.0-plays.txt.gz"), dz)
    print(f"douzero 1.1.0: {len(dz)} plays")

    actions = openspiel_actions()
    counts = openspiel_play_counts(actions)
    _write_lines(os.path.join(args.outdir, "openspiel-2.0.2-plays.txt.gz"),
                 (f"{c}\t{counts[c]}" for c in sorted(counts, key=sort_key)))
    multi = sum(1 for n in counts.values() if n > 1)
    print(f"openspiel 2.0.2: {len(actions)} play actions, {len(counts)} "
          f"distinct card sets, {multi} with more than one action")
    if args.openspiel_actions:
        rows = sorted(actions, key=lambda r: (sort_key(r[3]), r[0]))
        _write_lines(args.openspiel_actions,
                     (f"{c}\t{a}\t{k}\t{s}" for a, k, s, c in rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
