"""The worked scoring example of a ruleset page: a whole hand, computed by the engine.

Where a hand record in ``tests/fixtures/records`` is written for the ruleset (each is the worked
example of a source text), that record is replayed. Otherwise a hand is dealt the way
``ddz simulate --hands 1 --seed S`` deals it and played by random legal players, and the first
run seed whose hand shows what the ruleset has to show is taken (:func:`wants`): a multiplier
event; where a partner may join the landlord, a partner who joins; where the ruleset has wild
cards, a play holding one and a play of a type made only with wild cards (a soft bomb); where a
variant adds multiplier events to its base, one of them; and at least two events. Where no seed
of the first :data:`SEARCH` shows all of them, the last wish is dropped, and so on.

Where a partner may join, the page also shows, from another real hand, the landlord who ends
alone (:func:`alone_example`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ddz_rules import cards
from ddz_rules.docs import wild
from ddz_rules.docs.book import Book
from ddz_rules.docs.names import article, class_noun, join_words, type_name
from ddz_rules.docs.render import (
    JOKER_NAMES,
    TIMES,
    admonition,
    card_faces,
    code_html,
    plural,
    suited_face,
    table,
)
from ddz_rules.game import Called, Hand, Joined, Passed, Played, Said
from ddz_rules.records import read_record, replay, to_record
from ddz_rules.ruleset import Ruleset, inert_points
from ddz_rules.scoring import BonusPayment, Result, paid_when_played
from ddz_rules.simulate import hand_seed, play_random
from ddz_rules.wilds import wild_count

#: Run seeds tried when looking for a hand that shows what the page wants.
SEARCH = 200
RECORDS = Path("tests") / "fixtures" / "records"

#: What a hand should show, in words, with the test of a finished hand.
Want = tuple[str, Callable[[Hand], bool]]


@dataclass(frozen=True)
class WorkedExample:
    """A finished hand and how to reproduce it."""

    ruleset: Ruleset
    hand: Hand
    record: dict[str, Any]
    record_path: str | None = None
    run_seed: int | None = None
    #: What the hand was chosen to show (for a seeded hand), in words.
    shows: tuple[str, ...] = field(default=())

    @property
    def result(self) -> dict[str, Any]:
        assert self.hand.result is not None
        return self.hand.result.to_json()

    def commands(self) -> list[str]:
        """The ``ddz`` commands that reproduce this hand."""
        if self.record_path is not None:
            return [f"ddz replay {self.record_path}"]
        rid = self.ruleset.id
        return [f"ddz simulate -r {rid} --hands 1 --seed {self.run_seed} --records hands",
                f"ddz replay hands/{rid}-{self.run_seed}-000000.json"]


def record_for(root: Path, ruleset_id: str) -> Path | None:
    """The first fixture record written for ``ruleset_id``, if any."""
    folder = root / RECORDS
    if not folder.is_dir():
        return None
    for path in sorted(folder.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(data, dict) and data.get("ruleset") == ruleset_id:
            return path
    return None


def added_events(book: Book, ruleset: Ruleset) -> list[str]:
    """The multiplier events a variant's ``scoring.multipliers`` names and its base's does not."""
    if ruleset.base is None:
        return []
    base = book.ruleset(ruleset.base)
    return [name for name in ruleset.factors if name not in base.factors]


def wants(book: Book, ruleset: Ruleset) -> list[Want]:
    """What the worked example should show, the most wanted first."""
    if not ruleset.has_landlord:
        return alone_wants(ruleset)
    out: list[Want] = [("a multiplier event", lambda h: bool(_result(h).events))]
    if ruleset.partner_rule != "none":
        out.append(("a partner joining the landlord", lambda h: h.partner is not None))
    if ruleset.wild_drawn:
        out.append(("a play holding a wild card", lambda h: bool(wild_plays(h))))
        needing = [c.name for c in ruleset.combinations if c.needs_wilds]
        if needing:
            kinds = join_words([article(type_name(n, ruleset).lower()) for n in needing], "or")
            out.append((f"a play made only with wild cards ({kinds})",
                        lambda h: any(op.play.reading.type in needing for op in wild_plays(h))))
    if ruleset.dealt_bonus is not None and ruleset.dealt_bonus.form == "payment":
        out.append(("a dealt-hand bonus paid to its holder",
                    lambda h: bool(_result(h).payments)))
    added = added_events(book, ruleset)
    if added:
        names = join_words([f"`{name}`" for name in added], "or")
        out.append((f"an event this variant adds to {ruleset.base} ({names})",
                    lambda h: any(e.name in added for e in _result(h).events)))
    out.append(("at least two multiplier events", lambda h: len(_result(h).events) >= 2))
    return out


def alone_wants(ruleset: Ruleset) -> list[Want]:
    """What a hand without a landlord should show, by the rules that shape its settlement: a
    bomb paid, a player who pays for all, the lead card set aside, a player shut out."""
    out: list[Want] = []
    if ruleset.bomb_payments:
        out.append(("a bomb paid", lambda h: bool(_result(h).bombs_paid)))
    if "scoring.liability" not in inert_points(ruleset) and ruleset.liability != "none":
        out.append(("a player who pays for everyone (liability)",
                    lambda h: _result(h).liable is not None))
    if ruleset.lead_card_missing is not None and ruleset.undealt:
        out.append(("the lead card set aside, so that another card names the first leader",
                    lambda h: h.deal.lead_card != ruleset.lead_card))
    if ruleset.shut_out != 1:
        out.append(("a player shut out", lambda h: bool(_result(h).shut_out)))
    return out


def holds_wild(hand: Hand, op: Played) -> bool:
    """Whether a play holds a card of the hand's wild ranks."""
    return bool(hand.deal.wild) and wild_count(cards.unpack(op.play.key), hand.deal.wild) > 0


