"""An ISMCTS bot: information-set Monte Carlo tree search over determinizations.

Single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012): each iteration
deals the cards the bot's seat cannot see (`canasta.sample_state` of its
observation), walks down one shared tree of public actions choosing among the
actions legal in that deal (UCB1 with availability counts), adds one node,
plays the hand out with a playout policy (the greedy bot by default) and
scores it: the reward is the hand-score difference between the bot's side
and the best other side. The tree holds the decisions of the bot's side (its
partners' too); the opponents are played by the playout policy, an opponent
model that keeps a small budget on the bot's own choices (``opponent_nodes``
gives them nodes of their own, each maximising its own side's difference, as
in the original algorithm). A partner's answer to "may I go out?" is never a
node: the partner answers from its own hand, which the searching seat cannot
see, so the playout policy answers for it (a node would let the search pick
the answer that suits the asker's cards, and would put an extra level of
search between an ask and the decisions that follow, which made asking look
better than the same play without the question: issue 32). Nor is asking
searched where it cannot change the turn (`ask_changes_turn`): where going
out is impossible after a "yes", the position after the question is the
position before it, and searching both as rival actions split the iterations
between two copies of one line and let chance pick between them; and before
a stock draw the seat can as well ask after it, knowing the card. The root's actions are compared on common deals:
the n-th visit of each plays the n-th sampled deal with the n-th playout seed,
and the policy's own choice is played on every deal another root action is.
The bot plays the policy's own choice unless another root action beats it on
those common deals with confidence (``confidence`` standard errors of the
paired gain); ``confidence=None`` plays the most visited root action.

It uses only the public API (legal actions, `apply`, `copy`, the
observation and the determinizer), so it plays every variant and house rule,
third-party ones included. It decides from its seat's information state only:
handed any state consistent with that seat's view, it plays exactly as when
handed the true state, with the same seed and an iteration budget (a time
budget runs as many iterations as fit, which depends on the machine).
"""

from __future__ import annotations

import math
import random
import re
import time
from collections.abc import Callable, Sequence
from typing import cast

from attrs import frozen

from canasta.actions import Action, AnswerGoOut, AskGoOut, TakePile
from canasta.bots import BOTS, CONFIGURABLE_BOTS, Bot, GreedyBot, NoLegalActionError, RandomBot
from canasta.determinize import sample_state
from canasta.errors import CanastaError
from canasta.hand import HandState, Phase
from canasta.observation import Observation

__all__ = [
    "DEFAULT_ITERATIONS",
    "PLAYOUT_POLICIES",
    "ActionStats",
    "ISMCTSBot",
    "SearchResult",
    "ask_changes_turn",
    "parse_budget",
]

#: Iterations per decision when no budget is given.
DEFAULT_ITERATIONS = 200

#: Playout policies by name: ``factory(seed) -> Bot``.
PLAYOUT_POLICIES: dict[str, Callable[[object], Bot]] = {"greedy": GreedyBot, "random": RandomBot}

#: Fewest common deals on which a root action must have been tried to overrule the policy's choice.
MIN_PAIRED = 6

#: Score differences are divided by this before they enter UCB1 (a typical hand swings by hundreds).
REWARD_SCALE = 1000.0


def ask_changes_turn(state: HandState) -> bool:
    """Whether asking "may I go out?" now is a decision of its own, for the acting seat.

    The answer binds only where going out is possible ("Going out"): after a
    "no" the seat may not go out, after a "yes" it must. After the draw,
    asking matters only if going out is possible now; where it is not, neither
    answer changes anything and the position after the question is the
    position before it. Before the draw, asking matters only for a pile take
    that could go out after a "yes" (the pile is face up): asking and then
    drawing from the stock reaches what drawing and then asking reaches, and
    the seat that asks after the draw knows the card. Both are decided by the
    seat's own cards and the table, so every deal of its information state
    gives the same answer.

    Args:
        state: A hand where asking is legal (not changed).

    Returns:
        True if asking could change the turn.
    """
    trial = state.copy()
    trial.apply(AskGoOut())
    trial.apply(AnswerGoOut(True))
    if trial.phase is Phase.DRAW:
        # After a "yes" a pile take is legal only if it keeps going out possible.
        return any(isinstance(a, TakePile) for a in trial.legal_actions())
    return trial.bound


