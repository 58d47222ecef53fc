"""Agents against each other: tournaments with ratings, a person at the table, saved games replayed."""
