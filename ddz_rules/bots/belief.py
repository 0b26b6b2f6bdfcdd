"""What a seat believes about the cards it cannot see: worlds that explain how the others played.

Worlds drawn uniformly (:func:`~ddz_rules.bots.worlds.sample_deal`) agree with every card shown
but ignore what the auction and the play reveal: a landlord who bid 3 holds control cards, a
seat that passed holds no cheap answer. A :class:`Belief` is a particle filter over deals that
uses a model of the other players (``medium``):

* when the play begins, it draws ``draws`` deals from the cards as they stood then and keeps
  the ``particles`` in which the model would have said the most of the auction words the other
  seats said;
* then, action by action, a particle in which the model, holding the actor's cards there,
  takes the action another seat took is kept. One in which it would not is replaced by a copy
  of one in which it would, with one hidden card swapped between two hidden holders if the
  swap keeps the action the model's and the auction as well explained (``moves`` tries, else
  an exact copy);
* when no particle explains the action, it looks for some that do (``rescues`` tries, round
  the particles): the actor is given the cards it played if it lacks them, then swaps a card
  (one of what the model would have played instead, where it can) with another hidden holder;
  a particle found is kept if the model then takes the action and misses no more of the
  auction. Copies of those replace the rest. If none is found, every particle counts a miss
  (one lacking the cards is mended to hold them); if none can even be mended, the belief
  starts again from fresh deals drawn from the cards as they stood, judged on the auction.

A move is made in a particle's deal and in the state it has reached together: only cards not
yet played move, so the public story replays on the new deal to the new state, and no replay
is needed. Unlike a full filter, a copy or a rescued particle is judged on the action at hand
and the auction, not on every earlier play again (that re-judging made the belief cost about
twenty times as much); the misses each particle counts say how well it explains the rest, and
search takes the particles with fewest misses first.

The model is asked through memos kept for one seat and one hand (:class:`Model`): what it does
in a position, and where its playout from a whole state ends. Search
(:mod:`ddz_rules.bots.extreme`) plays out from the same particles, so the playout of
``medium``'s first choice at one decision is usually, once the others have acted as the model
expects, the line the next decision needs: it costs nothing again.

A belief is a function of the view alone: its randomness comes from a digest of the public
story, and the memos only remember the model's answers, so the memo of each seat's last belief
makes it faster, never different (the same view gives the same worlds in any process, after
any earlier hand). Costs, for the defaults, in ``medium`` decisions (about as dear as one move
of a playout): ``draws`` auction replays when the play begins; then, per action of another
seat, one decision per particle (fewer when the position was met before), a few per copy, and
up to ``rescues`` when no particle explains it; in all about as much as the search it feeds
(on ``classic``, with every seat ``extreme``, about half of its time).
"""

from __future__ import annotations

import dataclasses
import hashlib
import random
from dataclasses import dataclass

from ddz_rules import cards
from ddz_rules.bots.base import Bot
from ddz_rules.bots.worlds import Story, minus, played_by_seat, sample_deal, story_of
from ddz_rules.errors import IllegalActionError
from ddz_rules.game import Action, Deal, Hand, Phase, View
from ddz_rules.ruleset import Ruleset
from ddz_rules.table import Play, PlayTable

#: Particles kept; deals drawn when the play begins; tries to move a card in a copied particle;
#: tries to find particles that explain an action none explains.
PARTICLES = 8
DRAWS = 32
MOVES = 1
RESCUES = 8

#: The model's play is deterministic; the generator it is handed is this one's, never a caller's.
_MODEL_SEED = 0


@dataclass
class Particle:
    """One world: the hand a deal reaches through the story so far, and how many of the other
    seats' actions the model would not have taken in it."""

    hand: Hand
    misses: int
    #: Of the misses, those in the auction (and the landlord's call).
    said: int = 0

    @property
    def deal(self) -> Deal:
        return self.hand.deal


