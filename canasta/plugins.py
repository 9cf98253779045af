"""Per-game plugin managers and the compilation of hook answers into `Rules`.

Each game gets its own `pluggy.PluginManager` holding the core defaults, the
variant's plugin stack and the chosen house rules; never one global manager.
The hooks are asked once, here, and the answers are validated and frozen.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

import attrs
import pluggy

from canasta import defaults, hookspecs
from canasta import rules as r
from canasta.cards import MAX_JOKERS, MAX_PACKS, DeckSpec, Kind
from canasta.errors import RulesError
from canasta.hookcheck import answering_plugin, ask, register, rule_sections
from canasta.markers import PROJECT, hookimpl
from canasta.meldtypes import (
    BUILT_IN_KINDS,
    BlackThreeShape,
    GroupShape,
    MeldShape,
    MeldType,
    SequenceShape,
    SequenceType,
    WildShape,
    has_own_shape,
)
from canasta.registry import Registry, default_registry, house_rule_names
from canasta.rules import Rules
from canasta.special import SpecialHand

# `hookimpl` is re-exported (``canasta.plugins.hookimpl``, ``canasta.hookimpl``); it lives in `canasta.markers`.
__all__ = ["compile_rules", "hookimpl", "load_rules", "make_plugin_manager"]

T = TypeVar("T")


def make_plugin_manager(stack: Sequence[tuple[str, object]]) -> pluggy.PluginManager:
    """Build a plugin manager for one game.

    Args:
        stack: ``(name, plugin)`` pairs in registration order: later plugins
            override earlier ones. The core defaults are registered first
            automatically.

    Returns:
        The manager, with every hook implementation checked against its spec.

    Raises:
        PluginError: If a plugin implements an unknown hook or has a bad
            signature; the message names the plugin and the hook.
    """
    pm = pluggy.PluginManager(PROJECT)
    pm.add_hookspecs(hookspecs)
    pm.register(defaults, name="canasta.defaults")
    for name, plugin in stack:
        register(pm, plugin, name)
    return pm


def _ask(pm: pluggy.PluginManager, hook: str, expected: type[T], **kwargs: Any) -> T:
    return ask(pm, hook, expected, **kwargs)


class _AnswerError(RulesError):
    """An answer failed a range check; `compile_rules` adds the plugin that gave it."""


def _check(condition: bool, message: str) -> None:
    # Messages start with the hook's name ("canasta_hand_size: ...").
    if not condition:
        raise _AnswerError(message)


def compile_rules(
    pm: pluggy.PluginManager, variant: str, house_rules: Sequence[str] = (), *, players: int | None = None
) -> Rules:
    """Ask every rule hook once and freeze the answers.

    Every answer is checked: its type (field by field for the policy objects)
    and its range (a negative hand size, a deck too small for the deal, a
    minimum table out of order, sides that are not numbered ``0..n-1``, ...).

    Args:
        pm: A manager from `make_plugin_manager`.
        variant: The variant's name (recorded in the rules).
        house_rules: Names of the stacked house rules (recorded in the rules).
        players: The number of players, one of the variant's
            ``canasta_player_counts`` (``None``, the default: its
            ``canasta_players`` count). The hooks that take ``players`` are
            asked with it.

    Returns:
        The validated `canasta.Rules`.

    Raises:
        RulesError: If an answer is missing or invalid; the message names the
            hook and the plugin that gave the answer (or the wrapper that
            returned nothing in its place). Also if the variant does not play
            ``players`` players (the message lists the counts it plays).
        TypeError: If ``players`` is not an integer (``bool`` is not).
        PluginError: If a hook raised (`SystemExit` included; only
            `KeyboardInterrupt` passes); the message names the plugin and the
            hook.
    """
    if players is not None and not _is_int(players):
        raise TypeError(f"players must be an integer number of players, got {players!r}")
    try:
        return _compile(pm, variant, house_rules, players)
    except _AnswerError as exc:
        message = str(exc)
        hook = message.split(":", 1)[0]
        kwargs = {"players": players} if players is not None else None
        source = answering_plugin(pm, hook, kwargs) if hook.startswith("canasta_") else "unknown plugin"
        raise RulesError(f"{message} (answer from {source})") from None


def _player_counts(pm: pluggy.PluginManager, default: int) -> tuple[int, ...]:
    """The counts the variant plays, sorted: the answer of ``canasta_player_counts``, or the default count alone."""
    if not pm.hook.canasta_player_counts.get_hookimpls():
        return (default,)
    counts = _ask(pm, "canasta_player_counts", tuple[int, ...])
    _check(
        bool(counts) and all(_is_int(n) and 2 <= n <= 8 for n in counts) and len(set(counts)) == len(counts),
        f"canasta_player_counts: counts of 2 to 8 players, none twice, expected, got {counts}",
    )
    _check(
        default in counts,
        f"canasta_player_counts: the default count {default} (canasta_players) is not among the counts {counts}",
    )
    return tuple(sorted(counts))


def _counts_text(counts: Sequence[int]) -> str:
    """``"2, 3, 4, 5 or 6"``."""
    words = [str(n) for n in counts]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def _compile(pm: pluggy.PluginManager, variant: str, house_rules: Sequence[str], chosen: int | None) -> Rules:
    default = _ask(pm, "canasta_players", int)
    _check(2 <= default <= 8, f"canasta_players: {default} players is not supported (2 to 8)")
    player_counts = _player_counts(pm, default)
    if chosen is not None and chosen not in player_counts:
        raise RulesError(
            f"variant {variant!r} is not played by {chosen} players: it plays {_counts_text(player_counts)} players"
        )
    players = default if chosen is None else chosen
    sides = _ask(pm, "canasta_sides", tuple[int, ...], players=players)
    _check(len(sides) == players, f"canasta_sides: {len(sides)} seats given for {players} players")
    _check(
        all(isinstance(s, int) for s in sides) and set(sides) == set(range(max(sides) + 1)),
        f"canasta_sides: sides must be numbered 0..n-1 with every side seated, got {sides}",
    )
    _check(max(sides) >= 1, "canasta_sides: at least two sides are needed")
    deck = _ask(pm, "canasta_deck", DeckSpec, players=players)
    # (At most 63 cards of a kind: the engine's meld tables and cache keys hold a kind's count in 6 bits.)
    _check(
        1 <= deck.packs <= MAX_PACKS and 0 <= deck.jokers <= MAX_JOKERS,
        f"canasta_deck: invalid deck {deck} (1 to {MAX_PACKS} packs, 0 to {MAX_JOKERS} jokers)",
    )
    hand_size = _ask(pm, "canasta_hand_size", int, players=players)
    _check(hand_size >= 1, f"canasta_hand_size: hand size must be positive, got {hand_size}")
    _check(
        hand_size * players + 2 <= deck.size,
        f"canasta_hand_size: dealing {hand_size} cards to {players} players needs more than the {deck.size} cards",
    )
    draw_count = _ask(pm, "canasta_draw_count", int)
    _check(1 <= draw_count <= 5, f"canasta_draw_count: must be 1 to 5, got {draw_count}")
    values = _ask(pm, "canasta_card_values", tuple[int, ...])
    _check(
        len(values) == 15 and all(isinstance(v, int) and v >= 0 for v in values),
        "canasta_card_values: 15 non-negative integers (one per Kind) expected",
    )
    minimums = _ask(pm, "canasta_meld_minimums", r.MeldMinimums)
    _check_minimums(minimums)
    melds = _ask(pm, "canasta_meld_rules", r.MeldRules)
    _check(
        melds.min_size >= 2 and melds.min_naturals >= 1 and (melds.max_wilds is None or melds.max_wilds >= 0),
        f"canasta_meld_rules: invalid limits {melds}",
    )
    _check(
        melds.min_naturals <= melds.min_size <= melds.canasta_size,
        f"canasta_meld_rules: need min_naturals <= min_size <= canasta_size, got {melds.min_naturals}, "
        f"{melds.min_size}, {melds.canasta_size}",
    )
    _check(
        melds.max_size is None or melds.max_size >= melds.canasta_size,
        "canasta_meld_rules: max_size must allow a canasta",
    )
    going_out = _ask(pm, "canasta_going_out", r.GoingOutRules, players=players)
    _check(going_out.canastas_required >= 0, "canasta_going_out: canastas_required must not be negative")
    _check(
        going_out.bonus >= 0 and (going_out.concealed_bonus is None or going_out.concealed_bonus >= 0),
        "canasta_going_out: bonuses must not be negative",
    )
    wild_books = sum(n for cls, n in going_out.canastas_by_class if cls is r.CanastaClass.WILD)
    _check(
        not wild_books or melds.wild_melds,
        f"canasta_going_out: the quota needs {wild_books} wild canasta(s), but wild melds are not allowed "
        f"(MeldRules.wild_melds off, canasta_meld_rules answer from {answering_plugin(pm, 'canasta_meld_rules')}), "
        "so nobody could go out",
    )
    meld_types = _meld_types(pm)
    exhaustion = _ask(pm, "canasta_stock_exhaustion", r.ExhaustionRules)
    _check(
        not (meld_types and (exhaustion.last_red_three_may_meld or exhaustion.reshuffle_pile_at)),
        "canasta_stock_exhaustion: rule sets with meld types (canasta_meld_types) do not play "
        "last_red_three_may_meld or reshuffle_pile_at yet",
    )
    _check(
        not (meld_types and (melds.wilds_need_naturals or melds.naturals_per_wild or melds.closed_at_canasta)),
        "canasta_meld_rules: rule sets with meld types (canasta_meld_types) state their meld limits in the "
        "meld types, not in MeldRules",
    )
    _check(
        not minimums.canastas or bool(meld_types),
        "canasta_meld_minimums: canasta bands (an opening that must contain a canasta) are read only by rule sets "
        "with meld types (canasta_meld_types)",
    )
    # A quota asking for sequence canastas needs sequences among the meld types.
    sequence_books = sum(n for cls, n in going_out.canastas_by_class if cls is r.CanastaClass.SEQUENCE)
    _check(
        not sequence_books or any(isinstance(t, SequenceType) for t in meld_types),
        f"canasta_going_out: the quota needs {sequence_books} sequence canasta(s), but the rule set has no "
        "sequence meld type (canasta_meld_types), so nobody could go out",
    )
    # A quota asking for special canastas (CanastaClass.SPECIAL) needs ranks that make them, meldable naturally.
    special_books = sum(n for cls, n in going_out.canastas_by_class if cls is r.CanastaClass.SPECIAL)
    _check(
        not special_books or bool(melds.special_ranks - melds.closed),
        f"canasta_going_out: the quota needs {special_books} special canasta(s), but no rank makes one "
        "(MeldRules.special_ranks empty, canasta_meld_rules answer from "
        f"{answering_plugin(pm, 'canasta_meld_rules')}), so nobody could go out",
    )
    _check(
        not (melds.special_ranks and meld_types),
        "canasta_meld_rules: special_ranks are read by the rank engine only; rule sets with meld types "
        "(canasta_meld_types) give a canasta's class in their meld types",
    )
    permission = going_out.permission
    partnerships = _ask(pm, "canasta_partnerships", r.PartnershipRules)
    # Partners at the table, or partners a partnership rule will make (cutthroat ⟨A⟩: they may ask).
    has_partners = len(set(sides)) < len(sides) or partnerships.first_taker_alone
    if not has_partners and permission is not r.Permission.NONE:
        going_out = _evolve(going_out, permission=r.Permission.NONE)
    target = _optional_target(pm)
    game_length = _ask(pm, "canasta_game_length", r.GameLength, target_score=target)
    _check(
        game_length.target_score is not None or game_length.deals is not None,
        "canasta_game_length: the game never ends: a target_score, a number of deals, or both are needed"
        + ("" if target is not None else " (and no plugin answers canasta_target_score)"),
    )
    _check(
        game_length.target_score is None or game_length.target_score > 0,
        f"canasta_game_length: target_score must be positive, got {game_length.target_score}",
    )
    _check(
        game_length.deals is None or game_length.deals > 0,
        f"canasta_game_length: deals must be positive, got {game_length.deals}",
    )
    threes = _ask(pm, "canasta_threes", r.ThreeRules)
    _check(len(threes.schedule) >= 2 and threes.schedule[0] == 0, "canasta_threes: schedule must start (0, ...)")
    _check(all(v >= 0 for v in threes.schedule), f"canasta_threes: scores must not be negative, got {threes.schedule}")
    _check(
        threes.red_threes_are_bonus or not threes.keep_one,
        "canasta_threes: keep_one keeps a bonus three in hand, but red_threes_are_bonus is False (red threes are "
        "ordinary cards)",
    )
    _check(
        not threes.red_held or not threes.red_threes_are_bonus,
        f"canasta_threes: red_held ({threes.red_held}) scores red threes held as ordinary cards, which needs "
        "red_threes_are_bonus False",
    )
    penalties = _ask(pm, "canasta_incomplete_meld_penalties", tuple[tuple[Kind, int], ...])
    _check(
        all(isinstance(p, tuple) and len(p) == 2 and _is_kind(p[0]) and _is_int(p[1]) and p[1] >= 0 for p in penalties),
        f"canasta_incomplete_meld_penalties: (Kind, non-negative int) pairs expected, got {penalties}",
    )
    natural_penalties = _ask(pm, "canasta_incomplete_natural_meld_penalties", tuple[tuple[Kind, int], ...])
    _check(
        all(
            isinstance(p, tuple) and len(p) == 2 and _is_kind(p[0]) and _is_int(p[1]) and p[1] >= 0
            for p in natural_penalties
        ),
        f"canasta_incomplete_natural_meld_penalties: (Kind, non-negative int) pairs expected, got {natural_penalties}",
    )
    held = _ask(pm, "canasta_held_card_penalties", tuple[tuple[Kind, int, int], ...])
    _check(
        all(
            isinstance(p, tuple)
            and len(p) == 3
            and _is_kind(p[0])
            and _is_int(p[1])
            and p[1] >= 1
            and _is_int(p[2])
            and p[2] >= 0
            for p in held
        ),
        f"canasta_held_card_penalties: (Kind, positive int, non-negative int) triples expected, got {held}",
    )
    special_hands = _ask(pm, "canasta_special_hands", tuple[SpecialHand, ...])
    _check(
        all(
            isinstance(h, SpecialHand)
            and _is_int(h.value)
            and h.value > 0
            and callable(h.matches)
            and (h.screen is None or callable(h.screen))
            for h in special_hands
        )
        and len({h.id for h in special_hands}) == len(special_hands),
        f"canasta_special_hands: SpecialHand values with unique ids and positive values expected, got {special_hands}",
    )
    _check(
        not partnerships.first_taker_alone or len(set(sides)) >= 3,
        "canasta_partnerships: first_taker_alone needs at least three sides",
    )
    packets = _ask(pm, "canasta_packets", r.PacketRules, players=players)
    _check(
        all(size >= 1 for size in packets.sizes),
        f"canasta_packets: every packet holds at least one card, got sizes {packets.sizes}",
    )
    _check(
        len(packets.names) in (0, len(packets.sizes))
        and all(1 <= len(n) <= 20 and n.isprintable() for n in packets.names),
        f"canasta_packets: names must name every packet (1 to 20 printable characters each), got {packets.names}",
    )
    _check(
        not packets.after_first_canasta or bool(packets.sizes),
        "canasta_packets: after_first_canasta earns the next packet by a canasta, but no packet is dealt (sizes empty)",
    )
    # Red (and, where bonus, black) threes: two of each colour per pack.
    bonus_threes = 2 * deck.packs * (int(threes.red_threes_are_bonus) + int(threes.black_threes_are_bonus))
    _check(
        packets.replace_threes or all(size >= bonus_threes + 2 for size in packets.sizes),
        f"canasta_packets: threes laid out without replacement (replace_threes False) need every packet to hold at "
        f"least 2 cards more than the deck's {bonus_threes} bonus threes, got sizes {packets.sizes}",
    )
    _check(
        (hand_size + sum(packets.sizes)) * players + 2 <= deck.size,
        f"canasta_packets: dealing {hand_size} cards and packets of {packets.sizes} to {players} players needs "
        f"more than the {deck.size} cards",
    )
    rules = r.Rules(
        variant=variant,
        house_rules=tuple(house_rules),
        players=players,
        sides=sides,
        deck=deck,
        hand_size=hand_size,
        draw_count=draw_count,
        upcard=_ask(pm, "canasta_upcard", r.Upcard),
        card_values=values,
        minimums=minimums,
        initial_meld=_ask(pm, "canasta_initial_meld", r.InitialMeldRules),
        pile=_ask(pm, "canasta_pile_rules", r.PileRules),
        melds=melds,
        canasta_bonuses=_ask(pm, "canasta_canasta_bonuses", r.CanastaBonuses),
        threes=threes,
        black_threes=_ask(pm, "canasta_black_threes", r.BlackThreeRules),
        going_out=going_out,
        exhaustion=exhaustion,
        game_length=game_length,
        incomplete_meld_penalties=penalties,
        incomplete_natural_meld_penalties=tuple((Kind(k), p) for k, p in natural_penalties),
        held_card_penalties=tuple((Kind(k), n, p) for k, n, p in held),
        special_hands=special_hands,
        partnerships=partnerships,
        packets=packets,
        meld_types=meld_types,
        rule_sections=rule_sections(pm),
        player_counts=player_counts,
    )
    _check_policies(rules)
    _check_deal(rules)
    return rules


#: The shapes of the built-in kinds (a type of a shape of its own judges a class of its own).
_BUILT_IN_SHAPES = (GroupShape, SequenceShape, WildShape, BlackThreeShape)


def _meld_types(pm: pluggy.PluginManager) -> tuple[MeldType, ...]:
    """The answer of ``canasta_meld_types``: meld types, at most one of each class."""
    answer = _ask(pm, "canasta_meld_types", tuple)
    _check(
        all(isinstance(t, MeldType) for t in answer),
        f"canasta_meld_types: a tuple of canasta.meldtypes.MeldType values expected, got {answer!r}",
    )
    # The engine lays, grows and searches the four shapes it knows; a type of a shape of its own must say which
    # cards make its melds and which of a hand's cards may form one (`canasta.ownshapes`), or it is never offered.
    kinds = BUILT_IN_KINDS
    for t in answer:
        if not has_own_shape(t):
            continue
        missing = [
            name
            for name in ("shape_of", "cards_of", "lays")
            if getattr(type(t), name) is getattr(MeldType, name)
        ]
        _check(
            not missing,
            f"canasta_meld_types: {t!r} has a shape of its own (it derives from none of GroupType, SequenceType, "
            f"WildMeldType and BlackThreeGroupType), so it must tell the engine {', '.join(missing)} "
            "(MeldType.shape_of, cards_of, lays; additions if its melds grow): the engine cannot lay or "
            "search it otherwise",
        )
        shape = getattr(t, "shape", None)
        _check(
            isinstance(shape, type) and issubclass(shape, MeldShape) and shape not in _BUILT_IN_SHAPES,
            f"canasta_meld_types: {t!r} has a shape of its own, so its shape class must be its own MeldShape "
            f"subclass (not one of the built-in kinds'), got {shape!r}",
        )
        _check(
            isinstance(getattr(t, "name", None), str)
            and bool(t.name)
            and sum(getattr(other, "name", None) == t.name for other in answer) == 1,
            f"canasta_meld_types: {t!r} needs a name of its own (its actions name it), "
            f"got {getattr(t, 'name', None)!r}",
        )
        _check(
            not t.going_out_only and type(t).combine is MeldType.combine,
            f"canasta_meld_types: {t!r}: a type of a shape of its own is not laid only going out, nor combined "
            "(the engine does not play that yet)",
        )
    _check(
        all(sum(isinstance(t, kind) for t in answer) <= 1 for kind in kinds),
        f"canasta_meld_types: at most one meld type of each kind (group, sequence, wild meld, black threes), "
        f"got {answer!r}",
    )
    return answer


def _optional_target(pm: pluggy.PluginManager) -> int | None:
    """The answer of ``canasta_target_score``, or ``None`` if no plugin answers (a game of a number of deals)."""
    if pm.hook.canasta_target_score.get_hookimpls():
        target = _ask(pm, "canasta_target_score", int)
        _check(target > 0, f"canasta_target_score: must be positive, got {target}")
        return target
    return None


def _check_minimums(minimums: r.MeldMinimums) -> None:
    """Range checks of the minimum table: by score (steps from 0, rising) or by deal, never both."""
    if minimums.by_deal:
        _check(
            not minimums.steps and minimums.below_zero == 0,
            "canasta_meld_minimums: a table is by deal or by score, not both: by_deal given with steps "
            f"{minimums.steps} and below_zero {minimums.below_zero}",
        )
        _check(
            all(m >= 0 for m in minimums.by_deal),
            f"canasta_meld_minimums: minimums must not be negative, got {minimums.by_deal}",
        )
        return
    thresholds = [t for t, _ in minimums.steps]
    _check(
        bool(thresholds) and thresholds[0] == 0 and thresholds == sorted(set(thresholds)),
        f"canasta_meld_minimums: steps must start at 0 and increase, got {minimums.steps}",
    )
    _check(
        all(m >= 0 for _, m in minimums.steps) and minimums.below_zero >= 0,
        "canasta_meld_minimums: minimums must not be negative",
    )
    # (Where a band asks for a canasta the count may fall: Brazilian canasta's 7000 band needs a canasta, no count.)
    step_minimums = [m for t, m in minimums.steps if not minimums.canastas_for(t)]
    _check(
        step_minimums == sorted(step_minimums),
        f"canasta_meld_minimums: minimums must not fall as the score rises, got {minimums.steps}",
    )
    band_starts = [t for t, _ in minimums.canastas]
    _check(
        band_starts == sorted(set(band_starts)) and all(t >= 0 for t in band_starts),
        f"canasta_meld_minimums: canasta bands must start at 0 or more and increase, got {minimums.canastas}",
    )


def _check_deal(rules: Rules) -> None:
    """Every deal leaves the first player a stock to draw from, whatever the order of the cards.

    After the deal, the stock pays for the upcard (with ``COVER_WILD_AND_RED_THREE``,
    every wild card and red three turned on it, then the natural card that stops
    it) and for a replacement of every bonus three (red threes, and black threes
    where they are bonus) laid out on the deal. In the worst order of the deck
    that is all of them; if the stock cannot pay for it and keep a card, some
    deals end the hand before anyone acts (the stock runs out on the deal), and
    with rules where that is likely every hand of a game ends so, without end.
    """
    deck = rules.deck
    packs = deck.packs
    bonus_threes = (2 * packs if rules.threes.red_threes_are_bonus else 0) + (
        2 * packs if rules.threes.black_threes_are_bonus else 0
    )
    covered = 4 * packs + deck.jokers + 1 if rules.upcard is r.Upcard.COVER_WILD_AND_RED_THREE else 0
    if rules.upcard in (r.Upcard.BURY_WILD_AND_RED_THREE, r.Upcard.TURN_ONE):
        covered = 1  # (one card is turned up: a buried one goes back into the stock)
    taken = bonus_threes + covered
    dealt = rules.hand_size + sum(rules.packets.sizes)  # (the packets' cards are dealt too)
    left = deck.size - dealt * rules.players
    most = (deck.size - taken - 1) // rules.players
    _check(
        left > taken,
        f"canasta_hand_size: dealing {dealt} cards to {rules.players} players leaves {left} of the "
        f"{deck.size} cards in the stock, but the upcard and the replacement of bonus threes may take {taken} of them "
        "(in the worst order of the deck), leaving the first player no stock to draw from: at most "
        f"{max(most, 0)} cards a player with these rules",
    )


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_kind(value: object) -> bool:
    return _is_int(value) and value in Kind._value2member_map_


def _check_policies(rules: Rules) -> None:
    """Range checks of the policy objects asked inside the `Rules` call (their types are already checked)."""
    reshuffle = rules.exhaustion.reshuffle_pile_at
    # A hand must end: with a new stock of at least 2 cards and draws of at least 2, the stock and the pile
    # together lose a card for good at the next stock draw (two drawn, one discarded); a stock of 1, or a
    # draw of 1, could be refilled from the same cards forever.
    _check(
        reshuffle == 0 or reshuffle >= 3,
        "canasta_stock_exhaustion: reshuffle_pile_at must be 0 (never) or 3 or more (the top card stays, and a "
        f"new stock of one card could be drawn and refilled forever), got {reshuffle}",
    )
    _check(
        reshuffle == 0 or rules.draw_count >= 2,
        f"canasta_stock_exhaustion: reshuffle_pile_at needs a draw of 2 cards or more, not {rules.draw_count} (with "
        "a draw of one card and a discard, the stock and the pile would never shrink)",
    )
    pile = rules.pile
    _check(
        pile.take_count is None or pile.take_count >= 1,
        f"canasta_pile_rules: take_count must be 1 or more (or None: the whole pile), got {pile.take_count}",
    )
    _check(
        pile.take_count is None or not pile.empty_pile_stops,
        "canasta_pile_rules: take_count cannot be combined with empty_pile_stops (american-discards reads the pile "
        "as empty after a take)",
    )
    _check(
        not rules.melds.add_to_books or rules.melds.book_makes_room,
        "canasta_meld_rules: add_to_books adds to books, which needs book_makes_room (melds set apart as books)",
    )
    _check(
        not rules.melds.several_melds or rules.melds.book_makes_room,
        "canasta_meld_rules: several_melds needs book_makes_room (melds set apart as books; the going-out search "
        "counts canastas by class)",
    )
    _check(
        not rules.melds.wilds_onto_books or (rules.melds.add_to_books and rules.melds.max_wilds is not None),
        "canasta_meld_rules: wilds_onto_books adds wild cards to dirty books up to max_wilds, which needs "
        "add_to_books and a max_wilds",
    )
    _check(
        not pile.wild_pair or rules.melds.wild_melds,
        "canasta_pile_rules: wild_pair melds the top card into the wild meld, which needs MeldRules.wild_melds",
    )
    if rules.packets.sizes:
        # What "legal" means never depends on a packet's unseen cards (Hand and Foot, §8.10 E8): the engine
        # relies on any card of a picked-up packet being able to end the turn, and on the seating holding.
        conflicts = [
            name
            for name, on in (
                (
                    "discard rules that depend on the hand (american-discards)",
                    bool(rules.pile.empty_pile_stops) or rules.pile.wild_discard_needs_wild_hand,
                ),
                ("keeping a three (ThreeRules.keep_one)", rules.threes.keep_one),
                ("special hands", bool(rules.special_hands)),
                ("bonus cards (InitialMeldRules.bonus_cards)", bool(rules.initial_meld.bonus_cards)),
                ("partnerships formed during the hand (first_taker_alone)", rules.partnerships.first_taker_alone),
                ("a last-card red three that may meld", rules.exhaustion.last_red_three_may_meld),
            )
            if on
        ]
        _check(
            not conflicts,
            f"canasta_packets: packets cannot be combined with {', '.join(conflicts)}: with them, what is legal "
            "would depend on the cards of a packet nobody has seen",
        )
    im = rules.initial_meld
    _check(
        im.clean_meld_naturals <= rules.melds.canasta_size,
        f"canasta_initial_meld: clean_meld_naturals {im.clean_meld_naturals} exceeds the canasta size",
    )
    _check(all(n >= 0 for n in im.bonus_cards), "canasta_initial_meld: bonus_cards must not be negative")
    cb = rules.canasta_bonuses
    bonus_values = [
        cb.natural,
        cb.mixed,
        cb.wild,
        cb.sequence,
        *(v for _, v in cb.natural_by_rank),
        *(v for _, v in cb.wild_by_jokers),
    ]
    _check(all(v >= 0 for v in bonus_values), f"canasta_canasta_bonuses: bonuses must not be negative, got {cb}")
    melds = rules.melds
    _check(
        not melds.closed_at_canasta
        or (melds.max_size == melds.canasta_size and not rules.partnerships.first_taker_alone),
        "canasta_meld_rules: closed_at_canasta needs max_size equal to canasta_size (a canasta closes its rank at "
        "once), and no partnerships formed during a hand",
    )
    _check(
        not melds.book_makes_room
        or (
            melds.max_size == melds.canasta_size
            and not melds.closed_at_canasta
            and not rules.partnerships.first_taker_alone
        ),
        "canasta_meld_rules: book_makes_room needs max_size equal to canasta_size (a book is closed), not "
        "closed_at_canasta, and no partnerships formed during a hand",
    )
    by_class = bool(rules.going_out.canastas_by_class) or melds.book_makes_room
    _check(
        not by_class or not (melds.wild_meld_first or rules.partnerships.first_taker_alone),
        "canasta_going_out: canastas counted by class (canastas_by_class, or books that make room) do not combine "
        "with wild_meld_first or partnerships formed during a hand",
    )
    bt = rules.black_threes
    _check(
        bt.in_hand_penalty >= 0 and all(v >= 0 for v in bt.set_aside_schedule),
        f"canasta_black_threes: penalty and schedule must not be negative, got {bt}",
    )


def _evolve(value: T, **changes: Any) -> T:
    return attrs.evolve(value, **changes)  # type: ignore[misc]


def load_rules(
    variant: str, house_rules: Sequence[str] = (), *, registry: Registry | None = None, players: int | None = None
) -> Rules:
    """Compile the rules of a variant plus house rules, by name.

    Compiled rules are cached per registry, so creating many games is cheap.

    Args:
        variant: The variant's name, e.g. ``"classic"``.
        house_rules: House-rule names, stacked in this order.
        registry: The `canasta.Registry` to look names up in (default: the
            process-wide one).
        players: The number of players, one of the counts the variant plays
            (`canasta.Rules.playable_counts`; the hook
            ``canasta_player_counts``). ``None`` (the default): the variant's
            default count. A house rule that fits the variant fits at every
            count its answers are valid for.

    Returns:
        The compiled `canasta.Rules`.

    Raises:
        UnknownNameError: If a name is unknown.
        PluginError: If a plugin is broken or a house rule does not fit.
        RulesError: If the hooks' answers are invalid, or the variant does not
            play ``players`` players (the message lists the counts it plays).
        TypeError: If ``house_rules`` is a string, not a sequence of names
            (``["cutthroat"]``, not ``"cutthroat"``), or ``players`` is not an
            integer.
    """
    reg = registry if registry is not None else default_registry()
    names = house_rule_names(house_rules)
    if players is not None and not _is_int(players):
        raise TypeError(f"players must be an integer number of players, got {players!r}")
    key = (variant, names, players)
    rules = reg.rules_cache.get(key)
    if rules is None:
        if players is not None:
            try:
                default: Rules | None = load_rules(variant, names, registry=reg)
            except RulesError:  # (a house rule whose answers do not hold at the default count: the chosen may do)
                default = None
            if default is not None and default.players == players:  # the default by number: the same object
                reg.rules_cache[key] = default
                return default
        pm = make_plugin_manager(reg.plugin_stack(variant, house_rules))
        rules = reg.rules_cache[key] = compile_rules(pm, variant, house_rules, players=players)
    return rules


def chosen_rules(
    variant: str,
    house_rules: Sequence[str],
    rules: Rules | None,
    players: int | None,
    *,
    registry: Registry | None = None,
) -> Rules:
    """The rules a constructor taking names, ``rules=`` and ``players=`` plays (`canasta.Game`, the RL envs).

    Args:
        variant: The variant's name (looked up only without ``rules``).
        house_rules: House-rule names (likewise).
        rules: Already compiled rules, or ``None``.
        players: The number of players, or ``None`` (the variant's default, or the rules' own).
        registry: The `canasta.Registry` to look names up in (default: the process-wide one).

    Returns:
        ``rules`` if given, else `load_rules` of the names and ``players``.

    Raises:
        RulesError: If ``rules`` are given for another number of players than
            ``players``, or the variant does not play ``players`` players.
    """
    if rules is None:
        return load_rules(variant, house_rules, registry=registry, players=players)
    if players is not None and players != rules.players:
        raise RulesError(f"players={players!r} was given with rules for {rules.players} players")
    return rules
