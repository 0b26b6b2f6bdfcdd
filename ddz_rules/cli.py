"""The ``ddz`` command: check rulesets, classify and compare plays, list moves, diff rulesets.

Every subcommand takes ``--json``. Exit codes, the same for every subcommand (and stated in each
one's ``--help``):

* 0: the command did its work or answered its question. A question answered "no" is still
  answered: ``ddz classify`` of a card set that is not a legal play prints the rule that
  forbids it, and ``ddz beats`` of two legal plays prints "no" and why.
* 1: ``ddz check`` found a defect (a ruleset that claims unique readings has a play that reads
  several ways), or ``ddz replay`` found an invalid record (an illegal action, or a record that
  stops before the hand ends).
* 2: a usage error or bad input: an unknown option or ruleset, card text that is empty or is
  not cards, a PLAY or PREVIOUS that is not a legal play, a file that cannot be read or is not
  a well-formed ruleset or record. One line on stderr, ``ddz: error: ...``, naming what is at
  fault.
* 130: interrupted.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import io
import json
import logging
import os
import sys
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from ddz_rules import __version__, cards, duties
from ddz_rules.dealsets import FORMATS, export_deals, read_deals, seeded_deals
from ddz_rules.errors import (
    CardError,
    DdzError,
    IllegalPlayError,
    Named,
    OutputFailed,
    UsageError,
    quoted,
)
from ddz_rules.match import led_alone
from ddz_rules.outputs import write_new
from ddz_rules.records import (
    check_seed,
    is_match_record,
    read_record,
    replay,
    replay_match,
    ruleset_of,
)
from ddz_rules.reports import EXAMPLES, check_report, diff_report
from ddz_rules.ruleset import bundled_ids, load, stated_inert
from ddz_rules.showdown import IMPORT_FORMATS
from ddz_rules.simulate import simulate
from ddz_rules.solver import (
    LARGE_CARDS,
    LARGE_MEMORY_MB,
    MEMORY_MB,
    REST_POSITIONS,
    Position,
    Solution,
    Step,
    of_deal,
    solve,
)
from ddz_rules.solver import role as solver_role
from ddz_rules.table import (
    Play,
    PlayTable,
    Reading,
    beats_reason,
    compile_table,
    listing_path,
    split_reading,
    table_order,
)
from ddz_rules.wilds import wild_ranks_of

if TYPE_CHECKING:
    from ddz_rules.play.web.server import Tables

#: What every command that writes files promises, in its --help (and the README's records).
NEVER_OVERWRITTEN = ("a file already there is never overwritten: one holding the same is "
                     "reused, any other is refused, naming it")
#: Most hands one ``ddz simulate`` plays (a run's work is bounded like everything else).
MAX_SIMULATED = 1_000_000


class _Version(argparse.Action):
    """``ddz --version``: the version, and whether the compiled modules list plays, on one
    line (argparse's own version action wraps it to the terminal)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        print(f"ddz-rules {__version__}; plays listed by {listing_path()}")
        parser.exit()


class _Parser(argparse.ArgumentParser):
    """argparse, but usage errors are one line and exit 2."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see '{self.prog} --help')")


def _seed(text: str) -> int:
    """``--seed``: an integer in the range every command, record writer and record reader
    takes (:data:`~ddz_rules.records.MAX_SEED`), else one line naming the option."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not an integer") from None
    try:
        return check_seed(value, "a seed")
    except UsageError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _path(text: str) -> str:
    """A file or folder option: any path but an empty one (which names nothing)."""
    if not text.strip():
        raise argparse.ArgumentTypeError(f"{text!r} is an empty path; name a file or folder")
    try:
        os.lstat(text)
    except OSError as exc:
        if exc.errno == errno.ENAMETOOLONG:
            raise argparse.ArgumentTypeError(
                f"{quoted(text)} is a name longer than this system allows") from None
    return text


@dataclass(frozen=True)
class Refusal:
    """A combination of options that would be silently ignored, refused before any work."""

    when: Callable[[argparse.Namespace], bool]
    message: str


def refuse(p: argparse.ArgumentParser, when: Callable[[argparse.Namespace], bool],
           message: str) -> None:
    """Add to ``p``'s refusals, which :func:`main` checks once the options are parsed."""
    p.set_defaults(refusals=(*p.get_default("refusals"), Refusal(when, message)))


def _check_refusals(args: argparse.Namespace) -> None:
    for refusal in getattr(args, "refusals", ()):
        if refusal.when(args):
            raise UsageError(refusal.message)


def _table(name: str) -> PlayTable:
    return compile_table(load(name))


def _emit(args: argparse.Namespace, payload: Any, text: Callable[[], str]) -> None:
    if args.json:
        print(json.dumps(payload, ensure_ascii=False))
    else:
        print(text())


# ------------------------------------------------------------------------- subcommands


def cmd_rules(args: argparse.Namespace) -> int:
    rows = [load(i) for i in bundled_ids()]
    payload = [{"id": r.id, "title": r.title, "summary": r.summary, "extends": r.base}
               for r in rows]
    width = max(len(r.id) for r in rows)
    _emit(args, payload, lambda: "\n".join(f"{r.id:<{width}}  {r.title}\n{'':<{width}}  {r.summary}"
                                           for r in rows))
    return 0


def _check_text(report: dict[str, Any]) -> str:
    lines = [f"{report['ruleset']}: {report['title']}",
             f"  {report['players']} players, {report['deck']}-card deck, "
             f"{report['undealt']} undealt; readings: {report['settlement']}"]
    if not report.get("enumerated", True):
        return "\n".join(lines + _sampled_text(report) + _wild_text(report))
    lines.append(f"  {report['plays']} legal plays"
                 + (" of natural cards (the play table)" if "wilds" in report else ""))
    width = max(len(t) for t in report["by_type"])
    lines += [f"    {t:<{width}} {n:>6}" for t, n in report["by_type"].items()]
    if report["ambiguous"]:
        verdict = ("every such play is made with a named reading"
                   if report["settlement"] == "declared"
                   else "this ruleset claims unique readings: DEFECT")
        natural = " of natural cards" if "wilds" in report else ""
        lines.append(f"  {report['ambiguous']} plays{natural} read more than one way "
                     f"({verdict}):")
        for item in report["ambiguous_examples"]:
            readings = ", ".join(f"{r['type']}/{r['length']}/{r['rank']}"
                                 for r in item["readings"])
            lines.append(f"    {item['cards']}: {readings}")
    elif "wilds" in report:
        lines.append("  every play of natural cards has exactly one reading (the exhaustive "
                     "check covers natural cards only)")
    else:
        lines.append("  every play has exactly one reading")
    return "\n".join(lines + _wild_text(report))


def _wild_text(report: dict[str, Any]) -> list[str]:
    """What the report measured of plays holding wild cards: a sample, not a check."""
    if "wilds" not in report:
        return []
    wilds = report["wilds"]
    lines = [f"  with wild cards (not part of that check): of {wilds['sets']} card sets drawn "
             "at random, each a play with 1 to 4 cards",
             f"    swapped for wilds, {wilds['plays']} are plays and {wilds['several']} of them "
             "read more than one way; such a play is made with a named reading"]
    example = wilds["example"]
    if example is not None:
        readings = ", ".join(f"{r['type']}/{r['length']}/{r['rank']}"
                             for r in example["readings"])
        lines.append(f"    e.g. {example['cards']} (wild {example['wild']}): {readings}")
    return lines


def _sampled_text(report: dict[str, Any]) -> list[str]:
    """The lines of a table too large to enumerate: its count, and what was checked instead."""
    limit, uncounted = report["limit"], report["uncounted_rules"]
    count = (f"at most {report['readings']:,} readings, counted without listing them (an upper "
             f"bound: {' and '.join(uncounted)} not applied)" if uncounted else
             f"{report['readings']:,} readings, counted exactly without listing them")
    lines = [f"  play table: not enumerated: {count}; more than the {limit:,} the toolkit "
             "enumerates",
             f"  readings by type{', at most' if uncounted else ''} (a play counts once per "
             "reading):"]
    numbers = {t: f"{n:,}" for t, n in report["by_type"].items()}
    width, digits = max(len(t) for t in numbers), max(len(n) for n in numbers.values())
    lines += [f"    {t:<{width}} {n:>{digits}}" for t, n in numbers.items()]
    sample = report["sample"]
    lines.append("  checked instead: the schema and the deal; every type can be formed and every "
                 f"card played alone; {sample['plays']:,} plays drawn at random, "
                 f"{sample['distinct']:,} distinct, each read afresh from its cards")
    if report["ambiguous"]:
        verdict = ("every such play is made with a named reading"
                   if report["settlement"] == "declared"
                   else "this ruleset claims unique readings: DEFECT")
        shown = report["ambiguous_examples"][:EXAMPLES]
        more = " (--json lists every one)" if report["ambiguous"] > len(shown) else ""
        lines.append(f"  {report['ambiguous']:,} of the {sample['distinct']:,} read more than one "
                     f"way ({verdict}); the first {len(shown)}{more}:")
        for item in shown:
            readings = ", ".join(f"{r['type']}/{r['length']}/{r['rank']}"
                                 for r in item["readings"])
            lines.append(f"    {item['cards']}: {readings}")
    elif sample["plays"]:
        lines.append(f"  each has exactly one reading: a sample, not a proof (at 95% "
                     f"confidence, under {sample['bound_95']:.3%} of all readings are of plays "
                     "that read more than one way)")
    hand = report["largest_hand"]
    refused, hands = hand["refused"], hand["hands"]
    over = f"all {hands}" if refused == hands else f"{refused} of them"
    verdict = (f"{over} exceed the {limit:,} readings "
               "a hand's plays may hold, so hands like these are refused and a game dealt one "
               "stops with an error" if refused else
               f"within the {limit:,} readings a hand's plays may hold, so none would be refused")
    lines.append(f"  largest hand ({hand['cards']} cards): at most {hand['most_readings']:,} "
                 f"readings in the worst of {hands} random hands; {verdict}")
    return lines


