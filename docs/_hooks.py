"""MkDocs hooks: generate the rules tables from the compiled rules at build time.

Placeholders in the Markdown pages (HTML comments, so an unprocessed page still
reads well on a forge):

- ``<!-- rules-table: NAME -->``: the variant's compiled rules summary
  (`canasta.summary.format_rules_summary`).
- ``<!-- rules-diff: NAME -->``: every compiled rule value where the variant
  differs from classic, with the hook that sets it.
- ``<!-- variants-list -->`` and ``<!-- house-rules-list -->``: the variants and
  house rules that ship with canasta.
- ``<!-- rule-value: NAME PATH -->``: one compiled rule value, inline (the
  rule book under ``docs/rules/`` takes its numbers from these). ``NAME`` is a
  variant, optionally with house rules stacked on it: ``three-player+cutthroat``.
  ``PATH`` is a field of `canasta.Rules`, dotted into its parts, with ``[key]``
  to pick an entry: ``hand_size``, ``going_out.bonus``, ``deck.size``,
  ``card_values[JOKER]`` (a `canasta.Kind` name), ``threes.schedule[4]`` (a
  position), ``canasta_bonuses.wild_by_jokers[0]`` (in a table of pairs, the
  pair whose first item is the key). Only single values (numbers, yes/no,
  names) may be shown this way.
- ``<!-- minimums-table: NAME -->``: the initial-meld minimum table of a
  variant, as a Markdown table of score ranges.
- ``<!-- rule-codes -->``: every `canasta.RuleCode` with its sentence and the
  rule book's section it cites (`canasta.rulebook`), and the codes each
  built-in house rule re-points to its own page.
- ``<!-- svg: NAME seed=N hand=H action=I seat=S -->`` (or ``table`` instead of
  ``seat=S``): a picture of a real game (`canasta.render`). Greedy bots play the
  seeded game of ``NAME`` (a variant, optionally ``+``-joined with house rules)
  up to action ``I`` of hand ``H`` (hands from 1; ``I`` actions played in that
  hand, 0 at the deal), and the SVG is written to ``assets/pictures/`` of the
  site at build time; the placeholder becomes the image.

Nothing is downloaded; everything comes from the installed ``canasta`` package,
so the docs cannot drift from the code. An unknown name aborts the build.
"""

from __future__ import annotations

import enum
import html
import re
from typing import Any, cast

import attrs
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

import canasta
from canasta.cards import Kind
from canasta.summary import format_rules_summary

PLACEHOLDER = re.compile(
    r"<!--\s*(?P<what>rules-table|rules-diff|variants-list|house-rules-list)\s*(?::\s*(?P<name>[\w.-]+))?\s*-->"
)

# The rule book's placeholders (docs/rules/): `NAME` may stack house rules with `+`.
RULE_PLACEHOLDER = re.compile(
    r"<!--\s*(?P<what>rule-value|minimums-table)\s*:\s*(?P<name>[\w.+-]+)(?:[ \t]+(?P<path>[^\s>]+))?\s*-->"
)

# Fields of `canasta.Rules` whose hook is not simply ``canasta_<field>``.
_HOOK_NAMES = {
    "minimums": "canasta_meld_minimums",
    "pile": "canasta_pile_rules",
    "melds": "canasta_meld_rules",
    "canasta_bonuses": "canasta_canasta_bonuses",
    "exhaustion": "canasta_stock_exhaustion",
}

