"""Every ruleset as an OpenSpiel game: a Python game registered with ``pyspiel`` under its own
name, so that OpenSpiel's algorithms (MCTS, ``rl_environment`` and the agents built on it,
``evaluate_bots``, ``random_sim_test``) run on every variant. Needs the ``openspiel`` extra:
``pip install -e '.[openspiel]'``.

>>> import pyspiel
>>> game = pyspiel.load_game(register("classic"))
>>> game.get_type().short_name, game.num_players(), game.num_distinct_actions()
('python_ddz_classic', 3, 24643)

One game is one hand, and the design follows from what OpenSpiel asks of a game:

* **Chance: the deal.** The first node is a chance node; its outcome ``o``, one of
  ``deals * players`` equally likely ones, deals seed ``first_seed + o // players`` with seat
  ``o % players`` the dealer (:func:`ddz_rules.game.deal`). The chance mode is
  ``EXPLICIT_STOCHASTIC``: OpenSpiel's ``SAMPLED_STOCHASTIC`` means a chance node whose
  ``ApplyAction`` is not deterministic, which would make clones, serialized states and
  replayed histories disagree; a seed as the outcome keeps every state a function of its
  history, and the same seeds give the same deals as ``Hand.new``. ``deals`` (10,000 by
  default) bounds how many distinct deals there are, since ``chance_outcomes()`` lists every
  outcome; the dealer is drawn too, so that each seat is as often first to bid.
* **A thrown-in deal ends the game with zero returns.** Where nobody bids (the hand's
  ``result.redeal``), the hand is over and scores nothing, exactly as the referee settles it;
  the next deal is the next game. This keeps a game one hand long, with a fixed bound on its
  length, as OpenSpiel requires (the PettingZoo environment, whose episodes need not be
  bounded so, deals again within its episode instead).
* **Actions** are the ids of :class:`~ddz_rules.env.actions.ActionSpace`, the same as the
  PettingZoo environment's; a legal id plays what :meth:`ActionSpace.legal` maps it to.
* **Observation tensor**: :class:`~ddz_rules.env.observation.Encoder`'s encoding of the
  seat's :class:`~ddz_rules.game.View`, the PettingZoo layout, with each feature of
  :attr:`Layout.features` a named piece of the observation's ``dict``.
* **Information state**: a string only (``provides_information_state_tensor`` is False). The
  view already holds the seat's whole history (its cards, every auction word and every play
  in order), so a text of it is a perfect-recall information state, what algorithms keyed
  on information states (tabular policies, information-set MCTS) look states up by. A
  perfect-recall tensor would have to hold the whole action history at a fixed size,
  hundreds of steps of one-hot action ids (millions of numbers), which no algorithm could
  use; ``rl_environment`` gives its agents the observation tensor when a game has no
  information-state tensor. (Information-set MCTS also needs a resampler of the hidden
  cards, which a seeded deal cannot give: it is not provided.)
* **Returns** are the hand's scores (zero-sum; ``ZERO_SUM`` utility, terminal rewards). The
  utility bounds are bounds, not the most a hand can score: see :func:`utility_bound`.

Game parameters: ``ruleset`` (a bundled id or a ruleset file's path; by default the one
registered under the name, and another must have as many players), ``deals`` and
``first_seed``. Registering is per process, as for every Python game: a process that loads or
deserializes a game by its name calls :func:`register` first. A state's :attr:`DdzState.hand` is
the referee's hand, every seat's cards included: for tests and records, not for agents.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from functools import cache, cached_property
from typing import Any, ClassVar

import numpy as np

try:
    import pyspiel
except ImportError as missing:  # pragma: no cover - the openspiel extra is not installed
    raise ImportError("ddz_rules.env.openspiel needs OpenSpiel: pip install -e '.[openspiel]' "
                      f"({missing})") from None

from ddz_rules import cards
from ddz_rules.env.actions import ActionSpace
from ddz_rules.env.observation import Encoder
from ddz_rules.errors import EnvError
from ddz_rules.game import Action, Hand, View, deal
from ddz_rules.ruleset import DEALT_BONUSES, CombinationType, Ruleset, bundled_ids
from ddz_rules.ruleset import load as load_ruleset
from ddz_rules.scoring import base_of
from ddz_rules.table import Play, PlayTable, compile_table

#: Every registered game's name starts so; the ruleset's id follows, ``-`` written ``_``.
PREFIX = "python_ddz_"
#: Distinct deal seeds by default, and at most (``chance_outcomes()`` lists them all).
DEALS = 10_000
MAX_DEALS = 1_000_000

#: The rulesets registered, by game name, and the ``ruleset`` parameter each defaults to.
_REGISTERED: dict[str, tuple[Ruleset, str]] = {}
#: The game class of each registered name, kept alive here: a creator that only pyspiel's
#: registry holds is released after the interpreter has stopped, which aborts Python at exit.
_CLASSES: dict[str, type[DdzGame]] = {}
#: What the games and states of one ruleset share, by (game name, ``ruleset`` parameter).
_SHARED: dict[tuple[str, str], _Rules] = {}


# --------------------------------------------------------------------------- registering


def game_name(ruleset: Ruleset) -> str:
    """The name ``ruleset``'s game is registered under: ``python_ddz_`` and its id."""
    name = PREFIX + ruleset.id.replace("-", "_")
    if not re.fullmatch(r"[A-Za-z0-9_]+", name):
        raise EnvError(f"ruleset id {ruleset.id!r} cannot name an OpenSpiel game: use "
                       "letters, digits, '-' and '_'")
    return name


