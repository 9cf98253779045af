"""Samba, Bolivia and Brazilian canasta (SEQUENCES.md §9 to §11) from the public plugin API, for the engine's tests.

``bolivia`` is ``samba`` with overrides, ``brazilian`` is ``bolivia`` with overrides
(issue 34), the way two-player is classic with overrides.

The engine plays rule sets with meld types (`canasta.Rules.meld_types`); the
variant is registered here, not among the built-in variants, until everything
that stands on the engine (observations, records, the RL spaces, pictures, the
terminal) carries melds by identity.
"""

from __future__ import annotations

import types
from collections.abc import Generator

import attrs

import canasta
from canasta import CanastaClass
from canasta.meldtypes import BlackThreeGroupType, GroupType, SequenceType, WildMeldType


def _samba_plugin() -> types.ModuleType:
    plugin = types.ModuleType("samba_rules")

    @canasta.hookimpl
    def canasta_deck(players: int) -> canasta.DeckSpec:
        """§9.1: three packs and 6 jokers, 162 cards."""
        return canasta.DeckSpec(packs=3, jokers=6)

    @canasta.hookimpl
    def canasta_hand_size(players: int) -> int:
        """§9.1: 15 cards each."""
        return 15

    @canasta.hookimpl
    def canasta_draw_count() -> int:
        """§9.2: two cards from the stock."""
        return 2

    @canasta.hookimpl
    def canasta_meld_minimums() -> canasta.MeldMinimums:
        """§9.6: 15 below 0, then 50, 90, 120 and 150 from 7000."""
        return canasta.MeldMinimums(below_zero=15, steps=((0, 50), (1500, 90), (3000, 120), (7000, 150)))

    @canasta.hookimpl
    def canasta_initial_meld() -> canasta.InitialMeldRules:
        """§9.6: no concealed exemption; the top card of a taken pile counts."""
        return canasta.InitialMeldRules(concealed_exemption=False)

    @canasta.hookimpl
    def canasta_canasta_bonuses() -> canasta.CanastaBonuses:
        """§9.10: samba 1500, natural group canasta 500, mixed 300."""
        return canasta.CanastaBonuses(natural=500, mixed=300, sequence=1500)

    @canasta.hookimpl
    def canasta_threes() -> canasta.ThreeRules:
        """§9.10: 100 each, all six 1000; plus with 2 canastas, otherwise minus."""
        return canasta.ThreeRules(
            schedule=(0, 100, 200, 300, 400, 500, 1000),
            sign=canasta.ThreeSign.NEGATIVE_WITHOUT_CANASTA,
            canastas_for_plus=2,
        )

    @canasta.hookimpl
    def canasta_going_out() -> canasta.GoingOutRules:
        """§9.8: two canastas of any class; 200 for going out; no concealed bonus."""
        return canasta.GoingOutRules(canastas_required=2, bonus=200, concealed_bonus=None)

    @canasta.hookimpl
    def canasta_meld_types() -> tuple[object, ...]:
        """§9.3 to §9.5: groups, sequences, and black threes when going out."""
        return (GroupType(), SequenceType(), BlackThreeGroupType())

    @canasta.hookimpl
    def canasta_target_score() -> int:
        """§9.11: the game ends at 10000."""
        return 10000

    for name, value in list(locals().items()):
        if name.startswith("canasta_"):
            setattr(plugin, name, value)
    return plugin


SAMBA = canasta.Variant(
    name="samba",
    description="Samba: three packs, 15 cards, groups and sequences of a suit, two canastas to go out.",
    plugins=(_samba_plugin(),),
    base="classic",
)


def _plugin(name: str, hooks: dict[str, object]) -> types.ModuleType:
    plugin = types.ModuleType(name)
    for hook, implementation in hooks.items():
        setattr(plugin, hook, implementation)
    return plugin