#: Rule values inside a field whose usual hook is not the field's own: a game's target is answered by
#: `canasta_target_score` (`canasta_game_length`'s default passes it on).
_SUBFIELD_HOOKS = {"game_length.target_score": "canasta_target_score"}

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
    """Remember which pages exist (every built-in variant needs one); draw the pages' pictures."""
    _doc_files.clear()
    _doc_files.update(f.src_uri for f in files)
    _pictures.clear()
    for page in [f for f in files if f.src_uri.endswith(".md")]:
        for match in SVG_PLACEHOLDER.finditer(page.content_string):
            spec = " ".join(match.group("spec").split())
            if spec in _pictures:
                continue
            where = f"{page.src_uri}: {match.group(0)}"
            try:
                svg, alt = picture(spec)
            except canasta.CanastaError as exc:
                raise PluginError(f"{where}: {exc}") from exc
            except PluginError as exc:
                raise PluginError(f"{where}: {exc}") from exc
            uri = f"assets/pictures/{re.sub(r'[^A-Za-z0-9.-]+', '-', spec)}.svg"
            files.append(File.generated(config, uri, content=svg))
            _pictures[spec] = (uri, alt)
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

    def replace_rule(match: re.Match[str]) -> str:
        what, name, path = match.group("what"), match.group("name"), match.group("path")
        where = f"{page.file.src_uri}: {match.group(0)}"
        try:
            if what == "rule-value":
                if not path:
                    raise PluginError(f"{where}: the placeholder needs a rule value path, e.g. `hand_size`")
                return rule_value(name, path)
            if path:
                raise PluginError(f"{where}: minimums-table takes only a variant name")
            return minimums_table(name)
        except canasta.CanastaError as exc:
            raise PluginError(f"{where}: {exc}") from exc
        except PluginError as exc:
            if str(exc).startswith(where):
                raise
            raise PluginError(f"{where}: {exc}") from exc

    def replace_picture(match: re.Match[str]) -> str:
        uri, alt = _pictures[" ".join(match.group("spec").split())]
        up = "../" * page.file.src_uri.count("/")
        return f"[![{alt}]({up}{uri}){{: .canasta-picture }}]({up}{uri})"  # a click opens it full size

    markdown = SVG_PLACEHOLDER.sub(replace_picture, markdown)
    markdown = RULE_PLACEHOLDER.sub(replace_rule, PLACEHOLDER.sub(replace, markdown))
    return RULE_CODES_PLACEHOLDER.sub(lambda _: rule_codes_table(page.file.src_uri), markdown)


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
        try:
            items = sorted(value)
        except TypeError:  # members of an enum without an order (canasta.CanastaClass): by their text
            items = sorted(value, key=_format)
        return ", ".join(_format(v) for v in items) or "none"
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
        if field.name in _IDENTITY_FIELDS or field.name == "rule_sections":  # where rules are written, not a rule
            continue
        hook = RULES_FIELD_HOOKS.get(field.name, "")
        value = getattr(rules, field.name)
        if field.name == "card_values":
            for kind in Kind:
                out[f"card_values[{kind.name}]"] = (hook, _format(value[kind]))
        elif attrs.has(type(value)):
            for sub in attrs.fields(type(value)):
                path = f"{field.name}.{sub.name}"
                out[path] = (_SUBFIELD_HOOKS.get(path, hook), _format(getattr(value, sub.name)))
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
        f"| {_path_cell(path)} | {_hook_link(hook)} | {theirs[path][1] if path in theirs else '—'} | {value} |"
        for path, (hook, value) in ours.items()
        if theirs.get(path, ("", None))[1] != value
    ]
    if not rows:
        return f"*No compiled rule value differs from {base}.*\n"
    header = f"| rule value | set by hook | {base} | {name} |\n|---|---|---|---|\n"
    return header + "\n".join(rows) + "\n"


def _path_cell(path: str) -> str:
    """A rule value's dotted name as code that wraps only after a dot or an underscore, never mid-word."""
    parts = html.escape(path).replace(".", ".<wbr>").replace("_", "_<wbr>")
    return f'<code class="rule-path">{parts}</code>'


def _hook_link(hook: str) -> str:
    """The hook's name linked to its section of the hook reference (variant pages sit in variants/).

    The ``hook-name`` class (docs/stylesheets/extra.css) keeps a long name on one line.
    """
    return f"[`{hook}`](../hooks.md#{hook}){{: .hook-name }}" if hook else ""


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


def _compiled(name: str) -> canasta.Rules:
    """The compiled rules of ``variant`` or ``variant+house-rule+...``."""
    variant, *house_rules = name.split("+")
    _variant(variant)
    for house_rule in house_rules:
        canasta.get_house_rule(house_rule)  # UnknownNameError names the known ones
    return canasta.load_rules(variant, house_rules)


_PATH_PART = re.compile(r"(?P<attr>[A-Za-z_]\w*)(?P<keys>(?:\[[\w-]+\])*)$")


def _lookup(value: object, key: str, where: str) -> object:
    kind = Kind.__members__.get(key.upper())
    if isinstance(value, tuple) and value and all(isinstance(v, tuple) and len(v) == 2 for v in value):
        wanted: object = kind if kind is not None else int(key) if key.lstrip("-").isdigit() else key
        for first, second in value:
            if first == wanted:
                return second
        entries = ", ".join(a.name if isinstance(a, Kind) else str(a) for a, _ in value)
        raise PluginError(f"{where}: no entry [{key}]; the entries are {entries or 'none'}")
    if isinstance(value, tuple):
        if kind is not None:
            index = int(kind)
        elif key.isdigit():
            index = int(key)
        else:
            raise PluginError(f"{where}: [{key}] is neither a position nor a card kind ({', '.join(Kind.__members__)})")
        if index >= len(value):
            raise PluginError(f"{where}: [{key}] is past the end ({len(value)} entries)")
        return value[index]
    raise PluginError(f"{where}: [{key}]: the value is not a table")


