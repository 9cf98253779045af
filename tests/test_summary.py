"""The rules summary is generated from compiled rules and covers every field."""

from __future__ import annotations

import attrs
import pytest

import canasta
from canasta.summary import _LABELS, HAND_STATE_FIELDS, format_rules_summary, rules_summary


def field_paths(rules: canasta.Rules) -> list[str]:
    paths = []
    for field in attrs.fields(type(rules)):
        if field.name == "rule_sections":  # not a rule: the rule book's sections (tests/test_rule_sections.py)
            continue
        value = getattr(rules, field.name)
        if attrs.has(type(value)) and not isinstance(value, (canasta.DeckSpec, canasta.MeldMinimums)):
            paths.extend(
                f"{field.name}.{sub.name}"
                for sub in attrs.fields(type(value))
                if f"{field.name}.{sub.name}" not in HAND_STATE_FIELDS  # a hand's meld state, not a rule
            )
        else:
            paths.append(field.name)
    return paths


@pytest.mark.parametrize("variant", [v.name for v in canasta.available_variants()])
def test_every_rule_field_appears(variant: str) -> None:
    rules = canasta.load_rules(variant)
    rows = rules_summary(rules)
    assert len(rows) == len(field_paths(rules))
    assert all(section and rule and value for section, rule, value in rows)


def test_classic_values() -> None:
    rows = {rule: value for _, rule, value in rules_summary(canasta.load_rules("classic"))}
    assert rows["game ends at"] == "5000"
    assert rows["deck"] == "2 packs + 4 jokers (108 cards)"
    assert rows["sides"] == "seats 0+2 against seats 1+3"
    minimums = "below 0: 15; 0 to 1495: 50; 1500 to 2995: 90; 3000 or more: 120"
    assert rows["minimum count for the initial meld"] == minimums
    assert rows["deals in a game"] == "no fixed number"
    assert rows["wild cards in a meld at most"] == "3"
    assert rows["natural canasta"] == "500"
    assert rows["bonus threes (1, 2, 3, ... of a colour)"] == "100, 200, 300, 800"
    assert rows["card values"].startswith("joker: 50; 2 A: 20")


def test_summary_follows_the_compiled_rules() -> None:
    rules = canasta.load_rules("classic")
    changed = attrs.evolve(
        rules,
        game_length=canasta.GameLength(target_score=1234),
        going_out=attrs.evolve(rules.going_out, canastas_required=2),
    )
    rows = {rule: value for _, rule, value in rules_summary(changed)}
    assert rows["game ends at"] == "1234"
    assert rows["canastas needed to go out"] == "2"


def test_known_fields_have_labels() -> None:
    # A field added to Rules still shows up (labelled from its name); this keeps the labels honest.
    stale = set(_LABELS) - set(field_paths(canasta.load_rules("classic")))
    assert not stale, f"labels for fields that no longer exist: {sorted(stale)}"


def test_markdown_is_a_clean_table() -> None:
    text = format_rules_summary(canasta.load_rules("classic"), "markdown")
    lines = text.strip().splitlines()
    assert lines[0] == "| Section | Rule | Value |"
    assert lines[1] == "| --- | --- | --- |"
    assert all(line.startswith("| ") and line.endswith(" |") and line.count(" | ") == 2 for line in lines[2:])
    assert "| Game | variant | classic |" in lines


def test_text_format_and_bad_format() -> None:
    text = format_rules_summary(canasta.load_rules("classic"))
    assert text.startswith("Game\n")
    assert "  game ends at" in text
    with pytest.raises(ValueError, match="unknown format"):
        format_rules_summary(canasta.load_rules("classic"), "html")  # type: ignore[arg-type]