def register(ruleset: str | Ruleset = "classic") -> str:
    """Register ``ruleset``'s game with OpenSpiel (once; again is a no-op) and return its
    name, for ``pyspiel.load_game(name)``.

    ``ruleset`` is a bundled id, a ruleset file's path, or a loaded :class:`Ruleset`. Another
    ruleset of the same id (another file) cannot take a name already registered.
    """
    if isinstance(ruleset, Ruleset):
        loaded = ruleset
    elif isinstance(ruleset, str):
        loaded = load_ruleset(ruleset)
    else:
        raise EnvError(f"ruleset must be a bundled id, a ruleset file's path or a Ruleset, not "
                       f"{type(ruleset).__name__}")
    name = game_name(loaded)
    known = _REGISTERED.get(name)
    if known is not None:
        if known[0] is not loaded and known[0].path != loaded.path:
            raise EnvError(f"{name} is registered for {known[0].path}; {loaded.path} has the "
                           "same id, so give it another")
        return name
    if name in pyspiel.registered_names():
        raise EnvError(f"{name} is already an OpenSpiel game, not one registered here")
    source = _source(loaded)
    game_type = _game_type(name, loaded, source)

    class Registered(DdzGame):
        short_name = name
        spec = game_type

    Registered.__name__ = Registered.__qualname__ = f"DdzGame_{name[len(PREFIX):]}"
    _REGISTERED[name] = (loaded, source)
    _CLASSES[name] = Registered
    pyspiel.register_game(game_type, Registered)
    return name


def load(ruleset: str | Ruleset = "classic", **params: int | str) -> Any:
    """``pyspiel.load_game`` for ``ruleset``'s game (registered first if need be), with any
    game parameters (``deals``, ``first_seed``)."""
    return pyspiel.load_game(register(ruleset), params)


def _source(ruleset: Ruleset) -> str:
    """What the ``ruleset`` parameter says for ``ruleset``: its id where it is the bundled
    one, else its path."""
    if ruleset.id in bundled_ids() and load_ruleset(ruleset.id) is ruleset:
        return ruleset.id
    return ruleset.path


