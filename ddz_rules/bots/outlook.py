"""A ruleset's outlook: how likely the landlord's side is to win, fitted from simulated hands.

Expected-score bidding (:mod:`ddz_rules.bots.stakes`) needs, for a hand seen at the auction,
the chance that the landlord's side wins if this seat takes the hand, and if another seat does.
Those chances depend on every rule of the play (the deck, the kitty, the combinations, wild
cards, partners, the two-player advantage line), so they are not constants tuned for classic:
for each ruleset, :func:`ddz_rules.bots.fitting.fit` plays :data:`FIT_HANDS` hands with
``medium``'s play in every seat after an exploratory auction, and fits two logistic
regressions on :func:`features` of the seats' dealt hands:

- **landlord**: P(the landlord's side wins | the landlord's hand, robs and grabs, alone);
- **peasant**: P(the landlord's side wins | a peasant's hand, robs and grabs).

The robs enter because a robbed two-player landlord moves the peasant's finishing line
closer; where they move nothing their weight stays near zero. It also keeps how often the play
multiplied the stake (bombs, rockets, springs, dealt bonuses: every factor but the auction's),
apart for wins and losses, and how often a partner joined.

The fit is checked on the last quarter of the simulated hands, held out: the mean predicted
chance against the observed win rate by fifths of the predictions, and the Brier score
(:attr:`Outlook.calibration`, :attr:`Outlook.brier`). Fitting costs the simulated hands (about
5 s for ``classic`` on one core), so an outlook is computed once per ruleset content and kept:
the bundled rulesets' outlooks ship in ``ddz_rules/bots/outlooks/``, others are written to the
cache folder (``DDZ_CACHE_DIR``, else ``$XDG_CACHE_HOME/ddz-rules`` or ``~/.cache/ddz-rules``).
The fit is seeded, so every process that fits a ruleset gets the same outlook.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import math
import os
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ddz_rules import cards
from ddz_rules.bots.base import control_points
from ddz_rules.ruleset import Ruleset
from ddz_rules.split import moves_of

#: Where the library says what it is doing that takes a while (the ``ddz`` command shows it).
LOG = logging.getLogger("ddz_rules")

#: Changes whenever the features, the fit or the play that the fit simulates change, so that
#: outlooks fitted before are fitted again.
MODEL_VERSION = 4
#: Hands simulated per fit; the last quarter is held out to check the fit.
FIT_HANDS = 1600
FIT_SEED = 20261130
#: The penalty on the weights (ridge), which keeps a feature that never varies at zero.
RIDGE = 1.0
#: Largest outlook file read (bytes).
MAX_BYTES = 1 << 20
BUNDLED = Path(__file__).with_name("outlooks")


def features(hand: int, wild: Sequence[int]) -> tuple[float, ...]:
    """What a seat knows of its hand's strength at the auction: an intercept, its control
    points (jokers, 2s, bombs), the plays it needs to shed the hand, and its wild cards (those
    drawn before the auction), scaled to about one."""
    counts = cards.unpack(hand)
    return (1.0, control_points(counts) / 10.0, moves_of(hand) / 10.0,
            float(sum(counts[r] for r in wild)))


@dataclass(frozen=True)
class Terms:
    """What the hand is played for once the auction ends: the winning bid, the robs and the
    grabs made, and whether the landlord plays alone where a partner may be called."""

    bid: int = 0
    robs: int = 0
    grabs: int = 0
    alone: bool = False


#: Auction words that claim the hand without a number.
CLAIMS = ("call", "rob", "grab")


def signals(auction: Sequence[tuple[int, str]], seats: Collection[int]) -> tuple[float, float]:
    """What the words of ``seats`` told the table about their hands: the highest number any
    of them bid (over 3), and how many times they called, robbed or grabbed.

    >>> signals([(0, "1"), (1, "pass"), (2, "3")], {0, 1})
    (0.3333333333333333, 0.0)
    >>> signals([(0, "call"), (1, "rob"), (0, "rob")], {0})
    (0.0, 2.0)
    """
    words = [w for s, w in auction if s in seats]
    top = max((int(w) for w in words if w.isdigit()), default=0)
    return top / 3.0, float(sum(w in CLAIMS for w in words))


def _logistic(weights: Sequence[float], x: Sequence[float]) -> float:
    z = sum(w * v for w, v in zip(weights, x, strict=True))
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def fit_logistic(rows: Sequence[Sequence[float]], wins: Sequence[int],
                 ridge: float = RIDGE) -> tuple[float, ...]:
    """Weights of a logistic regression by Newton's method, the intercept (first column)
    unpenalised, the others penalised by ``ridge``.

    >>> w = fit_logistic([(1.0, 0.0), (1.0, 1.0)] * 50, [0, 1] * 50, ridge=0.0)
    >>> round(_logistic(w, (1.0, 1.0)), 3), round(_logistic(w, (1.0, 0.0)), 3)
    (1.0, 0.0)
    """
    k = len(rows[0])
    w = [0.0] * k
    for _ in range(50):
        grad = [-(ridge * w[j] if j else 0.0) for j in range(k)]
        hess = [[(ridge if i == j and i else 0.0) for j in range(k)] for i in range(k)]
        for x, y in zip(rows, wins, strict=True):
            p = _logistic(w, x)
            s = max(p * (1.0 - p), 1e-9)
            for i in range(k):
                grad[i] += (y - p) * x[i]
                for j in range(k):
                    hess[i][j] += s * x[i] * x[j]
        step = _solve(hess, grad)
        w = [a + b for a, b in zip(w, step, strict=True)]
        if max(abs(b) for b in step) < 1e-8:
            break
    return tuple(w)


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Solve ``a x = b`` by Gaussian elimination with partial pivoting (a small system)."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for c in range(n):
        pivot = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[pivot] = m[pivot], m[c]
        if abs(m[c][c]) < 1e-12:
            m[c][c] = 1e-12
        for r in range(c + 1, n):
            f = m[r][c] / m[c][c]
            for j in range(c, n + 1):
                m[r][j] -= f * m[c][j]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][j] * x[j] for j in range(r + 1, n))) / m[r][r]
    return x


@dataclass(frozen=True)
class Outlook:
    """The fitted chances and multipliers of one ruleset (see the module's text)."""

    key: str
    hands: int
    landlord_weights: tuple[float, ...]
    peasant_weights: tuple[float, ...]
    #: (multiplier, share) of the hands the landlord's side won, and of those it lost.
    won: tuple[tuple[int, float], ...]
    lost: tuple[tuple[int, float], ...]
    #: How often a partner joined the landlord (0 without a partner rule).
    partner_rate: float
    #: Held-out check of the landlord model: (mean predicted, observed win rate, hands) by
    #: fifths of the predictions, and the Brier score (mean squared error).
    calibration: tuple[tuple[float, float, int], ...]
    brier: float
    #: The chance as landlord (lowest terms, nothing said) that one dealt hand in ``players``
    #: reaches: a seat offers to take a hand nobody has claimed from this chance up.
    take_chance: float = 0.5

    def landlord_chance(self, x: Sequence[float], terms: Terms,
                        others: tuple[float, float] = (0.0, 0.0)) -> float:
        """P(the landlord's side wins) if the seat whose features are ``x`` is landlord under
        ``terms``, the other seats' words having said ``others`` (:func:`signals`)."""
        return _logistic(self.landlord_weights,
                         (*x, float(terms.robs + terms.grabs), float(terms.alone), *others))

    def peasant_chance(self, x: Sequence[float], terms: Terms,
                       landlord: tuple[float, float] = (0.0, 0.0)) -> float:
        """P(the landlord's side wins) if the seat whose features are ``x`` is a peasant, the
        landlord's words having said ``landlord`` (:func:`signals`)."""
        return _logistic(self.peasant_weights,
                         (*x, float(terms.robs + terms.grabs), *landlord))

    def multipliers(self, won: bool) -> tuple[tuple[int, float], ...]:
        """How the play multiplied the stake, with each multiplier's share of the hands."""
        found = self.won if won else self.lost
        return found or ((1, 1.0),)

    def to_json(self) -> dict[str, Any]:
        return {"version": MODEL_VERSION, "key": self.key, "hands": self.hands,
                "landlord_weights": list(self.landlord_weights),
                "peasant_weights": list(self.peasant_weights),
                "won": [list(p) for p in self.won], "lost": [list(p) for p in self.lost],
                "partner_rate": self.partner_rate,
                "calibration": [list(c) for c in self.calibration], "brier": self.brier,
                "take_chance": self.take_chance}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Outlook:
        return cls(str(data["key"]), int(data["hands"]),
                   tuple(float(w) for w in data["landlord_weights"]),
                   tuple(float(w) for w in data["peasant_weights"]),
                   tuple((int(m), float(s)) for m, s in data["won"]),
                   tuple((int(m), float(s)) for m, s in data["lost"]),
                   float(data["partner_rate"]),
                   tuple((float(p), float(o), int(n)) for p, o, n in data["calibration"]),
                   float(data["brier"]), float(data["take_chance"]))


def _values(node: Any) -> Any:
    """A ruleset document with its prose dropped: every ``{value, text}`` point as its value."""
    if isinstance(node, dict):
        if "value" in node and "text" in node:
            return _values(node["value"])
        return {k: _values(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_values(v) for v in node]
    return node


#: Parts of a ruleset that cannot change the chances or the multipliers of the play.
_IGNORED = ("id", "title", "summary", "source", "interpretations", "examples", "match")


def outlook_key(ruleset: Ruleset) -> str:
    """A digest of every rule value that can change an outlook (prose, the match rules and
    who bids first left out), with :data:`MODEL_VERSION` and the fit's size."""
    data = {k: v for k, v in _values(ruleset.data).items() if k not in _IGNORED}
    auction = dict(data.get("auction", {}))
    auction.pop("first_bidder", None)
    data["auction"] = auction
    # ``teams.sides: landlord`` was what every ruleset meant before the point was stated:
    # leaving it out keeps the key of every outlook fitted before then.
    if data.get("teams", {}).get("sides") == "landlord":
        data["teams"] = {k: v for k, v in data["teams"].items() if k != "sides"}
    text = json.dumps([MODEL_VERSION, FIT_HANDS, FIT_SEED, data], sort_keys=True, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def needs_outlook(ruleset: Ruleset) -> bool:
    """Whether a seat ever decides by an outlook: an auction to speak in, or a partner to
    call or not (never where there is no landlord: nobody bids, and nobody calls)."""
    return ruleset.has_landlord and (ruleset.auction_family != "none"
                                     or ruleset.partner_rule == "called_rank")


def cache_folder() -> Path:
    """Where outlooks of rulesets that are not bundled are kept."""
    if os.environ.get("DDZ_CACHE_DIR"):
        return Path(os.environ["DDZ_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "ddz-rules"


def _read(path: Path, key: str) -> Outlook | None:
    """The outlook kept at ``path`` if it is a regular file of sane size for ``key``."""
    try:
        if not path.is_file() or path.stat().st_size > MAX_BYTES:
            return None
        data = json.loads(path.read_text(encoding="utf-8"))
        found = Outlook.from_json(data)
    except (OSError, ValueError, KeyError, TypeError):
        return None  # unreadable or stale: fitted again
    return found if found.key == key and data.get("version") == MODEL_VERSION else None


def write(path: Path, found: Outlook) -> None:
    """Write an outlook whole or not at all (a temporary file, then a rename)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_name(f"{path.name}.{os.getpid()}.part")
    try:
        part.write_text(json.dumps(found.to_json(), indent=1) + "\n", encoding="utf-8")
        part.replace(path)
    finally:
        part.unlink(missing_ok=True)


_MEMO: dict[str, Outlook] = {}


def outlook(ruleset: Ruleset, fit: Callable[[Ruleset], Outlook]) -> Outlook:
    """The ruleset's outlook: bundled, kept in the cache folder, or fitted now by ``fit``
    (and kept); the fit is announced on the ``ddz_rules`` logger, as it takes seconds."""
    key = outlook_key(ruleset)
    if key in _MEMO:
        return _MEMO[key]
    found = _read(BUNDLED / f"{ruleset.id}.json", key)
    if found is None:
        kept = cache_folder() / f"outlook-{key}.json"
        found = _read(kept, key)
        if found is None:
            LOG.info("fitting the outlook of %s for expected-score bidding from %s simulated "
                     "hands (once for these rules; kept in %s)", ruleset.id,
                     f"{FIT_HANDS * 3 // 2:,}", kept.parent)
            found = fit(ruleset)
            with contextlib.suppress(OSError):  # a read-only cache: fitted again next time
                write(kept, found)
    _MEMO[key] = found
    return found