class Model:
    """The model of the players (``medium``), asked through memos of one seat's hand.

    The seats in :attr:`against` (the believing seat's opponents) may be modelled by another
    bot, ``opponents``: a bot told how its opponents play filters and plays out its worlds with
    that. Auction words are judged by ``model`` alone.

    ``medium``'s play is a function of what a seat sees in a position: its cards, the trick,
    the hand sizes, how many plays each seat has made (and each side, for a spring), the
    multipliers so far, the sides and the bid, not the order of the plays that led there
    (``tests/test_belief.py`` checks it in playouts). So the memos only save time:

    * ``words``: an auction word of the story followed, for the cards the speaker held;
    * ``choices``: a position, what the model does in it;
    * ``endings``: a whole state (every hand, the trick, the plays and events so far), the
      line the model plays from it to the end, and the scores it ends in. A playout that
      reaches a state an earlier one passed through (another candidate's, or the line
      search followed at the seat's last decision) is finished at once.

    A seat with a single legal answer (a pass, when nothing beats) is not asked.
    """

    def __init__(self, model: Bot, opponents: Bot | None = None) -> None:
        self.model = model
        #: The model of the seats in :attr:`against` (None: ``model`` plays them too).
        self.opponents = opponents
        #: The seats ``opponents`` plays (each belief sets them: its seat's opponents).
        self.against: frozenset[int] = frozenset()
        self.words: dict[tuple[int, int], Action] = {}
        #: step -> a view of the auction word said there (any deal's: only the hand differs)
        self.templates: dict[int, View] = {}
        self.choices: dict[tuple[object, ...], Action] = {}
        self.endings: dict[tuple[object, ...], tuple[tuple[Action, ...], int,
                                                     tuple[int, ...]]] = {}
        #: (a whole state, cards left) -> where the model's line from it first holds that few.
        self.reached: dict[tuple[object, ...], Hand] = {}

    def forget(self) -> None:
        self.against = frozenset()
        self.words.clear()
        self.templates.clear()
        self.choices.clear()
        self.endings.clear()
        self.reached.clear()

    def act(self, hand: Hand) -> Action:
        """What the model does for the seat to act in ``hand``."""
        seat = hand.to_act
        assert seat is not None
        if hand.phase is not Phase.PLAY:
            return self.model.choose(hand.view(seat), random.Random(_MODEL_SEED))
        bot = self.model
        if self.opponents is not None and seat in self.against:
            bot = self.opponents
        key = (seat, bot is self.model, hand.hands[seat], hand.to_beat, hand.to_beat_seat,
               tuple(cards.size(h) for h in hand.hands), tuple(hand.plays_by_seat),
               tuple(hand.events), hand.landlord, hand.partner, hand.called, hand.bid,
               hand.robs, hand.wild, hand.side_plays)
        found = self.choices.get(key)
        if found is None:
            view = hand.view(seat)
            if len(view.legal) == 1:  # nothing beats: any player passes
                found = view.legal[0]
            else:
                found = bot.choose(view, random.Random(_MODEL_SEED))
            self.choices[key] = found
        return found

    def says(self, hand: Hand, step: int) -> Action:
        """What the model says for the seat to act at word ``step`` of the auction (or the
        landlord's call) of the story being followed: a function of the seat's cards there."""
        seat = hand.to_act
        assert seat is not None
        key = (step, hand.hands[seat])
        found = self.words.get(key)
        if found is None:
            view = hand.view(seat)
            self.templates.setdefault(step, view)
            found = self.words[key] = self.model.choose(view, random.Random(_MODEL_SEED))
        return found

    def would_say(self, step: int, seat: int, dealt: int) -> Action | None:
        """:meth:`says` for ``seat`` dealt ``dealt``, at an auction word (not the landlord's
        call) already judged for some deal; None if none was."""
        key = (step, dealt)
        found = self.words.get(key)
        if found is None:
            template = self.templates.get(step)
            if template is None or template.phase is not Phase.AUCTION or template.seat != seat:
                return None
            found = self.words[key] = self.model.choose(dataclasses.replace(template, hand=dealt),
                                                        random.Random(_MODEL_SEED))
        return found

    def expected(self, hand: Hand) -> Action:
        """The model's next action in ``hand``: from a line through this state, else asked."""
        known = self.endings.get(_state(hand))
        return known[0][known[1]] if known is not None else self.act(hand)

    def playout(self, hand: Hand, first: Action | None = None) -> tuple[tuple[Action, ...],
                                                                        tuple[int, ...]]:
        """The model's line from ``hand`` (after ``first``, if given), played to the end in
        every seat on a copy: its actions, ``first`` included, and the scores it ends in."""
        out = hand.clone()
        actions: list[Action] = []
        states: list[tuple[object, ...]] = []
        if first is not None:
            actions.append(first)
            out.apply(first)
        scores: tuple[int, ...] | None = None
        while out.result is None:
            state = _state(out)
            known = self.endings.get(state)
            if known is not None:
                line, at, scores = known
                actions.extend(line[at:])
                break
            states.append(state)
            action = self.act(out)
            actions.append(action)
            out.apply(action)
        if scores is None:
            assert out.result is not None
            scores = out.result.scores
        line = tuple(actions)
        offset = 1 if first is not None else 0
        for i, state in enumerate(states):
            self.endings[state] = (line, offset + i, scores)
        return line, scores

    def reach(self, hand: Hand, first: Action | None, cards_left: int) -> Hand:
        """The state where the model's line from ``hand`` (after ``first``, if given) first
        holds at most ``cards_left`` cards in all hands, or ends: a playout cut short, for a
        search that solves the rest exactly. The state returned is shared: do not change it."""
        out = hand.clone()
        if first is not None:
            out.apply(first)
        states: list[tuple[object, ...]] = []
        while out.result is None and sum(cards.size(h) for h in out.hands) > cards_left:
            state = (*_state(out), cards_left)
            known = self.reached.get(state)
            if known is not None:
                out = known
                break
            states.append(state)
            out.apply(self.act(out))
        for state in states:
            self.reached[state] = out
        return out


