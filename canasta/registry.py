"""Variants and house rules: discovery and lookup.

Plugins are found through the ``canasta`` entry-point group (the built-in
variants are found the same way) or registered with `register_plugin`. A plugin
contributes descriptors (`Variant`, `HouseRule`, defined in
`canasta.descriptors` and re-exported here) through the `canasta_variants` and
`canasta_house_rules` hooks; each descriptor names the plugin objects whose rule
hooks make up the variant or house rule.
"""

from __future__ import annotations

import os
import threading
import warnings
from collections.abc import Mapping, Sequence
from importlib import metadata
from typing import TYPE_CHECKING, Literal, NamedTuple

import attrs
import pluggy

from canasta import hookspecs
from canasta.descriptors import HouseRule, Variant
from canasta.errors import PluginError, UnknownNameError
from canasta.hookcheck import PLUGIN_FAULTS, check_plugin, plugin_label, register, short_repr
from canasta.markers import PROJECT

if TYPE_CHECKING:
    from canasta.rules import Rules

__all__ = [
    "AUTOLOAD_ENV",
    "BUILTIN_DISTRIBUTION",
    "HouseRule",
    "PluginFailure",
    "PluginLoadWarning",
    "Registry",
    "Variant",
    "available_house_rules",
    "available_variants",
    "default_registry",
    "get_house_rule",
    "get_variant",
    "house_rule_names",
    "register_plugin",
]

#: Set this environment variable to ``1`` to load only the built-in variants (the
#: entry points of the ``canasta`` distribution itself), no third-party plugin.
AUTOLOAD_ENV = "CANASTA_DISABLE_PLUGIN_AUTOLOAD"


class PluginLoadWarning(UserWarning):
    """Warned when an installed plugin fails to load (the other variants keep working)."""


class PluginFailure(NamedTuple):
    """A plugin that could not be loaded, kept so that the others still work.

    Attributes:
        origin: Where the plugin was found (distribution and entry point).
        message: What went wrong, naming the plugin and the hook.
    """

    origin: str
    message: str


#: The distribution whose entry points are the built-in variants.
BUILTIN_DISTRIBUTION = "canasta"

Autoload = bool | Literal["builtin"]


def _normalize(dist_name: str) -> str:
    return dist_name.lower().replace("_", "-").replace(".", "-")


def house_rule_names(house_rules: object) -> tuple[str, ...]:
    """House-rule names as given to a game, checked: a sequence (list, tuple, ...) of strings.

    One name alone is refused, not guessed: ``house_rules="cutthroat"`` would
    otherwise be read as the house rules ``c``, ``u``, ``t``, ... (a string is a
    sequence of strings). `canasta.Game`, `canasta.load_rules`,
    `Registry.plugin_stack` and `canasta.Variant` all refuse it so.

    Args:
        house_rules: What the caller gave.

    Returns:
        The names, as a tuple.

    Raises:
        TypeError: If it is a string (or bytes), not an iterable, or holds
            anything but strings; the message says that a sequence of names
            such as ``["cutthroat"]`` is expected.
    """
    if isinstance(house_rules, (str, bytes, bytearray)):
        raise TypeError(
            f"house_rules must be a sequence of house-rule names, such as [{short_repr(house_rules)}], "
            f"not the string {short_repr(house_rules)}"
        )
    try:
        names: tuple[object, ...] = tuple(house_rules)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(f"house_rules must be a sequence of house-rule names, got {short_repr(house_rules)}") from None
    checked: list[str] = []
    for name in names:
        if not isinstance(name, str):
            raise TypeError(f"house_rules must hold house-rule names (strings), got {short_repr(name)}")
        checked.append(name)
    return tuple(checked)