def cmd_check(args: argparse.Namespace) -> int:
    names = args.rulesets or bundled_ids()
    rulesets = [load(n) for n in names]
    for ruleset in rulesets:
        for error in stated_inert(ruleset):
            raise error  # the first: a rule its own file states that the referee never runs
    reports = [check_report(r) for r in rulesets]
    payload: Any = reports if len(reports) > 1 else reports[0]
    _emit(args, payload, lambda: "\n\n".join(_check_text(r) for r in reports))
    defective = [r for r in reports if r["settlement"] == "unique" and r["ambiguous"]]
    return 1 if defective else 0


#: The help of ``--wild`` (classify, beats, moves).
WILD_HELP = ("the hand's wild ranks, as card text (laizi rulesets): a card of a wild rank may "
             "stand for others in the body of a play")


def _wild_option(table: PlayTable, text: str | None) -> tuple[int, ...]:
    """``--wild RANKS``: the wild ranks of the hand asked about, checked against the ruleset's
    ``wild`` rules; none when the option is not given."""
    if text is None:
        return ()
    try:
        return wild_ranks_of(table.ruleset, text, whole_draw=False)
    except CardError as exc:
        raise UsageError(f"--wild: {exc}") from None
    except DdzError as exc:
        if not table.ruleset.wild_drawn:
            raise UsageError(f"--wild: {exc}; drop the option, or choose a ruleset with wild "
                             "cards such as laizi") from None
        raise UsageError(f"--wild {text!r}: {exc}") from None


def cmd_classify(args: argparse.Namespace) -> int:
    """Exit 0 with the readings, or with the reason a non-empty card set is not a legal play
    (that is the question answered); exit 2 when CARDS is empty or not card text, or names a
    reading (``CARDS@type/length/rank``) the cards do not have."""
    table = _table(args.ruleset)
    wild = _wild_option(table, args.wild)
    try:
        _, named = split_reading(args.cards)
    except DdzError as exc:
        raise UsageError(f"CARDS {exc}") from None
    readings: tuple[Reading, ...] = ()
    try:
        key, readings = table.read_play(args.cards, wild, any_reading=True)
    except IllegalPlayError as exc:  # no play: that is the answer, unless a reading is named
        key = exc.key or 0
        if not cards.size(key):
            raise UsageError(f"CARDS is empty: {table.explain(key)}") from None
        if named is not None:
            raise UsageError(f"CARDS {cards.key_text(key)} is not a legal play under "
                             f"{table.ruleset.id}, so it has no reading {named!r}: "
                             f"{table.explain(key, wild)}") from None
    except CardError:
        raise  # card text that is not cards: its own one-line error
    except DdzError as exc:
        raise UsageError(f"CARDS: {exc}") from None
    payload = {
        "ruleset": table.ruleset.id,
        "cards": cards.key_text(key),
        **({"wild": "".join(cards.RANKS[r] for r in wild)} if wild else {}),
        "legal": bool(readings),
        "readings": [r.to_json() for r in readings],
        "reason": None if readings else table.explain(key, wild),
    }

    def text() -> str:
        if not readings:
            return f"{payload['cards']}: not a legal play: {payload['reason']}"
        return "\n".join(
            f"{payload['cards']}: {r.type}, length {r.length}, rank {r.rank}"
            + (f", kickers {r.kickers}" if r.kickers else "") for r in readings)

    _emit(args, payload, text)
    return 0


def _played(table: PlayTable, name: str, text: str, any_reading: bool = False,
            wild: tuple[int, ...] = ()) -> tuple[int, list[Any]]:
    """The card set a play argument names, and the readings it is played as.

    A usage error naming the argument when the text is empty, not cards or not a legal play.
    A previous play was made as one reading (named, or its only one); a play to be made may
    take any of its readings unless one is named (``CARDS@type/length/rank``).
    """
    try:
        key, readings = table.read_play(text, wild, any_reading)
    except IllegalPlayError as exc:
        if not exc.key:
            raise UsageError(f"{name} is empty: {table.explain(0)}") from None
        raise UsageError(f"{name} {exc}") from None
    except DdzError as exc:
        raise UsageError(f"{name}: {exc}") from None
    return key, list(readings)


def cmd_beats(args: argparse.Namespace) -> int:
    """Exit 0 with yes or no for two legal plays; exit 2 naming PLAY or PREVIOUS when either
    is empty, not card text, or not a legal play (with the reason ``explain`` gives)."""
    table = _table(args.ruleset)
    wild = _wild_option(table, args.wild)
    key, candidates = _played(table, "PLAY", args.play, any_reading=True, wild=wild)
    previous_key, (previous_reading,) = _played(table, "PREVIOUS", args.previous, wild=wild)
    previous = Play(previous_key, previous_reading)
    winners = [r for r in candidates if r.beats(previous.reading)]
    result = bool(winners)
    reason = beats_reason(table.ruleset, Play(key, winners[0] if winners else candidates[0]),
                          previous)
    payload = {"ruleset": table.ruleset.id, "play": cards.key_text(key),
               "previous": previous.cards, "beats": result, "reason": reason}
    _emit(args, payload, lambda: f"{'yes' if result else 'no'}: {reason}")
    return 0


def cmd_moves(args: argparse.Namespace) -> int:
    table = _table(args.ruleset)
    wild = _wild_option(table, args.wild)
    try:
        hand = table.key_of(args.hand)
    except DdzError as exc:
        raise UsageError(f"HAND: {exc}") from None
    if not cards.size(hand):
        raise UsageError("HAND is empty: name the cards the hand holds")
    turn = duties.turn_of(table.ruleset, hand, args.next_cards, args.first)
    if args.beat is not None:
        _, (previous,) = _played(table, "--beat", args.beat, wild=wild)
        moves = table.answers(hand, previous, wild)
    else:
        moves = table.leads(hand, wild)
    if duties.binding(table.ruleset):
        moves = duties.allowed(table.ruleset, moves, turn)
    moves.sort(key=lambda m: (table_order(m.key), m.reading.type, m.reading.length,
                              m.reading.rank_index, m.reading.kicker_key))
    listed = list(dict.fromkeys(table.notation(m, wild) for m in moves))
    risky = list(dict.fromkeys(table.notation(m, wild)
                               for m in duties.risky(table.ruleset, moves, turn)))

    def text() -> str:
        if not listed:
            return "(no legal play: pass)"
        note = ""
        if risky:
            top = cards.RANKS[duties.highest_rank(hand)]
            why = (f" where your highest single, {top}, would have held him"
                   if table.ruleset.liable_if == "highest_would_hold" else "")
            note = (f"\nnote: if the next player goes out on {', '.join(risky)}, you pay for "
                    f"everyone{why} (scoring.liability)")
        return "\n".join(listed) + note

    _emit(args, listed, text)
    return 0


#: ``ddz solve``'s options that place the hands, which a whole deal (``--deal``) sets itself.
_PLACING = ("to", "landlord", "partner", "robs", "beat", "by", "wild", "first")


def cmd_solve(args: argparse.Namespace) -> int:
    ruleset = load(args.ruleset)
    if args.deal is not None:
        given = [f"--{name}" for name in _PLACING
                 if getattr(args, name) is not None and getattr(args, name) is not False]
        if given:
            raise UsageError(f"--deal {args.deal}: the deal places the cards, the seat to act "
                             f"and the landlord itself, so {', '.join(given)} cannot be given "
                             "with it")
        position = of_deal(ruleset, args.deal)
    elif args.to is None:
        raise UsageError("--hands: give the seat to act too (--to N)")
    else:
        position = Position.from_text(ruleset, args.hands, args.to, args.beat, args.by,
                                      args.landlord, args.partner, args.robs or 0, args.wild,
                                      args.first)
    solution = solve(position, args.seconds, args.memory, positions=args.positions,
                     rest_positions=args.rest_positions or None)
    found = solution.to_json()
    if args.deal is not None:
        found = {"deal": _deal_json(position, args.deal), **found}
    _emit(args, found, lambda: (_deal_text(position, args.deal) if args.deal is not None
                                else "") + _solution_text(solution))
    return 0


def _deal_json(position: Position, seed: int) -> dict[str, Any]:
    """The deal ``--deal`` asked, as ``--hands`` and its options would give it."""
    return {"seed": seed, "hands": [cards.key_text(h) for h in position.hands],
            "to": position.to_act, "landlord": position.landlord,
            **({"wild": cards.text(position.wild)} if position.wild else {}),
            **({"first": True} if position.must_hold is not None else {})}


def _deal_text(position: Position, seed: int) -> str:
    """The deal's hands, each as ``--hands`` takes it, before the answer."""
    asked = _deal_json(position, seed)
    placed = [f"seat {asked['to']} to play"]
    if asked["landlord"] is not None:
        placed.append(f"landlord seat {asked['landlord']}")
    if position.must_hold is not None:
        placed.append(f"the first play holding a {cards.RANKS[position.must_hold]}")
    if "wild" in asked:
        placed.append(f"wild {asked['wild']}")
    return f"deal {seed}: {'/'.join(asked['hands'])} ({', '.join(placed)})\n"


def _solution_text(solution: Solution) -> str:
    position = solution.position
    table, wild, seat = position.table, position.wild, position.to_act
    who = f"seat {seat} ({solver_role(position, seat)})"
    if not position.ruleset.has_landlord:
        who += (" against every other player, who may help each other (the paranoid reading "
                "of a game where each plays alone)")

    def step_text(step: Step) -> str:
        return f"seat {step.seat} {step.text(table, wild)}"

    if solution.wins is None:  # a move proved winning would have answered it: these lose
        losing = ", ".join(s.text(table, wild) for s, _ in solution.proved)
        lines = [f"{position.ruleset.id}: unknown for {who}: the search stopped "
                 f"({solution.stopped})",
                 f"  proved so far: {len(solution.proved)} of its "
                 f"{len(solution.proved) + solution.unsorted} moves lose"
                 + (f": {losing}" if losing else "")]
    elif solution.wins:
        plays = ", ".join("pass" if p is None else table.notation(p, wild)
                          for p in solution.winning)
        lines = [f"{position.ruleset.id}: {who}, to play, wins with perfect play",
                 f"  winning plays: {plays}"]
    else:
        lines = [f"{position.ruleset.id}: {who}, to play, loses whatever it plays"]
        if solution.holds_out is not None:
            lines.append(f"  the play that holds out longest: "
                         f"{solution.holds_out.text(table, wild)}")
    if solution.wins is not None and not solution.complete:
        missing = [f"{solution.unsorted} moves not sorted, so the list of winning plays may "
                   "be short"] if solution.unsorted else []
        if not solution.line:
            missing.append("no line is drawn")
        if solution.wins is False and solution.holds_out is None:
            missing.append("the play that holds out longest is not known")
        more = " (--rest-positions N goes further, 0 without a bound)" \
            if solution.rest_spent else ""
        lines.append(f"  the budget ran out once the answer was known ({solution.stopped}): "
                     + "; ".join(missing) + more)
    if solution.line:
        lines.append("  a line: " + ", ".join(step_text(s) for s in solution.line))
    lines.append(f"  {solution.positions:,} position{'' if solution.positions == 1 else 's'} "
                 f"searched in {solution.seconds:.3f} s "
                 f"({solution.engine})")
    return "\n".join(lines)


