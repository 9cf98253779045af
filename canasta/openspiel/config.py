"""The parameters of the OpenSpiel game and what they compile to: `GameConfig`.

A game string such as ``python_canasta(variant=cuban,house_rules=black-three-freezes)``
carries four parameters (`DEFAULT_PARAMETERS`). `GameConfig` checks them and
compiles the rules, the action ids (`canasta.rl.ActionSpace`) and the
observation encoder once per game; every state of the game shares it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from canasta.errors import CanastaError
from canasta.meldtypes import SequenceType
from canasta.plugins import load_rules
from canasta.registry import Registry, default_registry
from canasta.rl.actions import ActionSpace, most_open_melds
from canasta.rl.observations import ObservationEncoder
from canasta.rules import Rules
from canasta.suitedactions import MELD_SLOTS

__all__ = [
    "DEFAULT_PARAMETERS",
    "HOUSE_RULE_SEPARATOR",
    "ConfiguredGame",
    "GameConfig",
    "ParameterError",
    "hand_score_bound",
]

#: The game's parameters and their defaults: the variant's name, the house rules'
#: names joined by `HOUSE_RULE_SEPARATOR`, one hand (``False``) or a whole
#: game to the target score (``True``), and the number of players (one the
#: variant plays, `canasta.Rules.playable_counts`; ``0``: the variant's default).
DEFAULT_PARAMETERS: dict[str, str | bool | int] = {
    "variant": "classic",
    "house_rules": "",
    "whole_game": False,
    "players": 0,
}

#: Joins house-rule names in the ``house_rules`` parameter (OpenSpiel's game
#: strings use the comma between parameters).
HOUSE_RULE_SEPARATOR = "+"


class ParameterError(CanastaError, ValueError):
    """A parameter of the OpenSpiel game is unknown or has the wrong type or value."""


def hand_score_bound(rules: Rules) -> int:
    """A bound on the absolute value of any side's score for one hand under these rules.

    Scoring (`canasta.scoring`) adds card values of melded cards, canasta
    bonuses, three bonuses, the going-out bonus, and subtracts the values of
    cards left in hand and incomplete-meld penalties; each term is bounded by
    the deck: every card counted once at the largest value a card can have
    (in hand or melded), one bonus per possible canasta at the largest bonus,
    the largest three score for each colour and for set-aside black threes,
    the largest going-out bonus, and each penalty for at most two melds of its
    rank (a side holds at most two melds of a rank, under ``cutthroat``; under
    `canasta.MeldRules.several_melds` as many as
    `canasta.rl.actions.most_open_melds` allows), and
    the points of every red three of the deck left in a packet still down
    (`canasta.PacketRules.three_down`; none in today's variants). Under rules with
    meld types (the sequence games) the sequence canasta's bonus is among the
    bonuses, and a sequence type's end penalty (Brazilian canasta's short
    sequence) counts for every meld number a side may use
    (`canasta.suitedactions.MELD_SLOTS`).

    Args:
        rules: The compiled rules.

    Returns:
        The bound, in points (loose, never exceeded).
    """
    size = rules.deck.size
    card = max(*rules.card_values, rules.black_threes.in_hand_penalty)
    bonuses = rules.canasta_bonuses
    best_bonus = max(
        bonuses.natural,
        bonuses.mixed,
        bonuses.wild,
        *(value for _, value in bonuses.natural_by_rank),
        *(value for _, value in bonuses.wild_by_jokers),
        bonuses.sequence,
    )
    canastas = size // max(1, rules.melds.canasta_size)
    threes = 2 * max(abs(v) for v in rules.threes.schedule) + max(abs(v) for v in rules.black_threes.set_aside_schedule)
    going_out = max(rules.going_out.bonus, rules.going_out.concealed_bonus or 0)
    penalties = sum(abs(p) * max(2, most_open_melds(rules, rank)) for rank, p in rules.incomplete_meld_penalties)
    threes_down = 2 * rules.deck.packs * abs(rules.packets.three_down)  # (two red threes a pack)
    short = max((abs(t.short_penalty) for t in rules.meld_types if isinstance(t, SequenceType)), default=0)
    penalties += MELD_SLOTS * short
    return size * card + canastas * best_bonus + threes + going_out + penalties + threes_down


def _text(params: Mapping[str, object], name: str) -> str:
    value = params[name]
    if not isinstance(value, str):
        raise ParameterError(f"parameter {name!r} must be a string, got {value!r}")
    return value


class GameConfig:
    """One OpenSpiel game's parameters, checked, with its compiled rules and encodings.

    A variant of a plugin that is not installed (such as a test's plugin
    variant) is found in ``registry``, or in the
    process-wide registry once registered there (`canasta.register_plugin`),
    which is how a game string (``pyspiel.load_game``) reaches it.

    Args:
        params: Parameter values (missing ones take `DEFAULT_PARAMETERS`).
        registry: The `canasta.Registry` to look the names up in (default: the process-wide one).

    Raises:
        ParameterError: For an unknown parameter or a value of the wrong type.
        canasta.UnknownNameError: For an unknown variant or house rule.
        canasta.RulesError: If the house rules do not apply to the variant, or
            the variant does not play ``players`` players.

    Attributes:
        parameters: Every parameter's value, defaults filled in.
        variant: The variant's name.
        house_rules: The house rules' names, in stacking order.
        whole_game: Whether a game is a whole game (else one hand).
        record_players: The number of players a record of the game states
            (`canasta.GameRecord.players`): ``None`` for the variant's default.
        rules: The compiled rules.
        actions: The fixed action ids (`canasta.rl.ActionSpace`).
        encoder: The observation encoder (`canasta.rl.ObservationEncoder`).
        variant_version: The installed variant's version (written into records).
        house_rule_versions: ``(name, version)`` of each house rule.
        zero_sum: Whether returns are zero-sum (exactly two sides).
        no_rewards: A zero reward for every player (shared; never changed).
        bonus_cards: Whether the rules deal bonus cards after an opening
            (``american-talon``): cards that only their receiver sees.
        utility_bound: The largest absolute return of one hand.
    """

    __slots__ = (
        "actions",
        "bonus_cards",
        "encoder",
        "house_rule_versions",
        "house_rules",
        "no_rewards",
        "parameters",
        "record_players",
        "rules",
        "utility_bound",
        "variant",
        "variant_version",
        "whole_game",
        "zero_sum",
    )

    def __init__(self, params: Mapping[str, object] | None = None, *, registry: Registry | None = None) -> None:
        given = dict(params or {})
        unknown = sorted(set(given) - set(DEFAULT_PARAMETERS))
        if unknown:
            raise ParameterError(
                f"unknown parameter(s) {', '.join(map(repr, unknown))}; the parameters are "
                f"{', '.join(DEFAULT_PARAMETERS)}"
            )
        merged: dict[str, object] = {**DEFAULT_PARAMETERS, **given}
        self.variant = _text(merged, "variant")
        names = _text(merged, "house_rules")
        self.house_rules: tuple[str, ...] = tuple(n.strip() for n in names.split(HOUSE_RULE_SEPARATOR) if n.strip())
        whole = merged["whole_game"]
        if not isinstance(whole, bool):
            raise ParameterError(f"parameter 'whole_game' must be True or False, got {whole!r}")
        self.whole_game = whole
        players = merged["players"]
        if isinstance(players, bool) or not isinstance(players, int) or players < 0:
            raise ParameterError(f"parameter 'players' must be a number of players (0: the default), got {players!r}")
        self.parameters: dict[str, object] = merged
        self.rules = self._load(registry)  # the default count
        self.record_players: int | None = None
        if players and players != self.rules.players:
            self.rules = self._load(registry, players)
            self.record_players = players
        if registry is None:
            registry = default_registry()
        self.variant_version = registry.variant(self.variant).version
        self.house_rule_versions = tuple((h, registry.house_rule(h).version) for h in self.rules.house_rules)
        self.actions = ActionSpace(self.rules)
        self.encoder = ObservationEncoder(self.rules)
        self.zero_sum = self.rules.side_count == 2
        self.no_rewards: list[float] = [0.0] * self.rules.players
        self.bonus_cards = bool(self.rules.initial_meld.bonus_cards)
        bound = hand_score_bound(self.rules)
        # Zero-sum returns are a difference of two sides' scores.
        self.utility_bound = 2 * bound if self.zero_sum else bound

    def _load(self, registry: Registry | None, players: int | None = None) -> Rules:
        """The rules of the variant and house rules, looked up in ``registry`` (or the process-wide one)."""
        if registry is not None:
            return load_rules(self.variant, self.house_rules, players=players, registry=registry)
        if players is not None:
            return load_rules(self.variant, self.house_rules, players=players)
        return load_rules(self.variant, self.house_rules)

    def side_returns(self, scores: tuple[int, ...] | list[int]) -> list[float]:
        """Each player's return from the sides' scores.

        Two sides: a player's side's score minus the other side's (zero-sum).
        More sides (three-player): the player's own score (general-sum).

        Args:
            scores: Each side's score.

        Returns:
            One return per seat, in points.
        """
        sides = self.rules.sides
        if self.zero_sum:
            return [float(scores[s] - scores[1 - s]) for s in sides]
        return [float(scores[s]) for s in sides]


class ConfiguredGame(Protocol):
    """What a state reads of its OpenSpiel game: the configuration (`canasta.openspiel.CanastaGame` is one).

    `canasta.openspiel.state.CanastaState` is typed by this, not by the game's
    class, so that the modules of the game and of its states do not import each other.
    """

    @property
    def config(self) -> GameConfig:
        """The checked parameters, compiled rules and encodings."""
        ...
