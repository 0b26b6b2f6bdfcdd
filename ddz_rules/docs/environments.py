"""The Environments page: :mod:`ddz_rules.env` for learning agents. How to install and drive the
PettingZoo and Gymnasium environments, the action ids and the observation layout of every
bundled ruleset (computed while the site is built), and the measured speed, read from
``benchmarks/env-speed.json`` where that file exists.

The page needs only :mod:`ddz_rules.env.actions` and :mod:`ddz_rules.env.observation`, which
need neither PettingZoo nor Gymnasium, and imports them when it is made, not when this module
is imported (importing them runs ``ddz_rules/env/__init__.py``, which brings the environments
in where the ``rl`` extra is installed and goes on without them where it is not).

>>> _number_text(1234567.8), _number_text(12.2649), _number_text(0.000123)
('1,234,568', '12.26', '0.000123')
"""

from __future__ import annotations

import html
import json
import math
import re
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ddz_rules import cards
from ddz_rules.docs.book import REFERENCE, Book
from ddz_rules.docs.render import (
    TIMES,
    card_faces,
    code,
    code_html,
    label,
    number,
    plural,
    table,
    wide,
)
from ddz_rules.wilds import wild_count

if TYPE_CHECKING:
    from ddz_rules.env.actions import ActionSpace
    from ddz_rules.env.observation import Layout

#: Where the page lives, under ``docs/``.
PAGE = "using/environments.md"
#: From the page to the book's root (for links to the ruleset pages).
UP = "../"
#: The speed table ``benchmarks/bench_env.py --json`` writes, under the checkout.
SPEED = Path("benchmarks") / "env-speed.json"
#: Where the measured speeds are kept when no speed file is found.
SPEED_README = "benchmarks/README.md"
#: The wild-card example: a hand (card text) and its wild rank, under the first bundled
#: ruleset with wild cards.
WILD_HAND, WILD_RANK = "3335", "5"

#: The PettingZoo example: every seat plays a random legal id, for one hand.
PETTINGZOO_EXAMPLE = """\
import numpy as np

from ddz_rules.env import env

game = env("classic", reward="stake")
game.reset(seed=42)
rng = np.random.default_rng(0)
rewards = {}
for agent in game.agent_iter():
    observation, reward, terminated, truncated, info = game.last()
    if terminated or truncated:
        rewards[agent] = reward  # the hand is over for this seat: keep its reward
        game.step(None)          # and step it out with None
        continue
    legal = np.flatnonzero(observation["action_mask"].view(bool))  # bool: 10x faster
    game.step(int(rng.choice(legal)))
print(rewards)  # one reward per seat, summing to zero
"""

#: The Gymnasium example: a learner seat (playing at random here) against standard bots.
GYMNASIUM_EXAMPLE = """\
import numpy as np

from ddz_rules.env import single

learner = single("laizi", seat=0, bots="standard")
observation, info = learner.reset(seed=7)
rng = np.random.default_rng(0)
done = False
while not done:
    legal = np.flatnonzero(observation["action_mask"].view(bool))
    observation, reward, terminated, truncated, info = learner.step(int(rng.choice(legal)))
    done = terminated or truncated
print(reward, info["result"].scores)  # the learner's score for the hand, and every seat's
"""


#: The VectorTables example: 256 classic tables of self-play, random legal ids, timed.
VECTOR_EXAMPLE = """\
import time

import numpy as np

from ddz_rules.env import VectorTables

tables = VectorTables("classic", 256, seed=0)
obs, (offsets, ids) = tables.reset()
rng, start, steps = np.random.default_rng(0), time.perf_counter(), 0
while steps < 20_000:
    pick = offsets[:-1] + (rng.random(256) * np.diff(offsets)).astype(np.int64)
    obs, (offsets, ids), rewards, done, info = tables.step(ids[pick])
    steps += 256
print(f"{steps / (time.perf_counter() - start):,.0f} steps a second")
"""

#: The history example's depth: each seat's last actions of the play.
HISTORY_DEPTH = 4


# --------------------------------------------------------------------------- measuring


@dataclass(frozen=True)
class Measured:
    """One ruleset's action space and observation layout, or why it has no environment."""

    ruleset_id: str
    space: ActionSpace | None
    layout: Layout | None
    actions: int = 0
    wild_only: int = 0
    refused: str = ""


