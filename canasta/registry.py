"""Variants and house rules: descriptors, discovery and lookup.

Plugins are found through the ``canasta`` entry-point group (the built-in
variants are found the same way) or registered with `register_plugin`. A plugin
contributes descriptors through the `canasta_variants` and
`canasta_house_rules` hooks; each descriptor names the plugin objects whose rule
hooks make up the variant or house rule.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from importlib import metadata

import pluggy
from attrs import field, frozen

from canasta.errors import PluginError, UnknownNameError
from canasta.hookspecs import PROJECT

__all__ = [
    "AUTOLOAD_ENV",
    "HouseRule",
    "Registry",
    "Variant",
    "available_house_rules",
    "available_variants",
    "default_registry",
    "get_house_rule",
    "get_variant",
    "register_plugin",
]

#: Set this environment variable to ``1`` to stop loading entry-point plugins.
AUTOLOAD_ENV = "CANASTA_DISABLE_PLUGIN_AUTOLOAD"


def _tuple(value: Iterable[object]) -> tuple[object, ...]:
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
        source: Where its rules come from (e.g. ``"SPEC.md §2"``).
        origin: Where the variant was found (set by the registry).
    """

    name: str
    description: str
    plugins: tuple[object, ...] = field(converter=_tuple)
    base: str | None = None
    version: str = "1.0"
    source: str = ""
    origin: str = ""


@frozen
class HouseRule:
    """A stackable rule option.

    Attributes:
        name: Unique name, e.g. ``"black-three-freezes"``.
        description: One sentence for listings.
        plugins: Objects holding rule hooks that override the variant's.
        applies_to: Variant names it fits (a variant also fits if its base
            chain reaches one of them); ``None`` for every variant.
        version: The option's version.
        source: Where the option comes from.
        origin: Where it was found (set by the registry).
    """

    name: str
    description: str
    plugins: tuple[object, ...] = field(converter=_tuple)
    applies_to: frozenset[str] | None = None
    version: str = "1.0"
    source: str = ""
    origin: str = ""


