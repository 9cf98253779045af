"""The example third-party distribution (tests/example_plugin), found through its entry point and played.

CI installs it with ``pip install --no-deps ./tests/example_plugin``; these tests skip with
that instruction when it is not installed.
"""

from __future__ import annotations

from importlib import metadata

import pytest

import canasta
from canasta import Discard, HandEnd, Kind, RuleCode, TakePile
from canasta.bots import make_bot

DIST = "canasta-example-viennese"
INSTALL = "pip install --no-deps ./tests/example_plugin"


def _entry_point() -> metadata.EntryPoint | None:
    for ep in metadata.entry_points(group="canasta", name="viennese"):
        if ep.dist is not None and ep.dist.name == DIST:
            return ep
    return None


pytestmark = pytest.mark.skipif(_entry_point() is None, reason=f"example plugin not installed; run `{INSTALL}`")


def test_found_through_its_entry_point_with_metadata() -> None:
    ep = _entry_point()
    assert ep is not None and ep.value == "canasta_example_viennese"
    registry = canasta.Registry(autoload=True)
    variant = registry.variant("viennese")
    assert variant.origin == f"{DIST} (entry point viennese = canasta_example_viennese)"
    assert (variant.base, variant.version) == ("classic", "1.0.0")
    assert "Viennese" in variant.source
    rule = registry.house_rule("viennese-wild-canasta")
    assert rule.origin == variant.origin and rule.applies_to == frozenset({"viennese"})
    assert not [f for f in registry.failures if DIST in f.origin]
    # Listed by the public functions too.
    assert "viennese" in [v.name for v in canasta.available_variants()]
    assert "viennese-wild-canasta" in [h.name for h in canasta.available_house_rules()]


def test_not_loaded_when_autoload_is_disabled(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(canasta.registry.AUTOLOAD_ENV, "1")
    registry = canasta.Registry()
    names = [v.name for v in registry.variants()]
    assert "classic" in names and "viennese" not in names
    with pytest.raises(canasta.UnknownNameError, match="unknown variant 'viennese'"):
        registry.variant("viennese")


def test_the_rules_differ_from_classic_only_where_viennese_does() -> None:
    classic, viennese = canasta.load_rules("classic"), canasta.load_rules("viennese")
    assert classic.pile.one_card_rule and not viennese.pile.one_card_rule
    assert viennese.threes.sign is canasta.ThreeSign.NEGATIVE_WITHOUT_CANASTA
    assert viennese.hand_size == classic.hand_size and viennese.melds == classic.melds
    with_wild = canasta.load_rules("viennese", ["viennese-wild-canasta"])
    assert with_wild.melds.wild_melds and with_wild.canasta_bonuses.wild == 2000
    with pytest.raises(canasta.PluginError, match="does not fit variant 'classic'"):
        canasta.load_rules("classic", ["viennese-wild-canasta"])


def _one_card_table(rules: canasta.Rules) -> canasta.HandState:
    # Seat 0 holds one queen; the pile is one queen; the side has a canasta and a meld of queens.
    return canasta.build_position(
        rules,
        hands=[["QH"], ["4H", "5H", "6H"], ["4C", "7C", "8C"], ["4D", "5D", "6D"]],
        pile=["QD"],
        melds=[[["KH", "KS", "KD", "KC", "KH", "KS", "KD"], ["QC", "QC", "QS"]], []],
    )


def test_one_card_rule_is_lifted() -> None:
    layoff = TakePile(0, 0, 0)
    classic = _one_card_table(canasta.load_rules("classic"))
    with pytest.raises(canasta.IllegalActionError) as refused:
        classic.apply(layoff)
    assert refused.value.code is RuleCode.ONE_CARD_RULE
    viennese = _one_card_table(canasta.load_rules("viennese"))
    assert layoff in viennese.legal_actions()
    viennese.apply(layoff)
    assert viennese.melds[0][Kind.QUEEN].size == 4


def _side_without_canasta_scores(variant: str) -> int:
    # Seat 0 goes out; side 1 has a meld but no canasta and one red three.
    state = canasta.build_position(
        canasta.load_rules(variant),
        hands=[["8C"], ["9H", "9S"], ["AH"], ["5H"]],
        melds=[[["KH", "KS", "KD", "KC", "KH", "KS", "KD"]], [["4H", "4S", "4D"]]],
        threes=[[], ["3D"], [], []],
        phase="meld",
    )
    state.apply(Discard(Kind.EIGHT))
    assert state.end is HandEnd.WENT_OUT
    return state.score().sides[1].red_threes


def test_red_threes_need_a_canasta() -> None:
    assert _side_without_canasta_scores("classic") == 100  # classic: the side has melded
    assert _side_without_canasta_scores("viennese") == -100  # Viennese: no canasta, so it counts against


@pytest.mark.parametrize("house_rules", [(), ("viennese-wild-canasta",)])
def test_plays_a_whole_game_end_to_end(house_rules: tuple[str, ...]) -> None:
    game = canasta.Game("viennese", house_rules, seed=11)
    bots = [make_bot("greedy", (11, seat)) for seat in range(game.rules.players)]
    actions = 0
    while not game.is_over:
        game.apply(bots[game.seat].choose(game.hand, game.seat))
        actions += 1
        assert actions < 50_000, "the game did not finish"
    assert len(game.results) >= 2
    assert game.rules.variant == "viennese" and game.rules.house_rules == house_rules
    assert max(game.scores) >= game.rules.target_score
    assert list(game.scores) == [sum(r.totals[s] for r in game.results) for s in range(game.rules.side_count)]


def test_its_pile_refusals_cite_its_own_rule_text_not_classics() -> None:
    # Viennese restates how the pile is taken (canasta_rule_sections): those codes cite its text.
    rules, classic = canasta.load_rules("viennese"), canasta.load_rules("classic")
    own = rules.section(RuleCode.PILE_FROZEN)
    assert own is not None and own.book == "rules of viennese" and own.page.startswith("https://www.pagat.com/")
    assert own != classic.section(RuleCode.PILE_FROZEN)
    assert rules.section(RuleCode.MELD_CLOSED) == classic.section(RuleCode.MELD_CLOSED)  # kept from the base
    state = canasta.build_position(
        rules,
        hands=[["QH", "2C", "5D"], ["4H", "5H", "6H"], ["4C", "7C", "8C"], ["4D", "5D", "6D"]],
        pile=["9S", "2D", "QD"],  # the buried 2 freezes the pile
        melds=[[["KH", "KS", "KD"]], []],
    )
    with pytest.raises(canasta.IllegalActionError) as refused:
        state.apply(TakePile(1, 1, 0))
    assert refused.value.code is RuleCode.PILE_FROZEN
    assert refused.value.section == own
    assert str(refused.value).endswith(f'(rules of viennese, "{own.title}")')
    assert "classic" not in str(refused.value)
