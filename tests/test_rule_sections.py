"""Every rule code links to the rule it enforces: the rule book's sections, cited by every refusal."""

from __future__ import annotations

import random
import subprocess
import sys
import types
from pathlib import Path

import attrs
import canasta_classic
import canasta_cuban
import pytest

import canasta
from canasta import AnswerGoOut, AskGoOut, Discard, DrawStock, EndHand, Kind, Meld, RuleCode, RuleSection, TakePile
from canasta.rulebook import CODE_SECTIONS, CODE_SENTENCES, LEGAL, LEGAL_CODES, SECTION_TITLES, variant_sections

ROOT = Path(__file__).resolve().parent.parent
BUILT_IN_VARIANTS = ["classic", "two-player", "three-player", "six-player", "cuban", "modern-american"]
BUILT_IN_HOUSE_RULES = {
    # house rule: (a variant it fits, the codes it cites its own page for)
    "black-three-freezes": ("classic", {RuleCode.PILE_FROZEN}),
    "wilds-at-most-naturals": ("classic", {RuleCode.INVALID_MELD}),
    "last-red-three-may-meld": ("classic", {RuleCode.CANNOT_DISCARD}),
    "cutthroat": (
        "three-player",
        {RuleCode.PERMISSION_NOT_AVAILABLE, RuleCode.GOING_OUT_REFUSED, RuleCode.MUST_GO_OUT},
    ),
    "american-talon": ("modern-american", set()),
}
OTHERS = [["4H", "5H", "6H"], ["4C", "7C", "8C"], ["4D", "5D", "6D"]]


# --- the mapping ------------------------------------------------------------------------------


def test_every_rule_code_has_a_section_and_a_sentence() -> None:
    assert set(CODE_SECTIONS) == set(RuleCode)
    assert set(CODE_SENTENCES) == set(RuleCode) and all(CODE_SENTENCES.values())
    assert {CODE_SECTIONS[code] for code in LEGAL_CODES} == {LEGAL.id}
    assert all(CODE_SECTIONS[code] in SECTION_TITLES for code in RuleCode if code not in LEGAL_CODES)


@pytest.mark.parametrize("variant", BUILT_IN_VARIANTS)
def test_every_code_of_a_built_in_variant_resolves_to_its_page_and_an_anchor(variant: str) -> None:
    rules = canasta.load_rules(variant)
    for code in RuleCode:
        section = rules.section(code)
        assert section is not None, code
        if code in LEGAL_CODES:
            assert section == LEGAL and section.path == "rules/index.md#legal"
        else:
            assert section.path == f"rules/{variant}.md#{CODE_SECTIONS[code]}"
            assert section.title == SECTION_TITLES[section.id] and section.book == f"rules of {variant}"
            assert section.url == f"rules/{variant}/#{section.id}"
        assert "SPEC" not in section.citation


@pytest.mark.parametrize("house_rule", sorted(BUILT_IN_HOUSE_RULES))
def test_a_house_rule_cites_its_own_page_for_the_codes_whose_rule_it_changes(house_rule: str) -> None:
    variant, own = BUILT_IN_HOUSE_RULES[house_rule]
    rules = canasta.load_rules(variant, [house_rule])
    for code in RuleCode:
        section = rules.section(code)
        assert section is not None
        if code in own:
            assert section.path == f"rules/house-rules/{house_rule}.md#{house_rule}"
            assert section.book == f"house rule {house_rule}"
        else:
            assert section == canasta.load_rules(variant).section(code), code


def test_a_section_renders_its_site_url() -> None:
    assert RuleSection("x", "X", "rules/classic.md", "b").url == "rules/classic/#x"
    assert RuleSection("legal", "L", "rules/index.md", "b").url == "rules/#legal"
    assert RuleSection("top", "T", "index.md", "b").url == "#top"
    web = RuleSection("variations", "V", "https://example.org/canasta.html", "b")
    assert web.url == web.path == "https://example.org/canasta.html#variations"
    assert web.citation == 'b, "V"'