class Registry:
    """Knows every variant and house rule and where each came from.

    Args:
        autoload: Load plugins from the ``canasta`` entry-point group on first
            use. Defaults to true unless `AUTOLOAD_ENV` is set to ``1``.
    """

    def __init__(self, *, autoload: bool | None = None) -> None:
        if autoload is None:
            autoload = os.environ.get(AUTOLOAD_ENV, "") not in ("1", "true", "yes")
        self._autoload = autoload
        self._loaded = False
        self._variants: dict[str, Variant] = {}
        self._house_rules: dict[str, HouseRule] = {}
        #: Plugins that failed to load: (origin, error message).
        self.failures: list[tuple[str, str]] = []

    # --- registration --------------------------------------------------------------

    def register_plugin(self, plugin: object, *, origin: str | None = None) -> None:
        """Register a plugin object that answers `canasta_variants` / `canasta_house_rules`.

        Args:
            plugin: A module or object with those hook implementations.
            origin: Where it comes from, for messages (defaults to its name).

        Raises:
            PluginError: If a hook raises or returns something invalid, or a
                name is already taken; the message names both sources.
        """
        self._ensure_loaded()
        self._add_plugin(plugin, origin or getattr(plugin, "__name__", type(plugin).__name__))

    def add_variant(self, variant: Variant) -> None:
        """Register one variant directly.

        Args:
            variant: The descriptor.

        Raises:
            PluginError: If the name is already taken.
        """
        self._ensure_loaded()
        self._add_variant(variant)

    def add_house_rule(self, house_rule: HouseRule) -> None:
        """Register one house rule directly.

        Args:
            house_rule: The descriptor.

        Raises:
            PluginError: If the name is already taken.
        """
        self._ensure_loaded()
        self._add_house_rule(house_rule)

    def _add_variant(self, variant: Variant) -> None:
        if not isinstance(variant, Variant):
            raise PluginError(f"{variant!r} is not a canasta.Variant")
        old = self._variants.get(variant.name)
        if old is not None:
            raise PluginError(
                f"variant name {variant.name!r} is provided twice: by {old.origin or '?'} and by {variant.origin or '?'}"
            )
        self._variants[variant.name] = variant

    def _add_house_rule(self, rule: HouseRule) -> None:
        if not isinstance(rule, HouseRule):
            raise PluginError(f"{rule!r} is not a canasta.HouseRule")
        old = self._house_rules.get(rule.name)
        if old is not None:
            raise PluginError(
                f"house rule name {rule.name!r} is provided twice: by {old.origin or '?'} and by {rule.origin or '?'}"
            )
        self._house_rules[rule.name] = rule

    def _add_plugin(self, plugin: object, origin: str) -> None:
        from canasta import hookspecs

        pm = pluggy.PluginManager(PROJECT)
        pm.add_hookspecs(hookspecs)
        try:
            pm.register(plugin, name=origin)
        except (pluggy.PluginValidationError, ValueError) as exc:
            raise PluginError(f"plugin {origin}: {exc}") from exc
        contributed: list[Variant | HouseRule] = []
        for hook_name in ("canasta_variants", "canasta_house_rules"):
            try:
                answers = getattr(pm.hook, hook_name)()
            except Exception as exc:
                raise PluginError(f"plugin {origin}: hook {hook_name} raised {type(exc).__name__}: {exc}") from exc
            for answer in answers:
                items = answer if isinstance(answer, (list, tuple)) else [answer]
                for item in items:
                    expected = Variant if hook_name == "canasta_variants" else HouseRule
                    if not isinstance(item, expected):
                        raise PluginError(
                            f"plugin {origin}: hook {hook_name} returned {item!r}, expected canasta.{expected.__name__}"
                        )
                    contributed.append(item)
        for item in contributed:
            import attrs

            stamped = attrs.evolve(item, origin=item.origin or origin)
            if isinstance(stamped, Variant):
                self._add_variant(stamped)
            else:
                self._add_house_rule(stamped)

    def _ensure_loaded(self) -> None:
        if self._loaded:
            return
        self._loaded = True
        if not self._autoload:
            return
        for ep in metadata.entry_points(group=PROJECT):
            dist = ep.dist.name if ep.dist is not None else "?"
            origin = f"{dist} (entry point {ep.name} = {ep.value})"
            try:
                plugin = ep.load()
            except Exception as exc:  # isolate a broken plugin from the others
                self.failures.append((origin, f"import failed: {type(exc).__name__}: {exc}"))
                continue
            try:
                self._add_plugin(plugin, origin)
            except PluginError as exc:
                self.failures.append((origin, str(exc)))

    # --- lookup ----------------------------------------------------------------------

    def variants(self) -> list[Variant]:
        """Every registered variant, sorted by name."""
        self._ensure_loaded()
        return sorted(self._variants.values(), key=lambda v: v.name)

    def house_rules(self) -> list[HouseRule]:
        """Every registered house rule, sorted by name."""
        self._ensure_loaded()
        return sorted(self._house_rules.values(), key=lambda h: h.name)

    def variant(self, name: str) -> Variant:
        """Look a variant up by name.

        Args:
            name: The variant's name.

        Returns:
            The descriptor.

        Raises:
            UnknownNameError: If none has that name (the message lists the known ones
                and any plugin that failed to load).
        """
        self._ensure_loaded()
        try:
            return self._variants[name]
        except KeyError:
            raise UnknownNameError(self._unknown("variant", name, self._variants)) from None

    def house_rule(self, name: str) -> HouseRule:
        """Look a house rule up by name.

        Args:
            name: The house rule's name.

        Returns:
            The descriptor.

        Raises:
            UnknownNameError: If none has that name.
        """
        self._ensure_loaded()
        try:
            return self._house_rules[name]
        except KeyError:
            raise UnknownNameError(self._unknown("house rule", name, self._house_rules)) from None

    def _unknown(self, what: str, name: str, known: dict[str, object]) -> str:
        message = f"unknown {what} {name!r}; known: {', '.join(sorted(known)) or 'none'}"
        if self.failures:
            message += "; plugins that failed to load: " + "; ".join(f"{o}: {e}" for o, e in self.failures)
        return message

    def variant_chain(self, name: str) -> list[Variant]:
        """A variant and its bases, base first.

        Args:
            name: The variant's name.

        Returns:
            The chain of descriptors.

        Raises:
            PluginError: If the base chain has a cycle.
        """
        chain: list[Variant] = []
        seen: set[str] = set()
        current: str | None = name
        while current is not None:
            if current in seen:
                raise PluginError(f"variant {name!r} has a cycle in its base chain: {sorted(seen)}")
            seen.add(current)
            variant = self.variant(current)
            chain.append(variant)
            current = variant.base
        chain.reverse()
        return chain

    def plugin_stack(self, variant: str, house_rules: Sequence[str] = ()) -> list[tuple[str, object]]:
        """The ``(name, plugin)`` stack of a game: base variants, variant, house rules.

        Args:
            variant: The variant's name.
            house_rules: House-rule names, stacked in this order.

        Returns:
            The stack for `canasta.plugins.make_plugin_manager`.

        Raises:
            UnknownNameError: If a name is unknown.
            PluginError: If a house rule does not fit the variant, or is given twice.
        """
        chain = self.variant_chain(variant)
        chain_names = {v.name for v in chain}
        stack: list[tuple[str, object]] = []
        for v in chain:
            for i, plugin in enumerate(v.plugins):
                stack.append((f"variant:{v.name}:{i}", plugin))
        if len(set(house_rules)) != len(house_rules):
            raise PluginError(f"a house rule is given twice: {list(house_rules)}")
        for name in house_rules:
            rule = self.house_rule(name)
            if rule.applies_to is not None and not (rule.applies_to & chain_names):
                raise PluginError(
                    f"house rule {name!r} does not fit variant {variant!r}; "
                    f"it applies to: {', '.join(sorted(rule.applies_to))}"
                )
            for i, plugin in enumerate(rule.plugins):
                stack.append((f"house-rule:{name}:{i}", plugin))
        return stack


_DEFAULT: Registry | None = None


def default_registry() -> Registry:
    """The process-wide registry used when no other is given."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = Registry()
    return _DEFAULT


def register_plugin(plugin: object, *, origin: str | None = None) -> None:
    """Register a plugin that is not installed (see `Registry.register_plugin`).

    Args:
        plugin: A module or object answering `canasta_variants` / `canasta_house_rules`.
        origin: Where it comes from, for messages.
    """
    default_registry().register_plugin(plugin, origin=origin)


def available_variants() -> list[Variant]:
    """Every variant known to the default registry, sorted by name."""
    return default_registry().variants()


def available_house_rules() -> list[HouseRule]:
    """Every house rule known to the default registry, sorted by name."""
    return default_registry().house_rules()


def get_variant(name: str) -> Variant:
    """Look a variant up in the default registry.

    Args:
        name: The variant's name.

    Returns:
        The descriptor.
    """
    return default_registry().variant(name)


def get_house_rule(name: str) -> HouseRule:
    """Look a house rule up in the default registry.

    Args:
        name: The house rule's name.

    Returns:
        The descriptor.
    """
    return default_registry().house_rule(name)
