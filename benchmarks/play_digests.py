"""Digests of seeded random play of every configuration, to show that a change leaves play as it was (not a test).

For each configuration (every built-in variant alone, with each house rule that
fits it, the club form, and classic's stack of three house rules; then, where the
tree has them, Hand and Foot and the sequence games (Samba, Bolivia, Brazilian canasta)
alone and with each house rule that fits them) it plays
``--hands`` seeded hands with random legal actions through the public API
(``HandState.deal``, ``legal_actions``, ``apply``, ``score``), each dealt with
seeded cumulative scores so that every minimum band is met, and digests (SHA-256)
every legal-action list (as a list: its container type is not play), every
chosen action and every hand score. Run it under two trees' interpreters and
compare the output: equal digests mean the same play.

Usage::

    python benchmarks/play_digests.py [--hands 40] [--seed 0] [--json] [--only modern-american-club]
    CANASTA_PURE_PYTHON=1 python benchmarks/play_digests.py   # the pure-Python engine

Only public API is used, so it runs against older source trees too (run the
interpreter with its working directory outside this tree).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys

import canasta
from canasta.cards import Deck
from canasta.hand import HandState

BUILT_IN = ("classic", "two-player", "three-player", "six-player", "cuban", "modern-american", "modern-american-club")
#: Variants added later, digested where the tree has them (so the script still runs on older trees, and
#: the configurations above keep their digests): Hand and Foot alone and with each of its options, then
#: the sequence games alone and with each house rule that fits them.
LATER = ("hand-and-foot", "samba", "bolivia", "brazilian")


def configurations() -> list[tuple[str, tuple[str, ...]]]:
    """Every built-in variant alone and with each house rule that fits it, then classic's stack of three."""
    registry = canasta.default_registry()
    rules = sorted(h.name for h in registry.house_rules())
    found: list[tuple[str, tuple[str, ...]]] = []
    for variant in BUILT_IN:
        found.append((variant, ()))
        if variant != "modern-american-club":
            found.extend((variant, (rule,)) for rule in rules if registry.fits(rule, variant))
    found.append(("classic", ("black-three-freezes", "wilds-at-most-naturals", "last-red-three-may-meld")))
    known = {v.name for v in registry.variants()}
    for variant in LATER:
        if variant in known:
            found.append((variant, ()))
            found.extend((variant, (rule,)) for rule in rules if registry.fits(rule, variant))
    return found


def digest(variant: str, house_rules: tuple[str, ...], hands: int, seed: int) -> tuple[str, int]:
    """The digest of ``hands`` seeded random hands of one configuration, and the actions played."""
    rules = canasta.load_rules(variant, list(house_rules))
    deck = Deck(rules.deck)
    # The sequence games also deal from 7000, 8000 and 9000 (their top minimum, samba-160, Brazilian's openings by
    # canasta); the other configurations keep the bands they were digested with.
    bands = (0, 0, 1500, 3000, 5000) + ((7000, 8000, 9000) if getattr(rules, "meld_types", ()) else ())
    sha = hashlib.sha256()
    actions = 0
    for i in range(hands):
        rng = random.Random(f"{seed}:{variant}:{'+'.join(house_rules)}:{i}")
        scores = [rng.choice(bands) for _ in range(rules.side_count)]
        hand = HandState.deal(rules, dealer=i % rules.players, scores=scores, seed=rng.randrange(2**32), deck=deck)
        while hand.phase is not canasta.Phase.OVER:
            legal = list(hand.legal_actions())
            sha.update(repr(legal).encode())
            if not legal:
                sha.update(b"stuck")
                break
            action = legal[rng.randrange(len(legal))]
            hand.apply(action)
            actions += 1
        else:
            sha.update(repr(hand.score()).encode())
    return sha.hexdigest(), actions


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", action="append", default=[], help="only these variants (repeatable)")
    parser.add_argument("--json", action="store_true", help="print one JSON object {configuration: digest}")
    args = parser.parse_args(argv)
    if args.hands < 1:
        parser.error("--hands must be at least 1")
    results: dict[str, str] = {}
    for variant, house_rules in configurations():
        if args.only and variant not in args.only:
            continue
        name = "+".join((variant, *house_rules))
        value, actions = digest(variant, house_rules, args.hands, args.seed)
        results[name] = value
        if not args.json:
            print(f"{name:<60} {actions:7d} actions  {value[:16]}", flush=True)
    if args.json:
        print(json.dumps({"compiled": bool(getattr(canasta, "compiled", False)), "digests": results}, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