class Registry:
    """Knows every variant and house rule and where each came from.

    Plugins are loaded lazily, on the first lookup: the entry points of the
    ``canasta`` distribution itself (the built-in variants) first, then those
    of every other installed distribution, in name order. A plugin that fails
    to load (it raises, even `SystemExit`, or one of its variants names an
    unknown base or a base cycle) is recorded in `failures` and the others
    still work.

    The registry is safe to use from several threads: the lazy load happens
    once, under a lock, and registration is serialized. (A `canasta.Game` is
    not: give each thread its own.)

    Args:
        autoload: Which entry points of the ``canasta`` group to load:
            ``True`` every one; ``"builtin"`` only those of the ``canasta``
            distribution itself (the built-in variants); ``False`` none (only
            what you register). ``None`` (the default) means ``True``, or
            ``"builtin"`` if the environment variable `AUTOLOAD_ENV`
            (``CANASTA_DISABLE_PLUGIN_AUTOLOAD``) is set to ``1``.

    Attributes:
        failures: Plugins that failed to load, as `PluginFailure` values
            (``(origin, message)`` tuples).
        rules_cache: Compiled `canasta.Rules` by ``(variant, house rules,
            players)`` (``players`` ``None``: the variant's default count),
            filled by `canasta.load_rules`.
    """

    def __init__(self, *, autoload: Autoload | None = None) -> None:
        if autoload is None:
            autoload = "builtin" if os.environ.get(AUTOLOAD_ENV, "").lower() in ("1", "true", "yes") else True
        if autoload not in (True, False, "builtin"):
            raise ValueError(f"autoload must be True, False or 'builtin', not {autoload!r}")
        self._autoload: Autoload = autoload
        # Reentrant: a plugin imported during the load may itself look names up or register.
        self._lock = threading.RLock()
        self._loaded = False
        self._loading = False
        # Replaced, never mutated, once published: readers in other threads iterate them unlocked.
        self._variants: dict[str, Variant] = {}
        self._house_rules: dict[str, HouseRule] = {}
        self.failures: list[PluginFailure] = []
        # origin -> (distribution, version) of each entry-point plugin loaded
        self._distributions: dict[str, tuple[str, str]] = {}
        self.rules_cache: dict[tuple[str, tuple[str, ...], int | None], Rules] = {}

    # --- registration --------------------------------------------------------------

    def register_plugin(self, plugin: object, *, origin: str | None = None) -> None:
        """Register a plugin object that answers `canasta_variants` / `canasta_house_rules`.

        This is how code that is not installed adds variants (a test, a
        notebook, an application's own rules). Nothing is registered if any
        part of the plugin is invalid.

        Args:
            plugin: A module or object with those hook implementations.
            origin: Where it comes from, for messages and listings (default:
                ``"<its name> (registered in code)"``).

        Raises:
            PluginError: If a hook is misspelled or has a bad signature, a hook
                raises or returns something that is not a `Variant` /
                `HouseRule`, a variant's own plugins are invalid, a variant's
                base is unknown or its base chain has a cycle, or a name is
                already taken (the message names both sources).
        """
        self._ensure_loaded()
        with self._lock:
            self._add_plugin(plugin, origin or f"{plugin_label(plugin)} (registered in code)")

    def add_variant(self, variant: Variant) -> None:
        """Register one variant directly.

        Args:
            variant: The descriptor (its ``origin`` is kept as given).

        Raises:
            PluginError: If the descriptor or its plugins are invalid, its base
                is not a registered variant, or the name is already taken.
        """
        self._ensure_loaded()
        with self._lock:
            self._commit([self._checked(variant, variant.origin if isinstance(variant, Variant) else "?")])

    def add_house_rule(self, house_rule: HouseRule) -> None:
        """Register one house rule directly.

        Args:
            house_rule: The descriptor (its ``origin`` is kept as given).

        Raises:
            PluginError: If the descriptor or its plugins are invalid, or the
                name is already taken.
        """
        self._ensure_loaded()
        with self._lock:
            self._commit([self._checked(house_rule, house_rule.origin if isinstance(house_rule, HouseRule) else "?")])

    def _checked(self, item: object, origin: str) -> Variant | HouseRule:
        """Validate a descriptor and its plugins (errors at registration, not at game creation)."""
        where = f"{origin}: " if origin else ""
        if not isinstance(item, (Variant, HouseRule)):
            raise PluginError(f"{where}{item!r} is not a canasta.Variant or canasta.HouseRule")
        what = "variant" if isinstance(item, Variant) else "house rule"
        if not isinstance(item.name, str) or not item.name or item.name != item.name.strip():
            raise PluginError(f"{where}{what} name {item.name!r} must be a non-empty string without spaces around it")
        for attr in ("description", "version", "source"):
            if not isinstance(getattr(item, attr), str):
                raise PluginError(f"{where}{what} {item.name!r}: {attr} must be a string")
        if isinstance(item, Variant) and item.base is not None and not isinstance(item.base, str):
            raise PluginError(f"{where}variant {item.name!r}: base must be a variant name or None")
        if isinstance(item, Variant) and not all(isinstance(n, str) and n for n in item.house_rules):
            raise PluginError(f"{where}variant {item.name!r}: house_rules must be house-rule names")
        if isinstance(item, HouseRule) and not (
            item.applies_to is None
            or (isinstance(item.applies_to, frozenset) and all(isinstance(n, str) for n in item.applies_to))
        ):
            raise PluginError(f"{where}house rule {item.name!r}: applies_to must be a frozenset of names or None")
        for attr in ("excludes", "conflicts"):
            names: object = getattr(item, attr, frozenset())
            if not (isinstance(names, frozenset) and all(isinstance(n, str) for n in names)):
                raise PluginError(f"{where}house rule {item.name!r}: {attr} must be a frozenset of names")
        for plugin in item.plugins:
            source = f" from {origin}" if origin else ""
            if plugin is None or isinstance(plugin, (str, bytes, bytearray, int, float, complex)):
                hint = " (import the module and give the module itself, not its name)"
                hint = hint if isinstance(plugin, str) else ""
                raise PluginError(
                    f"{where}{what} {item.name!r}: {plugin_label(plugin)} value {short_repr(plugin)} is not a plugin: "
                    f"a plugin is a module, class or instance holding @canasta.hookimpl functions{hint}"
                )
            label = f"{plugin_label(plugin)} ({what} {item.name!r}{source})"
            if not check_plugin(plugin, label):
                raise PluginError(
                    f"{where}plugin {label} holds no @canasta.hookimpl function: it would change nothing, and the "
                    f"{what} would silently play its base rules"
                )
        return item

    def _commit(self, items: Sequence[Variant | HouseRule], *, check_bases: bool = True) -> None:
        """Add descriptors all or nothing, refusing a name that is already taken or a broken base chain.

        The caller holds the lock. ``check_bases`` is False only during the
        entry-point load, which checks every base once all plugins are in
        (a plugin may name a base that a later one provides).
        """
        seen: dict[tuple[str, str], str] = {}
        for item in items:
            what, table = (
                ("variant", self._variants) if isinstance(item, Variant) else ("house rule", self._house_rules)
            )
            old_origin = seen.get((what, item.name))
            old = table.get(item.name)
            if old is not None:
                old_origin = old.origin
            if old_origin is not None:
                raise PluginError(
                    f"{what} name {item.name!r} is provided twice: by {old_origin or '?'} and by {item.origin or '?'}"
                )
            seen[(what, item.name)] = item.origin
        variants = dict(self._variants)
        house_rules = dict(self._house_rules)
        for item in items:
            if isinstance(item, Variant):
                variants[item.name] = item
            else:
                house_rules[item.name] = item
        if check_bases:
            # The registered chains are sound and the new names are fresh, so only new variants can break.
            for item in items:
                problem = _base_problem(item, variants) if isinstance(item, Variant) else None
                if problem is not None:
                    raise PluginError(problem)
        self._variants, self._house_rules = variants, house_rules

    def _add_plugin(self, plugin: object, origin: str, *, check_bases: bool = True) -> list[Variant | HouseRule]:
        """Ask a discovery plugin for its descriptors and commit them; returns what it added."""
        pm = pluggy.PluginManager(PROJECT)
        pm.add_hookspecs(hookspecs)
        register(pm, plugin, origin)
        contributed: list[Variant | HouseRule] = []
        for hook_name, expected in (("canasta_variants", Variant), ("canasta_house_rules", HouseRule)):
            try:
                answers = getattr(pm.hook, hook_name)()
            except PLUGIN_FAULTS as exc:  # SystemExit too: a plugin must not end the program
                raise PluginError(f"plugin {origin}: hook {hook_name} raised {type(exc).__name__}: {exc}") from exc
            for answer in answers:
                items = answer if isinstance(answer, (list, tuple)) else [answer]
                for item in items:
                    if not isinstance(item, expected):
                        raise PluginError(
                            f"plugin {origin}: hook {hook_name} returned {item!r}, expected canasta.{expected.__name__}"
                        )
                    stamped = attrs.evolve(item, origin=item.origin or origin)
                    contributed.append(self._checked(stamped, stamped.origin))
        self._commit(contributed, check_bases=check_bases)
        return contributed

    def _entry_points(self) -> list[metadata.EntryPoint]:
        if self._autoload is False:
            return []
        points = list(metadata.entry_points(group=PROJECT))

        def builtin(ep: metadata.EntryPoint) -> bool:
            return ep.dist is not None and _normalize(ep.dist.name) == BUILTIN_DISTRIBUTION

        if self._autoload == "builtin":
            points = [ep for ep in points if builtin(ep)]
        # Built-ins first: a third-party plugin that reuses a built-in name is the one refused.
        return sorted(points, key=lambda ep: (not builtin(ep), _normalize(ep.dist.name) if ep.dist else "", ep.name))

    def _ensure_loaded(self) -> None:
        if self._loaded:  # the fast path, without the lock, once loaded
            return
        with self._lock:
            # Checked again under the lock: another thread may have loaded meanwhile. `_loading` stops
            # a plugin that looks names up while it is being imported from starting a second load.
            if self._loaded or self._loading:
                return
            self._loading = True
            saved = (self._variants, self._house_rules, list(self.failures))
            try:
                self._load()
            except BaseException:  # interrupted (KeyboardInterrupt): undo, so that the next lookup loads again
                self._variants, self._house_rules = saved[0], saved[1]
                self.failures[:] = saved[2]
                raise
            finally:
                self._loading = False
            self._loaded = True  # only now: other threads skip the lock once they see it

    def _load(self) -> None:
        """Load every entry point, isolating broken plugins (the caller holds the lock)."""
        loaded: list[tuple[str, list[Variant | HouseRule]]] = []
        for ep in self._entry_points():
            dist = ep.dist.name if ep.dist is not None else "?"
            origin = f"{dist} (entry point {ep.name} = {ep.value})"
            self._distributions[origin] = (dist, ep.dist.version if ep.dist is not None else "?")
            try:
                plugin = ep.load()
            except PLUGIN_FAULTS as exc:  # isolate a broken plugin from the others (SystemExit too)
                self._fail(PluginFailure(origin, f"import failed: {type(exc).__name__}: {exc}"))
                continue
            try:
                loaded.append((origin, self._add_plugin(plugin, origin, check_bases=False)))
            except PluginError as exc:
                self._fail(PluginFailure(origin, str(exc)))
            except PLUGIN_FAULTS as exc:
                self._fail(PluginFailure(origin, f"plugin {origin} failed: {type(exc).__name__}: {exc}"))
        self._drop_broken_bases(loaded)

    def _drop_broken_bases(self, loaded: list[tuple[str, list[Variant | HouseRule]]]) -> None:
        """Remove, whole, each loaded plugin with a variant whose base chain is broken, until none is left."""
        remaining = list(loaded)
        changed = True
        while changed:  # dropping a plugin may break the chains of variants built on its variants
            changed = False
            for entry in list(remaining):
                origin, items = entry
                problem = next(
                    (p for v in items if isinstance(v, Variant) and (p := _base_problem(v, self._variants))),
                    None,
                )
                if problem is None:
                    continue
                names = {(type(i), i.name) for i in items}
                self._variants = {k: v for k, v in self._variants.items() if (Variant, k) not in names}
                self._house_rules = {k: h for k, h in self._house_rules.items() if (HouseRule, k) not in names}
                remaining.remove(entry)
                self._fail(PluginFailure(origin, problem), depth=1)
                changed = True

    def _fail(self, failure: PluginFailure, *, depth: int = 0) -> None:
        """Record a broken plugin and warn once, so that it is not silently missing.

        ``depth`` counts the frames between `_load` and here, so that the
        warning points at the code that made the first lookup.
        """
        self.failures.append(failure)
        warnings.warn(
            f"canasta plugin {failure.origin} was not loaded: {failure.message}",
            PluginLoadWarning,
            stacklevel=5 + depth,  # _fail <- _load <- _ensure_loaded <- the lookup <- its caller
        )

    # --- lookup ----------------------------------------------------------------------

    def provenance(self, item: Variant | HouseRule) -> str:
        """Where a variant or house rule comes from, for listings.

        Args:
            item: A registered descriptor.

        Returns:
            ``"built in (canasta 1.2.0)"`` for the ``canasta`` distribution's
            own entry points, ``"plugin <distribution> <version>"`` for another
            installed distribution's, or ``"registered in code"`` (or the origin
            the registrant gave) for anything else.
        """
        self._ensure_loaded()
        found = self._distributions.get(item.origin)
        if found is None:
            return "registered in code" if item.origin.endswith("(registered in code)") else item.origin or "?"
        dist, version = found
        if _normalize(dist) == BUILTIN_DISTRIBUTION:
            return f"built in ({dist} {version})"
        return f"plugin {dist} {version}"

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

    def _unknown(self, what: str, name: str, known: Mapping[str, object]) -> str:
        message = f"unknown {what} {name!r}; known: {', '.join(sorted(known)) or 'none'}"
        if self.failures:
            message += "; plugins that failed to load (see Registry.failures): " + "; ".join(
                f"{o}: {e}" for o, e in self.failures
            )
        return message

    def variant_chain(self, name: str) -> list[Variant]:
        """A variant and its bases, base first.

        Args:
            name: The variant's name.

        Returns:
            The chain of descriptors.

        Raises:
            UnknownNameError: If the variant, or a base it names, is unknown.
            PluginError: If the base chain has a cycle.
        """
        chain: list[Variant] = []
        seen: set[str] = set()
        current: str | None = name
        while current is not None:
            if current in seen:
                raise PluginError(f"variant {name!r} has a cycle in its base chain: {sorted(seen)}")
            seen.add(current)
            if current != name and current not in self._variants:
                raise UnknownNameError(
                    self._unknown("variant", current, self._variants)
                    + f" (it is the base of variant {chain[-1].name!r} from {chain[-1].origin or '?'})"
                )
            variant = self.variant(current)
            chain.append(variant)
            current = variant.base
        chain.reverse()
        return chain

    def fits(self, house_rule: str, variant: str) -> bool:
        """Whether a house rule may be stacked on a variant.

        Args:
            house_rule: The house rule's name.
            variant: The variant's name.

        Returns:
            True if ``applies_to`` admits the variant (or a variant of its base
            chain), ``excludes`` names none of them, and the variant does not
            already play with it (`canasta.Variant.house_rules`) or with one
            it conflicts with.

        Raises:
            UnknownNameError: If a name is unknown.
        """
        rule = self.house_rule(house_rule)
        chain = self.variant_chain(variant)
        included = [self.house_rule(name) for v in chain for name in v.house_rules]
        if any(r.name == rule.name or _exclude_each_other(r, rule) for r in included):
            return False  # already part of the variant, or excluded by one that is
        return _fits(rule, frozenset(v.name for v in chain))

    def plugin_stack(self, variant: str, house_rules: Sequence[str] = ()) -> list[tuple[str, object]]:
        """The ``(name, plugin)`` stack of a game: base variants, variant, house rules.

        Args:
            variant: The variant's name.
            house_rules: House-rule names, stacked in this order.

        Returns:
            The stack for `canasta.plugins.make_plugin_manager`.

        Raises:
            UnknownNameError: If a name is unknown.
            PluginError: If a house rule does not fit the variant, is given
                twice, or conflicts with another one given.
            TypeError: If ``house_rules`` is a string, not a sequence of names
                (see `house_rule_names`).
        """
        house_rules = house_rule_names(house_rules)
        chain = self.variant_chain(variant)
        chain_names = frozenset(v.name for v in chain)
        stack: list[tuple[str, object]] = []
        included: list[str] = []
        for v in chain:
            for plugin in v.plugins:
                stack.append((_stack_name(stack, plugin, f"variant {v.name}"), plugin))
            for name in v.house_rules:
                # The house rules a variant plays with: stacked like a game's, after the variant's own plugins.
                rule = self.house_rule(name)
                if not _fits(rule, chain_names) or name in included:
                    raise PluginError(
                        f"variant {v.name!r} from {v.origin or '?'} names house rule {name!r}, which does not fit "
                        f"it (or is named twice); it applies to: {rule.fits_description}"
                    )
                included.append(name)
                for plugin in rule.plugins:
                    stack.append((_stack_name(stack, plugin, f"house rule {name} of variant {v.name}"), plugin))
        if len(set(house_rules)) != len(house_rules):
            raise PluginError(f"a house rule is given twice: {list(house_rules)}")
        for name in house_rules:
            rule = self.house_rule(name)
            if name in included:
                raise PluginError(f"house rule {name!r} is already part of variant {variant!r}")
            if not _fits(rule, chain_names):
                raise PluginError(
                    f"house rule {name!r} does not fit variant {variant!r}; it applies to: {rule.fits_description}"
                )
            for plugin in rule.plugins:
                stack.append((_stack_name(stack, plugin, f"house rule {name}"), plugin))
        _check_conflicts([self.house_rule(name) for name in [*included, *house_rules]])
        return stack


