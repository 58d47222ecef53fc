"""A warm start for self-play: the network first imitates the heuristic agent.

A game's only reward comes at its end, and a network playing at random almost never beats
the heuristic, so PPO from scratch gets no signal against it. Imitation gives a start
near the heuristic's level: heuristic self-play games are recorded (every decision's
observation, mask and choice, and the final reward of the seat that chose), then the
policy is fitted to the choices (masked cross-entropy) and the value head to the final
rewards. PPO takes over from there.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tribune_env import Game, PlayerView
from tribune_env.envs.rewards import final_rewards

from ..arena.games import derive_seed
from ..arena.processes import parallel_map


@dataclass
class Demonstrations:
    observations: np.ndarray  # (decisions, observation size) float32
    masks: np.ndarray  # (decisions, actions) bool
    actions: np.ndarray  # (decisions,) int64
    returns: np.ndarray  # (decisions,) float32: the chooser's final reward

    def __len__(self) -> int:
        return len(self.actions)


def _play(job: tuple) -> tuple:
    """Heuristic self-play games `first`..`first + count - 1`, each seeded from `seed` and its
    number. The agents are built once and reset for each game."""
    from agents.heuristic import HeuristicAgent

    seed, first, count, players, reward = job
    agents = [HeuristicAgent() for _ in range(players)]
    observations, masks, actions, returns = [], [], [], []
    for number in range(first, first + count):
        game_seed = derive_seed(seed, number)
        game = Game(players, seed=game_seed, log=False)
        for seat in range(players):
            agents[seat].reset(seed=derive_seed(game_seed, seat))
        seats = []
        while not game.is_over:
            seat = game.current_player
            observation, mask, view = game.observe(seat), game.legal_mask(), PlayerView(game, seat)
            action = agents[seat].act(observation, mask, view)
            observations.append(observation)
            masks.append(mask.astype(bool))
            actions.append(action)
            seats.append(seat)
            game.step(action)
        returns.extend(final_rewards(game, reward)[seats])
    return observations, masks, actions, returns


def demonstrations(games: int, players: int, reward: str, seed: int, workers: int = 1, progress=None) -> Demonstrations:
    """Record `games` heuristic self-play games; the same arguments give the same data, whatever `workers`."""
    chunk = max(1, min(25, -(-games // (4 * workers))))  # games are seeded by number: any split gives the same data
    jobs = [(seed, first, min(chunk, games - first), players, reward) for first in range(0, games, chunk)]
    parts = list(_advance(parallel_map(_play, jobs, workers), jobs, progress))
    return Demonstrations(
        np.array([o for p in parts for o in p[0]], dtype=np.float32),
        np.array([m for p in parts for m in p[1]], dtype=bool),
        np.array([a for p in parts for a in p[2]], dtype=np.int64),
        np.array([r for p in parts for r in p[3]], dtype=np.float32),
    )


def _advance(parts, jobs, progress):
    for part, job in zip(parts, jobs):
        if progress is not None:
            progress(job[2])
        yield part


def imitate(
    network, outputs, data: Demonstrations, epochs: int, batch_size: int, learning_rate: float, seed: int, progress=None
) -> list[dict]:
    """Fit a policy network to the demonstrations; one dict of losses and accuracy per epoch.

    `network` is the torch module whose parameters are fitted (MaskablePPO's policy, an
    RLlib module); ``outputs(observations, masks)`` gives its log-probabilities of the
    actions, illegal ones masked, and its values (:func:`sb3_outputs`, ``training.rllib.trainer``), so
    both trainers get the same warm start. A tenth of the decisions (at least one) is held
    out to measure how often the network's most probable action is the heuristic's.
    """
    import torch

    rng = np.random.default_rng(seed)
    order = rng.permutation(len(data))
    held = order[: max(1, len(data) // 10)]
    train = order[len(held) :] if len(order) > len(held) else order
    tensors = {k: torch.as_tensor(getattr(data, k)) for k in ("observations", "actions", "returns")}
    optimizer = torch.optim.Adam(network.parameters(), lr=learning_rate)
    network.train(True)
    history = []
    for epoch in range(epochs):
        rows_order = rng.permutation(train)
        for start in range(0, len(rows_order), batch_size):
            rows = rows_order[start : start + batch_size]
            loss, _ = _losses(outputs, tensors, data.masks, rows)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        network.train(False)
        with torch.no_grad():
            loss, parts = _losses(outputs, tensors, data.masks, held)
        network.train(True)
        history.append({"epoch": epoch + 1, **parts})
        if progress is not None:
            progress(history[-1])
    network.train(False)
    return history


def sb3_outputs(policy):
    """``outputs`` for :func:`imitate` of a MaskablePPO policy."""

    def outputs(observations, masks):
        distribution = policy.get_distribution(observations, action_masks=masks)  # its logits are normalised
        return distribution.distribution.logits, policy.predict_values(observations).flatten()

    return outputs


def _losses(outputs, tensors: dict, masks: np.ndarray, rows: np.ndarray):
    """Cross-entropy of the heuristic's choices plus the value head's squared error."""
    import torch

    observations = tensors["observations"][rows]
    log_probabilities, values = outputs(observations, masks[rows])
    actions = tensors["actions"][rows]
    policy_loss = -log_probabilities.gather(1, actions[:, None]).mean()
    value_loss = torch.nn.functional.mse_loss(values, tensors["returns"][rows])
    accuracy = (log_probabilities.argmax(dim=1) == actions).float().mean()
    return policy_loss + 0.5 * value_loss, {
        "policy_loss": policy_loss.item(),
        "value_loss": value_loss.item(),
        "accuracy": accuracy.item(),
    }
