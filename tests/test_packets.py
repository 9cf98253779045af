"""Packets after the hand (`canasta.PacketRules`): Hand and Foot's foot as a plugin concept (issue 33).

The rules tested are Hand and Foot's (`../shared/rules/HAND-AND-FOOT.md`): the
deal of the feet (§8.1), picking up the foot (§8.7), going out only from the foot
with every partner in the foot (§8.8, conditions 1 and 3), a provisional opening
meld never taking the last card (§8.5, E8), the stranded player of §8.9, the
scoring of a foot still down (§8.11) and what each player sees (§8.12). They run
on test variants written from the public plugin API only (`packet_variants.py`):
classic canasta with a foot, and with a knee and a foot.
"""

from __future__ import annotations

import copy
import pickle
import random
import types
from collections import Counter
from collections.abc import Generator

import attrs
import packet_variants
import pytest
from helpers import check_conservation, play_random_hand, reference_positions, unplaced

import canasta
from canasta import AskGoOut, Discard, DrawStock, EndHand, HandState, IllegalActionError, Kind, Meld, RuleCode
from canasta.records import verify_record
from canasta.testing.reference import check_exact_legality

RULES = packet_variants.rules()
KNEE = packet_variants.rules("hand-knee-foot")

#: A foot of 11 cards without threes.
FOOT = ["4C", "4D", "5C", "5D", "6C", "6D", "8C", "8D", "9C", "9D", "TC"]
#: A canasta of kings, for a side that may go out.
KINGS = ["KC", "KD", "KH", "KS", "KC", "KD", "KH"]


def _position(*, empty_stock: bool = False, **kwargs: object) -> HandState:
    """A classic-feet position: seats 0 and 2 against 1 and 3, every hand small.

    With ``empty_stock`` every card not placed goes under the pile's top card instead.
    """
    kwargs.setdefault("hands", [["7C", "7D", "7H"], ["QC", "QD"], ["JC", "JD"], ["QH", "QS"]])
    kwargs.setdefault("melds", [[["AC", "AD", "AH"]], [["5H", "5S", "5H"]]])
    kwargs.setdefault("phase", "meld")
    if empty_stock:
        used = Counter(code for key in ("hands", "melds", "packets", "pile") for code in _codes(kwargs.get(key, [])))
        rest = unplaced(RULES, used)
        kwargs["pile"] = [c for c in rest if c not in ("3H", "3D")]  # (red threes are never in the pile)
        kwargs["threes"] = [[c for c in rest if c in ("3H", "3D")], [], [], []]
        kwargs["stock"] = []
    return canasta.build_position(RULES, **kwargs)  # type: ignore[arg-type]


def _codes(nested: object) -> list[str]:
    """Every card code in a nested list of codes."""
    if isinstance(nested, str):
        return [nested]
    return [code for item in nested for code in _codes(item)]  # type: ignore[attr-defined]


# --- the deal and what each player sees ----------------------------------------------------


def test_the_deal_gives_every_player_a_hand_then_a_foot_face_down() -> None:
    state = HandState.deal(RULES, dealer=3, scores=[0, 0], seed=7)
    assert [len(p) for p in state.packets] == [1, 1, 1, 1]
    assert all(len(p[0]) == 11 for p in state.packets)
    check_conservation(state)
    # Red threes in a foot stay there until it is picked up (§8.1); the hands' were laid out and replaced.
    kinds = state.kinds
    assert all(kinds[c] != Kind.RED_THREE for seat in range(4) for kind in state.hands[seat] for c in kind)
    feet_threes = sum(kinds[c] == Kind.RED_THREE for seat in range(4) for c in state.packets[seat][0])
    laid = sum(len(t) for t in state.threes)
    assert feet_threes + laid + sum(kinds[c] == Kind.RED_THREE for c in state.stock + state.pile) == 10


