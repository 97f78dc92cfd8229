"""Naishi scoring (RULES.md 1.1 scoring table, Naishi 14-16) and the worked examples N-1..N-4."""

from __future__ import annotations

from shared.games.naishi.scoring import (
    GridScore,
    best_copies,
    copy_candidates,
    neighbours,
    score_grid,
)
from tests.games.naishi.naishi_support import grid_from


def score(line: str, hand: str, copies: dict | None = None) -> GridScore:
    return score_grid(grid_from(line, hand), copies)


# --- worked examples (RULES.md 1.4) ---------------------------------------------------------


def test_n1_rulebook_example_scores_62_with_7_colours():
    """N-1: L=[F,S,A,B,R] H=[F,M,N,R,R]."""
    s = score("F,S,A,B,R", "F,M,N,R,R")
    assert s["by_kind"] == {
        "mountain": 5,
        "fort": 12,
        "sentinel": 7,
        "councillor": 7,
        "banner": 3,
        "naishi": 8,
        "rice": 20,
    }
    assert (s["total"], s["colours"]) == (62, 7)


def test_n2_ronin_with_ten_kinds_scores_64_with_10_colours():
    """N-2: L=[O,N,A,F,S] H=[T,K,R,B,H]."""
    s = score("O,N,A,F,S", "T,K,R,B,H")
    assert s["by_kind"] == {
        "ronin": 45,
        "naishi": 0,
        "councillor": 7,
        "fort": 0,
        "sentinel": 7,
        "torii": -5,
        "monk": 7,
        "rice": 0,
        "banner": 0,
        "knight": 3,
    }
    assert (s["total"], s["colours"]) == (64, 10)


def test_n2_variant_nine_kinds_gives_the_ronin_15():
    """N-2, H5 Knight replaced by a Mountain: D = 9 -> Ronin 15."""
    assert score("O,N,A,F,S", "T,K,R,B,M")["by_kind"]["ronin"] == 15


def test_n3_ninja_copying_the_naishi_scores_55_with_6_colours():
    """N-3 (Naishi 16): L=[M,A,X,A,M] H=[F,K,N,S,F], X copies the Naishi."""
    s = score("M,A,X,A,M", "F,K,N,S,F", {(0, 2): "naishi"})
    assert s["by_kind"] == {
        "mountain": -5,
        "ninja": 12,
        "naishi": 8,
        "councillor": 16,
        "fort": 12,
        "monk": 5,
        "sentinel": 7,
    }
    assert (s["total"], s["colours"]) == (55, 6)


def test_n3_ninja_copying_a_councillor_scores_42():
    """N-3 (Naishi 16): the same territory, X copies a Councillor instead."""
    s = score("M,A,X,A,M", "F,K,N,S,F", {(0, 2): "councillor"})
    assert s["by_kind"]["ninja"] == 7
    assert s["by_kind"]["councillor"] == 8
    assert s["total"] == 42


def test_n3_copy_candidates_and_the_best_choice():
    """N-3: candidates A, K, N, S; the engine's best choice for an AI is the Naishi."""
    grid = grid_from("M,A,X,A,M", "F,K,N,S,F")
    assert sorted(copy_candidates(grid)) == ["councillor", "monk", "naishi", "sentinel"]
    assert best_copies(grid) == {(0, 2): "naishi"}


def test_n4_ninja_is_not_a_kind_for_the_ronin():
    """N-4 (Naishi 16): L=[O,N,A,F,S] H=[T,K,R,X,M], X copies the Councillor -> Ronin 8."""
    s = score("O,N,A,F,S", "T,K,R,X,M", {(1, 3): "councillor"})
    assert s["by_kind"]["ronin"] == 8


# --- adjacency and each card ----------------------------------------------------------------


def test_adjacency_is_row_neighbours_and_the_same_column_never_diagonal():
    """Adjacency (RULES.md 1.1): 2 or 3 neighbours per cell."""
    assert sorted(neighbours((0, 0))) == [(0, 1), (1, 0)]
    assert sorted(neighbours((1, 2))) == [(0, 2), (1, 1), (1, 3)]
    assert all(len(neighbours((r, c))) in (2, 3) for r in (0, 1) for c in range(5))


def test_mountains_one_scores_5_two_or_more_lose_5():
    assert score("M,F,F,F,F", "F,R,R,R,R")["by_kind"]["mountain"] == 5
    assert score("M,M,F,F,F", "F,R,R,R,R")["by_kind"]["mountain"] == -5
    assert score("M,M,M,M,M", "M,M,M,M,M")["total"] == -5