def _bolivia_plugin() -> types.ModuleType:
    @canasta.hookimpl
    def canasta_meld_types() -> tuple[object, ...]:
        """§10.1: wild melds of 3 to 7 wild cards beside Samba's groups, sequences and black threes."""
        return (GroupType(), SequenceType(), WildMeldType(), BlackThreeGroupType())

    @canasta.hookimpl(wrapper=True)
    def canasta_canasta_bonuses() -> Generator[None, canasta.CanastaBonuses, canasta.CanastaBonuses]:
        """§10.7: a bolivia (7 wild cards) scores 2500."""
        return attrs.evolve((yield), wild=2500)

    @canasta.hookimpl
    def canasta_going_out() -> canasta.GoingOutRules:
        """§10.5: two canastas, at least one an escalera; 200 for going out."""
        return canasta.GoingOutRules(
            canastas_required=2, canastas_by_class=((CanastaClass.SEQUENCE, 1),), bonus=200, concealed_bonus=None
        )

    @canasta.hookimpl
    def canasta_black_threes() -> canasta.BlackThreeRules:
        """§10.6: a black three left in a hand counts -100."""
        return canasta.BlackThreeRules(in_hand_penalty=100)

    @canasta.hookimpl
    def canasta_target_score() -> int:
        """§10.7: the game ends at 15000."""
        return 15000

    return _plugin("bolivia_rules", {k: v for k, v in locals().items() if k.startswith("canasta_")})


BOLIVIA = canasta.Variant(
    name="bolivia",
    description="Bolivia: Samba with wild melds (a bolivia scores 2500) and an escalera needed to go out.",
    plugins=(_bolivia_plugin(),),
    base="samba",
)


def _brazilian_plugin() -> types.ModuleType:
    every = frozenset(CanastaClass)

    @canasta.hookimpl
    def canasta_meld_minimums() -> canasta.MeldMinimums:
        """§11.1: counts to 6995, then a canasta (7000), a canasta and 200 (8000), a clean canasta (9000)."""
        return canasta.MeldMinimums(
            below_zero=15,
            steps=((0, 50), (1500, 90), (3000, 120), (7000, 0), (8000, 200), (9000, 0)),
            canastas=(
                (7000, every),
                (9000, frozenset({CanastaClass.NATURAL, CanastaClass.SEQUENCE, CanastaClass.WILD})),
            ),
        )

    @canasta.hookimpl(wrapper=True)
    def canasta_pile_rules() -> Generator[None, canasta.PileRules, canasta.PileRules]:
        """§11.2: a side that has not opened never takes the pile."""
        return attrs.evolve((yield), unmelded_side_may_take=False)

    @canasta.hookimpl
    def canasta_meld_types() -> tuple[object, ...]:
        """§11.3, §11.5: escaleras grow to 11 cards when going out; a sequence under 5 cards costs 1000."""
        return (
            GroupType(),
            SequenceType(going_out_max_size=11, short_size=5, short_penalty=1000),
            WildMeldType(),
            BlackThreeGroupType(),
        )

    @canasta.hookimpl
    def canasta_going_out() -> canasta.GoingOutRules:
        """§11.4: any two canastas, and the partner's "yes" in that turn."""
        return canasta.GoingOutRules(
            canastas_required=2, bonus=200, concealed_bonus=None, permission=canasta.Permission.REQUIRED
        )

    @canasta.hookimpl
    def canasta_threes() -> canasta.ThreeRules:
        """§11.5: 100 each to four, 1000 for five, 1200 for six; plus with one canasta."""
        return canasta.ThreeRules(
            schedule=(0, 100, 200, 300, 400, 1000, 1200),
            sign=canasta.ThreeSign.NEGATIVE_WITHOUT_CANASTA,
            canastas_for_plus=1,
        )

    @canasta.hookimpl(wrapper=True)
    def canasta_canasta_bonuses() -> Generator[None, canasta.CanastaBonuses, canasta.CanastaBonuses]:
        """§11.5: a wild canasta scores 2000."""
        return attrs.evolve((yield), wild=2000)

    @canasta.hookimpl
    def canasta_target_score() -> int:
        """§11.5: the game ends at 10000."""
        return 10000

    return _plugin("brazilian_rules", {k: v for k, v in locals().items() if k.startswith("canasta_")})


BRAZILIAN = canasta.Variant(
    name="brazilian",
    description="Brazilian canasta: Bolivia with openings by canasta, no take before opening, a yes to go out.",
    plugins=(_brazilian_plugin(),),
    base="bolivia",
)


def _samba_160() -> types.ModuleType:
    @canasta.hookimpl(wrapper=True)
    def canasta_meld_minimums() -> Generator[None, canasta.MeldMinimums, canasta.MeldMinimums]:
        """§9.13: 160 instead of 150 from 7000."""
        table: canasta.MeldMinimums = yield
        return attrs.evolve(table, steps=tuple((s, 160 if s == 7000 else m) for s, m in table.steps))

    return _plugin("samba_160", {"canasta_meld_minimums": canasta_meld_minimums})


