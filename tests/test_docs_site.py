"""The documentation site: structure, generated tables, and examples that really run."""

from __future__ import annotations

import fnmatch
import re
from pathlib import Path
from types import ModuleType

import attrs
import pytest
from helpers import load_file_module

import canasta
from canasta import hookspecs

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
BUILT_IN_VARIANTS = [
    "classic",
    "two-player",
    "three-player",
    "six-player",
    "cuban",
    "modern-american",
    "modern-american-club",
    "hand-and-foot",
    "samba",
    "bolivia",
    "brazilian",
]
FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})(?P<info>[^\n`]*)$", re.MULTILINE)
# Languages Sybil's parsers never run: a block in one of these would silently not be tested.
UNRUN_PYTHON_SPELLINGS = {"py", "python3", "pycon", "ipython", "pyi"}


def _hooks_module() -> ModuleType:
    pytest.importorskip("mkdocs")
    return load_file_module(DOCS / "_hooks.py", "canasta_docs_hooks")


def _nav_files() -> list[str]:
    yaml = pytest.importorskip("yaml")
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text())
    found: list[str] = []

    def walk(node: object) -> None:
        if isinstance(node, str):
            found.append(node)
        elif isinstance(node, list):
            for item in node:
                walk(item)
        elif isinstance(node, dict):
            for value in node.values():
                walk(value)

    walk(config["nav"])
    return found


def _not_in_nav() -> list[str]:
    """The pages mkdocs.yml keeps out of the nav on purpose (``not_in_nav``: the variants' code pages)."""
    yaml = pytest.importorskip("yaml")
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text())
    patterns = (config.get("not_in_nav") or "").split()
    pages = [str(p.relative_to(DOCS)) for p in DOCS.rglob("*.md")]

    def hidden(page: str) -> bool:  # gitignore style: the last matching pattern decides, "!" keeps
        result = False
        for pattern in patterns:
            if fnmatch.fnmatch("/" + page, pattern.removeprefix("!")):
                result = not pattern.startswith("!")
        return result

    return sorted(page for page in pages if hidden(page))


def test_every_nav_entry_exists_and_every_page_is_in_the_nav() -> None:
    nav = _nav_files()
    assert sorted(set(nav)) == sorted(nav), "a page is listed twice in the nav"
    missing = [page for page in nav if not (DOCS / page).is_file()]
    assert not missing, f"nav entries without a file: {missing}"
    pages = sorted(str(p.relative_to(DOCS)) for p in DOCS.rglob("*.md"))
    hidden = _not_in_nav()
    assert not set(hidden) & set(nav), "a page in the nav is also in not_in_nav (mkdocs leaves it out of the nav)"
    assert sorted(nav + hidden) == pages, "every page must be in the nav or in not_in_nav (mkdocs --strict)"


def test_the_nav_names_each_variant_once() -> None:
    config = (ROOT / "mkdocs.yml").read_text()
    nav = config[config.index("\nnav:") :]
    nav = nav[: nav.index("\nplugins:")]
    titles = ("Classic", "Two-player", "Three-player", "Six-player", "Cuban", "Modern American", "Hand and Foot")
    for title in (*titles, "Samba", "Bolivia", "Brazilian canasta"):
        assert len(re.findall(rf"^\s*- {title}:", nav, re.M)) == 1, f"{title} is listed more than once in the nav"
    # The variants' code pages are reached from the nav's one entry, whose table links them all.
    assert "<!-- variants-list -->" in (DOCS / "variants" / "index.md").read_text()
    yaml = pytest.importorskip("yaml")
    top = yaml.safe_load((ROOT / "mkdocs.yml").read_text())["nav"]
    # At the top level: inside a section, navigation.indexes would make the index.md the section's page.
    assert {"Variants in code": "variants/index.md"} in top
    assert _not_in_nav() == sorted(f"variants/{name}.md" for name in BUILT_IN_VARIANTS)


def test_the_required_pages_are_in_the_nav() -> None:
    nav = set(_nav_files())
    required = {"getting-started.md", "concepts.md", "house-rules.md", "writing-a-plugin.md", "hooks.md"}
    required |= {"testing.md", "cli.md", "changelog.md", "reference/index.md", "variants/index.md"}
    required |= {f"rules/{name}.md" for name in BUILT_IN_VARIANTS}
    assert required <= nav, sorted(required - nav)


@pytest.mark.parametrize("name", BUILT_IN_VARIANTS)
def test_each_variant_page_generates_its_tables_from_the_compiled_rules(name: str) -> None:
    text = (DOCS / "variants" / f"{name}.md").read_text()
    assert f"<!-- rules-table: {name} -->" in text
    if name != "classic":
        assert f"<!-- rules-diff: {name} -->" in text


def test_every_python_block_is_run_by_the_docs_tests() -> None:
    for page in DOCS.rglob("*.md"):
        for match in FENCE.finditer(page.read_text()):
            language = match.group("info").strip().split(" ")[0].lower()
            assert language not in UNRUN_PYTHON_SPELLINGS, (
                f"{page.relative_to(ROOT)}: a ```{language} block is never run; write ```python"
            )


def test_the_changelog_page_includes_the_changelog_file() -> None:
    assert '--8<-- "CHANGELOG.md"' in (DOCS / "changelog.md").read_text()


def test_the_diff_table_names_a_real_hook_for_every_rules_field() -> None:
    hooks = _hooks_module()
    spec_names = {name for name in dir(hookspecs) if name.startswith("canasta_")}
    fields = {f.name for f in attrs.fields(canasta.Rules)} - {"variant", "house_rules"}
    assert set(hooks.RULES_FIELD_HOOKS) == fields
    unknown = {field: hook for field, hook in hooks.RULES_FIELD_HOOKS.items() if hook not in spec_names}
    assert not unknown, f"Rules fields whose hook name is not canasta_<field>: add them to _HOOK_NAMES: {unknown}"


def test_the_diff_table_shows_what_a_variant_changes() -> None:
    hooks = _hooks_module()
    table = hooks.rules_diff("cuban")
    link = "[`canasta_target_score`](../hooks.md#canasta_target_score){: .hook-name }"  # the class: no wrapping
    # Rule values wrap only after a dot or an underscore (<wbr>), never mid-word.
    target = '<code class="rule-path">game_<wbr>length.<wbr>target_<wbr>score</code>'
    assert f"| {target} | {link} | 5000 | 7500 |" in table
    hand = '<code class="rule-path">hand_<wbr>size</code>'
    assert f"| {hand} | [`canasta_hand_size`](../hooks.md#canasta_hand_size){{: .hook-name }} | 11 | 13 |" in table
    assert '<code class="rule-path">pile.<wbr>always_<wbr>frozen</code>' in table
    assert "players" not in table.replace("six-player", "")  # unchanged values are left out
    assert hooks.rules_diff("classic") == "*No compiled rule value differs from classic.*\n"


def test_placeholders_are_replaced_and_an_unknown_variant_fails_the_build() -> None:
    hooks = _hooks_module()
    from mkdocs.exceptions import PluginError

    class FakeFile:
        src_uri = "variants/nowhere.md"

    class FakePage:
        file = FakeFile()

    out = hooks.on_page_markdown("# T\n\n<!-- rules-table: classic -->\n", page=FakePage(), config={}, files=[])
    assert "<!--" not in out and "5000" in out
    with pytest.raises(PluginError, match="no-such-variant"):
        hooks.on_page_markdown("<!-- rules-diff: no-such-variant -->", page=FakePage(), config={}, files=[])
    with pytest.raises(PluginError, match="needs a variant name"):
        hooks.on_page_markdown("<!-- rules-table -->", page=FakePage(), config={}, files=[])


def test_the_variants_list_requires_a_page_for_every_built_in_variant() -> None:
    hooks = _hooks_module()
    from mkdocs.exceptions import PluginError

    class FakeFile:
        content_string = ""  # the pages' text, where on_files looks for pictures to draw

        def __init__(self, uri: str) -> None:
            self.src_uri = uri

    hooks.on_files([FakeFile(f"variants/{name}.md") for name in BUILT_IN_VARIANTS], config={})
    table = hooks.variants_list()
    for name in BUILT_IN_VARIANTS:
        assert f"[{name}]({name}.md)" in table
    hooks.on_files([FakeFile("variants/classic.md")], config={})
    with pytest.raises(PluginError, match="without a page"):
        hooks.variants_list()