def resolve_rule_value(rules: canasta.Rules, path: str) -> object:
    """Follow a dotted path with ``[key]`` parts into compiled rules.

    Args:
        rules: The compiled rules.
        path: For example ``going_out.bonus`` or ``card_values[JOKER]``.

    Returns:
        The value found.

    Raises:
        PluginError: If a part of the path names nothing.
    """
    value: object = rules
    walked = ""
    for part in path.split("."):
        match = _PATH_PART.match(part)
        if match is None:
            raise PluginError(f"malformed rule value path {path!r}")
        attr = match.group("attr")
        here = f"{walked}.{attr}" if walked else attr
        names = [f.name for f in attrs.fields(cast(Any, type(value)))] if attrs.has(type(value)) else []
        if attr.startswith("_") or not hasattr(value, attr) or callable(getattr(value, attr)):
            known = f"; its fields are {', '.join(names)}" if names else ""
            raise PluginError(f"no rule value `{here}` in the rules of {rules.variant}{known}")
        value = getattr(value, attr)
        for key in re.findall(r"\[([\w-]+)\]", match.group("keys")):
            here += f"[{key}]"
            value = _lookup(value, key, f"`{here}` of {rules.variant}")
        walked = here
    return value


def rule_value(name: str, path: str) -> str:
    """One compiled rule value, formatted for prose.

    Args:
        name: The variant, optionally ``+``-joined with house rules (``three-player+cutthroat``).
        path: The value's path in `canasta.Rules` (see `resolve_rule_value`).

    Returns:
        The value as text: a number, ``yes``/``no``, ``none`` or a name.

    Raises:
        PluginError: If the path names nothing, or names a table rather than one value.
    """
    value = resolve_rule_value(_compiled(name), path)
    if isinstance(value, (tuple, frozenset, dict)) or attrs.has(type(value)):
        raise PluginError(f"`{path}` of {name} is not a single value; pick an entry with [key] or a field with .name")
    return _format(value).strip("`")


def minimums_table(name: str) -> str:
    """The initial-meld minimum table of a variant, as Markdown (score ranges, equal rows merged).

    Scores are always multiples of 5, so a range ends 5 below the next step.

    Args:
        name: The variant, optionally ``+``-joined with house rules.

    Returns:
        Markdown text.
    """
    minimums = _compiled(name).minimums
    bands: list[tuple[int | None, int | None, int]] = [(None, 0, minimums.below_zero)]
    steps = list(minimums.steps)
    for i, (first, value) in enumerate(steps):
        bands.append((first, steps[i + 1][0] if i + 1 < len(steps) else None, value))
    merged: list[tuple[int | None, int | None, int]] = []
    for band in bands:
        if merged and merged[-1][2] == band[2]:
            merged[-1] = (merged[-1][0], band[1], band[2])
        else:
            merged.append(band)
    rows = []
    for start, end, minimum in merged:
        if start is None:
            label = "any score" if end is None else f"below {end}" + (" (negative scores included)" if end > 0 else "")
        elif end is None:
            label = f"{start} or more"
        else:
            label = f"{start} to {end - 5}"
        rows.append(f"| {label} | {minimum} |")
    return "| score before the hand | minimum count |\n|---|---|\n" + "\n".join(rows) + "\n"


# --- the table of rule codes (docs/reference/rule-codes.md) ---------------------------------

RULE_CODES_PLACEHOLDER = re.compile(r"<!--\s*rule-codes\s*-->")


def _section_link(section: canasta.RuleSection, from_page: str) -> str:
    """A section as a link from a page (or as plain text while its page does not exist)."""
    if "://" in section.page:
        return f"[{section.title}]({section.path})"
    if section.page not in _doc_files:
        return f"{section.title} (`{section.path}`)"
    up = "../" * from_page.count("/")
    return f"[{section.title}]({up}{section.path})"


