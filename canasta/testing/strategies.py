"""Hypothesis strategies for canasta: cards, melds, hands, rule sets, states and actions.

Every strategy takes keyword-only arguments and returns a
`hypothesis.strategies.SearchStrategy`. Needs the ``testing`` extra
(``pip install 'canasta[testing]'``)::

    from hypothesis import given
    from canasta.testing import strategies as cst

    @given(cst.hand_states(rules=canasta.load_rules("classic")))
    def test_my_bot_always_plays_legally(state):
        if not state.is_over:
            assert state.is_legal(my_bot(state))
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from canasta.actions import Action, Meld
from canasta.cards import NATURAL_KINDS, Card, DeckSpec, Kind, build_deck
from canasta.hand import HandState
from canasta.plugins import load_rules
from canasta.registry import Registry, default_registry
from canasta.rules import Rules
from canasta.testing import invariants
from canasta.testing.play import random_play

try:
    from hypothesis import assume
    from hypothesis import strategies as st
    from hypothesis.strategies import DrawFn, SearchStrategy
except ImportError as exc:  # pragma: no cover - exercised without hypothesis installed
    raise ImportError(
        "canasta.testing.strategies needs hypothesis; install the extra: pip install 'canasta[testing]'"
    ) from exc

__all__ = [
    "MeldTuple",
    "actions",
    "cards",
    "hand_states",
    "hands",
    "house_rule_names",
    "illegal_actions",
    "kinds",
    "legal_actions",
    "meld_tuples",
    "melds",
    "rules",
    "variant_names",
]

#: ``(rank, naturals, twos, jokers)``, the arguments of `canasta.MeldRules.is_valid`.
MeldTuple = tuple[Kind, int, int, int]

_CLASSIC_DECK = DeckSpec(packs=2, jokers=4)


# --- cards and kinds --------------------------------------------------------------------


def kinds(*, naturals: bool = True, wilds: bool = True, threes: bool = True) -> SearchStrategy[Kind]:
    """Card kinds.

    Args:
        naturals: Include the natural ranks 4 to ace.
        wilds: Include 2 and joker.
        threes: Include red and black threes.

    Returns:
        A strategy for `canasta.Kind` values.

    Raises:
        ValueError: If every group is excluded.
    """
    pool = [
        k
        for k in Kind
        if (naturals and k.is_natural) or (wilds and k.is_wild) or (threes and k in (Kind.RED_THREE, Kind.BLACK_THREE))
    ]
    if not pool:
        raise ValueError("kinds(): every group of kinds is excluded")
    return st.sampled_from(pool)


def _deck_cards(rules: Rules | None, deck: DeckSpec | None) -> tuple[Card, ...]:
    spec = deck if deck is not None else (rules.deck if rules is not None else _CLASSIC_DECK)
    return tuple(build_deck(spec))


def cards(*, rules: Rules | None = None, deck: DeckSpec | None = None) -> SearchStrategy[Card]:
    """Cards of a deck (pack included, so equal cards are the same physical card).

    Args:
        rules: Take the deck of these rules.
        deck: Or this deck (default: the classic 108-card deck).

    Returns:
        A strategy for `canasta.Card` values.
    """
    return st.sampled_from(_deck_cards(rules, deck))


def hands(
    *,
    rules: Rules | None = None,
    deck: DeckSpec | None = None,
    min_size: int = 0,
    max_size: int | None = None,
) -> SearchStrategy[list[Card]]:
    """Hands: lists of distinct cards of one deck.

    Args:
        rules: Take the deck (and the default size) of these rules.
        deck: Or this deck (default: the classic deck).
        min_size: Fewest cards.
        max_size: Most cards (default: twice the rules' hand size, or 22).

    Returns:
        A strategy for card lists, e.g. for `canasta.build_position`'s ``hands``.
    """
    pool = _deck_cards(rules, deck)
    if max_size is None:
        max_size = 2 * rules.hand_size if rules is not None else 22
    return st.lists(st.sampled_from(pool), min_size=min_size, max_size=min(max_size, len(pool)), unique=True)


# --- melds ------------------------------------------------------------------------------


@st.composite
def _valid_meld(draw: DrawFn, rules: Rules) -> MeldTuple:
    m = rules.melds
    spec = rules.deck
    most_twos, most_jokers = 4 * spec.packs, spec.jokers
    largest = m.max_size if m.max_size is not None else m.canasta_size + 4
    ranks: list[Kind] = list(NATURAL_KINDS)
    if m.wild_melds:
        ranks.append(Kind.JOKER)
    if m.black_threes_when_going_out:
        ranks.append(Kind.BLACK_THREE)
    rank = draw(st.sampled_from(ranks))
    if rank is Kind.BLACK_THREE:
        return rank, draw(st.integers(3, min(4, 2 * spec.packs))), 0, 0
    if rank is Kind.JOKER:
        jokers = draw(st.integers(0, min(most_jokers, largest)))
        low = max(m.min_size - jokers, 0)
        twos = draw(st.integers(min(low, most_twos), min(most_twos, largest - jokers)))
        return rank, 0, twos, jokers
    naturals = draw(st.integers(m.min_naturals, max(m.min_naturals, min(4 * spec.packs, largest))))
    cap = largest - naturals if m.max_wilds is None else min(m.max_wilds, largest - naturals)
    wild_room = 0 if rank in m.natural_only else cap
    if m.naturals_per_wild:
        wild_room = min(wild_room, naturals // m.naturals_per_wild)
    jokers = draw(st.integers(0, max(0, min(most_jokers, wild_room))))
    twos = draw(st.integers(0, max(0, min(most_twos, wild_room - jokers))))
    return rank, naturals, twos, jokers


@st.composite
def _any_meld(draw: DrawFn, rules: Rules) -> MeldTuple:
    largest = (rules.melds.max_size or rules.melds.canasta_size + 4) + 2
    rank = draw(st.sampled_from(list(Kind)))
    return (
        rank,
        draw(st.integers(0, largest)),
        draw(st.integers(0, (rules.melds.max_wilds if rules.melds.max_wilds is not None else largest) + 2)),
        draw(st.integers(0, rules.deck.jokers)),
    )


def meld_tuples(*, rules: Rules, valid: bool | None = True) -> SearchStrategy[MeldTuple]:
    """Meld contents ``(rank, naturals, twos, jokers)``, judged by ``rules.melds.is_valid``.

    Valid ones are built within the rules' limits and cover natural and mixed
    melds, wild melds and black threes where the rules allow them; invalid ones
    break a limit (too few naturals, too many wild cards, too large, a wild
    meld where none is allowed, a wild card among black threes, ...).

    Args:
        rules: The rule set that judges.
        valid: ``True`` for melds ``is_valid`` accepts, ``False`` for melds it
            refuses, ``None`` for both.

    Returns:
        A strategy for `MeldTuple` values.
    """
    is_valid = rules.melds.is_valid

    def judged(t: MeldTuple) -> bool:
        return is_valid(int(t[0]), t[1], t[2], t[3])

    if valid is None:
        return st.one_of(_valid_meld(rules).filter(judged), _any_meld(rules))
    if valid:
        return _valid_meld(rules).filter(judged)
    return _any_meld(rules).filter(lambda t: not judged(t))


def melds(*, rules: Rules, valid: bool | None = True) -> SearchStrategy[Meld]:
    """`canasta.Meld` actions whose contents are valid (or not) under ``rules``.

    Whether such an action is *legal* also depends on the state (the cards in
    hand, the side's melds, the minimum); see `legal_actions`.

    Args:
        rules: The rule set that judges.
        valid: As in `meld_tuples`.

    Returns:
        A strategy for `canasta.Meld` values.
    """
    return meld_tuples(rules=rules, valid=valid).map(lambda t: Meld(t[0], t[1], t[2], t[3]))


# --- rule sets ----------------------------------------------------------------------------


def variant_names(*, registry: Registry | None = None) -> SearchStrategy[str]:
    """Names of the variants known to a registry (every installed one by default).

    Args:
        registry: Where to look (default: `canasta.default_registry`).

    Returns:
        A strategy for variant names, evaluated lazily (plugins registered
        before the first draw are included).
    """
    return st.deferred(lambda: st.sampled_from([v.name for v in (registry or default_registry()).variants()]))


def house_rule_names(*, variant: str, registry: Registry | None = None, max_size: int = 2) -> SearchStrategy[list[str]]:
    """Lists of distinct house-rule names that fit a variant (possibly empty).

    Args:
        variant: The variant they must fit.
        registry: Where to look (default: `canasta.default_registry`).
        max_size: Most house rules stacked.

    Returns:
        A strategy for house-rule name lists, in stacking order.
    """

    def build() -> SearchStrategy[list[str]]:
        reg = registry or default_registry()
        names = [h.name for h in reg.house_rules() if reg.fits(h.name, variant)]
        if not names:
            return st.just([])
        return st.lists(st.sampled_from(names), max_size=max_size, unique=True)

    return st.deferred(build)


@st.composite
def _rules(
    draw: DrawFn,
    variants: Sequence[str] | None,
    house_rules: Sequence[str] | None,
    registry: Registry | None,
    max_house_rules: int,
) -> Rules:
    reg = registry or default_registry()
    names = list(variants) if variants is not None else [v.name for v in reg.variants()]
    variant = draw(st.sampled_from(names))
    pool = list(house_rules) if house_rules is not None else [h.name for h in reg.house_rules()]
    fitting = [h for h in pool if reg.fits(h, variant)]
    chosen: list[str] = []
    if fitting and max_house_rules:
        drawn = draw(st.lists(st.sampled_from(fitting), max_size=max_house_rules, unique=True))
        for name in drawn:  # (of two that exclude each other, `HouseRule.conflicts`, the first drawn stays)
            conflicts = reg.house_rule(name).conflicts
            if not any(other in conflicts or name in reg.house_rule(other).conflicts for other in chosen):
                chosen.append(name)
    # A house rule that claims to fit must compile: errors propagate on purpose.
    result: Rules = load_rules(variant, chosen, registry=reg)
    return result


def rules(
    *,
    variants: Sequence[str] | None = None,
    house_rules: Sequence[str] | None = None,
    registry: Registry | None = None,
    max_house_rules: int = 2,
) -> SearchStrategy[Rules]:
    """Compiled rule sets: a variant plus house rules that fit it.

    Args:
        variants: Variant names to draw from (default: every registered one).
        house_rules: House-rule names to draw from (default: every registered
            one); only those that fit the drawn variant are stacked. Pass
            ``()`` for plain variants.
        registry: Where names are looked up (default: `canasta.default_registry`).
        max_house_rules: Most house rules stacked on one variant.

    Returns:
        A strategy for `canasta.Rules`. A house rule that claims to fit a
        variant but does not compile makes the draw fail with its error.
    """
    return _rules(variants, house_rules, registry, max_house_rules)


_any_rules = rules  # `rules` is shadowed by parameters named `rules` below


# --- reachable states -------------------------------------------------------------------


@st.composite
def _hand_states(
    draw: DrawFn,
    rules: Rules | SearchStrategy[Rules] | None,
    min_steps: int,
    max_steps: int,
    allow_over: bool,
) -> HandState:
    ruleset = draw(_any_rules()) if rules is None else rules if isinstance(rules, Rules) else draw(rules)
    # Scores before the hand select the minimum-meld row, so draw them too.
    score_values = st.sampled_from([0, -200, 50, 1500, 3000, 5000, 7500])
    scores = draw(st.lists(score_values, min_size=ruleset.side_count, max_size=ruleset.side_count))
    dealer = draw(st.integers(0, ruleset.players - 1))
    seed = draw(st.integers(0, 2**32 - 1))
    steps = draw(st.integers(min_steps, max_steps))
    play_seed = draw(st.integers(0, 2**32 - 1))
    state = HandState.deal(ruleset, dealer=dealer, scores=scores, seed=seed)
    rng = random.Random(play_seed)
    random_play(state, rng, steps)
    if state.is_over and not allow_over:
        # Rewind to the last state before the end: replay one step fewer.
        state = HandState.deal(ruleset, dealer=dealer, scores=scores, seed=seed)
        played = random_play(state.copy(), random.Random(play_seed), steps)
        random_play(state, random.Random(play_seed), len(played) - 1)
        assume(not state.is_over)  # only a hand that ends on its deal gets here
    return state


def hand_states(
    *,
    rules: Rules | SearchStrategy[Rules] | None = None,
    min_steps: int = 0,
    max_steps: int = 200,
    allow_over: bool = True,
) -> SearchStrategy[HandState]:
    """Reachable hands: a seeded deal, then random legal play for a drawn number of steps.

    The scores before the hand and the dealer are drawn too. Shrinking goes
    towards fewer steps (earlier positions).

    Args:
        rules: A rule set, a strategy for one (e.g. `rules`), or ``None`` for
            any registered variant with fitting house rules.
        min_steps: Fewest random actions played after the deal.
        max_steps: Most random actions (a classic hand lasts about 140).
        allow_over: Allow finished hands (if false, a hand that ended is taken
            one action before its end).

    Returns:
        A strategy for `canasta.HandState` values (each one is fresh; mutate freely).
    """
    return _hand_states(rules, min_steps, max_steps, allow_over)


# --- actions ------------------------------------------------------------------------------


def actions(*, rules: Rules | None = None) -> SearchStrategy[Action]:
    """Any action of the whole action space, legal or not.

    Card counts range past what any built-in variant allows, so refusals for
    "too many" are exercised as well as "too few".

    Args:
        rules: Bound meld sizes by these rules' deck (default: fixed bounds).

    Returns:
        A strategy for actions.
    """
    most_jokers = invariants.MAX_MELD_JOKERS if rules is None else rules.deck.jokers + 1
    meld = st.builds(
        Meld,
        st.sampled_from(list(Kind)),
        st.integers(0, invariants.MAX_MELD_NATURALS),
        st.integers(0, invariants.MAX_MELD_TWOS),
        st.integers(0, most_jokers),
    )
    return st.one_of(st.sampled_from(invariants.simple_actions()), meld)


def legal_actions(*, state: HandState) -> SearchStrategy[Action]:
    """Actions legal in ``state`` (drawn from ``state.legal_actions()``).

    Args:
        state: The hand; it must not be over (a finished hand has none).

    Returns:
        A strategy for legal actions.

    Raises:
        ValueError: If the hand is over.
    """
    legal = state.legal_actions()
    if not legal:
        raise ValueError("legal_actions(): the hand is over, nothing is legal")
    return st.sampled_from(list(legal))


def illegal_actions(*, state: HandState) -> SearchStrategy[Action]:
    """Actions illegal in ``state``: the whole action space minus the legal ones.

    Near misses of legal melds (one card more or a wild card instead of a
    natural) are drawn often, since that is where limits are broken.

    Args:
        state: The hand (not changed).

    Returns:
        A strategy for actions ``state.is_legal`` refuses.
    """
    legal = list(state.legal_actions())
    near: list[Action] = []
    for a in legal:
        if isinstance(a, Meld):
            near += [
                Meld(a.rank, a.naturals + 1, a.twos, a.jokers),
                Meld(a.rank, a.naturals, a.twos + 1, a.jokers),
                Meld(a.rank, a.naturals, a.twos, a.jokers + 1),
            ]
    near = [a for a in dict.fromkeys(near) if not state.is_legal(a)]
    pool = actions(rules=state.rules)
    if near:
        pool = st.one_of(pool, st.sampled_from(near))

    def not_legal(action: Action) -> bool:
        return not state.is_legal(action)

    return pool.filter(not_legal)