def _base_problem(variant: Variant, variants: Mapping[str, Variant]) -> str | None:
    """Why a variant's base chain is broken (an unknown base, a cycle), or None if it reaches a root."""
    where = f"variant {variant.name!r} from {variant.origin or '?'}"
    chain = [variant.name]
    current = variant.base
    while current is not None:
        if current in chain:
            return f"{where}: its base chain has a cycle: {' -> '.join([*chain, current])}"
        base = variants.get(current)
        if base is None:
            via = f" (the base of {chain[-1]!r})" if len(chain) > 1 else ""
            known = ", ".join(sorted(n for n in variants if n not in chain)) or "none"
            return f"{where}: its base {current!r}{via} is not a registered variant; known: {known}"
        chain.append(current)
        current = base.base
    return None


def _check_conflicts(rules: Sequence[HouseRule]) -> None:
    """Refuse two house rules of which either names the other in ``conflicts`` (two forms of one rule)."""
    for i, first in enumerate(rules):
        for second in rules[i + 1 :]:
            if _exclude_each_other(first, second):
                raise PluginError(
                    f"house rules {first.name!r} and {second.name!r} exclude each other; choose one of them"
                )


def _exclude_each_other(first: HouseRule, second: HouseRule) -> bool:
    """Either of two house rules names the other in ``conflicts``."""
    return second.name in first.conflicts or first.name in second.conflicts


def _fits(rule: HouseRule, chain_names: frozenset[str]) -> bool:
    if rule.excludes & chain_names:
        return False
    return rule.applies_to is None or bool(rule.applies_to & chain_names)


def _stack_name(stack: Sequence[tuple[str, object]], plugin: object, owner: str) -> str:
    """A plugin's name in a game's manager, as error messages show it: ``module (variant name)``."""
    name = f"{plugin_label(plugin)} ({owner})"
    taken = {n for n, _ in stack}
    suffix = 2
    unique = name
    while unique in taken:
        unique = f"{name} #{suffix}"
        suffix += 1
    return unique


_DEFAULT: Registry | None = None
_DEFAULT_LOCK = threading.Lock()


def default_registry() -> Registry:
    """The process-wide registry used when no other is given (created once, even from several threads)."""
    global _DEFAULT
    registry = _DEFAULT
    if registry is None:
        with _DEFAULT_LOCK:
            if _DEFAULT is None:
                _DEFAULT = Registry()
            registry = _DEFAULT
    return registry


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