def wild_plays(hand: Hand) -> list[Played]:
    """The plays of a hand that hold a wild card, in order."""
    return [op for op in hand.log if isinstance(op, Played) and holds_wild(hand, op)]


def wild_play(hand: Hand, op: Played) -> wild.WildPlay:
    """A play of the hand as the rules book shows plays with wild cards."""
    table_ = hand.table
    readings = wild.named(table_.readings(op.play.key, hand.deal.wild))
    return wild.WildPlay(op.play.key, hand.deal.wild, op.play.reading, readings, table_)


def _result(hand: Hand) -> Result:
    assert hand.result is not None
    return hand.result


def _all_of(wished: list[Want]) -> Callable[[Hand], bool]:
    return lambda hand: all(test(hand) for _, test in wished)


class _Hands:
    """The first hand of each run seed, played once and kept."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        self.played: dict[int, Hand] = {}

    def __call__(self, seed: int) -> Hand:
        if seed not in self.played:
            self.played[seed] = play_random(self.ruleset, hand_seed(seed, 0), dealer=0)
        return self.played[seed]

    def first(self, test: Callable[[Hand], bool]) -> tuple[int, Hand] | None:
        """The first run seed whose hand is played out (not thrown in) and passes ``test``."""
        for seed in range(SEARCH):
            hand = self(seed)
            if not _result(hand).redeal and test(hand):
                return seed, hand
        return None


def seeded_hand(book: Book, ruleset: Ruleset) -> tuple[int, Hand, tuple[str, ...]]:
    """The first run seed whose hand shows everything :func:`wants` asks for, dropping the
    last wish while no seed shows them all; with what it shows."""
    hands = _Hands(ruleset)
    wished = wants(book, ruleset)
    for size in range(len(wished), -1, -1):
        now = wished[:size]
        found = hands.first(_all_of(now))
        if found is not None and (now or not wished):
            return (*found, tuple(words for words, _ in now))
    raise RuntimeError(f"no hand of {ruleset.id} in {SEARCH} seeds shows {wished[0][0]}")


def other_hands(book: Book, example: WorkedExample) -> list[tuple[str, int, Hand]]:
    """For a seeded hand without a landlord: each wish of :func:`wants` the worked example does
    not show, with the first run seed whose hand shows it (where one of the first
    :data:`SEARCH` does)."""
    if example.run_seed is None or example.ruleset.has_landlord:
        return []
    hands = _Hands(example.ruleset)
    out = []
    for words, test in wants(book, example.ruleset):
        if words in example.shows:
            continue
        found = hands.first(test)
        if found is not None:
            out.append((words, *found))
    return out


def alone_example(ruleset: Ruleset) -> tuple[int, Hand] | None:
    """Where a partner may join the landlord: the first run seed whose hand ends with the
    landlord alone (he declared it, or nobody else played the rank he called)."""
    if ruleset.partner_rule == "none":
        return None
    return _Hands(ruleset).first(lambda h: h.partner is None)


def worked_example(book: Book, ruleset_id: str) -> WorkedExample:
    """The worked example shown on a ruleset's page."""
    ruleset = book.ruleset(ruleset_id)
    path = record_for(book.root, ruleset_id)
    if path is not None:
        record = read_record(str(path))
        outcome = replay(record, str(path))
        if not outcome.valid:
            raise RuntimeError(f"{path}: {outcome.reason}")
        return WorkedExample(ruleset, outcome.hand, record,
                             record_path=path.relative_to(book.root).as_posix())
    seed, hand, shows = seeded_hand(book, ruleset)
    return WorkedExample(ruleset, hand, to_record(hand), run_seed=seed, shows=shows)


# --------------------------------------------------------------------------- Markdown


