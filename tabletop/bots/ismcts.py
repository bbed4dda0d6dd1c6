"""Information-set Monte Carlo tree search (single observer, open loop).

Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree Search" (2012): one tree for
the bot's seat, whose nodes are sequences of actions (not states). Each iteration:

1. **determinize**: the root state redealt from the bot seat's point of view (the engine's
   ``redeal``), so hidden cards are a fresh guess consistent with what the seat sees;
2. **select**: from the root, while every action legal in this determinization has a child, the
   child with the best UCB1 for the seat that moves there, with availability counts (an action
   counts as tried out of the times it was available, not of the parent's visits);
3. **expand**: one untried legal action, chosen by the engine's playout policy (uniform at random
   when it has none), so a policy that prefers good moves also orders the expansions. With a
   ``widening`` (the engine's ``SEARCH``), a node below the root expands only while it has fewer than
   ``widening * sqrt(visits) + 1`` children (progressive widening): a hidden hand dealt anew each
   iteration offers a new untried move nearly every time, and without it a good reply found first
   would be tried once and drowned by the new ones; otherwise it selects among the children available;
4. **play out**: the policy's legal actions (every seat, the GM too) up to ``depth`` actions;
5. **score**: the outcome when the game ended, otherwise the engine's ``heuristic`` for each seat
   that moves in the path, added to that seat's edges (each seat maximises its own result, so
   games of more than two seats work).

A move another seat cannot see (a card played face down) would leak through one tree: the other
seat's node below it is a different node for each card, so its reply in the search answers the card
it could not see, and every face-down play looks countered. An engine that says how a seat sees an
action (``observed``, tabletop/bots/common.py) gets one tree per seat instead (Cowling, Powley and
Whitehouse's multiple-observer ISMCTS): each tree follows every move as its owner sees it, so a
face-down play is one move in the other seats' trees, and each seat chooses at its own tree's node.
Every tree's nodes on the path are scored as above; the decision reads the bot seat's tree. Without
``observed`` there is one tree, as before (ruling BOT41).

Chance happens inside ``apply`` and is drawn anew each iteration (open loop). A GM decision
(``to_act`` gives ``"gm"``) is played at random and is not a tree node, like chance. When several
seats act at once (``to_act`` lists more than one), the tree takes them in turn: the bot's seat at
the root, the first listed seat below it.

The decision is the root action visited most (ties: the best mean, then the action's key), among
the actions legal in the real state; only the seat's view reaches the search, since the real
state is redealt before anything else reads it.
"""

from __future__ import annotations

import math
import time
from typing import NamedTuple

from .common import (
    BotError,
    SearchRng,
    action_key,
    heuristic_function,
    is_player,
    playout_function,
    redeal_function,
    search_settings,
    seat_count,
)
from .players import own_actions

EXPLORATION = 0.7
MAX_TREE_STEPS = 400  # selection never loops for ever on GM actions


class Ranked(NamedTuple):
    """One of a seat's actions as the search rates it: how often it was tried, and the seat's mean
    result when it was (its estimated chance to win, None when never tried)."""

    action: dict
    visits: int
    win_chance: float | None


class Node:
    __slots__ = ("children", "visits", "avail", "total", "mover")

    def __init__(self, mover=None) -> None:
        self.children: dict[tuple, Node] = {}
        self.visits = 0
        self.avail = 1
        self.total = 0.0
        self.mover = mover  # the seat whose action leads to this node