def cmd_plays(args: argparse.Namespace) -> int:
    table = _table(args.ruleset)
    out = sys.stdout
    for key in table:
        out.write(json.dumps({"cards": cards.key_text(key),
                              "readings": [r.to_json() for r in table.readings(key)]}) + "\n")
    return 0


def _diff_text(report: dict[str, Any]) -> str:
    a, b = report["a"], report["b"]
    rules = report["rules"]
    lines = [f"rules that differ: {len(rules)}" if rules else
             f"rules that differ: none; {a} and {b} state the same rules"]
    for rule in rules:
        changes = "; ".join(
            (f"{c['field']} " if c["field"] else "") + f"{_value_text(c['a'])} in {a}, "
            f"{_value_text(c['b'])} in {b}" for c in rule["changed"])
        if not rule["a"]["stated"] or not rule["b"]["stated"]:
            changes = f"stated only in {b if rule['b']['stated'] else a}"
        lines.append(f"  {rule['key']}: {changes}")
        lines.append(f"      {a}: {_clip(rule['a']['text'])}")
        lines.append(f"      {b}: {_clip(rule['b']['text'])}")
    lines.append(f"plays: {report['plays'][a]} card sets in {a}, {report['plays'][b]} in {b}")
    for label, part in ((f"legal in {a} only", report["only_a"]),
                        (f"legal in {b} only", report["only_b"])):
        lines.append(f"  {label}: {part['count']} card sets"
                     + ("; their readings by type:" if part["count"] else ""))
        lines += [f"    {t:<18} {n:>6}" for t, n in part["readings_by_type"].items()]
        if part["examples"]:
            lines.append(f"    e.g. {', '.join(part['examples'])}{_more(part)}")
    differ = report["read_differently"]
    lines.append(f"  read differently: {differ['count']} card sets")
    for item in differ["examples"]:
        lines.append(f"    {item['cards']}: {a} {', '.join(item[a])}; "
                     f"{b} {', '.join(item[b])}")
    if differ["shown"] < differ["count"]:
        lines.append(f"    ({differ['shown']} of {differ['count']} shown; --examples N for "
                     "more)")
    return "\n".join(lines)


def _more(part: dict[str, Any]) -> str:
    left = part["count"] - part["shown"]
    return f" ({part['shown']} of {part['count']} shown; --examples N for more)" if left else ""


def _value_text(value: Any) -> str:
    if value is None:
        return "none"
    return _clip(value if isinstance(value, str) else json.dumps(value), 60)


def _clip(text: str, width: int = 160) -> str:
    return text if len(text) <= width else text[:width - 3] + "..."


def cmd_diff(args: argparse.Namespace) -> int:
    if args.examples < 0:
        raise UsageError(f"--examples must be 0 or more, got {args.examples}")
    report = diff_report(_table(args.a), _table(args.b), args.examples)
    _emit(args, report, lambda: _diff_text(report))
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    if not args.serve and (args.host is not None or args.port is not None):
        raise UsageError("--host and --port go with --serve")
    record = read_record(args.record)
    if args.ruleset is not None:
        if is_match_record(record):
            raise UsageError("--ruleset judges a hand record under another ruleset; a match "
                             "record's hands are judged under its own")
        if args.ruleset not in bundled_ids():  # a file is named in the record, beside it
            raise UsageError(f"--ruleset {quoted(args.ruleset)}: a bundled ruleset's id "
                             f"({', '.join(bundled_ids())}); to judge the hand under a ruleset "
                             "file, name it in the record's ruleset field, beside the record")
        record = {**record, "ruleset": args.ruleset}
    if args.serve:
        ruleset_of(record, args.record)  # a ruleset that cannot be read: refused before serving
        return _serve_replay(args)
    if is_match_record(record):
        return _replay_match(args, record)
    outcome = replay(record, args.record)
    payload = outcome.to_json()

    def text() -> str:
        if not outcome.valid:
            if "field" in payload:  # the actions replay; the result the record states is wrong
                return f"invalid: {payload['reason']}"
            return (f"invalid: action {payload['index']} ({payload['action']!r}): "
                    f"{payload['reason']}")
        return _result_text(payload)

    _emit(args, payload, text)
    return 0 if outcome.valid else 1


def _serve_replay(args: argparse.Namespace) -> int:
    """``ddz replay FILE --serve``: the record stepped through on a page of the browser
    table; its link printed."""
    from ddz_rules.play.serve import listen_address, replay_lines, require_web, serve

    require_web()
    host, port, url = listen_address(args.host, args.port)
    path = Path(args.record)
    serve(None, host, port, lambda tables: print("\n".join(replay_lines(url, [path])),
                                                 flush=True), 0.0, [path])
    _emit(args, {"served": url, "record": str(path)},
          lambda: f"ddz replay: stopped serving on {url}")
    return 0


def _replay_match(args: argparse.Namespace, record: dict[str, Any]) -> int:
    checked = replay_match(record, args.record)
    payload = checked.to_json()

    def text() -> str:
        if not checked.valid:
            where = f"hand {payload['hand']}" if payload["hand"] is not None else "result"
            if payload["index"] is not None and "field" not in payload:
                where += f", action {payload['index']} ({payload['action']!r})"
            return f"invalid: {where}: {payload['reason']}"
        verdict = (f"a tie between seats {payload['winners']}" if payload["tie"]
                   else f"seat {payload['winners'][0]} wins")
        return (f"valid match: {len(record['hands'])} deals, {payload['counted']} hands "
                f"counted; {verdict}; totals {payload['totals']}")

    _emit(args, payload, text)
    return 0 if checked.valid else 1


def _result_text(result: dict[str, Any]) -> str:
    if result["redeal"]:
        return "valid: nobody took the hand; it is dealt again with nothing carried over"
    if result.get("first_out") is not None:
        return _first_out_result_text(result)
    events = ", ".join(f"{e['event']} x{e['factor']}" + (f" ({e['cards']})" if "cards" in e
                                                          else "")
                       for e in result["events"]) or "none"
    partner = (f" with partner seat {result['partner']}" if result.get("partner") is not None
               else "")
    bonuses = "".join(f"\n  bonus {b['bonus']}: seat {b['seat']} is paid "
                      f"{b['from_each_other_seat']} by each other seat"
                      for b in result.get("bonuses", ()))
    return (f"valid: landlord seat {result['landlord']}{partner}, {result['winner']} win\n"
            f"  base {result['base']} x multiplier {result['multiplier']} (events: {events})"
            f"{bonuses}\n"
            f"  scores {result['scores']}")


def _first_out_result_text(result: dict[str, Any]) -> str:
    """A replayed hand's result where there is no landlord (``scoring.settlement:
    cards_left``)."""
    shut = result["shut_out"]
    liable = result.get("liable")
    bombs = "".join(f"\n  bomb paid: {b['bonus']} by seat {b['seat']}, "
                    f"{b['from_each_other_seat']} from each other seat"
                    for b in result["bombs_paid"])
    return (f"valid: seat {result['first_out']} went out first\n"
            f"  cards left {result['cards_left']}"
            + (f", shut out: seat{'s' if len(shut) > 1 else ''} "
               f"{', '.join(map(str, shut))}" if shut else "")
            + (f"; seat {liable} is liable and pays for all" if liable is not None else "")
            + f"{bombs}\n  scores {result['scores']}")


def cmd_simulate(args: argparse.Namespace) -> int:
    ruleset = load(args.ruleset)
    deals = None
    if args.deals is not None:
        deals = read_deals(args.deals, ruleset, args.deals_format).deals
    hands = args.hands if args.hands is not None else len(deals) if deals else 1000
    if not 1 <= hands <= MAX_SIMULATED:
        raise UsageError(f"--hands must be between 1 and {MAX_SIMULATED:,}, got {hands}")
    summary = simulate(ruleset, hands, args.seed,
                       Path(args.records) if args.records else None, deals)
    payload = summary.to_json(ruleset.players - 1)

    def text() -> str:
        if "first_out" in payload:
            return _first_out_text(payload, args.seed)
        lines = [f"{payload['ruleset']}: {payload['hands']} hands of random legal play "
                 f"(seed {args.seed}), {payload['redeals']} redeals",
                 f"  landlord won {payload['landlord_wins']} "
                 f"({100 * payload['landlord_win_rate']:.1f}%)",
                 f"  mean score per hand: landlord {payload['mean_score']['landlord']:+.3f}, "
                 f"peasant {payload['mean_score']['peasant']:+.3f}",
                 "  multiplier: " + ", ".join(f"x{k} {v}" for k, v in
                                              payload["multipliers"].items()),
                 "  events: " + (", ".join(f"{k} {v}" for k, v in payload["events"].items())
                                 or "none")]
        return "\n".join(lines)

    _emit(args, payload, text)
    return 0


def _first_out_text(payload: dict[str, Any], seed: int) -> str:
    """A simulation's summary where there is no landlord: who went out first, the shut-outs,
    the bombs paid at once."""
    bombs = payload["bombs_paid"]
    shut = payload["shut_out"]
    return "\n".join([
        f"{payload['ruleset']}: {payload['hands']} hands of random legal play (seed {seed}), "
        "no landlord",
        "  first out: " + ", ".join(f"seat {k} {v}" for k, v in payload["first_out"].items()),
        f"  mean score per hand: first out {payload['mean_score']['first_out']:+.3f}, "
        f"each other seat {payload['mean_score']['other']:+.3f} "
        f"({payload['mean_cards_left']:.2f} cards left)",
        f"  shut out: {shut['seats']} seats in {shut['hands']} hands",
        "  bombs paid: " + (", ".join(f"{k} {v}" for k, v in bombs.items()) or "none")
        + (f"; liable seat paid for all {payload['liable']} times" if payload["liable"] else ""),
    ])


