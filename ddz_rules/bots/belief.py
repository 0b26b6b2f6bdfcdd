"""What a seat believes about the cards it cannot see: worlds that explain how the others played.

Worlds drawn uniformly (:func:`~ddz_rules.bots.worlds.sample_deal`) agree with every card shown
but ignore what the auction and the play reveal: a landlord who bid 3 holds control cards, a
seat that passed holds no cheap answer. A :class:`Belief` is a particle filter over deals that
uses a model of the other players (``medium``):

* when the auction ends, it keeps the deals, among many drawn, in which the model would have
  said the most of the words the other seats said;
* then, action by action through the play, a particle in which the model would not have made
  the action another seat made is replaced by a copy of one in which it would, with one hidden
  card swapped between two hidden hands; the copy is kept only if it explains the story so far
  as well as its parent did;
* when no particle explains an action, the belief starts again from fresh deals, keeping
  those that best explain the whole story so far.

A belief is a function of the view alone: its randomness comes from a digest of the public
story, so the memo it keeps of each seat's last belief makes it faster, never different (the
same view gives the same worlds in any process, after any earlier hand).
"""

from __future__ import annotations

import dataclasses
import hashlib
import random
from dataclasses import dataclass

from ddz_rules import cards
from ddz_rules.bots.base import Bot
from ddz_rules.bots.worlds import Story, minus, played_by_seat, sample_deal, story_of
from ddz_rules.game import Action, Deal, Hand, View
from ddz_rules.ruleset import Ruleset
from ddz_rules.table import Play, PlayTable

#: Particles kept; deals drawn when the auction ends; tries to move a card in a copied particle.
PARTICLES = 16
DRAWS = 200
MOVES = 8

@dataclass(frozen=True)
class Particle:
    """One world: a deal, the hand it reaches through the story so far, and how many of the
    other seats' actions the model would not have taken in it."""

    deal: Deal
    hand: Hand
    misses: int


def view_at(view: View, plays: int) -> View:
    """``view`` with only its first ``plays`` plays: the cards as they stood then.

    Only the card facts :func:`~ddz_rules.bots.worlds.sample_deal` reads are wound back (the
    plays, the seat's hand, the hand sizes); trick state and legal actions are left as they are.
    """
    later = played_by_seat(view.plays[plays:], len(view.hand_sizes))
    sizes = tuple(n + cards.size(k) for n, k in zip(view.hand_sizes, later, strict=True))
    return dataclasses.replace(view, plays=view.plays[:plays], hand=view.hand + later[view.seat],
                               hand_sizes=sizes, legal=())


def story_seeds(seat: int, start: int, story: Story) -> list[int]:
    """A seed per step of the story, from a digest of everything public up to it.

    Stable across processes (no ``hash()``), so a belief never depends on where it runs.
    """
    digest = hashlib.blake2b(f"{seat}:{start}".encode(), digest_size=8)
    seeds = []
    for actor, action in story:
        text = action if isinstance(action, str) else str(action.key)
        digest.update(f"|{actor}:{text}".encode())
        seeds.append(int.from_bytes(digest.copy().digest(), "big"))
    return seeds