def seat_name(seat: int, landlord: int | None, partner: int | None = None) -> str:
    """A seat with its role at the end of the hand: landlord, partner or peasant."""
    if landlord is None:
        return f"seat {seat}"
    role = "landlord" if seat == landlord else "partner" if seat == partner else "peasant"
    return f"seat {seat} ({role})"


def seats_text(seats: list[int]) -> str:
    """``seat 1``, ``seat 1 and seat 3``."""
    return join_words([f"seat {s}" for s in seats])


def score_text(scores: list[int]) -> str:
    return "; ".join(f"seat {i} {s:+d}" for i, s in enumerate(scores))


def rank_faces(rank: int) -> str:
    """A called rank as a card face, with the joker's name where it is one."""
    text = cards.RANKS[rank]
    name = f" ({JOKER_NAMES[text]})" if text in JOKER_NAMES else ""
    return card_faces(text) + name


#: What a seat was dealt for each dealt-hand bonus (``scoring.dealt_bonus``), in the words of
#: the rulesets that name them; another event of a seat is "seat N's dealt hand".
DEALT = {"double_joker": "was dealt both jokers",
         "full_straight": "was dealt one card of every rank from 3 to the ace"}


def event_text(event: dict[str, Any], ruleset: Ruleset, hand: Hand) -> str:
    """A multiplier event: its name and factor, then who caused it, and, where the play's kind
    is not named by the event (a bomb of five is the event ``bomb``), what kind it was."""
    where = ""
    if "cards" in event:
        played = str(event["cards"])
        where = f" (seat {event['seat']} plays {card_faces(played)}"
        declared = [op.play.reading for op in hand.log if isinstance(op, Played)
                    and op.seat == event["seat"] and op.play.cards == played
                    and next(c.event for c in ruleset.combinations
                             if c.name == op.play.reading.type) == event["event"]]
        kinds = ({ruleset.class_of[declared[0].type]} if declared else
                 {ruleset.class_of[r.type] for r in hand.table.classify(played)})
        nouns = [class_noun(k, ruleset=ruleset) for k in sorted(kinds)]
        if nouns and all(n.replace(" ", "_") != event["event"] for n in nouns):
            where += ", " + join_words([article(n) for n in nouns], "or")
        where += ")"
    elif "seat" in event:
        dealt = DEALT.get(str(event["event"]))
        where = (f" (seat {event['seat']} {dealt})" if dealt
                 else f" (seat {event['seat']}'s dealt hand)")
    return f"{code_html(str(event['event']))} {TIMES}{event['factor']}{where}"


@dataclass(frozen=True)
class Teams:
    """How the landlord's side formed in a hand: the call and the join."""

    called: int | None  # the rank called; None: no call (no partner rule, or alone)
    declared_alone: bool
    partner: int | None
    #: The number of the play-table row (plays and passes, from 1) whose play joined him.
    joined_at: int | None
    joining_play: str | None


def teams_of(hand: Hand) -> Teams:
    called: int | None = None
    alone = False
    joined_at: int | None = None
    joining: str | None = None
    row = 0
    last_play = ""
    for op in hand.log:
        if isinstance(op, Called):
            called, alone = op.rank, op.rank is None
        elif isinstance(op, Played | Passed):
            row += 1
            last_play = op.play.cards if isinstance(op, Played) else ""
        elif isinstance(op, Joined):
            joined_at, joining = row, last_play
    return Teams(called, alone, hand.partner, joined_at, joining)


def render(example: WorkedExample, alone: tuple[int, Hand] | None = None,
           others: list[tuple[str, int, Hand]] | None = None) -> str:
    """The worked example as Markdown: deal, auction, the partner call, play, join,
    settlement; and, where given, a hand in which the landlord ended alone. Without a
    landlord (:func:`render_alone`), ``others`` are the hands of :func:`other_hands`."""
    if not example.ruleset.has_landlord:
        return render_alone(example, others or [])
    hand, result, ruleset = example.hand, example.result, example.ruleset
    landlord = result["landlord"]
    teams = teams_of(hand)
    out: list[str] = []
    if example.record_path is not None:
        out.append(f"This is the worked example of the source text, written as a hand record "
                   f"(`{example.record_path}`) and replayed here by the engine, action by "
                   f"action.")
    else:
        shows = list(example.shows)
        if "at least two multiplier events" in shows:
            shows.remove("a multiplier event")
        out.append(f"A hand dealt from run seed {example.run_seed} and played to the end by "
                   f"random legal players, exactly as `ddz simulate` plays it; it is the first "
                   f"run seed whose hand shows {join_words(shows)}. Every number below is "
                   f"the engine's.")
    out.append("```console\n" + "\n".join(f"$ {c}" for c in example.commands()) + "\n```")
    out.append(_deal(example, teams))
    out.append(_auction(hand, landlord))
    if ruleset.partner_rule != "none" and landlord is not None:
        out.append(_call(landlord, teams))
    out.append(_plays(hand, landlord, teams))
    if teams.called is not None:
        out.append(_join(hand, landlord, teams))
    out.append(_settlement(ruleset, hand, result, teams))
    if alone is not None:
        out.append(_alone(ruleset, *alone))
    return "\n\n".join(out)


