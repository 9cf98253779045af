"""The special hands' compositions (the rule book's club form): one valid hand and one near miss each."""

from __future__ import annotations

import pytest
from canasta_house_rules.special_hands import CLA_HANDS, PAGAT_HANDS, best_hand, matching_hands

from canasta import Kind

_KINDS = {"A": 14, "K": 13, "Q": 12, "J": 11, "T": 10, "*": 0, "2": 1, "3": 3}


def counts(text: str) -> list[int]:
    """Card counts of a hand written by kind, e.g. ``"AA 77 22"`` (T ten, * joker, 3 a three)."""
    result = [0] * len(Kind)
    for symbol in text.replace(" ", ""):
        result[_KINDS[symbol] if symbol in _KINDS else int(symbol)] += 1
    return result


#: For each hand: a valid example, and a near miss (one card changed) that is no special hand of its table.
CASES = {
    "pairs": ("AA KK QQ JJ TT 99 88", "AA KK QQ JJ TT 99 8*"),
    "wild_pairs": ("AA 77 22 KK QQ JJ TT", "AA 77 2* KK QQ JJ TT"),
    "miami_pairs": ("AA 77 22 ** KK QQ JJ", "AA 77 22 ** KK QQ J9"),
    "zip_code": ("KK QQ JJJ TTT 2222", "KK QQ JJJ TTT 222*"),
    "straight": ("AKQJT98765432*", "AKQJT9876544 2*"),
    "garbage": ("KKKK QQQQ JJJ TTT", "KKKK QQQQ JJJ TT2"),
    "blast_off": ("KKKKK QQQQ JJJ TT", "KKKKK QQQQ JJJ T3"),
    "triples": ("KKK QQQ JJJ TTT 22", "KKK QQQ JJJ TTT 2*"),
    "quads": ("KKKK QQQQ JJJJ **", "KKKK QQQQ JJJJ 2*"),
    "dream_plus_4": ("KKKKK QQQQQ 2222", "KKKKK QQQQQ 222*"),
    "dream_plus_5": ("AAAAA KKKK 222**", "AAAAA KKKK 222*3"),
}


@pytest.mark.parametrize("hand", CLA_HANDS, ids=lambda h: h.id)
def test_each_club_hand_with_a_valid_example_and_a_near_miss(hand: object) -> None:
    valid, miss = CASES[hand.id]  # type: ignore[attr-defined]
    assert sum(counts(valid)) == sum(counts(miss)) == 14
    assert hand in matching_hands(counts(valid))
    assert hand not in matching_hands(counts(miss))


def test_the_near_misses_are_no_special_hand_at_all() -> None:
    for valid, miss in CASES.values():
        assert best_hand(counts(valid)) is not None
        assert matching_hands(counts(miss)) == []


def test_a_hand_matching_two_entries_scores_the_higher() -> None:
    # The CLA example of Dream Hand +5 is also a Blast Off (5, 4, 3 and 2 cards).
    example = counts("44444 KKKK 222 **")
    assert [h.id for h in matching_hands(example)] == ["blast_off", "dream_plus_5"]
    best = best_hand(example)
    assert best is not None and best.id == "dream_plus_5" and best.value == 8500 and best.wins_game


def test_groups_are_of_pairwise_different_kinds_and_only_the_straight_holds_a_three() -> None:
    assert best_hand(counts("8888 8888 KKK QQQ")) is None  # eight 8s are one group, not two quads
    assert best_hand(counts("AA KK QQ JJ TT 99 33")) is None
    assert best_hand(counts("AA KK QQ JJ TT 99 88 7")) is None  # 15 cards
    with pytest.raises(ValueError, match="15 non-negative card counts"):
        matching_hands([0] * 14)


def test_values_and_the_pagat_form() -> None:
    values = {h.id: h.value for h in CLA_HANDS}
    assert values == {
        "pairs": 2500, "wild_pairs": 2000, "miami_pairs": 2500, "zip_code": 2500, "straight": 3000,
        "garbage": 3000, "blast_off": 3000, "triples": 3500, "quads": 3500, "dream_plus_4": 8500,
        "dream_plus_5": 8500,
    }
    assert [h.id for h in CLA_HANDS if h.wins_game] == ["dream_plus_4", "dream_plus_5"]
    pagat = {"straight": 3000, "pairs": 2500, "pairs_twos": 2000, "garbage": 2000}
    assert {h.id: h.value for h in PAGAT_HANDS} == pagat
    pairs_twos = counts("AA 77 22 KK QQ JJ TT")
    assert best_hand(pairs_twos, PAGAT_HANDS).id == "pairs_twos"  # type: ignore[union-attr]
    assert best_hand(counts("AA 77 ** KK QQ JJ TT"), PAGAT_HANDS) is None  # pagat's pairs take no joker
    assert best_hand(counts("KKKK QQQQ JJJ TTT"), PAGAT_HANDS).value == 2000  # type: ignore[union-attr]
    assert best_hand(counts("KK QQ JJJ TTT 2222"), PAGAT_HANDS) is None  # no Zip Code in pagat's form