def measure(book: Book) -> dict[str, Measured]:
    """Every bundled ruleset's action space and layout, computed once for the page (about a
    second a ruleset: each play of the table with each of its readings is named)."""
    from ddz_rules.env.actions import ActionSpace
    from ddz_rules.env.observation import Layout
    from ddz_rules.errors import EnvError

    out: dict[str, Measured] = {}
    for rid in book.ids:
        ruleset = book.ruleset(rid)
        try:
            space = ActionSpace.of(ruleset)
            actions = len(space)
            layout = Layout.of(ruleset)
        except EnvError as refused:
            out[rid] = Measured(rid, None, None, refused=str(refused))
            continue
        needs_wilds = {c.name for c in ruleset.combinations if c.needs_wilds}
        wild_only = sum(1 for p in space.plays if p.reading.type in needs_wilds)
        out[rid] = Measured(rid, space, layout, actions, wild_only)
    return out


def ruleset_link(rid: str) -> str:
    return f"[{rid}]({UP}rulesets/{rid}.md)"


# --------------------------------------------------------------------------- the environments


def intro_md() -> str:
    """What the environments are, how to install them, and the two examples."""
    return "\n\n".join([
        "# Environments",
        "Any ruleset, bundled or your own file, can be played by learning agents through "
        "`ddz_rules.env`. It offers two environments, both refereed by the same engine as "
        "`ddz play` and `ddz compare`, both one hand per episode:",
        "- a **PettingZoo** environment (the AEC API, as PettingZoo's classic card games have "
        "it) in which every seat is an agent: `env(ruleset)`;\n"
        "- a **Gymnasium** environment in which one learner plays a seat and the engine's bots "
        "play the others: `single(ruleset)`.",
        "Both give a seat the same observation, computed from what that seat may see and "
        "nothing else, and number the actions the same way. Both are laid out below for every "
        "bundled ruleset, computed from the environments' own code each time this site is "
        "built.",
        "## Install",
        "```sh\npip install -e '.[rl]'\n```",
        "The `rl` extra adds PettingZoo, Gymnasium and numpy (see "
        "[optional parts](install.md#optional-parts)). Without it, `ddz_rules.env` still "
        "imports and its `ActionSpace` and `Layout`, the action ids and the observation "
        "layout, still work; only the environments themselves need the extra.",
        "## Every seat an agent: PettingZoo",
        "`env(ruleset)` takes a bundled ruleset's id or a ruleset file's path. Its agents are "
        "the seats, `seat_0`, `seat_1` and so on. What an agent observes is a dict: "
        '`"observation"`, a float32 array whose values lie between 0 and 1 (its size, for '
        'each ruleset, is in the table below), and `"action_mask"`, an int8 array over every '
        "action id with a 1 for each id the agent may play now; an agent that is not to act "
        "gets a mask of zeros. Here every seat plays a random id the mask allows, for one "
        "hand:",
        f"```python\n{PETTINGZOO_EXAMPLE}```",
        "- **Rewards** come once, when the hand is over; every step before gives 0. By "
        'default (`reward="score"`) an agent\'s reward is its seat\'s score for the hand, as '
        'the ruleset settles it. With `reward="stake"` the score is divided by the hand\'s '
        f"stake, its base {TIMES} multiplier (or, where the losers pay for the cards they "
        "hold, as in Run Fast, the points a card), so that rewards no longer grow with the "
        "bids and the doublings. Either way the rewards of a hand sum to zero.",
        "- **Redeals.** When nobody bids, the deal is thrown in and the next dealer deals "
        "again, within the same episode: the agents simply play the new hand. After "
        "`max_redeals` thrown-in deals in a row (100 unless you say otherwise) the episode "
        "ends truncated, with no reward. When the hand ends, each agent's info holds the "
        '`"result"` of the hand and the number of `"redeals"` before it.',
        "- **Illegal actions.** `env` gives the environment as PettingZoo gives its classic "
        "games: an action the mask forbids, an id out of range or an action that is not an "
        "id ends the game, the agent that chose it scores -1 and the others 0, and "
        '`infos[agent]["illegal"]` says why (the environment does this itself, '
        '`illegal="end"`, under PettingZoo\'s `OrderEnforcingWrapper` alone: one wrapper '
        "layer instead of three). The unwrapped environment (`raw_env`) raises `EnvError`, a "
        "`ValueError`, instead, and leaves the hand as it was. Once an agent's episode is "
        "over, the only action it may step with is `None`.",
        "- **Seeds.** `reset(seed=n)` fixes the deals: the same seed deals the same hands, in "
        "the same order. A `reset()` without a seed goes on from where the last one left "
        "off. A seed must be a non-negative integer; Gymnasium's seeding refuses anything "
        "else. From one hand to the next the deal passes as the ruleset's match rules pass "
        "it.",
        "## One learner against bots: Gymnasium",
        "`single(ruleset, seat=0, bots=\"random\")` gives the learner one seat and puts a bot "
        "of the level named (`random`, `standard`, `medium` or `extreme`) in every other; "
        "each bot decides from its own seat's view, as in `ddz compare`. `reset` deals and "
        "lets the bots act until it is the learner's turn; `step` plays the learner's action, "
        "then the bots' replies, until the learner is to act again or the hand is over. The "
        "observation and the action ids are the PettingZoo environment's; the mask is in the "
        'observation and again in `info["action_mask"]`, and `action_masks()` returns it as '
        "booleans, as learners that mask their actions expect. Here the learner plays a "
        "random legal id against standard bots:",
        f"```python\n{GYMNASIUM_EXAMPLE}```",
        "The reward is the learner's score for the hand (or that score over the stake, with "
        '`reward="stake"`), given when the hand ends; thrown-in deals are dealt again as '
        "above. An action out of range or masked off ends the episode with `illegal_reward` "
        '(-1 unless you say otherwise), `info["illegal"]` saying what was wrong, so that '
        "Gymnasium's `check_env`, which steps with samples the mask never saw, runs through; "
        'with `illegal="raise"` it raises `EnvError` instead and changes nothing. A step '
        "after the episode has ended raises `EnvError` until the next `reset`. "
        "`reset(seed=n)` seeds both the deals and the bots' choices, so the same seed and "
        "the same learner actions replay the same hand.",
        "Once `ddz_rules.env` is imported, `gymnasium.make(\"ddz_rules/Single-v0\", "
        "ruleset=\"laizi\", bots=\"medium\")` makes the same environment; "
        "`gymnasium.make(\"ddz_rules.env:ddz_rules/Single-v0\")` imports the package itself. "
        "When the hand is over, the final observation's mask (and `action_masks()`) holds "
        "one id, `pass`'s: a masked choice taken on it, as a policy under Gymnasium's vector "
        "autoreset takes one, still has an id to pick, and the step that resets ignores it.",
        "## What both give a learner",
        "- **Actions** are taken as Gymnasium's `Discrete` space takes them: a Python integer, "
        "a NumPy integer, or a 0-d integer array (what `argmax` returns). A float, a string, "
        "a list or a longer array is refused with `EnvError` naming its type (under `env` "
        "and `single`, which end the game on a bad action, the refusal is what "
        '`info["illegal"]` says).',
        "- **Text.** `render()` draws the table from the view of the seat to act (the learner's "
        "in `single`): each seat's count of cards, role and last action in the trick, the "
        "auction as said, the play to beat, and that seat's own hand, never another's; "
        '`render_mode="ansi"` returns it, `"human"` prints it, and without a render mode '
        "it warns and returns `None`, as Gymnasium's environments do. `action_to_string(id)` "
        "names an id (`bid 2`, `pass`, `33 (pair/1/3)`), and every agent's info carries "
        '`"last_action"` (`"seat_1: 33 (pair/1/3)"`, `""` before the first) and '
        '`"last_action_id"` (-1 before the first); with `legal_names=True`, the info of the '
        'seat to act also maps each legal id to its name under `"legal"`.',
        "- **Copies.** The environments pickle and deep-copy mid-hand, so they can go to a "
        "subprocess vector environment or be searched from; a copy plays on exactly as the "
        "original. A bundled ruleset travels as its id and the play table as its ruleset, so "
        "a copy is small (about 110 KB mid-hand) and shares the process's compiled tables.",
        "- **History.** `env(ruleset, history=k)` and `single(ruleset, history=k)` add each "
        "seat's last k actions of the play to the observation (k from 0, the default, to "
        "32), after every other feature: see [the observation](#the-observation).",
        "## Many tables at once: VectorTables",
        "`VectorTables(ruleset, n, seed=0)` holds n tables of self-play and steps them all in "
        "one call, with arrays in and out, as learners are fed. `reset()` returns "
        "`(obs, legal)`: `obs`, float32 of shape `(n, size)`, the observation of the seat to "
        "act at each table (the PettingZoo environment's, `history` included), and `legal`, "
        "the legal ids as CSR arrays `(offsets, ids)`, table i's being "
        "`ids[offsets[i]:offsets[i + 1]]`. `step(actions)`, one id a table, returns "
        "`(obs, legal, rewards, done, info)`: `rewards`, float32 of shape `(n, players)`, is "
        "non-zero only in a row whose hand ended, `done` says which, and `info` holds "
        '`"to_act"` (the seat to act now at each table, also the attribute `to_act`), '
        '`"truncated"`, `"scores"` and `"thrown_in"` (where the action threw the deal in, '
        "nobody having bid, and the table was dealt again: its decisions scored 0). A table "
        "whose hand ends is dealt its next hand at once; `mask()` gives the dense int8 mask "
        "when one is wanted. Here 256 classic tables play random legal ids:",
        f"```python\n{VECTOR_EXAMPLE}```",
        "Table i of `VectorTables(ruleset, n, seed=s)` is `env(ruleset)` reset with seed "
        "s + i: the same deals, hand after hand, and given the same actions the same "
        "observations, legal ids and rewards (proved on every bundled ruleset by "
        "`tests/test_env_vector.py`). An id that is not legal at its table, or actions of "
        "the wrong shape or type, raise `EnvError` before any table moves; n must lie "
        "between 1 and 16,384 (about 5 KB a table for classic, besides a dense mask).",
        "The tables are stepped in compiled code (`ddz_rules/_tables.h`): the hand runner's "
        "loop moved one action at a time, and the observation written in C from the "
        "layout's offsets. It knows no rule: the auction's graph, the plays, the action ids "
        "and the features come from the same Python functions as everywhere else. A turn "
        "where wild cards are in play (`laizi`, `laizi-two`) is listed by Python, as the "
        "hand runner lists it, and its plays are named by the action space (the cards they "
        "stand for): that naming, not the stepping, sets laizi's pace. Where the compiled "
        "modules are not built, the tables are stepped through the referee in Python, one "
        "after another, and `tables.why_python` says why; `native=False` asks for that path "
        "anywhere. The two paths are twins, "
        "proved equal step for step (deals, legal ids, observations with history, rewards, "
        "truncation) on every ruleset the compiled one plays. A stake that outgrew 64 bits "
        "in the compiled stepper would raise `EnvError` and ask for a reset; no bundled "
        "ruleset comes near.",
    ])