@pytest.mark.parametrize(
    "fields",
    [
        {"id": "two words"},
        {"id": ""},
        {"id": "#anchor"},
        {"page": "rules/classic.md#melds"},
        {"page": ""},
        {"title": " "},
        {"book": ""},
    ],
)
def test_a_malformed_section_is_refused_when_made(fields: dict[str, str]) -> None:
    values = {"id": "melds", "title": "Melds", "page": "rules/classic.md", "book": "rules of classic"} | fields
    with pytest.raises(ValueError, match="RuleSection"):
        RuleSection(**values)


def test_the_error_cites_its_section_and_keeps_the_bare_reason() -> None:
    section = variant_sections("classic")[RuleCode.PILE_FROZEN]
    err = canasta.IllegalActionError(RuleCode.PILE_FROZEN, "the pile is frozen", section=section)
    assert err.reason == "the pile is frozen" and err.section is section
    assert err.message == 'the pile is frozen (rules of classic, "The frozen pile")'
    assert str(err) == '[pile-frozen] the pile is frozen (rules of classic, "The frozen pile")'
    bare = canasta.IllegalActionError(RuleCode.ILLEGAL, "no")
    assert bare.section is None and bare.message == bare.reason == "no" and str(bare) == "[illegal] no"


def test_sections_do_not_change_what_the_rules_are() -> None:
    rules = canasta.load_rules("classic")
    without = attrs.evolve(rules, rule_sections=())
    assert without == rules and hash(without) == hash(rules)
    assert without.section(RuleCode.PILE_FROZEN) is None


# --- refusals in play -------------------------------------------------------------------------


def _refused(state: canasta.HandState, action: object, code: RuleCode) -> canasta.IllegalActionError:
    with pytest.raises(canasta.IllegalActionError) as info:
        state.apply(action)  # type: ignore[arg-type]
    err = info.value
    assert err.code is code, err
    assert "SPEC" not in str(err) and "§" not in str(err)
    return err


def test_taking_a_frozen_pile_in_classic_cites_the_frozen_pile() -> None:
    state = canasta.build_position(
        canasta.load_rules("classic"),
        hands=[["QH", "2C", "5D"], *OTHERS],
        pile=["9S", "2D", "QD"],
        melds=[[["KH", "KS", "KD"]], []],
    )
    err = _refused(state, TakePile(1, 1, 0), RuleCode.PILE_FROZEN)
    assert err.section is not None and err.section.path == "rules/classic.md#frozen-pile"
    assert str(err).endswith('(rules of classic, "The frozen pile")')


def _wild_heavy_meld(house_rules: tuple[str, ...]) -> canasta.HandState:
    # Seat 0's side has opened (a meld of queens); seat 0 can meld two kings with three wild cards.
    return canasta.build_position(
        canasta.load_rules("classic", house_rules),
        hands=[["KH", "KS", "2C", "2D", "*", "5D", "9C", "8D"], *OTHERS],
        melds=[[["QH", "QS", "QD"]], []],
        phase="meld",
    )


def test_too_many_wild_cards_under_wilds_at_most_naturals_names_the_house_rule() -> None:
    action = Meld(Kind.KING, 2, 2, 1)
    assert action in _wild_heavy_meld(()).legal_actions()  # classic: 3 wild cards are fine
    state = _wild_heavy_meld(("wilds-at-most-naturals",))
    err = _refused(state, action, RuleCode.INVALID_MELD)
    assert "wilds-at-most-naturals" in err.reason and "no more wild cards than naturals" in err.reason
    assert "2 naturals and 3 wild cards" in err.reason
    assert "at most 3" not in err.reason
    assert err.section is not None
    assert err.section.path == "rules/house-rules/wilds-at-most-naturals.md#wilds-at-most-naturals"
    assert str(err).endswith('(house rule wilds-at-most-naturals, "Wilds at most naturals")')


def test_a_wild_card_in_modern_american_sevens_names_the_sevens_rule() -> None:
    state = canasta.build_position(
        canasta.load_rules("modern-american"),
        hands=[["7H", "7S", "2C", "5D", "9C"], *OTHERS],
        melds=[[["KH", "KS", "KD"]], []],
        phase="meld",
    )
    err = _refused(state, Meld(Kind.SEVEN, 2, 1, 0), RuleCode.INVALID_MELD)
    assert "sevens" in err.reason and "1 wild card" in err.reason
    assert "wild cards …" not in err.reason and "1 wild cards" not in err.reason and "at most 2" not in err.reason
    assert err.section is not None and err.section.path == "rules/modern-american.md#melds"