class _Node:
    """A node of the search tree: the public action that led here and its statistics."""

    __slots__ = ("available", "children", "side", "total", "visits")

    def __init__(self, side: int) -> None:
        self.side = side  # the side that chose the action leading here
        self.visits = 0
        self.available = 0
        self.total = 0.0
        self.children: dict[Action, _Node] = {}


@frozen
class ActionStats:
    """What the search found about one root action.

    Attributes:
        action: The action.
        visits: Iterations that chose it.
        share: Its share of all root visits (0 to 1).
        mean: Its mean hand-score difference for the bot's side (points).
        gain: Its mean gain over the playout policy's own choice on the deals
            both were tried on (points; ``None`` for that choice itself, or
            when they shared fewer than `MIN_PAIRED` deals).
        paired: The number of those common deals (0 when ``gain`` is ``None``).
    """

    action: Action
    visits: int
    share: float
    mean: float
    gain: float | None = None
    paired: int = 0


@frozen
class SearchResult:
    """The result of one search: the root actions, the one played first, then by visits.

    Attributes:
        actions: Statistics of every root action tried.
        iterations: Iterations run.
        seconds: Time the search took.
        policy_choice: The playout policy's own choice at the root (the action
            played unless another beat it on the same deals), ``None`` when
            there was no search (a single legal action).
        reason: Why the action listed first is played, in a few words.
    """

    actions: tuple[ActionStats, ...]
    iterations: int
    seconds: float
    policy_choice: Action | None = None
    reason: str = "the only legal action"

    @property
    def best(self) -> ActionStats:
        """The action the bot plays (listed first)."""
        return self.actions[0]

    def by_visits(self) -> tuple[ActionStats, ...]:
        """The root actions, most visited first (ties: higher mean first, then the search's order).

        Returns:
            The statistics of every root action tried.
        """
        return tuple(sorted(self.actions, key=lambda s: (-s.visits, -s.mean)))


def parse_budget(text: str) -> tuple[int | None, float | None]:
    """Read a budget: ``"300"`` (iterations) or ``"50ms"`` (milliseconds per decision).

    Args:
        text: The budget's text.

    Returns:
        ``(iterations, milliseconds)``, one of them ``None``.

    Raises:
        CanastaError: If the text is neither form.
    """
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*(ms)?\s*", text)
    if match is None or float(match.group(1)) <= 0 or (match.group(2) is None and "." in match.group(1)):
        raise CanastaError(f"bad search budget {text!r}: give iterations (\"300\") or milliseconds (\"50ms\")")
    if match.group(2):
        return None, float(match.group(1))
    return int(match.group(1)), None


def state_for_root(observation: Observation, deals: list[HandState], rng: random.Random) -> HandState:
    """The first deal of a search (made and kept in ``deals``): the policy's root choice is read from it."""
    if not deals:
        deals.append(sample_state(observation, rng))
    return deals[0]


