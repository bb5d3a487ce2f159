"""Writes into the home directories /root and /home, then $HOME, at import. Expected: import failed, Read-only file system or No such file or directory."""

from pathlib import Path

for home in (Path("/root"), Path("/home"), Path.home()):
    (home / "hogbench-pwned.txt").write_text("pwned")


def final_strategy(score, opponent_score):
    return 4