# --------------------------------------------------------------------------- the action ids


def _words_html(words: tuple[str, ...]) -> str:
    return ", ".join(code_html(w) for w in words)


def _play_html(space: ActionSpace, action_id: int) -> str:
    play = space.action(action_id)
    assert not isinstance(play, str)
    return f"{card_faces(play.cards)} as {code_html(play.reading.short())}"


def order_md(measured: dict[str, Measured]) -> str:
    """How the ids are ordered, shown on the reference ruleset (and on one with calls)."""
    parts = [
        "## The action ids",
        "Each ruleset numbers its actions once and for all, from 0, so an agent's output "
        "layer has a fixed size for it. The ids come in this order:",
        "1. the auction's words, in the order the ruleset's auction uses them (the bids, or "
        "call, rob and so on);\n"
        "2. `pass`, one id for a pass in the auction and a pass in the play (a ruleset "
        "without an auction has only this word);\n"
        "3. the landlord's partner calls, where the landlord calls a rank for a partner;\n"
        "4. every play of the ruleset's play table in the table's order, a card set once for "
        "each of its readings (a card set that reads two ways has two ids);\n"
        "5. the bodies only wild cards can make (soft bombs, four wilds), where there are "
        "wild cards.",
    ]
    reference = measured.get(REFERENCE)
    if reference is not None and reference.space is not None:
        space = reference.space
        words = space.words
        last = len(space) - 1
        parts.append(
            f"Under {ruleset_link(REFERENCE)}, ids 0 to {len(words) - 1} are the words "
            f"{_words_html(words)}; id {space.first_play} is the first play, "
            f"{_play_html(space, space.first_play)}, and id {number(last)} the last, "
            f"{_play_html(space, last)}.")
    called = next((m for m in measured.values() if m.space is not None and m.space.calls), None)
    if called is not None and called.space is not None:
        space = called.space
        first = len(space.words)
        parts.append(
            f"Under {ruleset_link(called.ruleset_id)} ids {first} to {space.first_play - 1} are "
            f"the calls: {code_html(space.calls[0])} (the landlord plays alone), then "
            f"{code_html(space.calls[1])} to {code_html(space.calls[-1])}.")
    return "\n\n".join(parts)


