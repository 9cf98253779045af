"""A test variant built from the public concepts of books and quotas (issue 33), not shipped in ``variants/``.

``classic-books``: classic canasta with three packs and six jokers (so that a rank
often has more cards than one book holds), whose melds close as *books* at 7 cards and make
room (`canasta.MeldRules.book_makes_room`: a side may then start a new meld of the
rank, one incomplete meld of a rank at a time), with the wild-card limit as a ratio
of two naturals per wild card (`canasta.MeldRules.naturals_per_wild`) instead of
classic's 3, and a going-out quota of 1 natural and 1 mixed canasta
(`canasta.GoingOutRules.canastas_by_class`) instead of 1 of any class. Register it
with ``canasta.register_plugin(books_plugin)`` (`register` does it once).
``classic-quota`` is classic with that quota alone (canastas grow past 7 as in classic).
"""

from __future__ import annotations

from collections.abc import Generator

import attrs

import canasta
from canasta import CanastaClass, GoingOutRules, MeldRules

NAME = "classic-books"
#: The quota alone: classic's canastas (no books, no cap), going out with 1 natural and 1 mixed canasta.
QUOTA_NAME = "classic-quota"


class _Rules:
    """The rule hooks: only what differs from classic."""

    @canasta.hookimpl
    def canasta_deck(self) -> canasta.DeckSpec:
        """Three packs and six jokers (162 cards)."""
        return canasta.DeckSpec(packs=3, jokers=6)

    @canasta.hookimpl(wrapper=True)
    def canasta_meld_rules(self) -> Generator[None, MeldRules, MeldRules]:
        """Melds capped at 7 cards that close as books and make room; naturals >= 2 x wild cards."""
        melds: MeldRules = yield
        return attrs.evolve(melds, max_size=7, book_makes_room=True, naturals_per_wild=2, max_wilds=None)

    @canasta.hookimpl(wrapper=True)
    def canasta_going_out(self) -> Generator[None, GoingOutRules, GoingOutRules]:
        """Going out needs 1 natural and 1 mixed canasta (a wild one never stands in)."""
        going_out: GoingOutRules = yield
        return attrs.evolve(
            going_out, canastas_required=0, canastas_by_class=((CanastaClass.NATURAL, 1), (CanastaClass.MIXED, 1))
        )


BOOKS = canasta.Variant(
    name=NAME,
    description="Classic with 3 packs, books of 7 that make room, 2 naturals per wild card, 1 natural and 1 "
    "mixed canasta to go out.",
    plugins=(_Rules(),),
    base="classic",
    version="1.0",
    source="tests: issue 33's books and quotas",
)


class _Quota:
    """The quota by class alone."""

    @canasta.hookimpl(wrapper=True)
    def canasta_going_out(self) -> Generator[None, GoingOutRules, GoingOutRules]:
        """Going out needs 1 natural and 1 mixed canasta (a wild one never stands in)."""
        going_out: GoingOutRules = yield
        return attrs.evolve(
            going_out, canastas_required=0, canastas_by_class=((CanastaClass.NATURAL, 1), (CanastaClass.MIXED, 1))
        )


QUOTA = canasta.Variant(
    name=QUOTA_NAME,
    description="Classic going out with 1 natural and 1 mixed canasta.",
    plugins=(_Quota(),),
    base="classic",
    version="1.0",
    source="tests: issue 33's quotas",
)


@canasta.hookimpl
def canasta_variants() -> list[canasta.Variant]:
    """Contribute the test variants."""
    return [BOOKS, QUOTA]


_REGISTERED: list[bool] = []


def register() -> None:
    """Register this plugin with the default registry (once per process)."""
    if not _REGISTERED:
        import books_plugin  # (this module as imported: the registry names its origin)

        canasta.register_plugin(books_plugin, origin="tests/books_plugin.py")
        _REGISTERED.append(True)