def _game_type(name: str, ruleset: Ruleset, source: str) -> Any:
    return pyspiel.GameType(
        short_name=name,
        long_name=f"Dou Dizhu: {ruleset.title} (ddz-rules {ruleset.id})",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=ruleset.players,
        min_num_players=ruleset.players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"ruleset": source, "deals": DEALS, "first_seed": 0},
        default_loadable=True,
        provides_factored_observation_string=False)


# --------------------------------------------------------------------------- bounds


def _smallest(ctype: CombinationType) -> int:
    """The fewest cards a play of ``ctype`` holds."""
    length = ctype.min_length
    return max(1, ctype.width * length + ctype.kicker_unit * ctype.kicker_count(length))


def multiplier_bound(ruleset: Ruleset) -> int:
    """A bound on one hand's multiplier: each play multiplies by its class's factor at most
    once, and the plays hold at most the cards dealt, so the plays multiply by at most
    ``max(factor ** (cards / smallest play))`` over the classes; a spring or an anti-spring
    at most once; robs and grabs at most their auction limits; a dealt-hand bonus that
    multiplies, once a seat."""
    factors = ruleset.factors
    dealt = ruleset.players * ruleset.hand_size + ruleset.kitty
    rate = max((math.log(factors[c.event]) / _smallest(c) for c in ruleset.combinations
                if factors.get(c.event, 1) > 1), default=0.0)
    log = dealt * rate
    log += math.log(max(factors.get("spring", 1), factors.get("anti_spring", 1)))
    log += ruleset.max_robs * math.log(factors.get("rob", 1))
    log += ruleset.max_grabs * math.log(factors.get("grab", 1))
    log += sum(ruleset.players * math.log(factors.get(name, 1)) for name in DEALT_BONUSES)
    return math.floor(math.exp(log) * (1 + 1e-9))  # a multiplier is whole: floor the bound


def utility_bound(ruleset: Ruleset) -> float:
    """A bound on any seat's score for one hand, for OpenSpiel's ``min_utility`` and
    ``max_utility`` (their negative and positive).

    With a landlord: at most ``players - 1`` stakes (the landlord alone against every
    peasant), a stake being the highest base times :func:`multiplier_bound` (or the cap),
    plus ``players - 1`` times the dealt-hand bonuses paid as points. Without (``cards_left``):
    ``players - 1`` times what one seat can owe (its cards, doubled if shut out, or the cap),
    plus ``players - 1`` times the most the bombs that fit in the cards dealt are paid.
    """
    n = ruleset.players
    if not ruleset.has_landlord:
        owed = ruleset.max_hand * ruleset.per_card * ruleset.shut_out
        if ruleset.cap is not None:
            owed = min(owed, ruleset.cap)
        paid = ruleset.paid_at_once
        bombs = 0
        if paid:
            dealt = n * ruleset.hand_size + ruleset.kitty
            smallest = min(_smallest(c) for c in ruleset.combinations if c.name in paid)
            bombs = dealt // smallest * max(paid.values())
        return float((n - 1) * (owed + bombs))
    top_bid = max((*ruleset.bids, ruleset.fixed_bid or 1, 1))
    stake = base_of(ruleset, top_bid) * multiplier_bound(ruleset)
    if ruleset.cap is not None:
        stake = min(stake, ruleset.cap)
    bonus = ruleset.dealt_bonus
    points = sum(a for _, a in bonus.amounts) if bonus and bonus.form != "multiplier" else 0
    return float((n - 1) * (stake + points))


def max_game_length(ruleset: Ruleset) -> int:
    """A bound on the actions of one hand (chance not counted): the auction, then the call
    of a partner, then the play.

    Auction: where players bid, each bid raises the highest, and at most ``players`` passes
    come before the first bid, between two bids or after the last; where they call, at most
    a word a seat until one calls, then a word a seat and one for each rob or grab. Play:
    every play takes at least a card from those held, and at most ``players - 1`` passes
    follow it.
    """
    n, bids = ruleset.players, len(ruleset.bids)
    bidding = bids + n * (bids + 1)
    calling = 2 * n + ruleset.max_robs + ruleset.max_grabs + 1
    call = 1 if ruleset.partner_rule == "called_rank" else 0
    held = n * ruleset.hand_size + ruleset.kitty
    return max(bidding, calling) + call + n * held


