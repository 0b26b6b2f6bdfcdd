#!/usr/bin/env python3
"""Our bot levels against RLCard 1.2.0's rule agent, on duplicate deals, under RLCard's game.

Usage::

    python benchmarks/bench_vs_rlcard.py [--deals D] [--seed S] [--levels standard,medium]
                                         [--model medium|standard|rlcard] [--worlds W]
                                         [--particles P] [--deal-set FILE] [--json FILE]

Every hand is played under the ``rlcard`` preset: RLCard's play table, no auction (the deal
names the landlord, who takes the kitty and leads), a stake of 1. Deal ``d`` is dealt from
``deal_seed(S, d, 0)`` by seat ``d mod 3``, the deal ``ddz compare`` plays as its hand ``d``;
with ``--deal-set FILE`` the deals are that set's instead (ours, or DouZero's evaluation
deals, :mod:`ddz_rules.dealsets`), the games' random draws still seeded by deal number;
each deal is played twice per level: our level as the landlord against two RLCard agents as
the peasants, then RLCard's agent as the landlord against two of our level. Our side wins a
game when its side goes out first.

RLCard's agent (``rlcard.models.doudizhu_rule_models.DouDizhuRuleAgentV1``) is called with the
state RLCard's game hands it (``state['raw_obs']``), built from our seat's ``View`` alone:
``current_hand`` and every card set in RLCard's card text (``3``..``9``, ``T``, ``J``, ``Q``,
``K``, ``A``, ``2``, ``B``, ``R``, low to high, as our card text writes them), ``trace`` (every
play and pass of the hand as ``(seat, cards or 'pass')``), ``actions`` (when answering, the
list RLCard's ``get_gt_cards`` makes, in its order, which the agent's choice depends on; when
leading, our legal leads: the agent's lead does not read them), ``landlord``, ``self``,
``played_cards``, ``num_cards_left`` and ``seen_cards`` (the kitty; RLCard takes a kitty card
off it once the landlord plays it). RLCard's state also holds ``others_hand``, the other seats'
cards; the agent never reads it, and a view does not have it. The agent's random choice (it
draws one when it cannot answer in kind) uses NumPy's global generator, seeded per game.

Its answer is converted back to our play (``'pass'`` or the card text) and applied by our
referee. A choice the referee refuses is counted as illegal and replaced by our first legal
action; when answering, RLCard's list of answers is also compared with our referee's, and any
difference counted. The preset reproduces RLCard's play table exactly, so both counts are
expected to be 0.

``extreme`` models every other seat as ``medium`` plays. ``--model`` tells it how the agent's
seats play instead: ``standard`` (our rule player), or ``rlcard`` (the agent itself, its rules
asked directly; where the agent would draw at random, it is taken to pass): a measure of what
a model of this opponent is worth, not a bot that could meet an unknown one. ``--worlds`` and
``--particles`` set ``extreme``'s worlds searched and its belief's particles (drawn from four
times as many deals).

Reported per level: our side's win rate over the 2D games with Wilson's 95% interval; the same
rate as a mean over the D deals of each deal's two games with a normal 95% interval (the
duplicate interval: both games of a deal share its cards, which removes much of the luck of
the deal); the rate as landlord and as peasants (Wilson, D games each); hands per second
(both games' decisions, ours and the agent's, wall time in this process). ``--json`` also
writes each deal's wins (``per_deal``), so that two runs on the same deals pair by deal.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bench_plays import machine, machine_line, publish

from ddz_rules import cards, load
from ddz_rules.bots import LEVELS, make_bot
from ddz_rules.bots.base import Bot
from ddz_rules.bots.extreme import PARTICLES, ExtremeBot
from ddz_rules.bots.standard import StandardBot
from ddz_rules.compare.stats import Estimate, mean_interval, proportion_interval
from ddz_rules.dealsets import deal_seed, read_deals
from ddz_rules.errors import DdzError, IllegalActionError
from ddz_rules.game import PASS, Action, Deal, Hand, View
from ddz_rules.ruleset import Ruleset

DEFAULT_DEALS = 1000
DEFAULT_SEED = 20240601
DEFAULT_LEVELS = ("standard", "medium")
RULESET = "rlcard"
#: Salt of a game's random generators (ours and NumPy's), as ``ddz compare`` salts its bots'.
BOT_SALT = 0xB075


def _rlcard() -> tuple[Any, Any, Any, str]:
    """RLCard's rule agent class, its ``CARD_TYPE`` and ``TYPE_CARD`` tables, and its version;
    one line and exit 2 where RLCard is not installed."""
    try:
        from importlib.metadata import version

        import numpy  # noqa: F401  (RLCard needs it; say so before its import fails)
        from rlcard.games.doudizhu.utils import CARD_TYPE, TYPE_CARD
        from rlcard.models.doudizhu_rule_models import DouDizhuRuleAgentV1
    except ImportError as exc:
        sys.exit(f"bench_vs_rlcard: RLCard is not installed ({exc}); "
                 "pip install rlcard==1.2.0 (it needs numpy)")
    return DouDizhuRuleAgentV1, CARD_TYPE, TYPE_CARD, version("rlcard")


AGENT, CARD_TYPE, TYPE_CARD, RLCARD_VERSION = _rlcard()


# --------------------------------------------------------------------------- the adapter


def text_of(key: int) -> str:
    """A card set in RLCard's card text: ours, canonical and low to high, is the same."""
    return cards.key_text(key)