class IsmctsPlayer:
    """``iterations`` and ``seconds`` cap a decision (the first reached stops it; ``seconds=None``:
    iterations only, deterministic for a seed); ``depth`` caps each playout. ``clock`` measures the
    seconds: wall time (``time.perf_counter``, what a player waits) or, to measure one core's worth
    on a shared machine (bench/bots.py ``--clock cpu``), ``time.process_time``."""

    name = "ismcts"

    def __init__(self, iterations: int | None = 400, seconds: float | None = None, depth: int | None = 10,
                 exploration: float | None = EXPLORATION, clock=time.perf_counter, strength: str = "normal") -> None:
        self.iterations, self.seconds, self.depth, self.exploration = iterations, seconds, depth, exploration
        self.strength, self.clock = strength, clock
        self.last_iterations = 0  # how many iterations the last decision ran (bench, tests)

    def settings(self, engine) -> tuple[int, int, float, float | None]:
        """(iterations, depth, exploration, widening) at ``engine``: what this player was given, else the
        engine's ``SEARCH`` for its strength (``search_settings``)."""
        tuned = search_settings(engine, self.strength)
        return (tuned["iterations"] if self.iterations is None else self.iterations,
                tuned["depth"] if self.depth is None else self.depth,
                tuned["exploration"] if self.exploration is None else self.exploration,
                tuned["widening"])

    def choose(self, engine, state: dict, seat, seed: int | str = 0) -> dict:
        return self.rank(engine, state, seat, seed)[0].action

    def rank(self, engine, state: dict, seat, seed: int | str = 0) -> list[Ranked]:
        """Every legal action of ``seat``, best first: visited most, then the best mean, then the larger key (a
        single legal action is not searched: one entry, no visits). ``choose`` plays the first; the
        coach shows the first three with their win chances."""
        if seat not in engine.to_act(state):
            raise BotError(f"Seat {seat} is not to act now.")
        actions = own_actions(engine, state, seat)
        self.last_iterations = 0
        if len(actions) == 1:
            return [Ranked(actions[0], 0, None)]
        by_key = {action_key(action): action for action in actions}
        root = self.search(engine, state, seat, set(by_key), seed)
        stats = {key: (child.visits, child.total / child.visits if child.visits else 0.0)
                 for key, child in root.children.items() if key in by_key}
        order = sorted(by_key, key=lambda key: (*stats.get(key, (0, 0.0)), key), reverse=True)
        return [Ranked(by_key[key], stats.get(key, (0, 0.0))[0],
                       stats[key][1] if stats.get(key, (0,))[0] else None) for key in order]

    def search(self, engine, state: dict, seat, root_keys: set, seed) -> Node:
        rng = SearchRng(f"ismcts-{seed}")
        redeal, value, policy = redeal_function(engine), heuristic_function(engine), playout_function(engine)
        observed = engine.SPEC.observed
        iterations, depth, c, widening = self.settings(engine)
        legal_actions, apply, outcome, to_act = engine.legal_actions, engine.apply, engine.outcome, engine.to_act
        root_state = redeal(state, seat, rng)  # from here on, only what the seat sees
        # one tree, or one per seat when some moves are hidden from the other seats (module doc)
        trees = {seat: Node()} if observed is None else {each: Node() for each in range(seat_count(state))}
        root = trees[seat]
        clock = self.clock
        deadline = None if self.seconds is None else clock() + self.seconds
        log, sqrt = math.log, math.sqrt
        for iteration in range(iterations):
            if deadline is not None and iteration and clock() > deadline:
                break
            self.last_iterations = iteration + 1
            world = redeal(root_state, seat, rng)
            at, path = dict(trees), []
            for _ in range(MAX_TREE_STEPS):
                if outcome(world) is not None:
                    break
                actions = legal_actions(world)
                if not path:
                    mover = seat
                    options = [(key, action) for action in actions if action.get("seat") == seat
                               for key in (action_key(action),) if key in root_keys]
                else:
                    movers = [each for each in to_act(world) if is_player(each)]
                    mover = movers[0] if movers else None
                    options = [(action_key(action), action) for action in actions
                               if action.get("seat") == mover] if movers else []
                if not options:
                    if not actions:
                        break
                    world = apply(world, rng.choice(actions), rng)  # the GM, as chance
                    continue
                node = at[seat] if observed is None else at[mover]
                children = node.children
                untried, best, best_score = [], None, -1.0
                for key, action in options:
                    child = children.get(key)
                    if child is None:
                        untried.append((key, action))
                        continue
                    child.avail += 1
                    score = child.total / child.visits + c * sqrt(log(child.avail) / child.visits)
                    if score > best_score:
                        best, best_score = (child, action), score
                expand = untried and (best is None or widening is None or node is root
                                      or len(children) < widening * sqrt(node.visits) + 1)
                if expand:
                    if len(untried) == 1:
                        key, action = untried[0]
                    else:
                        action = policy(world, [each for _, each in untried], rng)
                        key = next(key for key, each in untried if each is action)
                    children[key] = Node(mover)
                    best = children[key], action
                child, action = best
                for owner, node_there in at.items():  # every tree follows the move as its owner sees it
                    if node_there is node:
                        at[owner] = child
                        continue
                    seen = action_key(observed(action, owner))
                    below = node_there.children.get(seen)
                    if below is None:
                        below = node_there.children[seen] = Node(mover)
                    at[owner] = below
                    path.append(below)
                path.append(child)
                world = apply(world, action, rng)
                if expand:
                    break
            for _ in range(depth):
                if outcome(world) is not None:
                    break
                actions = legal_actions(world)
                if not actions:
                    break
                world = apply(world, actions[0] if len(actions) == 1 else policy(world, actions, rng), rng)
            rewards: dict = {}
            for child in path:
                mover = child.mover
                reward = rewards.get(mover)
                if reward is None:
                    reward = rewards[mover] = value(world, mover)
                child.visits += 1
                child.total += reward
        return root


__all__ = ["IsmctsPlayer", "Node", "Ranked", "BotError"]
