"""How often a bot asks "may I go out?" and how often it asks where going out is impossible (issue 32).

The bot under test plays one side's seats, greedy the other's, over a number
of deals per variant (each deal played twice, sides swapped, as in
``bot_ladder.py``). Every decision of the bot with more than one legal action
is counted; where it asks, the true hand is examined: going out was possible
if, after a "yes", some way of completing the turn still goes out (in the draw
phase: for some draw the seat may make, with the real stock card). An ask where
it was not is futile: whatever the answer, the turn goes on as without it.

Usage::

    python benchmarks/ask_share.py [--bot ismcts:50] [--variants classic cuban modern-american]
        [--deals 30] [--seed 0]

It prints, per variant, the bot's decisions, its asks, the futile ones and
their share of the asks.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from attrs import frozen

import canasta
from canasta import AnswerGoOut, AskGoOut, DrawStock, HandState, Phase, TakePile


def going_out_possible(hand: HandState) -> bool:
    """Whether the acting seat could go out this turn after asking and hearing "yes" (the true hand).

    Args:
        hand: The hand, at a decision of the seat where asking is legal.

    Returns:
        True if a "yes" would bind (the seat can still go out this turn).
    """
    trial = hand.copy()
    trial.apply(AskGoOut())
    trial.apply(AnswerGoOut(True))
    if trial.phase is not Phase.DRAW:
        return bool(trial.bound)
    for draw in trial.legal_actions():
        if isinstance(draw, (DrawStock, TakePile)):
            after = trial.copy()
            after.apply(draw)
            if after.bound or after.went_out is not None:
                return True
    return False


@frozen
class AskCount:
    """A bot's asks over some deals.

    Attributes:
        decisions: Its decisions with more than one legal action.
        asks: Those where it asked.
        futile: Asks where going out was impossible.
    """

    decisions: int
    asks: int
    futile: int

    @property
    def futile_share(self) -> float:
        """The share of asks that were futile (0 when it never asked)."""
        return self.futile / self.asks if self.asks else 0.0


def count_asks(variant: str, bot: str, deals: int, seed: int = 0) -> AskCount:
    """Play ``deals`` deals twice (sides swapped), the bot against greedy, and count its asks.

    Args:
        variant: A variant with two sides.
        bot: The bot's name (`canasta.make_bot`).
        deals: Deals to play.
        seed: The first deal's seed.

    Returns:
        The counts.
    """
    rules = canasta.load_rules(variant)
    decisions = asks = futile = 0
    for deal in range(seed, seed + deals):
        for bot_side in (0, 1):
            hand = HandState.deal(rules, dealer=rules.players - 1, scores=[0] * rules.side_count, seed=deal)
            mine = [rules.sides[s] == bot_side for s in range(rules.players)]
            bots = [canasta.make_bot(bot if m else "greedy", f"{deal}:{s}") for s, m in enumerate(mine)]
            for _ in range(20_000):
                if hand.is_over:
                    break
                seat = hand.seat
                legal = hand.legal_actions()
                action = bots[seat].choose(hand, seat)
                if mine[seat] and len(legal) > 1:
                    decisions += 1
                    if isinstance(action, AskGoOut):
                        asks += 1
                        futile += not going_out_possible(hand)
                hand.apply(action)
    return AskCount(decisions, asks, futile)


def main(argv: Sequence[str] | None = None) -> int:
    """Count the asks and print them."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot", default="ismcts:50")
    parser.add_argument("--variants", nargs="*", default=["classic", "cuban", "modern-american"])
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    print(f"{args.bot} against greedy, {args.deals} deals each played twice")
    print("| variant | decisions | asks | futile asks | futile share |")
    print("|---|---:|---:|---:|---:|")
    for variant in args.variants:
        c = count_asks(variant, args.bot, args.deals, args.seed)
        print(f"| {variant} | {c.decisions} | {c.asks} | {c.futile} | {100 * c.futile_share:.0f}% |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
