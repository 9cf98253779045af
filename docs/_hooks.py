"""MkDocs hooks: generate the rules tables from the compiled rules at build time.

Placeholders in the Markdown pages (HTML comments, so an unprocessed page still
reads well on a forge):

- ``<!-- rules-table: NAME -->``: the variant's compiled rules summary
  (`canasta.summary.format_rules_summary`).
- ``<!-- rules-diff: NAME -->``: every compiled rule value where the variant
  differs from classic, with the hook that sets it.
- ``<!-- variants-list -->`` and ``<!-- house-rules-list -->``: the variants and
  house rules that ship with canasta.

Nothing is downloaded; everything comes from the installed ``canasta`` package,
so the docs cannot drift from the code. An unknown name aborts the build.
"""

from __future__ import annotations

import enum
import re
from typing import Any, cast

import attrs
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page

import canasta
from canasta.cards import Kind
from canasta.summary import format_rules_summary

PLACEHOLDER = re.compile(
    r"<!--\s*(?P<what>rules-table|rules-diff|variants-list|house-rules-list)\s*(?::\s*(?P<name>[\w.-]+))?\s*-->"
)

# Fields of `canasta.Rules` whose hook is not simply ``canasta_<field>``.
_HOOK_NAMES = {
    "minimums": "canasta_meld_minimums",
    "pile": "canasta_pile_rules",
    "melds": "canasta_meld_rules",
    "canasta_bonuses": "canasta_canasta_bonuses",
    "exhaustion": "canasta_stock_exhaustion",
}

# Fields that name the rule set rather than state a rule.
_IDENTITY_FIELDS = frozenset({"variant", "house_rules"})

#: Which hook answers each field of `canasta.Rules` (shown next to a difference).
RULES_FIELD_HOOKS = {
    field.name: _HOOK_NAMES.get(field.name, f"canasta_{field.name}")
    for field in attrs.fields(canasta.Rules)
    if field.name not in _IDENTITY_FIELDS
}

_doc_files: set[str] = set()


def on_files(files: Files, config: Any, **kwargs: Any) -> Files:
    """Remember which pages exist, to check that every built-in variant has one."""
    _doc_files.clear()
    _doc_files.update(f.src_uri for f in files)
    return files


def on_page_markdown(markdown: str, page: Page, config: Any, files: Files, **kwargs: Any) -> str:
    """Replace the placeholders of a page with generated Markdown."""

    def replace(match: re.Match[str]) -> str:
        what, name = match.group("what"), match.group("name")
        where = f"{page.file.src_uri}: <!-- {what}{': ' + name if name else ''} -->"
        try:
            if what == "rules-table":
                return rules_table(_required(name, where))
            if what == "rules-diff":
                return rules_diff(_required(name, where))
            if what == "variants-list":
                return variants_list()
            return house_rules_list()
        except canasta.CanastaError as exc:
            raise PluginError(f"{where}: {exc}") from exc

    return PLACEHOLDER.sub(replace, markdown)


def _required(name: str | None, where: str) -> str:
    if not name:
        raise PluginError(f"{where}: the placeholder needs a variant name")
    return name


def _variant(name: str) -> canasta.Variant:
    # Raises UnknownNameError (a CanastaError) naming the known variants.
    return canasta.get_variant(name)


def rules_table(name: str) -> str:
    """The compiled rules summary of a variant, as Markdown.

    Args:
        name: The variant's name.

    Returns:
        Markdown text.
    """
    _variant(name)
    return format_rules_summary(canasta.load_rules(name), fmt="markdown").strip() + "\n"


