"""Play one hand with bots and reduce it to a trace: the facts every measure is computed from.

Hand ``index`` of a run seeded ``seed`` is dealt from :func:`deal_seed`; a ruleset that redeals
takes the next attempt's seed. Rulesets sharing a deck therefore see the same deals (a paired
comparison), and a hand's trace depends only on the ruleset, the bots, the seed and the index.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

from ddz_rules import cards
from ddz_rules.bots import BOT_PLAYERS, LEVELS, make_bot
from ddz_rules.bots.base import Bot
from ddz_rules.dealsets import deal_seed
from ddz_rules.errors import UsageError
from ddz_rules.game import Called, Deal, Hand, Passed, Phase, Played, Said
from ddz_rules.match import MAX_REDEALS, next_dealer
from ddz_rules.ruleset import Ruleset, load
from ddz_rules.solver import landlord_wins, of_hand

#: The open-hand value is judged at the first position of a hand whose hands hold at most
#: this many cards in all, every card open, within this budget (past it: unknown).
OPEN_CARDS = 20
OPEN_SECONDS = 1.0
OPEN_MEMORY_MB = 16
#: The whole deal, every card open, is judged as the play begins within this many positions
#: searched unless a run says otherwise (the same answer on any machine; past them: unknown)
#: and this table.
WHOLE_POSITIONS = 1_000_000
#: The most positions a run may give each whole deal (about ten minutes a deal).
MAX_WHOLE_POSITIONS = 1_000_000_000
WHOLE_MEMORY_MB = 64


@dataclass(frozen=True)
class Task:
    """One hand to play: enough to play it anywhere (a worker process, a Dask worker).

    Every seat bids with ``bots``; in the play, the landlord uses ``landlord_bot`` and the
    peasants ``peasant_bot`` where given (how the bot ladder pits one level against another
    on the same deals and the same auction). ``ruleset`` is a bundled id or an absolute path;
    ``digest``, where given, is the content digest the run was started with, and a worker
    whose ruleset no longer has it refuses to play (the file was edited during the run).
    """

    ruleset: str
    bots: str
    seed: int
    index: int
    landlord_bot: str | None = None
    peasant_bot: str | None = None
    digest: str | None = None
    #: Judge the hand's endgame with every card open (:func:`open_value`).
    open_hand: bool = False
    #: The deal to play (from a deal set), instead of the seeded one; a hand thrown in is
    #: dealt again from the seed, as without a deal set.
    deal: Deal | None = None
    #: Positions the whole deal's judgement may search (None: :data:`WHOLE_POSITIONS`).
    whole_positions: int | None = None

    @property
    def levels(self) -> tuple[str, ...]:
        """The bot levels this task plays with."""
        return tuple(lvl for lvl in (self.bots, self.landlord_bot, self.peasant_bot) if lvl)


def check_bots(ruleset: Ruleset, levels: tuple[str, ...] | list[str]) -> None:
    """Refuse unknown levels and player counts the bots do not play."""
    for level in levels:
        if level not in LEVELS:
            raise UsageError(f"unknown bot level '{level}'; expected one of "
                             f"{', '.join(LEVELS)}")
    if ruleset.players not in BOT_PLAYERS:
        raise UsageError(f"ruleset {ruleset.id} has {ruleset.players} players; the bots play "
                         f"{' or '.join(map(str, BOT_PLAYERS))}")


def prepare_bots(ruleset: Ruleset, levels: tuple[str, ...] | list[str]) -> None:
    """Let each level prepare what it needs for the ruleset (``medium`` fits or loads its
    outlook) once, in the parent, once every input is checked, rather than in every worker."""
    for level in levels:
        LEVELS[level].prepare(ruleset)


def ruleset_digest(ruleset: Ruleset) -> str:
    """A digest of everything a ruleset says (its merged document, prose included).

    Two loads of the same files give the same digest; any edit to the file or to a file it
    extends changes it.
    """
    text = json.dumps(ruleset.data, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


@cache
def loaded(reference: str, digest: str | None = None) -> Ruleset:
    """The ruleset a task names, loaded once per process; with ``digest``, refused when its
    content is no longer what the run was started with (the file was edited during it)."""
    ruleset = load(reference)
    if digest is not None and ruleset_digest(ruleset) != digest:
        raise UsageError(f"ruleset {reference} changed after the run started (its content "
                         "no longer matches); hands of two different rulesets are never mixed")
    return ruleset


@cache
def bot_for(reference: str, level: str, digest: str | None = None) -> Bot:
    """A bot of ``level`` for the ruleset a task names (one per process)."""
    return make_bot(level, loaded(reference, digest))


def play_task(task: Task) -> dict[str, Any]:
    """Play the hand ``task`` names (dealing again after a redeal) and return its trace."""
    ruleset = loaded(task.ruleset, task.digest)
    bidder = bot_for(task.ruleset, task.bots, task.digest)
    landlord_bot = bot_for(task.ruleset, task.landlord_bot or task.bots, task.digest)
    peasant_bot = bot_for(task.ruleset, task.peasant_bot or task.bots, task.digest)
    redeals = 0
    dealer = task.index % ruleset.players  # hand i is dealt by seat i, as in a match
    if task.deal is not None:
        dealer = task.deal.dealer
    while True:
        seed = deal_seed(task.seed, task.index, redeals)
        if task.deal is not None and redeals == 0:
            hand = Hand(ruleset, task.deal)
        else:
            hand = Hand.new(ruleset, seed, dealer=dealer)
        rng = random.Random(seed ^ 0xB075)
        judged: bool | None = None
        whole: bool | None = None
        bare: bool | None = None
        reached = begun = False
        while hand.result is None:
            seat = hand.to_act
            assert seat is not None
            if task.open_hand and not begun and hand.phase is Phase.PLAY:
                begun = True
                budget = task.whole_positions or WHOLE_POSITIONS
                whole = whole_value(hand, budget)
                bare = None if whole is None else bare_value(hand, budget)
            if (task.open_hand and not reached and hand.landlord is not None
                    and cards_left(hand) <= OPEN_CARDS):
                reached = True
                judged = open_value(hand)
            if hand.landlord is None:
                bot = bidder
            else:
                bot = landlord_bot if seat == hand.landlord else peasant_bot
            hand.apply(bot.choose(hand.view(seat), rng))
        if not hand.result.redeal or redeals == MAX_REDEALS - 1:
            break
        redeals += 1
        dealer = next_dealer(ruleset, dealer, thrown_in=True)  # match.rotation
    trace = trace_of(hand)
    trace.update(ruleset=ruleset.id, index=task.index, redeals=redeals, deal_seed=hand.deal.seed,
                 dealer=dealer)
    if task.open_hand:
        trace["open_value"] = None if judged is None else int(judged)
        trace["open_whole"] = None if whole is None else int(whole)
        if kitty_taken(hand):
            trace["open_whole_bare"] = None if bare is None else int(bare)
    return trace


def cards_left(hand: Hand) -> int:
    """Cards left in all the seats' hands."""
    return sum(cards.size(h) for h in hand.hands)