#: ``ddz compare --match-levels``: matches per ruleset unless ``--matches`` says.
MATCHES_COMPARED = 200


def cmd_compare(args: argparse.Namespace) -> int:
    from ddz_rules.compare import report
    from ddz_rules.compare.run import RunSpec, execute

    hands = args.hands if args.hands is not None or args.deals else 1000
    spec = RunSpec(tuple(args.rulesets), hands, args.bots or "medium", args.seed, args.open_hand,
                   args.deals, args.deals_format, args.whole_positions)
    versus = _match_levels(args)
    if versus is None:
        spec.check()  # every ruleset loaded and checked before a hand is played
    else:
        versus.resolve()
    if args.plots:
        report.pyplot()  # before playing: a missing matplotlib must not waste the run
        report.check_plots_folder(Path(args.plots))
    out = Path(args.out) if args.out else None
    if versus is not None:
        from ddz_rules.compare.matches import execute_comparison
        from ddz_rules.compare.measures import MATCH_MEASURES

        with _progress(args.progress, "matches") as tick, _terminate_cleanly():
            rows = execute_comparison(versus, workers=args.workers, scheduler=args.scheduler,
                                      out=out, resume=args.resume, progress=tick)
        summary = report.summarize(versus.header()["run"], rows, versus.run_spec.loaded(),
                                   MATCH_MEASURES)
    else:
        with _progress(args.progress) as tick, _terminate_cleanly():
            results = execute(spec, workers=args.workers, scheduler=args.scheduler, out=out,
                              resume=args.resume, progress=tick)
        summary = report.summarize(spec.header()["run"], results, spec.loaded())
    failed = None
    if args.plots:
        try:
            summary["plots"] = [str(p) for p in report.plots(summary, Path(args.plots))]
        except (OSError, DdzError) as exc:
            said = exc.words(option) if isinstance(exc, DdzError) else str(exc)
            failed = f"writing charts to {args.plots} failed: {said}; the results above are " \
                     "complete"
    if args.json:
        print(json.dumps(summary))
    elif args.csv:
        sys.stdout.write(report.to_csv(summary))
    else:
        print(report.render_table(summary))
    if "plots" in summary:  # on stderr, so that JSON and CSV on stdout stay clean
        print(f"charts: {args.plots} ({len(summary['plots'])} PNG files: "
              f"{', '.join(Path(p).name for p in summary['plots'])})", file=sys.stderr)
    if failed:
        print(f"ddz: error: {failed}", file=sys.stderr)
        return 2
    return 0


def cmd_match(args: argparse.Namespace) -> int:
    from ddz_rules.compare.matches import (
        MatchSpec,
        execute_matches,
        play_match,
        seats_of,
        summarize_matches,
    )

    ruleset = load(args.ruleset)
    spec = MatchSpec(args.ruleset, seats_of(args.bots, ruleset.players), args.seed,
                     args.matches)
    entrant = spec.resolve()
    if args.record and args.matches != 1:
        raise UsageError("--record writes one match; leave out --matches, or use --out")
    record_path = Path(args.record) if args.record else None
    if record_path is not None and (record_path.exists() or record_path.is_dir()):
        raise UsageError(f"--record {record_path} already exists; choose another file "
                         "(nothing was overwritten)")
    if args.matches == 1 and args.out is None:
        row = play_match(spec.tasks()[0], records=record_path is not None)
        if record_path is not None:
            _write_match_record(record_path, row, entrant.ruleset, args.seed)
        _emit(args, _match_json(row, args.seed), lambda: _match_text(row, entrant.ruleset,
                                                                    args.seed))
        return 0
    with _progress(args.progress, "matches") as tick, _terminate_cleanly():
        rows = execute_matches(spec, workers=args.workers, scheduler=args.scheduler,
                               out=Path(args.out) if args.out else None, resume=args.resume,
                               progress=tick)
    if len(rows) == 1:
        _emit(args, _match_json(rows[0], args.seed),
              lambda: _match_text(rows[0], entrant.ruleset, args.seed))
        return 0
    summary = {"ruleset": entrant.id, "seed": args.seed, "seats": list(spec.seats),
               **summarize_matches(rows)}
    _emit(args, summary, lambda: _matches_text(summary, entrant.ruleset))
    return 0


def _match_levels(args: argparse.Namespace) -> Any:
    """``--match-levels STRONGER,WEAKER``: a comparison of whole matches, or None."""
    if args.match_levels is None:
        return None
    from ddz_rules.compare.matches import MatchComparison

    levels = [level.strip() for level in args.match_levels.split(",")]
    if len(levels) != 2:
        raise UsageError(f"--match-levels takes two levels, the stronger first, such as "
                         f"medium,standard; got {args.match_levels!r}")
    return MatchComparison(tuple(args.rulesets), levels[0], levels[1],
                           MATCHES_COMPARED if args.matches is None else args.matches, args.seed)


def _match_json(row: dict[str, Any], seed: int) -> dict[str, Any]:
    return {"ruleset": row["ruleset"], "seed": seed, "index": row["index"],
            "seats": row["seats"], "hands": row["hands"], "totals": row["totals"],
            "hands_won": row["hands_won"], "winners": row["winners"], "tie": row["tie"],
            "counted": row["counted"], "led_alone_from": row["led_alone_from"]}


def _match_rules_text(rules: Any) -> str:
    """A ruleset's match rules in a phrase: "10 hands", "first to 20, at most 30 hands"."""
    length = {"hands": f"{rules.hands} hands",
              "target": f"first to {rules.target}, at most {rules.hands} hands",
              "best_of": f"best of {rules.hands} hands"}[rules.length]
    return f"{length}, ties {rules.ties.replace('_', ' ')}"


def _signed(values: Sequence[int]) -> str:
    return " ".join(f"{v:+5d}" for v in values)


def _match_text(row: dict[str, Any], ruleset: Any, seed: int) -> str:
    rules = ruleset.match
    seats = ", ".join(f"{s} {level}" for s, level in enumerate(row["seats"]))
    lines = [f"{row['ruleset']}: a match ({_match_rules_text(rules)}, the deal passes "
             f"{rules.rotation.replace('_', ' ')}); seats {seats}; seed {seed}",
             f"{'deal':>4} {'dealer':>6}  {'hand':<10} {'scores':<{6 * len(row['seats'])}}"
             f" totals"]
    running = [0] * len(row["seats"])
    counted = 0
    for number, hand in enumerate(row["hands"], start=1):
        running = [t + s for t, s in zip(running, hand["scores"], strict=True)]
        counted += hand["counted"]
        what = (f"{counted:>2}" if hand["counted"] else "--") + (
            " thrown in" if hand["redeal"] else "")
        lines.append(f"{number:>4} {hand['dealer']:>6}  {what:<10} {_signed(hand['scores'])}"
                     f"  {_signed(running)}")
    winners = " and ".join(f"seat {s} ({row['seats'][s]})" for s in row["winners"])
    verdict = (f"a tie between {winners}" if row["tie"] else f"{winners} wins")
    lines.append(f"result: {verdict}{led_alone(row['led_alone_from'], row['counted'])}; "
                 f"totals {row['totals']}")
    return "\n".join(lines)


def _matches_text(summary: dict[str, Any], ruleset: Any) -> str:
    def rate(e: dict[str, Any]) -> str:
        return f"{100 * e['mean']:.1f}% [{100 * e['low']:.1f}, {100 * e['high']:.1f}]"

    rules = ruleset.match
    lines = [f"{summary['ruleset']}: {summary['matches']} matches "
             f"({_match_rules_text(rules)}), seed {summary['seed']}; 95% intervals"]
    lines += [f"  seat {s['seat']} ({s['level']}): won {rate(s['wins'])} outright"
              for s in summary["seats"]]
    if len(summary["levels"]) > 1:
        lines += [f"  level {level}: won {rate(e['win_rate'])} of the {e['seats_played']} "
                  "seats it played" for level, e in summary["levels"].items()]
    h, d = summary["hands"], summary["deals"]
    lines.append(f"  ties: {rate(summary['ties'])}")
    lines.append(f"  length: {h['mean']:.2f} hands [{h['low']:.2f}, {h['high']:.2f}], "
                 f"{d['mean']:.2f} deals [{d['low']:.2f}, {d['high']:.2f}]")
    lines.append(f"  led alone before the last hand: "
                 f"{rate(summary['led_alone_before_last'])}")
    return "\n".join(lines)


def _write_match_record(path: Path, row: dict[str, Any], ruleset: Any, seed: int) -> None:
    from ddz_rules.records import record_text, ruleset_beside

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"--record {path}: cannot create its folder: {exc.strerror}") from None
    named = ruleset_beside(path.parent, ruleset)
    record = {"ruleset": named, "seed": seed, "index": row["index"], "seats": row["seats"],
              "hands": [{**r, "ruleset": named} for r in row["records"]],
              "totals": row["totals"], "winners": row["winners"], "tie": row["tie"]}
    write_new(path, record_text(record, path), "choose another file for --record")


