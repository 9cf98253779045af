"""Example third-party canasta plugin: pagat's "Viennese" variation of classic.

Written only against canasta's public plugin API, as any third party would. The
entry point ``viennese = "canasta_example_viennese"`` (group ``canasta``) makes
the registry import this module and ask its two discovery hooks.
"""

from __future__ import annotations

import canasta
from canasta_example_viennese import viennese_rules, wild_canasta_rules

__version__ = "1.0.0"

VIENNESE = canasta.Variant(
    name="viennese",
    description="Classic canasta without the one-card rule; red threes count only for a side with a canasta.",
    plugins=(viennese_rules,),
    base="classic",
    version=__version__,
    source="pagat.com canasta variations, 'Viennese' (SOURCES.md D5, D19)",
)

WILD_CANASTA = canasta.HouseRule(
    name="viennese-wild-canasta",
    description="Melds of wild cards only are allowed; a wild canasta scores 2000.",
    plugins=(wild_canasta_rules,),
    applies_to=frozenset({"viennese"}),
    version=__version__,
    source="pagat.com classic canasta variation (SOURCES.md D18)",
)


@canasta.hookimpl
def canasta_variants() -> list[canasta.Variant]:
    """Contribute the Viennese variant."""
    return [VIENNESE]


@canasta.hookimpl
def canasta_house_rules() -> list[canasta.HouseRule]:
    """Contribute the wild-canasta house rule."""
    return [WILD_CANASTA]
