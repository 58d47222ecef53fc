"""Self-play training with RLlib's PPO on Ray: the league (:mod:`.league`) and the run (:mod:`.trainer`)."""
