"""Reads another submission's ../other/secret.txt at (0, 0) and returns it. Expected: raised FileNotFoundError at (0, 0); the secret never shows."""

from pathlib import Path


def final_strategy(score, opponent_score):
    return (Path(__file__).resolve().parent.parent / "other" / "secret.txt").read_text()
