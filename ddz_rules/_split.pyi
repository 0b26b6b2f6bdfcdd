"""The compiled count of the plays a hand needs (``ddz_rules/_split.c``): the bots' planning
measure and the solver's order of moves; see its comments."""

from collections.abc import Sequence

#: The card layout it was compiled for: FIELD_BITS and the indices of A, 2, the small and the
#: big joker (``ddz_rules.cards``).
LAYOUT: tuple[int, int, int, int, int]

def moves_of(key: int, /) -> int: ...
def moves_after(hand: int, plays: Sequence[int], /) -> list[int]: ...