def test_the_deal_is_the_hands_then_the_feet_one_card_at_a_time() -> None:
    rules = RULES
    state = HandState.deal(rules, dealer=3, scores=[0, 0], seed=11)
    order = canasta.hand.shuffled(len(state.deck), random.Random(11))
    dealt = order[::-1]  # the stock is drawn from the end of the list
    after_hands = dealt[44:88]
    for i, seat in enumerate((0, 1, 2, 3)):
        assert state.packets[seat][0] == after_hands[i::4]


def test_nobody_sees_a_foot_not_even_its_owner() -> None:
    state = HandState.deal(RULES, dealer=3, scores=[0, 0], seed=3)
    cards = state.deck.cards
    feet = {cards[c] for seat in range(4) for c in state.packets[seat][0]}
    for seat in range(4):
        seen = state.observation(seat)
        assert seen.packets_down == ((11,), (11,), (11,), (11,))
        visible = set(seen.hand) | set(seen.pile) | {c for known in seen.known_cards for c in known}
        visible |= {c for side in seen.melds for meld in side for c in meld.cards}
        assert not visible & feet
        assert seen._public is not None and all(p == [[]] for p in seen._public.packets)


def test_a_sampled_state_deals_the_owner_its_foot_at_random_and_keeps_the_observation() -> None:
    state = HandState.deal(RULES, dealer=3, scores=[0, 0], seed=5)
    seen = state.observation(0)
    feet = set()
    for i in range(12):
        sample = canasta.sample_state(seen, random.Random(i))
        assert sample.observation(0) == seen
        assert [len(p[0]) for p in sample.packets] == [11, 11, 11, 11]
        check_conservation(sample)
        feet.add(tuple(sorted(sample.packets[0][0])))
    assert len(feet) > 1  # the owner's own foot is unknown to it


# --- picking up the foot (§8.7) ---------------------------------------------------------------


def test_a_meld_that_empties_the_hand_picks_up_the_foot_and_the_turn_goes_on() -> None:
    foot = ["3H", *FOOT[:10]]  # a red three: laid out and replaced (§8.6)
    state = _position(packets=[[foot], [], [], []])
    top = state.stock[-1]
    state.apply(Meld(Kind.SEVEN, 3, 0, 0))
    assert not state.is_over and state.seat == 0 and state.phase is canasta.Phase.MELD
    assert state.packets[0] == [] and state.sizes[0] == 11
    assert [state.deck.cards[c].code for c in state.threes[0]] == ["3H"]
    assert top in [c for k in state.hands[0] for c in k] or top in state.threes[0]  # the replacement
    assert Discard(Kind.FOUR) in state.legal_actions()


def test_a_discard_that_empties_the_hand_passes_the_turn_and_the_foot_comes_at_the_next() -> None:
    state = _position(hands=[["7C"], ["QC", "QD"], ["JC", "JD"], ["QH", "QS"]], packets=[[FOOT], [], [], []])
    assert Discard(Kind.SEVEN) in state.legal_actions()  # not going out: a foot is still down
    state.apply(Discard(Kind.SEVEN))
    assert not state.is_over and state.seat == 1
    assert state.sizes[0] == 0 and len(state.packets[0]) == 1
    assert state.observation(1).hand_sizes[0] == 0
    for _ in range(3):  # seats 1, 2, 3 draw and discard
        state.apply(DrawStock())
        state.apply(next(a for a in state.legal_actions() if isinstance(a, Discard)))
    assert state.seat == 0 and state.phase is canasta.Phase.DRAW
    assert state.packets[0] == [] and state.sizes[0] == 11  # picked up before the draw


