"""Hog, CS 61A Spring 2017: Pig Out (the number of 1s), Free Bacon, Hogtimus Prime, Hog Wild,
Swine Swap; the term's contest added Pork Chop.

These are hog-contest's rules (its module quotes them) with Pork Chop off by default: the
project's game. ``--option pork_chop=true`` gives the Spring 2017 contest, as ``hog-contest``.
"""

from __future__ import annotations

from hogbench.rules.hog_contest import HogContest


class HogSp17(HogContest):
    name = "hog-sp17"
    title = "Hog, CS 61A Spring 2017 (the contest's Pork Chop an option)"
    hidden_state = "nothing beyond the two scores (with Pork Chop on: who has used it)"
    choice_help = "number of dice 0 to 10 (-1 for Pork Chop with --option pork_chop=true)"
    options_help = {
        "pork_chop": (False, "the contest's Pork Chop: -1 swaps the scores, once per player"),
    }
    rule_lines = (*HogContest.rule_lines[:-1], ("Pork Chop", "the contest's rule, an option"))


RULES = HogSp17