class ISMCTSBot:
    """Information-set Monte Carlo tree search (single observer) with a playout policy.

    Args:
        seed: Seed of the bot's random generator (same seed, same choices
            under an iteration budget).
        iterations: Iterations per decision (default `DEFAULT_ITERATIONS`
            when no budget is given).
        milliseconds: Time per decision instead: iterations run while one
            more as long as the longest so far still fits (at least one runs).
        playout: The playout policy, a name of `PLAYOUT_POLICIES`.
        exploration: The UCB1 exploration constant (rewards are score
            differences divided by `REWARD_SCALE`).
        opponent_nodes: Whether the opponents' decisions get tree nodes too
            (each choosing for its own side, as in the original algorithm);
            by default they are played by the playout policy (an opponent
            model), so a small budget is spent on the bot's own side's choices.
        confidence: How sure the search must be before it overrules the
            playout policy's own choice: another root action is played only if
            its mean gain over that choice, on the same deals, is more than
            this many standard errors above 0 (1.28: about 90% one-sided).
            ``None`` plays the most visited root action (plain ISMCTS).

    Raises:
        CanastaError: For a bad budget or an unknown playout policy.
    """

    name = "ismcts"

    def __init__(
        self,
        seed: object = 0,
        *,
        iterations: int | None = None,
        milliseconds: float | None = None,
        playout: str = "greedy",
        exploration: float = 0.7,
        opponent_nodes: bool = False,
        confidence: float | None = 1.28,
    ) -> None:
        if iterations is not None and milliseconds is not None:
            raise CanastaError("give the search budget in iterations or in milliseconds, not both")
        if iterations is None and milliseconds is None:
            iterations = DEFAULT_ITERATIONS
        if (iterations is not None and iterations < 1) or (milliseconds is not None and milliseconds <= 0):
            raise CanastaError("the search budget must be positive")
        if milliseconds is not None and not math.isfinite(milliseconds):
            raise CanastaError(f"the search budget must be a finite number of milliseconds, got {milliseconds!r}")
        if not (math.isfinite(exploration) and exploration >= 0):
            raise CanastaError(f"the exploration constant must be a finite number >= 0, got {exploration!r}")
        if playout not in PLAYOUT_POLICIES:
            raise CanastaError(f"unknown playout policy {playout!r}; known: {', '.join(sorted(PLAYOUT_POLICIES))}")
        self.iterations = iterations
        self.milliseconds = milliseconds
        self.playout = playout
        self.exploration = exploration
        self.opponent_nodes = opponent_nodes
        self.confidence = confidence
        self._rng = random.Random(f"ismcts:{seed}")
        self._policy = PLAYOUT_POLICIES[playout](f"ismcts-playout:{seed}")
        self.last: SearchResult | None = None

    @classmethod
    def from_spec(cls, seed: object, spec: str) -> ISMCTSBot:
        """The bot of a name such as ``"ismcts:50ms"``, ``"ismcts:300"`` or ``"ismcts:300,c=0.4,playout=random"``.

        Args:
            seed: The bot's seed.
            spec: What follows the colon: the budget (see `parse_budget`),
                then optionally ``c=<exploration>``, ``playout=<policy>``,
                ``opponents=tree`` (or ``policy``) and ``z=<confidence>`` (or
                ``z=none``), comma-separated.

        Returns:
            The bot.

        Raises:
            CanastaError: For a bad budget or option.
        """
        budget, *rest = spec.split(",")
        iterations, milliseconds = parse_budget(budget)
        exploration = 0.7
        playout = "greedy"
        opponent_nodes = False
        confidence: float | None = 1.28
        for part in rest:
            key, equals, value = part.strip().partition("=")
            if key == "c" and equals:
                try:
                    exploration = float(value)
                except ValueError:
                    raise CanastaError(f"bad exploration constant {value!r} in {spec!r}") from None
            elif key == "playout" and equals:
                playout = value
            elif key == "opponents" and value in ("tree", "policy"):
                opponent_nodes = value == "tree"
            elif key == "z" and equals:
                try:
                    confidence = None if value == "none" else float(value)
                except ValueError:
                    raise CanastaError(f"bad confidence {value!r} in {spec!r}") from None
            else:
                known = "c=<number>, playout=<name>, opponents=tree|policy, z=<number>|none"
                raise CanastaError(f"unknown ismcts option {part!r} in {spec!r}; known: {known}")
        return cls(
            seed,
            iterations=iterations,
            milliseconds=milliseconds,
            playout=playout,
            exploration=exploration,
            opponent_nodes=opponent_nodes,
            confidence=confidence,
        )

    def __repr__(self) -> str:
        budget = f"{self.iterations} iterations" if self.iterations else f"{self.milliseconds} ms"
        return f"ISMCTSBot({budget}, playout={self.playout!r})"

    def choose(self, state: HandState, seat: int) -> Action:
        """Search and return the action the search settles on (see ``confidence``).

        Args:
            state: The hand in play (only ``seat``'s observation of it is read).
            seat: The seat to play; it is ``state.seat``.

        Returns:
            One of ``state.legal_actions()``.
        """
        return self.search(state, seat).best.action

    def search(self, state: HandState, seat: int) -> SearchResult:
        """Run one search from ``seat``'s information state.

        Args:
            state: The hand in play (not changed; only ``seat``'s observation is read).
            seat: The seat to play.

        Returns:
            The root actions with their visits and mean score differences; also kept as `last`.

        Raises:
            NoLegalActionError: If the seat has no legal action.
        """
        started = time.perf_counter()
        observation = state.observation(seat)
        legal = cast(list[Action], list(observation.legal_actions))
        if not legal:
            raise NoLegalActionError(f"seat {seat} has no legal action (phase {observation.phase})")
        if len(legal) == 1:
            action = legal[0]
            self.last = SearchResult((ActionStats(action, 0, 1.0, 0.0),), 0, 0.0)
            return self.last
        root = _Node(state.rules.sides[seat])
        rng = self._rng
        deadline = None if self.milliseconds is None else started + self.milliseconds / 1000.0
        done = 0
        # Common deals: the n-th visit of every root action plays the n-th deal of the
        # hidden cards, with the n-th seed of the playout policy, so that root actions are
        # compared on the same luck (common random numbers). The root's legal actions are
        # the bot's own, the same in every deal.
        deals: list[HandState] = []
        base = rng.getrandbits(64)
        preferred = self._policy.choose(state_for_root(observation, deals, rng), seat)
        if any(isinstance(a, AskGoOut) for a in legal) and not ask_changes_turn(deals[0]):
            legal = [a for a in legal if not isinstance(a, AskGoOut)]  # asking would not change the turn
            if len(legal) == 1:
                reason = "the only legal action but asking, which could not change this turn"
                self.last = SearchResult((ActionStats(legal[0], 0, 1.0, 0.0),), 0, 0.0, legal[0], reason)
                return self.last
        pending = [preferred, *(a for a in legal if a != preferred)]  # root actions not yet tried
        paired: dict[Action, list[float]] = {}  # each root action's reward on deal 0, 1, 2, ...
        last, longest = time.perf_counter(), 0.0
        while True:
            if pending:
                action = pending.pop(0)
            else:
                action = self._select(root, legal)
                # The policy's choice is played on every deal another root action is (it is
                # visited whenever it would fall behind), so that each action is compared with
                # it on all its own deals: otherwise an unlucky first deal starved it of visits
                # and it was kept for want of a comparison (issue 32).
                if (
                    self.confidence is not None
                    and action != preferred
                    and root.children[preferred].visits <= root.children[action].visits
                ):
                    action = preferred
            child = root.children.get(action)
            if child is None:
                child = root.children[action] = _Node(root.side)
            index = child.visits
            while len(deals) <= index:
                deals.append(sample_state(observation, rng))
            deal = deals[index].copy()
            policy = PLAYOUT_POLICIES[self.playout](f"{base}:{index}")
            deal.apply(action)
            paired.setdefault(action, []).append(self._iterate(child, deal, [child], rng, policy))
            done += 1
            if deadline is None:
                if self.iterations is not None and done >= self.iterations:
                    break
            else:
                now = time.perf_counter()
                longest = max(longest, now - last)
                last = now
                if now + longest >= deadline:
                    break  # another iteration as long as the longest so far could overrun the budget
        total = sum(child.visits for child in root.children.values()) or 1
        gains = _paired_gains(preferred, paired)
        stats = [
            ActionStats(
                a,
                n.visits,
                n.visits / total,
                n.total / n.visits * REWARD_SCALE if n.visits else 0.0,
                gains[a][0] * REWARD_SCALE if a in gains else None,
                gains[a][2] if a in gains else 0,
            )
            for a, n in root.children.items()
        ]
        order = {a: i for i, a in enumerate(legal)}  # ties: the order of the legal list (deterministic)
        chosen, reason = self._decide(preferred, paired, gains)
        stats.sort(key=lambda s: (s.action != chosen, -s.visits, -s.mean, order.get(s.action, 0)))
        self.last = SearchResult(tuple(stats), done, time.perf_counter() - started, preferred, reason)
        return self.last

    def _decide(
        self,
        preferred: Action,
        paired: dict[Action, list[float]],
        gains: dict[Action, tuple[float, float, int]],
    ) -> tuple[Action, str]:
        """The action to play and why: the policy's choice, unless another one beats it on the same deals.

        Root actions are compared on the deals both were tried on (common random
        numbers); an action replaces the policy's choice only if its mean paired
        gain is above ``confidence`` standard errors (and it was tried on at least
        `MIN_PAIRED` deals), and the one with the highest such lower bound wins.
        With ``confidence=None`` the most visited action is played instead.
        """
        if self.confidence is None:
            return max(paired, key=lambda a: (len(paired[a]), sum(paired[a]))), "the most visited action"
        best, best_bound = preferred, 0.0
        for action, (mean, sd, n) in gains.items():
            bound = mean - self.confidence * sd / math.sqrt(n)
            if bound > best_bound:
                best, best_bound = action, bound
        if best == preferred:
            if not gains:
                return best, (
                    f"the playout policy's choice: no other action was tried on the {MIN_PAIRED} "
                    "common deals needed to overrule it"
                )
            return best, (
                "the playout policy's choice: no other action beat it on the same deals by "
                f"{self.confidence:g} standard errors of its gain"
            )
        mean, _, n = gains[best]
        return best, (
            f"it beat the playout policy's choice by {mean * REWARD_SCALE:+.0f} points a deal "
            f"over {n} common deals ({self.confidence:g} standard errors above 0)"
        )

    def _select(self, node: _Node, legal: Sequence[Action]) -> Action:
        """UCB1 with availability counts among the node's children legal here (each visited once)."""
        best: Action | None = None
        best_value = -math.inf
        c = self.exploration
        for a in legal:
            node.children[a].available += 1
        for a in legal:
            n = node.children[a]
            value = n.total / n.visits + c * math.sqrt(math.log(n.available) / n.visits)
            if value > best_value:
                best, best_value = a, value
        assert best is not None
        return best

    def _iterate(self, node: _Node, state: HandState, path: list[_Node], rng: random.Random, policy: Bot) -> float:
        """One iteration below the root action: select and expand in the tree, play out, back up.

        Returns the reward of the root's side.
        """
        root_side = node.side
        while not state.is_over:
            legal: Sequence[Action] = state.legal_actions()
            if len(legal) == 1:
                state.apply(legal[0])  # a forced move makes no node
                continue
            side = state.rules.sides[state.seat]  # the side that scores it (cutthroat partners score alike)
            if (side != root_side and not self.opponent_nodes) or state.phase is Phase.ANSWER:
                # The opponents play as the policy does; so does a partner answering
                # "may I go out?": it answers from its own hand, which the searching seat
                # cannot see, and its answer is not the asker's to choose.
                state.apply(policy.choose(state, state.seat))
                continue
            if any(isinstance(a, AskGoOut) for a in legal) and not ask_changes_turn(state):
                legal = [a for a in legal if not isinstance(a, AskGoOut)]  # the same position again
                if len(legal) == 1:
                    state.apply(legal[0])
                    continue
            children = node.children
            untried = [a for a in legal if a not in children]
            if untried:
                # Expand: the playout policy's own choice first, so that a small budget
                # plays at least as the policy would; then at random.
                preferred = policy.choose(state, state.seat)
                action = preferred if preferred in untried else untried[rng.randrange(len(untried))]
                child = children[action] = _Node(side)
                for a in legal:
                    if a in children:
                        children[a].available += 1
                state.apply(action)
                path.append(child)
                break
            best = self._select(node, legal)
            node = children[best]
            state.apply(best)
            path.append(node)
        while not state.is_over:
            state.apply(policy.choose(state, state.seat))
        totals = [side.total for side in state.score().sides]
        rewards = []
        for side, own in enumerate(totals):
            others = max(t for s, t in enumerate(totals) if s != side) if len(totals) > 1 else 0
            rewards.append((own - others) / REWARD_SCALE)
        for n in path:
            n.visits += 1
            n.total += rewards[n.side]
        return rewards[root_side]


def _paired_gains(preferred: Action, paired: dict[Action, list[float]]) -> dict[Action, tuple[float, float, int]]:
    """Each other root action's paired gain over ``preferred``: ``(mean, standard deviation, deals)``.

    Only actions tried on at least `MIN_PAIRED` of the deals ``preferred`` was
    tried on are listed (rewards are in `REWARD_SCALE` units).
    """
    base = paired.get(preferred, [])
    result: dict[Action, tuple[float, float, int]] = {}
    for action, rewards in paired.items():
        n = min(len(rewards), len(base))
        if action == preferred or n < MIN_PAIRED:
            continue
        gains = [rewards[j] - base[j] for j in range(n)]
        mean = sum(gains) / n
        result[action] = (mean, math.sqrt(sum((g - mean) ** 2 for g in gains) / (n - 1)), n)
    return result


BOTS["ismcts"] = ISMCTSBot
CONFIGURABLE_BOTS["ismcts"] = ISMCTSBot.from_spec
