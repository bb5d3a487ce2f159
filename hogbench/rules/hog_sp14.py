"""Hog, CS 61A Spring 2014: the rules of Fall 2013, unchanged."""

from hogbench.rules.hog_fa13 import HogFa13


class RULES(HogFa13):
    name = "hog-sp14"
    title = "Hog, CS 61A Spring 2014 (the rules of Fall 2013)"
