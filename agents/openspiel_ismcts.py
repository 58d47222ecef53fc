"""OpenSpiel's own IS-MCTS bot playing Tribune through ``python_tribune``: ``openspiel-ismcts``.

The bot searches OpenSpiel states of the game (:mod:`tribune_env.envs.openspiel`) and
samples its worlds with tribune's resampler (``resample_from_infostate``, which is
``Game.determinize``). A seat in a tournament does not hold the true game, only its view,
so the search starts from one world the seat cannot tell from the true one; every later
world is resampled from it, and all are the same to the seat. Leaves are valued by a
policy file's value head and its policy is the prior (PUCT), since random rollouts of a
game this long say nothing: ``net=PATH.pt`` (default: the shipped policy for the player
count). Options: ``simulations`` (default 100, never a time budget, so games replay
exactly), ``uct_c`` (default 2.0). Needs the ``openspiel`` extra.
"""

from __future__ import annotations

import numpy as np

from tribune_env.errors import ConfigError, install_hint

from .base import Agent


class NetworkEvaluator:
    """OpenSpiel's evaluator interface over a policy file: its prior and its value head."""

    def __init__(self, network):
        self.network = network

    def evaluate(self, state):
        table = state.table
        return self.network.value(np.stack([table.observe(p) for p in range(table.n)]))

    def prior(self, state):
        table = state.table
        probs = self.network.probabilities(table.observe(table.current_player)[None], table.legal_mask()[None])[0]
        return [(int(a), float(probs[a])) for a in table.legal_actions()]


class OpenSpielISMCTSAgent(Agent):
    name = "openspiel-ismcts"

    def __init__(self, seed=None, simulations: int = 100, uct_c: float = 2.0, net: str = ""):
        try:
            import pyspiel  # noqa: F401
        except ImportError as error:
            raise ConfigError(f"openspiel-ismcts needs OpenSpiel, {install_hint('openspiel')}") from error
        if not isinstance(simulations, int) or simulations < 1 or not 0 < uct_c < 1000:
            raise ConfigError(
                f"openspiel-ismcts: simulations must be at least 1 and uct_c positive, got {simulations}, {uct_c}"
            )
        super().__init__(seed)
        self.simulations, self.uct_c, self.net = simulations, float(uct_c), net
        self._networks = {}

    def _evaluator(self, players: int) -> NetworkEvaluator:
        if players not in self._networks:
            from .policy import PolicyAgent
            from .trained import POLICIES

            path = self.net or POLICIES[players]  # a policy ships for every table size
            self._networks[players] = NetworkEvaluator(PolicyAgent(path=str(path)))
        return self._networks[players]

    def act(self, observation, action_mask, view) -> int:
        from open_spiel.python.algorithms.ismcts import ChildSelectionPolicy, ISMCTSBot

        from tribune_env.envs.openspiel import state_of

        search = np.random.RandomState(int(self.rng.integers(2**31)))
        state = state_of(view.determinize(self.rng))
        bot = ISMCTSBot(
            state.get_game(),
            self._evaluator(view.num_players),
            self.uct_c,
            self.simulations,
            random_state=search,
            allow_inconsistent_action_sets=True,
            child_selection_policy=ChildSelectionPolicy.PUCT,
        )
        bot.set_resampler(lambda world, player: world.resample_from_infostate(player, search.uniform))
        return int(bot.step(state))
