"""The rule book (docs/rules/): a complete page for every built-in variant and house rule.

Every variant page has the same sections, in the same order, each under a heading
with a stable attribute anchor (``## The discard pile { #discard-pile }``), so
that error messages and other pages can link to a rule; every house-rule page
has one top heading whose anchor is the house rule's name.
"""

from __future__ import annotations

import re
from pathlib import Path
from types import ModuleType

import attrs
import pytest
from helpers import load_file_module

import canasta

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
RULES = DOCS / "rules"
HOUSE_RULES = RULES / "house-rules"

#: The sections every variant page has, in page order (their anchors).
REQUIRED_SECTIONS = (
    "table-and-deal",
    "the-turn",
    "melds",
    "wild-cards",
    "canastas",
    "initial-meld",
    "discard-pile",
    "frozen-pile",
    "threes",
    "going-out",
    "asking-permission",
    "stock-exhaustion",
    "scoring",
    "the-game",
)

FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})")
HEADING = re.compile(r"^(?P<level>#{1,6})[ \t]+(?P<text>.*?)[ \t]*$")
# An attribute list at the end of a heading (attr_list): `{ #id }`, `{: #id .class }`.
ATTRIBUTES = re.compile(r"\{:?(?P<attrs>[^{}]*)\}$")
ANCHOR = re.compile(r"(?:^|\s)#(?P<id>[\w-]+)")
PAGE_ANCHOR = re.compile(r"\{:?[^{}]*#(?P<id>[\w-]+)[^{}]*\}")

_REGISTRY = canasta.Registry(autoload="builtin")  # what ships with canasta, not other installed plugins
BUILT_IN_VARIANTS = [v.name for v in _REGISTRY.variants()]
BUILT_IN_HOUSE_RULES = [h.name for h in _REGISTRY.house_rules()]


def headings(page: Path) -> list[tuple[int, str, list[str]]]:
    """The headings of a Markdown page outside code blocks: ``(level, text, anchors)``."""
    found: list[tuple[int, str, list[str]]] = []
    fence: str | None = None
    for line in page.read_text(encoding="utf-8").splitlines():
        opening = FENCE.match(line)
        if opening is not None:
            marker = opening.group(1)
            if fence is None:
                fence = marker
            elif marker[0] == fence[0] and len(marker) >= len(fence):
                fence = None
            continue
        if fence is not None:
            continue
        match = HEADING.match(line)
        if match is None:
            continue
        text = match.group("text")
        attributes = ATTRIBUTES.search(text)
        anchors = [a.group("id") for a in ANCHOR.finditer(attributes.group("attrs"))] if attributes else []
        found.append((len(match.group("level")), text, anchors))
    return found


def anchors_of(page: Path) -> list[str]:
    """Every explicit heading anchor of a page, in page order."""
    return [anchor for _, _, anchors in headings(page) for anchor in anchors]


def _hooks_module() -> ModuleType:
    pytest.importorskip("mkdocs")
    return load_file_module(DOCS / "_hooks.py", "canasta_docs_hooks_rulebook")


def rule_pages() -> list[Path]:
    return sorted(RULES.rglob("*.md"))


def test_the_registry_lists_the_built_in_variants_and_house_rules() -> None:
    assert "classic" in BUILT_IN_VARIANTS and len(BUILT_IN_VARIANTS) >= 6
    assert {"cutthroat", "american-talon", "wilds-at-most-naturals"} <= set(BUILT_IN_HOUSE_RULES)


@pytest.mark.parametrize("name", BUILT_IN_VARIANTS)
def test_every_built_in_variant_has_a_rule_book_page(name: str) -> None:
    assert (RULES / f"{name}.md").is_file(), f"docs/rules/{name}.md is missing: write the rule book of {name}"


@pytest.mark.parametrize("name", BUILT_IN_VARIANTS)
def test_a_variant_page_has_every_required_section_in_order(name: str) -> None:
    page = RULES / f"{name}.md"
    if not page.is_file():
        pytest.fail(f"docs/rules/{name}.md is missing")
    found = headings(page)
    sections = [anchor for level, _, anchors in found if level == 2 for anchor in anchors]
    missing = [anchor for anchor in REQUIRED_SECTIONS if anchor not in sections]
    assert not missing, f"docs/rules/{name}.md lacks the section headings {{ #{' }, { #'.join(missing)} }}"
    order = [anchor for anchor in sections if anchor in REQUIRED_SECTIONS]
    assert order == list(REQUIRED_SECTIONS), f"docs/rules/{name}.md: sections out of order: {order}"
    titles = [(level, text) for level, text, _ in found if level == 1]
    assert len(titles) == 1, f"docs/rules/{name}.md needs exactly one top heading, has {titles}"


@pytest.mark.parametrize("page", rule_pages(), ids=lambda p: str(p.relative_to(RULES)))
def test_anchors_are_unique_on_a_page(page: Path) -> None:
    anchors = anchors_of(page)
    twice = sorted({a for a in anchors if anchors.count(a) > 1})
    assert not twice, f"{page.relative_to(ROOT)}: anchors used twice: {twice}"