def wild_md(book: Book, measured: dict[str, Measured]) -> str:
    """How a play with wild cards is named, computed on one hand under a bundled ruleset with
    wild cards (one drawing a single wild rank a hand, where there is one)."""
    parts = [
        "### Plays with wild cards",
        "A play is named by what it is played *as*. Without wild cards that is the play "
        "itself. With them, a play's wild cards are replaced by the ranks they stand for, "
        "body and kickers alike, and the play takes the id of what results, read as the "
        "player reads it: the same card set read two ways takes two ids. The reading, what "
        "the play is, is always the agent's choice. A hand can sometimes make one such id in "
        "several ways, with a wild card or with a natural card in the same place: the id "
        "then plays the way with the fewest wild cards, keeping the wild cards for later.",
    ]
    usable = [rid for rid in book.ids if book.ruleset(rid).wild_drawn
              and cards.RANK_INDEX[WILD_RANK] in book.ruleset(rid).wild_ranks
              and measured[rid].space is not None]
    # a ruleset that draws one wild rank a hand, where there is one
    found = min(usable, key=lambda rid: len(book.ruleset(rid).wild_drawn), default=None)
    if found is None:
        return "\n\n".join(parts)
    space = measured[found].space
    assert space is not None
    wild = (cards.RANK_INDEX[WILD_RANK],)
    table_ = space.table
    leads = table_.leads(table_.key_of(WILD_HAND), wild)
    kept = space.legal(leads, wild)
    rows = []
    for lead in leads:
        action_id = space.id_of(lead, wild)
        played_as = space.played_as(lead, wild)
        rows.append([
            f"{card_faces(lead.cards)} as {code_html(lead.reading.short())}",
            str(wild_count(cards.unpack(lead.key), wild)),
            f"{card_faces(played_as.cards)} as {code_html(played_as.reading.short())}",
            number(action_id),
            "yes" if kept[action_id] == lead else "no: another way uses fewer wild cards"])
    parts.append(
        f"Under {ruleset_link(found)}, a hand of {card_faces(WILD_HAND)} whose wild rank is "
        f"{card_faces(WILD_RANK)} can lead these plays; the mask sets each id once, and the "
        "id plays the way marked:")
    parts.append(table(["Lead", "Wild cards in it", "Played as", "Action id", "The id plays it"],
                       rows))
    return "\n\n".join(parts)