def _state(hand: Hand) -> tuple[object, ...]:
    """Everything the rest of a hand depends on, once its deal is fixed."""
    return (hand.deal, tuple(hand.hands), hand.phase, hand.to_act, hand.to_beat,
            hand.to_beat_seat, hand.passes, hand.partner, hand.called,
            tuple(hand.plays_by_seat), tuple(hand.events), hand.side_plays,
            tuple(hand.bombs_paid), hand.bomb_waiting, hand.letting_out)


def view_at(view: View, plays: int) -> View:
    """``view`` with only its first ``plays`` plays: the cards as they stood then.

    Only the card facts :func:`~ddz_rules.bots.worlds.sample_deal` reads are wound back (the
    plays, the seat's hand, the hand sizes); trick state and legal actions are left as they are.
    """
    later = played_by_seat(view.plays[plays:], len(view.hand_sizes))
    sizes = tuple(n + cards.size(k) for n, k in zip(view.hand_sizes, later, strict=True))
    return dataclasses.replace(view, plays=view.plays[:plays], hand=view.hand + later[view.seat],
                               hand_sizes=sizes, legal=())


def context_of(view: View, start: int) -> tuple[object, ...]:
    """Everything public or the seat's own that is fixed for the hand once the play begins and
    that a belief depends on besides the story: two views of one seat agree on it exactly when
    they may come from the same hand."""
    return (view.seat, start, view.dealer, view.first_bidder, view.landlord, view.kitty,
            view.marked_card, view.turned_card, view.undealt, view.wild)