def _holds(hand: dict[str, int], cards_text: str) -> bool:
    return all(hand.get(c, 0) >= cards_text.count(c) for c in set(cards_text))


def gt_cards(hand_text: str, target: str) -> list[str]:
    """RLCard 1.2.0's ``doudizhu.utils.get_gt_cards``: ``'pass'``, then every play of the hand
    that beats ``target``, in its order (the target's own type first, then the rocket, then
    the bombs; within a type, from the lowest weight up)."""
    out = ["pass"]
    types: dict[str, int] = {}
    for card_type, weight in CARD_TYPE[0][target]:
        types.setdefault(card_type, int(weight))
    if "rocket" in types:
        return out
    types["rocket"] = -1
    types.setdefault("bomb", -1)
    held = {c: hand_text.count(c) for c in set(hand_text)}
    seen = set(out)
    for card_type, weight in types.items():
        for can_weight, cards_list in TYPE_CARD[card_type].items():
            if int(can_weight) > weight:
                for cards_text in cards_list:
                    if cards_text not in seen and _holds(held, cards_text):
                        seen.add(cards_text)
                        out.append(cards_text)
    return out


def answering(view: View) -> bool:
    """Whether the seat of ``view`` answers a play (else it leads)."""
    return view.to_beat is not None and view.to_beat_seat != view.seat


def rlcard_state(view: View, seen: str) -> dict[str, Any]:
    """The ``state`` RLCard's game hands an agent (``{'raw_obs': ...}``), from ``view``."""
    trace = [(seat, "pass" if play is None else text_of(play.key)) for seat, play in view.plays]
    played = [0] * len(view.hand_sizes)
    for seat, play in view.plays:
        if play is not None:
            played[seat] += play.key
    hand_text = text_of(view.hand)
    if answering(view):
        assert view.to_beat is not None
        actions = gt_cards(hand_text, text_of(view.to_beat.key))
    else:
        actions = [text_of(a.key) if not isinstance(a, str) else a for a in view.legal]
    raw = {"seen_cards": seen, "landlord": view.landlord, "trace": trace,
           "played_cards": [text_of(k) for k in played], "self": view.seat,
           "current_hand": hand_text, "num_cards_left": list(view.hand_sizes),
           "actions": actions}
    return {"raw_obs": raw}


def kitty_left(view: View, kitty: str) -> str:
    """RLCard's ``seen_cards``: the kitty, a card taken off for each card of a kitty rank the
    landlord plays (RLCard's ``update_public``, with the landlord as its player 0)."""
    left = kitty
    for seat, play in view.plays:
        if play is not None and seat == view.landlord:
            for c in text_of(play.key):
                if c in left:
                    left = left.replace(c, "")
    return left


