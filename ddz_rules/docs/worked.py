"""The worked scoring example of a ruleset page: a whole hand, computed by the engine.

Where a hand record in ``tests/fixtures/records`` is written for the ruleset (each is the worked
example of a source text), that record is replayed. Otherwise a hand is dealt the way
``ddz simulate --hands 1 --seed S`` deals it and played by random legal players; the first run
seed whose hand has at least two multiplier events is shown (at least one, if none has two).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ddz_rules import cards
from ddz_rules.docs.book import Book
from ddz_rules.docs.render import TIMES, admonition, card_faces, code_html, plural, table
from ddz_rules.game import Hand, Passed, Played, Said
from ddz_rules.records import read_record, replay, to_record
from ddz_rules.ruleset import Ruleset
from ddz_rules.simulate import hand_seed, play_random

#: Run seeds tried when looking for a hand with multiplier events.
SEARCH = 200
RECORDS = Path("tests") / "fixtures" / "records"


@dataclass(frozen=True)
class WorkedExample:
    """A finished hand and how to reproduce it."""

    ruleset: Ruleset
    hand: Hand
    record: dict[str, Any]
    record_path: str | None = None
    run_seed: int | None = None

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


def seeded_hand(ruleset: Ruleset) -> tuple[int, Hand]:
    """The first run seed whose first hand is played out with two multiplier events (or one)."""
    fallback: tuple[int, Hand] | None = None
    for seed in range(SEARCH):
        hand = play_random(ruleset, hand_seed(seed, 0), dealer=0)
        result = hand.result
        assert result is not None
        if result.redeal or not result.events:
            continue
        if len(result.events) >= 2:
            return seed, hand
        fallback = fallback or (seed, hand)
    if fallback is None:
        raise RuntimeError(f"no hand of {ruleset.id} in {SEARCH} seeds has a multiplier event")
    return fallback


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
    seed, hand = seeded_hand(ruleset)
    return WorkedExample(ruleset, hand, to_record(hand), run_seed=seed)


# --------------------------------------------------------------------------- Markdown


def seat_name(seat: int, landlord: int | None) -> str:
    role = "" if landlord is None else (" (landlord)" if seat == landlord else " (peasant)")
    return f"seat {seat}{role}"


def score_text(scores: list[int]) -> str:
    return "; ".join(f"seat {i} {s:+d}" for i, s in enumerate(scores))


def event_text(event: dict[str, Any]) -> str:
    where = ""
    if "cards" in event:
        where = f" (seat {event['seat']} plays {card_faces(str(event['cards']))})"
    return f"{code_html(str(event['event']))} {TIMES}{event['factor']}{where}"


def render(example: WorkedExample) -> str:
    """The worked example as Markdown: deal, auction, play, events and settlement."""
    hand, result, ruleset = example.hand, example.result, example.ruleset
    landlord = result["landlord"]
    out: list[str] = []
    if example.record_path is not None:
        out.append(f"This is the worked example of the source text, written as a hand record "
                   f"(`{example.record_path}`) and replayed here by the engine, action by "
                   f"action.")
    else:
        shows = ("at least two multiplier events" if len(result["events"]) >= 2
                 else "a multiplier event")
        out.append(f"A hand dealt from run seed {example.run_seed} and played to the end by "
                   f"random legal players, exactly as `ddz simulate` plays it; it is the first "
                   f"run seed whose hand shows {shows}. Every number below is the engine's.")
    out.append("```console\n" + "\n".join(f"$ {c}" for c in example.commands()) + "\n```")
    out.append(_deal(example))
    out.append(_auction(hand, landlord))
    out.append(_plays(hand, landlord))
    out.append(_settlement(ruleset, result))
    return "\n\n".join(out)


def _deal(example: WorkedExample) -> str:
    d = example.hand.deal
    landlord = example.hand.landlord
    rows = [[seat_name(seat, landlord), card_faces(cards.key_text(key))]
            for seat, key in enumerate(d.hands)]
    if example.hand.ruleset.kitty:
        rows.append(["kitty", card_faces(cards.key_text(d.kitty))])
    if d.undealt:
        rows.append(["never dealt", card_faces(cards.key_text(d.undealt))])
    notes = [f"Seat {d.dealer} deals and seat {d.first_bidder} bids first"]
    if d.marked_card is not None:
        notes.append(f"the marked card is a {card_faces(cards.RANKS[d.marked_card])}")
    if d.turned_card is not None:
        notes.append(f"the turned card is a {card_faces(cards.RANKS[d.turned_card])}")
    return ("**The deal.** " + "; ".join(notes) + ".\n\n"
            + table(["Seat", "Cards dealt"], rows))


#: Auction words as prose; a number is a bid.
WORDS = {"pass": "passes", "call": "calls", "no-call": "does not call", "rob": "robs",
         "no-rob": "does not rob", "grab": "grabs", "no-grab": "does not grab"}


def said(word: str) -> str:
    """An auction word as prose: ``2`` is ``bids 2``."""
    return f"bids {word}" if word.isdigit() else WORDS.get(word, word)


def _auction(hand: Hand, landlord: int | None) -> str:
    words = [f"seat {op.seat} {said(op.word)}" for op in hand.log if isinstance(op, Said)]
    text = "**The auction.** " + ", ".join(words) + "."
    if landlord is None:
        return text + " Nobody took the hand."
    held = hand.ruleset.hand_size + hand.ruleset.kitty
    if not hand.ruleset.kitty:
        return text + (f" Seat {landlord} is the landlord; there is no kitty, so he plays the "
                       f"{plural(held, 'card')} he was dealt.")
    taken = card_faces(cards.key_text(hand.deal.kitty))
    return text + (f" Seat {landlord} is the landlord, takes the kitty {taken} and so "
                   f"holds {plural(held, 'card')}.")


def _plays(hand: Hand, landlord: int | None) -> str:
    rows: list[list[str]] = []
    for op in hand.log:
        if isinstance(op, Played):
            rows.append([str(len(rows) + 1), seat_name(op.seat, landlord),
                         f"{card_faces(op.play.cards)} as {code_html(op.play.reading.short())}"])
        elif isinstance(op, Passed):
            rows.append([str(len(rows) + 1), seat_name(op.seat, landlord), "pass"])
    played = sum(1 for r in rows if r[2] != "pass")
    body = table(["#", "Seat", "Action"], rows)
    return admonition("example", f"The play: {plural(played, 'play')} and "
                      f"{plural(len(rows) - played, 'pass')}", body, collapsible=True)


def _settlement(ruleset: Ruleset, result: dict[str, Any]) -> str:
    events = result["events"]
    raw = result["base"] * result["multiplier"]
    stake = raw if ruleset.cap is None else min(raw, ruleset.cap)
    stake_text = (str(stake) if stake == raw
                  else f"{stake} (capped: base {TIMES} multiplier is {raw})")
    rows = [
        ["Landlord", f"seat {result['landlord']}"],
        ["Winner", str(result["winner"])],
        ["Base", str(result["base"])],
        ["Multiplier events",
         "<br>".join(event_text(e) for e in events) if events else "none"],
        ["Multiplier", str(result["multiplier"])],
        [f"Stake S = base {TIMES} multiplier", stake_text],
        ["Scores", score_text(list(result["scores"]))],
    ]
    peasants = ruleset.players - 1
    won = result["winner"] == "landlord"
    factors = f" {TIMES} ".join(str(e["factor"]) for e in events)
    product = (f"the product of the events' factors ({factors})" if len(events) > 1
               else "its one event's factor" if events else "1, with no event")
    prose = (f"The multiplier is {product}, so S = {result['base']} {TIMES} "
             f"{result['multiplier']} = "
             f"{raw}{'' if stake == raw else f', capped at {stake}'}. The "
             f"{'landlord' if won else 'peasants'} won: the landlord settles S with each of "
             f"the {plural(peasants, 'peasant')} and scores "
             f"{'+' if won else '-'}{stake * peasants}; the scores sum to zero.")
    return "**The settlement.**\n\n" + table(["Result", "Value"], rows) + "\n\n" + prose
