"""Search: believe worlds consistent with the view, play the best candidates out with ``medium``.

For each play decision with a real choice, ``extreme`` takes ``medium``'s best-ranked actions
(:data:`CANDIDATES` of them, :meth:`MediumBot.rank`) and plays each out, with ``medium`` in
every seat, in the :data:`WORLDS` worlds its belief holds likeliest
(:mod:`ddz_rules.bots.belief`: deals that explain the auction and the play so far). A playout
stops once the hands hold :data:`CUT_CARDS` cards in all, and the rest is solved exactly with
every hand open (:mod:`ddz_rules.solver`): the side that wins with perfect play from there
wins, for the stake the line itself ends at. A rival is played in a world only while it
keeps ahead of ``medium``'s first choice: after ``first_worlds`` worlds, one not ahead is
dropped. ``extreme`` keeps the first choice unless another scores better for its own seat by
more than :data:`MARGIN` standard errors of the paired difference.

Endgames are solved: once the hands hold at most :data:`ENDGAME_CARDS` cards in all, each
believed world is solved exactly, every legal action of the seat with it, and ``extreme``
takes the action that wins in the most worlds (``medium``'s ranking breaks ties); where no
action wins in any world, or a world cannot be solved within its budget, the playouts decide.

Told how its opponents play (``opponents``, a bot), ``extreme`` filters and plays out their
seats with that bot instead of ``medium``; its own seat and a partner stay ``medium``'s. That
is a measure of what a model of the opponents is worth (``benchmarks/bench_vs_rlcard.py
--model``), for a bot that knows whom it meets; by default it assumes nothing.

Budgets count positions searched, not seconds, so a decision is the same on any machine,
loaded or not; one search table serves every world and candidate of a decision.

Going out is never searched (nothing beats it). Letting a teammate's play stand is searched
against the best plays over it: a peasant who overtakes a partner to take the lead, or to
keep the landlord from it, is where search gains most for the peasants. Bidding follows
``medium``.

Against RLCard's rule agent (``benchmarks/bench_vs_rlcard.py``), solving the playouts' last
cards and searching four candidates in ten worlds is what moved ``extreme`` from 78% to about
82% of the games; with every card seen (the true deal as the only world) the same search wins
about 86%, so what is left is mostly what the belief cannot know. Cost: see
``benchmarks/bench_extreme.py``; most of it is ``medium`` decisions in the belief's filter
and the playouts, and the belief's memos make a line that reaches a position met before free.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from ddz_rules import cards
from ddz_rules.bots.base import Bot
from ddz_rules.bots.belief import Belief, Particle
from ddz_rules.bots.medium import MediumBot
from ddz_rules.errors import OutOfBudget
from ddz_rules.game import PASS, Action, Hand, Phase, View
from ddz_rules.ruleset import Ruleset
from ddz_rules.solver import Position, Search, Step, after, of_hand, search_for

#: ``medium``'s best-ranked actions searched; worlds (the belief's likeliest) played in.
CANDIDATES = 4
WORLDS = 10
#: The belief's particles, and the deals it draws when the play begins.
PARTICLES = 16
DRAWS = 64
#: Worlds every candidate is played in before one that has not gained on ``medium``'s first
#: choice is dropped.
FIRST_WORLDS = 2
#: Standard errors by which a candidate must beat ``medium``'s first choice to replace it.
MARGIN = 0.5
#: Cards left in all hands at or under which each world is solved exactly, and the budget
#: of each world's search in positions (past it, the playouts decide).
ENDGAME_CARDS = 20
ENDGAME_POSITIONS = 100_000
#: The size of a decision's search table (its endgame and its playouts' tails share it).
SEARCH_MEMORY_MB = 8
#: Cards left in all hands at which a playout stops and the rest is solved, and the budget
#: of that solve in positions (past it, the playout goes on to the end).
CUT_CARDS = 20
CUT_POSITIONS = 10_000


class ExtremeBot(Bot):
    """Playouts over ``medium`` in the worlds of a belief filtered by ``medium``'s play."""

    level = "extreme"
    hands_per_batch = 1  # a tenth of a second a hand: progress comes hand by hand

    def __init__(self, ruleset: Ruleset, candidates: int | None = None,
                 worlds: int | None = None, first_worlds: int | None = None,
                 endgame_cards: int | None = None, cut_cards: int | None = None,
                 opponents: Bot | None = None, **belief: int) -> None:
        """Each size left out is the module's constant of its name, read now (so a change to
        the constant reaches every bot made after it); ``belief`` sets :class:`Belief`'s
        sizes (``particles``, by default :data:`PARTICLES`; ``draws``, by default
        :data:`DRAWS`; ``moves``, ``rescues``). ``opponents``, where given, is how the bot
        is told its opponents play: its belief filters, and its playouts play, their seats
        with it (else with ``medium``, as every other seat)."""
        super().__init__(ruleset)
        self.medium = MediumBot(ruleset)
        self.candidates = CANDIDATES if candidates is None else candidates
        self.worlds = WORLDS if worlds is None else worlds
        self.first_worlds = FIRST_WORLDS if first_worlds is None else first_worlds
        #: Cards left at or under which worlds are solved (default :data:`ENDGAME_CARDS`).
        self.endgame_cards = ENDGAME_CARDS if endgame_cards is None else endgame_cards
        #: Cards left at which a playout's rest is solved (default :data:`CUT_CARDS`; 0: never).
        self.cut_cards = CUT_CARDS if cut_cards is None else cut_cards
        self.belief = Belief(ruleset, self.table, self.medium, opponents=opponents,
                             **{"particles": PARTICLES, "draws": DRAWS, **belief})
        #: The search of the decision being made (:meth:`_searcher`).
        self._solving: Search | None = None
        #: seat -> (the last view it decided, its decision): asked again, the same answer.
        self._last: dict[int, tuple[View, Action]] = {}

    def choose(self, view: View, rng: random.Random) -> Action:
        if view.phase in (Phase.AUCTION, Phase.CALL):
            return self.medium.choose(view, rng)
        last = self._last.get(view.seat)
        if last is not None and last[0] == view:
            return last[1]
        action = self._decide(view)
        self._last[view.seat] = (view, action)
        return action

    def _decide(self, view: View) -> Action:
        self._solving = None
        ranked = self.medium.rank(view)
        if not ranked:
            return PASS
        options = ranked[:self.candidates]
        if len(ranked) < 2 or self._settled_by_rule(view, ranked[0]):
            return ranked[0]
        worlds = self.belief.believe(view)[:self.worlds]
        if sum(view.hand_sizes) <= self.endgame_cards:
            every = [*ranked, *(a for a in view.legal if a not in ranked)]
            solved = self._endgame(view, every, worlds)
            if solved is not None:
                return solved
        if len(options) < 2:
            return ranked[0]
        return options[self._search(view.seat, options, worlds)]

    def _endgame(self, view: View, ranked: Sequence[Action],
                 worlds: list[Particle]) -> Action | None:
        """The action that wins in the most worlds, each solved exactly (``medium``'s
        ranking first among equals); None where none wins anywhere, or a world is past its
        budget (where it cannot be solved: wild cards, a partner not known yet)."""
        wins = [0] * len(ranked)
        for world in worlds:
            position = of_hand(world.hand)
            if position is None or position.wild:  # wild readings: too slow for a bot
                return None
            search = self._searcher(position, ENDGAME_POSITIONS)
            side = position.team[position.to_act]
            try:
                for i, action in enumerate(ranked):
                    step = Step(view.seat, None if isinstance(action, str) else action)
                    nxt = after(position, step)
                    won = nxt == side if isinstance(nxt, int) else search.wins(nxt, side)
                    wins[i] += won
            except OutOfBudget:
                return None
        best = max(wins)
        return ranked[wins.index(best)] if best else None

    def _search(self, seat: int, options: Sequence[Action], worlds: list[Particle]) -> int:
        """The option to take, racing the others against option 0 world by world."""
        base: list[float] = []
        rows: list[list[float]] = [[] for _ in options[1:]]
        racing = set(range(len(rows)))
        for j, world in enumerate(worlds):
            solved: dict[Position, bool | None] = {}
            base.append(self._value(world.hand, None, seat, solved))
            for i in sorted(racing):
                rows[i].append(self._value(world.hand, options[i + 1], seat, solved))
            if j + 1 >= self.first_worlds:  # an option not ahead of option 0 is dropped
                racing = {i for i in racing if sum(rows[i]) > sum(base[:len(rows[i])])}
            if not racing:
                break
        return overruling([base, *rows], MARGIN)

    def _value(self, hand: Hand, first: Action | None, seat: int,
               solved: dict[Position, bool | None]) -> float:
        """``seat``'s score at the end of ``medium``'s line from ``hand`` (after ``first``),
        where the line's last :attr:`cut_cards` cards are played exactly: once the line
        holds that few, the side the solver finds winning from there wins, for the stake the
        line itself ends at (the bombs it plays later count: the stake at the cut alone made
        the peasants play worse against ``medium``). ``solved`` memoises the world's solves:
        candidates' lines often meet. Without a landlord (each seat alone: no side to solve
        for), or past the solver's budget, the line's own end counts."""
        model = self.belief.model
        if not self.cut_cards or not self.ruleset.has_landlord:
            return float(model.playout(hand, first)[1][seat])
        end = model.reach(hand, first, self.cut_cards)
        score = float(model.playout(end)[1][seat])  # the line's own end, and its stake
        position = of_hand(end)  # None where the line ended before the cut
        if position is None or position.wild:
            return score
        if position not in solved:
            try:
                solved[position] = self._searcher(position, CUT_POSITIONS).wins(position, 0)
            except OutOfBudget:
                solved[position] = None
        landlord_wins = solved[position]
        if landlord_wins is None:
            return score
        return abs(score) if landlord_wins == (position.team[seat] == 0) else -abs(score)

    def _searcher(self, position: Position, positions: int) -> Search:
        """The decision's search (made at its first solve: one table serves every world and
        candidate, the sides being the same in all), allowed ``positions`` more."""
        if self._solving is None:
            self._solving = search_for(position, SEARCH_MEMORY_MB)
        self._solving.last_position = self._solving.positions + positions
        return self._solving

    @staticmethod
    def _settled_by_rule(view: View, best: Action) -> bool:
        """Whether ``medium``'s best action goes out: nothing can do better."""
        return not isinstance(best, str) and (
            view.hand_sizes[view.seat] - cards.size(best.key) <= view.goal(view.seat))


def overruling(values: Sequence[Sequence[float]], margin: float) -> int:
    """The option to take: 0 (the default), unless another's mean paired gain over option 0,
    across the worlds it was played in (the first ``len(values[i])`` of option 0's), is the
    largest and exceeds ``margin`` standard errors.

    >>> overruling([[0, 0, 0], [2, 2, 2]], 1.0)
    1
    >>> overruling([[0, 0, 0, 0], [8, -6, 0, 0]], 1.0)
    0
    >>> overruling([[0, 0, 0, 0], [1, 1], [3, 1, 2, 2]], 1.0)
    2
    """
    best, best_gain = 0, 0.0
    for i, row in enumerate(values[1:], start=1):
        gains = [a - b for a, b in zip(row, values[0], strict=False)]
        k = len(gains)
        if not k:
            continue
        mean = sum(gains) / k
        spread = math.sqrt(sum((g - mean) ** 2 for g in gains) / (k - 1)) if k > 1 else 0.0
        if mean > best_gain and mean > margin * spread / math.sqrt(k):
            best, best_gain = i, mean
    return best
