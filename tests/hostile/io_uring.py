"""Sets up io_uring, whose requests the seccomp filter would not see. Expected: valid, refused."""

import ctypes
import platform

libc = ctypes.CDLL(None, use_errno=True)
NR = {"x86_64": 425, "aarch64": 425}.get(platform.machine())
params = ctypes.create_string_buffer(120)
fd = libc.syscall(NR, 8, params) if NR else -1


def final_strategy(score, opponent_score):
    return 4 if fd < 0 else f"io_uring fd {fd}"