# --------------------------------------------------------------------------- shared parts


class _Rules:
    """What the games and states of one ruleset share: the ruleset, its play table, action
    ids and encoder. Never copied: a state's clone or pickle refers to the same one."""

    def __init__(self, name: str, source: str, ruleset: Ruleset) -> None:
        self.name = name
        self.source = source
        self.ruleset = ruleset
        self.table: PlayTable = compile_table(ruleset)
        self.space = ActionSpace.of(ruleset)
        self.encoder = Encoder(ruleset)
        self._names: dict[int, str] = {}

    @cached_property
    def _shared(self) -> Counter[int]:
        """How many ids play each card set."""
        return Counter(play.key for play in self.space.plays)

    def action_text(self, action_id: int) -> str:
        """An id's text: the word or call, or the play's cards, with ``@type/length/rank``
        where other ids play the same cards (each id's text is its own)."""
        found = self._names.get(action_id)
        if found is None:
            action = self.space.action(action_id)
            if isinstance(action, str):
                found = action
            elif self._shared[action.key] == 1:
                found = action.cards
            else:
                found = f"{action.cards}@{action.reading.short()}"
            self._names[action_id] = found
        return found

    def __deepcopy__(self, memo: dict[int, Any]) -> _Rules:
        return self

    def __reduce__(self) -> tuple[Any, tuple[str, str]]:
        return _rules, (self.name, self.source)


def _rules(name: str, source: str) -> _Rules:
    """The shared parts of game ``name`` played under ``source`` (built once)."""
    found = _SHARED.get((name, source))
    if found is not None:
        return found
    if name not in _REGISTERED:
        raise EnvError(f"{name} is not registered: call register() for its ruleset first")
    registered, default = _REGISTERED[name]
    ruleset = registered if source == default else load_ruleset(source)
    if ruleset.players != registered.players:
        raise EnvError(f"{name} is a game of {registered.players} players; {source} has "
                       f"{ruleset.players}: register it under its own name")
    found = _SHARED[(name, source)] = _Rules(name, source, ruleset)
    return found


@cache
def _uniform(count: int) -> list[tuple[int, float]]:
    """``count`` equally likely chance outcomes."""
    p = 1.0 / count
    return [(o, p) for o in range(count)]


# --------------------------------------------------------------------------- the game


class DdzGame(pyspiel.Game):  # type: ignore[misc]
    """One hand of a ruleset as an OpenSpiel game; :func:`register` makes one subclass a
    name."""

    short_name: ClassVar[str]
    spec: ClassVar[Any]

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = dict(params or {})
        source = given.get("ruleset", _REGISTERED[self.short_name][1])
        deals, first_seed = given.get("deals", DEALS), given.get("first_seed", 0)
        if not isinstance(source, str):
            raise EnvError(f"ruleset must be a bundled id or a ruleset file's path, not "
                           f"{source!r}")
        if isinstance(deals, bool) or not isinstance(deals, int) or not (
                1 <= deals <= MAX_DEALS):
            raise EnvError(f"deals must be an integer from 1 to {MAX_DEALS}, not {deals!r}")
        if isinstance(first_seed, bool) or not isinstance(first_seed, int) or first_seed < 0:
            raise EnvError(f"first_seed must be a non-negative integer, not {first_seed!r}")
        self.rules = _rules(self.short_name, source)
        self.deals = deals
        self.first_seed = first_seed
        ruleset = self.rules.ruleset
        bound = utility_bound(ruleset)
        info = pyspiel.GameInfo(
            num_distinct_actions=len(self.rules.space),
            max_chance_outcomes=deals * ruleset.players,
            num_players=ruleset.players,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=max_game_length(ruleset))
        super().__init__(self.spec, info, {"ruleset": source, "deals": deals,
                                           "first_seed": first_seed})

    @property
    def ruleset(self) -> Ruleset:
        return self.rules.ruleset

    @property
    def action_space(self) -> ActionSpace:
        """The ruleset's actions as ids: ``action(id)`` and ``id_of(action)``."""
        return self.rules.space

    def new_initial_state(self) -> DdzState:
        """A state before the deal (a chance node)."""
        return DdzState(self)

    def max_chance_nodes_in_history(self) -> int:
        return 1

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> DdzObserver:
        """The observation (perfect recall off: :class:`Encoder`'s tensor and a short text) or
        the information state (perfect recall on: a text of the seat's whole view)."""
        if isinstance(iig_obs_type, dict):  # pyspiel passes params alone for the default
            iig_obs_type, params = None, iig_obs_type
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        kind = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        if not kind.public_info or kind.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            raise ValueError("only a seat's own observation is supported (public info and the "
                             "seat's private info), not public-only or all-seat observations")
        return DdzObserver(self.rules, kind.perfect_recall)


