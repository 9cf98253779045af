"""A plugin's meld type of a shape of its own, played: Buraco's runs holding one wild card (issue 34).

Built from public names only (`canasta.meldtypes`, `canasta.suitedhand`, the plugin hooks):
a run is 3 or more cards of one suit, each rank once, from the 4 up to the ace (as Samba's
sequences run), and it may hold **one** wild card (a 2 or a joker) standing for a missing
rank or extending an end. At 7 cards it is a canasta: clean, a sequence canasta
(`CanastaClass.SEQUENCE`); with its wild card, a mixed one. Cards join at the ends, into its
gap, or a wild card joins a run without one; the wild card's place is wherever the run
allows (a natural that fills its gap moves it to an end).

`buraco_registry` (or the module as a plugin: ``--plugin buraco_plugin``) registers the variant
``samba-buraco-runs``: Samba (``base="samba"``) with the runs **instead of** Samba's sequences
(a clean run is a sequence, so the two would overlap; one type per shape keeps each meld's type
plain). `docs/writing-a-plugin.md` shows the same type.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar

from attrs import frozen

import canasta
from canasta import CanastaClass
from canasta.cards import Suit
from canasta.meldtypes import BlackThreeGroupType, GroupType, MeldShape, MeldType
from canasta.suitedhand import SuitedHand

__all__ = ["RUNS_VARIANT", "VARIANT", "BuracoRuns", "RunShape", "buraco_registry", "canasta_variants"]

#: The test variant's name.
VARIANT = "samba-buraco-runs"
_LOW, _HIGH = 4, 14  # a run's ranks: the 4 up to the ace


@frozen
class RunShape(MeldShape):
    """A run's cards: its suit, its natural ranks, and its wild cards.

    Attributes:
        suit: The suit of its naturals.
        ranks: Its natural ranks (each once).
        twos: Its 2s.
        jokers: Its jokers.
    """

    suit: Suit
    ranks: frozenset[int]
    twos: int = 0
    jokers: int = 0

    @property
    def size(self) -> int:
        """The run's cards."""
        return len(self.ranks) + self.twos + self.jokers

    @property
    def wilds(self) -> int:
        """Its wild cards."""
        return self.twos + self.jokers


def _card_set(suit: Suit, ranks: frozenset[int] | set[int], twos: int = 0, jokers: int = 0) -> SuitedHand:
    naturals = [0] * 44
    for rank in ranks:
        naturals[(rank - _LOW) * 4 + suit] = 1
    return SuitedHand.counted(tuple(naturals), twos, jokers, 0)  # (counts made here: no check needed)


_WILDS = ((0, 0), (1, 0), (0, 1))  # no wild card, a 2, a joker


