"""canasta: Canasta by the rules, for every common variant, with rule sets as plugins.

Quick start::

    import canasta

    game = canasta.Game("classic", seed=1)
    while not game.is_over:
        game.apply(game.legal_actions()[0])

The engine's hot modules are compiled with mypyc when the install could
(`compiled` says whether the compiled engine runs; ``CANASTA_PURE_PYTHON=1``
runs the pure-Python one, which plays exactly the same).
"""

from __future__ import annotations

# First: it chooses the engine (compiled modules or their Python sources) before any is imported.
from canasta import _engine
from canasta import legality as _legality
from canasta.actions import (
    Action,
    AnswerGoOut,
    AskGoOut,
    DeclareSpecialHand,
    Discard,
    DrawStock,
    EndHand,
    LayOutThree,
    Meld,
    PickUpPacket,
    TakePile,
)
from canasta.bots import Bot, GreedyBot, RandomBot, make_bot
from canasta.cards import NATURAL_KINDS, WILD_KINDS, Card, Deck, DeckSpec, Kind, Suit, build_deck
from canasta.determinize import SamplingError, sample_state
from canasta.errors import (
    CanastaError,
    IllegalActionError,
    InvalidPositionError,
    PluginError,
    RuleCode,
    RuleSection,
    RulesError,
    UnknownNameError,
)
from canasta.game import Game
from canasta.hand import HandEnd, HandState, MeldState, Phase
from canasta.ismcts import ISMCTSBot
from canasta.observation import MeldView, Observation
from canasta.plugins import compile_rules, hookimpl, load_rules, make_plugin_manager
from canasta.position import build_position
from canasta.records import (
    MAX_INTEGER_DIGITS,
    MAX_RECORD_BYTES,
    MAX_RECORD_DEPTH,
    GameRecord,
    GameRecorder,
    RecordError,
    action_from_json,
    action_to_json,
    load_record,
    loads_record,
    observation_to_json,
    replay,
    save_record,
)
from canasta.registry import (
    HouseRule,
    Registry,
    Variant,
    available_house_rules,
    available_variants,
    default_registry,
    get_house_rule,
    get_variant,
    register_plugin,
)
from canasta.rules import (
    BlackThreeRules,
    CanastaBonuses,
    CanastaClass,
    ExhaustionRules,
    GameLength,
    GoingOutRules,
    InitialMeldRules,
    MeldMinimums,
    MeldRules,
    PacketRules,
    PartnershipRules,
    Permission,
    PileRules,
    Rules,
    ThreeRules,
    ThreeSign,
    Upcard,
    canasta_class,
)
from canasta.scoring import HandScore, SideScore
from canasta.seats import SeatError
from canasta.seeds import SEED_LIMIT, SeedError
from canasta.simulate import SimulationResult
from canasta.special import SpecialHand
from canasta.summary import format_rules_summary, rules_summary

__version__ = "0.1.0"

#: Whether the compiled engine runs (its modules were built by mypyc); ``False`` for the pure-Python engine.
compiled: bool = _engine.is_compiled(_legality)

__all__ = [
    "MAX_INTEGER_DIGITS",
    "MAX_RECORD_BYTES",
    "MAX_RECORD_DEPTH",
    "NATURAL_KINDS",
    "SEED_LIMIT",
    "WILD_KINDS",
    "Action",
    "AnswerGoOut",
    "AskGoOut",
    "BlackThreeRules",
    "Bot",
    "CanastaBonuses",
    "CanastaClass",
    "CanastaError",
    "Card",
    "Deck",
    "DeckSpec",
    "DeclareSpecialHand",
    "Discard",
    "DrawStock",
    "EndHand",
    "ExhaustionRules",
    "Game",
    "GameLength",
    "GameRecord",
    "GameRecorder",
    "GoingOutRules",
    "GreedyBot",
    "HandEnd",
    "HandScore",
    "HandState",
    "HouseRule",
    "ISMCTSBot",
    "IllegalActionError",
    "InitialMeldRules",
    "InvalidPositionError",
    "Kind",
    "LayOutThree",
    "Meld",
    "MeldMinimums",
    "MeldRules",
    "MeldState",
    "MeldView",
    "Observation",
    "PacketRules",
    "PartnershipRules",
    "Permission",
    "Phase",
    "PickUpPacket",
    "PileRules",
    "PluginError",
    "RandomBot",
    "RecordError",
    "Registry",
    "RuleCode",
    "RuleSection",
    "Rules",
    "RulesError",
    "SamplingError",
    "SeatError",
    "SeedError",
    "SideScore",
    "SimulationResult",
    "SpecialHand",
    "Suit",
    "TakePile",
    "ThreeRules",
    "ThreeSign",
    "UnknownNameError",
    "Upcard",
    "Variant",
    "action_from_json",
    "action_to_json",
    "available_house_rules",
    "available_variants",
    "build_deck",
    "build_position",
    "canasta_class",
    "compile_rules",
    "compiled",
    "default_registry",
    "format_rules_summary",
    "get_house_rule",
    "get_variant",
    "hookimpl",
    "load_record",
    "load_rules",
    "loads_record",
    "make_bot",
    "make_plugin_manager",
    "observation_to_json",
    "register_plugin",
    "replay",
    "rules_summary",
    "sample_state",
    "save_record",
]