def test_a_provisional_opening_meld_never_takes_the_last_card() -> None:
    unopened = {"melds": [[], [["5H", "5S", "5H"]]], "scores": [0, 0]}
    state = _position(packets=[[FOOT], [], [], []], **unopened)
    assert Meld(Kind.SEVEN, 3, 0, 0) in state.allowed_actions()
    assert Meld(Kind.SEVEN, 3, 0, 0) not in state.legal_actions()  # 15 of 50: the foot would be needed
    with pytest.raises(IllegalActionError) as refused:
        state.apply(Meld(Kind.SEVEN, 3, 0, 0))
    assert refused.value.code is RuleCode.MINIMUM_NOT_MET
    # The meld that reaches the minimum may take the last card: the side opens, then the foot comes.
    state = _position(hands=[["AC", "AD", "AH"], ["QC"], ["JC"], ["QH"]], packets=[[FOOT], [], [], []], **unopened)
    state.apply(Meld(Kind.ACE, 3, 0, 0))
    assert state.opened[0] and state.packets[0] == [] and state.sizes[0] == 11 and not state.is_over


def test_the_reference_agrees_at_the_edges_of_the_foot() -> None:
    for hands, opened in (
        ([["7C", "7D", "7H"], ["QC"], ["JC"], ["QH"]], None),
        ([["7C", "7D", "7H"], ["QC"], ["JC"], ["QH"]], [False, True]),
        ([["AC", "AD", "AH", "2C"], ["QC"], ["JC"], ["QH"]], [False, True]),
        ([["7C"], ["QC"], ["JC"], ["QH"]], None),
    ):
        melds = [[["AS", "AH", "AD"]] if opened is None else [], [["5H", "5S", "5H"]]]
        small_foot = ["4C", "4D", "4H", "5C", "9C", "9D", "9H", "TC", "TD", "JS", "KS"]
        state = _position(hands=hands, melds=melds, opened=opened, packets=[[small_foot], [], [], []])
        check_exact_legality(state, max_nodes=200_000)


# --- going out (§8.8) ----------------------------------------------------------------------


def test_going_out_needs_the_foot_and_every_partner_in_the_foot() -> None:
    canasta_side = {"melds": [[KINGS], [["5H", "5S", "5H"]]]}
    # The partner (seat 2) still has a foot down: melding the last cards is refused.
    state = _position(packets=[[], [], [FOOT], []], **canasta_side)
    assert Meld(Kind.SEVEN, 3, 0, 0) not in state.legal_actions()
    with pytest.raises(IllegalActionError, match="every partner to have picked up their last packet") as refused:
        state.apply(Meld(Kind.SEVEN, 3, 0, 0))
    assert refused.value.code is RuleCode.GOING_OUT_NOT_ALLOWED
    assert AskGoOut() not in state.legal_actions()
    # Both partners in the foot: it goes out.
    state = _position(**canasta_side)
    assert Meld(Kind.SEVEN, 3, 0, 0) in state.legal_actions()
    state.apply(Meld(Kind.SEVEN, 3, 0, 0))
    assert state.is_over and state.went_out == 0


def test_asking_permission_needs_the_last_packet() -> None:
    state = _position(phase="draw", packets=[[FOOT], [], [], []])
    assert AskGoOut() not in state.legal_actions()
    with pytest.raises(IllegalActionError, match="must first pick up the last packet") as refused:
        state.apply(AskGoOut())
    assert refused.value.code is RuleCode.PERMISSION_NOT_AVAILABLE
    state = _position(phase="draw")
    assert AskGoOut() in state.legal_actions()


def test_a_player_stranded_by_red_threes_ends_the_turn_without_a_discard() -> None:
    # §8.9: the foot is picked up with an empty stock, its red threes laid out without replacement.
    threes = ["3H", "3D"] * 5
    state = _position(packets=[[[*threes, "9C"]], [], [], []], empty_stock=True)
    state.apply(Meld(Kind.SEVEN, 3, 0, 0))
    assert state.sizes[0] == 1 and len(state.threes[0]) == 10
    assert state.legal_actions() == (EndHand(),)
    state.apply(EndHand())
    assert state.is_over and state.end is canasta.HandEnd.STOCK_EXHAUSTED