def _deal(example: WorkedExample, teams: Teams) -> str:
    d = example.hand.deal
    landlord = example.hand.landlord
    rows = [[seat_name(seat, landlord, teams.partner), card_faces(cards.key_text(key))]
            for seat, key in enumerate(d.hands)]
    if example.hand.ruleset.kitty:
        rows.append(["kitty", card_faces(cards.key_text(d.kitty))])
    if d.undealt:
        rows.append(["never dealt", card_faces(cards.key_text(d.undealt))])
    notes = [f"Seat {d.dealer} deals and seat {d.first_bidder} "
             + ("is named the landlord" if no_auction(example.hand) else "bids first")]
    if d.marked_card is not None:
        notes.append(f"the marked card is a {card_faces(cards.RANKS[d.marked_card])}")
    if d.turned_card is not None:
        notes.append(f"the turned card is a {card_faces(cards.RANKS[d.turned_card])}")
    roles = ("; each seat is shown with the role it had when the hand ended"
             if teams.partner is not None else "")
    return ("**The deal.** " + "; ".join(notes) + roles + "." + _wild_draws(example.hand)
            + "\n\n" + table(["Seat", "Cards dealt"], rows))


def _wild_draws(hand: Hand) -> str:
    """The hand's wild ranks, each with when it was drawn (``wild.drawn``), and how many wild
    cards each seat held once the landlord had taken the kitty."""
    ruleset, d = hand.ruleset, hand.deal
    if not d.wild:
        return ""
    draws = [f"{card_faces(cards.RANKS[rank])} (drawn {wild.when_text(ruleset, when)})"
             for rank, when in zip(d.wild, ruleset.wild_drawn, strict=True)]
    text = (f" The wild rank{'s are' if len(draws) > 1 else ' is'} {join_words(draws)}: "
            f"every card of {'those ranks' if len(draws) > 1 else 'that rank'} is wild "
            f"from then on.")
    if hand.landlord is None:
        return text
    held = []
    for seat, key in enumerate(d.hands):
        if seat == hand.landlord:
            key += d.kitty
        held.append(f"seat {seat} holds {wild_count(cards.unpack(key), d.wild)}")
    never = wild_count(cards.unpack(d.undealt), d.wild)
    return (text + " Once the landlord has taken the kitty, "
            + join_words(held) + " of them" + (f", and {never} are never dealt" if never else "")
            + ".")


#: Auction words as prose; a number is a bid.
WORDS = {"pass": "passes", "call": "calls", "no-call": "does not call", "rob": "robs",
         "no-rob": "does not rob", "grab": "grabs", "no-grab": "does not grab"}


def said(word: str, bids: tuple[int, ...] = ()) -> str:
    """An auction word as prose: ``2`` is ``bids 2``; where 1 is the only bid, ``calls``."""
    if word.isdigit():
        return "calls (a bid of 1)" if bids == (1,) and word == "1" else f"bids {word}"
    return WORDS.get(word, word)


def no_auction(hand: Hand) -> bool:
    """Whether the hand had no auction (``auction.family: none``): a landlord, no word said."""
    return hand.landlord is not None and not hand.auction.history


def _auction(hand: Hand, landlord: int | None) -> str:
    held = hand.ruleset.hand_size + hand.ruleset.kitty
    taken = card_faces(cards.key_text(hand.deal.kitty))
    if no_auction(hand):
        text = (f"**No auction.** Nobody bids: the deal names seat {landlord} the landlord, at "
                f"the fixed bid of {hand.bid}.")
        if not hand.ruleset.kitty:
            return text + (f" There is no kitty, so he plays the {plural(held, 'card')} he "
                           f"was dealt.")
        return text + f" He takes the kitty {taken} and so holds {plural(held, 'card')}."
    words = [f"seat {op.seat} {said(op.word, hand.ruleset.bids)}" for op in hand.log
             if isinstance(op, Said)]
    text = "**The auction.** " + ", ".join(words) + "."
    if landlord is None:
        return text + " Nobody took the hand."
    if not hand.ruleset.kitty:
        return text + (f" Seat {landlord} is the landlord; there is no kitty, so he plays the "
                       f"{plural(held, 'card')} he was dealt.")
    return text + (f" Seat {landlord} is the landlord, takes the kitty {taken} and so "
                   f"holds {plural(held, 'card')}.")