def sizes_md(book: Book, measured: dict[str, Measured]) -> str:
    """The table of every ruleset's ids and observation size."""
    rows = []
    refused = []
    for rid in book.ids:
        m = measured[rid]
        if m.space is None or m.layout is None:
            refused.append(f"- {ruleset_link(rid)}: {_text(m.refused)}")
            continue
        space, layout = m.space, m.layout
        rows.append([
            ruleset_link(rid), str(layout.players), str(layout.copies), str(len(layout.types)),
            f"{len(space.words)}: {_words_html(space.words)}", str(len(space.calls)),
            number(len(space.plays)), number(m.wild_only), number(m.actions),
            number(layout.size)])
    parts = [
        "### Every ruleset",
        "The number of ids of each kind, and the sizes the observation depends on (see "
        "[the observation](#the-observation)), computed from each ruleset's action space and "
        "layout while this site was built. The plays are every id of steps 4 and 5 above; "
        "the wild-only bodies are among them.",
        wide(table(["Ruleset", "Seats (P)", "Copies per rank (C)", "Types (T)", "Words (W)",
                    "Calls", "Plays", "Of them wild-only", "Action ids", "Observation size"],
                   rows)),
    ]
    if refused:
        parts += ["These rulesets have no environment:", "\n".join(refused)]
    return "\n\n".join(parts)


# --------------------------------------------------------------------------- the observation


def _constant(n: int) -> tuple[str, Callable[[Layout], int]]:
    return str(n), lambda layout: n


def _formulas() -> dict[str, tuple[str, Callable[[Layout], int]]]:
    """Each feature's size as a formula in P, C, T and W (per-seat features by their name
    without the ``.k``), and how to compute it from a layout."""
    from ddz_rules.env.observation import PHASES, ROLES

    ranks = cards.NUM_RANKS
    block: tuple[str, Callable[[Layout], int]] = (
        f"{ranks} {TIMES} C", lambda layout: ranks * layout.copies)
    seats: tuple[str, Callable[[Layout], int]] = ("P", lambda layout: layout.players)
    return {
        **dict.fromkeys(("hand", "played", "unseen", "kitty", "trick", "to_beat"), block),
        "trick_pass": _constant(1),
        "to_beat.type": ("T", lambda layout: len(layout.types)),
        "to_beat.length": _constant(1),
        "to_beat.seat": seats,
        "leads": _constant(1),
        "auction": ("W", lambda layout: len(layout.words)),
        "auction.words": _constant(1),
        "base": _constant(1),
        "multiplier": _constant(1),
        "cards_left": seats,
        "role": (f"{len(ROLES)} {TIMES} P", lambda layout: len(ROLES) * layout.players),
        "phase": _constant(len(PHASES)),
        "to_act": seats,
        "first_bidder": seats,
        "dealer": seats,
        "wild": _constant(ranks),
        "called": (f"{ranks} + 1", lambda layout: ranks + 1),
        "advantage": _constant(1),
        "undealt": _constant(1),
        "marked_card": _constant(ranks),
        "turned_card": _constant(ranks),
    }


def family(name: str) -> str:
    """A feature's name without its seat offset: ``played.2`` -> ``played``."""
    return re.sub(r"\.\d+$", "", name)


