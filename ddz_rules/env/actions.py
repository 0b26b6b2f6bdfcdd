"""One discrete action space per ruleset: every action of a hand as an integer id.

The ids, in order: the auction words the ruleset's family says, then ``pass`` (one id for a
pass in the auction and a pass in the play), then the landlord's partner calls, then every
play of the ruleset's play table with each of its readings, in table order, then the bodies
only wild cards can make (soft bombs, four wilds). Ids depend on the ruleset alone, so an
agent's output layer is fixed for it, and :meth:`ActionSpace.action` and
:meth:`ActionSpace.id_of` turn an id into the referee's action and back.

A play is named by the cards it is played *as*. Without wild cards that is the play itself, so
every legal action has its own id. With wild cards (``laizi``) a play of real cards ``3335``
(5 wild) read as a soft bomb of 3s is played as ``3333``: it takes the id of ``3333`` read as
a soft bomb, and the same card set read as a trio of 3s with a single takes the id of
``3335`` read so. Where a hand can make one played-as play in several ways (a wild or a
natural card for the same position), the id stands for the way with the fewest wild cards,
the wild cards kept for later (:meth:`ActionSpace.legal`); the reading, what the play is, is
always the agent's choice.

>>> from ddz_rules.ruleset import load
>>> space = ActionSpace(load("classic"))
>>> space.words, len(space)
(('1', '2', '3', 'pass'), 24643)
>>> play = space.action(space.id_of("pass") + 1)
>>> play.cards, play.reading.short()
('3', 'single/1/3')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache, cached_property

from ddz_rules import cards
from ddz_rules.auction import new_auction
from ddz_rules.env.render import play_text
from ddz_rules.errors import EnvError
from ddz_rules.game import ALONE, CALL, PASS, Action
from ddz_rules.ruleset import CombinationType, Ruleset
from ddz_rules.table import Play, PlayTable, Reading, compile_table
from ddz_rules.wilds import kicker_counts, kicker_stand_ins, wild_count
from ddz_rules.words import word_words

#: Plays with wild cards whose ids an action space keeps (it forgets them all when full).
WILD_IDS_KEPT = 1 << 18


@dataclass(frozen=True)
class ActionSpace:
    """The actions of one ruleset as ids ``0 .. len(space) - 1``."""

    ruleset: Ruleset

    @staticmethod
    def of(ruleset: Ruleset) -> ActionSpace:
        """The ruleset's action space, built once per process (it lists every play of the
        table, about a second for the largest)."""
        return _space_of(ruleset)

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled as its ruleset: the space is built once per process and ruleset."""
        return (_space_of, (self.ruleset,))

    @cached_property
    def table(self) -> PlayTable:
        return compile_table(self.ruleset)

    @cached_property
    def words(self) -> tuple[str, ...]:
        """The auction family's words, then ``pass`` (alone where nobody bids), in id order:
        one id for a pass in the auction and in the play."""
        said = new_auction(self.ruleset, 0).words()
        return (*(word for word in said if word != PASS), PASS)

    @cached_property
    def calls(self) -> tuple[str, ...]:
        """The landlord's partner calls (``teams.partner: called_rank``), else none."""
        if self.ruleset.partner_rule != "called_rank":
            return ()
        return (ALONE, *(CALL + cards.RANKS[r] for r in self.ruleset.deck_ranks))

    @cached_property
    def plays(self) -> tuple[Play, ...]:
        """Every play an id names: the table's plays with each reading, then the bodies that
        only wild cards make, each as the cards it is played as."""
        table = self.table
        found = [Play(key, reading) for key in table for reading in table.readings(key)]
        return (*found, *_wild_bodies(self.ruleset))

    @cached_property
    def _ids(self) -> dict[Action, int]:
        names: list[Action] = [*self.words, *self.calls, *self.plays]
        return {name: i for i, name in enumerate(names)}

    @cached_property
    def _by_key(self) -> dict[int, tuple[tuple[Reading, int], ...]]:
        """Each played-as card set's readings with their ids: a legal play's id found by its
        cards, and by comparing readings only where the cards read several ways."""
        found: dict[int, list[tuple[Reading, int]]] = {}
        start = self.first_play
        for i, play in enumerate(self.plays):
            found.setdefault(play.key, []).append((play.reading, start + i))
        return {key: tuple(pairs) for key, pairs in found.items()}

    @cached_property
    def _names(self) -> tuple[Action, ...]:
        return (*self.words, *self.calls, *self.plays)

    @property
    def first_play(self) -> int:
        """The id of the first play (every id below it is a word or a call)."""
        return len(self.words) + len(self.calls)

    def __len__(self) -> int:
        return len(self._names)

    def action(self, action_id: int) -> Action:
        """The word, call or played-as play an id names."""
        if not 0 <= action_id < len(self._names):
            raise EnvError(f"action id {action_id} is out of range: "
                           f"{self.ruleset.id} has ids 0 to {len(self._names) - 1}")
        return self._names[action_id]

    def text(self, action_id: int) -> str:
        """An id as a person reads it: a bid's number as ``bid 2``, any other word or call as
        said (``pass``, ``rob``, ``call A``), a play as its cards with its reading.

        >>> from ddz_rules.ruleset import load
        >>> space = ActionSpace.of(load("classic"))
        >>> space.text(0), space.text(space.id_of("pass")), space.text(space.first_play)
        ('bid 1', 'pass', '3 (single/1/3)')
        """
        action = self.action(action_id)
        if isinstance(action, str):
            return word_words(action)
        return play_text(action)

    def id_of(self, action: Action, wild: Sequence[int] = ()) -> int:
        """The id of a referee action (a word, a call, or a play with its reading; wild cards
        are named by what they are played as, so ``wild`` gives the hand's wild ranks)."""
        if isinstance(action, str):
            found = self._ids.get(action)
        else:
            found = self._ids.get(self.played_as(action, wild))
        if found is None:
            shown = action if isinstance(action, str) else self.table.notation(action, tuple(wild))
            raise EnvError(f"{shown!r} is no action of {self.ruleset.id}'s action space")
        return found

    def played_as(self, play: Play, wild: Sequence[int]) -> Play:
        """The play as the cards it stands for: itself where it holds no wild card; else its
        body as its reading says (``width`` cards on each rank of the chain, or the cards
        themselves for a fixed set) and its kickers as :func:`~ddz_rules.wilds.kicker_stand_ins`
        plays their wild cards.

        >>> from ddz_rules.ruleset import load
        >>> laizi = ActionSpace.of(load("laizi"))
        >>> five = (cards.RANK_INDEX["5"],)
        >>> [laizi.played_as(p, five).cards for p in laizi.table.leads(
        ...     cards.pack_ranks(cards.parse("33345")), five) if p.reading.type == "trio_pair"]
        ['33344']
        """
        counts = cards.unpack(play.key)
        if not wild or not wild_count(counts, wild):
            return play
        reading = play.reading
        ctype = self.ruleset.combination(reading.type)
        chain = tuple(range(reading.rank_index - reading.length + 1, reading.rank_index + 1))
        if ctype.fixed_set:
            body = play.key - reading.kicker_key
        else:
            body = sum(ctype.width << (cards.FIELD_BITS * r) for r in chain)
        kickers = reading.kicker_key
        if kickers and wild_count(cards.unpack(kickers), wild):
            kickers = self._kickers_played_as(play, ctype, chain, tuple(wild))
        if kickers == reading.kicker_key:
            return Play(body + kickers, reading)
        return Play(body + kickers, replace(reading, kicker_key=kickers))

    def _kickers_played_as(self, play: Play, ctype: CombinationType, chain: tuple[int, ...],
                           wild: tuple[int, ...]) -> int:
        """The kickers of ``play``, holding wild cards, as the cards they are played as (kept:
        many plays of a hand carry the same kickers beside other bodies)."""
        known = self._kickers_known
        key = (ctype.name, chain, play.reading.kicker_key, wild)
        found = known.get(key)
        if found is None:
            kicked = cards.unpack(play.reading.kicker_key)
            taken = kicker_stand_ins(ctype, chain, kicked, wild, self.ruleset.wild_in_kickers,
                                     self._stands_for,
                                     _kicker_counts(ctype, chain, self.ruleset.copies))
            if taken is None:
                raise EnvError(f"{self.table.notation(play, wild)}: its kickers are no "
                               "kickers of its reading")
            found = cards.pack([(0 if r in wild else kicked[r]) + taken[r]
                                for r in range(cards.NUM_RANKS)])
            if len(known) >= WILD_IDS_KEPT:
                known.clear()
            known[key] = found
        return found

    @cached_property
    def _kickers_known(self) -> dict[tuple[str, tuple[int, ...], int, tuple[int, ...]], int]:
        return {}

    @cached_property
    def _stands_for(self) -> frozenset[int]:
        return frozenset(self.ruleset.stands_for)

    def legal(self, legal: Sequence[Action], wild: Sequence[int] = ()) -> dict[int, Action]:
        """The ids of ``legal`` (a hand's legal actions), each with the action it plays.

        Where several legal plays share an id (wild cards), the one with the fewest wild
        cards is kept, and among those the first the referee lists.
        """
        out: dict[int, Action] = {}
        if not wild:
            words, by_key = self._ids, self._by_key
            for action in legal:
                if isinstance(action, str):
                    out[words[action]] = action
                    continue
                pairs = by_key[action.key]
                if len(pairs) == 1:
                    out[pairs[0][1]] = action
                else:
                    out[next(i for r, i in pairs if r == action.reading)] = action
            return out
        fewest: dict[int, int] = {}
        known = self._wild_ids
        wild = tuple(wild)
        for action in legal:
            found = known.get((action, wild))
            if found is None:
                used = (0 if isinstance(action, str)
                        else wild_count(cards.unpack(action.key), wild))
                found = (self.id_of(action, wild), used)
                if len(known) >= WILD_IDS_KEPT:
                    known.clear()
                known[(action, wild)] = found
            i, used = found
            if i not in out or used < fewest[i]:
                out[i], fewest[i] = action, used
        return out

    @cached_property
    def _wild_ids(self) -> dict[tuple[Action, tuple[int, ...]], tuple[int, int]]:
        """Plays with wild cards met lately, with their ids and wild cards used: naming one
        asks what each wild card stands for, which costs far more than a look-up."""
        return {}


