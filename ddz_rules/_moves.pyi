"""The compiled move lister and hand runner (``ddz_rules/_moves.c``); see its comments."""

from collections.abc import Callable
from typing import Any, Literal, overload

from ddz_rules.table import Play, Reading

class Lister:
    def __init__(self, ranks: int, bits: int, max_width: int, max_hand: int, keys: bytes,
                 body_play: bytes, body_kicks: bytes, kick_keys: bytes, kick_ids: bytes,
                 lead_bodies: bytes, lead_skip: bytes, slots: bytes, answer_bodies: bytes,
                 answer_skip: bytes, play_class: bytes, plays: tuple[Play, ...]) -> None: ...
    def lead_ids(self, hand: int) -> list[int] | None: ...
    def leads(self, hand: int, wild: tuple[int, ...] = ..., /) -> list[Play] | None: ...
    def answer_ids(self, hand: int, play: int) -> list[int] | None: ...
    def answers(self, hand: int, cls: int) -> list[Play] | None: ...
    def answers_to(self, hand: int, reading: Reading, wild: tuple[int, ...] = ..., /
                   ) -> list[Play] | None: ...
    def learn(self, cls: int, mask: bytes) -> None: ...

class Served:
    def __init__(self, raw: Callable[..., Any], fallback: Callable[..., Any]) -> None: ...
    def __call__(self, *args: Any, **kwargs: Any) -> Any: ...
    @property
    def fallback(self) -> Callable[..., Any]: ...

class Runner:
    def __init__(self, lister: Lister, teach: Callable[[int], None], players: int,
                 hand_size: int, kitty: int, deck: bytes, draw: int, first: bytes,
                 node_edges: bytes, edge_child: bytes, roots: bytes, landlord: bytes,
                 goal: bytes, base: bytes, factor: bytes, calls: bytes, play_key: bytes,
                 play_factor: bytes, spring: int, anti_spring: int, cap: int, bonus_key: bytes,
                 bonus_amount: bytes, bonus_paid: bytes, priority: bytes, alone: bool,
                 last_only: bytes, play_paid: bytes, bound: bool, must_beat: bool,
                 warns_single: bool, first_holds: bool, per_card: int, shut_out: int,
                 liable_pays: bool, wild_pool: bytes, wild_before: bytes,
                 wild_turn: Callable[[int, Play | None, tuple[int, ...]], list[Play]],
                 facts: Callable[[Play], tuple[int, int, int, int]]) -> None: ...
    @overload
    def play(self, seed: int, dealer: int) -> tuple[tuple[int, ...], bool] | None: ...
    @overload
    def play(self, seed: int, dealer: int, trace: Literal[True]
             ) -> tuple[tuple[int, ...], bool, bytes] | None: ...

def draws(seed: int, bounds: list[int]) -> list[int]: ...

class Tables:
    def __init__(self, runner: Runner, n: int, max_redeals: int, n_actions: int, n_words: int,
                 first_call: int, first_play: int, pass_id: int, edge_action: bytes,
                 node_seat: bytes, word_base: bytes, next_dealer: bytes, play_action: bytes,
                 play_type: bytes, play_length: bytes, size: int, at: bytes, copies: int,
                 history: int, max_hand: int, undealt: int, deck_size: int, deck_key: bytes,
                 kitty_shown: bool, marked: bool, turned: bool, base_none: int,
                 wild_ids: Callable[[list[Play], tuple[int, ...]],
                                    dict[int, tuple[Play, int, int]]] | None) -> None: ...
    def reset(self, states: bytes, obs: Any, offsets: Any, to_act: Any) -> bytearray: ...
    def step(self, actions: Any, obs: Any, offsets: Any, to_act: Any, scores: Any,
             stakes: Any, done: Any, cut: Any, thrown: Any) -> bytearray | int: ...