def _call(landlord: int, teams: Teams) -> str:
    if teams.called is None:
        return (f"**The partner call.** Having taken the kitty, seat {landlord} declares that "
                f"he plays alone: nobody can join him, and he plays against the three others.")
    return (f"**The partner call.** Having taken the kitty, seat {landlord} calls the rank "
            f"{rank_faces(teams.called)}: the first other player to play a card of that rank "
            f"will join him as his partner.")


def _plays(hand: Hand, landlord: int | None, teams: Teams) -> str:
    rows: list[list[str]] = []
    for op in hand.log:
        if isinstance(op, Played):
            action = f"{card_faces(op.play.cards)} as {code_html(op.play.reading.short())}"
            if holds_wild(hand, op):
                action += f" ({wild.wild_roles(hand.ruleset, wild_play(hand, op))})"
            paid = dict(hand.ruleset.bomb_payments).get(hand.ruleset.class_of[op.play.reading.type])
            if paid is not None and not hand.ruleset.has_landlord:
                action += (f"; each other player pays him {paid} at once"
                           if paid_when_played(hand.ruleset) else
                           f"; each other player pays him {paid} if it wins its trick")
            rows.append([str(len(rows) + 1), seat_name(op.seat, landlord, teams.partner),
                         action])
        elif isinstance(op, Passed):
            rows.append([str(len(rows) + 1), seat_name(op.seat, landlord, teams.partner),
                         "pass"])
        elif isinstance(op, Joined) and rows and teams.called is not None:
            rows[-1][1] = f"seat {op.seat} (joins the landlord here)"
            rows[-1][2] += (f"; it holds the called {rank_faces(teams.called)}, so seat "
                            f"{op.seat} becomes the landlord's partner")
    played = sum(1 for r in rows if r[2] != "pass")
    body = table(["#", "Seat", "Action"], rows)
    shown = admonition("example", f"The play: {plural(played, 'play')} and "
                       f"{plural(len(rows) - played, 'pass')}", body, collapsible=True)
    with_wilds = wild_plays(hand)
    if not hand.deal.wild:
        return shown
    if not with_wilds:
        return shown + "\nNo play of this hand holds a wild card."
    named = [f"`{hand.table.notation(op.play, hand.deal.wild)}`" for op in with_wilds]
    one = len(with_wilds) == 1
    return (shown + f"\n{len(with_wilds)} of the {plural(played, 'play')} "
            f"{'holds' if one else 'hold'} a wild card. {'It was' if one else 'Each was'} played "
            f"as the reading its player named, and the hand record keeps "
            f"{'it' if one else 'them'} so: {join_words(named)}.")


def _join(hand: Hand, landlord: int | None, teams: Teams) -> str:
    assert teams.called is not None
    rank = rank_faces(teams.called)
    players = hand.ruleset.players
    if teams.partner is None or teams.joined_at is None or teams.joining_play is None:
        return (f"**Nobody joins.** No other seat played a card of the called rank {rank} "
                f"before the hand ended, so the landlord played alone against all "
                f"{plural(players - 1, 'other', spell=True)}.")
    peasants = [s for s in range(players) if s not in (landlord, teams.partner)]
    return (f"**The join.** At action {teams.joined_at} of the play, seat {teams.partner} plays "
            f"{card_faces(teams.joining_play)}, the first card of the called rank {rank} "
            f"played by a seat other than the landlord, and so joins the landlord as his "
            f"partner. From that play on the sides are seat {landlord} (landlord) and seat "
            f"{teams.partner} (partner) against {seats_text(peasants)} (peasants).")


def _sides(players: int, side: list[int]) -> str:
    peasants = [s for s in range(players) if s not in side]
    ours = f"seat {side[0]} (landlord)"
    if len(side) > 1:
        ours += f" and seat {side[1]} (partner)"
    elif players > 2:
        ours += " alone"
    return (f"{ours} against {seats_text(peasants)} "
            f"({'peasant' if len(peasants) == 1 else 'peasants'})")


def _partner_row(teams: Teams) -> str:
    if teams.partner is not None:
        return (f"seat {teams.partner}, who joined at action {teams.joined_at} by playing the "
                f"called {rank_faces(teams.called)}" if teams.called is not None
                else f"seat {teams.partner}")
    if teams.declared_alone:
        return "none: the landlord declared that he plays alone"
    if teams.called is not None:
        return f"none: nobody else played the called {rank_faces(teams.called)}"
    return "none"


def stake_scores(result: dict[str, Any], players: int) -> list[int]:
    """A result's scores without its dealt-hand bonus payments (``bonuses``): what the stake
    alone settled. Each payment is paid to its holder by every other seat."""
    scores = list(result["scores"])
    for paid in result.get("bonuses", ()):
        amount = paid["from_each_other_seat"]
        for seat in range(players):
            scores[seat] -= amount * (players - 1) if seat == paid["seat"] else -amount
    return scores