def our_action(text: str) -> Action:
    """The agent's action as our referee takes it: ``pass``, or the cards as card text."""
    return PASS if text == "pass" else text


class AgentModel(Bot):
    """The agent as a model of its seats, for ``extreme``'s belief and playouts: what it
    chooses from the view, except that where it would draw at random (it cannot answer in
    kind), it passes. NumPy's generator is left as it was, so the games are the same
    games."""

    level = "rlcard"

    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__(ruleset)
        self.agent = AGENT()

    def choose(self, view: View, rng: random.Random) -> Action:
        import numpy

        state = rlcard_state(view, "")  # the agent never reads the kitty's cards
        drawn = numpy.random.get_state()
        chosen = self.agent.step(state)
        numpy.random.set_state(drawn)
        if chosen != "pass" and answering(view):
            assert view.to_beat is not None
            if _kind(chosen) != _kind(text_of(view.to_beat.key)):
                chosen = "pass"  # drawn at random (not in kind): no model can say which
        return PASS if chosen == "pass" else self.table.play(chosen)


def _kind(text: str) -> str:
    """The type RLCard's agent reads a play as: it answers in kind."""
    return str(CARD_TYPE[0][text][0][0])


# --------------------------------------------------------------------------- games


@dataclass
class Tally:
    """One level's games against the agent."""

    level: str
    deals: int = 0
    games: int = 0
    wins: int = 0
    landlord_games: int = 0
    landlord_wins: int = 0
    peasant_games: int = 0
    peasant_wins: int = 0
    #: Per deal: our side's wins in its two games (0, 1 or 2).
    per_deal: list[int] = field(default_factory=list)
    decisions: int = 0
    agent_decisions: int = 0
    illegal: int = 0
    illegal_examples: list[str] = field(default_factory=list)
    mismatched: int = 0
    mismatched_examples: list[str] = field(default_factory=list)
    seconds: float = 0.0


def play_game(ruleset: Ruleset, seed: int, dealer: int, bot: Bot, ours_landlord: bool,
              tally: Tally, dealt: Deal | None = None) -> bool:
    """One game of the deal ``seed`` (or of ``dealt``, a deal set's, the games' random draws
    still seeded by ``seed``): our level as the landlord (``ours_landlord``) or as the
    peasants, the agent on the other side. True when our side wins."""
    import numpy

    hand = Hand.new(ruleset, seed, dealer=dealer) if dealt is None else Hand(ruleset, dealt)
    landlord = hand.landlord
    assert landlord is not None  # the rlcard preset has no auction
    kitty = text_of(hand.deal.kitty)
    rng = random.Random(seed ^ BOT_SALT)
    numpy.random.seed((seed ^ BOT_SALT) % 2**32)
    agent = AGENT()
    while hand.result is None:
        seat = hand.to_act
        assert seat is not None
        view = hand.view(seat)
        tally.decisions += 1
        if (seat == landlord) == ours_landlord:
            hand.apply(bot.choose(view, rng))
            continue
        tally.agent_decisions += 1
        state = rlcard_state(view, kitty_left(view, kitty))
        if answering(view):
            assert view.to_beat is not None
            ours = {"pass" if isinstance(a, str) else text_of(a.key) for a in view.legal}
            theirs = set(state["raw_obs"]["actions"])
            if ours != theirs:
                tally.mismatched += 1
                if len(tally.mismatched_examples) < 3:
                    tally.mismatched_examples.append(
                        f"seed {seed} seat {seat} hand {state['raw_obs']['current_hand']} "
                        f"against {text_of(view.to_beat.key)}: ours only "
                        f"{sorted(ours - theirs)[:3]}, RLCard only {sorted(theirs - ours)[:3]}")
        chosen = agent.step(state)
        try:
            if not isinstance(chosen, str):
                raise IllegalActionError(f"the agent chose {chosen!r}, not an action")
            hand.apply(our_action(str(chosen)))
        except IllegalActionError as exc:
            tally.illegal += 1
            if len(tally.illegal_examples) < 3:
                tally.illegal_examples.append(f"seed {seed} seat {seat}: {chosen!r}: {exc}")
            hand.apply(view.legal[0])
    won = hand.result.winner == ("landlord" if ours_landlord else "peasants")
    tally.games += 1
    tally.wins += won
    if ours_landlord:
        tally.landlord_games += 1
        tally.landlord_wins += won
    else:
        tally.peasant_games += 1
        tally.peasant_wins += won
    return won


