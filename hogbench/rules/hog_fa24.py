"""Hog, CS 61A Fall 2024: the rules of Fall 2023 (Sow Sad, Boar Brawl, Sus Fuss), unchanged."""

from hogbench.rules.hog_fa23 import HogFa23


class RULES(HogFa23):
    name = "hog-fa24"
    title = "Hog, CS 61A Fall 2024 (the rules of Fall 2023)"