def _samba_top_card_only() -> types.ModuleType:
    @canasta.hookimpl(wrapper=True)
    def canasta_pile_rules() -> Generator[None, canasta.PileRules, canasta.PileRules]:
        """§9.13: the top card alone onto a sequence takes only that card."""
        return attrs.evolve((yield), sequence_take_top_only=True)

    return _plugin("samba_top_card_only", {"canasta_pile_rules": canasta_pile_rules})


def _bolivia_free_wilds() -> types.ModuleType:
    @canasta.hookimpl(wrapper=True)
    def canasta_meld_types() -> Generator[None, tuple[object, ...], tuple[object, ...]]:
        """§10.9: a group needs 2 naturals and holds any number of wild cards, which may join a canasta."""
        found = yield
        free = GroupType(max_wilds=None, wild_size_limit=None)
        return tuple(free if isinstance(t, GroupType) else t for t in found)

    return _plugin("bolivia_free_wilds", {"canasta_meld_types": canasta_meld_types})


def _brazilian_escalera_to_go_out() -> types.ModuleType:
    @canasta.hookimpl(wrapper=True)
    def canasta_going_out() -> Generator[None, canasta.GoingOutRules, canasta.GoingOutRules]:
        """§11.7: two canastas, at least one an escalera (Bolivia's rule kept)."""
        return attrs.evolve((yield), canastas_by_class=((CanastaClass.SEQUENCE, 1),))

    return _plugin("brazilian_escalera_to_go_out", {"canasta_going_out": canasta_going_out})


def _brazilian_wild_2500() -> types.ModuleType:
    @canasta.hookimpl(wrapper=True)
    def canasta_canasta_bonuses() -> Generator[None, canasta.CanastaBonuses, canasta.CanastaBonuses]:
        """§11.7: a wild canasta scores 2500, as in Bolivia."""
        return attrs.evolve((yield), wild=2500)

    return _plugin("brazilian_wild_2500", {"canasta_canasta_bonuses": canasta_canasta_bonuses})


#: The rule options of §9.13, §10.9 and §11.7, each a small plugin.
OPTIONS = (
    canasta.HouseRule(
        name="samba-160",
        description="The minimum at 7000 or more is 160 instead of 150.",
        plugins=(_samba_160(),),
        applies_to=frozenset({"samba"}),
        excludes=frozenset({"brazilian"}),
    ),
    canasta.HouseRule(
        name="samba-top-card-only",
        description="Taking the top card onto a sequence takes only that card; the rest of the pile stays.",
        plugins=(_samba_top_card_only(),),
        applies_to=frozenset({"samba"}),
    ),
    canasta.HouseRule(
        name="bolivia-free-wilds",
        description="A group holds any number of wild cards, and wild cards may join a group canasta.",
        plugins=(_bolivia_free_wilds(),),
        applies_to=frozenset({"bolivia"}),
    ),
    canasta.HouseRule(
        name="brazilian-escalera-to-go-out",
        description="Going out needs two canastas, at least one an escalera.",
        plugins=(_brazilian_escalera_to_go_out(),),
        applies_to=frozenset({"brazilian"}),
    ),
    canasta.HouseRule(
        name="brazilian-wild-2500",
        description="A wild canasta scores 2500.",
        plugins=(_brazilian_wild_2500(),),
        applies_to=frozenset({"brazilian"}),
    ),
)


def registry() -> canasta.Registry:
    """A registry with the built-in variants, the three sequence games and their rule options."""
    found = canasta.Registry(autoload="builtin")
    for variant in (SAMBA, BOLIVIA, BRAZILIAN):
        found.add_variant(variant)
    for option in OPTIONS:
        found.add_house_rule(option)
    return found


def rules(name: str = "samba", house_rules: tuple[str, ...] = ()) -> canasta.Rules:
    """The compiled rules of Samba (with house rules, if given)."""
    return canasta.load_rules(name, house_rules, registry=registry())


@canasta.hookimpl
def canasta_variants() -> list[canasta.Variant]:
    """The three games, for ``canasta.register_plugin(sequence_variants)`` (the soak script's ``--plugin``)."""
    return [SAMBA, BOLIVIA, BRAZILIAN]


@canasta.hookimpl
def canasta_house_rules() -> list[canasta.HouseRule]:
    """Their rule options."""
    return list(OPTIONS)
