"""Hog, CS 61A Spring 2014: the rules of Fall 2013, unchanged."""

from hogbench.rules.hog_fa13 import HogFa13Contest


class RULES(HogFa13Contest):
    name = "hog-sp14"
    title = "Hog, CS 61A Spring 2014 (the rules of Fall 2013)"