# --- scoring (§8.11) -----------------------------------------------------------------------


def test_a_foot_still_down_counts_against_its_side() -> None:
    foot = ["3H", "AC", "KC", "QC", "JC", "TC", "9C", "8C", "7C", "6C", "5C"]
    state = _position(melds=[[KINGS], [["5H", "5S", "5H"]]], packets=[[], [foot], [], []])
    state.apply(Meld(Kind.SEVEN, 3, 0, 0))
    assert state.is_over
    side = state.score().sides[1]
    assert side.cards_in_hand == -(20 + 10 * 6 + 5 * 3) - 40  # the foot's cards, then seat 1's and 3's queens
    assert side.red_threes == -100


# --- more packets, and what a plugin may not combine --------------------------------------------


def test_a_knee_then_a_foot() -> None:
    state = HandState.deal(KNEE, dealer=3, scores=[0, 0], seed=2)
    assert [[len(p) for p in packets] for packets in state.packets] == [[9, 9]] * 4
    rng = random.Random(2)
    state, _ = play_random_hand(rng, seed=2, rules=KNEE)
    assert state.is_over


@pytest.mark.parametrize("name", ["classic-feet", "hand-knee-foot"])
def test_random_play_keeps_every_invariant(name: str) -> None:
    rules = packet_variants.rules(name)
    picked = 0
    for seed in range(6):
        state, _ = play_random_hand(random.Random(seed), seed=seed, rules=rules)
        assert state.is_over
        picked += sum(not p for p in state.packets)
    assert picked > 0


def test_the_reference_agrees_on_positions_of_random_play() -> None:
    checked = reference_positions(RULES, range(12))
    assert len(checked) >= 50 and sum(bool(state.packets[state.seat]) for state in checked) >= 5


def test_packets_are_copied_and_pickled_with_the_hand() -> None:
    state = HandState.deal(RULES, dealer=3, scores=[0, 0], seed=9)
    for clone in (state.copy(), copy.deepcopy(state), pickle.loads(pickle.dumps(state))):
        assert clone.packets == state.packets
        clone.packets[0][0].pop()
        assert len(state.packets[0][0]) == 11


def _variant_with(name: str, base: str, **packets: object) -> canasta.Registry:
    plugin = types.ModuleType(name.replace("-", "_"))

    @canasta.hookimpl
    def canasta_packets(players: int) -> canasta.PacketRules:
        return canasta.PacketRules(**packets)  # type: ignore[arg-type]

    plugin.canasta_packets = canasta_packets  # type: ignore[attr-defined]
    registry = canasta.Registry(autoload="builtin")
    registry.add_variant(canasta.Variant(name=name, description="a test", plugins=(plugin,), base=base))
    return registry


@pytest.mark.parametrize(
    ("base", "packets", "message"),
    [
        ("classic", {"sizes": (0,)}, "at least one card"),
        ("classic", {"sizes": (30,)}, "needs more than the 108 cards"),
        ("classic", {"sizes": (12,)}, "leaves"),
        ("modern-american-club", {"sizes": (3,)}, "cannot be combined with"),
    ],
)
def test_compile_refuses_packets_it_cannot_play(base: str, packets: dict[str, object], message: str) -> None:
    registry = _variant_with("packets-test", base, **packets)
    with pytest.raises(canasta.RulesError, match=message):
        canasta.load_rules("packets-test", registry=registry)


def test_today_variants_deal_no_packet() -> None:
    for name in ("classic", "two-player", "three-player", "six-player", "cuban", "modern-american"):
        rules = canasta.load_rules(name)
        assert rules.packets == canasta.PacketRules()
        state = HandState.deal(rules, dealer=0, scores=[0] * rules.side_count, seed=1)
        assert all(p == [] for p in state.packets)
        assert state.observation(0).packets_down == ((),) * rules.players