class Belief:
    """Particles over the hidden cards, filtered by a model of how the other seats act."""

    def __init__(self, ruleset: Ruleset, table: PlayTable, model: Bot,
                 particles: int = PARTICLES, draws: int = DRAWS, moves: int = MOVES) -> None:
        self.ruleset = ruleset
        self.table = table
        self.model = model
        self.particles = particles
        self.draws = draws
        self.moves = moves
        #: seat -> (its cards when the play began, the story so far, the particles)
        self._memo: dict[int, tuple[int, Story, list[Particle]]] = {}

    def worlds(self, view: View) -> list[Hand]:
        """Hands the seat of ``view`` cannot tell from the real one, as likely as it can judge.

        Each is a state reached by replaying the public story on a believed deal; search may
        play from them (cloning first) but must not change them.
        """
        story = story_of(view)
        start = view.hand + played_by_seat(view.plays, len(view.hand_sizes))[view.seat]
        seeds = story_seeds(view.seat, start, story)
        memo = self._memo.get(view.seat)
        if memo is not None and memo[0] == start and story[:len(memo[1])] == memo[1]:
            done, particles = len(memo[1]), memo[2]
        else:
            done = len(view.auction)
            particles = self._initial(view, story, done, random.Random(seeds[done - 1]))
        for step in range(done, len(story)):
            particles = self._step(view, story, step, particles, random.Random(seeds[step]))
        self._memo[view.seat] = (start, story, particles)
        return [p.hand for p in particles]

    # ------------------------------------------------------------ the filter

    def _initial(self, view: View, story: Story, upto: int,
                 rng: random.Random) -> list[Particle]:
        """The deals, of ``draws`` drawn from the cards as they stood after ``story[:upto]``,
        that best explain it."""
        words = len(story) - len(view.plays)  # the auction, and the landlord's call if any
        then = view_at(view, max(0, upto - words))
        kept: list[tuple[int, int, Particle]] = []
        cap = upto
        for i in range(self.draws):
            found = self._replay(view.seat, story, upto, sample_deal(then, self.ruleset, rng), cap)
            if found is None:
                continue
            kept.append((found.misses, i, found))
            kept.sort(key=lambda k: k[:2])
            del kept[self.particles:]
            if len(kept) == self.particles:
                cap = kept[-1][0]
        return [p for _, _, p in kept]

    def _step(self, view: View, story: Story, step: int, particles: list[Particle],
              rng: random.Random) -> list[Particle]:
        """The particles after one more public action."""
        actor, action = story[step]
        if actor == view.seat:
            return [Particle(p.deal, _after(p.hand, action), p.misses) for p in particles]
        explains = [self._explains(p.hand, actor, action) for p in particles]
        alive = [Particle(p.deal, _after(p.hand, action), p.misses)
                 for p, ok in zip(particles, explains, strict=True) if ok]
        if not alive:  # the belief has lost the thread: draw afresh, judged on the whole story
            return self._initial(view, story, step + 1, rng)
        survivors = iter(alive)
        return [next(survivors) if ok else self._copy(view, story, step, rng.choice(alive), rng)
                for ok in explains]

    def _explains(self, hand: Hand, actor: int, action: Action) -> bool:
        """Whether ``actor`` could do what was done in this world, and the model would."""
        return _holds(hand, actor, action) and self._agrees(hand, actor, action)

    def _agrees(self, hand: Hand, actor: int, action: Action) -> bool:
        """Whether the model, holding ``actor``'s cards in this world, does what was done."""
        return self.model.choose(hand.view(actor), random.Random(0)) == action

    def _copy(self, view: View, story: Story, step: int, parent: Particle,
              rng: random.Random) -> Particle:
        """A survivor with one hidden card moved, if such a copy explains the story as well."""
        for _ in range(self.moves):
            deal = _moved(parent.deal, parent.hand, view, rng)
            if deal is None:
                continue
            found = self._replay(view.seat, story, step + 1, deal, parent.misses)
            if found is not None:
                return found
        return Particle(parent.deal, parent.hand.clone(), parent.misses)

    def _replay(self, seat: int, story: Story, upto: int, deal: Deal,
                cap: int) -> Particle | None:
        """``deal`` replayed through ``story[:upto]``, or None past ``cap`` misses."""
        hand = Hand(self.ruleset, deal, self.table)
        misses = 0
        for actor, action in story[:upto]:
            if actor != seat:
                if not _holds(hand, actor, action):
                    return None
                if not self._agrees(hand, actor, action):
                    misses += 1
                    if misses > cap:
                        return None
            hand.apply(action)
        return Particle(deal, hand, misses)


def _holds(hand: Hand, actor: int, action: Action) -> bool:
    """Whether ``actor`` has the cards of ``action`` in this world (words and passes need none)."""
    return not isinstance(action, Play) or cards.contains(hand.hands[actor], action.key)


def _after(hand: Hand, action: Action) -> Hand:
    out = hand.clone()
    out.apply(action)
    return out


def _moved(deal: Deal, hand: Hand, view: View, rng: random.Random) -> Deal | None:
    """``deal`` with one card not yet played swapped between two hidden holders (the other
    seats and the undealt cards); None when the draw found nothing to swap."""
    played = played_by_seat(hand.public_plays, len(deal.hands))
    holders: list[tuple[int, int]] = []  # (seat, or -1 for the undealt cards; movable cards)
    for seat, dealt in enumerate(deal.hands):
        if seat == view.seat:
            continue
        movable = minus(dealt, played[seat])
        if view.marked_card is not None and view.marked_card[0] == seat:
            movable = minus(movable, 1 << (cards.FIELD_BITS * view.marked_card[1]))
        holders.append((seat, movable))
    holders.append((-1, deal.undealt))
    holders = [h for h in holders if h[1]]
    if len(holders) < 2:
        return None
    (a, from_a), (b, from_b) = rng.sample(holders, 2)
    x, y = rng.choice(cards.ranks_of(from_a)), rng.choice(cards.ranks_of(from_b))
    if x == y:
        return None
    one_x, one_y = 1 << (cards.FIELD_BITS * x), 1 << (cards.FIELD_BITS * y)
    hands, undealt = list(deal.hands), deal.undealt
    for holder, give, take in ((a, one_x, one_y), (b, one_y, one_x)):
        if holder < 0:
            undealt += take - give
        else:
            hands[holder] += take - give
    return dataclasses.replace(deal, hands=tuple(hands), undealt=undealt)

