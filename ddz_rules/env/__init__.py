"""Environments for learning agents: every ruleset as a PettingZoo AEC environment
(:func:`env`, :class:`raw_env`) and, for one learner against bots, a Gymnasium environment
(:func:`single`, also ``gymnasium.make("ddz_rules/Single-v0", ruleset=...)`` once this
package is imported, or ``gymnasium.make("ddz_rules.env:ddz_rules/Single-v0")`` from
anywhere). Needs the ``rl`` extra: ``pip install -e '.[rl]'``.

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
    from ddz_rules.env.single import SINGLE_ID, SingleSeatEnv, register_single, single
    from ddz_rules.env.vector import VectorTables
    register_single()
except ImportError as missing:  # pragma: no cover - the rl extra is not installed
    _MISSING = missing

    def __getattr__(name: str) -> object:
        raise ImportError(f"ddz_rules.env.{name} needs the rl extra (pettingzoo, gymnasium, "
                          f"numpy): pip install -e '.[rl]' ({_MISSING})")

__all__ = ["SINGLE_ID", "ActionSpace", "DdzEnv", "Encoder", "EnvError", "Feature", "Layout",
           "SingleSeatEnv", "VectorTables", "env", "raw_env", "single"]
