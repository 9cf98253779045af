"""Checks on plugins and on the answers of their hooks, with errors that name both.

Two moments matter to a plugin author:

- **Registration** (`check_plugin`): a hook implementation whose name is not a
  hook (a misspelling), an argument the hook does not have, an argument with a
  default value (pluggy never passes it), or a function named like a hook but
  missing ``@canasta.hookimpl`` (pluggy would ignore it silently) is refused with
  a `canasta.PluginError` naming the plugin and the hook.
- **Compilation** (`ask`, used by `canasta.compile_rules`): an exception raised
  inside a hook (`SystemExit` too; only `KeyboardInterrupt` and other
  non-`Exception` signals pass) becomes a `canasta.PluginError` naming the
  plugin and the hook; a missing answer or an answer of the wrong type (checked
  field by field for the policy objects) becomes a `canasta.RulesError` naming
  the hook and the plugin that answered, or the wrapper that dropped the answer
  (a ``wrapper=True`` hook that forgot to ``return``). The answers of
  ``canasta_rule_sections``, which are all collected, are checked the same way
  (`rule_sections`).
"""

from __future__ import annotations

import difflib
import inspect
import types
import typing
from collections.abc import Mapping
from enum import Enum
from functools import cache
from typing import Any, TypeVar

import attrs
import pluggy

import canasta.cards
import canasta.rules
from canasta import hookspecs
from canasta.errors import PluginError, RuleCode, RuleSection, RulesError, short_repr
from canasta.markers import PROJECT

__all__ = [
    "PLUGIN_FAULTS",
    "answering_plugin",
    "ask",
    "check_plugin",
    "hook_arguments",
    "plain_int",
    "plugin_label",
    "rule_sections",
    "short_repr",
]

T = TypeVar("T")

#: What a plugin's code may raise that we turn into a `PluginError`: a plugin must
#: not end the program (`SystemExit`), but Ctrl-C (`KeyboardInterrupt`) still interrupts.
PLUGIN_FAULTS: tuple[type[BaseException], ...] = (Exception, SystemExit)


@cache
def hook_arguments() -> dict[str, tuple[str, ...]]:
    """Every hook of `canasta.hookspecs` and its argument names.

    Returns:
        ``{hook name: argument names}``.
    """
    pm = pluggy.PluginManager(PROJECT)
    pm.add_hookspecs(hookspecs)
    result: dict[str, tuple[str, ...]] = {}
    for name in dir(pm.hook):
        caller = getattr(pm.hook, name)
        if isinstance(caller, pluggy.HookCaller) and caller.spec is not None:
            result[name] = tuple(caller.spec.argnames)
    return result


def plugin_label(plugin: object) -> str:
    """A short name for a plugin object: its module name, or its class name.

    Args:
        plugin: A module, class or instance.

    Returns:
        The label.
    """
    name = getattr(plugin, "__name__", None)
    return name if isinstance(name, str) else type(plugin).__name__