# --------------------------------------------------------------------------- states


class _Dealt:
    """The hand in play, with its deal and the action ids taken so far.

    Copied by :meth:`Hand.clone` (a deep copy would copy the ruleset and its play table with
    it) and pickled as its deal and ids, replayed on loading: pyspiel clones a Python state
    by deep-copying its attributes, and serializes it by pickling them.
    """

    def __init__(self, rules: _Rules, seed: int, dealer: int) -> None:
        self.rules = rules
        self.seed = seed
        self.dealer = dealer
        self.hand = Hand(rules.ruleset, deal(rules.ruleset, seed, dealer), rules.table)
        self.ids: list[int] = []
        self.legal: dict[int, Action] = {}
        self._advance()

    def _advance(self) -> None:
        hand = self.hand
        self.legal = ({} if hand.result is not None
                      else self.rules.space.legal(hand.legal_actions(), hand.wild))

    def play(self, action_id: int) -> None:
        """Play the action a legal id names for the seat to act."""
        action = self.legal.get(action_id)
        if action is None:
            raise EnvError(f"action {action_id} is not legal for seat {self.hand.to_act} now")
        self.hand.apply(action)
        self.ids.append(action_id)
        self._advance()

    def __deepcopy__(self, memo: dict[int, Any]) -> _Dealt:
        other = _Dealt.__new__(_Dealt)  # not copy.copy: that would pickle, so replay
        other.rules, other.seed, other.dealer = self.rules, self.seed, self.dealer
        other.hand = self.hand.clone()
        other.ids = list(self.ids)
        other.legal = self.legal  # replaced, never changed: shared
        return other

    def __reduce__(self) -> tuple[Any, tuple[_Rules, int, int, tuple[int, ...]]]:
        return _replay, (self.rules, self.seed, self.dealer, tuple(self.ids))


def _replay(rules: _Rules, seed: int, dealer: int, ids: tuple[int, ...]) -> _Dealt:
    """The hand dealt with ``seed`` by ``dealer`` after the actions ``ids``."""
    dealt = _Dealt(rules, seed, dealer)
    for action_id in ids:
        dealt.play(action_id)
    return dealt


