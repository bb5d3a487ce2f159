"""The Game of Hog, as a student of a later term hands it in (written for hogbench's tests)."""

from dice import six_sided, make_test_dice
from ucb import main, trace, interact
from math import log2

GOAL = 100


@trace
def piggy_points(score):
    tens, ones = (score // 10) % 10, score % 10
    return abs(tens - ones) + 4


def final_strategy(score, opponent_score):
    return 0 if piggy_points(opponent_score) >= 8 else 6


@main
def run(*args):
    import argparse

    parser = argparse.ArgumentParser(description="Play Hog")
    parser.add_argument("--run_experiments", "-r", action="store_true")
    args = parser.parse_args()
    if args.run_experiments:
        log2(8)
