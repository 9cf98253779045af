"""Every hook in the spec is documented in docs/hooks.md with its exact arguments (datasette's test)."""

from __future__ import annotations

import re
from pathlib import Path

import pluggy
import pytest

from canasta import hookspecs

HOOKS_PAGE = Path(__file__).resolve().parent.parent / "docs" / "hooks.md"


def spec_hooks() -> dict[str, tuple[str, ...]]:
    pm = pluggy.PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    hooks = {}
    for name in dir(pm.hook):
        caller = getattr(pm.hook, name)
        if isinstance(caller, pluggy.HookCaller) and caller.spec is not None:
            hooks[name] = tuple(caller.spec.argnames)
    return hooks


def documented_hooks() -> dict[str, tuple[str, ...]]:
    headings = re.findall(
        r"^#+ `(canasta_\w+)\(([^)]*)\)` \{#(canasta_\w+)\}\s*$", HOOKS_PAGE.read_text(), re.MULTILINE
    )
    # Each heading carries its hook's name as a stable anchor (docs link to hooks.md#canasta_x).
    assert all(name == anchor for name, _, anchor in headings), "a hook heading's anchor differs from its name"
    return {name: tuple(a.strip() for a in args.split(",") if a.strip()) for name, args, _ in headings}


def test_the_spec_has_hooks() -> None:
    assert {"canasta_variants", "canasta_players", "canasta_going_out"} <= set(spec_hooks())


@pytest.mark.parametrize("hook", sorted(spec_hooks()))
def test_hook_is_documented_with_its_arguments(hook: str) -> None:
    documented = documented_hooks()
    assert hook in documented, f"{hook} is missing from docs/hooks.md: add a '### `{hook}(...)`' section"
    assert documented[hook] == spec_hooks()[hook], f"docs/hooks.md lists {hook} with other arguments"


def test_no_documented_hook_is_missing_from_the_spec() -> None:
    assert set(documented_hooks()) <= set(spec_hooks())


def test_every_hook_docstring_says_whether_the_first_answer_wins() -> None:
    for name in spec_hooks():
        function = getattr(hookspecs, name)
        firstresult = function.canasta_spec["firstresult"]
        doc = function.__doc__ or ""
        assert ("Stops at first non-None result" in doc) == firstresult, name
        assert "Returns:" in doc, name