def _format(value: object) -> str:
    if isinstance(value, enum.Enum) and not isinstance(value, Kind):
        return f"`{value.value}`"
    if isinstance(value, Kind):
        return value.name.lower().replace("_", " ")
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    if isinstance(value, frozenset):
        return ", ".join(_format(v) for v in sorted(value)) or "none"
    if isinstance(value, tuple):
        if not value:
            return "none"
        if all(isinstance(v, tuple) and len(v) == 2 for v in value):
            return ", ".join(f"{_format(a)}: {_format(b)}" for a, b in value)
        return ", ".join(_format(v) for v in value)
    if attrs.has(type(value)):
        return ", ".join(f"{f.name}={_format(getattr(value, f.name))}" for f in attrs.fields(cast(Any, type(value))))
    return str(value)


def flatten_rules(rules: canasta.Rules) -> dict[str, tuple[str, str]]:
    """Every rule value of a compiled rule set, by dotted path.

    Args:
        rules: The compiled rules.

    Returns:
        ``{path: (hook name, formatted value)}``; card values are one entry per kind.
    """
    out: dict[str, tuple[str, str]] = {}
    for field in attrs.fields(type(rules)):
        if field.name in _IDENTITY_FIELDS:
            continue
        hook = RULES_FIELD_HOOKS.get(field.name, "")
        value = getattr(rules, field.name)
        if field.name == "card_values":
            for kind in Kind:
                out[f"card_values[{kind.name}]"] = (hook, _format(value[kind]))
        elif attrs.has(type(value)):
            for sub in attrs.fields(type(value)):
                out[f"{field.name}.{sub.name}"] = (hook, _format(getattr(value, sub.name)))
        else:
            out[field.name] = (hook, _format(value))
    return out


def rules_diff(name: str, base: str = "classic") -> str:
    """A Markdown table of every compiled rule value where a variant differs from a base.

    Args:
        name: The variant's name.
        base: The variant to compare with.

    Returns:
        Markdown text.
    """
    _variant(name)
    ours = flatten_rules(canasta.load_rules(name))
    theirs = flatten_rules(canasta.load_rules(base))
    rows = [
        f"| `{path}` | {_hook_link(hook)} | {theirs[path][1] if path in theirs else '—'} | {value} |"
        for path, (hook, value) in ours.items()
        if theirs.get(path, ("", None))[1] != value
    ]
    if not rows:
        return f"*No compiled rule value differs from {base}.*\n"
    header = f"| rule value | set by hook | {base} | {name} |\n|---|---|---|---|\n"
    return header + "\n".join(rows) + "\n"


def _hook_link(hook: str) -> str:
    """The hook's name linked to its section of the hook reference (variant pages sit in variants/)."""
    return f"[`{hook}`](../hooks.md#{hook})" if hook else ""


def _built_in(origin: str) -> bool:
    # The docs describe what ships with canasta, not whatever else the build machine has installed.
    return origin.startswith("canasta ")


def _page_link(name: str) -> str:
    path = f"variants/{name}.md"
    return f"[{name}]({name}.md)" if path in _doc_files else f"`{name}`"


def variants_list() -> str:
    """A Markdown table of the built-in variants (links to their pages).

    Returns:
        Markdown text.
    """
    variants = [v for v in canasta.available_variants() if _built_in(v.origin)]
    missing = [v.name for v in variants if f"variants/{v.name}.md" not in _doc_files]
    if missing:
        raise PluginError(f"built-in variants without a page under docs/variants/: {', '.join(missing)}")
    rows = [
        f"| {_page_link(v.name)} | {v.description} | {v.base or '—'} | {v.version} | {v.source or '—'} |"
        for v in variants
    ]
    return "| variant | description | base | version | rules from |\n|---|---|---|---|---|\n" + "\n".join(rows) + "\n"


def house_rules_list() -> str:
    """A Markdown table of the built-in house rules.

    Returns:
        Markdown text.
    """
    rules = [h for h in canasta.available_house_rules() if _built_in(h.origin)]
    if not rules:
        return "*No house rule is installed.*\n"
    rows = [
        f"| `{h.name}` | {h.description} | "
        f"{h.fits_description} | {h.source or '—'} |"
        for h in rules
    ]
    return "| house rule | description | applies to | rules from |\n|---|---|---|---|\n" + "\n".join(rows) + "\n"