@cache
def _kicker_counts(ctype: CombinationType, chain: tuple[int, ...],
                   copies: tuple[int, ...]) -> tuple[frozenset[int], ...]:
    return kicker_counts(ctype, chain, copies)


@cache
def _space_of(ruleset: Ruleset) -> ActionSpace:
    return ActionSpace(ruleset)


def _wild_bodies(ruleset: Ruleset) -> list[Play]:
    """The played-as plays of the types only wild cards make (``wilds: some`` or ``all``):
    their bodies, which carry no kickers (an environment for one that does is refused)."""
    found = []
    for ctype in ruleset.combinations:
        if not ctype.needs_wilds:
            continue
        if ctype.kicker_unit:
            raise EnvError(f"{ruleset.id}: combinations.{ctype.name} needs wild cards and "
                           "carries kickers; the environment's action space names such plays "
                           "only without kickers")
        longest = ctype.max_length or ruleset.max_hand // ctype.width
        for length in range(ctype.min_length, longest + 1):
            for top in range(ctype.low + length - 1, ctype.high + 1):
                chain = range(top - length + 1, top + 1)
                key = cards.pack([ctype.width if r in chain else 0
                                  for r in range(cards.NUM_RANKS)])
                found.append(Play(key, Reading(ctype.name, ctype.reading_length(length), top, 0,
                                               ctype.level, ctype.answers)))
    return found
