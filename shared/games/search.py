"""The search bot: information-set Monte Carlo tree search (single-observer ISMCTS, Cowling,
Powley and Whitehouse 2012) from one seat's view.

Each iteration draws a whole state the seat's view could come from (the game's
`Search.determinize`: what the view hides is drawn anew every time, so the tree learns moves
that are good whatever the hidden cards are), walks the tree with UCB1 among the moves legal in
that state (a move's chances are counted only in the iterations where it was legal), adds one
node, then plays on with the game's own rules (random moves, or the game's `policy` where the
level asks for better playouts) for at most `depth` commands, and scores the end reached: the
game's result where it ended, else the game's `evaluate`. The tree is open loop: a node stands
for the moves leading to it, whatever the dice or draws in between (drawn by the rules from the
search's own generator).

The bot reads the seat's view only (the same view the bot service reads from the bus), so it
cannot know more than that seat; `tests/games/test_bot_levels.py` checks it on whole games.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec

from shared.games.decider import Command, Context, Game, PlayerId, Rejection, Search, View

_encode = msgspec.json.Encoder().encode
SURE = 3  # iterations per move at the root, at the least, for the search to pick over the policy


@dataclass(frozen=True, kw_only=True)
class Settings:
    """How hard the search thinks: `iterations` at most, within `budget_s` seconds at most
    (None: no time limit, so that a seeded search is repeatable), playouts of at most `depth`
    commands, guided by the game's policy or random."""

    iterations: int
    budget_s: float | None
    depth: int
    guided: bool
    exploration: float = 0.7
    # guided only: the search's move replaces the policy's only when its average reward is
    # ahead by more than this many standard errors (0: the most visited move, as it comes)
    doubt: float = 0.0


@dataclass(eq=False)
class _Node:
    player: PlayerId | None = None  # who made the move leading here
    visits: int = 0
    available: int = 0  # iterations in which that move was legal
    reward: float = 0.0  # summed over visits, for `player`
    reward_sq: float = 0.0  # the squares summed, for the spread of `reward`
    children: dict[bytes, _Node] = field(default_factory=dict)


@dataclass
class Outcome:
    """The move chosen, and what the search did to choose it."""

    command: dict[str, Any]
    iterations: int
    seconds: float


def search_move(
    game: Game[Any, Any],
    view: View,
    rng: random.Random,
    settings: Settings,
    clock: Callable[[], float] = time.perf_counter,
) -> Outcome:
    """The move for the seat of `view` (one of its `legal` commands, never `undo`)."""
    started = clock()
    legal = [c for c in view["legal"] if c.get("type") != "undo"]
    search = game.search
    assert search is not None, f"{game.name} has no search"
    seat: PlayerId = view["you"]
    offered = {_encode(c): c for c in legal}
    root = _Node()
    deadline = None if settings.budget_s is None else started + settings.budget_s
    done = 0
    now = started
    # the longest iteration so far: one more must fit, and room for the policy's move after it
    slowest = 0.0
    while done < settings.iterations and (deadline is None or now + 2 * slowest < deadline):
        _iterate(game, search, root, search.determinize(view, rng), seat, offered, rng, settings)
        done += 1
        if deadline is not None:
            before, now = now, clock()
            slowest = max(slowest, now - before)
    best = _most_visited(root, seat, offered)
    if best is None or done < SURE * len(offered):
        best = _policy_move(game, search, view, seat, offered, rng)
    elif settings.guided and settings.doubt > 0:
        preferred = _policy_move(game, search, view, seat, offered, rng)
        if not _clearly_better(root.children[best], root.children.get(preferred), settings.doubt):
            best = preferred
    return Outcome(command=dict(offered[best]), iterations=done, seconds=clock() - started)


def _policy_move(
    game: Game[Any, Any],
    search: Search[Any],
    view: View,
    seat: PlayerId,
    offered: Mapping[bytes, Any],
    rng: random.Random,
) -> bytes:
    """The game's quick policy's move, where too few iterations ran to tell the moves apart (a
    move tried once or twice says little, and picking the luckiest is worse than the policy)."""
    state = search.determinize(view, rng)
    legal = [c for c in game.legal_commands(state, seat) if _encode(c) in offered]
    if not legal:
        return rng.choice(sorted(offered))
    return _encode(search.policy(state, seat, legal, rng))


