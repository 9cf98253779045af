"""Samba, Bolivia and Brazilian canasta are built-in variants (issue 34): by name, with their options as house rules.

The three games ship in ``variants/`` (``canasta_samba``, ``canasta_bolivia`` with base
``samba``, ``canasta_brazilian`` with base ``bolivia``) and their rule options (the rule
book's §9.13, §10.9, §11.7) in ``canasta_house_rules.sequences``: the default registry
lists them, ``canasta.Game(name)`` plays them to their target score, a house rule is
refused with a typed error where it does not fit, and the command line plays them.
"""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest

import canasta
from canasta import CanastaClass, RuleCode
from canasta.cli import main
from canasta.meldtypes import GroupType
from canasta.records import load_record

VARIANTS = ("samba", "bolivia", "brazilian")
#: §9.11, §10.7, §11.5: the score that ends the game.
TARGETS = {"samba": 10000, "bolivia": 15000, "brazilian": 10000}
#: §9.13, §10.9, §11.7 and the decided points: the games each option stacks on (samba-160 not on brazilian,
#: whose openings from 7000 need a canasta, not a count).
#: The seed of each whole game: random play of Brazilian canasta (no "yes", hardly any going out) runs 8 to 21 hands
#: of about a second each on the pure engine; seed 3 ends in 8.
SEEDS = {"samba": 2, "bolivia": 2, "brazilian": 3}
FITS = {
    "samba-160": {"samba", "bolivia"},
    "samba-top-card-only": {"samba", "bolivia", "brazilian"},
    "bolivia-free-wilds": {"bolivia", "brazilian"},
    "brazilian-escalera-to-go-out": {"brazilian"},
    "brazilian-wild-2500": {"brazilian"},
}


def test_the_default_registry_lists_the_three_games_and_their_options_as_built_in() -> None:
    registry = canasta.default_registry()
    variants = {v.name: v for v in registry.variants()}
    assert {name: variants[name].base for name in VARIANTS} == {
        "samba": "classic",
        "bolivia": "samba",
        "brazilian": "bolivia",
    }
    assert all(variants[name].origin.startswith("canasta ") for name in VARIANTS)
    rules = {h.name: h for h in registry.house_rules()}
    assert all(rules[name].origin.startswith("canasta ") for name in FITS)
    assert {v.name for v in canasta.available_variants()} >= set(VARIANTS)


@pytest.mark.parametrize("name", VARIANTS)
def test_a_whole_game_plays_by_name_to_its_target_score(name: str) -> None:
    game = canasta.Game(name, seed=SEEDS[name])
    assert game.rules.target_score == TARGETS[name] and game.rules.meld_types
    rng = random.Random(SEEDS[name])
    hands = 0
    for _ in range(200_000):
        if game.is_over:
            break
        hands += game.apply(rng.choice(game.legal_actions())) is not None
    assert game.is_over and len(game.results) == hands >= 2
    assert list(game.scores) == [sum(r.totals[side] for r in game.results) for side in range(2)]
    top = max(game.scores)
    assert top >= TARGETS[name]
    before = [sum(r.totals[side] for r in game.results[:-1]) for side in range(2)]
    assert max(before) < TARGETS[name]  # the game ended at the first hand that reached the target
    winners = tuple(side for side in range(2) if game.scores[side] == top)
    assert game.winners() == winners  # the higher total wins; equal totals are a draw
    assert game.winner() == (winners[0] if len(winners) == 1 else None)


@pytest.mark.parametrize("option", sorted(FITS))
def test_each_option_fits_the_games_its_section_names_and_is_refused_elsewhere(option: str) -> None:
    registry = canasta.default_registry()
    for variant in (v.name for v in registry.variants()):
        assert registry.fits(option, variant) is (variant in FITS[option]), (option, variant)
    for variant in VARIANTS:
        if variant in FITS[option]:
            assert canasta.load_rules(variant, [option]) != canasta.load_rules(variant)
        else:
            with pytest.raises(canasta.PluginError, match=f"house rule {option!r} does not fit variant {variant!r}"):
                canasta.load_rules(variant, [option])
    with pytest.raises(canasta.PluginError, match="does not fit"):
        canasta.load_rules("classic", [option])


