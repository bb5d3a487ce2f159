"""Writes a file into its own folder at import. Expected: import failed, Read-only file system (strategies may not write files)."""

from pathlib import Path

Path(__file__).with_name("hogbench-pwned.txt").write_text("pwned")


def final_strategy(score, opponent_score):
    return 4
