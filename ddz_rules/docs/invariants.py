"""The invariants page: each property the test suite proves, what it means at the table, the
tests that prove it, and the exhaustive unique-reading check of every bundled ruleset."""

from __future__ import annotations

from dataclasses import dataclass

from ddz_rules.docs.book import Book
from ddz_rules.docs.render import WORTH, admonition, card_faces, code_html, number, plural, table
from ddz_rules.docs.templates import render


@dataclass(frozen=True)
class Invariant:
    """A property, what it means for a player, and the tests that prove it."""

    title: str
    claim: str
    meaning: str
    how: str
    #: (test file under ``tests/``, test name; ``Class.method`` for a state-machine rule)
    tests: tuple[tuple[str, str], ...]


INVARIANTS = (
    Invariant(
        "Declared readings with wild cards",
        "Under laizi and laizi-two the legal plays of a hand are exactly the (cards, reading) "
        "pairs its card sets can make with the wild ranks of the hand; every declared reading "
        "is a reading of the cards played; readings that differ only in their kickers are one "
        "play; bombs compare soft < hard < four wilds < rocket; beating stays a strict partial "
        "order; a seat sees a wild rank only once it is drawn.",
        "A wild card is whatever its player says it is, within the rules, and nothing else: the "
        "referee lists every choice, holds each play to the reading named, and hides the wild "
        "rank of the hand until it is turned.",
        "Exhaustive where the space allows: every sub-multiset of 7-card hands holding two "
        "wilds, read afresh, against the generated plays (Hypothesis draws the hands). A 20-card "
        "hand has up to 2^20 sub-multisets and thousands of plays, so whole hands are covered "
        "by properties: answers against filtered leads, comparisons over every reading a "
        "four-wild hand can lead, and whole hands replayed from their records.",
        (("test_laizi.py",
          "test_legal_plays_are_exactly_the_readings_of_every_card_set_the_hand_holds"),
         ("test_laizi.py", "test_answers_are_the_legal_plays_that_beat"),
         ("test_laizi.py", "test_comparison_stays_a_strict_partial_order_over_wild_readings"),
         ("test_laizi.py", "test_bombs_rank_soft_hard_four_wilds_rocket"),
         ("test_laizi.py", "test_readings_that_differ_only_in_their_kickers_are_one_play"),
         ("test_laizi.py",
          "test_whole_hands_conserve_cards_sum_to_zero_and_replay_with_declared_readings"),
         ("test_laizi.py", "test_the_wild_rank_is_public_only_once_drawn"),
         ("test_laizi.py", "test_a_declared_reading_the_cards_cannot_make_is_an_illegal_action"))),
    Invariant(
        "Unique reading",
        "Where a ruleset claims `readings.settlement: unique`, every legal play has exactly "
        "one reading: one type, one chain length, one body rank. Where a ruleset declares "
        "readings, the plays with several readings are exactly those listed below, and their "
        "readings are distinct.",
        "Whatever you put down, everyone at the table agrees what it is and what must beat it: "
        "nobody can argue that 333444555666 is four trios rather than three trios carrying "
        "666.",
        "Exhaustive: every play of every bundled ruleset's table is read.",
        (("test_play_table.py", "test_unique_reading_holds_exhaustively_where_claimed"),
         ("test_source_texts.py", "test_s0_restriction_4_333444555666_has_one_reading"),
         ("test_cli.py", "test_check_lists_every_ambiguous_play_of_marked_card"))),
    Invariant(
        "Classification agrees with the table",
        "Every play in the compiled table reads the same when it is enumerated from its own "
        "cards alone, classifying its card text gives the same readings, and the counts per "
        "type match the recorded golden counts.",
        "Asking about one play (`ddz classify`) and listing all plays (`ddz plays`) can never "
        "disagree, and a change that adds or drops plays is noticed.",
        "Exhaustive over each table, plus random plays (Hypothesis).",
        (("test_play_table.py",
          "test_every_play_reads_back_the_same_when_enumerated_from_its_own_cards"),
         ("test_play_table.py", "test_generated_plays_classify_back_from_their_text"),
         ("test_play_table.py", "test_golden_play_counts_by_type"),
         ("test_play_table.py", "test_no_play_exceeds_the_largest_hand_or_the_deck"))),
    Invariant(
        "Legal plays equal the brute-force filter",
        "The plays the engine generates from a hand, leading or answering a play, are exactly "
        "the plays of the table that the hand holds (and that beat the play to answer), each "
        "once.",
        "The moves offered to a player are exactly the legal ones: none missing, none extra.",
        "Random hands of 1, 5, 17, 20, 25 and 33 cards (at most the ruleset's largest hand) "
        "and random plays to answer (Hypothesis), "
        "compared with filtering the whole table.",
        (("test_play_table.py", "test_legal_leads_equal_brute_force_filter"),
         ("test_play_table.py", "test_legal_answers_equal_brute_force_filter"))),
    Invariant(
        "Beats is a strict partial order",
        "No play beats itself, no two plays beat each other, and beating is transitive. Only a "
        "higher class (a bomb, the rocket) crosses types, and the top play (the rocket, or the "
        "four jokers with two decks) beats every other play.",
        "A trick always moves upward and can be followed; a plain play answers only the same "
        "type and chain length, and kickers never count.",
        "Random triples of readings (Hypothesis), and samples across every pair of classes.",
        (("test_play_table.py", "test_beats_is_a_strict_partial_order"),
         ("test_play_table.py", "test_beats_is_transitive_within_a_type_chain"),
         ("test_play_table.py", "test_only_higher_classes_cross_types"),
         ("test_play_table.py", "test_the_top_play_beats_every_other_and_nothing_beats_it"),
         ("test_play_table.py", "test_with_two_decks_more_cards_make_a_stronger_bomb"))),
    Invariant(
        "Card text round trip",
        "Card text parses to the same cards however it is written (`T` or `10`, either case, "
        "spaces, commas, dashes or plus signs), and what the engine prints parses back to the "
        "same cards; a bad card is named.",
        "You can type cards the way you write them, and copy any play from the engine's output "
        "back into it.",
        "Random card lists and separators (Hypothesis).",
        (("test_cards.py", "test_text_round_trips_through_parse"),
         ("test_cards.py", "test_input_takes_separators_ten_and_lower_case"),
         ("test_cards.py", "test_output_is_canonical_low_to_high"),
         ("test_cards.py", "test_bad_card_text_names_the_token"))),
    Invariant(
        "Conservation of cards",
        "At every step of every hand, the hands, the kitty until it is taken, the cards never "
        "dealt and the cards played add up to the deck. An illegal action is refused and "
        "changes nothing.",
        "No card appears or vanishes, and a mistaken action cannot corrupt the hand.",
        "A state machine takes random legal actions under a random ruleset and checks after "
        "every step (Hypothesis stateful testing).",
        (("test_hand.py", "HandMachine.cards_are_conserved"),
         ("test_hand.py", "test_every_hand_ends_zero_sum_with_conserved_cards"),
         ("test_hand.py", "test_an_illegal_action_is_refused_and_changes_nothing"))),
    Invariant(
        "Termination",
        "Every hand ends within a fixed bound of actions (the auction's longest run, then a "
        "card or a pass per step), and a hand that is not over always offers an action.",
        "No auction or trick goes round forever, and the player to act always has something "
        "legal to do.",
        "Random legal play under every ruleset (Hypothesis, stateful and seeded).",
        (("test_hand.py", "HandMachine.the_hand_is_within_its_step_bound"),
         ("test_hand.py", "HandMachine.a_settled_hand_is_scored_consistently"),
         ("test_hand.py", "test_every_hand_ends_zero_sum_with_conserved_cards"))),
    Invariant(
        "Zero-sum settlement",
        f"The scores of a settled hand sum to zero: each peasant wins or loses {WORTH}, no "
        "more than the ruleset's cap, and the landlord's side (the landlord alone, or with "
        "the partner who joined him) wins or loses what the peasants pay or receive, shared "
        "equally between its players; a dealt-hand bonus paid as points is paid to its holder "
        "by every other seat, beside the stake, and a peasant never loses more for his own "
        "bonus.",
        "What the landlord's side wins the peasants lose, and the other way round.",
        "Every hand played at random (Hypothesis), random Happy Dou Dizhu hands in which a peasant "
        "was dealt both jokers, and each source text's worked example.",
        (("test_hand.py", "HandMachine.a_settled_hand_is_scored_consistently"),
         ("test_hand.py", "test_every_hand_ends_zero_sum_with_conserved_cards"),
         ("test_hand.py",
          "test_a_peasant_dealt_both_jokers_never_loses_more_because_of_his_bonus"),
         ("test_records.py",
          "test_s1_worked_example_bid_2_one_bomb_no_spring_pays_4_per_peasant"),
         ("test_records.py",
          "test_s3_worked_example_bid_3_two_bombs_pays_12_from_each_peasant"))),
    Invariant(
        "Multiplier = product of events",
        "A hand's multiplier is the product of the factors of its logged events (bombs of "
        "every size, the rocket or the joker bomb, spring, anti-spring, robs, grabs, and special "
        "dealt hands where scoring.dealt_bonus makes them multipliers) and nothing else.",
        "Every doubling has a visible cause in the hand's log; the auction multiplies only "
        "where the ruleset says so.",
        "Every hand played at random, and the source texts' worked examples.",
        (("test_hand.py", "HandMachine.a_settled_hand_is_scored_consistently"),
         ("test_hand.py", "test_every_hand_ends_zero_sum_with_conserved_cards"),
         ("test_records.py", "test_s2_worked_example_two_robs_and_one_bomb_are_worth_8"),
         ("test_records.py",
          "test_s4_worked_example_bid_2_a_bomb_and_the_rocket_pay_8_from_each"))),
    Invariant(
        "Spring and anti-spring are exclusive",
        "No hand is both a spring and an anti-spring.",
        "A hand doubles at most once for a whitewash: a spring belongs to the landlord's win, "
        "an anti-spring to the peasants'.",
        "Every hand played at random.",
        (("test_hand.py", "HandMachine.a_settled_hand_is_scored_consistently"),
         ("test_hand.py", "test_every_hand_ends_zero_sum_with_conserved_cards"))),
    Invariant(
        "A whitewash counts each play for the side it was made on",
        "A spring never follows a play made by a seat that was then outside the landlord's "
        "side, and an anti-spring never follows a play made by a seat then on it, but the "
        "landlord's opening. With a called partner a player is on the landlord's side from his "
        "joining play on: his plays before it count for the landlord's opponents.",
        "A partner who fought the landlord's opening before joining him has played for the "
        "peasants: the hand is no spring, whoever goes out.",
        "Random four-player hands in which each seat passes with its own probability, so that "
        "whitewashes and late joins are common (Hypothesis), checked against the sides read "
        "from the log; and the hand records of both cases.",
        (("test_teams.py",
          "test_a_spring_or_anti_spring_never_follows_a_play_by_the_losing_side_at_the_time"),
         ("test_teams.py",
          "test_a_partners_trio_before_he_joins_is_a_peasant_play_so_the_hand_is_no_spring"),
         ("test_teams.py",
          "test_a_trio_that_joins_counts_for_the_landlords_side_so_the_spring_holds"),
         ("test_teams.py", "test_random_four_player_hands_settle_by_side"))),
    Invariant(
        "Same seed, same hand",
        "A seed gives the same deal and, with random players seeded the same, the same hand, "
        "action for action; different seeds give different deals; every simulated hand "
        "replays from its record to the same result.",
        "Any hand can be reproduced and checked by anyone from its seed or its record.",
        "Seeded hands under every ruleset, replayed from their records.",
        (("test_hand.py", "test_the_same_seed_gives_the_same_hand"),
         ("test_hand.py", "test_different_seeds_give_different_deals"),
         ("test_records.py", "test_simulate_is_reproducible_from_its_seed"),
         ("test_records.py", "test_every_simulated_hand_replays_to_the_same_result"))),
    Invariant(
        "The play duties are never broken",
        "Where a ruleset has them (Run Fast), no seat passes while it holds an allowed play "
        "that beats the last one (play.must_beat), no single below a player's highest rank is "
        "played while the next player holds one card (play.last_card_warning), the hand's "
        "first play holds the lead card's rank, and a combination kept for the last play is "
        "played only to empty a hand. With suits, every suited card is dealt exactly once, "
        "to a seat or set aside; the first player out is paid for every card left, shut-outs "
        "and the cap included, or one liable player pays it all; bombs are paid as "
        "scoring.bomb_paid_when says.",
        "The referee never lets a player off a duty, nor invents one: what it offers and "
        "refuses is what the rules say, read from the rule values alone.",
        "A state machine and seeded random hands under run-fast and run-fast-15, checked at "
        "every action against an independent reading of the rule values (Hypothesis), and "
        "one test per rule clause on chosen deals.",
        (("test_hand.py", "LeaderlessHandMachine.cards_are_conserved"),
         ("test_hand.py", "test_every_hand_ends_zero_sum_with_conserved_cards"),
         ("test_run_fast.py", "test_a_player_who_can_beat_may_not_pass"),
         ("test_run_fast.py",
          "test_with_the_next_player_on_one_card_a_single_must_be_the_players_highest_rank"),
         ("test_run_fast.py", "test_the_first_play_must_contain_a_3"),
         ("test_run_fast.py", "test_a_low_single_that_lets_the_warned_player_out_pays_for_all"),
         ("test_run_fast.py", "test_the_cap_applies_to_each_loser_alone"))),
    Invariant(
        "Older rulesets unchanged",
        "Every ruleset bundled before the language could say a game without a landlord "
        "compiles to the same play table, every play and reading, and deals the same cards "
        "from the same seeds, as before (digests of both, written by the code of that time).",
        "A hand, a record or a published number under those rulesets means what it meant.",
        "Exact: a digest of each whole table and of twelve deals per ruleset.",
        (("test_play_table.py", "test_an_older_rulesets_play_table_is_byte_identical"),
         ("test_play_table.py", "test_an_older_rulesets_deals_are_unchanged"))),
    Invariant(
        "Views are independent of hidden cards",
        "What a seat's view holds is the same however the cards it cannot see are dealt among "
        "the other seats, the kitty and the undealt cards (with suits, the other seats' "
        "suited cards and the cards set aside), in every deal that tells the same public "
        "story.",
        "A player, or a program playing for one, learns nothing from the engine that the "
        "rules keep hidden: only its own cards and what is public.",
        "Random hands re-dealt with the unseen cards shuffled, then the same actions replayed "
        "(Hypothesis).",
        (("test_hand.py", "test_a_view_does_not_depend_on_cards_the_seat_cannot_see"),)),
    Invariant(
        "Peer presets equal the engines' own play sets",
        "The rlcard, douzero and openspiel presets yield exactly the card sets that RLCard "
        "1.2.0, DouZero 1.1.0 and OpenSpiel 2.0.2 themselves list, card set by card set "
        "(dumps written from the engines), with OpenSpiel's readings per card set.",
        "Results under a preset mean the same as in that engine, so the rule choices of "
        "published agents and papers can be read off the matrix and the differences.",
        "Compared with fixture dumps of the engines' play sets, exhaustively.",
        (("test_peer_presets.py", "test_preset_equals_the_engines_own_play_set"),
         ("test_peer_presets.py", "test_rlcard_table_holds_27471_plays_each_with_one_reading"),
         ("test_peer_presets.py", "test_douzero_generator_yields_29984_distinct_plays"),
         ("test_peer_presets.py",
          "test_openspiel_actions_cover_25661_card_sets_383_with_several_readings"),
         ("test_peer_presets.py", "test_openspiel_readings_per_card_set_match_its_actions"))),
    Invariant(
        "The source texts hold",
        "Every worked example and named case of the five source texts holds under its "
        "ruleset, one test per clause, and each text's scoring example replays from a hand "
        "record to the text's numbers.",
        "Each ruleset says what its source says, wherever its source is clear.",
        "One test per clause; hand records for the scoring examples.",
        (("test_source_texts.py", "test_s0_kickers_never_count_kkk_3_beats_qqq_big_joker"),
         ("test_source_texts.py", "test_s1_taken_literally_333444555666_reads_three_ways"),
         ("test_source_texts.py", "test_s4_no_airplane_carries_pairs"),
         ("test_records.py",
          "test_s1_worked_example_bid_2_one_bomb_no_spring_pays_4_per_peasant"))),
    Invariant(
        "Every ruleset file is checked",
        "A bad ruleset file is refused with one line naming its file, line and key; a variant "
        "states only what changes.",
        "A mistake in a house-rules file is caught before a single hand is dealt.",
        "One fixture per kind of mistake.",
        (("test_ruleset_loading.py", "test_bad_ruleset_gives_one_line_naming_file_line_and_key"),
         ("test_ruleset_loading.py", "test_a_variant_states_only_what_changes"))),
    Invariant(
        "The rules book says what the engine does",
        "Every rule point and combination type has prose; no page of this site shows "
        "unfinished text or an empty table; every example shown (plays, readings, comparisons, "
        "differences, worked hands, command output) is recomputed by the engine; the site "
        "builds with `mkdocs build --strict`.",
        "What you read here is what the referee runs.",
        "The pages are generated in the test and re-checked line by line.",
        (("test_docs.py", "test_every_rule_element_has_prose"),
         ("test_docs.py", "test_no_page_has_a_placeholder_or_an_empty_table"),
         ("test_docs.py", "test_every_example_play_reads_as_shown"),
         ("test_docs.py", "test_worked_examples_match_a_fresh_replay"),
         ("test_docs.py", "test_the_site_builds_strictly"))),
)