#: How ``--model`` makes the model of the agent's seats (None: ``extreme``'s own).
MODELS: dict[str, type[Bot] | None] = {"medium": None, "standard": StandardBot,
                                       "rlcard": AgentModel}


def our_bot(ruleset: Ruleset, level: str, model: str = "medium", worlds: int | None = None,
            particles: int | None = None) -> tuple[Bot, str]:
    """Our bot of ``level`` and its name in the report: ``extreme`` with the agent's seats
    modelled by ``model``, searching ``worlds`` worlds of ``particles`` (None: its own
    sizes); any other level as it is."""
    if level != "extreme":
        return make_bot(level, ruleset), level
    made = MODELS[model]
    sizes = {} if particles is None else {"particles": particles, "draws": 4 * particles}
    bot = ExtremeBot(ruleset, worlds=worlds, opponents=None if made is None else made(ruleset),
                     **sizes)
    name = level + (f"~{model}" if made is not None else "")
    if worlds is not None or particles is not None:
        name += f"/{bot.worlds}w{bot.belief.particles}p"
    return bot, name


def run_level(ruleset: Ruleset, level: str, deals: int, seed: int, model: str = "medium",
              worlds: int | None = None, particles: int | None = None,
              dealt: Sequence[Deal] = ()) -> Tally:
    """Every deal played twice: our ``level`` as the landlord, then as the peasants; the
    deals of a deal set (``dealt``) where given, else seeded ones."""
    bot, name = our_bot(ruleset, level, model, worlds, particles)
    tally = Tally(name)
    start = time.perf_counter()
    for d in range(deals):
        deal = deal_seed(seed, d, 0)
        dealer = d % ruleset.players
        wins = sum(play_game(ruleset, deal, dealer, bot, ours_landlord, tally,
                             dealt[d] if dealt else None)
                   for ours_landlord in (True, False))
        tally.per_deal.append(wins)
        tally.deals += 1
    tally.seconds = time.perf_counter() - start
    return tally


# --------------------------------------------------------------------------- adapter check


def check_adapter(games: int) -> dict[str, Any]:
    """Play ``games`` of RLCard's own game (``DoudizhuGame``, three rule agents) and, at every
    decision, the same hand in our referee: the state :func:`rlcard_state` builds from our
    view must equal RLCard's own (its ``others_hand`` aside; ``actions`` compared in order
    when answering, as sets when leading, where RLCard keeps a set), and the agent must choose
    the same from both. Counts the decisions and the differences, with up to three examples."""
    import numpy
    from rlcard.games.doudizhu.game import DoudizhuGame

    ruleset = load(RULESET)
    agent = AGENT()
    decisions = differences = 0
    examples: list[str] = []
    for g in range(games):
        game = DoudizhuGame()
        game.np_random = numpy.random.RandomState(g)
        state, seat = game.init_game()
        kitty = cards.pack_ranks(cards.parse(game.round.seen_cards))
        dealt = [cards.pack_ranks(cards.parse(p.initial_hand)) for p in game.players]
        dealt[0] -= kitty  # RLCard's player 0 is the landlord, his initial hand holds the kitty
        hand = Hand(ruleset, Deal(tuple(dealt), kitty, 0, ruleset.players - 1, 0))
        while not game.is_over():
            view = hand.view(seat)
            ours = rlcard_state(view, kitty_left(view, text_of(kitty)))["raw_obs"]
            leading = not answering(view)
            differ = []
            for key, value in ours.items():
                theirs = list(state[key]) if key == "trace" else state[key]
                if key == "actions" and leading:
                    value, theirs = sorted(value), sorted(theirs)
                if value != theirs:
                    differ.append(key)
            numpy.random.seed(decisions % 2**32)
            chosen = agent.step({"raw_obs": state})
            numpy.random.seed(decisions % 2**32)
            if agent.step({"raw_obs": ours}) != chosen:
                differ.append("the agent's choice")
            decisions += 1
            if differ:
                differences += 1
                if len(examples) < 3:
                    examples.append(f"game {g}, decision {len(state['trace'])}: "
                                    f"{', '.join(differ)}")
            hand.apply(our_action(str(chosen)))
            state, seat = game.step(chosen)
        if hand.result is None:
            differences += 1
            examples.append(f"game {g}: RLCard's game is over, ours is not")
    return {"games": games, "decisions": decisions, "differences": differences,
            "examples": examples}