def test_nothing_to_undo_cites_what_legal_means() -> None:
    game = canasta.Game("cuban", seed=3)
    with pytest.raises(canasta.IllegalActionError) as info:
        game.undo()
    assert info.value.code is RuleCode.ILLEGAL and info.value.section == LEGAL
    assert "the rule book" in str(info.value)


def _candidates() -> list[object]:
    actions: list[object] = [DrawStock(), EndHand(), AskGoOut(), AnswerGoOut(True), AnswerGoOut(False)]
    actions += [TakePile(2, 0, 0), TakePile(1, 1, 0), TakePile(1, 0, 1), TakePile(0, 0, 0), TakePile(3, 0, 0)]
    actions += [Discard(kind) for kind in Kind]
    for kind in Kind:
        actions += [
            Meld(kind, 3, 0, 0),
            Meld(kind, 1, 0, 0),
            Meld(kind, 2, 1, 0),
            Meld(kind, 1, 2, 1),
            Meld(kind, 0, 2, 1),
        ]
    actions.append("not an action")
    return actions


@pytest.mark.parametrize(
    ("variant", "house_rules"),
    [(v, ()) for v in BUILT_IN_VARIANTS] + [(v, (h,)) for h, (v, _) in BUILT_IN_HOUSE_RULES.items()],
)
def test_every_refusal_in_random_play_cites_a_section_and_never_spec(
    variant: str, house_rules: tuple[str, ...]
) -> None:
    rules = canasta.load_rules(variant, house_rules)
    rng = random.Random(f"{variant}{house_rules}")
    game = canasta.Game(variant, house_rules, seed=rng.randrange(2**32))
    candidates = _candidates()
    for _ in range(150):
        if game.is_over:
            break
        legal = game.legal_actions()
        for action in rng.sample(candidates, 12):
            if action in legal:
                continue
            with pytest.raises(canasta.IllegalActionError) as info:
                game.check(action)  # type: ignore[arg-type]
            err = info.value
            assert "SPEC" not in str(err) and "§" not in str(err), err
            assert " 1 cards" not in str(err) and " 1 naturals" not in str(err) and "(s)" not in str(err), err
            assert err.section == rules.section(err.code) and err.section is not None, err
            assert err.message.endswith(f"({err.section.citation})")
        game.apply(rng.choice(legal))


# --- third-party variants -------------------------------------------------------------------------


def _registry(*plugins: object) -> canasta.Registry:
    registry = canasta.Registry(autoload=False)
    registry.register_plugin(canasta_classic)
    registry.register_plugin(canasta_cuban)
    for plugin in plugins:
        registry.register_plugin(plugin)
    return registry


def _variant_plugin(name: str, base: str, rules: object) -> types.SimpleNamespace:
    variant = canasta.Variant(name, f"{name} for a test.", plugins=(rules,), base=base)
    return types.SimpleNamespace(canasta_variants=canasta.hookimpl(lambda: [variant]))


OWN = RuleSection(id="taking", title="Taking the pile", page="https://example.org/rules.html", book="rules of mine")


def test_a_variant_without_the_hook_cites_its_base() -> None:
    quiet = types.SimpleNamespace(canasta_target_score=canasta.hookimpl(lambda: 9000))
    registry = _registry(_variant_plugin("quiet", "cuban", quiet))
    rules = canasta.load_rules("quiet", registry=registry)
    assert rules.section(RuleCode.PILE_FROZEN) == canasta.load_rules("cuban").section(RuleCode.PILE_FROZEN)
    assert rules.section(RuleCode.MELD_CLOSED).path == "rules/cuban.md#canastas"  # type: ignore[union-attr]