def _spread(values: Mapping[str, int]) -> str:
    """Which rulesets have which value: the most common one last, as "the others"."""
    counts = Counter(values.values())
    if len(counts) == 1:
        return f"{next(iter(counts))} under every ruleset"
    common = counts.most_common(1)[0][0]
    others = sorted(v for v in counts if v != common)
    named = [f"{v} under " + ", ".join(ruleset_link(r) for r, x in values.items() if x == v)
             for v in others]
    return "; ".join(named) + f"; {common} under the others"


def layout_md(book: Book, measured: dict[str, Measured]) -> str:
    """The observation, feature by feature, for the reference ruleset, checked against every
    ruleset's layout."""
    layouts = {rid: m.layout for rid, m in measured.items() if m.layout is not None}
    formulas = _formulas()
    for rid, each in layouts.items():
        for feature in each.features:
            formula = formulas.get(family(feature.name))
            if formula is not None and formula[1](each) != feature.size:
                raise ValueError(f"{rid}: observation feature {feature.name} has size "
                                 f"{feature.size}, not {formula[0]} as the Environments page "
                                 "says")
    reference = layouts.get(REFERENCE) or next(iter(layouts.values()))
    shown = next(rid for rid, each in layouts.items() if each is reference)
    rows = []
    for feature in reference.features:
        formula = formulas.get(family(feature.name))
        if formula is None:
            sizes = {f.size for each in layouts.values() for f in each.features
                     if f.name == feature.name}
            size = str(feature.size) if len(sizes) == 1 else (
                f"{feature.size} under {shown}; it varies with the ruleset")
        elif formula[0].isdigit():
            size = formula[0]
        else:
            size = f"{formula[0]} = {feature.size}"
        rows.append([code_html(feature.name), code(f"[{feature.start}:{feature.stop}]"), size,
                     _text(feature.meaning)])
    fewest = min(len(e.words) for e in layouts.values())
    alone = " (`pass` alone, where there is no auction)" if fewest == 1 else ""
    per_seat = sorted({family(f.name) for f in reference.features if family(f.name) != f.name})
    legend = "\n".join([
        f"- **P**, the seats: {reference.players} under {shown};",
        f"- **C**, the most copies of a rank in the deck: {reference.copies};",
        f"- **T**, the ruleset's combination types: {len(reference.types)};",
        f"- **W**, the auction's words with `pass`: {len(reference.words)} "
        f"({_words_html(reference.words)}).",
    ])
    return "\n\n".join([
        "## The observation",
        "An observation is one flat float32 array, every value between 0 and 1. It is "
        "computed from the seat's own view of the hand, so it can hold no card the seat may "
        "not see. Seats are counted from the observer: offset 0 is the observer, offset 1 "
        "the next seat to act after it, and so on round the table.",
        f"A card set is a block of {cards.NUM_RANKS} {TIMES} C flags: for each rank from 3 to "
        "the big joker, C flags, the k-th set when the set holds at least k cards of that "
        "rank, so that \"at least two 7s\" is one flag. The other features are flags, one "
        "per choice, or numbers scaled into 0 to 1.",
        "The sizes are written with four numbers:",
        legend,
        f"The features of {ruleset_link(shown)}, in order, with the slice of the array each "
        f"takes under {shown} and its size. A feature ending in a seat offset "
        f"({', '.join(code_html(f + '.k') for f in per_seat)}) comes once for each offset "
        "from 0 to P - 1.",
        wide(table(["Feature", f"Slice ({shown})", "Size", "Meaning"], rows)),
        "### What changes with the ruleset",
        "The features are the same under every ruleset, in the same order, a per-seat "
        "feature once for each seat; only their sizes change, with the four numbers above "
        "(every ruleset's are in the table of [every ruleset](#every-ruleset)):",
        "- P, the seats: " + _spread({r: each.players for r, each in layouts.items()})
        + ". Each per-seat feature comes once a seat, and the seat flags widen with P.\n"
        "- C, the copies of a rank: " + _spread({r: each.copies for r, each in layouts.items()})
        + ". C is 8 where the deck is two decks, and every card block grows with it.\n"
        f"- T, the combination types: from {min(len(e.types) for e in layouts.values())} to "
        f"{max(len(e.types) for e in layouts.values())}; the flags of "
        f"{code_html('to_beat.type')} follow the ruleset's own list of types, in its order.\n"
        f"- W, the auction's words: from {fewest}{alone} to "
        f"{max(len(e.words) for e in layouts.values())}; each {code_html('auction.k')} has "
        "one flag a word.",
        "The features of wild cards, the partner call, the two-player finishing line, the "
        "marked and the turned card are there under every ruleset, and stay at zero where "
        "the ruleset has no such rule.",
        history_md(book, reference, shown),
    ])


