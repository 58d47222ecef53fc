"""Contests between agents, which are not training: tournaments and their statistics,
reports and plots, the terminal game, game records and their replay."""