def story_seeds(context: tuple[object, ...], story: Story) -> list[int]:
    """A seed for each prefix of the story, from a digest of everything public up to it:
    ``seeds[i]`` follows ``story[:i]``, so there is one more seed than steps.

    The first (the context alone) seeds the deals drawn before any word was said, as where
    the ruleset has no auction and the first bidder is the landlord without speaking; the
    deals drawn after an auction take the seed that follows its last word. Stable across
    processes (no ``hash()``), so a belief never depends on where it runs.
    """
    digest = hashlib.blake2b(repr(context).encode(), digest_size=8)
    seeds = [int.from_bytes(digest.copy().digest(), "big")]
    for actor, action in story:
        text = action if isinstance(action, str) else str(action.key)
        digest.update(f"|{actor}:{text}".encode())
        seeds.append(int.from_bytes(digest.copy().digest(), "big"))
    return seeds


class Belief:
    """Particles over the hidden cards, filtered by a model of how the other seats act
    (``model``; the believing seat's opponents by ``opponents``, where given)."""

    def __init__(self, ruleset: Ruleset, table: PlayTable, model: Bot,
                 particles: int = PARTICLES, draws: int = DRAWS, moves: int = MOVES,
                 rescues: int = RESCUES, opponents: Bot | None = None) -> None:
        self.ruleset = ruleset
        self.table = table
        self.particles = particles
        self.draws = max(draws, particles)
        self.moves = moves
        self.rescues = rescues
        #: seat -> (its context, the story so far, the particles, the model's memos)
        self._memo: dict[int, tuple[tuple[object, ...], Story, list[Particle], Model]] = {}
        self._bare = model
        self._opponents = opponents
        #: The model with the memos of the seat last asked about (see :meth:`believe`).
        self.model = Model(model, opponents)

    def worlds(self, view: View) -> list[Hand]:
        """Hands the seat of ``view`` cannot tell from the real one, as likely as it can judge.

        Each is a state reached by replaying the public story on a believed deal; search may
        play from them (cloning first) but must not change them.
        """
        return [p.hand for p in self.believe(view)]

    def believe(self, view: View) -> list[Particle]:
        """The particles after the story of ``view``, fewest misses first (then in the order
        drawn); :attr:`model` is then the model with this seat's memos, for search."""
        story = story_of(view)
        start = view.hand + played_by_seat(view.plays, len(view.hand_sizes))[view.seat]
        context = context_of(view, start)
        seeds = story_seeds(context, story)
        memo = self._memo.get(view.seat)
        if memo is not None and memo[0] == context and story[:len(memo[1])] == memo[1]:
            done, particles, self.model = len(memo[1]), memo[2], memo[3]
        else:
            self.model = Model(self._bare, self._opponents) if memo is None else memo[3]
            self.model.forget()
            done = len(view.auction)
            particles = self._initial(view, story, done, random.Random(seeds[done]))
        against = frozenset(view.opponents)
        if against != self.model.against:
            self.model.against = against
            if self._opponents is not None:  # a seat changed sides: so do its lines
                self.model.endings.clear()
                self.model.reached.clear()
        for step in range(done, len(story)):
            particles = self._step(view, story, step, particles, random.Random(seeds[step + 1]))
        self._memo[view.seat] = (context, story, particles, self.model)
        return sorted(particles, key=lambda p: p.misses)

    # ------------------------------------------------------------ the filter

    def _initial(self, view: View, story: Story, upto: int,
                 rng: random.Random) -> list[Particle]:
        """The deals, of ``draws`` drawn from the cards as they stood after ``story[:upto]``,
        that best explain the auction (and the landlord's call, if any)."""
        words = len(story) - len(view.plays)  # the auction, and the landlord's call if any
        then = view_at(view, max(0, upto - words))
        kept: list[tuple[int, int, Particle]] = []
        cap = words
        for i in range(self.draws):
            found = self._replay(view.seat, story, upto, min(upto, words),
                                 sample_deal(then, self.ruleset, rng), cap)
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
        if not particles:  # no world explained the story so far: draw afresh
            return self._initial(view, story, step + 1, rng)
        if actor == view.seat:
            for p in particles:
                p.hand.apply(action)
            return particles
        holding = [_holds(p.hand, actor, action) for p in particles]
        agrees = [ok and self.model.expected(p.hand) == action
                  for p, ok in zip(particles, holding, strict=True)]
        agreeing = [p for p, ok in zip(particles, agrees, strict=True) if ok]
        if not agreeing:
            agreeing = self._rescued(view, story, step, particles, holding, rng)
        out: list[Particle] = []
        for p, ok, agree in zip(particles, holding, agrees, strict=True):
            if agree:
                out.append(p)
            elif agreeing:  # the model explains the action elsewhere: a copy from there
                out.append(self._copy(view, story, step, rng.choice(agreeing), rng))
            else:  # nowhere: the particle misses (holding the cards, if it can be mended)
                q = p if ok else self._moved(view, story, step, p, _repair(
                    p, actor, action, view, rng), judged=False)
                if q is None:
                    continue
                q.misses += 1
                out.append(q)
        if not out:  # the belief has lost the thread: draw afresh
            return self._initial(view, story, step + 1, rng)
        while len(out) < len(particles):  # particles lost above: copies of the others
            out.append(self._copy(view, story, step, rng.choice(out[:len(out)]), rng))
        # A world the referee refuses the action in (a pass where its cards could beat, under
        # ``play.must_beat``; a single below the highest under the last-card warning) is
        # dropped; if none is left, the belief draws afresh.
        kept = [p for p in out if _applied(p.hand, action)]
        if not kept:
            return self._initial(view, story, step + 1, rng)
        while len(kept) < len(out):
            twin = rng.choice(kept)
            kept.append(Particle(twin.hand.clone(), twin.misses, twin.said))
        return kept

    def _rescued(self, view: View, story: Story, step: int, particles: list[Particle],
                 holding: list[bool], rng: random.Random) -> list[Particle]:
        """When no particle explains ``story[step]``: particles that do, found (up to
        ``rescues`` tries in all, round the distinct particles) by giving the actor the cards
        it played if it lacks them, then swapping one of its other cards with another hidden
        holder; judged on that action and on the auction."""
        actor, action = story[step]
        distinct = list({id(p.deal): (p, ok) for p, ok in zip(particles, holding,
                                                               strict=True)}.values())
        found: list[Particle] = []
        for i in range(self.rescues):
            p, ok = distinct[i % len(distinct)]
            if not ok:
                mended = self._moved(view, story, step, p, _repair(p, actor, action, view, rng),
                                     judged=False)
                if mended is None:
                    continue
                p = mended
            instead = self.model.expected(p.hand)
            if instead == action:  # mended, it explains the action already
                moved: Particle | None = p
            else:  # give away a card of what the model would play instead, if it can
                aside = 0 if isinstance(instead, str) else minus(
                    instead.key, action.key if isinstance(action, Play) else 0)
                moved = self._moved(view, story, step, p, _swap(p, view, rng, actor, aside),
                                    judged=True)
            if moved is not None:
                found.append(moved)
                if len(found) * 2 >= self.particles:
                    break
        return found

    def _copy(self, view: View, story: Story, step: int, parent: Particle,
              rng: random.Random) -> Particle:
        """A copy of ``parent`` (a particle in which the actor of ``story[step]`` can take its
        action), with one hidden card swapped between two hidden holders if, after the swap,
        the actor still can, the model still would if it would in the parent, and the model
        misses no more of the auction than in the parent (up to ``moves`` tries)."""
        action = story[step][1]
        judged = self.model.expected(parent.hand) == action
        for _ in range(self.moves):
            moved = self._moved(view, story, step, parent, _swap(parent, view, rng), judged)
            if moved is not None:
                return moved
        return Particle(parent.hand.clone(), parent.misses, parent.said)

    def _moved(self, view: View, story: Story, step: int, parent: Particle,
               moves: Moves | None, judged: bool) -> Particle | None:
        """``parent`` with ``moves`` made, if the actor of ``story[step]`` then holds the cards
        of its action, the model misses no more of the auction than in ``parent``, and (if
        ``judged``) the model takes that action; else None."""
        if moves is None:
            return None
        actor, action = story[step]
        if isinstance(action, Play) and not cards.contains(_held_after(parent, moves, actor),
                                                           action.key):
            return None
        moved = _exchanged(parent, moves)
        if judged and self.model.expected(moved.hand) != action:
            return None
        said = self._said(view.seat, story, len(story) - len(view.plays), moved.deal,
                          parent.said)
        if said is None:
            return None
        moved.misses += said - parent.said
        moved.said = said
        return moved

    def _said(self, seat: int, story: Story, words: int, deal: Deal, cap: int) -> int | None:
        """How many of the other seats' words among ``story[:words]`` the model would not say
        in ``deal``; None past ``cap``."""
        said = 0
        for i, (actor, word) in enumerate(story[:words]):
            if actor == seat:
                continue
            would = self.model.would_say(i, actor, deal.hands[actor])
            if would is None:
                break
            if would != word:
                said += 1
                if said > cap:
                    return None
        else:
            return said
        hand = Hand(self.ruleset, deal, self.table)  # a word not yet judged: replay
        said = 0
        for i, (actor, word) in enumerate(story[:words]):
            if actor != seat and self.model.says(hand, i) != word:
                said += 1
                if said > cap:
                    return None
            hand.apply(word)
        return said

    def _replay(self, seat: int, story: Story, upto: int, judged: int, deal: Deal,
                cap: int) -> Particle | None:
        """``deal`` replayed through ``story[:upto]``, the model judging the other seats'
        words among the first ``judged`` actions; None if a seat lacks the cards it played,
        or past ``cap`` misses."""
        hand = Hand(self.ruleset, deal, self.table)
        misses = 0
        for i, (actor, action) in enumerate(story[:upto]):
            if actor != seat:
                if not _holds(hand, actor, action):
                    return None
                if i < judged and self.model.says(hand, i) != action:
                    misses += 1
                    if misses > cap:
                        return None
            if not _applied(hand, action):  # the duties refuse it with these cards
                return None
        return Particle(hand, misses, misses)