def history_md(book: Book, reference: Layout, shown: str) -> str:
    """The features the ``history`` option adds, from the layout with that option."""
    from ddz_rules.env.observation import Layout

    deeper = Layout.of(book.ruleset(shown), HISTORY_DEPTH)
    if deeper.features[:len(reference.features)] != reference.features:
        raise ValueError("the history option moves a feature of the observation")
    added = deeper.features[len(reference.features):]
    rows = [[code_html(f.name), code(f"[{f.start}:{f.stop}]"), str(f.size), _text(f.meaning)]
            for f in added]
    return "\n\n".join([
        "### History (an option)",
        f"With `history=k` (`env(ruleset, history=k)`, `single(...)`, `VectorTables(...)`), "
        f"each seat's last k actions of the play come after every feature above, which keep "
        f"their places: for each j from 0 to k - 1 and each seat offset, a card block "
        f"`history.<offset>.<j>` (15 {TIMES} C), then for each seat offset k flags "
        f"`history_pass.<offset>`. Action j + 1 back of a seat is its play's cards, or an "
        f"empty block with its pass flag set; before a seat's first action, both are empty. "
        f"With k = {HISTORY_DEPTH} under {shown} the observation grows from "
        f"{reference.size} to {deeper.size} numbers:",
        wide(table(["Feature", f"Slice ({shown}, k = {HISTORY_DEPTH})", "Size", "Meaning"],
                   rows)),
    ])


# --------------------------------------------------------------------------- the speed


_MARKDOWN = re.compile(r"[\\`*_\[\]{}|~]")
#: Values a cell never shows as they are (the tests forbid them as a whole cell).
_EMPTY = ("", "-", "None", "none", "null", "nan", "NaN")


def _text(value: str) -> str:
    """Text from the speed file, safe in a Markdown table cell."""
    flat = html.escape(" ".join(value.split()), quote=False)
    return _MARKDOWN.sub(lambda m: f"&#{ord(m.group(0))};", flat)


def _number_text(value: float) -> str:
    """A measured number, rounded for reading but never to zero: thousands separated from
    1000 up, else four significant digits."""
    if abs(value) >= 1000:
        return f"{value:,.0f}"
    return f"{value:.4g}"


def _value(value: Any, key: str = "") -> str:
    """A value of the speed file as a table cell (a count with thousands separators, unless
    its key says it is a seed)."""
    if value is None:
        return "not given"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return str(value) if "seed" in key.lower() else number(value)
    if isinstance(value, float):
        return _number_text(value) if math.isfinite(value) else "not measured"
    if isinstance(value, str):
        return "not given" if value.strip() in _EMPTY else _text(value)
    if isinstance(value, Mapping):
        return "; ".join(f"{_text(str(k))}: {_value(v, str(k))}"
                         for k, v in value.items()) or "not given"
    if isinstance(value, list | tuple):
        return ", ".join(_value(v) for v in value) or "not given"
    return _text(str(value))


def _missing(why: str) -> str:
    return (f"The measured speeds of the environments are in `{SPEED_README}`. {why} "
            f"`benchmarks/bench_env.py` writes it, with its `--json` option.")


def _key(key: str) -> str:
    """A key of the speed file, as code where it is an identifier."""
    return code_html(key) if re.fullmatch(r"[\w.-]+", key) else _text(key)


def _given(value: Any) -> bool:
    return value is not None and not (isinstance(value, str) and value.strip() in _EMPTY)


def _records(value: Any) -> list[dict[str, Any]]:
    """The dicts of a list (the rows of a table), or none."""
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def _records_table(records: list[dict[str, Any]]) -> str:
    """A table of dicts, one column per key given in any of them (in the order first met)."""
    keys = [k for k in dict.fromkeys(str(k) for r in records for k in r)
            if any(_given(r.get(k)) for r in records)]
    if not keys:
        return ""
    return wide(table([_key(k) for k in keys],
                      [[_value(r.get(k), k) for k in keys] for r in records]))


def _about(data: dict[str, Any]) -> list[str]:
    """The rest of the speed file, after its rows: facts as a list (the machine and the date
    first, a ``meta`` dict's own items among them), other tables and lists of text."""
    facts: dict[str, Any] = {}
    more: list[str] = []
    for key, value in data.items():
        if key == "rows":
            continue
        if key == "meta" and isinstance(value, dict):
            facts.update({str(k): v for k, v in value.items()})
        elif _records(value) and len(_records(value)) == len(value):
            shown = _records_table(_records(value))
            if shown:
                more += [f"{_text(label(str(key)))}:", shown]
        elif isinstance(value, list) and value and all(isinstance(v, str) for v in value):
            more += [f"{_text(label(str(key)))}:", "\n".join(f"- {_text(v)}" for v in value)]
        else:
            facts[str(key)] = value
    order = sorted((k for k in facts if _given(facts[k])),
                   key=lambda k: (k not in ("machine", "date"), k != "machine"))
    out = []
    if order:
        out += ["About the run:",
                "\n".join(f"- {_key(k)}: {_value(facts[k], k)}" for k in order)]
    return out + more