def open_value(hand: Hand) -> bool | None:
    """Whether the landlord's side wins from where ``hand`` stands with perfect play, every
    card open (:func:`ddz_rules.solver.landlord_wins`): the judgement of the position, not of
    the bots; None where it cannot be judged (the partner not known yet, past the budget)."""
    position = of_hand(hand)
    if position is None:
        return None
    return landlord_wins(position, OPEN_SECONDS, OPEN_MEMORY_MB)


def whole_value(hand: Hand, positions: int | None = None) -> bool | None:
    """Whether the landlord's side wins the whole deal as the play begins, every card open,
    with perfect play: the open-hand value of the deal itself (and of the auction's choice of
    landlord), within ``positions`` positions (default :data:`WHOLE_POSITIONS`); None where it
    is not answered within them (most three-seat deals: see ``benchmarks/README.md``, "Exact
    play") or cannot be judged (a partner not known yet)."""
    position = of_hand(hand)
    if position is None:
        return None
    return landlord_wins(position, None, WHOLE_MEMORY_MB, positions or WHOLE_POSITIONS)


def kitty_taken(hand: Hand) -> bool:
    """Whether the landlord of ``hand`` took a kitty of at least one card."""
    return hand.landlord is not None and cards.size(hand.deal.kitty) > 0


def bare_value(hand: Hand, positions: int | None = None) -> bool | None:
    """:func:`whole_value` of the same deal with the kitty's cards out of play (the landlord
    leads with the cards he was dealt): beside the whole deal's value, it says whether the
    kitty decided the deal. None where he took no kitty, or where it is not answered."""
    position = of_hand(hand)
    if position is None or not kitty_taken(hand):
        return None
    assert hand.landlord is not None
    hands = list(position.hands)
    hands[hand.landlord] -= hand.deal.kitty
    return landlord_wins(position.moved(tuple(hands), position.to_act, position.beat,
                                        position.beat_seat),
                         None, WHOLE_MEMORY_MB, positions or WHOLE_POSITIONS)


