"""Deep Monte-Carlo for any ddz-rules ruleset: DouZero's method, kept small.

A Q network scores (observation, action) pairs; every decision of a hand is trained towards
the seat's final score for that hand (a Monte-Carlo target, no bootstrapping). Self-play runs
on ``n`` tables of :class:`~ddz_rules.env.VectorTables` at once: one forward pass scores every
legal action of every table, epsilon-greedy per table. The learner, in the same process, takes
Adam steps between the tables' steps and evaluates the network now and then against
``random`` bots on duplicate deals.

Choices, where DouZero offers several:

- One network shared by every seat, not one per role. The observation already holds each
  seat's role flags, the phase and who is to act; the auction is decided before any role
  exists; and a shared network sees every seat's decisions, three times the data per network
  in a three-player game (the same code serves two- and four-seat rulesets).
- Reward: the hand's score (``reward="score"``), divided by a fixed scale, the mean absolute
  score of 200 hands of random play measured at the start (4.69 points in classic). The score,
  not the stake, so that the auction learns what a bid is worth; the scale only keeps the
  targets near 1.
- Action features built from the id alone (:class:`ActionFeatures`): the played-as cards and
  the kickers as per-rank counts, the body rank, chain length and combination type of the
  reading, or a one-hot of the auction word or partner call.
- Decisions with a single legal action are played but not trained on.

Needs torch (``pip install -e '.[train]'``); see examples/README.md for the commands and results.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import random
import time
from pathlib import Path

import numpy as np
import torch
from torch import nn

from ddz_rules import cards
from ddz_rules.bots import make_bot
from ddz_rules.env import ActionSpace, VectorTables, raw_env, single
from ddz_rules.ruleset import load

CURVE_FIELDS = ["seconds", "hands", "decisions", "updates", "loss", "vs_random", "vs_random_ci",
                "decisions_per_s"]


class ActionFeatures:
    """Each action id as a fixed-size float vector, built from what the id names."""

    def __init__(self, space: ActionSpace) -> None:
        self.space = space
        ruleset = space.ruleset
        self.copies = max(ruleset.copies)
        self.types = {c.name: i for i, c in enumerate(ruleset.combinations)}
        self.words = {w: i for i, w in enumerate((*space.words, *space.calls))}
        r = cards.NUM_RANKS
        # cards played as | kickers | body rank | chain length | type | word or call
        self.at_type = 3 * r + 1
        self.at_word = self.at_type + len(self.types)
        self.size = self.at_word + len(self.words)
        self.rows = np.zeros((len(space), self.size), dtype=np.float32)  # filled as ids come
        self.known = np.zeros(len(space), dtype=bool)

    def one(self, action_id: int) -> np.ndarray:
        f = np.zeros(self.size, dtype=np.float32)
        action = self.space.action(action_id)
        r = cards.NUM_RANKS
        if isinstance(action, str):
            f[self.at_word + self.words[action]] = 1.0
        else:
            reading = action.reading
            f[:r] = np.array(cards.unpack(action.key)) / self.copies
            f[r:2 * r] = np.array(cards.unpack(reading.kicker_key)) / self.copies
            f[2 * r + reading.rank_index] = 1.0
            f[3 * r] = min(reading.length, 20) / 20
            f[self.at_type + self.types[reading.type]] = 1.0
        return f

    def __call__(self, ids: np.ndarray) -> np.ndarray:
        for i in np.unique(ids[~self.known[ids]]):
            self.rows[i], self.known[i] = self.one(int(i)), True
        return self.rows[ids]


class QNet(nn.Module):
    """Q(observation, action): an MLP over the two concatenated, written so that the
    observation's part of the first layer is computed once for all the legal actions."""

    def __init__(self, obs_size: int, act_size: int, hidden: int = 256) -> None:
        super().__init__()
        self.obs = nn.Linear(obs_size, hidden)
        self.act = nn.Linear(act_size, hidden, bias=False)
        self.body = nn.Sequential(nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(),
                                  nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, obs: torch.Tensor, act: torch.Tensor) -> torch.Tensor:
        return self.body(self.obs(obs) + self.act(act)).squeeze(-1)

    def batched(self, obs: torch.Tensor, act: torch.Tensor, rows: torch.Tensor) -> torch.Tensor:
        """Q of action ``k`` in the observation ``rows[k]``: each observation projected once."""
        return self.body(self.obs(obs)[rows] + self.act(act)).squeeze(-1)