#: The columns of ``bench_env.py``'s rows the page shows, with their headings; a file whose
#: rows all hold them is shown so, any other file as it is (:func:`_records_table`).
BENCH_COLUMNS = {"engine": "Engine", "loop": "Loop", "rules": "Rules",
                 "steps_per_game": "Steps a game", "steps_per_s": "Steps/s",
                 "games_per_s": "Games/s", "us_per_step": "µs a step",
                 "vs_classic": f"Ours (classic) {TIMES}", "vs_like": f"Ours (most like it) {TIMES}",
                 "note": "Note"}
#: The facts of a run ``bench_env.py`` records that say where and on what it ran.
BENCH_FACTS = ("date", "cpu", "cpus", "platform", "python", "source", "load_before", "peers",
               "pettingzoo", "gymnasium", "numpy", "env_wrappers")


def _bench_cell(row: dict[str, Any], key: str) -> str:
    """One cell of a ``bench_env.py`` row: our own lines have no ratio and most no note."""
    if not _given(row.get(key)):
        return "(ours)" if key.startswith("vs_") else "(none)"
    return _value(row[key], key)


def _bench_md(data: dict[str, Any], rows: list[dict[str, Any]]) -> list[str]:
    """``bench_env.py``'s file: its rows under the columns that matter, what it concluded,
    where the time of a step goes, and where it ran."""
    out = [f"As measured by `benchmarks/bench_env.py` and kept in `{SPEED.as_posix()}`. A "
           "step is one action, its seat's observation and mask built first; a game is a "
           "whole hand. The ratios are our steps a second over the peer's (above 1 we are "
           "faster), against our classic game and against our game most like the peer's "
           "(the `rlcard` preset, without an auction, for RLCard and DouZero).",
           wide(table(list(BENCH_COLUMNS.values()),
                      [[_bench_cell(r, k) for k in BENCH_COLUMNS] for r in rows]))]
    summary = data.get("summary")
    if isinstance(summary, list) and summary:
        out.append("\n".join(f"- {_text(str(line))}" for line in summary))
    parts = _records(data.get("parts"))
    if parts and all("name" in p and "us" in p for p in parts):
        out += ["Where the time of a step goes (the ruleset broken down, CPU µs a step; "
                "indented lines are parts of the line above or other ways to do it):",
                table(["Part", "µs"], [[("&nbsp;" * 4 * int(p.get("level") or 0))
                                        + _text(str(p["name"])), _value(p["us"], "us")]
                                       for p in parts])]
    meta = data.get("meta")
    if isinstance(meta, dict):
        facts = [k for k in BENCH_FACTS if _given(meta.get(k))]
        if facts:
            out += ["About the run:",
                    "\n".join(f"- {_key(k)}: {_value(meta[k], k)}" for k in facts)]
    return out


def speed_md(root: Path) -> str:
    """The measured speed, from ``benchmarks/env-speed.json`` under ``root`` when it exists
    and holds rows: whatever keys its rows have are the table's columns (a key no row gives a
    value is left out), and the rest of the file follows it."""
    parts = ["## Speed"]
    path = root / SPEED
    if not path.is_file():
        parts.append(_missing(f"This build found no `{SPEED.as_posix()}` to show them here:"))
        return "\n\n".join(parts)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        parts.append(_missing(f"This build could not read `{SPEED.as_posix()}` as JSON:"))
        return "\n\n".join(parts)
    rows = _records(data.get("rows") if isinstance(data, dict) else data)
    if isinstance(data, dict) and rows and all(set(BENCH_COLUMNS) <= set(r) for r in rows):
        return "\n\n".join([*parts, *_bench_md(data, rows)])
    shown = _records_table(rows)
    if not shown:
        parts.append(_missing(f"This build found no rows in `{SPEED.as_posix()}`:"))
        return "\n\n".join(parts)
    parts.append(f"As measured by `benchmarks/bench_env.py` and kept in "
                 f"`{SPEED.as_posix()}`: {plural(len(rows), 'row')}, as the file holds them, "
                 "one column for each of their keys.")
    parts.append(shown)
    if isinstance(data, dict):
        parts += _about(data)
    return "\n\n".join(parts)


# --------------------------------------------------------------------------- the page


def environments_page(book: Book) -> str:
    """``using/environments.md``."""
    measured = measure(book)
    return "\n\n".join([
        intro_md(),
        order_md(measured),
        wild_md(book, measured),
        sizes_md(book, measured),
        layout_md(book, measured),
        speed_md(book.root),
    ]) + "\n"