#: Cards to move between holders of a particle: (giver, taker, rank), -1 for the undealt cards.
Moves = list[tuple[int, int, int]]


def _applied(hand: Hand, action: Action) -> bool:
    """Apply ``action`` to ``hand`` if the referee allows it there; whether it did."""
    try:
        hand.apply(action)
    except IllegalActionError:
        return False
    return True


def _holds(hand: Hand, actor: int, action: Action) -> bool:
    """Whether ``actor`` has the cards of ``action`` in this world (words and passes need none)."""
    return not isinstance(action, Play) or cards.contains(hand.hands[actor], action.key)


def _movable(particle: Particle, view: View) -> dict[int, int]:
    """The cards each hidden holder (another seat, or -1: the undealt cards) holds in this
    particle that may move to another: dealt to it, not yet played, not the marked card."""
    deal, hand = particle.deal, particle.hand
    played = played_by_seat(hand.public_plays, len(deal.hands))
    out: dict[int, int] = {}
    for seat, dealt in enumerate(deal.hands):
        if seat == view.seat:
            continue
        # a seat plays only cards dealt to it, but the landlord plays the kitty's too
        movable = minus(dealt, played[seat]) if seat == hand.landlord else dealt - played[seat]
        if view.marked_card is not None and view.marked_card[0] == seat:
            movable = minus(movable, 1 << (cards.FIELD_BITS * view.marked_card[1]))
        out[seat] = movable
    out[-1] = deal.undealt
    return out