# --------------------------------------------------------------------------- report


def summary(tally: Tally) -> dict[str, Any]:
    """The rates of one level, each with its 95% interval."""
    duplicate = mean_interval([w / 2 for w in tally.per_deal], low=0, high=1)
    return {
        "level": tally.level, "deals": tally.deals, "games": tally.games,
        "win_rate": proportion_interval(tally.wins, tally.games).to_json(),
        "win_rate_duplicate": duplicate.to_json(),
        "as_landlord": proportion_interval(tally.landlord_wins, tally.landlord_games).to_json(),
        "as_peasants": proportion_interval(tally.peasant_wins, tally.peasant_games).to_json(),
        "hands_per_second": tally.games / tally.seconds if tally.seconds else None,
        "seconds": tally.seconds, "decisions": tally.decisions,
        "agent_decisions": tally.agent_decisions, "illegal": tally.illegal,
        "illegal_examples": tally.illegal_examples, "mismatched": tally.mismatched,
        "mismatched_examples": tally.mismatched_examples,
        # each deal's wins of our side (0, 1 or 2): two runs on the same deals pair by deal
        "per_deal": tally.per_deal,
    }


def pct(estimate: dict[str, Any]) -> str:
    e = Estimate(estimate["mean"], estimate["low"], estimate["high"], estimate["n"])
    return f"{100 * e.mean:5.1f}% [{100 * e.low:.1f}, {100 * e.high:.1f}]"