def test_a_variant_with_the_hook_cites_its_own_text_for_the_codes_it_names() -> None:
    own = types.SimpleNamespace(canasta_rule_sections=canasta.hookimpl(lambda: {"pile-frozen": OWN}))
    registry = _registry(_variant_plugin("mine", "classic", own))
    rules = canasta.load_rules("mine", registry=registry)
    assert rules.section(RuleCode.PILE_FROZEN) == OWN
    assert rules.section(RuleCode.MELD_CLOSED).path == "rules/classic.md#canastas"  # type: ignore[union-attr]
    state = canasta.build_position(
        rules, hands=[["QH", "2C", "5D"], *OTHERS], pile=["9S", "2D", "QD"], melds=[[["KH", "KS", "KD"]], []]
    )
    err = _refused(state, TakePile(1, 1, 0), RuleCode.PILE_FROZEN)
    assert err.section == OWN and str(err).endswith('(rules of mine, "Taking the pile")')
    assert "classic" not in str(err)


@pytest.mark.parametrize(
    ("answer", "problem"),
    [
        (["pile-frozen"], "not a mapping"),
        ({"pile-frozn": OWN}, "did you mean 'pile-frozen'"),
        ({42: OWN}, "not a rule code"),
        ({RuleCode.PILE_FROZEN: ("Taking the pile", "https://example.org")}, "not a canasta.RuleSection"),
    ],
)
def test_a_bad_answer_is_a_rules_error_naming_the_plugin(answer: object, problem: str) -> None:
    bad = types.SimpleNamespace(canasta_rule_sections=canasta.hookimpl(lambda: answer))
    registry = _registry(_variant_plugin("bad", "classic", bad))
    with pytest.raises(canasta.RulesError, match="canasta_rule_sections") as info:
        canasta.load_rules("bad", registry=registry)
    assert problem in str(info.value) and "variant bad" in str(info.value)


def test_a_hook_that_raises_is_a_plugin_error_naming_the_plugin() -> None:
    def broken() -> dict[RuleCode, RuleSection]:
        raise RuntimeError("no rule book here")

    registry = _registry(
        _variant_plugin("broken", "classic", types.SimpleNamespace(canasta_rule_sections=canasta.hookimpl(broken)))
    )
    with pytest.raises(canasta.PluginError, match=r"canasta_rule_sections.*variant broken.*no rule book here"):
        canasta.load_rules("broken", registry=registry)


# --- the built site -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("mkdocs")
    out = tmp_path_factory.mktemp("site")
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    return out


def _cited(rules: canasta.Rules) -> set[RuleSection]:
    return {section for _, section in rules.rule_sections if "://" not in section.page}


def test_every_cited_anchor_exists_in_the_built_site(site: Path) -> None:
    cited: set[RuleSection] = set()
    for variant in BUILT_IN_VARIANTS:
        cited |= _cited(canasta.load_rules(variant))
    for house_rule, (variant, _) in BUILT_IN_HOUSE_RULES.items():
        cited |= _cited(canasta.load_rules(variant, [house_rule]))
    assert len({s.page for s in cited}) >= len(BUILT_IN_VARIANTS) + 1
    missing = []
    for section in sorted(cited, key=lambda s: s.path):
        page = site / section.url.split("#")[0] / "index.html"
        if not page.is_file() or f'id="{section.id}"' not in page.read_text():
            missing.append(section.path)
    assert not missing, f"cited sections missing from the built site: {missing}"


def test_the_rule_codes_page_lists_every_code_with_a_link(site: Path) -> None:
    html = (site / "reference" / "rule-codes" / "index.html").read_text()
    for code in RuleCode:
        assert f"<code>{code.value}</code>" in html, code
    assert 'href="../../rules/classic/#frozen-pile"' in html
    assert 'href="../../rules/house-rules/wilds-at-most-naturals/#wilds-at-most-naturals"' in html


def test_hook_names_in_the_difference_tables_do_not_wrap(site: Path) -> None:
    html = (site / "variants" / "cuban" / "index.html").read_text()
    assert 'class="hook-name"' in html and "<code>canasta_target_score</code>" in html
    css = (site / "stylesheets" / "extra.css").read_text()
    assert "white-space: nowrap" in css