@frozen
class BuracoRuns(MeldType):
    """Runs of one suit, 3 cards or more, 4 up to the ace, with at most one wild card.

    Attributes:
        min_size: Cards a new run needs.
        canasta_size: Cards that make a run a canasta.
    """

    name: ClassVar[str] = "buraco run"
    shape: ClassVar[type[MeldShape]] = RunShape

    min_size: int = 3
    canasta_size: int = 7

    def valid(self, meld: MeldShape, *, going_out: bool = False) -> bool:
        """Consecutive naturals, or with one gap the wild card fills; at most one wild card, room for it."""
        if not isinstance(meld, RunShape) or meld.wilds > 1 or len(meld.ranks) < 1 or meld.size < self.min_size:
            return False
        low, high = min(meld.ranks), max(meld.ranks)
        if low < _LOW or high > _HIGH:
            return False
        missing = high - low + 1 - len(meld.ranks)
        if missing == 0:
            return not meld.wilds or low > _LOW or high < _HIGH  # (a wild card extends an end)
        return missing == 1 and meld.wilds == 1  # (it stands for the missing rank)

    def can_add(self, meld: MeldShape, grown: MeldShape, *, going_out: bool = False) -> bool:
        """Cards join (naturals at the ends or into the gap, a wild card into a run without one), never leave."""
        if not (isinstance(meld, RunShape) and isinstance(grown, RunShape)) or grown.suit != meld.suit:
            return False
        if not meld.ranks <= grown.ranks or grown.twos < meld.twos or grown.jokers < meld.jokers:
            return False
        return grown.size > meld.size and self.valid(grown)

    def closed(self, meld: MeldShape, *, going_out: bool = False) -> bool:
        """Closed at 11 cards (4 to the ace: no rank left)."""
        return isinstance(meld, RunShape) and meld.size >= _HIGH - _LOW + 1

    def canasta_class(self, meld: MeldShape) -> CanastaClass | None:
        """A canasta at `canasta_size` cards: a sequence canasta clean, mixed with its wild card."""
        if not isinstance(meld, RunShape) or meld.size < self.canasta_size:
            return None
        return CanastaClass.MIXED if meld.wilds else CanastaClass.SEQUENCE

    def shape_of(self, cards: SuitedHand) -> RunShape | None:
        """Naturals of one suit, each rank once, and wild cards (no black three)."""
        held = [(i // 4 + _LOW, Suit(i % 4), n) for i, n in enumerate(cards.naturals) if n]
        suits = {suit for _, suit, _ in held}
        if len(suits) != 1 or any(n > 1 for *_, n in held) or cards.black_threes:
            return None
        return RunShape(suits.pop(), frozenset(rank for rank, _, _ in held), cards.twos, cards.jokers)

    def cards_of(self, meld: MeldShape) -> SuitedHand:
        """The run's naturals and wild cards."""
        assert isinstance(meld, RunShape)
        return _card_set(meld.suit, meld.ranks, meld.twos, meld.jokers)

    def lays(self, hand: SuitedHand) -> Iterator[SuitedHand]:
        """Per suit, each stretch of ranks held (or held but one rank, which a wild card stands for), with no wild
        card, a 2 or a joker (which may stand for a rank held inside the stretch too)."""
        for suit in Suit:
            held = hand.of_suit(suit)
            for lo in range(_LOW, _HIGH + 1):
                for hi in range(lo + 1, _HIGH + 1):
                    stretch = set(range(lo, hi + 1))
                    lacking = [r for r in stretch if not held[r - _LOW]]
                    if len(lacking) > 1:
                        break
                    # The wild card (if any) stands for the rank lacking, or for any rank held inside.
                    for gap in lacking or [None, *range(lo + 1, hi)]:
                        for twos, jokers in _WILDS:
                            if gap is not None and not twos + jokers:
                                continue
                            if twos <= hand.twos and jokers <= hand.jokers:
                                yield _card_set(suit, stretch - {gap}, twos, jokers)

    def additions(self, meld: MeldShape, hand: SuitedHand) -> Iterator[SuitedHand]:
        """Naturals of the run's suit that stretch it (held but one rank at most), with a wild card if it has none."""
        assert isinstance(meld, RunShape)
        held = hand.of_suit(meld.suit)
        low, high = min(meld.ranks), max(meld.ranks)
        wilds = _WILDS if not meld.wilds else _WILDS[:1]
        for lo in range(low, _LOW - 1, -1):
            for hi in range(high, _HIGH + 1):
                new = set(range(lo, hi + 1)) - meld.ranks
                lacking = [r for r in new if not held[r - _LOW]]
                if len(lacking) > 1:
                    break
                for gap in lacking if lacking else [None, *new]:
                    naturals = new - {gap}
                    for twos, jokers in wilds:
                        if (naturals or twos + jokers) and twos <= hand.twos and jokers <= hand.jokers:
                            yield _card_set(meld.suit, naturals, twos, jokers)


class _Runs:
    """The variant's plugin: Samba's meld types with the runs for its sequences."""

    @canasta.hookimpl
    def canasta_meld_types(self) -> tuple[MeldType, ...]:
        """Groups (Samba's), Buraco's runs, the black-three group."""
        return (GroupType(), BuracoRuns(), BlackThreeGroupType())


#: The test variant: Samba with Buraco's runs instead of its sequences.
RUNS_VARIANT = canasta.Variant(
    name=VARIANT,
    description="Samba with Buraco's runs (one wild card) instead of its sequences",
    plugins=(_Runs(),),
    base="samba",
    version="1.0",
    source="tests: issue 34's meld type of a shape of its own",
)


@canasta.hookimpl
def canasta_variants() -> list[canasta.Variant]:
    """Contribute the test variant (`benchmarks/random_invariants.py --plugin buraco_plugin`)."""
    return [RUNS_VARIANT]


def buraco_registry() -> canasta.Registry:
    """A registry with the built-in variants and ``samba-buraco-runs``."""
    found = canasta.Registry(autoload="builtin")
    found.add_variant(RUNS_VARIANT)
    return found