# --- what a person looks at ------------------------------------------------------------------


def test_pictures_and_the_terminal_show_each_packet_down_by_name_and_size_only() -> None:
    from rich.console import Console

    from canasta.render import render_observation_svg, render_table_svg
    from canasta.terminal import render_observation

    state = HandState.deal(KNEE, dealer=3, scores=[0, 0], seed=4)
    seen = state.observation(0)
    picture = render_observation_svg(seen, KNEE)
    assert picture.count("knee: 9 face down") == 4 and picture.count("foot: 9 face down") == 4
    assert "foot: 9 face down" in render_table_svg(state)
    console = Console(width=80, record=True)
    console.print(render_observation(seen, KNEE))
    text = console.export_text()
    assert "(11, knee 9, foot 9)" in text or "knee 9, foot 9)" in text
    assert max(len(line) for line in text.splitlines()) <= 80
    today = canasta.load_rules("classic")
    plain = HandState.deal(today, dealer=3, scores=[0, 0], seed=4)
    assert "face down" not in render_table_svg(plain)


def test_an_ismcts_bot_plays_with_feet_it_cannot_see() -> None:
    from canasta.ismcts import ISMCTSBot

    game = canasta.Game("classic-feet", registry=packet_variants.registry(), seed=3)
    bot = ISMCTSBot(1, iterations=15)
    for _ in range(40):
        action = bot.choose(game.hand, game.hand.seat)
        assert action in game.legal_actions()
        game.apply(action)


def test_a_game_with_feet_records_and_replays_the_same() -> None:
    registry = packet_variants.registry()
    game = canasta.Game("classic-feet", registry=registry, seed=8)
    recorder = canasta.GameRecorder(game, registry=registry)
    rng = random.Random(8)
    for _ in range(300):
        if game.is_over:
            break
        recorder.apply(rng.choice(game.legal_actions()))
    record = canasta.loads_record(recorder.record().dumps(), registry=registry)
    replayed = verify_record(record, registry=registry)
    assert replayed.hand.packets == game.hand.packets and replayed.scores == game.scores


# --- the other small concepts Hand and Foot needs (§8.1, §8.6) ---------------------------------


def _variant_with_hooks(**hooks: object) -> canasta.Rules:
    plugin = types.ModuleType("hand_and_foot_bits")
    for name, answer in hooks.items():
        setattr(plugin, name, canasta.hookimpl(_answering(name, answer)))
    registry = canasta.Registry(autoload="builtin")
    registry.add_variant(canasta.Variant(name="bits", description="a test", plugins=(plugin,), base="classic"))
    return canasta.load_rules("bits", registry=registry)


def _answering(name: str, answer: object) -> object:
    """A hook of no argument named ``name`` that answers ``answer``."""

    def hook() -> object:
        return answer

    hook.__name__ = name
    return hook


def test_a_wild_or_red_three_upcard_is_buried_below_the_top_of_the_stock() -> None:
    rules = _variant_with_hooks(canasta_upcard=canasta.Upcard.BURY_WILD_AND_RED_THREE)
    buried = 0
    for seed in range(300):
        state = HandState.deal(rules, dealer=3, scores=[0, 0], seed=seed)
        assert len(state.pile) == 1 and state.kinds[state.pile[0]] >= Kind.BLACK_THREE
        assert state.pile_freezers == 0
        check_conservation(state)
        order = canasta.hand.shuffled(len(state.deck), random.Random(seed))
        first_up = order[-(1 + 4 * 11)]  # the card the upcard would be without burying
        if state.kinds[first_up] <= Kind.RED_THREE:
            buried += 1
            assert first_up not in state.pile  # back in the stock (or drawn since, replacing a red three)
    assert buried > 5
    classic = canasta.load_rules("classic")
    assert HandState.deal(classic, dealer=3, scores=[0, 0], seed=1).pile == _classic_pile(1)