class DdzState(pyspiel.State):  # type: ignore[misc]
    """A hand before its deal (a chance node), in play, or over."""

    def __init__(self, game: DdzGame) -> None:
        super().__init__(game)
        self._rules = game.rules
        self._outcomes = game.deals * game.rules.ruleset.players
        self._first_seed = game.first_seed
        self._dealt: _Dealt | None = None

    @property
    def hand(self) -> Hand | None:
        """The referee's hand (every seat's cards: for tests and records, not for agents);
        None before the deal."""
        return None if self._dealt is None else self._dealt.hand

    def referee_action(self, action_id: int) -> Action:
        """The referee's action a legal id plays now (with wild cards, the real cards)."""
        if self._dealt is None or action_id not in self._dealt.legal:
            raise EnvError(f"action {action_id} is not legal now")
        return self._dealt.legal[action_id]

    def current_player(self) -> int:
        if self._dealt is None:
            return int(pyspiel.PlayerId.CHANCE)
        hand = self._dealt.hand
        if hand.result is not None:
            return int(pyspiel.PlayerId.TERMINAL)
        assert hand.to_act is not None  # a hand not over always has a seat to act
        return hand.to_act

    def is_terminal(self) -> bool:
        return self._dealt is not None and self._dealt.hand.result is not None

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Every (seed, dealer) pair, equally likely."""
        return list(_uniform(self._outcomes))  # a copy: the caller may change it

    def _legal_actions(self, player: int) -> list[int]:
        """The legal ids of the seat to act, ascending (none for any other seat)."""
        if self._dealt is None or player != self._dealt.hand.to_act:
            return []
        return sorted(self._dealt.legal)

    def _apply_action(self, action: int) -> None:
        """Deal (a chance outcome), or play a legal id for the seat to act."""
        if self._dealt is None:
            if not 0 <= action < self._outcomes:
                raise EnvError(f"chance outcome {action} is out of range: 0 to "
                               f"{self._outcomes - 1}")
            seed, dealer = self._deal_of(action)
            self._dealt = _Dealt(self._rules, seed, dealer)
            return
        self._dealt.play(action)

    def _deal_of(self, outcome: int) -> tuple[int, int]:
        players = self._rules.ruleset.players
        return self._first_seed + outcome // players, outcome % players

    def _action_to_string(self, player: int, action: int) -> str:
        """A deal's seed and dealer, or the id's word, call or cards."""
        if player == pyspiel.PlayerId.CHANCE:
            seed, dealer = self._deal_of(action)
            return f"deal seed {seed}, dealer {dealer}"
        return self._rules.action_text(action)

    def returns(self) -> list[float]:
        """The hand's scores once it is over (zeros for a thrown-in deal), else zeros."""
        players = self._rules.ruleset.players
        if self._dealt is None or self._dealt.hand.result is None:
            return [0.0] * players
        return [float(s) for s in self._dealt.hand.result.scores]

    def __str__(self) -> str:
        """The whole state, every seat's cards included (for debugging, not for agents)."""
        if self._dealt is None:
            return "before the deal"
        dealt, hand = self._dealt, self._dealt.hand
        table = self._rules.table
        parts = [f"seed {dealt.seed}, dealer {dealt.dealer}",
                 "hands " + " ".join(f"{s}:{cards.key_text(h) or '-'}"
                                     for s, h in enumerate(hand.hands)),
                 f"kitty {cards.key_text(hand.deal.kitty) or '-'}",
                 f"{hand.phase.value}, to act {hand.to_act}, landlord {hand.landlord}"]
        if hand.wild:
            parts.append("wild " + cards.text(hand.wild))
        parts.append("auction " + _words(hand.auction.history))
        if hand.partner_call is not None:
            parts.append(f"call {hand.partner_call}")
        parts.append("plays " + _plays(table, hand.public_plays, hand.wild))
        if hand.result is not None:
            parts.append("scores " + " ".join(str(s) for s in hand.result.scores))
        return " | ".join(parts)


def _plays(table: PlayTable, plays: Sequence[tuple[int, Play | None]],
           wild: tuple[int, ...]) -> str:
    """Plays and passes in order, ``seat:cards``, each play with its reading where it is not
    the only one; ``-`` for none."""
    return " ".join(f"{s}:{'pass' if p is None else table.notation(p, wild)}"
                    for s, p in plays) or "-"