def _iterate(
    game: Game[Any, Any],
    search: Search[Any],
    root: _Node,
    state: Any,
    seat: PlayerId,
    offered: Mapping[bytes, Any],
    rng: random.Random,
    settings: Settings,
) -> None:
    path: list[_Node] = []
    node = root
    expanded = False
    while not expanded and not game.is_terminal(state):
        turn = _next_turn(game, state, rng, seat if node is root else None)
        if turn is None:
            break
        player, legal = turn
        moves = [(_encode(c), c) for c in legal]
        if node is root:  # only the moves the seat was offered (the view is the truth)
            moves = [(key, c) for key, c in moves if key in offered]
        if not moves:
            break
        untried = []
        for key, command in moves:
            child = node.children.get(key)
            if child is None:
                untried.append((key, command))
            else:
                child.available += 1
        if settings.guided and node is not root:
            # below the root, the policy's move: trying every move at random first would charge
            # a mover's blunders to the move before it (and make handing the turn over look good)
            command = search.policy(state, player, legal, rng)
            key = _encode(command)
            child = node.children.get(key)
            expanded = child is None
            if child is None:
                child = node.children[key] = _Node(player=player, available=1)
            node = child
        elif untried:
            key, command = rng.choice(untried)
            node.children[key] = node = _Node(player=player, available=1)
            expanded = True
        else:
            key, command = max(moves, key=lambda m: _ucb(node.children[m[0]], settings.exploration))
            node = node.children[key]
        path.append(node)
        state = _apply(game, state, player, command, rng)
    state = _playout(game, search, state, rng, settings)
    rewards = _rewards(game, search, state)
    for visited in path:
        visited.visits += 1
        reward = rewards.get(visited.player or "", 0.0)
        visited.reward += reward
        visited.reward_sq += reward * reward


def _next_turn(
    game: Game[Any, Any], state: Any, rng: random.Random, seat: PlayerId | None
) -> tuple[PlayerId, Sequence[Command]] | None:
    """Who moves next and what they may do: at the root the seat itself; where several act at
    once (a simultaneous step), one of them at random."""
    to_act = game.players_to_act(state)
    if not to_act:
        return None
    player: PlayerId = seat if seat is not None and seat in to_act else rng.choice(to_act)
    legal = game.legal_commands(state, player)
    return (player, legal) if legal else None


def _ucb(node: _Node, exploration: float) -> float:
    return node.reward / node.visits + exploration * math.sqrt(math.log(node.available) / node.visits)


def _apply(game: Game[Any, Any], state: Any, player: PlayerId, command: Command, rng: random.Random) -> Any:
    events = game.decide(state, command, Context(actor=player, rng=rng))
    if isinstance(events, Rejection):  # a rules module refusing its own legal move: a bug
        raise AssertionError(f"{game.name}: legal {command} refused: {events}")
    for event in events:
        state = game.evolve(state, event)
    return state


def _playout(
    game: Game[Any, Any], search: Search[Any], state: Any, rng: random.Random, settings: Settings
) -> Any:
    for _ in range(settings.depth):
        if game.is_terminal(state):
            break
        turn = _next_turn(game, state, rng, None)
        if turn is None:
            break
        player, legal = turn
        command = search.policy(state, player, legal, rng) if settings.guided else rng.choice(legal)
        state = _apply(game, state, player, command, rng)
    return state


def _rewards(game: Game[Any, Any], search: Search[Any], state: Any) -> Mapping[PlayerId, float]:
    """A win is 1 (shared among the winners), anything else 0; a game not over yet is worth
    the game's estimate of each player's chances."""
    if not game.is_terminal(state):
        return search.evaluate(state)
    winners = game.result(state).winners
    return {p: 1.0 / len(winners) for p in winners}


def _clearly_better(best: _Node, preferred: _Node | None, doubt: float) -> bool:
    """Is `best` ahead of the policy's move by more than `doubt` standard errors of the
    difference of their averages? Each iteration draws new hidden cards, so averages over a
    few dozen visits are noisy; where they do not tell the moves apart, the policy's move is
    the better bet (a greedy move chosen on what the seat sees, not on a lucky draw)."""
    if preferred is None or preferred is best or not preferred.visits:
        return preferred is not best
    spread = 0.0
    for node in (best, preferred):
        mean = node.reward / node.visits
        variance = max(node.reward_sq / node.visits - mean * mean, 0.0)
        spread += variance / node.visits
    gap = best.reward / best.visits - preferred.reward / preferred.visits
    return gap > doubt * math.sqrt(spread)


def _most_visited(root: _Node, seat: PlayerId, offered: Mapping[bytes, Any]) -> bytes | None:
    """The root move visited most (the robust child), ties to the better average."""
    scored = [
        (child.visits, child.reward / child.visits, key)
        for key, child in root.children.items()
        if key in offered and child.player == seat and child.visits
    ]
    return max(scored)[2] if scored else None