def cmd_rate(args: argparse.Namespace) -> int:
    from ddz_rules.compare.ratings import (
        RatingSpec,
        ladder_text,
        levels_of,
        rate,
        require_choix,
    )

    spec = RatingSpec(args.ruleset, levels_of(args.levels), args.seed, args.matches)
    spec.resolve()  # the ruleset, the levels and --matches checked before a hand is played
    require_choix()
    with _progress(args.progress, "matches") as tick, _terminate_cleanly():
        summary = rate(spec, workers=args.workers, scheduler=args.scheduler,
                       out=Path(args.out) if args.out else None, resume=args.resume,
                       progress=tick)
    _emit(args, summary, lambda: ladder_text(summary))
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    """A person plays one seat and bots the others, in the Textual app (``ddz_rules.play``):
    one hand, or with ``--match`` the ruleset's whole match; with ``--autoplay`` the bots play
    every seat and the result is printed, no terminal needed; with ``--serve`` the app is
    served to browsers. Every option is checked before the app starts or a file is written."""
    from ddz_rules.play.match_session import MatchSession, autoplay_match, open_game
    from ddz_rules.play.session import AIDS, aids_of, autoplay

    aids = aids_of(args.aids) if args.aids is not None else AIDS
    served_only = ("host", "port", "games", "pace", "timer", "expire", "relink")
    if not args.serve and any(getattr(args, name) is not None for name in served_only):
        raise UsageError("--host, --port, --games, --pace, --timer, --expire and --relink go "
                         "with --serve")
    if args.serve and args.autoplay:
        raise UsageError("--serve and --autoplay: choose one (--autoplay plays the game out "
                         "with no screen)")
    if args.serve:
        return _serve(args)
    ready: Callable[[], None] | None = None  # asked once every input is checked
    if not args.autoplay:
        from ddz_rules.play.app import require_terminal, require_textual, served

        require_textual()
        ready = require_terminal
    game = open_game(args.ruleset or "classic", args.seat, args.bots, args.seed, args.hint,
                     args.save, args.no_save, args.resume, args.autoplay, args.match, ready)
    thrown: list[str] = []
    if args.autoplay:
        if isinstance(game, MatchSession):
            autoplay_match(game)
        else:
            thrown = autoplay(game)
    else:
        from ddz_rules.play.app import run_app

        run_app(game, aids)
        if served():  # standard output carried the screen: nothing more is printed on it
            return 0
    path = game.save_path
    if isinstance(game, MatchSession):
        match = game

        def match_text() -> str:
            lines = [match.header(), *match.table(),
                     match.result_line() if match.over else match.totals_line()]
            if path is not None:
                lines.append(f"record: {path} (ddz replay {path} checks it)" if match.over
                             else f"saved: {path}; continue with: ddz play --resume {path}")
            return "\n".join(lines)

        _emit(args, match.to_json(), match_text)
        return 0
    session, hand = game, game.hand
    who = (f"seat {session.seat} played by {session.hint_level} (autoplay)" if args.autoplay
           else f"you played seat {session.seat}")
    payload = {"ruleset": hand.ruleset.id, "seed": hand.deal.seed, "seat": session.seat,
               "bots": session.bots, "hint": session.hint_level, "autoplay": args.autoplay,
               "over": session.over, "thrown_in": len(thrown),
               "result": hand.result.to_json() if hand.result else None,
               "record": str(path) if path else None}

    def text() -> str:
        lines = [f"{hand.ruleset.id}: {who}, the other seats by {session.bots}; seed "
                 f"{hand.deal.seed}", *thrown, *session.result_lines()]
        if path is not None:
            lines.append(f"record: {path} (ddz replay {path} checks it)" if session.over
                         else f"saved: {path}; continue with: ddz play --resume {path}")
        return "\n".join(lines)

    _emit(args, payload, text)
    return 0


def _serve(args: argparse.Namespace) -> int:
    """``ddz play --serve``: a new table for the ruleset (your seat, bots in the others), its
    links printed, and every table of the games folder served to browsers."""
    from ddz_rules.play.serve import (
        DEFAULT_EXPIRE,
        DEFAULT_PACE,
        check_expire,
        check_pace,
        default_games_dir,
        listen_address,
        relink,
        require_web,
        serve,
        tables_lines,
    )
    from ddz_rules.play.session import check_level, check_players
    from ddz_rules.play.web.game import HUMAN, WebGame, check_timer, new_token
    from ddz_rules.play.web.server import end_link, seat_link

    for option in ("save", "no_save", "resume", "hint", "aids"):
        if getattr(args, option):
            name = "--" + option.replace("_", "-")
            raise UsageError(f"{name} does not go with --serve: the browser table keeps its "
                             "games in --games DIR and resumes them when it starts again")
    if args.relink is not None and args.timer is not None:
        raise UsageError("--relink and --timer: choose one (--relink deals no new table)")
    require_web()
    ruleset = load(args.ruleset or "classic")
    seat = 0 if args.seat is None else args.seat
    check_players(ruleset, seat)
    bots = args.bots or "standard"
    check_level(bots, "--bots")
    seed = args.seed
    if seed is not None:
        check_seed(seed)
    pace = DEFAULT_PACE if args.pace is None else args.pace
    check_pace(pace)
    check_timer(args.timer, Named("timer"))
    expire = check_expire(DEFAULT_EXPIRE if args.expire is None else args.expire)
    host, port, url = listen_address(args.host, args.port)
    games = Path(args.games) if args.games is not None else default_games_dir()
    if args.relink is not None:
        game_id, seat, token = relink(games, args.relink)
        lines = [f"seat {seat} of game {game_id}, a new link (the old one no longer works): "
                 f"{url}{seat_link(game_id, seat, token)}"]
    else:
        seats = [HUMAN if s == seat else bots for s in range(ruleset.players)]
        owner = new_token()
        game, tokens = WebGame.create(ruleset, seats, args.match, seed, games,
                                      timer=args.timer, owner=owner)
        game_id = game.id
        lines = [f"seat {s}: {url}{seat_link(game.id, s, t)}" for s, t in tokens.items()]
        lines += [f"watch: {url}/game/{game.id}",
                  f"end this table: {url}{end_link(game.id, owner)}"]
    lines += [f"lobby: {url}/ (new tables, and replays of finished hands)",
              f"games: {games} (ddz replay checks each record; Ctrl+C stops the server)"]

    def announce(tables: Tables) -> None:
        found = tables_lines(tables, url, game_id)
        if any(line.startswith("resumed: ") for line in found):
            found.append(f"a seat's new link (its old one then stops working): ddz play "
                         f"--serve --games {games} --relink=ID:SEAT")
        print("\n".join([*lines, *found]), flush=True)

    serve(games, host, port, announce, pace, expire_after=expire)
    _emit(args, {"served": url, "game": game_id, "games": str(games)},
          lambda: f"ddz play: stopped serving on {url}; the games are kept in {games}")
    return 0


class _terminate_cleanly:
    """While a run plays, SIGTERM stops it as Ctrl-C does: workers stopped, results kept."""

    def __enter__(self) -> None:
        import signal

        def stop(signum: int, frame: object) -> None:
            raise KeyboardInterrupt

        try:
            self.previous: Any = signal.signal(signal.SIGTERM, stop)
        except ValueError:  # not the main thread: leave signals alone
            self.previous = None

    def __exit__(self, *exc: object) -> None:
        import signal

        if self.previous is not None:
            signal.signal(signal.SIGTERM, self.previous)


class _progress:
    """A progress bar on stderr (rich, when stderr is a terminal) with the run's rate and the
    time it will take in all, estimated by :class:`~ddz_rules.compare.progress.RunClock` from
    the rate results come in once the run has started up; a long run also gets that estimate
    as one line, terminal or not, so a slow bot level never surprises anyone."""

    #: A run expected to last longer than this (seconds) is announced with its estimate.
    LONG = 60.0

    def __init__(self, enabled: bool, unit: str = "hands") -> None:
        from ddz_rules.compare.progress import RunClock

        self.unit = unit
        self.announce = enabled
        self.enabled = enabled and sys.stderr.isatty()
        self.bar: Any = None
        self.task: Any = None
        self.clock = RunClock()
        self.estimated = False

    def __enter__(self) -> Callable[[int, int], None]:
        if self.enabled:
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

            self.bar = Progress(TextColumn(self.unit), BarColumn(), MofNCompleteColumn(),
                                TextColumn("{task.fields[rate]}"),
                                TextColumn("{task.fields[total_time]}"), transient=True)
            self.bar.__enter__()
        return self.tick

    def tick(self, done: int, total: int) -> None:
        first = self.clock.start is None
        estimate = self.clock.tick(done, total, time.monotonic())
        if self.bar is not None:
            if first:
                self.task = self.bar.add_task(self.unit, total=total, completed=done,
                                              rate="", total_time="starting")
            elif estimate is None:
                self.bar.update(self.task, completed=done, total_time="estimating")
            else:
                self.bar.update(self.task, completed=done,
                                rate=f"{1 / estimate.per_unit:.1f} {self.unit}/s",
                                total_time=f"about {_duration(estimate.whole)} in all")
        if (estimate is None or not self.announce or self.estimated
                or estimate.whole <= self.LONG or done >= total):
            return
        self.estimated = True
        one = self.unit.removesuffix("es") if self.unit.endswith("ches") else \
            self.unit.removesuffix("s")
        assert self.clock.start is not None
        message = (f"ddz: {estimate.per_unit:.2f} s a {one} since the first results: the "
                   f"{total - self.clock.start[0]} {self.unit} to play will take about "
                   f"{_duration(estimate.whole)} in all")
        if self.bar is not None:
            self.bar.console.print(message)
        else:
            print(message, file=sys.stderr, flush=True)

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)