def _swap(parent: Particle, view: View, rng: random.Random, seat: int | None = None,
          aside: int = 0) -> Moves | None:
    """One movable card (:func:`_movable`) of each of two hidden holders (one of them
    ``seat``, if given, giving one of ``aside`` if it can), to swap; None when the draw found
    nothing to swap."""
    holders = [(h, movable) for h, movable in _movable(parent, view).items() if movable]
    if seat is not None and aside:
        holders = [(h, _common(movable, aside) or movable) if h == seat else (h, movable)
                   for h, movable in holders]
    if seat is None:
        if len(holders) < 2:
            return None
        (a, from_a), (b, from_b) = rng.sample(holders, 2)
    else:
        mine = [h for h in holders if h[0] == seat]
        others = [h for h in holders if h[0] != seat]
        if not mine or not others:
            return None
        (a, from_a), (b, from_b) = mine[0], rng.choice(others)
    x, y = rng.choice(cards.ranks_of(from_a)), rng.choice(cards.ranks_of(from_b))
    return None if x == y else [(a, b, x), (b, a, y)]


def _repair(particle: Particle, actor: int, action: Action, view: View,
            rng: random.Random) -> Moves | None:
    """Moves giving ``actor`` the cards of ``action`` it lacks in ``particle``, from other
    hidden holders, each for a card of its own that the action does not need; None when some
    card cannot be found or paid for."""
    assert isinstance(action, Play)
    movable = _movable(particle, view)
    held = particle.hand.hands[actor]
    spare = _common(movable[actor], minus(held, action.key))  # cards it may give away
    moves: Moves = []
    for rank in cards.ranks_of(minus(action.key, held)):
        one = 1 << (cards.FIELD_BITS * rank)
        givers = [h for h, c in movable.items() if h != actor and cards.contains(c, one)]
        if not givers or not spare:
            return None
        giver, paid = rng.choice(givers), rng.choice(cards.ranks_of(spare))
        moves += [(giver, actor, rank), (actor, giver, paid)]
        movable[giver] += (1 << (cards.FIELD_BITS * paid)) - one
        spare -= 1 << (cards.FIELD_BITS * paid)
    return moves