def _words(words: Sequence[tuple[int, str]]) -> str:
    """Auction words in order, ``seat:word``; ``-`` for none."""
    return " ".join(f"{s}:{w}" for s, w in words) or "-"


# --------------------------------------------------------------------------- observers


class DdzObserver:
    """OpenSpiel's Python observer for one seat, from that seat's :class:`View` alone.

    Without perfect recall: the tensor is :class:`Encoder`'s (each feature a named piece of
    ``dict``) and the text is short. With perfect recall: no tensor, and the text is the
    seat's whole view, every word and play in order (an information state).
    """

    def __init__(self, rules: _Rules, perfect_recall: bool) -> None:
        self.rules = rules
        self.perfect_recall = perfect_recall
        self.tensor: Any = None
        self.dict: dict[str, Any] = {}
        if not perfect_recall:
            layout = rules.encoder.layout
            self.tensor = np.zeros(layout.size, dtype=np.float32)
            self.dict = {f.name: self.tensor[f.start:f.stop] for f in layout.features}

    def set_from(self, state: DdzState, player: int) -> None:
        """Write the seat's observation into :attr:`tensor` (zeros before the deal)."""
        if self.tensor is None:
            return
        hand = state.hand
        if hand is None:
            self.tensor.fill(0.0)
        else:
            self.rules.encoder.encode(hand.view(player, legal=False), out=self.tensor)

    def string_from(self, state: DdzState, player: int) -> str:
        """The seat's observation or information state as text."""
        hand = state.hand
        if hand is None:
            return f"seat {player}, before the deal"
        view = hand.view(player, legal=False)
        if self.perfect_recall:
            return information_text(self.rules.table, view)
        return observation_text(self.rules.table, view)


def _head(view: View) -> list[str]:
    """What every text of a view starts with: the seat, the phase, who acts, its cards."""
    mine = cards.key_text(view.hand) or "-"
    return [f"seat {view.seat}", f"{view.phase.value}, to act {view.to_act}", f"hand {mine}"]


def observation_text(table: PlayTable, view: View) -> str:
    """A short text of what a seat sees now: its cards, the cards left, the landlord, the
    play to beat and the multiplier."""
    parts = _head(view)
    parts.append("cards left " + " ".join(str(n) for n in view.hand_sizes))
    if view.landlord is not None:
        parts.append(f"landlord {view.landlord}")
    if view.wild:
        parts.append("wild " + cards.text(view.wild))
    if view.to_beat is not None:
        parts.append(f"to beat {table.notation(view.to_beat, view.wild)} by "
                     f"{view.to_beat_seat}")
    parts.append(f"multiplier {view.multiplier}")
    return " | ".join(parts)


def information_text(table: PlayTable, view: View) -> str:
    """A text of a seat's whole view: its cards and everything public, every auction word
    and play in order, so that it recalls all the seat has seen (an information state)."""
    parts = _head(view)
    parts.append(f"dealer {view.dealer}, first bidder {view.first_bidder}")
    if view.marked_card is not None:
        parts.append(f"marked {cards.RANKS[view.marked_card[1]]} by {view.marked_card[0]}")
    if view.turned_card is not None:
        parts.append(f"turned {cards.RANKS[view.turned_card]}")
    parts.append("auction " + _words(view.auction))
    if view.landlord is not None:
        kitty = "?" if view.kitty is None else cards.key_text(view.kitty) or "-"
        parts.append(f"landlord {view.landlord}, kitty {kitty}")
    if view.partner_call is not None:
        parts.append(f"call {view.partner_call}")
    if view.wild:
        parts.append("wild " + cards.text(view.wild))
    parts.append("plays " + _plays(table, view.plays, view.wild))
    return " | ".join(parts)


__all__ = ["DEALS", "MAX_DEALS", "PREFIX", "DdzGame", "DdzObserver", "DdzState", "game_name",
           "information_text", "load", "max_game_length", "multiplier_bound",
           "observation_text", "register", "utility_bound"]
