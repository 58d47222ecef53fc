"""Training agents: self-play with MaskablePPO, imitation of the heuristic, sharded vector
environments, evaluation against the baselines and the run's figures."""
