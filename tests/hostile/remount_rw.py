"""Remounts its own read-only folder writable and writes a sibling's file. Expected: valid, folder unchanged."""

import ctypes
import os

libc = ctypes.CDLL(None, use_errno=True)
here = os.path.dirname(os.path.abspath(__file__))
MS_REMOUNT, MS_BIND = 32, 4096
remounted = libc.mount(None, here.encode(), None, MS_REMOUNT | MS_BIND, None) == 0
try:
    with open(os.path.join(here, "sentinel.txt"), "w") as f:
        f.write("pwned")
    wrote = True
except OSError:
    wrote = False
# CapEff of this process: 0 when every capability was dropped
with open("/proc/self/status") as f:
    caps = next(line.split()[1] for line in f if line.startswith("CapEff"))
try:
    with open("/proc/sys/kernel/hostname", "w") as f:
        f.write("pwned")
    proc_sys = True
except OSError:
    proc_sys = False
PROBLEM = [
    what
    for what, bad in (
        ("remounted", remounted),
        ("wrote", wrote),
        ("proc_sys", proc_sys),
        (f"capabilities {caps}", int(caps, 16) != 0),
    )
    if bad
]


def final_strategy(score, opponent_score):
    return 4 if not PROBLEM else " ".join(PROBLEM)