def _classic_pile(seed: int) -> list[int]:
    """Classic's pile after the deal, computed by the cover rule written out."""
    rules = canasta.load_rules("classic")
    order = canasta.hand.shuffled(108, random.Random(seed))[: -(4 * 11)]
    kinds = canasta.Deck(rules.deck).kinds
    pile = []
    while order:
        card = order.pop()
        pile.append(card)
        if kinds[card] > Kind.RED_THREE:
            break
    return pile


def test_red_threes_always_positive_score_for_a_side_that_never_melded() -> None:
    rules = _variant_with_hooks(
        canasta_threes=canasta.ThreeRules(schedule=(0, 100), sign=canasta.ThreeSign.ALWAYS_POSITIVE)
    )
    state = canasta.build_position(
        rules,
        hands=[["7C", "7D", "7H"], ["QC", "QD"], ["JC", "JD"], ["QH", "QS"]],
        melds=[[KINGS], []],
        threes=[[], ["3H", "3D", "3H"], [], []],
        phase="meld",
    )
    state.apply(Meld(Kind.SEVEN, 3, 0, 0))
    assert state.is_over and state.score().sides[1].red_threes == 300  # side 1 never melded


# --- Hand and Foot's pile (§8.5): the top 7, by a matching pair ---------------------------------

PILE = packet_variants.rules("feet-pile-of-seven")


def _pile_position(pile: list[str], hand: list[str], **kwargs: object) -> HandState:
    kwargs.setdefault("melds", [[["AC", "AD", "AH"]], [["5H", "5S", "5H"]]])
    return canasta.build_position(
        PILE, hands=[hand, ["QC", "QD"], ["JC", "JD"], ["QH", "QS"]], pile=pile, **kwargs  # type: ignore[arg-type]
    )


def test_a_take_takes_the_top_seven_and_leaves_the_rest_in_order() -> None:
    under = ["4C", "5C", "6C"]
    taken = ["8C", "8D", "9C", "9D", "TC", "TD"]
    state = _pile_position([*under, *taken, "KC"], ["KD", "KH", "4D", "4H"])
    assert state.legal_actions()[:2] == (DrawStock(), canasta.TakePile(2, 0, 0))
    state.apply(canasta.TakePile(2, 0, 0))
    codes = state.deck.cards
    assert [codes[c].code for c in state.pile] == under  # the rest stays, in order
    assert sorted(codes[c].code for k in state.hands[0] for c in k) == sorted(["4D", "4H", *taken])
    seen = state.observation(1)
    assert [c.code for c in seen.pile] == under


def test_a_wild_card_on_top_is_taken_only_with_two_of_its_kind() -> None:
    state = _pile_position(["9C", "2C"], ["2D", "2H", "*", "4D", "4H"])
    assert canasta.TakePile(0, 2, 0) in state.legal_actions()
    assert canasta.TakePile(0, 0, 2) not in state.legal_actions()
    state.apply(canasta.TakePile(0, 2, 0))
    wild = state.melds[0][Kind.JOKER]
    assert (wild.naturals, wild.twos, wild.jokers) == (0, 3, 0)
    state = _pile_position(["9C", "*"], ["2D", "2H", "*", "4D", "4H"])  # a joker on top, one joker held
    assert not [a for a in state.legal_actions() if isinstance(a, canasta.TakePile)]
    with pytest.raises(IllegalActionError, match="only with two jokers"):
        state.apply(canasta.TakePile(0, 2, 0))
    state = _pile_position(["9C", "*"], ["*", "*", "4D", "4H"])
    state.apply(canasta.TakePile(0, 0, 2))
    assert state.melds[0][Kind.JOKER].jokers == 3


