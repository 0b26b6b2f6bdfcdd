"""ddz-rules: the rules of Dou Dizhu as data, and one referee for every ruleset.

>>> from ddz_rules import load, compile_table
>>> table = compile_table(load("classic"))
>>> [r.short() for r in table.classify("KKK3")]
['trio_single/1/K']
"""

from ddz_rules.errors import (
    CardError,
    DdzError,
    IllegalPlayError,
    RulesetError,
    UsageError,
)
from ddz_rules.ruleset import Ruleset, bundled_ids, load
from ddz_rules.table import Play, PlayTable, Reading, compile_table

__all__ = [
    "CardError",
    "DdzError",
    "IllegalPlayError",
    "Play",
    "PlayTable",
    "Reading",
    "Ruleset",
    "RulesetError",
    "UsageError",
    "bundled_ids",
    "compile_table",
    "load",
]
__version__ = "0.1.0"