def play_batch(tasks: list[Task]) -> list[dict[str, Any]]:
    """Play several tasks (one unit of work for a process or a Dask worker)."""
    return [play_task(t) for t in tasks]


def trace_of(hand: Hand) -> dict[str, Any]:
    """The facts of a finished hand that the measures need."""
    result = hand.result
    assert result is not None
    ruleset = hand.ruleset
    auction = [op.word for op in hand.log if isinstance(op, Said)]
    trace: dict[str, Any] = {
        "players": ruleset.players,
        "first_bidder": hand.deal.first_bidder,
        "landlord": result.landlord,
        "partner": result.partner,
        "partner_call": _call_of(hand),
        "wild": "".join(cards.RANKS[r] for r in hand.deal.wild) or None,
        "wild_plays": _wild_plays(hand),
        "winner": result.winner,
        "bid": hand.bid,
        "robs": auction.count("rob"),
        "grabs": auction.count("grab"),
        "base": result.base,
        "multiplier": result.multiplier,
        "events": [e.name for e in result.events],
        "scores": list(result.scores),
    }
    if result.redeal:
        trace.update(decisions=0, tricks=0, lead_changes=0, decisive_at=None)
        return trace
    if result.first_out is not None:  # no landlord: every player for himself
        trace.update(first_out=result.first_out, cards_left=list(result.cards_left),
                     shut_out=list(result.shut_out), bombs_played=sum(
                         1 for op in hand.log if isinstance(op, Played)
                         and op.play.reading.level > 0))
        if ruleset.liability != "none":
            trace["liable"] = result.liable
    trace.update(_course(hand))
    return trace


def _wild_plays(hand: Hand) -> int | None:
    """How many plays held a wild card, where the ruleset has wild cards (laizi)."""
    wild = hand.deal.wild
    if not wild:
        return None
    return sum(1 for op in hand.log if isinstance(op, Played)
               and any(cards.unpack(op.play.key)[r] for r in wild))


def _call_of(hand: Hand) -> str | None:
    """The landlord's call for a partner (a rank, or "alone"), where the ruleset has one."""
    return next((op.named for op in hand.log if isinstance(op, Called)), None)


def _course(hand: Hand) -> dict[str, Any]:
    """Decisions, tricks, lead changes and decisiveness, from the play log.

    After each play, the side closer to its goal (fewest cards still to shed by its best-placed
    player; with no landlord, the seat holding fewest cards) leads; a tie leaves the lead where
    it was. ``decisive_at`` is the fraction of the
    plays made when the eventual winner took the lead for the last time (0: it led throughout).
    """
    ruleset, landlord = hand.ruleset, hand.landlord
    assert hand.result is not None
    n = ruleset.players
    left = [ruleset.hand_size] * n
    leader: Callable[[str | None], str | None]
    if landlord is None:  # every player for himself: the seat with fewest cards leads
        final: str | None = str(hand.result.first_out)

        def leader(current: str | None) -> str | None:
            fewest = min(left)
            ahead = [s for s in range(n) if left[s] == fewest]
            return str(ahead[0]) if len(ahead) == 1 else current
    else:
        final = hand.result.winner
        side = hand.landlord_side  # as the hand ended: a partner counts from the start
        left[landlord] += ruleset.kitty
        advantage = hand.advantage or 0
        goals = [0 if s == landlord else advantage for s in range(n)]

        def leader(current: str | None) -> str | None:
            mine = min(left[s] - goals[s] for s in side)
            theirs = min(left[s] - goals[s] for s in range(n) if s not in side)
            if mine == theirs:
                return current
            return "landlord" if mine < theirs else "peasants"

    decisions = tricks = changes = plays = passes = 0
    lead = leader(None)
    took_lead_at = 0
    for op in hand.log:
        if isinstance(op, Passed):
            decisions += 1
            passes += 1
        elif isinstance(op, Played):
            decisions += 1
            plays += 1
            if plays == 1 or passes >= n - 1:
                tricks += 1
            passes = 0
            left[op.seat] -= cards.size(op.play.key)
            now = leader(lead)
            if now != lead:
                changes += lead is not None
                lead = now
                took_lead_at = plays
    assert lead == final, "the side that reaches its goal leads at the end"
    return {"decisions": decisions, "tricks": tricks, "lead_changes": changes,
            "decisive_at": round(took_lead_at / plays, 4) if took_lead_at > 1 else 0.0}