def _duration(seconds: float) -> str:
    """A duration as people say it: 40 s, 12 min, 3.5 h."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


# ------------------------------------------------------------------------- parser


def _run_options(p: argparse.ArgumentParser, unit: str, progress: bool = True) -> None:
    """The options of every command that plays a run: where it plays, and its results file."""
    p.add_argument("--workers", type=int, default=1, help="local worker processes")
    p.add_argument("--scheduler", metavar="ADDRESS", help="a Dask scheduler to run on")
    p.add_argument("--out", metavar="FILE", type=_path,
                   help=f"append each finished {unit} to this JSON Lines file")
    p.add_argument("--resume", action="store_true", help="continue the run in --out FILE")
    refuse(p, lambda a: a.resume and a.out is None,
           "--resume needs --out FILE, the results file to continue")
    if progress:
        p.add_argument("--no-progress", dest="progress", action="store_false",
                       help="no progress bar")


#: What every --help says of exit codes 2, 3 and 130 ("Exit codes: CODE what; ...").
EXIT_USAGE = "2 a usage error or bad input, one line on stderr naming what is at fault; "
EXIT_INTERRUPTED = ("3 an internal error, a bug in ddz-rules (one line naming it; please "
                    "report it with the command); 130 interrupted.")
#: Adds a command to the parser: its name, function, help and whether it takes -r RULESET.
Add = Callable[..., argparse.ArgumentParser]


def build_parser() -> argparse.ArgumentParser:
    """The ``ddz`` parser: the commands that answer questions about rules and records, the
    ones that play runs of hands, the rating and the play, each group added by its own
    function."""
    parser = _Parser(prog="ddz", description="The rules of Dou Dizhu as data, and one referee "
                     "for every ruleset.",
                     epilog="Exit codes: 0 done, or the question answered; 1 ddz check found a "
                     "defect, or ddz replay an invalid record; " + EXIT_USAGE + EXIT_INTERRUPTED)
    parser.add_argument("--version", action=_Version, nargs=0,
                        help="print the version and which path lists plays, then exit")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    def add(name: str, func: Callable[[argparse.Namespace], int], help_text: str,
            ruleset: bool = False) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help_text, description=help_text,
                           epilog="Exit codes: 0 done, or the question answered; " + EXIT_USAGE
                           + EXIT_INTERRUPTED)
        p.add_argument("--json", action="store_true", help="print JSON")
        if ruleset:
            p.add_argument("-r", "--ruleset", default="classic",
                           help="bundled ruleset id or path to a ruleset file (default: classic)")
        p.set_defaults(func=func, refusals=())
        return p

    _question_commands(add)
    _exchange_commands(add)
    _botzone_command(add)
    _run_commands(add)
    _deals_command(add)
    _rate_command(add)
    _play_command(add)
    return parser


def _question_commands(add: Add) -> None:
    """rules, check, classify, beats, moves, plays, diff and replay: questions answered."""
    add("rules", cmd_rules, "List the bundled rulesets.")
    p = add("check", cmd_check, "Validate and compile rulesets; print plays per type and every "
            "play that reads more than one way.")
    p.add_argument("rulesets", nargs="*", metavar="RULESET_OR_PATH",
                   help="ids or files (default: every bundled ruleset)")
    p.epilog = ("Exit codes: 0 every ruleset is sound; 1 a defect: a ruleset that claims "
                "unique readings has a play that reads several ways; 2 an unknown ruleset, a "
                "ruleset file that cannot be loaded, or another usage error; " + EXIT_INTERRUPTED)
    p = add("classify", cmd_classify, "Read a card set: its readings, or why it is not a play.",
            ruleset=True)
    p.add_argument("cards", metavar="CARDS", help="card text, or CARDS@type/length/rank to ask "
                   "about one reading")
    p.add_argument("--wild", metavar="RANKS", help=WILD_HELP)
    p.epilog = ("Exit codes: 0 answered, whether or not CARDS is a legal play (when it is not, "
                "the rule that forbids it is the answer); 2 CARDS is empty or is not card "
                "text of the ruleset's deck, or another usage error; " + EXIT_INTERRUPTED)
    p = add("beats", cmd_beats, "Does PLAY beat PREVIOUS?", ruleset=True)
    p.add_argument("play", metavar="PLAY")
    p.add_argument("previous", metavar="PREVIOUS")
    p.add_argument("--wild", metavar="RANKS", help=WILD_HELP)
    p.epilog = ("Exit codes: 0 answered, yes or no, for two legal plays; 2 PLAY or PREVIOUS "
                "is empty, is not card text or is not a legal play (the error names which, and "
                "why), or another usage error; " + EXIT_INTERRUPTED)
    p = add("moves", cmd_moves, "Every legal play from a hand, leading or answering a play.",
            ruleset=True)
    p.add_argument("hand", metavar="HAND")
    p.add_argument("--beat", metavar="PLAY", help="the play to answer (default: leading)")
    p.add_argument("--wild", metavar="RANKS", help=WILD_HELP)
    p.add_argument("--next-cards", type=int, metavar="N",
                   help="cards the next player holds, for play.last_card_warning and "
                        "scoring.liability (default: more than one)")
    p.add_argument("--first", action="store_true",
                   help="the hand's first play, by the holder of the lead card "
                        "(play.first_play_holds_lead_card)")
    p.epilog = ("HAND is the player's whole hand, so a combination of play.last_play_only is "
                "listed only where it empties it. Exit codes: 0 the plays listed; " + EXIT_USAGE
                + EXIT_INTERRUPTED)
    add("plays", cmd_plays, "The whole play table as JSON Lines: test vectors for other engines.",
        ruleset=True)
    p = add("solve", cmd_solve, "Exact play with every hand open: whether the side of the seat "
            "to act wins with perfect play, every winning play (or the play that holds out "
            "longest), a line of play, and the positions searched.", ruleset=True)
    asked = p.add_mutually_exclusive_group(required=True)
    asked.add_argument("--hands", metavar="H0/H1[/H2[/H3]]",
                       help="every seat's cards, seat 0 first, separated by /")
    asked.add_argument("--deal", type=_seed, metavar="SEED",
                       help="instead of --hands and the options that place them: the whole "
                            "deal the ruleset deals with this seed, every card open, the first "
                            "bidder taking the kitty and leading as the landlord (Run Fast: the "
                            "first leader, whose first play holds the lead card)")
    p.add_argument("--to", type=int, metavar="N", help="the seat to act (with --hands)")
    p.add_argument("--landlord", type=int, metavar="N",
                   help="the landlord's seat, where the ruleset has one (default 0)")
    p.add_argument("--partner", type=int, metavar="N",
                   help="the landlord's partner, where a called rank makes one (teams.partner)")
    p.add_argument("--robs", type=int, metavar="K",
                   help="robs made, where they set the peasant's advantage line (default 0)")
    p.add_argument("--beat", metavar="CARDS", help="the play the seat to act must beat "
                   "(default: it leads)")
    p.add_argument("--by", type=int, metavar="N", help="the seat that made the play to beat")
    p.add_argument("--wild", metavar="RANKS", help=WILD_HELP)
    p.add_argument("--first", action="store_true",
                   help="the hand's first play, a lead by the holder of the lead card, which "
                        "it must hold (play.first_play_holds_lead_card): a whole deal from "
                        "its start")
    p.add_argument("--seconds", type=float, metavar="S",
                   help="a time budget: past it, the answer is unknown (default: none)")
    p.add_argument("--memory", type=float, metavar="MB",
                   help=f"the search table's budget in megabytes (default {MEMORY_MB:g}, "
                        f"{LARGE_MEMORY_MB:g} where more than {LARGE_CARDS} cards are in play)")
    p.add_argument("--positions", type=int, metavar="N",
                   help="a budget of positions searched, the same on any machine (default: "
                        "none)")
    p.add_argument("--rest-positions", type=int, default=REST_POSITIONS, metavar="N",
                   help="the positions it may search once it has the answer, drawing a line "
                        "and sorting the other moves (default "
                        f"{REST_POSITIONS:,}; 0: no bound but the others)")
    p.epilog = ("The answer comes first, then a line, then the winning plays (the moves "
                "cheapest to prove sorted first): a budget that runs out after the answer "
                "keeps it and says how far the rest got; one that runs out before it answers "
                "unknown, with the moves already proved losing. A whole deal is answered long "
                "before its every first play is proved, which is why the rest has a budget of "
                "its own. "
                "Exit codes: 0 answered (a win, a loss, or unknown within the budget); "
                + EXIT_USAGE + EXIT_INTERRUPTED)
    p = add("diff", cmd_diff, "Every rule that differs between two rulesets (both values and "
            "both texts), then the plays legal in one only and the plays read differently.")
    p.add_argument("a", metavar="A")
    p.add_argument("b", metavar="B")
    p.add_argument("--examples", type=int, default=EXAMPLES, help="examples per section")
    p = add("replay", cmd_replay, "Check a hand record action by action, or a match record "
            "hand by hand, and print its result.")
    p.add_argument("record", metavar="RECORD.json")
    p.add_argument("-r", "--ruleset", help="judge the hand under this ruleset (a bundled id) "
                   "instead of the one the record names")
    p.add_argument("--serve", action="store_true", help="step through the record on a page "
                   "of the browser table instead (needs the play extra): forward, back and "
                   "trick by trick, every hand shown; Ctrl+C stops the server")
    _address_options(p)
    p.epilog = ("Exit codes: 0 the record is valid (with --serve: the server was stopped); "
                "1 it is invalid: an illegal action (its index and the reason are printed), "
                "a record that stops before the hand or "
                "match ends, or a match hand dealt by the wrong seat; 2 the file cannot be read "
                "or is not a well-formed record (the error names the file and the field), "
                "including a match record whose totals or winners are not what its hands "
                "give, or another usage error; " + EXIT_INTERRUPTED)


def _exchange_commands(add: Add) -> None:
    """export and import: hand records to and from other projects' replays."""
    p = add("export", cmd_export, "Write a hand record as another project's replay: "
            "rlcard-showdown's replay JSON, which its Dou Dizhu replay view loads.")
    p.add_argument("record", metavar="RECORD.json")
    p.add_argument("--format", choices=("showdown",), default="showdown", metavar="FORMAT",
                   help="showdown (rlcard-showdown's replay; the default and only one)")
    p.add_argument("--out", metavar="FILE", type=_path, help="write it to FILE (default: "
                   "print it; " + NEVER_OVERWRITTEN + ")")
    p = add("import", cmd_import, "Read another project's replay as a hand record, which "
            "ddz replay then judges: rlcard-showdown's replay JSON, or RLCard's trace of a "
            "game.")
    p.add_argument("file", metavar="REPLAY")
    p.add_argument("--format", choices=IMPORT_FORMATS, required=True, metavar="FORMAT",
                   help="showdown (rlcard-showdown's replay) or rlcard-trace (RLCard's "
                        "hand_cards, trace and seen_cards as JSON)")
    p.add_argument("-r", "--ruleset", help="the record's ruleset, a bundled id (default: the "
                   "one the replay names, else rlcard, RLCard's game)")
    p.add_argument("--kitty", metavar="CARDS", help="the three of the landlord's cards that "
                   "were the kitty, where the replay does not say (default: his three highest)")
    p.add_argument("--out", metavar="FILE", type=_path, help="write the record to FILE "
                   "(default: print it; " + NEVER_OVERWRITTEN + ")")
    p.epilog = ("A move the ruleset does not allow is kept in the record and named on stderr; "
                "ddz replay judges the record. Exit codes: 0 the record was made; "
                + EXIT_USAGE + EXIT_INTERRUPTED)