def test_only_a_black_three_blocks_the_pile_and_nothing_freezes_it() -> None:
    state = _pile_position(["2C", "9C", "3S"], ["9D", "9H", "4D", "4H"])
    assert not [a for a in state.legal_actions() if isinstance(a, canasta.TakePile)]
    with pytest.raises(IllegalActionError) as refused:
        state.apply(canasta.TakePile(2, 0, 0))
    assert refused.value.code is RuleCode.PILE_BLOCKED
    state = _pile_position(["2C", "3S", "9C"], ["9D", "9H", "4D", "4H"], melds=[[], [["5H", "5S", "5H"]]])
    assert not state.pile_frozen_for(0)  # a wild card inside, a side that has not opened: still not frozen
    assert canasta.TakePile(1, 1, 0) not in state.allowed_actions()  # a natural pair only


def test_the_reference_agrees_on_positions_of_random_play_with_the_pile_of_seven() -> None:
    assert len(reference_positions(PILE, range(10))) >= 40


def test_random_play_with_the_pile_of_seven_keeps_every_invariant() -> None:
    for seed in range(6):
        state, _ = play_random_hand(random.Random(seed), seed=seed, rules=PILE)
        assert state.is_over


# --- permission required, at any point before the discard (§8.8) --------------------------------


def _required_permission() -> canasta.Rules:
    plugin = types.ModuleType("permission_required")

    @canasta.hookimpl(wrapper=True)
    def canasta_going_out() -> Generator[None, canasta.GoingOutRules, canasta.GoingOutRules]:
        going_out: canasta.GoingOutRules = yield
        return attrs.evolve(going_out, permission=canasta.Permission.REQUIRED)

    plugin.canasta_going_out = canasta_going_out  # type: ignore[attr-defined]
    registry = packet_variants.registry()
    registry.add_variant(
        canasta.Variant(name="feet-asking", description="a test", plugins=(plugin,), base="classic-feet")
    )
    return canasta.load_rules("feet-asking", registry=registry)


ASKING = _required_permission()


def test_going_out_needs_a_yes_asked_at_any_point_of_the_turn() -> None:
    position = {
        "hands": [["7C", "7D", "7H", "9C", "9D", "9H"], ["QC", "QD"], ["JC", "JD"], ["QH", "QS"]],
        "melds": [[KINGS], [["5H", "5S", "5H"]]],
        "phase": "meld",
    }
    state = canasta.build_position(ASKING, **position)  # type: ignore[arg-type]
    state.apply(Meld(Kind.SEVEN, 3, 0, 0))  # melding first does not stop the asking
    assert Meld(Kind.NINE, 3, 0, 0) not in state.legal_actions()  # going out without a "yes"
    with pytest.raises(IllegalActionError, match='needs your partner\'s "yes" this turn'):
        state.apply(Meld(Kind.NINE, 3, 0, 0))
    assert AskGoOut() in state.legal_actions()
    yes = state.copy()
    yes.apply(AskGoOut())
    yes.apply(canasta.AnswerGoOut(True))
    assert yes.legal_actions() == (Meld(Kind.NINE, 3, 0, 0),)  # the "yes" binds
    yes.apply(Meld(Kind.NINE, 3, 0, 0))
    assert yes.is_over and yes.went_out == 0
    no = state.copy()
    no.apply(AskGoOut())
    no.apply(canasta.AnswerGoOut(False))
    assert Meld(Kind.NINE, 3, 0, 0) not in no.legal_actions() and AskGoOut() not in no.legal_actions()
    # In classic's protocol (optional, before melding) the same meld goes out without asking.
    plain = canasta.build_position(RULES, **position)  # type: ignore[arg-type]
    plain.apply(Meld(Kind.SEVEN, 3, 0, 0))
    assert AskGoOut() not in plain.legal_actions() and Meld(Kind.NINE, 3, 0, 0) in plain.legal_actions()


def test_the_reference_agrees_where_permission_is_required() -> None:
    checked = reference_positions(ASKING, range(10))
    assert len(checked) >= 40 and sum(AskGoOut() in state.legal_actions() for state in checked) >= 3