class UniformQ(nn.Module):
    """Random scores: greedy over them is a uniform random policy (``--evaluate random``)."""

    def forward(self, obs: torch.Tensor, act: torch.Tensor) -> torch.Tensor:
        return torch.rand(act.shape[0])


def choose(model: QNet, features: ActionFeatures, observation: dict) -> int:
    """The greedy legal id of one observation of the Gymnasium environment."""
    ids = np.flatnonzero(observation["action_mask"])
    if len(ids) == 1:
        return int(ids[0])
    with torch.inference_mode():
        q = model(torch.from_numpy(observation["observation"][None]),
                  torch.from_numpy(features(ids)))
    return int(ids[int(q.argmax())])


def ranges(starts: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """The indices ``starts[j] .. starts[j] + counts[j] - 1`` of every ``j``, concatenated."""
    firsts = np.cumsum(counts) - counts
    return np.repeat(starts - firsts, counts) + np.arange(counts.sum())


class SelfPlay:
    """``n`` tables of :class:`VectorTables`, every seat played by one network, epsilon-greedy
    per table; :meth:`step` plays one action at every table with one forward pass."""

    def __init__(self, ruleset_id: str, n: int, seed: int, model: QNet,
                 features: ActionFeatures, epsilon: float, scale: float) -> None:
        self.tables = VectorTables(ruleset_id, n, seed=seed, reward="score")
        self.model, self.features, self.epsilon, self.scale = model, features, epsilon, scale
        self.obs, self.legal = self.tables.reset()
        self.rng = np.random.default_rng(seed)
        # Each table's decisions of its current deal: (seat, observation, action id).
        self.pending: list[list[tuple[int, np.ndarray, int]]] = [[] for _ in range(n)]
        self.hands = 0  # hands ended (with a score, or truncated)
        self.steps = 0  # decisions played, those with a single legal action included

    def pick(self) -> np.ndarray:
        """Each table's choice, as an index into the CSR ids: greedy by one forward pass over
        the tables that think, uniform at a table that explores (epsilon)."""
        offsets, ids = self.legal
        starts, counts = offsets[:-1], np.diff(offsets)
        n = len(counts)
        pick = starts.copy()  # right where only one id is legal
        explore = (counts > 1) & (self.rng.random(n) < self.epsilon)
        pick[explore] = starts[explore] + (self.rng.random(int(explore.sum()))
                                           * counts[explore]).astype(np.int64)
        think = np.flatnonzero((counts > 1) & ~explore)
        if len(think):
            at = ranges(starts[think], counts[think])  # their legal ids' places in `ids`
            local = np.cumsum(counts[think]) - counts[think]  # each table's first row in `at`
            rows = np.repeat(np.arange(len(think)), counts[think])
            with torch.inference_mode():
                q = self.model.batched(torch.from_numpy(self.obs[think]),
                                       torch.from_numpy(self.features(ids[at])),
                                       torch.from_numpy(rows)).numpy()
            best = q == np.maximum.reduceat(q, local)[rows]  # segment argmax: the first best
            pick[think] = at[np.minimum.reduceat(np.where(best, np.arange(len(q)), len(q)),
                                                 local)]
        return pick

    def step(self) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
        """Play one action at every table; return (observations, action ids, targets) of the
        decisions of the deals that ended, or None. A seat's target is its reward over the
        scale; a deal thrown in (nobody bid) or a truncated hand gives its decisions 0, what
        it scored. Decisions with a single legal action are not kept."""
        offsets, ids = self.legal
        actions = ids[self.pick()]
        seats = self.tables.to_act.copy()
        for i in np.flatnonzero(np.diff(offsets) > 1):
            self.pending[i].append((int(seats[i]), self.obs[i], int(actions[i])))
        self.obs, self.legal, rewards, done, info = self.tables.step(actions)
        self.steps += len(actions)
        taken: list[tuple[int, np.ndarray, int]] = []
        targets: list[float] = []
        # A deal ends with its hand (done) or thrown in (nobody bid; dealt again at once).
        for i in np.flatnonzero(done | info["thrown_in"]):
            score = rewards[i] / self.scale if done[i] and not info["truncated"][i] else None
            targets += [0.0 if score is None else float(score[seat])
                        for seat, _, _ in self.pending[i]]
            taken += self.pending[i]
            self.pending[i] = []
            self.hands += int(done[i])
        if not taken:
            return None
        return (np.stack([t[1] for t in taken]), np.array([t[2] for t in taken]),
                np.array(targets, dtype=np.float32))


class Replay:
    """A ring buffer of the latest ``size`` decisions: observation, action id, target."""

    def __init__(self, size: int, obs_size: int) -> None:
        self.obs = np.zeros((size, obs_size), dtype=np.float32)
        self.act = np.zeros(size, dtype=np.int64)
        self.target = np.zeros(size, dtype=np.float32)
        self.added = 0

    def add(self, obs: np.ndarray, act: np.ndarray, target: np.ndarray) -> None:
        j = (self.added + np.arange(len(target))) % len(self.target)
        self.obs[j], self.act[j], self.target[j] = obs, act, target
        self.added += len(target)

    def sample(self, batch: int, rng: np.random.Generator) -> tuple[np.ndarray, ...]:
        idx = rng.integers(min(self.added, len(self.target)), size=batch)
        return self.obs[idx], self.act[idx], self.target[idx]


def score_scale(ruleset_id: str, hands: int, seed: int) -> float:
    """The mean absolute score per seat and hand of random play."""
    game = raw_env(ruleset_id, reward="score")
    game.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total = 0.0
    for _ in range(hands):
        game.reset()
        while not (game.terminations[game.agent_selection]
                   or game.truncations[game.agent_selection]):
            game.step(int(rng.choice(np.flatnonzero(game.observe(game.agent_selection)
                                                    ["action_mask"]))))
        total += sum(abs(r) for r in game.rewards.values()) / len(game.rewards)
    return max(total / hands, 1e-6)


def interval(values: list[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95% interval (normal approximation)."""
    a = np.asarray(values, dtype=float)
    if len(a) < 2:
        return float(a.mean()), 0.0
    return float(a.mean()), float(1.96 * a.std(ddof=1) / math.sqrt(len(a)))


def evaluate(model: QNet, features: ActionFeatures, ruleset_id: str, level: str, deals: int,
             seed: int = 10**6) -> dict:
    """Duplicate deals: deal ``seed + d`` is played once with the (greedy) learner in each seat
    and ``level`` bots in the others, and once by bots alone (a bot in the learner's place).
    Means and intervals are taken over deals (the seats of one deal are not independent).
    Where the scores of a hand add up to zero (every bundled ruleset), the bots' mean over the
    seats of a deal is 0, so the learner's mean minus the bots' is its mean itself."""
    ruleset = load(ruleset_id)
    seats = range(ruleset.players)
    envs = [single(ruleset, seat=s, bots=level, reward="score") for s in seats]
    alone = single(ruleset, seat=0, bots=level, reward="score")  # seat 0 played by a bot too
    bot, bot_rng = make_bot(level, ruleset), random.Random(seed)
    learner, diff, landlord, as_landlord = [], [], 0, []
    for d in range(deals):
        scores = []
        for s, env in enumerate(envs):
            env.unwrapped.game.dealer = 0  # reset(seed=) keeps the dealer of the last hand
            obs, _ = env.reset(seed=seed + d)
            done, reward = False, 0.0
            while not done:
                obs, reward, terminated, truncated, _ = env.step(choose(model, features, obs))
                done = terminated or truncated
            scores.append(reward)
            result = env.unwrapped.game.hand.result
            if result is not None and result.landlord == s:
                landlord += 1
                as_landlord.append(reward)
        alone.unwrapped.game.dealer = 0
        alone.reset(seed=seed + d)
        game = alone.unwrapped.game
        while not game.over:
            view = game.hand.view(0)
            pick = bot.choose(view, bot_rng)
            alone.step(game.actions.id_of(pick, game.hand.wild))
        baseline = game.hand.result.scores if game.hand.result else [0] * len(envs)
        learner.append(sum(scores) / len(scores))
        diff.append(learner[-1] - sum(baseline) / len(baseline))
    mean, ci = interval(learner)
    dmean, dci = interval(diff)
    return {"level": level, "deals": deals, "hands": deals * len(envs), "mean": mean, "ci": ci,
            "minus_bots": dmean, "minus_bots_ci": dci,
            "landlord_rate": landlord / (deals * len(envs)),
            "landlord_mean": float(np.mean(as_landlord)) if as_landlord else None}


def show(result: dict) -> str:
    ll = result["landlord_mean"]
    return (f"vs {result['level']:8s} {result['deals']} deals x seats: learner "
            f"{result['mean']:+.3f} ± {result['ci']:.3f} per hand, minus bots "
            f"{result['minus_bots']:+.3f} ± {result['minus_bots_ci']:.3f}; landlord in "
            f"{result['landlord_rate']:.0%} of hands"
            + (f" (scoring {ll:+.2f} there)" if ll is not None else ""))


def train(args: argparse.Namespace) -> None:
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    scale = score_scale(args.ruleset, 200, args.seed)
    game = raw_env(args.ruleset)
    features = ActionFeatures(game.action_ids)
    obs_size = game.observation_space(game.possible_agents[0])["observation"].shape[0]
    model = QNet(obs_size, features.size, args.hidden)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    print(f"{args.ruleset}: observation {obs_size}, action features {features.size}, "
          f"{len(features.space)} ids; reward scale {scale:.3f}; {args.tables} tables",
          flush=True)
    play = SelfPlay(args.ruleset, args.tables, args.seed, model, features, args.epsilon, scale)
    replay = Replay(args.buffer, obs_size)
    decisions = updates = 0
    losses: list[float] = []
    rng = np.random.default_rng(args.seed)
    curve = open(out / "curve.csv", "w", newline="")  # noqa: SIM115 (written as it goes)
    writer = csv.writer(curve)
    writer.writerow(CURVE_FIELDS)
    start = time.monotonic()
    next_eval = evaluating = 0.0  # evaluating: seconds spent on curve points
    last = (0.0, 0, 0.0)  # elapsed, decisions, evaluating at the last curve point
    while True:
        elapsed = time.monotonic() - start
        finished = elapsed >= args.minutes * 60
        if elapsed >= next_eval or finished:
            busy = elapsed - last[0] - (evaluating - last[2])
            rate = (decisions - last[1]) / busy if busy > 0 else 0.0
            began = time.monotonic()
            score = evaluate(model, features, args.ruleset, "random", args.curve_deals)
            loss = float(np.mean(losses)) if losses else float("nan")
            writer.writerow([round(elapsed, 1), play.hands, decisions, updates, round(loss, 5),
                             round(score["mean"], 4), round(score["ci"], 4), round(rate, 1)])
            curve.flush()
            print(f"{elapsed:7.0f}s {play.hands:7d} hands {decisions:8d} decisions {updates:6d} "
                  f"updates loss {loss:.4f} {rate:6.0f} decisions/s | vs random "
                  f"{score['mean']:+.3f} ± {score['ci']:.3f}", flush=True)
            losses.clear()
            next_eval += args.eval_every
            evaluating += time.monotonic() - began
            last = (elapsed, decisions, evaluating)
        if finished:
            break
        taken = play.step()
        if taken is not None:
            replay.add(*taken)
            decisions += len(taken[2])
        # Adam steps until each decision has been sampled about --reuse times.
        while replay.added >= args.batch and updates * args.batch < args.reuse * decisions:
            obs, act, target = replay.sample(args.batch, rng)
            q = model(torch.from_numpy(obs), torch.from_numpy(features(act)))
            loss = nn.functional.mse_loss(q, torch.from_numpy(target))
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 10.0)
            optimizer.step()
            losses.append(loss.item())
            updates += 1
    curve.close()
    seconds = time.monotonic() - start
    training = seconds - evaluating
    print(f"{play.hands} hands, {decisions} decisions trained on ({play.steps} played), "
          f"{updates} updates in {seconds:.0f}s, {evaluating:.0f}s of it on curve points: "
          f"{decisions / training:.0f} decisions/s ({play.steps / training:.0f} played/s) "
          f"outside them", flush=True)
    checkpoint = out / "model.pt"
    torch.save({"state": model.state_dict(), "ruleset": args.ruleset, "hidden": args.hidden,
                "obs_size": obs_size, "scale": scale, "hands": play.hands,
                "decisions": decisions, "updates": updates, "seconds": seconds,
                "decisions_per_s": decisions / training}, checkpoint)
    print(f"saved {checkpoint} and {out / 'curve.csv'}", flush=True)
    if args.eval_deals:
        report(model, features, args.ruleset, args.eval_deals, args.eval_levels,
               out / "eval.json")


def report(model: QNet, features: ActionFeatures, ruleset_id: str, deals: int, levels: str,
           path: Path) -> None:
    torch.set_num_threads(1)  # small matrices: a second thread only adds contention
    results = []
    for level in levels.split(","):
        began = time.monotonic()
        results.append(evaluate(model, features, ruleset_id, level, deals))
        print(show(results[-1]) + f" [{time.monotonic() - began:.0f}s]", flush=True)
    path.write_text(json.dumps(results, indent=1) + "\n")
    print(f"wrote {path}")


def plot(csv_path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    with open(csv_path, newline="") as f:
        rows = list(csv.DictReader(f))
    minutes = np.array([float(r["seconds"]) for r in rows]) / 60
    score = np.array([float(r["vs_random"]) for r in rows])
    ci = np.array([float(r["vs_random_ci"]) for r in rows])
    loss = np.array([float(r["loss"]) for r in rows])
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(7, 6), sharex=True)
    top.fill_between(minutes, score - ci, score + ci, alpha=0.25)
    top.plot(minutes, score, marker="o")
    top.axhline(0, color="grey", lw=0.8)
    top.set_ylabel("score per hand vs random bots\n(greedy; 95% interval)")
    bottom.plot(minutes, loss, marker=".", color="tab:red")
    bottom.set_ylabel("training loss\n(MSE of score / scale)")
    bottom.set_xlabel("minutes of training (wall clock)")
    hands = rows[-1]["hands"]
    top.set_title(f"Deep Monte-Carlo self-play: {hands} hands")
    fig.tight_layout()
    png = Path(csv_path).with_suffix(".png")
    fig.savefig(png, dpi=100)
    print(f"wrote {png}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--ruleset", default="classic")
    p.add_argument("--minutes", type=float, default=15.0, help="training time (wall clock)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--eval-deals", type=int, default=300,
                   help="duplicate deals of the final evaluation (each played once per seat)")
    p.add_argument("--eval-levels", default="random,standard")
    p.add_argument("--out", default="/tmp/ddz-dmc", help="checkpoint, curve.csv, eval.json")
    p.add_argument("--evaluate", metavar="CHECKPOINT",
                   help="evaluate a checkpoint only ('random': a uniform random policy)")
    p.add_argument("--plot", metavar="CSV", help="draw a curve.csv to a PNG beside it")
    p.add_argument("--tables", type=int, default=256, help="self-play tables stepped together")
    p.add_argument("--actors", type=int, help=argparse.SUPPRESS)  # gone: see --tables
    p.add_argument("--epsilon", type=float, default=0.05)
    p.add_argument("--hidden", type=int, default=256)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--batch", type=int, default=512)
    p.add_argument("--reuse", type=float, default=2.0,
                   help="times each decision is sampled for training, about")
    p.add_argument("--buffer", type=int, default=65536, help="decisions kept for sampling")
    p.add_argument("--eval-every", type=float, default=90.0, help="seconds between curve points")
    p.add_argument("--curve-deals", type=int, default=100,
                   help="duplicate deals per curve point (against random)")
    args = p.parse_args()
    if args.actors is not None:
        p.error("--actors is gone: self-play runs in this process on --tables tables")
    torch.manual_seed(args.seed)
    if args.plot:
        plot(args.plot)
    elif args.evaluate == "random":
        Path(args.out).mkdir(parents=True, exist_ok=True)
        report(UniformQ(), ActionFeatures(ActionSpace(load(args.ruleset))), args.ruleset,
               args.eval_deals, args.eval_levels, Path(args.out) / "eval-random-policy.json")
    elif args.evaluate:
        saved = torch.load(args.evaluate, weights_only=True)
        features = ActionFeatures(ActionSpace(load(saved["ruleset"])))
        model = QNet(saved["obs_size"], features.size, saved["hidden"])
        model.load_state_dict(saved["state"])
        report(model, features, saved["ruleset"], args.eval_deals, args.eval_levels,
               Path(args.evaluate).with_name("eval.json"))
    else:
        train(args)


if __name__ == "__main__":
    main()
