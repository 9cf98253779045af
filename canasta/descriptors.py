"""Variant and house-rule descriptors: what a plugin contributes to the registry.

A plugin's `canasta_variants` and `canasta_house_rules` hooks return these
values; each names the plugin objects whose rule hooks make up the variant or
house rule. `canasta.Registry` collects, checks and looks them up.
"""

from __future__ import annotations

from collections.abc import Iterable

from attrs import field, frozen

__all__ = ["HouseRule", "Variant"]


def _tuple(value: Iterable[object]) -> tuple[object, ...]:
    return tuple(value)


def _names(value: Iterable[str]) -> tuple[str, ...]:
    if isinstance(value, str):  # a lone name would become a tuple of its letters
        raise TypeError(f"house_rules must be a sequence of house-rule names, not the string {value!r}")
    return tuple(value)


@frozen
class Variant:
    """A named rule set: a stack of plugins answering the rule hooks.

    Attributes:
        name: Unique name, e.g. ``"classic"``.
        description: One sentence for listings.
        plugins: Objects (modules or instances) holding ``@canasta.hookimpl``
            rule hooks, in registration order.
        base: Name of the variant this one changes; its plugins are stacked
            first. ``None`` for a variant that states every rule.
        version: The rule set's version (recorded in game records).
        source: Where its rules come from (e.g. ``"pagat.com, Bicycle"``).
        origin: Where the variant was found (set by the registry).
        house_rules: Names of registered house rules the variant plays with,
            stacked in this order after its own plugins (each must fit the
            variant's base chain). A game of the variant may not name them
            again, nor a house rule that conflicts with one of them.
    """

    name: str
    description: str
    plugins: tuple[object, ...] = field(converter=_tuple)
    base: str | None = None
    version: str = "1.0"
    source: str = ""
    origin: str = ""
    house_rules: tuple[str, ...] = field(default=(), converter=_names)


@frozen
class HouseRule:
    """A stackable rule option.

    Attributes:
        name: Unique name, e.g. ``"black-three-freezes"``.
        description: One sentence for listings.
        plugins: Objects holding rule hooks that override the variant's.
        applies_to: Variant names it fits (a variant also fits if its base
            chain reaches one of them); ``None`` for every variant.
        excludes: Variant names it does not fit even where ``applies_to``
            admits them (matched along the base chain too), e.g. variants
            whose rules make the option meaningless.
        conflicts: House-rule names it cannot be stacked with, e.g. another
            form of the same rule (either of two naming the other is enough).
        version: The option's version.
        source: Where the option comes from.
        origin: Where it was found (set by the registry).
    """

    name: str
    description: str
    plugins: tuple[object, ...] = field(converter=_tuple)
    applies_to: frozenset[str] | None = None
    excludes: frozenset[str] = frozenset()
    conflicts: frozenset[str] = frozenset()
    version: str = "1.0"
    source: str = ""
    origin: str = ""

    @property
    def fits_description(self) -> str:
        """Which variants it fits, for listings, e.g. ``"every variant except cuban"``."""
        fits = "every variant" if self.applies_to is None else ", ".join(sorted(self.applies_to))
        return fits + (f" except {', '.join(sorted(self.excludes))}" if self.excludes else "")
