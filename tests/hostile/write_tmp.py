"""Writes /tmp/hogbench-pwned.txt at import. Expected: import failed, File too large: even its private /tmp takes no data, and the real /tmp is untouched."""

from pathlib import Path

Path("/tmp/hogbench-pwned.txt").write_text("pwned")


def final_strategy(score, opponent_score):
    return 4
