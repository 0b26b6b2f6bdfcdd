"""Environments for learning agents: every ruleset as a PettingZoo AEC environment
(:func:`env`, :class:`raw_env`) and, for one learner against bots, a Gymnasium environment
(:func:`single`). Needs the ``rl`` extra: ``pip install -e '.[rl]'``.

>>> from ddz_rules.env import env
>>> game = env("laizi")
>>> game.reset(seed=0)
>>> game.agent_selection in game.agents
True
"""

from __future__ import annotations

from ddz_rules.env.actions import ActionSpace
from ddz_rules.env.observation import Encoder, Feature, Layout
from ddz_rules.errors import EnvError

try:
    from ddz_rules.env.aec import DdzEnv, env, raw_env
    from ddz_rules.env.single import SingleSeatEnv, single
except ImportError as missing:  # pragma: no cover - the rl extra is not installed
    _MISSING = missing

    def __getattr__(name: str) -> object:
        raise ImportError(f"ddz_rules.env.{name} needs the rl extra (pettingzoo, gymnasium, "
                          f"numpy): pip install -e '.[rl]' ({_MISSING})")

__all__ = ["ActionSpace", "DdzEnv", "Encoder", "EnvError", "Feature", "Layout", "SingleSeatEnv",
           "env", "raw_env", "single"]