def bonus_text(paid: dict[str, Any]) -> str:
    """A dealt-hand bonus paid as points: who was dealt what, and what each other seat pays."""
    dealt = DEALT.get(str(paid["bonus"]), "was dealt a bonus hand")
    return (f"{code_html(str(paid['bonus']))}: seat {paid['seat']} {dealt}, and is paid "
            f"{paid['from_each_other_seat']} by each other seat")


def side_prose(ruleset: Ruleset, result: dict[str, Any], stake: int) -> str:
    """How the stake was settled by side, in words, checked against the engine's scores
    (without the dealt-hand bonuses paid beside the stake)."""
    scores = stake_scores(result, ruleset.players)
    side = [result["landlord"]] + ([result["partner"]] if result.get("partner") is not None
                                    else [])
    peasants = [s for s in range(ruleset.players) if s not in side]
    won = result["winner"] == "landlord"
    sign = 1 if won else -1
    total = stake * len(peasants)
    share = total // len(side)
    if ({scores[s] for s in peasants} != {-sign * stake}
            or {scores[s] for s in side} != {sign * share}):
        raise RuntimeError(f"{ruleset.id}: the scores {scores} are not the settlement by side")
    verb = "loses" if won else "wins"
    one = len(peasants) == 1
    who = "The peasant" if one else f"Each of the {plural(len(peasants), 'peasant', spell=True)}"
    they = "the peasant" if one else "they"
    teams = ruleset.partner_rule != "none"
    ours = "the landlord's side" if teams else "the landlord"
    winners = ours if won else ("the peasant" if one else "the peasants")
    flow = (f"wins what {they} {'pays' if one else 'pay'}" if won
            else f"pays {'him' if one else 'them'}")
    text = (f"{winners[:1].upper()}{winners[1:]} won. {who} {verb} S and scores "
            f"{-sign * stake:+d}; {ours} {flow}, {len(peasants)} {TIMES} {stake} = {total}")
    if len(side) > 1:
        text += (f", shared equally between the landlord and his partner: "
                 f"{sign * share:+d} each.")
    elif teams:
        text += f", which the landlord, alone on his side, scores: {sign * total:+d}."
    else:
        text += f", so he scores {sign * total:+d}."
    return text


def _settlement(ruleset: Ruleset, hand: Hand, result: dict[str, Any], teams: Teams) -> str:
    events = result["events"]
    raw = result["base"] * result["multiplier"]
    stake = raw if ruleset.cap is None else min(raw, ruleset.cap)
    stake_text = (str(stake) if stake == raw
                  else f"{stake} (capped: base {TIMES} multiplier is {raw})")
    side = [result["landlord"]] + ([result["partner"]] if result.get("partner") is not None
                                    else [])
    rows = [["Landlord", f"seat {result['landlord']}"]]
    if ruleset.partner_rule != "none":
        rows.append(["Partner", _partner_row(teams)])
    rows += [
        ["Sides", _sides(ruleset.players, side)],
        ["Winner", str(result["winner"])],
        ["Base", str(result["base"])],
        ["Multiplier events",
         "<br>".join(event_text(e, ruleset, hand) for e in events) if events else "none"],
        ["Multiplier", str(result["multiplier"])],
        [f"Stake S = base {TIMES} multiplier", stake_text],
    ]
    bonuses = list(result.get("bonuses", ()))
    if bonuses:
        rows.append(["Dealt-hand bonuses (beside the stake)",
                     "<br>".join(bonus_text(b) for b in bonuses)])
    rows.append(["Scores", score_text(list(result["scores"]))])
    factors = f" {TIMES} ".join(str(e["factor"]) for e in events)
    product = (f"the product of the events' factors ({factors})" if len(events) > 1
               else "its one event's factor" if events else "1, with no event")
    prose = (f"The multiplier is {product}, so S = {result['base']} {TIMES} "
             f"{result['multiplier']} = "
             f"{raw}{'' if stake == raw else f', capped at {stake}'}. "
             + side_prose(ruleset, result, stake))
    if bonuses:
        prose += (" Then each dealt-hand bonus is paid to its holder: "
                  + "; ".join(bonus_text(b) for b in bonuses)
                  + f". The scores: {score_text(list(result['scores']))}.")
    prose += " The scores sum to zero."
    return "**The settlement.**\n\n" + table(["Result", "Value"], rows) + "\n\n" + prose


