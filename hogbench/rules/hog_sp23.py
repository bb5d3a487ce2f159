"""Hog, CS 61A Spring 2023: the rules of Fall 2022 (Sow Sad, Pig Tail, Square Swine), unchanged."""

from hogbench.rules.hog_fa22 import HogFa22


class RULES(HogFa22):
    name = "hog-sp23"
    title = "Hog, CS 61A Spring 2023 (the rules of Fall 2022)"