def _held_after(particle: Particle, moves: Moves, seat: int) -> int:
    """The cards ``seat`` holds in ``particle``'s state once ``moves`` are made."""
    held = particle.hand.hands[seat]
    for giver, taker, rank in moves:
        held += ((taker == seat) - (giver == seat)) << (cards.FIELD_BITS * rank)
    return held


def _exchanged(particle: Particle, moves: Moves) -> Particle:
    """``particle`` with ``moves`` made in its deal, in the state the public story reaches on
    the new deal: the state reached on the old one with the same moves, as only cards not yet
    played move."""
    deal = particle.deal
    state = particle.hand.clone()
    dealt, undealt = list(deal.hands), deal.undealt
    for giver, taker, rank in moves:
        one = 1 << (cards.FIELD_BITS * rank)
        for holder, change in ((giver, -one), (taker, one)):
            if holder < 0:
                undealt += change
            else:
                dealt[holder] += change
                state.hands[holder] += change
    state.deal = dataclasses.replace(deal, hands=tuple(dealt), undealt=undealt)
    return Particle(state, particle.misses, particle.said)


def placed(world: Hand, truth: Hand, seat: int) -> tuple[int, int]:
    """How many of the cards the other seats hold in ``truth`` a believed ``world`` (of the
    same moment) gives to the seat that holds them, rank by rank, and how many they hold:
    how well a belief places what ``seat`` cannot see (cards it can see count too, and any
    world places them right)."""
    others = [s for s in range(len(truth.hands)) if s != seat]
    right = sum(cards.size(_common(world.hands[s], truth.hands[s])) for s in others)
    return right, sum(cards.size(truth.hands[s]) for s in others)


def _common(a: int, b: int) -> int:
    """The cards in both ``a`` and ``b``, rank by rank."""
    return cards.pack([min(x, y) for x, y in zip(cards.unpack(a), cards.unpack(b), strict=True)])
