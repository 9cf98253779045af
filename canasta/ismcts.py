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
in the original algorithm). The most visited action at the root is played.

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
from collections.abc import Callable

from attrs import frozen

from canasta.actions import Action
from canasta.bots import BOTS, CONFIGURABLE_BOTS, Bot, GreedyBot, NoLegalActionError, RandomBot
from canasta.determinize import sample_state
from canasta.errors import CanastaError
from canasta.hand import HandState

__all__ = ["DEFAULT_ITERATIONS", "PLAYOUT_POLICIES", "ActionStats", "ISMCTSBot", "SearchResult", "parse_budget"]

#: Iterations per decision when no budget is given.
DEFAULT_ITERATIONS = 200

#: Playout policies by name: ``factory(seed) -> Bot``.
PLAYOUT_POLICIES: dict[str, Callable[[object], Bot]] = {"greedy": GreedyBot, "random": RandomBot}

#: Score differences are divided by this before they enter UCB1 (a typical hand swings by hundreds).
REWARD_SCALE = 1000.0


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
    """

    action: Action
    visits: int
    share: float
    mean: float


@frozen
class SearchResult:
    """The result of one search: the root actions, most visited first.

    Attributes:
        actions: Statistics of every root action tried.
        iterations: Iterations run.
        seconds: Time the search took.
    """

    actions: tuple[ActionStats, ...]
    iterations: int
    seconds: float

    @property
    def best(self) -> ActionStats:
        """The preferred action (most visits, then highest mean)."""
        return self.actions[0]


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


class ISMCTSBot:
    """Information-set Monte Carlo tree search (single observer) with a playout policy.

    Args:
        seed: Seed of the bot's random generator (same seed, same choices
            under an iteration budget).
        iterations: Iterations per decision (default `DEFAULT_ITERATIONS`
            when no budget is given).
        milliseconds: Time per decision instead (at least one iteration).
        playout: The playout policy, a name of `PLAYOUT_POLICIES`.
        exploration: The UCB1 exploration constant (rewards are score
            differences divided by `REWARD_SCALE`).
        opponent_nodes: Whether the opponents' decisions get tree nodes too
            (each choosing for its own side, as in the original algorithm);
            by default they are played by the playout policy (an opponent
            model), so a small budget is spent on the bot's own side's choices.

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
    ) -> None:
        if iterations is not None and milliseconds is not None:
            raise CanastaError("give the search budget in iterations or in milliseconds, not both")
        if iterations is None and milliseconds is None:
            iterations = DEFAULT_ITERATIONS
        if (iterations is not None and iterations < 1) or (milliseconds is not None and milliseconds <= 0):
            raise CanastaError("the search budget must be positive")
        if playout not in PLAYOUT_POLICIES:
            raise CanastaError(f"unknown playout policy {playout!r}; known: {', '.join(sorted(PLAYOUT_POLICIES))}")
        self.iterations = iterations
        self.milliseconds = milliseconds
        self.playout = playout
        self.exploration = exploration
        self.opponent_nodes = opponent_nodes
        self._rng = random.Random(f"ismcts:{seed}")
        self._policy = PLAYOUT_POLICIES[playout](f"ismcts-playout:{seed}")
        self.last: SearchResult | None = None

    @classmethod
    def from_spec(cls, seed: object, spec: str) -> ISMCTSBot:
        """The bot of a name such as ``"ismcts:50ms"``, ``"ismcts:300"`` or ``"ismcts:300,c=0.4,playout=random"``.

        Args:
            seed: The bot's seed.
            spec: What follows the colon: the budget (see `parse_budget`),
                then optionally ``c=<exploration>``, ``playout=<policy>`` and
                ``opponents=tree`` (or ``policy``), comma-separated.

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
            else:
                known = "c=<number>, playout=<name>, opponents=tree|policy"
                raise CanastaError(f"unknown ismcts option {part!r} in {spec!r}; known: {known}")
        return cls(
            seed,
            iterations=iterations,
            milliseconds=milliseconds,
            playout=playout,
            exploration=exploration,
            opponent_nodes=opponent_nodes,
        )

    def __repr__(self) -> str:
        budget = f"{self.iterations} iterations" if self.iterations else f"{self.milliseconds} ms"
        return f"ISMCTSBot({budget}, playout={self.playout!r})"

    def choose(self, state: HandState, seat: int) -> Action:
        """Search and return the most visited legal action.

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
        observation = state.observation(seat)
        legal = list(observation.legal_actions)
        if not legal:
            raise NoLegalActionError(f"seat {seat} has no legal action (phase {observation.phase})")
        started = time.perf_counter()
        if len(legal) == 1:
            action: Action = legal[0]  # type: ignore[assignment]
            self.last = SearchResult((ActionStats(action, 0, 1.0, 0.0),), 0, 0.0)
            return self.last
        root = _Node(state.rules.sides[seat])
        rng = self._rng
        deadline = None if self.milliseconds is None else started + self.milliseconds / 1000.0
        done = 0
        while True:
            self._iterate(root, sample_state(observation, rng), rng)
            done += 1
            if deadline is None:
                if self.iterations is not None and done >= self.iterations:
                    break
            elif time.perf_counter() >= deadline:
                break
        total = sum(child.visits for child in root.children.values()) or 1
        stats = [
            ActionStats(a, n.visits, n.visits / total, n.total / n.visits * REWARD_SCALE if n.visits else 0.0)
            for a, n in root.children.items()
        ]
        order = {a: i for i, a in enumerate(legal)}  # ties: the order of the legal list (deterministic)
        stats.sort(key=lambda s: (-s.visits, -s.mean, order.get(s.action, 0)))
        self.last = SearchResult(tuple(stats), done, time.perf_counter() - started)
        return self.last

    def _iterate(self, root: _Node, state: HandState, rng: random.Random) -> None:
        """One iteration: select and expand in the tree, play out, back up."""
        node = root
        path: list[_Node] = []
        c = self.exploration
        while not state.is_over:
            legal = state.legal_actions()
            if len(legal) == 1:
                state.apply(legal[0])  # a forced move makes no node
                continue
            side = state.rules.sides[state.seat]  # the side that scores it (cutthroat partners score alike)
            if side != root.side and not self.opponent_nodes:
                state.apply(self._policy.choose(state, state.seat))  # the opponents play as the policy does
                continue
            children = node.children
            untried = [a for a in legal if a not in children]
            if untried:
                # Expand: the playout policy's own choice first, so that a small budget
                # plays at least as the policy would; then at random.
                preferred = self._policy.choose(state, state.seat)
                action = preferred if preferred in untried else untried[rng.randrange(len(untried))]
                child = children[action] = _Node(side)
                for a in legal:
                    if a in children:
                        children[a].available += 1
                state.apply(action)
                path.append(child)
                break
            log_parent = 0.0
            best: Action | None = None
            best_value = -math.inf
            for a in legal:
                n = children[a]
                n.available += 1
            for a in legal:
                n = children[a]
                log_parent = math.log(n.available)
                value = n.total / n.visits + c * math.sqrt(log_parent / n.visits)
                if value > best_value:
                    best, best_value = a, value
            assert best is not None
            node = children[best]
            state.apply(best)
            path.append(node)
        policy = self._policy
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


BOTS["ismcts"] = ISMCTSBot
CONFIGURABLE_BOTS["ismcts"] = ISMCTSBot.from_spec