def cmd_export(args: argparse.Namespace) -> int:
    from ddz_rules.showdown import to_showdown

    replay_data = to_showdown(read_record(args.record), args.record)
    text = json.dumps(replay_data, ensure_ascii=False) + "\n"
    if args.out is None:
        sys.stdout.write(text)
        return 0
    write_new(Path(args.out), text, "name a new file")
    _emit(args, {"file": args.out, "format": args.format},
          lambda: f"{args.out}: the rlcard-showdown replay of {args.record}")
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    from ddz_rules.showdown import read_replay, record_json

    imported = read_replay(args.file, args.format, args.ruleset, args.kitty)
    text = record_json(imported)
    if imported.fault is not None:
        index, reason = imported.fault
        print(f"ddz: note: action {index} of the record is not allowed by "
              f"{imported.record['ruleset']}: {reason} (ddz replay judges the record)",
              file=sys.stderr)
    if args.out is None:
        sys.stdout.write(text)
        return 0
    write_new(Path(args.out), text, "name a new file")
    _emit(args, {"file": args.out, "format": args.format, "ruleset": imported.record["ruleset"],
                 "actions": len(imported.record["auction"]) + len(imported.record["plays"])},
          lambda: f"{args.out}: the hand record of {args.file}, under "
                  f"{imported.record['ruleset']}")
    return 0


def _botzone_command(add: Add) -> None:
    """botzone: a bot for Botzone's Fight the Landlord games."""
    p = add("botzone", cmd_botzone, "A Botzone bot: read one Fight the Landlord (or Fight the "
            "Landlord 2) input on standard input, print the answer, a legal play of its own "
            "cards ([] to pass) or a bid, as Botzone's JSON.")
    p.add_argument("input", nargs="?", metavar="INPUT", help="read the input from this file "
                   "instead of standard input (to try a request by hand)")
    p.add_argument("-r", "--ruleset", help="the rules to play by (default: botzone for Fight "
                   "the Landlord 2's requests, botzone-ftl1 for Fight the Landlord's)")
    p.add_argument("--level", default="extreme", help="the bot: random, standard, medium, "
                   "extreme (default extreme, the strongest: under a tenth of a second an answer "
                   "and under a second a whole start on one core; benchmarks/bench_botzone.py)")
    p.add_argument("--seed", type=_seed, help="seed of the bot's draws (default: the input's "
                   "digest, so one input always gets one answer)")
    p.add_argument("--keep-running", action="store_true", help="Botzone's long-running mode: "
                   "after each answer, print its keep-running line and read the next request "
                   "alone, until standard input ends")
    p.epilog = ("The output is Botzone's JSON, --json or not. Exit codes: 0 answered; 2 a "
                "malformed or impossible input (one line on stderr naming the request and the "
                "field; no answer is printed), or another usage error; " + EXIT_INTERRUPTED)


def cmd_botzone(args: argparse.Namespace) -> int:
    from ddz_rules.bots.botzone import MAX_INPUT_BYTES, main_loop
    from ddz_rules.errors import RecordError

    if args.input is not None:
        from ddz_rules.inputs import read_bounded

        whole = read_bounded(args.input, MAX_INPUT_BYTES,
                             lambda reason: RecordError(f"{args.input}: {reason}"))
        stream: Any = io.BytesIO(whole)
    else:
        stream = sys.stdin.buffer
    where = args.input or "input"

    def read_line() -> str:
        raw: bytes = (stream.readline(MAX_INPUT_BYTES + 1) if args.keep_running
                      else stream.read(MAX_INPUT_BYTES + 1))
        if len(raw) > MAX_INPUT_BYTES:
            raise RecordError(f"{where}: over {MAX_INPUT_BYTES} bytes; a Botzone input is "
                              "smaller")
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise RecordError(f"{where}: not UTF-8 text (byte {exc.start})") from None

    def write(line: str) -> None:
        print(line, flush=True)

    main_loop(read_line, write, args.level, args.ruleset, args.seed, args.keep_running, where)
    return 0


def _address_options(p: argparse.ArgumentParser) -> None:
    """``--host`` and ``--port``: where a command with ``--serve`` listens."""
    p.add_argument("--host", metavar="H", help="with --serve: the name or address to listen "
                   "on (default 127.0.0.1, this machine only)")
    p.add_argument("--port", type=int, metavar="P", help="with --serve: the port to listen on, "
                   "1 to 65535 (default 8000)")


def _deals_options(p: argparse.ArgumentParser) -> None:
    """``--deals`` and ``--deals-format``: play the deals of a deal set."""
    p.add_argument("--deals", metavar="FILE", type=_path, help="play the deals of this deal "
                   "set, in order, instead of seeded ones: ours (JSON Lines, ddz deals "
                   "export) or DouZero's evaluation pickle")
    p.add_argument("--deals-format", choices=FORMATS, metavar="FORMAT",
                   help="the deal set's format (default: the one its first byte shows)")
    refuse(p, lambda a: a.deals_format is not None and a.deals is None,
           "--deals-format says how to read --deals FILE; give the file")


def _deals_command(add: Add) -> None:
    """deals: deal sets written and checked."""
    p = add("deals", cmd_deals, "Deal sets: export writes N seeded deals of the ruleset "
            "(those ddz compare plays with the same seed) or the deals of --from FILE, as ours "
            "(JSON Lines) or as DouZero's evaluation pickle; check reads a set as the ruleset "
            "deals it and says what it holds.", ruleset=True)
    p.add_argument("action", choices=("export", "check"), metavar="ACTION",
                   help="export (write DEALS) or check (read DEALS)")
    p.add_argument("file", metavar="DEALS", type=_path, help="the deal-set file")
    p.add_argument("--format", choices=FORMATS, metavar="FORMAT",
                   help="jsonl (ours) or douzero (DouZero's pickle); default: jsonl to export, "
                        "and to check, the one the file's first byte shows")
    p.add_argument("--count", type=int, metavar="N", help="export: seeded deals to write")
    p.add_argument("--seed", type=_seed, help="export: the run seed of the deals (default 0)")
    p.add_argument("--from", dest="source", metavar="FILE", type=_path,
                   help="export: write the deals of this deal set instead")
    p.add_argument("--from-format", choices=FORMATS, metavar="FORMAT",
                   help="export: the format of --from FILE (default: the one its first byte "
                        "shows)")
    refuse(p, lambda a: a.action == "export" and (a.count is None) == (a.source is None),
           "export takes --count N (seeded deals) or --from FILE (another set's deals), one")
    refuse(p, lambda a: a.action == "check" and (
        a.count is not None or a.source is not None or a.seed is not None),
           "check reads DEALS: --count, --seed and --from go with export")
    refuse(p, lambda a: a.from_format is not None and a.source is None,
           "--from-format says how to read --from FILE; give the file")
    refuse(p, lambda a: a.seed is not None and a.source is not None,
           "--seed seeds the deals of --count N; --from FILE's deals are the file's")
    p.epilog = (f"{NEVER_OVERWRITTEN.capitalize()}. Exit codes: 0 done; " + EXIT_USAGE
                + EXIT_INTERRUPTED)


def cmd_deals(args: argparse.Namespace) -> int:
    ruleset = load(args.ruleset)
    if args.action == "export":
        if args.source is not None:
            deals = read_deals(args.source, ruleset, args.from_format).deals
        else:
            deals = tuple(seeded_deals(ruleset, args.count, args.seed or 0))
        form = args.format or "jsonl"
        written = export_deals(ruleset, deals, Path(args.file), form)
        payload = {"file": args.file, "format": form, "deals": len(deals),
                   "ruleset": ruleset.id, "written": written}
        _emit(args, payload, lambda: f"{args.file}: {len(deals)} deals of {ruleset.id} in "
              f"the {form} format" + ("" if written else " (already there, kept)"))
        return 0
    dealset = read_deals(args.file, ruleset, args.format)
    payload = {"file": args.file, "format": dealset.format, "deals": len(dealset.deals),
               "ruleset": ruleset.id, "digest": dealset.digest}
    _emit(args, payload, lambda: f"{args.file}: {len(dealset.deals)} deals in the "
          f"{dealset.format} format, each a deal {ruleset.id} can play (digest "
          f"{dealset.digest})")
    return 0


def _run_commands(add: Add) -> None:
    """simulate, compare and match: runs of hands or matches."""
    p = add("simulate", cmd_simulate, "Play hands with uniformly random legal players and "
            "summarise them.", ruleset=True)
    p.add_argument("--hands", type=int, help="hands to play (default 1000, or every deal of "
                   "--deals)")
    p.add_argument("--seed", type=_seed, default=0, help="run seed (default 0)")
    p.add_argument("--records", metavar="DIR", type=_path, help="write every hand's record "
                   "here (" + NEVER_OVERWRITTEN + ")")
    _deals_options(p)
    p = add("compare", cmd_compare, "Play many paired hands per ruleset with bots and compare "
            "the rulesets, with 95 percent confidence intervals.")
    p.add_argument("rulesets", nargs="+", metavar="RULESET")
    p.add_argument("--hands", type=int, help="hands per ruleset (default 1000, or every deal "
                   "of --deals)")
    _deals_options(p)
    p.add_argument("--bots", help="bot level for every seat: random, "
                   "standard, medium, extreme (default medium: it bids and plays to the "
                   "ruleset's stakes)")
    p.add_argument("--seed", type=_seed, default=0, help="run seed (default 0)")
    _run_options(p, "hand", progress=False)
    p.add_argument("--csv", action="store_true", help="print CSV instead of the table")
    p.add_argument("--plots", metavar="DIR", type=_path,
                   help="write PNG charts of the main measures")
    p.add_argument("--match-levels", metavar="STRONGER,WEAKER",
                   help="compare whole matches instead of hands: the stronger level in one "
                   "seat, the weaker in the others (the match measures)")
    p.add_argument("--matches", type=int,
                   help=f"matches per ruleset with --match-levels (default {MATCHES_COMPARED})")
    p.add_argument("--open-hand", action="store_true",
                   help="judge each hand with every card open: its endgame, and its whole "
                   "deal as the play begins where the search answers it within a million "
                   "positions (the share answered is reported); the open-hand landlord win "
                   "rates, which depend on no bot (ddz solve; about a second a hand more with "
                   "the compiled modules, far more without), and how often the kitty decides "
                   "the whole deal")
    p.add_argument("--whole-positions", type=int, metavar="N",
                   help="with --open-hand, the positions each whole deal's judgement may "
                   "search (default 1,000,000, about a second; the same answers on any "
                   "machine)")
    p.add_argument("--no-progress", dest="progress", action="store_false",
                   help="no progress bar")
    refuse(p, lambda a: a.matches is not None and a.match_levels is None,
           "--matches counts the matches of --match-levels; give both, or --hands alone")
    refuse(p, lambda a: a.match_levels is not None and (
        a.hands is not None or a.bots is not None or a.deals is not None or a.open_hand
        or a.whole_positions is not None),
           "--match-levels plays whole matches with its own two levels, so --hands, --bots, "
           "--deals, --open-hand and --whole-positions cannot be given with it")
    p = add("match", cmd_match, "Play whole matches (the ruleset's match rules) with a bot "
            "level per seat; one match hand by hand, or many summarised.", ruleset=True)
    p.add_argument("--bots", default="standard", metavar="LEVEL[,LEVEL,...]",
                   help="one level for every seat, or one per seat in seat order "
                   "(random, standard, medium, extreme; default standard)")
    p.add_argument("--seed", type=_seed, default=0, help="run seed (default 0)")
    p.add_argument("--matches", type=int, default=1, help="matches to play (default 1)")
    p.add_argument("--record", metavar="FILE", type=_path, help="write the match record (one "
                   "match; " + NEVER_OVERWRITTEN + ")")
    _run_options(p, "match")
    refuse(p, lambda a: a.record is not None and a.out is not None,
           "--record and --out: --record writes one match played here as a match record, "
           "--out a run's results file; choose one")
    refuse(p, lambda a: a.matches == 1 and a.out is None and (
        a.scheduler is not None or a.workers != 1),
           "--scheduler and --workers play a run of matches (--matches M, or --out FILE); "
           "one match is played here, hand by hand: leave them out")