def _suggest(name: str) -> str:
    close = difflib.get_close_matches(name, hook_arguments(), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def check_plugin(plugin: object, name: str) -> list[str]:
    """Check a plugin's hook implementations against the hook specifications.

    Args:
        plugin: A module, class or instance holding ``@canasta.hookimpl`` functions.
        name: How messages name the plugin (e.g. its module and the variant).

    Returns:
        The hooks it implements (optional hooks of other projects left out).

    Raises:
        PluginError: On an unknown (misspelled) hook, an argument the hook does
            not have, an argument with a default value, or a function named
            like a hook that lacks ``@canasta.hookimpl``.
    """
    specs = hook_arguments()
    found: list[str] = []
    probe = pluggy.PluginManager(PROJECT)  # only to read the hookimpl markers
    try:
        names = dir(plugin)
    except PLUGIN_FAULTS as exc:
        raise PluginError(f"plugin {name}: listing its attributes raised {type(exc).__name__}: {exc}") from exc
    for attr in names:
        if attr.startswith("__"):
            continue
        try:
            function = getattr(plugin, attr)
        except PLUGIN_FAULTS:  # a property that raises is not a hook
            continue
        if not callable(function):
            continue
        try:
            opts = probe.parse_hookimpl_opts(plugin, attr)
        except PLUGIN_FAULTS:  # an attribute that raises when read again is not a hook either
            continue
        if opts is None:
            # pluggy ignores unmarked functions: a forgotten decorator would silently do nothing.
            if attr in specs and inspect.isroutine(function):
                raise PluginError(
                    f"plugin {name}: {attr} looks like a hook but is not marked with @canasta.hookimpl, "
                    "so it would be ignored"
                )
            continue
        hook = opts.get("specname") or attr
        if hook not in specs:
            if opts.get("optionalhook"):
                continue
            raise PluginError(f"plugin {name}: hook {hook!r} is not a canasta hook{_suggest(hook)}")
        found.append(hook)
        try:
            parameters = inspect.signature(function).parameters.values()
        except (TypeError, ValueError):  # builtins without a signature: let pluggy judge
            continue
        for parameter in parameters:
            if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
                raise PluginError(f"plugin {name}: hook {hook} must name its arguments, not take *args/**kwargs")
            if parameter.default is not parameter.empty:
                raise PluginError(
                    f"plugin {name}: hook {hook} gives argument {parameter.name!r} a default value; "
                    "hooks are always called with their arguments, so remove the default"
                )
            if parameter.name not in specs[hook] and parameter.name not in ("self", "cls"):
                accepted = ", ".join(specs[hook]) or "none"
                raise PluginError(
                    f"plugin {name}: hook {hook} takes an argument {parameter.name!r} that the hook does not "
                    f"have (its arguments: {accepted})"
                )
    return found


def register(pm: pluggy.PluginManager, plugin: object, name: str) -> None:
    """Check a plugin, then register it in a manager.

    Args:
        pm: The manager (with the canasta hook specifications added).
        plugin: The plugin object.
        name: Its name in the manager and in messages.

    Raises:
        PluginError: If the plugin fails `check_plugin` or pluggy refuses it.
    """
    check_plugin(plugin, name)
    try:
        pm.register(plugin, name=name)
        pm.check_pending()
    except (pluggy.PluginValidationError, ValueError) as exc:
        raise PluginError(f"plugin {name} cannot be registered: {exc}") from exc
    except PLUGIN_FAULTS as exc:  # pluggy reads every attribute again; one may raise
        raise PluginError(f"plugin {name} cannot be registered: {type(exc).__name__}: {exc}") from exc


# --- asking a hook -------------------------------------------------------------------------


def _impls(pm: pluggy.PluginManager, hook: str) -> list[pluggy.HookImpl]:
    caller: pluggy.HookCaller = getattr(pm.hook, hook)
    return list(caller.get_hookimpls())


def _raiser(pm: pluggy.PluginManager, hook: str, exc: BaseException) -> str:
    """The plugin whose hook function raised, found by its frame in the traceback."""
    codes = {
        impl.function.__code__: impl.plugin_name for impl in _impls(pm, hook) if hasattr(impl.function, "__code__")
    }
    culprit = None
    tb = exc.__traceback__
    while tb is not None:  # the innermost matching frame is the one that raised
        culprit = codes.get(tb.tb_frame.f_code, culprit)
        tb = tb.tb_next
    return culprit or ", ".join(impl.plugin_name for impl in _impls(pm, hook)) or "?"


def answering_plugin(pm: pluggy.PluginManager, hook: str, kwargs: dict[str, Any] | None = None) -> str:
    """Which plugin gives a hook's answer (for error messages).

    The plain implementations are asked again in call order (hooks have no
    side effects) until one answers; wrappers that may have changed the answer
    are named too.

    Args:
        pm: The manager.
        hook: The hook's name.
        kwargs: The hook's arguments (``players`` is recomputed if missing).

    Returns:
        A phrase such as ``"plugin 'my_variant.rules (variant mine)'"``.
    """
    impls = _impls(pm, hook)
    kwargs = dict(kwargs or {})
    if "players" in hook_arguments().get(hook, ()) and "players" not in kwargs:
        try:
            kwargs["players"] = pm.hook.canasta_players()
        except PLUGIN_FAULTS:
            return "an unknown plugin"
    wrappers = [i.plugin_name for i in impls if i.wrapper or i.hookwrapper]
    answer = "no plugin"
    for impl in reversed(impls):  # pluggy calls the last registered first
        if impl.wrapper or impl.hookwrapper:
            continue
        try:
            value = impl.function(*[kwargs[a] for a in impl.argnames])
        except PLUGIN_FAULTS:
            continue
        if value is not None:
            answer = f"plugin {impl.plugin_name!r}"
            break
    if wrappers:
        answer += f", changed by wrapper(s) in {', '.join(repr(w) for w in reversed(wrappers))}"
    return answer


def ask(pm: pluggy.PluginManager, hook: str, expected: type[T], **kwargs: Any) -> T:
    """Call a ``firstresult`` hook once and check the answer's type.

    Args:
        pm: The manager.
        hook: The hook's name.
        expected: The type the answer must have; for attrs classes every field is
            checked against its annotation too.
        **kwargs: The hook's arguments.

    Returns:
        The answer.

    Raises:
        PluginError: If a hook implementation raised, `SystemExit` included
            (names the plugin and hook).
        RulesError: If nobody answers, a wrapper returned nothing (names the
            wrapper's plugin), or the answer has the wrong type.
    """
    caller = getattr(pm.hook, hook)
    try:
        answer = caller(**kwargs)
    except PLUGIN_FAULTS as exc:  # a plugin raised: name it and the hook
        raise PluginError(
            f"hook {hook} of plugin {_raiser(pm, hook, exc)!r} raised {type(exc).__name__}: {exc}"
        ) from exc
    if answer is None:
        wrapper = _dropping_wrapper(pm, hook, kwargs)
        if wrapper is not None:
            raise RulesError(
                f"hook {hook} of plugin {wrapper!r} is a wrapper that returned None instead of the answer; "
                "a wrapper must return it, e.g. `return attrs.evolve((yield), ...)`"
            )
        raise RulesError(f"no plugin answers {hook}; the variant must state it")
    normalized, problem = _normalized(answer, expected)  # (attrs answers field by field)
    if problem is not None:
        raise RulesError(f"hook {hook} returned {problem} (answer from {answering_plugin(pm, hook, kwargs)})")
    return normalized  # type: ignore[no-any-return]


_SECTIONS_HOOK = "canasta_rule_sections"


def rule_sections(pm: pluggy.PluginManager) -> tuple[tuple[RuleCode, RuleSection], ...]:
    """Ask ``canasta_rule_sections`` once, check every answer and merge them code by code.

    Every answer is collected; for each code, the plugin registered last that
    names it wins (the core default, classic's rule book, comes first).

    Args:
        pm: The manager.

    Returns:
        ``(code, section)`` pairs, in the order of `canasta.RuleCode`.

    Raises:
        PluginError: If a hook implementation raised (names the plugin).
        RulesError: If an answer is not a mapping of rule codes (or their
            text) to `canasta.RuleSection` values; the message names the
            plugin that gave it.
    """
    caller = getattr(pm.hook, _SECTIONS_HOOK)
    try:
        answers = caller()
    except PLUGIN_FAULTS as exc:
        raise PluginError(
            f"hook {_SECTIONS_HOOK} of plugin {_raiser(pm, _SECTIONS_HOOK, exc)!r} raised {type(exc).__name__}: {exc}"
        ) from exc
    if not isinstance(answers, list):
        raise RulesError(
            f"hook {_SECTIONS_HOOK}: a wrapper returned {answers!r} instead of the list of answers it received"
        )
    merged: dict[RuleCode, RuleSection] = {}
    for answer in reversed(answers):  # pluggy lists the last registered first: merge from the first
        checked = _checked_sections(answer)
        if isinstance(checked, str):
            raise RulesError(
                f"hook {_SECTIONS_HOOK} returned {checked}; it returns {{RuleCode: RuleSection}} "
                f"(answer from {_sections_source(pm, answer)})"
            )
        merged.update(checked)
    return tuple((code, merged[code]) for code in RuleCode if code in merged)


def _checked_sections(answer: object) -> dict[RuleCode, RuleSection] | str:
    """The answer with its keys as `RuleCode` members, or why it is not a valid answer."""
    if not isinstance(answer, Mapping):
        return f"{answer!r} ({type(answer).__name__}), not a mapping"
    checked: dict[RuleCode, RuleSection] = {}
    for key, section in answer.items():
        if isinstance(key, RuleCode):
            code = key
        elif isinstance(key, str) and key in RuleCode._value2member_map_:
            code = RuleCode(key)
        else:
            close = difflib.get_close_matches(str(key), [c.value for c in RuleCode], n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            return f"a key {key!r} that is not a rule code{hint}"
        if not isinstance(section, RuleSection):
            return f"{section!r} ({type(section).__name__}) for {code.value!r}, not a canasta.RuleSection"
        checked[code] = section
    return checked


def _sections_source(pm: pluggy.PluginManager, answer: object) -> str:
    """The plugin whose ``canasta_rule_sections`` gave an answer (asked again; hooks have no side effects)."""
    for impl in _impls(pm, _SECTIONS_HOOK):
        if impl.wrapper or impl.hookwrapper:
            continue
        try:
            value = impl.function()
            if value is answer or value == answer:
                return f"plugin {impl.plugin_name!r}"
        except PLUGIN_FAULTS:
            continue
    wrappers = [impl.plugin_name for impl in _impls(pm, _SECTIONS_HOOK) if impl.wrapper or impl.hookwrapper]
    return f"a wrapper in {', '.join(map(repr, wrappers))}" if wrappers else "an unknown plugin"


def _dropping_wrapper(pm: pluggy.PluginManager, hook: str, kwargs: dict[str, Any]) -> str | None:
    """The wrapper that turned an answer into None (a forgotten ``return``), or None if nobody answered.

    The hook is asked again with the wrappers added back one at a time,
    innermost first (hooks have no side effects): the first one whose
    addition loses the answer is at fault.
    """
    # get_hookimpls() lists wrappers after the plain implementations, innermost (first registered) first.
    wrappers = [impl for impl in _impls(pm, hook) if impl.wrapper or impl.hookwrapper]
    for kept in range(len(wrappers) + 1):
        removed = {impl.plugin_name for impl in wrappers[kept:]}
        # A fresh manager, not pm.subset_hook_caller: that one needs hashable plugins.
        subset = pluggy.PluginManager(PROJECT)
        subset.add_hookspecs(hookspecs)
        try:
            for name, plugin in pm.list_name_plugin():
                if name not in removed and plugin is not None:
                    subset.register(plugin, name=name)
            answer = getattr(subset.hook, hook)(**kwargs)
        except PLUGIN_FAULTS:  # raising now but not before: give up on naming the culprit
            return None
        if answer is None:
            return wrappers[kept - 1].plugin_name if kept else None
    return None


def _name(tp: object) -> str:
    return getattr(tp, "__name__", None) or str(tp).replace("typing.", "")


def plain_int(value: object) -> int | None:
    """``value`` as an exact `int` if it is an integer (an `int` subclass converted), else ``None``.

    ``bool`` is not an integer here, nor is anything that is not an `int`
    (a float, a string, a numpy integer). An `int` subclass is read by
    ``int.__int__``, which ignores its own ``__int__``, ``__eq__`` and
    comparisons, so range checks afterwards see the real number.

    Args:
        value: A hook's answer, or part of one.

    Returns:
        The plain integer, or ``None``.
    """
    if type(value) is int:
        return value
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return int.__int__(value)


#: A marker for "no normalized value" (the answer does not have the type).
_BAD: Any = object()


def _normalized(value: object, tp: Any) -> tuple[Any, str | None]:
    """``value`` checked against ``tp`` and rebuilt from plain values, or why it does not match.

    Integers become exact `int` (``bool`` refused, subclasses converted), integer
    enums their member, tuples and frozensets are rebuilt item by item: what
    passes is made only of plain values, whatever the plugin returned.

    Returns:
        ``(normalized value, None)``, or ``(_BAD, problem)``.
    """
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if tp is Any or tp is object:
        return value, None
    if tp is None or tp is type(None):
        return (None, None) if value is None else (_BAD, f"{short_repr(value)}, expected None")
    if origin in (typing.Union, types.UnionType):
        for alternative in args:
            result, problem = _normalized(value, alternative)
            if problem is None:
                return result, None
        return _BAD, f"{short_repr(value)} ({type(value).__name__}), expected {_name(tp)}"
    if origin is tuple:
        if not isinstance(value, tuple):
            return _BAD, f"{short_repr(value)} ({type(value).__name__}), expected a tuple"
        items = args if not (len(args) == 2 and args[1] is Ellipsis) else (args[0],) * len(value)
        if len(items) != len(value):
            return _BAD, f"{short_repr(value)}, expected a tuple of {len(items)} items"
        rebuilt = []
        for item, item_tp in zip(value, items, strict=True):
            result, problem = _normalized(item, item_tp)
            if problem is not None:
                return _BAD, f"{short_repr(value)}: item {problem}"
            rebuilt.append(result)
        return tuple(rebuilt), None
    if origin in (frozenset, set):
        if not isinstance(value, frozenset):
            return _BAD, f"{short_repr(value)} ({type(value).__name__}), expected a frozenset"
        members = []
        for item in value:
            result, problem = _normalized(item, args[0]) if args else (item, None)
            if problem is not None:
                return _BAD, f"{short_repr(value)}: item {problem}"
            members.append(result)
        return frozenset(members), None
    if isinstance(tp, type):
        if tp is bool:
            if isinstance(value, bool):
                return value, None
            return _BAD, f"{short_repr(value)} ({type(value).__name__}), expected bool"
        if tp is int or (issubclass(tp, Enum) and issubclass(tp, int)):
            number = plain_int(value)
            if number is None:
                wanted = "int" if tp is int else tp.__name__
                return _BAD, f"{short_repr(value)} ({type(value).__name__}), expected {wanted}"
            if tp is int:
                return number, None
            member = tp._value2member_map_.get(number)  # type: ignore[attr-defined]
            return (member, None) if member is not None else (_BAD, f"{short_repr(value)}, expected a {tp.__name__}")
        if tp is str:
            if isinstance(value, str):
                return str.__str__(value), None  # (a str subclass made plain)
            return _BAD, f"{short_repr(value)} ({type(value).__name__}), expected str"
        if not isinstance(value, tp):
            return _BAD, f"{short_repr(value)} ({type(value).__name__}), expected {tp.__name__}"
        if attrs.has(type(value)):
            return _field_normalized(value)  # (a policy object inside an answer: its fields too)
    return value, None


@cache
def _field_types(cls: Any) -> dict[str, Any]:
    namespace = {**vars(canasta.cards), **vars(canasta.rules), **vars(inspect.getmodule(cls) or canasta.rules)}
    return typing.get_type_hints(cls, globalns=namespace)


def _field_normalized(value: Any) -> tuple[Any, str | None]:
    """An attrs answer with every field normalized (`_normalized`), or why a field does not match."""
    cls: Any = type(value)
    try:
        hints = _field_types(cls)
    except Exception:  # an annotation we cannot resolve: skip the deep check
        return value, None
    changes: dict[str, Any] = {}
    for field in attrs.fields(cls):
        current = getattr(value, field.name)
        result, problem = _normalized(current, hints.get(field.name, Any))
        if problem is not None:
            return _BAD, f"{cls.__name__} whose {field.name} is {problem}"
        if result is not current and field.init:
            changes[field.name if not field.alias else field.alias] = result
    if not changes:
        return value, None
    try:
        return attrs.evolve(value, **changes), None
    except Exception as exc:  # its own validators refuse the plain values: say so
        return _BAD, f"{cls.__name__} that cannot be rebuilt from plain values ({type(exc).__name__}: {exc})"
