"""Every measure of a comparison, defined on one hand's trace.

Each measure is a function of a trace (see :mod:`ddz_rules.compare.runner`) returning a number
per hand, or None where it does not apply; a ruleset's value is the mean over its hands, with
a 95% interval. ``MEASURES`` is the single list the report, the docs and the tests use.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from ddz_rules.compare.runner import OPEN_CARDS, WHOLE_POSITIONS
from ddz_rules.compare.stats import interval_name
from ddz_rules.match import MAX_REDEALS

Trace = dict[str, Any]


@dataclass(frozen=True)
class Measure:
    """A named per-hand quantity, its definition, and the range its values can take.

    A proportion is 0 or 1 per hand (Wilson's interval); otherwise ``low`` and ``high`` bound
    a hand's value where it is bounded, and its interval stays inside them
    (:func:`ddz_rules.compare.stats.mean_interval`).
    """

    key: str
    label: str
    definition: str
    of: Callable[[Trace], float | None]
    proportion: bool = False
    low: float | None = None
    high: float | None = None

    @property
    def interval(self) -> str:
        """The name of the interval a ruleset's value of this measure is given with."""
        return "wilson" if self.proportion else interval_name(self.low, self.high)


def _landlord_won(t: Trace) -> float:
    return float(t["winner"] == "landlord")


def _landlord_side(t: Trace) -> tuple[int, ...]:
    """The landlord, and the seat that joined him where one did (``teams.partner``)."""
    partner = t.get("partner")
    return (t["landlord"],) if partner is None else (t["landlord"], partner)


def _landlord_score(t: Trace) -> float:
    return float(t["scores"][t["landlord"]])


def _peasant_score(t: Trace) -> float:
    scores: list[int] = t["scores"]
    side = _landlord_side(t)
    peasants = [s for s in range(len(scores)) if s not in side]
    return float(sum(scores[s] for s in peasants)) / len(peasants)


def _partnered(t: Trace) -> float | None:
    if t.get("partner_call") is None:
        return None
    return float(t.get("partner") is not None)


def _count(event: str) -> Callable[[Trace], float]:
    return lambda t: float(t["events"].count(event))


def _with_wilds(of: Callable[[Trace], float]) -> Callable[[Trace], float | None]:
    """A measure that applies only to hands with wild cards (laizi)."""
    return lambda t: of(t) if t.get("wild") else None


def _flag(event: str) -> Callable[[Trace], float]:
    return lambda t: float(event in t["events"])


def _side_won(t: Trace, seat: int) -> float:
    if t.get("first_out") is not None:  # no landlord: a seat wins by going out first
        return float(seat == t["first_out"])
    return float((t["winner"] == "landlord") == (seat in _landlord_side(t)))


def _with_landlord(of: Callable[[Trace], float | None]) -> Callable[[Trace], float | None]:
    """A measure of the landlord's game (his side, his stake, his auction): it does not apply
    to a hand without a landlord (``teams.sides: each_alone``)."""
    return lambda t: None if t["landlord"] is None else of(t)


def _alone(of: Callable[[Trace], float | None]) -> Callable[[Trace], float | None]:
    """A measure of a game without a landlord, where the first player out wins: it applies
    only to such hands."""
    return lambda t: None if t.get("first_out") is None else of(t)


def _taken(of: Callable[[Trace], float]) -> Callable[[Trace], float | None]:
    """A measure of whether a hand was taken (its redeals), played or not: it does not apply
    where nobody takes a hand, every hand being played out with no landlord."""
    return lambda t: None if t.get("first_out") is not None else of(t)


def _cards_left(t: Trace) -> float:
    left: list[int] = t["cards_left"]
    return sum(n for s, n in enumerate(left) if s != t["first_out"]) / (len(left) - 1)


def _bombs(t: Trace) -> float:
    if "bombs_played" in t:  # no landlord: bombs multiply nothing, so they are counted
        return float(t["bombs_played"])
    return float(sum(t["events"].count(e) for e in ("bomb", "soft_bomb", "wild_bomb")))


def _seat(seat: int) -> Callable[[Trace], float | None]:
    return lambda t: _side_won(t, seat) if seat < t["players"] else None


def _kitty_decides(t: Trace) -> float | None:
    whole, bare = t.get("open_whole"), t.get("open_whole_bare")
    return None if whole is None or bare is None else float(whole != bare)


_HAND_MEASURES: tuple[Measure, ...] = (
    Measure("landlord_win", "landlord win rate",
            "Share of hands the landlord wins.", _with_landlord(_landlord_won),
            proportion=True),
    Measure("landlord_score", "landlord score per hand",
            "The landlord's score in a hand (base x multiplier from each peasant, shared with "
            "a partner where one joined him).",
            _with_landlord(_landlord_score)),
    Measure("peasant_score", "peasant score per hand",
            "A peasant's score in a hand, averaged over the peasants.",
            _with_landlord(_peasant_score)),
    Measure("partnered", "partner rate",
            "Share of hands in which another player joined the landlord by playing the rank "
            "he called (rulesets with a called partner).", _partnered, proportion=True),
    Measure("open_value", "open-hand landlord win rate",
            "Share of hands, among those that reach a position holding at most "
            f"{OPEN_CARDS} cards in all, whose position the landlord's side wins with "
            "perfect play, every card open (ddz solve): a judgement of the rules' endgames "
            "that depends on no bot's skill from there on.",
            lambda t: None if t.get("open_value") is None else float(t["open_value"]),
            proportion=True),
    Measure("open_whole", "open-hand landlord win rate, whole deals",
            "Share of hands, among those whose whole deal is answered as the play begins "
            f"(within the run's budget of positions searched, {WHOLE_POSITIONS:,} unless it "
            "says otherwise, every card open), that the "
            "landlord's side wins with perfect play from the first lead: the value of the deal "
            "and of the auction's choice of landlord, depending on no bot's play. The deals "
            "answered are the ones decided soonest, so this is a rate over those, not over "
            "every deal: read it with the share answered.",
            lambda t: None if t.get("open_whole") is None else float(t["open_whole"]),
            proportion=True),
    Measure("open_whole_answered", "whole deals answered open-hand",
            "Share of hands whose whole deal the search answers within the run's budget of "
            "positions as the play begins (the hands the whole-deal win rate is over; each "
            "hand's answer, or null where none was found, is in the results file).",
            lambda t: None if "open_whole" not in t else float(t["open_whole"] is not None),
            proportion=True),
    Measure("kitty_decides", "kitty decides the whole deal",
            "Share of hands, among those whose whole deal is answered open-hand both as dealt "
            "and with the kitty's cards out of play (the landlord leading with the cards he "
            "was dealt), whose answer the kitty changes: the landlord's side wins with it and "
            "loses without it, or the reverse (rulesets with a kitty).", _kitty_decides,
            proportion=True),
    Measure("multiplier", "multiplier",
            "The product of the hand's multiplier events (hands with a landlord).",
            _with_landlord(lambda t: float(t["multiplier"])), low=1),
    Measure("bombs", "bombs per hand",
            "Bombs played in a hand, of every kind: soft and hard bombs and four wilds (laizi), "
            "bombs of every size (two decks); with no landlord, every play of a bomb class "
            "(the three aces of run-fast-15 included).", _bombs, low=0),
    Measure("soft_bombs", "soft bombs per hand",
            "Soft bombs (made with wild cards) played in a hand, where there are wild cards.",
            _with_wilds(_count("soft_bomb")), low=0),
    Measure("wild_plays", "plays with wilds per hand",
            "Plays holding a wild card in a hand, where there are wild cards.",
            _with_wilds(lambda t: float(t["wild_plays"])), low=0),
    Measure("rockets", "rockets per hand", "Rockets played in a hand (hands with a landlord).",
            _with_landlord(_count("rocket")), low=0),
    Measure("spring", "spring rate", "Share of hands that end in a spring.",
            _with_landlord(_flag("spring")), proportion=True),
    Measure("anti_spring", "anti-spring rate", "Share of hands that end in an anti-spring.",
            _with_landlord(_flag("anti_spring")), proportion=True),
    Measure("first_out_score", "first player out's score per hand",
            "With no landlord: the score of the player who went out first (what the others pay "
            "for their cards, and his bombs' payments, less what he paid for theirs).",
            _alone(lambda t: float(t["scores"][t["first_out"]]))),
    Measure("cards_left", "cards left per loser",
            "With no landlord: the cards a player who did not go out first still holds when "
            "the hand ends, averaged over those players.", _alone(_cards_left), low=0),
    Measure("shut_out", "shut-out rate",
            "With no landlord: share of hands in which some player never played a card (shut "
            "out).", _alone(lambda t: float(bool(t["shut_out"]))), proportion=True),
    Measure("paid_for_all", "paid-for-all rate",
            "With no landlord and scoring.liability: share of hands in which the player whose "
            "low single let the warned player out paid for everyone.",
            lambda t: None if "liable" not in t else float(t["liable"] is not None),
            proportion=True),
    Measure("redeals", "redeals per hand",
            "Deals thrown in because nobody took the hand, per hand played (hands with a "
            "landlord to take).", _taken(lambda t: float(t["redeals"])), low=0),
    Measure("unplayed", "unplayed hands",
            f"Share of hands none of whose {MAX_REDEALS} deals anybody took; every other "
            "measure but the redeals leaves them out.",
            _taken(lambda t: float(t["winner"] is None)), proportion=True),
    Measure("bid", "winning bid", "The winning bid, where the auction has bids.",
            lambda t: float(t["bid"]) if t["bid"] else None, low=1),
    Measure("robs", "robs per hand", "Robs in the auction (call-and-rob families).",
            _with_landlord(lambda t: float(t["robs"])), low=0),
    Measure("grabs", "grabs per hand", "Grabs in the auction (call-and-grab families).",
            _with_landlord(lambda t: float(t["grabs"])), low=0),
    Measure("decisions", "decisions per hand",
            "Plays and passes in the play phase.", lambda t: float(t["decisions"]),
            low=0),
    Measure("tricks", "tricks per hand", "Tricks started (leads) in a hand.",
            lambda t: float(t["tricks"]), low=0),
    Measure("seat0_win", "seat 0 win rate",
            "Share of hands seat 0's side wins (with no landlord: seat 0 goes out first).",
            _seat(0), proportion=True),
    Measure("seat1_win", "seat 1 win rate", "Share of hands seat 1's side wins.", _seat(1),
            proportion=True),
    Measure("seat2_win", "seat 2 win rate", "Share of hands seat 2's side wins.", _seat(2),
            proportion=True),
    Measure("seat3_win", "seat 3 win rate", "Share of hands seat 3's side wins.", _seat(3),
            proportion=True),
    Measure("first_bidder_win", "first bidder's side win rate",
            "Share of hands won by the side of the player who spoke first in the auction.",
            _with_landlord(lambda t: _side_won(t, t["first_bidder"])), proportion=True),
    Measure("first_leader_out", "first leader goes out first",
            "With no landlord: share of hands the player dealt the lead card (who leads the "
            "first trick) goes out first.",
            _alone(lambda t: float(t["first_bidder"] == t["first_out"])), proportion=True),
    Measure("lead_changes", "lead changes per hand",
            "How often the side closer to its goal changes during the play (the side whose "
            "best-placed player has the fewest cards left to shed leads, with no landlord the "
            "player holding fewest cards; ties keep the lead).",
            lambda t: float(t["lead_changes"]), low=0),
    Measure("decisive_at", "decisive point",
            "The fraction of the hand's plays made when the eventual winner took the lead "
            "for the last time: 0 when it led throughout, near 1 when it came from behind "
            "at the end.", lambda t: t["decisive_at"], low=0, high=1),
)

#: Measures of every hand, played or not; the others apply only to hands that were played
#: (that had a landlord, or, with no landlord, every hand).
_ANY_HAND = ("redeals", "unplayed")


def _played(measure: Measure) -> Measure:
    """``measure`` where it applies, and only on hands that were played."""
    if measure.key in _ANY_HAND:
        return measure
    of = measure.of
    return replace(measure, of=lambda t: None if t["winner"] is None else of(t))


MEASURES: tuple[Measure, ...] = tuple(_played(m) for m in _HAND_MEASURES)

BY_KEY = {m.key: m for m in MEASURES}


def values(measure: Measure, traces: list[Trace]) -> list[float]:
    """The measure over the traces where it applies."""
    out = []
    for t in traces:
        v = measure.of(t)
        if v is not None:
            out.append(v)
    return out


def _focus_won(row: Trace) -> float:
    return float(row["focus"] in row["winners"] and not row["tie"])


def _spread(row: Trace) -> float:
    totals: list[int] = row["totals"]
    return float(max(totals) - min(totals))


def _led_alone_early(row: Trace) -> float:
    return float(row["led_alone_from"] is not None and row["led_alone_from"] < row["counted"])


#: Measures of whole matches (``ddz compare --match-levels STRONG,WEAK``): one row per match,
#: the stronger level in one seat (``focus``), the weaker in the others.
MATCH_MEASURES: tuple[Measure, ...] = (
    Measure("stronger_wins", "stronger level wins the match",
            "Share of matches the stronger level's seat wins outright (a tie is no win): how "
            "much the variant rewards skill over a whole match.", _focus_won, proportion=True),
    Measure("match_tie", "match tie rate", "Share of matches that end in a tie.",
            lambda r: float(r["tie"]), proportion=True),
    Measure("total_spread", "spread of match totals",
            "The highest final total minus the lowest: how far apart a match leaves the seats.",
            _spread, low=0),
    Measure("led_alone_early", "led alone before the last hand",
            "Share of matches whose winner led alone from before the last hand to the end "
            "(a tie has no winner). It says when the lead was taken for good, not that the "
            "later hands could not have changed the winner.", _led_alone_early,
            proportion=True),
    Measure("match_hands", "hands per match",
            "Hands that counted toward the match's length (thrown-in deals that do not count "
            "are left out).", lambda r: float(r["counted"]), low=0),
    Measure("match_deals", "deals per match", "Every deal of the match, thrown-in ones "
            "included.", lambda r: float(r["deals"]), low=0),
)
MATCH_BY_KEY = {m.key: m for m in MATCH_MEASURES}