def test_naishi_scores_only_in_the_middle_column():
    assert score("M,M,N,M,M", "M,M,M,M,M")["by_kind"]["naishi"] == 12
    assert score("M,M,M,M,M", "M,M,N,M,M")["by_kind"]["naishi"] == 8
    assert score("N,M,M,M,M", "M,M,M,M,N")["by_kind"]["naishi"] == 0


def test_councillor_scores_by_column_plus_4_per_adjacent_naishi():
    assert score("A,A,A,M,M", "M,M,M,M,A")["by_kind"]["councillor"] == 2 + 4 + 3 + 2
    assert score("N,A,N,M,M", "M,N,M,M,M")["by_kind"]["councillor"] == 4 + 12


def test_fort_scores_6_on_an_edge_column():
    assert score("F,F,M,M,M", "M,M,M,M,F")["by_kind"]["fort"] == 12


def test_sentinel_alone_scores_3_plus_4_per_adjacent_fort():
    assert score("S,S,M,M,M", "F,M,M,M,M")["by_kind"]["sentinel"] == 4 + 0
    assert score("F,S,F,M,M", "M,F,M,M,M")["by_kind"]["sentinel"] == 3 + 12


def test_torii_one_loses_5_two_nothing_three_or_more_30():
    assert score("T,M,M,M,M", "M,M,M,M,M")["by_kind"]["torii"] == -5
    assert score("T,T,M,M,M", "M,M,M,M,M")["by_kind"]["torii"] == 0
    assert score("T,T,T,T,M", "M,M,M,M,M")["by_kind"]["torii"] == 30


def test_monk_scores_5_in_hand_plus_2_per_adjacent_torii():
    assert score("M,K,M,M,M", "M,M,M,M,M")["by_kind"]["monk"] == 0
    assert score("M,T,M,M,M", "T,K,T,M,M")["by_kind"]["monk"] == 5 + 6


def test_rice_groups_score_by_size_each_group_separately():
    assert score("R,R,M,R,R", "R,M,M,M,R")["by_kind"]["rice"] == 20 + 20
    assert score("R,M,R,M,M", "M,M,M,M,M")["by_kind"]["rice"] == 0
    assert score("R,R,R,R,R", "M,M,M,M,M")["by_kind"]["rice"] == 30


def test_banners_count_in_the_line_only():
    assert score("B,M,M,M,M", "B,M,M,M,M")["by_kind"]["banner"] == 3
    assert score("B,B,M,M,M", "M,M,M,M,M")["by_kind"]["banner"] == 8
    assert score("M,M,M,M,M", "B,B,M,M,M")["by_kind"]["banner"] == 0


def test_knight_scores_only_in_hand_plus_10_under_a_banner():
    assert score("B,M,M,M,M", "H,H,M,M,M")["by_kind"]["knight"] == 13 + 3
    assert score("H,M,M,M,M", "M,M,M,M,M")["by_kind"]["knight"] == 0


def test_ronin_below_8_kinds_scores_nothing():
    assert score("O,O,M,M,M", "N,A,F,S,T")["by_kind"]["ronin"] == 0


# --- Naishi 16: the Ninja -------------------------------------------------------------------


def test_ninja_copies_only_characters_of_its_own_territory():
    """Naishi 16: never a province, a Mountain or another Ninja."""
    grid = grid_from("X,F,T,R,B", "M,X,M,M,M")
    assert copy_candidates(grid) == []
    assert score("X,F,T,R,B", "M,X,M,M,M")["by_kind"]["ninja"] == 0


def test_ninja_without_a_copy_has_no_colour():
    """Naishi 16 / colours: a Ninja copying nothing adds no colour."""
    assert score("X,M,M,M,M", "M,M,M,M,M")["colours"] == 1


def test_ninja_takes_the_colour_of_its_copy():
    s = score("X,M,M,M,M", "K,M,M,M,M", {(0, 0): "monk"})
    assert s["colours"] == 2  # white, orange: the Ninja adds nothing new
    assert s["by_kind"]["ninja"] == 0  # a Monk in the Line scores nothing


def test_ninja_counts_as_its_copy_for_other_cards():
    """Naishi 16: a Sentinel next to a Ninja-as-Sentinel loses its 3."""
    s = score("S,X,M,M,M", "M,M,M,M,M", {(0, 1): "sentinel"})
    assert s["by_kind"]["sentinel"] == 0 and s["by_kind"]["ninja"] == 0


def test_all_mountain_territory_has_one_colour():
    """Colours (RULES.md 1.3 #4): the Mountain's white counts as a colour."""
    assert score("M,M,M,M,M", "M,M,M,M,M")["colours"] == 1
