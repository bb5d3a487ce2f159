"""Hog, CS 61A Spring 2017: Pig Out (the number of 1s), Free Bacon, Hogtimus Prime, Hog Wild,
Swine Swap; the term's contest added Pork Chop.

These are hog-contest's rules (its module quotes them) with Pork Chop off by default: the
project's game. ``--option pork_chop=true`` gives the Spring 2017 contest, as ``hog-contest``.

The course's 1000 seeded games for the project's rules (``tests/play.sol`` in
cloverjiyoon/Structure-and-Interpretation-of-Computer-Programs-Python ``projects/hog``, whose
``hog.py`` is this term's) are reproduced turn for turn with Pork Chop off and hog-contest's
readings: Pig Out as the number of 1s, Hogtimus Prime on Free Bacon turns too (without it 999
games differ), Hog Wild (without it all 1000) and the swap after a turn that reaches the goal
(without it 8).
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