def rule_codes_table(from_page: str = "reference/rule-codes.md") -> str:
    """Markdown tables of every rule code, its sentence and its section, and the house rules' own sections.

    Args:
        from_page: The page the tables go on (links are relative to it).

    Returns:
        Markdown text.
    """
    from canasta.rulebook import CODE_SENTENCES, variant_sections

    classic = variant_sections("classic")
    rows = [
        f"| `{code.value}` | `RuleCode.{code.name}` | {CODE_SENTENCES[code]} | "
        f"`{classic[code].id}` | {_section_link(classic[code], from_page)} |"
        for code in canasta.RuleCode
    ]
    header = "| code | member | what it means | section | in classic's rules |\n|---|---|---|---|---|\n"
    table = header + "\n".join(rows) + "\n"
    house: list[str] = []
    for rule in canasta.available_house_rules():
        if not _built_in(rule.origin):
            continue
        fitting = [v.name for v in canasta.available_variants() if _built_in(v.origin)]
        variant = next(name for name in fitting if canasta.default_registry().fits(rule.name, name))
        compiled = canasta.load_rules(variant, [rule.name])
        own = [(code, section) for code, section in compiled.rule_sections if section.book == f"house rule {rule.name}"]
        if own:
            codes = ", ".join(f"`{code.value}`" for code, _ in own)
            house.append(f"| `{rule.name}` | {codes} | {_section_link(own[0][1], from_page)} |")
    if house:
        header = "\n| house rule | codes it cites its own page for | section |\n|---|---|---|\n"
        table += header + "\n".join(house) + "\n"
    return table


# --- pictures of real games (docs/pictures.md) ------------------------------------------------

SVG_PLACEHOLDER = re.compile(r"<!--\s*svg:\s*(?P<spec>[^>]*?)\s*-->")
_SPEC = re.compile(
    r"(?P<name>[\w.+-]+)\s+seed=(?P<seed>\d+)\s+hand=(?P<hand>\d+)\s+action=(?P<action>\d+)"
    r"\s+(?P<who>seat=\d+|table)$"
)

#: The pictures drawn for this build: placeholder spec -> (file in the site, alternative text).
_pictures: dict[str, tuple[str, str]] = {}


def played_position(name: str, seed: int, hand: int, action: int) -> canasta.HandState:
    """A position of a seeded game played by greedy bots.

    Args:
        name: The variant, optionally ``+``-joined with house rules.
        seed: The game's seed (each seat's bot is seeded ``"seed:seat"``, as ``canasta play`` does).
        hand: The hand, numbered from 1.
        action: Actions played in that hand (0: at the deal; the hand's length: its end).

    Returns:
        The hand at that point.

    Raises:
        PluginError: If the game never reaches that point.
    """
    variant, *house_rules = name.split("+")
    game = canasta.Game(variant, house_rules, seed=seed)
    bots = {s: canasta.make_bot("greedy", f"{seed}:{s}") for s in range(game.rules.players)}
    played = 0
    while True:
        if game.hand_number == hand - 1 and played == action:
            return game.hand
        if game.is_over or game.hand_number > hand - 1:
            raise PluginError(f"the game of seed {seed} has no action {action} in hand {hand}")
        current, number = game.hand, game.hand_number
        game.apply(bots[game.seat].choose(current, game.seat))
        if number == hand - 1:
            played += 1
            if current.is_over:  # that action ended the hand: the position is the hand as it ended
                if played == action:
                    return current
                raise PluginError(f"hand {hand} of seed {seed} ends after {played} actions, before action {action}")


def picture(spec: str) -> tuple[str, str]:
    """The SVG of an ``svg`` placeholder and its alternative text.

    Args:
        spec: ``NAME seed=N hand=H action=I seat=S`` (or ``table`` for ``seat=S``).

    Returns:
        ``(svg, alt)``.

    Raises:
        PluginError: If the spec is malformed or names a point the game never reaches.
    """
    from canasta.render import render_observation_svg, render_table_svg

    match = _SPEC.match(spec)
    if match is None:
        raise PluginError("expected `NAME seed=N hand=H action=I seat=S` (or `table` instead of `seat=S`)")
    name, who = match.group("name"), match.group("who")
    seed, hand, action = int(match.group("seed")), int(match.group("hand")), int(match.group("action"))
    state = played_position(name, seed, hand, action)
    rules = state.rules
    names = ["greedy"] * rules.players
    title = f"{name.replace('+', ' + ')}, seed {seed}: hand {hand}, after {action} actions"
    if who == "table":
        return render_table_svg(state, names=names, title=title), f"{title}: the whole table"
    seat = int(who.removeprefix("seat="))
    if seat >= rules.players:
        raise PluginError(f"no seat {seat}; the seats are 0 to {rules.players - 1}")
    svg = render_observation_svg(state.observation(seat), rules, names=names, title=title)
    return svg, f"{title}: seat {seat}'s view"