def test_each_option_changes_the_rule_its_section_states() -> None:
    for variant in ("samba", "bolivia"):  # §9.13: 160 from 7000
        rules = canasta.load_rules(variant, ["samba-160"])
        assert rules.minimums.minimum_for(7000) == 160 and rules.minimums.minimum_for(6995) == 120
        assert canasta.load_rules(variant).minimums.minimum_for(7000) == 150
        section = rules.section(RuleCode.MINIMUM_NOT_MET)
        assert section is not None and section.page == "rules/house-rules/samba-160.md"
    for variant in VARIANTS:  # §9.13: the top card alone onto a sequence
        assert canasta.load_rules(variant, ["samba-top-card-only"]).pile.sequence_take_top_only
        assert not canasta.load_rules(variant).pile.sequence_take_top_only
    for variant in ("bolivia", "brazilian"):  # §10.9: any number of wild cards, joining a canasta too
        group = next(t for t in canasta.load_rules(variant, ["bolivia-free-wilds"]).meld_types if type(t) is GroupType)
        assert (group.min_naturals, group.max_wilds, group.wild_size_limit) == (2, None, None)
    rules = canasta.load_rules("brazilian", ["brazilian-escalera-to-go-out"])  # §11.7
    assert rules.going_out.canastas_by_class == ((CanastaClass.SEQUENCE, 1),)
    assert not rules.going_out.quota_met([2, 0, 0, 0]) and rules.going_out.quota_met([1, 0, 0, 1])
    assert canasta.load_rules("brazilian").going_out.quota_met([2, 0, 0, 0])
    section = rules.section(RuleCode.GOING_OUT_NOT_ALLOWED)
    assert section is not None and section.page == "rules/house-rules/brazilian-escalera-to-go-out.md"
    assert canasta.load_rules("brazilian", ["brazilian-wild-2500"]).canasta_bonuses.wild == 2500  # §11.7
    assert canasta.load_rules("brazilian").canasta_bonuses.wild == 2000
    # The options stack where they all fit, each changing only what it names.
    stacked = canasta.load_rules("brazilian", ["bolivia-free-wilds", "brazilian-wild-2500", "samba-top-card-only"])
    assert stacked.canasta_bonuses.wild == 2500 and stacked.pile.sequence_take_top_only
    assert stacked.going_out == canasta.load_rules("brazilian").going_out


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_rule_code_cites_the_games_own_page(variant: str) -> None:
    rules = canasta.load_rules(variant)
    section = rules.section(RuleCode.INVALID_MELD)
    assert section is not None and section.page == f"rules/{variant}.md" and section.id == "melds"


def test_the_command_line_plays_a_samba_hand_and_its_record_replays_by_name(tmp_path: Path) -> None:
    path = tmp_path / "samba.json"
    out = io.StringIO()
    # Seat 0 is typed at: a draw ("d"), then the first menu entry each time, until the hand's score.
    script = "d\n" + "1\n" * 400
    args = ["play", "--variant", "samba", "--seed", "4", "--max-hands", "1", "--record", str(path)]
    code = main(args, stdin=io.StringIO(script), stdout=out)
    text = out.getvalue()
    assert code == 0, text
    assert "Hand 1 score" in text and "your hand (15 cards)" in text
    assert "#0:" in text  # melds are shown by number
    record = load_record(path)
    assert record.variant == "samba" and record.seats[0] == "you" and len(record.hand_totals) == 1
    replayed = io.StringIO()
    assert main(["replay", str(path)], stdin=io.StringIO(), stdout=replayed) == 0  # found by its variant's name
    assert replayed.getvalue().count("  hand 1, seat ") == len(record.actions)