def _rate_command(add: Add) -> None:
    """rate: bot levels rated from seeded matches."""
    p = add("rate", cmd_rate, "Rate bot levels against each other from many seeded matches: "
            "Bradley-Terry ratings on the Elo scale with 95 percent bootstrap intervals, as a "
            "ladder (needs choix: pip install 'ddz-rules[ratings]').", ruleset=True)
    p.add_argument("--levels", required=True, metavar="LEVEL,LEVEL[,...]",
                   help="the levels to rate, each once (random, standard, medium, extreme); "
                   "the first is anchored at 1000")
    p.add_argument("--matches", type=int, default=360, help="matches to play, seating the "
                   "levels in turn every way (default 360: whole seating cycles for any two to "
                   "four levels)")
    p.add_argument("--seed", type=_seed, default=0, help="run seed (default 0)")
    _run_options(p, "match")


def _play_command(add: Add) -> None:
    """play: a hand or a match played by a person, in the terminal or a browser."""
    p = add("play", cmd_play, "Play a hand yourself, or a whole match: one seat is yours, "
            "bots play the others, through the auction and the play, in the terminal or a "
            "browser (needs Textual: pip install 'ddz-rules[play]'). The game is saved after "
            "every action as a hand record, or a match record.", ruleset=True)
    p.set_defaults(ruleset=None)  # classic, unless a resumed game's record names another
    refuse(p, lambda a: a.resume is not None and a.ruleset is not None,
           "--resume FILE plays the ruleset its record names; leave out --ruleset")
    p.add_argument("--seat", type=int, metavar="N", help="your seat (default 0)")
    p.add_argument("--bots", metavar="LEVEL", help="the other seats' bot level: random, "
                   "standard, medium, extreme (default standard)")
    p.add_argument("--seed", type=_seed, metavar="S", help="deal seed, or with --match the "
                   "match seed that every deal's seed comes from (default: a random one, "
                   "shown and kept in the record)")
    p.add_argument("--match", action="store_true", help="play the ruleset's whole match (its "
                   "match rules: length, hands, target, ties, rotation, redeal), deal after "
                   "deal with the running totals, saved as a match record")
    p.add_argument("--hint", metavar="LEVEL", help="the bot level whose choice the hint "
                   "shows, and that plays your seat with --autoplay (default medium)")
    p.add_argument("--aids", metavar="AID[,AID,...]", help="the aids shown at the start, "
                   "each also switched on and off while playing: hint, counter, advantage, "
                   "counts, auction, trick; all or none (default all)")
    p.add_argument("--save", metavar="FILE", type=_path,
                   help="the file the game is saved to after every action (default "
                   "ddz-play-RULESET-seedS.json, or with --match "
                   "ddz-play-RULESET-match-seedS.json, in the current folder; who plays "
                   "which seat is kept beside it in FILE.play.json; " + NEVER_OVERWRITTEN
                   + ")")
    p.add_argument("--no-save", action="store_true", help="do not save the game")
    p.add_argument("--resume", metavar="FILE", help="continue the hand or match saved in FILE "
                   "where it stopped, mid-hand included (its ruleset, seed and seats are the "
                   "saved ones)")
    p.add_argument("--autoplay", action="store_true", help="bots play your seat too (the "
                   "--hint level): the hand or match is played out and its result printed, "
                   "with no terminal needed")
    p.add_argument("--serve", action="store_true", help="serve a card table to browsers "
                   "instead of the terminal (needs starlette and uvicorn, in the play extra): "
                   "a new table for the ruleset, your seat's link printed, every table of "
                   "--games resumed; Ctrl+C stops the server")
    p.add_argument("--games", metavar="DIR", type=_path, help="with --serve: the folder of "
                   "the saved tables (default $DDZ_GAMES_DIR, else "
                   "~/.local/share/ddz-rules/games)")
    _address_options(p)
    p.add_argument("--pace", type=float, metavar="S", help="with --serve: seconds between two "
                   "moves of the bots, so that each is seen (default 0.7; 0: at once)")
    p.add_argument("--timer", type=int, metavar="S", help="with --serve: the new table's turn "
                   "timer, 5 to 3600 seconds: a person who takes longer has the standard bot "
                   "play their turn (or, at a hand's end, the next hand dealt); default none")
    p.add_argument("--expire", type=float, metavar="MIN", help="with --serve: a finished "
                   "table left unchanged this many minutes is ended (default 1440, a day); "
                   "its hands stay for replay")
    p.add_argument("--relink", metavar="ID:SEAT", help="with --serve: give a person's seat of "
                   "a saved table a new link (the old one stops working) instead of dealing a "
                   "new table")
    p.epilog = ("Exit codes: 0 the hand or match was played, or left with its progress saved, "
                "or the server was stopped (nothing typed during the game ends it with an "
                "error: a refused action gets its reason on screen and the game goes on); "
                + EXIT_USAGE + EXIT_INTERRUPTED)


#: The library's arguments whose option has another name than theirs.
OPTION_OF = {"hint_level": "--hint"}


def option(name: str) -> str:
    """The option of the command line that gives the library's argument ``name``: what an
    error names (:meth:`~ddz_rules.errors.DdzError.words`) in the command line's words.

    >>> option("next_cards"), option("hint_level")
    ('--next-cards', '--hint')
    """
    return OPTION_OF.get(name, "--" + name.replace("_", "-"))


class _UserLines(logging.Handler):
    """What the library says it is doing (its ``ddz_rules`` logger), one ``ddz: ...`` line on
    the standard error of the moment: the library itself prints nothing."""

    def emit(self, record: logging.LogRecord) -> None:
        print(f"ddz: {record.getMessage()}", file=sys.stderr, flush=True)


def _tell_the_user() -> None:
    """Show the library's progress lines, once per process."""
    logger = logging.getLogger("ddz_rules")
    if not any(isinstance(h, _UserLines) for h in logger.handlers):
        logger.addHandler(_UserLines())
        logger.setLevel(logging.INFO)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``ddz`` command."""
    _tell_the_user()
    stdout = sys.stdout
    sys.stdout = _GuardedOutput(stdout)
    try:
        args = build_parser().parse_args(argv)
        _check_refusals(args)
        code: int = args.func(args)
        sys.stdout.flush()
        return code
    except DdzError as exc:
        print(f"ddz: error: {exc.words(option)}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except OutputFailed as exc:
        _silence_stdout()
        print(f"ddz: error: writing to standard output failed: {exc.strerror or exc}",
              file=sys.stderr)
        return 2
    except KeyboardInterrupt as exc:  # Ctrl-C, or SIGTERM during a run
        kept = exc.args[0] if exc.args else None  # what a run kept (compare.run._kept)
        said = kept.words(option) if isinstance(kept, DdzError) else str(exc)
        print(f"ddz: interrupted{f'; {said}' if said else ''}", file=sys.stderr)
        return 130
    except Exception as exc:  # a bug: still one line, never a traceback
        return _internal_error(exc)
    finally:
        sys.stdout = stdout


def _internal_error(exc: BaseException) -> int:
    """Say in one line where a bug struck, never with a traceback; exit code 3."""
    where = traceback.extract_tb(exc.__traceback__)[-1] if exc.__traceback__ else None
    at = f" at {Path(where.filename).name}:{where.lineno}" if where else ""
    print(f"ddz: internal error: {type(exc).__name__}{at}: {exc} (a bug in ddz-rules; "
          "please report it with the command that caused it)", file=sys.stderr)
    return 3


class _GuardedOutput:
    """Standard output whose failures to write are told apart from a bug's: a full disk
    behind ``> file`` is the user's to know, in one line."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return int(self._stream.write(text))
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise OutputFailed(exc.errno, exc.strerror) from None

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise OutputFailed(exc.errno, exc.strerror) from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _silence_stdout() -> None:
    """Point standard output's file at the null device, so that what it still holds does
    not fail again as the program exits."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)


def run() -> NoReturn:
    """The ``ddz`` program: :func:`main`, then exit with its code. Where a run stopped its
    worker processes mid-run (an interrupt or a fault), the program ends without waiting on
    their pool's thread, which may wait for good on a worker stopped while sending
    (:func:`ddz_rules.compare.executors.pools_abandoned`); what it kept is already closed."""
    code = main()
    executors = sys.modules.get("ddz_rules.compare.executors")
    if executors is not None and executors.pools_abandoned():
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    sys.exit(code)


if __name__ == "__main__":
    run()
