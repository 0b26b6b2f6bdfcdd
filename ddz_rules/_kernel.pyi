"""The play table's optional compiled kernel (``ddz_rules/_kernel.c``); see its comments."""

from typing import Any

def pack(keys: list[int]) -> bytes: ...
def kicker_plays(play_type: type[tuple[Any, ...]], fills: list[int], hand: int, fields: int,
                 guard: int, keys: list[int], packed: bytes, readings: dict[int, Any],
                 out: list[Any]) -> None: ...
def plain_plays(play_type: type[tuple[Any, ...]], fills: list[int], reading: Any,
                out: list[Any]) -> None: ...
