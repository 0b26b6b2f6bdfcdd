"""Exact play (``ddz_rules.solver``, ``ddz solve``): positions with known answers, the sides
as each ruleset says them, the budget, bad input, and the compiled search proved equal to its
Python twin on random small positions of every ruleset it serves."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from ddz_rules import cards, cli, game, load, solver
from ddz_rules.cli import main
from ddz_rules.errors import OutOfBudget, UsageError
from ddz_rules.solver import (
    ENTRY_BYTES,
    LARGE_CARDS,
    LARGE_MEMORY_MB,
    MEMORY_MB,
    ORDERS,
    ROUNDS,
    TURN_POSITIONS,
    Position,
    PythonSearch,
    after,
    check,
    compiled_serves,
    deal_sides_known,
    default_memory_mb,
    dominance_of,
    moves,
    of_deal,
    plays_left,
    quick_win,
    search_for,
    solve,
)
from ddz_rules.table import PlayTable, compile_table, native_modules

from .conftest import FIXTURES, RULESETS

POSITIONS: dict[str, Any] = yaml.safe_load(
    (FIXTURES / "solve" / "positions.yaml").read_text(encoding="utf-8"))
QUICK: dict[str, Any] = yaml.safe_load(
    (FIXTURES / "solve" / "quick.yaml").read_text(encoding="utf-8"))
WHOLE_DEAL: dict[str, Any] = yaml.safe_load(
    (FIXTURES / "solve" / "whole-deal.yaml").read_text(encoding="utf-8"))
ANSWERED_DEALS: dict[str, Any] = yaml.safe_load(
    (FIXTURES / "solve" / "answered-deals.yaml").read_text(encoding="utf-8"))
ORDER_CASES: dict[str, Any] = yaml.safe_load(
    (FIXTURES / "solve" / "orders.yaml").read_text(encoding="utf-8"))
ENGINES = ["python", pytest.param("compiled", marks=pytest.mark.skipif(
    native_modules() is None, reason="the compiled modules are not built, or are switched off"))]
needs_compiled = pytest.mark.skipif(
    native_modules() is None, reason="the compiled modules are not built, or are switched off "
    "(DDZ_PURE_PYTHON): test_moves.test_the_lister_is_built_where_a_compiler_is says which")


def position_of(name: str, fixture: dict[str, Any] = POSITIONS) -> Position:
    case = fixture[name]
    return Position.from_text(load(case["ruleset"]), "/".join(case["hands"]), case["to"],
                              case.get("beat"), case.get("by"), robs=case.get("robs", 0),
                              first=case.get("first", False))


def texts(position: Position, plays: Any) -> set[str]:
    return {"pass" if p is None else cards.key_text(p.key) for p in plays}


# --------------------------------------------------------------------------- known answers


def assert_answered(name: str, wins: bool | None, winning: set[str],
                    line: list[tuple[int, str]]) -> None:
    """The answer the fixture gives, and a line of play that ends with the side that wins."""
    case = POSITIONS[name]
    position = position_of(name)
    assert wins is case["wins"]
    if case["wins"]:
        assert winning == {cards.key_text(position.table.key_of(c)) for c in case["winning"]}
    assert_line_ends_with_winners(position, line, case["wins"])


def assert_line_ends_with_winners(position: Position, line: list[tuple[int, str]],
                                  wins: bool) -> None:
    """``line`` (each move's seat and text) is a line of legal moves from ``position`` to the
    end of the hand, won by the side of the seat to act where ``wins``, else by the other."""
    table = position.table
    assert line, "a line of play is drawn to the end"
    end: Position | int = position
    for seat, text in line:
        assert isinstance(end, Position)
        step = next(s for s in moves(end) if s.text(table) == text)
        assert step.seat == seat
        end = after(end, step)
    side = position.team[position.to_act]
    assert end == (side if wins else 1 - side), "the line ends with the winners"


@pytest.mark.parametrize("name", sorted(set(POSITIONS) - {"expert-13-12"}))
def test_every_known_position_gets_its_answer(name: str) -> None:
    solution = solve(position_of(name))
    table = solution.position.table
    assert_answered(name, solution.wins, texts(solution.position, solution.winning),
                    [(s.seat, s.text(table)) for s in solution.line])


def test_the_expert_puzzle_is_won_by_the_player_and_ddz_solve_says_so(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The published 13-against-12 puzzle, as a person asks about it."""
    case = POSITIONS["expert-13-12"]
    assert main(["solve", "-r", "puzzle", "--hands", "/".join(case["hands"]), "--to", "1",
                 "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["positions"] > 0 and found["seconds"] >= 0
    assert_answered("expert-13-12", found["wins"], set(found["winning"]),
                    [(s["seat"], s["play"]) for s in found["line"]])


def test_a_losing_side_is_given_the_play_that_holds_out_longest() -> None:
    """Every root move's length of resistance is measured, and the longest is named."""
    position = Position.from_text(load("classic"), "34567 9 9/8 8/J Q K", 1, "2", 0)
    solution = solve(position)
    assert solution.wins is False and solution.holds_out is not None
    search = search_for(position)
    lengths = {step: plays_left(after(position, step), search, 1, 60)
               for step in moves(position)}
    assert lengths[solution.holds_out] == max(lengths.values())


# --------------------------------------------------------------------------- the quick win


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("name", sorted(QUICK))
def test_a_seat_that_can_go_out_unbeaten_wins_without_a_move_searched(name: str,
                                                                       engine: str) -> None:
    """Plays nobody on the other side can beat keep the lead, so a seat that can go out by
    them (all but its last play) has won: the search settles such a position where it meets
    it, one position searched; where a bomb could beat a play, or a duty binds, it searches."""
    position = position_of(name, QUICK)
    assert quick_win(position, moves(position)) is QUICK[name]["quick"]
    search = search_for(position, engine=engine)
    assert search.wins(position, position.team[position.to_act]) is QUICK[name]["wins"]
    assert (search.positions == 1) is QUICK[name]["quick"]


@pytest.mark.parametrize("engine", ENGINES)
def test_the_hands_first_play_holds_the_lead_card_and_only_the_first(engine: str) -> None:
    """``play.first_play_holds_lead_card``: the hand's first lead is kept to plays holding
    the lead card, which turns this position from a win into a loss; the positions after
    it lead freely, and the same cards asked without the duty keep their own answer in the
    same table."""
    first, free = position_of("run-fast-first-play-holds-the-3"), \
        position_of("run-fast-free-lead")
    assert first.must_hold == cards.RANK_INDEX["3"] and free.must_hold is None
    assert {s.play.cards for s in moves(first) if s.play} == {"3"}
    assert all(after(first, s).must_hold is None  # type: ignore[union-attr]
               for s in moves(first))
    search = search_for(first, engine=engine)
    assert search.wins(first, 0) is False
    assert search.wins(free, 0) is True
    assert search.wins(first, 0) is False


def test_a_partners_play_is_let_stand_before_any_answer_is_tried() -> None:
    """Over a partner's play the pass comes first (beating him is rarely what wins); over an
    opponent's, last."""
    ruleset = load("classic")
    over_partner = Position.from_text(ruleset, "3 4/6 B/9 R", 2, "5", 1)
    over_opponent = Position.from_text(ruleset, "3 4/6 B/9 R", 1, "5", 0)
    assert moves(over_partner)[0].play is None and len(moves(over_partner)) == 3
    assert moves(over_opponent)[-1].play is None and len(moves(over_opponent)) == 3


# --------------------------------------------------------------------------- sides


def test_the_landlords_partner_plays_on_his_side_in_four_player() -> None:
    position = Position.from_text(load("four-player"), "3 4/5 6/7 8/9 10", 0, partner=2)
    assert position.team == (0, 1, 0, 1)
    with pytest.raises(UsageError, match="give partner, his seat"):
        Position.from_text(load("four-player"), "3 4/5 6/7 8/9 10", 0)


def test_without_a_landlord_the_seat_to_act_is_alone_against_every_other() -> None:
    position = position_of("run-fast-paranoid")
    assert position.team == (0, 1, 1) and position.landlord is None


def test_the_advantage_line_moves_the_peasants_goal() -> None:
    """With no rob the peasant must empty his hand; with one he wins at one card left."""
    ruleset = load("two-player")
    assert solve(Position.from_text(ruleset, "5 5 K K/7 7 9", 1, robs=1)).wins is True
    assert solve(Position.from_text(ruleset, "5 5 K K/7 7 9", 1)).wins is False


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["classic", "laizi"]), st.randoms(use_true_random=False),
       st.integers(min_value=1, max_value=9), st.integers(min_value=1, max_value=4))
def test_a_hand_is_counted_out_alike_whichever_play_takes_its_lowest_card_first(
        ruleset_id: str, rng: random.Random, size: int, most: int) -> None:
    """``fits`` tries only the leads holding the hand's lowest card, since one play of any
    way out holds it and their order does not matter: it must agree with trying every lead,
    with wild cards too (where a hand has thousands of leads)."""
    ruleset = load(ruleset_id)
    table = compile_table(ruleset)
    deck = [r for r, n in enumerate(ruleset.copies) for _ in range(n)]
    hand = cards.pack_ranks(rng.sample(deck, size))
    wild = (rng.choice(cards.ranks_of(hand)),) if ruleset.wild_drawn else ()

    def every_lead(hand: int, most: int) -> bool:
        leads = table.leads(hand, wild)
        return any(p.key == hand for p in leads) or (
            most > 1 and any(every_lead(hand - p.key, most - 1) for p in leads))

    assert solver.fits(table, wild, hand, most) is every_lead(hand, most)


def test_wild_cards_give_each_reading_its_own_move() -> None:
    position = Position.from_text(load("laizi"), "3 3 5/4/6", 0, wild="5")
    solution = solve(position)
    shown = {position.table.notation(p, position.wild) for p in solution.winning if p}
    assert solution.wins is True and "335@trio/1/3" in shown
    assert solution.engine == "python"  # the compiled lister lists natural cards only


# --------------------------------------------------------------------------- the budget


def test_past_its_seconds_a_search_answers_unknown_with_what_it_proved() -> None:
    solution = solve(position_of("expert-13-12"), seconds=1e-6)
    assert solution.wins in (None, True)
    if solution.wins is None:
        assert solution.stopped == "seconds" and solution.to_json()["wins"] is None


@pytest.mark.parametrize("engine", ENGINES)
def test_a_question_stopped_before_its_answer_still_says_which_moves_it_proved(
        engine: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A whole deal is too large to answer in 8,000 positions, but the question searches its
    moves in rounds and keeps every move it settled: two of the landlord's leads of his trio
    of 6s are proved losing on the way, and the stopped answer says so (the same on both
    twins, read from the table without searching it again)."""
    deal = WHOLE_DEAL
    position = Position.from_text(load(deal["ruleset"]), "/".join(deal["hands"]), deal["to"],
                                  landlord=deal["landlord"])
    solution = solve(position, positions=8000, engine=engine)
    assert solution.wins is None and solution.stopped == "positions"
    losing = [("6662", False), ("66622", False)]
    assert [(s.text(position.table), won) for s, won in solution.proved] == losing
    assert solution.unsorted == len(moves(position)) - 2
    assert solution.to_json()["proved"] == [{"play": p, "wins": w} for p, w in losing]
    if engine == "compiled":
        assert main(["solve", "--hands", "/".join(deal["hands"]), "--to", str(deal["to"]),
                     "--landlord", str(deal["landlord"]), "--positions", "8000"]) == 0
        out = capsys.readouterr().out
        assert f"proved so far: 2 of its {len(moves(position))} moves lose: 6662, 66622" in out


@pytest.mark.parametrize("name", [*sorted(ANSWERED_DEALS), "whole-deal"])
def test_a_seeded_deal_is_asked_as_its_fixture_records_it(name: str) -> None:
    """``of_deal`` (``ddz solve --deal``) deals the seed and asks its first bidder, holding
    the kitty, to lead as the landlord (Run Fast: the first leader, holding the lead card):
    the hands, seat and landlord the fixtures record for those seeds."""
    deal = WHOLE_DEAL if name == "whole-deal" else ANSWERED_DEALS[name]
    ruleset = load(deal["ruleset"])
    position = of_deal(ruleset, deal["seed"])
    table = compile_table(ruleset)
    assert position.hands == tuple(table.key_of(hand) for hand in deal["hands"])
    assert (position.to_act, position.landlord) == (deal["to"], deal.get("landlord"))
    assert (position.must_hold is not None) is ruleset.first_play_holds_lead_card


def test_a_deal_whose_partner_is_called_later_is_refused_by_name() -> None:
    """Where a called rank makes the landlord a partner, the sides are not known when the
    cards are dealt, so a deal alone is no question: refused, naming the seed and the rule."""
    ruleset = load("four-player")
    assert not deal_sides_known(ruleset) and deal_sides_known(load("classic"))
    with pytest.raises(UsageError, match=r"deal 1: four-player gives the landlord a partner "
                                         r"\(teams.partner called_rank\)"):
        of_deal(ruleset, 1)


def test_ddz_solve_deal_prints_the_deal_then_what_its_hands_would_answer(
        capsys: pytest.CaptureFixture[str]) -> None:
    """``ddz solve --deal SEED`` answers the seeded deal as ``--hands`` with its seat and
    landlord would, and shows those hands first, in ``--hands``'s form, so the question can
    be asked again or changed."""
    deal = WHOLE_DEAL
    argv = ["solve", "-r", deal["ruleset"], "--positions", "8000"]
    assert main([*argv, "--deal", str(deal["seed"]), "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    asked = found.pop("deal")
    assert asked == {"seed": deal["seed"], "hands": asked["hands"], "to": deal["to"],
                     "landlord": deal["landlord"]}
    hands = "/".join(asked["hands"])
    assert main([*argv, "--hands", hands, "--to", str(deal["to"]), "--landlord",
                 str(deal["landlord"]), "--json"]) == 0
    by_hands = json.loads(capsys.readouterr().out)
    for answer in (found, by_hands):
        answer.pop("seconds")
    assert found == by_hands and found["wins"] is None
    assert [p["play"] for p in found["proved"]] == ["6662", "66622"]
    assert main([*argv, "--deal", str(deal["seed"])]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first == f"deal {deal['seed']}: {hands} (seat 1 to play, landlord seat 1)"


def test_the_table_tells_only_what_it_holds_for_the_side_asked() -> None:
    """``known`` reads the table, searching nothing: the answer to a position searched, for
    the side it was asked of only (the table keys each question's side), and nothing of a
    position not searched."""
    position = position_of("lead-the-middle")
    side = position.team[position.to_act]
    for engine in ("python", "compiled") if native_modules() else ("python",):
        search = search_for(position, engine=engine)
        assert search.known(position, side) is None
        assert search.wins(position, side) is True
        positions = search.positions
        assert search.known(position, side) is True and search.known(position, 1 - side) is None
        assert search.positions == positions


def test_the_python_search_looks_at_the_clock_at_every_position(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A whole deal with wild cards is searched in Python at milliseconds a position, so its
    time budget is checked at every position: with a clock that moves a second whenever it
    is read, a budget of 3.5 seconds stops the search within its first four positions."""
    clock = iter(range(10**6))
    monkeypatch.setattr(solver.time, "monotonic", lambda: float(next(clock)))
    deal = WHOLE_DEAL
    position = Position.from_text(load(deal["ruleset"]), "/".join(deal["hands"]), deal["to"],
                                  landlord=deal["landlord"])
    search = search_for(position, seconds=3.5, engine="python")
    with pytest.raises(OutOfBudget, match="seconds"):
        search.wins(position, 0)
    assert 1 <= search.positions <= 4


@needs_compiled
@pytest.mark.skipif(sys.platform != "linux", reason="address-space limits as Linux sets them")
def test_a_table_the_machine_cannot_give_is_a_usage_error_not_a_crash() -> None:
    """The compiled table is laid out whole when the search starts. Where the system refuses
    it (here a process held to 1 GB of address space, asking for 2,000 MB, less than the
    machine has), the answer is one line naming the budget, exit 2, not a traceback."""
    import resource

    def held_to_a_gigabyte() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    argv = ["solve", "-r", "puzzle", "--hands", "33/44", "--to", "0", "--memory", "2000"]
    done = subprocess.run(
        [sys.executable, "-c", f"from ddz_rules.cli import main; raise SystemExit(main({argv}))"],
        preexec_fn=held_to_a_gigabyte, capture_output=True, text=True, check=False)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == ("ddz: error: --memory 2000: the search table could not be given "
                           "that many megabytes\n")


def test_a_whole_deal_gets_a_larger_table_than_an_endgame_unless_told() -> None:
    """The table's default size follows the cards in play: small (it stays in the caches)
    for an endgame, larger for a whole deal, whose search outgrows the small one; a size
    given is kept."""
    deal = WHOLE_DEAL
    whole = Position.from_text(load(deal["ruleset"]), "/".join(deal["hands"]), deal["to"],
                               landlord=deal["landlord"])
    endgame = position_of("expert-13-12")
    assert default_memory_mb(endgame) == MEMORY_MB < default_memory_mb(whole) == LARGE_MEMORY_MB
    assert sum(cards.size(h) for h in endgame.hands) <= LARGE_CARDS < sum(
        cards.size(h) for h in whole.hands)
    given = search_for(whole, 0.01, engine="python")
    assert isinstance(given, PythonSearch) and given.entries == int(0.01 * (1 << 20)) // ENTRY_BYTES


@pytest.mark.parametrize("engine", ENGINES)
def test_a_full_table_forgets_answers_and_the_search_still_answers_exactly(engine: str) -> None:
    """The table is bounded: once full it forgets answers to make room, so a search with a
    table of a few entries answers as one with room does, searching again what it forgot."""
    position = position_of("expert-13-12")
    side = position.team[position.to_act]
    roomy, cramped = search_for(position, engine=engine), search_for(position, 0.001,
                                                                    engine=engine)
    assert roomy.wins(position, side) is cramped.wins(position, side) is True
    assert cramped.positions > roomy.positions


@pytest.mark.parametrize("engine", ENGINES)
def test_a_move_the_table_answers_settles_its_position_with_no_move_searched(
        engine: str) -> None:
    """Before trying any move, the search looks each move's position up in its table (an
    enhanced transposition cutoff): where one is answered already as the mover wants, the
    position is settled at once, one position searched, though that move is not the first
    the search would try."""
    position = position_of("lead-the-middle")
    side = position.team[position.to_act]
    steps = moves(position)
    winning = next(s for s in steps if s.play is not None and s.play.cards == "6")
    assert steps.index(winning) > 0 and not quick_win(position, steps)
    search = search_for(position, engine=engine)
    child = after(position, winning)
    assert isinstance(child, Position) and search.wins(child, side) is True
    before = search.positions
    assert search.wins(position, side) is True
    assert search.positions - before == 1
    fresh = search_for(position, engine=engine)
    assert fresh.wins(position, side) is True and fresh.positions > 1


@pytest.mark.parametrize("engine", ["compiled", "python"])
def test_past_its_positions_a_question_stops_where_either_twin_would(engine: str) -> None:
    """A budget in positions (what the bots use: the same on any machine) stops a question
    after exactly that many positions, on both paths; the table outlives it, so the next
    question, given room, answers as a fresh search does."""
    if engine == "compiled" and native_modules() is None:
        pytest.skip("the compiled modules are not built, or are switched off")
    position = position_of("expert-13-12")
    side = position.team[position.to_act]
    search = search_for(position, engine=engine)
    search.last_position = 1000
    with pytest.raises(OutOfBudget, match="positions"):
        search.wins(position, side)
    assert search.positions == 1001
    search.last_position = None
    assert search.wins(position, side) is POSITIONS["expert-13-12"]["wins"]
    fresh = search_for(position, engine=engine)
    assert fresh.wins(position, side) is POSITIONS["expert-13-12"]["wins"]
    assert search.positions - 1001 < fresh.positions  # what the stopped question proved is kept


def test_the_answer_is_kept_when_the_budget_runs_out_drawing_the_line(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The answer is settled first; a budget that runs out right after it keeps it, says what
    it cut short (the line, then the sorting of the moves) and draws no line."""
    position = position_of("expert-13-12")
    answering = search_for(position)
    assert answering.wins(position, position.team[1]) is True
    solution = solve(position, positions=answering.positions + 1)
    assert solution.wins is True and not solution.complete and not solution.rest_spent
    assert solution.stopped == "positions, while drawing the line"
    assert not solution.line and len(solution.proved) < len(moves(position))
    found = solution.to_json()
    assert found["complete"] is False and found["stopped"] == "positions, while drawing the line"
    assert solve(position).to_json()["complete"] is True
    case = POSITIONS["expert-13-12"]
    assert main(["solve", "-r", "puzzle", "--hands", "/".join(case["hands"]), "--to", "1",
                 "--positions", str(answering.positions + 1)]) == 0
    out = capsys.readouterr().out
    assert "wins with perfect play" in out
    assert "the budget ran out once the answer was known (positions, while drawing the line)" \
        in out
    assert f"{solution.unsorted} moves not sorted" in out and "no line is drawn" in out
    assert "--rest-positions" not in out  # the budget the user gave ran out, not the rest's


def test_what_follows_the_answer_has_a_budget_of_its_own(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """``rest_positions`` bounds what follows the answer, whatever else is given: the line is
    drawn, then the moves are sorted until that budget is spent, and the text says which
    budget ran out and how to go further."""
    position = position_of("expert-13-12")
    answering = search_for(position)
    assert answering.wins(position, position.team[1]) is True
    solution = solve(position, rest_positions=1000)
    assert solution.wins is True and solution.line and solution.rest_spent
    assert solution.stopped == f"{solver.REST_SPENT}, while sorting the moves"
    assert solution.positions == answering.positions + 1000 + 1
    assert 0 < len(solution.winning) < len(POSITIONS["expert-13-12"]["winning"])
    case = POSITIONS["expert-13-12"]
    assert main(["solve", "-r", "puzzle", "--hands", "/".join(case["hands"]), "--to", "1",
                 "--rest-positions", "1000"]) == 0
    out = capsys.readouterr().out
    assert f"({solver.REST_SPENT}, while sorting the moves): {solution.unsorted} moves not " \
        "sorted" in out and "(--rest-positions N goes further, 0 without a bound)" in out
    assert "a line: seat 1 " in out
    asked = []
    monkeypatch.setattr(cli, "solve", lambda *args, **kwargs: asked.append(kwargs) or solution)
    for options, meant in (["--rest-positions", "0"], None), ([], solver.REST_POSITIONS):
        assert main(["solve", "-r", "puzzle", "--hands", "/".join(case["hands"]), "--to", "1",
                     *options]) == 0
        assert asked.pop()["rest_positions"] == meant  # 0: no bound of its own
    with pytest.raises(UsageError, match="rest_positions -1: a budget of at least one position"):
        solve(position, rest_positions=-1)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_whole_deal_gets_its_answer_and_a_line_though_its_moves_are_not_all_sorted(
        engine: str) -> None:
    """Proving every first play of a whole deal may take hours where the answer takes a
    second: by default the rest stops after ``REST_POSITIONS``, the answer and a line drawn
    to the end (read from the answer's own table, the winners' moves those it proved), the
    same on both twins."""
    deal = ANSWERED_DEALS["classic-32"]
    position = Position.from_text(load(deal["ruleset"]), "/".join(deal["hands"]), deal["to"],
                                  landlord=deal["landlord"])
    answering = search_for(position, engine=engine)
    assert answering.wins(position, position.team[position.to_act]) is deal["wins"]
    solution = solve(position, engine=engine, rest_positions=1000)
    assert solution.wins is deal["wins"] and solution.rest_spent
    assert solution.positions == answering.positions + 1000 + 1
    assert solution.unsorted > 0 and solution.winning
    assert_line_ends_with_winners(
        position, [(s.seat, s.text(position.table)) for s in solution.line], deal["wins"])
    if engine == "compiled":
        python = solve(position, engine="python", rest_positions=1000)
        assert (python.line, python.proved, python.positions) == (
            solution.line, solution.proved, solution.positions)
    assert solver.REST_POSITIONS == 1_000_000  # what the README and ddz solve --help say


@needs_compiled
def test_a_whole_deals_moves_are_sorted_cheapest_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """The first plays of a whole deal are unequal, so the moves the table does not answer
    are sorted in rounds of growing budgets (``SORT_ROUNDS``): within the same budget, more
    of two-player deal 0's first plays are sorted than when each is searched to the end in
    turn."""
    ruleset = load("two-player")
    dealt = game.deal(ruleset, 0)
    hands = list(dealt.hands)
    hands[dealt.first_bidder] += dealt.kitty
    position = Position(ruleset, tuple(hands), dealt.first_bidder, landlord=dealt.first_bidder)
    in_rounds = solve(position, rest_positions=300_000)
    monkeypatch.setattr(solver, "SORT_ROUNDS", ())
    in_turn = solve(position, rest_positions=300_000)
    assert in_rounds.wins is in_turn.wins is True
    assert in_rounds.rest_spent and in_turn.rest_spent
    assert len(in_rounds.proved) > len(in_turn.proved) > 0


def test_past_the_budget_the_text_names_only_what_is_missing(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A loss whose every move is sorted and whose line is drawn, but whose longest
    resistance outruns its budget, says that and nothing else is missing."""
    monkeypatch.setattr(solver, "DISTANCE_POSITIONS", 1)
    case = POSITIONS["run-fast-first-play-holds-the-3"]
    assert main(["solve", "-r", "run-fast", "--hands", "/".join(case["hands"]), "--to", "0",
                 "--first"]) == 0
    out = capsys.readouterr().out
    assert "loses whatever it plays" in out and "a line: seat 0 3" in out
    assert "once the answer was known (positions of the resistance, while measuring the " \
        "longest resistance): the play that holds out longest is not known" in out
    assert "not sorted" not in out and "--rest-positions" not in out and "no line" not in out


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
@pytest.mark.parametrize("engine", ENGINES)
def test_ctrl_c_stops_a_whole_deal_with_one_line_and_exit_130(
        engine: str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A whole deal searches for long; Ctrl-C stops it on either path with ``ddz:
    interrupted`` and exit code 130. The interrupt is a timer's signal a moment in, handled
    as Ctrl-C is: a signal reaches the compiled search while it holds the interpreter, where
    a thread could not. It comes again every 0.3 s while the search runs: under the test
    suite an interrupt can land in the garbage collector's callback that Hypothesis installs,
    where Python swallows it (one was lost so in a CI run, and the test hung), so that one is
    expected and its warning ignored; and the command has a budget of seconds, so that a
    test that went wrong fails rather than hangs."""
    import signal
    from types import FrameType

    if engine == "python":
        monkeypatch.setenv("DDZ_PURE_PYTHON", "1")
    deal = WHOLE_DEAL
    compile_table(load(deal["ruleset"])).compiled()  # the interrupt meets the search

    def interrupt(signum: int, frame: FrameType | None) -> None:
        """Ctrl-C, where the search is running (not where the command reports it)."""
        while frame is not None:
            if frame.f_code.co_filename == solver.__file__:
                raise KeyboardInterrupt
            frame = frame.f_back

    before = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, 0.3, 0.3)
    try:
        code = main(["solve", "-r", deal["ruleset"], "--hands", "/".join(deal["hands"]),
                     "--to", str(deal["to"]), "--landlord", str(deal["landlord"]),
                     "--seconds", "120"])
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)
    err = capsys.readouterr().err
    assert code == 130 and err == "ddz: interrupted\n", err


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(("argv", "words"), [
    (["--hands", "333/33", "--to", "0"], "--hands: the hands hold more 3"),
    (["--hands", "33", "--to", "0"], "--hands: puzzle has 2 seats, so 2 hands, not 1"),
    (["--hands", "33/44", "--to", "2"], "--to 2: puzzle has seats 0 to 1"),
    (["--hands", "33/44", "--to", "0", "--beat", "5X", "--by", "1"], "--beat '5X': bad card"),
    (["--hands", "33/44", "--to", "0", "--beat", "345", "--by", "1"],
     "--beat '345': 345 is not a legal play"),
    (["--hands", "33/44", "--to", "0", "--beat", "3333", "--by", "1"],
     "the hands and the play to beat hold more 3"),
    (["--hands", "33/44", "--to", "0", "--beat", "55", "--by", "3"], "--by 3:"),
    (["--hands", "33/44", "--to", "0", "--beat", "55"], "--beat and --by: give both"),
    (["--hands", "33/44", "--to", "0", "--seconds", "0"], "--seconds 0.0: a budget"),
    (["--hands", "33/44", "--to", "0", "--memory", "0"], "--memory 0.0: a budget"),
    (["--hands", "33/44", "--to", "0", "--positions", "0"], "--positions 0: a budget"),
    (["--hands", "33/44", "--to", "0", "--seconds", "nan"],
     "--seconds nan: a budget of at least some time, a finite number"),
    (["--hands", "33/44", "--to", "0", "--seconds", "inf"], "--seconds inf: a budget"),
    (["--hands", "33/44", "--to", "0", "--memory", "nan"],
     "--memory nan: a budget of at least some memory, a finite number"),
    (["--hands", "33/44", "--to", "0", "--memory", "1e12"],
     "--memory 1e+12: more than this machine's"),
    (["--hands", "/44", "--to", "0"], "seat 0's hand is empty"),
    (["-r", "classic", "--hands", "3/4/5", "--to", "0", "--partner", "2"],
     "--partner 2: classic gives the landlord no partner"),
    (["-r", "two-player", "--hands", "55667788/6789T", "--to", "0", "--robs", "-1"],
     "--robs -1: the robs made, 0 or more"),
    (["--hands", "33/44", "--to", "0", "--first"],
     "--first: no rule of puzzle binds the hand's first play"),
    (["-r", "run-fast", "--hands", "44/55/66", "--to", "0", "--first"],
     "--first: the hand holds no 3"),
    (["-r", "run-fast", "--hands", "34/55/66", "--to", "0", "--first", "--beat", "7", "--by",
      "2"], "--first and --beat: the hand's first play is a lead"),
    (["-r", "run-fast", "--hands", "34/55/66", "--to", "5", "--first"], "--to 5: run-fast has"),
    (["--deal", "4", "--to", "1", "--first"],
     "--deal 4: the deal places the cards, the seat to act and the landlord itself, so --to, "
     "--first cannot be given with it"),
    (["--deal", "4", "--landlord", "0", "--robs", "0"],
     "--deal 4: the deal places the cards, the seat to act and the landlord itself, so "
     "--landlord, --robs cannot be given with it"),
    (["--deal", "4", "--hands", "33/44"], "not allowed with argument"),
    (["--deal", str(10**30)], "argument --deal: "),
    (["--deal", "four"], "argument --deal: 'four' is not an integer"),
    (["--to", "0"], "one of the arguments --hands --deal is required"),
    (["--hands", "33/44"], "--hands: give the seat to act too (--to N)"),
    (["-r", "four-player", "--deal", "1"], "--deal 1: four-player gives the landlord a partner"),
])
def test_bad_input_to_solve_is_one_line_with_exit_2(argv: list[str], words: str,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "-r", "puzzle", *argv]) == 2
    out, err = capsys.readouterr()
    assert not out and err.count("\n") == 1 and words in err, err


# --------------------------------------------------------------------------- the twins


def small_position(ruleset_id: str, rng: random.Random) -> Position | None:
    """A random position of one to four cards a seat, dealt from the deck, perhaps with a
    play to beat made of cards outside the hands."""
    ruleset = load(ruleset_id)
    deck = [r for r, n in enumerate(ruleset.copies) for _ in range(n)]
    rng.shuffle(deck)
    n = ruleset.players
    sizes = [rng.randint(1, 4) for _ in range(n)]
    hands, at = [], 0
    for size in sizes:
        hands.append(cards.pack_ranks(deck[at:at + size]))
        at += size
    to_act = rng.randrange(n)
    beat = by = None
    table = load_table(ruleset_id)
    if rng.random() < 0.5:
        rest = cards.pack_ranks(deck[at:at + 6])
        options = [p for p in table.leads(rest) if cards.size(p.key) <= 3]
        if options:
            beat = rng.choice(options)
            by = (to_act + rng.randrange(1, n)) % n
    landlord = rng.randrange(n) if ruleset.has_landlord else None
    partner = None
    if ruleset.partner_rule != "none":
        partner = rng.choice([s for s in range(n) if s != landlord])
    robs = rng.randrange(3) if ruleset.peasant_goal == "advantage" else 0
    must_hold = None  # half the leads are the hand's first, where a rule binds it
    if ruleset.first_play_holds_lead_card and beat is None and rng.random() < 0.5:
        must_hold = cards.parse_suited(ruleset.lead_card or "")[0]
        if not cards.unpack(hands[to_act])[must_hold]:  # the seat to act is dealt one
            holder = next((s for s, h in enumerate(hands) if cards.unpack(h)[must_hold]), None)
            if holder is None:
                return None
            hands[to_act], hands[holder] = hands[holder], hands[to_act]
    position = Position(ruleset, tuple(hands), to_act, beat, by, landlord, partner, robs,
                        must_hold=must_hold)
    try:
        check(position)  # a seat dealt under its advantage line has already won, say
    except UsageError:
        return None
    return position


def load_table(ruleset_id: str) -> PlayTable:
    return compile_table(load(ruleset_id))


@needs_compiled
@pytest.mark.parametrize("ruleset_id", [r for r in RULESETS if not load(r).wild_drawn])
@given(seed=st.integers(0, 2**32 - 1))
@settings(max_examples=12)
def test_the_compiled_search_answers_as_its_python_twin(ruleset_id: str, seed: int) -> None:
    """The same winner, the same winning plays, the same play held out longest."""
    position = small_position(ruleset_id, random.Random(seed))
    if position is None:
        return
    assert compiled_serves(position)
    compiled, python = solve(position, engine="compiled"), solve(position, engine="python")
    assert compiled.engine == "compiled" and python.engine == "python"
    assert (compiled.wins, compiled.winning, compiled.holds_out, compiled.line) == (
        python.wins, python.winning, python.holds_out, python.line)


@needs_compiled
@pytest.mark.parametrize("ruleset_id", [r for r in RULESETS if not load(r).wild_drawn])
@given(seed=st.integers(0, 2**32 - 1))
@settings(max_examples=12)
def test_the_twins_search_the_same_positions_move_for_move(ruleset_id: str, seed: int) -> None:
    """Both searches visit the same positions, in the same order (the quick win included), so
    a budget of positions stops them at the same place: what keeps ``extreme``'s decisions
    the same on either path."""
    position = small_position(ruleset_id, random.Random(seed))
    if position is None:
        return
    side = position.team[position.to_act]
    compiled, python = search_for(position, engine="compiled"), search_for(position,
                                                                           engine="python")
    assert compiled.wins(position, side) is python.wins(position, side)
    assert compiled.positions == python.positions


def dealt_position(ruleset_id: str, sizes: tuple[int, ...], seed: int) -> Position:
    """Random hands of ``sizes`` cards from the ruleset's deck, seat 0 the landlord, leading."""
    ruleset = load(ruleset_id)
    deck = [r for r, n in enumerate(ruleset.copies) for _ in range(n)]
    random.Random(seed).shuffle(deck)
    hands, at = [], 0
    for size in sizes:
        hands.append(cards.pack_ranks(deck[at:at + size]))
        at += size
    return Position(ruleset, tuple(hands), 0, landlord=0)


@needs_compiled
@pytest.mark.parametrize("ruleset_id,sizes", [("classic", (7, 5, 5)), ("two-player", (8, 6))])
@given(seed=st.integers(0, 2**32 - 1))
@settings(max_examples=10)
def test_the_twins_search_the_same_positions_through_the_rounds(
        ruleset_id: str, sizes: tuple[int, ...], seed: int) -> None:
    """Positions large enough that a question's moves outrun the first round's budget (most
    of these) are searched alike by both twins: the rounds, and what a search cut off by its
    round leaves out of the table, are the same on either path."""
    position = dealt_position(ruleset_id, sizes, seed)
    compiled, python = search_for(position, engine="compiled"), search_for(position,
                                                                           engine="python")
    assert compiled.wins(position, 0) is python.wins(position, 0)
    assert compiled.positions == python.positions


# --------------------------------------------------------------------------- stronger hands


def test_a_lone_group_raised_makes_a_stronger_hand_and_cards_in_a_chain_do_not() -> None:
    """A lone group (a single card or a pair, in no body with other ranks the hand could
    make) may be raised to a rank the hand does not hold, where it can still be played as it
    was: not to a joker in classic, which may not be a kicker. The cards of a straight or of
    a chain of pairs the hand holds are not lone."""
    rule = dominance_of(compile_table(load("classic")))
    assert rule is not None

    def stronger(text: str) -> set[str]:
        return {cards.key_text(h) for h in rule.stronger(cards.pack_ranks(cards.parse(text)))}

    assert stronger("JJK") == {"JJA", "JJ2", "QQK", "KAA", "K22"}
    assert stronger("34567Q") == {"34567K", "34567A", "345672"}
    assert stronger("334455") == set()
    straight = cards.pack_ranks(cards.parse("34567Q"))
    assert not rule.lone(straight, cards.RANKS.index("3"))
    assert rule.lone(straight, cards.RANKS.index("Q"))
    assert rule.lone(cards.pack_ranks(cards.parse("JJK")), cards.RANKS.index("J"), 2)


def test_a_lone_card_raised_to_a_rank_held_only_where_every_play_keeps_its_twin() -> None:
    """A lone card may join cards the hand holds of a higher rank where every play holding
    both has a twin with it raised: in classic a 9 and a king may be two kings (a plane's two
    single kickers may be a pair), never three kings from one 9 and two (a plane of three
    trios with those as its kickers would become a plane of four); in no-kitty not even two,
    since a four's two single kickers may not be a pair there."""
    def stronger(ruleset_id: str, text: str) -> set[str]:
        rule = dominance_of(compile_table(load(ruleset_id)))
        assert rule is not None
        return {cards.key_text(h) for h in rule.stronger(cards.pack_ranks(cards.parse(text)))}

    assert "KK" in stronger("classic", "9K")
    assert "KKK" not in stronger("classic", "9KK")
    assert "KK" not in stronger("no-kitty", "9K")
    assert "TK" in stronger("no-kitty", "9K")


def test_where_a_seat_may_have_to_play_no_hand_is_called_stronger() -> None:
    """In Run Fast a seat that can beat must, so a stronger hand could be forced into a play
    the weaker would not have had: there the search looks up no stronger hand."""
    assert dominance_of(compile_table(load("run-fast"))) is None


def test_a_whole_deal_looks_up_stronger_hands_and_an_endgame_does_not() -> None:
    """By default only a search of more than LARGE_CARDS cards looks them up (on an endgame
    it saves little, and the bots' solves stay as they were measured); asked, any does."""
    whole, endgame = of_deal(load("classic"), 0), position_of("lead-the-middle")
    assert search_for(whole, engine="python").dominance is not None
    assert search_for(endgame, engine="python").dominance is None
    assert search_for(endgame, engine="python", dominance=True).dominance is not None


@pytest.mark.parametrize("engine", ENGINES)
def test_a_position_lost_with_a_stronger_hand_is_lost_with_no_move_searched(engine: str) -> None:
    """The peasants beat the landlord's 6 10 K K, so they beat 5 10 K K, the same hand with
    its lone 6 made a 5: once the table holds the first answer, the second is settled at the
    landlord's turn with no move searched, where a search that does not look takes more."""
    stronger, weaker = position_of("stronger-landlord-loses"), position_of(
        "weaker-landlord-loses-too")
    rule = dominance_of(weaker.table)
    assert rule is not None and stronger.hands[0] in set(rule.stronger(weaker.hands[0]))
    side = weaker.team[weaker.to_act]
    search = search_for(weaker, engine=engine, dominance=True)
    assert search.wins(stronger, side) is False
    before = search.positions
    assert search.wins(weaker, side) is False
    assert search.positions - before == 1
    plain = search_for(weaker, engine=engine, dominance=False)
    assert plain.wins(weaker, side) is False and plain.positions > 1


@needs_compiled
@pytest.mark.parametrize("ruleset_id,sizes", [("classic", (8, 6, 6)), ("no-kitty", (8, 7, 7)),
                                              ("two-player", (9, 7))])
@given(seed=st.integers(0, 2**32 - 1))
@settings(max_examples=8)
def test_stronger_hands_looked_up_change_no_answer_and_the_twins_search_alike(
        ruleset_id: str, sizes: tuple[int, ...], seed: int) -> None:
    """Looking up stronger hands settles positions early, never otherwise: the answer is the
    one a search that does not look gives, and both twins search the same positions."""
    position = dealt_position(ruleset_id, sizes, seed)
    compiled, python, plain = (search_for(position, engine=engine, dominance=looks)
                               for engine, looks in (("compiled", True), ("python", True),
                                                     ("compiled", False)))
    assert compiled.wins(position, 0) is python.wins(position, 0) is plain.wins(position, 0)
    assert compiled.positions == python.positions


@needs_compiled
@pytest.mark.parametrize("name", sorted(ANSWERED_DEALS))
def test_the_twins_answer_whole_deals_alike_position_for_position(name: str) -> None:
    """A whole deal, from the first lead to the last card, answered by the compiled search
    and by its Python twin: the same answer, the fixture's, in the same positions (so the
    compiled search's whole-deal answers are proved, not only its small positions')."""
    deal = ANSWERED_DEALS[name]
    position = Position.from_text(load(deal["ruleset"]), "/".join(deal["hands"]), deal["to"],
                                  landlord=deal.get("landlord"))
    assert sum(map(cards.size, position.hands)) > LARGE_CARDS
    side = position.team[position.to_act]
    compiled, python = search_for(position, engine="compiled"), search_for(position,
                                                                           engine="python")
    assert compiled.wins(position, side) is python.wins(position, side) is deal["wins"]
    assert compiled.positions == python.positions > ROUNDS[0]


@pytest.mark.parametrize("engine", ["compiled", "python"])
def test_a_question_searches_its_moves_in_rounds_so_a_cheap_later_win_is_found(
        engine: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The question's own moves are searched in rounds of growing budgets (``ROUNDS``), so a
    move that is proved cheaply is found though a costly one is ordered before it: here the
    search in rounds spends under half of what searching each move to the end does."""
    if engine == "compiled" and native_modules() is None:
        pytest.skip("the compiled modules are not built, or are switched off")
    position = position_of("a-later-move-wins-cheaply")
    side = position.team[position.to_act]
    in_rounds = search_for(position, engine=engine)
    assert in_rounds.wins(position, side) is True
    assert in_rounds.positions > ROUNDS[0]  # the first round did not settle it
    monkeypatch.setattr(solver, "ROUNDS", ())
    to_the_end = search_for(position, engine="python")
    assert to_the_end.wins(position, side) is True
    assert to_the_end.positions > 2 * in_rounds.positions


@pytest.mark.parametrize("engine", ENGINES)
def test_a_question_takes_turns_in_its_orders_so_the_cheaper_proof_is_found(
        engine: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A question is asked in each order of ``ORDERS`` in turn, within budgets growing from
    ``TURN_POSITIONS``, the table kept: so a proof that is cheap in the second order is found
    though the first order's is costly. Here the first order alone is still searching after
    20,000 positions, the second alone proves the answer, and the turns (from 1,000
    positions) prove it in under half of that."""
    position = position_of("a-second-order-proves-cheaply", ORDER_CASES)
    side, wins = position.team[position.to_act], ORDER_CASES["a-second-order-proves-cheaply"][
        "wins"]
    first_alone = search_for(position, engine=engine)
    first_alone.last_position = 20_000
    with pytest.raises(OutOfBudget, match="positions"):
        first_alone.ask(position, side, 0)
    second_alone = search_for(position, engine=engine)
    assert second_alone.ask(position, side, 1) is wins
    monkeypatch.setattr(solver, "TURN_POSITIONS", 1_000)
    in_turns = search_for(position, engine=engine)
    assert in_turns.wins(position, side) is wins
    assert second_alone.positions <= in_turns.positions < 10_000


@pytest.mark.parametrize("engine", ENGINES)
def test_within_the_first_turn_a_question_is_asked_in_the_first_order_alone(
        engine: str) -> None:
    """A budget of positions below ``TURN_POSITIONS`` (a bot's solves) asks the question in
    the first order alone, as before the turns: it stops where that order stops."""
    position = position_of("a-second-order-proves-cheaply", ORDER_CASES)
    side = position.team[position.to_act]
    budget = TURN_POSITIONS // 5
    asked, alone = search_for(position, engine=engine), search_for(position, engine=engine)
    asked.last_position = alone.last_position = budget
    with pytest.raises(OutOfBudget):
        asked.wins(position, side)
    with pytest.raises(OutOfBudget):
        alone.ask(position, side, 0)
    assert asked.positions == alone.positions == budget + 1
    assert asked.last_position == budget  # the caller's bound is given back


@needs_compiled
@pytest.mark.parametrize("ruleset_id,sizes", [("classic", (7, 5, 5)), ("run-fast", (6, 6, 6))])
@given(seed=st.integers(0, 2**32 - 1))
@settings(max_examples=10)
def test_the_twins_search_the_same_positions_in_each_order_and_in_turns(
        ruleset_id: str, sizes: tuple[int, ...], seed: int) -> None:
    """Each order of ``ORDERS`` alone, and the turns between them (here from 50 positions,
    so that most questions take several), visit the same positions on either path."""
    position = dealt_position(ruleset_id, sizes, seed)
    for order in range(len(ORDERS)):
        compiled, python = search_for(position, engine="compiled"), search_for(
            position, engine="python")
        assert compiled.ask(position, 0, order) is python.ask(position, 0, order)
        assert compiled.positions == python.positions
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(solver, "TURN_POSITIONS", 50)
        compiled, python = search_for(position, engine="compiled"), search_for(
            position, engine="python")
        assert compiled.wins(position, 0) is python.wins(position, 0)
        assert compiled.positions == python.positions


# --------------------------------------------------------------------------- the rules book


def test_the_endgames_page_shows_each_position_solved_and_each_contrast_split() -> None:
    from ddz_rules.docs.endgames import endgames_page, positions

    page = endgames_page()
    data = positions()
    assert all(f"### {p['name']}" in page for p in data["puzzles"] + data["contrasts"])
    assert "seat 1 (peasant) wins, with <code>T</code>" in page
    for item in data["contrasts"]:
        section = page.split(f"### {item['name']}", 1)[1].split("### ", 1)[0]
        assert "wins, with" in section and "loses whatever it plays" in section, item["name"]


# --------------------------------------------------------------------------- in the bots


@pytest.mark.parametrize("ruleset_id", ["classic", "two-player", "run-fast"])
def test_extreme_takes_a_winning_action_in_an_endgame_it_solves(ruleset_id: str) -> None:
    """Shown the true world alone, ``extreme``'s endgame search takes an action that wins it
    with perfect play wherever one does, and leaves the decision to its playouts where none
    does."""
    from ddz_rules.bots.belief import Particle
    from ddz_rules.bots.extreme import ExtremeBot
    from ddz_rules.bots.medium import MediumBot
    from ddz_rules.game import Hand
    from ddz_rules.solver import of_hand

    ruleset = load(ruleset_id)
    bot, medium = ExtremeBot(ruleset), MediumBot(ruleset)
    checked = 0
    for seed in range(60):
        if checked == 4:
            break
        hand, rng = Hand.new(ruleset, seed), random.Random(seed)
        # medium plays the hand down to the endgame, then on to a real choice
        while hand.result is None and (
                (hand.landlord is None and ruleset.has_landlord)
                or sum(map(cards.size, hand.hands)) > 12
                or len(hand.legal_actions()) < 2):
            hand.apply(medium.choose(hand.view(hand.to_act), rng))
        position = of_hand(hand)
        if position is None:
            continue
        view = hand.view(position.to_act)
        ranked = medium.rank(view)
        chosen = bot._endgame(view, [*ranked, *(a for a in view.legal if a not in ranked)],
                              [Particle(hand, 0)])
        solution = solve(position)
        if solution.wins:
            assert chosen is not None and (None if chosen == "pass" else chosen) in \
                solution.winning
        else:
            assert chosen is None
        checked += 1
    assert checked == 4


def test_extreme_decides_the_same_however_slow_the_machine(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot's solves are budgeted in positions, not seconds, so its decisions cannot
    depend on the machine's speed: with a clock that jumps an hour whenever it is read,
    ``extreme`` makes the same decisions, and never reads that clock."""
    import time as clock

    from ddz_rules.bots.extreme import ExtremeBot
    from ddz_rules.bots.medium import MediumBot
    from ddz_rules.game import Hand

    ruleset = load("classic")
    medium = MediumBot(ruleset)
    views = []
    for seed in range(40):
        hand, rng = Hand.new(ruleset, seed), random.Random(seed)
        while hand.result is None and (hand.landlord is None
                                       or sum(map(cards.size, hand.hands)) > 24
                                       or len(hand.legal_actions()) < 3):
            hand.apply(medium.choose(hand.view(hand.to_act), rng))
        if hand.result is None:
            views.append(hand.view(hand.to_act))
        if len(views) == 4:
            break
    assert len(views) == 4
    steady = [ExtremeBot(ruleset).choose(view, random.Random(0)) for view in views]
    now = [clock.monotonic()]

    reads = [0]

    def jumping() -> float:
        reads[0] += 1
        now[0] += 3600.0
        return now[0]

    monkeypatch.setattr("ddz_rules.solver.time.monotonic", jumping)
    assert [ExtremeBot(ruleset).choose(view, random.Random(0)) for view in views] == steady
    assert reads[0] == 0