def _alone(ruleset: Ruleset, seed: int, hand: Hand) -> str:
    """A second, shorter hand: the landlord who ends alone, and what that does to the scores."""
    assert hand.result is not None and hand.landlord is not None
    result: dict[str, Any] = hand.result.to_json()
    teams = teams_of(hand)
    landlord = hand.landlord
    how = ("declared that he plays alone" if teams.declared_alone else
           f"called {rank_faces(teams.called)}, but no other seat played a card of that rank "
           f"before the hand ended" if teams.called is not None else "played alone")
    raw = result["base"] * result["multiplier"]
    stake = raw if ruleset.cap is None else min(raw, ruleset.cap)
    peasants = ruleset.players - 1
    return (f"**When the landlord stays alone.** Not every hand finds a partner. In the hand "
            f"of run seed {seed} (`ddz simulate -r {ruleset.id} --hands 1 --seed {seed}`), "
            f"seat {landlord} became the landlord and {how}, so he played alone against "
            f"{plural(peasants, 'peasant', spell=True)}, and S = {result['base']} {TIMES} "
            f"{result['multiplier']} = {stake}. " + side_prose(ruleset, result, stake)
            + f" Alone, the landlord settles {peasants}S; the scores: "
            f"{score_text(list(result['scores']))}.")


# --------------------------------------------------------------------------- no landlord


def suited_cards(held: tuple[str, ...] | list[str]) -> str:
    """Suited cards as a player reads them, lowest first: ``3♠ 3♥ 10♦``."""
    return " ".join(suited_face(card) for card in held)


def lead_text(ruleset: Ruleset, hand: Hand) -> str:
    """Who leads the first trick and why: the holder of the lead card, or, where it was not
    dealt, of the card that stands for it."""
    d = hand.deal
    card = d.lead_card
    assert card is not None
    named = f"{cards.suited_name(card)} ({suited_face(card)})"
    text = f"seat {d.first_bidder} holds the {named} and leads the first trick"
    if ruleset.lead_card is not None and card != ruleset.lead_card:
        text = (f"the {cards.suited_name(ruleset.lead_card)} is among the cards set aside, so "
                f"the lowest card dealt names the first leader: seat {d.first_bidder} holds the "
                f"{named} and leads the first trick")
    if ruleset.first_play_holds_lead_card:
        text += ", with a play that holds it"
    return text


def render_alone(example: WorkedExample, others: list[tuple[str, int, Hand]]) -> str:
    """The worked example of a ruleset without a landlord: the suited deal and the lead card,
    the play, who went out first, the cards left, shut-outs, bombs paid and the scores; then,
    in a line each, other hands that show what this one does not."""
    hand, ruleset = example.hand, example.ruleset
    result = _result(hand)
    out = [f"A hand dealt from run seed {example.run_seed} and played to the end by random "
           f"legal players, exactly as `ddz simulate` plays it; it is the first run seed whose "
           f"hand shows {join_words(list(example.shows))}. Every number below is the engine's."
           if example.shows else
           f"A hand dealt from run seed {example.run_seed} and played to the end by random "
           f"legal players, exactly as `ddz simulate` plays it. Every number below is the "
           f"engine's."]
    if example.record_path is not None:
        out[0] = (f"This is the worked example of the source text, written as a hand record "
                  f"(`{example.record_path}`) and replayed here by the engine, action by "
                  f"action.")
    out.append("```console\n" + "\n".join(f"$ {c}" for c in example.commands()) + "\n```")
    d = hand.deal
    rows = [[f"seat {seat}", card_faces(cards.key_text(key)),
             suited_cards(d.suited[seat]) if d.suited else "no suits"]
            for seat, key in enumerate(d.hands)]
    rest = cards.key_text(d.kitty + d.undealt)
    if rest:
        rows.append(["set aside", card_faces(rest),
                     suited_cards(d.suited_rest) if d.suited_rest else "no suits"])
    out.append(f"**The deal.** Seat {d.dealer} deals; there is no landlord and no auction, and "
               f"each player plays for himself. {lead_text(ruleset, hand)[:1].upper()}"
               f"{lead_text(ruleset, hand)[1:]}.\n\n"
               + table(["Seat", "Cards dealt", "With their suits"], rows))
    out.append(_plays(hand, None, Teams(None, False, None, None, None)))
    out.append(alone_settlement(ruleset, hand, result))
    for words, seed, other in others:
        out.append(other_hand_text(ruleset, words, seed, other))
    return "\n\n".join(out)


def owed_text(ruleset: Ruleset, result: Result, seat: int) -> str:
    """What a losing seat owes for its cards, as the settlement reckons it."""
    left = result.cards_left[seat]
    if left == 1 and ruleset.last_card_free:
        return "1 card, his last, which is free (scoring.last_card_free) = 0"
    text = f"{plural(left, 'card')} {TIMES} {ruleset.per_card}"
    if seat in result.shut_out:
        text += f" {TIMES} {ruleset.shut_out} (shut out)"
    due = left * ruleset.per_card * (ruleset.shut_out if seat in result.shut_out else 1)
    if ruleset.cap is not None and due > ruleset.cap:
        return f"{text} = {due}, capped at {ruleset.cap}"
    return f"{text} = {due}"


