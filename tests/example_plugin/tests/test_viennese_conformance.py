"""The example plugin runs canasta's conformance suite on its own variant and house rule.

The suite proves the legal actions exact against the brute-force legality
reference (`canasta.testing.reference`) in every small position it reaches: a
variant author gets that proof without writing a line. The class attributes
below show where it is tuned; the values are the defaults but for the card
limit, raised here because Viennese positions are cheap to search.
"""

import pytest

pytest.importorskip(
    "canasta_example_viennese", reason="example plugin not installed; run `pip install ./tests/example_plugin`"
)

import canasta
from canasta.testing import check_exact_legality, conformance_machine


class VienneseConformance(conformance_machine("viennese")):
    # Prove the legal actions exact against the legality reference whenever the acting
    # hand plus the pile hold at most 14 cards, before every action and after every step.
    reference_max_cards = 14
    reference_in_play = True


TestVienneseConformance = VienneseConformance.TestCase
TestVienneseWildCanastaConformance = conformance_machine("viennese", ("viennese-wild-canasta",)).TestCase


def test_a_lifted_one_card_rule_still_obeys_spec_0() -> None:
    # Viennese lifts the one-card rule, so the rules allow a player holding one card to
    # take a one-card pile. Without a canasta the player could then neither discard the
    # last card nor meld out, so the take is not legal; with one, it goes out.
    rules = canasta.load_rules("viennese")
    others = [["4D", "4H"], ["6D", "6H"], ["7D", "7H"]]
    take = canasta.TakePile(0, 0, 0)
    queens = ["QS", "QC", "QD"]
    without = canasta.build_position(rules, hands=[["QH"], *others], pile=["QD"], melds=[[queens], []])
    assert take in without.allowed_actions() and take not in without.legal_actions()
    check_exact_legality(without)
    kings = ["KH", "KS", "KD", "KC", "KH", "KS", "KD"]
    with_canasta = canasta.build_position(rules, hands=[["QH"], *others], pile=["QD"], melds=[[queens, kings], []])
    assert take in with_canasta.legal_actions()
    check_exact_legality(with_canasta)