def report(meta: dict[str, Any], args: argparse.Namespace, rows: Sequence[dict[str, Any]],
           checked: dict[str, Any]) -> str:
    lines = [f"ddz-rules bots against RLCard {RLCARD_VERSION}'s rule agent (DouDizhuRuleAgentV1), "
             f"{meta['date']}: {args.deals} duplicate deals under the {RULESET} preset "
             + (f"(the deal set {args.deal_set}; draws seeded {args.seed})" if args.deal_set
                else f"(seed {args.seed})")
             + ", each played with our level as landlord and as peasants",
             machine_line(meta), "",
             "win rate: our side's wins over the 2D games, Wilson 95%; duplicate: the mean over "
             "deals of each deal's two games, normal 95%.",
             "as landlord, as peasants: D games each, Wilson 95%. hands/s: both sides' "
             "decisions, this process. illegal: agent choices our referee refused; mismatched: "
             "answers where RLCard's legal list differs from ours.", ""]
    width = max(9, *(len(row["level"]) for row in rows))
    header = (f"{'level':<{width}} {'games':>6}  {'win rate':<21} {'duplicate':<21} "
              f"{'as landlord':<21} {'as peasants':<21} {'hands/s':>8} {'illegal':>8} "
              f"{'mismatched':>10}")
    lines += [header, "-" * len(header)]
    for row in rows:
        lines.append(f"{row['level']:<{width}} {row['games']:>6}  {pct(row['win_rate']):<21} "
                     f"{pct(row['win_rate_duplicate']):<21} {pct(row['as_landlord']):<21} "
                     f"{pct(row['as_peasants']):<21} {row['hands_per_second']:>8.1f} "
                     f"{row['illegal']:>8} {row['mismatched']:>10}")
    for row in rows:
        for example in row["illegal_examples"] + row["mismatched_examples"]:
            lines.append(f"  {row['level']}: {example}")
    if checked["games"]:
        lines += ["", f"adapter check: {checked['games']} games of RLCard's own DoudizhuGame "
                      f"(three rule agents), {checked['decisions']:,} decisions: the state built "
                      f"from our view differs from RLCard's, or the agent chooses differently, "
                      f"at {checked['differences']}"]
        lines += [f"  {example}" for example in checked["examples"]]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int,
                        help=f"duplicate deals per level (default {DEFAULT_DEALS}, or every "
                             "deal of --deal-set)")
    parser.add_argument("--deal-set", metavar="FILE",
                        help="play this deal set's deals (ours, or DouZero's evaluation "
                             "pickle: ddz deals export) instead of seeded ones")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED,
                        help=f"run seed (default {DEFAULT_SEED})")
    parser.add_argument("--levels", default=",".join(DEFAULT_LEVELS),
                        help=f"our bot levels, comma-separated, of {', '.join(LEVELS)} "
                             f"(default {','.join(DEFAULT_LEVELS)})")
    parser.add_argument("--model", choices=sorted(MODELS), default="medium",
                        help="how extreme models the agent's seats (default medium: its own)")
    parser.add_argument("--worlds", type=int, help="extreme's worlds searched (default its own)")
    parser.add_argument("--particles", type=int,
                        help="extreme's belief's particles (default its own)")
    parser.add_argument("--check-games", type=int, default=100,
                        help="games of RLCard's own game in which the adapter's state is "
                             "compared with RLCard's at every decision (default 100; 0: none)")
    parser.add_argument("--json", metavar="FILE", help="also write every number to FILE")
    args = parser.parse_args(argv)
    ruleset = load(RULESET)
    dealt: tuple[Deal, ...] = ()
    if args.deal_set is not None:
        try:
            dealt = read_deals(args.deal_set, ruleset).deals
        except DdzError as exc:
            parser.error(str(exc))
    if args.deals is None:
        args.deals = len(dealt) if dealt else DEFAULT_DEALS
    elif dealt and args.deals > len(dealt):
        parser.error(f"--deals {args.deals}: {args.deal_set} holds {len(dealt)} deals")
    levels = [level.strip() for level in args.levels.split(",") if level.strip()]
    unknown = [level for level in levels if level not in LEVELS]
    if unknown or not levels or args.deals < 1:
        parser.error(f"--levels takes levels among {', '.join(LEVELS)}, --deals at least 1"
                     + (f"; unknown: {', '.join(unknown)}" if unknown else ""))
    if (args.worlds is not None and args.worlds < 1) or (
            args.particles is not None and args.particles < 1):
        parser.error("--worlds and --particles take a count of at least 1")
    if "extreme" not in levels and (args.model != "medium" or args.worlds is not None
                                    or args.particles is not None):
        parser.error("--model, --worlds and --particles set extreme: add it to --levels")
    particles = PARTICLES if args.particles is None else args.particles
    if args.worlds is not None and args.worlds > particles:
        parser.error(f"--worlds {args.worlds} is more than the {particles} particles the "
                     f"worlds are taken from: raise --particles")
    meta = machine()
    checked = check_adapter(args.check_games)
    start = time.perf_counter()
    rows = [summary(run_level(ruleset, level, args.deals, args.seed, args.model, args.worlds,
                              args.particles, dealt)) for level in levels]
    seconds = time.perf_counter() - start
    data = {"meta": {**meta, "rlcard": RLCARD_VERSION, "ruleset": RULESET,
                     "deals": args.deals, "deal_set": args.deal_set, "seed": args.seed,
                     "seconds": seconds,
                     "model": args.model, "worlds": args.worlds, "particles": args.particles},
            "levels": rows, "adapter_check": checked}
    publish(report(meta, args, rows, checked), data, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