def reading_check_md(book: Book) -> str:
    parts = ["## The unique-reading check, per ruleset",
             "The result of the exhaustive check (`ddz check`), run on every play of every "
             "bundled ruleset while this site was built."]
    rows = []
    for rid in book.ids:
        report = book.check(rid)
        claim = report["settlement"]
        verdict = ("every play reads one way" if not report["ambiguous"]
                   else ("plays are made with a named reading" if claim == "declared"
                         else "DEFECT: the ruleset claims unique readings"))
        if book.ruleset(rid).wild_drawn:
            verdict += ("" if report["ambiguous"] else " without wild cards") + (
                "; a play holding wild cards is made with a named reading")
        rows.append([f"[{rid}](rulesets/{rid}.md)", code_html(claim), number(report["plays"]),
                     number(report["ambiguous"]), verdict])
    parts.append(table(["Ruleset", "Readings", "Plays checked", "Plays with several readings",
                        "Result"], rows))
    for rid in book.ids:
        report = book.check(rid)
        parts.append(f"### {rid}")
        wild = (f" The table holds the plays of natural cards: with the wild cards of "
                f"{rid}, a play holding one often reads several ways, and its player names "
                f"the reading meant (see [Wild cards](rulesets/{rid}.md#wild-cards))."
                if book.ruleset(rid).wild_drawn else "")
        if not report["ambiguous"]:
            parts.append(f"All {plural(report['plays'], 'play')} have exactly one reading."
                         + wild)
            continue
        body = table(["Cards", "Readings"], [
            [card_faces(item["cards"]),
             "<br>".join(code_html(f"{r['type']}/{r['length']}/{r['rank']}")
                         for r in item["readings"])]
            for item in report["ambiguous_examples"]])
        parts.append(f"{plural(report['ambiguous'], 'play')} of {number(report['plays'])} "
                     f"read more than one way; each is played as `CARDS@type/length/rank`.")
        parts.append(admonition("abstract", f"Every play of {rid} with several readings",
                                body, collapsible=True))
    return "\n\n".join(parts)


def invariants_page(book: Book) -> str:
    """``invariants.md`` (``templates/invariants.md.j2``)."""
    return render("invariants.md.j2", invariants=INVARIANTS, reading_check=reading_check_md(book))
