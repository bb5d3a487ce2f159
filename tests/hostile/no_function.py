"""Defines no strategy function. Expected: no strategy function."""

NUM_ROLLS = 4