@pytest.mark.parametrize("name", BUILT_IN_HOUSE_RULES)
def test_every_built_in_house_rule_has_a_page_titled_by_its_name(name: str) -> None:
    page = HOUSE_RULES / f"{name}.md"
    assert page.is_file(), f"docs/rules/house-rules/{name}.md is missing: write the page of house rule {name}"
    found = headings(page)
    assert found and found[0][0] == 1, f"{page.relative_to(ROOT)} must start with a top heading"
    assert found[0][2] == [name], f"the top heading of {page.relative_to(ROOT)} needs the anchor {{ #{name} }}"
    assert [level for level, _, _ in found].count(1) == 1, f"{page.relative_to(ROOT)}: one top heading only"


def test_the_index_explains_legal_and_links_every_page() -> None:
    index = RULES / "index.md"
    assert "legal" in anchors_of(index), "docs/rules/index.md needs a heading with the anchor { #legal }"
    text = index.read_text(encoding="utf-8")
    links = set(re.findall(r"\]\(([^)#\s]+)(?:#[\w-]+)?\)", text))
    expected = {f"{name}.md" for name in BUILT_IN_VARIANTS}
    expected |= {f"house-rules/{name}.md" for name in BUILT_IN_HOUSE_RULES}
    assert not expected - links, f"docs/rules/index.md does not link {sorted(expected - links)}"


@pytest.mark.parametrize("page", rule_pages(), ids=lambda p: str(p.relative_to(RULES)))
def test_the_rule_book_is_written_for_players(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    # Players have no copy of the project's specification: the rule book stands alone.
    assert not re.search(r"\bSPEC\b|SPEC\.md", text), f"{page.relative_to(ROOT)} refers to the specification"


@pytest.mark.parametrize("page", rule_pages(), ids=lambda p: str(p.relative_to(RULES)))
def test_the_rule_book_placeholders_resolve_from_the_compiled_rules(page: Path) -> None:
    hooks = _hooks_module()

    class FakeFile:
        src_uri = str(page.relative_to(DOCS))

    class FakePage:
        file = FakeFile()

    out = hooks.on_page_markdown(page.read_text(encoding="utf-8"), page=FakePage(), config={}, files=[])
    assert "rule-value" not in out and "minimums-table" not in out


def test_rule_value_placeholders_give_the_compiled_numbers_and_refuse_unknown_names() -> None:
    hooks = _hooks_module()
    from mkdocs.exceptions import PluginError

    classic = canasta.load_rules("classic")
    assert hooks.rule_value("classic", "hand_size") == str(classic.hand_size)
    assert hooks.rule_value("classic", "card_values[JOKER]") == str(classic.card_values[canasta.Kind.JOKER])
    six = canasta.load_rules("six-player")
    assert hooks.rule_value("six-player", "threes.schedule[6]") == str(six.threes.schedule[6])
    assert hooks.rule_value("cuban", "canasta_bonuses.wild_by_jokers[4]") == "3000"
    assert hooks.rule_value("three-player+cutthroat", "target_score") == "7500"
    assert "| 0 to 1495 | 50 |" in hooks.minimums_table("classic")

    class FakeFile:
        src_uri = "rules/nowhere.md"

    class FakePage:
        file = FakeFile()

    for bad, message in [
        ("<!-- rule-value: classic no_such_field -->", "no_such_field"),
        ("<!-- rule-value: classic going_out -->", "not a single value"),
        ("<!-- rule-value: classic threes.schedule[99] -->", "past the end"),
        ("<!-- rule-value: no-such-variant hand_size -->", "no-such-variant"),
        ("<!-- rule-value: classic+no-such-rule hand_size -->", "no-such-rule"),
        ("<!-- rule-value: classic -->", "needs a rule value path"),
        ("<!-- minimums-table: no-such-variant -->", "no-such-variant"),
    ]:
        with pytest.raises(PluginError, match=re.escape(message)):
            hooks.on_page_markdown(f"# T\n\n{bad}\n", page=FakePage(), config={}, files=[])


def _fitting_stacks() -> list[tuple[str, tuple[str, ...]]]:
    stacks: list[tuple[str, tuple[str, ...]]] = []
    for variant in BUILT_IN_VARIANTS:
        stacks.append((variant, ()))
        stacks.extend((variant, (rule,)) for rule in BUILT_IN_HOUSE_RULES if _REGISTRY.fits(rule, variant))
    return stacks


@pytest.mark.parametrize(("variant", "house_rules"), _fitting_stacks(), ids=lambda v: "+".join(v) if v else "")
def test_every_cited_rule_book_section_exists(variant: str, house_rules: tuple[str, ...]) -> None:
    if "rule_sections" not in {f.name for f in attrs.fields(canasta.Rules)}:
        pytest.skip("this version of canasta cites no rule-book sections")
    rules = canasta.load_rules(variant, house_rules, registry=_REGISTRY)
    for code, section in rules.rule_sections:
        if section.page.startswith(("http://", "https://")):
            continue
        page = DOCS / section.page
        assert page.is_file(), f"{variant}{'+' + '+'.join(house_rules) if house_rules else ''}: {code} cites {page}"
        assert section.id in anchors_of(page), f"{code} cites {section.path}, which has no such anchor"