def owed(ruleset: Ruleset, result: Result, seat: int) -> int:
    if result.cards_left[seat] == 1 and ruleset.last_card_free:
        return 0
    due = result.cards_left[seat] * ruleset.per_card * (
        ruleset.shut_out if seat in result.shut_out else 1)
    return due if ruleset.cap is None else min(due, ruleset.cap)


def bomb_paid_text(ruleset: Ruleset, paid: BonusPayment) -> str:
    return (f"seat {paid.seat}'s {class_noun(paid.name, ruleset=ruleset)}: "
            f"{paid.amount} from each other player")


def alone_settlement(ruleset: Ruleset, hand: Hand, result: Result) -> str:
    """The settlement of a hand without a landlord, as a table and in words, checked against
    the engine's scores."""
    winner = result.first_out
    assert winner is not None
    losers = [s for s in range(ruleset.players) if s != winner]
    rows = [["First out", f"seat {winner}"],
            ["Winner", str(result.winner)],
            ["Cards left", "; ".join(f"seat {s} {n}" for s, n in enumerate(result.cards_left))],
            ["Shut out", seats_text(list(result.shut_out)) if result.shut_out else "nobody"]]
    if "scoring.liability" not in inert_points(ruleset) and ruleset.liability != "none":
        rows.append(["Pays for everyone (liability)",
                     f"seat {result.liable}" if result.liable is not None else "nobody"])
    rows.append(["Bombs paid",
                 "<br>".join(bomb_paid_text(ruleset, p) for p in result.bombs_paid)
                 if result.bombs_paid else "none"])
    rows.append(["Scores", score_text(list(result.scores))])
    total = sum(owed(ruleset, result, s) for s in losers)
    parts = [f"Seat {winner} went out first and wins the hand."]
    parts.append("Each other player owes him for the cards he still holds: "
                 + "; ".join(f"seat {s}, {owed_text(ruleset, result, s)}" for s in losers)
                 + f"; {total} in all.")
    if result.liable is not None:
        parts.append(f"But seat {result.liable} let seat {winner} out: while seat {winner} "
                     f"held one card, seat {result.liable} played a single below his highest "
                     f"rank, and seat {winner} went out by beating it"
                     + (", where his highest single would have held him"
                        if ruleset.liable_if == "highest_would_hold" else "")
                     + f". So seat {result.liable} pays all {total} and the other pays nothing.")
    scores = [0] * ruleset.players
    scores[winner] = total
    for seat in losers:
        due = owed(ruleset, result, seat)
        scores[seat] = (-total if seat == result.liable else 0) if result.liable is not None \
            else -due
    if result.bombs_paid:
        parts.append(("Each bomb was paid the moment it was played, whatever happened next: "
                      if paid_when_played(ruleset) else "Each bomb that won its trick was paid: ")
                     + "; ".join(bomb_paid_text(ruleset, p) for p in result.bombs_paid) + ".")
        for paid in result.bombs_paid:
            for seat in range(ruleset.players):
                scores[seat] += (paid.amount * (ruleset.players - 1) if seat == paid.seat
                                 else -paid.amount)
    if tuple(scores) != result.scores:
        raise RuntimeError(f"{ruleset.id}: the scores {list(result.scores)} are not the "
                           f"settlement by cards left {scores}")
    parts.append(f"The scores: {score_text(scores)}. They sum to zero.")
    return ("**The settlement.**\n\n" + table(["Result", "Value"], rows) + "\n\n"
            + " ".join(parts))


def other_hand_text(ruleset: Ruleset, words: str, seed: int, hand: Hand) -> str:
    """A line on another hand that shows what the worked example does not."""
    result = _result(hand)
    command = f"`ddz simulate -r {ruleset.id} --hands 1 --seed {seed}`"
    text = (f"**Another hand: {words}.** In the hand of run seed {seed} ({command}), seat "
            f"{result.first_out} went out first")
    if result.shut_out:
        shut = list(result.shut_out)
        text += (f"; {seats_text(shut)} never played a card and so "
                 f"{'was' if len(shut) == 1 else 'were'} shut out, paying "
                 + join_words([owed_text(ruleset, result, s) for s in shut]))
    if result.liable is not None:
        text += (f"; seat {result.liable} had let him out with a low single, and paid for "
                 f"everyone")
    if result.bombs_paid:
        text += "; " + "; ".join(bomb_paid_text(ruleset, p) for p in result.bombs_paid)
    if hand.deal.lead_card != ruleset.lead_card:
        text += f"; {lead_text(ruleset, hand)}"
    return text + f". The scores: {score_text(list(result.scores))}."
